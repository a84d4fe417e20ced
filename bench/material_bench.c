/* Material loading figures: builds a base folder in a scratch directory -- pak000.pk4 with
 * 13000 small entries (the size of Doom 3's pak000), a materials/bench.mtr of 2000 declarations
 * and the imp's four 1024x1024 images (TGA: diffuse and local 32-bit, height and specular
 * 8-bit grey) -- then prints the median time over the runs of:
 *
 *   index      mc_vfs_open (walk the folder, read the archive's directory)
 *   declare    mc_material_set_load (read and index every .mtr)
 *   resolve    mc_material_resolve of the imp: four TGA reads and decodes from the archive,
 *              heightmap(imp_h, 4) and addnormals on 1024x1024
 *   heightmap  mc_imgprog_eval of heightmap(imp_h, 4) alone
 *
 * and, on a second base of 1,000 materials in 50 .mtr files (pak000.pk4, each material with a
 * diffuse and a bump map of 4x4 TGAs), the materials' share of the time to first frame of a
 * scene using 3 of them: open + index (mc_vfs_open, mc_material_set_load) and first use (the 3
 * mc_material_set_find), beside the time a parse of every declaration takes (what loading cost
 * before declarations were parsed on use), and the count of declarations parsed.
 *
 *   cmake --build build --target material_bench && build/bench/material_bench [runs] [dir]
 *
 * Figures only; nothing is asserted. Use a build without sanitizers (RelWithDebInfo). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zip.h>

#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/vfs.h>

#define SIDE 1024

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* A TGA of SIDE x SIDE: 32-bit BGRA (grey false) or 8-bit grey, from a xorshift pattern. */
static uint8_t *make_tga(int bpp, size_t *len)
{
    size_t n = (size_t)SIDE * SIDE * (size_t)(bpp / 8);
    uint8_t *t = malloc(18 + n);
    uint32_t x = 2463534242u;

    memset(t, 0, 18);
    t[2] = bpp == 8 ? 3 : 2;
    t[12] = SIDE & 255;
    t[13] = SIDE >> 8;
    t[14] = SIDE & 255;
    t[15] = SIDE >> 8;
    t[16] = (uint8_t)bpp;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        t[18 + i] = (uint8_t)(x >> 24);
    }
    *len = 18 + n;
    return t;
}

static void add(zip_t *z, const char *name, void *data, size_t len)
{
    zip_source_t *s = zip_source_buffer(z, data, len, 1);

    if (!s || zip_file_add(z, name, s, 0) < 0) {
        fprintf(stderr, "cannot add %s\n", name);
        exit(1);
    }
}

