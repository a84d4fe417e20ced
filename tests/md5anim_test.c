/* md5anim parsing: an inline fixture with values read off the text, every shared anim against
 * its SOURCE.md counts, and the shipped quirks in strict and lenient mode. */
#include <md5cine/md5anim.h>
#include <md5cine/pose.h>

#include <stdio.h>

#include "test.h"

#define A "data/assets/"

/* Two joints: the root animates tz only (flags 4, value 0), the child qx qy qz (flags 56,
 * values 1-3): numAnimatedComponents 4. */
static const char small_anim[] =
    "MD5Version 10\n"
    "commandline \"\"\n"
    "numFrames 2\n"
    "numJoints 2\n"
    "frameRate 24\n"
    "numAnimatedComponents 4\n"
    "hierarchy {\n"
    "\t\"origin\" -1 4 0\n"
    "\t\"head\" 0 56 1 // origin ( Qx Qy Qz )\n"
    "}\n"
    "bounds {\n"
    "\t( -1 -1 0 ) ( 1 1 2 )\n"
    "\t( -1 -1 0 ) ( 1 1 3 )\n"
    "}\n"
    "baseframe {\n"
    "\t( 0 0 5 ) ( 0 0 0 )\n"
    "\t( 1 0 0 ) ( 0 0.6 0 )\n"
    "}\n"
    "frame 0 {\n"
    "\t5 0 0 0\n"
    "}\n"
    "frame 1 {\n"
    "\t6 0.6 0 0\n"
    "}\n";

TEST(parses_a_small_anim)
{
    mc_anim a;
    mc_error err;

    ASSERT_OK(mc_anim_parse(small_anim, strlen(small_anim), "s.md5anim", NULL, &a, &err), &err);
    EXPECT_EQ_INT(a.num_frames, 2);
    EXPECT_EQ_INT(a.num_joints, 2);
    EXPECT_EQ_INT(a.frame_rate, 24);
    EXPECT_EQ_INT(a.num_components, 4);
    EXPECT_EQ_STR(a.joints[1].name, "head");
    EXPECT_EQ_INT(a.joints[1].parent, 0);
    EXPECT_EQ_INT(a.joints[1].flags, MC_ANIM_QX | MC_ANIM_QY | MC_ANIM_QZ);
    EXPECT_EQ_INT(a.joints[1].first, 1);
    EXPECT_EQ_INT(a.joints[1].line, 9);
    EXPECT_EQ_INT(a.joints[1].col, 2);
    EXPECT_EQ_INT(a.num_bounds, 2);
    EXPECT_NEAR(a.bounds[1].max.z, 3.0, 0.0);
    EXPECT_EQ_VEC3(a.base_pos[0], ((mc_vec3){ 0, 0, 5 }), 0.0f);
    /* baseframe quat (0 0.6 0): w = sqrt(1 - 0.36) = 0.8 */
    EXPECT_NEAR(a.base_rot[1].w, 0.8, 1e-6);
    /* frame 1's values in file order: 6 0.6 0 0 (raw, no w) */
    EXPECT_NEAR(a.frames[4], 6.0, 0.0);
    EXPECT_NEAR(a.frames[5], 0.6, 1e-7);
    EXPECT_NEAR(a.frames[7], 0.0, 0.0);
    mc_anim_release(&a);
    EXPECT(a.frames == NULL);
}

/* One joint, one frame, no animated components: the base frame is the pose. */
static const char still_anim[] =
        "MD5Version 10 commandline \"\" numFrames 1 numJoints 1 frameRate 24 "
        "numAnimatedComponents 0 hierarchy { \"a\" -1 0 0 } bounds { ( 0 0 0 ) "
        "( 0 0 0 ) } baseframe { ( 1 2 3 ) ( 0 0 0 ) } frame 0 { }";

TEST(an_anim_may_have_no_animated_components)
{
    const char *t = still_anim;
    mc_anim a;
    mc_error err;

    ASSERT_OK(mc_anim_parse(t, strlen(t), "z", NULL, &a, &err), &err);
    EXPECT_EQ_INT(a.num_components, 0);
    EXPECT_NEAR(a.base_pos[0].z, 3.0, 0.0);
    mc_anim_release(&a);
}

