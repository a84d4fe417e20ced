/* The DDS reader (image.h: mc_dds_probe, mc_dds_decode) on files built here, block by block,
 * against pixels decoded by hand with the rules stated in image.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/image.h>

#include "material_fixture.h"
#include "test.h"

typedef struct dds_file {
    uint8_t bytes[128 + 256];
    size_t len;
} dds_file;

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A header for w x h; fourcc NULL: uncompressed 32-bit BGRA. mips > 0 sets DDSD_MIPMAPCOUNT. */
static void header(dds_file *f, int w, int h, const char *fourcc, int mips)
{
    memset(f, 0, sizeof *f);
    memcpy(f->bytes, "DDS ", 4);
    put32(f->bytes + 4, 124);
    put32(f->bytes + 8, 0x1007u | (mips > 0 ? 0x20000u : 0));
    put32(f->bytes + 12, (uint32_t)h);
    put32(f->bytes + 16, (uint32_t)w);
    put32(f->bytes + 28, (uint32_t)mips);
    put32(f->bytes + 76, 32);
    if (fourcc) {
        put32(f->bytes + 80, 0x4);
        memcpy(f->bytes + 84, fourcc, 4);
    } else {
        put32(f->bytes + 80, 0x41); /* RGB | ALPHAPIXELS */
        put32(f->bytes + 88, 32);
        put32(f->bytes + 92, 0x00FF0000u);
        put32(f->bytes + 96, 0x0000FF00u);
        put32(f->bytes + 100, 0x000000FFu);
        put32(f->bytes + 104, 0xFF000000u);
    }
    put32(f->bytes + 108, 0x1000);
    f->len = 128;
}

static void add(dds_file *f, const uint8_t *b, size_t n)
{
    memcpy(f->bytes + f->len, b, n);
    f->len += n;
}

/* DXT1, four colours: c0 = 0x8000 (r5 16 -> 16 << 3 | 16 >> 2 = 132), c1 = 0x0400 (g6 32 ->
 * 32 << 2 | 32 >> 4 = 130). c0 > c1: c2 = ((2*132+0)/3, (0+130)/3, 0) = (88, 43, 0),
 * c3 = ((132+0)/3, (0+260)/3, 0) = (44, 86, 0). Row 0 takes indices 0 1 2 3 (byte 0xE4:
 * 00 01 10 11 from the low bits), rows 1-3 index 3 (0xFF). */
TEST(decodes_dxt1_four_colours)
{
    static const uint8_t block[8] = { 0x00, 0x80, 0x00, 0x04, 0xE4, 0xFF, 0xFF, 0xFF };
    dds_file f;
    mc_image im;
    mc_error err;
    int w, h;

    header(&f, 4, 4, "DXT1", 0);
    add(&f, block, 8);
    ASSERT_OK(mc_dds_probe(f.bytes, f.len, "a.dds", &w, &h, &err), &err);
    EXPECT(w == 4 && h == 4);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "a.dds", &im, &err), &err);
    px_is(&im, 0, 0, 132, 0, 0, 255);
    px_is(&im, 1, 0, 0, 130, 0, 255);
    px_is(&im, 2, 0, 88, 43, 0, 255);
    px_is(&im, 3, 0, 44, 86, 0, 255);
    px_is(&im, 0, 3, 44, 86, 0, 255);
    mc_image_release(&im);
}

/* DXT1, three colours and transparent: c0 = 0x001F (blue 255) <= c1 = 0xF800 (red 255):
 * c2 = ((0+255)/2, 0, (255+0)/2) = (127, 0, 127), c3 = (0, 0, 0, 0). A 6x5 image: two blocks
 * across, two down, the edge texels dropped; the right blocks take indices 3 (0xFF). */
