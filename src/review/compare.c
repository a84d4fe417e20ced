/* Frame comparison metrics (see include/md5cine/compare.h for the definitions and defaults). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/compare.h>

#define SSIM_WIN 11
#define SSIM_HALF 5
#define SSIM_SIGMA 1.5
#define SSIM_C1 ((0.01 * 255.0) * (0.01 * 255.0))
#define SSIM_C2 ((0.03 * 255.0) * (0.03 * 255.0))
#define DEFAULT_GAIN 16.0f

/* The five windowed moments SSIM needs, each a row of filtered values. */
enum { M_A, M_B, M_AA, M_BB, M_AB, M_COUNT };

/* ---- the limits (MC_COMPARE_LIMITS) ---------------------------------------------------- */

/* One function per limit that can fail: whether r breaks it (lim effective), and when buf is
 * not NULL why, as one piece of mc_compare_reasons' line. */
static bool limit_max_failing_share(const mc_compare_result *r, const mc_compare_opts *lim,
                                    char *buf, size_t cap)
{
    if (buf)
        snprintf(buf, cap, "%.3g%% of pixels differ by more than %d > %.3g%%",
                 100.0 * r->over_share, lim->threshold, 100.0 * lim->max_failing_share);
    return r->over_share > lim->max_failing_share;
}

static bool limit_max_diff(const mc_compare_result *r, const mc_compare_opts *lim, char *buf,
                           size_t cap)
{
    if (buf)
        snprintf(buf, cap, "max diff %d > %d at (%d, %d)", r->max_diff, lim->max_diff_limit,
                 r->max_x, r->max_y);
    return r->max_diff > lim->max_diff_limit;
}

static bool limit_min_ssim(const mc_compare_result *r, const mc_compare_opts *lim, char *buf,
                           size_t cap)
{
    if (buf)
        snprintf(buf, cap, "ssim %.5f < %.5g", r->ssim, lim->min_ssim);
    return r->ssim < lim->min_ssim;
}

static bool limit_min_psnr(const mc_compare_result *r, const mc_compare_opts *lim, char *buf,
                           size_t cap)
{
    if (buf)
        snprintf(buf, cap, "psnr %.2f dB < %.4g dB", r->psnr, lim->min_psnr);
    return r->psnr < lim->min_psnr;
}

static bool limit_min_block_psnr(const mc_compare_result *r, const mc_compare_opts *lim,
                                 char *buf, size_t cap)
{
    if (buf)
        snprintf(buf, cap, "block psnr %.2f dB < %.4g dB at (%d, %d)", r->block_psnr,
                 lim->min_block_psnr, r->block_x, r->block_y);
    return r->block_psnr < lim->min_block_psnr;
}

static bool limit_max_block_bias(const mc_compare_result *r, const mc_compare_opts *lim,
                                 char *buf, size_t cap)
{
    if (buf)
        snprintf(buf, cap, "block bias %.2f > %.4g levels at (%d, %d)", r->block_bias,
                 lim->max_block_bias, r->bias_x, r->bias_y);
    return r->block_bias > lim->max_block_bias;
}

typedef bool (*limit_fn)(const mc_compare_result *r, const mc_compare_opts *lim, char *buf,
                         size_t cap);

/* The threshold is a setting: nothing fails it. */
#define limit_threshold NULL

#define LIMIT_ROW(c, id, option, label, field, is_int, set, fail, lossless, lossy, off, sense,     \
                  unit, scale, lo, hi, percent, metavar, expect, help)                          \
    { #id, option, label, offsetof(mc_compare_opts, field), is_int, set, fail, lossless, lossy, \
      off, sense, unit, scale },
static const mc_compare_limit limits[] = { MC_COMPARE_LIMITS(LIMIT_ROW, _) };

#define LIMIT_FN(c, id, ...) limit_##id,
static const limit_fn limit_fns[] = { MC_COMPARE_LIMITS(LIMIT_FN, _) };

#define NUM_LIMITS (sizeof limits / sizeof limits[0])

const mc_compare_limit *mc_compare_limits(size_t *count)
{
    if (count)
        *count = NUM_LIMITS;
    return limits;
}

/* The int or double field at byte offset field of the struct at base, as a double: how both
 * tables (limits in mc_compare_opts, metrics in mc_compare_result) read a row's field. */
