/* md5cine render: the command line's options (see render_opts). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
#include <md5cine/output.h>
#include <md5cine/refcheck.h>

#include "args.h"
#include "cli.h"
#include "limit_args.h"
#include "mesh_scene.h"
#include "render_cli.h"
#include "scene_args.h"

static bool parse_size(void *field, const char *s)
{
    mc_render_opts *o = field;
    char *end;
    long a, b;

    errno = 0;
    a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno)
        return false;
    if (!mc_arg_long(end + 1, MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE, &b) ||
        a < MC_LIMIT_RENDER_MIN_SIDE || a > MC_LIMIT_RENDER_MAX_SIDE)
        return false;
    o->width = (int)a;
    o->height = (int)b;
    return true;
}

static bool parse_frames(void *field, const char *s)
{
    mc_render_opts *o = field;

    if (!mc_arg_frame_range(s, &o->first, &o->last))
        return false;
    o->has_frames = true;
    return true;
}

static bool parse_offset(void *field, const char *s)
{
    mc_render_opts *o = field;
    long v;

    if (!mc_arg_long(s, -MC_LIMIT_REFERENCE_FRAMES, MC_LIMIT_REFERENCE_FRAMES, &v))
        return false;
    o->ref_offset = v;
    o->has_ref_offset = true;
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "none", "#rrggbb", "r,g,b" with 0..1 floats, or 0..255 integers when any value is above 1. */
static bool parse_background(void *field, const char *s)
{
    mc_render_opts *o = field;
    double v[3];
    const char *c = s;
    bool above_one = false;

    if (strcmp(s, "none") == 0) {
        o->bg_mode = MC_BACKGROUND_NONE;
        return true;
    }
    if (s[0] == '#') {
        if (strlen(s) != 7)
            return false;
        for (int i = 0; i < 3; i++) {
            int hi = hex_digit(s[1 + 2 * i]), lo = hex_digit(s[2 + 2 * i]);

            if (hi < 0 || lo < 0)
                return false;
            o->bg[i] = (float)(hi * 16 + lo) / 255.0f;
        }
        o->bg_mode = MC_BACKGROUND_GIVEN;
        return true;
    }
    for (int i = 0; i < 3; i++) {
        char *end;

        errno = 0;
        v[i] = strtod(c, &end);
        if (end == c || errno || !(v[i] >= 0.0) || v[i] > 255.0 || *end != (i < 2 ? ',' : '\0'))
            return false;
        above_one = above_one || v[i] > 1.0;
        c = end + 1;
    }
    for (int i = 0; i < 3; i++) {
        if (above_one && v[i] != (double)(long)v[i])
            return false; /* 0..255 values must be whole */
        o->bg[i] = (float)(above_one ? v[i] / 255.0 : v[i]);
    }
    o->bg_mode = MC_BACKGROUND_GIVEN;
    return true;
}

/* -o OUT by the table of output kinds (output.h): frames in one file (a video, or '-'), or a
 * pattern of one file per frame. */
static int classify_output(mc_render_opts *o)
{
    mc_error e;

    o->out_kind = MC_OUT_NONE;
    if (mc_output_parse(o->out, MC_OUTPUT_NONE, &o->target, &e) != MC_OK)
        return mc_usage_error("%s", e.msg);
    if (o->target.kind)
        o->out_kind = o->target.kind->props & MC_OUTPUT_PATTERN ? MC_OUT_PNG : MC_OUT_VIDEO;
    return -1;
}

/* x264's presets (x264.h, x264_preset_names). x264 itself reports another name only on its
 * own stderr and libavcodec then says "Invalid argument", so the name is checked here, for
 * the default encoder; other encoders' presets are theirs to check. */
static bool is_x264_preset(const char *s)
{
    static const char *const names[] = { "ultrafast", "superfast", "veryfast", "faster",
                                         "fast",      "medium",    "slow",     "slower",
                                         "veryslow",  "placebo" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0)
            return true;
    return false;
}

