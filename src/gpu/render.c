/* The GL 3.3 core renderer (include/md5cine/render.h) on one of the backends of backend.h:
 * the context, framebuffers, textures, frames and items, the overlay and the readback; the
 * passes live in their own files (render_int.h). Every GL call goes through r->gl, filled from
 * the backend's get_proc (gl_fns.h).
 *
 * Orientation: the vertex shader negates clip-space y, so GL's framebuffer row 0 holds the
 * image's top row and glReadPixels writes top-first rows straight into the caller's buffer with
 * no copy pass. The flip mirrors window space, so Doom's front faces (clockwise in the image)
 * are counter-clockwise in GL's window space: glFrontFace(GL_CCW) + glCullFace(GL_BACK).
 *
 * Buffers: draw i of a frame uses slot i (a VAO with position, normal, texcoord, tangent and
 * index buffers). A slot's storage only grows, and glBufferSubData refills it; the previous
 * frame's readback has already waited for the GPU work, so the update never stalls a pending
 * draw. A translucent item is uploaded into its slot when it is submitted and drawn, from the
 * state kept in the slot, when the frame resolves (before the overlay or the readback), after
 * every opaque item. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/easy_font.h"
#include "core/signals.h"
#include "gpu/render_int.h"

#define TEXT_MAX_CHARS 200

/* Text in pixels from the top-left; the framebuffer's row 0 is the image's top row. */
static const char *const text_vs =
        "layout(location = 0) in vec2 a_pos;\n"
        "layout(location = 1) in vec4 a_col;\n"
        "uniform vec2 u_origin, u_size;\n"
        "uniform float u_scale;\n"
        "out vec4 v_col;\n"
        "void main() {\n"
        "    vec2 p = (u_origin + a_pos * u_scale) / u_size * 2.0 - 1.0;\n"
        "    gl_Position = vec4(p, 0.0, 1.0);\n"
        "    v_col = a_col;\n"
        "}\n";

static const char *const text_fs = "in vec4 v_col;\n"
                                   "out vec4 o_col;\n"
                                   "void main() { o_col = v_col; }\n";

/* The backends built in, in the order MC_GL_AUTO tries them (backend.h). */
const mc_gpu_backend *const mc_gpu_backends[] = {
#ifdef MC_HAVE_EGL
    &mc_gpu_backend_egl,
#endif
#ifdef MC_HAVE_OSMESA
    &mc_gpu_backend_osmesa,
#endif
    NULL,
};

static void warn(const mc_renderer *r, const char *msg)
{
    mc_error w;

    if (!r->warn)
        return;
    mc_error_set(&w, MC_ERR_GL, NULL, 0, 0, "%s", msg);
    r->warn(r->warn_user, &w);
}

static mc_status make_current(mc_renderer *r, mc_error *err)
{
    return r->backend->make_current(r->ctx, err);
}

/* ---- context, shaders, framebuffers -------------------------------------------------- */

/* Fills r->gl from the backend; MC_ERR_GL naming the first entry point it lacks. */
static mc_status load_gl(mc_renderer *r, mc_error *err)
{
#define MC_GL_LOAD(fn, FN)                                                                    \
    r->gl.fn = (PFNGL##FN##PROC)r->backend->get_proc(r->ctx, "gl" #fn);                       \
    if (!r->gl.fn)                                                                            \
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "the %s backend's OpenGL lacks gl%s", \
                            r->backend->name, #fn);
    MC_GL_FUNCTIONS(MC_GL_LOAD)
#undef MC_GL_LOAD
    return MC_OK;
}

static void copy_gl_string(const mc_gl_fns *gl, GLenum name, char *buf, size_t cap)
{
    const GLubyte *s = gl->GetString(name);

    snprintf(buf, cap, "%s", s ? (const char *)s : "?");
}

/* Creates a context with backend b and loads GL through it; on failure nothing is left. */
static mc_status try_backend(mc_renderer *r, const mc_gpu_backend *b, int device, mc_error *err)
{
    mc_status st = b->create(device, &r->ctx, err);

    if (st != MC_OK)
        return st;
    r->backend = b;
    st = load_gl(r, err);
    if (st == MC_OK) {
        copy_gl_string(&r->gl, GL_RENDERER, r->gl_renderer, sizeof r->gl_renderer);
        copy_gl_string(&r->gl, GL_VERSION, r->gl_version, sizeof r->gl_version);
        copy_gl_string(&r->gl, GL_VENDOR, r->gl_vendor, sizeof r->gl_vendor);
        b->describe(r->ctx, r->device, sizeof r->device);
        st = gpu_gl_check(&r->gl, "creating the context", err);
    }
    if (st != MC_OK) {
        b->release(r->ctx);
        r->ctx = NULL;
        r->backend = NULL;
        memset(&r->gl, 0, sizeof r->gl);
    }
    return st;
}

/* MC_GL_AUTO narrowed by the environment: MD5CINE_GL=egl or osmesa picks one backend for every
 * renderer that asks for none (how the test suite runs once per backend); unset, empty or
 * "auto" leaves the choice automatic. */
static mc_status backend_from_env(mc_gl_backend *want, mc_error *err)
{
    const char *e = getenv("MD5CINE_GL");

    if (!e || !*e || strcmp(e, "auto") == 0)
        return MC_OK;
    if (strcmp(e, "egl") == 0)
        *want = MC_GL_EGL;
    else if (strcmp(e, "osmesa") == 0)
        *want = MC_GL_OSMESA;
    else
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "MD5CINE_GL='%.32s' is not a GL backend (auto, egl or osmesa)", e);
    return MC_OK;
}

