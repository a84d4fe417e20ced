/* Unlit material stages drawn by the renderer (render.h, mc_render_stage), their values coming
 * from a parsed material evaluated at a time (mtr_expr.h, material_eval.h), against pixels
 * worked out by hand.
 *
 * The camera is render_test.c's: at the origin looking down +X, 160x120, so the quad
 * (100, +-50, +-50) covers columns 40..120 and rows 20..100, with s = (column - 40) / 80 and
 * t = (row - 20) / 80 at a pixel's centre (column + 0.5). The background is (0, 0, 51). A
 * stage's fragment is texel * colour, blended with glBlendFunc(src, dst) (8-bit: a value v
 * in 0..1 is stored as round(v * 255)). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/image.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/render.h>
#include <md5cine/scene.h>
#include <md5cine/scene_renderer.h>

#include "render_fixture.h"
#include "test.h"

static const float PARMS[12] = { 1, 1, 1, 1, 0.25f, 0, 0, 0, 0, 0, 0, 0 };

typedef struct scene {
    mc_renderer *r;
    int white, black, orange, redgreen; /* texture ids */
    int framed; /* 64 x 64 white with the outer ring (0, 0, 0, 255): a zeroclamp image as
                   material.c leaves it (Image_load.cpp, GenerateImage: the border zeroed) */
} scene;

static bool open_scene(scene *sc)
{
    static const uint8_t white[4] = { 255, 255, 255, 255 }, black[4] = { 0, 0, 0, 255 };
    static const uint8_t orange[4] = { 100, 50, 0, 255 };
    static const uint8_t redgreen[8] = { 255, 0, 0, 255, 0, 255, 0, 255 };
    static uint8_t framed[64 * 64 * 4];
    mc_renderer_desc d;
    mc_error err;

    for (int i = 0; i < 64 * 64; i++) {
        int x = i % 64, y = i / 64, edge = x == 0 || y == 0 || x == 63 || y == 63;

        framed[i * 4 + 0] = framed[i * 4 + 1] = framed[i * 4 + 2] = edge ? 0 : 255;
        framed[i * 4 + 3] = 255;
    }
    memset(sc, 0, sizeof *sc);
    memset(&d, 0, sizeof d);
    d.width = W;
    d.height = H;
    d.msaa = 4;
    if (!EXPECT(mc_renderer_create(&d, &sc->r, &err) == MC_OK)) {
        fprintf(stderr, "  %s\n", err.msg);
        return false;
    }
    return EXPECT(mc_renderer_add_texture(sc->r, white, 1, 1, 4, &sc->white, &err) == MC_OK &&
                  mc_renderer_add_texture(sc->r, black, 1, 1, 4, &sc->black, &err) == MC_OK &&
                  mc_renderer_add_texture(sc->r, orange, 1, 1, 4, &sc->orange, &err) == MC_OK &&
                  mc_renderer_add_texture(sc->r, redgreen, 2, 1, 8, &sc->redgreen, &err) ==
                          MC_OK &&
                  mc_renderer_add_texture(sc->r, framed, 64, 64, 64 * 4, &sc->framed, &err) ==
                          MC_OK);
}

/* The visible stages of the first material of mtr at time, as the scene renderer passes them:
 * each with texture tex; depth LEQUAL when lequal. Returns how many (-1 on a parse error). */
static int stages_of(const char *mtr, float time, int tex, bool lequal, mc_render_stage *out)
{
    mc_mtr_file f;
    mc_error err;
    float regs[256];
    int n = 0;

    if (!EXPECT(mc_mtr_parse(mtr, strlen(mtr), "t.mtr", NULL, &f, &err) == MC_OK)) {
        fprintf(stderr, "  %s\n", err.msg);
        return -1;
    }
    if (!EXPECT(f.decls[0].expr.num_regs <= 256)) {
        mc_mtr_release(&f);
        return -1;
    }
    mc_expr_eval(&f.decls[0].expr, time, PARMS, regs);
    for (int i = 0; i < f.decls[0].num_stages; i++) {
        const mc_mtr_stage *s = &f.decls[0].stages[i];
        mc_stage_state ss;
        mc_render_stage *o = &out[n];

        if (s->kind != MC_STAGE_COLOR)
            continue; /* the lit stages are the item's own pass */
        mc_stage_state_eval(&s->expr, s->blend, regs, &ss);
        if (!ss.visible)
            continue;
        memset(o, 0, sizeof *o);
        o->texture = tex;
        o->blend_src = (int)s->blend.src;
        o->blend_dst = (int)s->blend.dst;
        memcpy(o->color, ss.color, sizeof o->color);
        memcpy(o->matrix, ss.matrix, sizeof o->matrix);
        o->alpha_test = ss.has_alpha_test ? ss.alpha_test : 0.0f;
        o->wrap = (int)(s->has_wrap ? s->wrap : f.decls[0].wrap);
        o->mask_red = s->mask_red;
        o->mask_green = s->mask_green;
        o->mask_blue = s->mask_blue;
        o->mask_alpha = s->mask_alpha;
        o->depth_lequal = lequal;
        n++;
    }
    mc_mtr_release(&f);
    return n;
}

