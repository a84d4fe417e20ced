/* The lights (render_int.h), the counterpart of dhewm3's tr_lightrun.cpp: the built-in light
 * images and Doom's specular table (Image_init.cpp R_SpecularTableImage), the frame's values
 * the scene shader takes -- each light's origin, colour and s, t, q and falloff planes
 * (R_DeriveLightData, R_SetLightProject, R_LocalPlaneToGlobal), with the view-projection and
 * the camera rig's directions they are set beside --, a light's volume (R_SetLightFrustum's
 * planes), the binding of a light's projection and falloff images with Doom's clamping, and
 * the checks of the lights mc_renderer_begin is given. The passes call it; it calls only
 * gl_util.h's helpers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>

#include "gpu/render_int.h"

/* ---- built-in images ------------------------------------------------------------------- */

#define BUILTIN_LIGHT_SIDE 64

/* The built-in lights/defaultPointLight's ramp at texel i of BUILTIN_LIGHT_SIDE: 1 at the
 * centre down to 0 at the edges, linear in the texel centre's coordinate u = (i + 0.5) / side:
 * byte(255 * max(1 - |2u - 1|, 0) + 0.5). */
static float light_ramp(int i)
{
    float u = ((float)i + 0.5f) / (float)BUILTIN_LIGHT_SIDE;
    float v = 1.0f - fabsf(2.0f * u - 1.0f);

    return v > 0.0f ? v : 0.0f;
}

static GLuint upload_plain(const mc_gl_fns *gl, const unsigned char *rgba, int w, int h, GLint wrap)
{
    GLuint tex = 0;

    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    return tex;
}

static GLuint make_sampler(const mc_gl_fns *gl, GLint wrap)
{
    GLuint smp = 0;

    gl->GenSamplers(1, &smp);
    gl->SamplerParameteri(smp, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->SamplerParameteri(smp, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->SamplerParameteri(smp, GL_TEXTURE_WRAP_S, wrap);
    gl->SamplerParameteri(smp, GL_TEXTURE_WRAP_T, wrap);
    return smp; /* GL_CLAMP_TO_BORDER's border is (0, 0, 0, 0) unless set */
}

mc_status gpu_build_light_images(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    enum { N = BUILTIN_LIGHT_SIDE };
    unsigned char *px = malloc((size_t)N * N * 4);
    unsigned char table[256 * 4];

    if (!px)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for light images");
    /* Image_init.cpp R_SpecularTableImage: "this is the behavior of the hacked up fragment
     * programs that can't really do a power function" */
    for (int x = 0; x < 256; x++) {
        float f = ((float)x / 255.0f - 0.75f) * 4.0f;

        f = f < 0.0f ? 0.0f : f;
        f = f * f;
        memset(table + x * 4, (int)(f * 255.0f) > 255 ? 255 : (int)(f * 255.0f), 4);
    }
    r->spec_table = upload_plain(gl, table, 256, 1, GL_CLAMP_TO_EDGE);
    /* projection: the ramp in s times the ramp in t; falloff: the ramp in z (one row) */
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++)
            memset(px + (y * N + x) * 4, (int)(255.0f * light_ramp(x) * light_ramp(y) + 0.5f), 4);
    r->def_proj = upload_plain(gl, px, N, N, GL_CLAMP_TO_BORDER);
    for (int x = 0; x < N; x++)
        memset(px + x * 4, (int)(255.0f * light_ramp(x) + 0.5f), 4);
    r->def_fall = upload_plain(gl, px, N, 1, GL_CLAMP_TO_BORDER);
    free(px);
    r->samp_zero = make_sampler(gl, GL_CLAMP_TO_BORDER);
    r->samp_edge = make_sampler(gl, GL_CLAMP_TO_EDGE);
    return gpu_gl_check(gl, "making the light images", err);
}

void gpu_light_delete_gl(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    GLuint tex[3] = { r->spec_table, r->def_proj, r->def_fall };
    GLuint smp[2] = { r->samp_zero, r->samp_edge };

    gl->DeleteTextures(3, tex);
    gl->DeleteSamplers(2, smp);
}

/* ---- frame values ---------------------------------------------------------------------- */

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

static void plane_set(float *pl, float x, float y, float z, float d)
{
    pl[0] = x;
    pl[1] = y;
    pl[2] = z;
    pl[3] = d;
}

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A projected light's planes relative to its origin: tr_lightrun.cpp R_SetLightProject (with
 * origin 0, as R_DeriveLightData calls it), then moved to the world by origin. */
