/* The material tests' helpers (tests/material_test.c, tests/material_images_test.c): TGA files
 * written byte by byte, scratch base folders, .pk4 archives built with libzip, a VFS over given
 * images, an image program evaluated on its own, and a pixel check. */
#ifndef MC_TEST_MATERIAL_FIXTURE_H
#define MC_TEST_MATERIAL_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include <md5cine/image.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/vfs.h>

#include "test.h"

typedef struct bytes {
    uint8_t b[4096];
    size_t n;
} bytes;

static inline void put(bytes *o, const uint8_t *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* An 18-byte TGA header. */
static inline void tga_header(bytes *o, int type, int w, int h, int bpp, int desc)
{
    uint8_t hd[18] = { 0 };

    hd[2] = (uint8_t)type;
    hd[12] = (uint8_t)(w & 255);
    hd[13] = (uint8_t)(w >> 8);
    hd[14] = (uint8_t)(h & 255);
    hd[15] = (uint8_t)(h >> 8);
    hd[16] = (uint8_t)bpp;
    hd[17] = (uint8_t)desc;
    o->n = 0;
    put(o, hd, 18);
}

static inline bool px_is(const mc_image *im, int x, int y, int r, int g, int b, int a)
{
    const uint8_t *p = im->pixels + (size_t)y * im->stride + (size_t)x * 4;

    if (p[0] == r && p[1] == g && p[2] == b && p[3] == a)
        return true;
    return test_fail(__FILE__, __LINE__, "pixel (%d, %d) is (%d %d %d %d), expected (%d %d %d %d)",
                     x, y, p[0], p[1], p[2], p[3], r, g, b, a);
}

static inline void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    if (!f) {
        test_fail(__FILE__, __LINE__, "cannot write %s", path);
        return;
    }
    fwrite(data, 1, n, f);
    fclose(f);
}

static inline void mkdir_p(const char *path)
{
    char buf[1200];

    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        test_fail(__FILE__, __LINE__, "path too long: %s", path);
        return;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    }
    mkdir(buf, 0755);
}

/* The folder base/rel and its missing parents. */
static inline void base_dir(const char *base, const char *rel)
{
    char path[1200];

    snprintf(path, sizeof path, "%s/%s", base, rel);
    mkdir_p(path);
}

/* The file base/rel with the n bytes of data (its folder must be there). */
static inline void base_file(const char *base, const char *rel, const void *data, size_t n)
{
    char path[1200];

    snprintf(path, sizeof path, "%s/%s", base, rel);
    write_file(path, data, n);
}

/* A zip at path holding n (name, data) pairs, compressed with deflate. */
static inline void make_pk4(const char *path, int n, const char *const *names,
                            const bytes *const *data)
{
    int code;
    zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code);

    if (!z) {
        test_fail(__FILE__, __LINE__, "cannot create %s", path);
        return;
    }
    for (int i = 0; i < n; i++) {
        zip_source_t *s = zip_source_buffer(z, data[i]->b, data[i]->n, 0);

        if (!s || zip_file_add(z, names[i], s, ZIP_FL_ENC_UTF_8) < 0)
            test_fail(__FILE__, __LINE__, "cannot add %s", names[i]);
    }
    if (zip_close(z) != 0)
        test_fail(__FILE__, __LINE__, "cannot write %s", path);
}

static inline bytes text_bytes(const char *s)
{
    bytes b;

    b.n = strlen(s);
    memcpy(b.b, s, b.n);
    return b;
}

/* A fresh, empty base folder. */
static inline char *fresh_base(char *out, size_t cap, const char *leaf)
{
    char cmd[1200];

    test_tmp_path(out, cap, leaf);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    if (system(cmd) != 0)
        test_fail(__FILE__, __LINE__, "cannot clear %s", out);
    mkdir_p(out);
    return out;
}

/* A VFS over a base holding the given TGA images (each w x h RGBA, top row first, written as
 * 32-bit top-down TGAs). */
typedef struct test_image {
    const char *name;
    int w, h;
    const uint8_t *rgba;
} test_image;

static inline mc_vfs *vfs_with(const char *leaf, int n, const test_image *ims)
{
    char base[1024], path[1400];
    mc_vfs *v = NULL;
    mc_error err;

    fresh_base(base, sizeof base, leaf);
    for (int i = 0; i < n; i++) {
        bytes o;

        tga_header(&o, 2, ims[i].w, ims[i].h, 32, 0x28);
        for (int k = 0; k < ims[i].w * ims[i].h; k++) {
            const uint8_t *p = ims[i].rgba + 4 * k;
            const uint8_t bgra[4] = { p[2], p[1], p[0], p[3] };

            put(&o, bgra, 4);
        }
        snprintf(path, sizeof path, "%s/%s", base, ims[i].name);
        write_file(path, o.b, o.n);
    }
    if (mc_vfs_open(base, &v, &err) != MC_OK)
        test_fail(__FILE__, __LINE__, "vfs: %s", err.msg);
    return v;
}

/* Parses "m { diffusemap PROGRAM }" and evaluates the program. */
static inline mc_status run_prog(mc_vfs *v, const char *program, mc_image *out, bool *fell_back,
                                 char **sources)
{
    char text[512];
    mc_mtr_file f;
    mc_error err;
    mc_status st;

    snprintf(text, sizeof text, "m { diffusemap %s }", program);
    st = mc_mtr_parse(text, strlen(text), "p.mtr", NULL, &f, &err);
    if (st != MC_OK) {
        test_fail(__FILE__, __LINE__, "parse: %s", err.msg);
        return st;
    }
    st = mc_imgprog_eval(f.decls[0].stages[0].map, v, out, fell_back, sources, &err);
    if (st != MC_OK)
        test_fail(__FILE__, __LINE__, "eval %s: %s", program, err.msg);
    mc_mtr_release(&f);
    return st;
}

#endif