/* The backend desc asks for, or with MC_GL_AUTO the first in mc_gpu_backends that works; when
 * several fail, the error names each one's reason. */
static mc_status create_context(mc_renderer *r, mc_gl_backend want, int device, mc_error *err)
{
    mc_error e;
    char why[sizeof e.msg] = "";
    mc_status st = MC_ERR_GL;
    int tried = 0;

    if (want != MC_GL_AUTO && want != MC_GL_EGL && want != MC_GL_OSMESA)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "unknown GL backend %d", (int)want);
    if (want == MC_GL_AUTO) {
        st = backend_from_env(&want, err);
        if (st != MC_OK)
            return st;
        st = MC_ERR_GL;
    }
    for (const mc_gpu_backend *const *b = mc_gpu_backends; *b && st != MC_ERR_NOMEM; b++) {
        if (want != MC_GL_AUTO && (*b)->kind != want)
            continue;
        st = try_backend(r, *b, device, &e);
        if (st == MC_OK)
            return MC_OK;
        snprintf(why + strlen(why), sizeof why - strlen(why), "%s%s: %.200s", tried ? "; " : "",
                 (*b)->name, e.msg);
        tried++;
    }
    if (tried == 0)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "this build has no %s backend",
                            want == MC_GL_EGL      ? "EGL"
                            : want == MC_GL_OSMESA ? "OSMesa"
                                                   : "GL");
    if (tried > 1 && st != MC_ERR_NOMEM)
        return mc_error_set(err, st, NULL, 0, 0, "no GL backend works (%s)", why);
    if (err)
        *err = e;
    return st;
}

/* The text program and the two plain scene variants (the others are built on first use). */
static mc_status build_programs(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    mc_status s = gpu_link_program(gl, "#version 330 core\n", text_vs, text_fs, NULL, &r->text_prog, err);

    if (s == MC_OK)
        s = gpu_build_variant(r, P_RIG * V_BITS, err);
    if (s == MC_OK)
        s = gpu_build_variant(r, P_AMBIENT * V_BITS, err);
    if (s == MC_OK)
        s = gpu_build_variant(r, P_LIGHT * V_BITS, err);
    if (s == MC_OK)
        s = gpu_build_light_images(r, err);
    if (s == MC_OK)
        s = gpu_build_stages(r, err);
    if (s == MC_OK)
        s = gpu_shadow_build(r, err);
    if (s != MC_OK)
        return s;
    r->ut_origin = gl->GetUniformLocation(r->text_prog, "u_origin");
    r->ut_scale = gl->GetUniformLocation(r->text_prog, "u_scale");
    r->ut_size = gl->GetUniformLocation(r->text_prog, "u_size");
    return gpu_gl_check(gl, "building the shaders", err);
}

/* Makes an FBO with an RGBA8 and a depth-24 renderbuffer of the given sample count; returns
 * 0 when it is incomplete (and deletes what it made). */
static int make_fbo(const mc_renderer *r, int samples, GLuint *fbo, GLuint *color, GLuint *depth)
{
    const mc_gl_fns *gl = &r->gl;
    GLenum status;

    gl->GenFramebuffers(1, fbo);
    gl->GenRenderbuffers(1, color);
    gl->GenRenderbuffers(1, depth);
    gl->BindFramebuffer(GL_FRAMEBUFFER, *fbo);
    gl->BindRenderbuffer(GL_RENDERBUFFER, *color);
    gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0, GL_RGBA8,
                                       r->width, r->height);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *color);
    gl->BindRenderbuffer(GL_RENDERBUFFER, *depth);
    gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0,
                                       GL_DEPTH24_STENCIL8, r->width, r->height);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                *depth);
    status = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
    gl->GetError(); /* an incomplete FBO is reported by the status, not as an error */
    if (status == GL_FRAMEBUFFER_COMPLETE)
        return 1;
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->DeleteFramebuffers(1, fbo);
    gl->DeleteRenderbuffers(1, color);
    gl->DeleteRenderbuffers(1, depth);
    *fbo = *color = *depth = 0;
    return 0;
}

static mc_status build_framebuffers(mc_renderer *r, int want, int mask, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    GLint max_samples = 1, max_rb = 0;
    char msg[160];

    gl->GetIntegerv(GL_MAX_SAMPLES, &max_samples);
    gl->GetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
    if (r->width > max_rb || r->height > max_rb)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "frame size %dx%d is larger than the driver's %d", r->width, r->height,
                            max_rb);
    r->samples = want;
    if (want > max_samples) {
        r->samples = max_samples >= 2 ? max_samples : 1;
        snprintf(msg, sizeof msg, "%dx MSAA is not available (driver maximum %d); using %s", want,
                 max_samples, r->samples > 1 ? "fewer samples" : "no antialiasing");
        warn(r, msg);
    }
    if (r->samples > 1 && !make_fbo(r, r->samples, &r->fbo_ms, &r->ms_color, &r->ms_depth)) {
        snprintf(msg, sizeof msg, "%dx MSAA framebuffer is incomplete; using no antialiasing",
                 r->samples);
        warn(r, msg);
        r->samples = 1;
    }
    if (r->samples > 1) { /* the driver may round the count up */
        GLint got = r->samples;

        gl->BindRenderbuffer(GL_RENDERBUFFER, r->ms_color);
        gl->GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &got);
        r->samples = got > 1 ? got : r->samples;
    }
    if (!make_fbo(r, 1, &r->fbo, &r->color, &r->depth))
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "cannot make a %dx%d RGBA8 framebuffer",
                            r->width, r->height);
    if (mask && r->samples > 1) {
        mc_status s = gpu_shadow_mask_build(r, err);

        if (s != MC_OK)
            return s;
        if (!r->fbo_mask)
            warn(r, "this GL cannot read a stencil as a texture (GL 4.3); shadows are decided "
                    "at each sample");
    }
    return gpu_gl_check(gl, "making the framebuffers", err);
}