static void projected_planes(const mc_light *l, float pl[4][4])
{
    float right[3] = { l->right.x, l->right.y, l->right.z }, up[3] = { l->up.x, l->up.y, l->up.z };
    float target[3] = { l->target.x, l->target.y, l->target.z }, normal[3], start[3], stop[3];
    float rlen = sqrtf(dot3(right, right)), ulen = sqrtf(dot3(up, up)), dist, scale, len, ofs;
    float org[3] = { l->origin.x, l->origin.y, l->origin.z };
    int has_range = l->start.x != 0.0f || l->start.y != 0.0f || l->start.z != 0.0f ||
                    l->end.x != 0.0f || l->end.y != 0.0f || l->end.z != 0.0f;

    for (int i = 0; i < 3; i++) {
        right[i] /= rlen > 0.0f ? rlen : 1.0f;
        up[i] /= ulen > 0.0f ? ulen : 1.0f;
    }
    /* normal = up x right, normalised */
    normal[0] = up[1] * right[2] - up[2] * right[1];
    normal[1] = up[2] * right[0] - up[0] * right[2];
    normal[2] = up[0] * right[1] - up[1] * right[0];
    len = sqrtf(dot3(normal, normal));
    for (int i = 0; i < 3; i++)
        normal[i] /= len > 0.0f ? len : 1.0f;
    dist = dot3(target, normal);
    if (dist < 0.0f) {
        dist = -dist;
        for (int i = 0; i < 3; i++)
            normal[i] = -normal[i];
    }
    scale = (0.5f * dist) / (rlen > 0.0f ? rlen : 1.0f);
    for (int i = 0; i < 3; i++)
        right[i] *= scale;
    scale = -(0.5f * dist) / (ulen > 0.0f ? ulen : 1.0f);
    for (int i = 0; i < 3; i++)
        up[i] *= scale;
    plane_set(pl[2], normal[0], normal[1], normal[2], 0.0f);
    plane_set(pl[0], right[0], right[1], right[2], 0.0f);
    plane_set(pl[1], up[0], up[1], up[2], 0.0f);
    /* offset to the centre: target (relative, w = 1) maps to s = t = 0.5 */
    for (int k = 0; k < 2; k++) {
        float q = dot3(target, pl[2]) + pl[2][3];

        ofs = 0.5f - (dot3(target, pl[k]) + pl[k][3]) / (q != 0.0f ? q : 1.0f);
        for (int i = 0; i < 4; i++)
            pl[k][i] += ofs * pl[2][i];
    }
    /* the falloff: 0 at start, 1 at end (Doom's default start 0, end target) */
    for (int i = 0; i < 3; i++) {
        start[i] = has_range ? (&l->start.x)[i] : 0.0f;
        stop[i] = has_range ? (&l->end.x)[i] : target[i];
        normal[i] = stop[i] - start[i];
    }
    dist = sqrtf(dot3(normal, normal));
    if (dist <= 0.0f)
        dist = 1.0f;
    for (int i = 0; i < 3; i++)
        normal[i] /= dist * dist; /* normalised, then * (1 / dist) */
    plane_set(pl[3], normal[0], normal[1], normal[2], -dot3(start, normal));
    /* R_LocalPlaneToGlobal with the identity axis: d -= n . origin */
    for (int k = 0; k < 4; k++)
        pl[k][3] -= dot3(pl[k], org);
}

/* A point light's planes: tr_lightrun.cpp R_DeriveLightData ("point light"), moved to the
 * world by origin. */