/* Joint 0 rebased as idMD5Anim::LoadAnim does (Anim.cpp): the root animates tx, tz and qz
 * (flags 1|4|32 = 37, components 0-2), the child qx (component 3). Base frame root ( 10 5 40 ):
 * tx 10 14 18 less 10 is 0 4 8, tz 40 40 44.5 less 40 is 0 0 4.5; ty is not animated and
 * comes from the base frame, now 0; qz and the child's values are untouched. */
TEST(rebases_the_root_as_the_engine_loads_it)
{
    const char *t = "MD5Version 10 commandline \"\" numFrames 3 numJoints 2 frameRate 24 "
                    "numAnimatedComponents 4 hierarchy { \"root\" -1 37 0 \"c\" 0 8 3 } "
                    "bounds { ( 0 0 0 ) ( 1 1 1 ) ( 0 0 0 ) ( 1 1 1 ) ( 0 0 0 ) ( 1 1 1 ) } "
                    "baseframe { ( 10 5 40 ) ( 0 0 0 ) ( 1 0 0 ) ( 0 0 0 ) } "
                    "frame 0 { 10 40 0 0.1 } frame 1 { 14 40 0.2 0.1 } "
                    "frame 2 { 18 44.5 0 0.1 }";
    static const float want[3][4] = { { 0, 0, 0, 0.1f }, { 4, 0, 0.2f, 0.1f },
                                      { 8, 4.5f, 0, 0.1f } };
    mc_anim a;
    mc_error err;

    ASSERT_OK(mc_anim_parse(t, strlen(t), "r", NULL, &a, &err), &err);
    mc_anim_rebase_root(&a);
    for (int f = 0; f < 3; f++)
        for (int c = 0; c < 4; c++)
            EXPECT_NEAR(a.frames[f * 4 + c], want[f][c], 0.0);
    EXPECT_EQ_VEC3(a.base_pos[0], ((mc_vec3){ 0, 0, 0 }), 0.0f);
    EXPECT_EQ_VEC3(a.base_pos[1], ((mc_vec3){ 1, 0, 0 }), 0.0f);
    /* frame 2's root as a pose reads it: ( 8 0 4.5 ), the file's ( 18 5 44.5 ) less the base */
    EXPECT_EQ_VEC3(mc_anim_joint_at(&a, 0, 2).pos, ((mc_vec3){ 8, 0, 4.5f }), 0.0f);
    mc_anim_release(&a);
}

/* Without animated components the base frame's root is still zeroed (LoadAnim zeroes it
 * whatever the components). */
TEST(rebases_a_still_root)
{
    const char *t = still_anim;
    mc_anim a;
    mc_error err;

    ASSERT_OK(mc_anim_parse(t, strlen(t), "z", NULL, &a, &err), &err);
    mc_anim_rebase_root(&a);
    EXPECT_EQ_VEC3(mc_anim_joint_at(&a, 0, 0).pos, ((mc_vec3){ 0, 0, 0 }), 0.0f);
    mc_anim_release(&a);
}

typedef struct anim_counts {
    const char *path;
    int joints, frames, rate, components;
} anim_counts;

