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

#include "render_fixture.h"
#include "test.h"

extern char **environ;

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

TEST(triangle_covers_the_hand_computed_pixels)
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

TEST(reversed_winding_is_culled)
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

TEST(triangle_without_msaa_covers_the_same_pixels)
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

TEST(msaa_smooths_the_slanted_edge)
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

TEST(transparent_background_has_alpha_zero)
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

TEST(same_input_gives_identical_pixels)
{
    static uint8_t a[W * H * 4], b[W * H * 4];
    mc_renderer *r = make_renderer(4);

    ASSERT(r);
    render_triangle(r, tri_cw, 1.0f, a);
    render_triangle(r, tri_cw, 1.0f, b);
    EXPECT(memcmp(a, b, sizeof a) == 0);
    mc_renderer_release(r);
}

TEST(texture_top_row_is_at_t_zero)
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

TEST(normals_mode_shows_the_world_normal)
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
TEST(lit_quad_centre_matches_the_lighting_model)
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

TEST(key_light_comes_from_the_upper_left)
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

TEST(overlay_text_draws_a_box_with_white_letters)
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
TEST(mirrored_model_keeps_its_front_faces)
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
TEST(softpipe_falls_back_to_no_msaa_with_a_warning)
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

TEST(bogus_gallium_driver_fails_cleanly)
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
TEST(osmesa_backend_is_named_in_the_info)
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
TEST(egl_backend_draws_what_osmesa_draws)
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

TEST(bad_draws_are_rejected)
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

int main(int argc, char **argv)
{
    const char *gl_env = getenv("MD5CINE_GL");

    if (gl_env)
        snprintf(start_gl_env, sizeof start_gl_env, "%s", gl_env);
    return test_main(argc, argv);
}
