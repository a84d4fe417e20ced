/* The scene passes (render_int.h): the shader variants that draw an item lit by Doom's
 * interaction (dhewm3 draw_arb2.cpp RB_ARB2_DrawInteraction and the interaction.vfp programs
 * it binds), by the camera rig, unlit or as normals; the opaque items' passes. The values the
 * shader takes for the frame and its lights come from light.c. */
#include <stdio.h>
#include <string.h>

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
        "#if NLIGHTS > 0\n"
        "uniform vec3 u_gorg[NLIGHTS];\n"
        "out vec3 v_ghalf[NLIGHTS];\n"
        "#endif\n"
        "out vec4 v_tan;\n"
        "out vec2 v_st;\n"
        "void main() {\n"
        "    vec4 w = u_model * vec4(a_pos, 1.0);\n"
        "    v_wpos = w.xyz;\n"
        "    v_nrm = u_nmat * a_nrm;\n"
        "    v_tan = vec4(mat3(u_model) * a_tan.xyz, a_tan.w * u_handed);\n"
        "    v_st = a_st;\n"
        "#if PASS == 2 && NLIGHTS == 0\n"
        "    v_half = normalize(u_lorg - w.xyz) + normalize(u_eye - w.xyz);\n"
        "#else\n"
        "    v_half = vec3(0.0);\n"
        "#endif\n"
        "#if NLIGHTS > 0\n"
        "    for (int i = 0; i < NLIGHTS; i++)\n"
        "        v_ghalf[i] = normalize(u_gorg[i] - w.xyz) + normalize(u_eye - w.xyz);\n"
        "#endif\n"
        "    gl_Position = u_viewproj * w;\n"
        "    gl_Position.y = -gl_Position.y; /* top row first in memory */\n"
        "}\n";

