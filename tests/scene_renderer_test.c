/* The scene renderer (scene_renderer.h) on the hand-made scenes of data/render/ (see
 * data/render/README.md and the comments in each file):
 *
 *   boxes.md5scene  cuts.md5camera: 8 stored frames at 24 fps, cuts 2 and 5, every camera 100
 *                   inches in front of a box looking down +X: shot 0 the red box, shot 1 the
 *                   blue one, shot 2 the green one; 64x64, black background.
 *   drone.md5scene  the drone walking (12 anim frames at 24 fps) under a one-frame camera;
 *                   128x128, background (0.1, 0.1, 0.15).
 *
 * Expected timeline values are worked out here by hand from DESIGN.md 2.1; pixels at the
 * centre of the boxes are the textures' pure colours, as tests/render_cli_test.sh reads them
 * from the command's PNGs with ImageMagick. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/image.h>
#include <md5cine/scene_renderer.h>

#include "test.h"

#define BOXES "data/render/boxes.md5scene"
#define DRONE "data/render/drone.md5scene"

typedef struct rgba {
    int r, g, b, a;
} rgba;

static rgba pixel(const mc_image_view *v, int x, int y)
{
    const uint8_t *p = v->pixels + (size_t)y * v->stride + (size_t)x * 4;

    return (rgba){ p[0], p[1], p[2], p[3] };
}

#define EXPECT_RGBA(px, R, G, B, A)                                                              \
    do {                                                                                         \
        rgba p_ = (px);                                                                          \
        if (p_.r != (R) || p_.g != (G) || p_.b != (B) || p_.a != (A))                            \
            test_fail(__FILE__, __LINE__, "expected %s = (%d %d %d %d), got (%d %d %d %d)", #px, \
                      (R), (G), (B), (A), p_.r, p_.g, p_.b, p_.a);                               \
    } while (0)

/* A scene loaded and a renderer made with desc (scene filled in); NULL on failure. */
static mc_scene_renderer *make(const char *path, mc_scene *scene, mc_scene_renderer_desc d)
{
    mc_scene_renderer *sr = NULL;
    mc_error err;

    if (mc_scene_load(path, NULL, scene, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", path, err.msg);
        return NULL;
    }
    d.scene = scene;
    if (mc_scene_renderer_create(&d, &sr, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "create: %s", err.msg);
        mc_scene_release(scene);
        return NULL;
    }
    return sr;
}

static mc_image_view alloc_view(int w, int h, size_t stride)
{
    mc_image_view v = { w, h, stride, calloc(stride * (size_t)h + 1, 1) };

    return v;
}

/* ---- the timeline ------------------------------------------------------------------------ */

/* cuts.md5camera at 24 fps: p = k; f >= 2 skips stored 2 and f >= 5 skips stored 5, so k =
 * 0..5 show stored 0 1 3 4 6 7, shots 0 0 1 1 2 2, and k = 5 (f = 7 > N - 2 = 6) is the first
 * ended frame: K = 6. Unlit, the centre pixel is the shot's box: red, red, blue, blue, green,
 * green; the corner is the black background. */
TEST(boxes_follow_the_cut_timeline_and_show_each_shots_box)
{
    static const int stored[6] = { 0, 1, 3, 4, 6, 7 }, shot[6] = { 0, 0, 1, 1, 2, 2 };
    static const int centre[6][3] = { { 255, 0, 0 }, { 255, 0, 0 }, { 0, 0, 255 },
                                      { 0, 0, 255 }, { 0, 255, 0 }, { 0, 255, 0 } };
    mc_scene scene;
    mc_scene_renderer *sr =
            make(BOXES, &scene, (mc_scene_renderer_desc){ .shading = MC_SHADING_UNLIT });
    mc_image_view v = alloc_view(64, 64, 64 * 4);
    mc_scene_frame_info info;
    mc_renderer_info gl;
    mc_rate fps;
    int w = 0, h = 0;
    mc_error err;

    ASSERT(sr && v.pixels);
    mc_scene_renderer_get_info(sr, &w, &h, &fps, &gl);
    EXPECT_EQ_INT(w, 64); /* the scene's output block */
    EXPECT_EQ_INT(h, 64);
    EXPECT_EQ_INT(fps.num, 24); /* the camera's frameRate */
    EXPECT_EQ_INT(fps.den, 1);
    EXPECT_EQ_INT(gl.samples, 1); /* msaa 0 = off, as md5cine render --msaa 0 */
    EXPECT(strcmp(gl.backend, "egl") == 0 || strcmp(gl.backend, "osmesa") == 0);
    EXPECT_EQ_INT(mc_scene_renderer_frame_count(sr), 6);
    for (int k = 0; k < 6; k++) {
        ASSERT_OK(mc_scene_renderer_frame(sr, k, &v, &info, &err), &err);
        EXPECT_EQ_INT(info.frame, k);
        EXPECT_NEAR(info.time, k / 24.0, 1e-12);
        EXPECT_EQ_INT(info.stored, stored[k]);
        EXPECT_EQ_INT(info.next, stored[k]);
        EXPECT_NEAR(info.lerp, 0.0, 0.0);
        EXPECT_EQ_INT(info.shot, shot[k]);
        EXPECT_RGBA(pixel(&v, 32, 32), centre[k][0], centre[k][1], centre[k][2], 255);
        EXPECT_RGBA(pixel(&v, 5, 5), 0, 0, 0, 255);
    }
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* --fps 48: p = k / 2. k = 3 is p = 1.5: f = 1 (below the first cut), lerp 0.5 from stored 1
 * towards 2, shot 0, red. k = 4 is p = 2: f = 2 + 1 = 3, shot 1, blue. k = 10 is p = 5: f = 5 + 2
 * = 7 > 6, the first ended frame, so K = 11; it shows stored 7 = N - 1, shot 2. */
/* The engine clock on cuts.md5camera at 24 fps: ms = 16 * floor(k * 125 / 48) = 0 32 80 112
 * 160 208 240; p = ms * 24 = 0 768 1920 2688 3840 4992 5760, so raw f = 0 0 1 2 3 4 5 with
 * lerps 0 .768 .92 .688 .84 .992 .76. Cuts 2 and 5 shift f >= 2 by one and f >= 4 (5 once
 * shifted) by two: stored 0 0 1 3 4 6 7, interpolating 0->1, 1->2, 3->4, 4->5, 6->7 (never
 * across a cut pair), and k 6 (f 5 -> 7 > 6) has ended: K = 7 (the ideal clock: 6). Shots
 * 0 0 0 1 1 2 2: the third frame still shows the red box, where the ideal clock shows blue. */
TEST(the_engine_clock_samples_game_ticks)
{
    static const int64_t ms[7] = { 0, 32, 80, 112, 160, 208, 240 };
    static const int stored[7] = { 0, 0, 1, 3, 4, 6, 7 }, next[7] = { 0, 1, 2, 4, 5, 7, 7 };
    static const double lerp[7] = { 0, 0.768, 0.92, 0.688, 0.84, 0.992, 0 };
    static const int shot[7] = { 0, 0, 0, 1, 1, 2, 2 };
    static const int centre[7][3] = { { 255, 0, 0 }, { 255, 0, 0 }, { 255, 0, 0 }, { 0, 0, 255 },
                                      { 0, 0, 255 }, { 0, 255, 0 }, { 0, 255, 0 } };
    mc_scene scene;
    mc_scene_renderer *sr = make(BOXES, &scene,
                                 (mc_scene_renderer_desc){ .shading = MC_SHADING_UNLIT,
                                                           .clock = MC_CLOCK_ENGINE });
    mc_image_view v = alloc_view(64, 64, 64 * 4);
    mc_scene_frame_info info;
    mc_error err;

    ASSERT(sr && v.pixels);
    EXPECT_EQ_INT(mc_scene_renderer_frame_count(sr), 7);
    for (int k = 0; k < 7; k++) {
        ASSERT_OK(mc_scene_renderer_frame(sr, k, &v, &info, &err), &err);
        EXPECT_EQ_INT(info.frame, k);
        EXPECT_NEAR(info.time, k / 24.0, 1e-12);
        EXPECT_EQ_INT(info.engine_ms, ms[k]);
        EXPECT_EQ_INT(info.stored, stored[k]);
        EXPECT_EQ_INT(info.next, next[k]);
        EXPECT_NEAR(info.lerp, lerp[k], 1e-6);
        EXPECT_EQ_INT(info.shot, shot[k]);
        EXPECT_RGBA(pixel(&v, 32, 32), centre[k][0], centre[k][1], centre[k][2], 255);
    }
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

TEST(a_given_rate_resamples_the_timeline)
{
    mc_scene scene;
    mc_scene_renderer *sr =
            make(BOXES, &scene,
                 (mc_scene_renderer_desc){ .fps = { 48, 1 }, .shading = MC_SHADING_UNLIT });
    mc_image_view v = alloc_view(64, 64, 64 * 4);
    mc_scene_frame_info info;
    mc_error err;

    ASSERT(sr && v.pixels);
    EXPECT_EQ_INT(mc_scene_renderer_frame_count(sr), 11);
    ASSERT_OK(mc_scene_renderer_frame(sr, 3, &v, &info, &err), &err);
    EXPECT_NEAR(info.time, 0.0625, 1e-12);
    EXPECT_EQ_INT(info.stored, 1);
    EXPECT_EQ_INT(info.next, 2);
    EXPECT_NEAR(info.lerp, 0.5, 1e-6);
    EXPECT_EQ_INT(info.shot, 0);
    EXPECT_RGBA(pixel(&v, 32, 32), 255, 0, 0, 255);
    ASSERT_OK(mc_scene_renderer_frame(sr, 4, &v, &info, &err), &err);
    EXPECT_EQ_INT(info.stored, 3);
    EXPECT_EQ_INT(info.shot, 1);
    EXPECT_RGBA(pixel(&v, 32, 32), 0, 0, 255, 255);
    ASSERT_OK(mc_scene_renderer_frame(sr, 10, &v, &info, &err), &err);
    EXPECT_EQ_INT(info.stored, 7);
    EXPECT_EQ_INT(info.shot, 2);
    EXPECT_RGBA(pixel(&v, 32, 32), 0, 255, 0, 255);
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* 30000/1001 fps: p = k * 24 * 1001 / 30000 = k * 0.8008. Raw f = 5 (mapped 5 + 2 = 7 > 6)
 * first comes at k = 7 (p = 5.6056; k = 6 gives p = 4.8048, f = 4 -> 6, not ended): K = 8.
 * k = 7 is at 7 * 1001 / 30000 s. k = 3: p = 2.4024, f = 2 -> 3, lerp 0.4024, stored 3 -> 4. */
TEST(a_fractional_rate_is_exact)
{
    mc_scene scene;
    mc_scene_renderer *sr =
            make(BOXES, &scene,
                 (mc_scene_renderer_desc){ .fps = { 30000, 1001 }, .shading = MC_SHADING_UNLIT });
    mc_image_view v = alloc_view(64, 64, 64 * 4);
    mc_scene_frame_info info;
    mc_error err;

    ASSERT(sr && v.pixels);
    EXPECT_EQ_INT(mc_scene_renderer_frame_count(sr), 8);
    ASSERT_OK(mc_scene_renderer_frame(sr, 7, &v, &info, &err), &err);
    EXPECT_NEAR(info.time, 7.0 * 1001.0 / 30000.0, 1e-12);
    EXPECT_EQ_INT(info.stored, 7);
    ASSERT_OK(mc_scene_renderer_frame(sr, 3, &v, &info, &err), &err);
    EXPECT_EQ_INT(info.stored, 3);
    EXPECT_EQ_INT(info.next, 4);
    EXPECT_NEAR(info.lerp, 0.4024, 1e-5);
    EXPECT_EQ_INT(info.shot, 1);
    EXPECT_RGBA(pixel(&v, 32, 32), 0, 0, 255, 255);
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* ---- the same k, the same pixels ------------------------------------------------------- */

/* The walking drone changes pose every frame, so a frame that depended on the one before it
 * would differ when frames come out of order. */
TEST(frames_in_any_order_equal_frames_in_order)
{
    static const int order[12] = { 11, 3, 7, 0, 0, 5, 10, 1, 8, 2, 9, 4 };
    mc_scene scene;
    mc_scene_renderer *sr = make(DRONE, &scene, (mc_scene_renderer_desc){ 0 });
    size_t bytes = 128 * 128 * 4;
    uint8_t *seq = malloc(bytes * 12);
    mc_image_view v = alloc_view(128, 128, 128 * 4);
    mc_error err;

    ASSERT(sr && seq && v.pixels);
    EXPECT_EQ_INT(mc_scene_renderer_frame_count(sr), 12);
    for (int k = 0; k < 12; k++) {
        mc_image_view f = { 128, 128, 128 * 4, seq + bytes * (size_t)k };

        ASSERT_OK(mc_scene_renderer_frame(sr, k, &f, NULL, &err), &err);
    }
    EXPECT(memcmp(seq, seq + bytes * 6, bytes) != 0); /* the walk moves the drone */
    for (int i = 0; i < 12; i++) {
        int k = order[i];

        ASSERT_OK(mc_scene_renderer_frame(sr, k, &v, NULL, &err), &err);
        if (memcmp(v.pixels, seq + bytes * (size_t)k, bytes) != 0)
            test_fail(__FILE__, __LINE__, "frame %d rendered out of order differs", k);
    }
    free(v.pixels);
    free(seq);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

TEST(two_renders_of_the_same_frame_are_identical)
{
    mc_scene scene;
    mc_scene_renderer *sr = make(DRONE, &scene, (mc_scene_renderer_desc){ .overlay = true });
    mc_image_view a = alloc_view(128, 128, 128 * 4), b = alloc_view(128, 128, 128 * 4);
    mc_error err;

    ASSERT(sr && a.pixels && b.pixels);
    ASSERT_OK(mc_scene_renderer_frame(sr, 6, &a, NULL, &err), &err);
    ASSERT_OK(mc_scene_renderer_frame(sr, 6, &b, NULL, &err), &err);
    EXPECT(memcmp(a.pixels, b.pixels, 128 * 128 * 4) == 0);
    free(a.pixels);
    free(b.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* A view with padded rows gets the same pixels, and its padding is left alone. */
TEST(a_padded_view_gets_the_same_rows)
{
    mc_scene scene;
    mc_scene_renderer *sr = make(DRONE, &scene, (mc_scene_renderer_desc){ 0 });
    mc_image_view tight = alloc_view(128, 128, 128 * 4),
                  padded = alloc_view(128, 128, 128 * 4 + 64);
    bool rows_equal = true, pad_untouched = true;
    mc_error err;

    ASSERT(sr && tight.pixels && padded.pixels);
    memset(padded.pixels, 0xab, padded.stride * 128);
    ASSERT_OK(mc_scene_renderer_frame(sr, 2, &tight, NULL, &err), &err);
    ASSERT_OK(mc_scene_renderer_frame(sr, 2, &padded, NULL, &err), &err);
    for (int y = 0; y < 128; y++) {
        const uint8_t *row = padded.pixels + (size_t)y * padded.stride;

        rows_equal &= memcmp(row, tight.pixels + (size_t)y * tight.stride, 128 * 4) == 0;
        for (int i = 128 * 4; i < 128 * 4 + 64; i++)
            pad_untouched &= row[i] == 0xab;
    }
    EXPECT(rows_equal);
    EXPECT(pad_untouched);
    free(tight.pixels);
    free(padded.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* ---- settings -------------------------------------------------------------------------- */

/* Given: the colour everywhere no box covers. None: alpha 0 there and 255 on the box (its
 * front face covers pixels 24..39 both ways, render_cli_test.sh works it out). Scene (the
 * drone's 0.1 0.1 0.15): 25.5 and 38.25 levels, rounded either way. */
TEST(background_modes_fill_the_uncovered_pixels)
{
    mc_scene scene;
    mc_scene_renderer *sr;
    mc_image_view v = alloc_view(64, 64, 64 * 4), d = alloc_view(128, 128, 128 * 4);
    mc_error err;
    rgba p;

    ASSERT(v.pixels && d.pixels);
    sr = make(BOXES, &scene,
              (mc_scene_renderer_desc){ .background_mode = MC_BACKGROUND_GIVEN,
                                        .background = { 1.0f, 0.0f, 0.0f },
                                        .shading = MC_SHADING_UNLIT });
    ASSERT(sr);
    ASSERT_OK(mc_scene_renderer_frame(sr, 2, &v, NULL, &err), &err);
    EXPECT_RGBA(pixel(&v, 2, 2), 255, 0, 0, 255);
    EXPECT_RGBA(pixel(&v, 32, 32), 0, 0, 255, 255);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);

    sr = make(BOXES, &scene, (mc_scene_renderer_desc){ .background_mode = MC_BACKGROUND_NONE });
    ASSERT(sr);
    ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, NULL, &err), &err);
    EXPECT_RGBA(pixel(&v, 2, 2), 0, 0, 0, 0);
    EXPECT_EQ_INT(pixel(&v, 32, 32).a, 255);
    EXPECT_EQ_INT(pixel(&v, 20, 32).a, 0);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);

    sr = make(DRONE, &scene, (mc_scene_renderer_desc){ 0 });
    ASSERT(sr);
    ASSERT_OK(mc_scene_renderer_frame(sr, 0, &d, NULL, &err), &err);
    p = pixel(&d, 2, 2);
    EXPECT(p.r >= 25 && p.r <= 26 && p.g >= 25 && p.g <= 26 && p.b >= 38 && p.b <= 39);
    EXPECT_EQ_INT(p.a, 255);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
    free(v.pixels);
    free(d.pixels);
}

/* A given size overrides the scene's; the box's front face still projects to the middle half
 * both ways (fov 90 on a square output): pixels 24..39 of 64 become 12..19 of 32. */
TEST(a_given_size_overrides_the_scenes)
{
    mc_scene scene;
    mc_scene_renderer *sr =
            make(BOXES, &scene,
                 (mc_scene_renderer_desc){
                         .width = 32, .height = 32, .msaa = 1, .shading = MC_SHADING_UNLIT });
    mc_image_view v = alloc_view(32, 32, 32 * 4);
    mc_renderer_info gl;
    int w = 0, h = 0;
    mc_error err;

    ASSERT(sr && v.pixels);
    mc_scene_renderer_get_info(sr, &w, &h, NULL, &gl);
    EXPECT_EQ_INT(w, 32);
    EXPECT_EQ_INT(h, 32);
    EXPECT_EQ_INT(gl.samples, 1);
    ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, NULL, &err), &err);
    EXPECT_RGBA(pixel(&v, 12, 12), 255, 0, 0, 255);
    EXPECT_RGBA(pixel(&v, 19, 19), 255, 0, 0, 255);
    EXPECT_RGBA(pixel(&v, 11, 16), 0, 0, 0, 255);
    EXPECT_RGBA(pixel(&v, 20, 16), 0, 0, 0, 255);
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* msaa 0 is off (as md5cine render --msaa 0); MC_MSAA_DEFAULT is the command's 4 samples,
 * which llvmpipe has. */
TEST(msaa_0_is_off_and_the_named_default_is_4)
{
    const int want[2][2] = { { 0, 1 }, { MC_MSAA_DEFAULT, 4 } };

    for (int i = 0; i < 2; i++) {
        mc_scene scene;
        mc_scene_renderer *sr = make(BOXES, &scene,
                                     (mc_scene_renderer_desc){ .msaa = want[i][0],
                                                               .shading = MC_SHADING_UNLIT });
        mc_renderer_info gl;

        ASSERT(sr);
        mc_scene_renderer_get_info(sr, NULL, NULL, NULL, &gl);
        EXPECT_EQ_INT(gl.samples, want[i][1]);
        mc_scene_renderer_release(sr);
        mc_scene_release(&scene);
    }
}

/* The overlay's dark box sits in the top-left corner; the rest is the white background. */
TEST(overlay_burns_a_box_into_the_top_left_corner)
{
    mc_scene scene;
    mc_scene_renderer *sr = make(BOXES, &scene,
                                 (mc_scene_renderer_desc){ .background_mode = MC_BACKGROUND_GIVEN,
                                                           .background = { 1.0f, 1.0f, 1.0f },
                                                           .overlay = true });
    mc_image_view v = alloc_view(64, 64, 64 * 4);
    mc_error err;
    rgba p;

    ASSERT(sr && v.pixels);
    ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, NULL, &err), &err);
    p = pixel(&v, 5, 5);
    EXPECT(p.r < 255 && p.g < 255 && p.b < 255);
    EXPECT_RGBA(pixel(&v, 60, 60), 255, 255, 255, 255);
    free(v.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

/* ---- errors ---------------------------------------------------------------------------- */

TEST(a_wrong_view_or_frame_is_a_usage_error)
{
    mc_scene scene;
    mc_scene_renderer *sr = make(BOXES, &scene, (mc_scene_renderer_desc){ 0 });
    mc_image_view good = alloc_view(64, 64, 64 * 4);
    mc_image_view small = { 32, 64, 64 * 4, good.pixels }, tall = { 64, 65, 64 * 4, good.pixels };
    mc_image_view short_stride = { 64, 64, 63 * 4, good.pixels };
    mc_image_view odd_stride = { 64, 64, 64 * 4 + 1, good.pixels };
    mc_image_view none = { 64, 64, 64 * 4, NULL };
    mc_error err;

    ASSERT(sr && good.pixels);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, &small, NULL, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "64x64");
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, &tall, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, &short_stride, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, &odd_stride, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, &none, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 0, NULL, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, -1, &good, NULL, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_scene_renderer_frame(sr, 6, &good, NULL, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "0-5");
    /* and the renderer still works after them */
    EXPECT_OK(mc_scene_renderer_frame(sr, 5, &good, NULL, &err), &err);
    free(good.pixels);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
}

TEST(a_bad_desc_is_a_usage_error)
{
    mc_scene scene;
    mc_scene_renderer *sr = (mc_scene_renderer *)&scene; /* must be reset to NULL */
    mc_scene_renderer_desc d = { 0 };
    mc_error err;

    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    EXPECT(sr == NULL);
    EXPECT_EQ_INT(mc_scene_renderer_create(NULL, &sr, &err), MC_ERR_USAGE);
    ASSERT_OK(mc_scene_load(BOXES, NULL, &scene, &err), &err);
    d.scene = &scene;
    d.fps = (mc_rate){ 24, 0 };
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    d.fps = (mc_rate){ 0, 0 };
    d.background_mode = (mc_background_mode)9;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    d.background_mode = MC_BACKGROUND_SCENE;
    d.clock = (mc_clock)5;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "unknown clock");
    d.clock = MC_CLOCK_IDEAL;
    d.width = -4;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    d.width = 0;
    d.msaa = 3;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    d.msaa = 0;
    d.backend = MC_GL_EGL;
    d.gl_device = 40;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_GL);
    EXPECT_CONTAINS(err.msg, "EGL device 40 does not exist");
    EXPECT(sr == NULL);
    mc_scene_release(&scene);
    mc_scene_renderer_release(NULL);
}

/* A material whose file is not an image: MC_ERR_IMAGE at the scene's material line (line 4,
 * column 20: the path's opening quote). */
TEST(a_texture_that_does_not_decode_is_an_image_error_at_its_line)
{
    char scene_path[1100];
    mc_scene scene;
    mc_scene_renderer *sr = NULL;
    mc_scene_renderer_desc d = { 0 };
    mc_error err;

    ASSERT(test_bad_texture_scene("bad_texture", scene_path, sizeof scene_path));
    ASSERT_OK(mc_scene_load(scene_path, NULL, &scene, &err), &err);
    d.scene = &scene;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_IMAGE);
    EXPECT(sr == NULL);
    EXPECT_EQ_INT(err.line, 4);
    EXPECT_EQ_INT(err.col, 20);
    mc_scene_release(&scene);
}

/* ---- lights and materials --------------------------------------------------------------- */

/* Renders frame 0 of the scene at dir/scene.md5scene (lit, MSAA off) into v. */
static bool render_scene0(const char *dir, mc_image_view *v)
{
    char path[700];
    mc_scene scene;
    mc_scene_renderer_desc d = { .msaa = 1 };
    mc_scene_renderer *sr;
    mc_error err;
    bool ok;

    snprintf(path, sizeof path, "%s/scene.md5scene", dir);
    sr = make(path, &scene, d);
    if (!sr)
        return false;
    ok = mc_scene_renderer_frame(sr, 0, v, NULL, &err) == MC_OK;
    if (!ok)
        test_fail(__FILE__, __LINE__, "frame: %s", err.msg);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
    return ok;
}

/* md5cine's built-in light images (docs/materials-and-shading.md, "Shading and lights"): 64
 * texels, ramp(i) = max(1 - |2 (i + 0.5) / 64 - 1|, 0); the projection's texel (i, j) =
 * byte(255 ramp(i) ramp(j) + 0.5), the falloff's texel i = byte(255 ramp(i) + 0.5); GL_LINEAR,
 * zero outside. */
static double builtin_ramp(int i)
{
    double v = 1.0 - fabs(2.0 * (i + 0.5) / 64.0 - 1.0);

    return v > 0 ? v : 0;
}

static double builtin_texel(int i, int j, bool proj)
{
    if (i < 0 || i > 63 || j < 0 || j > (proj ? 63 : 0))
        return 0.0;
    return (int)(255.0 * builtin_ramp(i) * (proj ? builtin_ramp(j) : 1.0) + 0.5) / 255.0;
}

/* Bilinear sample of the projection (proj) at (s, t) or of the falloff at (s, 0.5). */
static double builtin_sample(double s, double t, bool proj)
{
    double x = s * 64.0 - 0.5, y = proj ? t * 64.0 - 0.5 : 0.0;
    int i = (int)floor(x), j = (int)floor(y);
    double fx = x - i, fy = y - j;

    return builtin_texel(i, j, proj) * (1 - fx) * (1 - fy) +
           builtin_texel(i + 1, j, proj) * fx * (1 - fy) +
           builtin_texel(i, j + 1, proj) * (1 - fx) * fy +
           builtin_texel(i + 1, j + 1, proj) * fx * fy;
}

/* One point light's pass at world point p with normal (-1, 0, 0) and diffuse d: Doom's
 * interaction with the built-in images, clamped to 0..1 (render.h). */
static double point_pass(const double *p, const double *lo, double radius, double colour, double d)
{
    double l[3], len = 0, v;

    for (int i = 0; i < 3; i++) {
        l[i] = lo[i] - p[i];
        len += l[i] * l[i];
    }
    len = sqrt(len);
    v = (-l[0] / len) *
        builtin_sample(0.5 + 0.5 * (p[0] - lo[0]) / radius, 0.5 + 0.5 * (p[1] - lo[1]) / radius,
                       true) *
        builtin_sample(0.5 + 0.5 * (p[2] - lo[2]) / radius, 0.5, false) * d * colour * 2.0;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The scene's own light, at the camera (-100, 0, 0), radius 400, colour 0.5: the box's front
 * face at x = 0 faces it (normal (-1, 0, 0), flat); the centre pixel is the world point
 * (0, -1.5625, -1.5625): n.L = 100 / 100.0244, s = 0.5 + 0.5 * 100 / 400 = 0.625,
 * t = f = 0.5 - 0.5 * 1.5625 / 400, over grey.png (160) with ambient 0.1 (0.2 after the light
 * scale): 255 * (point_pass + 160 / 255 * 0.2). Moving the light behind the box leaves the
 * ambient light only: 160 * 0.2 = 32 (the face looks away from the light: Doom does not light
 * it). */
TEST(a_scene_light_shades_the_box_by_hand)
{
    char cwd[400], dir[512], text[2048];
    mc_image_view v = alloc_view(64, 64, 256);
#define LIGHT_SCENE                                                                             \
    "md5scene 1\ncamera \"%s/data/render/cuts.md5camera\"\n"                                    \
    "output { width 64 height 64 }\n"                                                           \
    "light \"k\" { origin ( %s ) radius 400 color ( 0.5 0.5 0.5 ) }\nambient ( 0.1 0.1 0.1 )\n" \
    "actor \"a\" { mesh \"%s/data/render/box.md5mesh\"\n"                                       \
    "    material \"box\" \"%s/data/render/grey.png\" }\n"
    rgba c;

    ASSERT(v.pixels && getcwd(cwd, sizeof cwd));
    test_tmp_path(dir, sizeof dir, "scene_light");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    snprintf(text, sizeof text, LIGHT_SCENE, cwd, "-100 0 0", cwd, cwd);
    ASSERT(test_write_file(dir, "scene.md5scene", text));
    if (render_scene0(dir, &v)) {
        const double pt[3] = { 0, -1.5625, -1.5625 }, lo[3] = { -100, 0, 0 };
        double want = 255.0 * (point_pass(pt, lo, 400, 0.5, 160 / 255.0) + 160 / 255.0 * 0.2);

        EXPECT(want > 100 && want < 250);
        c = pixel(&v, 32, 32);
        EXPECT(fabs(c.r - want) <= 2 && fabs(c.g - want) <= 2 && fabs(c.b - want) <= 2);
    }
    snprintf(text, sizeof text, LIGHT_SCENE, cwd, "100 0 0", cwd, cwd);
    ASSERT(test_write_file(dir, "scene.md5scene", text));
    if (render_scene0(dir, &v)) {
        c = pixel(&v, 32, 32);
        EXPECT(abs(c.r - 32) <= 1 && abs(c.g - 32) <= 1 && abs(c.b - 32) <= 1);
    }
    free(v.pixels);
}

/* The engine clock poses actors by ConvertTimeToFrame's integer rule. The box (x 0..32, y and z
 * in -25..25) under a fov 90 camera at (-100 0 0), 128x128, one sample: a point at depth d
 * (x + 100) and y is at column 64 - 64 y / d. Its anim (2 frames at 6 fps) moves the root from
 * y 0 to y -80, so a shift s to the right shows the front face's right edge (y = -25 - s, d 100)
 * at 64 + 0.64 (25 + s) and, as the first covered column, the far corner of the left side face
 * (y = 25 - s, d 132) at 64 + 64 (s - 25) / 132. Output frame 3 at 24 fps: the ideal clock shows
 * t = 0.125 s, frame 0.125 * 6 = 0.75, s = 60: columns 80.97 to 118.4. The engine clock shows
 * ms = 16 * floor(3000 / 384) = 112, p = 112 * 6 = 672, lerp 0.672, s = 53.76: columns 77.94
 * to 114.41. Pixel x is covered when x + 0.5 lies inside. Frame 0 (s = 0) shows the front face
 * only: 48 to 80 on both clocks. */
TEST(the_engine_clock_poses_actors_by_whole_milliseconds)
{
    static const char *anim = "MD5Version 10\ncommandline \"\"\nnumFrames 2\nnumJoints 1\n"
                              "frameRate 6\nnumAnimatedComponents 1\n"
                              "hierarchy {\n\t\"root\" -1 2 0\n}\n"
                              "bounds {\n\t( 0 0 0 ) ( 1 1 1 )\n\t( 0 0 0 ) ( 1 1 1 )\n}\n"
                              "baseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n"
                              "frame 0 {\n\t0\n}\nframe 1 {\n\t-80\n}\n";
    static const char *camera = "MD5Version 10\ncommandline \"\"\nnumFrames 1\nframeRate 24\n"
                                "numCuts 0\ncuts {\n}\ncamera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n";
    static const struct {
        mc_clock clock;
        int bg[2], box[3]; /* columns of row 64 */
    } want[2] = {
        { MC_CLOCK_IDEAL, { 80, 119 }, { 81, 100, 117 } },
        { MC_CLOCK_ENGINE, { 77, 115 }, { 78, 80, 113 } },
    };
    char cwd[400], dir[512], text[2048], path[700];
    mc_image_view v = alloc_view(128, 128, 128 * 4);

    ASSERT(v.pixels && getcwd(cwd, sizeof cwd));
    test_tmp_path(dir, sizeof dir, "engine_pose");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    ASSERT(test_write_file(dir, "move.md5anim", anim));
    ASSERT(test_write_file(dir, "front.md5camera", camera));
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"front.md5camera\"\nframes 10\n"
             "output { width 128 height 128 fps 24 }\n"
             "actor \"a\" { mesh \"%s/data/render/box.md5mesh\"\n    anim \"move.md5anim\"\n"
             "    material \"box\" \"%s/data/render/grey.png\" }\n",
             cwd, cwd);
    ASSERT(test_write_file(dir, "scene.md5scene", text));
    snprintf(path, sizeof path, "%s/scene.md5scene", dir);
    for (int c = 0; c < 2; c++) {
        mc_scene scene;
        mc_scene_renderer *sr =
                make(path, &scene,
                     (mc_scene_renderer_desc){
                             .shading = MC_SHADING_UNLIT, .msaa = 1, .clock = want[c].clock });
        mc_scene_frame_info info;
        mc_error err;

        ASSERT(sr);
        ASSERT_OK(mc_scene_renderer_frame(sr, 3, &v, &info, &err), &err);
        for (int i = 0; i < 2; i++)
            EXPECT_RGBA(pixel(&v, want[c].bg[i], 64), 0, 0, 0, 255);
        for (int i = 0; i < 3; i++)
            EXPECT_RGBA(pixel(&v, want[c].box[i], 64), 160, 160, 160, 255);
        ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, &info, &err), &err);
        EXPECT_RGBA(pixel(&v, 47, 64), 0, 0, 0, 255);
        EXPECT_RGBA(pixel(&v, 48, 64), 160, 160, 160, 255);
        EXPECT_RGBA(pixel(&v, 79, 64), 160, 160, 160, 255);
        EXPECT_RGBA(pixel(&v, 80, 64), 0, 0, 0, 255);
        mc_scene_renderer_release(sr);
        mc_scene_release(&scene);
    }
    free(v.pixels);
}

