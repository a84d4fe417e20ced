/* md5cine render SCENE -o OUT: loads and checks everything the scene names, then renders every
 * output frame of the camera's timeline (DESIGN.md 2.1) into a video, a PNG sequence and/or a
 * comparison with reference frames.
 *
 * Order: options -> scene (every file loaded and cross-checked) -> scene renderer (textures
 * decoded and uploaded, GL context; scene_renderer.h) -> outputs opened (encoder under a
 * temporary name, PNG folder checked) -> frame loop -> finish. Nothing is allocated in the
 * frame loop; the pipeline overlaps rendering frame k + 1 with encoding or writing frame k, and
 * with --jobs N the frame jobs (frame_jobs.h) draw up to N frames at once, handed to the
 * pipeline in order.
 *
 * Interrupts: SIGINT and SIGTERM set a flag from the command's first instruction on; loading
 * stops before the next file, preparing before the next step, the loop at the next frame; the
 * pipeline is cancelled and the encoder destroyed, which removes its temporary file. The exit
 * status is 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as shells report it.
 * SIGPIPE is ignored: a closed output pipe ("-o - | head") is a write error, exit 3. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <md5cine/chunk.h>
#include <md5cine/fileio.h>
#include <md5cine/frame_jobs.h>
#include <md5cine/pipeline.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/plan.h>
#include <md5cine/timeline.h>
#include <md5cine/version.h>

#include <md5cine/json.h>

#include "cli.h"
#include "render_cli.h"

/* The one mutable global md5cine has: the number of the signal (SIGINT or SIGTERM) that asked
 * the render to stop, 0 while none has. Only the signal handler writes it; the frame loop reads
 * it; a handler may store nothing but a volatile sig_atomic_t. */
static volatile sig_atomic_t g_stop_signal;

static void on_stop_signal(int sig)
{
    g_stop_signal = sig;
}

typedef struct render_run {
    const mc_render_opts *o;
    mc_parse_opts popts;
    mc_scene scene;
    int width, height;
    mc_rate fps;
    int64_t count, first, last;
    int64_t *shot_starts; /* relative to the first rendered frame */
    int *shot_numbers;    /* 1-based shot numbers */
    size_t shot_count;
    int njobs;          /* frames drawn at once: --jobs, or automatic (settle_jobs) */
    mc_frame_jobs *jobs; /* the scene renderers, one per job (frame_jobs.h) */
    uint8_t *bufs[MC_FRAME_JOBS_MAX]; /* the pipeline's buffers of the frames in flight */
    mc_image_view views[MC_FRAME_JOBS_MAX];
    mc_renderer_info gl; /* what the frames were drawn with */
    char gl_comment[640]; /* the same as one line, for the video's metadata */
    mc_chunk_info chunk;  /* the video's chunk tags (chunk.h) */
    mc_chunk_tags tags;
    mc_encoder *enc;
    mc_refcheck *ref; /* NULL without --reference */
    mc_report *report; /* NULL without --report */
    mc_sink sink;
    mc_pipeline *pipe;
    mc_progress prog;
    FILE *info; /* reports: stdout, or stderr when stdout carries video or JSON lines */
    double skin_s, draw_s, read_s, wait_s, wall_s;
    int64_t rendered;
    mc_source_cache warned; /* the source lines of the scene's and materials' warnings */
} render_run;

/* An interrupt before the first frame, when no output exists yet: the exit code for it. */
static int stopped_early(void)
{
    fputs("md5cine: interrupted\n", stderr);
    return 128 + g_stop_signal;
}

/* True once SIGINT or SIGTERM came, also while they are blocked and so still pending. */
static bool stop_requested(void)
{
    sigset_t p;

    if (g_stop_signal)
        return true;
    return sigpending(&p) == 0 && (sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGTERM) == 1);
}

/* Says that memory ran out; the exit code for it. */
static int out_of_memory(void)
{
    fputs("md5cine: error: out of memory\n", stderr);
    return MC_EXIT_RUNTIME;
}

/* Prints a library error; the exit code for it. Scene errors are input errors (exit 2)
 * whatever their kind, except running out of memory. */
static int fail(const mc_error *e, bool input)
{
    mc_diag_print(stderr, "error", e);
    if (input && e->code != MC_ERR_NOMEM)
        return MC_EXIT_INPUT;
    return mc_exit_code(e->code);
}

static int load_scene(render_run *run)
{
    mc_error e;

    run->popts.lenient = run->o->lenient;
    run->popts.warn = mc_diag_warn;
    run->popts.warn_user = &run->warned;
    run->popts.stop = &g_stop_signal;
    if (mc_scene_load(run->o->scene, &run->popts, &run->scene, &e) != MC_OK)
        return e.code == MC_ERR_INTERRUPTED ? stopped_early() : fail(&e, true);
    return -1;
}

