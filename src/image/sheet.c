/* Contact sheets (sheet.h): frame picks, layout, cell drawing with stb_easy_font's glyphs
 * filled on the CPU. Apart from the review code: it calls neither the checker nor the
 * reports (refcheck.h, report.h), and they do not call it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <md5cine/sheet.h>

#include "core/easy_font.h"

#define DEFAULT_CELL_W   320
#define DEFAULT_SHEET_W  1280
#define DEFAULT_COLUMNS  4
#define MAX_CELL_SIDE    4096
#define TEXT_MAX         120
#define TEXT_QUADS       1200
#define BACKGROUND       24
#define MAX_WAVE_HEIGHT  1024

mc_status mc_sheet_layout_make(const mc_sheet_layout_desc *d, mc_sheet_layout *out,
                               mc_error *err)
{
    mc_sheet_layout l = { 0 };
    int64_t w, h;

    memset(out, 0, sizeof *out);
    if (d->frame_width < 1 || d->frame_height < 1)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame size %dx%d is empty",
                            d->frame_width, d->frame_height);
    if (d->cells < 1 || d->cells > MC_SHEET_MAX_CELLS)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%zu cells, expected 1..%d",
                            d->cells, MC_SHEET_MAX_CELLS);
    if (d->columns < 0)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%d columns", d->columns);
    if ((d->cell_width == 0) != (d->cell_height == 0) || d->cell_width < 0 ||
        d->cell_height < 0 || d->cell_width > MAX_CELL_SIDE || d->cell_height > MAX_CELL_SIDE)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "cell size %dx%d, expected both sides in 1..%d", d->cell_width,
                            d->cell_height, MAX_CELL_SIDE);
    if (d->wave_height < 0 || d->wave_height > MAX_WAVE_HEIGHT)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "waveform of %d rows, expected 0..%d",
                            d->wave_height, MAX_WAVE_HEIGHT);
    l.cells = d->cells;
    l.columns = d->columns ? d->columns : DEFAULT_COLUMNS;
    if ((size_t)l.columns > d->cells)
        l.columns = (int)d->cells;
    l.rows = (int)((d->cells + (size_t)l.columns - 1) / (size_t)l.columns);
    if (d->cell_width) {
        l.cell_width = d->cell_width;
        l.cell_height = d->cell_height;
    } else {
        int64_t cw = d->columns ? DEFAULT_SHEET_W / d->columns : DEFAULT_CELL_W;
        int64_t ch = (cw * d->frame_height + d->frame_width / 2) / d->frame_width;
        if (cw < 1 || ch < 1 || ch > MAX_CELL_SIDE)
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                                "frames of %dx%d give cells of %lldx%lld", d->frame_width,
                                d->frame_height, (long long)cw, (long long)ch);
        l.cell_width = (int)cw;
        l.cell_height = (int)ch;
    }
    w = (int64_t)l.columns * (l.cell_width + MC_SHEET_GAP) + MC_SHEET_GAP;
    h = (int64_t)l.rows * (l.cell_height + MC_SHEET_LABEL_HEIGHT + MC_SHEET_GAP) + MC_SHEET_GAP;
    if (d->wave_height > 0) {
        l.wave_y = (int)h;
        l.wave_height = d->wave_height;
        l.wave_width = (int)w - 2 * MC_SHEET_GAP;
        h += d->wave_height + MC_SHEET_GAP;
    }
    if (w > MC_SHEET_MAX_SIDE || h > MC_SHEET_MAX_SIDE)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "the sheet would be %lldx%lld, more than %d per side",
                            (long long)w, (long long)h, MC_SHEET_MAX_SIDE);
    l.width = (int)w;
    l.height = (int)h;
    *out = l;
    return MC_OK;
}

void mc_sheet_cell_origin(const mc_sheet_layout *l, size_t i, int *x, int *y)
{
    int col = (int)(i % (size_t)l->columns), row = (int)(i / (size_t)l->columns);

    *x = MC_SHEET_GAP + col * (l->cell_width + MC_SHEET_GAP);
    *y = MC_SHEET_GAP + row * (l->cell_height + MC_SHEET_LABEL_HEIGHT + MC_SHEET_GAP);
}

int64_t mc_sheet_default_every(int64_t count)
{
    int64_t n = (count + 23) / 24;

    return n < 1 ? 1 : n;
}

size_t mc_sheet_pick_every(int64_t count, int64_t every, int64_t *out, size_t cap)
{
    size_t n = 0;

    if (every < 1)
        every = 1;
    for (int64_t k = 0; k < count; k += every, n++)
        if (n < cap)
            out[n] = k;
    return n;
}

/* Appends k when it is above the last frame added. */
static void add_pick(int64_t k, int64_t *last, int64_t *out, size_t cap, size_t *n)
{
    if (k <= *last)
        return;
    if (*n < cap)
        out[*n] = k;
    (*n)++;
    *last = k;
}

