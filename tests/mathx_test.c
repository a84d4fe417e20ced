/* mathx: Doom 3's quaternion and matrix conventions. Expected values are worked out by hand in
 * the comments (semantics reference 2.2 to 2.4). */
#include <math.h>

#include <md5cine/mathx.h>

#include "test.h"

#define S 0.70710678f /* sin 45 = cos 45 */

TEST(calc_w_takes_the_absolute_value)
{
    /* 1 - 0.5 = 0.5 -> sqrt 0.70710678 */
    EXPECT_NEAR(mc_quat_calc_w(0.0f, 0.0f, -S), S, 1e-6);
    /* x = 1.2: |1 - 1.44| = 0.44 -> 0.66332496, not 0 as a clamp would give */
    EXPECT_NEAR(mc_quat_calc_w(1.2f, 0.0f, 0.0f), 0.66332496, 1e-6);
    EXPECT_NEAR(mc_quat_calc_w(0.0f, 0.0f, 0.0f), 1.0, 0.0);
}

TEST(to_mat3_of_yaw_90_has_left_as_forward)
{
    /* q = (0, 0, -s, s): M00 = 1 - 2 z^2 = 0, M01 = 2(xy - wz) = 2 (0 + 0.5) = 1,
     * M10 = 2(xy + wz) = -1, M11 = 0, M22 = 1: rows (0 1 0), (-1 0 0), (0 0 1). */
    mc_mat3 m = mc_quat_to_mat3(mc_quat_from_xyz(0.0f, 0.0f, -S));
    EXPECT_EQ_VEC3(mc_v3(m.m[0][0], m.m[0][1], m.m[0][2]), mc_v3(0, 1, 0), 1e-6f);
    EXPECT_EQ_VEC3(mc_v3(m.m[1][0], m.m[1][1], m.m[1][2]), mc_v3(-1, 0, 0), 1e-6f);
    EXPECT_EQ_VEC3(mc_v3(m.m[2][0], m.m[2][1], m.m[2][2]), mc_v3(0, 0, 1), 1e-6f);
}

TEST(rotate_applies_the_matrix_to_a_row_vector)
{
    /* (1, 0, 0) * M = row 0 = (0, 1, 0); the Hamilton q p q^-1 would give (0, -1, 0). */
    mc_quat q = mc_quat_from_xyz(0.0f, 0.0f, -S);
    EXPECT_EQ_VEC3(mc_quat_rotate(q, mc_v3(1, 0, 0)), mc_v3(0, 1, 0), 1e-6f);
    mc_mat3 m = mc_quat_to_mat3(q);
    EXPECT_EQ_VEC3(mc_v3_mul_mat3(mc_v3(1, 0, 0), &m), mc_v3(0, 1, 0), 1e-6f);
    /* (2, 3, 4) * M = 2 row0 + 3 row1 + 4 row2 = (0, 2, 0) + (-3, 0, 0) + (0, 0, 4) */
    EXPECT_EQ_VEC3(mc_quat_rotate(q, mc_v3(2, 3, 4)), mc_v3(-3, 2, 4), 1e-5f);
}

TEST(rotate_matches_the_matrix_for_a_non_unit_quaternion)
{
    /* w from |1 - 1.44| gives |q| != 1; both paths must still agree with ToMat3. For
     * q = (1.2, 0, 0, w), w^2 = 0.44: M11 = 1 - 2 * 1.44 = -1.88, M12 = 2(-w 1.2) = -2.4 w,
     * so (0, 1, 0) * M = row 1 = (0, -1.88, -2.4 w). */
    mc_quat q = mc_quat_from_xyz(1.2f, 0.0f, 0.0f);
    float w = 0.66332496f;
    EXPECT_EQ_VEC3(mc_quat_rotate(q, mc_v3(0, 1, 0)), mc_v3(0, -1.88f, -2.4f * w), 1e-5f);
}

TEST(product_rotates_by_the_left_factor_first)
{
    /* a = yaw 90 (+X -> +Y). b = (s, 0, 0, s): ToMat3 row 1 = (0, 1 - 2 s^2, 2(0 - s s)) =
     * (0, 0, -1), so b takes +Y to -Z. a * b: +X -> +Y -> -Z. b * a: +X stays +X under b
     * (row 0 = (1, 0, 0)), then a: +Y. */
    mc_quat a = mc_quat_from_xyz(0.0f, 0.0f, -S);
    mc_quat b = mc_quat_from_xyz(S, 0.0f, 0.0f);
    EXPECT_EQ_VEC3(mc_quat_rotate(mc_quat_mul(a, b), mc_v3(1, 0, 0)), mc_v3(0, 0, -1), 1e-5f);
    EXPECT_EQ_VEC3(mc_quat_rotate(mc_quat_mul(b, a), mc_v3(1, 0, 0)), mc_v3(0, 1, 0), 1e-5f);
    /* a * a: w = s s - (-s)(-s) = 0, z = s(-s) + (-s)s = -1: yaw 180. */
    mc_quat aa = mc_quat_mul(a, a);
    EXPECT_NEAR(aa.z, -1.0, 1e-6);
    EXPECT_NEAR(aa.w, 0.0, 1e-6);
}

TEST(slerp_returns_endpoints_unchanged)
{
    mc_quat from = { 0.1f, 0.2f, 0.3f, 0.9f }, to = { -0.5f, 0.5f, 0.5f, 0.5f };
    mc_quat r0 = mc_quat_slerp(from, to, 0.0f), r1 = mc_quat_slerp(from, to, 1.0f);
    mc_quat rn = mc_quat_slerp(from, to, -3.0f), rp = mc_quat_slerp(from, to, 7.0f);
    EXPECT(r0.x == from.x && r0.y == from.y && r0.z == from.z && r0.w == from.w);
    EXPECT(rn.x == from.x && rn.w == from.w);
    /* t >= 1 returns `to` itself, not its negation, even though dot(from, to) < 0 here */
    EXPECT(r1.x == to.x && r1.y == to.y && r1.z == to.z && r1.w == to.w);
    EXPECT(rp.x == to.x && rp.w == to.w);
}