/* Size, rate and frame range: what the scene renderer settled on, and --frames. */
static int settle_settings(render_run *run)
{
    const mc_render_opts *o = run->o;

    mc_frame_jobs_get_info(run->jobs, &run->width, &run->height, &run->fps, &run->gl);
    snprintf(run->gl_comment, sizeof run->gl_comment,
             "md5cine %s; GL %s (%s): %s, %s, %s; %d sample%s", mc_version(), run->gl.backend,
             run->gl.gl_device, run->gl.gl_vendor, run->gl.gl_renderer, run->gl.gl_version,
             run->gl.samples, run->gl.samples == 1 ? "" : "s");
    run->count = mc_frame_jobs_frame_count(run->jobs);
    run->first = 0;
    run->last = run->count - 1;
    if (o->has_frames) {
        if (o->last >= run->count)
            return mc_usage_error("--frames %lld-%lld is outside the scene's frames 0-%lld",
                                  (long long)o->first, (long long)o->last,
                                  (long long)(run->count - 1));
        run->first = o->first;
        run->last = o->last;
    }
    return -1;
}

/* The first output frame of each shot in the rendered range (the encoder's keyframes), from
 * the same shot list as `md5cine info` and `plan` (mc_plan_shots). */
static int collect_shots(render_run *run)
{
    const mc_camera *cam = &run->scene.camera;
    size_t all = mc_plan_shots(cam, run->fps, run->o->clock, run->count, NULL, 0), n = 0;
    mc_shot_range *shots = calloc(all + 1, sizeof *shots);

    run->shot_starts = calloc(all + 1, sizeof *run->shot_starts);
    run->shot_numbers = calloc(all + 1, sizeof *run->shot_numbers);
    if (!shots || !run->shot_starts || !run->shot_numbers) {
        free(shots);
        return out_of_memory();
    }
    mc_plan_shots(cam, run->fps, run->o->clock, run->count, shots, all);
    for (size_t i = 0; i < all; i++) {
        if (shots[i].last < run->first || shots[i].first > run->last)
            continue;
        run->shot_starts[n] = (shots[i].first > run->first ? shots[i].first : run->first) -
                              run->first;
        run->shot_numbers[n] = shots[i].number;
        n++;
    }
    free(shots);
    run->shot_count = n;
    return -1;
}

/* Strips one extension from the last path component of buf. */
static void strip_ext(char *buf)
{
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');

    if (dot && dot > buf && (!slash || dot > slash + 1))
        *dot = '\0';
}

/* --diff, else beside the output: OUT without extension + ".diff", the PNG pattern's folder
 * + ".diff" ("render.diff" without one), or REF + ".diff" without an output file. */
static void default_diff_dir(const render_run *run, char *out, size_t cap)
{
    const mc_render_opts *o = run->o;
    char buf[MC_PATH_CAP];
    size_t n;

    if (o->diff_dir) {
        snprintf(out, cap, "%s", o->diff_dir);
        return;
    }
    if (o->out_kind == MC_OUT_PNG)
        mc_png_pattern_dir(&o->pattern, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s",
                 o->out_kind == MC_OUT_VIDEO && strcmp(o->out, "-") != 0 ? o->out : o->reference);
    n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    if (o->out_kind != MC_OUT_PNG)
        strip_ext(buf);
    snprintf(out, cap, "%s.diff", n > 0 ? buf : "render");
}

/* The PNG files of the pattern's folder that a frame would replace (of --frames, else of any
 * number: the scene's length is known only once its renderer is made): each checked. */
static int check_png_names(const render_run *run, const mc_guard *g)
{
    const mc_png_pattern *p = &run->o->pattern;
    char dir[MC_PATH_CAP], path[MC_PATH_CAP], want[MC_PATH_CAP];
    const char *base = strrchr(p->prefix, '/');
    size_t nbase;
    DIR *d;
    struct dirent *de;
    int rc = -1;

    base = base ? base + 1 : p->prefix;
    nbase = strlen(base);
    mc_png_pattern_dir(p, dir, sizeof dir);
    d = opendir(dir[0] ? dir : ".");
    if (!d)
        return -1; /* no folder yet: nothing in it to replace */
    while (rc == -1 && (de = readdir(d)) != NULL) {
        const char *num = de->d_name + nbase;
        char *end;
        long long k;

        if (strncmp(de->d_name, base, nbase) != 0 || *num < '0' || *num > '9')
            continue;
        errno = 0;
        k = strtoll(num, &end, 10);
        if (errno || strcmp(end, p->suffix) != 0 ||
            (run->o->has_frames && (k < run->o->first || k > run->o->last)))
            continue;
        if (strlen(dir) + strlen(de->d_name) >= sizeof path)
            continue; /* longer than any name the pattern makes */
        memcpy(path, dir, strlen(dir) + 1);
        strcat(path, de->d_name);
        if (mc_png_pattern_format(p, k, want, sizeof want) && strcmp(want, path) == 0)
            rc = mc_guard_output(g, "-o", path);
    }
    closedir(d);
    return rc;
}

/* No output replaces a file the scene read, the reference or the mask, and none lies inside a
 * reference folder: checked before anything is written. */