static int check_combination(mc_render_opts *o)
{
    if (o->preset && (!o->codec || strcmp(o->codec, "libx264") == 0) &&
        !is_x264_preset(o->preset))
        return mc_usage_error("bad --preset '%s': expected ultrafast, superfast, veryfast, "
                              "faster, fast, medium, slow, slower, veryslow or placebo",
                              o->preset);
    if (!o->scene)
        return mc_usage_error("render needs a scene file (see 'md5cine render --help')");
    if (!o->out && !o->reference)
        return mc_usage_error("render needs -o OUT (or --reference REF)");
    if (o->out && mc_output_kind_of(o->out) == MC_OUTPUT_WAV) {
        if (o->reference || o->audio_path)
            return mc_usage_error("-o %s writes the sound only: no --reference or --audio",
                                  o->out);
        o->sound_only = true;
        o->audio_path = o->out;
        o->out = NULL;
        o->out_kind = MC_OUT_NONE;
        return -1;
    }
    if (o->update_reference && !o->reference)
        return mc_usage_error("--update-reference needs --reference REF");
    if (o->json && !o->reference)
        return mc_usage_error("--json needs --reference REF");
    if (o->verbose && !o->reference)
        return mc_usage_error("--verbose needs --reference REF");
    if ((o->lim.mask || o->lim.ignore.n || o->lim.opts.set) && !o->reference)
        return mc_usage_error("--mask, --ignore and the limits need --reference REF");
    if (o->has_ref_offset && !o->reference)
        return mc_usage_error("--offset needs --reference REF");
    if ((o->report_dir || o->junit) && !o->reference)
        return mc_usage_error("%s needs --reference REF", o->report_dir ? "--report" : "--junit");
    if (o->report_max_frames && !o->report_dir)
        return mc_usage_error("--report-max-frames needs --report DIR");
    if (o->report_dir && o->update_reference)
        return mc_usage_error("--report cannot be used with --update-reference");
    return classify_output(o);
}

/* MC_ARG_CHOICE stores the index of the word into these enums, which number from 0. */
_Static_assert(sizeof(mc_fov_mode) == sizeof(int) && MC_FOV_HORIZONTAL == 0 && MC_FOV_DOOM == 1,
               "--fov-mode's words are the enum's order");
_Static_assert(sizeof(mc_clock) == sizeof(int) && MC_CLOCK_IDEAL == 0 && MC_CLOCK_ENGINE == 1,
               "--clock's words are the enum's order");
_Static_assert(sizeof(mc_shadow_samples) == sizeof(int) && MC_SHADOW_SAMPLES_PIXEL == 0 &&
                       MC_SHADOW_SAMPLES_SAMPLE == 1,
               "--shadow-samples' words are the enum's order");
_Static_assert(sizeof(mc_quality) == sizeof(int) && MC_QUALITY_DRAFT == 0 && MC_QUALITY_REVIEW == 1 &&
                       MC_QUALITY_FINAL == 2,
               "--quality's words are the enum's order");

/* --jobs N or auto (0: mc_frame_jobs_auto's count, settled when the scene is known). */
static bool parse_jobs(void *field, const char *s)
{
    long n;

    if (strcmp(s, "auto") == 0) {
        *(int *)field = 0;
        return true;
    }
    if (!mc_arg_long(s, 1, MC_LIMIT_FRAME_JOBS, &n))
        return false;
    *(int *)field = (int)n;
    return true;
}

static bool parse_progress(void *field, const char *s)
{
    return mc_progress_parse_mode(s, field);
}

#define F(m) offsetof(mc_render_opts, m)
#define XSTR(x) #x
#define STR(x) XSTR(x)

/* --audio FILE.wav or off. */
static bool parse_audio(void *field, const char *s)
{
    mc_render_opts *o = field;
    size_t n = strlen(s);

    if (strcmp(s, "off") == 0) {
        o->audio_off = true;
        o->audio_path = NULL;
        return true;
    }
    if (n < 5 || strcasecmp(s + n - 4, ".wav") != 0)
        return false;
    o->audio_path = s;
    o->audio_off = false;
    return true;
}

