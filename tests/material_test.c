/* Materials end to end: the TGA reader on files written byte by byte, the base folder's VFS
 * (loose files, .pk4 archives built here with libzip, override order, case folding, bounds),
 * every image program against pixels worked out by hand (or, for the heightmap's fast inverse
 * square root, by tests/imgprog_reference.py, an independent Python reading of the rules),
 * material resolution with its fallbacks, and a scene whose submesh shader names a material. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/scene.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include "test.h"

/* ---------------------------------------------------------------- helpers */

typedef struct bytes {
    uint8_t b[4096];
    size_t n;
} bytes;

static void put(bytes *o, const uint8_t *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* An 18-byte TGA header. */
static void tga_header(bytes *o, int type, int w, int h, int bpp, int desc)
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

static bool px_is(const mc_image *im, int x, int y, int r, int g, int b, int a)
{
    const uint8_t *p = im->pixels + (size_t)y * im->stride + (size_t)x * 4;

    if (p[0] == r && p[1] == g && p[2] == b && p[3] == a)
        return true;
    return test_fail(__FILE__, __LINE__, "pixel (%d, %d) is (%d %d %d %d), expected (%d %d %d %d)",
                     x, y, p[0], p[1], p[2], p[3], r, g, b, a);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");

    if (!f) {
        test_fail(__FILE__, __LINE__, "cannot write %s", path);
        return;
    }
    fwrite(data, 1, n, f);
    fclose(f);
}

static void mkdir_p(const char *path)
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

/* A zip at path holding n (name, data) pairs, compressed with deflate. */
static void make_pk4(const char *path, int n, const char *const *names, const bytes *const *data)
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

static bytes text_bytes(const char *s)
{
    bytes b;

    b.n = strlen(s);
    memcpy(b.b, s, b.n);
    return b;
}

/* A fresh, empty base folder. */
static char *fresh_base(char *out, size_t cap, const char *leaf)
{
    char cmd[1200];

    test_tmp_path(out, cap, leaf);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    if (system(cmd) != 0)
        test_fail(__FILE__, __LINE__, "cannot clear %s", out);
    mkdir_p(out);
    return out;
}

/* ---------------------------------------------------------------- TGA */

static void tga_reads_bottom_up_truecolour_24(void)
{
    bytes o;
    /* 2x2, bottom row first in the file: bottom (red, green), top (blue, white); BGR order. */
    const uint8_t px[] = { 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255 };
    mc_image im;
    mc_error err;

    tga_header(&o, 2, 2, 2, 24, 0);
    put(&o, px, sizeof px);
    ASSERT_OK(mc_tga_decode(o.b, o.n, "a.tga", &im, &err), &err);
    EXPECT(im.width == 2 && im.height == 2 && im.stride == 8);
    px_is(&im, 0, 0, 0, 0, 255, 255);
    px_is(&im, 1, 0, 255, 255, 255, 255);
    px_is(&im, 0, 1, 255, 0, 0, 255);
    px_is(&im, 1, 1, 0, 255, 0, 255);
    mc_image_release(&im);
}

static void tga_reads_top_down_32_with_an_id_field(void)
{
    bytes o;
    const uint8_t id[3] = { 'a', 'b', 'c' };
    /* 1x2 top-down (descriptor bit 5, 8 alpha bits): (10 20 30 40), (50 60 70 80) as BGRA. */
    const uint8_t px[] = { 30, 20, 10, 40, 70, 60, 50, 80 };
    mc_image im;
    mc_error err;

    tga_header(&o, 2, 1, 2, 32, 0x28);
    o.b[0] = 3;
    put(&o, id, 3);
    put(&o, px, sizeof px);
    ASSERT_OK(mc_tga_decode(o.b, o.n, "a.tga", &im, &err), &err);
    px_is(&im, 0, 0, 10, 20, 30, 40);
    px_is(&im, 0, 1, 50, 60, 70, 80);
    mc_image_release(&im);
}

static void tga_reads_grey_and_run_length(void)
{
    bytes o;
    const uint8_t grey[] = { 7, 9 };
    /* 3x2 RLE truecolour, bottom-up: a run of 4 blue pixels crossing the row end, then 2 raw
     * pixels (red, green). File order: bottom row (x0..x2) then top row. */
    const uint8_t rle[] = { 0x83, 255, 0, 0, 0x01, 0, 0, 255, 0, 255, 0 };
    /* 2x1 RLE grey: a run of 2. */
    const uint8_t rle_grey[] = { 0x81, 200 };
    mc_image im;
    mc_error err;

    tga_header(&o, 3, 2, 1, 8, 0);
    put(&o, grey, 2);
    ASSERT_OK(mc_tga_decode(o.b, o.n, "g.tga", &im, &err), &err);
    px_is(&im, 0, 0, 7, 7, 7, 255);
    px_is(&im, 1, 0, 9, 9, 9, 255);
    mc_image_release(&im);

    tga_header(&o, 10, 3, 2, 24, 0);
    put(&o, rle, sizeof rle);
    ASSERT_OK(mc_tga_decode(o.b, o.n, "r.tga", &im, &err), &err);
    for (int x = 0; x < 3; x++)
        px_is(&im, x, 1, 0, 0, 255, 255); /* the bottom row: the run's first 3 */
    px_is(&im, 0, 0, 0, 0, 255, 255);     /* the run's 4th, on the top row */
    px_is(&im, 1, 0, 255, 0, 0, 255);
    px_is(&im, 2, 0, 0, 255, 0, 255);
    mc_image_release(&im);

    tga_header(&o, 11, 2, 1, 8, 0);
    put(&o, rle_grey, 2);
    ASSERT_OK(mc_tga_decode(o.b, o.n, "rg.tga", &im, &err), &err);
    px_is(&im, 1, 0, 200, 200, 200, 255);
    mc_image_release(&im);
}

static void tga_rejects_what_it_does_not_read(void)
{
    static const struct {
        int type, w, h, bpp, desc, extra;
        const char *msg;
    } rows[] = {
        { 1, 1, 1, 8, 0, 1, "unsupported TGA image type 1" },
        { 2, 1, 1, 16, 0, 2, "unsupported 16 bits per pixel for TGA image type 2" },
        { 3, 1, 1, 24, 0, 3, "unsupported 24 bits per pixel for TGA image type 3" },
        { 2, 1, 1, 24, 0x10, 3, "right-to-left TGA images are not supported" },
        { 2, 0, 1, 24, 0, 3, "image has no pixels" },
        { 2, 20000, 1, 24, 0, 3, "too large: 20000x1, over 16384 pixels per side" },
        /* 16384x16384 declared, 3 bytes given: refused before allocating 1 GiB. */
        { 2, 16384, 16384, 24, 0, 3, "truncated image data" },
        { 10, 16384, 16384, 32, 0, 5, "truncated image data" },
        { 2, 2, 1, 24, 0, 5, "truncated image data" },
    };
    bytes o;
    mc_image im;
    mc_error err;

    for (size_t i = 0; i < TEST_COUNT(rows); i++) {
        tga_header(&o, rows[i].type, rows[i].w, rows[i].h, rows[i].bpp, rows[i].desc);
        memset(o.b + o.n, 1, (size_t)rows[i].extra);
        o.n += (size_t)rows[i].extra;
        EXPECT_EQ_INT(mc_tga_decode(o.b, o.n, "x.tga", &im, &err), MC_ERR_IMAGE);
        EXPECT_CONTAINS(err.msg, rows[i].msg);
        EXPECT_CONTAINS(err.msg, "cannot read 'x.tga'");
        EXPECT(im.pixels == NULL);
    }
    tga_header(&o, 2, 1, 1, 24, 0);
    o.b[1] = 1;
    EXPECT_EQ_INT(mc_tga_decode(o.b, o.n + 3, "x.tga", &im, &err), MC_ERR_IMAGE);
    EXPECT_CONTAINS(err.msg, "colour-mapped");
    /* A binary PNM under a .tga name: "P6\n" is colour map type '6' (54), image type '\n'
     * (10); no TGA has colour map type 54, so it is not one, not a colour-mapped one. */
    {
        static const char pnm[] = "P6\n16384 16384\n255\n\0\0\0";

        EXPECT_EQ_INT(mc_tga_decode(pnm, sizeof pnm - 1, "x.tga", &im, &err), MC_ERR_IMAGE);
        EXPECT_EQ_STR(err.msg, "cannot read 'x.tga': not a TGA image: its bytes are a PNM "
                               "image's");
        EXPECT(im.pixels == NULL);
    }
    EXPECT_EQ_INT(mc_tga_decode(o.b, 17, "x.tga", &im, &err), MC_ERR_IMAGE);
    /* A run of 3 in a 2-pixel image. */
    tga_header(&o, 10, 2, 1, 24, 0);
    o.b[o.n++] = 0x82;
    memset(o.b + o.n, 0, 3);
    o.n += 3;
    EXPECT_EQ_INT(mc_tga_decode(o.b, o.n, "x.tga", &im, &err), MC_ERR_IMAGE);
    EXPECT_CONTAINS(err.msg, "run-length packet goes past the end of the image");
}

/* ---------------------------------------------------------------- VFS */

static void vfs_loose_beats_later_archives_beat_earlier(void)
{
    char base[1024], path[1200], where[1200];
    bytes p0a = text_bytes("pak000 a"), p0b = text_bytes("pak000 b"), p0c = text_bytes("pak000 c");
    bytes p1b = text_bytes("pak001 b"), p1c = text_bytes("pak001 c");
    const char *n0[] = { "models/a.txt", "models/b.txt", "Models\\Deep\\c.txt" };
    const bytes *d0[] = { &p0a, &p0b, &p0c };
    const char *n1[] = { "MODELS/B.TXT", "models/deep/C.txt" };
    const bytes *d1[] = { &p1b, &p1c };
    mc_vfs *v;
    mc_error err;
    uint8_t *data;
    size_t len;
    bool found;
    char **names;
    int count;

    fresh_base(base, sizeof base, "vfs_order");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 3, n0, d0);
    /* Upper case: archives sort without case, so this one still comes after pak000. */
    snprintf(path, sizeof path, "%s/PAK001.PK4", base);
    make_pk4(path, 2, n1, d1);
    snprintf(path, sizeof path, "%s/Models", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/Models/A.txt", base);
    write_file(path, "loose a", 7);

    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    EXPECT_EQ_INT(mc_vfs_archive_count(v), 2);
    ASSERT_OK(mc_vfs_read(v, "models/a.txt", &data, &len, &found, where, sizeof where, &err), &err);
    EXPECT(found && len == 7 && memcmp(data, "loose a", 7) == 0);
    snprintf(path, sizeof path, "%s/Models/A.txt", base);
    EXPECT_EQ_STR(where, path);
    free(data);
    ASSERT_OK(mc_vfs_read(v, "Models\\B.TXT", &data, &len, &found, where, sizeof where, &err),
              &err);
    EXPECT(found && len == 8 && memcmp(data, "pak001 b", 8) == 0);
    snprintf(path, sizeof path, "%s/PAK001.PK4:MODELS/B.TXT", base);
    EXPECT_EQ_STR(where, path);
    free(data);
    ASSERT_OK(mc_vfs_read(v, "models/deep/c.txt", &data, &len, &found, NULL, 0, &err), &err);
    EXPECT(found && memcmp(data, "pak001 c", 8) == 0);
    free(data);
    ASSERT_OK(mc_vfs_read(v, "models/none.txt", &data, &len, &found, NULL, 0, &err), &err);
    EXPECT(!found && data == NULL);
    EXPECT(mc_vfs_exists(v, "MODELS/A.TXT", NULL, 0));
    EXPECT(!mc_vfs_exists(v, "models", NULL, 0));

    ASSERT_OK(mc_vfs_list(v, "Models", ".TXT", &names, &count, &err), &err);
    ASSERT(count == 2);
    EXPECT_EQ_STR(names[0], "models/a.txt");
    EXPECT_EQ_STR(names[1], "models/b.txt");
    free(names);
    mc_vfs_destroy(v);
}

/* Patches the uncompressed size of every header of a one-entry zip. */
static void patch_size(uint8_t *z, size_t n, uint32_t size)
{
    for (size_t i = 0; i + 30 < n; i++) {
        size_t at = 0;

        if (z[i] == 'P' && z[i + 1] == 'K' && z[i + 2] == 3 && z[i + 3] == 4)
            at = i + 22;
        else if (z[i] == 'P' && z[i + 1] == 'K' && z[i + 2] == 1 && z[i + 3] == 2)
            at = i + 24;
        if (at)
            for (int k = 0; k < 4; k++)
                z[at + (size_t)k] = (uint8_t)(size >> (8 * k));
    }
}

static void vfs_refuses_lying_and_oversized_entries(void)
{
    char base[1024], path[1200];
    static bytes zeros;
    const char *names[] = { "big.bin" };
    const bytes *data[] = { &zeros };
    char *zip;
    size_t zlen;
    mc_vfs *v;
    mc_error err;
    uint8_t *out;
    size_t len;
    bool found;

    zeros.n = 4000;
    memset(zeros.b, 0, zeros.n);
    fresh_base(base, sizeof base, "vfs_bomb");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 1, names, data);
    ASSERT_OK(mc_read_file(path, &zip, &zlen, &err), &err);

    /* Declares 100 bytes, inflates to 4000: more data than declared. */
    patch_size((uint8_t *)zip, zlen, 100);
    write_file(path, zip, zlen);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    EXPECT(mc_vfs_read(v, "big.bin", &out, &len, &found, NULL, 0, &err) != MC_OK);
    EXPECT(out == NULL);
    EXPECT_CONTAINS(err.msg, "pak000.pk4:big.bin");
    mc_vfs_destroy(v);

    /* Declares 3 GiB: refused before anything is allocated. */
    patch_size((uint8_t *)zip, zlen, 3u << 30);
    write_file(path, zip, zlen);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    EXPECT_EQ_INT(mc_vfs_read(v, "big.bin", &out, &len, &found, NULL, 0, &err), MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "declares 3221225472 bytes, over the limit");
    mc_vfs_destroy(v);
    free(zip);

    /* Not a zip at all. */
    write_file(path, "not a zip", 9);
    EXPECT_EQ_INT(mc_vfs_open(base, &v, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "cannot open archive");
    EXPECT(v == NULL);
    snprintf(path, sizeof path, "%s/missing", base);
    EXPECT_EQ_INT(mc_vfs_open(path, &v, &err), MC_ERR_IO);
}

/* ---------------------------------------------------------------- image programs */

/* A VFS over a base holding the given TGA images (each w x h RGBA, top row first, written as
 * 32-bit top-down TGAs). */
typedef struct test_image {
    const char *name;
    int w, h;
    const uint8_t *rgba;
} test_image;

static mc_vfs *vfs_with(const char *leaf, int n, const test_image *ims)
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
static mc_status run_prog(mc_vfs *v, const char *program, mc_image *out, bool *fell_back,
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

static void heightmap_matches_doom_on_a_4x4_bump(void)
{
    /* Height 0 everywhere but 255 at (1, 1); scale 4, so s = 4/256 = 1/64.
     * Texel (0, 0): d1 = 0, d2 = 0 (right), d3 = 0 (below), d4 = 255 (below right):
     * n1 = (0, 0, 1); n2 = (-255/64, 0, 1) = (-3.984, 0, 1) -> (-0.96992, 0, 0.24343);
     * n1 + n2 = (-0.96992, 0, 1.24343) -> (-0.61505, 0, 0.78849) with exact square roots:
     * bytes (49.9 -> 49, 128, 228.1 -> 228). Doom's fast inverse square root shortens each
     * normalisation by up to 0.17 %, which takes the blue to 227.8 -> 227 (the Python
     * reading gives the same). A flat texel: (0, 0, 1) normalised fast is 0.998342 (worked by
     * hand: the bit trick gives 0.966555 for 1.0, one Newton step 0.998342), twice that
     * normalised again is 0.997... : 0.9975 * 127 + 128 = 254.7 -> 254, not 255. */
    static const int expect[4][4][3] = {
        { { 49, 128, 227 }, { 175, 13, 156 }, { 128, 128, 254 }, { 128, 128, 254 } },
        { { 49, 128, 227 }, { 175, 242, 156 }, { 128, 128, 254 }, { 128, 128, 254 } },
        { { 128, 128, 254 }, { 128, 128, 254 }, { 128, 128, 254 }, { 128, 128, 254 } },
        { { 128, 128, 254 }, { 128, 128, 254 }, { 128, 128, 254 }, { 128, 128, 254 } },
    };
    uint8_t h[4 * 4 * 4];
    test_image ti = { "bump.tga", 4, 4, h };
    mc_vfs *v;
    mc_image im;
    bool fb = true;

    for (int i = 0; i < 16; i++) {
        uint8_t g = i == 5 ? 255 : 0;

        h[4 * i] = h[4 * i + 1] = h[4 * i + 2] = g;
        h[4 * i + 3] = 255;
    }
    v = vfs_with("prog_height", 1, &ti);
    ASSERT(v);
    ASSERT(run_prog(v, "heightmap(bump, 4)", &im, &fb, NULL) == MC_OK);
    EXPECT(!fb);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            px_is(&im, x, y, expect[y][x][0], expect[y][x][1], expect[y][x][2], 255);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}

static void addnormals_and_smoothnormals_match_hand_values(void)
{
    /* addnormals, 2x2:
     *   (0,0) a = (128,128,255): n = (0,0,1), |n| = 1; + b.x (200-128)/127 = 0.56693:
     *         (0.56693, 0, 1) / 1.14952 = (0.49319, 0, 0.86993) -> (190, 128, 238)
     *   (1,0) a = (255,128,128): n = (1,0,0), |n| < 1 by the fast length: z = sqrt(1-1) = 0;
     *         b adds nothing -> (255, 128, 128)
     *   (0,1) a = (128,128,128): n = 0 -> z = 1; b.y = 1: (0,1,1)/sqrt2 -> (128, 217, 217)
     * smoothnormals, 4x1 [(255,128,128), (128,128,128), (0,0,0), (0,0,0)]: the 3x3
     * neighbourhoods (wrapping) of x = 0, 1 and 3 skip the grey and black texels and hold the
     * first three times: (1,0,0). (x = 2 sees no texel to keep.) */
    static const uint8_t a[] = { 128, 128, 255, 255, 255, 128, 128, 255,
                                 128, 128, 128, 255, 10,  200, 240, 255 };
    static const uint8_t b[] = { 200, 128, 128, 255, 128, 128, 128, 255,
                                 128, 255, 128, 255, 128, 60,  128, 255 };
    static const uint8_t s[] = { 255, 128, 128, 9, 128, 128, 128, 9, 0, 0, 0, 9, 0, 0, 0, 9 };
    /* 2x1 [(255,128,128), (128,255,128)]: at x = 0 the neighbourhood holds texel 1 twice and
     * texel 0 once per row, three rows: (127, 254, 0) * 3 -> (1, 2, 0)/sqrt5 = (0.44721,
     * 0.89443, 0) -> (184, 241, 128); at x = 1 the mirror image (241, 184, 128). */
    static const uint8_t s2[] = { 255, 128, 128, 7, 128, 255, 128, 7 };
    const test_image ims[] = {
        { "a.tga", 2, 2, a }, { "b.tga", 2, 2, b }, { "s.tga", 4, 1, s }, { "s2.tga", 2, 1, s2 }
    };
    mc_vfs *v = vfs_with("prog_normals", 4, ims);
    mc_image im;
    bool fb;

    ASSERT(v);
    ASSERT(run_prog(v, "addnormals(a, b)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 190, 128, 238, 255);
    px_is(&im, 1, 0, 255, 128, 128, 255);
    px_is(&im, 0, 1, 128, 217, 217, 255);
    px_is(&im, 1, 1, 35, 131, 215, 255); /* tests/imgprog_reference.py */
    mc_image_release(&im);
    ASSERT(run_prog(v, "smoothnormals(s)", &im, &fb, NULL) == MC_OK);
    for (int x = 0; x < 4; x += x == 1 ? 2 : 1)
        px_is(&im, x, 0, 255, 128, 128, 9); /* alpha kept */
    mc_image_release(&im);
    ASSERT(run_prog(v, "smoothnormals(s2)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 184, 241, 128, 7);
    px_is(&im, 1, 0, 241, 184, 128, 7);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}

static void colour_programs_match_hand_values(void)
{
    static const uint8_t a[] = { 100, 200, 0, 255, 1, 2, 3, 4 };
    static const uint8_t one[] = { 100, 100, 100, 100 };
    static const uint8_t c[] = { 101, 50, 7, 200, 30, 60, 91, 0 };
    /* 4x4 with every texel (x, y, 0, 255)*10, to see which texels drop-sampling picks. */
    uint8_t big[64];
    static const uint8_t zero2[16] = { 0 };
    test_image ims[] = { { "a.tga", 2, 1, a },
                         { "one.tga", 1, 1, one },
                         { "c.tga", 2, 1, c },
                         { "big.tga", 4, 4, big },
                         { "z2.tga", 2, 2, zero2 } };
    mc_vfs *v;
    mc_image im;
    bool fb;

    for (int i = 0; i < 16; i++) {
        big[4 * i] = (uint8_t)(10 * (i % 4));
        big[4 * i + 1] = (uint8_t)(10 * (i / 4));
        big[4 * i + 2] = 0;
        big[4 * i + 3] = 255;
    }
    v = vfs_with("prog_colour", 5, ims);
    ASSERT(v);
    /* add: the 1x1 is drop-sampled to 2x1; bytes saturate at 255. */
    ASSERT(run_prog(v, "add(a, one)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 200, 255, 100, 255);
    px_is(&im, 1, 0, 101, 102, 103, 104);
    mc_image_release(&im);
    /* Drop-sampling 4x4 to 2x2 picks (2x, int((y + 0.25) * 2)) = rows 0 and 2, columns 0, 2. */
    ASSERT(run_prog(v, "add(z2, big)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 0, 0, 0, 255);
    px_is(&im, 1, 0, 20, 0, 0, 255);
    px_is(&im, 0, 1, 0, 20, 0, 255);
    px_is(&im, 1, 1, 20, 20, 0, 255);
    mc_image_release(&im);
    /* scale: 101 * 0.5 = 50.5 -> 50; 50 * 2 = 100; 7 * 1; 200 * 0 = 0; 60 * 2 = 120;
     * 91 * 1; 30 * 0.5 = 15. */
    ASSERT(run_prog(v, "scale(c, 0.5, 2, 1, 0)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 50, 100, 7, 0);
    px_is(&im, 1, 0, 15, 120, 91, 0);
    mc_image_release(&im);
    /* scale with one factor: the others are 1; 100 * 3 = 300 does not clamp: Doom's
     * R_ImageScale casts it to a byte, 300 - 256 = 44. */
    ASSERT(run_prog(v, "scale(a, 3)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 44, 200, 0, 255);
    mc_image_release(&im);
    ASSERT(run_prog(v, "invertAlpha(c)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 101, 50, 7, 55);
    px_is(&im, 1, 0, 30, 60, 91, 255);
    mc_image_release(&im);
    ASSERT(run_prog(v, "invertColor(c)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 154, 205, 248, 200);
    mc_image_release(&im);
    ASSERT(run_prog(v, "makeIntensity(c)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 101, 101, 101, 101);
    px_is(&im, 1, 0, 30, 30, 30, 30);
    mc_image_release(&im);
    /* makeAlpha: (101 + 50 + 7) / 3 = 52; (30 + 60 + 91) / 3 = 60. */
    ASSERT(run_prog(v, "makeAlpha(c)", &im, &fb, NULL) == MC_OK);
    px_is(&im, 0, 0, 255, 255, 255, 52);
    px_is(&im, 1, 0, 255, 255, 255, 60);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}

static void builtin_images_are_doom_s(void)
{
    mc_image im;

    ASSERT(mc_material_builtin("_default", &im));
    EXPECT(im.width == 16 && im.height == 16);
    px_is(&im, 0, 0, 255, 255, 255, 255);
    px_is(&im, 15, 7, 255, 255, 255, 255);
    px_is(&im, 7, 15, 255, 255, 255, 255);
    /* Image_init.cpp idImage::MakeDefault: data[y][x][3] = 255 in the grey centre too */
    px_is(&im, 1, 1, 32, 32, 32, 255);
    px_is(&im, 14, 14, 32, 32, 32, 255);
    mc_image_release(&im);
    ASSERT(mc_material_builtin("_FLAT", &im));
    EXPECT(im.width == 1);
    px_is(&im, 0, 0, 128, 128, 255, 255);
    mc_image_release(&im);
    ASSERT(mc_material_builtin("_black", &im));
    px_is(&im, 0, 0, 0, 0, 0, 255);
    mc_image_release(&im);
    ASSERT(mc_material_builtin("_white", &im));
    px_is(&im, 0, 0, 255, 255, 255, 255);
    mc_image_release(&im);
    EXPECT(!mc_material_builtin("_scratch", &im));
}

static void write_to(void *ctx, void *data, int size)
{
    bytes *b = ctx;

    memcpy(b->b + b->n, data, (size_t)size);
    b->n += (size_t)size;
}

static void images_fall_back_tga_jpg_png_then_default(void)
{
    char base[1024], path[1200];
    static const uint8_t green[4] = { 0, 200, 0, 255 };
    bytes png = { .n = 0 }, tga;
    char cmd[4000];
    const uint8_t bgr[3] = { 9, 8, 7 };
    mc_vfs *v;
    mc_error err;
    mc_image im;
    bool fb;
    char *src;

    fresh_base(base, sizeof base, "fallback");
    snprintf(path, sizeof path, "%s/t", base);
    mkdir_p(path);
    stbi_write_png_to_func(write_to, &png, 1, 1, 4, green, 4);
    tga_header(&tga, 2, 1, 1, 24, 0);
    put(&tga, bgr, 3);
    snprintf(path, sizeof path, "%s/t/both.tga", base);
    write_file(path, tga.b, tga.n);
    /* The JPEGs are ImageMagick's (an independent encoder): 4x4, every pixel (250, 0, 0). */
    snprintf(cmd, sizeof cmd,
             "convert -size 4x4 xc:'rgb(250,0,0)' -quality 95 '%s/t/both.jpg' && "
             "cp '%s/t/both.jpg' '%s/t/onlyjpg.jpg'",
             base, base, base);
    ASSERT(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/t/onlypng.png", base);
    write_file(path, png.b, png.n);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);

    ASSERT(run_prog(v, "t/both", &im, &fb, &src) == MC_OK);
    px_is(&im, 0, 0, 7, 8, 9, 255);
    snprintf(path, sizeof path, "%s/t/both.tga", base);
    EXPECT_EQ_STR(src, path);
    free(src);
    mc_image_release(&im);
    /* "x.tga" as written also falls back to x.jpg, as Doom does. */
    ASSERT(run_prog(v, "t/onlyjpg.tga", &im, &fb, &src) == MC_OK);
    EXPECT(!fb && im.width == 4);
    EXPECT_NEAR(im.pixels[0], 250, 6); /* JPEG is lossy */
    EXPECT_NEAR(im.pixels[1], 0, 6);
    EXPECT_CONTAINS(src, "t/onlyjpg.jpg");
    free(src);
    mc_image_release(&im);
    ASSERT(run_prog(v, "T/OnlyPng", &im, &fb, &src) == MC_OK);
    px_is(&im, 0, 0, 0, 200, 0, 255);
    EXPECT_CONTAINS(src, "t/onlypng.png");
    free(src);
    mc_image_release(&im);
    ASSERT(run_prog(v, "add(t/missing, t/both)", &im, &fb, &src) == MC_OK);
    EXPECT(fb);
    EXPECT(im.width == 16); /* _default's size */
    px_is(&im, 0, 0, 255, 255, 255, 255);
    px_is(&im, 5, 5, 32 + 7, 32 + 8, 32 + 9, 32 + 255 > 255 ? 255 : 32 + 255);
    EXPECT_CONTAINS(src, "_default (missing t/missing); ");
    EXPECT_CONTAINS(src, "t/both.tga");
    free(src);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}

/* ---------------------------------------------------------------- materials */

static const char *IMP_MTR =
        "// the imp\n"
        "models/monsters/imp/imp\n"
        "{\n"
        "    qer_editorimage models/monsters/imp/imp_d\n"
        "    noShadows\n"
        "    diffusemap  models/monsters/imp/imp_d\n"
        "    bumpmap     addnormals(models/monsters/imp/imp_local, "
        "heightmap(models/monsters/imp/imp_h, 4))\n"
        "    specularmap models/monsters/imp/imp_s\n"
        "    { blend add\n map models/monsters/imp/imp_glow\n alphaTest 0.5 }\n"
        "    { if ( parm7 > 0 )\n blend add\n map models/monsters/imp/imp_fx }\n"
        "}\n";

static void resolves_a_material_from_an_archive_with_fallbacks(void)
{
    char base[1024], path[1200];
    bytes mtr = text_bytes(IMP_MTR), d, local, h, s;
    const uint8_t d_px[3] = { 10, 20, 30 }, flat[3] = { 255, 128, 128 }, grey[1] = { 90 };
    const char *names[] = { "materials/imp.mtr", "models/monsters/imp/imp_d.tga",
                            "models/monsters/imp/imp_local.tga", "models/monsters/imp/imp_h.tga" };
    const bytes *data[] = { &mtr, &d, &local, &h };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;
    test_warnings log = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &log };

    tga_header(&d, 2, 1, 1, 24, 0);
    put(&d, d_px, 3);
    tga_header(&local, 2, 1, 1, 24, 0);
    put(&local, flat, 3); /* BGR: blue 255 */
    tga_header(&h, 3, 1, 1, 8, 0);
    put(&h, grey, 1);
    tga_header(&s, 3, 1, 1, 8, 0);
    put(&s, grey, 1);
    (void)s;
    fresh_base(base, sizeof base, "resolve");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 4, names, data);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    EXPECT_EQ_INT(mc_material_set_count(set), 1);
    EXPECT_EQ_STR(mc_material_set_name(set, 0), "models/monsters/imp/imp");
    EXPECT_EQ_INT(log.count, 0); /* nothing is parsed before it is used */
    EXPECT_EQ_INT(mc_material_set_parsed(set), 0);

    EXPECT(mc_material_set_find(set, "models/monsters/imp/nothing", &st, &err) == NULL);
    EXPECT_EQ_INT(st, MC_OK);
    m = mc_material_set_find(set, "Models\\Monsters\\Imp\\Imp.tga", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    EXPECT_EQ_INT(mc_material_set_parsed(set), 1);
    EXPECT_EQ_INT(log.count, 1); /* qer_editorimage, when the material is parsed */
    EXPECT_EQ_INT(log.first[0].line, 4);
    EXPECT_EQ_INT(log.first[0].col, 5);
    snprintf(path, sizeof path, "%s/pak000.pk4:materials/imp.mtr", base);
    EXPECT_EQ_STR(log.first[0].file, path);
    EXPECT(m == mc_material_set_find(set, "models/monsters/imp/imp", &st, &err)); /* cached */
    EXPECT_EQ_STR(m->name, "models/monsters/imp/imp");
    EXPECT_EQ_STR(m->file, path);
    EXPECT_EQ_INT(m->line, 2);
    EXPECT(m->lit && m->no_shadows && !m->two_sided);
    EXPECT(m->diffuse.present && !m->diffuse.fell_back);
    px_is(&m->diffuse.image, 0, 0, 30, 20, 10, 255);
    EXPECT_CONTAINS(m->diffuse.sources, "pak000.pk4:models/monsters/imp/imp_d.tga");
    /* The normal map: the flat (1,0,0) local plus a heightmap of a 1x1 (flat) image. */
    EXPECT(m->normal.present && !m->normal.fell_back);
    EXPECT_EQ_STR(m->normal.program, "addnormals(models/monsters/imp/imp_local, "
                                     "heightmap(models/monsters/imp/imp_h, 4))");
    EXPECT(m->normal.image.width == 1);
    px_is(&m->normal.image, 0, 0, 128, 128, 255, 255); /* (0,0,1) + (0,0) */
    EXPECT_CONTAINS(m->normal.sources, "imp_local.tga; ");
    EXPECT_CONTAINS(m->normal.sources, "imp_h.tga");
    /* imp_s is missing: _default, and the record says so. */
    EXPECT(m->specular.present && m->specular.fell_back);
    EXPECT_EQ_STR(m->specular.sources, "_default (missing models/monsters/imp/imp_s)");
    ASSERT(m->num_layers == 2); /* the stage under "if" is kept, evaluated per frame */
    EXPECT(m->layers[0].map.fell_back);
    EXPECT_EQ_INT(m->layers[0].blend.src, MC_BLEND_ONE);
    EXPECT_EQ_INT(m->layers[0].blend.dst, MC_BLEND_ONE);
    EXPECT_NEAR(m->layers[0].alpha_test, 0.5, 0);
    EXPECT_NEAR(m->alpha_test, 0.0, 0);
    /* parm7 > 0: with Doom's default parm7 (0) the second layer is not drawn; with 1 it is */
    {
        float regs[64], parms[12] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
        mc_stage_state ss;

        ASSERT(m->expr.num_regs <= 64);
        mc_material_eval(m, 0.0f, parms, regs);
        mc_material_layer_state(m, 1, regs, &ss);
        EXPECT(!ss.visible);
        mc_material_layer_state(m, 0, regs, &ss);
        EXPECT(ss.visible);
        parms[7] = 1.0f;
        mc_material_eval(m, 0.0f, parms, regs);
        mc_material_layer_state(m, 1, regs, &ss);
        EXPECT(ss.visible);
    }
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

static void later_archives_and_loose_files_override_materials(void)
{
    char base[1024], path[1200];
    bytes m0 = text_bytes("a { diffusemap from000 }\nb { diffusemap from000 }\n");
    bytes m1 = text_bytes("a { diffusemap from001 }\n");
    const char *n0[] = { "materials/x.mtr" }, *n1[] = { "materials/x.mtr" };
    const bytes *d0[] = { &m0 }, *d1[] = { &m1 };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;

    fresh_base(base, sizeof base, "override");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 1, n0, d0);
    snprintf(path, sizeof path, "%s/pak001.pk4", base);
    make_pk4(path, 1, n1, d1);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    /* pak001's materials/x.mtr replaces pak000's whole file: "b" is gone. */
    EXPECT_EQ_INT(mc_material_set_count(set), 1);
    m = mc_material_set_find(set, "a", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "from001");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);

    snprintf(path, sizeof path, "%s/materials", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/materials/X.MTR", base);
    write_file(path, "a { diffusemap loose }\n", 23);
    snprintf(path, sizeof path, "%s/materials/y.mtr", base);
    write_file(path, "a { diffusemap later_file }\nc { }\n", 34);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    EXPECT_EQ_INT(mc_material_set_count(set), 2); /* a (first file wins) and c */
    m = mc_material_set_find(set, "a", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "loose");
    m = mc_material_set_find(set, "c", &st, &err);
    ASSERT(m);
    EXPECT(!m->lit && !m->diffuse.present && m->diffuse.image.pixels == NULL);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);

    /* A parse error in a used material: one warning naming the file and the position inside
     * it, and the material becomes Doom's default one (blend blend, map _default). An unused
     * broken one (u) says nothing. */
    write_file(path, "b {\n  { blend nope }\n}\nu { { map } } }\n", 39);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    {
        test_warnings log = { 0 };
        mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &log };

        ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
        EXPECT_EQ_INT(log.count, 0);
        m = mc_material_set_find(set, "b", &st, &err);
        ASSERT_OK(st, &err);
        ASSERT(m);
        EXPECT_EQ_INT(log.count, 1);
        EXPECT_EQ_STR(log.first[0].file, path);
        EXPECT_EQ_INT(log.first[0].line, 2);
        EXPECT_EQ_INT(log.first[0].col, 11);
        EXPECT_CONTAINS(log.first[0].msg, "drawn as the default material");
        EXPECT(!m->lit);
        ASSERT(m->num_layers == 1);
        EXPECT_EQ_INT(m->layers[0].blend.src, MC_BLEND_SRC_ALPHA);
        EXPECT_EQ_INT(m->layers[0].blend.dst, MC_BLEND_ONE_MINUS_SRC_ALPHA);
        EXPECT_EQ_STR(m->layers[0].map.program, "_default");
        EXPECT_EQ_STR(m->file, path);
        EXPECT_EQ_INT(m->line, 1);
        EXPECT(mc_material_set_find(set, "b", &st, &err) == m); /* warned once */
        EXPECT_EQ_INT(log.count, 1);
        EXPECT_EQ_INT(mc_material_set_parsed(set), 1);
        mc_material_set_destroy(set);
    }
    mc_vfs_destroy(v);
}

/* Doom's declaration manager reads the .mtr files of materials/, .skin of skins/, .sndshd of
 * sound/, .def of def/, .fx of fx/, .prt of particles/, .af of af/ and .pda of newpdas/, in
 * that order (DeclManager.cpp,
 * Game_local.cpp RegisterDeclFolder), each file's untyped declarations of the folder's type; a
 * type word declares any type anywhere, one namespace per type, the first declaration of a
 * name winning. Tables are found in that namespace too (Material.cpp, FindType(DECL_TABLE)). */
static void declarations_are_found_in_every_folder_the_engine_reads(void)
{
    static const struct {
        const char *dir, *file, *text;
    } files[] = {
        /* a material in a .def file, typed; the entityDef around it is not one */
        { "def", "a.def",
          "entityDef monster { \"model\" \"x\" }\nmaterial models/from_def { diffusemap one }\n"
          "skin skins/from_def { a b }\n" },
        /* untyped in fx/ is an fx, not a material */
        { "fx", "b.fx",
          "models/not_a_material { diffusemap two }\n"
          "material models/from_fx { diffusemap three }\n" },
        /* the first declaration wins: materials/ is read before def/, skins/ before newpdas/ */
        { "materials", "z.mtr",
          "models/dup { diffusemap from_materials }\n"
          "models/uses_table { { blend add map _white red far[0] } }\n" },
        { "particles", "c.prt",
          "material models/dup { diffusemap from_particles }\n"
          "table far { { 0.25, 0.75 } }\n" },
        { "af", "d.af", "table far { { 0.5 } }\nmaterial models/from_af { diffusemap four }\n" },
        { "newpdas", "e.pda", "skin skins/from_pda { c d }\n" },
        { "skins", "s.skin", "skins/plain { e f }\n" },
        { "sound", "s.sndshd", "material models/from_sound { diffusemap five }\n" },
    };
    char base[1024], path[1300];
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    const mc_skin *sk;
    mc_status st;
    mc_error err;

    fresh_base(base, sizeof base, "decl_folders");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", base, files[i].dir);
        mkdir_p(path);
        snprintf(path, sizeof path, "%s/%s/%s", base, files[i].dir, files[i].file);
        write_file(path, files[i].text, strlen(files[i].text));
    }
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    /* from_def, from_fx, dup, uses_table, from_af, from_sound: 6 materials */
    EXPECT_EQ_INT(mc_material_set_count(set), 6);
    EXPECT_EQ_INT(mc_material_set_parsed(set), 0); /* none parsed until asked for */
    m = mc_material_set_find(set, "models/from_def", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "one");
    m = mc_material_set_find(set, "models/from_fx", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "three");
    m = mc_material_set_find(set, "models/from_sound", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "five");
    EXPECT(mc_material_set_find(set, "models/not_a_material", &st, &err) == NULL);
    ASSERT_OK(st, &err);
    m = mc_material_set_find(set, "models/dup", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "from_materials");
    /* the table of another file: particles/ comes before af/, so far is { 0.25, 0.75 } */
    m = mc_material_set_find(set, "models/uses_table", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    ASSERT(m->expr.num_tables == 1);
    EXPECT_EQ_INT(m->expr.tables[0].num_values, 2);
    EXPECT(m->expr.tables[0].values[0] == 0.25f && m->expr.tables[0].values[1] == 0.75f);
    sk = mc_material_set_skin(set, "skins/from_def", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "a"), "b");
    sk = mc_material_set_skin(set, "skins/from_pda", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "c"), "d");
    sk = mc_material_set_skin(set, "skins/plain", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "e"), "f");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

static void scene_submeshes_take_declared_materials(void)
{
    char base[1100], dir[1024], path[1400], cwd[512], scene[4096];
    mc_scene s;
    mc_scene_materials sm;
    mc_error err;

    ASSERT(getcwd(cwd, sizeof cwd));
    fresh_base(dir, sizeof dir, "scene_mat");
    snprintf(base, sizeof base, "%s/base", dir);
    snprintf(path, sizeof path, "%s/materials", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/materials/skin.mtr", base);
    write_file(path, "skin { diffusemap _white twoSided noSelfShadow }\n", 49);
    snprintf(path, sizeof path, "%s/a.md5scene", dir);
    snprintf(scene, sizeof scene,
             "md5scene 1\ncamera \"%s/data/scenes/still.md5camera\"\nbase \"base\"\n"
             "actor a { mesh \"%s/data/scenes/arm.md5mesh\" }\n"
             "actor b { mesh \"%s/data/scenes/arm.md5mesh\"\n"
             "  material \"SKIN\" \"%s/data/scenes/skin.png\" }\n",
             cwd, cwd, cwd, cwd);
    write_file(path, scene, strlen(scene));
    ASSERT_OK(mc_scene_load(path, NULL, &s, &err), &err);
    ASSERT_OK(mc_scene_materials_load(&s, NULL, &sm, &err), &err);
    EXPECT_EQ_INT(sm.num_actors, 2);
    ASSERT(sm.submesh[0][0]);
    EXPECT_EQ_STR(sm.submesh[0][0]->name, "skin");
    EXPECT(sm.submesh[0][0]->two_sided);
    EXPECT(sm.submesh[0][0]->no_self_shadow);
    EXPECT(sm.submesh[1][0] == NULL); /* the explicit material line wins */
    EXPECT_CONTAINS(s.actors[1].textures[0], "skin.png");
    mc_scene_materials_release(&sm);
    mc_scene_release(&s);
}

/* A material reads at most MC_LIMIT_MATERIAL_PIXELS in all, checked against each image's header
 * before it is decoded: big.tga is an 18-byte header declaring 16384 x 16384 (exactly the
 * limit) with no pixels. Alone it is within the budget and fails as a truncated image; after
 * the 2 x 2 small.tga (4 pixels) it is over the budget, an MC_ERR_LIMIT at its name in the .mtr
 * (line 1, column 27 of "m { diffusemap add(small, big) }"), and nothing is allocated for it. */
static void a_material_s_images_have_a_pixel_budget(void)
{
    static const uint8_t red[16] = { 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255 };
    const test_image small = { "small.tga", 2, 2, red };
    static const char *const texts[2] = { "m { diffusemap add(small, big) }",
                                           "m { diffusemap big }" };
    char base[1024], path[1400];
    mc_vfs *v = vfs_with("budget", 1, &small); /* only to write small.tga into the base */
    mc_error verr;
    bytes o;

    mc_vfs_destroy(v);
    test_tmp_path(base, sizeof base, "budget"); /* vfs_with's base */
    tga_header(&o, 2, 16384, 16384, 32, 0x28);
    snprintf(path, sizeof path, "%s/big.tga", base);
    write_file(path, o.b, o.n);
    v = NULL;
    EXPECT_OK(mc_vfs_open(base, &v, &verr), &verr); /* loose files are listed at open */
    if (!v)
        return;
    for (int i = 0; i < 2; i++) {
        mc_mtr_file f;
        mc_material mat;
        mc_error err;
        mc_status st = mc_mtr_parse(texts[i], strlen(texts[i]), "p.mtr", NULL, &f, &err);

        EXPECT_OK(st, &err);
        if (st != MC_OK)
            continue;
        st = mc_material_resolve(&f.decls[0], "p.mtr", v, &mat, &err);
        if (i == 0) {
            /* The error names the image file itself, without a position (a binary file). */
            EXPECT_EQ_INT(st, MC_ERR_LIMIT);
            EXPECT_EQ_STR(err.file, path);
            EXPECT_EQ_INT(err.line, 0);
            EXPECT_EQ_INT(err.col, 0);
            EXPECT_CONTAINS(err.msg, "16384x16384 pixels take its material past 268435456 pixels");
        } else {
            EXPECT_EQ_INT(st, MC_ERR_IMAGE);
        }
        if (st == MC_OK)
            mc_material_release(&mat);
        mc_mtr_release(&f);
    }
    mc_vfs_destroy(v);
}


/* Doom looks for dds/NAME.dds before NAME.tga (Image_load.cpp, ImageProgramStringToCompressed-
 * FileName): a '.' in a folder name becomes '_'. The red TGA loses to the green DDS; a name with
 * no DDS still finds its TGA. */
static void dds_images_come_before_tga(void)
{
    char base[1024], path[1300];
    bytes red, dds;
    static const uint8_t bgr_red[3] = { 0, 0, 255 };
    uint8_t hd[128] = { 'D', 'D', 'S', ' ', 124 };
    static const uint8_t green_bgra[4] = { 0, 255, 0, 255 };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;

    hd[8] = 0x07; hd[9] = 0x10;   /* flags */
    hd[12] = 1;                   /* height */
    hd[16] = 1;                   /* width */
    hd[76] = 32;                  /* pixel format size */
    hd[80] = 0x41;                /* RGB | ALPHAPIXELS */
    hd[88] = 32;                  /* bits */
    hd[94] = 0xFF;                /* R mask 0x00FF0000 */
    hd[97] = 0xFF;                /* G mask 0x0000FF00 */
    hd[100] = 0xFF;               /* B mask 0x000000FF */
    hd[107] = 0xFF;               /* A mask 0xFF000000 */
    dds.n = 0;
    put(&dds, hd, 128);
    put(&dds, green_bgra, 4);
    tga_header(&red, 2, 1, 1, 24, 0);
    put(&red, bgr_red, 3);
    fresh_base(base, sizeof base, "dds");
    snprintf(path, sizeof path, "%s/materials", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/dds/textures/v1_5", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/textures/v1.5", base);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/materials/m.mtr", base);
    write_file(path, "m { diffusemap textures/v1.5/x }\nn { diffusemap textures/v1.5/y.tga }\n", 70);
    snprintf(path, sizeof path, "%s/textures/v1.5/x.tga", base);
    write_file(path, red.b, red.n);
    snprintf(path, sizeof path, "%s/textures/v1.5/y.tga", base);
    write_file(path, red.b, red.n);
    snprintf(path, sizeof path, "%s/dds/textures/v1_5/x.dds", base);
    write_file(path, dds.b, dds.n);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    m = mc_material_set_find(set, "m", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    px_is(&m->diffuse.image, 0, 0, 0, 255, 0, 255);
    EXPECT_CONTAINS(m->diffuse.sources, "dds/textures/v1_5/x.dds");
    m = mc_material_set_find(set, "n", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    px_is(&m->diffuse.image, 0, 0, 255, 0, 0, 255);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}


/* Doom rounds a loaded image's sides down to powers of two before any program runs
 * (Image_files.cpp, R_LoadImage; Image_process.cpp, R_ResampleTexture). 3x1 with red
 * 10, 50, 200 -> 2x1: fracstep = 3 * 65536 / 2 = 98304; p1 = texels 0 (24576 >> 16) and 1
 * (122880 >> 16), p2 = texels 1 (73728 >> 16) and 2 (172032 >> 16); one row, so both rows are
 * row 0: out0 = (10 + 50 + 10 + 50) >> 2 = 30, out1 = (50 + 200 + 50 + 200) >> 2 = 125.
 * A 5x3 image becomes 4x2; a 4x4 one stays as it is. */
static void images_are_rounded_down_to_powers_of_two(void)
{
    static const uint8_t r3[] = { 10, 0, 0, 255, 50, 0, 0, 255, 200, 0, 0, 255 };
    static uint8_t r53[5 * 3 * 4];
    const test_image ims[] = { { "r3.tga", 3, 1, r3 }, { "r53.tga", 5, 3, r53 } };
    mc_vfs *v = vfs_with("pow2", 2, ims);
    mc_image im;
    bool fb;

    ASSERT(v);
    ASSERT(run_prog(v, "r3", &im, &fb, NULL) == MC_OK);
    EXPECT(im.width == 2 && im.height == 1);
    px_is(&im, 0, 0, 30, 0, 0, 255);
    px_is(&im, 1, 0, 125, 0, 0, 255);
    mc_image_release(&im);
    ASSERT(run_prog(v, "r53", &im, &fb, NULL) == MC_OK);
    EXPECT(im.width == 4 && im.height == 2);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}


/* zeroclamp and alphazeroclamp set the outermost texels (Image_load.cpp, GenerateImage with
 * R_SetBorderTexels): of a 4x4 grey (90) image, the 12 border texels become (0, 0, 0, 255) or
 * (255, 255, 255, 0) and the 4 inside ones stay; clamp changes no texel. Stage colours land on
 * the maps: red .3 green .3 blue .3 on the specular stage. */
static void clamps_set_border_texels_and_colours_reach_maps(void)
{
    static uint8_t grey[4 * 4 * 4];
    const test_image ims[] = { { "g.tga", 4, 4, grey } };
    static const char text[] =
            "m { { blend diffusemap map g zeroclamp } { blend specularmap map g red .3 green .3 "
            "blue .3 clamp } { blend add map g alphazeroclamp maskDepth maskAlpha } }";
    mc_vfs *v;
    mc_mtr_file f;
    mc_material m;
    mc_error err;

    for (size_t i = 0; i < sizeof grey; i++)
        grey[i] = i % 4 == 3 ? 255 : 90;
    v = vfs_with("zeroclamp", 1, ims);
    ASSERT(v);
    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "z.mtr", NULL, &f, &err), &err);
    ASSERT_OK(mc_material_resolve(&f.decls[0], "z.mtr", v, &m, &err), &err);
    EXPECT_EQ_INT(m.diffuse.wrap, MC_WRAP_ZERO_CLAMP);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            bool border = x == 0 || y == 0 || x == 3 || y == 3;

            px_is(&m.diffuse.image, x, y, border ? 0 : 90, border ? 0 : 90, border ? 0 : 90, 255);
            px_is(&m.specular.image, x, y, 90, 90, 90, 255);
            if (border)
                px_is(&m.layers[0].map.image, x, y, 255, 255, 255, 0);
        }
    EXPECT_EQ_INT(m.specular.wrap, MC_WRAP_CLAMP);
    EXPECT_NEAR(m.specular.color[0], 0.3, 1e-6);
    EXPECT_NEAR(m.specular.color[2], 0.3, 1e-6);
    EXPECT_NEAR(m.diffuse.color[1], 1.0, 0);
    ASSERT(m.num_layers == 1);
    EXPECT_EQ_INT(m.layers[0].map.wrap, MC_WRAP_ALPHA_ZERO_CLAMP);
    EXPECT(m.layers[0].mask_depth && m.layers[0].mask_alpha && !m.layers[0].mask_red);
    mc_material_release(&m);
    mc_mtr_release(&f);
    mc_vfs_destroy(v);
}

int main(int argc, char **argv)
{
    static const test_case cases[] = {
        TEST_ENTRY(tga_reads_bottom_up_truecolour_24),
        TEST_ENTRY(tga_reads_top_down_32_with_an_id_field),
        TEST_ENTRY(tga_reads_grey_and_run_length),
        TEST_ENTRY(tga_rejects_what_it_does_not_read),
        TEST_ENTRY(vfs_loose_beats_later_archives_beat_earlier),
        TEST_ENTRY(vfs_refuses_lying_and_oversized_entries),
        TEST_ENTRY(heightmap_matches_doom_on_a_4x4_bump),
        TEST_ENTRY(addnormals_and_smoothnormals_match_hand_values),
        TEST_ENTRY(colour_programs_match_hand_values),
        TEST_ENTRY(builtin_images_are_doom_s),
        TEST_ENTRY(images_fall_back_tga_jpg_png_then_default),
        TEST_ENTRY(resolves_a_material_from_an_archive_with_fallbacks),
        TEST_ENTRY(later_archives_and_loose_files_override_materials),
        TEST_ENTRY(declarations_are_found_in_every_folder_the_engine_reads),
        TEST_ENTRY(scene_submeshes_take_declared_materials),
        TEST_ENTRY(dds_images_come_before_tga),
        TEST_ENTRY(images_are_rounded_down_to_powers_of_two),
        TEST_ENTRY(clamps_set_border_texels_and_colours_reach_maps),
        TEST_ENTRY(a_material_s_images_have_a_pixel_budget),
    };

    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