/* Pixels equal to the black background. */
static int background_pixels(const mc_image_view *v)
{
    int n = 0;

    for (int y = 0; y < v->height; y++)
        for (int x = 0; x < v->width; x++) {
            rgba c = pixel(v, x, y);

            n += c.r == 0 && c.g == 0 && c.b == 0;
        }
    return n;
}

/* A material declared in base/materials/box.mtr: its texture is transparent in its left
 * column, so alphaTest 0.5 cuts holes into every face and more background shows than with the
 * opaque box; twoSided then shows the insides of the far faces through the holes, so fewer
 * background pixels than with alphaTest alone. The scene has no material line: the .mtr
 * gives the image. */
TEST(a_base_material_cuts_and_shows_back_faces)
{
    static const uint8_t half[16] = { 200, 200, 200, 0, 200, 200, 200, 255,
                                      200, 200, 200, 0, 200, 200, 200, 255 };
    char cwd[400], dir[512], sub[600], text[2048];
    mc_image_view v = alloc_view(64, 64, 256);
    mc_error err;
    int opaque = 0, cut = 0, both = 0;

    ASSERT(v.pixels && getcwd(cwd, sizeof cwd));
    test_tmp_path(dir, sizeof dir, "scene_material");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    snprintf(sub, sizeof sub, "%s/materials", dir);
    ASSERT(mkdir(sub, 0777) == 0 || errno == EEXIST);
    snprintf(sub, sizeof sub, "%s/half.png", dir);
    ASSERT_OK(mc_png_write(sub, half, 2, 2, 8, 1, &err), &err);
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"%s/data/render/cuts.md5camera\"\nbase \".\"\n"
             "output { width 64 height 64 background ( 0 0 0 ) }\n"
             "actor \"a\" { mesh \"%s/data/render/box.md5mesh\" }\n",
             cwd, cwd);
    ASSERT(test_write_file(dir, "scene.md5scene", text));
    ASSERT(test_write_file(dir, "materials/box.mtr", "box { diffusemap half.png }\n"));
    if (render_scene0(dir, &v))
        opaque = background_pixels(&v);
    ASSERT(test_write_file(dir, "materials/box.mtr",
                           "box {\n    alphaTest 0.5\n    diffusemap half.png\n}\n"));
    if (render_scene0(dir, &v))
        cut = background_pixels(&v);
    ASSERT(test_write_file(dir, "materials/box.mtr",
                    "box {\n    twoSided\n    alphaTest 0.5\n    diffusemap half.png\n}\n"));
    if (render_scene0(dir, &v))
        both = background_pixels(&v);
    EXPECT(opaque > 0);
    EXPECT(cut > opaque + 100);
    EXPECT(both < cut - 50);
    EXPECT(both >= opaque);
    free(v.pixels);
}

