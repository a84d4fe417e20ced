/* The renderer, checked against pictures worked out by hand.
 *
 * Every scene uses a camera at the origin with Doom's identity axis (forward +X, left +Y,
 * up +Z), built here from the semantics reference (6.2, 6.3) without the library's math:
 *   view: eye = (-y, z, -x);  projection: fov_x = 90 deg so P[0] = 1, and for a 160x120 image
 *   tan(fov_y / 2) = 120/160 * tan(45 deg) = 0.75 so P[5] = 4/3; near 1, infinite far.
 * A point (100, y, z) then lands at ndc x = -y / 100, ndc y = (4/3) z / 100, i.e. at image
 * column 80 * (1 - y / 100) and row 60 - 0.8 z (rows counted from the top):
 *   (100,  50,  50) -> column  40, row  20        (100, -50,  50) -> column 120, row  20
 *   (100,  50, -50) -> column  40, row 100        (100, -50, -50) -> column 120, row 100
 * so world +Y is on the image's left and +Z at the top.
 *
 * Golden PNGs in golden/render_*.png catch regressions in what the hand checks do not pin
 * down (edges, antialiasing, lighting gradients, the font). Run with MC_UPDATE_GOLDEN=1 to
 * rewrite them after a deliberate change; the hand checks must pass either way. */
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <md5cine/image.h>
#include <md5cine/render.h>

#include "test.h"

extern char **environ;

#define W 160
#define H 120

static mc_mat4 hand_view(void)
{
    mc_mat4 v = { { 0 } };

    /* rows (-L, U, -F) with L = +Y, U = +Z, F = +X; element (row r, col c) at m[c * 4 + r] */
    v.m[4] = -1.0f; /* row 0: -L */
    v.m[9] = 1.0f;  /* row 1: U */
    v.m[2] = -1.0f; /* row 2: -F */
    v.m[15] = 1.0f;
    return v;
}

static mc_mat4 hand_proj(void)
{
    mc_mat4 p = { { 0 } };

    p.m[0] = 1.0f;
    p.m[5] = 4.0f / 3.0f;
    p.m[10] = -0.999f;
    p.m[11] = -1.0f;
    p.m[14] = -2.0f;
    return p;
}

static mc_mat4 identity(void)
{
    mc_mat4 m = { { 0 } };

    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    return m;
}

static mc_frame_params frame(mc_shading shading, float bg_alpha)
{
    mc_frame_params p;

    memset(&p, 0, sizeof p);
    p.view = hand_view();
    p.proj = hand_proj();
    p.background[2] = 0.2f; /* (0, 0, 51) */
    p.background[3] = bg_alpha;
    p.shading = shading;
    return p;
}

static const uint8_t *px_at(const uint8_t *img, int col, int row)
{
    return img + ((size_t)row * W + (size_t)col) * 4;
}

/* A renderer of W x H with the given MSAA. */
static mc_renderer *make_renderer(int msaa)
{
    mc_renderer_desc d;
    mc_renderer *r = NULL;
    mc_error err;

    memset(&d, 0, sizeof d);
    d.width = W;
    d.height = H;
    d.msaa = msaa;
    EXPECT_OK(mc_renderer_create(&d, &r, &err), &err);
    return r;
}

/* The backends of this build (tests/CMakeLists.txt passes the build's options). */
#ifdef MC_TEST_HAVE_OSMESA
#define HAVE_OSMESA 1
#else
#define HAVE_OSMESA 0
#endif
#ifdef MC_TEST_HAVE_EGL
#define HAVE_EGL 1
#else
#define HAVE_EGL 0
#endif

/* Puts MD5CINE_GL (which narrows MC_GL_AUTO) back as the suite was started with. */
static char start_gl_env[32];
static void restore_gl_env(void)
{
    if (start_gl_env[0])
        setenv("MD5CINE_GL", start_gl_env, 1);
    else
        unsetenv("MD5CINE_GL");
}

/* ---- the one-triangle scene ---------------------------------------------------------- */

static const mc_vec3 tri_pos[3] = { { 100, 50, 50 }, { 100, -50, 50 }, { 100, 50, -50 } };
static const mc_vec3 tri_nrm[3] = { { -1, 0, 0 }, { -1, 0, 0 }, { -1, 0, 0 } };
/* Image positions (40, 20) -> (120, 20) -> (40, 100): with rows growing downwards the cross
 * product (80, 0) x (0, 80) = +6400 means clockwise on screen, Doom's front face. */
static const int tri_cw[3] = { 0, 1, 2 };
static const int tri_ccw[3] = { 0, 2, 1 };

static mc_draw_item triangle_item(const int *indices)
{
    mc_draw_item it;

    memset(&it, 0, sizeof it);
    it.model = identity();
    it.positions = tri_pos;
    it.normals = tri_nrm;
    it.vertex_count = 3;
    it.indices = indices;
    it.triangle_count = 1;
    it.color[0] = 1.0f;
    it.color[1] = 0.5f;
    it.color[2] = 0.25f;
    return it;
}

/* Renders the triangle unlit into out (W * H * 4 bytes). */
static int render_triangle(mc_renderer *r, const int *indices, float bg_alpha, uint8_t *out)
{
    mc_frame_params p = frame(MC_SHADING_UNLIT, bg_alpha);
    mc_draw_item it = triangle_item(indices);
    mc_error err;

    if (mc_renderer_begin(r, &p, &err) != MC_OK)
        return test_fail(__FILE__, __LINE__, "begin: %s", err.msg);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, out, W * 4, &err), &err);
    return 1;
}

/* Pixel (col, row)'s centre is inside the triangle (column >= 40, row >= 20, column + row
 * <= 140) by at least margin pixels: +1; outside by margin: -1; near an edge: 0. */
static int triangle_side(int col, int row, float margin)
{
    float x = (float)col + 0.5f, y = (float)row + 0.5f;
    /* signed distances to the three edges, positive inside */
    float d1 = x - 40.0f, d2 = y - 20.0f, d3 = (140.0f - x - y) / sqrtf(2.0f);
    float d = fminf(d1, fminf(d2, d3));

    return d >= margin ? 1 : d <= -margin ? -1 : 0;
}

/* Counts pixels that contradict the hand-computed coverage: inside must be the item colour
 * (255, 128, 64, 255), outside the background (0, 0, 51, bg_a). */
static int coverage_errors(const uint8_t *img, int bg_a)
{
    int bad = 0;

    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            const uint8_t *p = px_at(img, col, row);
            int side = triangle_side(col, row, 1.5f);

            if (side > 0)
                bad += abs(p[0] - 255) > 1 || abs(p[1] - 128) > 1 || abs(p[2] - 64) > 1 ||
                       p[3] != 255;
            else if (side < 0)
                bad += p[0] != 0 || p[1] != 0 || abs(p[2] - 51) > 1 || p[3] != bg_a;
        }
    return bad;
}

/* ---- goldens ------------------------------------------------------------------------- */

/* Compares img with golden/<name>: at most 0.5% of pixels may differ by more than 3 levels
 * in some channel. With MC_UPDATE_GOLDEN set, rewrites the golden instead. */
