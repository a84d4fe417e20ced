/* The renderer's Doom interaction and material switches, checked against pixels worked out by
 * hand from the engine's formulas (dhewm3 interaction.vfp, draw_arb2.cpp, tr_render.cpp) on the
 * scene of tests/render_fixture.h: a camera at the origin looking down +X and a quad at x = 100
 * that covers columns 40-120 and rows 20-100 of the 160 x 120 image. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/render.h>

#include "render_fixture.h"
#include "test.h"

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
TEST(interaction_matches_doom_by_hand)
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
TEST(light_images_are_sampled_at_doom_texgen)
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
TEST(point_light_lights_a_box)
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
 * the rule it would be lit. With MC_MTR_NO_SELF_SHADOW it is: n.L at the pixel = 50 / |(50, 0.625,
 * 0.625)| = 0.99984, D = 0.5, C = 0.5 -> 0.49992 -> 127.5. */
TEST(triangle_facing_away_from_the_light_is_unlit)
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
    it.material_flags = MC_MTR_NO_SELF_SHADOW;
    if (render_items(r, &p, &it, 1, img))
        for (int c = 0; c < 3; c++)
            EXPECT_NEAR(px_at(img, 80, 60)[c], 127.5, 2);
    it.material_flags = MC_MTR_NO_SHADOWS;
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
TEST(mirrored_model_mirrors_the_normal_map)
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
TEST(ambient_light_alone_outside_the_box)
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
TEST(alpha_test_discards_the_transparent_half)
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
TEST(two_sided_keeps_the_normal_on_the_back)
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
    it.material_flags = MC_MTR_TWO_SIDED | MC_MTR_NO_SHADOWS;
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
TEST(translucent_items_blend_over_the_opaque_ones)
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
    items[0].material_flags = MC_MTR_TRANSLUCENT;
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
TEST(polygon_offset_pulls_a_coplanar_surface_in_front)
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

TEST(bad_lights_and_switches_are_rejected)
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
