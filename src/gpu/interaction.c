/* The scene passes (render_int.h): the shader variants that draw an item lit by Doom's
 * interaction (dhewm3 draw_arb2.cpp RB_ARB2_DrawInteraction and the interaction.vfp programs
 * it binds), by the camera rig, unlit or as normals; the opaque items' passes. The values the
 * shader takes for the frame and its lights come from light.c. */
#include <stdio.h>

#include "gpu/render_int.h"

/* The vertex shader. v_half is Doom's vertex program's half-angle: the sum of the unit vectors
 * to the light and to the eye at the vertex, interpolated unnormalised (interaction.vfp, "add
 * together to become the half angle vector"). gl_Position is invariant so that every pass of
 * an item lands on the same depth (the light passes test GL_EQUAL). */
static const char *const scene_vs =
        "layout(location = 0) in vec3 a_pos;\n"
        "layout(location = 1) in vec3 a_nrm;\n"
        "layout(location = 2) in vec2 a_st;\n"
        "layout(location = 3) in vec4 a_tan;\n"
        "uniform mat4 u_model, u_viewproj;\n"
        "uniform mat3 u_nmat;\n"
        "uniform float u_handed;\n"
        "uniform vec3 u_eye, u_lorg;\n"
        "invariant gl_Position;\n"
        "out vec3 v_wpos, v_nrm, v_half;\n"
        "out vec4 v_tan;\n"
        "out vec2 v_st;\n"
        "void main() {\n"
        "    vec4 w = u_model * vec4(a_pos, 1.0);\n"
        "    v_wpos = w.xyz;\n"
        "    v_nrm = u_nmat * a_nrm;\n"
        "    v_tan = vec4(mat3(u_model) * a_tan.xyz, a_tan.w * u_handed);\n"
        "    v_st = a_st;\n"
        "#if PASS == 2\n"
        "    v_half = normalize(u_lorg - w.xyz) + normalize(u_eye - w.xyz);\n"
        "#else\n"
        "    v_half = vec3(0.0);\n"
        "#endif\n"
        "    gl_Position = u_viewproj * w;\n"
        "    gl_Position.y = -gl_Position.y; /* top row first in memory */\n"
        "}\n";

/* The fragment shader, after a header of #version and the variant's NMAP, SMAP, ATEST (0 or
 * 1) and PASS (P_*) defines. World space throughout. PASS 0: the camera rig (u_key, u_fill
 * unit vectors towards the light), unlit or normals by u_mode. PASS 1: depth and the ambient
 * light. PASS 2: one light's interaction (render.h). A normal map's texel (x along +s, y
 * along +t, z out) is turned into world space with the tangent t (made perpendicular to n),
 * b = w cross(t, n) and n. Alpha test keeps alpha above the value (Doom's GL_GREATER). Opaque
 * geometry writes alpha 1. */
