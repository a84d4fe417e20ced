/* The passes drawn after the lit interaction (render_int.h): each item's unlit material stages,
 * as Doom 3's RB_STD_T_RenderShaderPasses (draw_common.cpp) draws them, and the translucent
 * items. */
#include <string.h>

#include <md5cine/types.h>

#include "gpu/render_int.h"

/* A stage: the item's triangles with its texture coordinates through the stage's matrix
 * (tr_render.cpp, RB_GetShaderTextureMatrix), the same position math as the lit pass so that
 * depth test EQUAL meets exactly the pixels it wrote. A texgen's vector (draw_common.cpp
 * RB_PrepareStageTexturing): normal, the model-space normal (TG_DIFFUSE_CUBE's texcoord
 * pointer); reflect, the world-space normal and vector to the eye, reflected per fragment
 * (environment.vfp through RB_SetProgramEnvironmentSpace's model matrix: local vectors to
 * global; with the material's bump map, its normal: bumpyEnvironment.vfp); skybox, the vertex
 * less the eye in model space (tr_light.cpp R_SkyboxTexGen); wobbleSky, that turned by u_wobble
 * (R_WobbleskyTexGen). */
static const char *const stage_vs =
        "invariant gl_Position;\n"
        "layout(location = 0) in vec3 a_pos;\n"
        "layout(location = 1) in vec3 a_nrm;\n"
        "layout(location = 2) in vec2 a_st;\n"
        "layout(location = 3) in vec4 a_tan;\n"
        "uniform mat4 u_model, u_viewproj;\n"
        "uniform mat3 u_wobble;\n"
        "uniform float u_handed;\n"
        "uniform vec3 u_ms, u_mt, u_eye, u_leye;\n"
        "uniform int u_texgen;\n"
        "out vec2 v_st, v_raw;\n"
        "out vec3 v_gen, v_eye;\n"
        "out vec4 v_tan;\n"
        "void main() {\n"
        "    vec4 w = u_model * vec4(a_pos, 1.0);\n"
        "    v_st = vec2(dot(u_ms, vec3(a_st, 1.0)), dot(u_mt, vec3(a_st, 1.0)));\n"
        "    v_gen = u_texgen == 1 ? a_nrm\n"
        "          : u_texgen == 2 ? mat3(u_model) * a_nrm\n"
        "          : u_texgen == 4 ? u_wobble * (a_pos - u_leye) : a_pos - u_leye;\n"
        "    v_eye = u_eye - w.xyz;\n"
        "    v_raw = a_st;\n"
        "    v_tan = vec4(mat3(u_model) * a_tan.xyz, a_tan.w * u_handed);\n"
        "    gl_Position = u_viewproj * w;\n"
        "    gl_Position.y = -gl_Position.y; /* top row first in memory */\n"
        "}\n";

/* texel * colour (Doom's glColor times the texture; no texture: white). u_use_tex 2: a cube
 * map, read along the texgen's vector, or at (s, t, 0) without one (the fixed-function
 * texture unit's r is 0); a texgen without a cube map reads black, as a cube unit with nothing
 * bound does. Repeat is the
 * texture's own wrap; clamp keeps the coordinates half a texel inside the edges. zeroclamp and
 * alphazeroclamp are clamps too: the image's border texels already hold Doom's (0, 0, 0, 255)
 * or (255, 255, 255, 0) (Image_load.cpp, R_SetBorderTexels; material.c), so outside 0..1 the
 * stage reads them. Then Doom's alpha test, GL_GREATER. */
