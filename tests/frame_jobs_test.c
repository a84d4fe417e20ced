/* Frame jobs (frame_jobs.h) on data/render/boxes.md5scene: cuts.md5camera, 8 stored frames at
 * 24 fps with cuts 2 and 5, 64x64; unlit, output frames 0..5 show the red, red, blue, blue,
 * green, green box in the centre (worked out by hand in scene_renderer_test.c) on a black
 * background. Whatever the number of jobs, frames come back in the order they were handed in
 * and with the pixels one renderer draws for them. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/frame_jobs.h>

#include "test.h"

#define BOXES "data/render/boxes.md5scene"
#define W 64
#define H 64

static const int centre[6][3] = { { 255, 0, 0 }, { 255, 0, 0 }, { 0, 0, 255 },
                                  { 0, 0, 255 }, { 0, 255, 0 }, { 0, 255, 0 } };

static bool centre_is(const uint8_t *px, int k)
{
    const uint8_t *p = px + (size_t)(32 * W + 32) * 4;

    return p[0] == centre[k][0] && p[1] == centre[k][1] && p[2] == centre[k][2] && p[3] == 255;
}

static mc_frame_jobs *make(mc_scene *scene, int jobs)
{
    mc_frame_jobs_desc d = { .renderer = { .shading = MC_SHADING_UNLIT }, .jobs = jobs };
    mc_frame_jobs *j = NULL;
    mc_error err;

    if (mc_scene_load(BOXES, NULL, scene, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", BOXES, err.msg);
        return NULL;
    }
    d.renderer.scene = scene;
    if (mc_frame_jobs_create(&d, &j, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "create: %s", err.msg);
        mc_scene_release(scene);
        return NULL;
    }
    return j;
}

/* Frames handed in as 5 0 3 1 4 2 come back as 5 0 3 1 4 2, each with the box of its shot and
 * the pixels a single renderer draws for it. */
TEST(frames_come_back_in_submission_order_with_one_renderers_pixels)
{
    static const int order[6] = { 5, 0, 3, 1, 4, 2 };
    mc_scene scene;
    mc_frame_jobs *j = make(&scene, 3);
    mc_scene_renderer *sr = NULL;
    mc_scene_renderer_desc sd = { .shading = MC_SHADING_UNLIT };
    uint8_t *px = calloc(6 * W * H * 4, 1), *one = calloc(W * H * 4, 1);
    mc_image_view views[6], ov = { W, H, W * 4, one };
    mc_scene_frame_info info;
    mc_frame_no k;
    mc_error err;
    int sent = 0, got = 0;

    ASSERT(j && px && one);
    sd.scene = &scene;
    ASSERT_OK(mc_scene_renderer_create(&sd, &sr, &err), &err);
    EXPECT_EQ_INT(mc_frame_jobs_count(j), 3);
    EXPECT_EQ_INT(mc_frame_jobs_frame_count(j), 6);
    while (got < 6) {
        while (sent < 6 && mc_frame_jobs_in_flight(j) < 3) {
            views[sent] = (mc_image_view){ W, H, W * 4, px + (size_t)sent * W * H * 4 };
            ASSERT_OK(mc_frame_jobs_submit(j, order[sent], &views[sent], &err), &err);
            sent++;
        }
        EXPECT_EQ_INT(mc_frame_jobs_in_flight(j), sent - got);
        ASSERT_OK(mc_frame_jobs_collect(j, &k, &info, &err), &err);
        EXPECT_EQ_INT(k, order[got]);
        EXPECT_EQ_INT(info.frame, order[got]);
        EXPECT(centre_is(views[got].pixels, order[got]));
        ASSERT_OK(mc_scene_renderer_frame(sr, order[got], &ov, NULL, &err), &err);
        EXPECT(memcmp(views[got].pixels, one, W * H * 4) == 0);
        got++;
    }
    EXPECT_EQ_INT(mc_frame_jobs_in_flight(j), 0);
    free(px);
    free(one);
    mc_scene_renderer_release(sr);
    mc_frame_jobs_release(j);
    mc_scene_release(&scene);
}

/* At most `jobs` frames in flight; nothing to collect is a usage error with k = -1; a view of
 * the wrong size is the frame's own error, from collect, and the jobs go on. */