static void check_golden(const char *name, const uint8_t *img)
{
    const char *update = getenv("MC_UPDATE_GOLDEN");
    char path[256];
    mc_image g;
    mc_error err;
    int bad = 0;

    snprintf(path, sizeof path, "golden/%s", name);
    if (update && *update) {
        EXPECT_OK(mc_png_write(path, img, W, H, W * 4, 1, &err), &err);
        return;
    }
    ASSERT_OK(mc_image_load(path, &g, &err), &err);
    EXPECT_EQ_INT(g.width, W);
    EXPECT_EQ_INT(g.height, H);
    for (size_t i = 0; g.width == W && g.height == H && i < (size_t)W * H; i++)
        for (int c = 0; c < 4; c++)
            if (abs(img[i * 4 + (size_t)c] - g.pixels[i * 4 + (size_t)c]) > 3) {
                bad++;
                break;
            }
    if (bad > W * H / 200)
        test_fail(__FILE__, __LINE__, "%s: %d pixels differ by more than 3 levels", name, bad);
    mc_image_release(&g);
}

/* ---- tests --------------------------------------------------------------------------- */

/* Runs this test binary again with GALLIUM_DRIVER=softpipe and only the named case; returns
 * its exit status (or -1). */
static int run_self_with_softpipe(const char *case_name)
{
    char prog[] = "render_test", name[128];
    char *const args[] = { prog, name, NULL };
    const char *old = getenv("GALLIUM_DRIVER");
    char saved[64] = "";
    int status = -1, rc;
    pid_t pid;

    snprintf(name, sizeof name, "%s", case_name);
    if (old)
        snprintf(saved, sizeof saved, "%s", old);
    setenv("GALLIUM_DRIVER", "softpipe", 1);
    fflush(NULL);
    rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ);
    if (old)
        setenv("GALLIUM_DRIVER", saved, 1);
    else
        unsetenv("GALLIUM_DRIVER");
    if (rc != 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void count_warning(void *user, const mc_error *w)
{
    EXPECT_EQ_INT(w->code, MC_ERR_GL);
    EXPECT_CONTAINS(w->msg, "MSAA");
    ++*(int *)user;
}

static void triangle_covers_the_hand_computed_pixels(void)
{
    static uint8_t img[W * H * 4];
    mc_renderer *r = make_renderer(4);

    ASSERT(r);
    if (render_triangle(r, tri_cw, 1.0f, img)) {
        EXPECT_EQ_INT(coverage_errors(img, 255), 0);
        /* orientation: the right angle (world +Y, +Z) is at the image's top LEFT */
        EXPECT_EQ_INT(px_at(img, 45, 25)[0], 255);  /* near (40, 20): inside */
        EXPECT_EQ_INT(px_at(img, 108, 24)[0], 255); /* near (120, 20): inside */
        EXPECT_EQ_INT(px_at(img, 44, 88)[0], 255);  /* near (40, 100): inside */
        EXPECT_EQ_INT(px_at(img, 114, 94)[0], 0);   /* near (120, 100): outside */
        check_golden("render_triangle.png", img);
    }
    mc_renderer_release(r);
}

static void reversed_winding_is_culled(void)
{
    static uint8_t img[W * H * 4];
    mc_renderer *r = make_renderer(4);
    int drawn = 0;

    ASSERT(r);
    if (render_triangle(r, tri_ccw, 1.0f, img))
        for (size_t i = 0; i < (size_t)W * H; i++)
            drawn += img[i * 4] != 0;
    EXPECT_EQ_INT(drawn, 0);
    mc_renderer_release(r);
}

static void triangle_without_msaa_covers_the_same_pixels(void)
{
    static uint8_t img[W * H * 4];
    mc_renderer *r = make_renderer(1);
    mc_renderer_info info;

    ASSERT(r);
    mc_renderer_get_info(r, &info);
    EXPECT_EQ_INT(info.samples, 1);
    if (render_triangle(r, tri_cw, 1.0f, img))
        EXPECT_EQ_INT(coverage_errors(img, 255), 0);
    mc_renderer_release(r);
}

static void msaa_smooths_the_slanted_edge(void)
{
    static uint8_t on[W * H * 4], off[W * H * 4];
    mc_renderer *a = make_renderer(4), *b = make_renderer(1);
    mc_renderer_info info;
    int partial_on = 0, partial_off = 0;

    ASSERT(a && b);
    mc_renderer_get_info(a, &info);
    EXPECT_EQ_INT(info.samples, 4); /* llvmpipe offers 4 (GL_MAX_SAMPLES) */
    render_triangle(a, tri_cw, 1.0f, on);
    render_triangle(b, tri_cw, 1.0f, off);
    /* On the hypotenuse, 4 samples give in-between reds; 1 sample gives only 0 or 255. */
    for (int row = 20; row < 100; row++)
        for (int col = 40; col < 120; col++) {
            partial_on += px_at(on, col, row)[0] > 0 && px_at(on, col, row)[0] < 255;
            partial_off += px_at(off, col, row)[0] > 0 && px_at(off, col, row)[0] < 255;
        }
    EXPECT(partial_on >= 40); /* the 80-pixel diagonal crosses ~80 pixels */
    EXPECT_EQ_INT(partial_off, 0);
    mc_renderer_release(a);
    mc_renderer_release(b);
}

static void transparent_background_has_alpha_zero(void)
{
    static uint8_t img[W * H * 4];
    mc_renderer *r = make_renderer(4);

    ASSERT(r);
    if (render_triangle(r, tri_cw, 0.0f, img)) {
        EXPECT_EQ_INT(coverage_errors(img, 0), 0);
        EXPECT_EQ_INT(px_at(img, 2, 2)[3], 0);
        EXPECT_EQ_INT(px_at(img, 50, 30)[3], 255);
    }
    mc_renderer_release(r);
}

static void same_input_gives_identical_pixels(void)
{
    static uint8_t a[W * H * 4], b[W * H * 4];
    mc_renderer *r = make_renderer(4);

    ASSERT(r);
    render_triangle(r, tri_cw, 1.0f, a);
    render_triangle(r, tri_cw, 1.0f, b);
    EXPECT(memcmp(a, b, sizeof a) == 0);
    mc_renderer_release(r);
}

/* A quad over the same square, two clockwise triangles, st (0, 0) at the top-left corner. */
static const mc_vec3 quad_pos[4] = {
    { 100, 50, 50 }, { 100, -50, 50 }, { 100, 50, -50 }, { 100, -50, -50 }
};
static const mc_vec3 quad_nrm[4] = { { -1, 0, 0 }, { -1, 0, 0 }, { -1, 0, 0 }, { -1, 0, 0 } };
static const float quad_st[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
/* (40,20) (120,20) (40,100) and (120,20) (120,100) (40,100): both +6400, clockwise */
static const int quad_idx[6] = { 0, 1, 2, 1, 3, 2 };

static mc_draw_item quad_item(int texture)
{
    mc_draw_item it;

    memset(&it, 0, sizeof it);
    it.model = identity();
    it.positions = quad_pos;
    it.normals = quad_nrm;
    it.texcoords = quad_st;
    it.vertex_count = 4;
    it.indices = quad_idx;
    it.triangle_count = 2;
    it.texture = texture;
    it.color[0] = it.color[1] = it.color[2] = 0.5f;
    return it;
}

static void texture_top_row_is_at_t_zero(void)
{
    /* top row first: red, green / blue, white */
    static const uint8_t tex[16] = { 255, 0, 0,   255, 0,   255, 0,   255,
                                     0,   0, 255, 255, 255, 255, 255, 255 };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_draw_item it;
    mc_error err;
    int id = 0;

    ASSERT(r);
    ASSERT_OK(mc_renderer_add_texture(r, tex, 2, 2, 8, &id, &err), &err);
    EXPECT(id >= 1);
    it = quad_item(id);
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    /* Quadrant centres (60, 40), (100, 40), (60, 80), (100, 80) sample st close to the texel
     * centres (0.25, 0.25) ... : within 3% of the texel colour under bilinear filtering. */
    {
        static const int at[4][2] = { { 60, 40 }, { 100, 40 }, { 60, 80 }, { 100, 80 } };

        for (int q = 0; q < 4; q++)
            for (int c = 0; c < 3; c++)
                EXPECT_NEAR(px_at(img, at[q][0], at[q][1])[c], tex[q * 4 + c], 8);
    }
    check_golden("render_textured.png", img);
    mc_renderer_release(r);
}

static void normals_mode_shows_the_world_normal(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_NORMALS, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_draw_item it = quad_item(0);
    mc_error err;
    const uint8_t *c;

    ASSERT(r);
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    /* normal (-1, 0, 0) -> colour (0, 0.5, 0.5) -> (0, 127.5, 127.5) */
    c = px_at(img, 80, 60);
    EXPECT_NEAR(c[0], 0, 1);
    EXPECT_NEAR(c[1], 127.5, 1);
    EXPECT_NEAR(c[2], 127.5, 1);
    mc_renderer_release(r);
}

/* The lighting model by hand for the quad's centre (normal towards the camera, eye-space
 * n = (0, 0, 1)): key = (-0.45, 0.55, 0.70) / 0.99750, so n.key = 0.70175; fill =
 * (0.85, 0.05, 0.50) / 0.98742, n.fill = 0.50637; diffuse = 0.25 + 0.70 * 0.70175 + 0.25 *
 * 0.50637 = 0.86782. Half vector of key and view (0, 0, 1): (-0.4511, 0.5514, 1.70175) / 1.84486,
 * n.h = 0.92243, 0.92243^32 = 0.0755, specular 0.1 * 0.0755 = 0.00755. Base 0.5 gives
 * 0.5 * 0.86782 + 0.00755 = 0.44146 -> 112.6 of 255. */
static void lit_quad_centre_matches_the_lighting_model(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_draw_item it = quad_item(0);
    mc_error err;

    ASSERT(r);
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    for (int c = 0; c < 3; c++)
        EXPECT_NEAR(px_at(img, 80, 60)[c], 112.6, 2);
    mc_renderer_release(r);
}

/* A UV sphere of radius 30 at (100, 0, 0), wound so that (c - a) x (b - a) points outwards
 * (Doom's face normal for clockwise triangles), normals = (p - centre) / 30. */
#define SPH_U 32
#define SPH_V 16
static void make_sphere(mc_vec3 *pos, mc_vec3 *nrm, int *idx)
{
    int t = 0;

    for (int j = 0; j <= SPH_V; j++)
        for (int i = 0; i <= SPH_U; i++) {
            float th = 3.14159265f * (float)j / SPH_V, ph = 6.2831853f * (float)i / SPH_U;
            mc_vec3 n = { sinf(th) * cosf(ph), sinf(th) * sinf(ph), cosf(th) };
            int k = j * (SPH_U + 1) + i;

            nrm[k] = n;
            pos[k] = (mc_vec3){ 100.0f + 30.0f * n.x, 30.0f * n.y, 30.0f * n.z };
        }
    for (int j = 0; j < SPH_V; j++)
        for (int i = 0; i < SPH_U; i++) {
            int a = j * (SPH_U + 1) + i, b = a + 1, c = a + SPH_U + 1, d = c + 1;
            int q[2][3] = { { a, b, c }, { b, d, c } };

            for (int h = 0; h < 2; h++) {
                mc_vec3 A = pos[q[h][0]], B = pos[q[h][1]], C = pos[q[h][2]];
                mc_vec3 e1 = { C.x - A.x, C.y - A.y, C.z - A.z },
                        e2 = { B.x - A.x, B.y - A.y, B.z - A.z };
                mc_vec3 fn = { e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z,
                               e1.x * e2.y - e1.y * e2.x };
                float out = fn.x * (A.x - 100.0f) + fn.y * A.y + fn.z * A.z;

                idx[t * 3] = q[h][0];
                idx[t * 3 + 1] = out >= 0.0f ? q[h][1] : q[h][2];
                idx[t * 3 + 2] = out >= 0.0f ? q[h][2] : q[h][1];
                t++;
            }
        }
}

static void key_light_comes_from_the_upper_left(void)
{
    static mc_vec3 pos[(SPH_U + 1) * (SPH_V + 1)], nrm[(SPH_U + 1) * (SPH_V + 1)];
    static int idx[SPH_U * SPH_V * 6];
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_draw_item it = quad_item(0);
    mc_error err;
    const uint8_t *ul, *lr;

    ASSERT(r);
    make_sphere(pos, nrm, idx);
    it.positions = pos;
    it.normals = nrm;
    it.texcoords = NULL;
    it.vertex_count = (SPH_U + 1) * (SPH_V + 1);
    it.indices = idx;
    it.triangle_count = SPH_U * SPH_V * 2;
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    /* the sphere spans columns 56..104, rows 36..84 (radius 30 -> 24 px); compare a point
     * up-left of centre with one down-right of it, both on the sphere */
    ul = px_at(img, 70, 50);
    lr = px_at(img, 90, 70);
    EXPECT(ul[0] > lr[0] + 30);
    EXPECT_EQ_INT(px_at(img, 80, 60)[3], 255);
    EXPECT_EQ_INT(px_at(img, 20, 60)[2], 51); /* background beside it */
    check_golden("render_lit_sphere.png", img);
    mc_renderer_release(r);
}

static void overlay_text_draws_a_box_with_white_letters(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_error err;
    int white = 0, changed_outside = 0;

    ASSERT(r);
    p.background[0] = p.background[1] = p.background[2] = 0.5f; /* 128 */
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_overlay_text(r, 10, 20, 2, "F 0042", &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    /* The box is 13 * 2 = 26 rows (20..45) and starts at column 10; its first 2 * 2 columns
     * hold no letter: 128 * (1 - 170/255) = 42.7. */
    EXPECT_NEAR(px_at(img, 11, 30)[0], 42.7, 2);
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            const uint8_t *c = px_at(img, col, row);
            int in_box = row >= 20 && row < 46 && col >= 10 && col < 10 + 2 * 40;

            white += in_box && c[0] == 255 && c[1] == 255 && c[2] == 255;
            changed_outside += !in_box && (c[0] != 128 || c[1] != 128 || c[2] != 128);
        }
    EXPECT(white >= 6 * 20); /* six glyphs of at least 20 lit pixels each at scale 2 */
    {
        int bw = 0, bh = 0;

        /* 'F', ' ', and four digits advance 6 font units each: (36 + 3) * 2 by 13 * 2 */
        mc_overlay_text_size("F 0042", 2, &bw, &bh);
        EXPECT_EQ_INT(bw, 78);
        EXPECT_EQ_INT(bh, 26);
        EXPECT_NEAR(px_at(img, 10 + bw - 1, 30)[0], 42.7, 2); /* last box column: dark */
        EXPECT_EQ_INT(px_at(img, 10 + bw, 30)[0], 128);       /* first column after it */
    }
    EXPECT_EQ_INT(changed_outside, 0);
    check_golden("render_overlay.png", img);
    mc_renderer_release(r);
}

/* A model matrix that mirrors (y -> -y, determinant -1) turns the clockwise triangle into a
 * counter-clockwise one on screen; like Doom's mirrored views the renderer swaps the cull sense,
 * so the mirrored triangle shows, with its right angle now at the top RIGHT (column 120). */
static void mirrored_model_keeps_its_front_faces(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(4);
    mc_draw_item it = triangle_item(tri_cw);
    mc_error err;

    ASSERT(r);
    it.model.m[5] = -1.0f;
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    EXPECT_EQ_INT(px_at(img, 114, 25)[0], 255);
    EXPECT_EQ_INT(px_at(img, 45, 94)[0], 0);
    EXPECT_EQ_INT(px_at(img, 60, 25)[0], 255); /* inside: column >= row + 20 */
    mc_renderer_release(r);
}

/* Mesa picks its driver once per process, so this case runs in a child process of this
 * test binary started with GALLIUM_DRIVER=softpipe (the child runs only this case). */
static void softpipe_falls_back_to_no_msaa_with_a_warning(void)
{
    const char *drv = getenv("GALLIUM_DRIVER");
    static uint8_t img[W * H * 4];
    mc_renderer_desc d = { .width = W, .height = H, .msaa = 4 };
    mc_renderer_info info;
    mc_renderer *r = NULL;
    mc_error err;
    int warnings = 0;

    if (!drv || strcmp(drv, "softpipe") != 0) {
        EXPECT_EQ_INT(run_self_with_softpipe("softpipe_falls_back_to_no_msaa_with_a_warning"), 0);
        return;
    }
    d.warn = count_warning;
    d.warn_user = &warnings;
    ASSERT_OK(mc_renderer_create(&d, &r, &err), &err);
    mc_renderer_get_info(r, &info);
    EXPECT_EQ_INT(info.samples, 1); /* softpipe: GL_MAX_SAMPLES = 1 */
    EXPECT_EQ_INT(warnings, 1);
    EXPECT_CONTAINS(info.gl_renderer, "softpipe");
    if (render_triangle(r, tri_cw, 1.0f, img))
        EXPECT_EQ_INT(coverage_errors(img, 255), 0);
    mc_renderer_release(r);
}

static void bogus_gallium_driver_fails_cleanly(void)
{
    const mc_renderer_desc osmesa = { .backend = MC_GL_OSMESA };
    const char *old = getenv("GALLIUM_DRIVER");
    char saved[64] = "";
    mc_renderer *r = (mc_renderer *)&saved; /* must be reset to NULL */
    mc_error err;

    if (old)
        snprintf(saved, sizeof saved, "%s", old);
    setenv("GALLIUM_DRIVER", "bogus", 1);
    EXPECT_EQ_INT(mc_renderer_create(&osmesa, &r, &err), MC_ERR_GL);
    EXPECT(r == NULL);
    EXPECT_CONTAINS(err.msg, HAVE_OSMESA ? "'bogus'" : "this build has no OSMesa backend");
    if (old)
        setenv("GALLIUM_DRIVER", saved, 1);
    else
        unsetenv("GALLIUM_DRIVER");
}

/* OSMesa asked for by name (and through AUTO when MD5CINE_GL says so): named in the info, with the
 * vendor string filled: llvmpipe's (Mesa's lp_screen.c) is "VMware, Inc." before Mesa 22,
 * "Mesa/X.org" in 22.x and "Mesa" since. */
static void osmesa_backend_is_named_in_the_info(void)
{
    mc_renderer_desc d = { .width = 16, .height = 16, .backend = MC_GL_OSMESA };
    mc_renderer_info info;
    mc_renderer *r = NULL;
    mc_error err;

    if (!HAVE_OSMESA) { /* a build with -DMC_OSMESA=OFF */
        EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_GL);
        EXPECT_EQ_STR(err.msg, "this build has no OSMesa backend");
        return;
    }
    ASSERT_OK(mc_renderer_create(&d, &r, &err), &err);
    mc_renderer_get_info(r, &info);
    EXPECT_EQ_STR(info.backend, "osmesa");
    EXPECT(strncmp(info.gl_vendor, "Mesa", 4) == 0 || strcmp(info.gl_vendor, "VMware, Inc.") == 0);
    EXPECT_CONTAINS(info.gl_device, "off-screen Mesa");
    mc_renderer_release(r);
    setenv("MD5CINE_GL", "osmesa", 1);
    d.backend = MC_GL_AUTO;
    ASSERT_OK(mc_renderer_create(&d, &r, &err), &err);
    mc_renderer_get_info(r, &info);
    EXPECT_EQ_STR(info.backend, "osmesa");
    mc_renderer_release(r);
    restore_gl_env();
}

/* EGL by name: Mesa's surfaceless platform (llvmpipe here), named in the info; the same pixels
 * as OSMesa; a device that does not exist is a GL error naming it and how many there are. */
static void egl_backend_draws_what_osmesa_draws(void)
{
    mc_renderer_desc d = { .width = W, .height = H, .backend = MC_GL_EGL };
    mc_renderer_info info;
    uint8_t *px[2] = { NULL, NULL };
    mc_error err;

    if (!HAVE_EGL) { /* a build with -DMC_EGL=OFF */
        mc_renderer *r = NULL;

        EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_GL);
        EXPECT_EQ_STR(err.msg, "this build has no EGL backend");
        return;
    }
    for (int b = 0; b < (HAVE_OSMESA ? 2 : 1); b++) {
        mc_renderer *r = NULL;

        d.backend = b == 0 ? MC_GL_EGL : MC_GL_OSMESA;
        ASSERT_OK(mc_renderer_create(&d, &r, &err), &err);
        mc_renderer_get_info(r, &info);
        EXPECT_EQ_STR(info.backend, b == 0 ? "egl" : "osmesa");
        if (b == 0)
            EXPECT_EQ_STR(info.gl_device, "surfaceless");
        px[b] = malloc(W * H * 4);
        if (px[b] && !render_triangle(r, tri_cw, 1.0f, px[b])) {
            free(px[b]);
            px[b] = NULL;
        }
        mc_renderer_release(r);
    }
    ASSERT(px[0] && (px[1] || !HAVE_OSMESA));
    if (px[1])
        EXPECT(memcmp(px[0], px[1], W * H * 4) == 0);
    free(px[0]);
    free(px[1]);

    mc_renderer *r = NULL;
    d.backend = MC_GL_EGL;
    d.gl_device = 1; /* Mesa always lists its software device */
    ASSERT_OK(mc_renderer_create(&d, &r, &err), &err);
    mc_renderer_get_info(r, &info);
    EXPECT_CONTAINS(info.gl_device, "device 1");
    mc_renderer_release(r);
    r = NULL;
    d.gl_device = 99;
    EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_GL);
    EXPECT(r == NULL);
    EXPECT_CONTAINS(err.msg, "EGL device 99 does not exist");
    d.gl_device = -1;
    EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_USAGE);
    d.gl_device = 0;
    setenv("MD5CINE_GL", "vulkan", 1);
    d.backend = MC_GL_AUTO;
    EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "MD5CINE_GL='vulkan'");
    restore_gl_env();
    d.backend = (mc_gl_backend)7;
    EXPECT_EQ_INT(mc_renderer_create(&d, &r, &err), MC_ERR_USAGE);
    EXPECT(r == NULL);
}

