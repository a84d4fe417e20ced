/* The render run (render_run.h): its desc checked, its phases, the frame loop, its getters.
 * What prepare opens after the renderers is render_outputs.c; where a frame goes,
 * render_sink.c. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/frame_jobs.h>
#include <md5cine/scene.h>

#include "core/signals.h"
#include "output/render_run_int.h"

/* The reference check's options without a reference, and the review page with an update. */
static mc_status check_reference_options(const mc_render_run_desc *d, mc_error *err)
{
    bool check_opts = d->diff_dir || d->update_reference || d->offset || d->mask ||
                      d->num_ignore || d->limits.set || d->report_dir || d->junit ||
                      d->report_max_frames;

    if (!d->reference && check_opts)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "the reference check's settings need a reference");
    if (d->report_dir && d->update_reference)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "a review page cannot be made while updating the reference");
    if (d->report_max_frames < 0 || d->report_max_frames > MC_REFCHECK_MAX_LISTED)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "report_max_frames %d is outside 1..%d", d->report_max_frames,
                            MC_REFCHECK_MAX_LISTED);
    return MC_OK;
}

/* The desc against its scene: the frames, the jobs, the output and what it can hold. */
static mc_status check_desc(const mc_render_run_desc *d, mc_output_target *out, mc_error *err)
{
    const mc_scene_renderer_desc *rd = &d->renderer;
    mc_frame_no count;
    mc_status st;

    if (!rd->scene || !rd->scene->resolved)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "a render run needs a loaded scene (mc_scene_load)");
    if (d->jobs < 0 || d->jobs > MC_FRAME_JOBS_MAX)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "jobs %d is outside 0..%d", d->jobs,
                            MC_FRAME_JOBS_MAX);
    count = mc_scene_frame_count_clock(rd->scene, mc_scene_fps(rd->scene, rd->fps), rd->clock);
    if (d->has_frames && (d->first < 0 || d->first > d->last || d->last >= count))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "frames %lld-%lld are outside the scene's frames 0-%lld",
                            (long long)d->first, (long long)d->last, (long long)(count - 1));
    if ((st = mc_output_parse(d->output, d->output_kind, out, err)) != MC_OK)
        return st;
    if (rd->background_mode == MC_BACKGROUND_NONE && out->kind &&
        !(out->kind->props & MC_OUTPUT_ALPHA))
        return mc_error_set(err, MC_ERR_USAGE, d->output, 0, 0,
                            "a transparent background needs an output that keeps alpha (a %s "
                            "pattern): '%s' has none",
                            mc_output_kind_with(MC_OUTPUT_ALPHA)->title, d->output);
    return check_reference_options(d, err);
}

mc_status mc_render_run_create(const mc_render_run_desc *desc, mc_render_run **out,
                               mc_error *err)
{
    mc_render_run *run;
    mc_output_target target;
    mc_status st;

    *out = NULL;
    if (!desc)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no render run desc");
    if ((st = check_desc(desc, &target, err)) != MC_OK)
        return st;
    run = calloc(1, sizeof *run);
    if (!run)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    run->d = *desc;
    run->out = target;
    run->stage = MC_RUN_STAGE_CREATED;
    *out = run;
    return MC_OK;
}

/* The frame jobs: the renderers made, each with the scene's images and materials, on threads
 * of their own; never more jobs than frames. */
static mc_status open_jobs(mc_render_run *run, mc_error *err)
{
    const mc_render_run_desc *d = &run->d;
    const mc_scene *s = d->renderer.scene;
    mc_frame_no frames = mc_scene_frame_count_clock(s, mc_scene_fps(s, d->renderer.fps),
                                                    d->renderer.clock);
    mc_frame_jobs_desc jd;

    run->njobs = d->jobs ? d->jobs : mc_frame_jobs_auto(mc_frame_jobs_cores());
    if (d->has_frames)
        frames = d->last - d->first + 1;
    if (frames >= 1 && run->njobs > frames)
        run->njobs = (int)frames;
    memset(&jd, 0, sizeof jd);
    jd.renderer = d->renderer;
    jd.jobs = run->njobs;
    return mc_frame_jobs_create(&jd, &run->jobs, err);
}

