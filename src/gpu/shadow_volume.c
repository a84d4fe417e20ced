/* Shadow volume geometry (shadow_volume.h): Doom's silhouette edges and turbo shadow volumes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/shadow_volume.h"

/* tr_stencilshadow.cpp LIGHT_CLIP_EPSILON: a vertex this close to a light plane counts as
 * outside it for the cull bits. */
#define LIGHT_CLIP_EPSILON 0.1f

void gpu_shadow_work_free(gpu_shadow_work *w)
{
    if (!w)
        return;
    free(w->sil_idx);
    free(w->edges);
    free(w->facing);
    free(w->cull);
    free(w->remap);
    free(w->head);
    free(w->next);
    memset(w, 0, sizeof *w);
}

int gpu_grow(void **p, size_t *cap, size_t n, size_t sz)
{
    void *q;

    if (n <= *cap)
        return 1;
    q = realloc(*p, n * sz);
    if (!q)
        return 0;
    *p = q;
    *cap = n;
    return 1;
}

static int reserve(gpu_shadow_work *w, int num_verts, int num_tris)
{
    size_t nt = (size_t)num_tris, nv = (size_t)num_verts;
    /* chains: one per vertex while welding, one per edge after; heads a power of two */
    size_t chains = nv > nt * 3 ? nv : nt * 3, heads = 64;

    while (heads < chains)
        heads *= 2;
    return gpu_grow((void **)&w->sil_idx, &w->cap_sil, nt * 3, sizeof *w->sil_idx) &&
           gpu_grow((void **)&w->edges, &w->cap_edges, nt * 3, sizeof *w->edges) &&
           gpu_grow((void **)&w->facing, &w->cap_facing, nt + 1, 1) &&
           gpu_grow((void **)&w->cull, &w->cap_cull, nv, 1) &&
           gpu_grow((void **)&w->remap, &w->cap_remap, nv, sizeof *w->remap) &&
           gpu_grow((void **)&w->next, &w->cap_next, chains, sizeof *w->next) &&
           gpu_grow((void **)&w->head, &w->cap_head, heads, sizeof *w->head);
}

static uint32_t hash_bits(const mc_vec3 *v)
{
    uint32_t b[3], h = 2166136261u;

    /* +0.0f folds -0 onto 0, which compare equal */
    float f[3] = { v->x + 0.0f, v->y + 0.0f, v->z + 0.0f };

    memcpy(b, f, sizeof b);
    for (int i = 0; i < 3; i++)
        h = (h ^ b[i]) * 16777619u;
    return h ^ (h >> 15);
}

/* tr_trisurf.cpp R_CreateSilRemap: each vertex maps to the first one with the same xyz. */
static void weld(gpu_shadow_work *w, const mc_vec3 *pos, int num_verts, const int *idx,
                 int num_tris)
{
    int *remap = w->remap;
    size_t mask = w->cap_head - 1;

    for (size_t h = 0; h < w->cap_head; h++)
        w->head[h] = -1;
    for (int i = 0; i < num_verts; i++) {
        size_t h = hash_bits(&pos[i]) & mask;
        int j = w->head[h];

        while (j >= 0 && !(pos[j].x == pos[i].x && pos[j].y == pos[i].y && pos[j].z == pos[i].z))
            j = w->next[j];
        if (j >= 0) {
            remap[i] = j;
        } else {
            remap[i] = i;
            w->next[i] = w->head[h];
            w->head[h] = i;
        }
    }
    for (int i = 0; i < num_tris * 3; i++)
        w->sil_idx[i] = remap[idx[i]];
}

static size_t edge_hash(int a, int b, size_t mask)
{
    /* the same bucket for both directions */
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);

    return (size_t)(((lo * 2654435761u) ^ (hi * 40503u)) >> 7) & mask;
}

/* tr_trisurf.cpp R_DefineEdge: the reversed edge of a triangle still without a partner takes
 * this one as its second face; otherwise (none, or a third use) a new edge. */
static void define_edge(gpu_shadow_work *w, int v1, int v2, int plane)
{
    size_t h = edge_hash(v1, v2, w->cap_head - 1);
    gpu_sil_edge *e;

    if (v1 == v2)
        return; /* degenerate */
    for (int i = w->head[h]; i >= 0; i = w->next[i]) {
        e = &w->edges[i];
        if (e->v2 == v1 && e->v1 == v2 && e->p2 == w->num_tris) {
            e->p2 = plane;
            return;
        }
    }
    e = &w->edges[w->num_edges];
    e->p1 = plane;
    e->p2 = w->num_tris;
    e->v1 = v1;
    e->v2 = v2;
    w->next[w->num_edges] = w->head[h];
    w->head[h] = w->num_edges++;
}