/* The text overlay's vertex buffer and its fixed quad -> two triangles index list. */
static mc_status build_text(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    GLushort *idx = malloc(sizeof *idx * 6 * TEXT_MAX_QUADS);

    r->text_verts = malloc((size_t)TEXT_MAX_QUADS * 64);
    if (!idx || !r->text_verts) {
        free(idx);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    for (int q = 0; q < TEXT_MAX_QUADS; q++) {
        static const int corner[6] = { 0, 1, 2, 0, 2, 3 };

        for (int k = 0; k < 6; k++)
            idx[q * 6 + k] = (GLushort)(q * 4 + corner[k]);
    }
    gl->GenVertexArrays(1, &r->text_vao);
    gl->GenBuffers(1, &r->text_vbo);
    gl->GenBuffers(1, &r->text_ibo);
    gl->BindVertexArray(r->text_vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    gl->BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)TEXT_MAX_QUADS * 64, NULL, GL_STREAM_DRAW);
    gl->EnableVertexAttribArray(0);
    gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, (const void *)0);
    gl->EnableVertexAttribArray(1);
    gl->VertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 16, (const void *)12);
    gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->text_ibo);
    gl->BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof *idx * 6 * TEXT_MAX_QUADS), idx,
                   GL_STATIC_DRAW);
    gl->BindVertexArray(0);
    free(idx);
    return gpu_gl_check(gl, "making the overlay buffers", err);
}

/* An environment switch: set to "1". */
static int env_on(const char *name)
{
    const char *v = getenv(name);

    return v && strcmp(v, "1") == 0;
}

static void prof_print(const mc_renderer *r)
{
    static const char *const names[PROF_ROWS] = {
        "draw calls, uploads, shadow volumes (CPU)", "depth and ambient (or the one pass)",
        "shadow volumes (stencil)", "light interactions", "stages, translucent items",
        "MSAA resolve", "readback"
    };
    double total = 0.0;

    if (!r->prof.on || r->prof.frames == 0)
        return;
    for (int i = 0; i < PROF_ROWS; i++)
        total += r->prof.sum[i];
    fprintf(stderr, "md5cine: pass times over %u frames of %dx%d, %d samples (GL finished after "
                    "each pass; %s)\n", r->prof.frames, r->width, r->height, r->samples,
            r->prof.on == PROF_CPU ? "the drawing thread's CPU time" : "wall time");
    for (int i = 0; i < PROF_ROWS; i++)
        fprintf(stderr, "  %-42s %8.2f ms/frame %5.1f %%\n", names[i],
                1e3 * r->prof.sum[i] / r->prof.frames,
                total > 0.0 ? 100.0 * r->prof.sum[i] / total : 0.0);
    fprintf(stderr, "  light group: %u passes drew the interactions of %u lights, %u of them with "
                    "shadows (from the shadow mask), and the ambient of %u items\n",
            r->prof.group_passes, r->prof.group_lights, r->prof.group_masked,
            r->prof.group_folded);
}

mc_status mc_renderer_create(const mc_renderer_desc *desc, mc_renderer **out, mc_error *err)
{
    mc_renderer_desc d = desc ? *desc : (mc_renderer_desc){ 0 };
    mc_renderer *r;
    sigset_t mask;
    mc_status s;

    *out = NULL;
    d.width = d.width ? d.width : 1280;
    d.height = d.height ? d.height : 720;
    d.msaa = d.msaa ? d.msaa : 1; /* 0 is off, as the command's --msaa 0 */
    if (d.width < 1 || d.height < 1 || d.width > MAX_SIDE || d.height > MAX_SIDE)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame size %dx%d is outside 1..%d",
                            d.width, d.height, MAX_SIDE);
    if (d.msaa != 1 && d.msaa != 2 && d.msaa != 4)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "MSAA samples must be 0 or 1 (off), 2 or 4, not %d", d.msaa);
    if (d.gl_device < 0)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "GL device %d: devices count from 1",
                            d.gl_device);
    if (d.shadow_samples != MC_SHADOW_SAMPLES_PIXEL && d.shadow_samples != MC_SHADOW_SAMPLES_SAMPLE)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "unknown shadow samples %d",
                            (int)d.shadow_samples);
    r = calloc(1, sizeof *r);
    if (!r)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the renderer");
    r->width = d.width;
    r->height = d.height;
    r->prof.on = env_on("MD5CINE_PASS_TIMES") ? PROF_WALL
                 : getenv("MD5CINE_PASS_TIMES") && strcmp(getenv("MD5CINE_PASS_TIMES"), "cpu") == 0
                         ? PROF_CPU
                         : PROF_OFF;
    r->no_scissor = env_on("MD5CINE_NO_SCISSOR");
    r->no_group = env_on("MD5CINE_NO_LIGHT_GROUP");
    r->no_fold = env_on("MD5CINE_NO_AMBIENT_FOLD");
    r->warn = d.warn;
    r->warn_user = d.warn_user;
    r->stop = d.stop;
    /* The GL driver starts its threads here; they inherit this thread's signal mask. Mesa
     * blocks signals in its own threads (llvmpipe's rasterisers), another driver (a GPU's
     * through EGL) need not, so they are blocked meanwhile and a program's handlers only ever
     * run on its own threads (render.h). */
    mc_block_async_signals(&mask);
    s = create_context(r, d.backend, d.gl_device - 1, err);
    if (s == MC_OK)
        s = build_programs(r, err);
    if (s == MC_OK)
        s = build_framebuffers(r, d.msaa, d.shadow_samples == MC_SHADOW_SAMPLES_PIXEL, err);
    if (s == MC_OK)
        s = build_text(r, err);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (s != MC_OK) {
        mc_renderer_release(r);
        return s;
    }
    *out = r;
    return MC_OK;
}

