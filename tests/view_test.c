/* view: camera views from the timeline, fov modes, Doom's view and projection matrices.
 * Expected values are worked out in the comments (semantics reference 5.5, 6.2, 6.3) or come
 * from a reference timeline written here from DESIGN.md 2.1 with integer arithmetic. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/md5camera.h>
#include <md5cine/timeline.h>
#include <md5cine/view.h>

#include "test.h"

#define S 0.70710678f

static void eye(const mc_mat4 *v, mc_vec3 p, float out[4])
{
    mc_mat4_apply(v, p, 1.0f, out);
}

TEST(view_matrix_puts_what_is_ahead_at_negative_z)
{
    /* reference 6.2: camera at (100, 0, 50), identity axis; (200, 0, 50) is 100 ahead ->
     * eye (0, 0, -100). 10 to the left (+Y) -> eye x = -10; 10 up -> eye y = +10. */
    mc_mat3 id = mc_mat3_identity();
    mc_mat4 v = mc_view_matrix(mc_v3(100, 0, 50), &id);
    float e[4];
    eye(&v, mc_v3(200, 0, 50), e);
    EXPECT_NEAR(e[0], 0.0, 1e-5);
    EXPECT_NEAR(e[1], 0.0, 1e-5);
    EXPECT_NEAR(e[2], -100.0, 1e-5);
    EXPECT_NEAR(e[3], 1.0, 0.0);
    eye(&v, mc_v3(100, 10, 50), e);
    EXPECT_NEAR(e[0], -10.0, 1e-5);
    eye(&v, mc_v3(100, 0, 60), e);
    EXPECT_NEAR(e[1], 10.0, 1e-5);
}

TEST(view_matrix_follows_a_turned_camera)
{
    /* quat (0, 0, -s) is yaw 90: forward +Y, left -X. From (0, 0, 0), (0, 100, 0) is ahead
     * -> eye (0, 0, -100); (-10, 0, 0) is to the left -> eye x = -10. */
    mc_mat3 axis = mc_quat_to_mat3(mc_quat_from_xyz(0.0f, 0.0f, -S));
    mc_mat4 v = mc_view_matrix(mc_v3(0, 0, 0), &axis);
    float e[4];
    eye(&v, mc_v3(0, 100, 0), e);
    EXPECT_NEAR(e[0], 0.0, 1e-5);
    EXPECT_NEAR(e[2], -100.0, 1e-5);
    eye(&v, mc_v3(-10, 0, 0), e);
    EXPECT_NEAR(e[0], -10.0, 1e-5);
    EXPECT_NEAR(e[2], 0.0, 1e-5);
}

TEST(projection_maps_a_known_point)
{
    /* fov_x 90 -> P0 = 1; fov_y 73.739795 (tan 36.869898 = 0.75) -> P5 = 4/3. Eye point
     * (10, 30, -100): w = 100, x = 10 / 100 = 0.1, y = (4/3) 30 / 100 = 0.4,
     * z = (-0.999 (-100) - 2 (1)) / 100 = 0.979. */
    mc_mat4 p = mc_view_projection(90.0f, 73.739795f, 1.0f);
    float c[4];
    mc_mat4_apply(&p, mc_v3(10, 30, -100), 1.0f, c);
    EXPECT_NEAR(c[3], 100.0, 1e-4);
    EXPECT_NEAR(c[0] / c[3], 0.1, 1e-6);
    EXPECT_NEAR(c[1] / c[3], 0.4, 1e-6);
    EXPECT_NEAR(c[2] / c[3], 0.979, 1e-6);
    EXPECT(p.m[10] == -0.999f);
    EXPECT_NEAR(p.m[11], -1.0, 0.0);
    EXPECT_NEAR(p.m[14], -2.0, 0.0);
    EXPECT_NEAR(p.m[15], 0.0, 0.0);
}

TEST(horizontal_fov_spans_the_output_width)
{
    /* 1920 x 1080, fov 90: fov_y = 2 atan(1 / (16/9)) = 2 atan(0.5625) = 58.715507 */
    float fx, fy;
    mc_view_fov(90.0f, 1920, 1080, MC_FOV_HORIZONTAL, &fx, &fy);
    EXPECT_NEAR(fx, 90.0, 0.0);
    EXPECT_NEAR(fy, 58.715507, 1e-3);
    /* 640 x 480: fov_y = 2 atan(0.75) = 73.739795 */
    mc_view_fov(90.0f, 640, 480, MC_FOV_HORIZONTAL, &fx, &fy);
    EXPECT_NEAR(fy, 73.739795, 1e-3);
}

