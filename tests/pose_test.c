/* pose: anim sampling, joint matching by name, concatenation and skinning (normals and tangents:
 * pose_normals_test.c). The small cases build meshes and anims by hand and check values worked
 * out in the comments (semantics reference 2.4, the spec's worked example); the real-file cases
 * check the shared assets against relations that must hold whatever the data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "pose_fixture.h"
#include "test.h"

/* ------------------------------------------------------------------ hand-built fixtures */

/* Reference 2.4: root joint 0 at the origin turned yaw 90 (file quat (0, 0, -s)), child joint 1
 * 10 units along the root's +X, i.e. at (0, 10, 0) in model space with the same rotation. */
typedef struct two_bone {
    mc_mesh_joint mj[2];
    mc_vert vert[1];
    mc_weight weight[1];
    mc_submesh sm;
    mc_mesh mesh;
    mc_anim_joint aj[2];
    mc_vec3 base_pos[2];
    mc_quat base_rot[2];
    mc_anim anim;
} two_bone;

static void two_bone_init(two_bone *f)
{
    memset(f, 0, sizeof *f);
    mc_quat yaw90 = mc_quat_from_xyz(0.0f, 0.0f, -S);
    f->mj[0] = (mc_mesh_joint){ "root", -1, { 0, 0, 0 }, yaw90, 2, 5 };
    f->mj[1] = (mc_mesh_joint){ "child", 0, { 0, 10, 0 }, yaw90, 3, 5 };
    f->vert[0] = (mc_vert){ { 0.5f, 0.5f }, 0, 1 };
    f->weight[0] = (mc_weight){ 1, 1.0f, { 1, 0, 0 } };
    f->sm = (mc_submesh){ .shader = "skin", .num_verts = 1, .verts = f->vert, .num_weights = 1,
                         .weights = f->weight };
    f->mesh.name = "two.md5mesh";
    f->mesh.num_joints = 2;
    f->mesh.joints = f->mj;
    f->mesh.num_meshes = 1;
    f->mesh.meshes = &f->sm;
    f->aj[0] = (mc_anim_joint){ "root", -1, 0, 0, 7, 5 };
    f->aj[1] = (mc_anim_joint){ "child", 0, 0, 0, 8, 5 };
    f->base_pos[0] = mc_v3(0, 0, 0);
    f->base_pos[1] = mc_v3(10, 0, 0); /* parent space */
    f->base_rot[0] = yaw90;
    f->base_rot[1] = mc_quat_identity();
    f->anim.name = "two.md5anim";
    f->anim.num_frames = 1;
    f->anim.frame_rate = 24;
    f->anim.num_joints = 2;
    f->anim.joints = f->aj;
    f->anim.base_pos = f->base_pos;
    f->anim.base_rot = f->base_rot;
}

TEST(worked_example_weight_lands_at_0_11_0)
{
    /* (1, 0, 0) * M1 + t1 = row0(M0) + (0, 10, 0) = (0, 1, 0) + (0, 10, 0) = (0, 11, 0). The
     * Hamilton mistake (w = +sqrt with q p q^-1) would give (0, -11, 0). */
    two_bone f;
    two_bone_init(&f);
    int map[2];
    mc_error err;
    ASSERT_OK(mc_pose_map_anim(&f.mesh, &f.anim, map, &err), &err);
    mc_joint_xform joints[2];
    mc_pose_sample(&f.mesh, &f.anim, map, 0.0, NULL, joints);
    EXPECT_EQ_VEC3(joints[1].pos, mc_v3(0, 10, 0), 1e-5f);
    mc_vec3 p;
    mc_skin_positions(&f.sm, joints, &p);
    EXPECT_EQ_VEC3(p, mc_v3(0, 11, 0), 1e-5f);
    /* the bind pose from the mesh joints gives the same vertex */
    mc_pose_bind(&f.mesh, joints);
    mc_skin_positions(&f.sm, joints, &p);
    EXPECT_EQ_VEC3(p, mc_v3(0, 11, 0), 1e-5f);
    mc_skin_bind_positions(&f.mesh, 0, &p);
    EXPECT_EQ_VEC3(p, mc_v3(0, 11, 0), 1e-5f);
}

