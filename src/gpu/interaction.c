/* The scene pass (render_int.h): the shader variants that draw an item lit (Doom's
 * interaction), unlit or as normals, the frame's values they read, and one item's draw. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu/render_int.h"

static const char *const scene_vs =
        "layout(location = 0) in vec3 a_pos;\n"
        "layout(location = 1) in vec3 a_nrm;\n"
        "layout(location = 2) in vec2 a_st;\n"
        "layout(location = 3) in vec4 a_tan;\n"
        "uniform mat4 u_model, u_viewproj;\n"
        "uniform mat3 u_nmat;\n"
        "uniform float u_handed;\n"
        "out vec3 v_wpos, v_nrm;\n"
        "out vec4 v_tan;\n"
        "out vec2 v_st;\n"
        "void main() {\n"
        "    vec4 w = u_model * vec4(a_pos, 1.0);\n"
        "    v_wpos = w.xyz;\n"
        "    v_nrm = u_nmat * a_nrm;\n"
        "    v_tan = vec4(mat3(u_model) * a_tan.xyz, a_tan.w * u_handed);\n"
        "    v_st = a_st;\n"
        "    gl_Position = u_viewproj * w;\n"
        "    gl_Position.y = -gl_Position.y; /* top row first in memory */\n"
        "}\n";

/* The fragment shader, after a header of #version and the variant's NMAP, SMAP, ATEST (0 or
 * 1) and LIGHTS (the number of lights) defines. World space throughout. Without lights the
 * camera rig: u_key and u_fill are unit vectors towards the light, set per frame from
 * camera-fixed directions. With lights, Doom's interaction per point light (render.h). A
 * normal map's texel (x along +s, y along +t, z out) is turned into world space with the
 * tangent t (made perpendicular to n), b = w cross(t, n) and n. Alpha test keeps alpha above
 * the value (Doom's GL_GREATER). Opaque geometry writes alpha 1. */
static const char *const scene_fs =
        "in vec3 v_wpos, v_nrm;\n"
        "in vec4 v_tan;\n"
        "in vec2 v_st;\n"
        "uniform sampler2D u_tex, u_nmap, u_smap;\n"
        "uniform int u_use_tex, u_mode, u_translucent;\n"
        "uniform float u_alpha, u_alpha_test;\n"
        "uniform vec3 u_color, u_key, u_fill, u_eye, u_ambient;\n"
        "uniform vec3 u_lpos[8], u_lcol[8];\n"
        "uniform float u_linv[8];\n"
        "out vec4 o_col;\n"
        "vec3 bumped(vec3 n) {\n"
        "    vec3 t = v_tan.xyz - n * dot(v_tan.xyz, n);\n"
        "    float tl = length(t);\n"
        "    if (tl <= 1e-20) return n;\n"
        "    t /= tl;\n"
        "    vec3 m = texture(u_nmap, v_st).rgb * 2.0 - 1.0;\n"
        "    return normalize(m.x * t + v_tan.w * m.y * cross(t, n) + m.z * n);\n"
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
        "    if (u_mode == 2) { o_col = vec4(n * 0.5 + 0.5, 1.0); return; }\n"
        "    vec3 base = dif.rgb;\n"
        "    if (u_mode == 1) { o_col = vec4(base, a); return; }\n"
        "    if (!gl_FrontFacing) n = -n;\n"
        "#if LIGHTS == 0\n"
        "    float kd = max(dot(n, u_key), 0.0), fd = max(dot(n, u_fill), 0.0);\n"
        "    vec3 h = normalize(u_key + normalize(u_eye - v_wpos));\n"
        "    float sp = kd > 0.0 ? pow(max(dot(n, h), 0.0), 32.0) : 0.0;\n"
        "    vec3 c = base * (0.25 + 0.70 * kd + 0.25 * fd) + vec3(0.10 * sp);\n"
        "#else\n"
        "#if SMAP\n"
        "    vec3 spec = texture(u_smap, v_st).rgb;\n"
        "#endif\n"
        "    vec3 v = normalize(u_eye - v_wpos);\n"
        "    vec3 c = base * u_ambient;\n"
        "    for (int i = 0; i < LIGHTS; i++) {\n"
        "        vec3 d = u_lpos[i] - v_wpos;\n"
        "        float dl = length(d);\n"
        "        float f = clamp(1.0 - dl * u_linv[i], 0.0, 1.0);\n"
        "        vec3 ld = d / max(dl, 1e-6);\n"
        "        float ndl = max(dot(n, ld), 0.0);\n"
        "        vec3 lit = base * ndl;\n"
        "#if SMAP\n"
        "        float ndh = max(dot(n, normalize(ld + v)), 0.0);\n"
        "        lit += spec * (ndl > 0.0 ? pow(ndh, 16.0) : 0.0);\n"
        "#endif\n"
        "        c += u_lcol[i] * f * lit;\n"
        "    }\n"
        "#endif\n"
        "    o_col = vec4(min(c, vec3(1.0)), a);\n"
        "}\n";