/* Renders test_quad_mesh with a base whose materials/quad.mtr is mtr, the actor with extra
 * (yaw, ...), seen from test_front_camera (eye (-100, 0, 0) looking along +X, fov 90 on 64
 * pixels: a point at depth 100 and height h is 32 h / 100 pixels from the centre). */
static bool render_quad_material(const char *leaf, const char *mtr, const char *extra,
                                 mc_image_view *v)
{
    char dir[512], sub[600], text[1024];

    test_tmp_path(dir, sizeof dir, leaf);
    if (!(mkdir(dir, 0777) == 0 || errno == EEXIST))
        return false;
    snprintf(sub, sizeof sub, "%s/materials", dir);
    if (!(mkdir(sub, 0777) == 0 || errno == EEXIST))
        return false;
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"cam.md5camera\"\nbase \".\"\n"
             "output { width 64 height 64 background ( 0 0 0 ) }\n"
             "actor \"a\" { mesh \"quad.md5mesh\" %s }\n", extra);
    return test_write_file(dir, "scene.md5scene", text) &&
           test_write_file(dir, "quad.md5mesh", test_quad_mesh) &&
           test_write_file(dir, "cam.md5camera", test_front_camera) &&
           test_write_file(dir, "materials/quad.mtr", mtr) && render_scene0(dir, v);
}

