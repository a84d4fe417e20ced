/* Renderer and PNG writer figures: ms per frame to draw a textured, lit mesh the size of a
 * skinned character (re-uploaded every frame, as skinning does) plus readback, at 720p and
 * 1080p with and without 4x MSAA, through EGL and through OSMesa in one run (with their ratio);
 * the same mesh at 720p lit by the camera rig, by two point lights (Doom's interaction), and by
 * two lights with normal and specular maps and alpha test, for what each costs;
 * then PNG encoding of those frames by mc_png_encode
 * (stb_image_write with zlib level 1, Z_RLE, as its deflate) against stb_image_write's own
 * deflate, in CPU ms per frame.
 *
 *   cmake --build build --target render_bench && build/bench/render_bench [frames [prefix]]
 *   build/bench/render_bench --png FILE...      (the PNG figures only, for existing frames)
 *
 * With a prefix, the last 720p and 1080p frames are written to <prefix>-720.png / -1080.png.
 *
 * Prints medians; asserts nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <md5cine/image.h>
#include <md5cine/render.h>

#include "bench_util.h"

/* A second, file-local stb_image_write without the zlib hook: its own PNG path (fixed-Huffman
 * deflate, level 8, adaptive filters), for comparison only. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop
#pragma GCC diagnostic ignored "-Wunused-function" /* reported at the end of the file */

#define GRID_U 160 /* 160 x 64 x 2 = 20480 triangles */
#define GRID_V 64
#define NV     ((GRID_U + 1) * (GRID_V + 1))
#define NT     (GRID_U * GRID_V * 2)

typedef struct mesh {
    mc_vec3 pos[NV], nrm[NV];
    float st[NV * 2];
    float tan[NV * 4]; /* along s (d/dphi), w = +1 */
    int idx[NT * 3];
} mesh;

/* The mesh as a draw item with the identity model matrix and the texture tex. */
static mc_draw_item mesh_item(const mesh *m, int tex)
{
    mc_draw_item it;

    memset(&it, 0, sizeof it);
    it.model.m[0] = it.model.m[5] = it.model.m[10] = it.model.m[15] = 1.0f;
    it.positions = m->pos;
    it.normals = m->nrm;
    it.texcoords = m->st;
    it.vertex_count = NV;
    it.indices = m->idx;
    it.triangle_count = NT;
    it.texture = tex;
    return it;
}

/* A bumpy sphere of radius ~40 at (120, 0, 40): a character-sized blob filling the middle of
 * the frame. Wound clockwise seen from outside; normals from the sphere. */
static void make_mesh(mesh *m)
{
    int t = 0;

    for (int j = 0; j <= GRID_V; j++)
        for (int i = 0; i <= GRID_U; i++) {
            float th = 3.14159265f * (float)j / GRID_V, ph = 6.2831853f * (float)i / GRID_U;
            mc_vec3 n = { sinf(th) * cosf(ph), sinf(th) * sinf(ph), cosf(th) };
            float rad = 40.0f + 2.0f * sinf(7.0f * ph) * sinf(5.0f * th);
            int k = j * (GRID_U + 1) + i;

            m->nrm[k] = n;
            m->pos[k] = (mc_vec3){ 120.0f + rad * n.x, rad * n.y, 40.0f + rad * n.z };
            m->st[k * 2] = 4.0f * (float)i / GRID_U;
            m->st[k * 2 + 1] = 2.0f * (float)j / GRID_V;
            m->tan[k * 4] = -sinf(ph);
            m->tan[k * 4 + 1] = cosf(ph);
            m->tan[k * 4 + 2] = 0.0f;
            m->tan[k * 4 + 3] = 1.0f;
        }
    for (int j = 0; j < GRID_V; j++)
        for (int i = 0; i < GRID_U; i++) {
            int a = j * (GRID_U + 1) + i, b = a + 1, c = a + GRID_U + 1, d = c + 1;
            /* (a, c, b) is clockwise seen from outside for this parametrisation */
            int q[6] = { a, c, b, b, c, d };

            memcpy(&m->idx[t * 3], q, sizeof q);
            t += 2;
        }
}

