/* The pixels of a review report (report.h): the changed region, thumbnails, heat maps and how
 * bad a failing frame is. Pure functions of the frames and the limits. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static int max_channel_diff(const uint8_t *p, const uint8_t *q)
{
    int m = 0;

    for (int c = 0; c < 3; c++) {
        int d = abs((int)p[c] - (int)q[c]);

        m = d > m ? d : m;
    }
    return m;
}

void mc_report_change_box(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, int threshold, const uint8_t *mask, mc_report_box *out)
{
    mc_report_box over = { w, h, -1, -1 }, any = { w, h, -1, -1 };

    for (int y = 0; y < h; y++) {
        const uint8_t *pa = a + (size_t)y * stride_a, *pb = b + (size_t)y * stride_b;

        for (int x = 0; x < w; x++) {
            int m = mask && !mask[(size_t)y * (size_t)w + (size_t)x]
                        ? 0
                        : max_channel_diff(pa + 4 * x, pb + 4 * x);
            mc_report_box *bx = m > threshold ? &over : m > 0 ? &any : NULL;

            if (!bx)
                continue;
            bx->x0 = x < bx->x0 ? x : bx->x0;
            bx->y0 = y < bx->y0 ? y : bx->y0;
            bx->x1 = x > bx->x1 ? x : bx->x1;
            bx->y1 = y > bx->y1 ? y : bx->y1;
            if (bx == &over) { /* the over box includes what it covers of "any" */
                any.x0 = x < any.x0 ? x : any.x0;
                any.y0 = y < any.y0 ? y : any.y0;
                any.x1 = x > any.x1 ? x : any.x1;
                any.y1 = y > any.y1 ? y : any.y1;
            }
        }
    }
    *out = over.x1 >= 0 ? over : any;
    if (out->x1 < 0)
        *out = (mc_report_box){ 0, 0, -1, -1 };
}

/* The block of source pixels thumbnail column (or row) i of n covers out of len. */
static void block(int i, int n, int len, int *from, int *to)
{
    *from = (int)((int64_t)i * len / n);
    *to = (int)((int64_t)(i + 1) * len / n);
    if (*to <= *from)
        *to = *from + 1;
}

void mc_rp_thumbnail(const uint8_t *src, size_t stride, int w, int h, uint8_t *out, int tw,
                     int th)
{
    for (int ty = 0; ty < th; ty++) {
        int y0, y1;

        block(ty, th, h, &y0, &y1);
        for (int tx = 0; tx < tw; tx++) {
            unsigned long sum[3] = { 0, 0, 0 };
            int x0, x1;
            unsigned long n;
            uint8_t *o = out + ((size_t)ty * (size_t)tw + (size_t)tx) * 4;

            block(tx, tw, w, &x0, &x1);
            n = (unsigned long)(x1 - x0) * (unsigned long)(y1 - y0);
            for (int y = y0; y < y1; y++)
                for (int x = x0; x < x1; x++)
                    for (int c = 0; c < 3; c++)
                        sum[c] += src[(size_t)y * stride + (size_t)x * 4 + (size_t)c];
            for (int c = 0; c < 3; c++)
                o[c] = (uint8_t)((sum[c] + n / 2) / n);
            o[3] = 255;
        }
    }
}

bool mc_rp_block_mode(const mc_compare_opts *l)
{
    return l->min_block_psnr > 0.0 || l->max_block_bias < 255.0;
}

double mc_rp_badness(const mc_refcheck_row *row, bool block_mode)
{
    if (row->kind != MC_REFCHECK_FAILED)
        return 0.0;
    if (block_mode)
        return isinf(row->r.block_psnr) ? 0.0 : 1000.0 - row->r.block_psnr;
    return row->r.over_share;
}

/* How far block b is over the block limits of l: dB under min_block_psnr or levels over
 * max_block_bias, the larger; 0 when within them. */
static double block_excess(const mc_compare_block *b, const mc_compare_opts *l)
{
    double e = 0.0;

    if (l->min_block_psnr > 0.0 && b->psnr < l->min_block_psnr)
        e = l->min_block_psnr - b->psnr;
    if (l->max_block_bias < 255.0 && b->bias > l->max_block_bias && b->bias - l->max_block_bias > e)
        e = b->bias - l->max_block_bias;
    return e;
}

static bool block_over(const mc_compare_block *b, const mc_compare_opts *l)
{
    return (l->min_block_psnr > 0.0 && b->psnr < l->min_block_psnr) ||
           (l->max_block_bias < 255.0 && b->bias > l->max_block_bias);
}

static mc_report_box block_box(int x, int y, int w, int h)
{
    mc_report_box b = { x, y, x + MC_COMPARE_BLOCK - 1, y + MC_COMPARE_BLOCK - 1 };

    b.x1 = b.x1 < w ? b.x1 : w - 1;
    b.y1 = b.y1 < h ? b.y1 : h - 1;
    return b;
}

