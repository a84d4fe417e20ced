/* unsmoothed: a material's `unsmoothedTangents` (Material.cpp; the surface's deform info built
 * with useUnsmoothedTangents, Model_md5.cpp R_BuildDeformInfo): each vertex takes its normal
 * and tangent frame from one triangle of its own, the largest one using it in the bind pose
 * (tr_trisurf.cpp R_BuildDominantTris), recomputed each frame from the skinned positions
 * (R_DeriveUnsmoothedTangents) instead of the smoothed sums of R_DeriveTangents:
 *
 *   a the vertex, (b, c) the other two corners of its triangle in winding order from a;
 *   d0 = b - a, d1 = c - a (positions, and st deltas ds0, dt0, ds1, dt1);
 *   normal  = (d1 x d0) / |d1 x d0|_bind           (a bind-pose area below 0.001 counts 0.001)
 *   tangent = sign(area) (d0 dt1 - d1 dt0) / |..|_bind,  area = ds0 dt1 - dt0 ds1
 *   bitangent = sign(area) (ds0 d1 - ds1 d0) / |..|_bind
 *
 * Of a vertex's triangles the one with the largest |d1 x d0| in the bind pose is its own; of
 * equal ones the last in the file (Doom's order there is qsort's). Doom first splits vertices
 * whose mapping is mirrored (R_DuplicateMirroredVertexes); md5cine keeps the file's vertices.
 * The renderer's frame is the tangent and a handedness: w = the sign of bitangent .
 * cross(tangent, normal), the bitangent made perpendicular as the smoothed one is. */
#ifndef MC_SCENE_UNSMOOTHED_H
#define MC_SCENE_UNSMOOTHED_H

#include <md5cine/mathx.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>
#include <md5cine/types.h>

/* One vertex's triangle: its other corners and the bind pose's scales. */
typedef struct mc_dominant_tri {
    int v2, v3;     /* the other corners, in winding order from the vertex */
    float scale[3]; /* tangent, bitangent, normal: sign / length in the bind pose */
} mc_dominant_tri;

/* The dominant triangle of each of sm's vertices from bind-pose positions bind (num_verts);
 * out: num_verts entries. A vertex no triangle uses gets v2 = v3 = itself (zero vectors). */
void mc_unsmoothed_build(const mc_submesh *sm, const mc_vec3 *bind, mc_dominant_tri *out);

/* Normals and tangents of positions pos from the dominant triangles dt
 * (R_DeriveUnsmoothedTangents); nrm and tan: num_verts entries each (tan may be NULL). */
void mc_unsmoothed_derive(const mc_submesh *sm, const mc_dominant_tri *dt, const mc_vec3 *pos,
                          mc_vec3 *nrm, mc_tangent *tan);

#endif