/* deform sprite (tr_deform.cpp, R_AutospriteDeform): the quad turned edge-on by yaw 90 shows
 * nothing without it; with it, a square of half-size |(0, 25, 25)| 0.707 = 24.996 facing the
 * eye at depth 100: 8.0 pixels each way from the centre, white under a `blend add` of _white. */
TEST(deform_sprite_turns_an_edge_on_quad_to_the_eye)
{
    mc_image_view v = alloc_view(64, 64, 256);

    ASSERT(v.pixels);
    if (render_quad_material("deform_none", "quad { { blend add map _white } }\n", "yaw 90",
                             &v))
        EXPECT_RGBA(pixel(&v, 32, 32), 0, 0, 0, 255);
    if (render_quad_material("deform_sprite",
                             "quad { deform sprite { blend add map _white } }\n", "yaw 90",
                             &v)) {
        EXPECT_RGBA(pixel(&v, 32, 32), 255, 255, 255, 255);
        EXPECT_RGBA(pixel(&v, 25, 38), 255, 255, 255, 255); /* 6.5 pixels off each way */
        EXPECT_RGBA(pixel(&v, 32, 22), 0, 0, 0, 255);       /* 9.5 pixels off */
        EXPECT_RGBA(pixel(&v, 42, 32), 0, 0, 0, 255);
    }
    free(v.pixels);
}

