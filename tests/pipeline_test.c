/* The frame pipeline: order, exactly-once delivery, buffer reuse, error and cancel paths. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include <md5cine/pipeline.h>

#include "test.h"

#define FW      8
#define FH      4
#define NFRAMES 60

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };

    nanosleep(&ts, NULL);
}

/* The producer writes the frame index into the first 8 bytes and a byte pattern after it,
 * so a sink can check that it got the right buffer contents for the frame it was told. */
static void fill(uint8_t *buf, int64_t k)
{
    memcpy(buf, &k, sizeof k);
    for (size_t i = sizeof k; i < (size_t)FW * FH * 4u; i++)
        buf[i] = (uint8_t)(k * 7 + (int64_t)i);
}

static bool contents_match(const uint8_t *buf, int64_t k)
{
    int64_t got;

    memcpy(&got, buf, sizeof got);
    if (got != k)
        return false;
    for (size_t i = sizeof k; i < (size_t)FW * FH * 4u; i++)
        if (buf[i] != (uint8_t)(k * 7 + (int64_t)i))
            return false;
    return true;
}

typedef struct recorder {
    atomic_int calls;
    int64_t order[NFRAMES];   /* frames in sink order (one sink thread only) */
    atomic_int seen[NFRAMES]; /* times each frame was sunk */
    atomic_int bad_contents;
    int fail_at;  /* frame whose sink call fails; -1: none */
    int delay_ms; /* per sink call */
    atomic_int max_thread;
} recorder;

static mc_status record_sink(void *user, int thread, const uint8_t *rgba, int64_t k, mc_error *err)
{
    recorder *r = user;
    int n = atomic_fetch_add(&r->calls, 1);

    if (n < NFRAMES)
        r->order[n] = k;
    if (k >= 0 && k < NFRAMES)
        atomic_fetch_add(&r->seen[k], 1);
    if (!contents_match(rgba, k))
        atomic_fetch_add(&r->bad_contents, 1);
    if (thread > atomic_load(&r->max_thread))
        atomic_store(&r->max_thread, thread);
    if (r->delay_ms)
        sleep_ms(r->delay_ms);
    if (k == r->fail_at)
        return mc_error_set(err, MC_ERR_IO, "out/00005.png", 0, 0, "cannot write 'out/00005.png'");
    return MC_OK;
}

static mc_pipeline_desc make_desc(recorder *r, int depth, int threads)
{
    return (mc_pipeline_desc){ .width = FW,
                               .height = FH,
                               .depth = depth,
                               .sink_threads = threads,
                               .sink = record_sink,
                               .sink_user = r };
}

/* Runs frames 0..n-1 through p; returns the first failing status. Collects buffer pointers. */
static mc_status produce(mc_pipeline *p, int n, uint8_t **ptrs, mc_error *err)
{
    for (int k = 0; k < n; k++) {
        uint8_t *buf;
        mc_status s = mc_pipeline_acquire(p, &buf, err);

        if (s != MC_OK)
            return s;
        if (ptrs)
            ptrs[k] = buf;
        fill(buf, k);
        s = mc_pipeline_submit(p, buf, k, err);
        if (s != MC_OK)
            return s;
    }
    return MC_OK;
}

TEST(keeps_submission_order_with_one_sink_thread)
{
    recorder r = { .fail_at = -1 };
    mc_pipeline_desc d = make_desc(&r, 3, 1);
    mc_pipeline *p;
    mc_error err;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, NFRAMES, NULL, &err), &err);
    EXPECT_OK(mc_pipeline_finish(p, &err), &err);
    EXPECT_EQ_INT(atomic_load(&r.calls), NFRAMES);
    for (int k = 0; k < NFRAMES; k++)
        EXPECT_EQ_INT(r.order[k], k);
    EXPECT_EQ_INT(atomic_load(&r.bad_contents), 0);
    EXPECT_EQ_INT(atomic_load(&r.max_thread), 0);
    mc_pipeline_release(p);
}

TEST(several_sink_threads_sink_each_frame_once)
{
    recorder r = { .fail_at = -1, .delay_ms = 1 };
    mc_pipeline_desc d = make_desc(&r, 6, 4);
    mc_pipeline *p;
    mc_error err;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, NFRAMES, NULL, &err), &err);
    EXPECT_OK(mc_pipeline_finish(p, &err), &err);
    EXPECT_EQ_INT(atomic_load(&r.calls), NFRAMES);
    for (int k = 0; k < NFRAMES; k++)
        EXPECT_EQ_INT(atomic_load(&r.seen[k]), 1);
    EXPECT_EQ_INT(atomic_load(&r.bad_contents), 0);
    EXPECT(atomic_load(&r.max_thread) <= 3);
    mc_pipeline_release(p);
}

TEST(reuses_exactly_depth_buffers)
{
    recorder r = { .fail_at = -1 };
    mc_pipeline_desc d = make_desc(&r, 3, 1);
    uint8_t *ptrs[NFRAMES], *distinct[NFRAMES];
    int ndistinct = 0;
    mc_pipeline *p;
    mc_error err;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, NFRAMES, ptrs, &err), &err);
    EXPECT_OK(mc_pipeline_finish(p, &err), &err);
    for (int k = 0; k < NFRAMES; k++) {
        bool known = false;

        for (int j = 0; j < ndistinct; j++)
            known |= distinct[j] == ptrs[k];
        if (!known)
            distinct[ndistinct++] = ptrs[k];
    }
    EXPECT_EQ_INT(ndistinct, 3);
    mc_pipeline_release(p);
}

