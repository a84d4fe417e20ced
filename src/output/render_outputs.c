/* What the render run opens before its first frame, in order (render_run.h, "prepare"), and
 * the reports it writes after its last: the settings the renderers settled and the shots, the
 * review page and the reference, the PNG sequence or the video with its chunk tags, the
 * pipeline. Each step looks at the stop flag first and says where it is (run->stage). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/audio.h>
#include <md5cine/chunk.h>
#include <md5cine/fileio.h>
#include <md5cine/plan.h>
#include <md5cine/version.h>

#include "output/render_run_int.h"

mc_status mc_rr_stopped(const mc_render_run *run, mc_error *err)
{
    const volatile sig_atomic_t *stop = run->d.renderer.stop;

    if (stop && *stop)
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    return MC_OK;
}

/* Size, rate and GL facts as the renderers settled them; the frame range. */
static mc_status settle_settings(mc_render_run *run)
{
    mc_frame_jobs_get_info(run->jobs, &run->width, &run->height, &run->fps, &run->gl);
    snprintf(run->gl_comment, sizeof run->gl_comment,
             "md5cine %s; GL %s (%s): %s, %s, %s; %d sample%s", mc_version(), run->gl.backend,
             run->gl.gl_device, run->gl.gl_vendor, run->gl.gl_renderer, run->gl.gl_version,
             run->gl.samples, run->gl.samples == 1 ? "" : "s");
    run->count = mc_frame_jobs_frame_count(run->jobs);
    run->first = run->d.has_frames ? run->d.first : 0;
    run->last = run->d.has_frames ? run->d.last : run->count - 1;
    return MC_OK;
}

/* The first output frame of each shot in the rendered range (the encoder's keyframes and
 * chapters), from the same shot list as `md5cine info` and `plan` (mc_plan_shots). */
