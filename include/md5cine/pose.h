/* Skeletal poses: anim sampling, joint concatenation, skinning and normals, as Doom 3 does them
 * (DESIGN.md 2, semantics reference 2 to 4).
 *
 * Spaces: an md5mesh's joints are model space; an md5anim's joints are parent space. A sampled
 * anim is turned into model space by concatenating each mesh joint's local transform (taken from
 * the anim joint of the same name) with its mesh parent: axis_model = axis_local * axis_parent,
 * pos_model = pos_local * axis_parent + pos_parent (row vectors, mathx.h).
 *
 * Every function writes into caller buffers; nothing here allocates except
 * mc_skin_topology_build (once per submesh) and mc_pose_map_anim (a temporary name index, freed
 * before it returns). Buffers sized by a count in the mesh or anim must
 * hold at least that many elements. */
#ifndef MC_POSE_H
#define MC_POSE_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A joint in parent space, as rebuilt from an anim frame. */
typedef struct mc_local_joint {
    mc_vec3 pos; /* parent space */
    mc_quat rot; /* parent space, Doom convention, w rebuilt */
} mc_local_joint;

/* A joint transform: p' = p * axis + pos (row vector). In a pose, model space. */
typedef struct mc_joint_xform {
    mc_mat3 axis; /* Doom ToMat3 of the joint's rotation: rows are its axes */
    mc_vec3 pos;
} mc_joint_xform;

/* Where an anim is in its frames at one moment: blend frame0 -> frame1 by lerp. */
typedef struct mc_anim_frame_pos {
    int frame0; /* 0 .. num_frames - 1 */
    int frame1; /* frame0 + 1, or frame0 when holding */
    float lerp; /* [0, 1): a fraction that would round to 1.0f is 1 - 2^-24 */
} mc_anim_frame_pos;

typedef struct mc_pose_opts {
    bool loop;     /* wrap with a period of num_frames - 1 intervals; else hold the last frame */
    bool in_place; /* drop the translation of anim joint 0 (the root), as Doom does for actors */
} mc_pose_opts;

/* Matches mesh joints to anim joints by name (case-sensitive). On success anim_joint[i]
 * (mesh->num_joints entries, caller storage) is the anim joint index of mesh joint i. Every
 * mesh joint must exist in the anim and the anim joint's parent must have the same name as the
 * mesh joint's parent (both roots, or both named alike), else MC_ERR_MISMATCH naming the joint:
 * positioned at the anim joint's line/col in the anim file, or at the mesh joint's in the mesh
 * file when the anim lacks it. Extra anim joints are ignored. A name that several anim joints
 * share matches the first of them. Mesh joints are checked in order and the first one that
 * fails is reported. O((m + n) log n) for m mesh and n anim joints: the anim's names are sorted
 * once. MC_ERR_NOMEM (no position) when that index cannot be allocated. */
mc_status mc_pose_map_anim(const mc_mesh *mesh, const mc_anim *anim, int *anim_joint,
                           mc_error *err);

/* Frame position f (in frames, f = t * frameRate) -> frames and lerp (DESIGN "anim time").
 * f <= 0 holds frame 0; a one-frame anim always shows frame 0. Looping: period num_frames - 1
 * intervals. Not looping: from f >= num_frames - 1 on, the last frame is held. A value within
 * 1e-9 frames of a whole number counts as that whole frame, so t = k / frameRate never lands
 * on the previous frame with lerp 0.999999. */
void mc_anim_frame_at(const mc_anim *anim, double f, bool loop, mc_anim_frame_pos *out);

/* Anim time ms (integer milliseconds since the anim's start) -> frames and lerp by Doom 3's own
 * integer rule (idMD5Anim::ConvertTimeToFrame, with idAnimBlend::AnimTime's wrap), for the
 * engine clock (timeline.h):
 *   one-frame anim: frame 0, 0, lerp 0.       ms <= 0: frames 0 and 1, lerp 0.
 *   looping: ms %= length first, length = ceil((num_frames - 1) * 1000 / frameRate) ms.
 *   p = ms * frameRate; n = p / 1000; cycle = n / (num_frames - 1);
 *   not looping and cycle >= 1: the last frame held (frame0 = frame1 = num_frames - 1, lerp 0);
 *   else frame0 = n % (num_frames - 1), frame1 = frame0 + 1, lerp = (p % 1000) * 0.001.
 * So lerps step in thousandths, frame1 is frame0 + 1 even when lerp is 0, and a looping anim
 * wraps a little after its last interval ends when length is rounded up. */
void mc_anim_frame_at_ms(const mc_anim *anim, int64_t ms, bool loop, mc_anim_frame_pos *out);

/* Anim joint j (0 <= j < anim->num_joints) of stored frame k (0 <= k < num_frames) in parent
 * space, by the spec's rule: the base frame, then the flagged values in the order
 * tx ty tz qx qy qz read from frame k starting at the joint's first component, then w rebuilt
 * (only when a rotation component is flagged; otherwise the base frame's w). */
mc_local_joint mc_anim_joint_at(const mc_anim *anim, int j, int k);

/* The model-space pose of mesh at frame position fp of anim, through the map made by
 * mc_pose_map_anim: translations lerp and rotations slerp (shortest path) in parent space,
 * joint 0 keeps its base-frame translation unless in_place. out: mesh->num_joints entries. */
