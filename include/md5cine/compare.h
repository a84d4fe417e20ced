/* Frame comparison: the metrics that decide whether a rendered frame matches a reference, and
 * the picture that shows where it does not.
 *
 * Both frames are 8-bit RGBA, top row first, of the same size. Only R, G and B are compared:
 * md5cine's frames are opaque, a PNG without alpha reads as opaque and video has no alpha, so
 * alpha carries nothing a comparison could use.
 *
 * Metrics of one frame pair (a = reference, b = candidate):
 *   max_diff    largest |a - b| over the R, G, B samples of every pixel (0..255)
 *   mean_diff   mean |a - b| over all R, G, B samples
 *   psnr        10 log10(255^2 / MSE), MSE over all R, G, B samples; INFINITY when identical
 *   over_share  share (0..1) of pixels whose largest channel difference exceeds `threshold`
 *   ssim        mean SSIM of the BT.709 luma (Y = 0.2126 R + 0.7152 G + 0.0722 B, 0..255),
 *               Wang et al. 2004: C1 = (0.01 * 255)^2, C2 = (0.03 * 255)^2, an 11x11 Gaussian
 *               window with sigma 1.5 (weights normalised to sum 1), mean over every window
 *               position that lies wholly inside the image (no padding). An image narrower or
 *               lower than 11 pixels has one window: the whole image, weighted uniformly.
 *
 *   block_psnr  PSNR of the worst MC_COMPARE_BLOCK x MC_COMPARE_BLOCK block (a grid from the top
 *               left pixel), over R, G, B
 *   block_bias  the largest |mean(b - a)| of one channel over one such block (blocks with at
 *               least a quarter of their pixels compared): codec noise averages out over a
 *               block, a recolour or a moved edge does not
 *
 * Mask (opts.mask): a masked pixel counts in no metric: not in the sums, the shares (whose
 * denominator is the compared pixels), the blocks, nor SSIM (it reads as the reference's pixel
 * there, and windows centred on it are skipped). Nothing compared: PSNR INFINITY, SSIM 1.
 *
 * Limits (mc_compare_opts) and their defaults. A pair passes when every limit holds.
 *
 *   limit              lossless (PNGs)      lossy (either side is a video)
 *   threshold          4 levels             4 levels (reported only)
 *   max_failing_share  0.0001 (0.01 %)      1 (off)
 *   max_diff_limit     255 (off)            255 (off)
 *   min_ssim           0.95                 0.95
 *   min_psnr           0 (off)              35 dB
 *   min_block_psnr     0 (off)              22 dB
 *   max_block_bias     255 (off)            9 levels
 *
 * Why (figures from bench/compare_bench.c on render-like frames, and tests/compare_test.sh):
 * llvmpipe frames are bit-identical on one machine; elsewhere (another Mesa or LLVM, the
 * default framebuffer instead of an FBO) they differ by 1-3 levels on some pixels. Those stay
 * under the 4-level threshold, so a harmless difference puts no pixel "over" while a real
 * change puts hundreds there: a 1-pixel move of a thin limb 8 % of the frame height long puts
 * 0.07-0.15 % of the pixels over at 320x240..1920x1080, a ball moved by 1 pixel 0.08-1.2 %, a
 * swapped animation frame 3.7 %, a region recoloured by 20 levels 1.4 %. 0.01 % (92 pixels at
 * 1280x720) leaves room for a few stray edge pixels and fails all of these. SSIM cannot be
 * tight: +-2 noise on every channel costs 0.018 on dark flat areas (C2 is small next to the
 * noise variance) while a 1-pixel move costs only 0.0002-0.007, so 0.95 only guards against
 * changes spread under the threshold everywhere. max_diff stays off: isolated pixels from
 * other rasterisers reach 88 levels. A move shorter than the share (a tiny shape) passes the
 * defaults; set max_diff_limit (e.g. 32) or max_failing_share 0 to catch it.
 * Video (bench/video_thresholds.sh, the demo against its own crf 18 MP4, docs/review-and-ci.md,
 * "Comparing frames"): x264 leaves up to ~90 levels on edges and ~1 % of the pixels over 16, so
 * the per-pixel limits are off. Global PSNR cannot tell a small change from noise (an unchanged
 * render 39-46 dB, an actor moved by one unit 35-43 dB). Local metrics can: at 640x360 and
 * 1280x720 unchanged frames keep every block at 26 dB or more and every block mean within 7
 * levels, while a moved actor puts blocks down to 11-16 dB, another anim to 4-8 dB, and a
 * 20-level recolour moves a block's mean by 11-20 levels. 22 dB keeps 4 dB of margin from the
 * unchanged render; 9 levels keeps 2 from both the unchanged render and the recolour. PSNR
 * >= 35 dB and SSIM >= 0.95 stay as guards against change spread thinly over the frame. */
