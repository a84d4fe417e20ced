/* Scene lights drawn through light materials (scene.h `shader`, material.h, scene_renderer.c),
 * against pixels worked out by hand from Doom's interaction (render.h, mc_renderer_begin):
 *
 *      pass = clamp((n.L) * P * F * (D * Cd), 0, 1),   Cd = 2 * the light stage's colour
 *
 * The scene: test.h's quad (50 x 50 in the plane x = 0) facing its camera at (-100, 0, 0)
 * (fov 90, 64 x 64, black background), its material `quad { diffusemap white.png }` (D = 1, no
 * specular map: no specular term); one point light at (-50, 0, 0) with radius 200 (a box) and
 * no ambient. At the centre pixel (32, 32), world (0, ~-1.6, ~-1.6): n.L = 50 / |(50, 1.6,
 * 1.6)| = 0.999; the light's box coordinates (tr_lightrun.cpp, R_DeriveLightData) are
 * s = 0.5 + 0.5 * (0 + 50) / 200 = 0.625, t = 0.5 + 0.5 * (-1.6) / 200 = 0.496 and
 * f = 0.5 + 0.5 * (-1.6) / 200 = 0.496. grey.png is 4 x 4 texels of 128 (P = 128 / 255 =
 * 0.502 at (0.625, 0.496), a texel centre's column, between two rows of the same value; the
 * renderer gives zero outside 0..1 only, half a texel beyond the centres of the edge texels);
 * white4.png is the same of 255; `_white` as falloff is F = 1. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/image.h>
#include <md5cine/scene.h>
#include <md5cine/scene_renderer.h>

#include "test.h"

/* A scene folder named `name` with the quad, the camera, its images and materials/x.mtr = mtr,
 * and scene.md5scene with the given light block; its path into scene. */
static bool make_scene(const char *name, const char *mtr, const char *light, char *scene,
                       size_t cap)
{
    static const uint8_t white[4] = { 255, 255, 255, 255 };
    static const uint8_t ramp[8] = { 0, 0, 0, 255, 255, 255, 255, 255 };
    uint8_t grey[4 * 4 * 4], white4[4 * 4 * 4];
    char dir[512], path[700], text[1024];
    mc_error err;

    memset(white4, 255, sizeof white4);
    for (int i = 0; i < 16; i++) {
        memset(grey + i * 4, 128, 3);
        grey[i * 4 + 3] = 255;
    }

    test_tmp_path(dir, sizeof dir, name);
    snprintf(path, sizeof path, "%s/materials", dir);
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || (mkdir(path, 0777) != 0 && errno != EEXIST))
        return false;
    snprintf(path, sizeof path, "%s/white.png", dir);
    if (mc_png_write(path, white, 1, 1, 4, 1, &err) != MC_OK)
        return false;
    snprintf(path, sizeof path, "%s/grey.png", dir);
    if (mc_png_write(path, grey, 4, 4, 16, 1, &err) != MC_OK)
        return false;
    snprintf(path, sizeof path, "%s/white4.png", dir);
    if (mc_png_write(path, white4, 4, 4, 16, 1, &err) != MC_OK)
        return false;
    snprintf(path, sizeof path, "%s/ramp.png", dir);
    if (mc_png_write(path, ramp, 2, 1, 8, 1, &err) != MC_OK)
        return false;
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"front.md5camera\"\nbase \".\"\nframes 10\n"
             "output { width 64 height 64 fps 24 background ( 0 0 0 ) }\n"
             "actor \"a\" { mesh \"quad.md5mesh\" }\n%s\n",
             light);
    snprintf(scene, cap, "%s/scene.md5scene", dir);
    return test_write_file(dir, "quad.md5mesh", test_quad_mesh) &&
           test_write_file(dir, "front.md5camera", test_front_camera) &&
           test_write_file(dir, "materials/x.mtr", mtr) &&
           test_write_file(dir, "scene.md5scene", text);
}

/* Renders output frame k of scene and checks the centre pixel against (r, g, b), within tol. */
static void centre_within(const char *scene, mc_frame_no k, int r, int g, int b, int tol,
                          test_warnings *ws)
{
    uint8_t *px = calloc(64 * 64 * 4, 1);
    mc_scene file;
    mc_scene_renderer *sr = NULL;
    mc_scene_renderer_desc d = { .msaa = 1, .warn = test_record_warning, .warn_user = ws };
    mc_image_view v = { 64, 64, 64 * 4, px };
    mc_error err;
    const uint8_t *p;

    ASSERT(px);
    ASSERT_OK(mc_scene_load(scene, NULL, &file, &err), &err);
    d.scene = &file;
    ASSERT_OK(mc_scene_renderer_create(&d, &sr, &err), &err);
    ASSERT_OK(mc_scene_renderer_frame(sr, k, &v, NULL, &err), &err);
    p = px + (32 * 64 + 32) * 4;
    if (abs(p[0] - r) > tol || abs(p[1] - g) > tol || abs(p[2] - b) > tol)
        test_fail(__FILE__, __LINE__, "%s frame %lld: centre (%d, %d, %d), expected (%d, %d, %d)",
                  scene, (long long)k, p[0], p[1], p[2], r, g, b);
    mc_scene_renderer_release(sr);
    mc_scene_release(&file);
    free(px);
}

