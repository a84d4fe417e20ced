/* Shadow volumes on the CPU (src/gpu/shadow_volume.h): silhouette edges and caps of a cube and
 * a quad, counted by hand, and the volume checked to be a closed surface facing outwards.
 *
 * The cube spans -1..1 on each axis. Its triangles are made with Doom's front face: the
 * outward normal is (c - a) x (b - a) (tr_trisurf.cpp R_DeriveFacePlanes). It has 12 triangles,
 * 12 cube edges and 6 face diagonals: 18 edges, all shared by two triangles once the corners
 * are welded. */
#include <stdlib.h>

#include "gpu/shadow_volume.h"
#include "test.h"

typedef struct mesh {
    mc_vec3 pos[24];
    int idx[36];
    int nv, nt;
} mesh;

/* Face with outward normal u x v at centre u x v: corners a = n - u - v, b = n - u + v,
 * c = n + u + v, d = n + u - v; triangles (a b c) and (a c d): (c - a) x (b - a) =
 * (2u + 2v) x 2v = 4 u x v, outward. */
static void add_face(mesh *m, mc_vec3 u, mc_vec3 v, int welded)
{
    mc_vec3 n = { u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x };
    const float su[4] = { -1, -1, 1, 1 }, sv[4] = { -1, 1, 1, -1 };
    int corner[4];

    for (int k = 0; k < 4; k++) {
        mc_vec3 p = { n.x + su[k] * u.x + sv[k] * v.x, n.y + su[k] * u.y + sv[k] * v.y,
                      n.z + su[k] * u.z + sv[k] * v.z };
        int found = -1;

        for (int i = 0; welded && i < m->nv; i++)
            if (m->pos[i].x == p.x && m->pos[i].y == p.y && m->pos[i].z == p.z)
                found = i;
        if (found < 0) {
            found = m->nv;
            m->pos[m->nv++] = p;
        }
        corner[k] = found;
    }
    const int tri[6] = { 0, 1, 2, 0, 2, 3 };
    for (int k = 0; k < 6; k++)
        m->idx[m->nt * 3 + k] = corner[tri[k]];
    m->nt += 2;
}

static mesh cube(int welded)
{
    mesh m;
    const mc_vec3 X = { 1, 0, 0 }, Y = { 0, 1, 0 }, Z = { 0, 0, 1 };

    memset(&m, 0, sizeof m);
    add_face(&m, Y, Z, welded); /* +x */
    add_face(&m, Z, Y, welded); /* -x */
    add_face(&m, Z, X, welded); /* +y */
    add_face(&m, X, Z, welded); /* -y */
    add_face(&m, X, Y, welded); /* +z */
    add_face(&m, Y, X, welded); /* -z */
    return m;
}

static int dangling(const gpu_shadow_work *w)
{
    int n = 0;

    for (int i = 0; i < w->num_edges; i++)
        n += w->edges[i].p2 == w->num_tris;
    return n;
}

static size_t volume(gpu_shadow_work *w, const mesh *m, const float light[3], unsigned *out)
{
    mc_error err;

    if (gpu_shadow_topology(w, m->pos, m->nv, m->idx, m->nt, &err) != MC_OK)
        return (size_t)-1;
    return gpu_shadow_volume(w, m->pos, m->idx, light, NULL, 0, out);
}

TEST(welds_the_seams_of_an_unwelded_cube)
{
    gpu_shadow_work w = { 0 };
    mesh a = cube(1), b = cube(0);
    mc_error err;

    EXPECT_EQ_INT(a.nv, 8);
    EXPECT_EQ_INT(b.nv, 24);
    ASSERT_OK(gpu_shadow_topology(&w, a.pos, a.nv, a.idx, a.nt, &err), &err);
    EXPECT_EQ_INT(w.num_edges, 18);
    EXPECT_EQ_INT(dangling(&w), 0);
    /* 24 corners, 4 per face: without the weld only the 6 diagonals would pair up */
    ASSERT_OK(gpu_shadow_topology(&w, b.pos, b.nv, b.idx, b.nt, &err), &err);
    EXPECT_EQ_INT(w.num_edges, 18);
    EXPECT_EQ_INT(dangling(&w), 0);
    gpu_shadow_work_free(&w);
}

/* Counts the silhouette quads and cap triangles of a volume: a triangle with all three
 * vertices at infinity (odd numbers) is a far cap, all on the mesh a near cap, else a side. */
static void count(const unsigned *v, size_t n, int *near, int *far, int *side)
{
    *near = *far = *side = 0;
    for (size_t i = 0; i < n; i += 3) {
        int inf = (int)(v[i] & 1u) + (int)(v[i + 1] & 1u) + (int)(v[i + 2] & 1u);

        *near += inf == 0;
        *far += inf == 3;
        *side += inf == 1 || inf == 2;
    }
}