static void bad_draws_are_rejected(void)
{
    static const int bad_idx[3] = { 0, 1, 3 };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = triangle_item(tri_cw);
    mc_draw_item oob = triangle_item(bad_idx);
    mc_renderer_desc d = { .width = 64, .height = 64, .msaa = 3 };
    mc_renderer *none = NULL;
    mc_error err;

    ASSERT(r);
    EXPECT_EQ_INT(mc_renderer_draw(r, &it, &err), MC_ERR_USAGE); /* outside a frame */
    EXPECT_EQ_INT(mc_renderer_end(r, img, W * 4, &err), MC_ERR_USAGE);
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_EQ_INT(mc_renderer_begin(r, &p, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_renderer_draw(r, &oob, &err), MC_ERR_RANGE);
    it.texture = 7;
    EXPECT_EQ_INT(mc_renderer_draw(r, &it, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_renderer_end(r, img, W * 4 - 4, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_renderer_create(&d, &none, &err), MC_ERR_USAGE);
    EXPECT(none == NULL);
    mc_renderer_release(r);
    mc_renderer_release(NULL);
}

/* ---- Doom's interaction, material switches -------------------------------------------- */

/* The quad's tangent along s: st (0,0) -> (1,0) runs from (100, 50, 50) to (100, -50, 50), so
 * t = (0, -1, 0); t grows downwards (+Z is up the image) and cross(t, n) = (0,-1,0) x (-1,0,0)
 * = (0, 0, -1) points down too: not mirrored, w = +1. */
static const float quad_tan[16] = { 0, -1, 0, 1, 0, -1, 0, 1, 0, -1, 0, 1, 0, -1, 0, 1 };

/* Renders items into img (W * H * 4) with p; 1 on success. */
static int render_items(mc_renderer *r, const mc_frame_params *p, const mc_draw_item *items, int n,
                        uint8_t *img)
{
    mc_error err;

    if (mc_renderer_begin(r, p, &err) != MC_OK)
        return test_fail(__FILE__, __LINE__, "begin: %s", err.msg);
    for (int i = 0; i < n; i++)
        EXPECT_OK(mc_renderer_draw(r, &items[i], &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    return 1;
}

/* A 2x2 texture of one RGBA colour. */
static int solid_texture(mc_renderer *r, uint8_t cr, uint8_t cg, uint8_t cb, uint8_t ca)
{
    uint8_t t[16];
    mc_error err;
    int id = 0;

    for (int i = 0; i < 4; i++) {
        t[i * 4] = cr;
        t[i * 4 + 1] = cg;
        t[i * 4 + 2] = cb;
        t[i * 4 + 3] = ca;
    }
    EXPECT_OK(mc_renderer_add_texture(r, t, 2, 2, 8, &id, &err), &err);
    return id;
}

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void unit3(float *a)
{
    float l = sqrtf(dot3(a, a));

    for (int i = 0; i < 3; i++)
        a[i] /= l;
}

/* ---- Doom's interaction by hand (dhewm3 interaction.vfp, draw_arb2.cpp, tr_render.cpp) ---- */

/* Image_init.cpp R_SpecularTableImage: texel x = (int)(255 * max((x / 255 - 0.75) * 4, 0)^2) */
static float spec_texel(int x)
{
    float f = ((float)x / 255.0f - 0.75f) * 4.0f;

    f = f < 0.0f ? 0.0f : f;
    return (float)(int)(f * f * 255.0f) / 255.0f;
}

/* The table (256 texels, GL_LINEAR, clamped to its edge) sampled at u. */
static float spec_table(float u)
{
    float x = u * 256.0f - 0.5f, fr;
    int i;

    if (x <= 0.0f)
        return spec_texel(0);
    if (x >= 255.0f)
        return spec_texel(255);
    i = (int)x;
    fr = x - (float)i;
    return spec_texel(i) * (1.0f - fr) + spec_texel(i + 1) * fr;
}

/* The quad's pixel (80, 60) is world point (100, -0.625, -0.625) in triangle (1, 3, 2) =
 * (y, z) (-50, 50), (-50, -50), (50, -50) with weights 0.49375, 0.0125, 0.49375 (solving
 * -50 w1 - 50 w3 + 50 w2 = -0.625, 50 w1 - 50 w3 - 50 w2 = -0.625, w1 + w2 + w3 = 1; the quad
 * faces the eye, so perspective-correct weights are the screen ones). The vertex program's
 * half-angle, normalize(L) + normalize(V) at each vertex, interpolated with them. */
static void half_at_pixel(const float *lp, float *h)
{
    static const float vy[3] = { -50, -50, 50 }, vz[3] = { 50, -50, -50 };
    static const float w[3] = { 0.49375f, 0.0125f, 0.49375f };

    h[0] = h[1] = h[2] = 0.0f;
    for (int k = 0; k < 3; k++) {
        float v[3] = { 100, vy[k], vz[k] }, l[3], e[3];

        for (int i = 0; i < 3; i++) {
            l[i] = lp[i] - v[i];
            e[i] = -v[i];
        }
        unit3(l);
        unit3(e);
        for (int i = 0; i < 3; i++)
            h[i] += w[k] * (l[i] + e[i]);
    }
    unit3(h);
}

/* One light's pass at the pixel, as interaction.vfp computes it with white projection and
 * falloff images: clamp((n.L) * (D * C * 2 + T(n.H) * C * 2 * S * 2), 0, 1). n is not
 * renormalised (the program's DP3 on the normal map's texel). */
static float doom_pass(const float *n, const float *lp, float d, float c, float s)
{
    const float pt[3] = { 100, -0.625f, -0.625f };
    float l[3], h[3], v;

    for (int i = 0; i < 3; i++)
        l[i] = lp[i] - pt[i];
    unit3(l);
    half_at_pixel(lp, h);
    v = dot3(n, l) * (d * c * 2.0f + spec_table(dot3(n, h)) * c * 2.0f * s * 2.0f);
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* A w x w white texture: light images whose value is 1 away from their zero-clamped edge. */
static int white_texture(mc_renderer *r, int w)
{
    static uint8_t t[64 * 64 * 4];
    mc_error err;
    int id = 0;

    memset(t, 255, sizeof t);
    EXPECT_OK(mc_renderer_add_texture(r, t, w, w, (size_t)w * 4, &id, &err), &err);
    return id;
}

/* A point light with white images over a box of 400 around it. */
static mc_light white_light(mc_renderer *r, float x, float y, float z, float c)
{
    mc_light l;

    memset(&l, 0, sizeof l);
    l.origin = (mc_vec3){ x, y, z };
    l.color[0] = l.color[1] = l.color[2] = c;
    l.radius = 400.0f;
    l.projection_image = white_texture(r, 64);
    l.falloff_image = white_texture(r, 64);
    return l;
}

/* A constant normal map tilts the quad's normal 30 degrees towards +s: m = (sin 30, 0, cos 30)
 * stored as (191, 128, 238), which decodes (c / 255 * 2 - 1) to (0.49804, 0.00392, 0.86667).
 * In world space (t = (0,-1,0), b = (0,0,-1) along +t, n = (-1,0,0)) the normal is
 * 0.86667 * (-1,0,0) + 0.49804 * (0,-1,0) + 0.00392 * (0,0,-1), not renormalised. Light at
 * (20, -90, 10), colour 0.3 (C = 0.6 after r_lightScale 2); pixel (80, 60) = world
 * (100, -0.625, -0.625):
 *   L = normalize(-80, -89.375, 10.625) = (-0.6639, -0.7417, 0.0882);
 *   n.L = 0.86667 * 0.6639 + 0.49804 * 0.7417 - 0.00392 * 0.0882 = 0.9447.
 * Diffuse alone (D = 0.8 untextured, no specular map): 0.9447 * 0.8 * 0.6 = 0.4535 -> 115.6.
 * Specular alone (D = 0, specular map 128 = 0.50196): n.H with doom_pass's interpolated
 * half-angle, T from the table, then n.L * T * 0.6 * 0.50196 * 2. doom_pass does this
 * arithmetic; the diffuse figure is also checked against the number above. */
static void interaction_matches_doom_by_hand(void)
{
    static uint8_t img[W * H * 4];
    const float lp[3] = { 20, -90, 10 };
    const float m[3] = { 191 / 255.0f * 2 - 1, 128 / 255.0f * 2 - 1, 238 / 255.0f * 2 - 1 };
    const float n[3] = { -m[2], -m[0], -m[1] };
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    mc_light light;
    float want_d, want_s, ndh, h[3];

    ASSERT(r);
    light = white_light(r, 20, -90, 10, 0.3f);
    p.lights = &light;
    p.num_lights = 1;
    it.normal_map = solid_texture(r, 191, 128, 238, 255);
    it.tangents = quad_tan;
    want_d = 255.0f * doom_pass(n, lp, 0.8f, 0.3f, 0.0f);
    EXPECT_NEAR(want_d, 115.6, 0.5); /* the arithmetic in the comment */
    it.color[0] = it.color[1] = it.color[2] = 0.8f;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], want_d, 2);
    /* specular alone: black diffuse */
    half_at_pixel(lp, h);
    ndh = dot3(n, h);
    EXPECT(ndh > 0.8f && ndh < 1.0f); /* on the table's slope, where its shape shows */
    want_s = 255.0f * doom_pass(n, lp, 0.0f, 0.3f, 128 / 255.0f);
    EXPECT(want_s > 20.0f);
    it.color[0] = it.color[1] = it.color[2] = 0.0f;
    it.specular_map = solid_texture(r, 128, 128, 128, 255);
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], want_s, 2);
    /* both: the sum inside one pass */
    it.color[0] = it.color[1] = it.color[2] = 0.8f;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], 255.0f * doom_pass(n, lp, 0.8f, 0.3f, 128 / 255.0f),
                        2);
    /* the stages' colours scale diffuse and specular separately */
    {
        it.stage_colors = 1;
        for (int c = 0; c < 3; c++) {
            it.diffuse_rgb[c] = 0.5f;
            it.specular_rgb[c] = 0.25f;
        }
        if (render_items(r, &p, &it, 1, img))
            EXPECT_NEAR(px_at(img, 80, 60)[0],
                        255.0f * doom_pass(n, lp, 0.8f * 0.5f, 0.3f, 0.0f) +
                                255.0f * doom_pass(n, lp, 0.0f, 0.3f, 0.25f * 128 / 255.0f),
                        2);
    }
    mc_renderer_release(r);
}

