/* md5cine render SCENE -o OUT: the options turned into a render run (render_run.h), which
 * draws every output frame of the camera's timeline (DESIGN.md 2.1) into a video, a PNG
 * sequence and/or a comparison with reference frames; this file prints what it did.
 *
 * Order: options -> scene (every file loaded and cross-checked) -> the jobs and llvmpipe's
 * threads settled -> outputs checked against inputs (outguard.c) and the address space against
 * the estimate -> the run made and prepared (renderers, reference, outputs opened) -> frame
 * loop -> what was written, the reference table, the exit status.
 *
 * Interrupts: SIGINT and SIGTERM set a flag from the command's first instruction on, which the
 * run is given as its stop flag; loading stops before the next file, preparing before the next
 * step, the loop at the next frame; the run drops the encoder, which removes its temporary
 * file. The exit status is 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as
 * shells report it. SIGPIPE is ignored: a closed output pipe ("-o - | head") is a write error,
 * exit 3. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <md5cine/audio.h>
#include <md5cine/json.h>
#include <md5cine/render_run.h>
#include <md5cine/version.h>

#include "cli.h"
#include "mesh_scene.h"
#include "render_cli.h"

/* The one mutable global md5cine has: the number of the signal (SIGINT or SIGTERM) that asked
 * the render to stop, 0 while none has. Only the signal handler writes it; the run reads it; a
 * handler may store nothing but a volatile sig_atomic_t. */
static volatile sig_atomic_t g_stop_signal;

static void on_stop_signal(int sig)
{
    g_stop_signal = sig;
}

typedef struct render_cmd {
    const mc_render_opts *o;
    mc_scene scene;
    int njobs;               /* frames drawn at once: --jobs, or automatic (settle_jobs) */
    mc_render_run_desc desc; /* the options as the library takes them */
    mc_render_run *run;
    mc_progress prog;
    FILE *info; /* reports: stdout, or stderr when stdout carries video or JSON lines */
    mc_source_cache warned; /* the source lines of the scene's and materials' warnings */
    int guard_rc; /* -1, or the exit code of an output the renderers' inputs refused */
} render_cmd;

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

/* Prints a library error; the exit code for it. Input errors are exit 2 whatever their kind,
 * except running out of memory. */
static int fail(const mc_error *e, bool input)
{
    mc_diag_print(stderr, "error", e);
    if (input && e->code != MC_ERR_NOMEM)
        return MC_EXIT_INPUT;
    return mc_exit_code(e->code);
}

static int load_scene(render_cmd *c)
{
    mc_parse_opts popts = { .lenient = c->o->view.lenient, .warn = mc_diag_warn,
                            .warn_user = &c->warned, .stop = &g_stop_signal,
                            .error = mc_diag_error, .error_user = &c->warned };
    mc_error e;
    mc_status st;

    if (c->o->base)
        st = mc_model_scene_load(c->o->scene, c->o->anim, c->o->base, &popts, &c->scene, &e);
    else if (mc_mesh_scene_is_mesh(c->o->scene))
        st = mc_mesh_scene_load(c->o->scene, c->o->anim, &popts, &c->scene, &e);
    else
        st = mc_scene_load(c->o->scene, &popts, &c->scene, &e);

    if (st != MC_OK)
        return e.code == MC_ERR_INTERRUPTED ? stopped_early() : fail(&e, true);
    return -1;
}

static void on_progress(void *user, int64_t done, int64_t total, mc_frame_no frame)
{
    (void)total;
    (void)frame;
    mc_progress_update(user, done);
}

/* The options as the run's desc: the scene renderer's, the output's, the reference check's. */
static void fill_desc(render_cmd *c)
{
    const mc_render_opts *o = c->o;
    mc_render_run_desc *d = &c->desc;
    mc_scene_renderer_desc *r = &d->renderer;

    memset(d, 0, sizeof *d);
    r->scene = &c->scene;
    r->width = o->width;
    r->height = o->height;
    r->fps = o->view.fps;
    r->clock = o->clock;
    r->msaa = o->view.msaa; /* 0 is off in the library too */
    r->shading = o->view.shading;
    r->fov_mode = o->fov_mode;
    r->backend = o->view.gl;
    r->gl_device = o->gl_device;
    r->background_mode = o->bg_mode;
    memcpy(r->background, o->bg, sizeof r->background);
    r->overlay = o->overlay;
    r->developer_images = o->developer_images;
    r->no_shadows = o->view.no_shadows != 0;
    r->shadow_samples = o->shadow_samples;
    if (o->quality == MC_QUALITY_DRAFT && !o->width)
        mc_render_asked_size(o, &c->scene, &r->width, &r->height);
    r->strict_materials = o->strict;
    r->stop = &g_stop_signal;
    r->image_pixels = (unsigned long long)o->image_mpixels << 20;
    r->warn = mc_diag_warn;
    r->warn_user = &c->warned;
    d->jobs = c->njobs;
    d->has_frames = o->has_frames;
    d->first = o->first;
    d->last = o->last;
    d->output = o->out;
    d->codec = o->codec;
    d->crf = o->crf;
    d->preset = o->preset;
    d->reference = o->reference;
    d->diff_dir = o->diff_dir;
    d->update_reference = o->update_reference;
    d->offset = o->ref_offset;
    d->limits = o->lim.opts;
    d->mask = o->lim.mask;
    d->ignore = o->lim.ignore.r;
    d->num_ignore = o->lim.ignore.n;
    d->report_dir = o->report_dir;
    d->report_max_frames = o->report_max_frames;
    d->junit = o->junit;
    d->sound_off = o->audio_off;
    d->audio_path = o->audio_path;
    d->audio_rate = o->audio_rate;
    d->progress = on_progress;
    d->progress_user = &c->prog;
}

