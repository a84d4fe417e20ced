/* Frame comparison metrics, limits and diff image (compare.c), and frame sources: PNG files,
 * numbered folders and videos (frames_in.c). Expected values are worked out by hand in the
 * comments, or come from the literal SSIM implementation below, written from the definition
 * in Wang et al. 2004 independently of compare.c's separable, row-ring version. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/compare.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>

#include "compare_scene.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static uint8_t *alloc_frame(int w, int h)
{
    return calloc((size_t)w * (size_t)h, 4);
}

static void fill(uint8_t *px, int w, int h, uint8_t r, uint8_t g, uint8_t b)
{
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        px[4 * i] = r;
        px[4 * i + 1] = g;
        px[4 * i + 2] = b;
        px[4 * i + 3] = 255;
    }
}

/* Compares two scenes w x h with the given options. */
static mc_compare_result compare_scenes(const scene_desc *da, const scene_desc *db,
                                        const mc_compare_opts *opts)
{
    uint8_t *a = alloc_frame(da->w, da->h), *b = alloc_frame(db->w, db->h);
    mc_compare_result r = { 0 };
    mc_error err;

    if (!a || !b) {
        test_fail(__FILE__, __LINE__, "out of memory");
    } else {
        scene_draw(da, a);
        scene_draw(db, b);
        EXPECT_OK(mc_compare_rgba(a, (size_t)da->w * 4, b, (size_t)db->w * 4, da->w, da->h,
                                  opts, NULL, &r, &err),
                  &err);
    }
    free(a);
    free(b);
    return r;
}

static double luma(const uint8_t *p)
{
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/* SSIM straight from the definition: for every 11x11 window inside the image, the Gaussian
 * weighted (sigma 1.5, weights summing to 1) means, variances (two-pass, around the mean) and
 * covariance of the luma, the SSIM formula, and the plain mean over windows. */
static double literal_ssim(const uint8_t *a, const uint8_t *b, int w, int h)
{
    const double c1 = 6.5025, c2 = 58.5225; /* (0.01*255)^2, (0.03*255)^2 */
    double wt[11][11], wsum = 0.0, total = 0.0;
    long windows = 0;

    for (int i = 0; i < 11; i++)
        for (int j = 0; j < 11; j++) {
            wt[i][j] = exp(-((i - 5) * (i - 5) + (j - 5) * (j - 5)) / (2.0 * 1.5 * 1.5));
            wsum += wt[i][j];
        }
    for (int i = 0; i < 11; i++)
        for (int j = 0; j < 11; j++)
            wt[i][j] /= wsum;
    for (int y0 = 0; y0 + 11 <= h; y0++) {
        for (int x0 = 0; x0 + 11 <= w; x0++) {
            double ma = 0, mb = 0, va = 0, vb = 0, cov = 0;
            for (int i = 0; i < 11; i++)
                for (int j = 0; j < 11; j++) {
                    size_t o = ((size_t)(y0 + i) * (size_t)w + (size_t)(x0 + j)) * 4;
                    ma += wt[i][j] * luma(a + o);
                    mb += wt[i][j] * luma(b + o);
                }
            for (int i = 0; i < 11; i++)
                for (int j = 0; j < 11; j++) {
                    size_t o = ((size_t)(y0 + i) * (size_t)w + (size_t)(x0 + j)) * 4;
                    double da = luma(a + o) - ma, db = luma(b + o) - mb;
                    va += wt[i][j] * da * da;
                    vb += wt[i][j] * db * db;
                    cov += wt[i][j] * da * db;
                }
            total += (2 * ma * mb + c1) * (2 * cov + c2) /
                     ((ma * ma + mb * mb + c1) * (va + vb + c2));
            windows++;
        }
    }
    return total / (double)windows;
}

/* ---- metrics ---------------------------------------------------------------------------- */

/* 4x4 frames, one channel of one pixel 10 levels apart. 48 samples, squared error 100:
 * MSE = 100/48 = 2.08333, PSNR = 10 log10(255^2 * 48 / 100) = 10 log10(31212) = 44.94322 dB.
 * mean |diff| = 10/48 = 0.208333; 1 of 16 pixels differs by more than 4. */
TEST(psnr_of_one_channel_off_by_ten_matches_hand_value)
{
    uint8_t a[4 * 4 * 4], b[4 * 4 * 4];
    mc_compare_result r;
    mc_error err;

    fill(a, 4, 4, 60, 120, 180);
    fill(b, 4, 4, 60, 120, 180);
    b[(2 * 4 + 1) * 4 + 1] = 130; /* pixel (1, 2), green */
    ASSERT_OK(mc_compare_rgba(a, 16, b, 16, 4, 4, NULL, NULL, &r, &err), &err);
    EXPECT_NEAR(r.psnr, 44.94321598, 1e-6);
    EXPECT_EQ_INT(r.max_diff, 10);
    EXPECT_EQ_INT(r.max_x, 1);
    EXPECT_EQ_INT(r.max_y, 2);
    EXPECT_NEAR(r.mean_diff, 10.0 / 48.0, 1e-12);
    EXPECT_EQ_INT(r.over_pixels, 1);
    EXPECT_NEAR(r.over_share, 1.0 / 16.0, 1e-12);
    EXPECT(!r.pass); /* 6.25 % of the pixels over the threshold */
    EXPECT(r.fail & MC_COMPARE_FAIL_SHARE);
}

TEST(identical_frames_give_infinite_psnr_and_ssim_one)
{
    scene_desc d = scene_default(96, 64);
    mc_compare_result r = compare_scenes(&d, &d, NULL);

    EXPECT(isinf(r.psnr) && r.psnr > 0);
    EXPECT_NEAR(r.ssim, 1.0, 1e-12);
    EXPECT_EQ_INT(r.max_diff, 0);
    EXPECT_NEAR(r.mean_diff, 0.0, 0.0);
    EXPECT(r.pass);
    EXPECT_EQ_INT(r.fail, 0);
}

/* Two constant grey frames a and b: every window has zero variance and covariance, so the
 * structure term is C2/C2 = 1 and SSIM = (2ab + C1) / (a^2 + b^2 + C1), C1 = 6.5025.
 * a = 100, b = 120: 24006.5025 / 24406.5025 = 0.983610925. a = 50, b = 60: 6006.5025 /
 * 6106.5025 = 0.983624014. Grey has luma = the grey level (the weights sum to 1). Checked on a
 * frame smaller than the window (one uniform window) and a larger one (Gaussian windows). */
TEST(ssim_of_constant_frames_matches_closed_form)
{
    static const int sizes[][2] = { { 4, 4 }, { 32, 24 } };
    uint8_t *a = alloc_frame(32, 24), *b = alloc_frame(32, 24);
    mc_compare_result r;
    mc_error err;

    ASSERT(a && b);
    for (size_t i = 0; i < 2; i++) {
        int w = sizes[i][0], h = sizes[i][1];
        fill(a, w, h, 100, 100, 100);
        fill(b, w, h, 120, 120, 120);
        EXPECT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r,
                                  &err),
                  &err);
        EXPECT_NEAR(r.ssim, 0.9836109250, 1e-9);
        fill(a, w, h, 50, 50, 50);
        fill(b, w, h, 60, 60, 60);
        EXPECT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r,
                                  &err),
                  &err);
        EXPECT_NEAR(r.ssim, 0.9836240139, 1e-9);
    }
    free(a);
    free(b);
}