/* The fragment shader, after a header of #version and the variant's NMAP, SMAP, ATEST (0 or
 * 1), PASS (P_*) and NLIGHTS defines. World space throughout. PASS 0: the camera rig (u_key,
 * u_fill unit vectors towards the light), unlit or normals by u_mode. PASS 1: depth and the
 * ambient light. PASS 2: one light's interaction (render.h), or with NLIGHTS > 0 the
 * interactions of that many lights without shadows in one pass (the light group,
 * render_int.h), with u_fold the item's ambient before them, stored as PASS 1 would have
 * stored it. PASS 4 (P_DEPTH): depth and black, for an item whose ambient the group adds.
 * A normal map's texel (x along +s, y along +t, z out) is turned into world space with the
 * tangent t (made perpendicular to n), b = w cross(t, n) and n. Alpha test keeps alpha above
 * the value (Doom's GL_GREATER). Opaque geometry writes alpha 1. */
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
        "#if NLIGHTS > 0\n"
        "in vec3 v_ghalf[NLIGHTS];\n"
        "uniform sampler2D u_gproj[NLIGHTS], u_gfall[NLIGHTS];\n"
        "uniform vec3 u_gorg[NLIGHTS], u_gcol_d[NLIGHTS], u_gcol_s[NLIGHTS];\n"
        "uniform vec4 u_gps[NLIGHTS], u_gpt[NLIGHTS], u_gpq[NLIGHTS], u_gpf[NLIGHTS];\n"
        "uniform vec4 u_grect[NLIGHTS];\n"
        "uniform int u_gmask, u_fold;\n"
        "#endif\n"
        "#if MASK\n"
        "uniform usampler2D u_mask;\n"
        "#endif\n"
        "out vec4 o_col;\n"
        "/* The ambient light at the diffuse texel dif (PASS 1, or the light group's u_fold). */\n"
        "#define AMBIENT clamp(dif.rgb * u_dcol * u_ambient, 0.0, 1.0)\n"
        "vec3 bumped(vec3 n) {\n"
        "    vec3 t = v_tan.xyz - n * dot(v_tan.xyz, n);\n"
        "    float tl = length(t);\n"
        "    if (tl <= 1e-20) return n;\n"
        "    t /= tl;\n"
        "    vec3 m = texture(u_nmap, v_st).rgb * 2.0 - 1.0;\n"
        "    return m.x * t + v_tan.w * m.y * cross(t, n) + m.z * n;\n"
        "}\n"
        "/* One light's interaction at p with the unit normal n and the diffuse texel dif: the\n"
        " * light's projection and falloff images at p, N.L, the diffuse and specular colours,\n"
        " * and the specular table at N.H (hv: the unnormalised half angle). */\n"
        "vec3 light_term(vec3 n, vec3 dif, vec3 p, vec3 lorg, vec4 lps, vec4 lpt, vec4 lpq,\n"
        "                vec4 lpf, sampler2D lproj, sampler2D lfall, vec3 lcol_d, vec3 lcol_s,\n"
        "                vec3 hv) {\n"
        "    vec4 P = vec4(p, 1.0);\n"
        "    vec3 L = normalize(lorg - p);\n"
        "    float q = dot(P, lpq);\n"
        "    vec3 proj = q > 0.0 ? texture(lproj, vec2(dot(P, lps), dot(P, lpt)) / q).rgb\n"
        "                        : vec3(0.0);\n"
        "    vec3 fall = texture(lfall, vec2(dot(P, lpf), 0.5)).rgb;\n"
        "    vec3 light = dot(n, L) * proj * fall;\n"
        "    vec3 c = dif * lcol_d;\n"
        "#if SMAP\n"
        "    float ndh = dot(n, normalize(hv));\n"
        "    float sp = texture(u_spectab, vec2(ndh, 0.5)).r;\n"
        "    c += sp * lcol_s * texture(u_smap, v_st).rgb * 2.0;\n"
        "#endif\n"
        "    return clamp(light * c, 0.0, 1.0);\n"
        "}\n"
        "/* The triangle's plane at p, its normal on the item's front side. */\n"
        "vec3 front_normal(vec3 p) {\n"
        "    vec3 fn = cross(dFdx(p), dFdy(p));\n"
        "    if ((dot(fn, u_eye - p) > 0.0) != gl_FrontFacing) fn = -fn;\n"
        "    return fn;\n"
        "}\n"
        "#if NLIGHTS > 0\n"
        "/* What an RGBA8 target stores for x in 0..1 (llvmpipe: x * 255 rounded to nearest\n"
        " * even), back in 0..1: each light's pass adds this to the target, not x. */\n"
        "vec3 stored(vec3 x) { return roundEven(x * 255.0) / 255.0; }\n"
        "/* Whether group light i's own pass would draw at this pixel for its shadows: with MASK\n"
        " * light 0's as the shadow mask's stencil test, the others have none. */\n"
        "#if MASK\n"
        "#define UNSHADOWED(i) (i != 0 || texelFetch(u_mask, ivec2(gl_FragCoord.xy), 0).r <= 128u)\n"
        "#else\n"
        "#define UNSHADOWED(i) true\n"
        "#endif\n"
        "/* Group light i's share, as its own pass would have added it: only on an item it\n"
        " * reaches (u_gmask), inside its scissor, on the side of the triangle facing it, and\n"
        " * out of its shadows. */\n"
        "#define GROUP_LIGHT(i) \\\n"
        "    if ((u_gmask & (1 << i)) != 0 && all(greaterThan(gl_FragCoord.xy, u_grect[i].xy)) && \\\n"
        "        all(lessThan(gl_FragCoord.xy, u_grect[i].zw)) && \\\n"
        "        (u_back != 0 || !(dot(fn, u_gorg[i] - p) <= 0.0)) && UNSHADOWED(i)) \\\n"
        "        sum += stored(light_term(n, dif.rgb, p, u_gorg[i], u_gps[i], u_gpt[i], \\\n"
        "                                 u_gpq[i], u_gpf[i], u_gproj[i], u_gfall[i], \\\n"
        "                                 u_gcol_d[i], u_gcol_s[i], v_ghalf[i]));\n"
        "#endif\n";