#ifndef MC_COMPARE_H
#define MC_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of mc_compare_opts.set: the fields given explicitly. Unset fields take the default of
 * the mode (lossless or lossy), so a zeroed struct means "the lossless defaults". */
enum {
    MC_COMPARE_SET_THRESHOLD = 1u << 0,
    MC_COMPARE_SET_MAX_FAILING_SHARE = 1u << 1,
    MC_COMPARE_SET_MAX_DIFF = 1u << 2,
    MC_COMPARE_SET_MIN_SSIM = 1u << 3,
    MC_COMPARE_SET_MIN_PSNR = 1u << 4,
    MC_COMPARE_SET_MIN_BLOCK_PSNR = 1u << 5,
    MC_COMPARE_SET_MAX_BLOCK_BIAS = 1u << 6,
    MC_COMPARE_SET_ALL = (1u << 7) - 1u,
};

typedef struct mc_compare_opts {
    bool lossy;               /* use the lossy (video) defaults for unset fields */
    unsigned set;             /* MC_COMPARE_SET_* bits: which of the fields below apply */
    int threshold;            /* levels 0..255: a pixel is "over" when max channel diff > this */
    double max_failing_share; /* 0..1: fail when over_share > this (1 = off) */
    int max_diff_limit;       /* 0..255: fail when max_diff > this (255 = off) */
    double min_ssim;          /* fail when ssim < this (-1 = off) */
    double min_psnr;          /* dB: fail when psnr < this (0 = off) */
    double min_block_psnr;    /* dB: fail when block_psnr < this (0 = off) */
    double max_block_bias;    /* levels: fail when block_bias > this (255 = off) */
    float diff_gain;          /* diff image: red = diff * gain / 255; 0 means 16 */
    const uint8_t *mask;      /* w * h bytes, row-major: 0 = pixel ignored by every metric;
                                 NULL: every pixel counts. Borrowed: the caller keeps it alive
                                 while it compares; mc_compare_effective copies the pointer */
} mc_compare_opts;

/* Reasons a pair failed (mc_compare_result.fail). */
enum {
    MC_COMPARE_FAIL_SHARE = 1u << 0, /* over_share > max_failing_share */
    MC_COMPARE_FAIL_MAX = 1u << 1,   /* max_diff > max_diff_limit */
    MC_COMPARE_FAIL_SSIM = 1u << 2,  /* ssim < min_ssim */
    MC_COMPARE_FAIL_PSNR = 1u << 3,  /* psnr < min_psnr */
    MC_COMPARE_FAIL_BLOCK = 1u << 4, /* block_psnr < min_block_psnr */
    MC_COMPARE_FAIL_BIAS = 1u << 5,  /* block_bias > max_block_bias */
};