static void delete_gl_objects(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    for (int i = 0; i < r->num_slots; i++) {
        slot *sl = &r->slots[i];
        GLuint bufs[5] = { sl->pos, sl->nrm, sl->st, sl->tan, sl->idx };

        gl->DeleteBuffers(5, bufs);
        gl->DeleteVertexArrays(1, &sl->vao);
        free(sl->stages);
    }
    gpu_shadow_delete_gl(r);
    gl->DeleteProgram(r->stage_prog);
    if (r->num_textures)
        gl->DeleteTextures(r->num_textures, r->textures);
    gl->DeleteVertexArrays(1, &r->text_vao);
    gl->DeleteBuffers(1, &r->text_vbo);
    gl->DeleteBuffers(1, &r->text_ibo);
    for (int v = 0; v < NUM_VARIANTS; v++)
        gl->DeleteProgram(r->progs[v].id);
    gpu_light_delete_gl(r);
    gl->DeleteProgram(r->text_prog);
    gl->DeleteFramebuffers(1, &r->fbo_ms);
    gl->DeleteFramebuffers(1, &r->fbo);
    gl->DeleteRenderbuffers(1, &r->ms_color);
    gl->DeleteRenderbuffers(1, &r->ms_depth);
    gl->DeleteRenderbuffers(1, &r->color);
    gl->DeleteRenderbuffers(1, &r->depth);
}

void mc_renderer_release(mc_renderer *r)
{
    if (!r)
        return;
    prof_print(r);
    if (r->ctx) {
        if (make_current(r, NULL) == MC_OK)
            delete_gl_objects(r);
        r->backend->release(r->ctx);
    }
    gpu_shadow_free(r);
    free(r->slots);
    free(r->textures);
    free(r->cube_textures);
    free(r->text_verts);
    free(r);
}

/* The Mesa version in a GL_VERSION string ("4.5 (Core Profile) Mesa 22.3.6" -> "22.3.6"). */
static void mesa_version(const char *gl_version, char *out, size_t cap)
{
    const char *m = strstr(gl_version, "Mesa ");
    size_t n = 0;

    out[0] = '\0';
    if (!m)
        return;
    m += 5;
    while (m[n] && m[n] != ' ' && n + 1 < cap)
        n++;
    memcpy(out, m, n);
    out[n] = '\0';
}

void mc_renderer_get_info(const mc_renderer *r, mc_renderer_info *info)
{
    memset(info, 0, sizeof *info);
    info->width = r->width;
    info->height = r->height;
    info->samples = r->samples;
    snprintf(info->gl_renderer, sizeof info->gl_renderer, "%s", r->gl_renderer);
    snprintf(info->gl_version, sizeof info->gl_version, "%s", r->gl_version);
    snprintf(info->gl_vendor, sizeof info->gl_vendor, "%s", r->gl_vendor);
    snprintf(info->gl_device, sizeof info->gl_device, "%s", r->device);
    mesa_version(r->gl_version, info->mesa_version, sizeof info->mesa_version);
    info->backend = r->backend ? r->backend->name : "";
}

/* ---- textures ------------------------------------------------------------------------ */

/* A texture of w x h texels (a 2D one), or a cube map of six faces of w x w one under another
 * (h = 6 w): GL_TEXTURE_CUBE_MAP_POSITIVE_X + i gets face i, as idImage::GenerateCubeImage
 * uploads them, clamped to its edges. */
