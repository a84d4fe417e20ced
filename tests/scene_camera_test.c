/* The scene's camera block: shots become md5camera frames and cuts, read by the unchanged
 * timeline and view code. Every expected matrix below is worked out by hand from the rules in
 * scene.h ("Camera block": F = normalize(target - position), L = Z x F = (-F.y, F.x, 0)
 * normalized, U = F x L) and view.h (mc_view_matrix: p_eye = (-(p - o).L, (p - o).U,
 * -(p - o).F), so the GL view matrix has rows -L | o.L, U | -o.U, -F | o.F). Doom's
 * conventions: +Z up, +X forward, +Y left. */
#include <math.h>
#include <string.h>

#include <md5cine/scene.h>
#include <md5cine/timeline.h>
#include <md5cine/view.h>

#include "test.h"

#define S2 0.70710678f /* sqrt(1/2) */

/* Expected view matrix from its three rows (x y z | w), GL column-major. */
static void expect_view(const mc_view *v, const float rows[3][4])
{
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++)
            EXPECT_NEAR(v->view.m[c * 4 + r], rows[r][c], 1e-3f);
    }
    EXPECT_NEAR(v->view.m[3], 0.0f, 1e-6f);
    EXPECT_NEAR(v->view.m[15], 1.0f, 1e-6f);
}

/* Shot 1 (look_at, 0.5 s at 24 fps): n = 12 steps, stored frames 0..12, cut 12.
 * Shot 2 (orbit, 1 s): n = 24 steps, stored frames 13..37 at angle 90 * j / 24 degrees.
 * 38 stored frames, cuts { 12 }: N - cuts = 37 output frames at 24 fps (DESIGN.md 2.1's example:
 * 10 stored frames with one cut play as 9), the last showing the orbit's end pose. */
static const char two_shots[] =
        "md5scene 1\n"
        "camera {\n"
        "    fps 24\n"
        "    look_at { position ( 10 20 30 ) target ( 110 120 30 ) seconds 0.5 fov 60 }\n"
        "    orbit { center ( 0 0 0 ) radius 100 height 0 degrees 90 seconds 1 }\n"
        "}\n";

TEST(look_at_and_orbit_give_hand_computed_views)
{
    mc_scene s;
    mc_camera cam;
    mc_error err;
    mc_view v;
    mc_timeline_sample smp;

    ASSERT_OK(mc_scene_parse(two_shots, strlen(two_shots), "two.md5scene", NULL, &s, &err), &err);
    EXPECT(s.camera_path == NULL);
    EXPECT_EQ_INT(s.num_shots, 2);
    ASSERT_OK(mc_scene_camera_build(&s, &cam, &err), &err);
    EXPECT_EQ_INT(cam.num_frames, 38);
    EXPECT_EQ_INT(cam.frame_rate, 24);
    ASSERT(cam.num_cuts == 1);
    EXPECT_EQ_INT(cam.cuts[0], 12);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, (mc_rate){ 24, 1 }, 1), 37);

    /* Frame 0: look_at from o = (10 20 30) to (110 120 30): F = (s, s, 0), L = (-s, s, 0),
     * U = (0 0 1) with s = sqrt(1/2). o.L = -10s + 20s = 7.0710678, o.U = 30,
     * o.F = 30s = 21.213203. fov 60. */
    {
        const float rows[3][4] = { { S2, -S2, 0, 7.0710678f },
                                   { 0, 0, 1, -30.0f },
                                   { -S2, -S2, 0, 21.213203f } };
        mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 0, 640, 480, MC_FOV_HORIZONTAL, &v, &smp);
        expect_view(&v, rows);
        EXPECT_NEAR(v.fov, 60.0f, 1e-4f);
        EXPECT_EQ_INT(smp.shot, 0);
    }
    /* Frame 12: t = 0.5 s, p = 12, the cut at 12 moves it to stored 13 = the orbit at angle 0:
     * o = (100 0 0) looking at the origin: F = (-1 0 0), L = (0 -1 0), U = (0 0 1);
     * o.L = 0, o.U = 0, o.F = -100. fov 90 (the default). */
    {
        const float rows[3][4] = { { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 1, 0, 0, -100.0f } };
        mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 12, 640, 480, MC_FOV_HORIZONTAL, &v, &smp);
        expect_view(&v, rows);
        EXPECT_NEAR(v.fov, 90.0f, 1e-4f);
        EXPECT_EQ_INT(smp.shot, 1);
        EXPECT_EQ_INT(smp.stored, 13);
    }
    /* Frame 24: t = 1 s, p = 24 -> stored 25 = orbit step 12, angle 90 * 12 / 24 = 45 deg:
     * o = (100s 100s 0), F = (-s -s 0), L = (s -s 0), U = (0 0 (-s)(-s) - (-s)(s)) = (0 0 1);
     * o.L = 0, o.U = 0, o.F = -100s - 100s... = -100 (|o| = 100). */
    {
        const float rows[3][4] = { { -S2, S2, 0, 0 }, { 0, 0, 1, 0 }, { S2, S2, 0, -100.0f } };
        mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 24, 640, 480, MC_FOV_HORIZONTAL, &v, &smp);
        expect_view(&v, rows);
        EXPECT_EQ_INT(smp.stored, 25);
    }
    mc_camera_release(&cam);
    mc_scene_release(&s);
}