TEST(spec_example_head_56_10_reads_values_10_to_12)
{
    /* "head" 1 56 10: flags 56 = QX|QY|QZ, so qx qy qz are values 10, 11, 12 of the frame and
     * the position stays at the base frame's. w = sqrt(1 - 0.01 - 0.04 - 0.09) = sqrt(0.86). */
    mc_anim_joint aj[3] = { { "origin", -1, 0, 0, 1, 1 }, { "neck", 0, 0, 0, 2, 1 },
                            { "head", 1, 56, 10, 3, 1 } };
    mc_vec3 bp[3] = { { 0, 0, 0 }, { 0, 0, 5 }, { 1, 2, 3 } };
    mc_quat br[3] = { { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0.5f, 0, 0, 0.8660254f } };
    float frames[2 * 13];
    for (int i = 0; i < 26; i++)
        frames[i] = 9.0f; /* values no joint should read */
    frames[13 + 10] = 0.1f;
    frames[13 + 11] = 0.2f;
    frames[13 + 12] = 0.3f;
    mc_anim anim = { 0 };
    anim.name = "a.md5anim";
    anim.num_frames = 2;
    anim.frame_rate = 24;
    anim.num_joints = 3;
    anim.num_components = 13;
    anim.joints = aj;
    anim.base_pos = bp;
    anim.base_rot = br;
    anim.frames = frames;
    mc_local_joint j = mc_anim_joint_at(&anim, 2, 1);
    EXPECT_EQ_VEC3(j.pos, mc_v3(1, 2, 3), 0.0f);
    EXPECT_NEAR(j.rot.x, 0.1, 1e-7);
    EXPECT_NEAR(j.rot.y, 0.2, 1e-7);
    EXPECT_NEAR(j.rot.z, 0.3, 1e-7);
    EXPECT_NEAR(j.rot.w, 0.92736185, 1e-6);
    /* flags 5 = TX|TZ from component 10: tx = v[10], tz = v[11]; ty and rotation from base */
    aj[2].flags = 5;
    j = mc_anim_joint_at(&anim, 2, 1);
    EXPECT_EQ_VEC3(j.pos, mc_v3(0.1f, 2, 0.2f), 0.0f);
    EXPECT_NEAR(j.rot.x, 0.5, 0.0);
    EXPECT(j.rot.w == br[2].w); /* base w kept: no rotation flag set */
    /* a joint with flags 0 keeps the base frame even though frame values are 9 */
    j = mc_anim_joint_at(&anim, 1, 1);
    EXPECT_EQ_VEC3(j.pos, mc_v3(0, 0, 5), 0.0f);
}

TEST(frame_position_follows_doom_anim_time)
{
    mc_anim anim = { 0 };
    anim.num_frames = 5; /* 4 intervals */
    anim.frame_rate = 24;
    mc_anim_frame_pos fp;
    mc_anim_frame_at(&anim, -1.0, false, &fp); /* before the start: frame 0 */
    EXPECT(fp.frame0 == 0 && fp.frame1 == 0 && fp.lerp == 0.0f);
    mc_anim_frame_at(&anim, 2.25, false, &fp);
    EXPECT(fp.frame0 == 2 && fp.frame1 == 3);
    EXPECT_NEAR(fp.lerp, 0.25, 1e-6);
    mc_anim_frame_at(&anim, 4.0, false, &fp); /* the end: hold frame 4 */
    EXPECT(fp.frame0 == 4 && fp.frame1 == 4 && fp.lerp == 0.0f);
    mc_anim_frame_at(&anim, 40.5, false, &fp);
    EXPECT(fp.frame0 == 4 && fp.frame1 == 4 && fp.lerp == 0.0f);
    /* looping: period 4, 5.5 -> 1.5; 4 -> 0 (the last frame equals the first) */
    mc_anim_frame_at(&anim, 5.5, true, &fp);
    EXPECT(fp.frame0 == 1 && fp.frame1 == 2);
    EXPECT_NEAR(fp.lerp, 0.5, 1e-6);
    mc_anim_frame_at(&anim, 4.0, true, &fp);
    EXPECT(fp.frame0 == 0 && fp.lerp == 0.0f);
    mc_anim_frame_at(&anim, 11.0, true, &fp); /* 11 mod 4 = 3 */
    EXPECT(fp.frame0 == 3 && fp.frame1 == 3 && fp.lerp == 0.0f);
    /* rounding noise below a whole frame counts as that frame */
    mc_anim_frame_at(&anim, 2.9999999999, false, &fp);
    EXPECT(fp.frame0 == 3 && fp.lerp == 0.0f);
    anim.num_frames = 1;
    mc_anim_frame_at(&anim, 3.5, true, &fp);
    EXPECT(fp.frame0 == 0 && fp.frame1 == 0 && fp.lerp == 0.0f);
}

/* Doom's integer rule, worked by hand: p = ms * rate, frame = p / 1000, lerp = p % 1000 / 1000,
 * cycle = frame / (N - 1); looping wraps ms by length = ceil((N - 1) * 1000 / rate) first. */