mc_status mc_render_run_prepare(mc_render_run *run, mc_error *err)
{
    sigset_t old;
    mc_status st;

    if (run->stage != MC_RUN_STAGE_CREATED)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "the run was prepared already");
    run->stage = MC_RUN_STAGE_RENDERER;
    if ((st = open_jobs(run, err)) != MC_OK)
        return st;
    if (run->d.before_outputs &&
        (st = run->d.before_outputs(run->d.before_outputs_user, run, err)) != MC_OK)
        return st;
    /* The decoder of a video reference, the encoder and the sinks start their threads here:
     * they inherit a mask that leaves the program's signals to its own threads. */
    mc_block_async_signals(&old);
    st = mc_rr_open_outputs(run, err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st == MC_OK)
        run->stage = MC_RUN_STAGE_READY;
    return st;
}

/* Hands output frame k to a frame job, drawn into a buffer of the pipeline. */
static mc_status start_frame(mc_render_run *run, mc_frame_no k, mc_error *err)
{
    int i = (int)((k - run->first) % run->njobs);
    double t0 = mc_rr_now();
    mc_status st = mc_pipeline_acquire(run->pipe, &run->bufs[i], err);

    run->stats.wait_s += mc_rr_now() - t0;
    if (st != MC_OK)
        return st;
    run->views[i] = (mc_image_view){ run->width, run->height, (size_t)run->width * 4,
                                     run->bufs[i] };
    return mc_frame_jobs_submit(run->jobs, k, &run->views[i], err);
}

/* Takes the oldest frame in flight, k, from its job and hands its buffer to the sinks. */
static mc_status end_frame(mc_render_run *run, mc_frame_no k, mc_error *err)
{
    int i = (int)((k - run->first) % run->njobs);
    mc_scene_frame_info fi = { 0 };
    mc_frame_no got;
    mc_status st = mc_frame_jobs_collect(run->jobs, &got, &fi, err);

    run->stats.pose_s += fi.pose_s;
    run->stats.draw_s += fi.draw_s;
    run->stats.end_s += fi.end_s;
    if (st == MC_OK && got != k)
        st = mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame %lld came back for %lld",
                          (long long)got, (long long)k);
    if (st == MC_OK)
        st = mc_pipeline_submit(run->pipe, run->bufs[i], k, err);
    if (st != MC_OK)
        return st;
    run->stats.frames++;
    if (run->d.progress)
        run->d.progress(run->d.progress_user, run->stats.frames, run->last - run->first + 1, k);
    return MC_OK;
}

/* Keeps up to njobs frames in flight and passes them to the pipeline in order, so that the
 * sinks see what one renderer would give them. After an error or a stop no frame is started;
 * those in flight are waited for and dropped (their buffers are the pipeline's). */
static mc_status frame_loop(mc_render_run *run, mc_error *err)
{
    mc_frame_no next = run->first;
    mc_status st = MC_OK;

    for (mc_frame_no k = run->first; k <= run->last && st == MC_OK; k++) {
        while (st == MC_OK && next <= run->last && next - k < run->njobs) {
            if ((st = mc_rr_stopped(run, err)) == MC_OK &&
                (st = start_frame(run, next, err)) == MC_OK)
                next++;
        }
        if (st == MC_OK)
            st = end_frame(run, k, err);
    }
    if (st != MC_OK) {
        mc_frame_no k = 0;
        mc_error dropped;

        /* After an interrupt, collect waits no more: a frame still inside the GL driver stays
         * in flight (mc_render_run_abandon). */
        while (mc_frame_jobs_in_flight(run->jobs) > 0 && k != -1)
            mc_frame_jobs_collect(run->jobs, &k, NULL, &dropped);
        return st;
    }
    st = mc_pipeline_finish(run->pipe, err);
    if (st == MC_OK)
        st = mc_rr_stopped(run, err);
    if (st == MC_OK && run->enc)
        st = mc_encoder_finish(run->enc, err);
    if (st == MC_OK)
        st = mc_rr_write_audio(run, err);
    return st;
}