/* Draws the quad (base texture base, 0 for its colour grey) with stages and reads the frame. */
static bool draw(scene *sc, mc_shading shading, int base, bool stages_only,
                 const mc_render_stage *st, int n, uint8_t *img)
{
    mc_frame_params p;
    mc_draw_item it;
    mc_error err;
    bool ok;

    p = frame(shading, 1.0f);
    it = quad_item(base);
    it.stages = st;
    it.num_stages = n;
    it.stages_only = stages_only;
    ok = EXPECT(mc_renderer_begin(sc->r, &p, &err) == MC_OK) &&
         EXPECT(mc_renderer_draw(sc->r, &it, &err) == MC_OK) &&
         EXPECT(mc_renderer_end(sc->r, img, W * 4, &err) == MC_OK);
    if (!ok)
        fprintf(stderr, "  %s\n", err.msg);
    return ok;
}

static void px_is_sized(const uint8_t *img, int width, int col, int row, int r, int g, int b,
                        int tol)
{
    const uint8_t *p = img + ((size_t)row * (size_t)width + (size_t)col) * 4;

    if (abs(p[0] - r) > tol || abs(p[1] - g) > tol || abs(p[2] - b) > tol)
        test_fail(__FILE__, __LINE__, "pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, %d)",
                  col, row, p[0], p[1], p[2], r, g, b);
}

static void px_is(const uint8_t *img, int col, int row, int r, int g, int b, int tol)
{
    const uint8_t *p = img + ((size_t)row * W + (size_t)col) * 4;

    if (abs(p[0] - r) > tol || abs(p[1] - g) > tol || abs(p[2] - b) > tol)
        test_fail(__FILE__, __LINE__, "pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, %d)",
                  col, row, p[0], p[1], p[2], r, g, b);
}

TEST(an_additive_stage_adds_to_the_background_and_black_adds_nothing)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[2];
    scene sc;

    ASSERT(open_scene(&sc));
    /* a glow material (only a `blend add` stage: translucent coverage), lit shading without a
     * light: (0, 0, 51) + (100, 50, 0) */
    ASSERT(stages_of("glow { { blend add map x } }", 0, sc.orange, true, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_LIT, 0, true, st, 1, img));
    px_is(img, 80, 60, 100, 50, 51, 1);
    px_is(img, 20, 60, 0, 0, 51, 0); /* outside the quad */
    /* a black texture adds nothing: the background shows through unchanged */
    st[0].texture = sc.black;
    ASSERT(draw(&sc, MC_SHADING_LIT, 0, true, st, 1, img));
    px_is(img, 80, 60, 0, 0, 51, 0);
    /* and an add whose colour is black is not drawn at all (draw_common.cpp's skip) */
    EXPECT_EQ_INT(stages_of("glow { { blend add map x rgb parm5 } }", 0, sc.orange, true, st), 0);
    mc_renderer_release(sc.r);
}

