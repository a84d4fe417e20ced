/* md5camera parsing: inline fixtures and the hand-written cameras in data/camera (values read
 * off the text), and the only third-party camera, which is invalid. */
#include <md5cine/md5camera.h>

#include "test.h"

static const char small_camera[] =
    "MD5Version 10\n"
    "commandline \"\"\n"
    "numFrames 3\n"
    "frameRate 30\n"
    "numCuts 1\n"
    "cuts {\n"
    "\t1\n"
    "}\n"
    "camera {\n"
    "\t( 0 0 64 ) ( 0 0 0 ) 90\n"
    "\t( 1 2 3 ) ( 0 0 -0.6 ) 75.5\n"
    "\t( -1 -2 -3 ) ( 0.6 0 0 ) 1e1\n"
    "}\n";

TEST(parses_a_small_camera)
{
    mc_camera c;
    mc_error err;

    ASSERT_OK(mc_camera_parse(small_camera, strlen(small_camera), "c", NULL, &c, &err), &err);
    EXPECT_EQ_INT(c.num_frames, 3);
    EXPECT_EQ_INT(c.frame_rate, 30);
    EXPECT_EQ_INT(c.num_cuts, 1);
    EXPECT_EQ_INT(c.cuts[0], 1);
    EXPECT_EQ_VEC3(c.frames[1].pos, ((mc_vec3){ 1, 2, 3 }), 0.0f);
    /* (0 0 -0.6): w = sqrt(1 - 0.36) = 0.8 */
    EXPECT_NEAR(c.frames[1].rot.z, -0.6, 1e-7);
    EXPECT_NEAR(c.frames[1].rot.w, 0.8, 1e-6);
    EXPECT_NEAR(c.frames[0].rot.w, 1.0, 0.0);
    EXPECT_NEAR(c.frames[1].fov, 75.5, 0.0);
    EXPECT_NEAR(c.frames[2].fov, 10.0, 0.0);
    mc_camera_release(&c);
    EXPECT(c.frames == NULL);
}

TEST(loads_the_hand_written_cameras)
{
    /* cut4.md5camera: 10 frames at 24, cut 4; frame i at ( 10 i, 0, 64 ), fov 90. */
    mc_camera c;
    mc_error err;

    ASSERT_OK(mc_camera_load("data/camera/cut4.md5camera", NULL, &c, &err), &err);
    EXPECT_EQ_INT(c.num_frames, 10);
    EXPECT_EQ_INT(c.frame_rate, 24);
    EXPECT_EQ_INT(c.num_cuts, 1);
    EXPECT_EQ_INT(c.cuts[0], 4);
    EXPECT_EQ_VEC3(c.frames[9].pos, ((mc_vec3){ 90, 0, 64 }), 0.0f);
    mc_camera_release(&c);
    ASSERT_OK(mc_camera_load("data/camera/cuts_2_5_7.md5camera", NULL, &c, &err), &err);
    EXPECT_EQ_INT(c.num_cuts, 3);
    EXPECT_EQ_INT(c.cuts[2], 7);
    mc_camera_release(&c);
    ASSERT_OK(mc_camera_load("data/camera/single.md5camera", NULL, &c, &err), &err);
    EXPECT_EQ_INT(c.num_frames, 1);
    EXPECT_EQ_INT(c.num_cuts, 0);
    mc_camera_release(&c);
    ASSERT_OK(mc_camera_load("data/camera/fps60.md5camera", NULL, &c, &err), &err);
    EXPECT_EQ_INT(c.frame_rate, 60);
    mc_camera_release(&c);
}

TEST(rejects_the_assimp_camera_with_a_cut_past_the_end)
{
    /* numFrames 1 and cuts { 8 } (line 9, column 1). */
    mc_camera c;
    mc_error err;

    EXPECT(mc_camera_load("data/assets/assimp-invalid/InvalidCameraCut.md5camera", NULL, &c,
                          &err) == MC_ERR_RANGE);
    EXPECT_AT(&err, 9, 1, "cut 8 is out of range");
}

TEST(a_fractional_frame_rate_is_an_error)
{
    const char *t = "MD5Version 10\ncommandline \"\"\nnumFrames 1\nframeRate 29.97\n";
    mc_camera c;
    mc_error err;

    EXPECT(mc_camera_parse(t, strlen(t), "f", NULL, &c, &err) == MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.line, 4);
    EXPECT_EQ_INT(err.col, 11);
    EXPECT_EQ_STR(err.msg, "expected integer, found '29.97'");
}

TEST(lenient_reads_a_camera_without_a_version)
{
    const char *t = "commandline \"\" numFrames 1 frameRate 24 numCuts 0 cuts { } "
                    "camera { ( 0 0 0 ) ( 0 0 0 ) 90 }";
    mc_parse_opts opts = { .lenient = true };
    mc_camera c;
    mc_error err;

    EXPECT(mc_camera_parse(t, strlen(t), "v", NULL, &c, &err) == MC_ERR_SYNTAX);
    ASSERT_OK(mc_camera_parse(t, strlen(t), "v", &opts, &c, &err), &err);
    EXPECT_EQ_INT(c.num_frames, 1);
    mc_camera_release(&c);
}
