/* A material's deform on one surface (deform.h), following renderer/tr_deform.cpp. */
#include "deform.h"

#include <math.h>
#include <string.h>

#include <md5cine/mathx.h>

void mc_deform_view_local(const mc_mat4 *model, mc_vec3 origin, const mc_mat3 *axis,
                          mc_deform_view *out)
{
    mc_mat4 inv;
    float o[4], l[4], u[4];

    if (!mc_mat4_inverse(model, &inv))
        inv = mc_mat4_identity();
    mc_mat4_apply(&inv, origin, 1.0f, o);
    mc_mat4_apply(&inv, mc_v3(axis->m[1][0], axis->m[1][1], axis->m[1][2]), 0.0f, l);
    mc_mat4_apply(&inv, mc_v3(axis->m[2][0], axis->m[2][1], axis->m[2][2]), 0.0f, u);
    out->origin = mc_v3(o[0], o[1], o[2]);
    /* Doom's R_GlobalVectorToLocal keeps a unit axis unit (its model axes are orthonormal);
     * under an actor's scale the direction is normalised back. */
    out->left = mc_v3_normalize(mc_v3(l[0], l[1], l[2]));
    out->up = mc_v3_normalize(mc_v3(u[0], u[1], u[2]));
}

void mc_deform_capacity(int num_verts, int num_tris, int *max_verts, int *max_tris)
{
    *max_verts = num_verts > MC_DEFORM_FLARE_VERTS ? num_verts : MC_DEFORM_FLARE_VERTS;
    *max_tris = num_tris > MC_DEFORM_FLARE_TRIS ? num_tris : MC_DEFORM_FLARE_TRIS;
}

static const float *st_of(const mc_deform_surface *in, int v)
{
    return (const float *)(const void *)((const char *)in->st + (size_t)v * in->st_stride);
}

/* The input's texture coordinates and normals into out (positions too). */
static void copy_surface(const mc_deform_surface *in, mc_deform_out *out)
{
    for (int v = 0; v < in->num_verts; v++) {
        const float *st = st_of(in, v);

        out->pos[v] = in->pos[v];
        out->nrm[v] = in->nrm[v];
        out->st[2 * v] = st[0];
        out->st[2 * v + 1] = st[1];
    }
    memcpy(out->idx, in->idx, (size_t)in->num_tris * 3 * sizeof *out->idx);
    out->num_verts = in->num_verts;
    out->num_tris = in->num_tris;
}

/* Per-vertex normals of out's triangles: the sum of their face normals, normalised (the face
 * normal as pose.c's, clockwise front faces). */
static void face_normals(mc_deform_out *out)
{
    for (int v = 0; v < out->num_verts; v++)
        out->nrm[v] = mc_v3(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < out->num_tris; t++) {
        const int *i = &out->idx[3 * t];
        mc_vec3 a = out->pos[i[0]], b = out->pos[i[1]], c = out->pos[i[2]];
        mc_vec3 fn = mc_v3_normalize(mc_v3_cross(mc_v3_sub(c, a), mc_v3_sub(b, a)));

        for (int k = 0; k < 3; k++)
            out->nrm[i[k]] = mc_v3_add(out->nrm[i[k]], fn);
    }
    for (int v = 0; v < out->num_verts; v++)
        out->nrm[v] = mc_v3_normalize(out->nrm[v]);
}

/* Quads of 4 vertices and 2 triangles each, as sprite and tube need. */
static bool quads(const mc_deform_surface *in, const char **why)
{
    if (in->num_verts & 3) {
        *why = "its vertex count is not a multiple of 4";
        return false;
    }
    if (in->num_tris * 3 != (in->num_verts >> 2) * 6) {
        *why = "it does not have 2 triangles for every 4 vertices";
        return false;
    }
    return true;
}