static const char *const scene_fs =
        "in vec3 v_wpos, v_nrm, v_half;\n"
        "in vec4 v_tan;\n"
        "in vec2 v_st;\n"
        "uniform sampler2D u_tex, u_nmap, u_smap, u_lproj, u_lfall, u_spectab;\n"
        "uniform int u_use_tex, u_mode, u_translucent, u_back;\n"
        "uniform float u_alpha, u_alpha_test;\n"
        "uniform vec3 u_color, u_key, u_fill, u_eye, u_ambient, u_dcol;\n"
        "uniform vec3 u_lorg, u_lcol_d, u_lcol_s;\n"
        "uniform vec4 u_lps, u_lpt, u_lpq, u_lpf;\n"
        "out vec4 o_col;\n"
        "vec3 bumped(vec3 n) {\n"
        "    vec3 t = v_tan.xyz - n * dot(v_tan.xyz, n);\n"
        "    float tl = length(t);\n"
        "    if (tl <= 1e-20) return n;\n"
        "    t /= tl;\n"
        "    vec3 m = texture(u_nmap, v_st).rgb * 2.0 - 1.0;\n"
        "    return m.x * t + v_tan.w * m.y * cross(t, n) + m.z * n;\n"
        "}\n"
        "void main() {\n"
        "    vec4 dif = u_use_tex != 0 ? texture(u_tex, v_st) : vec4(u_color, u_alpha);\n"
        "#if ATEST\n"
        "    if (dif.a <= u_alpha_test) discard;\n"
        "#endif\n"
        "    float a = u_translucent != 0 ? dif.a : 1.0;\n"
        "    float l = length(v_nrm);\n"
        "    vec3 n = l > 1e-20 ? v_nrm / l : vec3(0.0, 0.0, 1.0);\n"
        "#if NMAP\n"
        "    n = bumped(n);\n"
        "#endif\n"
        "#if PASS == 0\n"
        "    n = normalize(n);\n"
        "    if (u_mode == 2) { o_col = vec4(n * 0.5 + 0.5, 1.0); return; }\n"
        "    vec3 base = dif.rgb * u_dcol;\n"
        "    if (u_mode == 1) { o_col = vec4(base, a); return; }\n"
        "    if (!gl_FrontFacing) n = -n;\n"
        "    float kd = max(dot(n, u_key), 0.0), fd = max(dot(n, u_fill), 0.0);\n"
        "    vec3 h = normalize(u_key + normalize(u_eye - v_wpos));\n"
        "    float sp = kd > 0.0 ? pow(max(dot(n, h), 0.0), 32.0) : 0.0;\n"
        "    vec3 c = base * (0.25 + 0.70 * kd + 0.25 * fd) + vec3(0.10 * sp);\n"
        "    o_col = vec4(min(c, vec3(1.0)), a);\n"
        "#elif PASS == 1\n"
        "    o_col = vec4(clamp(dif.rgb * u_dcol * u_ambient, 0.0, 1.0), a);\n"
        "#else\n"
        "    vec3 p = v_wpos;\n"
        "    vec4 P = vec4(p, 1.0);\n"
        "    if (u_back == 0) {\n"
        "        /* the triangle's plane, its normal on the item's front side */\n"
        "        vec3 fn = cross(dFdx(p), dFdy(p));\n"
        "        if ((dot(fn, u_eye - p) > 0.0) != gl_FrontFacing) fn = -fn;\n"
        "        if (dot(fn, u_lorg - p) <= 0.0) discard;\n"
        "    }\n"
        "    vec3 L = normalize(u_lorg - p);\n"
        "    float q = dot(P, u_lpq);\n"
        "    vec3 proj = q > 0.0 ? texture(u_lproj, vec2(dot(P, u_lps), dot(P, u_lpt)) / q).rgb\n"
        "                        : vec3(0.0);\n"
        "    vec3 fall = texture(u_lfall, vec2(dot(P, u_lpf), 0.5)).rgb;\n"
        "    vec3 light = dot(n, L) * proj * fall;\n"
        "    vec3 c = dif.rgb * u_lcol_d;\n"
        "#if SMAP\n"
        "    float ndh = dot(n, normalize(v_half));\n"
        "    float sp = texture(u_spectab, vec2(ndh, 0.5)).r;\n"
        "    c += sp * u_lcol_s * texture(u_smap, v_st).rgb * 2.0;\n"
        "#endif\n"
        "    o_col = vec4(clamp(light * c, 0.0, 1.0), a);\n"
        "#endif\n"
        "}\n";

mc_status gpu_build_variant(mc_renderer *r, int v, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    program *pr = &r->progs[v];
    uniforms *u = &pr->u;
    char head[160];
    GLuint id;
    mc_status s;

    if (pr->id)
        return MC_OK;
    snprintf(head, sizeof head,
             "#version 330 core\n#define NMAP %d\n#define SMAP %d\n#define ATEST %d\n"
             "#define PASS %d\n",
             (v & V_NMAP) != 0, (v & V_SMAP) != 0, (v & V_ATEST) != 0, v / V_BITS);
    s = gpu_link_program(gl, head, scene_vs, scene_fs, &id, err);
    if (s != MC_OK)
        return s;
    pr->id = id;
    pr->frame = 0;
    pr->light = -1;
#define LOC(field, name) u->field = gl->GetUniformLocation(id, name)
    LOC(model, "u_model");
    LOC(viewproj, "u_viewproj");
    LOC(nmat, "u_nmat");
    LOC(handed, "u_handed");
    LOC(mode, "u_mode");
    LOC(use_tex, "u_use_tex");
    LOC(color, "u_color");
    LOC(key, "u_key");
    LOC(fill, "u_fill");
    LOC(eye, "u_eye");
    LOC(tex, "u_tex");
    LOC(nmap, "u_nmap");
    LOC(smap, "u_smap");
    LOC(alpha, "u_alpha");
    LOC(alpha_test, "u_alpha_test");
    LOC(translucent, "u_translucent");
    LOC(ambient, "u_ambient");
    LOC(dcol, "u_dcol");
    LOC(lorg, "u_lorg");
    LOC(lcol_d, "u_lcol_d");
    LOC(lcol_s, "u_lcol_s");
    LOC(lps, "u_lps");
    LOC(lpt, "u_lpt");
    LOC(lpq, "u_lpq");
    LOC(lpf, "u_lpf");
    LOC(back, "u_back");
    LOC(lproj, "u_lproj");
    LOC(lfall, "u_lfall");
    LOC(spectab, "u_spectab");
#undef LOC
    gl->UseProgram(id);
    r->current = id;
    gl->Uniform1i(u->tex, U_DIFFUSE);
    gl->Uniform1i(u->nmap, U_NORMAL);
    gl->Uniform1i(u->smap, U_SPECULAR);
    gl->Uniform1i(u->lproj, U_LPROJ);
    gl->Uniform1i(u->lfall, U_LFALL);
    gl->Uniform1i(u->spectab, U_SPECTAB);
    return gpu_gl_check(gl, "building the shaders", err);
}