TEST(engine_anim_time_follows_convert_time_to_frame)
{
    static const struct {
        int frames, rate;
        bool loop;
        int64_t ms;
        int frame0, frame1;
        double lerp;
    } rows[] = {
        /* N 5 at 24: 4 intervals, length ceil(4000 / 24) = 167 ms */
        { 5, 24, true, 0, 0, 1, 0.0 },      /* ms <= 0: frames 0 and 1, lerp 0 */
        { 5, 24, true, -5, 0, 1, 0.0 },
        { 5, 24, true, 10, 0, 1, 0.240 },   /* p 240 */
        { 5, 24, true, 100, 2, 3, 0.400 },  /* p 2400 */
        { 5, 24, true, 166, 3, 4, 0.984 },  /* p 3984 */
        { 5, 24, true, 167, 0, 1, 0.0 },    /* 167 % 167 = 0 */
        { 5, 24, true, 170, 0, 1, 0.072 },  /* 3 ms: p 72 */
        { 5, 24, true, 500, 3, 4, 0.984 },  /* 500 - 334 = 166 */
        { 5, 24, false, 166, 3, 4, 0.984 },
        { 5, 24, false, 167, 4, 4, 0.0 },   /* p 4008: frame 4, cycle 1: hold the last */
        { 5, 24, false, 100000, 4, 4, 0.0 },
        /* N 3 at 30: 2 intervals, length ceil(2000 / 30) = 67 ms */
        { 3, 30, false, 33, 0, 1, 0.990 },  /* p 990 */
        { 3, 30, false, 34, 1, 2, 0.020 },  /* p 1020 */
        { 3, 30, false, 66, 1, 2, 0.980 },  /* p 1980 */
        { 3, 30, false, 67, 2, 2, 0.0 },    /* p 2010: frame 2, cycle 1 */
        { 3, 30, true, 66, 1, 2, 0.980 },
        { 3, 30, true, 67, 0, 1, 0.0 },     /* wrapped to 0 */
        { 3, 30, true, 100, 0, 1, 0.990 },  /* 33 ms */
        /* one frame: always frame 0 */
        { 1, 24, true, 500, 0, 0, 0.0 },
        { 1, 24, false, -3, 0, 0, 0.0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mc_anim anim = { 0 };
        mc_anim_frame_pos fp;
        anim.num_frames = rows[i].frames;
        anim.frame_rate = rows[i].rate;
        mc_anim_frame_at_ms(&anim, rows[i].ms, rows[i].loop, &fp);
        if (fp.frame0 != rows[i].frame0 || fp.frame1 != rows[i].frame1 ||
            fabs((double)fp.lerp - rows[i].lerp) > 1e-6)
            test_fail(__FILE__, __LINE__, "row %zu: got %d %d %g, expected %d %d %g", i,
                      fp.frame0, fp.frame1, (double)fp.lerp, rows[i].frame0, rows[i].frame1,
                      rows[i].lerp);
    }
}

TEST(lerp_just_below_a_whole_frame_stays_below_one)
{
    /* f = 2.99999998: the fraction 0.99999998 is above the 1e-9 snap, so frames 2 -> 3 blend,
     * but the nearest float to it is 1.0f (floats near 1 are 2^-24 = 6e-8 apart). pose.h
     * promises lerp in [0, 1): the largest float below 1 is 1 - 2^-24. Also when looping and
     * just below the period (f = 3.99999998 of 4 intervals). */
    mc_anim anim = { 0 };
    anim.num_frames = 5;
    anim.frame_rate = 24;
    mc_anim_frame_pos fp;
    mc_anim_frame_at(&anim, 2.99999998, false, &fp);
    EXPECT(fp.frame0 == 2 && fp.frame1 == 3);
    EXPECT(fp.lerp < 1.0f);
    EXPECT(fp.lerp == 1.0f - 0x1p-24f);
    mc_anim_frame_at(&anim, 7.99999998, true, &fp);
    EXPECT(fp.frame0 == 3 && fp.frame1 == 4);
    EXPECT(fp.lerp == 1.0f - 0x1p-24f);
    /* the same through a time: t = (1 - 2e-8) / 24 s at 24 frames per second */
    anim.num_frames = 2;
    mc_anim_frame_at(&anim, ((1.0 - 2e-8) / 24.0) * 24.0, false, &fp);
    EXPECT(fp.frame0 == 0 && fp.frame1 == 1 && fp.lerp < 1.0f);
}

/* Root animated: frame 0 tx 0 qz 0, frame 1 tx 4 qz -s (yaw 90); child 10 along root +X. */
static void animate_root(two_bone *f, float *frames)
{
    f->aj[0].flags = MC_ANIM_TX | MC_ANIM_QZ;
    f->aj[0].first = 0;
    f->anim.num_components = 2;
    f->anim.num_frames = 2;
    frames[0] = 0.0f;
    frames[1] = 0.0f;
    frames[2] = 4.0f;
    frames[3] = -S;
    f->anim.frames = frames;
}

TEST(sampling_lerps_and_slerps_in_parent_space)
{
    /* At t = 0.5 / 24 s (lerp 0.5): root tx = 2, root rotation yaw 45; the child is
     * (10, 0, 0) * yaw45 + (2, 0, 0) = (2 + 7.0710678, 7.0710678, 0). */
    two_bone f;
    two_bone_init(&f);
    float frames[4];
    animate_root(&f, frames);
    int map[2];
    mc_error err;
    ASSERT_OK(mc_pose_map_anim(&f.mesh, &f.anim, map, &err), &err);
    mc_joint_xform j[2];
    mc_pose_sample(&f.mesh, &f.anim, map, 0.5 / 24.0, NULL, j);
    EXPECT_EQ_VEC3(j[0].pos, mc_v3(2, 0, 0), 1e-5f);
    EXPECT_EQ_VEC3(j[1].pos, mc_v3(9.0710678f, 7.0710678f, 0), 1e-4f);
    /* in place drops the root's translation only */
    mc_pose_opts opts = { false, true };
    mc_pose_sample(&f.mesh, &f.anim, map, 0.5 / 24.0, &opts, j);
    EXPECT_EQ_VEC3(j[0].pos, mc_v3(0, 0, 0), 0.0f);
    EXPECT_EQ_VEC3(j[1].pos, mc_v3(7.0710678f, 7.0710678f, 0), 1e-4f);
    /* after the end, not looping: frame 1 held: child = (10,0,0)*yaw90 + (4,0,0) */
    mc_pose_sample(&f.mesh, &f.anim, map, 5.0, NULL, j);
    EXPECT_EQ_VEC3(j[1].pos, mc_v3(4, 10, 0), 1e-4f);
}

TEST(joints_are_matched_by_name_not_index)
{
    /* mesh: root, a (parent root, at model (0,0,1)), b (parent a). The anim lists them in
     * another order with an extra joint: [root, extra, a, b]; locals a = (0,0,1) from root,
     * b = (2,0,0) from a, root identity at the origin. Model b = (2, 0, 1). */
    mc_quat id = mc_quat_identity();
    mc_mesh_joint mj[3] = { { "root", -1, { 0, 0, 0 }, id, 1, 1 },
                            { "a", 0, { 0, 0, 1 }, id, 2, 1 },
                            { "b", 1, { 2, 0, 1 }, id, 3, 1 } };
    mc_anim_joint aj[4] = { { "root", -1, 0, 0, 1, 1 }, { "extra", 0, 0, 0, 2, 1 },
                            { "a", 0, 0, 0, 3, 1 }, { "b", 2, 0, 0, 4, 1 } };
    mc_vec3 bp[4] = { { 0, 0, 0 }, { 50, 50, 50 }, { 0, 0, 1 }, { 2, 0, 0 } };
    mc_quat br[4] = { id, id, id, id };
    mc_mesh mesh = { 0 };
    mesh.name = "m.md5mesh";
    mesh.num_joints = 3;
    mesh.joints = mj;
    mc_anim anim = { 0 };
    anim.name = "a.md5anim";
    anim.num_frames = 1;
    anim.frame_rate = 24;
    anim.num_joints = 4;
    anim.joints = aj;
    anim.base_pos = bp;
    anim.base_rot = br;
    int map[3];
    mc_error err;
    ASSERT_OK(mc_pose_map_anim(&mesh, &anim, map, &err), &err);
    EXPECT(map[0] == 0 && map[1] == 2 && map[2] == 3);
    mc_joint_xform j[3];
    mc_pose_sample(&mesh, &anim, map, 0.0, NULL, j);
    EXPECT_EQ_VEC3(j[2].pos, mc_v3(2, 0, 1), 1e-6f);
}

TEST(rejects_anim_missing_a_mesh_joint)
{
    two_bone f;
    two_bone_init(&f);
    f.aj[1].name = "other";
    int map[2];
    mc_error err;
    EXPECT_EQ_INT(mc_pose_map_anim(&f.mesh, &f.anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "two.md5mesh"); /* at the mesh joint: the anim has no such line */
    EXPECT_EQ_INT(err.line, 3);
    EXPECT_EQ_INT(err.col, 5);
    EXPECT_EQ_STR(err.msg, "joint 'child' is missing from anim 'two.md5anim'");
}

TEST(rejects_anim_with_a_different_parent)
{
    /* anim: root, child(parent root), x(parent child); mesh x has parent root */
    mc_quat id = mc_quat_identity();
    mc_mesh_joint mj[3] = { { "root", -1, { 0, 0, 0 }, id, 1, 1 },
                            { "child", 0, { 0, 0, 0 }, id, 2, 1 },
                            { "x", 0, { 0, 0, 0 }, id, 3, 1 } };
    mc_anim_joint aj[3] = { { "root", -1, 0, 0, 10, 3 }, { "child", 0, 0, 0, 11, 3 },
                            { "x", 1, 0, 0, 12, 3 } };
    mc_mesh mesh = { 0 };
    mesh.name = "m.md5mesh";
    mesh.num_joints = 3;
    mesh.joints = mj;
    mc_anim anim = { 0 };
    anim.name = "a.md5anim";
    anim.num_joints = 3;
    anim.joints = aj;
    int map[3];
    mc_error err;
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "a.md5anim");
    EXPECT_EQ_INT(err.line, 12);
    EXPECT_EQ_INT(err.col, 3);
    EXPECT_EQ_STR(err.msg, "joint 'x' has parent 'child' here but 'root' in mesh 'm.md5mesh'");
    /* a mesh root that is not a root in the anim */
    aj[0].parent = -1;
    mj[1].parent = -1;
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_INT(err.line, 11);
    EXPECT_CONTAINS(err.msg, "joint 'child' has parent 'root' here but is a root in mesh");
}

TEST(duplicate_names_match_the_first_anim_joint)
{
    /* anim: 0 root, 1 b (root), 2 a (root), 3 a (b), 4 c (a: anim joint 2). mesh: root, a (root),
     * c (a), a again (root). By the rule "the first anim joint of that name", both mesh "a"
     * joints take anim joint 2, whose parent root matches; c takes 4, whose parent is named a
     * like the mesh's. */
    mc_quat id = mc_quat_identity();
    mc_mesh_joint mj[4] = { { "root", -1, { 0, 0, 0 }, id, 1, 1 },
                            { "a", 0, { 0, 0, 0 }, id, 2, 1 },
                            { "c", 1, { 0, 0, 0 }, id, 3, 1 },
                            { "a", 0, { 0, 0, 0 }, id, 4, 1 } };
    mc_anim_joint aj[5] = { { "root", -1, 0, 0, 10, 2 }, { "b", 0, 0, 0, 11, 2 },
                            { "a", 0, 0, 0, 12, 2 },     { "a", 1, 0, 0, 13, 2 },
                            { "c", 2, 0, 0, 14, 2 } };
    mc_mesh mesh = { 0 };
    mesh.name = "m.md5mesh";
    mesh.num_joints = 4;
    mesh.joints = mj;
    mc_anim anim = { 0 };
    anim.name = "a.md5anim";
    anim.num_joints = 5;
    anim.joints = aj;
    int map[4] = { -7, -7, -7, -7 };
    mc_error err;
    ASSERT_OK(mc_pose_map_anim(&mesh, &anim, map, &err), &err);
    EXPECT(map[0] == 0 && map[1] == 2 && map[2] == 4 && map[3] == 2);
    /* the first "a" now has parent b: the mesh's first "a" (parent root) fails there, at line
     * 12, although the second anim "a" has the right parent */
    aj[2].parent = 1;
    aj[3].parent = 0;
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "a.md5anim");
    EXPECT_EQ_INT(err.line, 12);
    EXPECT_EQ_INT(err.col, 2);
    EXPECT_EQ_STR(err.msg, "joint 'a' has parent 'b' here but 'root' in mesh 'm.md5mesh'");
}

