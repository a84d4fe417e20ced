#include <md5cine/md5mesh.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/limits.h>
#include <md5cine/mathx.h>

#include "lex.h"

/* Counts far above any real model (limits.h). */
#define MAX_JOINTS MC_LIMIT_MESH_JOINTS
#define MAX_MESHES MC_LIMIT_MESH_MESHES
#define MAX_ITEMS MC_LIMIT_MESH_ITEMS

/* Fewest bytes of text each item can take, for checks against the bytes left in the file:
 * 'a 0(0 0 0)(0 0 0)' = 17, 'mesh{shader""numverts 0 numtris 0 numweights 0}' > 40,
 * 'vert 0(0 0)0 1' = 14, 'tri 0 0 0 0' = 11, 'weight 0 0 0(0 0 0)' = 19. */
#define JOINT_BYTES 16
#define MESH_BYTES 32
#define VERT_BYTES 12
#define TRI_BYTES 10
#define WEIGHT_BYTES 16

typedef struct mesh_parser {
    mc_lexer lx;
    mc_mesh *m;
} mesh_parser;

static bool parse_joints(mesh_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_mesh *m = p->m;

    m->joints = mc_lex_block(lx, "joints", &m->arena, (size_t)m->num_joints, sizeof *m->joints);
    if (lx->failed)
        return false;
    for (int i = 0; i < m->num_joints; i++) {
        mc_mesh_joint *j = &m->joints[i];
        mc_token nt, pt;
        const char *text;
        size_t len;
        float v[6];
        char d[80];

        if (!mc_lex_string(lx, &text, &len, &nt) || !mc_lex_int(lx, &j->parent, &pt) ||
            !mc_lex_vec(lx, 3, v) || !mc_lex_vec(lx, 3, v + 3))
            return false;
        if (j->parent < -1 || j->parent >= i)
            return mc_lex_fail(lx, &pt, MC_ERR_RANGE,
                               "invalid parent %d for joint %d %s: a parent is -1 or an earlier "
                               "joint",
                               j->parent, i, mc_lex_describe(&nt, d, sizeof d));
        j->name = mc_lex_strdup(lx, &m->arena, text, len);
        if (!j->name)
            return false;
        j->line = nt.line;
        j->col = nt.col;
        j->pos = (mc_vec3){ v[0], v[1], v[2] };
        j->rot = mc_quat_from_xyz(v[3], v[4], v[5]);
    }
    return mc_lex_expect(lx, "}");
}

/* Reads "keyword N" where N must equal the item's position i. */
static bool parse_item_number(mc_lexer *lx, const char *keyword, int i)
{
    mc_token t;
    int n;

    if (!mc_lex_expect(lx, keyword) || !mc_lex_int(lx, &n, &t))
        return false;
    if (n != i)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "'%s' number %d is out of order, expected %d",
                           keyword, n, i);
    return true;
}

/* The vertex whose weight range ends last, checked once numweights is known. */
typedef struct weight_use {
    int64_t end; /* first + count of that vertex */
    int vert;
    mc_token tok; /* its first-weight token */
} weight_use;

static bool parse_verts(mesh_parser *p, mc_submesh *s, weight_use *use)
{
    mc_lexer *lx = &p->lx;

    s->verts = mc_lex_alloc(lx, &p->m->arena, (size_t)s->num_verts, sizeof *s->verts);
    if (lx->failed)
        return false;
    for (int i = 0; i < s->num_verts; i++) {
        mc_vert *v = &s->verts[i];
        mc_token ft, ct;
        float st[2];

        if (!parse_item_number(lx, "vert", i) || !mc_lex_vec(lx, 2, st) ||
            !mc_lex_int(lx, &v->first_weight, &ft) || !mc_lex_int(lx, &v->num_weights, &ct))
            return false;
        if (v->first_weight < 0)
            return mc_lex_fail(lx, &ft, MC_ERR_RANGE, "vertex %d has a negative first weight %d",
                               i, v->first_weight);
        v->st = (mc_vec2){ st[0], st[1] };
        if (v->num_weights < 1)
            return mc_lex_fail(lx, &ct, MC_ERR_RANGE,
                               "vertex %d has %d weights, expected at least 1", i,
                               v->num_weights);
        if ((int64_t)v->first_weight + v->num_weights > use->end) {
            use->end = (int64_t)v->first_weight + v->num_weights;
            use->vert = i;
            use->tok = ft;
        }
    }
    return true;
}

static bool parse_tris(mesh_parser *p, mc_submesh *s)
{
    mc_lexer *lx = &p->lx;

    s->tris = mc_lex_alloc(lx, &p->m->arena, (size_t)s->num_tris, sizeof *s->tris);
    if (lx->failed)
        return false;
    for (int i = 0; i < s->num_tris; i++) {
        if (!parse_item_number(lx, "tri", i))
            return false;
        for (int k = 0; k < 3; k++) {
            mc_token t;
            int *v = &s->tris[i].v[k];

            if (!mc_lex_int(lx, v, &t))
                return false;
            if (*v < 0 || *v >= s->num_verts)
                return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                                   "triangle %d uses vertex %d but the mesh has %d vertices", i,
                                   *v, s->num_verts);
        }
    }
    return true;
}

