/* Frame jobs (frame_jobs.h): a ring of at most `jobs` frames in submission order, and one
 * worker thread per job that owns a scene renderer made, used and released on that thread (a GL
 * context is current on one thread). A worker takes the oldest frame nobody has started; the
 * caller collects from the ring's head, so frames come back in order whatever order they end
 * in. One mutex guards the ring and the workers' states; the pixels and infos of a slot are
 * written by its worker outside it and read by the caller only after the slot is marked done
 * under it. */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <md5cine/frame_jobs.h>

#include "core/signals.h"

/* Distinct warnings of frames remembered so that each reaches desc.warn once although every
 * job's renderer gives its own (beyond this many, they pass unfiltered). */
#define WARNED_MAX 64

typedef enum slot_state { SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE } slot_state;

typedef struct slot {
    mc_frame_no k;
    mc_image_view view; /* the caller's pixels */
    mc_scene_frame_info info;
    mc_status st;
    mc_error err;
    slot_state state;
} slot;

typedef struct worker {
    mc_frame_jobs *j;
    int index;
    pthread_t thread;
    mc_scene_renderer *sr; /* made, used and released on thread */
    mc_status create_st;
    mc_error create_err;
} worker;

struct mc_frame_jobs {
    pthread_mutex_t lock;
    pthread_cond_t work; /* workers wait here: a queued frame, go, or quit */
    pthread_cond_t done; /* the caller waits here: a frame done, a worker made its renderer */
    mc_scene_renderer_desc rdesc;
    int jobs;
    int ready;    /* workers whose renderer create returned */
    bool go;      /* every renderer made: frames may be taken */
    bool quit;    /* workers end once their frame is done */
    bool loading; /* during create: only worker 0's warnings pass */
    slot slots[MC_FRAME_JOBS_MAX];
    int head, count; /* ring: the oldest frame in flight, frames in flight */
    pthread_mutex_t warn_lock;
    uint64_t warned[WARNED_MAX];
    int num_warned;
    worker workers[MC_FRAME_JOBS_MAX];
};

int mc_frame_jobs_auto(int cores)
{
    if (cores <= 3)
        return 1;
    return cores / 2 > MC_FRAME_JOBS_MAX ? MC_FRAME_JOBS_MAX : cores / 2;
}

int mc_frame_jobs_fit(int cores, uint64_t memory, uint64_t first, uint64_t per_job,
                      bool *by_memory)
{
    int want = mc_frame_jobs_auto(cores), jobs = want;

    /* jobs fit when first + (jobs - 1) * per_job <= memory, written not to overflow */
    while (memory > 0 && jobs > 1 &&
           (first > memory || (per_job > 0 && (uint64_t)(jobs - 1) > (memory - first) / per_job)))
        jobs--;
    if (by_memory)
        *by_memory = jobs < want;
    return jobs;
}

int mc_frame_jobs_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);

    return cores < 1 ? 1 : cores > 4096 ? 4096 : (int)cores;
}

/* FNV-1a over the parts of a warning that make it what it is. */
static uint64_t warning_hash(const mc_error *w)
{
    uint64_t h = 14695981039346656037ull;
    const char *parts[2] = { w->file, w->msg };
    int nums[2] = { w->line, w->col };

    for (int p = 0; p < 2; p++) {
        for (const char *c = parts[p]; *c; c++)
            h = (h ^ (uint8_t)*c) * 1099511628211ull;
        h = (h ^ (uint32_t)nums[p]) * 1099511628211ull;
    }
    return h;
}

static void job_warn(void *user, const mc_error *w)
{
    const worker *wk = user;
    mc_frame_jobs *j = wk->j;
    bool pass = true;

    if (!j->rdesc.warn)
        return;
    pthread_mutex_lock(&j->warn_lock);
    if (j->loading) {
        pass = wk->index == 0;
    } else if (j->jobs > 1) {
        uint64_t h = warning_hash(w);

        for (int i = 0; i < j->num_warned && pass; i++)
            pass = j->warned[i] != h;
        if (pass && j->num_warned < WARNED_MAX)
            j->warned[j->num_warned++] = h;
    }
    if (pass)
        j->rdesc.warn(j->rdesc.warn_user, w);
    pthread_mutex_unlock(&j->warn_lock);
}