TEST(sink_error_stops_the_pipeline_and_reaches_the_producer)
{
    recorder r = { .fail_at = 5 };
    mc_pipeline_desc d = make_desc(&r, 3, 1);
    mc_pipeline_stats st;
    mc_pipeline *p;
    mc_error err, fin;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_EQ_INT(produce(p, NFRAMES, NULL, &err), MC_ERR_IO);
    EXPECT_EQ_STR(err.msg, "cannot write 'out/00005.png'");
    EXPECT_EQ_STR(err.file, "out/00005.png");
    EXPECT_EQ_INT(mc_pipeline_finish(p, &fin), MC_ERR_IO);
    EXPECT_EQ_STR(fin.msg, "cannot write 'out/00005.png'");
    /* Frames 0..4 went through; frame 5 failed; nothing after it reached the sink. */
    EXPECT_EQ_INT(atomic_load(&r.calls), 6);
    mc_pipeline_stats_get(p, &st);
    EXPECT_EQ_INT(st.sunk, 5);
    mc_pipeline_release(p);
}

typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    atomic_int entered;
} gate;

/* A sink that blocks until the gate opens: it holds its buffer, so the producer runs out. */
static mc_status gated_sink(void *user, int thread, const uint8_t *rgba, int64_t k, mc_error *err)
{
    gate *g = user;

    (void)thread;
    (void)rgba;
    (void)k;
    (void)err;
    atomic_fetch_add(&g->entered, 1);
    pthread_mutex_lock(&g->mu);
    while (!g->open)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
    return MC_OK;
}

static void *cancel_later(void *arg)
{
    sleep_ms(50); /* likely after the producer blocked; the result is the same either way */
    mc_pipeline_cancel(arg);
    return NULL;
}

TEST(cancel_wakes_a_blocked_acquire)
{
    gate g = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };
    mc_pipeline_desc d;
    mc_pipeline *p;
    pthread_t t;
    uint8_t *buf;
    mc_error err;

    memset(&d, 0, sizeof d);
    d.width = FW;
    d.height = FH;
    d.depth = 2;
    d.sink = gated_sink;
    d.sink_user = &g;
    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, 2, NULL, &err), &err); /* both buffers now held by the pipeline */
    ASSERT(pthread_create(&t, NULL, cancel_later, p) == 0);
    EXPECT_EQ_INT(mc_pipeline_acquire(p, &buf, &err), MC_ERR_INTERRUPTED);
    EXPECT(buf == NULL);
    EXPECT_EQ_STR(err.msg, "rendering was interrupted");
    pthread_join(t, NULL);
    pthread_mutex_lock(&g.mu);
    g.open = true;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    EXPECT_EQ_INT(mc_pipeline_finish(p, &err), MC_ERR_INTERRUPTED);
    /* The second frame was still queued at the cancel, so it never reached the sink. */
    EXPECT(atomic_load(&g.entered) <= 1);
    mc_pipeline_release(p);
}

TEST(measures_time_in_the_sink_and_waiting_for_buffers)
{
    recorder r = { .fail_at = -1, .delay_ms = 2 };
    mc_pipeline_desc d = make_desc(&r, 2, 1);
    mc_pipeline_stats st;
    mc_pipeline *p;
    mc_error err;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, 20, NULL, &err), &err);
    EXPECT_OK(mc_pipeline_finish(p, &err), &err);
    mc_pipeline_stats_get(p, &st);
    EXPECT_EQ_INT(st.submitted, 20);
    EXPECT_EQ_INT(st.sunk, 20);
    /* nanosleep sleeps at least as long as asked: 20 calls x 2 ms. */
    EXPECT(st.sink_seconds >= 0.040);
    /* The producer does nothing, so it must have waited for the slow sink. */
    EXPECT(st.acquire_wait_seconds > 0.0);
    mc_pipeline_release(p);
}

TEST(rejects_bad_descs_and_foreign_buffers)
{
    recorder r = { .fail_at = -1 };
    mc_pipeline_desc d = make_desc(&r, 0, 0);
    uint8_t foreign[FW * FH * 4];
    mc_pipeline *p = NULL;
    mc_error err;

    d.sink = NULL;
    EXPECT_EQ_INT(mc_pipeline_create(&d, &p, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "pipeline needs a sink");
    d = make_desc(&r, MC_PIPELINE_MAX_DEPTH + 1, 0);
    EXPECT_EQ_INT(mc_pipeline_create(&d, &p, &err), MC_ERR_USAGE);
    EXPECT(p == NULL);
    d = make_desc(&r, 0, 0); /* defaults: depth 3, one thread */
    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_EQ_INT(mc_pipeline_submit(p, foreign, 0, &err), MC_ERR_USAGE);
    EXPECT_OK(mc_pipeline_finish(p, &err), &err);
    EXPECT_EQ_INT(mc_pipeline_finish(p, &err), MC_ERR_USAGE);
    mc_pipeline_release(p);
    mc_pipeline_release(NULL);
}

TEST(destroy_without_finish_stops_cleanly)
{
    recorder r = { .fail_at = -1, .delay_ms = 1 };
    mc_pipeline_desc d = make_desc(&r, 4, 2);
    mc_pipeline *p;
    mc_error err;

    ASSERT_OK(mc_pipeline_create(&d, &p, &err), &err);
    EXPECT_OK(produce(p, 4, NULL, &err), &err);
    mc_pipeline_release(p);
    EXPECT(atomic_load(&r.calls) <= 4);
    for (int k = 0; k < 4; k++)
        EXPECT(atomic_load(&r.seen[k]) <= 1);
}