static const char *const stage_fs =
        "in vec2 v_st, v_raw;\n"
        "in vec3 v_gen, v_eye;\n"
        "in vec4 v_tan;\n"
        "uniform sampler2D u_tex, u_nmap;\n"
        "uniform samplerCube u_cube;\n"
        "uniform int u_use_tex, u_wrap, u_texgen, u_bump;\n"
        "uniform vec4 u_color;\n"
        "uniform float u_alpha_test;\n"
        "out vec4 o_col;\n"
        "/* the normal map's texel in world space, as the lit pass turns it (interaction.c) */\n"
        "vec3 bumped(vec3 n) {\n"
        "    vec3 t = v_tan.xyz - n * dot(v_tan.xyz, n);\n"
        "    float tl = length(t);\n"
        "    if (tl <= 1e-20) return n;\n"
        "    t /= tl;\n"
        "    vec3 m = texture(u_nmap, v_raw).rgb * 2.0 - 1.0;\n"
        "    return normalize(m.x * t + v_tan.w * m.y * cross(t, n) + m.z * n);\n"
        "}\n"
        "void main() {\n"
        "    vec2 st = v_st;\n"
        "    vec4 c = vec4(1.0);\n"
        "    if (u_use_tex == 2) {\n"
        "        vec3 d = vec3(st, 0.0);\n"
        "        if (u_texgen == 2) {\n"
        "            vec3 n = normalize(v_gen), e = normalize(v_eye);\n"
        "            if (u_bump != 0) n = bumped(n);\n"
        "            d = 2.0 * dot(n, e) * n - e;\n"
        "        } else if (u_texgen != 0) {\n"
        "            d = v_gen;\n"
        "        }\n"
        "        c = texture(u_cube, d);\n"
        "    } else if (u_texgen != 0) {\n"
        "        c = vec4(0.0, 0.0, 0.0, 1.0);\n"
        "    } else if (u_use_tex != 0) {\n"
        "        if (u_wrap != 0) {\n"
        "            vec2 h = 0.5 / vec2(textureSize(u_tex, 0));\n"
        "            st = clamp(st, h, 1.0 - h);\n"
        "        }\n"
        "        c = texture(u_tex, st);\n"
        "    }\n"
        "    c *= u_color;\n"
        "    if (u_alpha_test > 0.0 && c.a <= u_alpha_test) discard;\n"
        "    o_col = c;\n"
        "}\n";

mc_status gpu_build_stages(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    mc_status s = gpu_link_program(gl, "#version 330 core\n", stage_vs, stage_fs, NULL,
                                   &r->stage_prog, err);
    GLuint p = r->stage_prog;

    if (s != MC_OK)
        return s;
    r->us.model = gl->GetUniformLocation(p, "u_model");
    r->us.viewproj = gl->GetUniformLocation(p, "u_viewproj");
    r->us.ms = gl->GetUniformLocation(p, "u_ms");
    r->us.mt = gl->GetUniformLocation(p, "u_mt");
    r->us.tex = gl->GetUniformLocation(p, "u_tex");
    r->us.use_tex = gl->GetUniformLocation(p, "u_use_tex");
    r->us.wrap = gl->GetUniformLocation(p, "u_wrap");
    r->us.color = gl->GetUniformLocation(p, "u_color");
    r->us.alpha_test = gl->GetUniformLocation(p, "u_alpha_test");
    r->us.cube = gl->GetUniformLocation(p, "u_cube");
    r->us.texgen = gl->GetUniformLocation(p, "u_texgen");
    r->us.wobble = gl->GetUniformLocation(p, "u_wobble");
    r->us.eye = gl->GetUniformLocation(p, "u_eye");
    r->us.leye = gl->GetUniformLocation(p, "u_leye");
    r->us.nmap = gl->GetUniformLocation(p, "u_nmap");
    r->us.bump = gl->GetUniformLocation(p, "u_bump");
    r->us.handed = gl->GetUniformLocation(p, "u_handed");
    return gpu_gl_check(gl, "building the stage shader", err);
}

