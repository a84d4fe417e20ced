/* The GL helpers every pass of the renderer calls (gl_util.h): error checks, program linking,
 * range checks and the pass profile. Below the passes and render.c: it calls none of them. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/render_int.h"

mc_status gpu_gl_check(const mc_gl_fns *gl, const char *what, mc_error *err)
{
    GLenum e = gl->GetError(), first = e;

    if (e == GL_NO_ERROR)
        return MC_OK;
    while (e != GL_NO_ERROR)
        e = gl->GetError();
    if (first == GL_OUT_OF_MEMORY) /* the driver's allocation failed: the machine's limit */
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory (OpenGL) while %s", what);
    return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "OpenGL error 0x%04x while %s", (unsigned)first,
                        what);
}

static mc_status compile(const mc_gl_fns *gl, GLenum type, const char *head, const char *src,
                         const char *more, GLuint *out, mc_error *err)
{
    GLuint sh = gl->CreateShader(type);
    GLint ok = 0;
    char log[256];
    const char *parts[3] = { head, src, more };

    gl->ShaderSource(sh, more ? 3 : 2, parts, NULL);
    gl->CompileShader(sh);
    gl->GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        gl->GetShaderInfoLog(sh, sizeof log, NULL, log);
        gl->DeleteShader(sh);
        log[strcspn(log, "\n")] = '\0';
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "shader does not compile: %s", log);
    }
    *out = sh;
    return MC_OK;
}

mc_status gpu_link_program(const mc_gl_fns *gl, const char *head, const char *vs_src,
                           const char *fs_src, const char *fs_more, GLuint *out, mc_error *err)
{
    GLuint vs = 0, fs = 0, p;
    GLint ok = 0;
    mc_status s = compile(gl, GL_VERTEX_SHADER, head, vs_src, NULL, &vs, err);

    if (s == MC_OK)
        s = compile(gl, GL_FRAGMENT_SHADER, head, fs_src, fs_more, &fs, err);
    if (s != MC_OK) {
        gl->DeleteShader(vs);
        return s;
    }
    p = gl->CreateProgram();
    gl->AttachShader(p, vs);
    gl->AttachShader(p, fs);
    gl->LinkProgram(p);
    gl->DeleteShader(vs);
    gl->DeleteShader(fs);
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        gl->DeleteProgram(p);
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "shader program does not link");
    }
    *out = p;
    return MC_OK;
}

int gpu_finite_in(float v, float lo, float hi)
{
    return v >= lo && v <= hi; /* false for NaN */
}

double gpu_now_seconds(int thread_cpu)
{
    struct timespec ts;

    clock_gettime(thread_cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gpu_drawn(mc_renderer *r, size_t indices)
{
    r->unfinished += indices;
    if (r->unfinished >= GPU_FINISH_INDICES) {
        r->gl.Finish();
        r->unfinished = 0;
    }
}

int gpu_stopped(const mc_renderer *r)
{
    return r->stop && *r->stop;
}

void gpu_prof_mark(mc_renderer *r, int row)
{
    double t;

    if (!r->prof.on)
        return;
    r->gl.Finish();
    t = gpu_now_seconds(r->prof.on == PROF_CPU);
    r->prof.sum[row] += t - r->prof.last;
    r->prof.last = t;
}

void gpu_point_to_model(const draw_state *ds, const float p[3], float out[3])
{
    float d[3];

    for (int c = 0; c < 3; c++)
        d[c] = p[c] - ds->model[12 + c];
    for (int c = 0; c < 3; c++)
        out[c] = ds->nmat[c * 3] * d[0] + ds->nmat[c * 3 + 1] * d[1] + ds->nmat[c * 3 + 2] * d[2];
}

mc_status gpu_texture_room(mc_renderer *r, mc_error *err)
{
    if (r->num_textures == r->cap_textures) {
        int cap = r->cap_textures ? r->cap_textures * 2 : 16;
        GLuint *t = realloc(r->textures, sizeof *t * (size_t)cap);
        unsigned char *c;

        if (t)
            r->textures = t;
        c = t ? realloc(r->cube_textures, (size_t)cap) : NULL;
        if (!c)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for textures");
        r->cube_textures = c;
        r->cap_textures = cap;
    }
    return MC_OK;
}

bool gpu_is_cube(const mc_renderer *r, int id)
{
    return id > 0 && id <= r->num_textures && r->cube_textures[id - 1];
}

/* render.h; here beside the texture ids' room, which render.c fills */
mc_status mc_renderer_texture_clamp(mc_renderer *r, int id, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;

    if (r->in_frame)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "a frame is open");
    if (id < 1 || id > r->num_textures || r->cube_textures[id - 1])
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "unknown texture id %d", id);
    gl->BindTexture(GL_TEXTURE_2D, r->textures[id - 1]);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    return MC_OK;
}