static void point_planes(const mc_light *l, float pl[4][4])
{
    float rx = l->box.x > 0.0f ? l->box.x : l->radius, ry = l->box.y > 0.0f ? l->box.y : l->radius;
    float rz = l->box.z > 0.0f ? l->box.z : l->radius;

    plane_set(pl[0], 0.5f / rx, 0.0f, 0.0f, 0.5f - 0.5f * l->origin.x / rx);
    plane_set(pl[1], 0.0f, 0.5f / ry, 0.0f, 0.5f - 0.5f * l->origin.y / ry);
    plane_set(pl[2], 0.0f, 0.0f, 0.0f, 1.0f);
    plane_set(pl[3], 0.0f, 0.0f, 0.5f / rz, 0.5f - 0.5f * l->origin.z / rz);
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
        light_values *lv = &fv->lights[i];

        lv->org[0] = l->origin.x;
        lv->org[1] = l->origin.y;
        lv->org[2] = l->origin.z;
        for (int c = 0; c < 3; c++)
            lv->col[c] = l->color[c] * MC_LIGHT_SCALE;
        if (l->projected)
            projected_planes(l, lv->plane);
        else
            point_planes(l, lv->plane);
        lv->proj = l->projection_image > 0 ? r->textures[l->projection_image - 1] : r->def_proj;
        lv->fall = l->falloff_image > 0 ? r->textures[l->falloff_image - 1] : r->def_fall;
        lv->shadows = !p->no_shadows && !l->no_shadows;
    }
    for (int c = 0; c < 3; c++)
        fv->ambient[c] = p->ambient[c] * MC_LIGHT_SCALE;
}

/* ---- a light's volume and images ------------------------------------------------------ */

/* Light l's volume in world space (tr_lightrun.cpp R_SetLightFrustum's planes from the s, t,
 * q and falloff planes), widened for the images' filtering: the projection image is zero
 * outside 0..1 (zeroClamp), but a bilinear sample reaches half a texel beyond, at most half the
 * range for any image or mip level, so s/q and t/q span -0.5..1.5; the falloff only when it is
 * zero outside too (the built-in one; a material's clamps to its edge texels, which need not
 * be 0). Returns the number of planes. */
int gpu_light_volume(const mc_renderer *r, int l, float out[6][4])
{
    const light_values *lv = &r->fv.lights[l];
    const float(*p)[4] = lv->plane;
    int n = 4;

    for (int k = 0; k < 4; k++) {
        out[0][k] = p[0][k] + 0.5f * p[2][k];
        out[1][k] = 1.5f * p[2][k] - p[0][k];
        out[2][k] = p[1][k] + 0.5f * p[2][k];
        out[3][k] = 1.5f * p[2][k] - p[1][k];
    }
    if (lv->fall == r->def_fall) {
        for (int k = 0; k < 4; k++) {
            out[4][k] = p[3][k];
            out[5][k] = -p[3][k];
        }
        out[4][3] += 0.5f;
        out[5][3] += 1.5f;
        n = 6;
    }
    return n;
}

/* Binds light i's images to units proj and fall. */
static void bind_images(mc_renderer *r, int i, int proj, int fall)
{
    const mc_gl_fns *gl = &r->gl;
    const light_values *lv = &r->fv.lights[i];

    gl->ActiveTexture((GLenum)(GL_TEXTURE0 + proj));
    gl->BindTexture(GL_TEXTURE_2D, lv->proj);
    gl->BindSampler((GLuint)proj, r->samp_zero); /* Doom's zeroClamp on the light stage */
    gl->ActiveTexture((GLenum)(GL_TEXTURE0 + fall));
    gl->BindTexture(GL_TEXTURE_2D, lv->fall);
    /* Material.cpp: lightFalloffImage is TR_CLAMP; the built-in one is zero outside */
    gl->BindSampler((GLuint)fall, lv->fall == r->def_fall ? r->samp_zero : r->samp_edge);
}