size_t mc_sheet_pick_shots(int64_t count, const int64_t *shot_starts, size_t num_starts,
                           int64_t *out, size_t cap)
{
    size_t n = 0;
    int64_t last = -1;

    if (count < 1)
        return 0;
    add_pick(0, &last, out, cap, &n);
    for (size_t i = 0; i < num_starts; i++) {
        int64_t s = shot_starts[i];
        if (s < 1 || s > count - 1 || s <= last)
            continue;
        add_pick(s - 1, &last, out, cap, &n);
        add_pick(s, &last, out, cap, &n);
    }
    add_pick(count - 1, &last, out, cap, &n);
    return n;
}

void mc_sheet_timecode(int64_t k, mc_rate fps, char *buf, size_t cap)
{
    int64_t num = fps.num > 0 ? fps.num : 1, den = fps.den > 0 ? fps.den : 1;
    int64_t secs = k * den / num;
    int64_t first = (secs * num + den - 1) / den; /* first output frame at or after secs */

    snprintf(buf, cap, "%02lld:%02lld:%02lld:%02lld", (long long)(secs / 3600),
             (long long)(secs / 60 % 60), (long long)(secs % 60), (long long)(k - first));
}

static void fill_rect(uint8_t *sheet, size_t stride, int x0, int y0, int x1, int y1, uint8_t v)
{
    for (int y = y0; y < y1; y++) {
        uint8_t *p = sheet + (size_t)y * stride + 4 * (size_t)x0;
        for (int x = x0; x < x1; x++, p += 4) {
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    }
}

void mc_sheet_clear(const mc_sheet_layout *l, uint8_t *sheet, size_t stride)
{
    if (sheet)
        fill_rect(sheet, stride, 0, 0, l->width, l->height, BACKGROUND);
}

/* The first source index of destination index i (of dn) over sn: the sources whose
 * floor(s * dn / sn) is i start at ceil(i * sn / dn). */
static int src_start(int64_t i, int64_t sn, int64_t dn)
{
    return (int)((i * sn + dn - 1) / dn);
}

static void downscale(const mc_image_view *f, uint8_t *dst, size_t stride, int dw, int dh)
{
    for (int cy = 0; cy < dh; cy++) {
        int y0 = src_start(cy, f->height, dh), y1 = src_start(cy + 1, f->height, dh);
        if (y1 <= y0) { /* upscaling: the nearest source row */
            y0 = (int)((int64_t)cy * f->height / dh);
            y1 = y0 + 1;
        }
        for (int cx = 0; cx < dw; cx++) {
            int x0 = src_start(cx, f->width, dw), x1 = src_start(cx + 1, f->width, dw);
            uint64_t sum[3] = { 0, 0, 0 }, n;
            uint8_t *p = dst + (size_t)cy * stride + 4 * (size_t)cx;
            if (x1 <= x0) {
                x0 = (int)((int64_t)cx * f->width / dw);
                x1 = x0 + 1;
            }
            for (int y = y0; y < y1; y++) {
                const uint8_t *s = f->pixels + (size_t)y * f->stride + 4 * (size_t)x0;
                for (int x = x0; x < x1; x++, s += 4) {
                    sum[0] += s[0];
                    sum[1] += s[1];
                    sum[2] += s[2];
                }
            }
            n = (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0);
            for (int c = 0; c < 3; c++)
                p[c] = (uint8_t)((sum[c] + n / 2) / n);
            p[3] = 255;
        }
    }
}

/* The label: stb_easy_font's quads (axis-aligned, in font pixels) filled white, clipped to
 * the strip [x, x + w) x [y, y + MC_SHEET_LABEL_HEIGHT). */
static void draw_text(uint8_t *sheet, size_t stride, int x, int y, int w, const char *text)
{
    unsigned char ink[4] = { 255, 255, 255, 255 };
    float verts[TEXT_QUADS * 16]; /* 4 vertices of x, y, z, colour per quad */
    char line[TEXT_MAX + 1];
    size_t n = 0;
    int quads;

    for (const char *c = text; *c && n < TEXT_MAX; c++)
        line[n++] = *c >= 32 && *c <= 126 ? *c : '?';
    line[n] = '\0';
    quads = stb_easy_font_print(0.0f, 0.0f, line, ink, verts, (int)sizeof verts);
    for (int q = 0; q < quads; q++) {
        const float *v = verts + 16 * q; /* vertex 0 top left, vertex 2 bottom right */
        int x0 = x + 3 + (int)v[0], y0 = y + 2 + (int)v[1];
        int x1 = x + 3 + (int)v[8], y1 = y + 2 + (int)v[9];
        if (x1 > x + w)
            x1 = x + w;
        if (y1 > y + MC_SHEET_LABEL_HEIGHT)
            y1 = y + MC_SHEET_LABEL_HEIGHT;
        if (x0 < x1 && y0 < y1)
            fill_rect(sheet, stride, x0, y0, x1, y1, 255);
    }
}

void mc_sheet_draw_cell(const mc_sheet_layout *l, uint8_t *sheet, size_t stride, size_t i,
                        const mc_image_view *frame, const char *text)
{
    int x, y;

    if (!sheet || !frame || !frame->pixels || !text || i >= l->cells || frame->width < 1 ||
        frame->height < 1)
        return;
    mc_sheet_cell_origin(l, i, &x, &y);
    downscale(frame, sheet + (size_t)y * stride + 4 * (size_t)x, stride, l->cell_width,
              l->cell_height);
    fill_rect(sheet, stride, x, y + l->cell_height, x + l->cell_width,
              y + l->cell_height + MC_SHEET_LABEL_HEIGHT, 0);
    draw_text(sheet, stride, x, y + l->cell_height, l->cell_width, text);
}

static void put(uint8_t *sheet, size_t stride, int x, int y, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *p = sheet + (size_t)y * stride + 4 * (size_t)x;

    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = 255;
}

/* v within -1..1; NaN (a damaged decode) as 0. */
static double clip1(float v)
{
    if (isnan(v))
        return 0.0;
    return v < -1.0f ? -1.0 : v > 1.0f ? 1.0 : (double)v;
}

void mc_sheet_draw_wave(const mc_sheet_layout *l, uint8_t *sheet, size_t stride,
                        const float *min, const float *max, size_t n, const int *marks,
                        size_t nmarks)
{
    static const uint8_t wave[3] = { MC_SHEET_WAVE_COLOUR }, onset[3] = { MC_SHEET_ONSET_COLOUR };
    double half = (l->wave_height - 1) / 2.0;

    if (!sheet || !min || !max || l->wave_height < 1 || n != (size_t)l->wave_width)
        return;
    for (size_t i = 0; i < n; i++) {
        double lo = clip1(min[i]), hi = clip1(max[i]);

        if (fabs(lo) * half < 0.5 && fabs(hi) * half < 0.5)
            continue;
        long top = lround(half * (1.0 - hi)), bottom = lround(half * (1.0 - lo));

        for (long y = top; y <= bottom; y++)
            put(sheet, stride, MC_SHEET_GAP + (int)i, l->wave_y + (int)y, wave[0], wave[1],
                wave[2]);
    }
    for (size_t k = 0; marks && k < nmarks; k++) {
        if (marks[k] < 0 || marks[k] >= l->wave_width)
            continue;
        for (int y = 0; y < l->wave_height; y++)
            put(sheet, stride, MC_SHEET_GAP + marks[k], l->wave_y + y, onset[0], onset[1],
                onset[2]);
    }
}