static mc_status add_texture(mc_renderer *r, const uint8_t *rgba, int w, int h, size_t stride,
                             int cube, int *id, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    GLenum target = cube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
    GLint max_tex = 0, wrap = cube ? GL_CLAMP_TO_EDGE : GL_REPEAT;
    int fh = cube ? w : h;
    GLuint tex = 0;
    GLsizei levels;
    mc_status s;

    *id = 0;
    if (r->in_frame)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "texture added inside a frame");
    s = make_current(r, err);
    if (s != MC_OK)
        return s;
    gl->GetIntegerv(cube ? GL_MAX_CUBE_MAP_TEXTURE_SIZE : GL_MAX_TEXTURE_SIZE, &max_tex);
    if (!rgba || w < 1 || h < 1 || w > max_tex || fh > max_tex || stride % 4 != 0 ||
        stride < (size_t)w * 4 || stride / 4 > (size_t)max_tex || (cube && h != 6 * w))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "bad %s %dx%d (stride %zu; driver maximum %d)",
                            cube ? "cube map" : "texture", w, h, stride, max_tex);
    s = gpu_texture_room(r, err);
    if (s != MC_OK)
        return s;
    /* Rows go up as given, so GL's t = 0 is the image's top row (Doom's convention). Every
     * level's storage is made at once: a texture given its first level alone was made again
     * with room for the mipmaps when they were generated, a second copy of the image while
     * both were held (8192 x 8192: 256 MiB more at the peak). */
    for (levels = 1; (w | fh) >> levels; levels++)
        ;
    gl->GenTextures(1, &tex);
    gl->BindTexture(target, tex);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, (GLint)(stride / 4));
    gl->TexStorage2D(target, levels, GL_RGBA8, w, fh);
    for (int f = 0; f < (cube ? 6 : 1); f++)
        gl->TexSubImage2D(cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f : GL_TEXTURE_2D, 0,
                          0, 0, w, fh, GL_RGBA, GL_UNSIGNED_BYTE,
                          rgba + (size_t)f * (size_t)fh * stride);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    gl->GenerateMipmap(target);
    gl->TexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    gl->TexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->TexParameteri(target, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(target, GL_TEXTURE_WRAP_T, wrap);
    s = gpu_gl_check(gl, "uploading a texture", err);
    if (s != MC_OK) {
        gl->DeleteTextures(1, &tex);
        return s;
    }
    r->cube_textures[r->num_textures] = (unsigned char)cube;
    r->textures[r->num_textures++] = tex;
    *id = r->num_textures;
    return MC_OK;
}

mc_status mc_renderer_add_texture(mc_renderer *r, const uint8_t *rgba, int w, int h, size_t stride,
                                  int *id, mc_error *err)
{
    return add_texture(r, rgba, w, h, stride, 0, id, err);
}

mc_status mc_renderer_add_cube_texture(mc_renderer *r, const uint8_t *rgba, int side,
                                       size_t stride, int *id, mc_error *err)
{
    return add_texture(r, rgba, side, side > 0 && side <= INT_MAX / 6 ? 6 * side : 0, stride,
                       1, id, err);
}

/* ---- frames -------------------------------------------------------------------------- */

mc_status mc_renderer_begin(mc_renderer *r, const mc_frame_params *p, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    mc_status s;

    if (r->in_frame)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "a frame is already open");
    if (p->shading != MC_SHADING_LIT && p->shading != MC_SHADING_UNLIT &&
        p->shading != MC_SHADING_NORMALS)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "unknown shading mode %d",
                            (int)p->shading);
    s = gpu_check_lights(r, p, err);
    if (s != MC_OK)
        return s;
    s = make_current(r, err);
    if (s != MC_OK)
        return s;
    r->shading = (int)p->shading;
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->samples > 1 ? r->fbo_ms : r->fbo);
    gl->Viewport(0, 0, r->width, r->height);
    gl->Disable(GL_BLEND);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LEQUAL);
    gl->DepthMask(GL_TRUE);
    gl->Disable(GL_POLYGON_OFFSET_FILL);
    gl->Enable(GL_CULL_FACE);
    gl->CullFace(GL_BACK);
    gl->ClearColor(p->background[0], p->background[1], p->background[2], p->background[3]);
    gl->ClearDepth(1.0);
    gl->ClearStencil(GPU_STENCIL_CLEAR); /* the first shadowed light's, see shadow.c */
    gl->StencilMask(0xff);
    gl->Disable(GL_STENCIL_TEST);
    gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    r->stencil_fresh = 1;
    r->mask_depth = 0;
    r->frame++;
    r->current = 0; /* UseProgram again: the context may have been used elsewhere */
    gpu_frame_values(r, p);
    s = gpu_gl_check(gl, "starting a frame", err);
    if (s != MC_OK)
        return s;
    r->in_frame = 1;
    r->resolved = 0;
    r->used_slots = 0;
    r->unfinished = 0;
    if (r->prof.on) {
        gl->Finish();
        r->prof.last = gpu_now_seconds(r->prof.on == PROF_CPU);
    }
    return MC_OK;
}

/* The normal matrix: the inverse transpose of the model's 3x3, whose columns are the cross
 * products of the model's columns over the determinant. Returns the determinant. */
static float normal_matrix(const float *m, float *n)
{
    const float *c0 = m, *c1 = m + 4, *c2 = m + 8;
    float det;

    n[0] = c1[1] * c2[2] - c1[2] * c2[1];
    n[1] = c1[2] * c2[0] - c1[0] * c2[2];
    n[2] = c1[0] * c2[1] - c1[1] * c2[0];
    n[3] = c2[1] * c0[2] - c2[2] * c0[1];
    n[4] = c2[2] * c0[0] - c2[0] * c0[2];
    n[5] = c2[0] * c0[1] - c2[1] * c0[0];
    n[6] = c0[1] * c1[2] - c0[2] * c1[1];
    n[7] = c0[2] * c1[0] - c0[0] * c1[2];
    n[8] = c0[0] * c1[1] - c0[1] * c1[0];
    det = c0[0] * n[0] + c0[1] * n[1] + c0[2] * n[2];
    if (det != 0.0f)
        for (int i = 0; i < 9; i++)
            n[i] /= det;
    return det;
}