void mc_pose_sample_frames(const mc_mesh *mesh, const mc_anim *anim, const int *anim_joint,
                           const mc_anim_frame_pos *fp, bool in_place, mc_joint_xform *out);

/* mc_anim_frame_at(t * frameRate) then mc_pose_sample_frames. t in seconds since the anim's
 * start (negative holds frame 0). opts may be NULL (hold, not in place). */
void mc_pose_sample(const mc_mesh *mesh, const mc_anim *anim, const int *anim_joint, double t,
                    const mc_pose_opts *opts, mc_joint_xform *out);

/* The bind pose: the mesh joints as given (model space). out: mesh->num_joints entries. */
void mc_pose_bind(const mc_mesh *mesh, mc_joint_xform *out);

/* Skinned positions of one submesh: pos = sum(bias * (offset * axis + pos_joint)) over the
 * vertex's weights in file order, biases not normalised. joints: a pose of the submesh's mesh.
 * out: sm->num_verts entries. */
void mc_skin_positions(const mc_submesh *sm, const mc_joint_xform *joints, mc_vec3 *out);

/* The bind-pose positions of submesh index s of mesh (the same numbers as mc_skin_positions
 * with mc_pose_bind's joints). out: mesh->meshes[s].num_verts entries. */
void mc_skin_bind_positions(const mc_mesh *mesh, int s, mc_vec3 *out);

/* Per submesh, built once: which vertices are smoothed together. Vertices that share a
 * bit-identical bind-pose position (copies made by UV seams) share their normals unless
 * their bind-pose normals differ by more than a crease angle, so that a box keeps flat faces
 * while a seam across a curved surface stays invisible. The crease acts between copies only: a
 * vertex that several faces share by index keeps one averaged normal (the mesh would have to
 * be split there). */
typedef struct mc_skin_topology {
    int num_verts;
    int *rep; /* per vertex: the lowest index of its smoothing group (rep[v] <= v) */
} mc_skin_topology;

/* The crease angle md5cine uses (degrees): copies of a vertex whose bind normals differ by
 * more keep their own normals. 60 keeps the 90-degree edges of boxes and the 72-degree ones of
 * pentagonal prisms sharp and smooths the edges of meshes with 8 or more sides around. */
#define MC_SKIN_CREASE_DEGREES 60.0f

/* Builds the topology of submesh s of mesh. The bind-pose vertex normal of a vertex is the
 * normalised, unweighted sum of the unit normals of the triangles around it. Among vertices of
 * one bind position, taken in index order, each joins the first earlier group (of the first
 * 32 groups at that position) whose first vertex's bind normal is at most crease_deg degrees
 * from its own; else it opens a group. A vertex on no triangle joins the position's first
 * group. crease_deg >= 180 smooths every copy together (Doom's rule, md5cine's before the
 * crease). Allocates rep (released with mc_skin_topology_release). MC_ERR_NOMEM when out of
 * memory (then *out is zeroed). */
mc_status mc_skin_topology_build(const mc_mesh *mesh, int s, float crease_deg,
                                 mc_skin_topology *out, mc_error *err);

/* Frees rep and zeroes *topo; accepts a zeroed struct. */
void mc_skin_topology_release(mc_skin_topology *topo);

/* Normals from skinned positions pos (sm->num_verts): each triangle (a, b, c) adds its unit face
 * normal (c - a) x (b - a) to its three vertices (unweighted), sums are shared across each
 * topology group (smoothing group), then normalised. A vertex touched by no non-degenerate
 * triangle gets (0, 0, 0). topo: built for this submesh, or NULL for no smoothing across seams.
 * out: sm->num_verts entries (may not alias pos). */
void mc_skin_normals(const mc_submesh *sm, const mc_skin_topology *topo, const mc_vec3 *pos,
                     mc_vec3 *out);

/* A vertex's tangent: t is the unit texture s direction (dP/ds) made perpendicular to the
 * vertex normal; the bitangent is w * cross(t, n), w = +1 where the texture is not mirrored
 * (with t = 0 at the image's top row, dP/dt points down the image) and -1 where it is. */
typedef struct mc_tangent {
    mc_vec3 t;
    float w;
} mc_tangent;

/* Tangents from skinned positions pos and normals nrm (sm->num_verts each), every frame, as
 * Doom's R_DeriveTangents: each triangle with a non-zero area in st adds its unit dP/ds to
 * its three vertices; each sum is made perpendicular to the vertex normal and normalised (a
 * vertex with none gets some unit vector perpendicular to its normal; one with a zero normal
 * gets zero). w is the sign of the sum, over the vertex's triangles, of their unit dP/dt
 * dotted with cross(t, n) (+1 when it is 0). Vertices are not shared across seams: a seam
 * vertex keeps its own mapping. out: sm->num_verts entries. */
void mc_skin_tangents(const mc_submesh *sm, const mc_vec3 *pos, const mc_vec3 *nrm,
                      mc_tangent *out);

/* An actor's model-to-world matrix (GL column-major): world = origin + scale * (p * yaw_axis),
 * where yaw_axis is Doom's idAngles(0, yaw, 0).ToMat3 (yaw degrees about +Z, counter-clockwise
 * seen from above: yaw 90 turns +X into +Y). */
mc_mat4 mc_pose_placement(mc_vec3 origin, float yaw_deg, float scale);

#ifdef __cplusplus
}
#endif

#endif