/* The fragment shader's main(), after scene_fs. */
static const char *const scene_fs_main =
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
        "    o_col = vec4(AMBIENT, a);\n"
        "#elif PASS == 4\n"
        "    o_col = vec4(0.0, 0.0, 0.0, 1.0);\n"
        "#elif NLIGHTS > 0\n"
        "    vec3 p = v_wpos, fn = u_back == 0 ? front_normal(p) : vec3(0.0), sum = vec3(0.0);\n"
        "    if (u_fold != 0)\n"
        "        sum = stored(AMBIENT);\n"
        "    GROUP_LIGHT(0)\n"
        "    GROUP_LIGHT(1)\n"
        "#if NLIGHTS > 2\n"
        "    GROUP_LIGHT(2)\n"
        "#endif\n"
        "#if NLIGHTS > 3\n"
        "    GROUP_LIGHT(3)\n"
        "#endif\n"
        "    o_col = vec4(min(sum, vec3(1.0)), a);\n"
        "#else\n"
        "    vec3 p = v_wpos;\n"
        "#if MASK\n"
        "    /* the shadow mask's stencil at this pixel, tested as the stencil test would */\n"
        "    if (texelFetch(u_mask, ivec2(gl_FragCoord.xy), 0).r > 128u) discard;\n"
        "#endif\n"
        "    if (u_back == 0 && dot(front_normal(p), u_lorg - p) <= 0.0) discard;\n"
        "    o_col = vec4(light_term(n, dif.rgb, p, u_lorg, u_lps, u_lpt, u_lpq, u_lpf, u_lproj,\n"
        "                            u_lfall, u_lcol_d, u_lcol_s, v_half), a);\n"
        "#endif\n"
        "}\n";

/* The scene program id's uniform locations (-1 for those its variant lacks). */
static void locate_uniforms(const mc_gl_fns *gl, GLuint id, uniforms *u)
{
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
    LOC(gorg, "u_gorg");
    LOC(gcol_d, "u_gcol_d");
    LOC(gcol_s, "u_gcol_s");
    LOC(gps, "u_gps");
    LOC(gpt, "u_gpt");
    LOC(gpq, "u_gpq");
    LOC(gpf, "u_gpf");
    LOC(grect, "u_grect");
    LOC(gmask, "u_gmask");
    LOC(gproj, "u_gproj");
    LOC(gfall, "u_gfall");
    LOC(mask, "u_mask");
    LOC(fold, "u_fold");
#undef LOC
}

mc_status gpu_build_variant(mc_renderer *r, int v, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    program *pr = &r->progs[v];
    uniforms *u = &pr->u;
    int pass = v / V_BITS, mask = pass == P_MASKED || pass >= P_GROUP_MASKED;
    int nlights = pass >= P_GROUP_MASKED ? pass - P_GROUP_MASKED + 2
                  : pass >= P_GROUP      ? pass - P_GROUP + 2
                                         : 0;
    char head[208];
    GLuint id;
    mc_status s;

    if (pr->id)
        return MC_OK;
    snprintf(head, sizeof head,
             "#version 330 core\n#define NMAP %d\n#define SMAP %d\n#define ATEST %d\n"
             "#define PASS %d\n#define NLIGHTS %d\n#define MASK %d\n",
             (v & V_NMAP) != 0, (v & V_SMAP) != 0, (v & V_ATEST) != 0,
             nlights > 0 || pass == P_MASKED ? P_LIGHT : pass, nlights, mask);
    s = gpu_link_program(gl, head, scene_vs, scene_fs, scene_fs_main, &id, err);
    if (s != MC_OK)
        return s;
    pr->id = id;
    pr->frame = 0;
    pr->light = -1;
    locate_uniforms(gl, id, u);
    gl->UseProgram(id);
    r->current = id;
    gl->Uniform1i(u->tex, U_DIFFUSE);
    gl->Uniform1i(u->nmap, U_NORMAL);
    gl->Uniform1i(u->smap, U_SPECULAR);
    gl->Uniform1i(u->lproj, U_LPROJ);
    gl->Uniform1i(u->lfall, U_LFALL);
    gl->Uniform1i(u->spectab, U_SPECTAB);
    gl->Uniform1i(u->mask, U_MASK);
    if (nlights > 0) {
        GLint proj[MAX_GROUP_LIGHTS], fall[MAX_GROUP_LIGHTS];

        for (int i = 0; i < nlights; i++) {
            proj[i] = U_GPROJ + i;
            fall[i] = U_GFALL + i;
        }
        gl->Uniform1iv(u->gproj, nlights, proj);
        gl->Uniform1iv(u->gfall, nlights, fall);
    }
    return gpu_gl_check(gl, "building the shaders", err);
}

