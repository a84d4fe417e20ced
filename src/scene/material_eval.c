/* Material expressions evaluated per frame (Material.cpp, idMaterial::EvaluateRegisters;
 * DeclTable.cpp, idDeclTable::TableLookup; draw_common.cpp, RB_STD_T_RenderShaderPasses;
 * tr_render.cpp, RB_GetShaderTextureMatrix). */
#include <math.h>
#include <string.h>

#include <md5cine/material_eval.h>

float mc_expr_table_lookup(const mc_expr_table *table, float index)
{
    int domain = table->num_values, i;
    float frac;

    if (domain <= 1)
        return 1.0f;
    if (table->clamp) {
        index *= (float)(domain - 1);
        if (index >= (float)(domain - 1))
            return table->values[domain - 1];
        if (!(index > 0.0f)) /* index <= 0, or not a number */
            return table->values[0];
        i = (int)index; /* idMath::Ftoi */
        frac = index - (float)i;
    } else {
        index *= (float)domain;
        if (index < 0.0f)
            index += (float)domain * ceilf(-index / (float)domain);
        if (!(index < 1e9f)) /* not finite or past int: Doom's cast is undefined there */
            index = 0.0f;
        i = (int)floorf(index);
        frac = index - (float)i;
        i %= domain;
    }
    if (!table->snap)
        return table->values[i] * (1.0f - frac) + table->values[i + 1] * frac;
    return table->values[i];
}

/* (int)v where C defines it; 0 beyond int's range (Doom's cast has no defined value there). */
static int to_int(float v)
{
    return v > -2147483520.0f && v < 2147483520.0f ? (int)v : 0;
}

void mc_expr_eval(const mc_expr_program *prog, float time, const float *parms, float *regs)
{
    memcpy(regs, prog->regs, (size_t)prog->num_regs * sizeof *regs);
    regs[MC_EXPR_REG_TIME] = time;
    for (int i = 0; i < MC_EXPR_NUM_PARMS; i++)
        regs[MC_EXPR_REG_PARM0 + i] = parms ? parms[i] : 0.0f;
    for (int i = 0; i < MC_EXPR_NUM_GLOBALS; i++)
        regs[MC_EXPR_REG_GLOBAL0 + i] = 0.0f;
    for (int i = 0; i < prog->num_ops; i++) {
        const mc_expr_op *op = &prog->ops[i];
        float a = regs[op->a], b = regs[op->b], r = 0.0f;

        switch (op->kind) {
        case MC_EXPR_ADD: r = a + b; break;
        case MC_EXPR_SUB: r = a - b; break;
        case MC_EXPR_MUL: r = a * b; break;
        case MC_EXPR_DIV: r = a / b; break;
        case MC_EXPR_MOD: {
            int d = to_int(b), n = to_int(a);

            d = d != 0 ? d : 1;
            r = d == -1 ? 0.0f : (float)(n % d);
            break;
        }
        case MC_EXPR_TABLE: r = mc_expr_table_lookup(&prog->tables[op->a], b); break;
        case MC_EXPR_SOUND: r = 0.0f; break;
        case MC_EXPR_GT: r = a > b; break;
        case MC_EXPR_GE: r = a >= b; break;
        case MC_EXPR_LT: r = a < b; break;
        case MC_EXPR_LE: r = a <= b; break;
        case MC_EXPR_EQ: r = a == b; break;
        case MC_EXPR_NE: r = a != b; break;
        case MC_EXPR_AND: r = a != 0.0f && b != 0.0f; break;
        case MC_EXPR_OR: r = a != 0.0f || b != 0.0f; break;
        }
        regs[op->c] = r;
    }
}

void mc_material_eval(const mc_material *mat, float time, const float *parms, float *regs)
{
    mc_expr_eval(&mat->expr, time, parms, regs);
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
}

void mc_material_layer_state(const mc_material *mat, int i, const float *regs,
                             mc_stage_state *out)
{
    mc_stage_state_eval(&mat->layers[i].expr, mat->layers[i].blend, regs, out);
}