static bool parse_weights(mesh_parser *p, mc_submesh *s)
{
    mc_lexer *lx = &p->lx;
    int num_joints = p->m->num_joints;

    s->weights = mc_lex_alloc(lx, &p->m->arena, (size_t)s->num_weights, sizeof *s->weights);
    if (lx->failed)
        return false;
    for (int i = 0; i < s->num_weights; i++) {
        mc_weight *w = &s->weights[i];
        mc_token jt;
        float v[3];

        if (!parse_item_number(lx, "weight", i) || !mc_lex_int(lx, &w->joint, &jt) ||
            !mc_lex_float(lx, &w->bias, NULL) || !mc_lex_vec(lx, 3, v))
            return false;
        w->pos = (mc_vec3){ v[0], v[1], v[2] };
        if (w->joint < 0 || w->joint >= num_joints)
            return mc_lex_fail(lx, &jt, MC_ERR_RANGE,
                               "weight %d uses joint %d but the mesh has %d joint%s", i,
                               w->joint, num_joints, num_joints == 1 ? "" : "s");
    }
    return true;
}

static bool parse_submesh(mesh_parser *p, mc_submesh *s)
{
    mc_lexer *lx = &p->lx;
    weight_use use = { .end = 0 };
    const char *text;
    size_t len;
    mc_token t;
    bool has_name;

    if (!mc_lex_expect(lx, "mesh") || !mc_lex_expect(lx, "{") ||
        !mc_lex_accept(lx, "name", &has_name))
        return false;
    if (has_name && !mc_lex_string(lx, &text, &len, NULL))
        return false;
    s->name = mc_lex_strdup(lx, &p->m->arena, has_name ? text : "", has_name ? len : 0);
    if (!s->name || !mc_lex_expect(lx, "shader") || !mc_lex_string(lx, &text, &len, &t))
        return false;
    s->shader = mc_lex_strdup(lx, &p->m->arena, text, len);
    s->shader_line = t.line;
    s->shader_col = t.col;
    if (!s->shader ||
        !mc_lex_count(lx, "numverts", 0, MAX_ITEMS, VERT_BYTES, &s->num_verts, NULL) ||
        !parse_verts(p, s, &use) ||
        !mc_lex_count(lx, "numtris", 0, MAX_ITEMS, TRI_BYTES, &s->num_tris, NULL) ||
        !parse_tris(p, s) ||
        !mc_lex_count(lx, "numweights", 0, MAX_ITEMS, WEIGHT_BYTES, &s->num_weights, NULL))
        return false;
    if (use.end > s->num_weights)
        return mc_lex_fail(lx, &use.tok, MC_ERR_RANGE,
                           "vertex %d uses weights %d to %lld but the mesh has %d weights",
                           use.vert, s->verts[use.vert].first_weight, (long long)use.end - 1,
                           s->num_weights);
    return parse_weights(p, s) && mc_lex_expect(lx, "}");
}

static bool parse_mesh_file(void *ctx)
{
    mesh_parser *p = ctx;
    mc_lexer *lx = &p->lx;
    mc_mesh *m = p->m;

    if (!mc_lex_md5_header(lx) ||
        !mc_lex_count(lx, "numJoints", 0, MAX_JOINTS, JOINT_BYTES, &m->num_joints, NULL) ||
        !mc_lex_count(lx, "numMeshes", 0, MAX_MESHES, MESH_BYTES, &m->num_meshes, NULL) ||
        !parse_joints(p))
        return false;
    m->meshes = mc_lex_alloc(lx, &m->arena, (size_t)m->num_meshes, sizeof *m->meshes);
    if (lx->failed)
        return false;
    for (int i = 0; i < m->num_meshes; i++)
        if (!parse_submesh(p, &m->meshes[i]))
            return false;
    return mc_lex_expect_eof(lx);
}

/* The parse target for out through a fresh parser p. */
static mc_lex_target mesh_target(mesh_parser *p, mc_mesh *out)
{
    *p = (mesh_parser){ .m = out };
    return (mc_lex_target){ &p->lx, out, sizeof *out, &out->arena, &out->name, parse_mesh_file, p };
}

mc_status mc_mesh_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                        mc_mesh *out, mc_error *err)
{
    mesh_parser p;

    return mc_lex_parse_into(mesh_target(&p, out), buf, len, name, opts, err);
}

mc_status mc_mesh_load(const char *path, const mc_parse_opts *opts, mc_mesh *out, mc_error *err)
{
    mesh_parser p;

    return mc_lex_load_into(mesh_target(&p, out), path, opts, err);
}

void mc_mesh_release(mc_mesh *mesh)
{
    if (mesh)
        mc_lex_release(&mesh->arena, mesh, sizeof *mesh);
}