/* deform move 30 (R_MoveDeform): the quad 30 further along +X, at depth 130: 25 * 32 / 130 =
 * 6.15 pixels each way instead of 8; the pixel row 6.5 from the centre leaves it. */
TEST(deform_move_pushes_the_quad_along_x)
{
    mc_image_view v = alloc_view(64, 64, 256);

    ASSERT(v.pixels);
    if (render_quad_material("deform_still", "quad { { blend add map _white } }\n", "", &v)) {
        EXPECT_RGBA(pixel(&v, 32, 25), 255, 255, 255, 255);
        EXPECT_RGBA(pixel(&v, 38, 32), 255, 255, 255, 255);
    }
    if (render_quad_material("deform_move",
                             "quad { deform move 15 * 2 { blend add map _white } }\n", "",
                             &v)) {
        EXPECT_RGBA(pixel(&v, 32, 32), 255, 255, 255, 255);
        EXPECT_RGBA(pixel(&v, 32, 25), 0, 0, 0, 255);
        EXPECT_RGBA(pixel(&v, 38, 32), 0, 0, 0, 255);
        EXPECT_RGBA(pixel(&v, 37, 32), 255, 255, 255, 255); /* 5.5 pixels off */
    }
    free(v.pixels);
}

/* The default rig of docs/materials-and-shading.md ("Shading and lights"), worked out here for
 * a red quad at the origin and a blue one 1000 along +Y: together they span x 0..0,
 * y -25..1025, z -25..25, so c = (0, 500, 0) and r = half the diagonal
 * = 0.5 sqrt(1050^2 + 50^2); the first camera looks along +X, so f = +X, l = +Y. Key at
 * c + 2r normalize(-1, 0.7, 0.9) colour 0.8, fill at c + 2r normalize(-1, -1, 0.3) colour 0.25,
 * Doom point lights with boxes of 6r and the built-in images (point_pass), ambient 0.1, all
 * doubled by the light scale; n = (-1, 0, 0). The centre pixel (32, 32) of shot 0 (camera at
 * (-100, 0, 0), fov 90 on 64 pixels) is the world point (0, -1.5625, -1.5625), that of shot 1
 * (camera 1000 further along +Y) (0, 998.4375, -1.5625). Lights fixed in the world light the
 * two differently; a rig that followed the camera would light them alike. */