TEST(doom_fov_keeps_the_4_3_vertical_fov)
{
    /* reference 5.5 table: 90 -> 16:9 (106.260, 73.740), 16:10 (100.389, 73.740), 4:3
     * (90, 73.740); 75 -> 16:9 (91.309, 59.840) */
    float fx, fy;
    mc_view_fov(90.0f, 1920, 1080, MC_FOV_DOOM, &fx, &fy);
    EXPECT_NEAR(fx, 106.260, 1e-3);
    EXPECT_NEAR(fy, 73.740, 1e-3);
    mc_view_fov(90.0f, 1920, 1200, MC_FOV_DOOM, &fx, &fy);
    EXPECT_NEAR(fx, 100.389, 1e-3);
    EXPECT_NEAR(fy, 73.740, 1e-3);
    mc_view_fov(90.0f, 1024, 768, MC_FOV_DOOM, &fx, &fy);
    EXPECT_NEAR(fx, 90.0, 1e-3);
    EXPECT_NEAR(fy, 73.740, 1e-3);
    mc_view_fov(75.0f, 1280, 720, MC_FOV_DOOM, &fx, &fy);
    EXPECT_NEAR(fx, 91.309, 1e-3);
    EXPECT_NEAR(fy, 59.840, 1e-3);
    /* narrower than 4:3 (1:1): Doom keeps fov_x = 90, fov_y = 2 atan(tan 45 / 1) = 90 */
    mc_view_fov(90.0f, 500, 500, MC_FOV_DOOM, &fx, &fy);
    EXPECT_NEAR(fx, 90.0, 1e-3);
    EXPECT_NEAR(fy, 90.0, 1e-3);
}

/* A hand-built two-frame camera: (0,0,0) yaw 0 fov 90 -> (10,20,30) yaw 90 fov 60, 24 fps. */
static void two_frame_camera(mc_camera *cam, mc_camera_frame fr[2])
{
    memset(cam, 0, sizeof *cam);
    fr[0] = (mc_camera_frame){ { 0, 0, 0 }, { 0, 0, 0, 1 }, 90.0f };
    fr[1] = (mc_camera_frame){ { 10, 20, 30 }, mc_quat_from_xyz(0.0f, 0.0f, -S), 60.0f };
    cam->name = "two";
    cam->num_frames = 2;
    cam->frame_rate = 24;
    cam->frames = fr;
}

TEST(view_interpolates_position_fov_and_rotation)
{
    /* output frame 1 at 48 fps is p = 0.5: origin (5, 10, 15), fov 75, rotation yaw 45 so
     * forward = (cos 45, sin 45, 0) */
    mc_camera cam;
    mc_camera_frame fr[2];
    two_frame_camera(&cam, fr);
    mc_view v;
    mc_timeline_sample s;
    mc_view_at_frame(&cam, (mc_rate){ 48, 1 }, 1, 1280, 720, MC_FOV_HORIZONTAL, &v, &s);
    EXPECT(s.stored == 0 && s.next == 1);
    EXPECT_EQ_VEC3(v.origin, mc_v3(5, 10, 15), 1e-5f);
    EXPECT_NEAR(v.fov, 75.0, 1e-4);
    EXPECT_NEAR(v.fov_x, 75.0, 1e-4);
    EXPECT_EQ_VEC3(mc_v3(v.axis.m[0][0], v.axis.m[0][1], v.axis.m[0][2]), mc_v3(S, S, 0),
                   1e-5f);
    /* the matrices are the ones for that origin, axis and fov */
    float e[4];
    mc_vec3 ahead = mc_v3_add(v.origin, mc_v3(50 * S, 50 * S, 0));
    mc_mat4_apply(&v.view, ahead, 1.0f, e);
    EXPECT_NEAR(e[2], -50.0, 1e-4);
    EXPECT_NEAR(v.proj.m[0], 1.0 / tan(37.5 * 3.14159265358979 / 180.0), 1e-5);
}

TEST(view_at_a_whole_frame_is_the_stored_frame)
{
    mc_camera cam;
    mc_camera_frame fr[2];
    two_frame_camera(&cam, fr);
    mc_view v;
    mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 1, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    EXPECT_EQ_VEC3(v.origin, fr[1].pos, 0.0f);
    EXPECT_NEAR(v.fov, 60.0, 0.0);
    /* later than the end: the last stored frame is held */
    mc_view_at_time(&cam, 10.0, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    EXPECT_EQ_VEC3(v.origin, fr[1].pos, 0.0f);
}

/* ------------------------------------------------------------------ property tests */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rng_next(rng *r) /* xorshift64* */
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 2685821657736338717ull) >> 32);
}