static void build(const char *dir)
{
    char path[1024], name[128];
    int code;
    zip_t *z;
    size_t len;
    char *mtr;
    FILE *f;

    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/pak000.pk4", dir);
    z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(1);
    }
    for (int i = 0; i < 13000; i++) {
        char *txt = malloc(64);

        snprintf(name, sizeof name, "sound/bench/f%05d.ogg", i);
        snprintf(txt, 64, "entry %d", i);
        add(z, name, txt, strlen(txt));
    }
    f = open_memstream(&mtr, &len);
    fprintf(f, "models/monsters/imp/imp {\n  qer_editorimage models/monsters/imp/imp_d\n"
               "  diffusemap models/monsters/imp/imp_d\n"
               "  bumpmap addnormals(models/monsters/imp/imp_local, "
               "heightmap(models/monsters/imp/imp_h, 4))\n"
               "  specularmap models/monsters/imp/imp_s\n}\n");
    for (int i = 0; i < 1999; i++)
        fprintf(f,
                "textures/bench/t%04d {\n  qer_editorimage textures/bench/t%04d\n"
                "  diffusemap textures/bench/t%04d_d\n  bumpmap textures/bench/t%04d_local\n"
                "  { blend add map textures/bench/t%04d_glow rgb 0.5 * parm0 }\n}\n",
                i, i, i, i, i);
    fclose(f);
    add(z, "materials/bench.mtr", mtr, len);
    {
        static const char *const names[] = { "imp_d", "imp_local", "imp_h", "imp_s" };

        for (int i = 0; i < 4; i++) {
            uint8_t *t = make_tga(i < 2 ? 32 : 8, &len);

            snprintf(name, sizeof name, "models/monsters/imp/%s.tga", names[i]);
            add(z, name, t, len);
        }
    }
    if (zip_close(z) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* The 1,000-material, 50-file base: materials/mNN.mtr, 20 declarations each. */
static void build_many(const char *dir)
{
    char path[1200], name[128];
    int code;
    zip_t *z;

    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/pak000.pk4", dir);
    z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(1);
    }
    for (int f = 0; f < 50; f++) {
        char *mtr;
        size_t len;
        FILE *m = open_memstream(&mtr, &len);

        for (int i = 0; i < 20; i++) {
            int k = f * 20 + i;

            fprintf(m,
                    "textures/many/t%04d\n{\n  qer_editorimage textures/many/t%04d\n"
                    "  diffusemap textures/many/t%04d_d\n  bumpmap addnormals(textures/many/"
                    "t%04d_local, heightmap(textures/many/t%04d_h, 3))\n"
                    "  { blend add map textures/many/t%04d_d rgb 0.5 }\n}\n",
                    k, k, k, k, k, k);
        }
        fclose(m);
        snprintf(name, sizeof name, "materials/m%02d.mtr", f);
        add(z, name, mtr, len);
    }
    for (int k = 0; k < 1000; k++) {
        static const char *const kinds[] = { "d", "local", "h" };

        for (int j = 0; j < 3; j++) {
            uint8_t *t = calloc(1, 18 + 64);

            t[2] = 2;
            t[12] = t[14] = 4;
            t[16] = 32;
            t[17] = 0x28;
            snprintf(name, sizeof name, "textures/many/t%04d_%s.tga", k, kinds[j]);
            add(z, name, t, 18 + 64);
        }
    }
    if (zip_close(z) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static void bench_many(const char *dir, int runs)
{
    static const char *const used[] = { "textures/many/t0007", "textures/many/t0512",
                                        "textures/many/t0999" };
    double t_open[64], t_use[64], t_all[64];
    int parsed = 0, declared = 0;
    mc_error err;

    build_many(dir);
    for (int r = 0; r < runs; r++) {
        mc_vfs *v;
        mc_material_set *set;
        mc_status st;
        char **names;
        int n;
        double t0 = now();

        if (mc_vfs_open(dir, &v, &err) != MC_OK || mc_material_set_load(v, NULL, &set, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        t_open[r] = now() - t0;
        t0 = now();
        for (int i = 0; i < 3; i++)
            if (!mc_material_set_find(set, used[i], &st, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                exit(1);
            }
        t_use[r] = now() - t0;
        parsed = mc_material_set_parsed(set);
        declared = mc_material_set_count(set);
        mc_material_set_destroy(set);
        /* Every declaration parsed: what an eager load costs. */
        t0 = now();
        if (mc_vfs_list(v, "materials", ".mtr", &names, &n, &err) != MC_OK)
            exit(1);
        for (int i = 0; i < n; i++) {
            uint8_t *data;
            size_t len;
            bool found;
            char where[1024];
            mc_mtr_file f;

            if (mc_vfs_read(v, names[i], &data, &len, &found, where, sizeof where, &err) ||
                mc_mtr_parse((const char *)data, len, where, NULL, &f, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                exit(1);
            }
            free(data);
            mc_mtr_release(&f);
        }
        free(names);
        t_all[r] = now() - t0;
        mc_vfs_destroy(v);
    }
    printf("many: 1000 materials in 50 .mtr files; a scene uses 3\n");
    printf("open+index %8.2f ms  (mc_vfs_open + mc_material_set_load)\n",
           median(t_open, runs) * 1e3);
    printf("first use  %8.2f ms  (3 materials parsed and resolved)\n", median(t_use, runs) * 1e3);
    printf("to frame   %8.2f ms  (materials' share of the time to first frame)\n",
           (median(t_open, runs) + median(t_use, runs)) * 1e3);
    printf("parse all  %8.2f ms  (every declaration parsed, for comparison)\n",
           median(t_all, runs) * 1e3);
    printf("parsed     %d of %d declarations\n", parsed, declared);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    const char *dir = argc > 2 ? argv[2] : "/tmp/md5cine_material_bench";
    double t_index[64], t_decl[64], t_res[64], t_hm[64];
    mc_error err;
    mc_mtr_file hf;
    const char *hm = "m { diffusemap heightmap(models/monsters/imp/imp_h, 4) }";

    if (runs < 1 || runs > 64)
        runs = 5;
    build(dir);
    if (mc_mtr_parse(hm, strlen(hm), "hm", NULL, &hf, &err) != MC_OK)
        return 1;
    for (int r = 0; r < runs; r++) {
        mc_vfs *v;
        mc_material_set *set;
        const mc_material *m;
        mc_image im;
        mc_status st;
        double t0 = now();

        if (mc_vfs_open(dir, &v, &err) != MC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_index[r] = now() - t0;
        t0 = now();
        if (mc_material_set_load(v, NULL, &set, &err) != MC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_decl[r] = now() - t0;
        t0 = now();
        m = mc_material_set_find(set, "models/monsters/imp/imp", &st, &err);
        if (!m) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_res[r] = now() - t0;
        t0 = now();
        if (mc_imgprog_eval(hf.decls[0].stages[0].map, v, &im, NULL, NULL, &err) != MC_OK)
            return 1;
        t_hm[r] = now() - t0;
        if (r == 0)
            printf("base: %d archive, %d files, %d materials\n", mc_vfs_archive_count(v),
                   mc_vfs_file_count(v), mc_material_set_count(set));
        mc_image_release(&im);
        mc_material_set_destroy(set);
        mc_vfs_destroy(v);
    }
    printf("index      %8.2f ms  (13005 entries)\n", median(t_index, runs) * 1e3);
    printf("declare    %8.2f ms  (2000 materials indexed, %s)\n", median(t_decl, runs) * 1e3,
           "one .mtr of 0.4 MB");
    printf("resolve    %8.2f ms  (imp: 4 TGAs of 1024x1024, heightmap + addnormals)\n",
           median(t_res, runs) * 1e3);
    printf("heightmap  %8.2f ms  (1024x1024, read + decode + program)\n", median(t_hm, runs) * 1e3);
    mc_mtr_release(&hf);
    {
        char many[1100];

        snprintf(many, sizeof many, "%s_many", dir);
        bench_many(many, runs);
    }
    return 0;
}