static double rig_value(double y, double z)
{
    const double c[3] = { 0, 500, 0 }, r = 0.5 * sqrt(1050.0 * 1050 + 50.0 * 50);
    const double dirs[2][3] = { { -1, 0.7, 0.9 }, { -1, -1, 0.3 } }, colour[2] = { 0.8, 0.25 };
    const double p[3] = { 0, y, z };
    double total = 0.2;

    for (int k = 0; k < 2; k++) {
        double len =
                sqrt(dirs[k][0] * dirs[k][0] + dirs[k][1] * dirs[k][1] + dirs[k][2] * dirs[k][2]);
        double lo[3];

        for (int i = 0; i < 3; i++)
            lo[i] = c[i] + 2 * r * dirs[k][i] / len;
        total += point_pass(p, lo, 6 * r, colour[k], 1.0);
    }
    return 255 * (total < 1 ? total : 1);
}

TEST(default_rig_is_fixed_in_the_world)
{
    char cwd[400], dir[512], text[2048];
    mc_image_view v = alloc_view(64, 64, 256);
    mc_scene scene;
    mc_scene_renderer_desc d = { .msaa = 1 };
    mc_scene_renderer *sr;
    mc_error err;
    double red = rig_value(-1.5625, -1.5625), blue = rig_value(998.4375, -1.5625);

    ASSERT(v.pixels && getcwd(cwd, sizeof cwd));
    test_tmp_path(dir, sizeof dir, "default_rig");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    ASSERT(test_write_file(dir, "quad.md5mesh", test_quad_mesh));
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"%s/data/render/cuts.md5camera\"\n"
             "output { width 64 height 64 background ( 0 0 0 ) }\n"
             "actor \"red\" { mesh \"quad.md5mesh\" material \"quad\" "
             "\"%s/data/render/red.png\" }\n"
             "actor \"blue\" { mesh \"quad.md5mesh\" origin ( 0 1000 0 ) material \"quad\" "
             "\"%s/data/render/blue.png\" }\n",
             cwd, cwd, cwd);
    ASSERT(test_write_file(dir, "scene.md5scene", text));
    snprintf(text, sizeof text, "%s/scene.md5scene", dir);
    sr = make(text, &scene, d);
    ASSERT(sr);
    EXPECT(blue - red > 8);
    ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, NULL, &err), &err);
    EXPECT_NEAR(pixel(&v, 32, 32).r, red, 2);
    EXPECT_EQ_INT(pixel(&v, 32, 32).b, 0);
    ASSERT_OK(mc_scene_renderer_frame(sr, 2, &v, NULL, &err), &err);
    EXPECT_NEAR(pixel(&v, 32, 32).b, blue, 2);
    EXPECT_EQ_INT(pixel(&v, 32, 32).r, 0);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
    free(v.pixels);
}