TEST(the_first_bad_joint_in_mesh_order_is_reported)
{
    /* mesh: root, zeta, alpha, both missing from the anim: zeta (mesh line 2) is reported,
     * although alpha sorts first by name. Then zeta present with another parent and alpha
     * still missing: the parent error on zeta comes first. */
    mc_quat id = mc_quat_identity();
    mc_mesh_joint mj[3] = { { "root", -1, { 0, 0, 0 }, id, 1, 4 },
                            { "zeta", 0, { 0, 0, 0 }, id, 2, 4 },
                            { "alpha", 0, { 0, 0, 0 }, id, 3, 4 } };
    mc_anim_joint aj[3] = { { "root", -1, 0, 0, 20, 6 }, { "mid", 0, 0, 0, 21, 6 },
                            { "other", 1, 0, 0, 22, 6 } };
    mc_mesh mesh = { 0 };
    mesh.name = "m.md5mesh";
    mesh.num_joints = 3;
    mesh.joints = mj;
    mc_anim anim = { 0 };
    anim.name = "a.md5anim";
    anim.num_joints = 3;
    anim.joints = aj;
    int map[3];
    mc_error err;
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "m.md5mesh");
    EXPECT_EQ_INT(err.line, 2);
    EXPECT_EQ_INT(err.col, 4);
    EXPECT_EQ_STR(err.msg, "joint 'zeta' is missing from anim 'a.md5anim'");
    aj[2].name = "zeta";
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "a.md5anim");
    EXPECT_EQ_INT(err.line, 22);
    EXPECT_EQ_INT(err.col, 6);
    EXPECT_EQ_STR(err.msg, "joint 'zeta' has parent 'mid' here but 'root' in mesh 'm.md5mesh'");
}