/* The light's images: projection (2x2: R rises with s, G with t, B 255) and falloff (2x1:
 * 0, 255) sampled as Doom's texgen places them. Point light at (80, -10.625, -20.625), box
 * (100 100 100), colour 0.5 (C = 1), D = 0.5. At the pixel (100, -0.625, -0.625):
 *   s = 0.5 + 0.5 * 20 / 100 = 0.6, t = 0.5 + 0.5 * 10 / 100 = 0.55, f = 0.5 + 0.5 * 20 / 100
 *   = 0.6; GL_LINEAR on 2 texels: value = clamp(2u - 0.5, 0, 1): R = 0.7, G = 0.6, falloff
 *   0.7, B = 1;
 *   L = (-20, -10, -20) / 30, n.L = 20 / 30 = 0.6667;
 *   pixel = n.L * P * F * D * C: R 0.6667 * 0.7 * 0.7 * 0.5 = 0.16333 -> 41.65,
 *   G 0.6667 * 0.6 * 0.7 * 0.5 = 0.14 -> 35.7, B 0.6667 * 0.7 * 0.5 = 0.23333 -> 59.5. */
static void light_images_are_sampled_at_doom_texgen(void)
{
    static const uint8_t proj[16] = { 0, 0,   255, 255, 255, 0,   255, 255,
                                      0, 255, 255, 255, 255, 255, 255, 255 };
    static const uint8_t fall[8] = { 0, 0, 0, 255, 255, 255, 255, 255 };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    mc_light light;
    mc_error err;

    ASSERT(r);
    memset(&light, 0, sizeof light);
    light.origin = (mc_vec3){ 80, -10.625f, -20.625f };
    light.color[0] = light.color[1] = light.color[2] = 0.5f;
    light.box = (mc_vec3){ 100, 100, 100 };
    ASSERT_OK(mc_renderer_add_texture(r, proj, 2, 2, 8, &light.projection_image, &err), &err);
    ASSERT_OK(mc_renderer_add_texture(r, fall, 2, 1, 8, &light.falloff_image, &err), &err);
    p.lights = &light;
    p.num_lights = 1;
    if (render_items(r, &p, &it, 1, img)) {
        EXPECT_NEAR(px_at(img, 80, 60)[0], 41.65, 2);
        EXPECT_NEAR(px_at(img, 80, 60)[1], 35.7, 2);
        EXPECT_NEAR(px_at(img, 80, 60)[2], 59.5, 2);
    }
    mc_renderer_release(r);
}

