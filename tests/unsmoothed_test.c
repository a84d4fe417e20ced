/* unsmoothedTangents (src/scene/unsmoothed.c) against frames worked out by hand from
 * renderer/tr_trisurf.cpp's R_BuildDominantTris and R_DeriveUnsmoothedTangents, and the
 * keyword in .mtr files. */
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/mtr.h>

#include "scene/unsmoothed.h"
#include "test.h"

/* Three triangles of one submesh (positions given directly, weights unused):
 *   A (0 1 2): v0 (0 0 0), v1 (0 2 0), v2 (2 0 0), in the plane z = 0;
 *   B (0 3 4): v0, v3 (0 0 3), v4 (0 -3 0), in the plane x = 0, larger than A;
 *   C (5 6 7): v5 (10 0 0), v6 (10 2 0), v7 (12 0 0), A's shape with a mirrored mapping.
 * st: v0 (0 0), v1 (0 1), v2 (1 0), v3 (1 0), v4 (0 1), v5 (0 0), v6 (0 1), v7 (1 0). */
static const mc_vec3 POS[8] = { { 0, 0, 0 },  { 0, 2, 0 },  { 2, 0, 0 },  { 0, 0, 3 },
                                { 0, -3, 0 }, { 10, 0, 0 }, { 10, 2, 0 }, { 12, 0, 0 } };
static const float ST[8][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 0 },
                                { 0, 1 }, { 0, 0 }, { 0, 1 }, { 1, 0 } };

static void make_submesh(mc_submesh *sm, mc_vert *verts, mc_tri *tris)
{
    static const int idx[3][3] = { { 0, 1, 2 }, { 0, 3, 4 }, { 5, 6, 7 } };

    memset(sm, 0, sizeof *sm);
    for (int i = 0; i < 8; i++) {
        memset(&verts[i], 0, sizeof verts[i]);
        verts[i].st.x = ST[i][0];
        verts[i].st.y = ST[i][1];
    }
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 3; k++)
            tris[t].v[k] = idx[t][k];
    sm->num_verts = 8;
    sm->verts = verts;
    sm->num_tris = 3;
    sm->tris = tris;
}

/* v0 is in A and B. |d1 x d0| for A from v0: d0 = v1 - v0 = (0 2 0), d1 = v2 - v0 = (2 0 0),
 * d1 x d0 = (0 0 4), 4; for B: d0 = (0 0 3), d1 = (0 -3 0), d1 x d0 = (-3*3 - 0*0, 0*0 - 0*3,
 * 0*0 - (-3)*0) = (-9 0 0), 9: B is v0's triangle, corners (3, 4).
 * Its frame: ds0 = 1, dt0 = 0, ds1 = 0, dt1 = 1, area = ds0 dt1 - dt0 ds1 = 1 > 0;
 * normal = (-9 0 0) / 9 = (-1 0 0); tangent = d0 dt1 - d1 dt0 = (0 0 3), / 3 = (0 0 1);
 * bitangent = ds0 d1 - ds1 d0 = (0 -3 0), / 3 = (0 -1 0); cross(t, n) = (0 0 1) x (-1 0 0) =
 * (0 -1 0), so w = sign(1) = +1.
 * v1 is only in A: from v1 the corners are (2, 0): d0 = v2 - v1 = (2 -2 0), d1 = v0 - v1 =
 * (0 -2 0), d1 x d0 = (-2*0 - 0*(-2), 0*2 - 0*0, 0*(-2) - (-2)*2) = (0 0 4): normal (0 0 1).
 * v5 is only in C: d0 = (0 2 0), d1 = (2 0 0), ds0 = 0, dt0 = 1, ds1 = 1, dt1 = 0, area = -1:
 * mirrored. normal (0 0 4) / 4 = (0 0 1); tangent = d0 * 0 - d1 * 1 = (-2 0 0), * -1/2 =
 * (1 0 0) (s grows along +x); bitangent = 0 * d1 - 1 * d0 = (0 -2 0), * -1/2 = (0 1 0) (t grows
 * along +y); cross(t, n) = (1 0 0) x (0 0 1) = (0 -1 0): w = -1. */
TEST(each_vertex_takes_its_largest_triangle)
{
    mc_vert verts[8];
    mc_tri tris[3];
    mc_submesh sm;
    mc_dominant_tri dt[8];
    mc_vec3 nrm[8];
    mc_tangent tan[8];

    make_submesh(&sm, verts, tris);
    mc_unsmoothed_build(&sm, POS, dt);
    EXPECT_EQ_INT(dt[0].v2, 3);
    EXPECT_EQ_INT(dt[0].v3, 4);
    EXPECT_EQ_INT(dt[1].v2, 2);
    EXPECT_EQ_INT(dt[1].v3, 0);
    mc_unsmoothed_derive(&sm, dt, POS, nrm, tan);
    EXPECT_EQ_VEC3(nrm[0], ((mc_vec3){ -1, 0, 0 }), 1e-6f);
    EXPECT_EQ_VEC3(tan[0].t, ((mc_vec3){ 0, 0, 1 }), 1e-6f);
    EXPECT(tan[0].w == 1.0f);
    EXPECT_EQ_VEC3(nrm[1], ((mc_vec3){ 0, 0, 1 }), 1e-6f);
    EXPECT_EQ_VEC3(nrm[5], ((mc_vec3){ 0, 0, 1 }), 1e-6f);
    EXPECT_EQ_VEC3(tan[5].t, ((mc_vec3){ 1, 0, 0 }), 1e-6f);
    EXPECT(tan[5].w == -1.0f);
}

/* Each frame takes the bind pose's scales, not new lengths: with every position doubled,
 * d1 x d0 grows 4 times and the tangent 2 times, so v0's normal is (-36 0 0) / 9 = (-4 0 0)
 * and its tangent (0 0 6) / 3 = (0 0 2) (R_DeriveUnsmoothedTangents multiplies by
 * normalizationScale, made once by R_BuildDominantTris). */
TEST(frames_keep_the_bind_pose_scales)
{
    mc_vert verts[8];
    mc_tri tris[3];
    mc_submesh sm;
    mc_dominant_tri dt[8];
    mc_vec3 nrm[8], twice[8];
    mc_tangent tan[8];

    make_submesh(&sm, verts, tris);
    mc_unsmoothed_build(&sm, POS, dt);
    for (int i = 0; i < 8; i++)
        twice[i] = mc_v3_scale(POS[i], 2.0f);
    mc_unsmoothed_derive(&sm, dt, twice, nrm, tan);
    EXPECT_EQ_VEC3(nrm[0], ((mc_vec3){ -4, 0, 0 }), 1e-5f);
    EXPECT_EQ_VEC3(tan[0].t, ((mc_vec3){ 0, 0, 2 }), 1e-5f);
}

TEST(parses_the_keyword)
{
    static const char text[] = "a { unsmoothedTangents diffusemap x }\nb { diffusemap x }\n";
    mc_mtr_file f;
    mc_error err;

    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "u.mtr", NULL, &f, &err), &err);
    ASSERT(f.num_decls == 2);
    EXPECT(f.decls[0].flags == MC_MTR_UNSMOOTHED_TANGENTS);
    EXPECT(!(f.decls[1].flags & MC_MTR_UNSMOOTHED_TANGENTS));
    mc_mtr_release(&f);
}