TEST(misuse_is_a_usage_error_and_a_frames_error_comes_with_it)
{
    mc_scene scene;
    mc_frame_jobs *j = make(&scene, 2);
    uint8_t *px = calloc(3 * W * H * 4, 1);
    mc_image_view a = { W, H, W * 4, px }, b = { W, H, W * 4, px + W * H * 4 };
    mc_image_view small = { W / 2, H, W * 4, px + 2 * W * H * 4 };
    mc_frame_no k = 7;
    mc_error err;

    ASSERT(j && px);
    EXPECT_EQ_INT(mc_frame_jobs_collect(j, &k, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(k, -1);
    EXPECT_EQ_INT(mc_frame_jobs_submit(j, 0, NULL, &err), MC_ERR_USAGE);
    ASSERT_OK(mc_frame_jobs_submit(j, 0, &a, &err), &err);
    ASSERT_OK(mc_frame_jobs_submit(j, 9, &b, &err), &err); /* out of range: its draw fails */
    EXPECT_EQ_INT(mc_frame_jobs_submit(j, 1, &small, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "in flight");
    ASSERT_OK(mc_frame_jobs_collect(j, &k, NULL, &err), &err);
    EXPECT_EQ_INT(k, 0);
    EXPECT_EQ_INT(mc_frame_jobs_collect(j, &k, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(k, 9);
    ASSERT_OK(mc_frame_jobs_submit(j, 2, &small, &err), &err);
    EXPECT_EQ_INT(mc_frame_jobs_collect(j, &k, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(k, 2);
    ASSERT_OK(mc_frame_jobs_submit(j, 4, &a, &err), &err);
    ASSERT_OK(mc_frame_jobs_collect(j, &k, NULL, &err), &err);
    EXPECT_EQ_INT(k, 4);
    EXPECT(centre_is(px, 4));
    free(px);
    mc_frame_jobs_release(j);
    mc_scene_release(&scene);
}

/* Release with every job busy and frames queued behind them: it waits for the frames being
 * drawn, drops the rest, and frees everything (ASan and the thread sanitizer watch it). */
TEST(release_with_frames_in_flight_waits_and_drops_them)
{
    mc_scene scene;
    mc_frame_jobs *j = make(&scene, 4);
    uint8_t *px = calloc(4 * W * H * 4, 1);
    mc_image_view v[4];
    mc_error err;

    ASSERT(j && px);
    for (int i = 0; i < 4; i++) {
        v[i] = (mc_image_view){ W, H, W * 4, px + (size_t)i * W * H * 4 };
        ASSERT_OK(mc_frame_jobs_submit(j, i, &v[i], &err), &err);
    }
    mc_frame_jobs_release(j);
    free(px);
    mc_scene_release(&scene);
    mc_frame_jobs_release(NULL);
}

/* Jobs outside 1..MC_FRAME_JOBS_MAX are refused before anything starts. */
TEST(a_job_count_out_of_range_is_a_usage_error)
{
    static const int bad[] = { -1, MC_FRAME_JOBS_MAX + 1 };
    mc_scene scene;
    mc_error err;

    ASSERT_OK(mc_scene_load(BOXES, NULL, &scene, &err), &err);
    for (size_t i = 0; i < TEST_COUNT(bad); i++) {
        mc_frame_jobs_desc d = { .renderer = { .scene = &scene }, .jobs = bad[i] };
        mc_frame_jobs *j = (mc_frame_jobs *)&d; /* create must set it to NULL */

        EXPECT_EQ_INT(mc_frame_jobs_create(&d, &j, &err), MC_ERR_USAGE);
        EXPECT(j == NULL);
    }
    mc_scene_release(&scene);
}

/* The automatic count: 1 up to 2 cores, then half the cores, at most MC_FRAME_JOBS_MAX. */
TEST(the_automatic_count_follows_its_rule)
{
    EXPECT_EQ_INT(mc_frame_jobs_auto(0), 1);
    EXPECT_EQ_INT(mc_frame_jobs_auto(1), 1);
    EXPECT_EQ_INT(mc_frame_jobs_auto(2), 1);
    EXPECT_EQ_INT(mc_frame_jobs_auto(3), 1);
    EXPECT_EQ_INT(mc_frame_jobs_auto(4), 2);
    EXPECT_EQ_INT(mc_frame_jobs_auto(16), 8);
    EXPECT_EQ_INT(mc_frame_jobs_auto(32), 16);
    EXPECT_EQ_INT(mc_frame_jobs_auto(1000), 16);
}

/* The count within memory, worked by hand: jobs fit when first + (jobs - 1) * per_job <= memory
 * (MiB and GiB powers of two). */
TEST(the_count_fits_the_memory_available)
{
    const uint64_t mib = 1ull << 20, gib = 1ull << 30;
    bool by = true;

    /* 2 cores: 1 job whatever the memory */
    EXPECT_EQ_INT(mc_frame_jobs_fit(2, 8 * gib, 573 * mib, 187 * mib, &by), 1);
    EXPECT(!by);
    /* memory unknown: the cores' 8 */
    EXPECT_EQ_INT(mc_frame_jobs_fit(16, 0, gib, gib, &by), 8);
    EXPECT(!by);
    /* 8 jobs need 1 + 7 x 0.5 = 4.5 GiB, 7 need 4 GiB: exactly 4 GiB holds 7, a byte less 6 */
    EXPECT_EQ_INT(mc_frame_jobs_fit(16, 4 * gib, gib, 512 * mib, &by), 7);
    EXPECT(by);
    EXPECT_EQ_INT(mc_frame_jobs_fit(16, 4 * gib - 1, gib, 512 * mib, &by), 6);
    /* 64 cores: 16 (MC_FRAME_JOBS_MAX), 573 + 15 x 187 = 3378 MiB of 64 GiB */
    EXPECT_EQ_INT(mc_frame_jobs_fit(64, 64 * gib, 573 * mib, 187 * mib, &by), 16);
    EXPECT(!by);
    /* doctor's 1280x720 estimates on 16 cores with 1.5 GiB: (1610612736 - 600440832) /
     * 195493888 = 5.17 more jobs, so 6 (1577910272 bytes; 7 would take 1773404160) */
    EXPECT_EQ_INT(mc_frame_jobs_fit(16, 3 * gib / 2, 600440832, 195493888, &by), 6);
    EXPECT(by);
    /* the first job alone past it: still 1 (the render's own check refuses it) */
    EXPECT_EQ_INT(mc_frame_jobs_fit(16, 512 * mib, 573 * mib, 187 * mib, &by), 1);
    EXPECT(by);
    /* no overflow: a per-job need near 2^64 */
    EXPECT_EQ_INT(mc_frame_jobs_fit(32, gib, 0, UINT64_MAX, NULL), 1);
    /* 8 x (2^61 - 1) = 2^64 - 8 fits in 2^64 - 1: 1 + 8 jobs */
    EXPECT_EQ_INT(mc_frame_jobs_fit(32, UINT64_MAX, 0, UINT64_MAX / 8, NULL), 9);
}

/* A texture that does not decode fails every job's renderer: create gives what
 * mc_scene_renderer_create gives (MC_ERR_IMAGE at line 4, column 20), and nothing is left. */
TEST(a_texture_that_does_not_decode_fails_create_as_one_renderer_does)
{
    char scene_path[1100];
    mc_scene scene;
    mc_scene_renderer *sr = NULL;
    mc_scene_renderer_desc sd = { 0 };
    mc_frame_jobs_desc d = { .jobs = 3 };
    mc_frame_jobs *j = NULL;
    mc_error one, err;

    ASSERT(test_bad_texture_scene("jobs_bad_texture", scene_path, sizeof scene_path));
    ASSERT_OK(mc_scene_load(scene_path, NULL, &scene, &err), &err);
    sd.scene = &scene;
    EXPECT_EQ_INT(mc_scene_renderer_create(&sd, &sr, &one), MC_ERR_IMAGE);
    d.renderer = sd;
    EXPECT_EQ_INT(mc_frame_jobs_create(&d, &j, &err), MC_ERR_IMAGE);
    EXPECT(j == NULL);
    EXPECT_EQ_INT(err.line, 4);
    EXPECT_EQ_INT(err.col, 20);
    EXPECT_EQ_STR(err.msg, one.msg);
    EXPECT_EQ_STR(err.file, one.file);
    mc_scene_release(&scene);
}

/* The stop flag set before create interrupts every job's loading of the demo's material (its
 * base declares one), as it interrupts one renderer's. */
TEST(the_stop_flag_interrupts_create)
{
    volatile sig_atomic_t stop = 1;
    mc_scene scene;
    mc_scene_renderer *sr = NULL;
    mc_frame_jobs_desc d = { .renderer = { .stop = &stop, .width = 64, .height = 36 }, .jobs = 2 };
    mc_frame_jobs *j = NULL;
    mc_error err;

    ASSERT_OK(mc_scene_load("../scenes/demo/demo.md5scene", NULL, &scene, &err), &err);
    d.renderer.scene = &scene;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d.renderer, &sr, &err), MC_ERR_INTERRUPTED);
    EXPECT_EQ_INT(mc_frame_jobs_create(&d, &j, &err), MC_ERR_INTERRUPTED);
    EXPECT(j == NULL);
    mc_scene_release(&scene);
}