TEST(light_above_makes_four_silhouette_edges_and_ten_cap_triangles)
{
    /* Light at (0 0 10): only the top faces it (side planes x = 1 etc. have the light on
     * their back: 0 - 1 < 0; the bottom: -(10 + 1) < 0). Silhouette: the top's 4 edges, 2
     * triangles each; caps: the other 10 triangles on the mesh and 10 at infinity. */
    gpu_shadow_work w = { 0 };
    unsigned out[256];
    const float light[3] = { 0, 0, 10 };
    int near, far, side;

    for (int welded = 0; welded < 2; welded++) {
        mesh m = cube(welded);
        size_t n = volume(&w, &m, light, out);

        EXPECT_EQ_INT(n, 4 * 6 + 10 * 6);
        count(out, n, &near, &far, &side);
        EXPECT_EQ_INT(near, 10);
        EXPECT_EQ_INT(far, 10);
        EXPECT_EQ_INT(side, 8);
    }
    gpu_shadow_work_free(&w);
}

TEST(light_off_a_corner_makes_a_hexagon_silhouette)
{
    /* Light at (10 10 10): +x, +y, +z face it, -x, -y, -z do not; the silhouette is the
     * 6 edges between the two groups; caps 6 triangles each. */
    gpu_shadow_work w = { 0 };
    unsigned out[256];
    const float light[3] = { 10, 10, 10 };
    mesh m = cube(1);
    int near, far, side;
    size_t n = volume(&w, &m, light, out);

    EXPECT_EQ_INT(n, 6 * 6 + 6 * 6);
    count(out, n, &near, &far, &side);
    EXPECT_EQ_INT(near, 6);
    EXPECT_EQ_INT(far, 6);
    EXPECT_EQ_INT(side, 12);
    gpu_shadow_work_free(&w);
}

/* The vertex a shadow vertex number stands for, welded (by position) and with its w. */
static int key(const mesh *m, unsigned sv)
{
    int v = (int)(sv >> 1);

    for (int i = 0; i < v; i++)
        if (m->pos[i].x == m->pos[v].x && m->pos[i].y == m->pos[v].y &&
            m->pos[i].z == m->pos[v].z) {
            v = i;
            break;
        }
    return v * 2 + (int)(sv & 1u);
}

TEST(volume_is_closed_and_faces_outwards)
{
    /* Closed: every directed edge a -> b of the volume's triangles is matched by exactly one
     * b -> a. Outwards: with each vertex at infinity put at L + (p - L) * 3 instead, the
     * signed volume sum(a . (b x c)) / 6 is negative for Doom's winding (front normal
     * (c - a) x (b - a) outward) -- the region is the cube's shadow frustum minus the cube. */
    gpu_shadow_work w = { 0 };
    unsigned out[256];
    const float lights[2][3] = { { 0, 0, 10 }, { 10, 10, 10 } };

    for (int welded = 0; welded < 2; welded++)
        for (int l = 0; l < 2; l++) {
            mesh m = cube(welded);
            size_t n = volume(&w, &m, lights[l], out);
            double vol = 0.0;
            int unmatched = 0;

            for (size_t i = 0; i < n; i += 3)
                for (int e = 0; e < 3; e++) {
                    int a = key(&m, out[i + (size_t)e]), b = key(&m, out[i + (size_t)(e + 1) % 3]);
                    int fwd = 0, back = 0;

                    for (size_t j = 0; j < n; j += 3)
                        for (int f = 0; f < 3; f++) {
                            int c = key(&m, out[j + (size_t)f]);
                            int d = key(&m, out[j + (size_t)(f + 1) % 3]);

                            fwd += c == a && d == b;
                            back += c == b && d == a;
                        }
                    unmatched += fwd != 1 || back != 1;
                }
            for (size_t i = 0; i < n; i += 3) {
                double p[3][3];

                for (int k = 0; k < 3; k++) {
                    const mc_vec3 *q = &m.pos[out[i + (size_t)k] >> 1];
                    double s = (out[i + (size_t)k] & 1u) ? 3.0 : 1.0;

                    p[k][0] = (double)lights[l][0] + (double)(q->x - lights[l][0]) * s;
                    p[k][1] = (double)lights[l][1] + (double)(q->y - lights[l][1]) * s;
                    p[k][2] = (double)lights[l][2] + (double)(q->z - lights[l][2]) * s;
                }
                vol += (p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
                        p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                        p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0])) /
                       6.0;
            }
            EXPECT(n > 0);
            EXPECT_EQ_INT(unmatched, 0);
            EXPECT(vol < -8.0); /* at least the frustum beyond the cube */
        }
    gpu_shadow_work_free(&w);
}

