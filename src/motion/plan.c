#include <md5cine/plan.h>

#include <stdlib.h>
#include <string.h>

#include <md5cine/timeline.h>

size_t mc_plan_shots(const mc_camera *cam, mc_rate fps, mc_clock clock, int64_t count,
                     mc_shot_range *out, size_t cap)
{
    int64_t first = 0;
    size_t n = 0;

    for (int i = 0; i <= cam->num_cuts && first < count; i++) {
        int64_t next =
                i < cam->num_cuts ? mc_timeline_cut_frame_clock(cam, fps, clock, i) : count;
        mc_timeline_sample s;

        if (next < 0)
            continue; /* a cut at the last stored frame opens no shot */
        if (next > count)
            next = count;
        if (next <= first)
            continue; /* passed within the same output frame as the cut before */
        mc_timeline_sample_frame_clock(cam, fps, clock, first, &s);
        if (n < cap) {
            out[n].first = first;
            out[n].last = next - 1;
            out[n].number = s.shot + 1;
        }
        n++;
        first = next;
    }
    return n;
}

/* The index of the shot that shows frame k (the shots cover it). */
static size_t shot_of(const mc_plan_desc *d, int64_t k)
{
    size_t lo = 0, hi = d->num_shots - 1;

    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;

        if (d->shots[mid].first <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Boundaries: starts[0] = first, then each later chunk's first frame, strictly increasing. */
typedef struct bounds {
    int64_t *starts;
    size_t n, cap;
} bounds;

static mc_status push(bounds *b, int64_t start, mc_error *err)
{
    if (b->n > 0 && b->starts[b->n - 1] >= start)
        return MC_OK; /* merged with the one before */
    if (b->n >= MC_LIMIT_PLAN_CHUNKS)
        return mc_error_set(err, MC_ERR_LIMIT, NULL, 0, 0,
                            "the plan has more than %d chunks", MC_LIMIT_PLAN_CHUNKS);
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        int64_t *p = realloc(b->starts, cap * sizeof *p);

        if (!p)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        b->starts = p;
        b->cap = cap;
    }
    b->starts[b->n++] = start;
    return MC_OK;
}

/* The shot start in first+1..last nearest to x (the earlier on a tie), or first if none. */
static int64_t nearest_start(const mc_plan_desc *d, int64_t x)
{
    int64_t best = d->first, best_dist = -1;

    for (size_t i = 0; i < d->num_shots; i++) {
        int64_t s = d->shots[i].first, dist = s > x ? s - x : x - s;

        if (s <= d->first || s > d->last)
            continue;
        if (best_dist < 0 || dist < best_dist) {
            best = s;
            best_dist = dist;
        }
    }
    return best;
}

static mc_status split(const mc_plan_desc *d, bounds *b, mc_error *err)
{
    int64_t len = d->last - d->first + 1;
    mc_status st = push(b, d->first, err);

    if (st != MC_OK)
        return st;
    switch (d->mode) {
    case MC_PLAN_CHUNKS:
        for (int64_t i = 1; i < d->n && st == MC_OK; i++) {
            /* i * len / n without overflow: both are below 2^31 in any real scene, but the
             * range allows more, so split the product. */
            int64_t q = len / d->n, r = len % d->n;
            int64_t x = d->first + i * q + i * r / d->n;

            st = push(b, d->align_shots ? nearest_start(d, x) : x, err);
        }
        return st;
    case MC_PLAN_CHUNK_FRAMES:
        for (int64_t k = d->first; k <= d->last && st == MC_OK;) {
            int64_t next = k + d->n;

            if (d->align_shots) {
                const mc_shot_range *s = &d->shots[shot_of(d, k)];

                if (next > s->last + 1)
                    next = s->last + 1;
            }
            if (next <= d->last)
                st = push(b, next, err);
            k = next;
        }
        return st;
    case MC_PLAN_BY_SHOT:
        for (size_t i = shot_of(d, d->first) + 1; i < d->num_shots && st == MC_OK; i++)
            if (d->shots[i].first <= d->last)
                st = push(b, d->shots[i].first, err);
        return st;
    }
    return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "unknown plan mode");
}

static mc_status check_desc(const mc_plan_desc *d, mc_error *err)
{
    if (!d->shots || d->num_shots == 0 || d->first < 0 || d->last < d->first ||
        d->shots[0].first > d->first || d->shots[d->num_shots - 1].last < d->last)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "frames %lld-%lld are not inside the scene's shots",
                            (long long)d->first, (long long)d->last);
    if (d->mode == MC_PLAN_BY_SHOT)
        return MC_OK;
    if (d->n < 1)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%s must be at least 1",
                            d->mode == MC_PLAN_CHUNKS ? "the chunk count" : "the chunk length");
    if (d->mode == MC_PLAN_CHUNKS && d->n > d->last - d->first + 1)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "%lld chunks asked for, but frames %lld-%lld are only %lld",
                            (long long)d->n, (long long)d->first, (long long)d->last,
                            (long long)(d->last - d->first + 1));
    return MC_OK;
}

mc_status mc_plan_make(const mc_plan_desc *desc, mc_plan *out, mc_error *err)
{
    bounds b = { 0 };
    mc_status st;

    memset(out, 0, sizeof *out);
    st = check_desc(desc, err);
    if (st == MC_OK)
        st = split(desc, &b, err);
    if (st == MC_OK) {
        out->chunks = calloc(b.n, sizeof *out->chunks);
        if (!out->chunks)
            st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; st == MC_OK && i < b.n; i++) {
        mc_plan_chunk *c = &out->chunks[i];

        c->index = (int64_t)i;
        c->first = b.starts[i];
        c->last = i + 1 < b.n ? b.starts[i + 1] - 1 : desc->last;
        c->first_shot = shot_of(desc, c->first);
        c->last_shot = shot_of(desc, c->last);
    }
    if (st == MC_OK)
        out->num_chunks = b.n;
    free(b.starts);
    return st;
}

void mc_plan_release(mc_plan *plan)
{
    free(plan->chunks);
    memset(plan, 0, sizeof *plan);
}
