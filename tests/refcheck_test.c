/* The reference checker (refcheck.h) on hand-made folders of flat-coloured PNGs: which row
 * each frame gets, in frame order when two threads check at once, the files written, the
 * offset, update mode, and sizes refused from the header alone. Expected kinds and counts
 * follow from how each folder is built here. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/fileio.h>
#include <md5cine/image.h>
#include <md5cine/refcheck.h>

#include "test.h"

#define W 16
#define H 8

/* A W x H opaque frame of grey level v. */
static void flat(uint8_t *px, int w, int h, uint8_t v)
{
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = v;
        px[4 * i + 3] = 255;
    }
}

static bool exists(const char *dir, const char *name)
{
    char p[4200];
    struct stat sb;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &sb) == 0;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    if (!f || fwrite(data, 1, len, f) != len)
        test_fail(__FILE__, __LINE__, "cannot write %s", path);
    if (f)
        fclose(f);
}

/* dir/%05d.png of grey 10 * k for k in 0..n-1. */
static void make_folder(const char *dir, int n)
{
    uint8_t px[W * H * 4];
    char p[4200];
    mc_error err;

    mc_mkdirs(dir);
    for (int k = 0; k < n; k++) {
        flat(px, W, H, (uint8_t)(10 * k));
        snprintf(p, sizeof p, "%s/%05d.png", dir, k);
        EXPECT_OK(mc_png_write(p, px, W, H, W * 4, 0, &err), &err);
    }
}

typedef struct worker {
    mc_refcheck *c;
    int thread;
    mc_status st;
} worker;

/* Checks every frame 0..7 whose parity is the thread's; frame 3 is 50 levels off. */
static void *check_half(void *arg)
{
    worker *w = arg;
    uint8_t px[W * H * 4];
    mc_image_view v = { W, H, W * 4, px };
    mc_error err;

    for (int k = 7 - w->thread; k >= 0 && w->st == MC_OK; k -= 2) {
        flat(px, W, H, (uint8_t)(10 * k + (k == 3 ? 50 : 0)));
        w->st = mc_refcheck_frame(w->c, w->thread, &v, k, &err);
    }
    return NULL;
}

TEST(two_threads_give_one_row_per_frame_in_frame_order)
{
    char dir[4096], diff[4096], p[4200];
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c;
    mc_refcheck_summary s;
    worker w[2];
    pthread_t th[2];
    mc_error err;
    char *png;
    size_t len;

    test_tmp_path(dir, sizeof dir, "threads_ref");
    test_tmp_path(diff, sizeof diff, "threads_diff");
    make_folder(dir, 8);
    snprintf(p, sizeof p, "%s/00005.png", dir);
    unlink(p); /* frame 5: missing */
    snprintf(p, sizeof p, "%s/00006.png", dir);
    ASSERT_OK(mc_read_file(p, &png, &len, &err), &err);
    write_bytes(p, png, 33); /* frame 6: the signature and IHDR only */
    free(png);

    d.reference = dir;
    d.width = W;
    d.height = H;
    d.diff_dir = diff;
    d.threads = 2;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    for (int i = 0; i < 2; i++) {
        w[i] = (worker){ c, i, MC_OK };
        pthread_create(&th[i], NULL, check_half, &w[i]);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        EXPECT_EQ_INT(w[i].st, MC_OK);
    }
    ASSERT(mc_refcheck_row_count(c) == 8);
    for (size_t i = 0; i < 8; i++) {
        const mc_refcheck_row *r = mc_refcheck_row_at(c, i);
        mc_refcheck_kind want = i == 3 ? MC_REFCHECK_FAILED
                                : i == 5 ? MC_REFCHECK_MISSING
                                : i == 6 ? MC_REFCHECK_UNREADABLE
                                         : MC_REFCHECK_PASSED;

        EXPECT_EQ_INT(r->frame, i);
        EXPECT_EQ_INT(r->kind, want);
    }
    /* 50 levels on every channel of every pixel */
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 3)->r.max_diff, 50);
    EXPECT_CONTAINS(mc_refcheck_row_at(c, 6)->reasons, "truncated image data");
    mc_refcheck_get_summary(c, &s);
    EXPECT_EQ_INT(s.checked, 8);
    EXPECT_EQ_INT(s.passed, 5);
    EXPECT_EQ_INT(s.failed, 1);
    EXPECT_EQ_INT(s.missing, 1);
    EXPECT_EQ_INT(s.unreadable, 1);
    EXPECT(!s.ok && !s.lossy);
    EXPECT(exists(diff, "frame_00003.png") && exists(diff, "diff_00003.png"));
    EXPECT(exists(diff, "frame_00005.png") && !exists(diff, "diff_00005.png"));
    EXPECT(exists(diff, "frame_00006.png") && !exists(diff, "frame_00000.png"));
    mc_refcheck_release(c);
}