static const mc_arg_opt render_opts[] = {
    { .name = "--output", .alias = "-o", .kind = MC_ARG_STRING, .offset = F(out),
      .metavar = "OUT", .help = "the video, PNG pattern or '-' to write" },
    { .name = "--base", .kind = MC_ARG_STRING, .offset = F(base), .metavar = "DIR",
      .help = "the first argument is the name of a model declaration of DIR's\n"
              "def/*.def files, rendered as a mesh is" },
    { .name = "--size", .kind = MC_ARG_CUSTOM, .parse = parse_size,
      .expect = "WxH, " STR(MC_LIMIT_RENDER_MIN_SIDE) ".." STR(MC_LIMIT_RENDER_MAX_SIDE) " each",
      .metavar = "WxH", .help = "output size (default: the scene's, else 1280x720; even for video)" },
    MC_SCENE_ARG_OPTS(F(view)),
    { .name = "--clock", .kind = MC_ARG_CHOICE, .offset = F(clock),
      .choices = (const char *const[]){ "ideal", "engine", NULL }, .metavar = "ideal|engine",
      .help = "frame k at t = k/fps exactly (default), or Doom 3's own clock:\n"
              "16 ms game ticks, integer milliseconds" },
    { .name = "--frames", .kind = MC_ARG_CUSTOM, .parse = parse_frames,
      .expect = MC_ARG_FRAMES_EXPECT, .metavar = "A-B",
      .help = "render output frames A to B only (inclusive); also --frames A" },
    { .name = "--audio", .kind = MC_ARG_CUSTOM, .parse = parse_audio,
      .expect = "a FILE.wav or off", .metavar = "FILE.wav|off",
      .help = "also write the scene's sound as mixed, 44.1 kHz stereo 16-bit;\n"
              "off: no sound track in the video" },
    { .name = "--audio-rate", .kind = MC_ARG_INT, .offset = F(audio_rate), .min = 8000,
      .max = 96000, .metavar = "N",
      .help = "the video's AAC track at N Hz (default 48000; 44100 keeps\n"
              "the engine's)" },
    { .name = "--crf", .kind = MC_ARG_INT, .offset = F(crf), .min = 1, .max = 51,
      .metavar = "N", .help = "encoder quality (default 18)" },
    { .name = "--preset", .kind = MC_ARG_STRING, .offset = F(preset), .metavar = "P",
      .help = "encoder preset (default veryfast)" },
    { .name = "--codec", .kind = MC_ARG_STRING, .offset = F(codec), .metavar = "NAME",
      .help = "encoder (default libx264)" },
    { .name = "--quality", .kind = MC_ARG_CHOICE, .offset = F(quality),
      .choices = (const char *const[]){ "draft", "review", "final", NULL },
      .metavar = "draft|review|final",
      .help = "a set of size, samples and shadows; the options given win:\n"
              "draft: half the size, --msaa 0, --shadows off; review (default):\n"
              "the size, --msaa 4, --shadows on, --shadow-samples pixel;\n"
              "final: as review with --shadow-samples sample" },
    { .name = "--background", .kind = MC_ARG_CUSTOM, .parse = parse_background,
      .expect = "R,G,B (0..1, or 0..255 integers), #rrggbb or 'none'", .metavar = "C",
      .help = "R,G,B in 0..1 (or 0..255 integers when any value is above 1),\n"
              "#rrggbb, or 'none': transparent, RGBA PNGs only\n"
              "(default: the scene's, else black)" },
    { .name = "--shadow-samples", .kind = MC_ARG_CHOICE, .offset = F(shadow_samples),
      .choices = (const char *const[]){ "pixel", "sample", NULL }, .metavar = "pixel|sample",
      .help = "with MSAA, a pixel's shadow is decided once, as Doom's renderer\n"
              "without MSAA does (default), or at each sample: antialiased\n"
              "shadow edges, the volumes' fill at every sample" },
    { .name = "--fov-mode", .kind = MC_ARG_CHOICE, .offset = F(fov_mode),
      .choices = (const char *const[]){ "file", "doom", NULL }, .metavar = "file|doom",
      .help = "the file's fov is horizontal (default), or Doom's 4:3 rule" },
    { .name = "--gl-device", .kind = MC_ARG_INT, .offset = F(gl_device), .min = 1, .max = 64,
      .expect = "1..64 (md5cine doctor lists them)", .metavar = "N",
      .help = "EGL device N as md5cine doctor lists them (default: automatic)" },
    { .name = "--overlay", .kind = MC_ARG_FLAG, .offset = F(overlay),
      .help = "burn in the frame number, time code HH:MM:SS:FF and shot" },
    { .name = "--image-pixels", .kind = MC_ARG_INT, .offset = F(image_mpixels), .min = 1,
      .max = 65536, .expect = "1..65536 (millions of pixels)", .metavar = "N",
      .help = "images the scene and its materials may read, N Mi pixels in all (16)" },
    { .name = "--jobs", .kind = MC_ARG_CUSTOM, .offset = F(jobs), .parse = parse_jobs,
      .expect = "1.." STR(MC_LIMIT_FRAME_JOBS) " or 'auto'", .metavar = "N|auto",
      .help = "frames drawn at once, each by a GL context of its own\n"
              "(default auto: from the cores and memory, as doctor says;\n"
              "pixels and outputs are the same for any N)" },
    { .name = "--developer-images", .kind = MC_ARG_FLAG, .offset = F(developer_images),
      .help = "missing images as Doom's developer box, not black or invisible" },
    { .name = "--strict", .kind = MC_ARG_FLAG, .offset = F(strict),
      .help = "a used material of the base that fails to parse, or a\n"
              "missing sound file, is an error (default: Doom's default\n"
              "material, or silence, and one warning)" },
    { .name = "--progress", .kind = MC_ARG_CUSTOM, .offset = F(view.progress),
      .parse = parse_progress, .expect = "auto, log, json or none",
      .metavar = "auto|log|json|none",
      .help = "auto (default): a bar on a terminal, else log lines; log:\n"
              "a line every --progress-interval seconds on stderr; json:\n"
              "JSON lines on stdout (stderr when OUT is '-')" },
    { .name = "--progress-interval", .kind = MC_ARG_DOUBLE, .offset = F(progress_interval),
      .dmin = 0.0, .dmax = 3600.0, .metavar = "S",
      .help = "seconds between two log lines (default 10; 0: every frame)" },
    { .name = "--stats", .kind = MC_ARG_FLAG, .offset = F(stats),
      .help = "print the time of each stage per frame at the end" },
    { .name = "--reference", .kind = MC_ARG_STRING, .offset = F(reference), .metavar = "REF",
      .help = "compare every frame with REF (a folder of numbered PNGs, a\n"
              "PNG or a video); -o is then optional" },
    { .name = "--diff", .kind = MC_ARG_STRING, .offset = F(diff_dir), .metavar = "DIR",
      .help = "where failing frames and difference pictures go (default:\n"
              "beside the output: OUT without extension + '.diff', or\n"
              "REF + '.diff')" },
    { .name = "--offset", .kind = MC_ARG_CUSTOM, .parse = parse_offset,
      .expect = "a whole number of frames", .metavar = "N",
      .help = "check output frame k against REF's frame k + N (default 0:\n"
              "by number; a chunk video's frames are numbered from its first)" },
    { .name = "--update-reference", .kind = MC_ARG_FLAG, .offset = F(update_reference),
      .help = "write missing and failing frames into the folder REF instead" },
    { .name = "--json", .kind = MC_ARG_FLAG, .offset = F(json),
      .help = "print the reference check as one JSON object (compare's form)" },
    { .name = "--verbose", .kind = MC_ARG_FLAG, .offset = F(verbose),
      .help = "the check lists every frame that did not pass (default:\n"
              "the first 10)" },
    MC_LIMIT_ARG_OPTS(F(lim)),
    { .name = "--report", .kind = MC_ARG_STRING, .offset = F(report_dir), .metavar = "DIR",
      .help = "write an HTML review page of the check into folder DIR\n"
              "(DIR/index.html and its pictures)" },
    { .name = "--report-max-frames", .kind = MC_ARG_INT, .offset = F(report_max_frames),
      .min = 1, .max = MC_REFCHECK_MAX_LISTED, .metavar = "N",
      .help = "the --report page lists at most N runs of failing frames\n"
              "(default 100) and says how many it left out" },
    { .name = "--junit", .kind = MC_ARG_STRING, .offset = F(junit), .metavar = "FILE",
      .help = "write the check as JUnit XML to FILE (one test case per shot)" },
};