const char *gpu_check_stages(const mc_renderer *r, const mc_draw_item *it)
{
    if (it->num_stages < 0 || it->num_stages > MC_LIMIT_MTR_STAGES ||
        (it->num_stages > 0 && !it->stages))
        return "bad stage count";
    if (it->num_stages > 0 && it->triangle_count && !it->texcoords)
        return "item with stages without texture coordinates";
    for (int i = 0; i < it->num_stages; i++) {
        const mc_render_stage *st = &it->stages[i];

        if (st->texture < 0 || st->texture > r->num_textures)
            return "unknown stage texture id";
        if (st->blend_src < MC_BLEND_ZERO || st->blend_src > MC_BLEND_ONE_MINUS_SRC_COLOR ||
            st->blend_dst < MC_BLEND_ZERO || st->blend_dst > MC_BLEND_ONE_MINUS_SRC_COLOR)
            return "bad stage blend factor";
        if (st->wrap < MC_WRAP_REPEAT || st->wrap > MC_WRAP_ALPHA_ZERO_CLAMP)
            return "bad stage texture wrap";
        for (int c = 0; c < 4; c++)
            if (!gpu_finite_in(st->color[c], 0.0f, 1.0f))
                return "stage colour outside 0..1";
        for (int k = 0; k < 6; k++)
            if (!gpu_finite_in(st->matrix[k / 3][k % 3], -1e30f, 1e30f))
                return "stage texture matrix not finite";
        if (!gpu_finite_in(st->alpha_test, -1e30f, 1e30f))
            return "stage alpha test not finite";
        if (st->texgen < MC_TEXGEN_EXPLICIT || st->texgen > MC_TEXGEN_WOBBLESKY)
            return "unknown stage texgen";
        if (st->texgen != MC_TEXGEN_EXPLICIT && st->texture > 0 && !gpu_is_cube(r, st->texture))
            return "stage texgen on a texture that is not a cube map";
        for (int k = 0; k < 9; k++)
            if (!gpu_finite_in(st->wobble[k / 3][k % 3], -1e30f, 1e30f))
                return "stage wobble not finite";
    }
    return NULL;
}

static GLenum gl_blend(int f)
{
    static const GLenum map[] = {
        GL_ZERO,         GL_ONE,       GL_DST_COLOR,          GL_ONE_MINUS_DST_COLOR,
        GL_SRC_ALPHA,    GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA,
        GL_SRC_ALPHA_SATURATE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR,
    };

    return map[f]; /* checked by gpu_check_stages */
}

/* The item's stages, in order, over what is drawn: each with its blend and colour mask, depth
 * tested EQUAL (LEQUAL for a translucent material) and never writing depth (Material.cpp sets
 * GLS_DEPTHMASK on every stage). */
void gpu_draw_stages(mc_renderer *r, const slot *sl)
{
    const mc_gl_fns *gl = &r->gl;
    const draw_state *ds = &sl->ds;
    float leye[3];

    if (sl->num_stages == 0 || gpu_stopped(r))
        return;
    gl->UseProgram(r->stage_prog);
    r->current = r->stage_prog;
    gl->BindVertexArray(sl->vao);
    gl->UniformMatrix4fv(r->us.model, 1, GL_FALSE, ds->model);
    gl->UniformMatrix4fv(r->us.viewproj, 1, GL_FALSE, r->fv.vp);
    gl->Uniform3fv(r->us.eye, 1, r->fv.eye);
    gpu_point_to_model(ds, r->fv.eye, leye); /* for the sky texgens */
    gl->Uniform3fv(r->us.leye, 1, leye);
    gl->Uniform1i(r->us.tex, 0);
    gl->Uniform1i(r->us.cube, 1);
    gl->Uniform1i(r->us.nmap, 2);
    gl->Uniform1f(r->us.handed, ds->front == GL_CW ? -1.0f : 1.0f);
    gl->ActiveTexture(GL_TEXTURE2);
    gl->BindTexture(GL_TEXTURE_2D, ds->tex[1]);
    gpu_set_faces(gl, ds);
    gl->DepthMask(GL_FALSE);
    gl->Enable(GL_BLEND);
    for (int i = 0; i < sl->num_stages; i++) {
        const mc_render_stage *st = &sl->stages[i];
        GLenum src = gl_blend(st->blend_src), dst = gl_blend(st->blend_dst);
        int cube = gpu_is_cube(r, st->texture);
        GLuint tex = st->texture > 0 ? r->textures[st->texture - 1] : 0;

        gl->DepthFunc(st->depth_lequal ? GL_LEQUAL : GL_EQUAL);
        gl->BlendFuncSeparate(src, dst, src, dst);
        gl->ColorMask(!st->mask_red, !st->mask_green, !st->mask_blue, !st->mask_alpha);
        gl->Uniform3f(r->us.ms, st->matrix[0][0], st->matrix[0][1], st->matrix[0][2]);
        gl->Uniform3f(r->us.mt, st->matrix[1][0], st->matrix[1][1], st->matrix[1][2]);
        gl->Uniform4f(r->us.color, st->color[0], st->color[1], st->color[2], st->color[3]);
        gl->Uniform1f(r->us.alpha_test, st->alpha_test);
        gl->Uniform1i(r->us.wrap, st->wrap);
        gl->Uniform1i(r->us.texgen, st->texgen);
        gl->UniformMatrix3fv(r->us.wobble, 1, GL_TRUE, &st->wobble[0][0]);
        gl->Uniform1i(r->us.use_tex, cube ? 2 : st->texture > 0);
        gl->Uniform1i(r->us.bump, st->texgen == MC_TEXGEN_REFLECT && ds->tex[1] != 0);
        gl->ActiveTexture(GL_TEXTURE1);
        gl->BindTexture(GL_TEXTURE_CUBE_MAP, cube ? tex : 0);
        gl->ActiveTexture(GL_TEXTURE0);
        gl->BindTexture(GL_TEXTURE_2D, cube ? 0 : tex);
        gl->DrawElements(GL_TRIANGLES, ds->count, GL_UNSIGNED_INT, (const void *)0);
        gpu_drawn(r, (size_t)ds->count);
    }
    gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    gl->DepthFunc(GL_LEQUAL);
    gl->DepthMask(GL_TRUE);
    gl->Disable(GL_BLEND);
    gl->BindVertexArray(0);
}

