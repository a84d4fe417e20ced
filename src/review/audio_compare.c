/* Sound comparison (audio_compare.h): levels, onsets and their pairs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/audio_compare.h>
#include <md5cine/json.h>

#define FULL_SCALE 32768.0

void mc_audio_effective(const mc_audio_opts *opts, mc_audio_opts *out)
{
    mc_audio_opts o = { 0 };

    if (opts)
        o = *opts;
    if (!(o.set & MC_AUDIO_SET_MAX_ONSET))
        o.max_onset_ms = MC_AUDIO_DEFAULT_ONSET_MS;
    if (!(o.set & MC_AUDIO_SET_MAX_RMS))
        o.max_rms_db = MC_AUDIO_DEFAULT_RMS_DB;
    o.set = MC_AUDIO_SET_MAX_ONSET | MC_AUDIO_SET_MAX_RMS;
    *out = o;
}

/* Sample frame n of the timeline in t (0 outside it), left and right. */
static void sample_at(const mc_audio_track *t, int64_t n, double *l, double *r)
{
    int64_t i = n - t->first;

    *l = *r = 0.0;
    if (!t->has_audio || !t->samples || i < 0 || i >= t->frames)
        return;
    *l = t->samples[2 * i];
    *r = t->samples[2 * i + 1];
}

static double level_db(double sum_sq, int64_t count)
{
    if (count <= 0 || sum_sq <= 0.0)
        return -INFINITY;
    return 10.0 * log10(sum_sq / (double)count / (FULL_SCALE * FULL_SCALE));
}

/* The larger channel magnitude of track sample i (an index into t's samples). */
static double peak_of(const mc_audio_track *t, int64_t i)
{
    double l = fabs((double)t->samples[2 * i]), r = fabs((double)t->samples[2 * i + 1]);

    return l > r ? l : r;
}

/* The onset sample of the rising window w (win samples each, see the top): the first sample,
 * from window w - 2 to window w + 2, that reaches half the peak there. An index into t. */
static int64_t refine(const mc_audio_track *t, int64_t w, int64_t win)
{
    int64_t lo = (w - 2) * win, hi = (w + 3) * win;
    double peak = 0.0;

    lo = lo < 0 ? 0 : lo;
    hi = hi > t->frames ? t->frames : hi;
    for (int64_t i = lo; i < hi; i++) {
        double p = peak_of(t, i);

        peak = p > peak ? p : peak;
    }
    for (int64_t i = lo; i < hi; i++)
        if (peak_of(t, i) >= 0.5 * peak)
            return i;
    return w * win;
}

static double window_db(const mc_audio_track *t, int64_t w, int64_t win)
{
    int64_t lo = w * win, hi = lo + win;
    double sum = 0.0;

    hi = hi > t->frames ? t->frames : hi;
    for (int64_t i = lo; i < hi; i++) {
        double l = t->samples[2 * i], r = t->samples[2 * i + 1];

        sum += (l * l + r * r) * 0.5;
    }
    return level_db(sum, hi - lo);
}

static mc_status push(int64_t **v, size_t *n, size_t *cap, int64_t x, mc_error *err)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        int64_t *p = realloc(*v, c * sizeof *p);

        if (!p)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        *v = p;
        *cap = c;
    }
    (*v)[(*n)++] = x;
    return MC_OK;
}

mc_status mc_audio_onsets(const mc_audio_track *t, int64_t **out, size_t *count, mc_error *err)
{
    int64_t win, hold, windows, next = INT64_MIN;
    double back1 = -INFINITY, back2 = -INFINITY;
    size_t cap = 0;

    *out = NULL;
    *count = 0;
    if (!t->has_audio || t->frames <= 0 || !t->samples)
        return MC_OK;
    if (t->rate < 8000 || t->rate > 96000)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "sound rate %d is outside 8000..96000", t->rate);
    win = (int64_t)lround(t->rate * MC_AUDIO_WINDOW_MS / 1000.0);
    hold = (int64_t)lround(t->rate * MC_AUDIO_HOLD_MS / 1000.0);
    windows = (t->frames + win - 1) / win;
    for (int64_t w = 0; w < windows; w++) {
        double e = window_db(t, w, win), before = back1 < back2 ? back1 : back2;

        back2 = back1;
        back1 = e;
        if (w * win < next || e < MC_AUDIO_FLOOR_DB || !(e >= before + MC_AUDIO_RISE_DB))
            continue;
        int64_t at = refine(t, w, win);

        if (push(out, count, &cap, t->first + at, err) != MC_OK) {
            free(*out);
            *out = NULL;
            *count = 0;
            return MC_ERR_NOMEM;
        }
        next = at + hold;
    }
    return MC_OK;
}

