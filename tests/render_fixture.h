/* The renderer tests' shared scene (tests/render_test.c, tests/render_light_test.c): a camera at
 * the origin with Doom's identity axis, built without the library's math (the view, projection
 * and pixel positions are worked out in render_test.c's opening comment), a W x H image, and a
 * quad over the square (100, +-50, +-50). */
#ifndef MC_TEST_RENDER_FIXTURE_H
#define MC_TEST_RENDER_FIXTURE_H

#include <string.h>

#include <md5cine/render.h>

#include "test.h"

#define W 160
#define H 120

static inline mc_mat4 hand_view(void)
{
    mc_mat4 v = { { 0 } };

    /* rows (-L, U, -F) with L = +Y, U = +Z, F = +X; element (row r, col c) at m[c * 4 + r] */
    v.m[4] = -1.0f; /* row 0: -L */
    v.m[9] = 1.0f;  /* row 1: U */
    v.m[2] = -1.0f; /* row 2: -F */
    v.m[15] = 1.0f;
    return v;
}

static inline mc_mat4 hand_proj(void)
{
    mc_mat4 p = { { 0 } };

    p.m[0] = 1.0f;
    p.m[5] = 4.0f / 3.0f;
    p.m[10] = -0.999f;
    p.m[11] = -1.0f;
    p.m[14] = -2.0f;
    return p;
}

static inline mc_mat4 identity(void)
{
    mc_mat4 m = { { 0 } };

    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1.0f;
    return m;
}

static inline mc_frame_params frame(mc_shading shading, float bg_alpha)
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

static inline const uint8_t *px_at(const uint8_t *img, int col, int row)
{
    return img + ((size_t)row * W + (size_t)col) * 4;
}

/* A renderer of W x H with the given MSAA. */
static inline mc_renderer *make_renderer(int msaa)
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

/* A quad over the same square, two clockwise triangles, st (0, 0) at the top-left corner. */
static const mc_vec3 quad_pos[4] = {
    { 100, 50, 50 }, { 100, -50, 50 }, { 100, 50, -50 }, { 100, -50, -50 }
};
static const mc_vec3 quad_nrm[4] = { { -1, 0, 0 }, { -1, 0, 0 }, { -1, 0, 0 }, { -1, 0, 0 } };
static const float quad_st[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
/* (40,20) (120,20) (40,100) and (120,20) (120,100) (40,100): both +6400, clockwise */
static const int quad_idx[6] = { 0, 1, 2, 1, 3, 2 };

static inline mc_draw_item quad_item(int texture)
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

#endif