mc_status gpu_shadow_topology(gpu_shadow_work *w, const mc_vec3 *pos, int num_verts,
                              const int *idx, int num_tris, mc_error *err)
{
    if (!reserve(w, num_verts, num_tris))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for shadow volumes");
    weld(w, pos, num_verts, idx, num_tris);
    w->num_tris = num_tris;
    w->num_verts = num_verts;
    w->num_edges = 0;
    for (size_t h = 0; h < w->cap_head; h++)
        w->head[h] = -1;
    for (int t = 0; t < num_tris; t++) {
        const int *s = &w->sil_idx[t * 3];

        define_edge(w, s[0], s[1], t);
        define_edge(w, s[1], s[2], t);
        define_edge(w, s[2], s[0], t);
    }
    return MC_OK;
}

size_t gpu_shadow_max_indices(const gpu_shadow_work *w)
{
    return ((size_t)w->num_tris + (size_t)w->num_edges) * 6;
}

/* Interaction.cpp R_CalcInteractionFacing (with tr_trisurf.cpp R_DeriveFacePlanes' normal
 * (c - a) x (b - a)); then R_CalcInteractionCullBits: a triangle wholly outside one light plane
 * is made "facing" so that it casts nothing. */
static void calc_facing(gpu_shadow_work *w, const mc_vec3 *pos, const int *idx,
                        const float light[3], const float (*planes)[4], int mirrored)
{
    if (planes)
        for (int v = 0; v < w->num_verts; v++) {
            unsigned char bits = 0;

            for (int i = 0; i < 6; i++) {
                const float *p = planes[i];

                if (p[0] * pos[v].x + p[1] * pos[v].y + p[2] * pos[v].z + p[3] <
                    LIGHT_CLIP_EPSILON)
                    bits |= (unsigned char)(1u << i);
            }
            w->cull[v] = bits;
        }
    for (int t = 0; t < w->num_tris; t++) {
        const mc_vec3 *a = &pos[idx[t * 3]], *b = &pos[idx[t * 3 + 1]], *c = &pos[idx[t * 3 + 2]];
        float d1[3] = { b->x - a->x, b->y - a->y, b->z - a->z };
        float d2[3] = { c->x - a->x, c->y - a->y, c->z - a->z };
        float n[3] = { d2[1] * d1[2] - d2[2] * d1[1], d2[2] * d1[0] - d2[0] * d1[2],
                       d2[0] * d1[1] - d2[1] * d1[0] };
        float side = n[0] * (light[0] - a->x) + n[1] * (light[1] - a->y) +
                     n[2] * (light[2] - a->z);
        int facing = mirrored ? side <= 0.0f : side >= 0.0f;

        if (!facing && planes &&
            (w->cull[idx[t * 3]] & w->cull[idx[t * 3 + 1]] & w->cull[idx[t * 3 + 2]]))
            facing = 1;
        w->facing[t] = (unsigned char)facing;
    }
    w->facing[w->num_tris] = 1; /* the dangling edges' fake face */
}

size_t gpu_shadow_volume(gpu_shadow_work *w, const mc_vec3 *pos, const int *idx,
                         const float light[3], const float (*planes)[4], int mirrored,
                         unsigned *out)
{
    size_t n = 0;
    int casting = 0;

    calc_facing(w, pos, idx, light, planes, mirrored);
    for (int t = 0; t < w->num_tris && !casting; t++)
        casting = !w->facing[t];
    if (!casting)
        return 0;
    /* tr_turboshadow.cpp: "create new triangles along sil planes", the winding chosen by
     * which side faces the light */
    for (int i = 0; i < w->num_edges; i++) {
        const gpu_sil_edge *e = &w->edges[i];
        unsigned f1 = w->facing[e->p1], f2 = w->facing[e->p2];
        unsigned v1 = (unsigned)e->v1 << 1, v2 = (unsigned)e->v2 << 1;

        if (!(f1 ^ f2))
            continue;
        out[n++] = v1;
        out[n++] = v2 ^ f1;
        out[n++] = v2 ^ f2;
        out[n++] = v1 ^ f2;
        out[n++] = v1 ^ f1;
        out[n++] = v2 ^ 1u;
    }
    /* "put some faces on the model and some on the distant projection" */
    for (int t = 0; t < w->num_tris; t++) {
        unsigned i0 = (unsigned)idx[t * 3] << 1, i1 = (unsigned)idx[t * 3 + 1] << 1;
        unsigned i2 = (unsigned)idx[t * 3 + 2] << 1;

        if (w->facing[t])
            continue;
        out[n++] = i2;
        out[n++] = i1;
        out[n++] = i0;
        out[n++] = i0 ^ 1u;
        out[n++] = i1 ^ 1u;
        out[n++] = i2 ^ 1u;
    }
    return n;
}

void gpu_shadow_vertices(const mc_vec3 *pos, int num_verts, float *out)
{
    for (int v = 0; v < num_verts; v++) {
        float *o = out + (size_t)v * 8;

        o[0] = o[4] = pos[v].x;
        o[1] = o[5] = pos[v].y;
        o[2] = o[6] = pos[v].z;
        o[3] = 1.0f;
        o[7] = 0.0f;
    }
}