static int check_outputs(const render_run *run)
{
    const mc_render_opts *o = run->o;
    char diff[MC_PATH_CAP], dir[MC_PATH_CAP];
    mc_guard g = { 0 };
    int rc = -1;

    mc_guard_add_scene(&g, &run->scene);
    mc_guard_add(&g, o->reference);
    mc_guard_add(&g, o->lim.mask);
    if (o->out_kind == MC_OUT_VIDEO) {
        rc = mc_guard_output(&g, "-o", o->out);
    } else if (o->out_kind == MC_OUT_PNG) {
        mc_png_pattern_dir(&o->pattern, dir, sizeof dir);
        rc = mc_guard_output(&g, "-o", dir[0] ? dir : ".");
        if (rc == -1)
            rc = check_png_names(run, &g);
    }
    if (rc == -1 && o->reference) {
        default_diff_dir(run, diff, sizeof diff);
        rc = mc_guard_output(&g, "--diff", diff);
    }
    if (rc == -1)
        rc = mc_guard_output(&g, "--report", o->report_dir);
    if (rc == -1)
        rc = mc_guard_output(&g, "--junit", o->junit);
    mc_guard_release(&g);
    return rc;
}

/* Sink threads: an encoder, and a video reference (read forward only), need frames in order;
 * PNG files and a folder reference may be handled in parallel. */
static int sink_threads(const render_run *run, bool video_reference)
{
    return run->o->out_kind == MC_OUT_VIDEO || video_reference ? 1 : 2;
}

/* The report's shots from the camera's cuts (collect_shots); NULL when out of memory. */
static mc_shot_range *report_shots(const render_run *run)
{
    mc_shot_range *shots = calloc(run->shot_count + 1, sizeof *shots);

    for (size_t i = 0; shots && i < run->shot_count; i++) {
        shots[i].number = run->shot_numbers[i];
        shots[i].first = run->first + run->shot_starts[i];
        shots[i].last = i + 1 < run->shot_count ? run->first + run->shot_starts[i + 1] - 1
                                                : run->last;
    }
    return shots;
}

static int open_reference(render_run *run)
{
    char diff[MC_PATH_CAP];
    mc_refcheck_desc d;
    mc_error e;

    if (!run->o->reference)
        return -1;
    default_diff_dir(run, diff, sizeof diff);
    memset(&d, 0, sizeof d);
    d.reference = run->o->reference;
    d.candidate = run->o->out ? run->o->out : run->o->scene;
    d.width = run->width;
    d.height = run->height;
    d.diff_dir = diff;
    d.update = run->o->update_reference;
    d.offset = run->o->ref_offset;
    d.threads = sink_threads(run, false);
    d.opts = run->o->lim.opts;
    d.mask = run->o->lim.mask;
    d.ignore = run->o->lim.ignore.r;
    d.num_ignore = run->o->lim.ignore.n;
    if (run->o->report_dir) {
        mc_shot_range *shots = report_shots(run);
        mc_report_desc rd = { .dir = run->o->report_dir, .width = run->width,
                              .height = run->height, .threads = d.threads,
                              .max_frames = run->o->report_max_frames, .shots = shots,
                              .shot_count = run->shot_count };
        mc_status st;

        if (!shots)
            return out_of_memory();
        st = mc_report_open(&rd, &run->report, &e);
        free(shots);
        if (st != MC_OK)
            return fail(&e, false);
        mc_report_attach(run->report, &d);
    }
    if (mc_refcheck_open(&d, &run->ref, &e) != MC_OK)
        return fail(&e, e.code != MC_ERR_NOMEM);
    /* Fail fast: a reference that lacks frames or has another size stops the render here,
     * before any frame is drawn and before any output is made (the report's temporary folder
     * goes with release()). */
    if (mc_refcheck_preflight(run->ref, run->first, run->last, &e) != MC_OK)
        return fail(&e, e.code != MC_ERR_NOMEM);
    return -1;
}

/* --report and --junit after the check, shots from the camera's cuts. */
static int write_reports(render_run *run)
{
    mc_shot_range *shots = report_shots(run);
    mc_report_info info = { .title = run->o->scene, .reference = run->o->reference,
                            .candidate = run->o->out, .check = run->ref, .shots = shots,
                            .shot_count = run->shot_count };
    mc_status st = MC_OK;
    mc_error e;

    if (!shots)
        return out_of_memory();
    if (run->report)
        st = mc_report_finish(run->report, &info, &e);
    if (st == MC_OK && run->o->junit)
        st = mc_junit_write(run->o->junit, &info, run->wall_s, &e);
    free(shots);
    if (st != MC_OK)
        return fail(&e, false);
    if (run->o->progress != MC_PROGRESS_QUIET)
        mc_cli_wrote_reports(run->report ? run->o->report_dir : NULL, run->o->junit, run->ref);
    return -1;
}

