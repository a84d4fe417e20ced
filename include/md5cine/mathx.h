/* Value math with Doom 3's conventions written down once (see types.h).
 *
 * Rotations: a quaternion (x, y, z, w) becomes a matrix with Doom's ToMat3 (the textbook
 * entries M01 = 2(xy - wz) ...) and a point is a row vector, p' = p * M. That is the Hamilton
 * rotation by the conjugate: a Hamilton library must use (x, y, z, -w). The product a * b is the
 * Hamilton product with a on the left and means "rotate by a, then by b", so a child joint's
 * model rotation is q_model = q_local * q_parent. Nothing here renormalises a quaternion.
 *
 * Every function takes and returns values (or writes into caller storage) and never fails. */
#ifndef MC_MATHX_H
#define MC_MATHX_H

#include <stdbool.h>

#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_PI 3.14159265358979323846f

mc_vec3 mc_v3(float x, float y, float z);
mc_vec3 mc_v3_add(mc_vec3 a, mc_vec3 b);
mc_vec3 mc_v3_sub(mc_vec3 a, mc_vec3 b);
mc_vec3 mc_v3_scale(mc_vec3 a, float s);
float mc_v3_dot(mc_vec3 a, mc_vec3 b);
mc_vec3 mc_v3_cross(mc_vec3 a, mc_vec3 b);
float mc_v3_len(mc_vec3 a);
/* a / |a|; a zero vector stays zero. */
mc_vec3 mc_v3_normalize(mc_vec3 a);
/* Doom's idVec3::Lerp: t <= 0 -> a, t >= 1 -> b, else a + t (b - a). */
mc_vec3 mc_v3_lerp(mc_vec3 a, mc_vec3 b, float t);

/* w = sqrt(|1 - x^2 - y^2 - z^2|) (Doom's CalcW: absolute value, not a clamp). */
float mc_quat_calc_w(float x, float y, float z);
/* (x, y, z, calc_w(x, y, z)). */
mc_quat mc_quat_from_xyz(float x, float y, float z);
mc_quat mc_quat_identity(void);
/* Doom's idQuat a * b (Hamilton product, a on the left): rotate by a, then by b. */
mc_quat mc_quat_mul(mc_quat a, mc_quat b);
/* Doom's ToMat3 (rows are the rotated axes; apply as p * M). */
mc_mat3 mc_quat_to_mat3(mc_quat q);
/* p * ToMat3(q), computed without building the matrix (exact for non-unit q as well). */
mc_vec3 mc_quat_rotate(mc_quat q, mc_vec3 p);
/* Doom's idQuat::Slerp: t <= 0 -> from, t >= 1 -> to, from == to -> to; negates to when
 * dot < 0 (shortest path); plain lerp of the components when 1 - cos <= 1e-6; the result is
 * not renormalised. */
mc_quat mc_quat_slerp(mc_quat from, mc_quat to, float t);
float mc_quat_dot(mc_quat a, mc_quat b);

mc_mat3 mc_mat3_identity(void);
/* Ordinary product a * b; with row vectors p * (a * b) applies a first. */
mc_mat3 mc_mat3_mul(const mc_mat3 *a, const mc_mat3 *b);
mc_mat3 mc_mat3_transpose(const mc_mat3 *a);
/* Row-vector product p * m. */
mc_vec3 mc_v3_mul_mat3(mc_vec3 p, const mc_mat3 *m);

mc_mat4 mc_mat4_identity(void);
/* Column-vector product a * b (GL order: b is applied first). */
mc_mat4 mc_mat4_mul(const mc_mat4 *a, const mc_mat4 *b);
/* The inverse of m into *out; false (and *out untouched) when m is singular. */
bool mc_mat4_inverse(const mc_mat4 *m, mc_mat4 *out);
/* m * (p, w) as a column vector; writes the four components to out[0..3]. */
void mc_mat4_apply(const mc_mat4 *m, mc_vec3 p, float w, float out[4]);

/* Degrees <-> radians. */
float mc_deg2rad(float deg);
float mc_rad2deg(float rad);

#ifdef __cplusplus
}
#endif

#endif
