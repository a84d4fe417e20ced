/* unsmoothed.h: Doom's unsmoothed tangents (renderer/tr_trisurf.cpp R_BuildDominantTris,
 * R_DeriveUnsmoothedTangents). */
#include "unsmoothed.h"

#include <math.h>

/* d0, d1 and the st deltas of vertex a towards b and c. */
static void deltas(const mc_submesh *sm, const mc_vec3 *pos, int a, int b, int c, mc_vec3 *d0,
                   mc_vec3 *d1, float st[4])
{
    *d0 = mc_v3_sub(pos[b], pos[a]);
    *d1 = mc_v3_sub(pos[c], pos[a]);
    st[0] = sm->verts[b].st.x - sm->verts[a].st.x;
    st[1] = sm->verts[b].st.y - sm->verts[a].st.y;
    st[2] = sm->verts[c].st.x - sm->verts[a].st.x;
    st[3] = sm->verts[c].st.y - sm->verts[a].st.y;
}

/* tangent = d0 dt1 - d1 dt0, bitangent = ds0 d1 - ds1 d0 (tr_trisurf.cpp, term by term) */
static mc_vec3 tangent_of(mc_vec3 d0, mc_vec3 d1, const float st[4])
{
    return mc_v3_sub(mc_v3_scale(d0, st[3]), mc_v3_scale(d1, st[1]));
}

static mc_vec3 bitangent_of(mc_vec3 d0, mc_vec3 d1, const float st[4])
{
    return mc_v3_sub(mc_v3_scale(d1, st[0]), mc_v3_scale(d0, st[2]));
}

static float at_least(float len)
{
    return len < 0.001f ? 0.001f : len;
}

void mc_unsmoothed_build(const mc_submesh *sm, const mc_vec3 *bind, mc_dominant_tri *out)
{
    for (int v = 0; v < sm->num_verts; v++)
        out[v] = (mc_dominant_tri){ v, v, { 0.0f, 0.0f, 0.0f } };
    for (int v = 0; v < sm->num_verts; v++) {
        float best = 0.0f;

        for (int t = 0; t < sm->num_tris; t++) {
            const int *i = sm->tris[t].v;
            int k = i[0] == v ? 0 : i[1] == v ? 1 : i[2] == v ? 2 : -1;
            int b, c;
            mc_vec3 d0, d1;
            float st[4], area, sign;

            if (k < 0)
                continue;
            b = i[(k + 1) % 3];
            c = i[(k + 2) % 3];
            deltas(sm, bind, v, b, c, &d0, &d1, st);
            area = mc_v3_len(mc_v3_cross(d1, d0));
            if (area < best) /* "if this is smaller than what we already have, skip it" */
                continue;
            best = area;
            sign = st[0] * st[3] - st[1] * st[2] > 0.0f ? 1.0f : -1.0f;
            out[v].v2 = b;
            out[v].v3 = c;
            out[v].scale[2] = 1.0f / at_least(area);
            out[v].scale[0] = sign / at_least(mc_v3_len(tangent_of(d0, d1, st)));
            out[v].scale[1] = sign / at_least(mc_v3_len(bitangent_of(d0, d1, st)));
        }
    }
}

void mc_unsmoothed_derive(const mc_submesh *sm, const mc_dominant_tri *dt, const mc_vec3 *pos,
                          mc_vec3 *nrm, mc_tangent *tan)
{
    for (int v = 0; v < sm->num_verts; v++) {
        mc_vec3 d0, d1, n, t, b;
        float st[4];

        deltas(sm, pos, v, dt[v].v2, dt[v].v3, &d0, &d1, st);
        n = mc_v3_scale(mc_v3_cross(d1, d0), dt[v].scale[2]);
        nrm[v] = n;
        if (!tan)
            continue;
        t = mc_v3_scale(tangent_of(d0, d1, st), dt[v].scale[0]);
        b = mc_v3_scale(bitangent_of(d0, d1, st), dt[v].scale[1]);
        tan[v].t = t;
        tan[v].w = mc_v3_dot(b, mc_v3_cross(t, n)) < 0.0f ? -1.0f : 1.0f;
    }
}