TEST(decodes_dxt1_three_colours_and_transparent)
{
    static const uint8_t left[8] = { 0x1F, 0x00, 0x00, 0xF8, 0xE4, 0x00, 0x00, 0x00 };
    static const uint8_t right[8] = { 0x1F, 0x00, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF };
    dds_file f;
    mc_image im;
    mc_error err;

    header(&f, 6, 5, "DXT1", 0);
    add(&f, left, 8);
    add(&f, right, 8);
    add(&f, left, 8);
    add(&f, right, 8);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "b.dds", &im, &err), &err);
    EXPECT(im.width == 6 && im.height == 5);
    px_is(&im, 0, 0, 0, 0, 255, 255);
    px_is(&im, 1, 0, 255, 0, 0, 255);
    px_is(&im, 2, 0, 127, 0, 127, 255);
    px_is(&im, 3, 0, 0, 0, 0, 0);
    px_is(&im, 0, 1, 0, 0, 255, 255);
    px_is(&im, 5, 4, 0, 0, 0, 0);
    px_is(&im, 0, 4, 0, 0, 255, 255); /* row 0 of the second block row */
    mc_image_release(&im);
}

/* 3-bit DXT5 alpha indices: texel i (0..7) gets index i, texels 8..15 index 0. */
static void alpha_indices(uint8_t out[6])
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++)
        v |= (uint64_t)i << (3 * i);
    for (int i = 0; i < 6; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

/* DXT5, eight alphas: a0 = 255 > a1 = 0: a_k = (8 - k) * 255 / 7 for k = 2..7:
 * 1530/7 = 218, 1275/7 = 182, 1020/7 = 145, 765/7 = 109, 510/7 = 72, 255/7 = 36. The colour
 * block is white (c0 = 0xFFFF, indices 0). */
TEST(decodes_dxt5_eight_alphas)
{
    uint8_t block[16] = { 255, 0 };
    static const int want[16] = { 255, 0, 218, 182, 145, 109, 72, 36,
                                  255, 255, 255, 255, 255, 255, 255, 255 };
    dds_file f;
    mc_image im;
    mc_error err;

    alpha_indices(block + 2);
    block[8] = block[9] = 0xFF;
    header(&f, 4, 4, "DXT5", 0);
    add(&f, block, 16);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "c.dds", &im, &err), &err);
    for (int i = 0; i < 16; i++)
        px_is(&im, i % 4, i / 4, 255, 255, 255, want[i]);
    mc_image_release(&im);
}

/* DXT5, six alphas: a0 = 0 <= a1 = 255: a_k = (k - 1) * 255 / 5 for k = 2..5 (51, 102, 153,
 * 204), a6 = 0, a7 = 255. The colour block always uses four colours in DXT5: c0 = 0x0000 <
 * c1 = 0xFFFF, texel 0 index 3 = (0 + 2*255)/3 = 170 grey, opaque colour. */
TEST(decodes_dxt5_six_alphas)
{
    uint8_t block[16] = { 0, 255 };
    static const int want[8] = { 0, 255, 51, 102, 153, 204, 0, 255 };
    dds_file f;
    mc_image im;
    mc_error err;

    alpha_indices(block + 2);
    block[10] = block[11] = 0xFF; /* c1 = 0xFFFF */
    block[12] = 0x03;             /* texel 0: index 3 */
    header(&f, 4, 4, "DXT5", 0);
    add(&f, block, 16);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "d.dds", &im, &err), &err);
    px_is(&im, 0, 0, 170, 170, 170, want[0]);
    for (int i = 1; i < 8; i++)
        px_is(&im, i % 4, i / 4, 0, 0, 0, want[i]);
    mc_image_release(&im);
}

/* DXT3: 4-bit alphas times 17; texel 0 alpha 0x3 = 51, texel 1 alpha 0xF = 255. */
TEST(decodes_dxt3_alpha)
{
    uint8_t block[16] = { 0xF3 };
    dds_file f;
    mc_image im;
    mc_error err;

    block[8] = block[9] = 0xFF;
    header(&f, 4, 4, "DXT3", 0);
    add(&f, block, 16);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "e.dds", &im, &err), &err);
    px_is(&im, 0, 0, 255, 255, 255, 51);
    px_is(&im, 1, 0, 255, 255, 255, 255);
    px_is(&im, 2, 0, 255, 255, 255, 0);
    mc_image_release(&im);
}