static const mc_arg_spec render_spec = {
    .command = "render",
    .synopsis = NULL, /* render_synopsis */
    .epilog = "exit status: 0 done, 1 frames differ from the reference, 2 bad input or usage,\n"
              "3 runtime failure (GL, encoder, I/O), 130 interrupted (SIGINT), 143 (SIGTERM)\n",
    .opts = render_opts,
    .nopts = MC_ARG_COUNT(render_opts),
    .min_pos = 0,
    .max_pos = 2,
    .too_many = " (one scene, or a mesh or model and its anim, per render)",
    .seen_offset = offsetof(mc_render_opts, lim.opts.set),
};

/* The usage's first lines: what OUT may be, from the table of output kinds. */
static void render_synopsis(char *out, size_t cap)
{
    const mc_output_kind_info *pat = mc_output_kind_with(MC_OUTPUT_PATTERN);
    const mc_output_kind_info *dash = mc_output_kind_with(MC_OUTPUT_STDOUT);
    char encoded[64], raw[64];

    mc_output_kinds_list(MC_OUTPUT_FRAMES | MC_OUTPUT_ENCODED, 0, " ", " ", encoded,
                         sizeof encoded);
    mc_output_kinds_list(MC_OUTPUT_FRAMES, MC_OUTPUT_ENCODED | MC_OUTPUT_PATTERN, " ", " ", raw,
                         sizeof raw);
    snprintf(out, cap,
             "usage: md5cine render SCENE -o OUT [options]\n"
             "       md5cine render MESH.md5mesh [ANIM.md5anim] -o OUT [options]\n"
             "       md5cine render NAME --base DIR [ANIM] -o OUT [options]\n"
             "  A mesh, or the model declaration NAME of DIR's def files (its anim ANIM,\n"
             "  default idle, else its first), is rendered on a turntable framed around it,\n"
             "  under the default rig.\n"
             "  OUT is a video (%s; %s uncompressed), a %s pattern with a printf-style\n"
             "  output frame number such as '%s', or '-' (%s on stdout).\n"
             "  The scene's output { } block gives defaults; these options win.\n",
             encoded, raw, pat->title, pat->example, dash->title);
}

