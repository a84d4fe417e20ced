#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <md5cine/pipeline.h>

/* Largest frame edge the pipeline accepts (pixels); far above any video size. */
#define MAX_EDGE MC_LIMIT_RENDER_MAX_SIDE

struct mc_pipeline {
    mc_pipeline_desc desc;
    size_t frame_bytes;
    uint8_t *mem;                         /* depth buffers, back to back */
    uint8_t *bufs[MC_PIPELINE_MAX_DEPTH]; /* start of each buffer */
    bool held[MC_PIPELINE_MAX_DEPTH];     /* acquired by the producer, not yet submitted */
    int free_idx[MC_PIPELINE_MAX_DEPTH];  /* stack of free buffers */
    int nfree;
    int q_idx[MC_PIPELINE_MAX_DEPTH]; /* FIFO of submitted buffers */
    int64_t q_frame[MC_PIPELINE_MAX_DEPTH];
    int q_head, q_count;

    pthread_mutex_t mu;
    pthread_cond_t cv_free; /* a buffer became free, or the pipeline stopped */
    pthread_cond_t cv_work; /* a frame was queued, or the pipeline is stopping */
    pthread_t threads[MC_PIPELINE_MAX_THREADS];
    int nthreads;

    bool stopping; /* finish called: threads leave once the queue is empty */
    bool cancelled;
    bool failed; /* a sink failed; first_err holds its record */
    bool finished;
    mc_error first_err;
    mc_pipeline_stats stats;
};

typedef struct sink_arg {
    mc_pipeline *p;
    int thread;
} sink_arg;

static double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Puts every queued frame's buffer back on the free stack. Called with mu held. */
static void drop_queue(mc_pipeline *p)
{
    while (p->q_count > 0) {
        p->free_idx[p->nfree++] = p->q_idx[p->q_head];
        p->q_head = (p->q_head + 1) % p->desc.depth;
        p->q_count--;
    }
}

/* The status the producer sees once the pipeline has stopped; MC_OK while it runs. Called
 * with mu held. */
static mc_status stopped_status(const mc_pipeline *p, mc_error *err)
{
    if (p->failed) {
        if (err)
            *err = p->first_err;
        return p->first_err.code;
    }
    if (p->cancelled)
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "rendering was interrupted");
    return MC_OK;
}

/* Takes the next frame to sink, or returns false when the thread should leave. Called with
 * mu held; waits on cv_work. */
static bool next_frame(mc_pipeline *p, int *idx, int64_t *frame)
{
    while (p->q_count == 0 && !p->stopping && !p->cancelled && !p->failed) {
        double t0 = now_seconds();

        pthread_cond_wait(&p->cv_work, &p->mu);
        p->stats.sink_idle_seconds += now_seconds() - t0;
    }
    if (p->cancelled || p->failed || p->q_count == 0)
        return false;
    *idx = p->q_idx[p->q_head];
    *frame = p->q_frame[p->q_head];
    p->q_head = (p->q_head + 1) % p->desc.depth;
    p->q_count--;
    return true;
}

static void *sink_main(void *arg)
{
    const sink_arg *a = arg;
    mc_pipeline *p = a->p;
    int thread = a->thread;
    int idx;
    int64_t frame;

    free(arg);
    pthread_mutex_lock(&p->mu);
    while (next_frame(p, &idx, &frame)) {
        mc_error e;
        mc_status s;
        double t0, t1;

        pthread_mutex_unlock(&p->mu);
        memset(&e, 0, sizeof e);
        t0 = now_seconds();
        s = p->desc.sink(p->desc.sink_user, thread, p->bufs[idx], frame, &e);
        t1 = now_seconds();
        pthread_mutex_lock(&p->mu);
        p->stats.sink_seconds += t1 - t0;
        if (s == MC_OK) {
            p->stats.sunk++;
        } else if (!p->failed) {
            p->failed = true;
            p->first_err = e;
            p->first_err.code = s;
            drop_queue(p);
            pthread_cond_broadcast(&p->cv_work);
        }
        p->free_idx[p->nfree++] = idx;
        pthread_cond_broadcast(&p->cv_free);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static mc_status check_desc(const mc_pipeline_desc *d, mc_error *err)
{
    if (!d->sink)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "pipeline needs a sink");
    if (d->width <= 0 || d->height <= 0 || d->width > MAX_EDGE || d->height > MAX_EDGE)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad frame size %dx%d", d->width,
                            d->height);
    if (d->depth < 0 || d->depth > MC_PIPELINE_MAX_DEPTH)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "queue depth %d is not in 1..%d",
                            d->depth, MC_PIPELINE_MAX_DEPTH);
    if (d->sink_threads < 0 || d->sink_threads > MC_PIPELINE_MAX_THREADS)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "sink thread count %d is not in 1..%d",
                            d->sink_threads, MC_PIPELINE_MAX_THREADS);
    return MC_OK;
}

/* Allocates the frame buffers: one block, each buffer starting on a 64-byte boundary. */
static mc_status alloc_buffers(mc_pipeline *p, mc_error *err)
{
    size_t stride = (p->frame_bytes + 63u) & ~(size_t)63u;
    int i;

    p->mem = aligned_alloc(64, stride * (size_t)p->desc.depth);
    if (!p->mem)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0,
                            "out of memory for %d frame buffers of %zu bytes", p->desc.depth,
                            p->frame_bytes);
    for (i = 0; i < p->desc.depth; i++) {
        p->bufs[i] = p->mem + stride * (size_t)i;
        p->free_idx[i] = p->desc.depth - 1 - i; /* buffer 0 is handed out first */
    }
    p->nfree = p->desc.depth;
    return MC_OK;
}

