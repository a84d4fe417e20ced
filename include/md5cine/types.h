/* Plain value types shared by every module. Conventions (Doom 3's, written down once):
 * world +Z up, +X forward, +Y left, 1 unit = 1 inch. A quaternion is stored x y z w as in the
 * files, w >= 0 rebuilt as sqrt(|1 - x^2 - y^2 - z^2|); rotation matrices are built with Doom's
 * ToMat3 and applied to row vectors (see mathx.h). */
#ifndef MC_TYPES_H
#define MC_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A frame number: output frames of a render, stored frames of a file, frames of a reference.
 * Signed so that "none" can be -1. */
typedef int64_t mc_frame_no;

/* A frame rate num / den frames per second, both >= 1 (30000/1001 for 29.97 fps). */
typedef struct mc_rate {
    int num, den;
} mc_rate;

/* Pixels someone else owns: width x height RGBA8, top row first, rows stride bytes apart
 * (stride >= width * 4). Every function that takes or fills a frame uses this view. */
typedef struct mc_image_view {
    int width, height;
    size_t stride;
    uint8_t *pixels;
} mc_image_view;

typedef struct mc_vec2 {
    float x, y;
} mc_vec2;

typedef struct mc_vec3 {
    float x, y, z;
} mc_vec3;

typedef struct mc_quat {
    float x, y, z, w;
} mc_quat;

/* Rows are axes (row 0 forward, row 1 left, row 2 up for a view); points are row vectors:
 * p' = p * M, i.e. p'.c = sum_r p.r * m[r][c]. */
typedef struct mc_mat3 {
    float m[3][3];
} mc_mat3;

/* OpenGL layout: column-major, element (row r, col c) at m[c * 4 + r]. */
typedef struct mc_mat4 {
    float m[16];
} mc_mat4;

/* One OpenGL blend factor, as the material names it (GL_ONE, GL_SRC_ALPHA, ...). */
typedef enum mc_blend_factor {
    MC_BLEND_ZERO,
    MC_BLEND_ONE,
    MC_BLEND_DST_COLOR,
    MC_BLEND_ONE_MINUS_DST_COLOR,
    MC_BLEND_SRC_ALPHA,
    MC_BLEND_ONE_MINUS_SRC_ALPHA,
    MC_BLEND_DST_ALPHA,
    MC_BLEND_ONE_MINUS_DST_ALPHA,
    MC_BLEND_SRC_ALPHA_SATURATE,
    MC_BLEND_SRC_COLOR,
    MC_BLEND_ONE_MINUS_SRC_COLOR,
} mc_blend_factor;

/* glBlendFunc(src, dst). Doom's words map to: add = (ONE, ONE); filter and modulate =
 * (DST_COLOR, ZERO); blend = (SRC_ALPHA, ONE_MINUS_SRC_ALPHA); none = (ZERO, ONE); no blend
 * (an opaque stage) = (ONE, ZERO). */
typedef struct mc_blend {
    mc_blend_factor src, dst;
} mc_blend;

/* How a stage's image repeats (Material.cpp: clamp, zeroclamp, alphazeroclamp; noclamp is the
 * default, repeat). */
typedef enum mc_wrap {
    MC_WRAP_REPEAT,
    MC_WRAP_CLAMP,            /* clamp to the edge texels */
    MC_WRAP_ZERO_CLAMP,       /* clamp, the border texels set to (0, 0, 0, 255) */
    MC_WRAP_ALPHA_ZERO_CLAMP, /* clamp, the border texels set to (255, 255, 255, 0) */
} mc_wrap;

/* A shot of a frame range (reports, chapters): its number and inclusive frames. */
typedef struct mc_shot_range {
    int number;              /* shot number from 1; 0: not a shot ("all frames", "other") */
    mc_frame_no first, last; /* inclusive frame numbers, first <= last */
} mc_shot_range;

#ifdef __cplusplus
}
#endif

#endif