/* From the SOURCE.md tables. */
static const anim_counts valid_anims[] = {
    { A "cube2-ffflag/ffflag.md5anim", 19, 120, 30, 57 },
    { A "redeclipse-drone/attack1.md5anim", 27, 12, 24, 162 },
    { A "redeclipse-drone/backward.md5anim", 27, 12, 24, 162 },
    { A "redeclipse-drone/climb-back.md5anim", 27, 5, 24, 162 },
    { A "redeclipse-drone/climb-left.md5anim", 27, 5, 24, 162 },
    { A "redeclipse-drone/climb-right.md5anim", 27, 5, 24, 162 },
    { A "redeclipse-drone/climb.md5anim", 27, 5, 24, 162 },
    { A "redeclipse-drone/crouch.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/dead.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/death.md5anim", 27, 5, 24, 162 },
    { A "redeclipse-drone/forward.md5anim", 27, 12, 24, 162 },
    { A "redeclipse-drone/frag_idle.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/frag_power.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/frag_throw.md5anim", 27, 9, 24, 162 },
    { A "redeclipse-drone/idle.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/left.md5anim", 27, 12, 24, 162 },
    { A "redeclipse-drone/pain1.md5anim", 27, 4, 24, 162 },
    { A "redeclipse-drone/pistol-idle.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/rifle-idle.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-drone/rifle-shoot.md5anim", 27, 4, 24, 162 },
    { A "redeclipse-drone/right.md5anim", 27, 12, 24, 162 },
    { A "redeclipse-drone/sword-attack1.md5anim", 27, 8, 24, 162 },
    { A "redeclipse-drone/sword-attack2.md5anim", 27, 8, 24, 162 },
    { A "redeclipse-drone/sword-idle.md5anim", 27, 2, 24, 162 },
    { A "redeclipse-props/luckystrike-door1/close.md5anim", 1, 6, 24, 6 },
    { A "redeclipse-props/luckystrike-door1/idle.md5anim", 1, 12, 24, 6 },
    { A "redeclipse-props/luckystrike-door1/open.md5anim", 1, 12, 24, 6 },
    { A "redeclipse-quirks/zapper/idle.md5anim", 6, 1, 24, 36 },
    { A "redeclipse-quirks/zapper/reload.md5anim", 6, 25, 24, 36 },
    { A "redeclipse-quirks/zapper/shoot.md5anim", 6, 6, 24, 36 },
};

TEST(loads_every_valid_anim_with_its_documented_counts)
{
    for (size_t i = 0; i < TEST_COUNT(valid_anims); i++) {
        const anim_counts *c = &valid_anims[i];
        mc_anim a;
        mc_error err;

        EXPECT_OK(mc_anim_load(c->path, NULL, &a, &err), &err);
        if (err.code != MC_OK)
            continue;
        EXPECT_EQ_INT(a.num_joints, c->joints);
        EXPECT_EQ_INT(a.num_frames, c->frames);
        EXPECT_EQ_INT(a.frame_rate, c->rate);
        EXPECT_EQ_INT(a.num_components, c->components);
        EXPECT_EQ_INT(a.num_bounds, c->frames);
        mc_anim_release(&a);
    }
}

TEST(reads_ffflag_partial_flags_as_written)
{
    mc_anim a;
    mc_error err;

    ASSERT_OK(mc_anim_load(A "cube2-ffflag/ffflag.md5anim", NULL, &a, &err), &err);
    /* hierarchy line 4: "Bone015" 2 49 5 (Tx Qy Qz) */
    EXPECT_EQ_STR(a.joints[3].name, "Bone015");
    EXPECT_EQ_INT(a.joints[3].flags, 49);
    EXPECT_EQ_INT(a.joints[3].first, 5);
    EXPECT_EQ_INT(a.joints[0].flags, 0);
    /* baseframe line 1: ( -31.8382 -0.000507562 116.117 ) ( -0.707107 0.0 0.0 ):
     * w = sqrt(1 - 0.707107^2) = 0.70710656 */
    EXPECT_NEAR(a.base_pos[0].z, 116.117, 1e-4);
    EXPECT_NEAR(a.base_rot[0].w, 0.70710656, 1e-6);
    /* frame 0 starts 0.000724538 0.000744209 0.714509 -0.000307728 0.00103865 19.0137 */
    EXPECT_NEAR(a.frames[0], 0.000724538, 1e-9);
    EXPECT_NEAR(a.frames[5], 19.0137, 1e-4);
    /* frame 119 starts 0.000748312 */
    EXPECT_NEAR(a.frames[119 * 57], 0.000748312, 1e-9);
    mc_anim_release(&a);
}

typedef struct quirk {
    const char *path;
    int line, col; /* strict error: the first deviation in the file */
    const char *msg;
    int warnings;
    const char *warn[2]; /* lenient warnings in order */
    int wline[2], wcol[2];
    int frames, bounds;
} quirk;

