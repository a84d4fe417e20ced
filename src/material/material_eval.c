/* A material's stages at a moment (draw_common.cpp, RB_STD_T_RenderShaderPasses; tr_render.cpp,
 * RB_GetShaderTextureMatrix); the registers come from mc_expr_eval (mtr_expr.c). */
#include <math.h>
#include <string.h>

#include <md5cine/material_eval.h>

void mc_material_eval(const mc_material *mat, float time, const float *parms, float *regs)
{
    mc_expr_eval(&mat->expr, time, parms, regs);
}

/* (int)v where C defines it; 0 beyond int's range. */
static int to_int(float v)
{
    return v > -2147483520.0f && v < 2147483520.0f ? (int)v : 0;
}

static float clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

static bool blend_is(mc_blend b, mc_blend_factor src, mc_blend_factor dst)
{
    return b.src == src && b.dst == dst;
}

void mc_stage_state_eval(const mc_expr_stage *stage, mc_blend blend, const float *regs,
                         mc_stage_state *out)
{
    float c[4];

    memset(out, 0, sizeof *out);
    for (int i = 0; i < 4; i++)
        c[i] = regs[stage->color[i]];
    out->visible = regs[stage->condition] != 0.0f &&
                   !blend_is(blend, MC_BLEND_ZERO, MC_BLEND_ONE) &&
                   !(blend_is(blend, MC_BLEND_ONE, MC_BLEND_ONE) && c[0] <= 0.0f &&
                     c[1] <= 0.0f && c[2] <= 0.0f) &&
                   !(blend_is(blend, MC_BLEND_SRC_ALPHA, MC_BLEND_ONE_MINUS_SRC_ALPHA) &&
                     c[3] <= 0.0f);
    for (int i = 0; i < 4; i++)
        out->color[i] = clamp01(c[i]);
    out->matrix[0][0] = out->matrix[1][1] = 1.0f;
    if (stage->has_matrix) {
        for (int r = 0; r < 2; r++) {
            for (int k = 0; k < 3; k++)
                out->matrix[r][k] = regs[stage->matrix[r][k]];
            if (out->matrix[r][2] < -40.0f || out->matrix[r][2] > 40.0f)
                out->matrix[r][2] -= (float)to_int(out->matrix[r][2]);
        }
    }
    out->has_alpha_test = stage->has_alpha_test;
    out->alpha_test = stage->has_alpha_test ? regs[stage->alpha_test] : 0.0f;
    /* Not finite: Doom hands the value to GL as it is (header); GL_GREATER against -inf keeps
     * every fragment, against NaN or +inf none, and no texel lies at a non-finite coordinate. */
    if (out->alpha_test == -INFINITY)
        out->alpha_test = -1.0f;
    for (int k = 0; k < 6; k++)
        out->not_finite = out->not_finite || !isfinite(out->matrix[k / 3][k % 3]);
    out->not_finite = out->not_finite || !isfinite(out->alpha_test);
    if (out->not_finite)
        out->visible = false;
}

void mc_material_layer_state(const mc_material *mat, int i, const float *regs,
                             mc_stage_state *out)
{
    mc_stage_state_eval(&mat->layers[i].expr, mat->layers[i].blend, regs, out);
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void mc_wobblesky_turn(float degrees, float wobble_speed, float rotate_speed, float time,
                       float rows[3][3])
{
    const float pi = 3.14159265358979323846f;
    float tilt = degrees * pi / 180, wobble = wobble_speed * 2 * pi / 60;
    float turn = rotate_speed * 2 * pi / 60, a = time * wobble;
    float s = sinf(a) * sinf(tilt), c = cosf(a) * sinf(tilt), z = cosf(tilt);
    float ax[3][3], d, len;

    /* "very ad-hoc "wobble" transform": axis[2] tilted about z, axis[1] made perpendicular to
     * it and normalised, axis[0] their cross product */
    ax[2][0] = c;
    ax[2][1] = s;
    ax[2][2] = z;
    ax[1][0] = -sinf(a * 2) * sinf(tilt);
    ax[1][2] = -s * sinf(tilt);
    ax[1][1] = sqrtf(1.0f - (ax[1][0] * ax[1][0] + ax[1][2] * ax[1][2]));
    d = ax[2][0] * ax[1][0] + ax[2][1] * ax[1][1] + ax[2][2] * ax[1][2];
    for (int i = 0; i < 3; i++)
        ax[1][i] -= d * ax[2][i];
    len = sqrtf(ax[1][0] * ax[1][0] + ax[1][1] * ax[1][1] + ax[1][2] * ax[1][2]);
    for (int i = 0; len > 0.0f && i < 3; i++)
        ax[1][i] /= len;
    cross3(ax[1], ax[2], ax[0]);
    /* "add the rotate": R_LocalPointToGlobal with transform[0,4,8], [1,5,9], [2,6,10] */
    s = sinf(turn * time);
    c = cosf(turn * time);
    for (int k = 0; k < 3; k++) {
        rows[0][k] = ax[0][k] * c + ax[1][k] * s;
        rows[1][k] = ax[1][k] * c - ax[0][k] * s;
        rows[2][k] = ax[2][k];
    }
}

void mc_light_parms(const float color[3], float parms[MC_LIGHT_PARMS])
{
    memset(parms, 0, MC_LIGHT_PARMS * sizeof *parms);
    memcpy(parms, color, 3 * sizeof *parms);
    parms[3] = 1.0f; /* shaderParm3, default 1 */
}

bool mc_light_stage_eval(const mc_expr_stage *stage, const float *regs, float rgb[3])
{
    for (int i = 0; i < 3; i++) {
        float v = regs[stage->color[i]];

        /* the renderer takes 0..1e6; NaN (0 / 0 in an expression) is no light */
        rgb[i] = v > 0.0f ? (v < 1e6f ? v : 1e6f) : 0.0f;
    }
    return regs[stage->condition] != 0.0f;
}
