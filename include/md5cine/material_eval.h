/* material_eval: a material's stages at one moment, as Doom's back end sees them.
 *
 * Each frame, a material's expression program (mtr_expr.h) runs once per actor with the scene's
 * time (seconds on the scene's clock, so `--clock engine` gives Doom's values) and the actor's
 * parm0..parm11 (scene.h, `parm N VALUE`; 0 when unset); global0..7 and sound are 0
 * (Material.cpp, idMaterial::EvaluateRegisters). A stage's state is then read from the
 * registers as draw_common.cpp, RB_STD_T_RenderShaderPasses, reads it:
 *
 *   - skipped when its condition register is 0 (`if`), when its blend is (ZERO, ONE), when it is
 *     `blend add` (ONE, ONE) with red, green and blue all <= 0 (an add of black), or when it is
 *     `blend blend` (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) with alpha <= 0;
 *   - colour: the four colour registers, clamped to 0..1 as OpenGL clamps glColor;
 *   - texture matrix (tr_render.cpp, RB_GetShaderTextureMatrix): s' = m00 s + m01 t + m02,
 *     t' = m10 s + m11 t + m12, where an offset beyond +-40 loses its integer part (Doom keeps
 *     scrolls from growing without bound); identity without scroll/scale/... keywords;
 *   - alpha test: the alphaTest register, when the stage has one.
 *
 * Registers that are not finite (0 / 0, 1 / 0 in an expression): Doom hands them to OpenGL as
 * they are (draw_common.cpp glAlphaFunc, tr_render.cpp RB_LoadShaderTextureMatrix). Colours clamp
 * as above (NaN as 0). The alpha test compares as GL_GREATER does: against NaN or +inf no
 * fragment passes, so the stage is skipped; against -inf every one passes (alpha_test -1). A
 * texture matrix with an entry that is not finite gives no texel to sample, so the stage is
 * skipped for that moment; `not_finite` says so, for the caller's warning.
 *
 * Nothing here allocates: the caller gives the register array. */
#ifndef MC_MATERIAL_EVAL_H
#define MC_MATERIAL_EVAL_H

#include <stdbool.h>

#include <md5cine/material.h>
#include <md5cine/mtr_expr.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_stage_state {
    bool visible;        /* drawn at all (see the skip rules above) */
    float color[4];      /* RGBA multiplier, 0..1 */
    float matrix[2][3];  /* texture coordinate transform (rows s', t') */
    bool has_alpha_test;
    float alpha_test;    /* keep fragments whose alpha is greater */
    bool not_finite;     /* skipped because its matrix or alpha test was not finite */
} mc_stage_state;

/* The registers of mat at time (seconds) with parms[0..11] (NULL: zeros) into
 * regs[0..mat->expr.num_regs). */
void mc_material_eval(const mc_material *mat, float time, const float *parms, float *regs);

/* The state of unlit layer i (0 <= i < mat->num_layers) from registers filled by
 * mc_material_eval. */
void mc_material_layer_state(const mc_material *mat, int i, const float *regs,
                             mc_stage_state *out);

/* The same for any stage: its registers, blend, and the program's evaluated registers. */
void mc_stage_state_eval(const mc_expr_stage *stage, mc_blend blend, const float *regs,
                         mc_stage_state *out);

/* texgen wobbleSky's turn of the sky vector at time (seconds; the view's time), from its three
 * values: the tilt in degrees, the wobble's and the turn's speeds in turns a minute
 * (tr_light.cpp, R_WobbleskyTexGen, in float as there): component i of the turned vector v is
 * rows[i][0] v.x + rows[i][1] v.y + rows[i][2] v.z. */
void mc_wobblesky_turn(float degrees, float wobble_speed, float rotate_speed, float time,
                       float rows[3][3]);

/* A light's shader parameters (Light.cpp, idGameEdit::ParseSpawnArgsToRenderLight): parm0..2
 * its colour (`_color`), parm3 1 (shaderParm3's default), the others 0 (shaderParm4, the time
 * offset, is minus the game time at the light's spawn: 0 for a light there from the scene's
 * start). */
#define MC_LIGHT_PARMS 12
void mc_light_parms(const float color[3], float parms[MC_LIGHT_PARMS]);

/* A light material's stage at a moment, as tr_render.cpp's RB_CreateSingleDrawInteractions
 * reads it: false when its condition register is 0 (the stage gives no light); rgb its colour
 * registers, not clamped to 1 (the back end multiplies them by r_lightScale), negative and NaN
 * as 0, at most 1e6. Its texture matrix is not read. */
bool mc_light_stage_eval(const mc_expr_stage *stage, const float *regs, float rgb[3]);

#ifdef __cplusplus
}
#endif

#endif