/* The RMS levels of a, b and b - a over the timeline span of r. */
static void levels(const mc_audio_track *a, const mc_audio_track *b, mc_audio_result *r)
{
    double sa = 0.0, sb = 0.0, sd = 0.0;

    for (int64_t n = r->first; n < r->end; n++) {
        double al, ar, bl, br;

        sample_at(a, n, &al, &ar);
        sample_at(b, n, &bl, &br);
        sa += al * al + ar * ar;
        sb += bl * bl + br * br;
        sd += (bl - al) * (bl - al) + (br - ar) * (br - ar);
    }
    r->rms_a_db = level_db(sa, 2 * (r->end - r->first));
    r->rms_b_db = level_db(sb, 2 * (r->end - r->first));
    r->rms_diff_db = level_db(sd, 2 * (r->end - r->first));
}

typedef struct candidate {
    size_t i, j;
    int64_t d; /* |b - a| */
} candidate;

static int by_distance(const void *x, const void *y)
{
    const candidate *p = x, *q = y;

    if (p->d != q->d)
        return p->d < q->d ? -1 : 1;
    if (p->i != q->i)
        return p->i < q->i ? -1 : 1;
    return p->j < q->j ? -1 : p->j > q->j;
}

static int by_a(const void *x, const void *y)
{
    const mc_audio_pair *p = x, *q = y;

    return p->a < q->a ? -1 : p->a > q->a;
}

/* Every (i, j) with |b_j - a_i| <= the pair range, nearest first; *n set. NULL: no memory
 * (or none, with *n 0). */
static candidate *candidates(const mc_audio_result *r, int64_t range, size_t *n)
{
    size_t cap = 0, j0 = 0;
    candidate *c = NULL;

    *n = 0;
    for (size_t i = 0; i < r->count_a; i++) {
        while (j0 < r->count_b && r->onsets_b[j0] < r->onsets_a[i] - range)
            j0++;
        for (size_t j = j0; j < r->count_b && r->onsets_b[j] <= r->onsets_a[i] + range; j++) {
            if (*n == cap) {
                size_t nc = cap ? cap * 2 : 16;
                candidate *p = realloc(c, nc * sizeof *p);

                if (!p) {
                    free(c);
                    *n = SIZE_MAX;
                    return NULL;
                }
                c = p;
                cap = nc;
            }
            c[(*n)++] = (candidate){ i, j, llabs(r->onsets_b[j] - r->onsets_a[i]) };
        }
    }
    if (c)
        qsort(c, *n, sizeof *c, by_distance);
    return c;
}

/* The unpaired onsets of one side: those whose taken flag is 0. */
static mc_status unpaired(const int64_t *on, size_t n, const unsigned char *taken,
                          int64_t **out, size_t *count, mc_error *err)
{
    size_t cap = 0;

    for (size_t i = 0; i < n; i++)
        if (!taken[i] && push(out, count, &cap, on[i], err) != MC_OK)
            return MC_ERR_NOMEM;
    return MC_OK;
}