/* A point light lights a box, not a sphere: light at (50, 0, 0), box (100 20 100), white
 * images, colour 0.5, D = 0.5. The box's side y = 20 is column 80 - 0.8 * 20 = 64: pixel
 * column 63 (centre y = 20.625, t > 1) gets nothing (black: no ambient), column 64 (y =
 * 19.375, t = 0.984, well inside the 64-texel image's last texel) is lit. Row 60's pixel at
 * column 64: L = (-50, 19.375, -0.625), n.L = 50 / 53.626 = 0.93239 -> 0.93239 * 0.5 * 1 =
 * 0.46620 -> 118.9. Near the box's corner, far outside a sphere of radius 20, the light still
 * reaches: pixel (95, 25) = (100, -19.375, 43.125), 68.8 from the light. */
static void point_light_lights_a_box(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    mc_light light;

    ASSERT(r);
    light = white_light(r, 50, 0, 0, 0.5f);
    light.box = (mc_vec3){ 100, 20, 100 };
    p.lights = &light;
    p.num_lights = 1;
    if (render_items(r, &p, &it, 1, img)) {
        for (int c = 0; c < 3; c++)
            EXPECT_EQ_INT(px_at(img, 63, 60)[c], 0);
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 64, 60)[c], 118.9, 2);
        /* the other side, y = -20: column 96 */
        EXPECT_EQ_INT(px_at(img, 96, 60)[0], 0);
        EXPECT(px_at(img, 95, 60)[0] > 100);
        EXPECT(px_at(img, 95, 25)[0] > 50); /* (100, -19.375, 43.125): a box corner */
    }
    mc_renderer_release(r);
}

