/* pose: the normals and tangents of skinned triangles. Hand-built triangles check values worked
 * out in the comments (Doom's rules: unweighted face normals summed, copies of one bind-pose
 * position smoothed unless a crease parts them, tangents along dP/ds with a handedness); the
 * assimp SimpleCube checks relations that must hold whatever the data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "pose_fixture.h"
#include "test.h"


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

/* With a crease of 180 degrees every copy of a position is smoothed (Doom's rule). */
TEST(normals_are_unweighted_and_smoothed_across_seams)
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
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, 180.0f, &topo, &err), &err);
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

TEST(seam_groups_come_from_the_bind_pose)
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
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, 180.0f, &topo, &err), &err);
    mc_vec3 pos[6], n[6];
    mc_skin_bind_positions(&mesh, 0, pos);
    pos[3] = mc_v3(5, 0, 0);
    mc_skin_normals(&sm, &topo, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(0.48652f, 0.24326f, 0.83912f), 1e-4f);
    EXPECT_EQ_VEC3(n[3], n[0], 0.0f);
    mc_skin_topology_release(&topo);
}

TEST(cube_normals_point_outwards)
{
    /* SimpleCube is a closed box: with Doom's clockwise front faces and (c - a) x (b - a), every
     * smoothed corner normal points away from the centre, and is of unit length (crease 180:
     * the corners are rounded). */
    mc_mesh mesh;
    if (!load_pair(A "assimp-simplecube/SimpleCube.md5mesh", NULL, &mesh, NULL))
        return;
    const mc_submesh *sm = &mesh.meshes[0];
    mc_vec3 p[64], n[64];
    ASSERT(sm->num_verts <= 64);
    mc_skin_topology topo;
    mc_error err;
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, 180.0f, &topo, &err), &err);
    mc_skin_bind_positions(&mesh, 0, p);
    mc_skin_normals(sm, &topo, p, n);
    mc_vec3 c = { 0, 0, 0 };
    for (int v = 0; v < sm->num_verts; v++)
        c = mc_v3_add(c, mc_v3_scale(p[v], 1.0f / (float)sm->num_verts));
    for (int v = 0; v < sm->num_verts; v++) {
        EXPECT_NEAR(mc_v3_len(n[v]), 1.0, 1e-5);
        EXPECT(mc_v3_dot(n[v], mc_v3_sub(p[v], c)) > 0.0f);
        EXPECT_EQ_VEC3(n[v], n[topo.rep[v]], 0.0f);
    }
    /* 24 vertices, 8 corners: every corner is shared by 3 of them */
    int groups = 0;
    for (int v = 0; v < sm->num_verts; v++)
        groups += topo.rep[v] == v;
    EXPECT_EQ_INT(groups, 8);
    mc_skin_topology_release(&topo);
    mc_mesh_release(&mesh);
}

/* With the crease angle (60 degrees) the same box keeps flat faces: each of the 24 vertices is
 * its own group and its normal is exactly the axis its face looks along (the face's unit
 * normal is an axis, and the sum of two equal axes normalises back to it). */