typedef struct mc_compare_result {
    int max_diff;        /* 0..255, over R, G, B */
    int max_x, max_y;    /* first pixel (row-major) with max_diff; 0, 0 when identical */
    double mean_diff;    /* levels, over R, G, B samples */
    double psnr;         /* dB; INFINITY when identical */
    size_t over_pixels;  /* pixels whose max channel diff > threshold */
    double over_share;   /* over_pixels / (w * h) */
    double ssim;         /* mean SSIM of BT.709 luma; 1 when identical */
    double block_psnr;   /* dB: PSNR of the worst MC_COMPARE_BLOCK block; INFINITY when none
                            differs */
    int block_x, block_y; /* top left pixel of that block; 0, 0 when identical */
    double block_bias;   /* levels: the largest |mean(b - a)| of one channel over one block
                            (the blocks of block_psnr with at least a quarter of their pixels
                            compared); 0 when identical */
    int bias_x, bias_y;  /* top left pixel of that block */
    size_t compared;     /* pixels not masked out */
    bool pass;           /* fail == 0 */
    unsigned fail;       /* MC_COMPARE_FAIL_* bits */
} mc_compare_result;

/* The limits, declared once: every place that lists them (mc_compare_effective's defaults,
 * the fail bits, mc_compare_reasons, the limits line and the JSON of refcheck.h, the review
 * page and JUnit through them, the options of `md5cine compare` and `render --reference`, the
 * Python module's keywords) loops over this table, in this order. A new limit is one row here,
 * its field in mc_compare_opts and its bits above, and one function in compare.c that tells
 * whether a result breaks it and why (limit_<id>). MC_COMPARE_LIMITS(X, c) expands to
 * X(c, <columns>) for each row, c passed through as it is. Columns, one row each:
 *   id        the JSON key and the Python keyword ("max_diff"); compare.c's limit_<id>
 *   option    the command-line option ("--max-diff")
 *   label     its name in the limits line ("max diff")
 *   field     its mc_compare_opts field
 *   is_int    1: the field is an int, 0: a double
 *   set       its MC_COMPARE_SET_* bit
 *   fail      its MC_COMPARE_FAIL_* bit; 0 for a setting that fails nothing (the threshold)
 *   lossless, lossy  its defaults (compare.h's table above)
 *   off       the value that can never fail, which `off` sets and the limits line calls "off"
 *   sense     '<': the metric must stay at or under it; '>': at or over it; 0: a setting
 *   unit      after its value in the limits line, which shows value * scale as %.4g
 *   scale
 *   lo, hi, percent  what the option accepts besides `off`: lo..hi, a percentage when percent
 *   metavar, expect, help  the option's help */