/* Sets the frame's light group's values on group variant pr (current). */
static void set_light_group(const mc_renderer *r, const program *pr)
{
    const mc_gl_fns *gl = &r->gl;
    float org[MAX_GROUP_LIGHTS][3], pl[4][MAX_GROUP_LIGHTS][4], rect[MAX_GROUP_LIGHTS][4];
    int n = r->group.n;

    for (int i = 0; i < n; i++) {
        const light_values *lv = &r->fv.lights[r->group.light[i]];
        const int *rc = r->group.rect[i];

        memcpy(org[i], lv->org, sizeof org[i]);
        for (int k = 0; k < 4; k++)
            memcpy(pl[k][i], lv->plane[k], sizeof pl[k][i]);
        /* the shader's u_grect: x0, y0, x1, y1 against gl_FragCoord */
        rect[i][0] = (float)rc[0];
        rect[i][1] = (float)rc[1];
        rect[i][2] = (float)(rc[0] + rc[2]);
        rect[i][3] = (float)(rc[1] + rc[3]);
    }
    gl->Uniform3fv(pr->u.gorg, n, &org[0][0]);
    gl->Uniform4fv(pr->u.gps, n, &pl[0][0][0]);
    gl->Uniform4fv(pr->u.gpt, n, &pl[1][0][0]);
    gl->Uniform4fv(pr->u.gpq, n, &pl[2][0][0]);
    gl->Uniform4fv(pr->u.gpf, n, &pl[3][0][0]);
    gl->Uniform4fv(pr->u.grect, n, &rect[0][0]);
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
        if (pr->u.gmask >= 0)
            set_light_group(r, pr);
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
    if (ds->flags & MC_MTR_TWO_SIDED)
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

/* The colours of item sl lit by the n lights of index light[]: RB_CreateSingleDrawInteractions,
 * diffuseColor = the stage's colour * lightColor, the same for specularColor, lightColor =
 * backEnd.lightScale * the light stage's; with whether faces away from a light are lit, and
 * for a light group the lights that reach the item. */
static void set_light_colours(const mc_renderer *r, const slot *sl, const uniforms *u, int n,
                              const int *light)
{
    const mc_gl_fns *gl = &r->gl;
    const draw_state *ds = &sl->ds;
    float cd[MAX_GROUP_LIGHTS][3], cs[MAX_GROUP_LIGHTS][3];

    for (int i = 0; i < n; i++) {
        const light_values *lv = &r->fv.lights[light[i]];

        for (int c = 0; c < 3; c++) {
            cd[i][c] = ds->dcol[c] * lv->col[c];
            cs[i][c] = ds->scol[c] * lv->col[c];
        }
    }
    gl->Uniform3fv(n > 1 ? u->gcol_d : u->lcol_d, n, &cd[0][0]);
    gl->Uniform3fv(n > 1 ? u->gcol_s : u->lcol_s, n, &cs[0][0]);
    /* Interaction.cpp R_CreateLightTris, includeBackFaces: faces away from a light are lit */
    gl->Uniform1i(u->back, (ds->flags & (MC_MTR_NO_SHADOWS | MC_MTR_NO_SELF_SHADOW)) != 0);
    if (n > 1) {
        gl->Uniform1i(u->gmask, sl->group_mask);
        gl->Uniform1i(u->fold, sl->fold);
    }
}

void gpu_draw_slot(mc_renderer *r, const slot *sl, int pass, int light)
{
    const mc_gl_fns *gl = &r->gl;
    const draw_state *ds = &sl->ds;
    program *pr = &r->progs[ds->bits + pass * V_BITS];
    const uniforms *u = &pr->u;
    int one = pass == P_LIGHT || pass == P_MASKED; /* one light's pass */
    int lights = one || pass >= P_GROUP;             /* or the group's */
    int translucent = (ds->flags & MC_MTR_TRANSLUCENT) != 0;

    if (gpu_stopped(r))
        return;
    use_program(r, pr, one ? light : -1);
    gl->BindVertexArray(sl->vao);
    gl->UniformMatrix4fv(u->model, 1, GL_FALSE, ds->model);
    gl->UniformMatrix3fv(u->nmat, 1, GL_FALSE, ds->nmat);
    /* A mirroring model matrix reverses cross(t, n) in world space against the mirrored +t. */
    gl->Uniform1f(u->handed, ds->front == GL_CW ? -1.0f : 1.0f);
    gl->Uniform3f(u->color, ds->color[0], ds->color[1], ds->color[2]);
    gl->Uniform1f(u->alpha, translucent ? ds->color[3] : 1.0f);
    gl->Uniform1f(u->alpha_test, ds->alpha_test);
    gl->Uniform1i(u->translucent, translucent);
    gl->Uniform1i(u->use_tex, ds->tex[0] != 0);
    gl->Uniform3fv(u->dcol, 1, ds->dcol);
    if (lights)
        set_light_colours(r, sl, u, one ? 1 : r->group.n, one ? &light : r->group.light);
    for (int unit = 2; unit >= 0; unit--) {
        gl->ActiveTexture((GLenum)(GL_TEXTURE0 + unit));
        gl->BindTexture(GL_TEXTURE_2D, ds->tex[unit]);
    }
    gpu_set_faces(gl, ds);
    /* Material.cpp's maskColor, maskAlpha, maskDepth: the stage leaves those values as they
     * are (a translucent item and the light passes write no depth anyway). */
    if (ds->mask_color || ds->mask_alpha)
        gl->ColorMask(!ds->mask_color, !ds->mask_color, !ds->mask_color, !ds->mask_alpha);
    if (ds->mask_depth && !(ds->flags & MC_MTR_TRANSLUCENT) && !lights)
        gl->DepthMask(GL_FALSE);
    gl->DrawElements(GL_TRIANGLES, ds->count, GL_UNSIGNED_INT, (const void *)0);
    gpu_drawn(r, (size_t)ds->count);
    if (ds->mask_color || ds->mask_alpha)
        gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    if (ds->mask_depth && !(ds->flags & MC_MTR_TRANSLUCENT) && !lights)
        gl->DepthMask(GL_TRUE);
    gl->BindVertexArray(0);
}

int gpu_group_pass(const mc_renderer *r)
{
    int n = 0, masked = 0;

    for (int l = 0; l < r->fv.num_lights && !r->no_group; l++) {
        if (!r->fv.lights[l].shadows)
            n++;
        else if (r->fbo_mask)
            masked = 1;
    }
    n = n + masked < MAX_GROUP_LIGHTS ? n + masked : MAX_GROUP_LIGHTS;
    return n < 2 ? -1 : (masked ? P_GROUP_MASKED : P_GROUP) + n - 2;
}

/* Adds light l to the frame's light group as its light k: its reach (gpu_light_reach) as bit
 * k of the items' group_mask (not on the noSelfShadow items when it casts shadows: they
 * take its pass before their own volumes are drawn) and its scissor as a rectangle. */
static void group_add(mc_renderer *r, int l)
{
    light_group *g = &r->group;
    int k = g->n, *rc = r->light_rect, shadows = r->fv.lights[l].shadows;

    gpu_light_reach(r, l);
    g->light[k] = l;
    g->done |= 1u << l;
    memcpy(g->rect[k], rc, sizeof g->rect[k]);
    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        if (rc[2] > 0 && sl->pending && !sl->late && !sl->stages_only && !sl->unlit &&
            !(shadows && (sl->ds.flags & MC_MTR_NO_SELF_SHADOW)))
            sl->group_mask |= 1 << k;
    }
    g->n++;
}