TEST(offset_shifts_the_reference_numbers)
{
    char dir[4096];
    uint8_t px[W * H * 4];
    mc_image_view v = { W, H, W * 4, px };
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "offset_ref");
    make_folder(dir, 3);
    d.reference = dir;
    d.width = W;
    d.height = H;
    d.offset = -10; /* frame k against reference frame k - 10, as --offset -10 */
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    flat(px, W, H, 20); /* reference frame 2 */
    EXPECT_OK(mc_refcheck_frame(c, 0, &v, 12, &err), &err);
    EXPECT_OK(mc_refcheck_frame(c, 0, &v, 2, &err), &err); /* reference frame -8: none */
    ASSERT(mc_refcheck_row_count(c) == 2);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 0)->frame, 2);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 0)->kind, MC_REFCHECK_MISSING);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 1)->frame, 12);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 1)->kind, MC_REFCHECK_PASSED);
    mc_refcheck_release(c);
}

/* A PNG declaring 16384 x 16384 with no image data (CRCs from zlib's crc32). */
static const uint8_t bomb[] = {
    0x89, 'P',  'N',  'G',  '\r', '\n', 0x1a, '\n', 0,    0,    0,    13,   'I',  'H',  'D',
    'R',  0,    0,    0x40, 0,    0,    0,    0x40, 0,    8,    6,    0,    0,    0,    0xa9,
    0xc8, 0x10, 0x84, 0,    0,    0,    0,    'I',  'E',  'N',  'D',  0xae, 0x42, 0x60, 0x82,
};

TEST(sizes_are_compared_from_the_header_without_pixels)
{
    char dir[4096], p[4200];
    mc_image_view v = { 32, H, 0, NULL };
    uint8_t px[W * H * 4];
    mc_image_view same = { W, H, W * 4, px };
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c;
    mc_error err;
    int w, h;

    EXPECT_OK(mc_image_probe(bomb, sizeof bomb, "bomb.png", &w, &h, &err), &err);
    EXPECT(w == 16384 && h == 16384);
    test_tmp_path(dir, sizeof dir, "size_ref");
    make_folder(dir, 1);
    snprintf(p, sizeof p, "%s/00001.png", dir);
    write_bytes(p, bomb, sizeof bomb);
    d.reference = dir;
    d.width = W;
    d.height = H;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_OK(mc_refcheck_frame(c, 0, &v, 0, &err), &err); /* 32 wide, no pixels */
    flat(px, W, H, 0);
    EXPECT_OK(mc_refcheck_frame(c, 0, &same, 1, &err), &err); /* against the bomb */
    ASSERT(mc_refcheck_row_count(c) == 2);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 0)->kind, MC_REFCHECK_SIZE);
    EXPECT_EQ_STR(mc_refcheck_row_at(c, 0)->reasons, "size 32x8, reference 16x8");
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 1)->kind, MC_REFCHECK_SIZE);
    EXPECT_EQ_INT(mc_refcheck_row_at(c, 1)->ref_width, 16384);
    EXPECT_EQ_STR(mc_refcheck_row_at(c, 1)->reasons, "size 16x8, reference 16384x16384");
    mc_refcheck_release(c);
}

TEST(update_mode_fills_a_new_folder)
{
    char dir[4096], p[4200];
    uint8_t px[W * H * 4];
    mc_image_view v = { W, H, W * 4, px };
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c;
    mc_refcheck_summary s;
    mc_image img;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "update_ref/new");
    d.reference = dir;
    d.width = W;
    d.height = H;
    d.update = true;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    flat(px, W, H, 77);
    EXPECT_OK(mc_refcheck_frame(c, 0, &v, 4, &err), &err);
    mc_refcheck_get_summary(c, &s);
    EXPECT(s.ok && s.written == 1 && s.missing == 1);
    snprintf(p, sizeof p, "%s/00004.png", dir);
    EXPECT_EQ_STR(mc_refcheck_row_at(c, 0)->written, p);
    ASSERT_OK(mc_image_load(p, &img, &err), &err);
    EXPECT(img.width == W && img.height == H && img.pixels[0] == 77 && img.pixels[3] == 255);
    mc_image_release(&img);
    mc_refcheck_release(c);
}

TEST(a_file_reference_refuses_update_mode)
{
    char dir[4096], p[4200];
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c = NULL;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "update_file");
    make_folder(dir, 1);
    snprintf(p, sizeof p, "%s/00000.png", dir);
    d.reference = p;
    d.width = W;
    d.height = H;
    d.update = true;
    EXPECT_EQ_INT(mc_refcheck_open(&d, &c, &err), MC_ERR_USAGE);
    EXPECT(c == NULL);
}

/* A folder of frames 0..5 of W x H: frames 0-5 (and 2-7 with offset -2: reference 0-5) are
 * there at the right size; 0-6 lack frame 6 (one frame); a 4 x 4 first frame is the wrong size
 * (named with both sizes); update mode asks for nothing. */