static double field_at(const void *base, size_t field, bool is_int)
{
    const char *p = (const char *)base + field;
    int i;
    double d;

    if (is_int) {
        memcpy(&i, p, sizeof i);
        return i;
    }
    memcpy(&d, p, sizeof d);
    return d;
}

double mc_compare_limit_get(const mc_compare_opts *o, const mc_compare_limit *l)
{
    return field_at(o, l->field, l->is_int);
}

static void limit_set(mc_compare_opts *o, const mc_compare_limit *l, double v)
{
    char *p = (char *)o + l->field;
    int i = (int)v;

    if (l->is_int)
        memcpy(p, &i, sizeof i);
    else
        memcpy(p, &v, sizeof v);
}

bool mc_compare_limit_on(const mc_compare_opts *o, const mc_compare_limit *l)
{
    double v = mc_compare_limit_get(o, l);

    return l->sense == '<' ? v < l->off : l->sense == '>' ? v > l->off : true;
}

/* ---- the metrics (MC_COMPARE_METRICS) --------------------------------------------------- */

#define METRIC_ROW(c, id, field, is_int, label, heading, width, tprec, jprec, pprec, scale,       \
                   unit, at_key, at_x, at_y, count_key, count)                                   \
    { #id, label, heading, offsetof(mc_compare_result, field), is_int, width, tprec, jprec,      \
      pprec, scale, unit, at_key, at_x, at_y, count_key, count },
static const mc_compare_metric metrics[] = { MC_COMPARE_METRICS(METRIC_ROW, _) };

const mc_compare_metric *mc_compare_metrics(size_t *count)
{
    if (count)
        *count = sizeof metrics / sizeof metrics[0];
    return metrics;
}

double mc_compare_metric_get(const mc_compare_result *r, const mc_compare_metric *m)
{
    return field_at(r, m->field, m->is_int);
}

void mc_compare_metric_format(const mc_compare_result *r, const mc_compare_metric *m,
                              mc_compare_style style, char *buf, size_t cap)
{
    double v = mc_compare_metric_get(r, m);
    bool json = style == MC_COMPARE_STYLE_JSON;
    int prec = json ? m->jprec : style == MC_COMPARE_STYLE_TABLE ? m->tprec : m->pprec;
    const char *unit = style == MC_COMPARE_STYLE_PROSE ? m->unit : "";

    if (!buf || cap == 0)
        return;
    if (json && !isfinite(v))
        snprintf(buf, cap, "null");
    else if (isinf(v))
        snprintf(buf, cap, "inf");
    else if (m->is_int)
        snprintf(buf, cap, "%d%s", (int)v, unit);
    else
        snprintf(buf, cap, "%.*f%s", prec, json ? v : v * m->scale, unit);
}

bool mc_compare_metric_at(const mc_compare_result *r, const mc_compare_metric *m, int *x,
                          int *y)
{
    if (!m->at_key)
        return false;
    memcpy(x, (const char *)r + m->at_x, sizeof *x);
    memcpy(y, (const char *)r + m->at_y, sizeof *y);
    return true;
}

void mc_compare_work_release(mc_compare_work *work)
{
    if (!work)
        return;
    free(work->buf);
    work->buf = NULL;
    work->cap = 0;
}

void mc_compare_effective(const mc_compare_opts *opts, mc_compare_opts *out)
{
    const mc_compare_opts given = opts ? *opts : (mc_compare_opts){ 0 }; /* out may be opts */
    const mc_compare_opts *in = &given;

    *out = (mc_compare_opts){ .lossy = in->lossy, .set = MC_COMPARE_SET_ALL };
    for (size_t i = 0; i < NUM_LIMITS; i++) {
        const mc_compare_limit *l = &limits[i];
        double def = in->lossy ? l->lossy : l->lossless;

        limit_set(out, l, (in->set & l->set) ? mc_compare_limit_get(in, l) : def);
    }
    out->mask = in->mask;
    out->diff_gain = in->diff_gain > 0.0f ? in->diff_gain : DEFAULT_GAIN;
}