/* R_AutospriteDeform. */
static void sprite(const mc_deform_view *view, const mc_deform_surface *in, mc_deform_out *out)
{
    for (int i = 0; i < in->num_verts; i += 4) {
        const mc_vec3 *v = &in->pos[i];
        mc_vec3 mid = mc_v3(0.25f * (v[0].x + v[1].x + v[2].x + v[3].x),
                            0.25f * (v[0].y + v[1].y + v[2].y + v[3].y),
                            0.25f * (v[0].z + v[1].z + v[2].z + v[3].z));
        float radius = mc_v3_len(mc_v3_sub(v[0], mid)) * 0.707f; /* / sqrt(2) */
        mc_vec3 left = mc_v3_scale(view->left, radius), up = mc_v3_scale(view->up, radius);
        static const float corner[4][4] = {
            /* sign of left, sign of up, s, t */
            { 1, 1, 0, 0 },
            { -1, 1, 1, 0 },
            { -1, -1, 1, 1 },
            { 1, -1, 0, 1 },
        };
        int *t = &out->idx[6 * (i >> 2)];

        for (int k = 0; k < 4; k++) {
            out->pos[i + k] = mc_v3_add(
                    mid, mc_v3_add(mc_v3_scale(left, corner[k][0]), mc_v3_scale(up, corner[k][1])));
            out->st[2 * (i + k)] = corner[k][2];
            out->st[2 * (i + k) + 1] = corner[k][3];
        }
        t[0] = i;
        t[1] = i + 1;
        t[2] = i + 2;
        t[3] = i;
        t[4] = i + 2;
        t[5] = i + 3;
    }
    out->num_verts = in->num_verts;
    out->num_tris = in->num_tris;
}

/* R_TubeDeform. The engine indexes each quad's six indices from its first vertex's number
 * (tri->indexes[i + ...] with i stepping by 4), which reads the right ones for the first quad
 * only; here each quad reads its own six (6 q ...). The vertices start as the input's (the
 * engine's start at zero, and a quad's two short edges set all four). */
static void tube(const mc_deform_view *view, const mc_deform_surface *in, mc_deform_out *out)
{
    static const int edge[6][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 } };

    copy_surface(in, out);
    for (int q = 0; q < in->num_verts / 4; q++) {
        const int *ix = &in->idx[6 * q];
        float lengths[2] = { 999999.0f, 999999.0f };
        int nums[2] = { 0, 0 };
        mc_vec3 mid[2], major;

        /* the two shortest edges of the six the triangles name */
        for (int j = 0; j < 6; j++) {
            float l = mc_v3_len(mc_v3_sub(in->pos[ix[edge[j][0]]], in->pos[ix[edge[j][1]]]));

            if (l < lengths[0]) {
                nums[1] = nums[0];
                lengths[1] = lengths[0];
                nums[0] = j;
                lengths[0] = l;
            } else if (l < lengths[1]) {
                nums[1] = j;
                lengths[1] = l;
            }
        }
        for (int j = 0; j < 2; j++) {
            mc_vec3 a = in->pos[ix[edge[nums[j]][0]]], b = in->pos[ix[edge[nums[j]][1]]];

            mid[j] = mc_v3(0.5f * (a.x + b.x), 0.5f * (a.y + b.y), 0.5f * (a.z + b.z));
        }
        major = mc_v3_sub(mid[1], mid[0]);
        for (int j = 0; j < 2; j++) {
            int i1 = ix[edge[nums[j]][0]], i2 = ix[edge[nums[j]][1]];
            float l = 0.5f * lengths[j];
            /* cross the major axis with the view direction: the minor axis */
            mc_vec3 minor = mc_v3_normalize(mc_v3_cross(major, mc_v3_sub(mid[j], view->origin)));
            mc_vec3 d = mc_v3_scale(minor, j ? -l : l);

            out->pos[i1] = mc_v3_add(mid[j], d);
            out->pos[i2] = mc_v3_sub(mid[j], d);
        }
    }
}

/* R_WindingFromTriangles: the boundary of the triangles as one loop of vertex numbers, starting
 * at the first index, following edges that no other triangle has reversed. */