/* The rule as pose.h states it, searched in file order: the lowest anim joint of the name,
 * its parent's name compared with the mesh parent's, the first failing mesh joint reported.
 * Returns the failing mesh joint (or -1 when all match) and whether it was missing. */
static int match_in_file_order(const mc_mesh *mesh, const mc_anim *anim, int *map, bool *missing)
{
    for (int i = 0; i < mesh->num_joints; i++) {
        int j = 0;
        while (j < anim->num_joints && strcmp(anim->joints[j].name, mesh->joints[i].name) != 0)
            j++;
        *missing = j == anim->num_joints;
        if (*missing)
            return i;
        int ap = anim->joints[j].parent, mp = mesh->joints[i].parent;
        if ((ap < 0) != (mp < 0) ||
            (ap >= 0 && strcmp(anim->joints[ap].name, mesh->joints[mp].name) != 0)) {
            map[i] = j;
            return i;
        }
        map[i] = j;
    }
    return -1;
}

TEST(matching_agrees_with_a_search_in_file_order)
{
    /* Random skeletons over 6 names (so names repeat in both files and some are missing),
     * parents before children: status, map and error position agree with the search above. */
    static const char *const names[6] = { "hip", "a", "b", "spine", "Hip", "b2" };
    unsigned seed = 12345;
    int agreed = 0, failures = 0;
    for (int round = 0; round < 2000; round++) {
        mc_mesh_joint mj[8];
        mc_anim_joint aj[10];
        mc_quat id = mc_quat_identity();
        seed = seed * 1103515245u + 12345u;
        int nm = 1 + (int)((seed >> 16) % 8);
        int na;
        for (int i = 0; i < nm; i++) {
            seed = seed * 1103515245u + 12345u;
            int parent = i == 0 ? -1 : (int)((seed >> 8) % (unsigned)(i + 1)) - 1;
            mj[i] = (mc_mesh_joint){ names[(seed >> 20) % 6], parent, { 0, 0, 0 }, id, i + 1, 3 };
        }
        /* the anim: the mesh's joints, then up to 3 changes: an extra joint, a renamed joint,
         * another parent (parents stay before children) */
        for (int k = 0; k < nm; k++)
            aj[k] = (mc_anim_joint){ mj[k].name, mj[k].parent, 0, 0, 100 + k, 5 };
        na = nm;
        seed = seed * 1103515245u + 12345u;
        for (int c = (int)((seed >> 16) % 4); c > 0; c--) {
            seed = seed * 1103515245u + 12345u;
            const char *name = names[(seed >> 20) % 6];
            int what = (int)((seed >> 8) % 3), k = (int)((seed >> 12) % (unsigned)na);
            int parent = k == 0 ? -1 : (int)((seed >> 4) % (unsigned)(k + 1)) - 1;
            if (what == 0 && na < 10) {
                aj[na] = (mc_anim_joint){ name, (int)((seed >> 4) % (unsigned)na), 0, 0,
                                          100 + na, 5 };
                na++;
            } else if (what == 1) {
                aj[k].name = name;
            } else {
                aj[k].parent = parent;
            }
        }
        mc_mesh mesh = { 0 };
        mesh.name = "m.md5mesh";
        mesh.num_joints = nm;
        mesh.joints = mj;
        mc_anim anim = { 0 };
        anim.name = "a.md5anim";
        anim.num_joints = na;
        anim.joints = aj;
        int want[8], got[8];
        bool missing = false;
        mc_error err;
        int bad = match_in_file_order(&mesh, &anim, want, &missing);
        mc_status st = mc_pose_map_anim(&mesh, &anim, got, &err);
        if (bad < 0) {
            agreed += EXPECT(st == MC_OK) && EXPECT(memcmp(got, want, (size_t)nm * sizeof *got) == 0);
            continue;
        }
        failures++;
        bool ok = EXPECT(st == MC_ERR_MISMATCH);
        if (missing) {
            ok = ok && EXPECT(strcmp(err.file, "m.md5mesh") == 0) && EXPECT(err.line == bad + 1) &&
                 EXPECT(err.col == 3);
        } else {
            ok = ok && EXPECT(strcmp(err.file, "a.md5anim") == 0) &&
                 EXPECT(err.line == 100 + want[bad]) && EXPECT(err.col == 5);
        }
        ok = ok && EXPECT(strstr(err.msg, mj[bad].name) != NULL);
        ok = ok && EXPECT(memcmp(got, want, (size_t)bad * sizeof *got) == 0);
        agreed += ok;
        if (!ok)
            break;
    }
    /* both outcomes must have been exercised, or the comparison says little */
    EXPECT(failures > 100 && 2000 - failures > 100);
    EXPECT_EQ_INT(agreed, 2000);
}