static double luma709(const uint8_t *p)
{
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/* One pixel's largest channel difference; adds its differences to the image's sums and to its
 * block's squared-difference sum *bsq and signed channel sums bsum[3] (b - a). */
static int pixel_diff(const uint8_t *p, const uint8_t *q, unsigned long long *sum,
                      unsigned long long *sumsq, double *bsq, double *bsum)
{
    int m = 0;

    for (int c = 0; c < 3; c++) {
        int s = (int)q[c] - (int)p[c], d = abs(s);
        *sum += (unsigned long long)d;
        *sumsq += (unsigned long long)(d * d);
        *bsq += (double)(d * d);
        bsum[c] += (double)s;
        if (d > m)
            m = d;
    }
    return m;
}

/* Block accumulators: per block of the current block row, its squared-difference sum and
 * its compared samples (exact in doubles: at most 16 * 16 * 3 * 255^2). */
typedef struct block_acc {
    double *sq, *n, *sum; /* sum: 3 signed channel sums (b - a) per block */
    int cols;
} block_acc;

/* Folds the finished block row at y0 into the worst block so far, then clears it. */
static void block_row_done(block_acc *b, int y0, double *worst_mse, mc_compare_result *out)
{
    const double quarter = 3.0 * MC_COMPARE_BLOCK * MC_COMPARE_BLOCK / 4.0;

    for (int i = 0; i < b->cols; i++) {
        if (b->n[i] > 0.0 && b->sq[i] / b->n[i] > *worst_mse) {
            *worst_mse = b->sq[i] / b->n[i];
            out->block_x = i * MC_COMPARE_BLOCK;
            out->block_y = y0;
        }
        for (int c = 0; c < 3 && b->n[i] >= quarter; c++) {
            double bias = fabs(b->sum[3 * i + c]) / (b->n[i] / 3.0);
            if (bias > out->block_bias) {
                out->block_bias = bias;
                out->bias_x = i * MC_COMPARE_BLOCK;
                out->bias_y = y0;
            }
        }
        b->sq[i] = 0.0;
        b->n[i] = 0.0;
        b->sum[3 * i] = b->sum[3 * i + 1] = b->sum[3 * i + 2] = 0.0;
    }
}

static double psnr_of(double mse)
{
    return mse <= 0.0 ? (double)INFINITY : 10.0 * log10(255.0 * 255.0 / mse);
}

/* Max, mean, PSNR, the share over the threshold and the worst block: one integer pass over
 * the pixels the mask keeps. */
static void pixel_metrics(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, const mc_compare_opts *lim, block_acc *blk,
                          mc_compare_result *out)
{
    unsigned long long sum = 0, sumsq = 0;
    double worst_mse = 0.0, samples;

    for (int y = 0; y < h; y++) {
        const uint8_t *pa = a + (size_t)y * stride_a, *pb = b + (size_t)y * stride_b;
        const uint8_t *pm = lim->mask ? lim->mask + (size_t)y * (size_t)w : NULL;
        for (int x = 0; x < w; x++) {
            int i = x / MC_COMPARE_BLOCK, m;

            if (pm && !pm[x])
                continue;
            m = pixel_diff(pa + 4 * x, pb + 4 * x, &sum, &sumsq, &blk->sq[i], &blk->sum[3 * i]);
            blk->n[i] += 3.0;
            out->compared++;
            if (m > out->max_diff) {
                out->max_diff = m;
                out->max_x = x;
                out->max_y = y;
            }
            if (m > lim->threshold)
                out->over_pixels++;
        }
        if (y % MC_COMPARE_BLOCK == MC_COMPARE_BLOCK - 1 || y == h - 1)
            block_row_done(blk, y - y % MC_COMPARE_BLOCK, &worst_mse, out);
    }
    samples = 3.0 * (double)out->compared;
    out->mean_diff = out->compared ? (double)sum / samples : 0.0;
    out->psnr = sumsq == 0 ? (double)INFINITY : psnr_of((double)sumsq / samples);
    out->over_share = out->compared ? (double)out->over_pixels / (double)out->compared : 0.0;
    out->block_psnr = psnr_of(worst_mse);
}

static double ssim_term(const double *m)
{
    double va = m[M_AA] - m[M_A] * m[M_A];
    double vb = m[M_BB] - m[M_B] * m[M_B];
    double cov = m[M_AB] - m[M_A] * m[M_B];

    return (2.0 * m[M_A] * m[M_B] + SSIM_C1) * (2.0 * cov + SSIM_C2) /
           ((m[M_A] * m[M_A] + m[M_B] * m[M_B] + SSIM_C1) * (va + vb + SSIM_C2));
}

/* An image smaller than the window: one window over all of it with uniform weights. */
static double ssim_small(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                         int w, int h, const uint8_t *mask)
{
    double m[M_COUNT] = { 0 }, n = 0.0;

    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            if (mask && !mask[(size_t)y * (size_t)w + (size_t)x])
                continue;
            n += 1.0;
            double la = luma709(a + (size_t)y * stride_a + 4 * (size_t)x);
            double lb = luma709(b + (size_t)y * stride_b + 4 * (size_t)x);
            m[M_A] += la;
            m[M_B] += lb;
            m[M_AA] += la * la;
            m[M_BB] += lb * lb;
            m[M_AB] += la * lb;
        }
    }
    if (n == 0.0)
        return 1.0;
    for (int i = 0; i < M_COUNT; i++)
        m[i] /= n;
    return ssim_term(m);
}