/* Doom lights no triangle that faces away from the light (Interaction.cpp R_CreateLightTris)
 * unless its material is noSelfShadow or noShadows. The quad faces the eye, the light is
 * behind it at (150, 0, 0); its vertex normals point at the light (+x), so n.L > 0: without
 * the rule it would be lit. With no_self_shadow it is: n.L at the pixel = 50 / |(50, 0.625,
 * 0.625)| = 0.99984, D = 0.5, C = 0.5 -> 0.49992 -> 127.5. */
static void triangle_facing_away_from_the_light_is_unlit(void)
{
    static const mc_vec3 towards[4] = { { 1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 } };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    mc_light light;

    ASSERT(r);
    light = white_light(r, 150, 0, 0, 0.5f);
    p.lights = &light;
    p.num_lights = 1;
    it.normals = towards;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_EQ_INT(px_at(img, 80, 60)[c], 0);
    it.no_self_shadow = 1;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], 127.5, 2);
    it.no_self_shadow = 0;
    it.no_shadows = 1;
    if (render_items(r, &p, &it, 1, img))
        EXPECT_NEAR(px_at(img, 80, 60)[0], 127.5, 2);
    mc_renderer_release(r);
}

/* A mirroring model matrix mirrors the texture's +t with the geometry. The quad mirrored in z
 * (z -> -z: the same quad, wound the other way, its normal still (-1, 0, 0)) has its +t along
 * world +Z instead of -Z, so the normal map tilted along +t (128, 191, 238) now leans up: lit
 * more from above than from below, and the mirrored picture is the plain one upside down
 * about z = 0 -- pixel (80, 59) (z = +0.625) lit from above equals the plain quad's (80, 60)
 * (z = -0.625) lit from below (eye and quad are symmetric about z = 0). */