/* Chooses the frame's light group (render_int.h): with the shadow mask, the first light with
 * shadows as its light 0, then the first lights without, as gpu_group_pass counts them; and
 * the items whose ambient its pass adds (slot.fold, gpu_draw_opaque). */
static void choose_light_group(mc_renderer *r)
{
    light_group *g = &r->group;
    int pass = gpu_group_pass(r);
    int want = pass >= P_GROUP_MASKED ? pass - P_GROUP_MASKED + 2 : pass - P_GROUP + 2;

    g->n = 0;
    g->done = 0;
    g->masked = pass >= P_GROUP_MASKED;
    memset(&g->reach, 0, sizeof g->reach);
    for (int i = 0; i < r->used_slots; i++) {
        r->slots[i].group_mask = 0;
        r->slots[i].fold = 0;
    }
    if (pass < 0)
        return;
    for (int l = 0; l < r->fv.num_lights && g->masked && g->n == 0; l++)
        if (r->fv.lights[l].shadows)
            group_add(r, l);
    for (int l = 0; l < r->fv.num_lights && g->n < want; l++)
        if (!r->fv.lights[l].shadows)
            group_add(r, l);
    for (int k = 0; k < g->n; k++)
        if (g->rect[k][2] > 0)
            gpu_reach_add(&g->reach, g->rect[k]);
    /* the group's pass adds the ambient of an item it draws whole, within its scissor */
    for (int i = 0; i < r->used_slots && !r->no_fold; i++) {
        slot *sl = &r->slots[i];
        const draw_state *ds = &sl->ds;

        sl->fold = sl->group_mask && sl->passes == 0 && !(ds->flags & MC_MTR_TRANSLUCENT) &&
                   !ds->mask_color && !ds->mask_alpha && !ds->mask_depth &&
                   gpu_reach_holds(r, &g->reach, sl);
    }
}