/* What the options ask that the scene cannot give: checked before the GL context is made. */
static int check_settings(const render_cmd *c)
{
    const mc_render_opts *o = c->o;
    int64_t count = mc_scene_frame_count_clock(&c->scene, mc_scene_fps(&c->scene, o->view.fps),
                                               o->clock);

    if (o->bg_mode == MC_BACKGROUND_NONE && o->out_kind == MC_OUT_VIDEO)
        return mc_usage_error("--background none needs a PNG output: video has no alpha");
    if (o->has_frames && o->last >= count)
        return mc_usage_error("--frames %lld-%lld is outside the scene's frames 0-%lld",
                              (long long)o->first, (long long)o->last, (long long)(count - 1));
    return -1;
}

/* The run made and prepared: renderers (textures decoded and uploaded, GL contexts), the
 * reference and the outputs. A texture or a reference that cannot be read is an input error;
 * GL failing is a runtime one. -2: interrupted. */
/* The run's before_outputs: the outputs checked again against the files of the base the
 * renderers read (the message is printed here; prepare stops). */
static mc_status check_read_inputs(void *user, const mc_render_run *run, mc_error *err)
{
    render_cmd *c = user;

    c->guard_rc = mc_render_check_outputs(c->o, &c->scene, &c->desc, run);
    if (c->guard_rc == -1)
        return MC_OK;
    return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "an output would replace an input");
}

static int open_run(render_cmd *c)
{
    mc_run_stage stage;
    mc_error e;
    mc_status st;

    c->guard_rc = -1;
    c->desc.before_outputs = check_read_inputs;
    c->desc.before_outputs_user = c;
    if (mc_render_run_create(&c->desc, &c->run, &e) != MC_OK)
        return fail(&e, false);
    st = mc_render_run_prepare(c->run, &e);
    if (c->guard_rc != -1)
        return c->guard_rc;
    /* The loading's warnings are over: an archive entry kept for their lines is not held while
     * the frames render. */
    mc_source_cache_release(&c->warned);
    if (st == MC_ERR_INTERRUPTED)
        return -2;
    if (st == MC_OK)
        return -1;
    stage = mc_render_run_stage(c->run);
    return fail(&e, (stage == MC_RUN_STAGE_RENDERER || stage == MC_RUN_STAGE_REFERENCE ||
                     stage == MC_RUN_STAGE_SCENE_ID) &&
                            e.code != MC_ERR_GL);
}

/* Everything before the first frame. Only this thread ever runs the handler: the GL driver
 * and the run start their threads with signals blocked. Loading the scene and its materials
 * looks at the flag as it goes, so a signal then is acted on at once. */
static int prepare(render_cmd *c)
{
    int rc;

    if ((rc = load_scene(c)) != -1)
        return rc;
    /* setenv is not safe while another thread may read the environment: before any thread
     * (the jobs', llvmpipe's, a reference video's decoder, the encoder's, the pipeline's)
     * starts; loading the scene starts none. */
    c->njobs = mc_render_settle_jobs(c->o, &c->scene);
    fill_desc(c);
    rc = stop_requested() ? -2 : mc_render_check_outputs(c->o, &c->scene, &c->desc, NULL);
    if (rc == -1 && !stop_requested())
        rc = mc_render_check_address(c->o, &c->scene, c->njobs, NULL);
    if (rc == -1 && !stop_requested())
        rc = check_settings(c);
    if (rc == -1 && !stop_requested())
        rc = open_run(c);
    if (rc == -1 && !stop_requested())
        rc = mc_render_check_address(c->o, &c->scene, c->njobs, c->run);
    if (rc == -2 || (rc == -1 && g_stop_signal))
        return stopped_early(); /* the encoder's temporary goes with the run */
    return rc;
}