/* Creates the PNG folder and proves a file can be made in it before any frame is rendered. */
static int check_png_folder(render_run *run)
{
    char dir[MC_PATH_CAP], first[MC_PATH_CAP];
    mc_outfile probe;
    mc_error e;

    mc_png_pattern_dir(&run->o->pattern, dir, sizeof dir);
    if (!mc_cli_mkdirs(dir)) {
        fprintf(stderr, "md5cine: error: cannot create folder '%s': %s\n", dir, strerror(errno));
        return MC_EXIT_RUNTIME;
    }
    if (!mc_png_pattern_format(&run->o->pattern, run->first, first, sizeof first))
        return mc_usage_error("output name '%s' is too long", run->o->out);
    mc_outfile_sweep(first); /* temporaries of frames of killed renders */
    if (mc_outfile_begin(&probe, first, 1, &e) != MC_OK)
        return fail(&e, false);
    mc_outfile_abort(&probe);
    return -1;
}

/* The chunk tags: which frames of which scene, drawn and encoded how. The settings are
 * what changes pixels or bits besides the scene's files (which its identity covers, the
 * scene's own background and size included). */
static int chunk_tags(render_run *run)
{
    static const char *const shading[] = { "lit", "unlit", "normals" };
    const mc_render_opts *o = run->o;
    mc_chunk_info *c = &run->chunk;
    char bg[64] = "scene";
    mc_error e;

    if (mc_chunk_scene_id(&run->scene, c->scene, &e) != MC_OK)
        return fail(&e, e.code != MC_ERR_NOMEM);
    if (o->bg_mode == MC_BACKGROUND_GIVEN)
        snprintf(bg, sizeof bg, "%.6g,%.6g,%.6g", (double)o->bg[0], (double)o->bg[1],
                 (double)o->bg[2]);
    c->first = run->first;
    c->last = run->last;
    c->frames = run->count;
    c->fps = run->fps;
    snprintf(c->settings, sizeof c->settings,
             "size=%dx%d samples=%d shading=%s fov=%s background=%s overlay=%d clock=%s "
             "codec=%s crf=%d preset=%s%s%s",
             run->width, run->height, run->gl.samples, shading[o->shading],
             o->fov_mode == MC_FOV_DOOM ? "doom" : "file", bg, o->overlay ? 1 : 0,
             o->clock == MC_CLOCK_ENGINE ? "engine" : "ideal",
             o->codec ? o->codec : MC_ENCODER_DEFAULT_CODEC,
             o->crf ? o->crf : MC_ENCODER_DEFAULT_CRF,
             o->preset ? o->preset : MC_ENCODER_DEFAULT_PRESET,
             o->developer_images ? " developer_images=1" : "", o->no_shadows ? " shadows=off" : "");
    mc_chunk_format(c, &run->tags);
    return -1;
}

static int open_encoder(render_run *run)
{
    const mc_render_opts *o = run->o;
    mc_encoder_desc d;
    mc_error e;

    const char *slash = strrchr(o->out, '/');

    /* A video's folder is made as a PNG sequence's is ("-" has none). */
    if (slash && slash != o->out) {
        char dir[MC_PATH_CAP];

        snprintf(dir, sizeof dir, "%.*s", (int)(slash - o->out), o->out);
        if (!mc_cli_mkdirs(dir)) {
            fprintf(stderr, "md5cine: error: cannot create folder '%s': %s\n", dir,
                    strerror(errno));
            return MC_EXIT_RUNTIME;
        }
    }
    int rc = chunk_tags(run);

    if (rc != -1)
        return rc;
    memset(&d, 0, sizeof d);
    d.path = o->out;
    d.width = run->width;
    d.height = run->height;
    const char *const metadata[] = { "comment",       run->gl_comment,    "md5cine_chunk",
                                     run->tags.chunk, "md5cine_fps",      run->tags.fps,
                                     "md5cine_scene", run->tags.scene,    "md5cine_settings",
                                     run->tags.settings, NULL };

    d.fps = run->fps;
    d.first_frame = run->first;
    d.metadata = metadata;
    d.codec = o->codec;
    d.crf = o->crf;
    d.preset = o->preset;
    d.shot_starts = run->shot_starts;
    d.shot_numbers = run->shot_numbers;
    d.shot_count = run->shot_count;
    d.warn = mc_diag_warn;
    if (mc_encoder_create(&d, &run->enc, &e) != MC_OK)
        return fail(&e, false);
    return -1;
}

/* llvmpipe rasterizes on LP_NUM_THREADS threads (Mesa's default: one per core), which share the
 * cores with the encoder's threads and the PNG writers. Twice as many raster threads as cores
 * keeps the cores busier: the demo at 720p to MP4 on 2 cores takes about 5 % less wall time
 * with 4 than with 2 (6 and 8 are no better), with identical pixels (llvmpipe's output does not
 * depend on its thread count). The frame jobs' contexts share one display, so one screen and
 * its one set of raster threads: the count is the process's, whatever the job count (it was
 * once divided among the jobs, which left 16 jobs on 2 cores one raster thread for all their
 * frames, and a SIGTERM waiting 7-24 s for the frames queued on it). Set before the first
 * context, which reads it, and before any thread starts; the caller keeps a value the user
 * set. */