/* Light l's interactions in a pass of their own over the items it reaches, within its
 * scissor: draw_arb2.cpp RB_ARB2_DrawInteractions with stencil shadows (shadow.c): the global
 * shadows, the noSelfShadow items' interactions (localInteractions, only for a light with
 * shadows), their own shadows, the other interactions. With only_local, the noSelfShadow
 * items' interactions and their shadows only (the group's light 0 draws the others). */
static void draw_light(mc_renderer *r, int l, int only_local)
{
    const mc_gl_fns *gl = &r->gl;
    int shadows = r->fv.lights[l].shadows;

    gpu_light_reach(r, l);
    if (r->light_rect[2] == 0)
        return;
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
            if (only_local)
                break;
        }
        for (int i = 0; i < r->used_slots; i++) {
            slot *sl = &r->slots[i];

            if (sl->pending && !sl->late && !sl->stages_only && !sl->unlit &&
                (!shadows || !(sl->ds.flags & MC_MTR_NO_SELF_SHADOW) == (pass != 0)))
                gpu_draw_slot(r, sl, r->masked ? P_MASKED : P_LIGHT, l);
        }
    }
    gl->Disable(GL_SCISSOR_TEST);
    gpu_prof_mark(r, PROF_LIGHTS);
}

/* Draws the light group's interactions in one pass over the items they reach, within the
 * bounds of their scissors (the shader keeps each light to its own). A masked group first
 * draws its light 0's volumes into the mask, and that light's pass of the noSelfShadow items
 * before their own volumes (draw_light). */