void mc_report_region(const mc_refcheck_failure *f, const mc_compare_block *blocks,
                      mc_report_box *box, mc_report_box *worst, int *failing)
{
    const mc_compare_opts *l = f->limits;
    const mc_compare_result *r = &f->row->r;
    int cols = (f->width + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;
    int rows = (f->height + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;
    mc_report_box bx = { f->width, f->height, -1, -1 };

    *failing = 0;
    if (mc_rp_block_mode(l) && blocks) {
        for (int by = 0; by < rows; by++) {
            for (int i = 0; i < cols; i++) {
                mc_report_box b;

                if (!block_over(&blocks[(size_t)by * (size_t)cols + (size_t)i], l))
                    continue;
                (*failing)++;
                b = block_box(i * MC_COMPARE_BLOCK, by * MC_COMPARE_BLOCK, f->width, f->height);
                bx.x0 = b.x0 < bx.x0 ? b.x0 : bx.x0;
                bx.y0 = b.y0 < bx.y0 ? b.y0 : bx.y0;
                bx.x1 = b.x1 > bx.x1 ? b.x1 : bx.x1;
                bx.y1 = b.y1 > bx.y1 ? b.y1 : bx.y1;
            }
        }
    }
    if (*failing > 0)
        *box = bx;
    else
        mc_report_change_box(f->ref, f->ref_stride, f->cand, f->cand_stride, f->width,
                             f->height, l->threshold, l->mask, box);
    if (r->fail == MC_COMPARE_FAIL_BIAS)
        *worst = block_box(r->bias_x, r->bias_y, f->width, f->height);
    else if (!isinf(r->block_psnr))
        *worst = block_box(r->block_x, r->block_y, f->width, f->height);
    else
        *worst = (mc_report_box){ 0, 0, -1, -1 };
}

/* One heat map pixel from the block's mean reference colour and the colour's weight. */
static void heat_pixel(const unsigned long sum[3], unsigned long n, double wgt, int sign,
                       uint8_t *o)
{
    double y = (0.2126 * (double)sum[0] + 0.7152 * (double)sum[1] + 0.0722 * (double)sum[2]) /
               (double)n;
    double grey = 96.0 + y / 2.0;
    const double red[3] = { 255, 0, 0 }, blue[3] = { 0, 0, 255 }, magenta[3] = { 255, 0, 255 };
    const double *col = sign > 0 ? red : sign < 0 ? blue : magenta;

    for (int c = 0; c < 3; c++)
        o[c] = (uint8_t)lround(grey * (1.0 - wgt) + col[c] * wgt);
    o[3] = 255;
}

void mc_report_heat_map(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                        int w, int h, const mc_compare_opts *limits, const uint8_t *mask,
                        const mc_compare_block *blocks, uint8_t *out, int tw, int th)
{
    bool by_block = blocks && mc_rp_block_mode(limits);
    int cols = (w + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK;

    for (int ty = 0; ty < th; ty++) {
        int y0, y1;

        block(ty, th, h, &y0, &y1);
        for (int tx = 0; tx < tw; tx++) {
            unsigned long sum[3] = { 0, 0, 0 };
            int x0, x1, best = 0, sign = 0;
            double wgt = 0.0, worst = 0.0;

            block(tx, tw, w, &x0, &x1);
            for (int y = y0; y < y1; y++) {
                for (int x = x0; x < x1; x++) {
                    const uint8_t *pa = a + (size_t)y * stride_a + (size_t)x * 4;
                    const uint8_t *pb = b + (size_t)y * stride_b + (size_t)x * 4;
                    int m = by_block || (mask && !mask[(size_t)y * (size_t)w + (size_t)x])
                                ? 0
                                : max_channel_diff(pa, pb);

                    for (int c = 0; c < 3; c++)
                        sum[c] += pa[c];
                    if (m > best) {
                        int s = (pb[0] + pb[1] + pb[2]) - (pa[0] + pa[1] + pa[2]);

                        best = m;
                        sign = s > 0 ? 1 : s < 0 ? -1 : 0;
                    }
                }
            }
            if (by_block) { /* the covered block furthest over a block limit */
                for (int by = y0 / MC_COMPARE_BLOCK; by <= (y1 - 1) / MC_COMPARE_BLOCK; by++) {
                    for (int bx = x0 / MC_COMPARE_BLOCK; bx <= (x1 - 1) / MC_COMPARE_BLOCK;
                         bx++) {
                        const mc_compare_block *k = &blocks[(size_t)by * (size_t)cols +
                                                            (size_t)bx];
                        double e = block_excess(k, limits);

                        if (e > worst) {
                            worst = e;
                            sign = k->mean > 0.0 ? 1 : k->mean < 0.0 ? -1 : 0;
                        }
                    }
                }
                wgt = worst > 0.0 ? 0.5 + worst / 16.0 : 0.0;
            } else {
                wgt = best / 64.0;
                if (best > limits->threshold && wgt < 0.5)
                    wgt = 0.5;
            }
            wgt = wgt > 1.0 ? 1.0 : wgt;
            heat_pixel(sum, (unsigned long)(x1 - x0) * (unsigned long)(y1 - y0), wgt, sign,
                       out + ((size_t)ty * (size_t)tw + (size_t)tx) * 4);
        }
    }
}
