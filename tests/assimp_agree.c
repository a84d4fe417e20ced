/* Agreement with assimp, an independent MD5 reader: bind-pose vertices of every md5mesh assimp
 * can read, and model-space joints of md5anims at every stored frame, within 1e-4 of the
 * model's size (the diagonal of its bind-pose bounding box).
 *
 * assimp runs with no post-processing steps (flags 0; in particular no
 * aiProcess_JoinIdenticalVertices, which would renumber vertices, and no
 * aiProcess_PreTransformVertices, which would bake the root rotation in), and with its automatic
 * loading of a same-named .md5anim beside a mesh turned off, so each import reads one file.
 *
 * Undoing assimp's conventions (assimp 5.x, code/AssetLib/MD5/MD5Loader.cpp):
 *  - The scene root node carries a Z-up -> Y-up rotation. Mesh vertices are stored in the
 *    file's model space (the rotation is only a node transform), and the joint chains below
 *    are composed here starting from identity, so the rotation never enters.
 *  - Faces are reversed to counter-clockwise (corners 0 and 2 swapped) and vertices are made
 *    unique per face corner (MakeDataUnique): assimp face c, corner k is md5 triangle c,
 *    corner 2 - k. Texture t becomes 1 - t.
 *  - Quaternions get w = -sqrt(1 - x^2 - y^2 - z^2) and are used as Hamilton rotations of
 *    column vectors. The Hamilton matrix of (x, y, z, -w) is the transpose of Doom's ToMat3 of
 *    (x, y, z, w), so assimp's R p equals Doom's p * M: positions compare directly and a global
 *    rotation R compares with our axis transposed. Where 1 - x^2 - y^2 - z^2 < 0 (rounding in
 *    the file) assimp takes w = 0 while Doom takes sqrt(|...|): banner.md5mesh's joint "1" has
 *    -7e-8 there, so w = 3.5e-4 against 0, which moves vertices by about 1.3e-3 (more than the
 *    tolerance). For mesh joints this test gives our skinning assimp's w = 0 as input, and
 *    checks separately that Doom's rule really differs there.
 *  - Anim keys are one per stored frame, in parent space (translation then rotation: local =
 *    T * R), with no root rebasing (like ours). Global = parent global * local, down assimp's
 *    own node tree, which it builds from the anim's hierarchy by parent index.
 *  - Elements are placed by the index written on each vert/tri/weight line instead of by file
 *    order; the files used here number them in order, so both agree.
 * Assets assimp cannot read are left out: zapper/mesh.md5mesh and plasma/plasma-reload.md5anim
 * lack the MD5Version line, which assimp requires to recognise the format (its CanRead looks
 * for that token). The assimp-invalid files are invalid on purpose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <md5cine/mathx.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "test.h"

#define A "data/assets/"

static const struct aiScene *import(const char *path)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    /* load exactly this file: no sibling .md5anim for a mesh */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, 1);
    const struct aiScene *sc = aiImportFileExWithProperties(path, 0, NULL, props);
    aiReleasePropertyStore(props);
    if (!sc)
        test_fail(__FILE__, __LINE__, "assimp cannot read %s: %s", path, aiGetErrorString());
    return sc;
}

static bool load_mesh(const char *path, mc_mesh *mesh)
{
    mc_parse_opts opts = { true, NULL, NULL };
    mc_error err;
    if (mc_mesh_load(path, &opts, mesh, &err) != MC_OK)
        return test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col,
                         err.msg);
    return true;
}

/* Diagonal of the bind-pose bounding box of every vertex; at least 1. */
static double model_size(const mc_mesh *mesh)
{
    mc_vec3 lo = { 1e30f, 1e30f, 1e30f }, hi = { -1e30f, -1e30f, -1e30f };
    for (int s = 0; s < mesh->num_meshes; s++) {
        int n = mesh->meshes[s].num_verts;
        mc_vec3 *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
        mc_skin_bind_positions(mesh, s, p);
        for (int v = 0; v < n; v++) {
            lo = mc_v3(fminf(lo.x, p[v].x), fminf(lo.y, p[v].y), fminf(lo.z, p[v].z));
            hi = mc_v3(fmaxf(hi.x, p[v].x), fmaxf(hi.y, p[v].y), fmaxf(hi.z, p[v].z));
        }
        free(p);
    }
    double d = (double)mc_v3_len(mc_v3_sub(hi, lo));
    return d > 1.0 ? d : 1.0;
}