/* A render-like frame against a brightness-shifted copy (+12, clipped) and a copy with +-6
 * noise: compare.c must agree with the literal implementation. 37x29 is not a multiple of
 * anything, so the window edges are exercised. */
TEST(ssim_matches_literal_reference_on_shifted_and_noisy_copies)
{
    const int w = 37, h = 29;
    scene_desc d = scene_default(w, h), dn = d;
    uint8_t *a = alloc_frame(w, h), *b = alloc_frame(w, h);
    mc_compare_result r;
    mc_error err;

    ASSERT(a && b);
    scene_draw(&d, a);
    for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++)
        b[i] = (i % 4 == 3) ? 255 : (uint8_t)(a[i] > 243 ? 255 : a[i] + 12);
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r, &err),
              &err);
    EXPECT_NEAR(r.ssim, literal_ssim(a, b, w, h), 1e-9);
    EXPECT(r.ssim < 0.999);

    dn.noise = 6;
    scene_draw(&dn, b);
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r, &err),
              &err);
    EXPECT_NEAR(r.ssim, literal_ssim(a, b, w, h), 1e-9);
    EXPECT(r.ssim < 0.99);
    free(a);
    free(b);
}

/* Strides wider than the rows (padding bytes hold garbage) give the same result. */
TEST(padded_rows_give_the_same_metrics)
{
    const int w = 40, h = 30;
    size_t stride = (size_t)w * 4 + 12;
    scene_desc d = scene_default(w, h), dm = d;
    uint8_t *a = alloc_frame(w, h), *b = alloc_frame(w, h);
    uint8_t *pa = malloc(stride * (size_t)h), *pb = malloc(stride * (size_t)h);
    mc_compare_result r1, r2;
    mc_error err;

    ASSERT(a && b && pa && pb);
    dm.ball_dx = 1.0f;
    scene_draw(&d, a);
    scene_draw(&dm, b);
    memset(pa, 0xAB, stride * (size_t)h);
    memset(pb, 0x11, stride * (size_t)h);
    for (int y = 0; y < h; y++) {
        memcpy(pa + (size_t)y * stride, a + (size_t)y * (size_t)w * 4, (size_t)w * 4);
        memcpy(pb + (size_t)y * stride, b + (size_t)y * (size_t)w * 4, (size_t)w * 4);
    }
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r1, &err),
              &err);
    ASSERT_OK(mc_compare_rgba(pa, stride, pb, stride, w, h, NULL, NULL, &r2, &err), &err);
    EXPECT_NEAR(r1.ssim, r2.ssim, 0.0);
    EXPECT_NEAR(r1.psnr, r2.psnr, 0.0);
    EXPECT_EQ_INT(r1.over_pixels, r2.over_pixels);
    EXPECT(r1.max_diff > 0);
    free(a);
    free(b);
    free(pa);
    free(pb);
}