TEST(open_quad_extrudes_its_dangling_edges)
{
    /* A quad in z = 1 facing +z, (a b c) (a c d) as in add_face. A light below (z = -10)
     * is behind both triangles: 4 dangling edges (fake face always facing) become sides and
     * the 2 triangles caps: 4 * 6 + 2 * 6. A light above: nothing casts, no volume. */
    gpu_shadow_work w = { 0 };
    mesh m;
    unsigned out[64];
    const float below[3] = { 0.5f, 0, -10 }, above[3] = { 0, 0.5f, 10 };
    mc_error err;

    memset(&m, 0, sizeof m);
    add_face(&m, (mc_vec3){ 1, 0, 0 }, (mc_vec3){ 0, 1, 0 }, 1);
    ASSERT_OK(gpu_shadow_topology(&w, m.pos, m.nv, m.idx, m.nt, &err), &err);
    EXPECT_EQ_INT(w.num_edges, 5);
    EXPECT_EQ_INT(dangling(&w), 4);
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, below, NULL, 0, out), 36);
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, above, NULL, 0, out), 0);
    /* mirrored: the front is the other side, so the light above is now behind */
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, above, NULL, 1, out), 36);
    gpu_shadow_work_free(&w);
}

TEST(triangles_outside_the_light_cast_nothing)
{
    /* Light above at (0 0 10) with a box -5..5 on x, y and 2..20 on z: the cube (z <= 1) is
     * wholly below the plane z >= 2, so every triangle counts as facing and there is no
     * volume. With the box down to z >= -20 it casts as before (84 indices). The bottom plane
     * z >= 0.95 leaves only the top corners inside by more than 0.1 (1 - 0.95 = 0.05 < 0.1):
     * every triangle has its three vertices within the epsilon and casts nothing either. */
    gpu_shadow_work w = { 0 };
    unsigned out[256];
    const float light[3] = { 0, 0, 10 };
    float pl[6][4] = { { 1, 0, 0, 5 },  { -1, 0, 0, 5 }, { 0, 1, 0, 5 },
                       { 0, -1, 0, 5 }, { 0, 0, 1, -2 }, { 0, 0, -1, 20 } };
    mesh m = cube(1);
    mc_error err;

    ASSERT_OK(gpu_shadow_topology(&w, m.pos, m.nv, m.idx, m.nt, &err), &err);
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, light, (const float(*)[4])pl, 0, out), 0);
    pl[4][3] = 20.0f;
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, light, (const float(*)[4])pl, 0, out), 84);
    pl[4][3] = -0.95f;
    EXPECT_EQ_INT(gpu_shadow_volume(&w, m.pos, m.idx, light, (const float(*)[4])pl, 0, out), 0);
    gpu_shadow_work_free(&w);
}

TEST(shadow_vertices_come_in_pairs)
{
    const mc_vec3 p[2] = { { 1, 2, 3 }, { -4, 5, -6 } };
    float v[16];
    const float want[16] = { 1, 2, 3, 1, 1, 2, 3, 0, -4, 5, -6, 1, -4, 5, -6, 0 };

    gpu_shadow_vertices(p, 2, v);
    for (int i = 0; i < 16; i++)
        EXPECT_NEAR(v[i], want[i], 0.0);
}

/* ---- where a volume can count (shadow_scissor.c) ---- */