#define MC_COMPARE_LIMITS(X, c)                                                                    \
    X(c, threshold, "--threshold", "threshold", threshold, 1, MC_COMPARE_SET_THRESHOLD, 0, 4,      \
      4, 255, 0, "", 1.0, 0, 255, 0, "N", "0..255 or off",                                         \
      "a pixel differs when a channel differs by more than N (default 4)")                         \
    X(c, max_failing_share, "--max-failing-share", "failing share", max_failing_share, 0,          \
      MC_COMPARE_SET_MAX_FAILING_SHARE, MC_COMPARE_FAIL_SHARE, 0.0001, 1.0, 1.0, '<', " %",        \
      100.0, 0, 1, 1, "P", "0..1, a percentage such as 0.05%, or off",                             \
      "fail when more than P of the pixels differ: a fraction, or a\n"                             \
      "percentage such as 0.05% (default 0.01%; off for video)")                                   \
    X(c, max_diff, "--max-diff", "max diff", max_diff_limit, 1, MC_COMPARE_SET_MAX_DIFF,           \
      MC_COMPARE_FAIL_MAX, 255, 255, 255, '<', "", 1.0, 0, 255, 0, "N", "0..255 or off",           \
      "fail when any channel differs by more than N (default off)")                                \
    X(c, min_ssim, "--min-ssim", "SSIM", min_ssim, 0, MC_COMPARE_SET_MIN_SSIM,                     \
      MC_COMPARE_FAIL_SSIM, 0.95, 0.95, -1.0, '>', "", 1.0, -1, 1, 0, "S", "-1..1 or off",         \
      "fail when luma SSIM < S (default 0.95)")                                                    \
    X(c, min_psnr, "--min-psnr", "PSNR", min_psnr, 0, MC_COMPARE_SET_MIN_PSNR,                     \
      MC_COMPARE_FAIL_PSNR, 0.0, 35.0, 0.0, '>', " dB", 1.0, 0, 1000, 0, "D",                      \
      "0..1000 (dB) or off", "fail when PSNR < D dB (default off; 35 for video)")                  \
    X(c, min_block_psnr, "--min-block-psnr", "block PSNR", min_block_psnr, 0,                      \
      MC_COMPARE_SET_MIN_BLOCK_PSNR, MC_COMPARE_FAIL_BLOCK, 0.0, 22.0, 0.0, '>', " dB", 1.0, 0,    \
      1000, 0, "D", "0..1000 (dB) or off",                                                         \
      "fail when the worst 16x16 block's PSNR < D dB (default off;\n"                              \
      "22 for video)")                                                                             \
    X(c, max_block_bias, "--max-block-bias", "block bias", max_block_bias, 0,                      \
      MC_COMPARE_SET_MAX_BLOCK_BIAS, MC_COMPARE_FAIL_BIAS, 255.0, 9.0, 255.0, '<', " levels",      \
      1.0, 0, 255, 0, "L", "0..255 (levels) or off",                                               \
      "fail when one channel's mean over a 16x16 block moved by more\n"                            \
      "than L levels (default off; 9 for video)")

/* One row of MC_COMPARE_LIMITS as data (the columns the library itself uses). */
typedef struct mc_compare_limit {
    const char *id, *option, *label;
    size_t field;       /* offsetof(mc_compare_opts, field) */
    bool is_int;
    unsigned set, fail;
    double lossless, lossy, off;
    int sense;          /* '<', '>' or 0, as the table's column */
    const char *unit;
    double scale;
} mc_compare_limit;

/* The rows of MC_COMPARE_LIMITS, in its order; *count receives how many. Static data. */
const mc_compare_limit *mc_compare_limits(size_t *count);

/* The value of limit l in o (an int field read as a double). */
double mc_compare_limit_get(const mc_compare_opts *o, const mc_compare_limit *l);

/* Whether limit l, as o holds it, can fail: a '<' limit below its off value, a '>' limit
 * above it (a setting such as the threshold: always true). */
bool mc_compare_limit_on(const mc_compare_opts *o, const mc_compare_limit *l);

/* The measured values, declared once: every output that shows a result's metrics (the table
 * and the JSON rows of refcheck.h, the JUnit lines and the review page of report.h, the Python
 * module's rows) loops over this table, in this order. A new metric is one row here, its field
 * in mc_compare_result and the code in compare.c that measures it. MC_COMPARE_METRICS(X, c)
 * expands to X(c, <columns>) for each row, c passed through as it is. Columns:
 *   id        the JSON key and the Python key ("max_diff")
 *   field     its mc_compare_result field
 *   is_int    1: the field is an int, 0: a double
 *   label     its name in the JUnit lines and on the review page ("max diff"), whose class
 *             attribute is id with '-' for '_' ("max-diff")
 *   heading, width  its column in the table (printed right-aligned, width characters)
 *   tprec, jprec, pprec  decimals in the table, the JSON, the JUnit lines and the page
 *   scale     the table, JUnit and the page show value * scale (100: a share in %); JSON the
 *             value itself
 *   unit      after the value in JUnit and on the page (" dB")
 *   at_key, at_x, at_y  the JSON key of the pixel or block where it was measured and its
 *             fields (MC_RESULT_AT offsets), " at (x, y)" in JUnit and on the page; NULL, 0, 0
 *             for none
 *   count_key, count  the JSON key of a pixel count written before it and its size_t field
 *             (MC_RESULT_AT), " (N px)" on the page; NULL, 0 for none
 * A value that is not measured (a missing, unreadable or wrong-size frame) is JSON null, with
 * its at and count, and is not shown elsewhere; an infinite one (PSNR of identical pixels) is
 * null in JSON, its at too, and "inf" (without unit) elsewhere. */
