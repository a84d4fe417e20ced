/* The frame pipeline: the producer (the render loop) fills frame buffers while sink threads
 * consume earlier frames (encode them, write PNGs), so rendering and encoding overlap.
 *
 * A fixed set of `depth` buffers (width * height * 4 bytes each) is allocated at create and
 * reused; nothing is allocated per frame. The producer cycles:
 *
 *     mc_pipeline_acquire(p, &buf, err);   // blocks while every buffer is in use
 *     ... render frame k into buf ...
 *     mc_pipeline_submit(p, buf, k, err);  // hands it to a sink thread
 *
 * and ends with mc_pipeline_finish (waits until every submitted frame went through the sink).
 * With one sink thread frames reach the sink in submission order (what an encoder needs);
 * with several, in any order, each frame exactly once (PNG writers).
 *
 * Errors: the first failing sink call stops the pipeline. Frames not yet sunk are dropped,
 * and the producer gets that error from its next acquire, submit or finish.
 * Cancel (e.g. on SIGINT: the signal handler sets a flag, the render loop calls
 * mc_pipeline_cancel) lets sink calls already running end, drops the rest, wakes a blocked
 * acquire, and makes acquire/submit/finish return MC_ERR_INTERRUPTED.
 *
 * Thread safety: acquire, submit and finish belong to one producer thread; cancel and
 * mc_pipeline_stats_get may be called from any thread (not from a signal handler). */
#ifndef MC_PIPELINE_H
#define MC_PIPELINE_H

#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_PIPELINE_DEFAULT_DEPTH 3
#define MC_PIPELINE_MAX_DEPTH     MC_LIMIT_PIPELINE_DEPTH
#define MC_PIPELINE_MAX_THREADS   MC_LIMIT_PIPELINE_THREADS

typedef struct mc_pipeline mc_pipeline;

/* Consumes one frame. thread is the sink thread's index (0 .. sink_threads - 1), so a sink
 * can keep per-thread scratch memory made before the pipeline starts. rgba holds
 * width * height * 4 bytes, rows width * 4 apart, in whatever order the producer wrote them;
 * it is read-only and valid only during the call. Returns MC_OK or fills err. */
typedef mc_status (*mc_sink_fn)(void *user, int thread, const uint8_t *rgba, int64_t frame_index,
                                mc_error *err);

typedef struct mc_pipeline_desc {
    int width, height; /* frame size in pixels, 1..65536 each */
    int depth;         /* buffers, 1..MC_PIPELINE_MAX_DEPTH; 0 -> MC_PIPELINE_DEFAULT_DEPTH */
    int sink_threads;  /* 1..MC_PIPELINE_MAX_THREADS; 0 -> 1 (in order) */
    mc_sink_fn sink;   /* required */
    void *sink_user;
} mc_pipeline_desc;

/* Seconds measured inside the pipeline (monotonic clock), for benchmarks and progress. */
typedef struct mc_pipeline_stats {
    int64_t submitted;           /* frames handed to submit */
    int64_t sunk;                /* frames whose sink call returned MC_OK */
    double sink_seconds;         /* time spent inside sink calls, summed over sink threads */
    double acquire_wait_seconds; /* time the producer blocked in acquire for a free buffer */
    double sink_idle_seconds;    /* time sink threads waited for a frame, summed */
} mc_pipeline_stats;

/* Allocates the buffers and starts the sink threads. *out is NULL on failure. Errors:
 * MC_ERR_USAGE (bad desc), MC_ERR_NOMEM, MC_ERR_IO (a thread could not start). */
mc_status mc_pipeline_create(const mc_pipeline_desc *desc, mc_pipeline **out, mc_error *err);

/* Waits for a free buffer and stores it in *buf (owned by the pipeline; the producer may
 * write width * height * 4 bytes). On failure *buf is NULL and the status is the sink's
 * error, MC_ERR_INTERRUPTED after cancel, or MC_ERR_USAGE after finish. */
mc_status mc_pipeline_acquire(mc_pipeline *p, uint8_t **buf, mc_error *err);

/* Queues a buffer from acquire as frame frame_index. Never blocks on the sink. A buffer not
 * from acquire is MC_ERR_USAGE. After a sink error or cancel, returns that status (the
 * buffer goes back to the free set). */
mc_status mc_pipeline_submit(mc_pipeline *p, uint8_t *buf, int64_t frame_index, mc_error *err);

/* Waits until every submitted frame went through the sink and stops the threads. Returns
 * the first sink error, MC_ERR_INTERRUPTED after cancel, else MC_OK. Call once. */
mc_status mc_pipeline_finish(mc_pipeline *p, mc_error *err);

/* Stops the pipeline as described above; harmless to repeat or to call after finish. */
void mc_pipeline_cancel(mc_pipeline *p);

/* A consistent snapshot of the counters. */
void mc_pipeline_stats_get(mc_pipeline *p, mc_pipeline_stats *out);

/* Cancels if still running and waits for the sink threads, whose calls have ended when it
 * returns; the buffers stay (another thread may still draw into one it acquired). Harmless to
 * repeat; release does it too. */
void mc_pipeline_join(mc_pipeline *p);

/* Cancels if still running, joins the threads and frees the buffers; NULL is fine. */
void mc_pipeline_release(mc_pipeline *p);

#ifdef __cplusplus
}
#endif

#endif
