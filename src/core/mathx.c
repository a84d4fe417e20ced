/* Value math in Doom 3's conventions: see mathx.h for the rules. */
#include <math.h>

#include <md5cine/mathx.h>

mc_vec3 mc_v3(float x, float y, float z)
{
    mc_vec3 v = { x, y, z };
    return v;
}

mc_vec3 mc_v3_add(mc_vec3 a, mc_vec3 b)
{
    return mc_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}

mc_vec3 mc_v3_sub(mc_vec3 a, mc_vec3 b)
{
    return mc_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}

mc_vec3 mc_v3_scale(mc_vec3 a, float s)
{
    return mc_v3(a.x * s, a.y * s, a.z * s);
}

float mc_v3_dot(mc_vec3 a, mc_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

mc_vec3 mc_v3_cross(mc_vec3 a, mc_vec3 b)
{
    return mc_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

float mc_v3_len(mc_vec3 a)
{
    return sqrtf(mc_v3_dot(a, a));
}

mc_vec3 mc_v3_normalize(mc_vec3 a)
{
    float len = mc_v3_len(a);
    if (len <= 0.0f)
        return mc_v3(0.0f, 0.0f, 0.0f);
    return mc_v3_scale(a, 1.0f / len);
}

mc_vec3 mc_v3_lerp(mc_vec3 a, mc_vec3 b, float t)
{
    if (t <= 0.0f)
        return a;
    if (t >= 1.0f)
        return b;
    return mc_v3_add(a, mc_v3_scale(mc_v3_sub(b, a), t));
}

float mc_quat_calc_w(float x, float y, float z)
{
    return sqrtf(fabsf(1.0f - (x * x + y * y + z * z)));
}

mc_quat mc_quat_from_xyz(float x, float y, float z)
{
    mc_quat q = { x, y, z, mc_quat_calc_w(x, y, z) };
    return q;
}

mc_quat mc_quat_identity(void)
{
    mc_quat q = { 0.0f, 0.0f, 0.0f, 1.0f };
    return q;
}

mc_quat mc_quat_mul(mc_quat a, mc_quat b)
{
    mc_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z;
    r.z = a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

mc_mat3 mc_quat_to_mat3(mc_quat q)
{
    float x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z;
    float xx = q.x * x2, xy = q.x * y2, xz = q.x * z2;
    float yy = q.y * y2, yz = q.y * z2, zz = q.z * z2;
    float wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    mc_mat3 m = { { { 1.0f - (yy + zz), xy - wz, xz + wy },
                    { xy + wz, 1.0f - (xx + zz), yz - wx },
                    { xz - wy, yz + wx, 1.0f - (xx + yy) } } };
    return m;
}

/* p * ToMat3(q). With u = (x, y, z), ToMat3(q) = (1 - 2|u|^2) I + 2 u u^T + 2 w [u]x, so the
 * row-vector product is p + 2 w (p x u) + 2 u x (u x p) for any q, unit or not. */
mc_vec3 mc_quat_rotate(mc_quat q, mc_vec3 p)
{
    mc_vec3 u = { q.x, q.y, q.z };
    mc_vec3 c = mc_v3_cross(u, p);
    mc_vec3 r = mc_v3_sub(p, mc_v3_scale(c, 2.0f * q.w));
    return mc_v3_add(r, mc_v3_scale(mc_v3_cross(u, c), 2.0f));
}

float mc_quat_dot(mc_quat a, mc_quat b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

mc_quat mc_quat_slerp(mc_quat from, mc_quat to, float t)
{
    if (t <= 0.0f)
        return from;
    if (t >= 1.0f)
        return to;
    if (from.x == to.x && from.y == to.y && from.z == to.z && from.w == to.w)
        return to;
    float cosom = mc_quat_dot(from, to);
    mc_quat temp = to;
    if (cosom < 0.0f) {
        temp.x = -to.x;
        temp.y = -to.y;
        temp.z = -to.z;
        temp.w = -to.w;
        cosom = -cosom;
    }
    float s0, s1;
    if (1.0f - cosom > 1e-6f) {
        float sinsqr = 1.0f - cosom * cosom;
        float sinom = sqrtf(fabsf(sinsqr));
        float omega = atan2f(sinom, cosom);
        s0 = sinf((1.0f - t) * omega) / sinom;
        s1 = sinf(t * omega) / sinom;
    } else {
        s0 = 1.0f - t;
        s1 = t;
    }
    mc_quat r = { s0 * from.x + s1 * temp.x, s0 * from.y + s1 * temp.y,
                  s0 * from.z + s1 * temp.z, s0 * from.w + s1 * temp.w };
    return r;
}

mc_mat3 mc_mat3_identity(void)
{
    mc_mat3 m = { { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } } };
    return m;
}

mc_mat3 mc_mat3_mul(const mc_mat3 *a, const mc_mat3 *b)
{
    mc_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] +
                        a->m[i][2] * b->m[2][j];
    return r;
}

mc_mat3 mc_mat3_transpose(const mc_mat3 *a)
{
    mc_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[j][i];
    return r;
}

mc_vec3 mc_v3_mul_mat3(mc_vec3 p, const mc_mat3 *m)
{
    return mc_v3(p.x * m->m[0][0] + p.y * m->m[1][0] + p.z * m->m[2][0],
                 p.x * m->m[0][1] + p.y * m->m[1][1] + p.z * m->m[2][1],
                 p.x * m->m[0][2] + p.y * m->m[1][2] + p.z * m->m[2][2]);
}

mc_mat4 mc_mat4_identity(void)
{
    mc_mat4 m = { { 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f,
                    0.0f, 0.0f, 0.0f, 1.0f } };
    return m;
}

mc_mat4 mc_mat4_mul(const mc_mat4 *a, const mc_mat4 *b)
{
    mc_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

/* Gauss-Jordan elimination with partial pivoting, in double. */
bool mc_mat4_inverse(const mc_mat4 *m, mc_mat4 *out)
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = (double)m->m[c * 4 + r];
            a[r][c + 4] = r == c ? 1.0 : 0.0;
        }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int r = col + 1; r < 4; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (fabs(a[piv][col]) < 1e-300)
            return false;
        for (int c = 0; c < 8; c++) {
            double t = a[col][c];
            a[col][c] = a[piv][c];
            a[piv][c] = t;
        }
        double inv = 1.0 / a[col][col];
        for (int c = 0; c < 8; c++)
            a[col][c] *= inv;
        for (int r = 0; r < 4; r++) {
            if (r == col)
                continue;
            double f = a[r][col];
            for (int c = 0; c < 8; c++)
                a[r][c] -= f * a[col][c];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out->m[c * 4 + r] = (float)a[r][c + 4];
    return true;
}

void mc_mat4_apply(const mc_mat4 *m, mc_vec3 p, float w, float out[4])
{
    for (int r = 0; r < 4; r++)
        out[r] = m->m[r] * p.x + m->m[4 + r] * p.y + m->m[8 + r] * p.z + m->m[12 + r] * w;
}

float mc_deg2rad(float deg)
{
    return deg * (MC_PI / 180.0f);
}

float mc_rad2deg(float rad)
{
    return rad * (180.0f / MC_PI);
}
