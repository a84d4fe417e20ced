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
