/* md5cine sheet SOURCE -o sheet.png: a contact sheet of a scene (rendered), a video or a folder
 * of PNGs; the picks, layout and drawing are the library's (sheet.h). A video with sound gets
 * its waveform under the cells, with its onsets (audio_compare.h) marked, over the time of its
 * frames; a scene with sound its mix (soundtrack.h), with each sound event that played marked
 * at its first sample. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/audio_compare.h>
#include <md5cine/audio_in.h>
#include <md5cine/fileio.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>
#include <md5cine/limits.h>
#include <md5cine/report.h>
#include <md5cine/scene.h>
#include <md5cine/soundtrack.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/sheet.h>
#include <md5cine/timeline.h>

#include "args.h"
#include "cli.h"
#include "render_cli.h"
#include "scene_args.h"

typedef struct sheet_args {
    const char *source, *out;
    long every;            /* 0: the default picks */
    int cell_w, cell_h;    /* --size */
    int columns;           /* --columns */
    int width, height;     /* --render-size */
    mc_scene_args view;    /* the options render shares (scene_args.h) */
} sheet_args;

/* What the sheet is made of: the frames picked and what each label needs. */
typedef struct sheet_run {
    const sheet_args *a;
    mc_scene scene;
    bool scene_loaded;
    mc_scene_renderer *sr;
    mc_frames_in *src;
    int64_t count;         /* frames in the source */
    mc_rate fps;           /* for the time code */
    int64_t starts[MC_SHEET_MAX_CELLS]; /* source index of each shot start after index 0 */
    int numbers[MC_SHEET_MAX_CELLS];    /* a video's: the shot number starting there */
    int first_number;      /* a video's: the shot number of index 0 (0: none) */
    size_t num_starts;
    bool shots;            /* shot numbers are known */
    int64_t picks[MC_SHEET_MAX_CELLS]; /* indices into the source */
    size_t num_picks;
    int frame_w, frame_h;
    uint8_t *frame;        /* a rendered frame (scenes) */
    uint8_t *sheet;
    mc_sheet_layout layout;
    mc_audio_track sound;  /* a video's sound, or a copy of a scene's mix (MC_SOUND_RATE) */
    bool has_sound;        /* it has samples: the sheet draws its waveform */
    mc_soundtrack st;      /* a scene's sound: its events are the marks */
} sheet_run;

static bool parse_wxh(const char *s, long lo, long hi, int *w, int *h)
{
    char *end;
    long a, b;

    errno = 0;
    a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno || a < lo || a > hi)
        return false;
    if (!mc_arg_long(end + 1, lo, hi, &b))
        return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool parse_cell(void *field, const char *s)
{
    sheet_args *a = (sheet_args *)(void *)((char *)field - offsetof(sheet_args, cell_w));

    return parse_wxh(s, 1, 4096, &a->cell_w, &a->cell_h);
}

static bool parse_render_size(void *field, const char *s)
{
    sheet_args *a = (sheet_args *)(void *)((char *)field - offsetof(sheet_args, width));

    return parse_wxh(s, MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE, &a->width,
                     &a->height);
}

#define F(m) offsetof(sheet_args, m)

static const mc_arg_opt sheet_opts[] = {
    { .name = "--output", .alias = "-o", .kind = MC_ARG_STRING, .offset = F(out),
      .metavar = "PNG", .help = "the sheet to write (a .png)" },
    { .name = "--every", .kind = MC_ARG_INT, .offset = F(every), .min = 1, .max = 1000000000,
      .metavar = "N", .help = "every N-th frame from frame 0 (default: each shot's first and\n"
                              "last frame; without shots, 12..24 frames evenly)" },
    { .name = "--size", .kind = MC_ARG_CUSTOM, .offset = F(cell_w), .parse = parse_cell,
      .expect = "WxH, 1..4096 each", .metavar = "WxH",
      .help = "the picture of each cell (default 320 wide, the frames' aspect)" },
    { .name = "--columns", .kind = MC_ARG_INT, .offset = F(columns), .min = 1, .max = 256,
      .metavar = "C", .help = "cells per row (default 4; alone it makes cells 1280/C wide)" },
    { .name = "--render-size", .kind = MC_ARG_CUSTOM, .offset = F(width),
      .parse = parse_render_size, .expect = "WxH, 16..16384 each", .metavar = "WxH",
      .help = "scenes: the size frames are rendered at (default: the scene's)" },
    MC_SCENE_ARG_OPTS(F(view)),
};