/* Compares one md5 submesh with one assimp mesh, corner by corner. Returns the worst error. */
static double compare_submesh(const mc_mesh *mesh, int s, const struct aiMesh *am, double tol,
                              const char *path)
{
    const mc_submesh *sm = &mesh->meshes[s];
    mc_vec3 *p = malloc((size_t)sm->num_verts * sizeof *p);
    mc_skin_bind_positions(mesh, s, p);
    double worst = 0.0;
    EXPECT_EQ_INT(am->mNumFaces, sm->num_tris);
    for (int c = 0; c < sm->num_tris && c < (int)am->mNumFaces; c++) {
        for (int k = 0; k < 3; k++) {
            int v = sm->tris[c].v[2 - k];
            unsigned ai = am->mFaces[c].mIndices[k];
            struct aiVector3D q = am->mVertices[ai];
            double e = fmax(fabs((double)(q.x - p[v].x)),
                            fmax(fabs((double)(q.y - p[v].y)), fabs((double)(q.z - p[v].z))));
            worst = fmax(worst, e);
            if (e > tol)
                test_fail(__FILE__, __LINE__,
                          "%s mesh %d tri %d corner %d: ours (%g %g %g) assimp (%g %g %g)",
                          path, s, c, 2 - k, (double)p[v].x, (double)p[v].y, (double)p[v].z,
                          (double)q.x, (double)q.y, (double)q.z);
            struct aiVector3D uv = am->mTextureCoords[0][ai];
            EXPECT_NEAR(uv.y, 1.0f - sm->verts[v].st.y, 1e-6);
            EXPECT_NEAR(uv.x, sm->verts[v].st.x, 1e-6);
        }
    }
    free(p);
    return worst;
}

/* Sets w = 0 where 1 - |xyz|^2 < 0, as assimp does; returns how many joints changed. */
static int use_assimp_w(mc_mesh *mesh)
{
    int changed = 0;
    for (int i = 0; i < mesh->num_joints; i++) {
        mc_quat *q = &mesh->joints[i].rot;
        if (1.0f - (q->x * q->x + q->y * q->y + q->z * q->z) < 0.0f) {
            q->w = 0.0f;
            changed++;
        }
    }
    return changed;
}

static void check_bind_pose(const char *path)
{
    mc_mesh mesh;
    if (!load_mesh(path, &mesh))
        return;
    int changed = use_assimp_w(&mesh);
    if (changed)
        printf("     %s: %d joints with 1 - |xyz|^2 < 0 get assimp's w = 0\n", path, changed);
    const struct aiScene *sc = import(path);
    if (sc) {
        double tol = 1e-4 * model_size(&mesh), worst = 0.0;
        unsigned m = 0;
        for (int s = 0; s < mesh.num_meshes; s++) {
            if (mesh.meshes[s].num_tris == 0 || mesh.meshes[s].num_verts == 0)
                continue; /* assimp drops empty submeshes */
            if (!EXPECT(m < sc->mNumMeshes))
                break;
            worst = fmax(worst, compare_submesh(&mesh, s, sc->mMeshes[m++], tol, path));
        }
        EXPECT_EQ_INT(m, sc->mNumMeshes);
        printf("     %s: bind pose, %u meshes, worst %.3g (tolerance %.3g)\n", path, m, worst,
               tol);
        aiReleaseImport(sc);
    }
    mc_mesh_release(&mesh);
}

/* ---------------------------------------------------------------- anims */

typedef struct rigid {
    double r[3][3]; /* column-vector rotation */
    double t[3];
} rigid;

/* Hamilton rotation matrix of (w, x, y, z) for column vectors. */
static void hamilton_matrix(struct aiQuaternion q, double r[3][3])
{
    double w = (double)q.w, x = (double)q.x, y = (double)q.y, z = (double)q.z;
    r[0][0] = 1 - 2 * (y * y + z * z);
    r[0][1] = 2 * (x * y - w * z);
    r[0][2] = 2 * (x * z + w * y);
    r[1][0] = 2 * (x * y + w * z);
    r[1][1] = 1 - 2 * (x * x + z * z);
    r[1][2] = 2 * (y * z - w * x);
    r[2][0] = 2 * (x * z - w * y);
    r[2][1] = 2 * (y * z + w * x);
    r[2][2] = 1 - 2 * (x * x + y * y);
}