static int winding(const mc_deform_surface *in, int loop[16])
{
    int n = 1, i, j, k, l;
    const int *ix = in->idx;
    int num_tris = in->num_tris;

    loop[0] = ix[0];
    do {
        for (i = 0; i < num_tris; i++) {
            for (j = 0; j < 3; j++) {
                int next;

                if (ix[i * 3 + j] != loop[n - 1])
                    continue;
                next = ix[i * 3 + (j + 1) % 3];
                if (n == 1) {
                    if (next == loop[0])
                        continue;
                } else {
                    for (k = 1; k < n && loop[k] != next; k++)
                        ;
                    if (k != n)
                        continue;
                }
                /* an interior edge: another triangle has it the other way round */
                for (k = 0; k < num_tris; k++) {
                    if (k == i)
                        continue;
                    for (l = 0; l < 3; l++)
                        if (ix[k * 3 + l] == next && ix[k * 3 + (l + 1) % 3] == loop[n - 1])
                            break;
                    if (l != 3)
                        break;
                }
                if (k != num_tris)
                    continue;
                loop[n++] = next;
                break;
            }
            if (j != 3)
                break;
        }
        if (n == in->num_verts || n == 16)
            break;
    } while (i != num_tris);
    return n;
}

/* The colour R_FlareDeform gives every vertex of a flare: grey from the angle between the
 * plane and the eye, seen from the quad's centre. */
static void flare_color(const mc_deform_surface *in, mc_vec3 nrm, mc_vec3 eye,
                        unsigned char out[4])
{
    mc_vec3 c = mc_v3(0.0f, 0.0f, 0.0f);
    int color;

    for (int j = 0; j < in->num_verts; j++)
        c = mc_v3_add(c, in->pos[j]);
    c = mc_v3_scale(c, 1.0f / (float)in->num_verts);
    color = (int)(mc_v3_dot(mc_v3_normalize(mc_v3_sub(eye, c)), nrm) * 8 * 256);
    if (color > 255)
        color = 255;
    /* the engine stores the int in a byte (only a quad that is not flat gives one below 0) */
    out[0] = out[1] = out[2] = (unsigned char)color;
    out[3] = 255;
}

/* R_FlareDeform, with r_flareSize 1. */
static mc_deform_result flare(float spread, const mc_deform_view *view, const mc_deform_surface *in,
                              mc_deform_out *out, const char **why)
{
    static const int tris[MC_DEFORM_FLARE_TRIS * 3] = {
        0, 4, 5, 0, 5, 6, 0, 6, 7,  0,  7,  1, 1,  7, 8,  1,  8, 9, 15, 4, 0,  15, 0, 3,  3,  0, 1,
        3, 1, 2, 2, 1, 9, 2, 9, 10, 14, 15, 3, 14, 3, 13, 13, 3, 2, 13, 2, 12, 12, 2, 11, 11, 2, 10,
    };
    static const int RIM[3] = { 0, 2, 1 };
    const mc_vec3 *p = in->pos;
    mc_vec3 nrm, e[4][3];
    float len, dist;
    int loop[16];

    if (in->num_verts != 4 || in->num_tris != 2) {
        *why = "it is not a single quad";
        return MC_DEFORM_AS_IS;
    }
    /* idPlane::FromPoints(a, b, c): normal (a - b) x (c - b) */
    nrm = mc_v3_cross(mc_v3_sub(p[in->idx[0]], p[in->idx[1]]),
                      mc_v3_sub(p[in->idx[2]], p[in->idx[1]]));
    len = mc_v3_len(nrm);
    if (!(len > 0.0f)) {
        *why = "its first triangle has no area";
        return MC_DEFORM_AS_IS;
    }
    nrm = mc_v3_scale(nrm, 1.0f / len);
    /* the viewer behind the plane: nothing drawn */
    dist = mc_v3_dot(view->origin, nrm) - mc_v3_dot(nrm, p[in->idx[1]]);
    if (dist <= 0.0f) {
        out->num_verts = out->num_tris = 0;
        return MC_DEFORM_NOTHING;
    }
    if (winding(in, loop) != 4) {
        *why = "its triangles do not make one four-sided outline";
        return MC_DEFORM_AS_IS;
    }
    flare_color(in, nrm, view->origin, out->color);
    for (int i = 0; i < 4; i++) {
        mc_vec3 v = p[loop[i]];
        mc_vec3 to_eye = mc_v3_normalize(mc_v3_sub(v, view->origin));
        mc_vec3 d1 = mc_v3_normalize(mc_v3_sub(p[loop[(i + 1) % 4]], view->origin));
        mc_vec3 d2 = mc_v3_normalize(mc_v3_sub(p[loop[(i + 3) % 4]], view->origin));

        out->pos[i] = v;
        out->st[2 * i] = out->st[2 * i + 1] = 0.5f;
        e[i][1] = mc_v3_scale(mc_v3_normalize(mc_v3_cross(to_eye, d1)), -1.0f);
        e[i][0] = mc_v3_normalize(mc_v3_cross(to_eye, d2));
        e[i][2] = mc_v3_normalize(mc_v3_add(e[i][0], e[i][1]));
    }
    /* each corner's three rim points: along its edge directions 0, 2 (between), 1 */
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            out->pos[4 + 3 * i + k] = mc_v3_add(p[loop[i]], mc_v3_scale(e[i][RIM[k]], spread));
    for (int i = 4; i < MC_DEFORM_FLARE_VERTS; i++) {
        mc_vec3 dir = mc_v3_sub(out->pos[i], view->origin);
        float l = mc_v3_len(dir), ang, new_len;

        dir = l > 0.0f ? mc_v3_scale(dir, 1.0f / l) : dir;
        ang = mc_v3_dot(dir, nrm);
        new_len = -(dist / ang);
        if (new_len > 0.0f && new_len < l)
            out->pos[i] = mc_v3_add(view->origin, mc_v3_scale(dir, new_len));
        /* the engine sets every rim point's texture coordinate to (0, 0.5) in the end */
        out->st[2 * i] = 0.0f;
        out->st[2 * i + 1] = 0.5f;
    }
    memcpy(out->idx, tris, sizeof tris);
    out->num_verts = MC_DEFORM_FLARE_VERTS;
    out->num_tris = MC_DEFORM_FLARE_TRIS;
    face_normals(out);
    return MC_DEFORM_DRAWN;
}

