/* Skinning and anim sampling speed: skinned vertices per second (positions, and positions plus
 * normals) for the largest shared mesh and for a generated 100k-vertex mesh with 4 weights per
 * vertex, and the cost of sampling an anim into model-space joints.
 *
 * usage: skin_bench [ASSETS]   (ASSETS defaults to tests/data/assets, run from the source root)
 * Figures only: nothing is asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <md5cine/mathx.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Skins every submesh `iters` times, with or without normals; prints vertices per second. */
static void bench_skin(const char *label, const mc_mesh *mesh, const mc_joint_xform *joints,
                       int iters)
{
    int most = 1;
    long total = 0;
    for (int s = 0; s < mesh->num_meshes; s++) {
        if (mesh->meshes[s].num_verts > most)
            most = mesh->meshes[s].num_verts;
        total += mesh->meshes[s].num_verts;
    }
    mc_vec3 *p = malloc((size_t)most * sizeof *p), *n = malloc((size_t)most * sizeof *n);
    size_t num_meshes = mesh->num_meshes > 0 ? (size_t)mesh->num_meshes : 1;
    mc_skin_topology *topo = calloc(num_meshes, sizeof *topo);
    for (int s = 0; s < mesh->num_meshes; s++)
        mc_skin_topology_build(mesh, s, MC_SKIN_CREASE_DEGREES, &topo[s], NULL);
    for (int normals = 0; normals < 2; normals++) {
        double t0 = now_s();
        for (int i = 0; i < iters; i++)
            for (int s = 0; s < mesh->num_meshes; s++) {
                mc_skin_positions(&mesh->meshes[s], joints, p);
                if (normals)
                    mc_skin_normals(&mesh->meshes[s], &topo[s], p, n);
            }
        double dt = now_s() - t0;
        printf("%-28s %-18s %8ld verts  %10.1f M verts/s  %8.3f ms/frame\n", label,
               normals ? "positions+normals" : "positions", total,
               (double)total * iters / dt * 1e-6, dt / iters * 1e3);
    }
    for (int s = 0; s < mesh->num_meshes; s++)
        mc_skin_topology_release(&topo[s]);
    free(topo);
    free(p);
    free(n);
}

static void bench_sampling(const char *label, const mc_mesh *mesh, const mc_anim *anim,
                           const int *map, mc_joint_xform *joints, int iters)
{
    mc_pose_opts opts = { true, false };
    double t0 = now_s();
    for (int i = 0; i < iters; i++)
        mc_pose_sample(mesh, anim, map, (double)i * 0.0137, &opts, joints);
    double dt = now_s() - t0;
    printf("%-28s %-18s %8d joints %10.2f us/sample\n", label, "anim sample", mesh->num_joints,
           dt / iters * 1e6);
}

static void bench_asset(const char *dir)
{
    char mp[512], ap[512];
    snprintf(mp, sizeof mp, "%s/redeclipse-quirks/zapper/mesh.md5mesh", dir);
    snprintf(ap, sizeof ap, "%s/redeclipse-quirks/zapper/reload.md5anim", dir);
    mc_parse_opts opts = { true, NULL, NULL };
    mc_mesh mesh;
    mc_anim anim;
    mc_error err;
    if (mc_mesh_load(mp, &opts, &mesh, &err) != MC_OK) {
        printf("skipping the shared asset: %s: %s\n", err.file, err.msg);
        return;
    }
    if (mc_anim_load(ap, &opts, &anim, &err) != MC_OK) {
        printf("skipping the shared asset: %s: %s\n", err.file, err.msg);
        mc_mesh_release(&mesh);
        return;
    }
    int *map = malloc((size_t)mesh.num_joints * sizeof *map);
    mc_joint_xform *j = malloc((size_t)mesh.num_joints * sizeof *j);
    if (mc_pose_map_anim(&mesh, &anim, map, &err) == MC_OK) {
        mc_pose_sample(&mesh, &anim, map, 0.3, NULL, j);
        bench_skin("zapper (reload, t=0.3)", &mesh, j, 2000);
        bench_sampling("zapper reload", &mesh, &anim, map, j, 200000);
    }
    free(map);
    free(j);
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
}