static mc_status pair_onsets(mc_audio_result *r, mc_error *err)
{
    int64_t range = (int64_t)lround(r->rate * MC_AUDIO_PAIR_MS / 1000.0);
    size_t nc;
    candidate *c = candidates(r, range, &nc);
    unsigned char *ta = calloc(r->count_a + 1, 1), *tb = calloc(r->count_b + 1, 1);
    mc_status st = MC_OK;

    r->pairs = calloc(r->count_a + 1, sizeof *r->pairs);
    if (nc == SIZE_MAX || !ta || !tb || !r->pairs) {
        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < nc; k++) {
        if (ta[c[k].i] || tb[c[k].j])
            continue;
        ta[c[k].i] = tb[c[k].j] = 1;
        int64_t a = r->onsets_a[c[k].i], b = r->onsets_b[c[k].j];
        double off = (double)(b - a) * 1000.0 / r->rate;

        r->pairs[r->pair_count++] = (mc_audio_pair){ a, b, off };
        if (fabs(off) > fabs(r->worst_offset_ms))
            r->worst_offset_ms = off;
    }
    qsort(r->pairs, r->pair_count, sizeof *r->pairs, by_a);
    st = unpaired(r->onsets_a, r->count_a, ta, &r->unpaired_a, &r->unpaired_count_a, err);
    if (st == MC_OK)
        st = unpaired(r->onsets_b, r->count_b, tb, &r->unpaired_b, &r->unpaired_count_b, err);
done:
    free(c);
    free(ta);
    free(tb);
    return st;
}

static void append(char *buf, size_t cap, const char *s)
{
    size_t len = strlen(buf);

    if (len + 2 < cap)
        snprintf(buf + len, cap - len, "%s%s", len ? "; " : "", s);
}

/* The fail bits and reasons of r against its limits. */
static void judge(mc_audio_result *r)
{
    char s[128], d[32], l[32];

    if (r->has_a != r->has_b) {
        r->fail |= MC_AUDIO_FAIL_TRACK;
        append(r->reasons, sizeof r->reasons,
               r->has_a ? "B has no sound track" : "A has no sound track");
    }
    if (!(r->rms_diff_db <= r->limits.max_rms_db) && r->limits.max_rms_db < 0.0) {
        r->fail |= MC_AUDIO_FAIL_RMS;
        mc_audio_format_db(r->rms_diff_db, d, sizeof d);
        mc_audio_format_db(r->limits.max_rms_db, l, sizeof l);
        snprintf(s, sizeof s, "RMS difference %s > %s", d, l);
        append(r->reasons, sizeof r->reasons, s);
    }
    if (fabs(r->worst_offset_ms) > r->limits.max_onset_ms) {
        r->fail |= MC_AUDIO_FAIL_ONSET;
        snprintf(s, sizeof s, "onset offset %+.2f ms > %.2f ms", r->worst_offset_ms,
                 r->limits.max_onset_ms);
        append(r->reasons, sizeof r->reasons, s);
    }
    /* The onset limit off turns the onset check off: offsets and unpaired onsets are listed,
     * not judged. */
    if (r->unpaired_count_a + r->unpaired_count_b > 0 && isfinite(r->limits.max_onset_ms)) {
        r->fail |= MC_AUDIO_FAIL_UNPAIRED;
        snprintf(s, sizeof s, "%zu onsets of A and %zu of B unpaired", r->unpaired_count_a,
                 r->unpaired_count_b);
        append(r->reasons, sizeof r->reasons, s);
    }
    r->pass = r->fail == 0;
}

static bool has_sound(const mc_audio_track *t)
{
    return t->has_audio && t->frames > 0 && t->samples;
}

/* The timeline span of a and b together into r->first, r->end. */
static void span(const mc_audio_track *a, const mc_audio_track *b, mc_audio_result *r)
{
    bool ha = has_sound(a), hb = has_sound(b);

    r->first = r->end = 0;
    if (ha) {
        r->first = a->first;
        r->end = a->first + a->frames;
    }
    if (hb) {
        r->first = ha && r->first < b->first ? r->first : b->first;
        r->end = ha && r->end > b->first + b->frames ? r->end : b->first + b->frames;
    }
}

/* Where both tracks have sound, the part of the timeline both cover: a chunk of a render
 * against the whole render is compared over the chunk's span, not against the whole's sound
 * before and after it. *a and *b then point at trimmed views (ta, tb) of the same samples. */