static int stage_rgb_ok(const float *rgb)
{
    return gpu_finite_in(rgb[0], 0.0f, 1.0f) && gpu_finite_in(rgb[1], 0.0f, 1.0f) &&
           gpu_finite_in(rgb[2], 0.0f, 1.0f);
}

static mc_status check_item(const mc_renderer *r, const mc_draw_item *it, mc_error *err)
{
    const char *why = NULL;
    size_t n;

    if (!r->in_frame || r->resolved)
        why = r->in_frame ? "draw after the text overlay" : "draw outside a frame";
    else if (it->vertex_count < 0 || it->vertex_count > MAX_ELEMS || it->triangle_count < 0 ||
             it->triangle_count > MAX_ELEMS)
        why = "vertex or triangle count out of range";
    else if (it->triangle_count && (!it->positions || !it->normals || !it->indices))
        why = "missing positions, normals or indices";
    else if (it->texture > r->num_textures || it->normal_map > r->num_textures ||
             it->specular_map > r->num_textures)
        why = "unknown texture id";
    else if (gpu_is_cube(r, it->texture) || gpu_is_cube(r, it->normal_map) ||
             gpu_is_cube(r, it->specular_map))
        why = "a cube map as an item's diffuse, normal or specular map";
    else if ((it->texture > 0 || it->normal_map > 0 || it->specular_map > 0) && !it->texcoords &&
             it->triangle_count)
        why = "textured item without texture coordinates";
    else if (it->normal_map > 0 && !it->tangents && it->triangle_count)
        why = "normal-mapped item without tangents";
    else if (!gpu_finite_in(it->alpha_test, 0.0f, 1.0f))
        why = "alpha test outside 0..1";
    else if (!gpu_finite_in(it->polygon_offset, -MC_LIMIT_POLYGON_OFFSET, MC_LIMIT_POLYGON_OFFSET))
        why = "bad polygon offset";
    else if (it->stage_colors && (!stage_rgb_ok(it->diffuse_rgb) || !stage_rgb_ok(it->specular_rgb)))
        why = "stage colour outside 0..1";
    else if ((it->material_flags & MC_MTR_TRANSLUCENT) &&
             !gpu_finite_in(it->color[3], 0.0f, 1.0f) && it->texture <= 0)
        why = "translucent colour alpha outside 0..1";
    else if (it->passes < MC_PASSES_ALL || it->passes > MC_PASSES_LIGHTS)
        why = "unknown passes";
    else
        why = gpu_check_stages(r, it);
    if (why)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "%s", why);
    n = (size_t)it->triangle_count * 3;
    for (size_t i = 0; i < n; i++)
        if (it->indices[i] < 0 || it->indices[i] >= it->vertex_count)
            return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0, "triangle %zu uses vertex %d of %d",
                                i / 3, it->indices[i], it->vertex_count);
    return MC_OK;
}

/* Fills buffer *buf (bound to target) with bytes, growing its storage only when needed. */
static void fill_buffer(const mc_gl_fns *gl, GLenum target, GLuint buf, size_t *cap,
                        const void *data, size_t bytes)
{
    gl->BindBuffer(target, buf);
    if (bytes > *cap) {
        size_t grow = *cap + *cap / 2;

        *cap = bytes > grow ? bytes : grow;
        gl->BufferData(target, (GLsizeiptr)*cap, NULL, GL_DYNAMIC_DRAW);
    }
    gl->BufferSubData(target, 0, (GLsizeiptr)bytes, data);
}

/* The next slot of this frame, made on first use. */
static slot *next_slot(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;
    slot *sl;

    if (r->used_slots == r->num_slots) {
        /* grown by doubling: a frame of thousands of items must not copy the array each time */
        if (r->num_slots == r->cap_slots) {
            int cap = r->cap_slots ? 2 * r->cap_slots : 16;
            slot *s = cap > r->cap_slots ? realloc(r->slots, sizeof *s * (size_t)cap) : NULL;

            if (!s)
                return NULL;
            r->slots = s;
            r->cap_slots = cap;
        }
        sl = &r->slots[r->num_slots++];
        memset(sl, 0, sizeof *sl);
        gl->GenVertexArrays(1, &sl->vao);
        gl->GenBuffers(1, &sl->pos);
        gl->GenBuffers(1, &sl->nrm);
        gl->GenBuffers(1, &sl->st);
        gl->GenBuffers(1, &sl->tan);
        gl->GenBuffers(1, &sl->idx);
    }
    return &r->slots[r->used_slots++];
}

