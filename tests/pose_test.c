/* pose: anim sampling, joint matching by name, concatenation, skinning and normals. The small
 * cases build meshes and anims by hand and check values worked out in the comments (semantics
 * reference 2.4, the spec's worked example); the real-file cases check the shared assets
 * against relations that must hold whatever the data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "test.h"

#define S 0.70710678f

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

static void worked_example_weight_lands_at_0_11_0(void)
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

static void spec_example_head_56_10_reads_values_10_to_12(void)
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

static void frame_position_follows_doom_anim_time(void)
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

static void sampling_lerps_and_slerps_in_parent_space(void)
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

static void joints_are_matched_by_name_not_index(void)
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

static void rejects_anim_missing_a_mesh_joint(void)
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

static void rejects_anim_with_a_different_parent(void)
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

static void biases_are_not_normalised(void)
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

/* Two triangles meeting at a seam: A in the z = 0 plane, B in the x = 0 plane, B's corner 3 a
 * copy of A's corner 0 (same bind position, another index). */
static void seam_fixture(mc_mesh *mesh, mc_submesh *sm, mc_mesh_joint *mj, mc_vert *v,
                         mc_weight *w, mc_tri *t)
{
    static const float p[6][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { 1, 0, 0 },
                                   { 0, 0, 0 }, { 0, 0, 10 }, { 0, 10, 0 } };
    *mj = (mc_mesh_joint){ "j", -1, { 0, 0, 0 }, { 0, 0, 0, 1 }, 1, 1 };
    for (int i = 0; i < 6; i++) {
        v[i] = (mc_vert){ { 0, 0 }, i, 1 };
        w[i] = (mc_weight){ 0, 1.0f, { p[i][0], p[i][1], p[i][2] } };
    }
    t[0] = (mc_tri){ { 0, 1, 2 } };
    t[1] = (mc_tri){ { 3, 4, 5 } };
    *sm = (mc_submesh){ .shader = "", .num_verts = 6, .verts = v, .num_tris = 2, .tris = t,
                        .num_weights = 6, .weights = w };
    memset(mesh, 0, sizeof *mesh);
    mesh->name = "seam";
    mesh->num_joints = 1;
    mesh->joints = mj;
    mesh->num_meshes = 1;
    mesh->meshes = sm;
}

static void normals_are_unweighted_and_smoothed_across_seams(void)
{
    /* A: (c - a) x (b - a) = (1,0,0) x (0,1,0) = (0,0,1). B (10 times larger):
     * (0,10,0) x (0,0,10) = (100,0,0) -> unit (1,0,0). Vertices 0 and 3 share a position:
     * (0,0,1) + (1,0,0) normalised = (s, 0, s) for both, with no area weighting. */
    mc_mesh mesh;
    mc_submesh sm;
    mc_mesh_joint mj;
    mc_vert v[6];
    mc_weight w[6];
    mc_tri t[2];
    seam_fixture(&mesh, &sm, &mj, v, w, t);
    mc_skin_topology topo;
    mc_error err;
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, &topo, &err), &err);
    EXPECT(topo.rep[0] == 0 && topo.rep[3] == 0 && topo.rep[1] == 1 && topo.rep[5] == 5);
    mc_vec3 pos[6], n[6];
    mc_skin_bind_positions(&mesh, 0, pos);
    mc_skin_normals(&sm, &topo, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(S, 0, S), 1e-6f);
    EXPECT_EQ_VEC3(n[3], mc_v3(S, 0, S), 1e-6f);
    EXPECT_EQ_VEC3(n[1], mc_v3(0, 0, 1), 1e-6f);
    EXPECT_EQ_VEC3(n[2], mc_v3(0, 0, 1), 1e-6f);
    EXPECT_EQ_VEC3(n[4], mc_v3(1, 0, 0), 1e-6f);
    mc_skin_topology_release(&topo);
    EXPECT(topo.rep == NULL);
}

static void seam_groups_come_from_the_bind_pose(void)
{
    /* Skinned positions where 0 and 3 drift apart still share the normal: the groups were
     * fixed from the bind pose. Moving vertex 3 by (5,0,0) changes B's plane: B = (5,0,0),
     * (0,0,10), (0,10,0): (c-a) x (b-a) = (-5,10,0) x (-5,0,10) = (100, 50, 50) -> unit
     * (0.81649658, 0.40824829, 0.40824829); plus A's (0,0,1), normalised:
     * (0.8165, 0.4082, 1.4082) / 1.67824 = (0.48652, 0.24326, 0.83912). */
    mc_mesh mesh;
    mc_submesh sm;
    mc_mesh_joint mj;
    mc_vert v[6];
    mc_weight w[6];
    mc_tri t[2];
    seam_fixture(&mesh, &sm, &mj, v, w, t);
    mc_skin_topology topo;
    mc_error err;
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, &topo, &err), &err);
    mc_vec3 pos[6], n[6];
    mc_skin_bind_positions(&mesh, 0, pos);
    pos[3] = mc_v3(5, 0, 0);
    mc_skin_normals(&sm, &topo, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(0.48652f, 0.24326f, 0.83912f), 1e-4f);
    EXPECT_EQ_VEC3(n[3], n[0], 0.0f);
    mc_skin_topology_release(&topo);
}

static void placement_turns_x_into_y_at_yaw_90(void)
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

int main(int argc, char **argv)
{
    static const test_case cases[] = {
        TEST_ENTRY(worked_example_weight_lands_at_0_11_0),
        TEST_ENTRY(spec_example_head_56_10_reads_values_10_to_12),
        TEST_ENTRY(frame_position_follows_doom_anim_time),
        TEST_ENTRY(sampling_lerps_and_slerps_in_parent_space),
        TEST_ENTRY(joints_are_matched_by_name_not_index),
        TEST_ENTRY(rejects_anim_missing_a_mesh_joint),
        TEST_ENTRY(rejects_anim_with_a_different_parent),
        TEST_ENTRY(biases_are_not_normalised),
        TEST_ENTRY(normals_are_unweighted_and_smoothed_across_seams),
        TEST_ENTRY(seam_groups_come_from_the_bind_pose),
        TEST_ENTRY(placement_turns_x_into_y_at_yaw_90),
    };
    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