/* ---- default limits --------------------------------------------------------------------- */

/* What llvmpipe on another machine may do: +-2 on every channel of every pixel, or up to 3
 * levels on scattered pixels. Nothing exceeds 4 levels, so no pixel is "over". */
TEST(small_noise_passes_the_default_limits)
{
    static const int sizes[][2] = { { 320, 240 }, { 1280, 720 } };

    for (size_t i = 0; i < 2; i++) {
        scene_desc a = scene_default(sizes[i][0], sizes[i][1]), b = a, c = a;
        mc_compare_result r;
        b.noise = 2;
        r = compare_scenes(&a, &b, NULL);
        EXPECT(r.pass);
        EXPECT_EQ_INT(r.max_diff, 2);
        EXPECT_EQ_INT(r.over_pixels, 0);
        c.sparse = 3;
        r = compare_scenes(&a, &c, NULL);
        EXPECT(r.pass);
        EXPECT_EQ_INT(r.max_diff, 3);
    }
}

TEST(limb_moved_by_one_pixel_fails)
{
    static const int sizes[][2] = { { 320, 240 }, { 1280, 720 } };

    for (size_t i = 0; i < 2; i++) {
        scene_desc a = scene_default(sizes[i][0], sizes[i][1]), b = a;
        mc_compare_result r;
        b.limb_dx = 1.0f;
        r = compare_scenes(&a, &b, NULL);
        EXPECT(!r.pass);
        EXPECT(r.fail & MC_COMPARE_FAIL_SHARE);
        EXPECT(r.max_diff > 40);
    }
}

/* A thin limb (1.6 % of the height wide, 8 % long) moved by one pixel at 1280x720. */
TEST(thin_limb_moved_by_one_pixel_fails)
{
    scene_desc a = scene_default(1280, 720), b;
    mc_compare_result r;

    a.limb_y1 = a.limb_y0 + 0.08f;
    a.limb_x1 = a.limb_x0 + 0.02f;
    a.limb_half = 0.008f;
    b = a;
    b.limb_dx = 1.0f;
    r = compare_scenes(&a, &b, NULL);
    EXPECT(!r.pass);
    EXPECT(r.over_pixels > 92); /* 0.01 % of 921600 */
}

/* The next frame of an animation in place of this one: the ball and the limb's end moved by
 * 1 % of the height. */
TEST(swapped_frame_fails)
{
    scene_desc a = scene_default(640, 360), b = a;
    mc_compare_result r;

    b.ball_x += 0.01f;
    b.limb_x1 += 0.01f;
    r = compare_scenes(&a, &b, NULL);
    EXPECT(!r.pass);
    EXPECT(r.over_share > 0.01);
}

/* The limb recoloured by 20 levels in red and blue: SSIM hardly moves (luma changes by
 * 0.2126*20 - 0.0722*20 = 2.8 levels times the shading), so the per-pixel share must catch it. */
TEST(changed_colour_of_one_region_fails)
{
    scene_desc a = scene_default(640, 360), b = a;
    mc_compare_result r;

    b.limb_rgb[0] = 110;
    b.limb_rgb[2] = 190;
    r = compare_scenes(&a, &b, NULL);
    EXPECT(!r.pass);
    EXPECT(r.fail & MC_COMPARE_FAIL_SHARE);
    EXPECT(r.ssim > 0.999);
}

/* +5 on every channel of the left half of a 64x48 scene (no value clips: the scene stays
 * below 201). Squared error 25 on half the samples: MSE = 12.5,
 * PSNR = 10 log10(65025 / 12.5) = 10 log10(5202) = 37.16170 dB. Lossless: half the pixels are over 4 -> fail;
 * lossy: PSNR >= 35 and SSIM >= 0.95 -> pass. */