#define MC_RESULT_AT(f) offsetof(mc_compare_result, f)
#define MC_COMPARE_METRICS(X, c)                                                                   \
    X(c, max_diff, max_diff, 1, "max diff", "max", 5, 0, 0, 0, 1.0, "", "max_at",                  \
      MC_RESULT_AT(max_x), MC_RESULT_AT(max_y), NULL, 0)                                           \
    X(c, mean_diff, mean_diff, 0, "mean diff", "mean", 8, 3, 6, 3, 1.0, "", NULL, 0, 0, NULL, 0)   \
    X(c, psnr, psnr, 0, "PSNR", "PSNR", 8, 2, 4, 2, 1.0, " dB", NULL, 0, 0, NULL, 0)               \
    X(c, over_share, over_share, 0, "failing share", "%over", 8, 3, 8, 4, 100.0, " %", NULL, 0,    \
      0, "over_pixels", MC_RESULT_AT(over_pixels))                                                 \
    X(c, ssim, ssim, 0, "SSIM", "SSIM", 8, 5, 6, 5, 1.0, "", NULL, 0, 0, NULL, 0)                  \
    X(c, block_psnr, block_psnr, 0, "block PSNR", "blk PSNR", 8, 2, 4, 2, 1.0, " dB", "block_at", \
      MC_RESULT_AT(block_x), MC_RESULT_AT(block_y), NULL, 0)                                       \
    X(c, block_bias, block_bias, 0, "block bias", "blk bias", 8, 2, 4, 2, 1.0, " levels",          \
      "bias_at", MC_RESULT_AT(bias_x), MC_RESULT_AT(bias_y), NULL, 0)

/* One row of MC_COMPARE_METRICS as data. */
typedef struct mc_compare_metric {
    const char *id, *label, *heading;
    size_t field;   /* offsetof(mc_compare_result, field) */
    bool is_int;
    int width, tprec, jprec, pprec;
    double scale;
    const char *unit;
    const char *at_key;  /* NULL: none */
    size_t at_x, at_y;   /* int fields */
    const char *count_key; /* NULL: none */
    size_t count;        /* a size_t field */
} mc_compare_metric;

/* The rows of MC_COMPARE_METRICS, in its order; *count receives how many. Static data. */
const mc_compare_metric *mc_compare_metrics(size_t *count);

/* The value of metric m in r (an int field read as a double; not scaled). */
double mc_compare_metric_get(const mc_compare_result *r, const mc_compare_metric *m);

/* How an output writes a metric's value (mc_compare_metric_format). */
typedef enum mc_compare_style {
    MC_COMPARE_STYLE_TABLE, /* value * scale with tprec decimals; "inf" */
    MC_COMPARE_STYLE_JSON,  /* the value with jprec decimals; "null" when infinite */
    MC_COMPARE_STYLE_PROSE, /* value * scale with pprec decimals and the unit; "inf" */
} mc_compare_style;

/* Writes metric m of r as style says into buf: the value only (no at, no count). Always
 * NUL-terminates (cap >= 1). */
void mc_compare_metric_format(const mc_compare_result *r, const mc_compare_metric *m,
                              mc_compare_style style, char *buf, size_t cap);

/* Where metric m of r was measured (at_x, at_y); false when m has no at_key. */
bool mc_compare_metric_at(const mc_compare_result *r, const mc_compare_metric *m, int *x,
                          int *y);

/* Side of the square blocks of block_psnr, on a grid from the top left pixel (the blocks of
 * the last column and row may be narrower). */
