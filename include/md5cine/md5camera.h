/* md5camera: parse and validate a Doom 3 camera file.
 *
 * Valid by construction: num_frames >= 1, 1 <= frame_rate <= 1000 (MC_LIMIT_FPS_MAX), 0 <= num_cuts <= num_frames, every
 * cut in [1, num_frames - 1] and the cuts strictly increasing, every fov in (0, 180) degrees
 * (not a check of Doom's; a projection with another fov is degenerate). */
#ifndef MC_MD5CAMERA_H
#define MC_MD5CAMERA_H

#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_camera_frame {
    mc_vec3 pos; /* world space */
    mc_quat rot; /* view axis = ToMat3(rot): rows forward, left, up; w rebuilt */
    float fov;   /* horizontal field of view in degrees */
} mc_camera_frame;

typedef struct mc_camera {
    const char *name; /* in the arena */
    int num_frames;
    int frame_rate;
    int num_cuts;
    int *cuts; /* stored-frame indices, strictly increasing */
    mc_camera_frame *frames;
    mc_arena arena;
} mc_camera;

/* Same contract as mc_mesh_parse. */
mc_status mc_camera_parse(const char *buf, size_t len, const char *name,
                          const mc_parse_opts *opts, mc_camera *out, mc_error *err);
mc_status mc_camera_load(const char *path, const mc_parse_opts *opts, mc_camera *out,
                         mc_error *err);
void mc_camera_release(mc_camera *cam);

#ifdef __cplusplus
}
#endif

#endif
