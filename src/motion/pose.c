/* Anim sampling, joint concatenation, skinning and normals: see pose.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/pose.h>

/* The anim's joints sorted by name, then by index, so that a binary search finds the first
 * joint of a name (the one a search in file order would find) in O(log n). */
typedef struct name_key {
    const char *name;
    int index;
} name_key;

static int compare_names(const void *pa, const void *pb)
{
    const name_key *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c != 0)
        return c;
    return (a->index > b->index) - (a->index < b->index);
}

/* The lowest anim joint index named name, or -1. */
static int find_anim_joint(const name_key *keys, int n, const char *name)
{
    int lo = 0, hi = n; /* first key >= name in [lo, hi) */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(keys[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(keys[lo].name, name) == 0 ? keys[lo].index : -1;
}

static mc_status parent_mismatch(const mc_mesh *mesh, const mc_anim *anim, int i, int j,
                                 mc_error *err)
{
    const mc_anim_joint *aj = &anim->joints[j];
    const char *name = mesh->joints[i].name;
    int mp = mesh->joints[i].parent;
    if (aj->parent < 0)
        return mc_error_set(err, MC_ERR_MISMATCH, anim->name, aj->line, aj->col,
                            "joint '%s' is a root here but has parent '%s' in mesh '%s'", name,
                            mesh->joints[mp].name, mesh->name);
    if (mp < 0)
        return mc_error_set(err, MC_ERR_MISMATCH, anim->name, aj->line, aj->col,
                            "joint '%s' has parent '%s' here but is a root in mesh '%s'", name,
                            anim->joints[aj->parent].name, mesh->name);
    return mc_error_set(err, MC_ERR_MISMATCH, anim->name, aj->line, aj->col,
                        "joint '%s' has parent '%s' here but '%s' in mesh '%s'", name,
                        anim->joints[aj->parent].name, mesh->joints[mp].name, mesh->name);
}

mc_status mc_pose_map_anim(const mc_mesh *mesh, const mc_anim *anim, int *anim_joint,
                           mc_error *err)
{
    if (mesh->num_joints == 0)
        return MC_OK;
    int n = anim->num_joints;
    name_key *keys = malloc((n > 0 ? (size_t)n : 1) * sizeof *keys);
    if (!keys)
        return mc_error_set(err, MC_ERR_NOMEM, anim->name, 0, 0,
                            "out of memory for the names of %d joints", n);
    for (int j = 0; j < n; j++)
        keys[j] = (name_key){ anim->joints[j].name, j };
    qsort(keys, (size_t)n, sizeof *keys, compare_names);
    mc_status st = MC_OK;
    for (int i = 0; i < mesh->num_joints && st == MC_OK; i++) {
        const mc_mesh_joint *mj = &mesh->joints[i];
        int j = find_anim_joint(keys, n, mj->name);
        int ap = j >= 0 ? anim->joints[j].parent : -1;
        bool same = (ap < 0 && mj->parent < 0) ||
                    (ap >= 0 && mj->parent >= 0 &&
                     strcmp(anim->joints[ap].name, mesh->joints[mj->parent].name) == 0);
        if (j < 0)
            st = mc_error_set(err, MC_ERR_MISMATCH, mesh->name, mj->line, mj->col,
                              "joint '%s' is missing from anim '%s'", mj->name, anim->name);
        else if (!same)
            st = parent_mismatch(mesh, anim, i, j, err);
        else
            anim_joint[i] = j;
    }
    free(keys);
    return st;
}

void mc_anim_frame_at(const mc_anim *anim, double f, bool loop, mc_anim_frame_pos *out)
{
    int intervals = anim->num_frames - 1;
    out->frame0 = 0;
    out->frame1 = 0;
    out->lerp = 0.0f;
    if (intervals < 1 || !(f > 0.0) || isnan(f))
        return;
    if (isinf(f)) {
        if (!loop)
            out->frame0 = out->frame1 = intervals;
        return;
    }
    if (loop)
        f = fmod(f, (double)intervals);
    double whole = floor(f);
    double frac = f - whole;
    /* Snap rounding noise (t = k / rate, then * rate) onto the whole frame. */
    if (frac < 1e-9) {
        frac = 0.0;
    } else if (frac > 1.0 - 1e-9) {
        whole += 1.0;
        frac = 0.0;
    }
    if (whole >= (double)intervals) {
        /* Not looping: hold the last frame. Looping: only a snapped f == intervals lands
         * here, which is the last frame (equal to the first by the loop rule). */
        out->frame0 = out->frame1 = loop ? 0 : intervals;
        return;
    }
    out->frame0 = (int)whole;
    out->frame1 = frac > 0.0 ? out->frame0 + 1 : out->frame0;
    /* A fraction within half a float step of 1 would round up to 1.0f: keep it below. */
    float lerp = (float)frac;
    out->lerp = lerp < 1.0f ? lerp : nextafterf(1.0f, 0.0f);
}

void mc_anim_frame_at_ms(const mc_anim *anim, int64_t ms, bool loop, mc_anim_frame_pos *out)
{
    int64_t intervals = anim->num_frames - 1;
    int64_t rate = anim->frame_rate > 0 ? anim->frame_rate : 1;
    out->frame0 = 0;
    out->frame1 = 0;
    out->lerp = 0.0f;
    if (intervals < 1)
        return;
    out->frame1 = 1;
    if (ms <= 0)
        return;
    if (loop)
        ms %= (intervals * 1000 + rate - 1) / rate;
    /* Past any anim's end (frames < 2^31, rates >= 1): held, or reduced above. */
    if (ms > ((int64_t)1 << 40))
        ms = (int64_t)1 << 40;
    int64_t p = ms * rate;
    int64_t n = p / 1000;
    if (!loop && n / intervals >= 1) {
        out->frame0 = out->frame1 = (int)intervals;
        return;
    }
    out->frame0 = (int)(n % intervals);
    out->frame1 = out->frame0 + 1;
    out->lerp = (float)(p % 1000) * 0.001f;
}

mc_local_joint mc_anim_joint_at(const mc_anim *anim, int j, int k)
{
    const mc_anim_joint *aj = &anim->joints[j];
    mc_local_joint r = { anim->base_pos[j], anim->base_rot[j] };
    int flags = aj->flags;
    if (flags == 0)
        return r;
    const float *v = anim->frames + (size_t)k * (size_t)anim->num_components + (size_t)aj->first;
    if (flags & MC_ANIM_TX)
        r.pos.x = *v++;
    if (flags & MC_ANIM_TY)
        r.pos.y = *v++;
    if (flags & MC_ANIM_TZ)
        r.pos.z = *v++;
    if (flags & MC_ANIM_QX)
        r.rot.x = *v++;
    if (flags & MC_ANIM_QY)
        r.rot.y = *v++;
    if (flags & MC_ANIM_QZ)
        r.rot.z = *v;
    if (flags & (MC_ANIM_QX | MC_ANIM_QY | MC_ANIM_QZ))
        r.rot.w = mc_quat_calc_w(r.rot.x, r.rot.y, r.rot.z);
    return r;
}

/* out = local * parent (apply local first): axis_l * axis_p, pos_l * axis_p + pos_p. */
static void concat(mc_joint_xform *x, const mc_joint_xform *parent)
{
    mc_mat3 axis = mc_mat3_mul(&x->axis, &parent->axis);
    x->pos = mc_v3_add(mc_v3_mul_mat3(x->pos, &parent->axis), parent->pos);
    x->axis = axis;
}

void mc_pose_sample_frames(const mc_mesh *mesh, const mc_anim *anim, const int *anim_joint,
                           const mc_anim_frame_pos *fp, bool in_place, mc_joint_xform *out)
{
    bool blend = fp->lerp > 0.0f && fp->frame1 != fp->frame0;
    for (int i = 0; i < mesh->num_joints; i++) {
        int j = anim_joint[i];
        mc_local_joint a = mc_anim_joint_at(anim, j, fp->frame0);
        if (blend) {
            mc_local_joint b = mc_anim_joint_at(anim, j, fp->frame1);
            a.pos = mc_v3_lerp(a.pos, b.pos, fp->lerp);
            a.rot = mc_quat_slerp(a.rot, b.rot, fp->lerp);
        }
        if (in_place && j == 0)
            a.pos = mc_v3(0.0f, 0.0f, 0.0f);
        out[i].axis = mc_quat_to_mat3(a.rot);
        out[i].pos = a.pos;
        int p = mesh->joints[i].parent;
        if (p >= 0)
            concat(&out[i], &out[p]);
    }
}

void mc_pose_sample(const mc_mesh *mesh, const mc_anim *anim, const int *anim_joint, double t,
                    const mc_pose_opts *opts, mc_joint_xform *out)
{
    mc_pose_opts o = { false, false };
    if (opts)
        o = *opts;
    mc_anim_frame_pos fp;
    mc_anim_frame_at(anim, t * (double)anim->frame_rate, o.loop, &fp);
    mc_pose_sample_frames(mesh, anim, anim_joint, &fp, o.in_place, out);
}

void mc_pose_bind(const mc_mesh *mesh, mc_joint_xform *out)
{
    for (int i = 0; i < mesh->num_joints; i++) {
        out[i].axis = mc_quat_to_mat3(mesh->joints[i].rot);
        out[i].pos = mesh->joints[i].pos;
    }
}

/* One weight's contribution: bias * (offset * axis + pos). */
static mc_vec3 weigh(const mc_weight *w, const mc_mat3 *axis, mc_vec3 pos)
{
    return mc_v3_scale(mc_v3_add(mc_v3_mul_mat3(w->pos, axis), pos), w->bias);
}

void mc_skin_positions(const mc_submesh *sm, const mc_joint_xform *joints, mc_vec3 *out)
{
    for (int v = 0; v < sm->num_verts; v++) {
        const mc_vert *vert = &sm->verts[v];
        const mc_weight *w = sm->weights + vert->first_weight;
        mc_vec3 sum = { 0.0f, 0.0f, 0.0f };
        for (int k = 0; k < vert->num_weights; k++) {
            const mc_joint_xform *j = &joints[w[k].joint];
            sum = mc_v3_add(sum, weigh(&w[k], &j->axis, j->pos));
        }
        out[v] = sum;
    }
}

void mc_skin_bind_positions(const mc_mesh *mesh, int s, mc_vec3 *out)
{
    const mc_submesh *sm = &mesh->meshes[s];
    for (int v = 0; v < sm->num_verts; v++) {
        const mc_vert *vert = &sm->verts[v];
        const mc_weight *w = sm->weights + vert->first_weight;
        mc_vec3 sum = { 0.0f, 0.0f, 0.0f };
        for (int k = 0; k < vert->num_weights; k++) {
            const mc_mesh_joint *j = &mesh->joints[w[k].joint];
            mc_mat3 axis = mc_quat_to_mat3(j->rot);
            sum = mc_v3_add(sum, weigh(&w[k], &axis, j->pos));
        }
        out[v] = sum;
    }
}

typedef struct pos_key {
    uint32_t bits[3];
    int index;
} pos_key;

static int compare_keys(const void *pa, const void *pb)
{
    const pos_key *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->bits[i] != b->bits[i])
            return a->bits[i] < b->bits[i] ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* out[v] = the sum of the unit face normals of the triangles around vertex v (each vertex's
 * unnormalised smooth normal). */
static void sum_face_normals(const mc_submesh *sm, const mc_vec3 *pos, mc_vec3 *out)
{
    memset(out, 0, (size_t)sm->num_verts * sizeof *out);
    for (int t = 0; t < sm->num_tris; t++) {
        const int *v = sm->tris[t].v;
        mc_vec3 a = pos[v[0]], b = pos[v[1]], c = pos[v[2]];
        mc_vec3 fn = mc_v3_normalize(mc_v3_cross(mc_v3_sub(c, a), mc_v3_sub(b, a)));
        for (int k = 0; k < 3; k++)
            out[v[k]] = mc_v3_add(out[v[k]], fn);
    }
}

/* Unit bind-pose vertex normals: the unweighted sum of the unit face normals around each
 * vertex, normalised (zero for a vertex on no non-degenerate triangle). */
static void bind_vertex_normals(const mc_submesh *sm, const mc_vec3 *pos, mc_vec3 *out)
{
    sum_face_normals(sm, pos, out);
    for (int v = 0; v < sm->num_verts; v++)
        out[v] = mc_v3_normalize(out[v]);
}

/* Splits one run of vertices with a bit-identical bind position (keys[0..n), in index order)
 * into smoothing groups: each vertex joins the first earlier group (of the first
 * MAX_CREASE_GROUPS) whose first vertex's bind normal is within the crease angle of its own;
 * a vertex with no bind normal joins the run's first group. */
#define MAX_CREASE_GROUPS 32
static void split_run(const pos_key *keys, size_t n, const mc_vec3 *vn, float min_cos, int *rep)
{
    int first[MAX_CREASE_GROUPS];
    int groups = 0;
    for (size_t k = 0; k < n; k++) {
        int v = keys[k].index, g = 0;
        bool none = vn[v].x == 0.0f && vn[v].y == 0.0f && vn[v].z == 0.0f;
        if (none || groups == 0) {
            g = groups > 0 ? 0 : -1;
        } else {
            while (g < groups && mc_v3_dot(vn[first[g]], vn[v]) < min_cos)
                g++;
            if (g == groups)
                g = -1;
        }
        if (g >= 0) {
            rep[v] = first[g];
        } else {
            rep[v] = v;
            if (groups < MAX_CREASE_GROUPS)
                first[groups++] = v;
        }
    }
}

mc_status mc_skin_topology_build(const mc_mesh *mesh, int s, float crease_deg,
                                 mc_skin_topology *out, mc_error *err)
{
    const mc_submesh *sm = &mesh->meshes[s];
    size_t n = (size_t)sm->num_verts;
    memset(out, 0, sizeof *out);
    if (n == 0)
        return MC_OK;
    int *rep = malloc(n * sizeof *rep);
    pos_key *keys = malloc(n * sizeof *keys);
    mc_vec3 *pos = malloc(n * sizeof *pos);
    mc_vec3 *vn = malloc(n * sizeof *vn);
    if (!rep || !keys || !pos || !vn) {
        free(rep);
        free(keys);
        free(pos);
        free(vn);
        return mc_error_set(err, MC_ERR_NOMEM, mesh->name, 0, 0,
                            "out of memory for the topology of %zu vertices", n);
    }
    mc_skin_bind_positions(mesh, s, pos);
    bind_vertex_normals(sm, pos, vn);
    for (size_t v = 0; v < n; v++) {
        memcpy(keys[v].bits, &pos[v], sizeof keys[v].bits);
        keys[v].index = (int)v;
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    /* 180 degrees or more (or NaN) joins every normal, whatever rounding does to cos. */
    float min_cos = !(crease_deg < 180.0f) ? -2.0f : cosf(mc_deg2rad(crease_deg));
    size_t first = 0;
    for (size_t k = 1; k <= n; k++) {
        if (k < n && memcmp(keys[k].bits, keys[first].bits, sizeof keys[k].bits) == 0)
            continue;
        split_run(keys + first, k - first, vn, min_cos, rep);
        first = k;
    }
    free(keys);
    free(pos);
    free(vn);
    out->num_verts = sm->num_verts;
    out->rep = rep;
    return MC_OK;
}

void mc_skin_topology_release(mc_skin_topology *topo)
{
    free(topo->rep);
    memset(topo, 0, sizeof *topo);
}

void mc_skin_normals(const mc_submesh *sm, const mc_skin_topology *topo, const mc_vec3 *pos,
                     mc_vec3 *out)
{
    int n = sm->num_verts;
    sum_face_normals(sm, pos, out);
    const int *rep = topo ? topo->rep : NULL;
    if (rep)
        for (int v = 0; v < n; v++)
            if (rep[v] != v)
                out[rep[v]] = mc_v3_add(out[rep[v]], out[v]);
    for (int v = 0; v < n; v++) {
        int r = rep ? rep[v] : v;
        out[v] = r == v ? mc_v3_normalize(out[v]) : out[r]; /* r < v is already done */
    }
}

/* A unit vector perpendicular to unit n (for a vertex whose texture mapping gives none). */
static mc_vec3 any_perpendicular(mc_vec3 n)
{
    mc_vec3 axis = fabsf(n.x) < 0.9f ? mc_v3(1.0f, 0.0f, 0.0f) : mc_v3(0.0f, 1.0f, 0.0f);
    return mc_v3_normalize(mc_v3_cross(axis, n));
}

/* Triangle t's unit dP/ds and dP/dt from its position and texture deltas (Doom's
 * R_DeriveFaceTangents); false for a degenerate mapping (zero area in st). */
static bool face_tangents(const mc_submesh *sm, const mc_vec3 *pos, int t, mc_vec3 *ds,
                          mc_vec3 *dt)
{
    const int *v = sm->tris[t].v;
    mc_vec2 s0 = sm->verts[v[0]].st, s1 = sm->verts[v[1]].st, s2 = sm->verts[v[2]].st;
    mc_vec3 d0 = mc_v3_sub(pos[v[1]], pos[v[0]]), d1 = mc_v3_sub(pos[v[2]], pos[v[0]]);
    float d0s = s1.x - s0.x, d0t = s1.y - s0.y, d1s = s2.x - s0.x, d1t = s2.y - s0.y;
    float area = d0s * d1t - d0t * d1s;
    if (!(fabsf(area) >= 1e-20f))
        return false;
    /* dP/ds = (d0 d1t - d1 d0t) / area, dP/dt = (d1 d0s - d0 d1s) / area; only the
     * direction is kept, so dividing by the sign of the area is enough. */
    float inva = area < 0.0f ? -1.0f : 1.0f;
    *ds = mc_v3_normalize(
            mc_v3_scale(mc_v3_sub(mc_v3_scale(d0, d1t), mc_v3_scale(d1, d0t)), inva));
    *dt = mc_v3_normalize(
            mc_v3_scale(mc_v3_sub(mc_v3_scale(d1, d0s), mc_v3_scale(d0, d1s)), inva));
    return true;
}

void mc_skin_tangents(const mc_submesh *sm, const mc_vec3 *pos, const mc_vec3 *nrm,
                      mc_tangent *out)
{
    int n = sm->num_verts;
    memset(out, 0, (size_t)n * sizeof *out);
    for (int t = 0; t < sm->num_tris; t++) {
        mc_vec3 ds, dt;
        if (!face_tangents(sm, pos, t, &ds, &dt))
            continue;
        for (int k = 0; k < 3; k++)
            out[sm->tris[t].v[k]].t = mc_v3_add(out[sm->tris[t].v[k]].t, ds);
    }
    /* Gram-Schmidt against the normal; w holds the handedness vote below. */
    for (int v = 0; v < n; v++) {
        /* The normal made unit first: skinned normals need not be, and subtracting
         * n (t.n) with |n| != 1 leaves a multiple of n (with |n| = 2 and t = n / 2, exactly
         * -n). A tangent (nearly) along the normal has no direction left: any perpendicular. */
        mc_vec3 nv = mc_v3_normalize(nrm[v]), tv = out[v].t;
        mc_vec3 r = mc_v3_sub(tv, mc_v3_scale(nv, mc_v3_dot(tv, nv)));

        if (mc_v3_len(r) <= 1e-6f * mc_v3_len(tv) || mc_v3_len(r) == 0.0f)
            tv = mc_v3_len(nv) > 0.0f ? any_perpendicular(nv) : (mc_vec3){ 0, 0, 0 };
        else
            tv = mc_v3_normalize(r);
        out[v].t = tv;
    }
    /* Handedness: the summed face dP/dt against cross(T, N), the bitangent of a mapping that
     * is not mirrored. */
    for (int t = 0; t < sm->num_tris; t++) {
        mc_vec3 ds, dt;
        if (!face_tangents(sm, pos, t, &ds, &dt))
            continue;
        for (int k = 0; k < 3; k++) {
            int v = sm->tris[t].v[k];
            out[v].w += mc_v3_dot(mc_v3_cross(out[v].t, nrm[v]), dt);
        }
    }
    for (int v = 0; v < n; v++)
        out[v].w = out[v].w < 0.0f ? -1.0f : 1.0f;
}

mc_mat4 mc_pose_placement(mc_vec3 origin, float yaw_deg, float scale)
{
    float a = mc_deg2rad(yaw_deg);
    float c = cosf(a), s = sinf(a);
    /* GL column k = scale * row k of the yaw axis: rows (c, s, 0), (-s, c, 0), (0, 0, 1). */
    mc_mat4 m = { { scale * c, scale * s, 0.0f, 0.0f, -scale * s, scale * c, 0.0f, 0.0f, 0.0f,
                    0.0f, scale, 0.0f, origin.x, origin.y, origin.z, 1.0f } };
    return m;
}
