/* Material loading figures: builds a base folder in a scratch directory -- pak000.pk4 with
 * 13000 small entries (the size of Doom 3's pak000), a materials/bench.mtr of 2000 declarations
 * and the imp's four 1024x1024 images (TGA: diffuse and local 32-bit, height and specular
 * 8-bit grey) -- then prints the median time over the runs of:
 *
 *   index      mc_vfs_open (walk the folder, read the archive's directory)
 *   declare    mc_material_set_load (read and parse every .mtr)
 *   resolve    mc_material_resolve of the imp: four TGA reads and decodes from the archive,
 *              heightmap(imp_h, 4) and addnormals on 1024x1024
 *   heightmap  mc_imgprog_eval of heightmap(imp_h, 4) alone
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
    printf("declare    %8.2f ms  (2000 materials, %s)\n", median(t_decl, runs) * 1e3,
           "one .mtr of 0.4 MB");
    printf("resolve    %8.2f ms  (imp: 4 TGAs of 1024x1024, heightmap + addnormals)\n",
           median(t_res, runs) * 1e3);
    printf("heightmap  %8.2f ms  (1024x1024, read + decode + program)\n", median(t_hm, runs) * 1e3);
    mc_mtr_release(&hf);
    return 0;
}