mc_status gpu_build_variant(mc_renderer *r, int v, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    program *pr = &r->progs[v];
    char head[160];
    GLuint id;
    mc_status s;

    if (pr->id)
        return MC_OK;
    snprintf(head, sizeof head,
             "#version 330 core\n#define NMAP %d\n#define SMAP %d\n#define ATEST %d\n"
             "#define LIGHTS %d\n",
             (v & V_NMAP) != 0, (v & V_SMAP) != 0, (v & V_ATEST) != 0, v / V_BITS);
    s = gpu_link_program(gl, head, scene_vs, scene_fs, &id, err);
    if (s != MC_OK)
        return s;
    pr->id = id;
    pr->frame = 0;
    pr->u.model = gl->GetUniformLocation(id, "u_model");
    pr->u.viewproj = gl->GetUniformLocation(id, "u_viewproj");
    pr->u.nmat = gl->GetUniformLocation(id, "u_nmat");
    pr->u.handed = gl->GetUniformLocation(id, "u_handed");
    pr->u.mode = gl->GetUniformLocation(id, "u_mode");
    pr->u.use_tex = gl->GetUniformLocation(id, "u_use_tex");
    pr->u.color = gl->GetUniformLocation(id, "u_color");
    pr->u.key = gl->GetUniformLocation(id, "u_key");
    pr->u.fill = gl->GetUniformLocation(id, "u_fill");
    pr->u.eye = gl->GetUniformLocation(id, "u_eye");
    pr->u.tex = gl->GetUniformLocation(id, "u_tex");
    pr->u.nmap = gl->GetUniformLocation(id, "u_nmap");
    pr->u.smap = gl->GetUniformLocation(id, "u_smap");
    pr->u.alpha = gl->GetUniformLocation(id, "u_alpha");
    pr->u.alpha_test = gl->GetUniformLocation(id, "u_alpha_test");
    pr->u.translucent = gl->GetUniformLocation(id, "u_translucent");

    pr->u.lpos = gl->GetUniformLocation(id, "u_lpos");
    pr->u.lcol = gl->GetUniformLocation(id, "u_lcol");
    pr->u.linv = gl->GetUniformLocation(id, "u_linv");
    pr->u.ambient = gl->GetUniformLocation(id, "u_ambient");
    gl->UseProgram(id);
    r->current = id;
    gl->Uniform1i(pr->u.tex, 0);
    gl->Uniform1i(pr->u.nmap, 1);
    gl->Uniform1i(pr->u.smap, 2);
    return gpu_gl_check(gl, "building the shaders", err);
}
/* out = a * b, column-major 4x4. */
static void mat4_mul(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float v = 0.0f;

            for (int k = 0; k < 4; k++)
                v += a[k * 4 + row] * b[c * 4 + k];
            out[c * 4 + row] = v;
        }
}

/* World-space unit vector of the eye-space direction d under a rigid view matrix: the rows
 * of the view's rotation are the eye axes in world space, so world = R^T d. */