static void upload_item(const mc_gl_fns *gl, slot *sl, const mc_draw_item *it)
{
    size_t nv = (size_t)it->vertex_count;
    size_t st_stride = it->texcoord_stride ? it->texcoord_stride : 2 * sizeof(float);

    gl->BindVertexArray(sl->vao);
    fill_buffer(gl, GL_ARRAY_BUFFER, sl->pos, &sl->pos_cap, it->positions, nv * sizeof(mc_vec3));
    gl->EnableVertexAttribArray(0);
    gl->VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(mc_vec3), (const void *)0);
    fill_buffer(gl, GL_ARRAY_BUFFER, sl->nrm, &sl->nrm_cap, it->normals, nv * sizeof(mc_vec3));
    gl->EnableVertexAttribArray(1);
    gl->VertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(mc_vec3), (const void *)0);
    if (it->texcoords && nv) {
        fill_buffer(gl, GL_ARRAY_BUFFER, sl->st, &sl->st_cap, it->texcoords,
                    (nv - 1) * st_stride + 2 * sizeof(float));
        gl->EnableVertexAttribArray(2);
        gl->VertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, (GLsizei)st_stride, (const void *)0);
    } else {
        gl->DisableVertexAttribArray(2);
        gl->VertexAttrib2f(2, 0.0f, 0.0f);
    }
    if (it->tangents && it->normal_map > 0 && nv) {
        fill_buffer(gl, GL_ARRAY_BUFFER, sl->tan, &sl->tan_cap, it->tangents,
                    nv * 4 * sizeof(float));
        gl->EnableVertexAttribArray(3);
        gl->VertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (const void *)0);
    } else {
        gl->DisableVertexAttribArray(3);
        gl->VertexAttrib4f(3, 1.0f, 0.0f, 0.0f, 1.0f);
    }
    fill_buffer(gl, GL_ELEMENT_ARRAY_BUFFER, sl->idx, &sl->idx_cap, it->indices,
                (size_t)it->triangle_count * 3 * sizeof(int));
}

static GLuint texture_of(const mc_renderer *r, int id)
{
    return id > 0 ? r->textures[id - 1] : 0;
}

/* Builds the shader variants an item of variant bits needs this frame. */
static mc_status build_variants(mc_renderer *r, int bits, mc_error *err)
{
    int group = gpu_group_pass(r), shadows = 0;
    mc_status s;

    if (r->shading != MC_SHADING_LIT || r->fv.num_lights == 0)
        return gpu_build_variant(r, bits + P_RIG * V_BITS, err);
    s = gpu_build_variant(r, bits + P_AMBIENT * V_BITS, err);
    if (s == MC_OK)
        s = gpu_build_variant(r, bits + P_LIGHT * V_BITS, err);
    if (s == MC_OK && group >= 0)
        s = gpu_build_variant(r, bits + group * V_BITS, err);
    if (s == MC_OK && group >= 0 && !r->no_fold)
        s = gpu_build_variant(r, bits + P_DEPTH * V_BITS, err);
    for (int l = 0; l < r->fv.num_lights && r->fbo_mask; l++)
        shadows |= r->fv.lights[l].shadows;
    if (s == MC_OK && shadows)
        s = gpu_build_variant(r, bits + P_MASKED * V_BITS, err);
    return s;
}

mc_status mc_renderer_draw(mc_renderer *r, const mc_draw_item *it, mc_error *err)
{
    mc_status s = check_item(r, it, err);
    float det;
    slot *sl;
    draw_state *ds;

    if (s != MC_OK || it->triangle_count == 0 || it->vertex_count == 0)
        return s;
    if (gpu_stopped(r))
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    if (it->texcoord_stride && it->texcoord_stride < 2 * sizeof(float))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "texcoord stride %zu is too small",
                            it->texcoord_stride);
    sl = next_slot(r);
    if (!sl)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for vertex buffers");
    upload_item(&r->gl, sl, it);
    r->gl.BindVertexArray(0);
    ds = &sl->ds;
    det = normal_matrix(it->model.m, ds->nmat);
    gpu_box_of(it->positions, it->vertex_count, it->model.m, &sl->box);
    memcpy(ds->model, it->model.m, sizeof ds->model);
    memcpy(ds->color, it->color, sizeof ds->color);
    for (int c = 0; c < 3; c++) {
        ds->dcol[c] = it->stage_colors ? it->diffuse_rgb[c] : 1.0f;
        ds->scol[c] = it->stage_colors ? it->specular_rgb[c] : 1.0f;
    }
    ds->mask_color = it->mask_color != 0;
    ds->mask_alpha = it->mask_alpha != 0;
    ds->mask_depth = it->mask_depth != 0;
    ds->tex[0] = texture_of(r, it->texture);
    ds->tex[1] = texture_of(r, it->normal_map);
    ds->tex[2] = texture_of(r, it->specular_map);
    ds->alpha_test = it->alpha_test;
    ds->polygon_offset = it->polygon_offset;
    ds->flags = it->material_flags;
    ds->count = it->triangle_count * 3;
    /* The Y flip makes Doom's clockwise fronts counter-clockwise; a mirroring model matrix
     * (negative determinant) swaps them back. */
    ds->front = det < 0.0f ? GL_CW : GL_CCW;
    ds->bits = (ds->tex[1] ? V_NMAP : 0) | (ds->tex[2] ? V_SMAP : 0) |
               (ds->alpha_test > 0.0f ? V_ATEST : 0);
    s = build_variants(r, ds->bits, err);
    if (s != MC_OK)
        return s;
    sl->num_stages = 0;
    if (it->num_stages > 0) {
        if (it->num_stages > sl->cap_stages) {
            mc_render_stage *st = realloc(sl->stages, (size_t)it->num_stages * sizeof *st);

            if (!st)
                return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for stages");
            sl->stages = st;
            sl->cap_stages = it->num_stages;
        }
        memcpy(sl->stages, it->stages, (size_t)it->num_stages * sizeof *sl->stages);
        sl->num_stages = it->num_stages;
    }
    sl->stages_only = it->stages_only != 0 && sl->num_stages > 0;
    /* a translucent item, and a stages-only item of a translucent material, writes no depth
     * and waits for the opaque ones, as Doom sorts translucent surfaces after them */
    sl->late = (ds->flags & MC_MTR_TRANSLUCENT) || (sl->stages_only && sl->stages[0].depth_lequal);
    sl->passes = it->passes;
    /* shadow volumes from the item's triangles (shadow.c); a late item casts none */
    s = gpu_shadow_item(r, sl, it, det, err);
    if (s != MC_OK)
        return s;
    sl->pending = 1; /* drawn when the frame resolves, in Doom's passes */
    return gpu_gl_check(&r->gl, "drawing", err);
}