const char *mc_deform_unfit(mc_deform_kind kind, int num_verts, const int *idx, int num_tris)
{
    mc_deform_surface in = { NULL, NULL, NULL, 0, idx, num_verts, num_tris };
    const char *why = NULL;
    int loop[16];

    if (kind == MC_DEFORM_SPRITE || kind == MC_DEFORM_TUBE)
        quads(&in, &why);
    else if (kind == MC_DEFORM_FLARE && (num_verts != 4 || num_tris != 2))
        why = "it is not a single quad";
    else if (kind == MC_DEFORM_FLARE && winding(&in, loop) != 4)
        why = "its triangles do not make one four-sided outline";
    return why;
}

mc_deform_result mc_deform_apply(mc_deform_kind kind, const float values[3],
                                 const mc_expr_table *table, const mc_deform_view *view,
                                 const mc_deform_surface *in, mc_deform_out *out, const char **why)
{
    *why = NULL;
    switch (kind) {
    case MC_DEFORM_SPRITE:
    case MC_DEFORM_TUBE:
        if (!quads(in, why))
            return MC_DEFORM_AS_IS;
        if (kind == MC_DEFORM_SPRITE)
            sprite(view, in, out);
        else
            tube(view, in, out);
        face_normals(out);
        return MC_DEFORM_DRAWN;
    case MC_DEFORM_FLARE:
        return flare(values[0], view, in, out, why);
    case MC_DEFORM_EXPAND:
        copy_surface(in, out);
        for (int v = 0; v < in->num_verts; v++)
            out->pos[v] =
                    mc_v3_add(in->pos[v], mc_v3_scale(mc_v3_normalize(in->nrm[v]), values[0]));
        return MC_DEFORM_DRAWN;
    case MC_DEFORM_MOVE:
        copy_surface(in, out);
        for (int v = 0; v < in->num_verts; v++)
            out->pos[v].x += values[0];
        return MC_DEFORM_DRAWN;
    case MC_DEFORM_TURBULENT:
        if (!table)
            return MC_DEFORM_AS_IS;
        copy_surface(in, out);
        for (int v = 0; v < in->num_verts; v++) {
            mc_vec3 x = in->pos[v];
            float f = x.x * 0.003f + x.y * 0.007f + x.z * 0.011f;

            f = values[1] + values[2] * f;
            f += values[1]; /* the engine adds the time offset twice */
            out->st[2 * v] += values[0] * mc_expr_table_lookup(table, f);
            out->st[2 * v + 1] += values[0] * mc_expr_table_lookup(table, f + 0.5f);
        }
        return MC_DEFORM_DRAWN;
    default:
        return MC_DEFORM_AS_IS;
    }
}