#define QUAD "quad { diffusemap white.png }\n"

/* centre_within, within 1. */
static void centre_is(const char *scene, mc_frame_no k, int r, int g, int b, test_warnings *ws)
{
    centre_within(scene, k, r, g, b, 1, ws);
}

/* `colored`: the stage's colour is the light's (parm0..2 = its colour). Colour (0.5 0.25 1):
 * 2 * 0.5 * 0.502 = 0.502 -> 128; 2 * 0.25 * 0.502 = 0.251 -> 64; 2 * 1 * 0.502 = 1.004,
 * clamped -> 255. The light names no shader: the base's lights/defaultPointLight is used. */
TEST(the_base_default_point_light_is_used_with_the_light_colour)
{
    char scene[700];
    test_warnings ws = { 0 };

    ASSERT(make_scene("lightmat_default",
                      QUAD "lights/defaultPointLight { lightFalloffImage _white\n"
                           "  { map grey.png colored } }\n",
                      "light \"l\" { origin ( -50 0 0 ) radius 200 color ( 0.5 0.25 1 ) }", scene,
                      sizeof scene));
    centre_is(scene, 0, 128, 64, 255, &ws);
    EXPECT_EQ_INT(ws.count, 0);
}

/* A named light material whose colour ignores the light's (no `colored`: rgb 0.25, so the
 * light's colour (1 0 0) does not matter) and whose falloff is ramp.png, 2 x 1 texels of 0 and
 * 255, clamped to the edge and bilinear (texel centres at 0.25 and 0.75): at f = 0.496 it reads
 * (0.496 - 0.25) / 0.5 = 0.492, so each channel is 2 * 0.25 * 1 * 0.492 = 0.246 -> 63. */
TEST(a_named_light_material_gives_colour_and_falloff)
{
    char scene[700];
    test_warnings ws = { 0 };

    ASSERT(make_scene("lightmat_named",
                      QUAD "lights/ramp { lightFalloffImage ramp.png\n"
                           "  { map white4.png rgb 0.25 } }\n",
                      "light \"l\" { origin ( -50 0 0 ) radius 200 color ( 1 0 0 ) "
                      "shader \"lights/ramp\" }",
                      scene, sizeof scene));
    centre_is(scene, 0, 63, 63, 63, &ws);
    EXPECT_EQ_INT(ws.count, 0);
}

/* Lights without shadows share one pass (the light group, src/gpu/render_int.h), which must
 * add what their own passes would have added: each light's share as the RGBA8 target stores
 * it, rounded, then the sum. Two lights of lights/dim (falloff _white: F = 1, white4.png:
 * P = 1, rgb 0.0791): each 2 * 0.0791 * n.L 0.9990248 = 0.158046 -> 40.30 -> 40, so 80
 * exactly (the unrounded sum, 80.60, would store 81). Then lights/ramp above (63) with the
 * `colored` light of lights/defaultPointLight at colour (0.5 0.25 1), (128, 64, 255) from the
 * first test: (63 + 128, 63 + 64, 255) = (191, 127, 255), each image on its own units. */
TEST(lights_without_shadows_add_as_their_own_passes_would)
{
    char scene[900];
    test_warnings ws = { 0 };

    ASSERT(make_scene("lightmat_group_same",
                      QUAD "lights/dim { lightFalloffImage _white\n"
                           "  { map white4.png rgb 0.0791 } }\n",
                      "light \"a\" { origin ( -50 0 0 ) radius 200 shader \"lights/dim\" "
                      "noShadows 1 }\n"
                      "light \"b\" { origin ( -50 0 0 ) radius 200 shader \"lights/dim\" "
                      "noShadows 1 }",
                      scene, sizeof scene));
    centre_within(scene, 0, 80, 80, 80, 0, &ws);
    ASSERT(make_scene("lightmat_group_two",
                      QUAD "lights/ramp { lightFalloffImage ramp.png\n"
                           "  { map white4.png rgb 0.25 } }\n"
                           "lights/defaultPointLight { lightFalloffImage _white\n"
                           "  { map grey.png colored } }\n",
                      "light \"a\" { origin ( -50 0 0 ) radius 200 shader \"lights/ramp\" "
                      "noShadows 1 }\n"
                      "light \"b\" { origin ( -50 0 0 ) radius 200 color ( 0.5 0.25 1 ) "
                      "noShadows 1 }",
                      scene, sizeof scene));
    centre_within(scene, 0, 191, 127, 255, 0, &ws);
    EXPECT_EQ_INT(ws.count, 0);
}