/* g = parent * local (apply local first, column vectors). */
static rigid compose(const rigid *parent, const rigid *local)
{
    rigid g;
    for (int i = 0; i < 3; i++) {
        g.t[i] = parent->t[i];
        for (int j = 0; j < 3; j++) {
            g.r[i][j] = 0.0;
            for (int k = 0; k < 3; k++)
                g.r[i][j] += parent->r[i][k] * local->r[k][j];
            g.t[i] += parent->r[i][j] * local->t[j];
        }
    }
    return g;
}

static const struct aiNodeAnim *channel(const struct aiAnimation *an, const char *name)
{
    for (unsigned i = 0; i < an->mNumChannels; i++)
        if (strcmp(an->mChannels[i]->mNodeName.data, name) == 0)
            return an->mChannels[i];
    return NULL;
}

typedef struct anim_cmp {
    const struct aiAnimation *an;
    unsigned frame;
    const mc_mesh *mesh;
    const mc_joint_xform *ours; /* mesh joints, model space */
    double tol, worst;
    const char *path;
    int compared;
} anim_cmp;

static int mesh_joint(const mc_mesh *mesh, const char *name)
{
    for (int i = 0; i < mesh->num_joints; i++)
        if (strcmp(mesh->joints[i].name, name) == 0)
            return i;
    return -1;
}

static void compare_joint(anim_cmp *c, const char *name, const rigid *g)
{
    int i = mesh_joint(c->mesh, name);
    if (i < 0)
        return; /* an anim joint the mesh does not use */
    const mc_joint_xform *o = &c->ours[i];
    double e = fmax(fabs(g->t[0] - (double)o->pos.x),
                    fmax(fabs(g->t[1] - (double)o->pos.y), fabs(g->t[2] - (double)o->pos.z)));
    double er = 0.0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            er = fmax(er, fabs(g->r[r][k] - (double)o->axis.m[k][r]));
    c->worst = fmax(c->worst, e);
    c->compared++;
    if (e > c->tol || er > 1e-4)
        test_fail(__FILE__, __LINE__,
                  "%s frame %u joint '%s': ours (%g %g %g) assimp (%g %g %g), axis error %g",
                  c->path, c->frame, name, (double)o->pos.x, (double)o->pos.y,
                  (double)o->pos.z, g->t[0], g->t[1], g->t[2], er);
}

/* Walks assimp's node tree from parent global g. */
static void walk(anim_cmp *c, const struct aiNode *node, const rigid *g)
{
    for (unsigned i = 0; i < node->mNumChildren; i++) {
        const struct aiNode *child = node->mChildren[i];
        const struct aiNodeAnim *ch = channel(c->an, child->mName.data);
        if (!ch || c->frame >= ch->mNumPositionKeys || c->frame >= ch->mNumRotationKeys) {
            test_fail(__FILE__, __LINE__, "%s: no key %u for '%s'", c->path, c->frame,
                      child->mName.data);
            continue;
        }
        rigid local;
        hamilton_matrix(ch->mRotationKeys[c->frame].mValue, local.r);
        struct aiVector3D t = ch->mPositionKeys[c->frame].mValue;
        local.t[0] = (double)t.x;
        local.t[1] = (double)t.y;
        local.t[2] = (double)t.z;
        rigid cg = compose(g, &local);
        compare_joint(c, child->mName.data, &cg);
        walk(c, child, &cg);
    }
}

static void check_anim(const char *mesh_path, const char *anim_path)
{
    mc_mesh mesh;
    mc_anim anim;
    mc_parse_opts opts = { true, NULL, NULL };
    mc_error err;
    if (!load_mesh(mesh_path, &mesh))
        return;
    if (mc_anim_load(anim_path, &opts, &anim, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
        mc_mesh_release(&mesh);
        return;
    }
    const struct aiScene *sc = import(anim_path);
    int *map = malloc((size_t)mesh.num_joints * sizeof *map);
    mc_joint_xform *ours = malloc((size_t)mesh.num_joints * sizeof *ours);
    if (sc && EXPECT(sc->mNumAnimations == 1) &&
        EXPECT(mc_pose_map_anim(&mesh, &anim, map, &err) == MC_OK)) {
        anim_cmp c = { sc->mAnimations[0], 0, &mesh, ours, 1e-4 * model_size(&mesh), 0.0,
                       anim_path, 0 };
        EXPECT_NEAR(c.an->mTicksPerSecond, anim.frame_rate, 0.0);
        rigid id = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, { 0, 0, 0 } };
        for (int f = 0; f < anim.num_frames; f++) {
            mc_anim_frame_pos fp = { f, f, 0.0f };
            mc_pose_sample_frames(&mesh, &anim, map, &fp, false, ours);
            c.frame = (unsigned)f;
            walk(&c, sc->mRootNode, &id);
        }
        EXPECT_EQ_INT(c.compared, anim.num_frames * mesh.num_joints);
        printf("     %s: %d frames x %d joints, worst %.3g (tolerance %.3g)\n", anim_path,
               anim.num_frames, mesh.num_joints, c.worst, c.tol);
    }
    if (sc)
        aiReleaseImport(sc);
    free(map);
    free(ours);
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
}