#define MC_COMPARE_BLOCK 16

/* A rectangle of pixels: top left (x, y), w x h. */
typedef struct mc_compare_rect {
    int x, y, w, h;
} mc_compare_rect;

/* Scratch memory for mc_compare_rgba, reused across calls so that a frame loop allocates only
 * when the frame width grows. Zero-initialise; release with mc_compare_work_release. */
typedef struct mc_compare_work {
    double *buf;
    size_t cap; /* doubles in buf */
} mc_compare_work;

/* Frees the scratch memory; the struct is zeroed and reusable. NULL is allowed. */
void mc_compare_work_release(mc_compare_work *work);

/* The limits that apply: the fields of opts (NULL = zeroed) named in opts->set, the defaults of
 * the mode for the rest; out->set is MC_COMPARE_SET_ALL and out->diff_gain is filled. out may
 * be opts. */
void mc_compare_effective(const mc_compare_opts *opts, mc_compare_opts *out);

/* Compares frame b (candidate) against frame a (reference), both w x h RGBA, top row first,
 * rows stride_a / stride_b bytes apart (>= 4 * w), and fills *out. opts may be NULL (lossless
 * defaults). work may be NULL: the function then allocates its scratch memory (about
 * 70 * w doubles) and frees it before returning. Errors: MC_ERR_USAGE (w or h < 1, a stride
 * below 4 * w, a NULL buffer), MC_ERR_NOMEM; *out is then zeroed. */
mc_status mc_compare_rgba(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, const mc_compare_opts *opts, mc_compare_work *work,
                          mc_compare_result *out, mc_error *err);

/* One block of the grid block_psnr and block_bias are measured on (mc_compare_blocks). */
typedef struct mc_compare_block {
    double psnr;  /* dB over the block's compared R, G, B samples; INFINITY when they are
                     identical or none is compared */
    double bias;  /* the largest |mean(b - a)| of one channel; 0 when under a quarter of the
                     block's pixels are compared (block_bias skips such blocks too) */
    double mean;  /* mean(b - a) over its compared R, G, B samples: > 0 brighter in b */
    int compared; /* pixels not masked out */
} mc_compare_block;

/* The values of every block of a against b, w x h RGBA as for mc_compare_rgba, into out:
 * ceil(w / MC_COMPARE_BLOCK) * ceil(h / MC_COMPARE_BLOCK) entries, row-major. They are the
 * values block_psnr and block_bias take their worst of: the lowest psnr here is block_psnr,
 * the largest bias block_bias. mask as opts.mask (NULL: none). Does nothing when w or h < 1
 * or a buffer is NULL. */
void mc_compare_blocks(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                       int w, int h, const uint8_t *mask, mc_compare_block *out);

/* Writes the failed limits of r as one line into buf ("ssim 0.9812 < 0.995; 0.21% of pixels
 * differ by more than 4 > 0.05%"), "" when r passed. Always NUL-terminates (cap >= 1); the
 * line is cut if buf is short. opts as for mc_compare_rgba. */
void mc_compare_reasons(const mc_compare_result *r, const mc_compare_opts *opts, char *buf,
                        size_t cap);

/* The difference picture of a (reference) and b: a faded grey copy of a's luma
 * (grey = 128 + Y / 4) under red whose strength is (max channel diff) * gain / 255, capped
 * at 1; a pixel over the threshold is at least half red so that a single one stands out.
 * out receives w x h opaque RGBA, rows out_stride bytes apart (>= 4 * w), owned by the caller.
 * opts as for mc_compare_rgba (threshold and diff_gain are used). Does nothing when w or h
 * < 1 or a buffer is NULL. */
void mc_compare_diff_image(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                           int w, int h, const mc_compare_opts *opts, uint8_t *out,
                           size_t out_stride);

#ifdef __cplusplus
}
#endif

#endif