static void overlap(const mc_audio_track **a, const mc_audio_track **b, mc_audio_track *ta,
                    mc_audio_track *tb)
{
    int64_t lo, hi;

    if (!has_sound(*a) || !has_sound(*b))
        return;
    lo = (*a)->first > (*b)->first ? (*a)->first : (*b)->first;
    hi = (*a)->first + (*a)->frames < (*b)->first + (*b)->frames ? (*a)->first + (*a)->frames
                                                                 : (*b)->first + (*b)->frames;
    if (hi <= lo || ((*a)->first == lo && (*b)->first == lo && (*a)->frames == (*b)->frames))
        return;
    *ta = **a;
    *tb = **b;
    ta->samples += (lo - ta->first) * 2;
    tb->samples += (lo - tb->first) * 2;
    ta->first = tb->first = lo;
    ta->frames = tb->frames = hi - lo;
    *a = ta;
    *b = tb;
}

mc_status mc_audio_compare(const mc_audio_track *a, const mc_audio_track *b,
                           const mc_audio_opts *opts, mc_audio_result *out, mc_error *err)
{
    mc_audio_track ta, tb;
    mc_status st;

    memset(out, 0, sizeof *out);
    mc_audio_effective(opts, &out->limits);
    if (out->limits.max_onset_ms < 0.0 || out->limits.max_rms_db > 0.0 ||
        isnan(out->limits.max_onset_ms) || isnan(out->limits.max_rms_db))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "sound limits out of range (onset >= 0 ms, RMS <= 0 dBFS)");
    if (has_sound(a) && has_sound(b) && a->rate != b->rate)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "sound tracks at %d and %d samples per second", a->rate, b->rate);
    out->has_a = a->has_audio;
    out->has_b = b->has_audio;
    out->rate = has_sound(a) ? a->rate : has_sound(b) ? b->rate : a->rate;
    overlap(&a, &b, &ta, &tb);
    span(a, b, out);
    levels(a, b, out);
    st = mc_audio_onsets(a, &out->onsets_a, &out->count_a, err);
    if (st == MC_OK)
        st = mc_audio_onsets(b, &out->onsets_b, &out->count_b, err);
    if (st == MC_OK)
        st = pair_onsets(out, err);
    if (st != MC_OK) {
        mc_audio_result_release(out);
        return st;
    }
    judge(out);
    return MC_OK;
}

void mc_audio_result_release(mc_audio_result *r)
{
    if (!r)
        return;
    free(r->onsets_a);
    free(r->onsets_b);
    free(r->pairs);
    free(r->unpaired_a);
    free(r->unpaired_b);
    memset(r, 0, sizeof *r);
}

void mc_audio_envelope(const mc_audio_track *t, int64_t first, int64_t end, float *min,
                       float *max, size_t n)
{
    int64_t len = end - first;

    for (size_t i = 0; i < n; i++) {
        int64_t lo = first + len * (int64_t)i / (int64_t)n;
        int64_t hi = first + len * (int64_t)(i + 1) / (int64_t)n;
        double mn = 0.0, mx = 0.0;
        bool any = false;

        hi = hi > lo ? hi : lo + 1;
        for (int64_t s = lo; s < hi; s++) {
            int64_t k = s - t->first;

            if (!has_sound(t) || k < 0 || k >= t->frames)
                continue;
            for (int c = 0; c < 2; c++) {
                double v = t->samples[2 * k + c];

                mn = !any || v < mn ? v : mn;
                mx = !any || v > mx ? v : mx;
                any = true;
            }
        }
        min[i] = (float)(mn / FULL_SCALE);
        max[i] = (float)(mx / FULL_SCALE);
    }
}

void mc_audio_format_db(double db, char *buf, size_t cap)
{
    if (isinf(db) && db < 0.0)
        snprintf(buf, cap, "silent");
    else
        snprintf(buf, cap, "%.2f dBFS", db);
}

static double ms_of(const mc_audio_result *r, int64_t n)
{
    return (double)n * 1000.0 / (r->rate > 0 ? r->rate : 1);
}