static void draw_light_group(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    const light_group *g = &r->group;
    const gpu_reach *all = &g->reach;

    if (!all->any)
        return;
    if (g->masked) {
        r->masked = 0;
        draw_light(r, g->light[0], 1);
        if (!r->masked) /* no volume drawn: a mask that lights every pixel */
            gpu_shadow_mask_clear(r);
    }
    gl->Disable(GL_STENCIL_TEST); /* no shadows, or in the mask: nothing reads the stencil */
    gpu_bind_light_group(r);
    gl->Enable(GL_SCISSOR_TEST);
    gl->Scissor(all->lo[0], all->lo[1], all->hi[0] - all->lo[0], all->hi[1] - all->lo[1]);
    for (int i = 0; i < r->used_slots; i++) {
        const slot *sl = &r->slots[i];

        if (sl->pending && !sl->late && sl->group_mask) {
            gpu_draw_slot(r, sl, (g->masked ? P_GROUP_MASKED : P_GROUP) + g->n - 2, -1);
            r->prof.group_folded += (unsigned)sl->fold;
        }
    }
    gl->Disable(GL_SCISSOR_TEST);
    gpu_unbind_light_group(r);
    r->prof.group_passes++;
    r->prof.group_lights += (unsigned)g->n;
    r->prof.group_masked += (unsigned)g->masked;
}

/* The first pass over the opaque items: depth and the ambient light (lit), or the one pass
 * of the camera rig, unlit or normals. */
static void draw_first_pass(mc_renderer *r, int lit)
{
    const mc_gl_fns *gl = &r->gl;

    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];

        /* RB_STD_FillDepthBuffer draws the view's surfaces: a deformed one's copy for the
         * view, not the lights' undeformed one (render.h, mc_item_passes) */
        if (!sl->pending || sl->late || sl->passes == MC_PASSES_LIGHTS)
            continue;
        if (sl->stages_only) {
            /* RB_STD_FillDepthBuffer: an opaque surface's depth first (alpha tested) */
            gl->ColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
            gpu_draw_slot(r, sl, lit ? P_AMBIENT : P_RIG, -1);
            gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        } else {
            gpu_draw_slot(r, sl, !lit ? P_RIG : sl->fold ? P_DEPTH : P_AMBIENT, -1);
        }
    }
}

void gpu_draw_opaque(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    int lit = r->shading == MC_SHADING_LIT && r->fv.num_lights > 0;

    gpu_prof_mark(r, PROF_SETUP);
    if (lit) /* before the first pass: it draws the items whose ambient the group adds black */
        choose_light_group(r);
    draw_first_pass(r, lit);
    gpu_prof_mark(r, PROF_BASE);
    if (lit) {
        /* RB_ARB2_CreateDrawInteractions: GLS_SRCBLEND_ONE | GLS_DSTBLEND_ONE | GLS_DEPTHMASK
         * with the depth of the first pass; alpha is kept */
        gl->DepthMask(GL_FALSE);
        gl->DepthFunc(GL_EQUAL);
        gl->Enable(GL_BLEND);
        gl->BlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE);
        for (int l = 0; l < r->fv.num_lights; l++) {
            if (!(r->group.done & (1u << l)))
                draw_light(r, l, 0);
            else if (l == r->group.light[0]) {
                draw_light_group(r);
                gpu_prof_mark(r, PROF_LIGHTS);
            }
        }
        gpu_shadow_done(r);
        gpu_unbind_light(r);
        gl->Disable(GL_BLEND);
        gl->DepthFunc(GL_LEQUAL);
        gl->DepthMask(GL_TRUE);
    }
}