static void default_raster_threads(void)
{
    long cores = mc_frame_jobs_cores();
    char n[24];

    cores = cores > 8 ? 8 : cores; /* llvmpipe takes at most 16 */
    snprintf(n, sizeof n, "%ld", cores * 2);
    setenv("LP_NUM_THREADS", n, 1);
}

/* What rendering with jobs frame jobs needs (before the GL context: the driver, the outputs
 * and each job's frame). */
static unsigned long long jobs_need(const mc_address_need *need, int jobs)
{
    return need->gl + need->output + need->frame + (unsigned long long)(jobs - 1) * need->job;
}

/* The size asked for, until the renderer settles it. */
static void asked_size(const render_run *run, int *w, int *h)
{
    const mc_render_opts *o = run->o;

    *w = o->width ? o->width : run->scene.width ? run->scene.width : 1280;
    *h = o->height ? o->height : run->scene.height ? run->scene.height : 720;
}

/* The number of frame jobs: --jobs, or mc_frame_jobs_auto of the cores shrunk to what fits
 * under an address-space limit; never more than the frames to render. Then llvmpipe's threads
 * for that many contexts. Before any thread starts (setenv). */
static void settle_jobs(render_run *run)
{
    const mc_render_opts *o = run->o;
    int64_t frames = mc_scene_frame_count_clock(&run->scene, mc_scene_fps(&run->scene, o->fps),
                                                o->clock);
    int jobs = o->jobs ? o->jobs : mc_frame_jobs_auto(mc_frame_jobs_cores());
    bool user_threads = getenv("LP_NUM_THREADS") != NULL;

    if (o->has_frames && o->first <= o->last && o->last < frames)
        frames = o->last - o->first + 1;
    if (frames >= 1 && jobs > frames)
        jobs = (int)frames;
    if (!user_threads)
        default_raster_threads(); /* the estimate below counts these threads */
    if (!o->jobs) {
        mc_address_need need;
        int w, h;

        asked_size(run, &w, &h);
        mc_cli_render_need(&run->scene, w, h, o->msaa, &need);
        while (jobs > 1 && !mc_cli_address_fits(jobs_need(&need, jobs)))
            jobs--;
    }
    run->njobs = jobs;
}

/* The scene renderer: textures decoded and uploaded, GL context, per-actor buffers. A texture
 * that does not decode is an input error; GL failing is a runtime one. */
static int open_renderer(render_run *run)
{
    const mc_render_opts *o = run->o;
    mc_frame_jobs_desc jd;
    mc_scene_renderer_desc d;
    mc_error e;

    if (o->bg_mode == MC_BACKGROUND_NONE && o->out_kind == MC_OUT_VIDEO)
        return mc_usage_error("--background none needs a PNG output: video has no alpha");
    memset(&d, 0, sizeof d);
    d.scene = &run->scene;
    d.width = o->width;
    d.height = o->height;
    d.fps = o->fps;
    d.clock = o->clock;
    d.msaa = o->msaa; /* 0 is off in the library too */
    d.shading = o->shading;
    d.fov_mode = o->fov_mode;
    d.backend = o->gl;
    d.gl_device = o->gl_device;
    d.background_mode = o->bg_mode;
    memcpy(d.background, o->bg, sizeof d.background);
    d.overlay = o->overlay;
    d.developer_images = o->developer_images;
    d.no_shadows = o->no_shadows != 0;
    d.strict_materials = o->strict;
    d.stop = &g_stop_signal;
    d.image_pixels = (unsigned long long)o->image_mpixels << 20;
    d.warn = mc_diag_warn;
    d.warn_user = &run->warned;
    memset(&jd, 0, sizeof jd);
    jd.renderer = d;
    jd.jobs = run->njobs;
    if (mc_frame_jobs_create(&jd, &run->jobs, &e) != MC_OK)
        return e.code == MC_ERR_INTERRUPTED ? -2 : fail(&e, e.code != MC_ERR_GL);
    /* The loading's warnings are over: an archive entry kept for their lines is not held while
     * the frames render. */
    mc_source_cache_release(&run->warned);
    return -1;
}

