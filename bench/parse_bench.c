/* Parser throughput and memory: generates a large md5anim (200 joints x 2000 frames, flags 63,
 * 1200 values per frame) and a large md5mesh (64 joints, 4 meshes of 50000 vertices, 100000
 * triangles and 100000 weights) in memory, parses each several times and prints the median
 * throughput in MB/s, the arena's reserved bytes relative to the text size, and the growth of
 * the process's peak resident size (getrusage ru_maxrss, its peak reset through
 * /proc/self/clear_refs before the first parse) during the first parse.
 *
 *   cmake --build build --target parse_bench && build/bench/parse_bench [runs]
 *
 * Figures only; nothing is asserted. Use a build without sanitizers (RelWithDebInfo). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>

#include "bench_util.h"

typedef struct text {
    char *buf;
    size_t len;
    FILE *f;
} text;

/* Values in [-100, 100) from a small linear congruential generator. */
static float next_value(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / (float)(1u << 24) * 200.0f - 100.0f;
}

static void make_anim(text *t, int joints, int frames)
{
    uint32_t rng = 1;
    int comps = joints * 6;

    t->f = open_memstream(&t->buf, &t->len);
    fprintf(t->f, "MD5Version 10\ncommandline \"bench\"\n\nnumFrames %d\nnumJoints %d\n"
                  "frameRate 24\nnumAnimatedComponents %d\n\nhierarchy {\n",
            frames, joints, comps);
    for (int j = 0; j < joints; j++)
        fprintf(t->f, "\t\"joint%d\"\t%d 63 %d\t//\n", j, j - 1, j * 6);
    fprintf(t->f, "}\n\nbounds {\n");
    for (int k = 0; k < frames; k++)
        fprintf(t->f, "\t( -10.000000 -10.000000 0.000000 ) ( 10.000000 10.000000 70.000000 )\n");
    fprintf(t->f, "}\n\nbaseframe {\n");
    for (int j = 0; j < joints; j++)
        fprintf(t->f, "\t( 0.000000 0.000000 1.000000 ) ( 0.000000 0.000000 0.000000 )\n");
    fprintf(t->f, "}\n");
    for (int k = 0; k < frames; k++) {
        fprintf(t->f, "\nframe %d {\n", k);
        for (int i = 0; i < comps; i++)
            fprintf(t->f, i % 6 == 0 ? "\t%f" : i % 6 == 5 ? " %f\n" : " %f",
                    (double)(i % 6 >= 3 ? next_value(&rng) / 200.0f : next_value(&rng)));
        fprintf(t->f, "}\n");
    }
    fclose(t->f);
}

static void make_mesh(text *t, int joints, int meshes, int verts)
{
    uint32_t rng = 2;

    t->f = open_memstream(&t->buf, &t->len);
    fprintf(t->f, "MD5Version 10\ncommandline \"bench\"\n\nnumJoints %d\nnumMeshes %d\n\n"
                  "joints {\n",
            joints, meshes);
    for (int j = 0; j < joints; j++)
        fprintf(t->f, "\t\"joint%d\"\t%d ( %f %f %f ) ( 0.000000 0.000000 0.000000 )\n", j, j - 1,
                (double)next_value(&rng), (double)next_value(&rng), (double)next_value(&rng));
    fprintf(t->f, "}\n");
    for (int m = 0; m < meshes; m++) {
        fprintf(t->f, "\nmesh {\n\tshader \"models/bench/skin%d\"\n\n\tnumverts %d\n", m, verts);
        for (int v = 0; v < verts; v++)
            fprintf(t->f, "\tvert %d ( %f %f ) %d 2\n", v, (double)next_value(&rng) / 100.0,
                    (double)next_value(&rng) / 100.0, v * 2);
        fprintf(t->f, "\n\tnumtris %d\n", verts * 2);
        for (int i = 0; i < verts * 2; i++)
            fprintf(t->f, "\ttri %d %d %d %d\n", i, (i * 7) % verts, (i * 13 + 1) % verts,
                    (i * 31 + 2) % verts);
        fprintf(t->f, "\n\tnumweights %d\n", verts * 2);
        for (int i = 0; i < verts * 2; i++)
            fprintf(t->f, "\tweight %d %d 0.500000 ( %f %f %f )\n", i, i % joints,
                    (double)next_value(&rng), (double)next_value(&rng), (double)next_value(&rng));
        fprintf(t->f, "}\n");
    }
    fclose(t->f);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long maxrss_kib(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Linux (>= 4.0): resets the peak resident size to the current one, so that ru_maxrss after a
 * parse shows that parse's peak and not the text generation's. false where not available. */
static bool reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    bool ok;

    if (!f)
        return false;
    ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

/* Parses t `runs` times with parse_one; prints the median rate and the memory figures. */
static int measure(const char *what, const text *t, int runs,
                   mc_status (*parse_one)(const text *t, size_t *reserved, mc_error *err))
{
    double secs[64];
    size_t reserved = 0;
    bool reset = reset_peak_rss();
    long rss0 = maxrss_kib(), rss1 = 0;
    mc_error err;

    for (int r = 0; r < runs; r++) {
        double t0 = now_s();
        mc_status s = parse_one(t, &reserved, &err);

        secs[r] = now_s() - t0;
        if (r == 0)
            rss1 = maxrss_kib();
        if (s != MC_OK) {
            fprintf(stderr, "%s: %d:%d: %s\n", what, err.line, err.col, err.msg);
            return 1;
        }
    }
    qsort(secs, (size_t)runs, sizeof secs[0], bench_cmp_double);
    printf("%-8s %8.1f MB text  median %7.3f s  %7.1f MB/s  arena reserved %.2f x text  "
           "peak RSS +%.1f MB (%.2f x text)\n",
           what, (double)t->len / 1e6, secs[runs / 2], (double)t->len / 1e6 / secs[runs / 2],
           (double)reserved / (double)t->len, (double)(rss1 - rss0) / 1024.0,
           (double)(rss1 - rss0) * 1024.0 / (double)t->len);
    if (!reset)
        printf("         (peak RSS could not be reset: the RSS figure includes earlier peaks)\n");
    return 0;
}

static mc_status parse_anim(const text *t, size_t *reserved, mc_error *err)
{
    mc_anim a;
    mc_status s = mc_anim_parse(t->buf, t->len, "bench.md5anim", NULL, &a, err);

    if (s == MC_OK) {
        *reserved = a.arena.reserved;
        mc_anim_release(&a);
    }
    return s;
}

static mc_status parse_mesh(const text *t, size_t *reserved, mc_error *err)
{
    mc_mesh m;
    mc_status s = mc_mesh_parse(t->buf, t->len, "bench.md5mesh", NULL, &m, err);

    if (s == MC_OK) {
        *reserved = m.arena.reserved;
        mc_mesh_release(&m);
    }
    return s;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 5;
    text anim, mesh;
    int rc = 0;

    if (runs < 1 || runs > 64)
        runs = 5;
    make_anim(&anim, 200, 2000);
    make_mesh(&mesh, 64, 4, 50000);
    rc |= measure("md5anim", &anim, runs, parse_anim);
    rc |= measure("md5mesh", &mesh, runs, parse_mesh);
    free(anim.buf);
    free(mesh.buf);
    return rc;
}