TEST(lossy_limits_judge_by_psnr_not_per_pixel)
{
    const int w = 64, h = 48;
    scene_desc d = scene_default(w, h);
    uint8_t *a = alloc_frame(w, h), *b = alloc_frame(w, h);
    mc_compare_opts lossy = { .lossy = true };
    mc_compare_result r;
    mc_error err;

    ASSERT(a && b);
    scene_draw(&d, a);
    memcpy(b, a, (size_t)w * (size_t)h * 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w / 2; x++)
            for (int c = 0; c < 3; c++)
                b[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c] += 5;
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, NULL, &r, &err),
              &err);
    EXPECT_NEAR(r.psnr, 37.16170, 1e-4);
    EXPECT(!r.pass);
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, &lossy, NULL, &r, &err),
              &err);
    EXPECT(r.pass);
    lossy.min_psnr = 38.0;
    lossy.set = MC_COMPARE_SET_MIN_PSNR;
    ASSERT_OK(mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, &lossy, NULL, &r, &err),
              &err);
    EXPECT_EQ_INT(r.fail, MC_COMPARE_FAIL_PSNR);
    free(a);
    free(b);
}

TEST(explicit_limits_replace_the_defaults)
{
    mc_compare_opts o = { 0 }, e;
    uint8_t a[4 * 4 * 4], b[4 * 4 * 4];
    mc_compare_result r;
    mc_error err;

    mc_compare_effective(NULL, &e);
    EXPECT_EQ_INT(e.threshold, 4);
    EXPECT_NEAR(e.max_failing_share, 0.0001, 0.0);
    EXPECT_NEAR(e.min_ssim, 0.95, 0.0);
    EXPECT_NEAR(e.min_psnr, 0.0, 0.0);
    EXPECT_EQ_INT(e.max_diff_limit, 255);
    EXPECT_EQ_INT(e.set, MC_COMPARE_SET_ALL);
    o.lossy = true;
    mc_compare_effective(&o, &e);
    EXPECT_NEAR(e.min_psnr, 35.0, 0.0);
    EXPECT_NEAR(e.max_failing_share, 1.0, 0.0);
    /* In place: the given fields survive (the CLI resolves its options this way). */
    o = (mc_compare_opts){ .set = MC_COMPARE_SET_MIN_SSIM, .min_ssim = 0.5 };
    mc_compare_effective(&o, &o);
    EXPECT_NEAR(o.min_ssim, 0.5, 0.0);
    EXPECT_EQ_INT(o.threshold, 4);
    /* threshold 0 and share 0: a single 1-level difference fails; without the set bits the
     * same zeros mean "default" and it passes. */
    fill(a, 4, 4, 10, 20, 30);
    fill(b, 4, 4, 10, 20, 30);
    b[0] = 11;
    o = (mc_compare_opts){ .threshold = 0, .max_failing_share = 0.0 };
    ASSERT_OK(mc_compare_rgba(a, 16, b, 16, 4, 4, &o, NULL, &r, &err), &err);
    EXPECT(r.pass);
    o.set = MC_COMPARE_SET_THRESHOLD | MC_COMPARE_SET_MAX_FAILING_SHARE;
    ASSERT_OK(mc_compare_rgba(a, 16, b, 16, 4, 4, &o, NULL, &r, &err), &err);
    EXPECT(!r.pass);
    EXPECT_EQ_INT(r.over_pixels, 1);
    o = (mc_compare_opts){ .set = MC_COMPARE_SET_MAX_DIFF, .max_diff_limit = 0 };
    ASSERT_OK(mc_compare_rgba(a, 16, b, 16, 4, 4, &o, NULL, &r, &err), &err);
    EXPECT_EQ_INT(r.fail, MC_COMPARE_FAIL_MAX);
}

TEST(reasons_name_every_failed_limit)
{
    mc_compare_result r = { 0 };
    mc_compare_opts o = { .lossy = true };
    char buf[256], tiny[8];

    r.fail = MC_COMPARE_FAIL_SSIM | MC_COMPARE_FAIL_PSNR;
    r.ssim = 0.9;
    r.psnr = 30.5;
    mc_compare_reasons(&r, &o, buf, sizeof buf);
    EXPECT_EQ_STR(buf, "ssim 0.90000 < 0.95; psnr 30.50 dB < 35 dB");
    r.fail = MC_COMPARE_FAIL_SHARE;
    r.over_share = 0.0021;
    mc_compare_reasons(&r, NULL, buf, sizeof buf);
    EXPECT_EQ_STR(buf, "0.21% of pixels differ by more than 4 > 0.01%");
    mc_compare_reasons(&r, NULL, tiny, sizeof tiny);
    EXPECT_EQ_STR(tiny, "0.21% o");
    r.fail = 0;
    mc_compare_reasons(&r, NULL, buf, sizeof buf);
    EXPECT_EQ_STR(buf, "");
}