static int open_pipeline(render_run *run)
{
    mc_pipeline_desc d;
    mc_sink *s = &run->sink;
    mc_error e;

    s->width = run->width;
    s->height = run->height;
    s->enc = run->enc;
    s->pattern = run->o->out_kind == MC_OUT_PNG ? &run->o->pattern : NULL;
    s->png_alpha = run->o->bg_mode == MC_BACKGROUND_NONE;
    s->ref = run->ref;
    if (s->ref) {
        mc_refcheck_summary rs;

        mc_refcheck_get_summary(s->ref, &rs);
        s->threads = sink_threads(run, rs.lossy);
    } else {
        s->threads = sink_threads(run, false);
    }
    s->per_thread = calloc((size_t)s->threads, sizeof *s->per_thread);
    if (!s->per_thread)
        return out_of_memory();
    for (int i = 0; i < s->threads && s->png_alpha; i++) {
        s->per_thread[i].straight = malloc((size_t)run->width * (size_t)run->height * 4);
        if (!s->per_thread[i].straight)
            return out_of_memory();
    }
    memset(&d, 0, sizeof d);
    d.width = run->width;
    d.height = run->height;
    d.depth = run->njobs + MC_PIPELINE_DEFAULT_DEPTH - 1; /* one buffer per job in flight */
    d.sink_threads = s->threads;
    d.sink = mc_sink_frame;
    d.sink_user = s;
    if (mc_pipeline_create(&d, &run->pipe, &e) != MC_OK)
        return fail(&e, false);
    return -1;
}

/* Under `ulimit -v`: refuses a render whose estimate does not fit before the GL context is made
 * (frame false: the driver, the outputs and one frame) or, once they exist, before the first
 * frame (frame true). The size is the one asked for until the renderer settles it. */
static int check_address_space(const render_run *run, bool frame)
{
    mc_address_need need;
    char what[64];
    int w, h;

    if (frame) {
        mc_cli_render_need(&run->scene, run->width, run->height, run->gl.samples, &need);
        snprintf(what, sizeof what, run->njobs == 1 ? "drawing a frame" : "drawing %d frames",
                 run->njobs);
        return mc_cli_address_check(what, need.frame * (unsigned long long)run->njobs);
    }
    asked_size(run, &w, &h);
    mc_cli_render_need(&run->scene, w, h, run->o->msaa, &need);
    snprintf(what, sizeof what,
             run->njobs == 1 ? "rendering this scene" : "rendering this scene with %d jobs",
             run->njobs);
    return mc_cli_address_check(what, jobs_need(&need, run->njobs));
}

/* Everything before the first frame. Only this thread ever runs the handler: the GL driver
 * starts its threads with signals blocked (mc_renderer_create), and signals are blocked here
 * while the reference's decoder, the encoder and the pipeline start theirs. Loading the scene
 * and its materials looks at the flag as it goes, so a signal then is acted on at once. */
static int prepare(render_run *run)
{
    sigset_t block, old;
    int rc;

    if ((rc = load_scene(run)) != -1)
        return rc;
    /* setenv is not safe while another thread may read the environment: before any thread
     * (the jobs', llvmpipe's, a reference video's decoder, the encoder's, the pipeline's)
     * starts; loading the scene starts none. */
    settle_jobs(run);
    rc = stop_requested() ? -2 : check_outputs(run);
    if (rc == -1 && !stop_requested())
        rc = check_address_space(run, false);
    if (rc == -1 && !stop_requested())
        rc = open_renderer(run);
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    /* A signal that comes meanwhile stays pending: each step starts only while none is. */
    if (rc == -1 && !stop_requested())
        rc = settle_settings(run);
    if (rc == -1 && !stop_requested())
        rc = collect_shots(run);
    if (rc == -1 && !stop_requested())
        rc = open_reference(run);
    if (rc == -1 && !stop_requested() && run->o->out_kind == MC_OUT_PNG)
        rc = check_png_folder(run);
    if (rc == -1 && !stop_requested() && run->o->out_kind == MC_OUT_VIDEO)
        rc = open_encoder(run);
    if (rc == -1 && !stop_requested())
        rc = open_pipeline(run);
    if (rc == -1 && !stop_requested())
        rc = check_address_space(run, true);
    pthread_sigmask(SIG_SETMASK, &old, NULL); /* a pending signal runs the handler now */
    if (rc == -2 || (rc == -1 && g_stop_signal))
        return stopped_early(); /* the encoder's temporary goes with release() */
    return rc;
}

/* Hands output frame k to a frame job, drawn into a buffer of the pipeline. */
static mc_status start_frame(render_run *run, int64_t k, mc_error *err)
{
    int i = (int)((k - run->first) % run->njobs);
    double t0 = mc_cli_now();
    mc_status st = mc_pipeline_acquire(run->pipe, &run->bufs[i], err);

    run->wait_s += mc_cli_now() - t0;
    if (st != MC_OK)
        return st;
    run->views[i] = (mc_image_view){ run->width, run->height, (size_t)run->width * 4,
                                     run->bufs[i] };
    return mc_frame_jobs_submit(run->jobs, k, &run->views[i], err);
}

/* Takes the oldest frame in flight, k, from its job and hands its buffer to the sinks. */
static mc_status end_frame(render_run *run, int64_t k, mc_error *err)
{
    int i = (int)((k - run->first) % run->njobs);
    mc_scene_frame_info fi = { 0 };
    mc_frame_no got;
    mc_status st = mc_frame_jobs_collect(run->jobs, &got, &fi, err);

    run->skin_s += fi.pose_s;
    run->draw_s += fi.draw_s;
    run->read_s += fi.end_s;
    if (st == MC_OK && got != k)
        st = mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame %lld came back for %lld",
                          (long long)got, (long long)k);
    if (st == MC_OK)
        st = mc_pipeline_submit(run->pipe, run->bufs[i], k, err);
    if (st != MC_OK)
        return st;
    run->rendered++;
    mc_progress_update(&run->prog, run->rendered);
    return MC_OK;
}