TEST(box_of_moves_the_corners)
{
    const mc_vec3 p[2] = { { 0, 0, 0 }, { 1, 2, 3 } };
    /* scale 2, then move by (10, 0, 0): x 10..12, y 0..4, z 0..6 */
    const float scale[16] = { 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1 };
    /* a quarter turn about z: (x, y) -> (-y, x): x -2..0, y 0..1, z 0..3 */
    const float turn[16] = { 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    gpu_box b;

    gpu_box_of(p, 2, scale, &b);
    EXPECT_NEAR(b.min[0], 10, 1e-6);
    EXPECT_NEAR(b.max[0], 12, 1e-6);
    EXPECT_NEAR(b.max[1], 4, 1e-6);
    EXPECT_NEAR(b.max[2], 6, 1e-6);
    gpu_box_of(p, 2, turn, &b);
    EXPECT_NEAR(b.min[0], -2, 1e-6);
    EXPECT_NEAR(b.max[0], 0, 1e-6);
    EXPECT_NEAR(b.min[1], 0, 1e-6);
    EXPECT_NEAR(b.max[1], 1, 1e-6);
    EXPECT_NEAR(b.max[2], 3, 1e-6);
}

/* clip = (x, y, z, 1): window x = (x / 2 + 1 / 2) * 100, window y = (-y / 2 + 1 / 2) * 100 */
static const float flat_vp[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

TEST(box_rect_projects_and_clips)
{
    const gpu_box b = { { -0.5f, -0.25f, 0 }, { 0.5f, 0.5f, 0 } };
    const gpu_box off = { { 2, 2, 0 }, { 3, 3, 0 } };
    const float right[1][4] = { { 1, 0, 0, 0 } }; /* x >= 0 */
    const float none[1][4] = { { 1, 0, 0, -1 } }; /* x >= 1 */
    int r[4] = { -1, -1, -1, -1 };

    /* x -0.5..0.5 -> 25..75; y 0.5..-0.25 -> rows 25..62.5, 63 after rounding out */
    ASSERT(gpu_box_rect(&b, NULL, 0, flat_vp, 100, 100, 0, r));
    EXPECT_EQ_INT(r[0], 25);
    EXPECT_EQ_INT(r[1], 25);
    EXPECT_EQ_INT(r[2], 50);
    EXPECT_EQ_INT(r[3], 38);
    /* x >= 0 keeps 50..75; a margin of 2 widens each side */
    ASSERT(gpu_box_rect(&b, right, 1, flat_vp, 100, 100, 2, r));
    EXPECT_EQ_INT(r[0], 48);
    EXPECT_EQ_INT(r[1], 23);
    EXPECT_EQ_INT(r[2], 29);
    EXPECT_EQ_INT(r[3], 42);
    EXPECT(!gpu_box_rect(&b, none, 1, flat_vp, 100, 100, 2, r));
    EXPECT(!gpu_box_rect(&off, NULL, 0, flat_vp, 100, 100, 0, r));
}

TEST(box_rect_keeps_what_is_in_front_of_the_camera)
{
    /* clip w = z: the camera at the origin looking along +z */
    const float vp[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0 };
    const gpu_box ahead = { { -1, -1, 2 }, { 1, 1, 4 } };
    const gpu_box around = { { -1, -1, -1 }, { 1, 1, 1 } };
    const gpu_box behind = { { -1, -1, -3 }, { 1, 1, -2 } };
    int r[4];

    /* widest at z = 2: x / z = +-0.5 -> 25..75 */
    ASSERT(gpu_box_rect(&ahead, NULL, 0, vp, 100, 100, 0, r));
    EXPECT_EQ_INT(r[0], 25);
    EXPECT_EQ_INT(r[2], 50);
    EXPECT_EQ_INT(r[1], 25);
    EXPECT_EQ_INT(r[3], 50);
    /* a box around the camera reaches every edge of the frame */
    ASSERT(gpu_box_rect(&around, NULL, 0, vp, 100, 100, 0, r));
    EXPECT_EQ_INT(r[0], 0);
    EXPECT_EQ_INT(r[1], 0);
    EXPECT_EQ_INT(r[2], 100);
    EXPECT_EQ_INT(r[3], 100);
    EXPECT(!gpu_box_rect(&behind, NULL, 0, vp, 100, 100, 0, r));
}

TEST(pyramid_holds_the_casters_shadow_on_the_floor)
{
    /* light 10 above the floor, caster 2 wide from 4 to 6 above it: its rays spread 1 across
     * per 4 down (the near corners, 4 below the light), so they reach the floor within
     * |x|, |y| <= 10 / 4 = 2.5; gpu_shadow_pyramid widens the spread of 0.5 by 0.02 * 0.5 +
     * 0.01 = 0.02 on each side: |x|, |y| <= 10 * 0.27 = 2.7 */
    const float light[3] = { 0, 0, 10 };
    const gpu_box caster = { { -1, -1, 4 }, { 1, 1, 6 } };
    const gpu_box floor = { { -100, -100, 0 }, { 100, 100, 0 } };
    const gpu_box aside = { { 5, -1, 0 }, { 6, 1, 0 } };
    /* between the light and the caster: 2..3 below the light, above the plane across at
     * 0.9 * 4 = 3.6 */
    const gpu_box above = { { -1, -1, 7 }, { 1, 1, 8 } };
    const float inside[3] = { 0, 0, 5 };
    /* window = 50 + 5 x (x / 10 on clip x) */
    const float vp[16] = { 0.1f, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    float pl[5][4];
    int r[4];

    ASSERT(gpu_shadow_pyramid(light, &caster, pl));
    /* x -2.7..2.7 -> 36.5..63.5, rounded out to 36..64 */
    ASSERT(gpu_box_rect(&floor, (const float(*)[4])pl, 5, vp, 100, 100, 0, r));
    EXPECT_EQ_INT(r[0], 36);
    EXPECT_EQ_INT(r[2], 28);
    EXPECT_EQ_INT(r[1], 36);
    EXPECT_EQ_INT(r[3], 28);
    EXPECT(!gpu_box_rect(&aside, (const float(*)[4])pl, 5, vp, 100, 100, 0, r));
    EXPECT(!gpu_box_rect(&above, (const float(*)[4])pl, 5, vp, 100, 100, 0, r));
    /* a light inside the caster's box has no pyramid */
    EXPECT(!gpu_shadow_pyramid(inside, &caster, pl));
}
