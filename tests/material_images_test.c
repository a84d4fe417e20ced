/* Reading a base folder's images: the TGA reader on files written byte by byte, the VFS (loose
 * files, .pk4 archives built here with libzip, override order, case folding, bounds), and every
 * image program against pixels worked out by hand (or, for the heightmap's fast inverse square
 * root, by tests/imgprog_reference.py, an independent Python reading of the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/vfs.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

#include "material_fixture.h"
#include "test.h"

/* ---------------------------------------------------------------- TGA */

TEST(tga_reads_bottom_up_truecolour_24)
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

TEST(tga_reads_top_down_32_with_an_id_field)
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

TEST(tga_reads_grey_and_run_length)
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

TEST(tga_rejects_what_it_does_not_read)
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

TEST(vfs_loose_beats_later_archives_beat_earlier)
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
    base_dir(base, "Models");
    base_file(base, "Models/A.txt", "loose a", 7);

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

TEST(vfs_refuses_lying_and_oversized_entries)
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

TEST(heightmap_matches_doom_on_a_4x4_bump)
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

TEST(addnormals_and_smoothnormals_match_hand_values)
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

TEST(colour_programs_match_hand_values)
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

TEST(builtin_images_are_doom_s)
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

TEST(images_fall_back_tga_jpg_png_then_default)
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
    base_dir(base, "t");
    stbi_write_png_to_func(write_to, &png, 1, 1, 4, green, 4);
    tga_header(&tga, 2, 1, 1, 24, 0);
    put(&tga, bgr, 3);
    base_file(base, "t/both.tga", tga.b, tga.n);
    /* The JPEGs are ImageMagick's (an independent encoder): 4x4, every pixel (250, 0, 0). */
    snprintf(cmd, sizeof cmd,
             "convert -size 4x4 xc:'rgb(250,0,0)' -quality 95 '%s/t/both.jpg' && "
             "cp '%s/t/both.jpg' '%s/t/onlyjpg.jpg'",
             base, base, base);
    ASSERT(system(cmd) == 0);
    base_file(base, "t/onlypng.png", png.b, png.n);
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