TEST(biases_are_not_normalised)
{
    /* two weights on an identity joint at (0, 0, 1): 0.5 ((1,0,0) + (0,0,1)) +
     * 0.7 ((1,0,0) + (0,0,1)) = (1.2, 0, 1.2) */
    mc_mesh_joint mj = { "j", -1, { 0, 0, 1 }, { 0, 0, 0, 1 }, 1, 1 };
    mc_vert v = { { 0, 0 }, 0, 2 };
    mc_weight w[2] = { { 0, 0.5f, { 1, 0, 0 } }, { 0, 0.7f, { 1, 0, 0 } } };
    mc_submesh sm = { .shader = "", .num_verts = 1, .verts = &v, .num_weights = 2, .weights = w };
    mc_mesh mesh = { 0 };
    mesh.num_joints = 1;
    mesh.joints = &mj;
    mesh.num_meshes = 1;
    mesh.meshes = &sm;
    mc_vec3 p;
    mc_skin_bind_positions(&mesh, 0, &p);
    EXPECT_EQ_VEC3(p, mc_v3(1.2f, 0, 1.2f), 1e-6f);
}

TEST(placement_turns_x_into_y_at_yaw_90)
{
    /* world = origin + scale (p * yaw_axis): (1, 0, 0) at yaw 90, scale 2, origin (10, 20, 30)
     * -> (10, 22, 30) */
    mc_mat4 m = mc_pose_placement(mc_v3(10, 20, 30), 90.0f, 2.0f);
    float out[4];
    mc_mat4_apply(&m, mc_v3(1, 0, 0), 1.0f, out);
    EXPECT_NEAR(out[0], 10.0, 1e-5);
    EXPECT_NEAR(out[1], 22.0, 1e-5);
    EXPECT_NEAR(out[2], 30.0, 1e-5);
    mc_mat4_apply(&m, mc_v3(0, 0, 1), 1.0f, out); /* up stays up */
    EXPECT_NEAR(out[2], 32.0, 1e-5);
}