/* One line of --stats: seconds s over n frames, in ms per frame. */
static void stat_line(const char *what, double s, double n)
{
    fprintf(stderr, "  %-26s %9.2f ms/frame\n", what, 1e3 * s / n);
}

static void print_stats(const render_cmd *c)
{
    mc_render_run_info ri;
    mc_render_run_stats st;
    double n;

    mc_render_run_get_info(c->run, &ri);
    mc_render_run_get_stats(c->run, &st);
    n = (double)(st.frames > 0 ? st.frames : 1);
    fprintf(stderr, "stats: %lld frames, %dx%d, msaa %d, %d job%s, %d sink thread%s, %s\n",
            (long long)st.frames, ri.width, ri.height, ri.gl.samples, ri.jobs,
            ri.jobs == 1 ? "" : "s", ri.sink_threads, ri.sink_threads == 1 ? "" : "s",
            ri.gl.gl_renderer);
    stat_line("skinning", st.pose_s, n);
    stat_line("drawing (GL calls)", st.draw_s, n);
    stat_line("readback (incl. raster)", st.end_s, n);
    if (mc_render_run_codec_name(c->run))
        stat_line("encode (sink thread)", st.encode_s, n);
    if (c->o->out_kind == MC_OUT_PNG)
        stat_line("png write (sink threads)", st.png_s, n);
    if (mc_render_run_check(c->run))
        stat_line("compare (sink thread)", st.compare_s, n);
    stat_line("waiting for a free buffer", st.wait_s, n);
    if (st.sound_s > 0)
        fprintf(stderr, "  %-26s %9.2f ms once (%zu events)\n", "sound (decode, mix)",
                1e3 * st.sound_s, ri.sound_events);
    fprintf(stderr, "  %-26s %9.2f ms/frame  %.2f fps\n", "end to end", 1e3 * st.wall_s / n,
            st.wall_s > 0 ? (double)st.frames / st.wall_s : 0.0);
}

/* Says what was written, or that an interrupted output was removed. */
static void report_output(const render_cmd *c, bool ok, bool interrupted)
{
    const mc_render_opts *o = c->o;
    const char *codec = mc_render_run_codec_name(c->run);
    mc_render_run_info ri;
    mc_render_run_stats st;
    char rate[48];

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
    if (o->view.progress == MC_PROGRESS_QUIET || o->out_kind == MC_OUT_NONE)
        return;
    mc_render_run_get_info(c->run, &ri);
    mc_render_run_get_stats(c->run, &st);
    mc_cli_format_rate(ri.fps, rate, sizeof rate);
    mc_cli_wrote(o->out, "%lld frames (%lld-%lld), %dx%d, %s fps%s%s", (long long)st.frames,
                 (long long)ri.first, (long long)ri.last, ri.width, ri.height, rate,
                 codec ? ", " : "", codec ? codec : "");
}

/* The reference table, the reports' lines and the exit status of a check. report_err: the
 * run's error when writing the reports failed, else NULL. */
static int report_check(const render_cmd *c, const mc_error *report_err)
{
    const mc_refcheck *ref = mc_render_run_check(c->run);
    mc_refcheck_summary rs;

    if (c->o->json)
        mc_refcheck_print_json(ref, c->info);
    else
        mc_cli_print_check(ref, c->o->verbose, c->info);
    mc_refcheck_get_summary(ref, &rs);
    if (report_err) {
        mc_diag_print(stderr, "error", report_err);
        return MC_EXIT_RUNTIME;
    }
    if (c->o->view.progress != MC_PROGRESS_QUIET)
        mc_cli_wrote_reports(c->o->report_dir, c->o->junit, ref);
    /* A reference frame of another size is bad input, as for compare (the first one's size
     * was checked before rendering; a later PNG of a folder may still differ). */
    for (size_t i = 0; i < mc_refcheck_row_count(ref); i++)
        if (mc_refcheck_row_at(ref, i)->kind == MC_REFCHECK_SIZE && !c->o->update_reference)
            return MC_EXIT_INPUT;
    return rs.ok ? MC_EXIT_OK : MC_EXIT_DIFFERENT;
}

