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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zip.h>

#include <md5cine/material.h>
#include <md5cine/scene.h>
#include <md5cine/scene_materials.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/mtr.h>
#include <md5cine/vfs.h>

#include "bench_util.h"

#define SIDE 1024

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

/* A new (or emptied) zip at path; exits when it cannot be made. */
static zip_t *create_zip(const char *path)
{
    int code;
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);

    if (!z) {
        fprintf(stderr, "cannot create %s\n", path);
        exit(1);
    }
    return z;
}

static void build(const char *dir)
{
    char path[1024], name[128];
    zip_t *z;
    size_t len;
    char *mtr;
    FILE *f;

    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/pak000.pk4", dir);
    z = create_zip(path);
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

/* A scene on a base of 1,000 materials in 50 files, one used (or, with big false, a base
 * holding only that one): the time from loading the scene to its first frame at 320x180. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static void build_scene(const char *dir, bool big)
{
    char path[1024], name[64];
    zip_t *z;

    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/tri.md5mesh", dir);
    write_text(path, "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\njoints {\n"
                     "\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader \"models/m49_19\"\n"
                     "\tnumverts 3\n\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 1 0 ) 1 1\n"
                     "\tvert 2 ( 0 1 ) 2 1\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 3\n"
                     "\tweight 0 0 1 ( 0 20 20 )\n\tweight 1 0 1 ( 0 -20 20 )\n"
                     "\tweight 2 0 1 ( 0 20 -20 )\n}\n");
    snprintf(path, sizeof path, "%s/cam.md5camera", dir);
    write_text(path, "MD5Version 10\ncommandline \"\"\nnumFrames 1\nframeRate 24\nnumCuts 0\n"
                     "cuts {\n}\ncamera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n");
    snprintf(path, sizeof path, "%s/a.md5scene", dir);
    write_text(path, "md5scene 1\ncamera \"cam.md5camera\"\nbase \"base\"\n"
                     "actor a { mesh \"tri.md5mesh\" }\n");
    snprintf(path, sizeof path, "%s/base", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/base/pak000.pk4", dir);
    z = create_zip(path);
    for (int f = big ? 0 : 49; f < 50; f++) {
        char *text;
        size_t len;
        FILE *m = open_memstream(&text, &len);

        for (int i = big ? 0 : 19; i < 20; i++)
            fprintf(m, "models/m%02d_%02d {\n  qer_editorimage x\n  diffusemap _white\n"
                       "  { blend add map _black rgb 0.5 }\n}\n", f, i);
        fclose(m);
        snprintf(name, sizeof name, "materials/f%02d.mtr", f);
        add(z, name, text, len);
    }
    if (zip_close(z) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* Seconds from mc_scene_load to the first frame, and the declarations parsed. */
static double first_frame(const char *dir, int *parsed)
{
    char path[1024];
    static uint8_t px[320 * 180 * 4];
    mc_image_view view = { 320, 180, 320 * 4, px };
    mc_scene sc;
    mc_scene_renderer *sr;
    mc_error err;
    double t0 = bench_now();

    snprintf(path, sizeof path, "%s/a.md5scene", dir);
    if (mc_scene_load(path, NULL, &sc, &err) != MC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    {
        mc_scene_renderer_desc d = { .scene = &sc, .width = 320, .height = 180 };

        if (mc_scene_renderer_create(&d, &sr, &err) != MC_OK ||
            mc_scene_renderer_frame(sr, 0, &view, NULL, &err) != MC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
    }
    t0 = bench_now() - t0;
    mc_scene_renderer_release(sr);
    {
        mc_scene_materials sm;
        mc_parse_opts po = { 0 };

        *parsed = mc_scene_materials_load(&sc, &po, &sm, &err) == MC_OK && sm.set
                          ? mc_material_set_parsed(sm.set)
                          : -1;
        mc_scene_materials_release(&sm);
    }
    mc_scene_release(&sc);
    return t0;
}

/* Parsing every declaration of the 50 files strictly, as loading did before materials were
 * parsed on use. */
static double parse_all(const char *dir)
{
    char path[1100];
    mc_vfs *v;
    mc_error err;
    char **names;
    int n;
    double t0;

    snprintf(path, sizeof path, "%s/base", dir);
    if (mc_vfs_open(path, &v, &err) != MC_OK || mc_vfs_list(v, "materials", ".mtr", &names, &n,
                                                            &err) != MC_OK)
        exit(1);
    t0 = bench_now();
    for (int i = 0; i < n; i++) {
        uint8_t *data;
        size_t len;
        bool found;
        mc_mtr_file f;

        if (mc_vfs_read(v, names[i], &data, &len, &found, NULL, 0, &err) != MC_OK ||
            mc_mtr_parse((const char *)data, len, names[i], NULL, &f, &err) != MC_OK)
            exit(1);
        mc_mtr_release(&f);
        free(data);
    }
    t0 = bench_now() - t0;
    free(names);
    mc_vfs_destroy(v);
    return t0;
}

static void first_frame_bench(const char *dir, int runs)
{
    char big[900], small[900];
    double t_big[64], t_small[64], t_all[64];
    int parsed_big = 0, parsed_small = 0;

    snprintf(big, sizeof big, "%s_scene1000", dir);
    snprintf(small, sizeof small, "%s_scene1", dir);
    build_scene(big, true);
    build_scene(small, false);
    for (int r = 0; r < runs; r++) {
        t_big[r] = first_frame(big, &parsed_big);
        t_small[r] = first_frame(small, &parsed_small);
        t_all[r] = parse_all(big);
    }
    printf("first frame %7.2f ms  (1000 materials in 50 files, %d parsed) against %.2f ms "
           "(a base of the one material): ratio %.2f\n",
           bench_median(t_big, runs) * 1e3, parsed_big, bench_median(t_small, runs) * 1e3,
           bench_median(t_big, runs) / bench_median(t_small, runs));
    printf("parse all  %8.2f ms  (every declaration of the 50 files, strictly: what loading "
           "cost before declarations were parsed on use)\n",
           bench_median(t_all, runs) * 1e3);
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
        double t0 = bench_now();

        if (mc_vfs_open(dir, &v, &err) != MC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_index[r] = bench_now() - t0;
        t0 = bench_now();
        if (mc_material_set_load(v, NULL, &set, &err) != MC_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_decl[r] = bench_now() - t0;
        t0 = bench_now();
        m = mc_material_set_find(set, "models/monsters/imp/imp", &st, &err);
        if (!m) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        t_res[r] = bench_now() - t0;
        t0 = bench_now();
        if (mc_imgprog_eval(hf.decls[0].stages[0].map, v, &im, NULL, NULL, &err) != MC_OK)
            return 1;
        t_hm[r] = bench_now() - t0;
        if (r == 0)
            printf("base: %d archive, %d files, %d materials\n", mc_vfs_archive_count(v),
                   mc_vfs_file_count(v), mc_material_set_count(set));
        mc_image_release(&im);
        mc_material_set_destroy(set);
        mc_vfs_destroy(v);
    }
    printf("index      %8.2f ms  (13005 entries)\n", bench_median(t_index, runs) * 1e3);
    printf("declare    %8.2f ms  (2000 materials, %s)\n", bench_median(t_decl, runs) * 1e3,
           "one .mtr of 0.4 MB");
    printf("resolve    %8.2f ms  (imp: 4 TGAs of 1024x1024, heightmap + addnormals)\n",
           bench_median(t_res, runs) * 1e3);
    printf("heightmap  %8.2f ms  (1024x1024, read + decode + program)\n", bench_median(t_hm, runs) * 1e3);
    mc_mtr_release(&hf);
    first_frame_bench(dir, runs);
    return 0;
}
