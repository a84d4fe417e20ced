/* libFuzzer target: a mesh and an anim from one input, through joint matching, pose sampling,
 * skinning and normals (pose.h). The input is split at its first line "%%": the bytes before it
 * are an .md5mesh, the bytes after it an .md5anim (no such line: all of it is the mesh and the
 * anim part is empty). Both parse in lenient mode when the input's size is odd.
 *
 * Checked: a failed parse or match is a sane error in the right file; a match maps each mesh
 * joint to the first anim joint of its name with a parent of the same name; mc_anim_frame_at
 * gives frames in range and lerp in [0, 1), and the frames and lerps the spec's anim time
 * gives at whole and half frames; sampling through a time equals sampling its frame position;
 * skinned positions and normals are finite whenever the values they come from are small enough
 * not to overflow a float (rotations unit, positions and biases bounded), normals are unit or
 * zero and shared across each seam group. Anything else aborts. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MESH_NAME "fuzz.md5mesh"
#define ANIM_NAME "fuzz.md5anim"

/* Largest translation, offset and bias for which a pose and its skin must be finite. */
#define SMALL 1e4
/* Largest skinned coordinate for which normals must be finite ((2P)^2 products stay in range). */
#define SMALL_SKIN 1e9

static int finite3(mc_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static double max_abs3(mc_vec3 v)
{
    return fmax(fabs((double)v.x), fmax(fabs((double)v.y), fabs((double)v.z)));
}

/* A rotation whose rebuilt w makes a unit quaternion: x^2 + y^2 + z^2 <= 1. */
static int unit_xyz(mc_quat q)
{
    double x = (double)q.x, y = (double)q.y, z = (double)q.z;
    return x * x + y * y + z * z <= 1.0;
}

/* Every joint of the pose is finite and its axis a rotation (entries within [-1, 1] up to
 * rounding accumulated along the chain of parents). */
static void check_pose_finite(const mc_joint_xform *x, int n)
{
    for (int i = 0; i < n; i++) {
        FUZZ_REQUIRE(finite3(x[i].pos));
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                FUZZ_REQUIRE(fabsf(x[i].axis.m[r][c]) <= 1.01f);
    }
}

/* Skins every submesh with joints; when the pose and weights are small, positions must be
 * finite and then normals finite, unit or zero, and equal across each seam group, and tangents
 * unit and perpendicular to a unit normal (zero with a zero one); w is always +1 or -1. */
static void check_skin(const mc_mesh *mesh, const mc_skin_topology *topo,
                       const mc_joint_xform *joints, int pose_small, mc_vec3 *pos, mc_vec3 *nrm,
                       mc_tangent *tan)
{
    for (int s = 0; s < mesh->num_meshes; s++) {
        const mc_submesh *sm = &mesh->meshes[s];
        int weights_small = 1;

        for (int w = 0; w < sm->num_weights; w++)
            weights_small &= fabs((double)sm->weights[w].bias) <= SMALL &&
                             max_abs3(sm->weights[w].pos) <= SMALL;
        mc_skin_positions(sm, joints, pos);
        int skin_small = 1;
        for (int v = 0; v < sm->num_verts; v++) {
            if (pose_small && weights_small)
                FUZZ_REQUIRE(finite3(pos[v]));
            skin_small &= finite3(pos[v]) && max_abs3(pos[v]) <= SMALL_SKIN;
        }
        mc_skin_normals(sm, &topo[s], pos, nrm);
        mc_skin_tangents(sm, pos, nrm, tan);
        for (int v = 0; v < sm->num_verts; v++)
            FUZZ_REQUIRE(tan[v].w == 1.0f || tan[v].w == -1.0f);
        if (!skin_small)
            continue;
        for (int v = 0; v < sm->num_verts; v++) {
            float len = sqrtf(nrm[v].x * nrm[v].x + nrm[v].y * nrm[v].y + nrm[v].z * nrm[v].z);

            FUZZ_REQUIRE(finite3(nrm[v]));
            FUZZ_REQUIRE(len == 0.0f || fabsf(len - 1.0f) <= 1e-3f);
            if (topo[s].rep)
                FUZZ_REQUIRE(memcmp(&nrm[v], &nrm[topo[s].rep[v]], sizeof nrm[v]) == 0);
            if (len > 0.0f && finite3(tan[v].t)) {
                mc_vec3 t = tan[v].t;
                float tl = sqrtf(t.x * t.x + t.y * t.y + t.z * t.z);

                FUZZ_REQUIRE(fabsf(tl - 1.0f) <= 1e-3f);
                FUZZ_REQUIRE(fabsf(t.x * nrm[v].x + t.y * nrm[v].y + t.z * nrm[v].z) <= 1e-3f);
            }
        }
    }
}

/* Topology: each vertex's representative is the lowest index with the same bind position. */
static void check_topology(const mc_mesh *mesh, int s, const mc_skin_topology *t, mc_vec3 *bind)
{
    const mc_submesh *sm = &mesh->meshes[s];

    FUZZ_REQUIRE(t->num_verts == sm->num_verts);
    FUZZ_REQUIRE((t->rep == NULL) == (sm->num_verts == 0));
    mc_skin_bind_positions(mesh, s, bind);
    for (int v = 0; v < sm->num_verts; v++) {
        int r = t->rep[v];

        FUZZ_REQUIRE(r >= 0 && r <= v && t->rep[r] == r);
        FUZZ_REQUIRE(memcmp(&bind[r], &bind[v], sizeof bind[v]) == 0);
    }
}

/* mc_anim_frame_at's promises (pose.h) for any f, and the spec's values at chosen ones. */
static void check_frame_at(const mc_anim *anim, double f, bool loop)
{
    mc_anim_frame_pos fp;
    int last = anim->num_frames - 1;

    mc_anim_frame_at(anim, f, loop, &fp);
    FUZZ_REQUIRE(fp.frame0 >= 0 && fp.frame0 <= last);
    FUZZ_REQUIRE(fp.frame1 == fp.frame0 || fp.frame1 == fp.frame0 + 1);
    FUZZ_REQUIRE(fp.frame1 <= last);
    FUZZ_REQUIRE(fp.lerp >= 0.0f && fp.lerp < 1.0f);
    FUZZ_REQUIRE((fp.lerp > 0.0f) == (fp.frame1 != fp.frame0));
}

static void check_frames(const mc_anim *anim)
{
    int last = anim->num_frames - 1;
    const double odd[] = { -1.0, -0.0, 0.0, 1e-12, 0.25, 1.0 - 2e-8, 1.0 - 1e-10, 1.5,
                           (double)last - 2e-8, (double)last, (double)last + 0.5,
                           (double)last * 2.0 - 3e-8, 1e9 + 0.5, 1e300, HUGE_VAL, -HUGE_VAL,
                           (double)NAN };
    mc_anim_frame_pos fp;

    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        for (int loop = 0; loop < 2; loop++)
            check_frame_at(anim, odd[i], loop);
    /* whole and half frames (spec: f = floor(p), lerp = p - f); looping, one period later */
    for (int k = 0; k < last && k < 64; k++) {
        mc_anim_frame_at(anim, (double)k, false, &fp);
        FUZZ_REQUIRE(fp.frame0 == k && fp.frame1 == k && fp.lerp == 0.0f);
        mc_anim_frame_at(anim, (double)k + 0.5, false, &fp);
        FUZZ_REQUIRE(fp.frame0 == k && fp.frame1 == k + 1 && fp.lerp == 0.5f);
        mc_anim_frame_at(anim, (double)(k + last) + 0.5, true, &fp);
        FUZZ_REQUIRE(fp.frame0 == k && fp.frame1 == k + 1 && fp.lerp == 0.5f);
    }
    /* not looping, from the last frame on it is held; looping, the period shows frame 0 */
    mc_anim_frame_at(anim, (double)last + 0.5, false, &fp);
    FUZZ_REQUIRE(fp.frame0 == last && fp.frame1 == last && fp.lerp == 0.0f);
    mc_anim_frame_at(anim, (double)last, true, &fp);
    FUZZ_REQUIRE(fp.frame0 == 0 && fp.lerp == 0.0f);
}

/* Whether every local joint of every frame is small with a unit rotation. */
static int anim_small(const mc_anim *anim)
{
    for (int j = 0; j < anim->num_joints; j++)
        for (int k = 0; k < anim->num_frames; k++) {
            mc_local_joint l = mc_anim_joint_at(anim, j, k);

            if (!(max_abs3(l.pos) <= SMALL) || !unit_xyz(l.rot))
                return 0;
        }
    return 1;
}

static int mesh_small(const mc_mesh *mesh)
{
    for (int i = 0; i < mesh->num_joints; i++)
        if (!(max_abs3(mesh->joints[i].pos) <= SMALL) || !unit_xyz(mesh->joints[i].rot))
            return 0;
    return 1;
}

/* A failed match: a mismatch at a joint of the mesh (missing) or of the anim (parent). */
static void check_match_error(mc_status st, const mc_error *err, const mc_mesh *mesh,
                              const mc_anim *anim)
{
    int found = 0;

    FUZZ_REQUIRE(err->code == st && err->msg[0] && strchr(err->msg, '\n') == NULL);
    if (st == MC_ERR_NOMEM)
        return;
    FUZZ_REQUIRE(st == MC_ERR_MISMATCH);
    if (strcmp(err->file, MESH_NAME) == 0) {
        for (int i = 0; i < mesh->num_joints && !found; i++)
            found = mesh->joints[i].line == err->line && mesh->joints[i].col == err->col;
    } else {
        FUZZ_REQUIRE(strcmp(err->file, ANIM_NAME) == 0);
        for (int j = 0; j < anim->num_joints && !found; j++)
            found = anim->joints[j].line == err->line && anim->joints[j].col == err->col;
    }
    FUZZ_REQUIRE(found);
}

/* A successful match: names and parents agree, the first anim joint of the name is taken. */
static void check_map(const mc_mesh *mesh, const mc_anim *anim, const int *map)
{
    int small = anim->num_joints <= 256;

    for (int i = 0; i < mesh->num_joints; i++) {
        int j = map[i], mp = mesh->joints[i].parent;

        FUZZ_REQUIRE(j >= 0 && j < anim->num_joints);
        FUZZ_REQUIRE(strcmp(anim->joints[j].name, mesh->joints[i].name) == 0);
        int ap = anim->joints[j].parent;
        FUZZ_REQUIRE((ap < 0) == (mp < 0));
        if (ap >= 0)
            FUZZ_REQUIRE(strcmp(anim->joints[ap].name, mesh->joints[mp].name) == 0);
        for (int k = 0; small && k < j; k++)
            FUZZ_REQUIRE(strcmp(anim->joints[k].name, mesh->joints[i].name) != 0);
    }
}

typedef struct buffers {
    mc_skin_topology *topo;
    mc_joint_xform *joints, *again;
    mc_vec3 *pos, *nrm;
    mc_tangent *tan;
    int *map;
} buffers;

static void alloc_buffers(const mc_mesh *mesh, buffers *b)
{
    size_t nj = (size_t)mesh->num_joints + 1, nm = (size_t)mesh->num_meshes + 1, nv = 1;

    for (int s = 0; s < mesh->num_meshes; s++)
        if ((size_t)mesh->meshes[s].num_verts > nv)
            nv = (size_t)mesh->meshes[s].num_verts;
    b->topo = calloc(nm, sizeof *b->topo);
    b->joints = malloc(nj * sizeof *b->joints);
    b->again = malloc(nj * sizeof *b->again);
    b->pos = malloc(nv * sizeof *b->pos);
    b->nrm = malloc(nv * sizeof *b->nrm);
    b->tan = malloc(nv * sizeof *b->tan);
    b->map = malloc(nj * sizeof *b->map);
    FUZZ_REQUIRE(b->topo && b->joints && b->again && b->pos && b->nrm && b->tan && b->map);
}

static void free_buffers(const mc_mesh *mesh, buffers *b)
{
    for (int s = 0; s < mesh->num_meshes; s++)
        mc_skin_topology_release(&b->topo[s]);
    free(b->topo);
    free(b->joints);
    free(b->again);
    free(b->pos);
    free(b->nrm);
    free(b->tan);
    free(b->map);
}

/* Samples the pose at several moments, each through both entry points, and skins it. */
static void check_sampling(const mc_mesh *mesh, const mc_anim *anim, buffers *b, int small)
{
    int last = anim->num_frames - 1;
    const double frames[] = { -0.5, 0.0, 0.5, 1.0 - 2e-8, (double)last * 0.37, (double)last,
                              (double)last + 0.75, (double)last * 3.0 + 0.25 };

    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        mc_pose_opts opts = { (i & 1) != 0, (i & 2) != 0 };
        double t = frames[i] / (double)anim->frame_rate;
        mc_anim_frame_pos fp;

        mc_pose_sample(mesh, anim, b->map, t, &opts, b->joints);
        mc_anim_frame_at(anim, t * (double)anim->frame_rate, opts.loop, &fp);
        mc_pose_sample_frames(mesh, anim, b->map, &fp, opts.in_place, b->again);
        FUZZ_REQUIRE(memcmp(b->joints, b->again, (size_t)mesh->num_joints * sizeof *b->joints) ==
                     0);
        if (small)
            check_pose_finite(b->joints, mesh->num_joints);
        if (i < 3)
            check_skin(mesh, b->topo, b->joints, small, b->pos, b->nrm, b->tan);
        /* The engine clock's integer rule at the same moment in whole ms: frames in range,
         * frame1 the next one or a held last frame, lerp in [0, 1). */
        mc_anim_frame_at_ms(anim, (int64_t)floor(t * 1000.0), opts.loop, &fp);
        FUZZ_REQUIRE(fp.frame0 >= 0 && fp.frame0 <= last && fp.frame1 >= 0 && fp.frame1 <= last);
        FUZZ_REQUIRE(last == 0 ? fp.frame1 == 0
                               : fp.frame1 == fp.frame0 + 1 ||
                                         (fp.frame0 == last && fp.frame1 == last));
        FUZZ_REQUIRE(fp.lerp >= 0.0f && fp.lerp < 1.0f);
        mc_pose_sample_frames(mesh, anim, b->map, &fp, opts.in_place, b->again);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    const char *text = (const char *)data;
    size_t mesh_len = size, anim_at = size;
    mc_mesh mesh;
    mc_anim anim;
    mc_error err;
    buffers b;

    for (size_t i = 0; i + 2 <= size; i++)
        if ((i == 0 || data[i - 1] == '\n') && data[i] == '%' && data[i + 1] == '%' &&
            (i + 2 == size || data[i + 2] == '\n')) {
            mesh_len = i;
            anim_at = i + 2 < size ? i + 3 : size;
            break;
        }
    mc_status st = mc_mesh_parse(text, mesh_len, MESH_NAME, &opts, &mesh, &err);
    if (st != MC_OK) {
        fuzz_check_error(st, &err, MESH_NAME, data, mesh_len);
        return 0;
    }
    alloc_buffers(&mesh, &b);
    for (int s = 0; s < mesh.num_meshes; s++) {
        st = mc_skin_topology_build(&mesh, s, MC_SKIN_CREASE_DEGREES, &b.topo[s], &err);
        FUZZ_REQUIRE(st == MC_OK);
        check_topology(&mesh, s, &b.topo[s], b.pos);
    }
    mc_pose_bind(&mesh, b.joints);
    int bind_small = mesh_small(&mesh);
    if (bind_small)
        check_pose_finite(b.joints, mesh.num_joints);
    check_skin(&mesh, b.topo, b.joints, bind_small, b.pos, b.nrm, b.tan);

    st = mc_anim_parse(text + anim_at, size - anim_at, ANIM_NAME, &opts, &anim, &err);
    if (st != MC_OK) {
        fuzz_check_error(st, &err, ANIM_NAME, data + anim_at, size - anim_at);
        free_buffers(&mesh, &b);
        mc_mesh_release(&mesh);
        return 0;
    }
    check_frames(&anim);
    st = mc_pose_map_anim(&mesh, &anim, b.map, &err);
    if (st != MC_OK) {
        check_match_error(st, &err, &mesh, &anim);
    } else {
        check_map(&mesh, &anim, b.map);
        check_sampling(&mesh, &anim, &b, anim_small(&anim));
    }
    free_buffers(&mesh, &b);
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
    return 0;
}