TEST(slerp_takes_the_shortest_path)
{
    /* to = -(yaw 90) is the same rotation; halfway from identity is yaw 45:
     * (0, 0, -sin 22.5, cos 22.5) = (0, 0, -0.38268343, 0.92387953). */
    mc_quat id = mc_quat_identity(), to = { 0.0f, 0.0f, S, -S };
    mc_quat r = mc_quat_slerp(id, to, 0.5f);
    EXPECT_NEAR(r.x, 0.0, 1e-6);
    EXPECT_NEAR(r.z, -0.38268343, 1e-5);
    EXPECT_NEAR(r.w, 0.92387953, 1e-5);
}

TEST(slerp_does_not_renormalise)
{
    /* from = (0 0 0 2), to = (0 0 2 0): cos = 0, omega = 90 degrees, s0 = s1 = sin 45 / 1, so
     * the result is (0, 0, 1.4142, 1.4142), of length 2 (renormalising would give length 1). */
    mc_quat from = { 0.0f, 0.0f, 0.0f, 2.0f }, to = { 0.0f, 0.0f, 2.0f, 0.0f };
    mc_quat r = mc_quat_slerp(from, to, 0.5f);
    EXPECT_NEAR(r.z, 1.41421356, 1e-5);
    EXPECT_NEAR(r.w, 1.41421356, 1e-5);
}

TEST(slerp_falls_back_to_lerp_when_nearly_identical)
{
    /* cos = 1 exactly, so sin omega = 0: the formula would divide by zero; the lerp gives
     * (0, 0, 0.0005, 1) at t = 0.5. */
    mc_quat from = { 0.0f, 0.0f, 0.0f, 1.0f }, to = { 0.0f, 0.0f, 0.001f, 1.0f };
    mc_quat r = mc_quat_slerp(from, to, 0.5f);
    EXPECT(isfinite(r.z) && isfinite(r.w));
    EXPECT_NEAR(r.z, 0.0005, 1e-9);
    EXPECT_NEAR(r.w, 1.0, 1e-7);
}

TEST(vec_lerp_clamps_like_doom)
{
    mc_vec3 a = { 0, 0, 0 }, b = { 10, 20, 30 };
    EXPECT_EQ_VEC3(mc_v3_lerp(a, b, 0.25f), mc_v3(2.5f, 5, 7.5f), 1e-6f);
    EXPECT_EQ_VEC3(mc_v3_lerp(a, b, 2.0f), b, 0.0f);
    EXPECT_EQ_VEC3(mc_v3_lerp(a, b, -1.0f), a, 0.0f);
}

TEST(mat3_product_applies_the_left_factor_first)
{
    /* Same a, b as the quaternion case: (1, 0, 0) * (A B) = ((1, 0, 0) A) B = (0, 0, -1) */
    mc_mat3 a = mc_quat_to_mat3(mc_quat_from_xyz(0.0f, 0.0f, -S));
    mc_mat3 b = mc_quat_to_mat3(mc_quat_from_xyz(S, 0.0f, 0.0f));
    mc_mat3 ab = mc_mat3_mul(&a, &b);
    EXPECT_EQ_VEC3(mc_v3_mul_mat3(mc_v3(1, 0, 0), &ab), mc_v3(0, 0, -1), 1e-5f);
    mc_mat3 t = mc_mat3_transpose(&a);
    EXPECT_NEAR(t.m[1][0], 1.0, 1e-6); /* a's M01 */
}

TEST(mat4_product_applies_the_right_factor_first)
{
    /* T = translate (1, 2, 3), Sc = scale 2; (T Sc) (1, 1, 1) = T (2, 2, 2) = (3, 4, 5) */
    mc_mat4 t = mc_mat4_identity(), sc = mc_mat4_identity();
    t.m[12] = 1.0f;
    t.m[13] = 2.0f;
    t.m[14] = 3.0f;
    sc.m[0] = sc.m[5] = sc.m[10] = 2.0f;
    mc_mat4 ts = mc_mat4_mul(&t, &sc);
    float out[4];
    mc_mat4_apply(&ts, mc_v3(1, 1, 1), 1.0f, out);
    EXPECT_NEAR(out[0], 3.0, 1e-6);
    EXPECT_NEAR(out[1], 4.0, 1e-6);
    EXPECT_NEAR(out[2], 5.0, 1e-6);
    EXPECT_NEAR(out[3], 1.0, 1e-6);
    /* inverse: (T Sc)^-1 (3, 4, 5) = (1, 1, 1) */
    mc_mat4 inv;
    ASSERT(mc_mat4_inverse(&ts, &inv));
    mc_mat4_apply(&inv, mc_v3(3, 4, 5), 1.0f, out);
    EXPECT_NEAR(out[0], 1.0, 1e-6);
    EXPECT_NEAR(out[1], 1.0, 1e-6);
    EXPECT_NEAR(out[2], 1.0, 1e-6);
}

TEST(mat4_inverse_rejects_a_singular_matrix)
{
    mc_mat4 z = mc_mat4_identity(), out = mc_mat4_identity();
    z.m[5] = 0.0f;
    EXPECT(!mc_mat4_inverse(&z, &out));
    EXPECT_NEAR(out.m[5], 1.0, 0.0); /* untouched */
}