/* Draws the frame's translucent items in submission order over the opaque ones: depth test
 * on, depth writes off, blended as "blend" (source alpha over the frame, alpha kept
 * premultiplied as in the overlay). Lit with lights, an item is drawn once with the ambient
 * light blended that way, then once per light added with its alpha (GL_SRC_ALPHA, GL_ONE), so
 * that the item shows (ambient + sum of lights) * a + dst * (1 - a). */
void gpu_draw_opaque_stages(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    /* RB_STD_DrawShaderPasses: the unlit stages after every light's interactions */
    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (sl->pending && !sl->late && sl->num_stages > 0 && sl->passes != MC_PASSES_LIGHTS)
            gpu_draw_stages(r, sl);
    }
    for (int i = 0; i < r->used_slots; i++)
        if (!r->slots[i].late)
            r->slots[i].pending = 0;
    gl->Disable(GL_POLYGON_OFFSET_FILL);
}

void gpu_draw_translucent(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    int any = 0, lit = r->shading == MC_SHADING_LIT && r->fv.num_lights > 0;

    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (!sl->pending)
            continue;
        if (!any) {
            gl->DepthMask(GL_FALSE);
            gl->Enable(GL_BLEND);
            any = 1;
        }
        /* a deformed surface: its copy for the view takes the ambient pass and the stages,
         * the lights' undeformed one their passes (render.h, mc_item_passes) */
        if (!sl->stages_only) {
            gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE,
                                  GL_ONE_MINUS_SRC_ALPHA);
            if (sl->passes != MC_PASSES_LIGHTS)
                gpu_draw_slot(r, sl, lit ? P_AMBIENT : P_RIG, -1);
            if (lit && sl->passes != MC_PASSES_VIEW) {
                gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ZERO, GL_ONE);
                for (int l = 0; l < r->fv.num_lights; l++) {
                    gpu_bind_light(r, l);
                    gpu_draw_slot(r, sl, P_LIGHT, l);
                }
                gpu_unbind_light(r);
            }
        }
        if (sl->num_stages > 0 && sl->passes != MC_PASSES_LIGHTS) {
            gpu_draw_stages(r, sl); /* leaves blending off and depth writes on */
            gl->DepthMask(GL_FALSE);
            gl->Enable(GL_BLEND);
        }
        sl->pending = 0;
    }
    if (any) {
        gl->DepthMask(GL_TRUE);
        gl->Disable(GL_BLEND);
    }
    gl->Disable(GL_POLYGON_OFFSET_FILL);
}