mc_status mc_render_run_frames(mc_render_run *run, mc_error *err)
{
    double t0 = mc_rr_now();
    mc_status st;

    if (run->stage != MC_RUN_STAGE_READY)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "the run is not prepared");
    run->stage = MC_RUN_STAGE_FRAMES;
    st = frame_loop(run, err);
    run->stats.wall_s = mc_rr_now() - t0;
    if (st != MC_OK) {
        /* Nothing half-written: the encoder goes now, with its temporary file. Frames still
         * in flight after an interrupt may draw into the pipeline's buffers: those stay until
         * release, which waits for the jobs first. */
        mc_pipeline_join(run->pipe);
        if (mc_frame_jobs_in_flight(run->jobs) == 0) {
            mc_pipeline_release(run->pipe);
            run->pipe = NULL;
        }
        mc_encoder_release(run->enc);
        run->enc = NULL;
        run->sink.enc = NULL;
        return st;
    }
    if (run->ref) {
        run->stage = MC_RUN_STAGE_REPORTS;
        if ((st = mc_rr_write_reports(run, err)) != MC_OK)
            return st;
    }
    run->stage = MC_RUN_STAGE_DONE;
    return MC_OK;
}

void mc_render_run_release(mc_render_run *run)
{
    if (!run)
        return;
    mc_frame_jobs_release(run->jobs); /* first: a job may still draw into a pipeline buffer */
    mc_rr_close_outputs(run);
    free(run);
}

mc_run_stage mc_render_run_stage(const mc_render_run *run)
{
    return run->stage;
}

void mc_render_run_get_info(const mc_render_run *run, mc_render_run_info *out)
{
    memset(out, 0, sizeof *out);
    out->width = run->width;
    out->height = run->height;
    out->fps = run->fps;
    out->first = run->first;
    out->last = run->last;
    out->frame_count = run->count;
    out->jobs = run->njobs;
    out->sink_threads = run->sink.threads;
    out->output_kind = run->out.kind ? run->out.kind->kind : MC_OUTPUT_NONE;
    out->sound_track = run->sound.mix && run->enc && (run->out.kind->props & MC_OUTPUT_SOUND);
    out->sound_events = run->sound.num_events;
    out->gl = run->gl;
}

void mc_render_run_get_stats(const mc_render_run *run, mc_render_run_stats *out)
{
    *out = run->stats;
    out->encode_s = out->png_s = out->compare_s = 0;
    for (int i = 0; run->sink.per_thread && i < run->sink.threads; i++) {
        out->encode_s += run->sink.per_thread[i].encode_s;
        out->png_s += run->sink.per_thread[i].png_s;
        out->compare_s += run->sink.per_thread[i].compare_s;
    }
}

const char *mc_render_run_codec_name(const mc_render_run *run)
{
    return run->enc ? mc_encoder_codec_name(run->enc) : NULL;
}

const mc_refcheck *mc_render_run_check(const mc_render_run *run)
{
    return run->ref;
}

int mc_render_run_input_count(const mc_render_run *run)
{
    return run->jobs ? mc_frame_jobs_input_count(run->jobs) : 0;
}

const char *mc_render_run_input(const mc_render_run *run, int i)
{
    return run->jobs ? mc_frame_jobs_input(run->jobs, i) : NULL;
}

int mc_render_run_in_flight(mc_render_run *run)
{
    return run->jobs ? mc_frame_jobs_in_flight(run->jobs) : 0;
}

void mc_render_run_abandon(mc_render_run *run)
{
    /* frames' failure has stopped the sinks and removed the partial video already; what is
     * left to remove is an unfinished review page's temporary folder */
    mc_report_release(run->report);
    run->report = NULL;
}