/* A 317 x 317 grid (100489 vertices) bent over 64 chained joints, 4 weights per vertex, and an
 * anim animating all six components of every joint. */
#define GRID 317
#define JOINTS 64

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffu;
}

/* Fills sm with the grid: 4 weights per vertex on random joints, two triangles per cell. */
static void make_grid(mc_submesh *sm, unsigned *seed)
{
    int nv = GRID * GRID, nt = 2 * (GRID - 1) * (GRID - 1);
    memset(sm, 0, sizeof *sm);
    sm->shader = "";
    sm->num_verts = nv;
    sm->verts = malloc((size_t)nv * sizeof *sm->verts);
    sm->num_weights = 4 * nv;
    sm->weights = malloc((size_t)sm->num_weights * sizeof *sm->weights);
    sm->num_tris = nt;
    sm->tris = malloc((size_t)nt * sizeof *sm->tris);
    for (int v = 0; v < nv; v++) {
        sm->verts[v] = (mc_vert){ { 0, 0 }, 4 * v, 4 };
        for (int k = 0; k < 4; k++)
            sm->weights[4 * v + k] = (mc_weight){ (int)(next_rand(seed) % JOINTS), 0.25f,
                                                  { (float)(v % GRID), (float)(v / GRID), 0 } };
    }
    int t = 0;
    for (int y = 0; y + 1 < GRID; y++)
        for (int x = 0; x + 1 < GRID; x++) {
            int a = y * GRID + x;
            sm->tris[t++] = (mc_tri){ { a, a + GRID, a + 1 } };
            sm->tris[t++] = (mc_tri){ { a + 1, a + GRID, a + GRID + 1 } };
        }
}

static void bench_generated(void)
{
    char names[JOINTS][16];
    mc_mesh_joint mj[JOINTS];
    mc_anim_joint aj[JOINTS];
    mc_vec3 bp[JOINTS];
    mc_quat br[JOINTS];
    int map[JOINTS];
    mc_joint_xform jx[JOINTS];
    unsigned seed = 7;
    for (int i = 0; i < JOINTS; i++) {
        snprintf(names[i], sizeof names[i], "j%d", i);
        mc_quat q = mc_quat_from_xyz(0.0f, 0.02f * (float)(i % 5), 0.01f);
        mj[i] = (mc_mesh_joint){ names[i], i - 1, { (float)i, 0, 0 }, q, 1, 1 };
        aj[i] = (mc_anim_joint){ names[i], i - 1, 63, 6 * i, 1, 1 };
        bp[i] = mc_v3(1, 0, 0);
        br[i] = mc_quat_identity();
    }
    mc_submesh sm;
    make_grid(&sm, &seed);
    mc_mesh mesh = { 0 };
    mesh.name = "generated";
    mesh.num_joints = JOINTS;
    mesh.joints = mj;
    mesh.num_meshes = 1;
    mesh.meshes = &sm;
    int frames = 30, comps = 6 * JOINTS;
    float *fv = malloc((size_t)(frames * comps) * sizeof *fv);
    for (int i = 0; i < frames * comps; i++)
        fv[i] = (float)next_rand(&seed) / 65536.0f * 0.2f;
    mc_anim anim = { 0 };
    anim.name = "generated";
    anim.num_frames = frames;
    anim.frame_rate = 24;
    anim.num_joints = JOINTS;
    anim.num_components = comps;
    anim.joints = aj;
    anim.base_pos = bp;
    anim.base_rot = br;
    anim.frames = fv;
    if (mc_pose_map_anim(&mesh, &anim, map, NULL) == MC_OK) {
        mc_pose_sample(&mesh, &anim, map, 0.51, NULL, jx);
        bench_skin("generated 100k x 4 weights", &mesh, jx, 40);
        bench_sampling("generated 64 joints x 6", &mesh, &anim, map, jx, 100000);
    }
    free(fv);
    free(sm.verts);
    free(sm.weights);
    free(sm.tris);
}

int main(int argc, char **argv)
{
    bench_asset(argc > 1 ? argv[1] : "tests/data/assets");
    bench_generated();
    return 0;
}