TEST(crease_keeps_the_cube_faces_flat)
{
    mc_mesh mesh;
    if (!load_pair(A "assimp-simplecube/SimpleCube.md5mesh", NULL, &mesh, NULL))
        return;
    const mc_submesh *sm = &mesh.meshes[0];
    mc_vec3 p[64], n[64];
    ASSERT(sm->num_verts == 24);
    mc_skin_topology topo;
    mc_error err;
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, MC_SKIN_CREASE_DEGREES, &topo, &err), &err);
    mc_skin_bind_positions(&mesh, 0, p);
    mc_skin_normals(sm, &topo, p, n);
    mc_vec3 c = { 0, 0, 0 };
    for (int v = 0; v < sm->num_verts; v++)
        c = mc_v3_add(c, mc_v3_scale(p[v], 1.0f / (float)sm->num_verts));
    int groups = 0;
    for (int v = 0; v < sm->num_verts; v++) {
        groups += topo.rep[v] == v;
        /* within rounding of a unit axis (the bind positions come through a quaternion) */
        int axes = 0;
        for (int k = 0; k < 3; k++) {
            float x = fabsf(k == 0 ? n[v].x : k == 1 ? n[v].y : n[v].z);
            axes += fabsf(x - 1.0f) < 1e-6f;
            EXPECT(x < 1e-6f || fabsf(x - 1.0f) < 1e-6f);
        }
        EXPECT_EQ_INT(axes, 1);
        EXPECT(mc_v3_dot(n[v], mc_v3_sub(p[v], c)) > 0.0f);
    }
    EXPECT_EQ_INT(groups, 24);
    /* a triangle's corners share the normal, and lie in one plane across it */
    for (int t = 0; t < sm->num_tris; t++) {
        const int *tv = sm->tris[t].v;
        EXPECT_EQ_VEC3(n[tv[0]], n[tv[1]], 1e-6f);
        EXPECT_EQ_VEC3(n[tv[0]], n[tv[2]], 1e-6f);
        EXPECT_NEAR(mc_v3_dot(p[tv[0]], n[tv[0]]), mc_v3_dot(p[tv[1]], n[tv[0]]), 1e-5);
    }
    mc_skin_topology_release(&topo);
    mc_mesh_release(&mesh);
}

/* The seam fixture's two faces meet at 90 degrees: more than the crease, so vertices 0 and 3
 * keep their faces' normals (0,0,1) and (1,0,0). Tilting B to 45 degrees from A ((0,0,0),
 * (0,10,0)... see below) brings it inside the crease and they are smoothed again. */
TEST(crease_splits_a_sharp_seam_and_smooths_a_shallow_one)
{
    mc_mesh mesh;
    mc_submesh sm;
    mc_mesh_joint mj;
    mc_vert v[6];
    mc_weight w[6];
    mc_tri t[2];
    seam_fixture(&mesh, &sm, &mj, v, w, t);
    mc_skin_topology topo;
    mc_error err;
    mc_vec3 pos[6], n[6];
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, MC_SKIN_CREASE_DEGREES, &topo, &err), &err);
    EXPECT(topo.rep[3] == 3);
    mc_skin_bind_positions(&mesh, 0, pos);
    mc_skin_normals(&sm, &topo, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(0, 0, 1), 1e-6f);
    EXPECT_EQ_VEC3(n[3], mc_v3(1, 0, 0), 1e-6f);
    mc_skin_topology_release(&topo);
    /* B through (0,0,0), (10,0,10), (0,10,0): (c - a) x (b - a) = (0,10,0) x (10,0,10) =
     * (100, 0, -100) -> (s, 0, -s), 135 degrees from A's (0,0,1); wound the other way,
     * (0,0,0), (0,10,0), (10,0,10) gives (-s, 0, s), 45 degrees: within the crease. Then both
     * get ((0,0,1) + (-s,0,s)) normalised = (-0.38268, 0, 0.92388). */
    w[4].pos = mc_v3(0, 10, 0);
    w[5].pos = mc_v3(10, 0, 10);
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, MC_SKIN_CREASE_DEGREES, &topo, &err), &err);
    EXPECT(topo.rep[3] == 0);
    mc_skin_bind_positions(&mesh, 0, pos);
    mc_skin_normals(&sm, &topo, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(-0.38268343f, 0, 0.92387953f), 1e-6f);
    EXPECT_EQ_VEC3(n[3], n[0], 0.0f);
    /* 40 degrees of crease splits the 45-degree seam */
    mc_skin_topology_release(&topo);
    ASSERT_OK(mc_skin_topology_build(&mesh, 0, 40.0f, &topo, &err), &err);
    EXPECT(topo.rep[3] == 3);
    mc_skin_topology_release(&topo);
}