static mc_status start_threads(mc_pipeline *p, mc_error *err)
{
    int i;

    for (i = 0; i < p->desc.sink_threads; i++) {
        sink_arg *a = malloc(sizeof *a);

        if (!a)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        a->p = p;
        a->thread = i;
        if (pthread_create(&p->threads[i], NULL, sink_main, a) != 0) {
            free(a);
            return mc_error_set(err, MC_ERR_IO, NULL, 0, 0, "cannot start a sink thread");
        }
        p->nthreads++;
    }
    return MC_OK;
}

mc_status mc_pipeline_create(const mc_pipeline_desc *desc, mc_pipeline **out, mc_error *err)
{
    mc_pipeline *p;
    mc_status s;

    *out = NULL;
    s = check_desc(desc, err);
    if (s != MC_OK)
        return s;
    p = calloc(1, sizeof *p);
    if (!p)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    p->desc = *desc;
    if (p->desc.depth == 0)
        p->desc.depth = MC_PIPELINE_DEFAULT_DEPTH;
    if (p->desc.sink_threads == 0)
        p->desc.sink_threads = 1;
    p->frame_bytes = (size_t)p->desc.width * (size_t)p->desc.height * 4u;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_free, NULL);
    pthread_cond_init(&p->cv_work, NULL);
    s = alloc_buffers(p, err);
    if (s == MC_OK)
        s = start_threads(p, err);
    if (s != MC_OK) {
        mc_pipeline_release(p);
        return s;
    }
    *out = p;
    return MC_OK;
}

mc_status mc_pipeline_acquire(mc_pipeline *p, uint8_t **buf, mc_error *err)
{
    mc_status s;
    int idx;

    *buf = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->finished || p->stopping) {
        pthread_mutex_unlock(&p->mu);
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "pipeline already finished");
    }
    if (p->nfree == 0 && !p->failed && !p->cancelled) {
        double t0 = now_seconds();

        while (p->nfree == 0 && !p->failed && !p->cancelled)
            pthread_cond_wait(&p->cv_free, &p->mu);
        p->stats.acquire_wait_seconds += now_seconds() - t0;
    }
    s = stopped_status(p, err);
    if (s == MC_OK) {
        idx = p->free_idx[--p->nfree];
        p->held[idx] = true;
        *buf = p->bufs[idx];
    }
    pthread_mutex_unlock(&p->mu);
    return s;
}

mc_status mc_pipeline_submit(mc_pipeline *p, uint8_t *buf, int64_t frame_index, mc_error *err)
{
    mc_status s;
    int idx = -1, i, tail;

    pthread_mutex_lock(&p->mu);
    for (i = 0; i < p->desc.depth; i++)
        if (p->bufs[i] == buf && p->held[i])
            idx = i;
    if (idx < 0 || p->finished || p->stopping) {
        pthread_mutex_unlock(&p->mu);
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "submitted a buffer that was not acquired");
    }
    p->held[idx] = false;
    s = stopped_status(p, err);
    if (s != MC_OK) {
        p->free_idx[p->nfree++] = idx;
        pthread_cond_broadcast(&p->cv_free);
    } else {
        tail = (p->q_head + p->q_count) % p->desc.depth;
        p->q_idx[tail] = idx;
        p->q_frame[tail] = frame_index;
        p->q_count++;
        p->stats.submitted++;
        pthread_cond_signal(&p->cv_work);
    }
    pthread_mutex_unlock(&p->mu);
    return s;
}

/* Joins every sink thread; the caller has made them leave (stopping or cancelled). */
static void join_threads(mc_pipeline *p)
{
    int i;

    for (i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    p->nthreads = 0;
}

mc_status mc_pipeline_finish(mc_pipeline *p, mc_error *err)
{
    mc_status s;

    pthread_mutex_lock(&p->mu);
    if (p->finished || p->stopping) {
        pthread_mutex_unlock(&p->mu);
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "pipeline already finished");
    }
    p->stopping = true;
    pthread_cond_broadcast(&p->cv_work);
    pthread_mutex_unlock(&p->mu);
    join_threads(p);
    pthread_mutex_lock(&p->mu);
    p->finished = true;
    s = stopped_status(p, err);
    pthread_mutex_unlock(&p->mu);
    return s;
}

void mc_pipeline_cancel(mc_pipeline *p)
{
    pthread_mutex_lock(&p->mu);
    if (!p->cancelled && !p->finished) {
        p->cancelled = true;
        drop_queue(p);
        pthread_cond_broadcast(&p->cv_work);
        pthread_cond_broadcast(&p->cv_free);
    }
    pthread_mutex_unlock(&p->mu);
}

void mc_pipeline_stats_get(mc_pipeline *p, mc_pipeline_stats *out)
{
    pthread_mutex_lock(&p->mu);
    *out = p->stats;
    pthread_mutex_unlock(&p->mu);
}

void mc_pipeline_join(mc_pipeline *p)
{
    mc_pipeline_cancel(p);
    join_threads(p);
}

void mc_pipeline_release(mc_pipeline *p)
{
    if (!p)
        return;
    mc_pipeline_join(p);
    pthread_cond_destroy(&p->cv_work);
    pthread_cond_destroy(&p->cv_free);
    pthread_mutex_destroy(&p->mu);
    free(p->mem);
    free(p);
}