static void gaussian_weights(double g[SSIM_WIN])
{
    double total = 0.0;

    for (int i = 0; i < SSIM_WIN; i++) {
        double d = i - SSIM_HALF;
        g[i] = exp(-d * d / (2.0 * SSIM_SIGMA * SSIM_SIGMA));
        total += g[i];
    }
    for (int i = 0; i < SSIM_WIN; i++)
        g[i] /= total;
}

/* Scratch layout: 5 source rows of w (luma a, luma b, a^2, b^2, ab), then a ring of
 * SSIM_WIN slots, each M_COUNT horizontally filtered rows of ow = w - 10, then one more slot
 * for the vertical sums. */
static size_t ssim_scratch_doubles(int w)
{
    return (size_t)M_COUNT * (size_t)w +
           (size_t)(SSIM_WIN + 1) * M_COUNT * (size_t)(w - 2 * SSIM_HALF);
}

/* Luma of row y of both images and its products, then the horizontal filter into ring. */
static void ssim_row_in(const uint8_t *ra, const uint8_t *rb, const uint8_t *rm, int w,
                        const double g[SSIM_WIN], double *src, double *ring)
{
    size_t uw = (size_t)w, ow = uw - 2 * SSIM_HALF;

    for (size_t x = 0; x < uw; x++) {
        /* a masked pixel reads as the reference's, so that it moves no window */
        double la = luma709(ra + 4 * x), lb = rm && !rm[x] ? la : luma709(rb + 4 * x);
        src[x] = la;
        src[uw + x] = lb;
        src[2 * uw + x] = la * la;
        src[3 * uw + x] = lb * lb;
        src[4 * uw + x] = la * lb;
    }
    /* Tap by tap over the whole row, so that the inner loop vectorises. */
    for (size_t q = 0; q < M_COUNT; q++) {
        const double *s = src + q * uw;
        double *d = ring + q * ow;
        for (size_t x = 0; x < ow; x++)
            d[x] = g[0] * s[x];
        for (size_t k = 1; k < SSIM_WIN; k++)
            for (size_t x = 0; x < ow; x++)
                d[x] += g[k] * s[x + k];
    }
}

/* The vertical filter over the ring for one output row into acc (M_COUNT rows of ow), then
 * the SSIM of each window whose centre pixel the mask keeps (centre_mask: the mask row of the
 * windows' centres, NULL: all); returns the row's SSIM sum and adds the windows to *count.
 * Row-wise loops so that they vectorise. */
static double ssim_row_out(const double *ring, size_t ow, int first, const double g[SSIM_WIN],
                           const uint8_t *centre_mask, double *acc, double *count)
{
    double total = 0.0;
    size_t slot_len = M_COUNT * ow;

    memset(acc, 0, slot_len * sizeof *acc);
    for (int j = 0; j < SSIM_WIN; j++) {
        const double *slot = ring + (size_t)((first + j) % SSIM_WIN) * slot_len;
        for (size_t i = 0; i < slot_len; i++)
            acc[i] += g[j] * slot[i];
    }
    for (size_t x = 0; x < ow; x++) {
        double m[M_COUNT];
        if (centre_mask && !centre_mask[x + SSIM_HALF])
            continue;
        *count += 1.0;
        for (size_t q = 0; q < M_COUNT; q++)
            m[q] = acc[q * ow + x];
        total += ssim_term(m);
    }
    return total;
}