static void bind_spec_table(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    gl->ActiveTexture(GL_TEXTURE0 + U_SPECTAB);
    gl->BindTexture(GL_TEXTURE_2D, r->spec_table);
    gl->ActiveTexture(GL_TEXTURE0);
}

/* Binds light i's images and the specular table to their units. */
void gpu_bind_light(mc_renderer *r, int i)
{
    bind_images(r, i, U_LPROJ, U_LFALL);
    bind_spec_table(r);
}

void gpu_unbind_light(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    gl->BindSampler(U_LPROJ, 0);
    gl->BindSampler(U_LFALL, 0);
}

void gpu_bind_light_group(mc_renderer *r)
{
    for (int k = 0; k < r->group.n; k++)
        bind_images(r, r->group.light[k], U_GPROJ + k, U_GFALL + k);
    bind_spec_table(r);
}

void gpu_unbind_light_group(mc_renderer *r)
{
    for (int k = 0; k < r->group.n; k++) {
        r->gl.BindSampler((GLuint)(U_GPROJ + k), 0);
        r->gl.BindSampler((GLuint)(U_GFALL + k), 0);
    }
}

/* ---- checks ---------------------------------------------------------------------------- */

static int finite_vec(mc_vec3 v)
{
    return gpu_finite_in(v.x, -MC_LIGHT_MAX_COORD, MC_LIGHT_MAX_COORD) &&
           gpu_finite_in(v.y, -MC_LIGHT_MAX_COORD, MC_LIGHT_MAX_COORD) &&
           gpu_finite_in(v.z, -MC_LIGHT_MAX_COORD, MC_LIGHT_MAX_COORD);
}

static int light_ok(const mc_renderer *r, const mc_light *l)
{
    int box = l->box.x != 0.0f || l->box.y != 0.0f || l->box.z != 0.0f;
    /* a projected light's volume comes from its target, right and up (below) */
    int size = l->projected ||
               (box ? gpu_finite_in(l->box.x, 1e-6f, MC_LIGHT_MAX_COORD) &&
                          gpu_finite_in(l->box.y, 1e-6f, MC_LIGHT_MAX_COORD) &&
                          gpu_finite_in(l->box.z, 1e-6f, MC_LIGHT_MAX_COORD)
                    : gpu_finite_in(l->radius, 1e-6f, MC_LIGHT_MAX_COORD));
    int ok = finite_vec(l->origin) && size && l->projection_image >= 0 &&
             l->projection_image <= r->num_textures && l->falloff_image >= 0 &&
             l->falloff_image <= r->num_textures && !gpu_is_cube(r, l->projection_image) &&
             !gpu_is_cube(r, l->falloff_image);

    for (int c = 0; c < 3; c++)
        ok = ok && gpu_finite_in(l->color[c], 0.0f, 1e6f);
    if (ok && l->projected) {
        mc_vec3 n = mc_v3_cross(l->up, l->right);

        ok = finite_vec(l->target) && finite_vec(l->right) && finite_vec(l->up) &&
             finite_vec(l->start) && finite_vec(l->end) && mc_v3_len(l->right) > 0.0f &&
             mc_v3_len(l->up) > 0.0f && mc_v3_len(n) > 0.0f &&
             fabsf(mc_v3_dot(l->target, n)) > 0.0f;
    }
    return ok;
}

mc_status gpu_check_lights(const mc_renderer *r, const mc_frame_params *p, mc_error *err)
{
    if (p->num_lights < 0 || p->num_lights > MC_RENDER_MAX_LIGHTS ||
        (p->num_lights > 0 && !p->lights))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%d lights: expected 0 to %d",
                            p->num_lights, MC_RENDER_MAX_LIGHTS);
    for (int c = 0; c < 3; c++)
        if (!gpu_finite_in(p->ambient[c], 0.0f, 1e6f))
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad ambient light");
    for (int i = 0; i < p->num_lights; i++)
        if (!light_ok(r, &p->lights[i]))
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                                "light %d: bad origin, colour, size, projection or image", i);
    return MC_OK;
}