/* One triangle by hand: a (0,0,0) st (0,0), b (2,0,0) st (1,0), c (0,0,-4) st (0,1).
 * d0 = (2,0,0), d1 = (0,0,-4); st deltas (1,0) and (0,1), area 1.
 * dP/ds = (d0 * 1 - d1 * 0) / 1 = (2,0,0) -> t = (1,0,0); dP/dt = (d1 * 1 - d0 * 0) = (0,0,-4)
 * -> (0,0,-1). Face normal (c - a) x (b - a) = (0,0,-4) x (2,0,0) = (0,-8,0) -> (0,-1,0).
 * cross(t, n) = (1,0,0) x (0,-1,0) = (0,0,-1) = dP/dt: w = +1. Mirroring s (b at st (-1,0))
 * gives dP/ds = (-2,0,0)/-1... area -1: dP/ds = (d0 * 1 - 0) / -1 = (-2,0,0) -> t = (-1,0,0),
 * dP/dt = (d1 * -1 - 0) / -1 = (0,0,-4) -> (0,0,-1); cross(t, n) = (-1,0,0) x (0,-1,0) =
 * (0,0,1): opposite to dP/dt, w = -1. A normal tilted from the face's, n = (s, -s, 0), makes t
 * perpendicular to it: (1,0,0) - s (s,-s,0) = (0.5, 0.5, 0) -> (s, s, 0). */
TEST(tangents_of_a_hand_made_triangle)
{
    mc_vert v[3] = { { { 0, 0 }, 0, 1 }, { { 1, 0 }, 1, 1 }, { { 0, 1 }, 2, 1 } };
    mc_tri tri = { { 0, 1, 2 } };
    mc_submesh sm = { .shader = "", .num_verts = 3, .verts = v, .num_tris = 1, .tris = &tri };
    mc_vec3 pos[3] = { { 0, 0, 0 }, { 2, 0, 0 }, { 0, 0, -4 } }, n[3];
    mc_tangent tg[3];
    mc_skin_normals(&sm, NULL, pos, n);
    EXPECT_EQ_VEC3(n[0], mc_v3(0, -1, 0), 0.0f);
    mc_skin_tangents(&sm, pos, n, tg);
    for (int k = 0; k < 3; k++) {
        EXPECT_EQ_VEC3(tg[k].t, mc_v3(1, 0, 0), 1e-6f);
        EXPECT(tg[k].w == 1.0f);
    }
    v[1].st.x = -1.0f;
    mc_skin_tangents(&sm, pos, n, tg);
    for (int k = 0; k < 3; k++) {
        EXPECT_EQ_VEC3(tg[k].t, mc_v3(-1, 0, 0), 1e-6f);
        EXPECT(tg[k].w == -1.0f);
    }
    v[1].st.x = 1.0f;
    n[0] = mc_v3(S, -S, 0);
    mc_skin_tangents(&sm, pos, n, tg);
    EXPECT_EQ_VEC3(tg[0].t, mc_v3(S, S, 0), 1e-6f);
    EXPECT(tg[0].w == 1.0f);
    /* a mapping with no area leaves a unit vector perpendicular to the normal */
    v[1].st = v[0].st;
    n[0] = mc_v3(0, -1, 0);
    mc_skin_tangents(&sm, pos, n, tg);
    EXPECT_NEAR(mc_v3_len(tg[0].t), 1.0, 1e-6);
    EXPECT_NEAR(mc_v3_dot(tg[0].t, n[0]), 0.0, 1e-6);
}

/* A normal that is not of unit length (a skinned normal need not be) and a face tangent with
 * a part along it: dP/ds = (1, 0, 1) / sqrt 2 against n = (0, 0, 2). The tangent is the part
 * of dP/ds across the unit normal, (1, 0, 0); removing t.n times the unnormalised n instead
 * left (1, 0, -3) / sqrt 10, nearly opposite the normal. A tangent exactly along the normal
 * becomes some unit vector across it. */