static int rng_range(rng *r, int lo, int hi) /* [lo, hi] */
{
    return lo + (int)(rng_next(r) % (uint32_t)(hi - lo + 1));
}

/* Frames at x = 10 i; every frame after the j-th cut is moved to y = 10000 j, so a blend of a
 * cut pair would land strictly between two multiples of 10000 in y. */
static void random_camera(rng *r, mc_camera *cam, mc_camera_frame *fr, int *cuts)
{
    static const int rates[] = { 24, 25, 30, 60 };
    memset(cam, 0, sizeof *cam);
    cam->num_frames = rng_range(r, 2, 40);
    cam->frame_rate = rates[rng_range(r, 0, 3)];
    int n = 0;
    for (int c = 1; c < cam->num_frames; c++)
        if (rng_range(r, 0, 3) == 0)
            cuts[n++] = c;
    cam->num_cuts = n;
    cam->cuts = cuts;
    int shot = 0;
    for (int i = 0; i < cam->num_frames; i++) {
        if (i > 0 && shot < n && cuts[shot] == i - 1)
            shot++;
        fr[i] = (mc_camera_frame){ { 10.0f * (float)i, 10000.0f * (float)shot, 0 },
                                   { 0, 0, 0, 1 }, 90.0f };
    }
    cam->frames = fr;
}

/* DESIGN.md 2.1 in integers: the stored frame shown at output frame k, or -1 when k falls
 * between two stored frames (*lo gets the frame interpolated from). */
static int reference_stored(const mc_camera *cam, int fps, int64_t k, int *lo)
{
    int64_t num = k * cam->frame_rate;
    int64_t f = num / fps;
    bool whole = num % fps == 0;
    for (int i = 0; i < cam->num_cuts; i++) {
        if (f < cam->cuts[i])
            break;
        f++;
    }
    *lo = (int)f;
    if (f > cam->num_frames - 2)
        return cam->num_frames - 1;
    return whole ? (int)f : -1;
}

static bool on_one_shot(float y)
{
    float shot = roundf(y / 10000.0f);
    return fabsf(y - shot * 10000.0f) < 0.5f;
}

TEST(random_cameras_never_blend_across_a_cut)
{
    static const int fpss[] = { 13, 24, 30, 48, 60 };
    rng r = { 0x9E3779B97F4A7C15ull };
    mc_camera_frame fr[40];
    int cuts[40];
    int checked = 0;
    for (int trial = 0; trial < 300; trial++) {
        mc_camera cam;
        random_camera(&r, &cam, fr, cuts);
        int fps = fpss[rng_range(&r, 0, 4)];
        int64_t count = mc_timeline_frame_count(&cam, (mc_rate){ fps, 1 }, 10);
        for (int64_t k = 0; k < count; k++) {
            mc_view v;
            mc_timeline_sample s;
            mc_view_at_frame(&cam, (mc_rate){ fps, 1 }, k, 640, 480, MC_FOV_HORIZONTAL, &v, &s);
            int lo, want = reference_stored(&cam, fps, k, &lo);
            if (want >= 0) {
                if (!EXPECT(v.origin.x == fr[want].pos.x && v.origin.y == fr[want].pos.y))
                    return;
            } else {
                /* strictly between stored lo and lo + 1 */
                EXPECT(v.origin.x > fr[lo].pos.x && v.origin.x < fr[lo + 1].pos.x);
            }
            EXPECT(on_one_shot(v.origin.y));
            /* sub-frame times between output frames k and k + 1 */
            for (int sub = 1; sub < 8; sub++) {
                double t = ((double)k + sub / 8.0) / fps;
                mc_view_at_time(&cam, t, 640, 480, MC_FOV_HORIZONTAL, &v, &s);
                if (!on_one_shot(v.origin.y)) {
                    test_fail(__FILE__, __LINE__, "trial %d: t %g blends %d -> %d (y %g)",
                              trial, t, s.stored, s.next, (double)v.origin.y);
                    return;
                }
                for (int c = 0; c < cam.num_cuts; c++)
                    EXPECT(!(s.stored == cam.cuts[c] && s.next == cam.cuts[c] + 1));
                checked++;
            }
        }
    }
    EXPECT(checked > 1000);
}