static mc_status collect_shots(mc_render_run *run, mc_error *err)
{
    const mc_scene_renderer_desc *rd = &run->d.renderer;
    size_t all = mc_plan_shots(&rd->scene->camera, run->fps, rd->clock, run->count, NULL, 0);
    size_t n = 0;
    mc_shot_range *shots = calloc(all + 1, sizeof *shots);

    run->shot_starts = calloc(all + 1, sizeof *run->shot_starts);
    run->shot_numbers = calloc(all + 1, sizeof *run->shot_numbers);
    if (!shots || !run->shot_starts || !run->shot_numbers) {
        free(shots);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    mc_plan_shots(&rd->scene->camera, run->fps, rd->clock, run->count, shots, all);
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
    return MC_OK;
}

/* The report's shots from the camera's cuts (collect_shots); NULL when out of memory. */
static mc_shot_range *report_shots(const mc_render_run *run)
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

/* Strips one extension from the last path component of buf. */
static void strip_ext(char *buf)
{
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');

    if (dot && dot > buf && (!slash || dot > slash + 1))
        *dot = '\0';
}

void mc_render_run_diff_dir(const mc_render_run_desc *desc, char *out, size_t cap)
{
    mc_output_target t;
    char buf[MC_PNG_PATTERN_CAP];
    bool pattern;
    size_t n;

    if (desc->diff_dir) {
        snprintf(out, cap, "%s", desc->diff_dir);
        return;
    }
    if (mc_output_parse(desc->output, desc->output_kind, &t, NULL) != MC_OK)
        memset(&t, 0, sizeof t);
    pattern = t.kind && (t.kind->props & MC_OUTPUT_PATTERN);
    if (pattern)
        mc_png_pattern_dir(&t.pattern, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s",
                 t.kind && strcmp(t.path, "-") != 0 ? t.path
                 : desc->reference                  ? desc->reference
                                                    : "");
    n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    if (!pattern)
        strip_ext(buf);
    snprintf(out, cap, "%s.diff", n > 0 ? buf : "render");
}

/* The review page's folder, hooked into the checker's desc d. */
static mc_status open_report(mc_render_run *run, mc_refcheck_desc *d, mc_error *err)
{
    mc_shot_range *shots = report_shots(run);
    mc_report_desc rd = { .dir = run->d.report_dir, .width = run->width, .height = run->height,
                          .threads = d->threads, .max_frames = run->d.report_max_frames,
                          .shots = shots, .shot_count = run->shot_count };
    mc_status st;

    if (!shots)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    st = mc_report_open(&rd, &run->report, err);
    free(shots);
    if (st == MC_OK)
        mc_report_attach(run->report, d);
    return st;
}

/* The reference and, with a review page, its folder. Fail fast: a reference that lacks frames
 * or has another size stops the run here, before any frame is drawn and any output made. */
static mc_status open_reference(mc_render_run *run, mc_error *err)
{
    const mc_render_run_desc *o = &run->d;
    char diff[MC_PNG_PATTERN_CAP];
    mc_refcheck_desc d;
    mc_status st;

    mc_render_run_diff_dir(o, diff, sizeof diff);
    memset(&d, 0, sizeof d);
    d.reference = o->reference;
    d.candidate = o->output ? o->output : o->renderer.scene->name;
    d.width = run->width;
    d.height = run->height;
    d.diff_dir = diff;
    d.update = o->update_reference;
    d.offset = o->offset;
    d.threads = mc_rr_sink_threads(run->out.kind ? run->out.kind->props : 0, false);
    d.opts = o->limits;
    d.mask = o->mask;
    d.ignore = o->ignore;
    d.num_ignore = o->num_ignore;
    if (o->report_dir) {
        run->stage = MC_RUN_STAGE_REPORT;
        if ((st = open_report(run, &d, err)) != MC_OK)
            return st;
    }
    run->stage = MC_RUN_STAGE_REFERENCE;
    st = mc_refcheck_open(&d, &run->ref, err);
    if (st == MC_OK)
        st = mc_refcheck_preflight(run->ref, run->first, run->last, err);
    return st;
}

/* The chunk tags: which frames of which scene, drawn and encoded how. The settings are what
 * changes pixels or bits besides the scene's files (which its identity covers, the scene's own
 * background and size included). */
static mc_status chunk_tags(mc_render_run *run, mc_error *err)
{
    static const char *const shading[] = { "lit", "unlit", "normals" };
    const mc_render_run_desc *o = &run->d;
    const mc_scene_renderer_desc *rd = &o->renderer;
    mc_chunk_info *c = &run->chunk;
    char bg[64] = "scene";
    mc_status st;

    run->stage = MC_RUN_STAGE_SCENE_ID;
    if ((st = mc_chunk_scene_id(rd->scene, c->scene, err)) != MC_OK)
        return st;
    run->stage = MC_RUN_STAGE_OUTPUT;
    if (rd->background_mode == MC_BACKGROUND_GIVEN)
        snprintf(bg, sizeof bg, "%.6g,%.6g,%.6g", (double)rd->background[0],
                 (double)rd->background[1], (double)rd->background[2]);
    c->first = run->first;
    c->last = run->last;
    c->frames = run->count;
    c->fps = run->fps;
    snprintf(c->settings, sizeof c->settings,
             "size=%dx%d samples=%d shading=%s fov=%s background=%s overlay=%d clock=%s "
             "codec=%s crf=%d preset=%s%s%s%s",
             run->width, run->height, run->gl.samples, shading[rd->shading],
             rd->fov_mode == MC_FOV_DOOM ? "doom" : "file", bg, rd->overlay ? 1 : 0,
             rd->clock == MC_CLOCK_ENGINE ? "engine" : "ideal",
             o->codec ? o->codec : MC_ENCODER_DEFAULT_CODEC,
             o->crf ? o->crf : MC_ENCODER_DEFAULT_CRF,
             o->preset ? o->preset : MC_ENCODER_DEFAULT_PRESET,
             rd->developer_images ? " developer_images=1" : "",
             rd->no_shadows ? " shadows=off" : "",
             rd->shadow_samples && !rd->no_shadows && run->gl.samples > 1
                     ? " shadow_samples=sample"
                     : "");
    mc_chunk_format(c, &run->tags);
    return MC_OK;
}

/* The video's folder ("-" has none), its chunk tags and the encoder, under a temporary name. */
static mc_status open_encoder(mc_render_run *run, mc_error *err)
{
    const mc_render_run_desc *o = &run->d;
    const char *slash = strrchr(o->output, '/');
    mc_encoder_desc d;
    mc_status st;

    if (slash && slash != o->output) {
        char dir[MC_PNG_PATTERN_CAP];

        snprintf(dir, sizeof dir, "%.*s", (int)(slash - o->output), o->output);
        if (!mc_mkdirs(dir))
            return mc_error_set(err, MC_ERR_IO, dir, 0, 0, "cannot create folder '%s': %s",
                                dir, strerror(errno));
    }
    if ((st = chunk_tags(run, err)) != MC_OK)
        return st;
    const char *const metadata[] = { "comment",       run->gl_comment,    "md5cine_chunk",
                                     run->tags.chunk, "md5cine_fps",      run->tags.fps,
                                     "md5cine_scene", run->tags.scene,    "md5cine_settings",
                                     run->tags.settings, NULL };

    memset(&d, 0, sizeof d);
    d.path = o->output;
    d.kind = run->out.kind->kind;
    d.width = run->width;
    d.height = run->height;
    d.fps = run->fps;
    d.first_frame = run->first;
    d.metadata = metadata;
    d.codec = o->codec;
    d.crf = o->crf;
    d.preset = o->preset;
    d.shot_starts = run->shot_starts;
    d.shot_numbers = run->shot_numbers;
    d.shot_count = run->shot_count;
    d.warn = o->renderer.warn;
    d.warn_user = o->renderer.warn_user;
    if (run->sound.mix && (run->out.kind->props & MC_OUTPUT_SOUND)) {
        d.audio.mix = run->sound.mix;
        d.audio.frames = run->sound.frames;
        d.audio.rate = o->audio_rate;
    }
    return mc_encoder_create(&d, &run->enc, err);
}

/* The sinks and the pipeline: one buffer per job in flight beyond the default depth. */
static mc_status open_pipeline(mc_render_run *run, mc_error *err)
{
    mc_rr_sink *s = &run->sink;
    unsigned props = run->out.kind ? run->out.kind->props : 0;
    mc_pipeline_desc d;
    mc_status st;

    s->width = run->width;
    s->height = run->height;
    s->enc = run->enc;
    s->pattern = props & MC_OUTPUT_PATTERN ? &run->out.pattern : NULL;
    s->png_alpha = run->d.renderer.background_mode == MC_BACKGROUND_NONE;
    s->ref = run->ref;
    if (s->ref) {
        mc_refcheck_summary rs;

        mc_refcheck_get_summary(s->ref, &rs);
        s->threads = mc_rr_sink_threads(props, rs.lossy);
    } else {
        s->threads = mc_rr_sink_threads(props, false);
    }
    if ((st = mc_rr_sink_open(s, err)) != MC_OK)
        return st;
    memset(&d, 0, sizeof d);
    d.width = run->width;
    d.height = run->height;
    d.depth = run->njobs + MC_PIPELINE_DEFAULT_DEPTH - 1;
    d.sink_threads = s->threads;
    d.sink = mc_rr_sink_frame;
    d.sink_user = s;
    return mc_pipeline_create(&d, &run->pipe, err);
}

/* The scene's soundtrack, when the output's track or audio_path wants it. */
static mc_status make_sound(mc_render_run *run, mc_error *err)
{
    const mc_render_run_desc *o = &run->d;
    unsigned props = run->out.kind ? run->out.kind->props : 0;
    bool track = !o->sound_off && (props & MC_OUTPUT_SOUND) && (props & MC_OUTPUT_ENCODED) &&
                 mc_soundtrack_scene_has_sound(o->renderer.scene);
    mc_parse_opts opts;
    mc_soundtrack_desc d;
    double t0 = mc_rr_now();
    mc_status st;

    if (!track && !o->audio_path)
        return MC_OK;
    memset(&opts, 0, sizeof opts);
    opts.warn = o->renderer.warn;
    opts.warn_user = o->renderer.warn_user;
    opts.stop = o->renderer.stop;
    memset(&d, 0, sizeof d);
    d.scene = o->renderer.scene;
    d.fps = run->fps;
    d.num_frames = run->count;
    d.opts = &opts;
    d.strict = o->renderer.strict_materials;
    run->stage = MC_RUN_STAGE_SCENE_ID;
    st = mc_soundtrack_make(&d, &run->sound, err);
    run->sound_made = st == MC_OK;
    run->stats.sound_s = mc_rr_now() - t0;
    return st;
}

mc_status mc_rr_write_audio(mc_render_run *run, mc_error *err)
{
    int64_t s0, s1;
    float *zeros = NULL;
    mc_status st;

    if (!run->d.audio_path || !run->sound_made)
        return MC_OK;
    s0 = mc_mix_frame_sample(run->fps, run->first);
    s1 = mc_mix_frame_sample(run->fps, run->last + 1);
    if (s1 > run->sound.frames)
        s1 = run->sound.frames;
    if (s1 < s0)
        s1 = s0;
    if (!run->sound.mix) {
        zeros = calloc((size_t)(s1 - s0) * 2 + 2, sizeof *zeros);
        if (!zeros)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    st = mc_wav_write(run->d.audio_path, zeros ? zeros : run->sound.mix + 2 * s0, s1 - s0, err);
    free(zeros);
    return st;
}

mc_status mc_rr_open_outputs(mc_render_run *run, mc_error *err)
{
    unsigned props = run->out.kind ? run->out.kind->props : 0;
    mc_status st;

    run->stage = MC_RUN_STAGE_SETTINGS;
    st = mc_rr_stopped(run, err);
    if (st == MC_OK)
        st = settle_settings(run);
    if (st == MC_OK && (st = mc_rr_stopped(run, err)) == MC_OK)
        st = collect_shots(run, err);
    if (st == MC_OK && run->d.reference && (st = mc_rr_stopped(run, err)) == MC_OK)
        st = open_reference(run, err);
    if (st == MC_OK && (st = mc_rr_stopped(run, err)) == MC_OK)
        st = make_sound(run, err);
    run->stage = st == MC_OK ? MC_RUN_STAGE_OUTPUT : run->stage;
    if (st == MC_OK && (props & MC_OUTPUT_PATTERN) && (st = mc_rr_stopped(run, err)) == MC_OK)
        st = mc_png_sequence_open(&run->out.pattern, run->d.output, run->first, err);
    if (st == MC_OK && (props & MC_OUTPUT_FRAMES) && !(props & MC_OUTPUT_PATTERN) &&
        (st = mc_rr_stopped(run, err)) == MC_OK)
        st = open_encoder(run, err);
    if (st == MC_OK && (st = mc_rr_stopped(run, err)) == MC_OK)
        st = open_pipeline(run, err);
    return st;
}

mc_status mc_rr_write_reports(mc_render_run *run, mc_error *err)
{
    mc_shot_range *shots = report_shots(run);
    mc_report_info info = { .title = run->d.renderer.scene->name, .reference = run->d.reference,
                            .candidate = run->d.output, .check = run->ref, .shots = shots,
                            .shot_count = run->shot_count };
    mc_status st = MC_OK;

    if (!shots)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (run->report)
        st = mc_report_finish(run->report, &info, err);
    if (st == MC_OK && run->d.junit)
        st = mc_junit_write(run->d.junit, &info, run->stats.wall_s, err);
    free(shots);
    return st;
}

void mc_rr_close_outputs(mc_render_run *run)
{
    mc_pipeline_release(run->pipe);
    run->pipe = NULL;
    mc_encoder_release(run->enc);
    run->enc = NULL;
    run->sink.enc = NULL;
    mc_soundtrack_release(&run->sound);
    run->sound_made = false;
    mc_refcheck_release(run->ref);
    run->ref = NULL;
    mc_report_release(run->report); /* removes an unfinished review page's temporary folder */
    run->report = NULL;
    mc_rr_sink_close(&run->sink);
    free(run->shot_starts);
    free(run->shot_numbers);
    run->shot_starts = NULL;
    run->shot_numbers = NULL;
}