/* Reference pixel (100, 100, 100): luma 100, faded grey 128 + 100/4 = 153. Where b equals a
 * the picture is (153, 153, 153). Where one channel differs by 10 with gain 16:
 * t = 160/255 = 0.62745, red = 153 + (255 - 153) t = 217.0, green = blue = 153 (1 - t) = 57.0.
 * A 2-level difference (under the threshold): t = 32/255 = 0.12549, red = 165.8 -> 166,
 * green = 133.8 -> 134. */
TEST(diff_image_marks_differences_in_red_over_grey)
{
    uint8_t a[4 * 2 * 4], b[4 * 2 * 4], out[4 * 2 * 4 + 8];

    fill(a, 4, 2, 100, 100, 100);
    fill(b, 4, 2, 100, 100, 100);
    b[1 * 4 + 2] = 110; /* pixel (1, 0), blue */
    b[6 * 4 + 0] = 98;  /* pixel (2, 1), red */
    memset(out, 0x5A, sizeof out);
    mc_compare_diff_image(a, 16, b, 16, 4, 2, NULL, out, 20);
    EXPECT_EQ_INT(out[0], 153);
    EXPECT_EQ_INT(out[1], 153);
    EXPECT_EQ_INT(out[3], 255);
    EXPECT_EQ_INT(out[4], 217);
    EXPECT_EQ_INT(out[5], 57);
    EXPECT_EQ_INT(out[6], 57);
    EXPECT_EQ_INT(out[16], 0x5A); /* the row padding is left alone */
    EXPECT_EQ_INT(out[20 + 8], 166);
    EXPECT_EQ_INT(out[20 + 9], 134);
}

TEST(workspace_is_reused_with_the_same_results)
{
    mc_compare_work work = { 0 };
    scene_desc a = scene_default(120, 80), b = a;
    uint8_t *pa = alloc_frame(120, 80), *pb = alloc_frame(120, 80);
    mc_compare_result r1, r2;
    mc_error err;

    ASSERT(pa && pb);
    b.ball_dx = 1.0f;
    scene_draw(&a, pa);
    scene_draw(&b, pb);
    for (int w = 60; w <= 120; w += 60) {
        ASSERT_OK(mc_compare_rgba(pa, 480, pb, 480, w, 80, NULL, NULL, &r1, &err), &err);
        ASSERT_OK(mc_compare_rgba(pa, 480, pb, 480, w, 80, NULL, &work, &r2, &err), &err);
        EXPECT_NEAR(r1.ssim, r2.ssim, 0.0);
        EXPECT(work.cap > 0);
    }
    mc_compare_work_release(&work);
    EXPECT(work.buf == NULL && work.cap == 0);
    free(pa);
    free(pb);
}