void mc_audio_print_text(const mc_audio_result *r, size_t max_rows, FILE *to)
{
    char d[32], a[32], b[32];
    size_t rows = 0;

    mc_audio_format_db(r->rms_diff_db, d, sizeof d);
    mc_audio_format_db(r->rms_a_db, a, sizeof a);
    mc_audio_format_db(r->rms_b_db, b, sizeof b);
    if (!r->has_a)
        snprintf(a, sizeof a, "no track");
    if (!r->has_b)
        snprintf(b, sizeof b, "no track");
    fprintf(to,
            "sound: RMS difference %s (A %s, B %s), %zu onsets in A, %zu in B, %zu paired, "
            "largest offset %+.2f ms\n",
            d, a, b, r->count_a, r->count_b, r->pair_count, r->worst_offset_ms);
    if (r->pass)
        return;
    fprintf(to, "sound: differs: %s\n", r->reasons);
    for (size_t i = 0; i < r->pair_count && rows < max_rows; i++) {
        if (fabs(r->pairs[i].offset_ms) <= r->limits.max_onset_ms)
            continue;
        fprintf(to, "  onset A %10.2f ms  B %10.2f ms  offset %+.2f ms\n",
                ms_of(r, r->pairs[i].a), ms_of(r, r->pairs[i].b), r->pairs[i].offset_ms);
        rows++;
    }
    for (size_t i = 0; i < r->unpaired_count_a && rows < max_rows; i++, rows++)
        fprintf(to, "  onset A %10.2f ms  B          -     unpaired\n",
                ms_of(r, r->unpaired_a[i]));
    for (size_t i = 0; i < r->unpaired_count_b && rows < max_rows; i++, rows++)
        fprintf(to, "  onset A          -     B %10.2f ms  unpaired\n",
                ms_of(r, r->unpaired_b[i]));
}

static void json_db(const char *key, double db, FILE *to)
{
    if (isinf(db) || isnan(db))
        fprintf(to, "\"%s\": null, ", key);
    else
        fprintf(to, "\"%s\": %.4f, ", key, db);
}

static void json_ms_list(const mc_audio_result *r, const char *key, const int64_t *v, size_t n,
                         FILE *to)
{
    fprintf(to, "\"%s\": [", key);
    for (size_t i = 0; i < n; i++)
        fprintf(to, "%s%.4f", i ? ", " : "", ms_of(r, v[i]));
    fputs("], ", to);
}

void mc_audio_print_json(const mc_audio_result *r, FILE *to)
{
    fprintf(to, "{\"has_a\": %s, \"has_b\": %s, \"rate\": %d, ", r->has_a ? "true" : "false",
            r->has_b ? "true" : "false", r->rate);
    json_db("rms_a_db", r->rms_a_db, to);
    json_db("rms_b_db", r->rms_b_db, to);
    json_db("rms_diff_db", r->rms_diff_db, to);
    json_ms_list(r, "onsets_a_ms", r->onsets_a, r->count_a, to);
    json_ms_list(r, "onsets_b_ms", r->onsets_b, r->count_b, to);
    fputs("\"pairs\": [", to);
    for (size_t i = 0; i < r->pair_count; i++)
        fprintf(to, "%s{\"a_ms\": %.4f, \"b_ms\": %.4f, \"offset_ms\": %.4f}", i ? ", " : "",
                ms_of(r, r->pairs[i].a), ms_of(r, r->pairs[i].b), r->pairs[i].offset_ms);
    fputs("], ", to);
    json_ms_list(r, "unpaired_a_ms", r->unpaired_a, r->unpaired_count_a, to);
    json_ms_list(r, "unpaired_b_ms", r->unpaired_b, r->unpaired_count_b, to);
    fprintf(to, "\"worst_offset_ms\": %.4f, \"limits\": {", r->worst_offset_ms);
    if (isfinite(r->limits.max_onset_ms))
        fprintf(to, "\"max_onset_ms\": %g, ", r->limits.max_onset_ms);
    else
        fputs("\"max_onset_ms\": null, ", to);
    fprintf(to, "\"max_rms_db\": %g}, \"pass\": %s, \"reasons\": ", r->limits.max_rms_db,
            r->pass ? "true" : "false");
    mc_json_write_cstr(to, r->reasons);
    fputc('}', to);
}