static void eye_dir_to_world(const float *view, const float *d, float *out)
{
    float len = 0.0f;

    for (int i = 0; i < 3; i++) {
        out[i] = view[i * 4 + 0] * d[0] + view[i * 4 + 1] * d[1] + view[i * 4 + 2] * d[2];
        len += out[i] * out[i];
    }
    len = len > 0.0f ? 1.0f / sqrtf(len) : 0.0f;
    for (int i = 0; i < 3; i++)
        out[i] *= len;
}

/* Computes the per-frame uniforms: view-projection, the camera rig's directions, the eye
 * position, the lights. */
void gpu_frame_values(mc_renderer *r, const mc_frame_params *p)
{
    /* GL eye space: x right, y up, z towards the viewer. Key from the upper left in front of
     * the subject, fill from the right. */
    static const float key_eye[3] = { -0.45f, 0.55f, 0.70f };
    static const float fill_eye[3] = { 0.85f, 0.05f, 0.50f };
    const float *v = p->view.m;
    frame_values *fv = &r->fv;

    mat4_mul(p->proj.m, v, fv->vp);
    eye_dir_to_world(v, key_eye, fv->key);
    eye_dir_to_world(v, fill_eye, fv->fill);
    /* eye = -R^T t, t = the view's translation column */
    for (int i = 0; i < 3; i++)
        fv->eye[i] = -(v[i * 4 + 0] * v[12] + v[i * 4 + 1] * v[13] + v[i * 4 + 2] * v[14]);
    fv->num_lights = p->num_lights;
    for (int i = 0; i < p->num_lights; i++) {
        const mc_light *l = &p->lights[i];

        fv->lpos[i * 3] = l->origin.x;
        fv->lpos[i * 3 + 1] = l->origin.y;
        fv->lpos[i * 3 + 2] = l->origin.z;
        memcpy(fv->lcol + i * 3, l->color, sizeof l->color);
        fv->linv[i] = 1.0f / l->radius;
    }
    memcpy(fv->ambient, p->ambient, sizeof fv->ambient);
}

/* Makes variant pr current, with this frame's uniforms. */
static void use_program(mc_renderer *r, program *pr)
{
    const mc_gl_fns *gl = &r->gl;
    const frame_values *fv = &r->fv;

    if (r->current != pr->id) {
        gl->UseProgram(pr->id);
        r->current = pr->id;
    }
    if (pr->frame == r->frame)
        return;
    pr->frame = r->frame;
    gl->UniformMatrix4fv(pr->u.viewproj, 1, GL_FALSE, fv->vp);
    gl->Uniform3fv(pr->u.key, 1, fv->key);
    gl->Uniform3fv(pr->u.fill, 1, fv->fill);
    gl->Uniform3fv(pr->u.eye, 1, fv->eye);
    gl->Uniform1i(pr->u.mode, (GLint)r->shading);
    if (fv->num_lights > 0) {
        gl->Uniform3fv(pr->u.lpos, fv->num_lights, fv->lpos);
        gl->Uniform3fv(pr->u.lcol, fv->num_lights, fv->lcol);
        gl->Uniform1fv(pr->u.linv, fv->num_lights, fv->linv);
    }
    gl->Uniform3fv(pr->u.ambient, 1, fv->ambient);
}

void gpu_draw_slot(mc_renderer *r, const slot *sl)
{
    const mc_gl_fns *gl = &r->gl;
    const draw_state *ds = &sl->ds;
    program *pr = &r->progs[ds->variant];
    const uniforms *u = &pr->u;

    use_program(r, pr);
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
    for (int unit = 2; unit >= 0; unit--) {
        gl->ActiveTexture((GLenum)(GL_TEXTURE0 + unit));
        gl->BindTexture(GL_TEXTURE_2D, ds->tex[unit]);
    }
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
    gl->DrawElements(GL_TRIANGLES, ds->count, GL_UNSIGNED_INT, (const void *)0);
    gl->BindVertexArray(0);
}