static void mirrored_model_mirrors_the_normal_map(void)
{
    static uint8_t img[W * H * 4];
    const mc_light above = { { 60, 0, 80 }, { 1, 1, 1 }, 400 };
    const mc_light below = { { 60, 0, -80 }, { 1, 1, 1 }, 400 };
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    uint8_t plain_below = 0, mirrored_above = 0, mirrored_below = 0;

    ASSERT(r);
    p.num_lights = 1;
    it.color[0] = it.color[1] = it.color[2] = 0.8f;
    it.normal_map = solid_texture(r, 128, 191, 238, 255);
    it.tangents = quad_tan;
    p.lights = &below;
    if (render_items(r, &p, &it, 1, img))
        plain_below = px_at(img, 80, 60)[0];
    it.model.m[10] = -1.0f;
    p.lights = &above;
    if (render_items(r, &p, &it, 1, img))
        mirrored_above = px_at(img, 80, 59)[0];
    p.lights = &below;
    if (render_items(r, &p, &it, 1, img))
        mirrored_below = px_at(img, 80, 59)[0];
    EXPECT(plain_below > 0);
    EXPECT_NEAR(mirrored_above, plain_below, 1);
    EXPECT(mirrored_above > mirrored_below + 20);
    mc_renderer_release(r);
}

/* Outside a light's box only the ambient light is left: D * ambient * 2 (r_lightScale). */
static void ambient_light_alone_outside_the_box(void)
{
    static uint8_t img[W * H * 4];
    const mc_light light = { { 0, 0, 0 }, { 1, 1, 1 }, 90 }; /* the quad is 100 away */
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);

    ASSERT(r);
    p.lights = &light;
    p.num_lights = 1;
    p.ambient[0] = p.ambient[1] = p.ambient[2] = 0.25f;
    it.color[0] = 0.8f;
    it.color[1] = 0.4f;
    it.color[2] = 0.2f;
    if (render_items(r, &p, &it, 1, img)) {
        EXPECT_NEAR(px_at(img, 80, 60)[0], 0.8 * 0.25 * 2 * 255, 1);
        EXPECT_NEAR(px_at(img, 80, 60)[1], 0.4 * 0.25 * 2 * 255, 1);
        EXPECT_NEAR(px_at(img, 80, 60)[2], 0.2 * 0.25 * 2 * 255, 1);
    }
    mc_renderer_release(r);
}

/* Alpha 0 in the texture's left column, 255 in its right one: with alphaTest 0.5 the left
 * half of the quad shows the background, the right half the texel colour. Without it the
 * whole quad is drawn. Columns 44..70 and 90..116 stay clear of the blend between texels
 * (bilinear: the two texel centres are at columns 60 and 100). */
static void alpha_test_discards_the_transparent_half(void)
{
    static const uint8_t tex[16] = { 200, 100, 50, 0, 200, 100, 50, 255,
                                     200, 100, 50, 0, 200, 100, 50, 255 };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it;
    mc_error err;
    int id = 0, bad = 0;

    ASSERT(r);
    ASSERT_OK(mc_renderer_add_texture(r, tex, 2, 2, 8, &id, &err), &err);
    it = quad_item(id);
    it.alpha_test = 0.5f;
    if (render_items(r, &p, &it, 1, img))
        for (int row = 24; row < 96; row++) {
            for (int col = 44; col < 56; col++)
                bad += px_at(img, col, row)[0] != 0 || px_at(img, col, row)[2] != 51;
            for (int col = 104; col < 116; col++)
                bad += abs(px_at(img, col, row)[0] - 200) > 1 || px_at(img, col, row)[3] != 255;
        }
    EXPECT_EQ_INT(bad, 0);
    it.alpha_test = 0.0f;
    if (render_items(r, &p, &it, 1, img))
        EXPECT_NEAR(px_at(img, 50, 60)[0], 200, 1);
    mc_renderer_release(r);
}

/* The quad wound the other way is seen from behind: culled unless two-sided. Two-sided (and
 * noShadows, which Doom's twoSided implies), the back is lit with the same normal as the
 * front, not a flipped one: with normals (-1, 0, 0) towards the eye and the light at the eye
 * (white images, colour 0.5, D = 0.5) the pixel is n.L * D * C = (100 / d) * 0.5 =
 * 0.49998 -> 127.5, d = |(100, -0.625, -0.625)| = 100.0039; with normals (1, 0, 0) it is
 * black (a flipped normal would have lit it). */
static void two_sided_keeps_the_normal_on_the_back(void)
{
    static const int back_idx[6] = { 0, 2, 1, 1, 2, 3 };
    static const mc_vec3 away[4] = { { 1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 } };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    double d = sqrt(100.0 * 100.0 + 2 * 0.625 * 0.625);
    mc_light light;

    ASSERT(r);
    light = white_light(r, 0, 0, 0, 0.5f);
    p.lights = &light;
    p.num_lights = 1;
    it.indices = back_idx;
    if (render_items(r, &p, &it, 1, img))
        EXPECT_EQ_INT(px_at(img, 80, 60)[2], 51); /* culled: background */
    it.two_sided = 1;
    it.no_shadows = 1;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], 255 * 0.5 * (100 / d), 2);
    it.normals = away;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_EQ_INT(px_at(img, 80, 60)[c], 0);
    mc_renderer_release(r);
}

/* A translucent quad (1, 0.5, 0.25, alpha 0.5, unlit) submitted BEFORE an opaque green quad
 * behind it still blends over the green: drawn after the opaque items, c * a + dst * (1 - a)
 * = (127.5, 0.5 * 128 + 127.5, 31.9). Over the background (0, 0, 51) alone:
 * (127.5, 63.75, 31.9 + 25.5). Alpha: 0.5 + 1 * 0.5 = 255. */