/* Camera at (0, 0, 40) looking down +X (Doom axis -> GL: eye = (-y, z - 40, -x)), fov 90. */
static void camera(int w, int h, mc_frame_params *p)
{
    memset(p, 0, sizeof *p);
    p->view.m[4] = -1.0f;
    p->view.m[9] = 1.0f;
    p->view.m[13] = -40.0f;
    p->view.m[2] = -1.0f;
    p->view.m[15] = 1.0f;
    p->proj.m[0] = 1.0f;
    p->proj.m[5] = (float)w / (float)h;
    p->proj.m[10] = -0.999f;
    p->proj.m[11] = -1.0f;
    p->proj.m[14] = -2.0f;
    p->background[0] = 0.05f;
    p->background[1] = 0.05f;
    p->background[2] = 0.08f;
    p->background[3] = 1.0f;
    p->shading = MC_SHADING_LIT;
}

static int add_checker(mc_renderer *r, int *id)
{
    static uint8_t tex[256 * 256 * 4];
    mc_error err;

    for (int y = 0; y < 256; y++)
        for (int x = 0; x < 256; x++) {
            uint8_t *p = tex + ((size_t)y * 256 + (size_t)x) * 4;
            int on = ((x / 32) ^ (y / 32)) & 1;

            p[0] = (uint8_t)(on ? 200 : 60 + x / 4);
            p[1] = (uint8_t)(on ? 180 : 40);
            p[2] = (uint8_t)(on ? 150 : 30 + y / 4);
            p[3] = 255;
        }
    if (mc_renderer_add_texture(r, tex, 256, 256, 1024, id, &err) != MC_OK) {
        fprintf(stderr, "texture: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Times frames frames of begin, draw (when it is not NULL), overlay and end; returns the
 * median ms per frame and stores the first frame's ms in *first. */
static double time_frames(mc_renderer *r, const mc_frame_params *p, const mc_draw_item *it,
                          int frames, uint8_t *out, size_t stride, double *first)
{
    double *t = malloc(sizeof(double) * (size_t)frames), med;
    mc_error err;

    if (!t)
        exit(1);
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now() * 1e3;
        mc_status s = mc_renderer_begin(r, p, &err);

        if (s == MC_OK && it)
            s = mc_renderer_draw(r, it, &err);
        if (s == MC_OK && it)
            s = mc_renderer_overlay_text(r, 8, 8, 2, "frame 000123  00:00:05:03  shot 2", &err);
        if (s == MC_OK)
            s = mc_renderer_end(r, out, stride, &err);
        if (s != MC_OK) {
            fprintf(stderr, "render_bench: %s\n", err.msg);
            exit(1);
        }
        if (f < 0)
            *first = bench_now() * 1e3 - t0;
        else
            t[f] = bench_now() * 1e3 - t0;
    }
    med = bench_median(t, frames);
    free(t);
    return med;
}

/* Prints ms per frame for the mesh (upload, draw, overlay, resolve, readback) and for an empty
 * frame (clear, resolve, readback). llvmpipe defers drawing to the readback, so only the
 * whole frame is a meaningful figure. Leaves the last mesh frame in out. */
/* ms per frame for one backend and setting; a negative value when the backend cannot start. */
static double bench_render(const mesh *m, int w, int h, int msaa, mc_gl_backend gl, int frames,
                           uint8_t *out)
{
    mc_renderer_desc d = { .width = w, .height = h, .msaa = msaa, .backend = gl };
    mc_renderer_info info;
    mc_frame_params p;
    mc_renderer *r;
    mc_draw_item it;
    mc_error err;
    double first = 0.0, empty_first = 0.0, full, empty;
    int tex = 0;

    if (mc_renderer_create(&d, &r, &err) != MC_OK) {
        printf("render %4dx%-4d msaa %d: no such backend here (%s)\n", w, h, msaa, err.msg);
        return -1.0;
    }
    if (!add_checker(r, &tex)) {
        fprintf(stderr, "render_bench: cannot set up %dx%d\n", w, h);
        exit(1);
    }
    mc_renderer_get_info(r, &info);
    camera(w, h, &p);
    it = mesh_item(m, tex);
    empty = time_frames(r, &p, NULL, frames, out, (size_t)w * 4, &empty_first);
    full = time_frames(r, &p, &it, frames, out, (size_t)w * 4, &first);
    printf("render %4dx%-4d msaa %d %-6s: %6.2f ms/frame (first %5.1f ms); empty frame %5.2f ms\n",
           w, h, msaa, info.backend, full, first, empty);
    mc_renderer_release(r);
    return full;
}

/* The same frames through EGL and through OSMesa, one after the other, and their ratio. */
static void bench_backends(const mesh *m, int w, int h, int msaa, int frames, uint8_t *out)
{
    double egl = bench_render(m, w, h, msaa, MC_GL_EGL, frames, out);
    double osmesa = bench_render(m, w, h, msaa, MC_GL_OSMESA, frames, out);

    if (egl > 0.0 && osmesa > 0.0)
        printf("render %4dx%-4d msaa %d: egl / osmesa = %.3f\n", w, h, msaa, egl / osmesa);
}

/* A 64x64 texture of one colour whose RGB varies with a bump pattern (a normal map tilted
 * +-0.3 in x and y) or is a grey (specular). */
static int add_map(mc_renderer *r, int normal, int *id)
{
    static uint8_t tex[64 * 64 * 4];
    mc_error err;

    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *p = tex + ((size_t)y * 64 + (size_t)x) * 4;
            float tx = 0.3f * sinf((float)x * 0.4f), ty = 0.3f * cosf((float)y * 0.4f);
            float tz = sqrtf(1.0f - tx * tx - ty * ty);

            p[0] = (uint8_t)(normal ? 127.5f + 127.0f * tx : 90);
            p[1] = (uint8_t)(normal ? 127.5f + 127.0f * ty : 90);
            p[2] = (uint8_t)(normal ? 127.5f + 127.0f * tz : 90);
            p[3] = 255;
        }
    if (mc_renderer_add_texture(r, tex, 64, 64, 256, id, &err) != MC_OK) {
        fprintf(stderr, "texture: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* The camera rig, two point lights, and two lights with normal, specular maps and alpha test
 * (nothing discarded: the texture is opaque) on the default backend. */
static void bench_interaction(const mesh *m, int w, int h, int msaa, int frames, uint8_t *out)
{
    static const mc_light lights[2] = { { { 40, 80, 120 }, { 1.6f, 1.6f, 1.6f }, 600 },
                                        { { 40, -90, 50 }, { 0.5f, 0.5f, 0.5f }, 600 } };
    static const char *const what[3] = { "camera rig", "2 lights", "2 lights + maps" };
    mc_renderer_desc d = { .width = w, .height = h, .msaa = msaa };
    mc_frame_params p;
    mc_renderer *r;
    mc_draw_item it;
    mc_error err;
    double first = 0.0, ms[3];
    int tex = 0, nmap = 0, smap = 0;

    if (mc_renderer_create(&d, &r, &err) != MC_OK) {
        printf("interaction: no renderer (%s)\n", err.msg);
        return;
    }
    if (!add_checker(r, &tex) || !add_map(r, 1, &nmap) || !add_map(r, 0, &smap))
        exit(1);
    camera(w, h, &p);
    it = mesh_item(m, tex);
    ms[0] = time_frames(r, &p, &it, frames, out, (size_t)w * 4, &first);
    p.lights = lights;
    p.num_lights = 2;
    p.ambient[0] = p.ambient[1] = p.ambient[2] = 0.2f;
    ms[1] = time_frames(r, &p, &it, frames, out, (size_t)w * 4, &first);
    it.normal_map = nmap;
    it.specular_map = smap;
    it.tangents = m->tan;
    it.alpha_test = 0.5f;
    ms[2] = time_frames(r, &p, &it, frames, out, (size_t)w * 4, &first);
    for (int k = 0; k < 3; k++)
        printf("interaction %4dx%-4d msaa %d %-16s: %6.2f ms/frame (%.2fx the rig)\n", w, h, msaa,
               what[k], ms[k], ms[k] / ms[0]);
    mc_renderer_release(r);
}

typedef struct stb_sink {
    size_t bytes;
} stb_sink;

static void stb_count(void *ctx, void *data, int size)
{
    (void)data;
    ((stb_sink *)ctx)->bytes += (size_t)size;
}

/* CPU time of this thread: the encoders are single-threaded, and on a shared machine this is
 * steadier than wall time. */
static double cpu_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Median CPU ms of stb_image_write's own PNG path (its deflate at level 8) on n-channel rows
 * stride bytes apart; *bytes gets the PNG's size. */
static double time_stb(const uint8_t *px, int w, int h, int n, int stride, int reps, double *t,
                       size_t *bytes)
{
    stb_sink sink = { 0 };

    for (int k = 0; k < reps; k++) {
        double t0 = cpu_ms();

        sink.bytes = 0;
        stbi_write_png_to_func(stb_count, &sink, w, h, n, px, stride);
        t[k] = cpu_ms() - t0;
    }
    *bytes = sink.bytes;
    return bench_median(t, reps);
}

/* Median CPU ms of mc_png_encode (stb_image_write with zlib as its deflate) on RGBA rows. */
static double time_mc(const uint8_t *img, int w, int h, int alpha, int reps, double *t,
                      mc_png_buf *buf)
{
    mc_error err;

    for (int k = 0; k < reps; k++) {
        double t0 = cpu_ms();

        if (mc_png_encode(img, w, h, (size_t)w * 4, alpha, buf, &err) != MC_OK) {
            fprintf(stderr, "render_bench: %s\n", err.msg);
            exit(1);
        }
        t[k] = cpu_ms() - t0;
    }
    return bench_median(t, reps);
}

/* PNG encoding of one RGBA frame, RGBA and RGB (what 'md5cine render' writes by default):
 * stb_image_write's own deflate against mc_png_encode. The RGB copy for stb is made outside
 * its timing; mc_png_encode's time includes its own copy. */
static void bench_png(const uint8_t *img, int w, int h, int reps)
{
    double *t = malloc(sizeof(double) * (size_t)reps);
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    mc_png_buf buf = { 0 };
    size_t stb_bytes;
    double stb_ms, ms;

    if (!t || !rgb)
        exit(1);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        memcpy(rgb + i * 3, img + i * 4, 3);
    for (int alpha = 1; alpha >= 0; alpha--) {
        const char *kind = alpha ? "RGBA" : "RGB ";

        stb_ms = alpha ? time_stb(img, w, h, 4, w * 4, reps, t, &stb_bytes)
                       : time_stb(rgb, w, h, 3, w * 3, reps, t, &stb_bytes);
        ms = time_mc(img, w, h, alpha, reps, t, &buf);
        printf("png %4dx%-4d %s stb_image_write deflate: %6.1f ms %8zu bytes\n", w, h, kind, stb_ms,
               stb_bytes);
        printf("png %4dx%-4d %s stb + zlib 1 Z_RLE    : %6.1f ms %8zu bytes  stb/ours: time "
               "%.2fx, bytes %.2fx\n",
               w, h, kind, ms, buf.len, stb_ms / ms, (double)stb_bytes / (double)buf.len);
    }
    mc_png_buf_release(&buf);
    free(rgb);
    free(t);
}

/* --png FILE...: the PNG figures for existing frames (rendered scenes, say) instead of the
 * synthetic mesh. */
static int bench_png_files(int n, char **paths)
{
    for (int i = 0; i < n; i++) {
        mc_image img;
        mc_error err;

        if (mc_image_load(paths[i], &img, &err) != MC_OK) {
            fprintf(stderr, "render_bench: %s\n", err.msg);
            return 1;
        }
        printf("%s\n", paths[i]);
        bench_png(img.pixels, img.width, img.height, 5);
        mc_image_release(&img);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 30;
    static const int sizes[2][2] = { { 1280, 720 }, { 1920, 1080 } };
    mesh *m = malloc(sizeof *m);
    uint8_t *img = malloc((size_t)1920 * 1080 * 4);

    if (argc > 1 && strcmp(argv[1], "--png") == 0) {
        free(m);
        free(img);
        return bench_png_files(argc - 2, argv + 2);
    }
    if (!m || !img || frames < 1)
        return 1;
    make_mesh(m);
    printf("mesh: %d vertices, %d triangles, 256x256 texture, lit, overlay text\n", NV, NT);
    bench_interaction(m, 1280, 720, 4, frames, img);
    for (int s = 0; s < 2; s++) {
        bench_backends(m, sizes[s][0], sizes[s][1], 1, frames, img);
        bench_backends(m, sizes[s][0], sizes[s][1], 4, frames, img);
        bench_png(img, sizes[s][0], sizes[s][1], frames < 10 ? frames : 10);
        if (argc > 2) { /* keep the frame for a look or for other PNG experiments */
            char path[4096];
            mc_error err;

            snprintf(path, sizeof path, "%s-%d.png", argv[2], sizes[s][1]);
            if (mc_png_write(path, img, sizes[s][0], sizes[s][1], (size_t)sizes[s][0] * 4, 1,
                             &err) != MC_OK)
                fprintf(stderr, "render_bench: %s\n", err.msg);
        }
    }
    free(m);
    free(img);
    return 0;
}
