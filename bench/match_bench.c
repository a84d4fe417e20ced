/* Joint matching speed: mc_pose_map_anim for a generated mesh and anim of N joints (default
 * 65536, the format's limit), names "joint00000".., each joint's parent the one before it. Three
 * anims: the mesh's joints in the same order, in the reverse order (parents given by name, so
 * the mapping is the same), and the same order behind N extra joints the mesh does not use.
 * Prints milliseconds per match (best of a few runs).
 *
 * usage: match_bench [N]
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

static void bench_match(const char *label, const mc_mesh *mesh, const mc_anim *anim, int *map)
{
    double best = 1e30;
    int runs = 0;
    mc_error err;
    for (double spent = 0.0; runs < 5 && (runs == 0 || spent < 10.0); runs++) {
        double t0 = now_s();
        mc_status st = mc_pose_map_anim(mesh, anim, map, &err);
        double dt = now_s() - t0;
        if (st != MC_OK) {
            printf("%-34s failed: %s\n", label, err.msg);
            return;
        }
        best = dt < best ? dt : best;
        spent += dt;
    }
    printf("%-34s %6d mesh joints %7d anim joints %10.3f ms (best of %d)\n", label,
           mesh->num_joints, anim->num_joints, best * 1e3, runs);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long arg = argc > 1 ? strtol(argv[1], &end, 10) : 65536;
    if ((end && *end != '\0') || arg < 1 || arg > (1 << 20)) {
        fprintf(stderr, "match_bench: N must be 1..%d\n", 1 << 20);
        return 2;
    }
    int n = (int)arg;
    size_t un = (size_t)n;
    char (*names)[16] = malloc(2 * un * sizeof *names);
    mc_mesh_joint *mj = malloc(un * sizeof *mj);
    mc_anim_joint *aj = malloc(2 * un * sizeof *aj);
    int *map = malloc(un * sizeof *map);
    if (!names || !mj || !aj || !map) {
        fprintf(stderr, "match_bench: out of memory\n");
        return 3;
    }
    for (int i = 0; i < 2 * n; i++)
        snprintf(names[i], sizeof names[i], "%s%05d", i < n ? "joint" : "extra", i % n);
    for (int i = 0; i < n; i++)
        mj[i] = (mc_mesh_joint){ names[i], i - 1, { 0, 0, 0 }, mc_quat_identity(), i + 1, 1 };
    mc_mesh mesh = { 0 };
    mesh.name = "generated.md5mesh";
    mesh.num_joints = n;
    mesh.joints = mj;
    mc_anim anim = { 0 };
    anim.name = "generated.md5anim";
    anim.num_frames = 1;
    anim.frame_rate = 24;
    anim.joints = aj;

    anim.num_joints = n;
    for (int i = 0; i < n; i++)
        aj[i] = (mc_anim_joint){ names[i], i - 1, 0, 0, i + 1, 1 };
    bench_match("same order", &mesh, &anim, map);

    /* anim joint k is mesh joint n - 1 - k; its parent (mesh joint i - 1) is anim k + 1 */
    for (int k = 0; k < n; k++)
        aj[k] = (mc_anim_joint){ names[n - 1 - k], k == n - 1 ? -1 : k + 1, 0, 0, k + 1, 1 };
    bench_match("reverse order", &mesh, &anim, map);

    anim.num_joints = 2 * n;
    for (int k = 0; k < n; k++)
        aj[k] = (mc_anim_joint){ names[n + k], k - 1, 0, 0, k + 1, 1 };
    for (int i = 0; i < n; i++)
        aj[n + i] = (mc_anim_joint){ names[i], i == 0 ? -1 : n + i - 1, 0, 0, n + i + 1, 1 };
    bench_match("behind as many extra joints", &mesh, &anim, map);

    free(names);
    free(mj);
    free(aj);
    free(map);
    return 0;
}