/* Keeps up to njobs frames in flight and passes them to the pipeline in order, so that the
 * sinks see what one renderer would give them. After an error or an interrupt no frame is
 * started; those in flight are waited for and dropped (their buffers are the pipeline's). */
static mc_status frame_loop(render_run *run, mc_error *err)
{
    int64_t next = run->first;
    mc_status st = MC_OK;

    for (int64_t k = run->first; k <= run->last && st == MC_OK; k++) {
        while (st == MC_OK && next <= run->last && next - k < run->njobs) {
            if (g_stop_signal)
                st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            else if ((st = start_frame(run, next, err)) == MC_OK)
                next++;
        }
        if (st == MC_OK)
            st = end_frame(run, k, err);
    }
    if (st != MC_OK) {
        mc_frame_no k = 0;
        mc_error dropped;

        /* After an interrupt, collect waits no more: a frame still inside the GL driver stays
         * in flight (see abandon). */
        while (mc_frame_jobs_in_flight(run->jobs) > 0 && k != -1)
            mc_frame_jobs_collect(run->jobs, &k, NULL, &dropped);
        return st;
    }
    st = mc_pipeline_finish(run->pipe, err);
    if (st == MC_OK && g_stop_signal)
        st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    if (st == MC_OK && run->enc)
        st = mc_encoder_finish(run->enc, err);
    return st;
}

static void print_stats(const render_run *run)
{
    double enc = 0, png = 0, cmp = 0, n = (double)(run->rendered > 0 ? run->rendered : 1);
    const mc_sink *s = &run->sink;
    mc_renderer_info ri;

    for (int i = 0; i < s->threads; i++) {
        enc += s->per_thread[i].encode_s;
        png += s->per_thread[i].png_s;
        cmp += s->per_thread[i].compare_s;
    }
    mc_frame_jobs_get_info(run->jobs, NULL, NULL, NULL, &ri);
    fprintf(stderr, "stats: %lld frames, %dx%d, msaa %d, %d job%s, %d sink thread%s, %s\n",
            (long long)run->rendered, run->width, run->height, ri.samples, run->njobs,
            run->njobs == 1 ? "" : "s", s->threads, s->threads == 1 ? "" : "s", ri.gl_renderer);
    fprintf(stderr, "  %-26s %9.2f ms/frame\n", "skinning", 1e3 * run->skin_s / n);
    fprintf(stderr, "  %-26s %9.2f ms/frame\n", "drawing (GL calls)", 1e3 * run->draw_s / n);
    fprintf(stderr, "  %-26s %9.2f ms/frame\n", "readback (incl. raster)", 1e3 * run->read_s / n);
    if (s->enc)
        fprintf(stderr, "  %-26s %9.2f ms/frame\n", "encode (sink thread)", 1e3 * enc / n);
    if (s->pattern)
        fprintf(stderr, "  %-26s %9.2f ms/frame\n", "png write (sink threads)", 1e3 * png / n);
    if (s->ref)
        fprintf(stderr, "  %-26s %9.2f ms/frame\n", "compare (sink thread)", 1e3 * cmp / n);
    fprintf(stderr, "  %-26s %9.2f ms/frame\n", "waiting for a free buffer", 1e3 * run->wait_s / n);
    fprintf(stderr, "  %-26s %9.2f ms/frame  %.2f fps\n", "end to end", 1e3 * run->wall_s / n,
            run->wall_s > 0 ? (double)run->rendered / run->wall_s : 0.0);
}

/* Says what was written, or that an interrupted output was removed. */
static void report_output(const render_run *run, bool ok, bool interrupted)
{
    const mc_render_opts *o = run->o;

    if (interrupted) {
        if (o->out_kind == MC_OUT_VIDEO && strcmp(o->out, "-") != 0)
            fprintf(stderr, "md5cine: interrupted, removed partial output '%s'\n", o->out);
        else if (o->out_kind == MC_OUT_PNG)
            fprintf(stderr, "md5cine: interrupted; the PNG files written are complete, no "
                            "partial file was left\n");
        else
            fprintf(stderr, "md5cine: interrupted\n");
        return;
    }
    if (!ok) {
        if (o->out_kind == MC_OUT_VIDEO && strcmp(o->out, "-") != 0)
            fprintf(stderr, "md5cine: no output written: '%s' was not created\n", o->out);
        return;
    }
    if (o->progress == MC_PROGRESS_QUIET || o->out_kind == MC_OUT_NONE)
        return;
    char rate[48];

    mc_cli_format_rate(run->fps, rate, sizeof rate);
    mc_cli_wrote(o->out, "%lld frames (%lld-%lld), %dx%d, %s fps%s%s", (long long)run->rendered,
                 (long long)run->first, (long long)run->last, run->width, run->height, rate,
                 run->enc ? ", " : "", run->enc ? mc_encoder_codec_name(run->enc) : "");
}

