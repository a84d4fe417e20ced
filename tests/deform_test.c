/* Material deforms (src/scene/deform.c) against positions worked out by hand from
 * renderer/tr_deform.cpp's formulas, and the `deform` keyword of .mtr files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/mtr.h>

#include "scene/deform.h"
#include "test.h"

/* A quad's four vertices and two triangles (0 1 2) (0 2 3), with texture coordinates. */
typedef struct quad {
    mc_vec3 pos[4], nrm[4];
    float st[8];
    int idx[6];
} quad;

typedef struct buffers {
    mc_vec3 pos[MC_DEFORM_FLARE_VERTS], nrm[MC_DEFORM_FLARE_VERTS];
    float st[2 * MC_DEFORM_FLARE_VERTS];
    int idx[3 * MC_DEFORM_FLARE_TRIS];
} buffers;

static mc_deform_surface surface_of(const quad *q)
{
    mc_deform_surface s = { q->pos, q->nrm, q->st, 2 * sizeof(float), q->idx, 4, 2 };

    return s;
}

static mc_deform_out out_of(buffers *b)
{
    mc_deform_out o = { b->pos, b->nrm, b->st, b->idx, 0, 0 };

    return o;
}

static quad make_quad(mc_vec3 a, mc_vec3 b, mc_vec3 c, mc_vec3 d)
{
    quad q = { { a, b, c, d },
               { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
               { 0.5f, 0.25f, 0.5f, 0.25f, 0.5f, 0.25f, 0.5f, 0.25f },
               { 0, 1, 2, 0, 2, 3 } };

    return q;
}

static mc_deform_result run(mc_deform_kind kind, const float v[3], const mc_expr_table *table,
                            const mc_deform_view *view, const quad *q, buffers *b, mc_deform_out *o)
{
    mc_deform_surface in = surface_of(q);
    const char *why;

    *o = out_of(b);
    return mc_deform_apply(kind, v, table, view, &in, o, &why);
}

/* R_AutospriteDeform: a 4 x 4 quad in the plane x = 10 centred on (10, 0, 0), seen by a camera
 * whose left is -X and up +Z: radius = |(0, 2, 2)| * 0.707 = 2 sqrt(2) 0.707; the corners
 * mid + left r + up r, mid - left r + up r, ... with texture (0,0) (1,0) (1,1) (0,1). */
TEST(sprite_faces_the_camera)
{
    quad q = make_quad(mc_v3(10, 2, 2), mc_v3(10, -2, 2), mc_v3(10, -2, -2), mc_v3(10, 2, -2));
    mc_deform_view view = { { 10, -50, 0 }, { -1, 0, 0 }, { 0, 0, 1 } };
    float r = 2.0f * sqrtf(2.0f) * 0.707f;
    const float v[3] = { 0, 0, 0 };
    buffers b;
    mc_deform_out o;

    ASSERT(run(MC_DEFORM_SPRITE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_INT(o.num_verts, 4);
    EXPECT_EQ_INT(o.num_tris, 2);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(10 - r, 0, r), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[1], mc_v3(10 + r, 0, r), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[2], mc_v3(10 + r, 0, -r), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[3], mc_v3(10 - r, 0, -r), 1e-5f);
    EXPECT_NEAR(r, 1.9996979, 1e-6);
    static const float st[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
    static const int idx[6] = { 0, 1, 2, 0, 2, 3 };
    for (int i = 0; i < 8; i++)
        EXPECT_NEAR(o.st[i], st[i], 0);
    for (int i = 0; i < 6; i++)
        EXPECT_EQ_INT(o.idx[i], idx[i]);
    /* clockwise seen from the camera at -Y: the normal points at it */
    EXPECT_EQ_VEC3(o.nrm[0], mc_v3(0, -1, 0), 1e-5f);
}

/* The view brought into an actor's space: model = yaw 90 (x -> y, y -> -x) then a move by
 * (100, 0, 0). The world eye (100, -50, 0) is local R^-1 (0, -50, 0) = (-50, 0, 0); the world
 * left (-1, 0, 0) is local (0, 1, 0); up stays (0, 0, 1). */
TEST(view_is_brought_into_model_space)
{
    mc_mat4 m = mc_mat4_identity();
    mc_mat3 axis = { { { 0, 1, 0 }, { -1, 0, 0 }, { 0, 0, 1 } } };
    mc_deform_view v;

    m.m[0] = 0;
    m.m[1] = 1;
    m.m[4] = -1;
    m.m[5] = 0;
    m.m[12] = 100;
    mc_deform_view_local(&m, mc_v3(100, -50, 0), &axis, &v);
    EXPECT_EQ_VEC3(v.origin, mc_v3(-50, 0, 0), 1e-4f);
    EXPECT_EQ_VEC3(v.left, mc_v3(0, 1, 0), 1e-6f);
    EXPECT_EQ_VEC3(v.up, mc_v3(0, 0, 1), 1e-6f);
}

/* R_TubeDeform: a 2 x 20 quad in the plane x = 0, long along z, seen edge-on from (0, 10, 0).
 * Edges of (0 1 2) (0 2 3): |v0v1| = 2, |v1v2| = 20, |v2v0| = sqrt(404), |v0v2| = sqrt(404),
 * |v2v3| = 2, |v3v0| = 20: the shortest are edge 0 (v0 v1, mid (0,0,10)) and edge 4 (v2 v3,
 * mid (0,0,-10)), major (0,0,-20). Minor for the first: (0,0,-20) x (0,-10,10) = (-200,0,0),
 * unit (-1,0,0): v0 = mid + minor, v1 = mid - minor; for the second (0,0,-20) x (0,-10,-10) =
 * (-200,0,0): v2 = mid - minor, v3 = mid + minor. The quad turns to face the eye. */
TEST(tube_turns_about_its_long_axis)
{
    quad q = make_quad(mc_v3(0, -1, 10), mc_v3(0, 1, 10), mc_v3(0, 1, -10), mc_v3(0, -1, -10));
    mc_deform_view view = { { 0, 10, 0 }, { 1, 0, 0 }, { 0, 0, 1 } };
    const float v[3] = { 0, 0, 0 };
    buffers b;
    mc_deform_out o;

    ASSERT(run(MC_DEFORM_TUBE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(-1, 0, 10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[1], mc_v3(1, 0, 10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[2], mc_v3(1, 0, -10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[3], mc_v3(-1, 0, -10), 1e-6f);
    /* indices and texture coordinates kept */
    for (int i = 0; i < 6; i++)
        EXPECT_EQ_INT(o.idx[i], q.idx[i]);
    EXPECT_NEAR(o.st[6], 0.5, 0);
    EXPECT_NEAR(o.st[7], 0.25, 0);

    /* Seen from (10, 0, 0) instead: minor = (0,0,-20) x (-10,0,10) = (0,200,0), unit (0,1,0). */
    view.origin = mc_v3(10, 0, 0);
    ASSERT(run(MC_DEFORM_TUBE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(0, 1, 10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[1], mc_v3(0, -1, 10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[2], mc_v3(0, -1, -10), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[3], mc_v3(0, 1, -10), 1e-6f);
}

/* R_FlareDeform on the quad (0,-1,1) (0,1,1) (0,1,-1) (0,-1,-1): plane normal (p0 - p1) x
 * (p2 - p1) = (0,-2,0) x (0,0,-2) = (4,0,0), unit +X, d = 0. Eye (10,0,0): 10 in front. Corner
 * 0: toEye ~ (-10,-1,1), d1 ~ (-10,1,1), d2 ~ (-10,-1,-1); toEye x d1 ~ (-2,0,-20), so edge 1 =
 * (2,0,20)/sqrt(404); toEye x d2 ~ (2,-20,0), edge 0 = (2,-20,0)/sqrt(404); edge 2 their
 * normalised sum. Spread 1: rim 4 = p0 + e0, 5 = p0 + e2, 6 = p0 + e1, all in front of the
 * plane (not pulled back); corner 2 mirrors corner 0 (y, z negated). */
TEST(flare_grows_a_rim_and_hides_from_behind)
{
    quad q = make_quad(mc_v3(0, -1, 1), mc_v3(0, 1, 1), mc_v3(0, 1, -1), mc_v3(0, -1, -1));
    mc_deform_view view = { { 10, 0, 0 }, { 0, -1, 0 }, { 0, 0, 1 } };
    const float v[3] = { 1, 0, 0 };
    float k = 1.0f / sqrtf(404.0f);
    mc_vec3 e0 = mc_v3(2 * k, -20 * k, 0), e1 = mc_v3(2 * k, 0, 20 * k);
    mc_vec3 e2 = mc_v3_normalize(mc_v3_add(e0, e1));
    buffers b;
    mc_deform_out o;

    ASSERT(run(MC_DEFORM_FLARE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_INT(o.num_verts, 16);
    EXPECT_EQ_INT(o.num_tris, 18);
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ_VEC3(o.pos[i], q.pos[i], 0);
        EXPECT_NEAR(o.st[2 * i], 0.5, 0);
    }
    EXPECT_EQ_VEC3(o.pos[4], mc_v3_add(q.pos[0], e0), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[5], mc_v3_add(q.pos[0], e2), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[6], mc_v3_add(q.pos[0], e1), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[4], mc_v3(0.0995037f, -1.9950372f, 1), 1e-5f);
    EXPECT_EQ_VEC3(o.pos[10], mc_v3(0.0995037f, 1.9950372f, -1), 1e-5f);
    EXPECT_NEAR(o.st[8], 0, 0);
    EXPECT_NEAR(o.st[9], 0.5, 0);
    /* the engine's first and last triangles */
    EXPECT_EQ_INT(o.idx[0], 0);
    EXPECT_EQ_INT(o.idx[1], 4);
    EXPECT_EQ_INT(o.idx[2], 5);
    EXPECT_EQ_INT(o.idx[51], 11);
    EXPECT_EQ_INT(o.idx[52], 2);
    EXPECT_EQ_INT(o.idx[53], 10);

    /* An eye behind the plane, at (-10, 0, 0): nothing is drawn. */
    view.origin = mc_v3(-10, 0, 0);
    EXPECT(run(MC_DEFORM_FLARE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_NOTHING);
}

/* R_ExpandDeform: position + unit normal * 0.5; R_MoveDeform: x + 0.5. */
TEST(expand_and_move_shift_the_vertices)
{
    quad q = make_quad(mc_v3(1, 2, 3), mc_v3(4, 2, 3), mc_v3(4, 2, 0), mc_v3(1, 2, 0));
    const float v[3] = { 0.5f, 0, 0 };
    mc_deform_view view = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    buffers b;
    mc_deform_out o;

    q.nrm[0] = mc_v3(0, 0, 2); /* not unit: the engine's are */
    q.nrm[1] = mc_v3(0, -3, 0);
    ASSERT(run(MC_DEFORM_EXPAND, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(1, 2, 3.5f), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[1], mc_v3(4, 1.5f, 3), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[2], mc_v3(4, 2, 0.5f), 1e-6f);
    EXPECT_NEAR(o.st[0], 0.5, 0);
    ASSERT(run(MC_DEFORM_MOVE, v, NULL, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(1.5f, 2, 3), 1e-6f);
    EXPECT_EQ_VEC3(o.pos[3], mc_v3(1.5f, 2, 0), 1e-6f);
    EXPECT_EQ_INT(o.num_verts, 4);
}

/* R_TurbulentDeform with the table { 0, 1 } (interpolated, wrapping), range 0.1, time offset
 * 0.05, domain 1, at (100, 0, 0): f = 0.3; f = 0.05 + 0.3 + 0.05 = 0.4. lookup(0.4): 0.8 -> 0.8;
 * lookup(0.9): 1.8 -> v1 0.2 + v0 0.8 = 0.2. s = 0.5 + 0.08, t = 0.25 + 0.02. */
TEST(turbulent_shifts_texture_coordinates)
{
    quad q = make_quad(mc_v3(100, 0, 0), mc_v3(0, 0, 0), mc_v3(0, 0, 0), mc_v3(0, 0, 0));
    float values[3] = { 0, 1, 0 };
    mc_expr_table table = { "t", false, false, 2, values };
    const float v[3] = { 0.1f, 0.05f, 1.0f };
    mc_deform_view view = { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    buffers b;
    mc_deform_out o;

    ASSERT(run(MC_DEFORM_TURBULENT, v, &table, &view, &q, &b, &o) == MC_DEFORM_DRAWN);
    EXPECT_NEAR(o.st[0], 0.58, 1e-6);
    EXPECT_NEAR(o.st[1], 0.27, 1e-6);
    EXPECT_EQ_VEC3(o.pos[0], mc_v3(100, 0, 0), 0);
    /* at the origin: f = 0.1: lookup(0.1) = 0.2, lookup(0.6) = 1.2 -> 0.8 */
    EXPECT_NEAR(o.st[2], 0.5 + 0.1 * 0.2, 1e-6);
    EXPECT_NEAR(o.st[3], 0.25 + 0.1 * 0.8, 1e-6);
}

/* Surfaces a deform does not fit are drawn as they are, with a reason. */
TEST(says_where_a_deform_does_not_fit)
{
    static const int tri[3] = { 0, 1, 2 };
    static const int two_quads[12] = { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 };

    EXPECT(mc_deform_unfit(MC_DEFORM_SPRITE, 3, tri, 1) != NULL);
    EXPECT(mc_deform_unfit(MC_DEFORM_TUBE, 8, two_quads, 4) == NULL);
    EXPECT(mc_deform_unfit(MC_DEFORM_FLARE, 8, two_quads, 4) != NULL);
    EXPECT(mc_deform_unfit(MC_DEFORM_FLARE, 4, two_quads, 2) == NULL);
    EXPECT(mc_deform_unfit(MC_DEFORM_EXPAND, 3, tri, 1) == NULL);
}

static mc_status parse(const char *text, mc_mtr_file *f, mc_error *err, test_warnings *log)
{
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = log };

    return mc_mtr_parse(text, strlen(text), "t.mtr", &opts, f, err);
}

/* Material.cpp, ParseDeform: sprite, tube and flare make the material two-sided and
 * shadowless; flare, expand and move read one expression, turbulent a table and three. */
TEST(parses_deform_keywords)
{
    const char *text = "table wave { { 0, 1 } }\n"
                       "s { deform sprite { blend add map x } }\n"
                       "f { deform flare 16 }\n"
                       "e { deform expand time * 2 }\n"
                       "t { deform turbulent wave 0.0175 (time * 0.15) 10 }\n"
                       "p { deform particle smoke }\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    float regs[64];

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 5);
    EXPECT_EQ_INT(f.decls[0].deform.kind, MC_DEFORM_SPRITE);
    EXPECT(f.decls[0].flags == (MC_MTR_TWO_SIDED | MC_MTR_NO_SHADOWS));
    EXPECT_EQ_INT(f.decls[1].deform.kind, MC_DEFORM_FLARE);
    EXPECT(f.decls[1].flags == (MC_MTR_TWO_SIDED | MC_MTR_NO_SHADOWS));
    ASSERT(f.decls[1].expr.num_regs <= 64);
    mc_expr_eval(&f.decls[1].expr, 0, NULL, regs);
    EXPECT_NEAR(regs[f.decls[1].deform.regs[0]], 16, 0);
    EXPECT_EQ_INT(f.decls[2].deform.kind, MC_DEFORM_EXPAND);
    EXPECT(!(f.decls[2].flags & (MC_MTR_TWO_SIDED | MC_MTR_NO_SHADOWS)));
    ASSERT(f.decls[2].expr.num_regs <= 64);
    mc_expr_eval(&f.decls[2].expr, 1.5f, NULL, regs);
    EXPECT_NEAR(regs[f.decls[2].deform.regs[0]], 3, 0);
    EXPECT_EQ_INT(f.decls[3].deform.kind, MC_DEFORM_TURBULENT);
    ASSERT(f.decls[3].expr.num_regs <= 64);
    ASSERT(f.decls[3].deform.table < f.decls[3].expr.num_tables);
    EXPECT_EQ_STR(f.decls[3].expr.tables[f.decls[3].deform.table].name, "wave");
    mc_expr_eval(&f.decls[3].expr, 2.0f, NULL, regs);
    EXPECT_NEAR(regs[f.decls[3].deform.regs[0]], 0.0175, 1e-7);
    EXPECT_NEAR(regs[f.decls[3].deform.regs[1]], 0.3, 1e-6);
    EXPECT_NEAR(regs[f.decls[3].deform.regs[2]], 10, 0);
    EXPECT_EQ_INT(f.decls[4].deform.kind, MC_DEFORM_PARTICLE);
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_AT(&log.last, 6, 12, "deform particle is not drawn by md5cine");
    mc_mtr_release(&f);

    /* An unknown deform type, and turbulent without a table name: errors at the token. */
    EXPECT_EQ_INT(parse("a {\n deform wobble\n}", &f, &err, &log), MC_ERR_SYNTAX);
    EXPECT_AT(&err, 2, 9, "unknown deform 'wobble'");
    EXPECT_EQ_INT(parse("a { deform turbulent ( }", &f, &err, &log), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.col, 22);
    EXPECT_CONTAINS(err.msg, "expected a table name after 'deform turbulent'");
    EXPECT_EQ_INT(parse("a { deform turbulent nosuch 1 2 3 }", &f, &err, &log), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.col, 22);
    EXPECT_CONTAINS(err.msg, "unknown table 'nosuch'");
}