/* ------------------------------------------------------------------ shared asset files */

/* Largest distance between skinned vertices of two poses, over every submesh; *size gets the
 * diagonal of the first pose's bounding box. */
static double pose_distance(const mc_mesh *mesh, const mc_joint_xform *a, const mc_joint_xform *b,
                            double *size)
{
    double worst = 0.0;
    mc_vec3 lo = { 1e30f, 1e30f, 1e30f }, hi = { -1e30f, -1e30f, -1e30f };
    for (int s = 0; s < mesh->num_meshes; s++) {
        const mc_submesh *sm = &mesh->meshes[s];
        size_t n = (size_t)(sm->num_verts > 0 ? sm->num_verts : 1);
        mc_vec3 *pa = malloc(n * sizeof *pa), *pb = malloc(n * sizeof *pb);
        mc_skin_positions(sm, a, pa);
        mc_skin_positions(sm, b, pb);
        for (int v = 0; v < sm->num_verts; v++) {
            worst = fmax(worst, (double)mc_v3_len(mc_v3_sub(pa[v], pb[v])));
            lo = mc_v3(fminf(lo.x, pa[v].x), fminf(lo.y, pa[v].y), fminf(lo.z, pa[v].z));
            hi = mc_v3(fmaxf(hi.x, pa[v].x), fmaxf(hi.y, pa[v].y), fmaxf(hi.z, pa[v].z));
        }
        free(pa);
        free(pb);
    }
    *size = (double)mc_v3_len(mc_v3_sub(hi, lo));
    return worst;
}

/* An anim with no animated components whose base frame is the mesh's bind pose made parent
 * relative, as Doom's LoadModel does for its default pose: q_local = q_model * q_parent^-1
 * (Doom's product: q_model = q_local * q_parent) and t_local = (t_model - t_parent) * M_parent^T.
 * Sampled at any time it must give back the mesh's own joints and vertices. */
static void check_bind_anim(const char *mesh_path)
{
    mc_mesh mesh;
    if (!load_pair(mesh_path, NULL, &mesh, NULL))
        return;
    int n = mesh.num_joints;
    mc_anim_joint *aj = calloc((size_t)n, sizeof *aj);
    mc_vec3 *bp = calloc((size_t)n, sizeof *bp);
    mc_quat *br = calloc((size_t)n, sizeof *br);
    int *map = calloc((size_t)n, sizeof *map);
    mc_joint_xform *bind = calloc((size_t)n, sizeof *bind), *got = calloc((size_t)n, sizeof *got);
    for (int i = 0; i < n; i++) {
        const mc_mesh_joint *j = &mesh.joints[i];
        aj[i] = (mc_anim_joint){ j->name, j->parent, 0, 0, j->line, j->col };
        bp[i] = j->pos;
        br[i] = j->rot;
        if (j->parent >= 0) {
            const mc_mesh_joint *p = &mesh.joints[j->parent];
            mc_quat inv = { -p->rot.x, -p->rot.y, -p->rot.z, p->rot.w };
            mc_mat3 mp = mc_quat_to_mat3(p->rot), mpt = mc_mat3_transpose(&mp);
            br[i] = mc_quat_mul(j->rot, inv);
            bp[i] = mc_v3_mul_mat3(mc_v3_sub(j->pos, p->pos), &mpt);
        }
    }
    mc_anim anim = { 0 };
    anim.name = "bind";
    anim.num_frames = 3;
    anim.frame_rate = 24;
    anim.num_joints = n;
    anim.joints = aj;
    anim.base_pos = bp;
    anim.base_rot = br;
    mc_error err;
    if (EXPECT(mc_pose_map_anim(&mesh, &anim, map, &err) == MC_OK)) {
        mc_pose_bind(&mesh, bind);
        mc_pose_sample(&mesh, &anim, map, 1.3 / 24.0, NULL, got);
        double size, d = pose_distance(&mesh, bind, got, &size);
        if (!(d <= 1e-4 * size))
            test_fail(__FILE__, __LINE__, "%s: vertices %g from the bind pose (size %g)",
                      mesh_path, d, size);
        for (int i = 0; i < n; i++)
            EXPECT_EQ_VEC3(got[i].pos, bind[i].pos, (float)(1e-4 * size));
    }
    free(aj);
    free(bp);
    free(br);
    free(map);
    free(bind);
    free(got);
    mc_mesh_release(&mesh);
}