TEST(a_scrolling_stage_moves_with_time)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[1];
    const char *mtr = "flow { { map x scroll time * 0.1, 0 } }";
    scene sc;

    ASSERT(open_scene(&sc));
    /* An opaque stage (blend ONE, ZERO) over the item's own depth (EQUAL). The 2x1 texture is
     * red then green: column 60 samples s = 0.256 (texel coordinate 0.51: red, 1% green),
     * column 100 s = 0.756 (green). */
    ASSERT(stages_of(mtr, 0.0f, sc.redgreen, false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 60, 60, 255, 0, 0, 6);
    px_is(img, 100, 60, 0, 255, 0, 6);
    /* at 5 s the scroll is 0.5: column 60 reads s = 0.756 (green), column 100 s = 1.256,
     * repeating to 0.256 (red) */
    ASSERT(stages_of(mtr, 5.0f, sc.redgreen, false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 60, 60, 0, 255, 0, 6);
    px_is(img, 100, 60, 255, 0, 0, 6);
    mc_renderer_release(sc.r);
}

TEST(a_table_lookup_sets_the_colour)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[1];
    const char *mtr = "table ramp { { 0, 1 } }\npulse { { blend add map x rgb ramp[time] } }";
    scene sc;

    ASSERT(open_scene(&sc));
    /* ramp[0.25]: 0.25 * 2 = 0.5, halfway from 0 to 1: white * 0.5 added, 127.5 */
    ASSERT(stages_of(mtr, 0.25f, sc.white, true, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 80, 60, 128, 128, 51 + 128, 1);
    /* ramp[0.5]: 1 (the second value) */
    ASSERT(stages_of(mtr, 0.5f, sc.white, true, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 80, 60, 255, 255, 255, 0);
    mc_renderer_release(sc.r);
}

TEST(a_parm_drives_a_filter_over_the_lit_pass)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[1];
    scene sc;

    ASSERT(open_scene(&sc));
    /* the item's own pass: white (unlit), then `blend filter` (DST_COLOR, ZERO) of white *
     * parm4 (0.25): 255 * 0.25 = 63.75 */
    ASSERT(stages_of("tint { diffusemap d { blend filter map x rgb parm4 } }", 0, sc.white,
                     false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, sc.white, false, st, 1, img));
    px_is(img, 80, 60, 64, 64, 64, 1);
    mc_renderer_release(sc.r);
}

TEST(a_gl_factor_pair_blends_as_named)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[1];
    scene sc;

    ASSERT(open_scene(&sc));
    /* base grey 0.5 (stored 128); GL_DST_COLOR, GL_ONE of white * 0.5: d * 0.5 + d = 1.5 d,
     * 128/255 * 1.5 = 0.753 -> 192 */
    ASSERT(stages_of("m { diffusemap d { blend GL_DST_COLOR, GL_ONE map x rgb 0.5 } }", 0,
                     sc.white, false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, false, st, 1, img));
    px_is(img, 80, 60, 192, 192, 192, 2);
    /* GL_ZERO, GL_ONE is skipped: the grey stays */
    EXPECT_EQ_INT(stages_of("m { diffusemap d { blend GL_ZERO, GL_ONE map x } }", 0, sc.white,
                            false, st),
                  0);
    mc_renderer_release(sc.r);
}

TEST(an_if_condition_switches_a_stage)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[1];
    const char *mtr = "m { diffusemap d { if time > 1 blend add map x } }";
    int n;
    scene sc;

    ASSERT(open_scene(&sc));
    /* time 0.5: off, the grey (128) base alone; time 2: orange added, (228, 178, 128) */
    n = stages_of(mtr, 0.5f, sc.orange, false, st);
    EXPECT_EQ_INT(n, 0);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, false, st, n, img));
    px_is(img, 80, 60, 128, 128, 128, 1);
    n = stages_of(mtr, 2.0f, sc.orange, false, st);
    EXPECT_EQ_INT(n, 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, false, st, n, img));
    px_is(img, 80, 60, 228, 178, 128, 1);
    mc_renderer_release(sc.r);
}