TEST(tangents_stay_across_a_long_normal)
{
    mc_vert v[3] = { { { 0, 0 }, 0, 1 }, { { 1, 0 }, 1, 1 }, { { 0, 1 }, 2, 1 } };
    mc_tri tri = { { 0, 1, 2 } };
    mc_submesh sm = { .shader = "", .num_verts = 3, .verts = v, .num_tris = 1, .tris = &tri };
    mc_vec3 pos[3] = { { 0, 0, 0 }, { 1, 0, 1 }, { 0, 1, 0 } };
    mc_vec3 n[3] = { { 0, 0, 2 }, { 0, 0, 2 }, { 0, 0, 2 } };
    mc_tangent tg[3];

    mc_skin_tangents(&sm, pos, n, tg);
    for (int k = 0; k < 3; k++)
        EXPECT_EQ_VEC3(tg[k].t, mc_v3(1, 0, 0), 1e-6f);
    n[0] = n[1] = n[2] = mc_v3(3, 0, 3); /* along dP/ds */
    mc_skin_tangents(&sm, pos, n, tg);
    for (int k = 0; k < 3; k++) {
        EXPECT_NEAR(mc_v3_len(tg[k].t), 1.0, 1e-6);
        EXPECT_NEAR(mc_v3_dot(tg[k].t, mc_v3_normalize(n[k])), 0.0, 1e-6);
    }
}

/* A box of 8 corners shared by index (12 triangles): each corner's normal is the diagonal, the
 * sum of its three unit face normals, and with the texture coordinates below the three faces'
 * dP/ds at a corner sum to a vector along that diagonal, up to rounding. The tangent must still
 * be a unit vector perpendicular to the normal: what is left of the sum once its part along the
 * normal is removed is rounding noise, not a direction, so the tangent is then any vector
 * perpendicular to the normal (the same rule as a mapping with no area). */
TEST(box_tangents_are_perpendicular_to_the_normals)
{
    static const int quads[6][4] = { { 0, 1, 3, 2 }, { 4, 6, 7, 5 }, { 0, 4, 5, 1 },
                                     { 2, 3, 7, 6 }, { 0, 2, 6, 4 }, { 1, 5, 7, 3 } };
    mc_vert v[8];
    mc_tri tris[12];
    mc_vec3 pos[8], n[8];
    mc_tangent tg[8];
    int bad = 0;

    for (int c = 0; c < 8; c++) {
        pos[c] = mc_v3((c & 1) ? 1.0f : -1.0f, (c & 2) ? 1.0f : -1.0f, (c & 4) ? 1.0f : -1.0f);
        v[c].first_weight = c;
        v[c].num_weights = 1;
    }
    for (int q = 0; q < 6; q++) {
        tris[2 * q] = (mc_tri){ { quads[q][0], quads[q][1], quads[q][2] } };
        tris[2 * q + 1] = (mc_tri){ { quads[q][0], quads[q][2], quads[q][3] } };
    }
    mc_submesh sm = { .shader = "", .num_verts = 8, .verts = v, .num_tris = 12, .tris = tris };
    /* Corner 1's three faces give dP/ds summing along its normal (-1 under the old code). */
    static const float st[8][2] = { { 0.75f, 0.25f }, { 0.5f, 0 }, { 0.75f, 0 },
                                    { 0.25f, 0.5f }, { 1, 0.25f }, { 0.5f, 0.5f },
                                    { 0, 1 }, { 0.75f, 0.25f } };
    for (int c = 0; c < 8; c++) {
        v[c].st.x = st[c][0];
        v[c].st.y = st[c][1];
    }
    mc_skin_normals(&sm, NULL, pos, n);
    mc_skin_tangents(&sm, pos, n, tg);
    for (int c = 0; c < 8; c++) {
        EXPECT_NEAR(mc_v3_len(n[c]), 1.0, 1e-6);
        if (fabsf(mc_v3_len(tg[c].t) - 1.0f) > 1e-4f || fabsf(mc_v3_dot(tg[c].t, n[c])) > 1e-3f)
            bad++;
    }
    EXPECT(bad == 0);
}