TEST(anim_rebuilt_from_bind_pose_reproduces_every_mesh)
{
    check_bind_anim(A "assimp-simplecube/SimpleCube.md5mesh");
    check_bind_anim(A "redeclipse-drone/mesh.md5mesh");
    check_bind_anim(A "cube2-ffflag/ffflag.md5mesh");
    check_bind_anim(A "redeclipse-props/luckystrike-banner01/banner.md5mesh");
    check_bind_anim(A "redeclipse-props/luckystrike-door1/mesh.md5mesh");
    check_bind_anim(A "redeclipse-quirks/zapper/mesh.md5mesh");
    check_bind_anim(A "redeclipse-quirks/plasma/plasma.md5mesh");
    check_bind_anim(A "redeclipse-quirks/grenade/grenade.md5mesh");
}

/* Rest-pose anims shipped with their meshes: one frame that the exporter wrote from the same
 * skeleton as the mesh, so the sampled vertices must equal the mesh's bind pose. */
static void check_rest_anim(const char *mesh_path, const char *anim_path)
{
    mc_mesh mesh;
    mc_anim anim;
    if (!load_pair(mesh_path, anim_path, &mesh, &anim))
        return;
    int map[64];
    mc_joint_xform bind[64], got[64];
    mc_error err;
    if (EXPECT(mesh.num_joints <= 64) &&
        EXPECT(mc_pose_map_anim(&mesh, &anim, map, &err) == MC_OK)) {
        mc_pose_bind(&mesh, bind);
        mc_pose_sample(&mesh, &anim, map, 0.0, NULL, got);
        double size, d = pose_distance(&mesh, bind, got, &size);
        if (!(d <= 1e-4 * size))
            test_fail(__FILE__, __LINE__, "%s: %g from the bind pose (size %g)", anim_path, d,
                      size);
    }
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
}

TEST(rest_anims_reproduce_the_bind_pose)
{
    check_rest_anim(A "redeclipse-quirks/zapper/mesh.md5mesh",
                    A "redeclipse-quirks/zapper/idle.md5anim");
    check_rest_anim(A "redeclipse-quirks/grenade/grenade.md5mesh",
                    A "redeclipse-quirks/grenade/grenade-idle.md5anim");
}

TEST(looping_anim_at_its_period_shows_frame_0)
{
    /* drone forward: 12 frames at its frame rate; the period is 11 intervals. Looping, t =
     * 11 / rate shows frame 0; holding, it shows frame 11. */
    mc_mesh mesh;
    mc_anim anim;
    if (!load_pair(A "redeclipse-drone/mesh.md5mesh", A "redeclipse-drone/forward.md5anim",
                   &mesh, &anim))
        return;
    int map[64];
    mc_joint_xform a[64], b[64];
    mc_error err;
    ASSERT(mesh.num_joints <= 64);
    if (EXPECT(mc_pose_map_anim(&mesh, &anim, map, &err) == MC_OK)) {
        double t = 11.0 / anim.frame_rate;
        mc_pose_opts loop = { true, false };
        mc_anim_frame_pos f0 = { 0, 0, 0.0f }, f11 = { 11, 11, 0.0f };
        mc_pose_sample(&mesh, &anim, map, t, &loop, a);
        mc_pose_sample_frames(&mesh, &anim, map, &f0, false, b);
        for (int i = 0; i < mesh.num_joints; i++)
            EXPECT_EQ_VEC3(a[i].pos, b[i].pos, 0.0f);
        mc_pose_sample(&mesh, &anim, map, t, NULL, a);
        mc_pose_sample_frames(&mesh, &anim, map, &f11, false, b);
        for (int i = 0; i < mesh.num_joints; i++)
            EXPECT_EQ_VEC3(a[i].pos, b[i].pos, 0.0f);
    }
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
}

TEST(rejects_an_anim_of_another_model)
{
    /* drone mesh, flag anim: the drone's first joint "Waist" (line 8, after a tab) is not in
     * the flag's hierarchy */
    mc_mesh mesh;
    mc_anim anim;
    if (!load_pair(A "redeclipse-drone/mesh.md5mesh", A "cube2-ffflag/ffflag.md5anim", &mesh,
                   &anim))
        return;
    int map[64];
    mc_error err;
    EXPECT_EQ_INT(mc_pose_map_anim(&mesh, &anim, map, &err), MC_ERR_MISMATCH);
    EXPECT_CONTAINS(err.file, "redeclipse-drone/mesh.md5mesh");
    EXPECT_AT(&err, 8, 2, "joint 'Waist' is missing from anim");
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
}