static const mc_arg_spec sheet_spec = {
    .command = "sheet",
    .synopsis = "usage: md5cine sheet SCENE|VIDEO|FOLDER -o sheet.png [options]\n"
                "  A contact sheet: the frames picked, each labelled with its output frame\n"
                "  number, time code HH:MM:SS:FF and shot (a scene's shots, a video's chapters).\n"
                "  The options render shares (--fps .. --quiet) draw a scene as render does;\n"
                "  --fps is also the time code's rate of a folder (default 24).\n",
    .epilog = "exit status: 0 written, 2 bad input or usage, 3 runtime failure (GL, I/O)\n",
    .opts = sheet_opts,
    .nopts = MC_ARG_COUNT(sheet_opts),
    .min_pos = 1,
    .max_pos = 1,
    .too_few = "sheet needs a scene, a video or a folder: md5cine sheet SOURCE -o sheet.png",
    .too_many = ": sheet takes one source",
};

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int fail(const mc_error *e, bool input)
{
    mc_diag_print(stderr, "error", e);
    if (input && e->code != MC_ERR_NOMEM)
        return MC_EXIT_INPUT;
    return mc_exit_code(e->code);
}

/* A scene: loaded, a renderer made, its cuts as shot starts. */
static int open_scene(sheet_run *run)
{
    const sheet_args *a = run->a;
    mc_parse_opts popts = { 0 };
    mc_scene_renderer_desc d = { 0 };
    mc_error e;

    popts.lenient = a->view.lenient;
    popts.warn = mc_diag_warn;
    popts.error = mc_diag_error;
    if (mc_scene_load(a->source, &popts, &run->scene, &e) != MC_OK)
        return fail(&e, true);
    run->scene_loaded = true;
    d.scene = &run->scene;
    d.width = a->width;
    d.height = a->height;
    d.fps = a->view.fps;
    d.msaa = a->view.msaa;
    d.shading = a->view.shading;
    d.no_shadows = a->view.no_shadows != 0;
    d.backend = a->view.gl;
    d.warn = mc_diag_warn;
    {
        /* Under `ulimit -v`, refused before the GL driver runs out (address_space.c). */
        int w = a->width ? a->width : run->scene.width ? run->scene.width : 1280;
        int h = a->height ? a->height : run->scene.height ? run->scene.height : 720;
        mc_address_need need;
        int rc;

        mc_cli_render_need(&run->scene, w, h, a->view.msaa, &need);
        if ((rc = mc_cli_address_check("rendering this scene", need.gl + need.frame)) != -1)
            return rc;
    }
    if (mc_scene_renderer_create(&d, &run->sr, &e) != MC_OK)
        return fail(&e, e.code != MC_ERR_GL);
    mc_scene_renderer_get_info(run->sr, &run->frame_w, &run->frame_h, &run->fps, NULL);
    run->count = mc_scene_renderer_frame_count(run->sr);
    run->shots = true;
    for (int i = 0; i < run->scene.camera.num_cuts; i++) {
        int64_t k = mc_timeline_cut_frame(&run->scene.camera, run->fps, i);
        bool repeat = run->num_starts && run->starts[run->num_starts - 1] >= k;
        if (k > 0 && k < run->count && !repeat && run->num_starts < MC_SHEET_MAX_CELLS)
            run->starts[run->num_starts++] = k;
    }
    run->frame = malloc((size_t)run->frame_w * (size_t)run->frame_h * 4);
    if (!run->frame) {
        mc_error_set(&e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a frame");
        return fail(&e, false);
    }
    return -1;
}

/* A video's chapters ("Shot N", in the frame numbers of the scene) as shot starts in source
 * indices: a chunk video (render --frames A-B) starts at frame A, inside a shot. */
static int video_shots(sheet_run *run)
{
    int64_t base = run->count > 0 ? mc_frames_number(run->src, 0) : 0;
    mc_shot_range *r;
    size_t n;
    mc_error e;

    if (mc_report_chapters(run->a->source, &r, &n, &e) != MC_OK)
        return fail(&e, false);
    for (size_t i = 0; i < n; i++) {
        if (r[i].first <= base && r[i].last >= base)
            run->first_number = r[i].number;
        else if (r[i].first > base && r[i].first - base < run->count &&
                 run->num_starts < MC_SHEET_MAX_CELLS) {
            run->starts[run->num_starts] = r[i].first - base;
            run->numbers[run->num_starts++] = r[i].number;
        }
    }
    run->shots = n > 0;
    free(r);
    return -1;
}

/* A video (its chapters are its shots) or a folder of PNGs (no shots). */
static int open_frames(sheet_run *run)
{
    mc_error e;
    int rc;

    if (mc_frames_open(run->a->source, &run->src, &e) != MC_OK)
        return fail(&e, true);
    run->count = (int64_t)mc_frames_count(run->src);
    run->fps = mc_frames_rate(run->src);
    if (mc_frames_kind_of(run->src) == MC_FRAMES_VIDEO && (rc = video_shots(run)) >= 0)
        return rc;
    if (run->a->view.fps.num > 0 && mc_frames_kind_of(run->src) != MC_FRAMES_VIDEO)
        run->fps = run->a->view.fps;
    if (run->fps.num <= 0)
        run->fps = (mc_rate){ 24, 1 };
    if (mc_frames_size(run->src, 0, &run->frame_w, &run->frame_h, &e) != MC_OK)
        return fail(&e, true);
    return -1;
}

static int pick(sheet_run *run)
{
    size_t n;

    if (run->a->every > 0)
        n = mc_sheet_pick_every(run->count, run->a->every, run->picks, MC_SHEET_MAX_CELLS);
    else if (run->shots)
        n = mc_sheet_pick_shots(run->count, run->starts, run->num_starts, run->picks,
                                MC_SHEET_MAX_CELLS);
    else
        n = mc_sheet_pick_every(run->count, mc_sheet_default_every(run->count), run->picks,
                                MC_SHEET_MAX_CELLS);
    if (n > MC_SHEET_MAX_CELLS) {
        fprintf(stderr, "md5cine: error: %zu frames picked, a sheet holds at most %d (use a "
                        "larger --every)\n", n, MC_SHEET_MAX_CELLS);
        return MC_EXIT_INPUT;
    }
    run->num_picks = n;
    return -1;
}

static int make_layout(sheet_run *run)
{
    mc_sheet_layout_desc d = { 0 };
    mc_error e;

    d.frame_width = run->frame_w;
    d.frame_height = run->frame_h;
    d.cell_width = run->a->cell_w;
    d.cell_height = run->a->cell_h;
    d.columns = run->a->columns;
    d.cells = run->num_picks;
    d.wave_height = run->has_sound ? MC_SHEET_WAVE_HEIGHT : 0;
    if (mc_sheet_layout_make(&d, &run->layout, &e) != MC_OK)
        return fail(&e, true);
    run->sheet = malloc((size_t)run->layout.width * (size_t)run->layout.height * 4);
    if (!run->sheet) {
        mc_error_set(&e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the sheet");
        return fail(&e, false);
    }
    mc_sheet_clear(&run->layout, run->sheet, (size_t)run->layout.width * 4);
    return -1;
}

/* The frame at source index idx into *v, and its number and shot (0-based, -1: unknown). */
static int get_frame(sheet_run *run, int64_t idx, mc_image_view *v, int64_t *number, int *shot)
{
    mc_scene_frame_info info;
    mc_frame f;
    mc_error e;

    *number = idx;
    *shot = -1;
    if (run->sr) {
        *v = (mc_image_view){ run->frame_w, run->frame_h, (size_t)run->frame_w * 4, run->frame };
        if (mc_scene_renderer_frame(run->sr, idx, v, &info, &e) != MC_OK)
            return fail(&e, false);
        *shot = info.shot;
        return -1;
    }
    if (mc_frames_read(run->src, (size_t)idx, &f, &e) != MC_OK)
        return fail(&e, true);
    *v = (mc_image_view){ f.width, f.height, f.stride, (uint8_t *)(uintptr_t)f.rgba };
    *number = mc_frames_number(run->src, (size_t)idx);
    if (run->shots) {
        *shot = run->first_number - 1;
        for (size_t i = 0; i < run->num_starts && run->starts[i] <= idx; i++)
            *shot = run->numbers[i] - 1;
    }
    return -1;
}

static int draw(sheet_run *run)
{
    size_t stride = (size_t)run->layout.width * 4;

    for (size_t i = 0; i < run->num_picks; i++) {
        mc_image_view v;
        int64_t number;
        int shot, rc = get_frame(run, run->picks[i], &v, &number, &shot);
        char tc[32], text[128];

        if (rc >= 0)
            return rc;
        mc_sheet_timecode(number, run->fps, tc, sizeof tc);
        if (shot >= 0)
            snprintf(text, sizeof text, "frame %lld  %s  shot %d", (long long)number, tc,
                     shot + 1);
        else
            snprintf(text, sizeof text, "frame %lld  %s", (long long)number, tc);
        mc_sheet_draw_cell(&run->layout, run->sheet, stride, i, &v, text);
    }
    return -1;
}

/* A scene's sound over its frames, its mix copied into run->sound. */
static int scene_sound(sheet_run *run)
{
    mc_parse_opts popts = { .lenient = run->a->view.lenient, .warn = mc_diag_warn };
    mc_soundtrack_desc d = { .scene = &run->scene, .fps = run->fps, .num_frames = run->count,
                             .opts = &popts };
    mc_error e;

    if (!mc_soundtrack_scene_has_sound(&run->scene))
        return -1;
    if (mc_soundtrack_make(&d, &run->st, &e) != MC_OK)
        return fail(&e, true);
    if (!run->st.mix || run->st.frames <= 0)
        return -1;
    run->sound.samples = malloc((size_t)run->st.frames * 2 * sizeof(float));
    if (!run->sound.samples) {
        mc_error_set(&e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the sound");
        return fail(&e, false);
    }
    memcpy(run->sound.samples, run->st.mix, (size_t)run->st.frames * 2 * sizeof(float));
    run->sound.has_audio = true;
    run->sound.frames = run->st.frames;
    run->sound.rate = MC_SOUND_RATE;
    run->has_sound = true;
    return -1;
}

/* A video's sound, read whole; a scene's, mixed; none for a folder. */
static int read_sound(sheet_run *run)
{
    mc_error e;

    if (run->scene_loaded)
        return scene_sound(run);
    if (!run->src || mc_frames_kind_of(run->src) != MC_FRAMES_VIDEO)
        return -1;
    if (mc_audio_read(run->a->source, MC_SOUND_RATE, &run->sound, &e) != MC_OK)
        return fail(&e, true);
    run->has_sound = run->sound.has_audio && run->sound.frames > 0;
    return -1;
}

/* The marks' samples: a scene's events that played, else the onsets of the sound. */
static mc_status wave_marks(const sheet_run *run, int64_t **out, size_t *count, mc_error *e)
{
    if (!run->scene_loaded)
        return mc_audio_onsets(&run->sound, out, count, e);
    *count = 0;
    *out = malloc((run->st.num_events + 1) * sizeof **out);
    if (!*out)
        return mc_error_set(e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the waveform");
    for (size_t i = 0; i < run->st.num_events; i++)
        if (run->st.events[i].file && run->st.events[i].outcome == MC_MIX_PLAYED)
            (*out)[(*count)++] = run->st.events[i].sample;
    return MC_OK;
}

/* The waveform band over the frames' time: frame numbers first .. last + 1 at the rate. */
static int draw_wave(sheet_run *run)
{
    size_t n = (size_t)run->layout.wave_width, count = 0;
    int64_t num = run->fps.num > 0 ? run->fps.num : 24, den = run->fps.den > 0 ? run->fps.den : 1;
    int64_t f0 = run->src ? mc_frames_number(run->src, 0) : 0;
    int64_t f1 = run->src ? mc_frames_number(run->src, (size_t)run->count - 1) + 1 : run->count;
    int64_t first = f0 * MC_SOUND_RATE * den / num, end = f1 * MC_SOUND_RATE * den / num;
    float *mn = malloc(n * sizeof *mn), *mx = malloc(n * sizeof *mx);
    int64_t *on = NULL;
    int *marks = NULL;
    size_t nmarks = 0;
    mc_error e;
    int rc = -1;

    if (!mn || !mx || wave_marks(run, &on, &count, &e) != MC_OK ||
        !(marks = malloc((count + 1) * sizeof *marks))) {
        mc_error_set(&e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the waveform");
        rc = fail(&e, false);
    } else {
        mc_audio_envelope(&run->sound, first, end > first ? end : first + 1, mn, mx, n);
        for (size_t k = 0; k < count && end > first; k++)
            if (on[k] >= first && on[k] < end)
                marks[nmarks++] = (int)((on[k] - first) * (int64_t)n / (end - first));
        mc_sheet_draw_wave(&run->layout, run->sheet, (size_t)run->layout.width * 4, mn, mx, n,
                           marks, nmarks);
    }
    free(mn);
    free(mx);
    free(on);
    free(marks);
    return rc;
}

static int write_sheet(sheet_run *run)
{
    mc_error e;

    mc_outfile_sweep(run->a->out); /* temporaries of killed runs */
    if (mc_png_write(run->a->out, run->sheet, run->layout.width, run->layout.height,
                     (size_t)run->layout.width * 4, 0, &e) != MC_OK)
        return fail(&e, false);
    if (run->a->view.progress != MC_PROGRESS_QUIET)
        mc_cli_wrote(run->a->out, "%zu frames, %d x %d cells of %dx%d, %dx%d", run->num_picks,
                     run->layout.columns, run->layout.rows, run->layout.cell_width,
                     run->layout.cell_height, run->layout.width, run->layout.height);
    return MC_EXIT_OK;
}

/* The sheet replaces none of the files it is made from (a scene's, the files of its base its
 * materials read, or a frame of the source). */
static int check_output(const sheet_run *run)
{
    mc_guard g = { 0 };
    int rc;

    mc_guard_add(&g, run->a->source);
    if (run->scene_loaded)
        mc_guard_add_scene(&g, &run->scene);
    for (int i = 0; run->sr && i < mc_scene_renderer_input_count(run->sr); i++)
        mc_guard_add(&g, mc_scene_renderer_input(run->sr, i));
    rc = mc_guard_output(&g, "-o", run->a->out);
    mc_guard_release(&g);
    return rc;
}

int mc_cmd_sheet(int argc, char **argv)
{
    sheet_args a = { 0 };
    sheet_run *run;
    int npos, rc;

    a.view.msaa = MC_MSAA_DEFAULT;
    rc = mc_args_parse(&sheet_spec, argc, argv, &a, &npos);
    if (rc != -1)
        return rc;
    a.source = argv[1];
    if (!a.out)
        return mc_usage_error("sheet needs -o sheet.png");
    if (!ends_with_ci(a.out, ".png"))
        return mc_usage_error("the sheet is a PNG: -o must end in .png");
    run = calloc(1, sizeof *run);
    if (!run) {
        fputs("md5cine: error: out of memory\n", stderr);
        return MC_EXIT_RUNTIME;
    }
    run->a = &a;
    rc = ends_with_ci(a.source, ".md5scene") ? open_scene(run) : open_frames(run);
    if (rc < 0)
        rc = check_output(run);
    if (rc < 0)
        rc = pick(run);
    if (rc < 0)
        rc = read_sound(run);
    if (rc < 0)
        rc = make_layout(run);
    if (rc < 0)
        rc = draw(run);
    if (rc < 0 && run->has_sound)
        rc = draw_wave(run);
    if (rc < 0)
        rc = write_sheet(run);
    mc_scene_renderer_release(run->sr);
    if (run->scene_loaded)
        mc_scene_release(&run->scene);
    mc_frames_release(run->src);
    mc_audio_track_release(&run->sound);
    mc_soundtrack_release(&run->st);
    free(run->frame);
    free(run->sheet);
    free(run);
    return rc;
}