TEST(preflight_names_the_missing_frames_and_the_size)
{
    char dir[4096], p[4200];
    uint8_t px[4 * 4 * 4];
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c = NULL;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "refcheck_preflight");
    make_folder(dir, 6);
    d.reference = dir;
    d.width = W;
    d.height = H;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_OK(mc_refcheck_preflight(c, 0, 5, &err), &err);
    EXPECT_EQ_INT(mc_refcheck_preflight(c, 0, 6, &err), MC_ERR_RANGE);
    EXPECT_CONTAINS(err.msg, "holds 6 frames (0-5) but frames 0-6 are checked: 1 of them is not "
                             "in it, the first frame 6");
    EXPECT_EQ_INT(mc_refcheck_preflight(c, 3, 9, &err), MC_ERR_RANGE);
    EXPECT_CONTAINS(err.msg, "4 of them are not in it, the first frame 6");
    EXPECT_EQ_INT(mc_refcheck_row_count(c), 0); /* nothing was checked */
    mc_refcheck_release(c);
    d.offset = -2; /* frame k against reference k - 2 */
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_OK(mc_refcheck_preflight(c, 2, 7, &err), &err);
    EXPECT_EQ_INT(mc_refcheck_preflight(c, 1, 7, &err), MC_ERR_RANGE);
    EXPECT_CONTAINS(err.msg, "the first frame 1 (reference frame -1)");
    mc_refcheck_release(c);
    d.offset = 0;
    flat(px, 4, 4, 0);
    snprintf(p, sizeof p, "%s/00000.png", dir);
    ASSERT_OK(mc_png_write(p, px, 4, 4, 4 * 4, 0, &err), &err);
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_EQ_INT(mc_refcheck_preflight(c, 0, 5, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, p);
    EXPECT_CONTAINS(err.msg, "reference frame 0 is 4x4 but the frames checked are 16x8");
    EXPECT_OK(mc_refcheck_preflight(c, 1, 5, &err), &err); /* frame 1 has the size */
    mc_refcheck_release(c);
    /* A gap: without frame 3 the folder holds 5 frames, 0-5. */
    snprintf(p, sizeof p, "%s/00003.png", dir);
    ASSERT(unlink(p) == 0);
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_EQ_INT(mc_refcheck_preflight(c, 1, 5, &err), MC_ERR_RANGE);
    EXPECT_CONTAINS(err.msg, "holds 5 frames (0-5) but frames 1-5 are checked: 1 of them is "
                             "not in it, the first frame 3");
    mc_refcheck_release(c);
    d.update = true;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    EXPECT_OK(mc_refcheck_preflight(c, 0, 99, &err), &err);
    mc_refcheck_release(c);
}

typedef struct hook_log {
    int calls;
    mc_frame_no frames[8];
    bool had_ref[8];
    const uint8_t *mask;
    double min_block_psnr;
} hook_log;

static mc_status log_failure(void *user, int thread, const mc_refcheck_failure *f, mc_error *err)
{
    hook_log *l = user;

    (void)err;
    if (thread != 0 || l->calls >= 8)
        return MC_ERR_USAGE;
    l->frames[l->calls] = f->row->frame;
    l->had_ref[l->calls++] = f->ref != NULL;
    l->mask = f->limits->mask;
    l->min_block_psnr = f->limits->min_block_psnr;
    return MC_OK;
}

/* The on_fail hook sees exactly the frames that do not pass and have pixels: frame 1 (50
 * levels off, with its reference) and frame 4 (missing, no reference); the limits it gets are
 * the effective ones, with the checker's mask. */
TEST(the_hook_gets_every_failing_frame_and_nothing_else)
{
    char dir[4096];
    uint8_t px[W * H * 4];
    mc_compare_rect ignore = { 0, 0, 1, 1 };
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c = NULL;
    hook_log log = { 0 };
    mc_error err;

    test_tmp_path(dir, sizeof dir, "refcheck_hook");
    make_folder(dir, 4);
    d.reference = dir;
    d.width = W;
    d.height = H;
    d.ignore = &ignore;
    d.num_ignore = 1;
    d.on_fail = log_failure;
    d.on_fail_user = &log;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    for (int k = 0; k < 5; k++) {
        mc_image_view v = { W, H, W * 4, px };

        flat(px, W, H, (uint8_t)(10 * k + (k == 1 ? 50 : 0)));
        EXPECT_OK(mc_refcheck_frame(c, 0, &v, k, &err), &err);
    }
    EXPECT_EQ_INT(log.calls, 2);
    EXPECT_EQ_INT(log.frames[0], 1);
    EXPECT(log.had_ref[0]);
    EXPECT_EQ_INT(log.frames[1], 4);
    EXPECT(!log.had_ref[1]);
    EXPECT(log.mask != NULL);
    EXPECT(log.min_block_psnr == 0.0); /* lossless: off */
    mc_refcheck_release(c);
}
