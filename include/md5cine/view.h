/* The camera view at a moment: position, axis and field of view from the camera's stored frames
 * as the timeline maps them (DESIGN.md 2.1), then GL view and projection matrices (semantics
 * reference 6.2 and 6.3).
 *
 * Interpolation happens only between the two stored frames a timeline sample names (lerp the
 * position and fov, shortest-path slerp the rotation); the timeline never names a cut pair
 * (c, c + 1), so a view never blends across a cut.
 *
 * Field of view, two modes, for an output of width x height pixels (aspect a = width / height):
 *   MC_FOV_HORIZONTAL (default): the file's fov is the horizontal fov across the output width;
 *       fov_x = fov, fov_y = 2 atan(tan(fov / 2) / a).
 *   MC_FOV_DOOM: Doom's CalcFov with the output aspect: keep the vertical fov of a 4:3 view,
 *       fov_y = 2 atan(tan(fov / 2) * 3 / 4), and widen horizontally,
 *       fov_x = 2 atan(a * tan(fov_y / 2)). For outputs narrower than 4:3 (where that would
 *       narrow fov_x below fov) Doom keeps fov_x = fov and uses the HORIZONTAL rule. */
#ifndef MC_VIEW_H
#define MC_VIEW_H

#include <stdint.h>

#include <md5cine/md5camera.h>
#include <md5cine/timeline.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Near plane during cut scenes (Doom sets r_znear 1.0 while a camera is active). */
#define MC_VIEW_ZNEAR 1.0f

typedef enum mc_fov_mode {
    MC_FOV_HORIZONTAL = 0,
    MC_FOV_DOOM = 1,
} mc_fov_mode;

typedef struct mc_view {
    mc_vec3 origin; /* world space */
    mc_mat3 axis;   /* rows: forward, left, up (Doom ToMat3 of the camera quaternion) */
    float fov;      /* the file's fov at this moment, degrees (interpolated) */
    float fov_x;    /* horizontal fov across the output, degrees */
    float fov_y;    /* vertical fov across the output, degrees */
    mc_mat4 view;   /* world -> GL eye space (reference 6.2) */
    mc_mat4 proj;   /* eye -> clip, infinite far plane, near MC_VIEW_ZNEAR (reference 6.3) */
} mc_view;

/* (fov_x, fov_y) in degrees for a file fov in degrees, an output width x height (>= 1) and a
 * mode (see above). */
void mc_view_fov(float fov, int width, int height, mc_fov_mode mode, float *fov_x,
                 float *fov_y);

/* The view matrix for an eye at origin with axis rows forward F, left L, up U (GL column-major):
 * p_eye = (-(p - o).L, (p - o).U, -(p - o).F). */
mc_mat4 mc_view_matrix(mc_vec3 origin, const mc_mat3 *axis);

/* Doom's infinite projection: P[0] = 1 / tan(fov_x / 2), P[5] = 1 / tan(fov_y / 2),
 * P[10] = -0.999, P[11] = -1, P[14] = -2 znear, all other elements 0. Degrees. */
mc_mat4 mc_view_projection(float fov_x, float fov_y, float znear);

/* The view for a timeline sample of cam (from mc_timeline_sample_frame/_time), for an output
 * of width x height pixels (>= 1). */
void mc_view_from_sample(const mc_camera *cam, const mc_timeline_sample *s, int width,
                         int height, mc_fov_mode mode, mc_view *out);

/* Output frame k (>= 0) at fps (>= 1): samples the timeline, then mc_view_from_sample.
 * sample may be NULL; otherwise it receives the timeline sample used. */
void mc_view_at_frame(const mc_camera *cam, mc_rate fps, int64_t k, int width, int height,
                      mc_fov_mode mode, mc_view *out, mc_timeline_sample *sample);

/* The same at an arbitrary time t >= 0 seconds (sub-frame queries). */
void mc_view_at_time(const mc_camera *cam, double t, int width, int height, mc_fov_mode mode,
                     mc_view *out, mc_timeline_sample *sample);

#ifdef __cplusplus
}
#endif

#endif