static void translucent_items_blend_over_the_opaque_ones(void)
{
    static const mc_vec3 far_pos[4] = {
        { 200, 50, 50 }, { 200, -50, 50 }, { 200, 50, -50 }, { 200, -50, -50 }
    };
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item items[2] = { quad_item(0), quad_item(0) };
    const uint8_t *c;

    ASSERT(r);
    items[0].translucent = 1;
    items[0].color[0] = 1.0f;
    items[0].color[1] = 0.5f;
    items[0].color[2] = 0.25f;
    items[0].color[3] = 0.5f;
    items[1].positions = far_pos; /* columns 60..100, rows 40..80 */
    items[1].color[0] = 0.0f;
    items[1].color[1] = 1.0f;
    items[1].color[2] = 0.0f;
    if (render_items(r, &p, items, 2, img)) {
        c = px_at(img, 80, 60); /* over the green quad */
        EXPECT_NEAR(c[0], 127.5, 1.5);
        EXPECT_NEAR(c[1], 191.25, 1.5);
        EXPECT_NEAR(c[2], 31.9, 1.5);
        EXPECT_EQ_INT(c[3], 255);
        c = px_at(img, 50, 30); /* over the background */
        EXPECT_NEAR(c[0], 127.5, 1.5);
        EXPECT_NEAR(c[1], 63.75, 1.5);
        EXPECT_NEAR(c[2], 57.4, 1.5);
    }
    mc_renderer_release(r);
}

/* Two quads in one plane: drawn second, the plain one wins under LEQUAL (equal depth passes);
 * when the first has Doom's polygonOffset it lies nearer and keeps its pixels. */
static void polygon_offset_pulls_a_coplanar_surface_in_front(void)
{
    static uint8_t img[W * H * 4];
    mc_frame_params p = frame(MC_SHADING_UNLIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item items[2] = { quad_item(0), quad_item(0) };

    ASSERT(r);
    items[0].color[0] = 1.0f; /* red, then green over it */
    items[0].color[1] = items[0].color[2] = 0.0f;
    items[1].color[1] = 1.0f;
    items[1].color[0] = items[1].color[2] = 0.0f;
    if (render_items(r, &p, items, 2, img))
        EXPECT_EQ_INT(px_at(img, 80, 60)[1], 255);
    items[0].polygon_offset = 1.0f;
    if (render_items(r, &p, items, 2, img)) {
        EXPECT_EQ_INT(px_at(img, 80, 60)[0], 255);
        EXPECT_EQ_INT(px_at(img, 80, 60)[1], 0);
    }
    mc_renderer_release(r);
}

static void bad_lights_and_switches_are_rejected(void)
{
    mc_light lights[MC_RENDER_MAX_LIGHTS + 1];
    mc_frame_params p = frame(MC_SHADING_LIT, 1.0f);
    mc_renderer *r = make_renderer(1);
    mc_draw_item it = quad_item(0);
    static uint8_t img[W * H * 4];
    mc_error err;

    ASSERT(r);
    for (int i = 0; i <= MC_RENDER_MAX_LIGHTS; i++)
        lights[i] = (mc_light){ { 0, 0, 0 }, { 1, 1, 1 }, 100 };
    p.lights = lights;
    p.num_lights = MC_RENDER_MAX_LIGHTS + 1;
    EXPECT_EQ_INT(mc_renderer_begin(r, &p, &err), MC_ERR_USAGE);
    p.num_lights = 1;
    lights[0].radius = 0.0f;
    EXPECT_EQ_INT(mc_renderer_begin(r, &p, &err), MC_ERR_USAGE);
    lights[0].radius = NAN;
    EXPECT_EQ_INT(mc_renderer_begin(r, &p, &err), MC_ERR_USAGE);
    lights[0].radius = 100.0f;
    lights[0].color[1] = -1.0f;
    EXPECT_EQ_INT(mc_renderer_begin(r, &p, &err), MC_ERR_USAGE);
    lights[0].color[1] = 1.0f;
    it.normal_map = solid_texture(r, 128, 128, 255, 255);
    ASSERT_OK(mc_renderer_begin(r, &p, &err), &err);
    EXPECT_EQ_INT(mc_renderer_draw(r, &it, &err), MC_ERR_USAGE); /* no tangents */
    EXPECT_CONTAINS(err.msg, "tangents");
    it.tangents = quad_tan;
    it.alpha_test = 1.5f;
    EXPECT_EQ_INT(mc_renderer_draw(r, &it, &err), MC_ERR_USAGE);
    it.alpha_test = 0.5f;
    it.specular_map = 99;
    EXPECT_EQ_INT(mc_renderer_draw(r, &it, &err), MC_ERR_USAGE);
    it.specular_map = 0;
    EXPECT_OK(mc_renderer_draw(r, &it, &err), &err);
    EXPECT_OK(mc_renderer_end(r, img, W * 4, &err), &err);
    mc_renderer_release(r);
}

int main(int argc, char **argv)
{
    const char *gl_env = getenv("MD5CINE_GL");

    if (gl_env)
        snprintf(start_gl_env, sizeof start_gl_env, "%s", gl_env);
    static const test_case cases[] = {
        TEST_ENTRY(triangle_covers_the_hand_computed_pixels),
        TEST_ENTRY(reversed_winding_is_culled),
        TEST_ENTRY(triangle_without_msaa_covers_the_same_pixels),
        TEST_ENTRY(msaa_smooths_the_slanted_edge),
        TEST_ENTRY(transparent_background_has_alpha_zero),
        TEST_ENTRY(same_input_gives_identical_pixels),
        TEST_ENTRY(texture_top_row_is_at_t_zero),
        TEST_ENTRY(normals_mode_shows_the_world_normal),
        TEST_ENTRY(lit_quad_centre_matches_the_lighting_model),
        TEST_ENTRY(key_light_comes_from_the_upper_left),
        TEST_ENTRY(overlay_text_draws_a_box_with_white_letters),
        TEST_ENTRY(mirrored_model_keeps_its_front_faces),
        TEST_ENTRY(softpipe_falls_back_to_no_msaa_with_a_warning),
        TEST_ENTRY(bogus_gallium_driver_fails_cleanly),
        TEST_ENTRY(bad_draws_are_rejected),
        TEST_ENTRY(interaction_matches_doom_by_hand),
        TEST_ENTRY(light_images_are_sampled_at_doom_texgen),
        TEST_ENTRY(point_light_lights_a_box),
        TEST_ENTRY(triangle_facing_away_from_the_light_is_unlit),
        TEST_ENTRY(mirrored_model_mirrors_the_normal_map),
        TEST_ENTRY(ambient_light_alone_outside_the_box),
        TEST_ENTRY(alpha_test_discards_the_transparent_half),
        TEST_ENTRY(two_sided_keeps_the_normal_on_the_back),
        TEST_ENTRY(translucent_items_blend_over_the_opaque_ones),
        TEST_ENTRY(polygon_offset_pulls_a_coplanar_surface_in_front),
        TEST_ENTRY(bad_lights_and_switches_are_rejected),
        TEST_ENTRY(osmesa_backend_is_named_in_the_info),
        TEST_ENTRY(egl_backend_draws_what_osmesa_draws),
    };

    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