/* The oldest frame in flight that no worker took; NULL when none (lock held). */
static slot *next_queued(mc_frame_jobs *j)
{
    for (int i = 0; i < j->count; i++) {
        slot *s = &j->slots[(j->head + i) % j->jobs];

        if (s->state == SLOT_QUEUED)
            return s;
    }
    return NULL;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    mc_frame_jobs *j = w->j;
    mc_scene_renderer_desc d = j->rdesc;
    mc_status st;
    slot *s = NULL;

    d.warn = job_warn;
    d.warn_user = w;
    st = mc_scene_renderer_create(&d, &w->sr, &w->create_err);
    pthread_mutex_lock(&j->lock);
    w->create_st = st;
    j->ready++;
    pthread_cond_broadcast(&j->done);
    for (;;) {
        while (!j->quit && (!j->go || !(s = next_queued(j))))
            pthread_cond_wait(&j->work, &j->lock);
        if (j->quit)
            break;
        s->state = SLOT_RUNNING;
        pthread_mutex_unlock(&j->lock);
        if (j->rdesc.stop && *j->rdesc.stop) /* interrupted: what is queued is not started */
            s->st = mc_error_set(&s->err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
        else
            s->st = mc_scene_renderer_frame(w->sr, s->k, &s->view, &s->info, &s->err);
        pthread_mutex_lock(&j->lock);
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&j->done);
    }
    pthread_mutex_unlock(&j->lock);
    mc_scene_renderer_release(w->sr);
    w->sr = NULL;
    return NULL;
}

/* Ends the first started workers (their frames being drawn finish first) and frees j. */
static void stop_and_free(mc_frame_jobs *j, int started)
{
    pthread_mutex_lock(&j->lock);
    j->quit = true;
    pthread_cond_broadcast(&j->work);
    pthread_mutex_unlock(&j->lock);
    for (int i = 0; i < started; i++)
        pthread_join(j->workers[i].thread, NULL);
    pthread_cond_destroy(&j->work);
    pthread_cond_destroy(&j->done);
    pthread_mutex_destroy(&j->lock);
    pthread_mutex_destroy(&j->warn_lock);
    free(j);
}

/* Starts the workers (with every signal but the faults' blocked, which they inherit); the
 * number started in *started. */
static mc_status start_workers(mc_frame_jobs *j, int *started, mc_error *err)
{
    sigset_t old;
    int rc = 0;

    mc_block_async_signals(&old);
    for (*started = 0; *started < j->jobs; (*started)++) {
        worker *w = &j->workers[*started];

        w->j = j;
        w->index = *started;
        rc = pthread_create(&w->thread, NULL, worker_main, w);
        if (rc != 0)
            break;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "could not start frame job %d: %s",
                            *started + 1, strerror(rc));
    return MC_OK;
}

mc_status mc_frame_jobs_create(const mc_frame_jobs_desc *desc, mc_frame_jobs **out,
                               mc_error *err)
{
    mc_frame_jobs *j;
    int jobs, started;
    mc_status st;

    *out = NULL;
    if (!desc || !desc->renderer.scene)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame jobs need a scene");
    jobs = desc->jobs;
    if (jobs == 0)
        jobs = mc_frame_jobs_auto(mc_frame_jobs_cores());
    if (jobs < 1 || jobs > MC_FRAME_JOBS_MAX)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%d frame jobs: expected 1..%d",
                            jobs, MC_FRAME_JOBS_MAX);
    j = calloc(1, sizeof *j);
    if (!j)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for frame jobs");
    j->rdesc = desc->renderer;
    j->jobs = jobs;
    j->loading = true;
    pthread_mutex_init(&j->lock, NULL);
    pthread_mutex_init(&j->warn_lock, NULL);
    pthread_cond_init(&j->work, NULL);
    pthread_cond_init(&j->done, NULL);
    st = start_workers(j, &started, err);
    pthread_mutex_lock(&j->lock);
    while (j->ready < started)
        pthread_cond_wait(&j->done, &j->lock);
    for (int i = 0; i < started && st == MC_OK; i++) {
        if (j->workers[i].create_st != MC_OK) {
            st = j->workers[i].create_st;
            if (err)
                *err = j->workers[i].create_err;
        }
    }
    pthread_mutex_unlock(&j->lock);
    if (st != MC_OK) {
        stop_and_free(j, started);
        return st;
    }
    pthread_mutex_lock(&j->warn_lock);
    j->loading = false;
    pthread_mutex_unlock(&j->warn_lock);
    pthread_mutex_lock(&j->lock);
    j->go = true;
    pthread_cond_broadcast(&j->work);
    pthread_mutex_unlock(&j->lock);
    *out = j;
    return MC_OK;
}