TEST(quirks_fail_strict_and_load_lenient_with_warnings)
{
    /* banner.md5anim: line 16 is "\t\"base\"\t-1 63 36" (parent at column 9); bounds has a 4th
     * entry on line 23 (column 2). grenade-idle: line 11 "\t\"top\"\t-1 63 6" (column 8); its
     * 2nd bounds entry (line 16) is the first extra one since numFrames is 1. plasma-reload
     * starts with commandline. */
    static const quirk cases[] = {
        { A "redeclipse-props/luckystrike-banner01/banner.md5anim", 16, 9,
          "joint 6 'base' is a second root", 2,
          { "joint 6 'base' is a second root", "'bounds' has 4 entries but 'numFrames' is 3" },
          { 16, 23 }, { 9, 2 }, 3, 3 },
        { A "redeclipse-quirks/grenade/grenade-idle.md5anim", 11, 8,
          "joint 1 'top' is a second root", 2,
          { "joint 1 'top' is a second root", "'bounds' has 10 entries but 'numFrames' is 1" },
          { 11, 16 }, { 8, 2 }, 1, 1 },
        { A "redeclipse-quirks/grenade/grenade-shoot.md5anim", 11, 8,
          "joint 1 'top' is a second root", 1, { "joint 1 'top' is a second root", NULL },
          { 11, 0 }, { 8, 0 }, 10, 10 },
        { A "redeclipse-quirks/plasma/plasma-reload.md5anim", 1, 1,
          "expected 'MD5Version', found 'commandline'", 1, { "missing 'MD5Version'", NULL },
          { 1, 0 }, { 1, 0 }, 32, 32 },
    };
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        const quirk *q = &cases[i];
        test_warnings log = { 0 };
        mc_parse_opts opts = { .lenient = true, .warn = test_record_warning, .warn_user = &log };
        mc_anim a;
        mc_error err;

        EXPECT(mc_anim_load(q->path, NULL, &a, &err) != MC_OK);
        if (err.line != q->line || err.col != q->col)
            test_fail(__FILE__, __LINE__, "%s: error at %d:%d, expected %d:%d", q->path,
                      err.line, err.col, q->line, q->col);
        EXPECT_CONTAINS(err.msg, q->msg);
        EXPECT_OK(mc_anim_load(q->path, &opts, &a, &err), &err);
        if (err.code != MC_OK)
            continue;
        EXPECT_EQ_INT(a.num_frames, q->frames);
        EXPECT_EQ_INT(a.num_bounds, q->bounds);
        mc_anim_release(&a);
        EXPECT_EQ_INT(log.count, q->warnings);
        for (int w = 0; w < q->warnings && w < 2; w++) {
            EXPECT_CONTAINS(log.first[w].msg, q->warn[w]);
            EXPECT_EQ_INT(log.first[w].line, q->wline[w]);
            EXPECT_EQ_INT(log.first[w].col, q->wcol[w]);
        }
    }
}

TEST(lenient_keeps_fewer_bounds_than_frames)
{
    const char *t = "MD5Version 10 commandline \"\" numFrames 2 numJoints 1 frameRate 24 "
                    "numAnimatedComponents 0 hierarchy { \"a\" -1 0 0 } bounds { ( 0 0 0 ) "
                    "( 1 1 1 ) } baseframe { ( 0 0 0 ) ( 0 0 0 ) } frame 0 { } frame 1 { }";
    mc_parse_opts opts = { .lenient = true };
    mc_anim a;
    mc_error err;

    EXPECT(mc_anim_parse(t, strlen(t), "z", NULL, &a, &err) == MC_ERR_RANGE);
    EXPECT_CONTAINS(err.msg, "'bounds' has 1 entry but 'numFrames' is 2");
    ASSERT_OK(mc_anim_parse(t, strlen(t), "z", &opts, &a, &err), &err);
    EXPECT_EQ_INT(a.num_bounds, 1);
    mc_anim_release(&a);
}