/* Makes variant pr current, with this frame's uniforms and (light >= 0) that light's. */
static void use_program(mc_renderer *r, program *pr, int light)
{
    const mc_gl_fns *gl = &r->gl;
    const frame_values *fv = &r->fv;

    if (r->current != pr->id) {
        gl->UseProgram(pr->id);
        r->current = pr->id;
    }
    if (pr->frame != r->frame) {
        pr->frame = r->frame;
        pr->light = -1;
        gl->UniformMatrix4fv(pr->u.viewproj, 1, GL_FALSE, fv->vp);
        gl->Uniform3fv(pr->u.key, 1, fv->key);
        gl->Uniform3fv(pr->u.fill, 1, fv->fill);
        gl->Uniform3fv(pr->u.eye, 1, fv->eye);
        gl->Uniform1i(pr->u.mode, (GLint)r->shading);
        gl->Uniform3fv(pr->u.ambient, 1, fv->ambient);
    }
    if (light >= 0 && pr->light != light) {
        const light_values *lv = &fv->lights[light];

        pr->light = light;
        gl->Uniform3fv(pr->u.lorg, 1, lv->org);
        gl->Uniform4fv(pr->u.lps, 1, lv->plane[0]);
        gl->Uniform4fv(pr->u.lpt, 1, lv->plane[1]);
        gl->Uniform4fv(pr->u.lpq, 1, lv->plane[2]);
        gl->Uniform4fv(pr->u.lpf, 1, lv->plane[3]);
    }
}

void gpu_set_faces(const mc_gl_fns *gl, const draw_state *ds)
{
    gl->FrontFace(ds->front);
    if (ds->two_sided)
        gl->Disable(GL_CULL_FACE);
    else
        gl->Enable(GL_CULL_FACE);
    if (ds->polygon_offset != 0.0f) {
        /* Doom's factor -1 and units -2 per step of the material's polygonOffset */
        gl->Enable(GL_POLYGON_OFFSET_FILL);
        gl->PolygonOffset(-1.0f, -2.0f * ds->polygon_offset);
    } else {
        gl->Disable(GL_POLYGON_OFFSET_FILL);
    }
}