TEST(masks_and_clamps_are_respected)
{
    static uint8_t img[W * H * 4];
    mc_render_stage st[2];
    scene sc;

    ASSERT(open_scene(&sc));
    /* maskColor: an add that writes no colour leaves the grey base */
    ASSERT(stages_of("m { diffusemap d { blend add map x maskColor } }", 0, sc.white, false, st) ==
           1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, false, st, 1, img));
    px_is(img, 80, 60, 128, 128, 128, 1);
    /* maskRed only: green and blue saturate, red stays */
    ASSERT(stages_of("m { diffusemap d { blend add map x maskRed } }", 0, sc.white, false, st) ==
           1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, false, st, 1, img));
    px_is(img, 80, 60, 128, 255, 255, 1);
    /* scale 2, 1 over the red/green texture: column 90 (s = 0.631) reads s' = 1.26: repeated
     * 0.26 is red, clamped to the edge it is green */
    ASSERT(stages_of("m { { map x scale 2, 1 } }", 0, sc.redgreen, false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 90, 60, 255, 0, 0, 8);
    ASSERT(stages_of("m { { map x scale 2, 1 clamp } }", 0, sc.redgreen, false, st) == 1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 90, 60, 0, 255, 0, 0);
    /* zeroclamp (the material's): a clamp whose image has its border texels zeroed, so
     * outside 0..1 the stage reads (0, 0, 0) and an add of white shows only on the left half
     * (s' = 2 s <= 1) */
    ASSERT(stages_of("m { zeroclamp { blend add map x scale 2, 1 } }", 0, sc.framed, true, st) ==
           1);
    ASSERT(draw(&sc, MC_SHADING_UNLIT, 0, true, st, 1, img));
    px_is(img, 60, 60, 255, 255, 255, 0);
    px_is(img, 100, 60, 0, 0, 51, 0);
    mc_renderer_release(sc.r);
}

/* Through the scene renderer: a 50 x 50 quad at x = 0 facing a one-frame camera at
 * (-100, 0, 0) (fov 90, 64 x 64, black background), its shader "quad" a glow material whose
 * only stage adds white times parm4 + time. The actor's `parm 4 0.25`; output frame 3 at 24
 * fps: the ideal clock's time is 0.125 s, (0.25 + 0.125) * 255 = 95.6; the engine clock's
 * game time is 16 * floor(3000 / 384) = 112 ms, (0.25 + 0.112) * 255 = 92.3. Lit shading and
 * no light: the glow shows all the same. */
TEST(a_scene_evaluates_stages_on_its_clock_with_the_actors_parms)
{
    static const uint8_t white[4] = { 255, 255, 255, 255 };
    static const struct {
        mc_clock clock;
        int value;
    } want[2] = { { MC_CLOCK_IDEAL, 96 }, { MC_CLOCK_ENGINE, 92 } };
    char dir[512], sub[600];
    uint8_t *px = calloc(64 * 64 * 4, 1);
    mc_error err;

    ASSERT(px);
    test_tmp_path(dir, sizeof dir, "stage_scene");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    snprintf(sub, sizeof sub, "%s/materials", dir);
    ASSERT(mkdir(sub, 0777) == 0 || errno == EEXIST);
    snprintf(sub, sizeof sub, "%s/white.png", dir);
    ASSERT_OK(mc_png_write(sub, white, 1, 1, 4, 1, &err), &err);
    ASSERT(test_write_file(dir, "quad.md5mesh", test_quad_mesh));
    ASSERT(test_write_file(dir, "front.md5camera", test_front_camera));
    ASSERT(test_write_file(dir, "materials/glow.mtr",
                    "quad { { blend add map white.png rgb parm4 + time } }\n"));
    ASSERT(test_write_file(dir, "scene.md5scene",
                    "md5scene 1\ncamera \"front.md5camera\"\nbase \".\"\nframes 10\n"
                    "output { width 64 height 64 fps 24 background ( 0 0 0 ) }\n"
                    "actor \"a\" { mesh \"quad.md5mesh\" parm 4 0.25 }\n"));
    snprintf(sub, sizeof sub, "%s/scene.md5scene", dir);
    for (int c = 0; c < 2; c++) {
        mc_scene file;
        mc_scene_renderer *sr = NULL;
        mc_scene_renderer_desc d = { .msaa = 1, .clock = want[c].clock };
        mc_image_view v = { 64, 64, 64 * 4, px };
        mc_scene_frame_info info;

        ASSERT_OK(mc_scene_load(sub, NULL, &file, &err), &err);
        d.scene = &file;
        ASSERT_OK(mc_scene_renderer_create(&d, &sr, &err), &err);
        ASSERT_OK(mc_scene_renderer_frame(sr, 3, &v, &info, &err), &err);
        px_is_sized(px, 64, 32, 32, want[c].value, want[c].value, want[c].value, 1);
        px_is_sized(px, 64, 2, 2, 0, 0, 0, 0);
        mc_scene_renderer_release(sr);
        mc_scene_release(&file);
    }
    free(px);
}