static double ssim_gauss(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                         int w, int h, const uint8_t *mask, double *scratch)
{
    double g[SSIM_WIN], total = 0.0, count = 0.0;
    size_t ow = (size_t)(w - 2 * SSIM_HALF);
    double *src = scratch, *ring = scratch + (size_t)M_COUNT * (size_t)w;
    double *acc = ring + (size_t)SSIM_WIN * M_COUNT * ow;

    gaussian_weights(g);
    for (int y = 0; y < h; y++) {
        double *slot = ring + (size_t)(y % SSIM_WIN) * M_COUNT * ow;
        ssim_row_in(a + (size_t)y * stride_a, b + (size_t)y * stride_b,
                    mask ? mask + (size_t)y * (size_t)w : NULL, w, g, src, slot);
        if (y >= 2 * SSIM_HALF) {
            const uint8_t *cm = mask ? mask + (size_t)(y - SSIM_HALF) * (size_t)w : NULL;
            total += ssim_row_out(ring, ow, (y - 2 * SSIM_HALF) % SSIM_WIN, g, cm, acc, &count);
        }
    }
    return count > 0.0 ? total / count : 1.0;
}

static unsigned judge(const mc_compare_result *r, const mc_compare_opts *lim)
{
    unsigned fail = 0;

    for (size_t i = 0; i < NUM_LIMITS; i++)
        if (limit_fns[i] && limit_fns[i](r, lim, NULL, 0))
            fail |= limits[i].fail;
    return fail;
}

static mc_status check_args(const uint8_t *a, size_t stride_a, const uint8_t *b,
                            size_t stride_b, int w, int h, mc_error *err)
{
    if (!a || !b)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no pixels to compare");
    if (w < 1 || h < 1)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame size %dx%d is empty", w, h);
    if (stride_a < 4 * (size_t)w || stride_b < 4 * (size_t)w)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "row stride below 4 * width (%d)", w);
    return MC_OK;
}

mc_status mc_compare_rgba(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, const mc_compare_opts *opts, mc_compare_work *work,
                          mc_compare_result *out, mc_error *err)
{
    mc_compare_opts lim;
    mc_compare_work local = { 0 };
    mc_compare_work *ws = work ? work : &local;
    block_acc blk;
    size_t ssim_need, need;
    int cols;
    mc_status st;

    memset(out, 0, sizeof *out);
    st = check_args(a, stride_a, b, stride_b, w, h, err);
    if (st != MC_OK)
        return st;
    mc_compare_effective(opts, &lim);
    cols = (w + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;
    ssim_need = (w < SSIM_WIN || h < SSIM_WIN) ? 0 : ssim_scratch_doubles(w);
    need = ssim_need + 5 * (size_t)cols;
    if (ws->cap < need) {
        double *p = realloc(ws->buf, need * sizeof *p);
        if (!p) {
            mc_compare_work_release(&local);
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0,
                                "out of memory for a %d-pixel-wide comparison", w);
        }
        ws->buf = p;
        ws->cap = need;
    }
    if (ssim_need == 0)
        out->ssim = ssim_small(a, stride_a, b, stride_b, w, h, lim.mask);
    else
        out->ssim = ssim_gauss(a, stride_a, b, stride_b, w, h, lim.mask, ws->buf);
    blk.sq = ws->buf + ssim_need;
    blk.n = blk.sq + cols;
    blk.sum = blk.n + cols;
    blk.cols = cols;
    memset(blk.sq, 0, 5 * (size_t)cols * sizeof *blk.sq);
    pixel_metrics(a, stride_a, b, stride_b, w, h, &lim, &blk, out);
    out->fail = judge(out, &lim);
    out->pass = out->fail == 0;
    mc_compare_work_release(&local);
    return MC_OK;
}