/* An orbit around an actor above its origin: actor at (50 0 0), radius 30, height 40, aim 40:
 * at start 90 deg the eye is (50 30 40) looking at (50 0 40): F = (0 -1 0), L = (1 0 0),
 * U = F x L = (-1*0 - 0*0, 0*1 - 0*0, 0*0 - (-1)(1)) = (0 0 1); o.L = 50, o.U = 40,
 * o.F = -30. */
TEST(orbits_an_actor_with_height_and_aim)
{
    static const char text[] = "md5scene 1\n"
                               "camera { turntable { around \"hero\" radius 30 height 40 aim 40 "
                               "start 90 degrees -180 seconds 2 } }\n"
                               "actor \"hero\" { mesh \"x.md5mesh\" origin ( 50 0 0 ) }\n";
    const float rows[3][4] = { { -1, 0, 0, 50 }, { 0, 0, 1, -40 }, { 0, 1, 0, -30 } };
    mc_scene s;
    mc_camera cam;
    mc_error err;
    mc_view v;

    ASSERT_OK(mc_scene_parse(text, strlen(text), "t.md5scene", NULL, &s, &err), &err);
    ASSERT_OK(mc_scene_camera_build(&s, &cam, &err), &err);
    EXPECT_EQ_INT(cam.num_frames, 49); /* n = 48 steps at the default 24 fps */
    EXPECT_EQ_INT(cam.num_cuts, 0);
    mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 0, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    expect_view(&v, rows);
    /* Frame 24: angle 90 - 180 * 24 / 48 = 0: eye (80 0 40), F = (-1 0 0), L = (0 -1 0):
     * rows (0 1 0 | 0), (0 0 1 | -40), (1 0 0 | -80). */
    {
        const float r2[3][4] = { { 0, 1, 0, 0 }, { 0, 0, 1, -40 }, { 1, 0, 0, -80 } };
        mc_view_at_frame(&cam, (mc_rate){ 24, 1 }, 24, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
        expect_view(&v, r2);
    }
    mc_camera_release(&cam);
    mc_scene_release(&s);
}

/* A keys shot at 10 fps: keys at 0, 1 and 2 s -> n = 20 steps, stored frames 0..20 at key time
 * 2 * j / 20 = j / 10 s, no cut: 21 output frames at 10 fps.
 * Frame 0: eye (100 0 0) at the origin: F = (-1 0 0), L = (0 -1 0), U = (0 0 1);
 *   rows (0 1 0 | 0), (0 0 1 | 0), (1 0 0 | -100).
 * Frame 5 (0.5 s, halfway from key 0 to key 1): eye (50 50 0) at the origin: F = (-s -s 0),
 *   L = (-F.y, F.x, 0) = (s -s 0), U = (0 0 1); o.L = 0, o.U = 0, o.F = -100 s = -70.710678;
 *   rows (-s s 0 | 0), (0 0 1 | 0), (s s 0 | -70.710678).
 * Frame 15 (1.5 s, halfway from key 1 to key 2): eye (0 100 50) at (0 0 50): F = (0 -1 0),
 *   L = (1 0 0), U = (0 0 1); o.L = 0, o.U = 50, o.F = -100; rows (-1 0 0 | 0),
 *   (0 0 1 | -50), (0 1 0 | -100). */
TEST(keys_move_the_camera_between_keys)
{
    static const char text[] = "md5scene 1\n"
                               "camera { fps 10 keys { fov 60 key 0 ( 100 0 0 ) ( 0 0 0 ) "
                               "key 1 ( 0 100 0 ) ( 0 0 0 ) key 2 ( 0 100 100 ) ( 0 0 100 ) } }\n";
    const float r0[3][4] = { { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 1, 0, 0, -100 } };
    const float r5[3][4] = { { -S2, S2, 0, 0 }, { 0, 0, 1, 0 }, { S2, S2, 0, -70.710678f } };
    const float r15[3][4] = { { -1, 0, 0, 0 }, { 0, 0, 1, -50 }, { 0, 1, 0, -100 } };
    mc_scene s;
    mc_camera cam;
    mc_error err;
    mc_view v;

    ASSERT_OK(mc_scene_parse(text, strlen(text), "k.md5scene", NULL, &s, &err), &err);
    ASSERT(s.num_shots == 1 && s.shots[0].kind == MC_SHOT_KEYS);
    EXPECT_EQ_INT(s.shots[0].num_keys, 3);
    EXPECT_NEAR(s.shots[0].seconds, 2.0f, 0.0f);
    ASSERT_OK(mc_scene_camera_build(&s, &cam, &err), &err);
    EXPECT_EQ_INT(cam.num_frames, 21);
    EXPECT_EQ_INT(cam.num_cuts, 0);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, (mc_rate){ 10, 1 }, 1), 21);
    mc_view_at_frame(&cam, (mc_rate){ 10, 1 }, 0, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    expect_view(&v, r0);
    EXPECT_NEAR(v.fov, 60.0f, 1e-4f);
    mc_view_at_frame(&cam, (mc_rate){ 10, 1 }, 5, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    expect_view(&v, r5);
    mc_view_at_frame(&cam, (mc_rate){ 10, 1 }, 15, 640, 480, MC_FOV_HORIZONTAL, &v, NULL);
    expect_view(&v, r15);
    mc_camera_release(&cam);
    mc_scene_release(&s);
}

TEST(rejects_bad_camera_blocks_at_their_token)
{
    static const struct {
        const char *text;
        mc_status code;
        int line, col;
        const char *msg;
    } cases[] = {
        { "md5scene 1\ncamera { }\n", MC_ERR_SYNTAX, 2, 10, "camera block has no shot" },
        { "md5scene 1\ncamera { look_at { position ( 0 0 0 ) } }\n", MC_ERR_SYNTAX, 2, 10,
          "'look_at' shot needs 'position' and 'target'" },
        { "md5scene 1\ncamera { orbit { height 3 } }\n", MC_ERR_SYNTAX, 2, 10,
          "'orbit' shot has no 'radius'" },
        { "md5scene 1\ncamera { orbit { radius 0 } }\n", MC_ERR_RANGE, 2, 25,
          "invalid 'radius' 0, expected above 0 to 1e+06" },
        { "md5scene 1\ncamera { look_at { fov 180 } }\n", MC_ERR_RANGE, 2, 24,
          "invalid 'fov' 180, expected above 0 and below 180" },
        { "md5scene 1\ncamera { orbit { position ( 0 0 0 ) } }\n", MC_ERR_SYNTAX, 2, 18,
          "unknown keyword 'position' in 'orbit' shot" },
        { "md5scene 1\ncamera { dolly { } }\n", MC_ERR_SYNTAX, 2, 10,
          "expected 'fps', 'look_at', 'orbit', 'turntable', 'keys' or '}' in camera, found "
          "'dolly'" },
        { "md5scene 1\ncamera { keys { key 0 ( 0 0 0 ) ( 1 0 0 ) } }\n", MC_ERR_SYNTAX, 2, 10,
          "'keys' shot needs at least 2 keys, has 1" },
        { "md5scene 1\ncamera { keys { key 1 ( 0 0 0 ) ( 1 0 0 ) } }\n", MC_ERR_RANGE, 2, 21,
          "the first key is at 1, expected 0" },
        { "md5scene 1\ncamera { keys { key 0 ( 0 0 0 ) ( 1 0 0 ) key 0 ( 0 0 0 ) ( 1 0 0 ) } }\n",
          MC_ERR_RANGE, 2, 47, "invalid key time 0, expected above 0 (the key before) to 3600" },
        /* Values just past a bound are printed with the digits that tell them from it: the
         * float nearest 3600.001 is 3600.0009765625, the one nearest 3599.999 is
         * 3599.9990234375; six significant digits would print both as 3600. */
        { "md5scene 1\ncamera { keys { key 0 ( 0 0 0 ) ( 1 0 0 ) key 3600.001 ( 0 0 0 ) ( 1 0 0 ) } }\n",
          MC_ERR_RANGE, 2, 47,
          "invalid key time 3600.001, expected above 0 (the key before) to 3600" },
        { "md5scene 1\ncamera { keys { key 0 ( 0 0 0 ) ( 1 0 0 ) key 3599.999 ( 0 0 0 ) ( 1 0 0 ) "
          "key 3599.999 ( 0 0 0 ) ( 1 0 0 ) } }\n",
          MC_ERR_RANGE, 2, 80,
          "invalid key time 3599.999, expected above 3599.999 (the key before) to 3600" },
        { "md5scene 1\ncamera { look_at { seconds 3600.001 } }\n", MC_ERR_RANGE, 2, 28,
          "invalid 'seconds' 3600.001, expected above 0 to 3600" },
        { "md5scene 1\ncamera { keys { seconds 2 } }\n", MC_ERR_SYNTAX, 2, 17,
          "unknown keyword 'seconds' in 'keys' shot" },
        /* hints name only what the shot's kind takes: 'radius' is no hint for a look_at */
        { "md5scene 1\ncamera { look_at { positon ( 0 0 0 ) } }\n", MC_ERR_SYNTAX, 2, 20,
          "unknown keyword 'positon' in 'look_at' shot (did you mean 'position'?)" },
        { "md5scene 1\ncamera { look_at { radus 3 } }\n", MC_ERR_SYNTAX, 2, 20,
          "unknown keyword 'radus' in 'look_at' shot" },
        { "md5scene 1\ncamera { orbit { radus 3 } }\n", MC_ERR_SYNTAX, 2, 18,
          "unknown keyword 'radus' in 'orbit' shot (did you mean 'radius'?)" },
        { "md5scene 1\ncamera { keys { kye 0 ( 0 0 0 ) ( 1 0 0 ) } }\n", MC_ERR_SYNTAX, 2, 17,
          "unknown keyword 'kye' in 'keys' shot (did you mean 'key'?)" },
        { "md5scene 1\ncamera { orbt { radius 3 } }\n", MC_ERR_SYNTAX, 2, 10,
          "expected 'fps', 'look_at', 'orbit', 'turntable', 'keys' or '}' in camera, found "
          "'orbt' (did you mean 'orbit'?)" },
    };
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        mc_scene s;
        mc_error err;

        EXPECT_EQ_INT(mc_scene_parse(cases[i].text, strlen(cases[i].text), "e.md5scene", NULL, &s,
                                     &err),
                      cases[i].code);
        EXPECT_EQ_INT(err.line, cases[i].line);
        EXPECT_EQ_INT(err.col, cases[i].col);
        EXPECT_EQ_STR(err.msg, cases[i].msg);
    }
}