TEST(simplecube_bind_pose_agrees)
{
    check_bind_pose(A "assimp-simplecube/SimpleCube.md5mesh");
}

TEST(drone_bind_pose_agrees)
{
    check_bind_pose(A "redeclipse-drone/mesh.md5mesh");
}

TEST(ffflag_bind_pose_agrees)
{
    check_bind_pose(A "cube2-ffflag/ffflag.md5mesh");
}

TEST(banner_joint_1_has_a_doom_w_that_assimp_clamps)
{
    /* "1" -1 ( ... ) ( 0.000026 0.704783 -0.709423 ): 1 - |xyz|^2 = -7.07e-8 exactly; in
     * float, as Doom computes it, the sum of squares rounds to 1 + 2^-23, so
     * w = sqrt(2^-23) = 3.4527e-4 (assimp: 0) */
    mc_mesh mesh;
    if (!load_mesh(A "redeclipse-props/luckystrike-banner01/banner.md5mesh", &mesh))
        return;
    EXPECT_EQ_STR(mesh.joints[0].name, "1");
    EXPECT_NEAR(mesh.joints[0].rot.w, 3.4527e-4, 1e-7);
    EXPECT_EQ_INT(use_assimp_w(&mesh), 1);
    mc_mesh_release(&mesh);
}

TEST(props_bind_poses_agree)
{
    check_bind_pose(A "redeclipse-props/luckystrike-door1/mesh.md5mesh");
    check_bind_pose(A "redeclipse-props/luckystrike-banner01/banner.md5mesh");
    check_bind_pose(A "redeclipse-props/jojo-teamalpha/mesh.md5mesh");
}

TEST(weapon_bind_poses_agree)
{
    check_bind_pose(A "redeclipse-quirks/plasma/plasma.md5mesh");
    check_bind_pose(A "redeclipse-quirks/grenade/grenade.md5mesh");
    check_bind_pose(A "redeclipse-quirks/cartridge/mesh.md5mesh");
}

#define DRONE A "redeclipse-drone/"

TEST(drone_anims_agree_at_every_frame)
{
    static const char *const anims[] = { "forward", "attack1", "death", "idle", "climb",
                                         "sword-attack1", "frag_throw" };
    for (size_t i = 0; i < sizeof anims / sizeof anims[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, DRONE "%s.md5anim", anims[i]);
        check_anim(DRONE "mesh.md5mesh", path);
    }
}

TEST(ffflag_partial_flags_agree_at_every_frame)
{
    check_anim(A "cube2-ffflag/ffflag.md5mesh", A "cube2-ffflag/ffflag.md5anim");
}

TEST(prop_anims_agree_at_every_frame)
{
    const char *door = A "redeclipse-props/luckystrike-door1/";
    char m[256], a[256];
    static const char *const anims[] = { "open", "close", "idle" };
    snprintf(m, sizeof m, "%smesh.md5mesh", door);
    for (size_t i = 0; i < 3; i++) {
        snprintf(a, sizeof a, "%s%s.md5anim", door, anims[i]);
        check_anim(m, a);
    }
    check_anim(A "redeclipse-props/luckystrike-banner01/banner.md5mesh",
               A "redeclipse-props/luckystrike-banner01/banner.md5anim");
}

TEST(weapon_anims_agree_at_every_frame)
{
    /* grenade anims have two roots (accepted with lenient reading); zapper's mesh has no
     * MD5Version but only its anims go through assimp */
    check_anim(A "redeclipse-quirks/grenade/grenade.md5mesh",
               A "redeclipse-quirks/grenade/grenade-shoot.md5anim");
    check_anim(A "redeclipse-quirks/zapper/mesh.md5mesh",
               A "redeclipse-quirks/zapper/reload.md5anim");
    check_anim(A "redeclipse-quirks/zapper/mesh.md5mesh",
               A "redeclipse-quirks/zapper/shoot.md5anim");
}