void mc_compare_blocks(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                       int w, int h, const uint8_t *mask, mc_compare_block *out)
{
    const double quarter = 3.0 * MC_COMPARE_BLOCK * MC_COMPARE_BLOCK / 4.0;
    int cols = (w + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;
    int rows = (h + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;

    if (!a || !b || !out || w < 1 || h < 1)
        return;
    for (int by = 0; by < rows; by++) {
        for (int bx = 0; bx < cols; bx++) {
            unsigned long long sum = 0, sumsq = 0;
            double sq = 0.0, csum[3] = { 0.0, 0.0, 0.0 }, n = 0.0;
            mc_compare_block *o = &out[(size_t)by * (size_t)cols + (size_t)bx];
            int x1 = (bx + 1) * MC_COMPARE_BLOCK, y1 = (by + 1) * MC_COMPARE_BLOCK;

            x1 = x1 < w ? x1 : w;
            y1 = y1 < h ? y1 : h;
            o->compared = 0;
            for (int y = by * MC_COMPARE_BLOCK; y < y1; y++) {
                const uint8_t *pa = a + (size_t)y * stride_a, *pb = b + (size_t)y * stride_b;

                for (int x = bx * MC_COMPARE_BLOCK; x < x1; x++) {
                    if (mask && !mask[(size_t)y * (size_t)w + (size_t)x])
                        continue;
                    pixel_diff(pa + 4 * x, pb + 4 * x, &sum, &sumsq, &sq, csum);
                    n += 3.0;
                    o->compared++;
                }
            }
            /* As block_row_done and psnr_of measure block_psnr and block_bias. */
            o->psnr = n > 0.0 ? psnr_of(sq / n) : (double)INFINITY;
            o->bias = 0.0;
            for (int c = 0; c < 3 && n >= quarter; c++) {
                double bias = fabs(csum[c]) / (n / 3.0);
                o->bias = bias > o->bias ? bias : o->bias;
            }
            o->mean = n > 0.0 ? (csum[0] + csum[1] + csum[2]) / n : 0.0;
        }
    }
}

/* Appends a formatted piece to buf at *len, separated by "; ". */
static void append(char *buf, size_t cap, size_t *len, const char *piece)
{
    size_t n = strlen(piece);
    const char *sep = *len ? "; " : "";
    size_t s = strlen(sep);

    if (*len + s + n + 1 > cap) {
        n = *len + s + 1 < cap ? cap - *len - s - 1 : 0;
        s = *len + s + 1 < cap ? s : 0;
    }
    memcpy(buf + *len, sep, s);
    memcpy(buf + *len + s, piece, n);
    *len += s + n;
    buf[*len] = '\0';
}

void mc_compare_reasons(const mc_compare_result *r, const mc_compare_opts *opts, char *buf,
                        size_t cap)
{
    mc_compare_opts lim;
    char piece[160];
    size_t len = 0;

    if (!buf || cap == 0)
        return;
    buf[0] = '\0';
    mc_compare_effective(opts, &lim);
    for (size_t i = 0; i < NUM_LIMITS; i++) {
        if (!limit_fns[i] || !(r->fail & limits[i].fail))
            continue;
        limit_fns[i](r, &lim, piece, sizeof piece);
        append(buf, cap, &len, piece);
    }
}

void mc_compare_diff_image(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                           int w, int h, const mc_compare_opts *opts, uint8_t *out,
                           size_t out_stride)
{
    mc_compare_opts lim;
    unsigned long long dummy_sum = 0, dummy_sq = 0;
    double dummy_bsq = 0.0, dummy_bsum[3] = { 0.0, 0.0, 0.0 };

    if (!a || !b || !out || w < 1 || h < 1)
        return;
    mc_compare_effective(opts, &lim);
    for (int y = 0; y < h; y++) {
        const uint8_t *pa = a + (size_t)y * stride_a, *pb = b + (size_t)y * stride_b;
        uint8_t *po = out + (size_t)y * out_stride;
        for (size_t x = 0; x < (size_t)w; x++) {
            int d = pixel_diff(pa + 4 * x, pb + 4 * x, &dummy_sum, &dummy_sq, &dummy_bsq,
                               dummy_bsum);
            float grey = 128.0f + (float)luma709(pa + 4 * x) * 0.25f;
            float t = fminf(1.0f, (float)d * lim.diff_gain / 255.0f);
            if (d > lim.threshold)
                t = fmaxf(t, 0.5f);
            if (lim.mask && !lim.mask[(size_t)y * (size_t)w + x])
                t = 0.0f; /* ignored: shown grey */
            po[4 * x + 0] = (uint8_t)lrintf(grey + (255.0f - grey) * t);
            po[4 * x + 1] = (uint8_t)lrintf(grey * (1.0f - t));
            po[4 * x + 2] = (uint8_t)lrintf(grey * (1.0f - t));
            po[4 * x + 3] = 255;
        }
    }
}