/* Uncompressed BGRA with a mip chain: 2x1 then 1x1; bytes B G R A per texel. */
TEST(decodes_uncompressed_with_mips)
{
    static const uint8_t texels[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9 };
    dds_file f;
    mc_image im;
    mc_error err;

    header(&f, 2, 1, NULL, 2);
    add(&f, texels, 12);
    ASSERT_OK(mc_dds_decode(f.bytes, f.len, "f.dds", &im, &err), &err);
    px_is(&im, 0, 0, 3, 2, 1, 4);
    px_is(&im, 1, 0, 7, 6, 5, 8);
    mc_image_release(&im);
}

typedef struct golden {
    const char *what;
    void (*edit)(dds_file *f);
    const char *msg;
} golden;

static void g_magic(dds_file *f) { f->bytes[0] = 'X'; }
static void g_short(dds_file *f) { f->len = 100; }
static void g_size(dds_file *f) { put32(f->bytes + 4, 100); }
static void g_pf(dds_file *f) { put32(f->bytes + 76, 0); }
static void g_fourcc(dds_file *f) { memcpy(f->bytes + 84, "ATI2", 4); }
static void g_zero(dds_file *f) { put32(f->bytes + 16, 0); }
static void g_huge(dds_file *f) { put32(f->bytes + 16, 20000); }
static void g_cube(dds_file *f) { put32(f->bytes + 112, 0x200); }
static void g_mips(dds_file *f)
{
    put32(f->bytes + 8, 0x21007);
    put32(f->bytes + 28, 4); /* a 4x4 image has 3 levels: 4x4, 2x2, 1x1 */
}
static void g_mipdata(dds_file *f)
{
    put32(f->bytes + 8, 0x21007);
    put32(f->bytes + 28, 3); /* 3 levels of 8 bytes; the file holds one */
}
static void g_data(dds_file *f) { f->len -= 1; }

TEST(refuses_bad_headers)
{
    static const golden rows[] = {
        { "magic", g_magic, "cannot read 'g.dds': not a DDS file (no 'DDS ' magic)" },
        { "short", g_short, "cannot read 'g.dds': truncated header" },
        { "size", g_size, "cannot read 'g.dds': bad header size, expected 124" },
        { "pf", g_pf, "cannot read 'g.dds': bad pixel format size, expected 32" },
        { "fourcc", g_fourcc,
          "cannot read 'g.dds': unsupported FourCC 'ATI2' (DXT1, DXT3 and DXT5 are read)" },
        { "zero", g_zero, "cannot read 'g.dds': bad size 0x4" },
        { "huge", g_huge, "cannot read 'g.dds': too large: 20000x4, over 16384 pixels per side" },
        { "cube", g_cube, "cannot read 'g.dds': cube maps and volume textures are not supported" },
        { "mips", g_mips, "cannot read 'g.dds': 4 mip levels declared, a 4x4 image has at most 3" },
        { "mipdata", g_mipdata,
          "cannot read 'g.dds': truncated image data: 3 levels need 152 bytes, the file has 136" },
        { "data", g_data,
          "cannot read 'g.dds': truncated image data: 1 levels need 136 bytes, the file has 135" },
    };
    static const uint8_t block[8] = { 0 };

    for (size_t i = 0; i < TEST_COUNT(rows); i++) {
        dds_file f;
        mc_image im;
        mc_error err;
        int w = -1, h = -1;

        header(&f, 4, 4, "DXT1", 0);
        add(&f, block, 8);
        rows[i].edit(&f);
        EXPECT_EQ_INT(mc_dds_probe(f.bytes, f.len, "g.dds", &w, &h, &err), MC_ERR_IMAGE);
        EXPECT(w == 0 && h == 0);
        EXPECT_EQ_INT(mc_dds_decode(f.bytes, f.len, "g.dds", &im, &err), MC_ERR_IMAGE);
        if (strcmp(err.msg, rows[i].msg) != 0)
            test_fail(__FILE__, __LINE__, "row %s: '%s', expected '%s'", rows[i].what, err.msg,
                      rows[i].msg);
        EXPECT(im.pixels == NULL && im.width == 0);
    }
}