void gpu_draw_slot(mc_renderer *r, const slot *sl, int pass, int light)
{
    const mc_gl_fns *gl = &r->gl;
    const draw_state *ds = &sl->ds;
    program *pr = &r->progs[ds->bits + pass * V_BITS];
    const uniforms *u = &pr->u;

    use_program(r, pr, pass == P_LIGHT ? light : -1);
    gl->BindVertexArray(sl->vao);
    gl->UniformMatrix4fv(u->model, 1, GL_FALSE, ds->model);
    gl->UniformMatrix3fv(u->nmat, 1, GL_FALSE, ds->nmat);
    /* A mirroring model matrix reverses cross(t, n) in world space against the mirrored +t. */
    gl->Uniform1f(u->handed, ds->front == GL_CW ? -1.0f : 1.0f);
    gl->Uniform3f(u->color, ds->color[0], ds->color[1], ds->color[2]);
    gl->Uniform1f(u->alpha, ds->translucent ? ds->color[3] : 1.0f);
    gl->Uniform1f(u->alpha_test, ds->alpha_test);
    gl->Uniform1i(u->translucent, ds->translucent);
    gl->Uniform1i(u->use_tex, ds->tex[0] != 0);
    gl->Uniform3fv(u->dcol, 1, ds->dcol);
    if (pass == P_LIGHT) {
        const light_values *lv = &r->fv.lights[light];
        float cd[3], cs[3];

        /* RB_CreateSingleDrawInteractions: diffuseColor = stage colour * lightColor, the
         * same for specularColor; lightColor = backEnd.lightScale * the light stage's */
        for (int c = 0; c < 3; c++) {
            cd[c] = ds->dcol[c] * lv->col[c];
            cs[c] = ds->scol[c] * lv->col[c];
        }
        gl->Uniform3fv(u->lcol_d, 1, cd);
        gl->Uniform3fv(u->lcol_s, 1, cs);
        gl->Uniform1i(u->back, ds->back_lit);
    }
    for (int unit = 2; unit >= 0; unit--) {
        gl->ActiveTexture((GLenum)(GL_TEXTURE0 + unit));
        gl->BindTexture(GL_TEXTURE_2D, ds->tex[unit]);
    }
    gpu_set_faces(gl, ds);
    /* Material.cpp's maskColor, maskAlpha, maskDepth: the stage leaves those values as they
     * are (a translucent item and the light passes write no depth anyway). */
    if (ds->mask_color || ds->mask_alpha)
        gl->ColorMask(!ds->mask_color, !ds->mask_color, !ds->mask_color, !ds->mask_alpha);
    if (ds->mask_depth && !ds->translucent && pass != P_LIGHT)
        gl->DepthMask(GL_FALSE);
    gl->DrawElements(GL_TRIANGLES, ds->count, GL_UNSIGNED_INT, (const void *)0);
    gpu_drawn(r, (size_t)ds->count);
    if (ds->mask_color || ds->mask_alpha)
        gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    if (ds->mask_depth && !ds->translucent && pass != P_LIGHT)
        gl->DepthMask(GL_TRUE);
    gl->BindVertexArray(0);
}

void gpu_draw_opaque(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    int lit = r->shading == MC_SHADING_LIT && r->fv.num_lights > 0;

    gpu_prof_mark(r, PROF_SETUP);
    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (!sl->pending || sl->late)
            continue;
        if (sl->stages_only) {
            /* RB_STD_FillDepthBuffer: an opaque surface's depth first (alpha tested) */
            gl->ColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
            gpu_draw_slot(r, sl, lit ? P_AMBIENT : P_RIG, -1);
            gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        } else {
            gpu_draw_slot(r, sl, lit ? P_AMBIENT : P_RIG, -1);
        }
    }
    gpu_prof_mark(r, PROF_BASE);
    if (lit) {
        /* RB_ARB2_CreateDrawInteractions: GLS_SRCBLEND_ONE | GLS_DSTBLEND_ONE | GLS_DEPTHMASK
         * with the depth of the first pass; alpha is kept */
        gl->DepthMask(GL_FALSE);
        gl->DepthFunc(GL_EQUAL);
        gl->Enable(GL_BLEND);
        gl->BlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE);
        for (int l = 0; l < r->fv.num_lights; l++) {
            /* draw_arb2.cpp RB_ARB2_DrawInteractions with stencil shadows (shadow.c): the
             * global shadows, the noSelfShadow items' interactions (localInteractions, only
             * for a light with shadows), their own shadows, the other interactions */
            int shadows = r->fv.lights[l].shadows;

            gpu_light_reach(r, l);
            if (r->light_rect[2] == 0)
                continue;
            gpu_shadow_light(r, l);
            gpu_prof_mark(r, PROF_VOLUMES);
            gpu_bind_light(r, l);
            gl->Enable(GL_SCISSOR_TEST);
            gl->Scissor(r->light_rect[0], r->light_rect[1], r->light_rect[2], r->light_rect[3]);
            for (int pass = shadows ? 0 : 1; pass < 2; pass++) {
                if (pass == 1 && shadows) {
                    gpu_prof_mark(r, PROF_LIGHTS);
                    gpu_shadow_local(r, l);
                    gpu_prof_mark(r, PROF_VOLUMES);
                }
                for (int i = 0; i < r->used_slots; i++) {
                    slot *sl = &r->slots[i];

                    if (sl->pending && !sl->late && !sl->stages_only && !sl->unlit &&
                        (!shadows || sl->ds.no_self_shadow == (pass == 0)))
                        gpu_draw_slot(r, sl, P_LIGHT, l);
                }
            }
            gl->Disable(GL_SCISSOR_TEST);
            gpu_prof_mark(r, PROF_LIGHTS);
        }
        gpu_shadow_done(r);
        gpu_unbind_light(r);
        gl->Disable(GL_BLEND);
        gl->DepthFunc(GL_LEQUAL);
        gl->DepthMask(GL_TRUE);
    }
}