/* A stage with a condition and an expression, on the scene's clock (ideal: output frame k at
 * 24 fps is k / 24 s): `if ( time > 0.2 )`, `rgb 0.25 * time`. Frame 3 (0.125 s): the stage is
 * off, no light: black. Frame 9 (0.375 s): 2 * 0.09375 * 0.502 = 0.0941 -> 24. */
TEST(a_light_stage_is_evaluated_per_frame)
{
    char scene[700];
    test_warnings ws = { 0 };

    ASSERT(make_scene("lightmat_time",
                      QUAD "lights/pulse { lightFalloffImage _white\n"
                           "  { if ( time > 0.2 ) map grey.png rgb 0.25 * time } }\n",
                      "light \"l\" { origin ( -50 0 0 ) radius 200 shader \"lights/pulse\" }",
                      scene, sizeof scene));
    centre_is(scene, 3, 0, 0, 0, &ws);
    centre_is(scene, 9, 24, 24, 24, &ws);
}

/* A light material the base does not declare: a warning at the scene's shader string, and the
 * light is Doom's default, here md5cine's built-in default light (no lights/defaultPointLight
 * in the base) -- the same pixel as a light that names no shader. */
TEST(an_undeclared_light_material_warns_and_falls_back)
{
    char scene[700], plain[700];
    test_warnings ws = { 0 }, none = { 0 };
    uint8_t *a = calloc(64 * 64 * 4, 1), *b = calloc(64 * 64 * 4, 1);
    const char *paths[2] = { scene, plain };
    uint8_t *out[2] = { a, b };
    test_warnings *wss[2] = { &ws, &none };
    mc_error err;

    ASSERT(a && b);
    ASSERT(make_scene("lightmat_missing", QUAD,
                      "light \"l\" { origin ( -50 0 0 ) radius 200 shader \"lights/nothere\" }",
                      scene, sizeof scene));
    ASSERT(make_scene("lightmat_plain", QUAD, "light \"l\" { origin ( -50 0 0 ) radius 200 }",
                      plain, sizeof plain));
    for (int i = 0; i < 2; i++) {
        mc_scene file;
        mc_scene_renderer *sr = NULL;
        mc_scene_renderer_desc d = { .msaa = 1, .warn = test_record_warning, .warn_user = wss[i] };
        mc_image_view v = { 64, 64, 64 * 4, out[i] };

        ASSERT_OK(mc_scene_load(paths[i], NULL, &file, &err), &err);
        d.scene = &file;
        ASSERT_OK(mc_scene_renderer_create(&d, &sr, &err), &err);
        ASSERT_OK(mc_scene_renderer_frame(sr, 0, &v, NULL, &err), &err);
        mc_scene_renderer_release(sr);
        mc_scene_release(&file);
    }
    EXPECT_EQ_INT(ws.count, 1);
    EXPECT_EQ_INT(ws.last.line, 7);
    EXPECT(strstr(ws.last.file, "scene.md5scene") != NULL);
    EXPECT(strstr(ws.last.msg, "no light material 'lights/nothere'") != NULL);
    EXPECT_EQ_INT(none.count, 0);
    EXPECT(memcmp(a, b, 64 * 64 * 4) == 0);
    EXPECT(a[(32 * 64 + 32) * 4] > 0); /* and it does light the quad */
    free(a);
    free(b);
}

/* A light shader in a scene without a base is an error at the shader string. */
TEST(a_light_shader_needs_a_base)
{
    char dir[512], scene[700];
    mc_scene file;
    mc_scene_renderer *sr = NULL;
    mc_scene_renderer_desc d = { .msaa = 1 };
    mc_error err;

    test_tmp_path(dir, sizeof dir, "lightmat_nobase");
    ASSERT(mkdir(dir, 0777) == 0 || errno == EEXIST);
    ASSERT(test_write_file(dir, "quad.md5mesh", test_quad_mesh) &&
           test_write_file(dir, "front.md5camera", test_front_camera));
    ASSERT(test_write_file(dir, "scene.md5scene",
                    "md5scene 1\ncamera \"front.md5camera\"\n"
                    "actor \"a\" { mesh \"quad.md5mesh\" }\n"
                    "light \"l\" { origin ( -50 0 0 ) radius 200 shader \"lights/x\" }\n"));
    snprintf(scene, sizeof scene, "%s/scene.md5scene", dir);
    ASSERT_OK(mc_scene_load(scene, NULL, &file, &err), &err);
    d.scene = &file;
    EXPECT_EQ_INT(mc_scene_renderer_create(&d, &sr, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(err.line, 4);
    EXPECT_EQ_INT(err.col, 50);
    EXPECT(strstr(err.msg, "names a shader, but the scene names no base folder") != NULL);
    mc_scene_release(&file);
}
