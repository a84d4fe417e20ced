/* md5anim: parse and validate a Doom 3 animation file.
 *
 * Valid by construction: parent < own index (joint 0 is the root; with --lenient further roots
 * are allowed and reported), flags use only the six low bits, and for every joint
 * first + popcount(flags) <= num_components, so decoding a frame never reads out of bounds.
 * (Doom also requires first < num_components for joints with flags 0, which read nothing; that
 * value is unused, so here it only has to satisfy first <= num_components.) num_frames,
 * num_joints and frame_rate are >= 1 (Doom lets frameRate 0 through and divides by it). */
#ifndef MC_MD5ANIM_H
#define MC_MD5ANIM_H

#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    MC_ANIM_TX = 1,
    MC_ANIM_TY = 2,
    MC_ANIM_TZ = 4,
    MC_ANIM_QX = 8,
    MC_ANIM_QY = 16,
    MC_ANIM_QZ = 32,
};

typedef struct mc_anim_joint {
    const char *name; /* in the anim's arena */
    int parent;       /* -1 for a root; otherwise < own index */
    int flags;        /* MC_ANIM_* bits */
    int first;        /* index in each frame's values of the first animated component */
    int line, col;    /* position of the joint's name token, for mesh/anim mismatch errors */
} mc_anim_joint;

typedef struct mc_bounds {
    mc_vec3 min, max;
} mc_bounds;

typedef struct mc_anim {
    const char *name; /* in the arena */
    int num_frames;   /* >= 1 */
    int frame_rate;   /* >= 1 frames per second */
    int num_joints;   /* >= 1 */
    int num_components;
    mc_anim_joint *joints;
    int num_bounds;      /* == num_frames unless lenient accepted a different count */
    mc_bounds *bounds;
    mc_vec3 *base_pos;   /* num_joints, parent space */
    mc_quat *base_rot;   /* num_joints, parent space, w rebuilt */
    float *frames;       /* num_frames * num_components values, frame-major */
    mc_arena arena;
} mc_anim;

/* Same contract as mc_mesh_parse. */
mc_status mc_anim_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                        mc_anim *out, mc_error *err);
mc_status mc_anim_load(const char *path, const mc_parse_opts *opts, mc_anim *out, mc_error *err);
void mc_anim_release(mc_anim *anim);

/* Rebases joint 0 as Doom does once it has read an anim (game/anim/Anim.cpp,
 * idMD5Anim::LoadAnim): each animated translation component of joint 0, in every frame, less
 * the base frame's value on that axis, and the base frame's joint 0 translation then zero. Its
 * translation in every frame is thus the file's less the base frame's: the base frame puts
 * joint 0 at the model's origin and only its motion away from there is kept. Rotations and the
 * other joints are left as they are. For the model declarations' anims (scene.h); a file
 * given by itself keeps its joint 0. */
void mc_anim_rebase_root(mc_anim *anim);

#ifdef __cplusplus
}
#endif

#endif
