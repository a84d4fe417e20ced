/* The render run's insides (render_run.h), shared by its three files, which call one way:
 * render_run.c (the public calls and the frame loop) -> render_outputs.c (what prepare opens in
 * order, and the reports after the frames) -> render_sink.c (the pipeline's sink: where each
 * finished frame goes). */
#ifndef MC_OUTPUT_RENDER_RUN_INT_H
#define MC_OUTPUT_RENDER_RUN_INT_H

#include <md5cine/chunk_tags.h>
#include <md5cine/encode.h>
#include <md5cine/frame_jobs.h>
#include <md5cine/output.h>
#include <md5cine/pipeline.h>
#include <md5cine/refcheck.h>
#include <md5cine/render_run.h>
#include <md5cine/report.h>

/* Per sink thread: a PNG writer and the time spent in each output (seconds). */
typedef struct mc_rr_sink_thread {
    mc_png_writer png; /* with a PNG sequence */
    double encode_s, png_s, compare_s;
} mc_rr_sink_thread;

/* Where finished frames go: the user of the pipeline's sink function. */
typedef struct mc_rr_sink {
    int width, height;
    mc_encoder *enc;               /* NULL: no video */
    const mc_png_pattern *pattern; /* NULL: no PNG sequence */
    bool png_alpha;                /* RGBA PNGs with straight alpha */
    mc_refcheck *ref;              /* NULL: no reference */
    int threads;
    mc_rr_sink_thread *per_thread; /* threads entries */
} mc_rr_sink;

struct mc_render_run {
    mc_render_run_desc d;
    mc_output_target out; /* d.output read (output.h) */
    mc_run_stage stage;
    int njobs;
    mc_frame_jobs *jobs;
    int width, height;
    mc_rate fps;
    mc_renderer_info gl;
    char gl_comment[640]; /* the GL facts as one line, for the video's metadata */
    mc_frame_no count, first, last;
    int64_t *shot_starts; /* relative to first: the encoder's keyframes and chapters */
    int *shot_numbers;    /* 1-based */
    size_t shot_count;
    mc_chunk_info chunk;
    mc_chunk_tags tags;
    mc_encoder *enc;
    mc_refcheck *ref;
    mc_report *report;
    mc_rr_sink sink;
    mc_pipeline *pipe;
    uint8_t *bufs[MC_FRAME_JOBS_MAX]; /* the pipeline's buffers of the frames in flight */
    mc_image_view views[MC_FRAME_JOBS_MAX];
    mc_render_run_stats stats;
    mc_soundtrack sound; /* mixed by prepare when a track or audio_path wants it */
    bool sound_made;
};

/* render_outputs.c: prepare's steps after the renderers, in order, each only while stop is
 * unset, setting run->stage as it goes. */
mc_status mc_rr_open_outputs(mc_render_run *run, mc_error *err);

/* render_outputs.c: writes desc.audio_path once the frames are finished. */
mc_status mc_rr_write_audio(mc_render_run *run, mc_error *err);

/* render_outputs.c: the review page and the JUnit file, once the frames are checked. */
mc_status mc_rr_write_reports(mc_render_run *run, mc_error *err);

/* render_outputs.c: frees what mc_rr_open_outputs made (the jobs excepted). */
void mc_rr_close_outputs(mc_render_run *run);

/* render_outputs.c: MC_ERR_INTERRUPTED once desc.renderer.stop is set, else MC_OK. */
mc_status mc_rr_stopped(const mc_render_run *run, mc_error *err);

/* render_sink.c: sink threads for an output of props (0: none), with a reference that is a
 * video (read forward only) or not. */
int mc_rr_sink_threads(unsigned props, bool video_reference);

/* render_sink.c: fills s's per-thread memory for the frame size (threads and the outputs set);
 * errors MC_ERR_NOMEM, mc_png_writer_init's. */
mc_status mc_rr_sink_open(mc_rr_sink *s, mc_error *err);

/* render_sink.c: frees what mc_rr_sink_open made; harmless on a zeroed sink. */
void mc_rr_sink_close(mc_rr_sink *s);

/* render_sink.c: the mc_sink_fn of the pipeline; user is an mc_rr_sink. */
mc_status mc_rr_sink_frame(void *user, int thread, const uint8_t *rgba, int64_t frame,
                           mc_error *err);

/* render_sink.c: the monotonic clock in seconds. */
double mc_rr_now(void);

#endif