TEST(rejects_empty_frames_and_short_strides)
{
    uint8_t a[16] = { 0 };
    mc_compare_result r;
    mc_error err;

    EXPECT_EQ_INT(mc_compare_rgba(a, 16, a, 16, 0, 1, NULL, NULL, &r, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "0x1");
    EXPECT_EQ_INT(mc_compare_rgba(a, 12, a, 16, 4, 1, NULL, NULL, &r, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_compare_rgba(NULL, 16, a, 16, 4, 1, NULL, NULL, &r, &err), MC_ERR_USAGE);
}

/* ---- frame sources ---------------------------------------------------------------------- */

static bool write_grey_png(const char *path, int w, int h, uint8_t v)
{
    uint8_t *px = alloc_frame(w, h);
    mc_error err;
    mc_status st;

    if (!px)
        return false;
    fill(px, w, h, v, v, v);
    st = mc_png_write(path, px, w, h, (size_t)w * 4, 0, &err);
    free(px);
    return st == MC_OK;
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;

    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        test_fail(__FILE__, __LINE__, "cannot create %s", path);
}

/* Frames 3, 1 and 2 (as "shot.00002.png") written out of order; "cover.png" has no number and
 * "notes.txt" is no PNG: both are ignored. Frame n is grey 10 n. */
TEST(folder_frames_come_sorted_by_number)
{
    char dir[512], path[600];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;
    size_t idx;

    make_dir(test_tmp_path(dir, sizeof dir, "folder"));
    snprintf(path, sizeof path, "%s/00003.png", dir);
    ASSERT(write_grey_png(path, 8, 6, 30));
    snprintf(path, sizeof path, "%s/00001.png", dir);
    ASSERT(write_grey_png(path, 8, 6, 10));
    snprintf(path, sizeof path, "%s/shot.00002.png", dir);
    ASSERT(write_grey_png(path, 8, 6, 20));
    snprintf(path, sizeof path, "%s/cover.png", dir);
    ASSERT(write_grey_png(path, 8, 6, 99));
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    ASSERT(write_text(path, "7"));
    ASSERT_OK(mc_frames_open(dir, &src, &err), &err);
    EXPECT_EQ_INT(mc_frames_kind_of(src), MC_FRAMES_FOLDER);
    EXPECT_EQ_INT(mc_frames_count(src), 3);
    for (size_t i = 0; i < 3; i++) {
        EXPECT_EQ_INT(mc_frames_number(src, i), (long)i + 1);
        EXPECT_OK(mc_frames_read(src, i, &f, &err), &err);
        EXPECT_EQ_INT(f.width, 8);
        EXPECT_EQ_INT(f.height, 6);
        EXPECT_EQ_INT(f.rgba ? f.rgba[4 * 7 + 1] : 0, 10 * ((int)i + 1));
        EXPECT_EQ_INT(f.number, (long)i + 1);
    }
    EXPECT_CONTAINS(f.name, "00003.png");
    EXPECT(mc_frames_find(src, 2, &idx) && idx == 1);
    EXPECT(!mc_frames_find(src, 4, &idx));
    EXPECT_EQ_INT(mc_frames_number(src, 3), -1);
    EXPECT_EQ_INT(mc_frames_read(src, 3, &f, &err), MC_ERR_USAGE);
    mc_frames_release(src);
}

TEST(single_png_takes_the_number_in_its_name)
{
    char path[512];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;

    ASSERT(write_grey_png(test_tmp_path(path, sizeof path, "frame_00017.png"), 3, 2, 77));
    ASSERT_OK(mc_frames_open(path, &src, &err), &err);
    EXPECT_EQ_INT(mc_frames_kind_of(src), MC_FRAMES_IMAGE);
    EXPECT_EQ_INT(mc_frames_count(src), 1);
    EXPECT_EQ_INT(mc_frames_number(src, 0), 17);
    ASSERT_OK(mc_frames_read(src, 0, &f, &err), &err);
    EXPECT_EQ_INT(f.rgba[0], 77);
    EXPECT_EQ_INT(f.number, 17);
    mc_frames_release(src);
}

TEST(missing_path_is_an_io_error_naming_it)
{
    mc_frames_in *src = (mc_frames_in *)1;
    mc_error err;

    EXPECT_EQ_INT(mc_frames_open("data/compare/no-such-folder", &src, &err), MC_ERR_IO);
    EXPECT(src == NULL);
    EXPECT_CONTAINS(err.msg, "'data/compare/no-such-folder'");
    EXPECT_EQ_STR(err.file, "data/compare/no-such-folder");
}

TEST(folder_without_numbered_png_is_an_error_naming_it)
{
    char dir[512], path[600];
    mc_frames_in *src;
    mc_error err;

    make_dir(test_tmp_path(dir, sizeof dir, "nopng"));
    snprintf(path, sizeof path, "%s/readme.txt", dir);
    ASSERT(write_text(path, "no frames here"));
    EXPECT_EQ_INT(mc_frames_open(dir, &src, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, dir);
    EXPECT_CONTAINS(err.msg, "no numbered PNG");
}

TEST(two_files_with_one_number_are_rejected)
{
    char dir[512], path[600];
    mc_frames_in *src;
    mc_error err;

    make_dir(test_tmp_path(dir, sizeof dir, "dupes"));
    snprintf(path, sizeof path, "%s/a_0005.png", dir);
    ASSERT(write_grey_png(path, 2, 2, 1));
    snprintf(path, sizeof path, "%s/b_005.png", dir);
    ASSERT(write_grey_png(path, 2, 2, 1));
    EXPECT_EQ_INT(mc_frames_open(dir, &src, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "both hold frame 5");
}

/* The first 40 bytes of a valid PNG: the signature and IHDR but no pixel data. */
TEST(truncated_png_is_an_image_error_naming_it)
{
    char path[512];
    mc_png_buf png = { 0 };
    uint8_t px[16 * 16 * 4];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;
    FILE *fp;

    fill(px, 16, 16, 1, 2, 3);
    ASSERT_OK(mc_png_encode(px, 16, 16, 64, 0, &png, &err), &err);
    fp = fopen(test_tmp_path(path, sizeof path, "cut_00001.png"), "wb");
    ASSERT(fp);
    EXPECT_EQ_INT(fwrite(png.data, 1, 40, fp), 40);
    fclose(fp);
    mc_png_buf_release(&png);
    ASSERT_OK(mc_frames_open(path, &src, &err), &err);
    EXPECT_EQ_INT(mc_frames_read(src, 0, &f, &err), MC_ERR_IMAGE);
    EXPECT_CONTAINS(err.msg, path);
    mc_frames_release(src);
}

/* A hand-written yuv4mpeg2 file: 16x8, 3 frames, 4:2:0, no colour tags -> BT.709 limited.
 * Frame k: the top 4 rows Y = 180 - 20 k, the bottom 4 rows Y = 50; U = 100, V = 160 all over.
 * BT.709 limited range: R = 1.164384 (Y-16) + 1.792741 (V-128),
 * G = 1.164384 (Y-16) - 0.213249 (U-128) - 0.532909 (V-128), B = 1.164384 (Y-16) + 2.112402 (U-128).
 * Frame 0 top: 1.164384 * 164 = 190.959: R = 248.33, G = 179.88, B = 131.81.
 * Frame 2 top: Y = 140, 1.164384 * 124 = 144.384: R = 201.75, G = 133.30, B = 85.24.
 * Bottom: 1.164384 * 34 = 39.589: R = 96.96, B = -19.6 -> 0.
 * (BT.601 would give frame 0 top R = 242.0, so +-2 tells the matrices apart.)
 * With XCOLORRANGE=FULL and Y = 180: R = 180 + 1.5748 * 32 = 230.39. */
static bool write_y4m(const char *path, int frames, const char *extra)
{
    FILE *f = fopen(path, "wb");
    uint8_t y[16 * 8], uv[8 * 4];
    bool ok = f != NULL;

    if (!f)
        return false;
    fprintf(f, "YUV4MPEG2 W16 H8 F25:1 Ip A1:1 C420jpeg%s\n", extra);
    for (int k = 0; k < frames; k++) {
        memset(y, 180 - 20 * k, 16 * 4);
        memset(y + 16 * 4, 50, 16 * 4);
        fputs("FRAME\n", f);
        ok = ok && fwrite(y, 1, sizeof y, f) == sizeof y;
        memset(uv, 100, sizeof uv);
        ok = ok && fwrite(uv, 1, sizeof uv, f) == sizeof uv;
        memset(uv, 160, sizeof uv);
        ok = ok && fwrite(uv, 1, sizeof uv, f) == sizeof uv;
    }
    return fclose(f) == 0 && ok;
}

TEST(y4m_video_decodes_as_bt709_limited_top_row_first)
{
    char path[512];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;

    ASSERT(write_y4m(test_tmp_path(path, sizeof path, "three.y4m"), 3, ""));
    ASSERT_OK(mc_frames_open(path, &src, &err), &err);
    EXPECT_EQ_INT(mc_frames_kind_of(src), MC_FRAMES_VIDEO);
    EXPECT_EQ_INT(mc_frames_count(src), 3);
    EXPECT_EQ_INT(mc_frames_number(src, 2), 2);
    ASSERT_OK(mc_frames_read(src, 0, &f, &err), &err);
    EXPECT_EQ_INT(f.width, 16);
    EXPECT_EQ_INT(f.height, 8);
    EXPECT_NEAR(f.rgba[0], 248.33, 2.0);
    EXPECT_NEAR(f.rgba[1], 179.88, 2.0);
    EXPECT_NEAR(f.rgba[2], 131.81, 2.0);
    EXPECT_EQ_INT(f.rgba[3], 255);
    EXPECT_NEAR(f.rgba[f.stride * 7], 96.96, 2.0);
    EXPECT_EQ_INT(f.rgba[f.stride * 7 + 2], 0);
    /* Skipping frame 1 decodes and drops it. */
    ASSERT_OK(mc_frames_read(src, 2, &f, &err), &err);
    EXPECT_EQ_INT(f.number, 2);
    EXPECT_NEAR(f.rgba[0], 201.75, 2.0);
    EXPECT_NEAR(f.rgba[1], 133.30, 2.0);
    EXPECT_NEAR(f.rgba[2], 85.24, 2.0);
    EXPECT_EQ_INT(mc_frames_read(src, 0, &f, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "forward only");
    mc_frames_release(src);
}

TEST(video_range_tag_is_honoured)
{
    char path[512];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;

    ASSERT(write_y4m(test_tmp_path(path, sizeof path, "full.y4m"), 1, " XCOLORRANGE=FULL"));
    ASSERT_OK(mc_frames_open(path, &src, &err), &err);
    ASSERT_OK(mc_frames_read(src, 0, &f, &err), &err);
    EXPECT_NEAR(f.rgba[0], 230.39, 2.0);
    mc_frames_release(src);
}

/* A yuv4mpeg2 file cut 100 bytes before its end: the demuxer drops the partial last frame, so
 * the source holds the 2 whole frames (and a comparison against 3 frames reports frame 2 as
 * missing) instead of decoding garbage. */
TEST(video_cut_mid_frame_holds_only_whole_frames)
{
    char path[512];
    mc_frames_in *src;
    mc_frame f;
    mc_error err;
    struct stat sb;

    ASSERT(write_y4m(test_tmp_path(path, sizeof path, "cut.y4m"), 3, ""));
    ASSERT(stat(path, &sb) == 0);
    ASSERT(truncate(path, sb.st_size - 100) == 0);
    ASSERT_OK(mc_frames_open(path, &src, &err), &err);
    EXPECT_EQ_INT(mc_frames_count(src), 2);
    EXPECT_OK(mc_frames_read(src, 1, &f, &err), &err);
    EXPECT_NEAR(f.rgba[0], 225.04, 2.0); /* Y = 160: 1.164384 * 144 + 57.368 = 225.04 */
    EXPECT_EQ_INT(mc_frames_read(src, 2, &f, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, path);
    mc_frames_release(src);
}

/* Two 32x32 grey frames that differ by +10 on every channel in the block at (16, 0). */
static void block_pair(uint8_t **a, uint8_t **b)
{
    *a = alloc_frame(32, 32);
    *b = alloc_frame(32, 32);
    fill(*a, 32, 32, 100, 100, 100);
    fill(*b, 32, 32, 100, 100, 100);
    for (int y = 0; y < 16; y++)
        for (int x = 16; x < 32; x++)
            for (int c = 0; c < 3; c++)
                (*b)[4 * (32 * y + x) + c] = 110;
}

TEST(worst_block_psnr_and_bias_find_the_changed_block)
{
    /* block MSE 100: 10 log10(255^2 / 100) = 28.131 dB; the frame's MSE is 100 / 4 = 25:
     * 34.151 dB; its mean moved by 10 on each channel */
    uint8_t *a, *b;
    mc_compare_opts o = { .set = MC_COMPARE_SET_MIN_BLOCK_PSNR | MC_COMPARE_SET_MAX_BLOCK_BIAS |
                                 MC_COMPARE_SET_MAX_FAILING_SHARE,
                          .max_failing_share = 1.0, .min_block_psnr = 30.0,
                          .max_block_bias = 9.5 };
    mc_compare_result r;
    mc_error err;

    block_pair(&a, &b);
    ASSERT(mc_compare_rgba(a, 128, b, 128, 32, 32, &o, NULL, &r, &err) == MC_OK);
    EXPECT(fabs(r.block_psnr - 28.1308) < 1e-3);
    EXPECT(fabs(r.psnr - 34.1514) < 1e-3);
    EXPECT_EQ_INT(r.block_x, 16);
    EXPECT_EQ_INT(r.block_y, 0);
    EXPECT(fabs(r.block_bias - 10.0) < 1e-9);
    EXPECT_EQ_INT(r.bias_x, 16);
    EXPECT_EQ_INT(r.compared, 1024);
    EXPECT_EQ_INT(r.fail, MC_COMPARE_FAIL_BLOCK | MC_COMPARE_FAIL_BIAS);
    o.min_block_psnr = 28.0;
    o.max_block_bias = 10.0;
    ASSERT(mc_compare_rgba(a, 128, b, 128, 32, 32, &o, NULL, &r, &err) == MC_OK);
    EXPECT(r.pass);
    free(a);
    free(b);
}

TEST(masked_pixels_count_in_no_metric)
{
    uint8_t *a, *b, mask[32 * 32];
    mc_compare_opts o = { 0 };
    mc_compare_result r;
    mc_error err;

    block_pair(&a, &b);
    memset(mask, 1, sizeof mask);
    for (int y = 0; y < 16; y++)
        memset(mask + 32 * y + 16, 0, 16);
    o.mask = mask;
    ASSERT(mc_compare_rgba(a, 128, b, 128, 32, 32, &o, NULL, &r, &err) == MC_OK);
    EXPECT(isinf(r.psnr) && isinf(r.block_psnr));
    EXPECT_EQ_INT(r.max_diff, 0);
    EXPECT_EQ_INT(r.over_pixels, 0);
    EXPECT_EQ_INT(r.compared, 768);
    EXPECT(r.ssim == 1.0);
    EXPECT(r.pass);
    /* one pixel of the block unmasked: it alone differs, 1 of 769 pixels */
    mask[16] = 1;
    ASSERT(mc_compare_rgba(a, 128, b, 128, 32, 32, &o, NULL, &r, &err) == MC_OK);
    EXPECT_EQ_INT(r.over_pixels, 1);
    EXPECT_EQ_INT(r.compared, 769);
    EXPECT(fabs(r.over_share - 1.0 / 769.0) < 1e-12);
    EXPECT_EQ_INT(r.max_x, 16);
    EXPECT(!r.pass);
    free(a);
    free(b);
}