/* An interrupt with frames still in flight: their jobs are inside the GL driver, which
 * finishes the work it was given before a job sees the stop flag (many jobs sharing few cores:
 * seconds at 1920x1080). Nothing of theirs reaches a file (a stopped frame is not read back,
 * and the sinks have ended), so the outputs are removed and the process ends at once, without
 * waiting for the driver to give the jobs back. Does not return. */
static void abandon(render_run *run)
{
    mc_pipeline_join(run->pipe); /* no sink writes any more; the buffers stay, still drawn into */
    mc_encoder_release(run->enc); /* removes the partial video */
    mc_report_release(run->report); /* and an unfinished report's temporary folder */
    report_output(run, false, true);
    fflush(stdout);
    _exit(128 + g_stop_signal);
}

static int run_frames(render_run *run)
{
    const mc_render_opts *o = run->o;
    bool video_out = o->out_kind == MC_OUT_VIDEO && strcmp(o->out, "-") == 0;
    mc_refcheck_summary rs;
    mc_error e;
    mc_status st;
    double t0 = mc_cli_now();

    mc_progress_begin(&run->prog, o->progress, run->first, run->last - run->first + 1, stderr,
                      video_out ? stderr : stdout);
    if (o->progress == MC_PROGRESS_JSON) { /* first line: what the frames are drawn with */
        FILE *to = video_out ? stderr : stdout;

        fprintf(to, "{\"md5cine\":\"%s\",\"gl\":{", mc_version());
        mc_print_gl_json(to, &run->gl);
        fprintf(to, "}}\n");
        fflush(to);
    }
    st = frame_loop(run, &e);
    run->wall_s = mc_cli_now() - t0;
    mc_progress_end(&run->prog);
    if (st != MC_OK) {
        bool interrupted = st == MC_ERR_INTERRUPTED && g_stop_signal;

        if (interrupted && mc_frame_jobs_in_flight(run->jobs) > 0)
            abandon(run);
        mc_pipeline_cancel(run->pipe);
        mc_pipeline_release(run->pipe);
        run->pipe = NULL;
        mc_encoder_release(run->enc);
        run->enc = NULL;
        if (!interrupted)
            mc_diag_print(stderr, "error", &e);
        report_output(run, false, interrupted);
        return interrupted ? 128 + g_stop_signal : mc_exit_code(st);
    }
    if (o->stats)
        print_stats(run);
    report_output(run, true, false);
    if (!run->ref)
        return MC_EXIT_OK;
    if (o->json)
        mc_refcheck_print_json(run->ref, run->info);
    else
        mc_refcheck_print_table(run->ref, run->info);
    mc_refcheck_get_summary(run->ref, &rs);
    if (write_reports(run) != -1)
        return MC_EXIT_RUNTIME;
    /* A reference frame of another size is bad input, as for compare (the first one's size
     * was checked before rendering; a later PNG of a folder may still differ). */
    for (size_t i = 0; i < mc_refcheck_row_count(run->ref); i++)
        if (mc_refcheck_row_at(run->ref, i)->kind == MC_REFCHECK_SIZE && !o->update_reference)
            return MC_EXIT_INPUT;
    return rs.ok ? MC_EXIT_OK : MC_EXIT_DIFFERENT;
}

static void release(render_run *run)
{
    mc_frame_jobs_release(run->jobs); /* first: a job may still draw into a pipeline buffer */
    mc_pipeline_release(run->pipe);
    mc_encoder_release(run->enc);
    mc_refcheck_release(run->ref);
    mc_report_release(run->report); /* removes an unfinished report's temporary folder */
    if (run->sink.per_thread) {
        for (int i = 0; i < run->sink.threads; i++) {
            mc_png_buf_release(&run->sink.per_thread[i].png);
            free(run->sink.per_thread[i].straight);
        }
        free(run->sink.per_thread);
    }
    free(run->shot_starts);
    free(run->shot_numbers);
    mc_scene_release(&run->scene);
    mc_source_cache_release(&run->warned);
}

static void install_handlers(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

int mc_cmd_render(int argc, char **argv)
{
    mc_render_opts o;
    render_run run;
    int rc;

    install_handlers(); /* first: a signal from here on is acted on, not lost */
    rc = mc_render_parse_args(argc, argv, &o);
    if (rc != -1)
        return rc;
    memset(&run, 0, sizeof run);
    run.o = &o;
    run.info =
            (o.out && strcmp(o.out, "-") == 0) || o.progress == MC_PROGRESS_JSON ? stderr : stdout;
    rc = prepare(&run);
    if (rc == -1)
        rc = run_frames(&run);
    release(&run);
    return rc;
}