/* Resolves the multisampled frame into the single-sample framebuffer (once per frame). */
static void resolve(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    if (r->resolved)
        return;
    gpu_draw_opaque(r);
    gpu_draw_opaque_stages(r);
    gpu_draw_translucent(r);
    gpu_prof_mark(r, PROF_STAGES);
    if (r->samples > 1 && !gpu_stopped(r)) {
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
        gl->BlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height,
                            GL_COLOR_BUFFER_BIT, GL_NEAREST);
        gpu_prof_mark(r, PROF_RESOLVE);
    }
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    r->resolved = 1;
}

/* Writes the box quad (dark, translucent) and the letters into r->text_verts; returns the
 * number of quads. text holds printable ASCII only. */
static int text_quads(mc_renderer *r, char *text)
{
    static const unsigned char box_rgba[4] = { 0, 0, 0, 170 };
    unsigned char ink[4] = { 255, 255, 255, 255 }; /* stb takes it non-const */
    /* the box in font units: 2 around the letters, which span rows 0..9 of a 12-row line */
    float x1 = (float)stb_easy_font_width(text) + 1.0f, y1 = 11.0f;
    const float bx[4] = { -2.0f, x1, x1, -2.0f }, by[4] = { -2.0f, -2.0f, y1, y1 };
    unsigned char *v = (unsigned char *)r->text_verts;

    for (int k = 0; k < 4; k++) {
        float xyz[3] = { bx[k] + 2.0f, by[k] + 2.0f, 0.0f };

        memcpy(v + k * 16, xyz, sizeof xyz);
        memcpy(v + k * 16 + 12, box_rgba, 4);
    }
    return 1 + stb_easy_font_print(2.0f, 2.0f, text, ink, v + 64, (TEXT_MAX_QUADS - 1) * 64);
}

/* Copies at most TEXT_MAX_CHARS bytes of text into line, '?' for bytes the font lacks. */
static void clean_text(const char *text, char line[TEXT_MAX_CHARS + 1])
{
    size_t n = 0;

    for (const char *c = text; *c && n < TEXT_MAX_CHARS; c++)
        line[n++] = *c >= 32 && *c <= 126 ? *c : '?';
    line[n] = '\0';
}

void mc_overlay_text_size(const char *text, int scale, int *w, int *h)
{
    char line[TEXT_MAX_CHARS + 1];

    clean_text(text, line);
    *w = (stb_easy_font_width(line) + 3) * scale;
    *h = 13 * scale;
}

mc_status mc_renderer_overlay_text(mc_renderer *r, int x, int y, int scale, const char *text,
                                   mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    char line[TEXT_MAX_CHARS + 1];
    int quads;

    if (!r->in_frame || scale < 1 || scale > 16 || !text)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            r->in_frame ? "bad overlay text or scale %d" : "text outside a frame",
                            scale);
    clean_text(text, line);
    resolve(r);
    quads = text_quads(r, line);
    gl->Viewport(0, 0, r->width, r->height);
    gl->Disable(GL_DEPTH_TEST);
    gl->Disable(GL_CULL_FACE);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->UseProgram(r->text_prog);
    r->current = r->text_prog;
    gl->Uniform2f(r->ut_origin, (float)x, (float)y);
    gl->Uniform1f(r->ut_scale, (float)scale);
    gl->Uniform2f(r->ut_size, (float)r->width, (float)r->height);
    gl->BindVertexArray(r->text_vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, r->text_vbo);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)quads * 64, r->text_verts);
    gl->DrawElements(GL_TRIANGLES, quads * 6, GL_UNSIGNED_SHORT, (const void *)0);
    gl->BindVertexArray(0);
    gl->Disable(GL_BLEND);
    return gpu_gl_check(gl, "drawing the overlay", err);
}

mc_status mc_renderer_end(mc_renderer *r, uint8_t *rgba_out, size_t stride, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;

    if (!r->in_frame)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no frame is open");
    r->in_frame = 0;
    if (!rgba_out || stride % 4 != 0 || stride < (size_t)r->width * 4 ||
        stride / 4 > (size_t)MAX_SIDE * 4)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad output buffer (stride %zu)",
                            stride);
    resolve(r);
    if (gpu_stopped(r)) /* what was drawn stays unread: the frame is abandoned */
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    /* Row 0 of the framebuffer is the image's top row (see the vertex shader). */
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, (GLint)(stride / 4));
    gl->ReadPixels(0, 0, r->width, r->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba_out);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gpu_prof_mark(r, PROF_READ);
    r->prof.frames++;
    return gpu_gl_check(gl, "reading the frame back", err);
}