mc_status mc_frame_jobs_submit(mc_frame_jobs *j, mc_frame_no k, const mc_image_view *out,
                               mc_error *err)
{
    slot *s;

    if (!out)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame %lld: no view to draw into",
                            (long long)k);
    pthread_mutex_lock(&j->lock);
    if (j->count == j->jobs) {
        pthread_mutex_unlock(&j->lock);
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "frame %lld: %d frames in flight already: collect one first",
                            (long long)k, j->jobs);
    }
    s = &j->slots[(j->head + j->count) % j->jobs];
    memset(s, 0, sizeof *s);
    s->k = k;
    s->view = *out;
    s->state = SLOT_QUEUED;
    j->count++;
    pthread_cond_signal(&j->work);
    pthread_mutex_unlock(&j->lock);
    return MC_OK;
}

mc_status mc_frame_jobs_collect(mc_frame_jobs *j, mc_frame_no *k, mc_scene_frame_info *info,
                                mc_error *err)
{
    slot *s;
    mc_status st;

    pthread_mutex_lock(&j->lock);
    if (j->count == 0) {
        pthread_mutex_unlock(&j->lock);
        *k = -1;
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no frame in flight to collect");
    }
    s = &j->slots[j->head];
    while (s->state != SLOT_DONE) {
        struct timespec t;

        if (j->rdesc.stop && *j->rdesc.stop) { /* the frame stays in flight (see the header) */
            pthread_mutex_unlock(&j->lock);
            *k = -1;
            return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
        }
        /* A signal's handler sets the flag without waking this wait: look again each 20 ms. */
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 20000000;
        if (t.tv_nsec >= 1000000000) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&j->done, &j->lock, &t);
    }
    *k = s->k;
    if (info)
        *info = s->info;
    st = s->st;
    if (st != MC_OK && err)
        *err = s->err;
    j->head = (j->head + 1) % j->jobs;
    j->count--;
    pthread_mutex_unlock(&j->lock);
    return st;
}

int mc_frame_jobs_in_flight(mc_frame_jobs *j)
{
    int n;

    pthread_mutex_lock(&j->lock);
    n = j->count;
    pthread_mutex_unlock(&j->lock);
    return n;
}

int mc_frame_jobs_count(const mc_frame_jobs *j)
{
    return j->jobs;
}

void mc_frame_jobs_get_info(const mc_frame_jobs *j, int *width, int *height, mc_rate *fps,
                            mc_renderer_info *gl)
{
    mc_scene_renderer_get_info(j->workers[0].sr, width, height, fps, gl);
}

mc_frame_no mc_frame_jobs_frame_count(const mc_frame_jobs *j)
{
    return mc_scene_renderer_frame_count(j->workers[0].sr);
}

int mc_frame_jobs_input_count(const mc_frame_jobs *j)
{
    return mc_scene_renderer_input_count(j->workers[0].sr);
}

const char *mc_frame_jobs_input(const mc_frame_jobs *j, int i)
{
    return mc_scene_renderer_input(j->workers[0].sr, i);
}

void mc_frame_jobs_release(mc_frame_jobs *j)
{
    if (j)
        stop_and_free(j, j->jobs);
}