/* Whether path names a scene file (it ends in ".md5scene", any case). */
static bool is_scene_file(const char *path)
{
    size_t n = strlen(path);

    return n > 9 && strcasecmp(path + n - 9, ".md5scene") == 0;
}

/* Not given: the options --quality fills in (before they are parsed). */
#define UNSET_SHADOW_SAMPLES ((mc_shadow_samples)-1)

/* The samples and shadows of --quality where their own options were not given (the size is
 * halved where the scene's is known: mc_render_asked_size). */
static void apply_quality(mc_render_opts *o)
{
    bool draft = o->quality == MC_QUALITY_DRAFT;

    if (o->view.msaa < 0)
        o->view.msaa = draft ? 0 : MC_MSAA_DEFAULT;
    if (o->view.no_shadows < 0)
        o->view.no_shadows = draft ? 1 : 0;
    if (o->shadow_samples == UNSET_SHADOW_SAMPLES)
        o->shadow_samples = o->quality == MC_QUALITY_FINAL ? MC_SHADOW_SAMPLES_SAMPLE
                                                           : MC_SHADOW_SAMPLES_PIXEL;
}

int mc_render_parse_args(int argc, char **argv, mc_render_opts *o)
{
    mc_arg_spec spec = render_spec;
    char synopsis[768];
    int npos, rc;

    render_synopsis(synopsis, sizeof synopsis);
    spec.synopsis = synopsis;
    memset(o, 0, sizeof *o);
    o->view.msaa = -1;
    o->view.no_shadows = -1;
    o->shadow_samples = UNSET_SHADOW_SAMPLES;
    o->quality = MC_QUALITY_REVIEW;
    o->view.progress = MC_PROGRESS_AUTO;
    o->progress_interval = MC_PROGRESS_LOG_INTERVAL;
    rc = mc_args_parse(&spec, argc, argv, o, &npos);
    if (rc != -1)
        return rc;
    apply_quality(o);
    o->scene = npos > 0 ? argv[1] : NULL;
    o->anim = npos > 1 ? argv[2] : NULL;
    if (o->base && o->scene && (mc_mesh_scene_is_mesh(o->scene) || is_scene_file(o->scene)))
        return mc_usage_error("--base DIR names the base of a model declaration: render NAME "
                              "--base DIR, not '%s'", o->scene);
    if (o->anim && !o->base && !mc_mesh_scene_is_mesh(o->scene))
        return mc_usage_error("render takes a second file only after a mesh: render "
                              "MESH.md5mesh ANIM.md5anim, not '%s' '%s'",
                              o->scene, o->anim);
    return check_combination(o);
}