TEST(rejects_a_look_at_its_own_position_and_an_unknown_actor)
{
    static const char same[] = "md5scene 1\ncamera { look_at { position ( 1 2 3 ) "
                               "target ( 1 2 3 ) } }\n";
    static const char up[] = "md5scene 1\ncamera { look_at { position ( 1 2 3 ) "
                             "target ( 1 2 9 ) } }\n";
    static const char who[] = "md5scene 1\ncamera { orbit { around \"nobody\" radius 5 } }\n";
    const char *texts[3] = { same, up, who };
    const mc_status codes[3] = { MC_ERR_RANGE, MC_ERR_RANGE, MC_ERR_SYNTAX };
    const int cols[3] = { 10, 10, 25 };

    for (int i = 0; i < 3; i++) {
        mc_scene s;
        mc_camera cam;
        mc_error err;

        ASSERT_OK(mc_scene_parse(texts[i], strlen(texts[i]), "b.md5scene", NULL, &s, &err), &err);
        EXPECT_EQ_INT(mc_scene_camera_build(&s, &cam, &err), codes[i]);
        EXPECT_EQ_INT(err.line, 2);
        EXPECT_EQ_INT(err.col, cols[i]);
        EXPECT_EQ_INT(cam.num_frames, 0);
        mc_scene_release(&s);
    }
}