static int run_frames(render_cmd *c)
{
    const mc_render_opts *o = c->o;
    bool video_out = o->out_kind == MC_OUT_VIDEO && strcmp(o->out, "-") == 0;
    mc_render_run_info ri;
    mc_error e;
    mc_status st;

    mc_render_run_get_info(c->run, &ri);
    mc_progress_begin(&c->prog, o->view.progress, ri.first, ri.last - ri.first + 1, stderr,
                      video_out ? stderr : stdout);
    mc_progress_set_interval(&c->prog, o->progress_interval);
    if (o->view.progress == MC_PROGRESS_JSON) { /* first line: what the frames are drawn with */
        FILE *to = video_out ? stderr : stdout;

        fprintf(to, "{\"md5cine\":\"%s\",\"gl\":{", mc_version());
        mc_print_gl_json(to, &ri.gl);
        fprintf(to, "}}\n");
        fflush(to);
    }
    st = mc_render_run_frames(c->run, &e);
    mc_progress_end(&c->prog);
    if (st != MC_OK && mc_render_run_stage(c->run) != MC_RUN_STAGE_REPORTS) {
        bool interrupted = st == MC_ERR_INTERRUPTED && g_stop_signal;

        if (interrupted && mc_render_run_in_flight(c->run) > 0) {
            /* Ends at once, without waiting for the driver to give the jobs back. */
            mc_render_run_abandon(c->run);
            report_output(c, false, true);
            fflush(stdout);
            _exit(128 + g_stop_signal);
        }
        if (!interrupted)
            mc_diag_print(stderr, "error", &e);
        report_output(c, false, interrupted);
        return interrupted ? 128 + g_stop_signal : mc_exit_code(st);
    }
    if (o->stats)
        print_stats(c);
    report_output(c, true, false);
    if (!mc_render_run_check(c->run))
        return MC_EXIT_OK;
    return report_check(c, st == MC_OK ? NULL : &e);
}

/* -o FILE.wav: the scene's sound alone (soundtrack.h), over the frames asked, no frame
 * drawn. */
static int sound_only(render_cmd *c)
{
    const mc_render_opts *o = c->o;
    mc_rate fps;
    int64_t count, s0, s1;
    mc_parse_opts popts = { .warn = mc_diag_warn, .warn_user = &c->warned,
                            .stop = &g_stop_signal };
    mc_soundtrack_desc d = { 0 };
    mc_soundtrack st;
    float *zeros = NULL;
    mc_error e;
    int rc = load_scene(c);

    if (rc != -1)
        return rc;
    fps = mc_scene_fps(&c->scene, o->view.fps);
    count = mc_scene_frame_count_clock(&c->scene, fps, o->clock);
    if (o->has_frames && o->last >= count)
        return mc_usage_error("--frames %lld-%lld is outside the scene's frames 0-%lld",
                              (long long)o->first, (long long)o->last, (long long)(count - 1));
    d.scene = &c->scene;
    d.fps = fps;
    d.num_frames = count;
    d.opts = &popts;
    d.strict = o->strict;
    if (mc_soundtrack_make(&d, &st, &e) != MC_OK)
        return e.code == MC_ERR_INTERRUPTED ? stopped_early() : fail(&e, true);
    s0 = mc_mix_frame_sample(fps, o->has_frames ? o->first : 0);
    s1 = mc_mix_frame_sample(fps, o->has_frames ? o->last + 1 : count);
    if (!st.mix && !(zeros = calloc((size_t)(s1 - s0) * 2 + 2, sizeof *zeros))) {
        mc_soundtrack_release(&st);
        mc_error_set(&e, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        return fail(&e, false);
    }
    rc = mc_wav_write(o->audio_path, zeros ? zeros : st.mix + 2 * s0, s1 - s0, &e) == MC_OK
                 ? MC_EXIT_OK
                 : fail(&e, false);
    if (rc == MC_EXIT_OK && o->view.progress != MC_PROGRESS_QUIET)
        fprintf(c->info, "wrote %s (%lld sound events, %.3f s)\n", o->audio_path,
                (long long)st.num_events, (double)(s1 - s0) / MC_SOUND_RATE);
    free(zeros);
    mc_soundtrack_release(&st);
    return rc;
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
    render_cmd c;
    int rc;

    install_handlers(); /* first: a signal from here on is acted on, not lost */
    rc = mc_render_parse_args(argc, argv, &o);
    if (rc != -1)
        return rc;
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.info = (o.out && strcmp(o.out, "-") == 0) || o.view.progress == MC_PROGRESS_JSON ? stderr : stdout;
    if (o.sound_only) {
        rc = sound_only(&c);
        mc_scene_release(&c.scene);
        mc_source_cache_release(&c.warned);
        return rc;
    }
    rc = prepare(&c);
    if (rc == -1)
        rc = run_frames(&c);
    mc_render_run_release(c.run); /* removes what was not finished */
    mc_scene_release(&c.scene);
    mc_source_cache_release(&c.warned);
    return rc;
}
