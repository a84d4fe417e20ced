/* The image module: PNG written here and read back by stb_image (an independent decoder) gives
 * the same pixels; bad files and bad outputs fail cleanly, naming the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/image.h>

#include "test.h"

/* A w x h RGBA picture with every channel varying (so a filter or row mix-up shows), written
 * with a stride larger than w * 4 to check that padding is skipped. */
static uint8_t *make_pixels(int w, int h, size_t stride)
{
    uint8_t *px = calloc((size_t)h, stride);

    for (int y = 0; px && y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + (size_t)y * stride + (size_t)x * 4;

            p[0] = (uint8_t)(x * 7 + y);
            p[1] = (uint8_t)(y * 13);
            p[2] = (uint8_t)((x ^ y) * 29);
            p[3] = (uint8_t)(255 - x * 3);
        }
    return px;
}

static int file_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

/* Writes with the given alpha mode, reads back and compares every pixel. */
static void check_round_trip(int alpha)
{
    const int w = 37, h = 23;
    const size_t stride = (size_t)w * 4 + 12;
    uint8_t *px = make_pixels(w, h, stride);
    char path[512];
    mc_error err;
    mc_image img;
    int bad = 0;

    ASSERT(px);
    test_tmp_path(path, sizeof path, alpha ? "rgba.png" : "rgb.png");
    ASSERT_OK(mc_png_write(path, px, w, h, stride, alpha, &err), &err);
    ASSERT_OK(mc_image_load(path, &img, &err), &err);
    EXPECT_EQ_INT(img.width, w);
    EXPECT_EQ_INT(img.height, h);
    EXPECT_EQ_INT(img.channels, 4);
    for (int y = 0; y < h && img.pixels; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *a = px + (size_t)y * stride + (size_t)x * 4;
            const uint8_t *b = img.pixels + (size_t)y * img.stride + (size_t)x * 4;

            /* RGB files read back with alpha 255 (stb fills the missing channel). */
            bad += a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || (alpha ? a[3] : 255) != b[3];
        }
    EXPECT_EQ_INT(bad, 0);
    mc_image_release(&img);
    free(px);
    remove(path);
}

TEST(rgba_png_reads_back_identical)
{
    check_round_trip(1);
}

TEST(rgb_png_reads_back_identical_with_opaque_alpha)
{
    check_round_trip(0);
}

/* A frame like a render's: flat background, a gradient band and noise, 640x360 (several zlib
 * blocks and every filter stb may pick). The pixels come from a xorshift generator here, not
 * from the writer; stb_image, an independent decoder, must return them exactly. */
TEST(large_varied_frame_reads_back_identical)
{
    const int w = 640, h = 360;
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    uint32_t s = 2463534242u;
    mc_png_buf buf = { 0 };
    mc_error err;
    mc_image img;

    ASSERT(px);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        size_t y = i / (size_t)w;
        uint8_t *p = px + i * 4;

        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        p[0] = y < 120 ? 30 : y < 240 ? (uint8_t)(i % (size_t)w) : (uint8_t)s;
        p[1] = y < 120 ? 60 : y < 240 ? (uint8_t)y : (uint8_t)(s >> 8);
        p[2] = y < 120 ? 90 : (uint8_t)(s >> 16 & 7);
        p[3] = (uint8_t)(y < 240 ? 255 : s >> 24);
    }
    ASSERT_OK(mc_png_encode(px, w, h, (size_t)w * 4, 1, &buf, &err), &err);
    ASSERT_OK(mc_image_decode(buf.data, buf.len, "varied.png", &img, &err), &err);
    EXPECT_EQ_INT(img.width, w);
    EXPECT_EQ_INT(img.height, h);
    EXPECT(img.pixels && memcmp(img.pixels, px, (size_t)w * (size_t)h * 4) == 0);
    mc_image_release(&img);
    mc_png_buf_release(&buf);
    free(px);
}

/* One buffer reused: the second PNG replaces the first (a 1x1 then a 2x1 image read back). */
TEST(reused_buffer_holds_the_latest_png)
{
    static const uint8_t one[4] = { 1, 2, 3, 4 }, two[8] = { 5, 6, 7, 8, 9, 10, 11, 12 };
    mc_png_buf buf = { 0 };
    mc_error err;
    mc_image img;

    ASSERT_OK(mc_png_encode(one, 1, 1, 4, 1, &buf, &err), &err);
    ASSERT_OK(mc_png_encode(two, 2, 1, 8, 1, &buf, &err), &err);
    EXPECT_EQ_INT(buf.cap >= buf.len, 1);
    ASSERT_OK(mc_image_decode(buf.data, buf.len, "two.png", &img, &err), &err);
    EXPECT_EQ_INT(img.width, 2);
    EXPECT(img.pixels && memcmp(img.pixels, two, 8) == 0);
    mc_image_release(&img);
    mc_png_buf_release(&buf);
}

/* The PNG layout by hand: 8-byte signature, IHDR of length 13 with width, height, depth 8 and
 * colour type 6 (RGBA) or 2 (RGB), and an IEND chunk (length 0, CRC 0xAE426082) at the end. */
TEST(encoded_png_has_the_standard_layout)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const uint8_t iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82 };
    uint8_t px[3 * 2 * 4] = { 0 };
    mc_png_buf buf = { 0 };
    mc_error err;

    ASSERT_OK(mc_png_encode(px, 3, 2, 12, 0, &buf, &err), &err);
    ASSERT(buf.len > 8 + 25 + 12);
    EXPECT(memcmp(buf.data, sig, 8) == 0);
    EXPECT(memcmp(buf.data + 8, "\0\0\0\x0dIHDR\0\0\0\x03\0\0\0\x02\x08\x02", 18) == 0);
    EXPECT(memcmp(buf.data + buf.len - 12, iend, 12) == 0);
    mc_png_buf_release(&buf);
}

/* A 2x2 32-bit TGA written by hand: 18-byte header (type 2 = uncompressed true colour, width
 * and height 2, depth 32, descriptor bit 5 = origin top-left), then BGRA pixels. Doom's TGAs
 * are usually stored bottom row first (bit 5 clear); either way the image's top row must come
 * first in memory: red, green over blue, white. */
static void check_tga(int top_first)
{
    static const uint8_t top[8] = { 0, 0, 255, 255, 0, 255, 0, 255 };        /* red, green */
    static const uint8_t bottom[8] = { 255, 0, 0, 255, 255, 255, 255, 255 }; /* blue, white */
    static const uint8_t want[16] = { 255, 0, 0,   255, 0,   255, 0,   255,
                                      0,   0, 255, 255, 255, 255, 255, 255 };
    uint8_t file[18 + 16] = { 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 32, 0x08 };
    mc_image img;
    mc_error err;

    file[17] = (uint8_t)(top_first ? 0x28 : 0x08);
    memcpy(file + 18, top_first ? top : bottom, 8);
    memcpy(file + 26, top_first ? bottom : top, 8);
    ASSERT_OK(mc_tga_decode(file, sizeof file, "hand.tga", &img, &err), &err);
    EXPECT_EQ_INT(img.width, 2);
    EXPECT_EQ_INT(img.height, 2);
    EXPECT(memcmp(img.pixels, want, 16) == 0);
    mc_image_release(&img);
}

TEST(tga_rows_load_top_first_whatever_their_origin)
{
    check_tga(0);
    check_tga(1);
}

TEST(truncated_png_fails_naming_the_file)
{
    uint8_t px[8 * 8 * 4];
    char path[512], cut[512];
    mc_error err;
    mc_image img;
    char *data;
    size_t len;
    FILE *f;

    memset(px, 200, sizeof px);
    test_tmp_path(path, sizeof path, "whole.png");
    test_tmp_path(cut, sizeof cut, "cut.png");
    ASSERT_OK(mc_png_write(path, px, 8, 8, 32, 1, &err), &err);
    ASSERT_OK(mc_read_file(path, &data, &len, &err), &err);
    f = fopen(cut, "wb");
    ASSERT(f);
    EXPECT_EQ_INT(fwrite(data, 1, len / 2, f), len / 2);
    fclose(f);
    free(data);

    EXPECT_EQ_INT(mc_image_load(cut, &img, &err), MC_ERR_IMAGE);
    EXPECT_EQ_STR(err.file, cut);
    EXPECT_CONTAINS(err.msg, "cannot read '");
    EXPECT_CONTAINS(err.msg, "cut.png': ");
    EXPECT(img.pixels == NULL);
    remove(path);
    remove(cut);
}

/* Every prefix of a valid PNG, and the PNG with any single byte inverted, decodes to an error
 * or to an image of the right size: never a crash or an out-of-bounds read (run under ASan). */
TEST(damaged_pngs_fail_or_decode_safely)
{
    const int w = 9, h = 7;
    uint8_t *px = make_pixels(w, h, (size_t)w * 4);
    mc_png_buf buf = { 0 };
    mc_error err;
    int odd = 0;

    ASSERT(px);
    ASSERT_OK(mc_png_encode(px, w, h, (size_t)w * 4, 1, &buf, &err), &err);
    for (size_t n = 0; n <= buf.len + buf.len; n++) {
        mc_image img;
        size_t len = n < buf.len ? n : buf.len;
        mc_status s;

        if (n >= buf.len && n < buf.len + buf.len)
            buf.data[n - buf.len] ^= 0xff;
        s = mc_image_decode(buf.data, len, "damaged.png", &img, &err);
        if (n >= buf.len && n < buf.len + buf.len)
            buf.data[n - buf.len] ^= 0xff;
        if (s == MC_OK)
            odd += img.width != w || img.height != h;
        else
            odd += s != MC_ERR_IMAGE || img.pixels != NULL;
        mc_image_release(&img);
    }
    EXPECT_EQ_INT(odd, 0);
    mc_png_buf_release(&buf);
    free(px);
}

TEST(missing_image_file_is_an_io_error)
{
    mc_error err;
    mc_image img;

    EXPECT_EQ_INT(mc_image_load("data/no-such-image.png", &img, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "no-such-image.png");
}

TEST(garbage_bytes_are_an_image_error)
{
    static const char junk[] = "this is not an image at all";
    mc_error err;
    mc_image img;

    EXPECT_EQ_INT(mc_image_decode(junk, sizeof junk, "junk.bin", &img, &err), MC_ERR_IMAGE);
    EXPECT_CONTAINS(err.msg, "cannot read 'junk.bin': ");
}

/* image.h: a side over MC_IMAGE_MAX_SIDE (16384) is refused as MC_ERR_IMAGE "too large", like
 * a damaged size field. The PNG is only its signature and an IHDR chunk for 16385 x 1 RGBA
 * (stb_image rejects the size while reading the IHDR; it does not check chunk CRCs). */
TEST(image_wider_than_the_limit_is_refused)
{
    static const unsigned char png[] = {
        0x89, 'P',  'N',  'G',  0x0d, 0x0a, 0x1a, 0x0a, /* signature */
        0,    0,    0,    13,   'I',  'H',  'D',  'R',  /* IHDR, 13 bytes */
        0,    0,    0x40, 0x01, 0,    0,    0,    1,    /* width 16385, height 1 */
        8,    6,    0,    0,    0,                      /* 8 bits, RGBA, no interlace */
        0,    0,    0,    0,                            /* CRC (not checked) */
    };
    mc_error err;
    mc_image img;

    EXPECT_EQ_INT(mc_image_decode(png, sizeof png, "wide.png", &img, &err), MC_ERR_IMAGE);
    EXPECT_CONTAINS(err.msg, "too large");
    EXPECT(img.pixels == NULL);
}

TEST(missing_folder_fails_and_leaves_nothing)
{
    uint8_t px[4 * 4 * 4] = { 0 };
    char dir[512], path[600];
    mc_error err;

    test_tmp_path(dir, sizeof dir, "no-such-folder");
    snprintf(path, sizeof path, "%s/frame.png", dir);
    EXPECT_EQ_INT(mc_png_write(path, px, 4, 4, 16, 1, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "frame.png");
    EXPECT(!file_exists(path));
    EXPECT(!file_exists(dir));
}

TEST(bad_sizes_and_strides_are_rejected)
{
    uint8_t px[16] = { 0 };
    mc_png_buf buf = { 0 };
    mc_error err;

    EXPECT_EQ_INT(mc_png_encode(px, 0, 1, 16, 1, &buf, &err), MC_ERR_LIMIT);
    EXPECT_EQ_INT(mc_png_encode(px, MC_IMAGE_MAX_SIDE + 1, 1, 1u << 20, 1, &buf, &err),
                  MC_ERR_LIMIT);
    EXPECT_EQ_INT(mc_png_encode(px, 4, 1, 15, 1, &buf, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(mc_png_encode(NULL, 4, 1, 16, 1, &buf, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(buf.len, 0);
    EXPECT(buf.data == NULL);
    mc_png_buf_release(&buf);
}

TEST(created_image_is_transparent_black)
{
    mc_image img;
    mc_error err;
    int nonzero = 0;

    ASSERT_OK(mc_image_create(5, 3, &img, &err), &err);
    EXPECT_EQ_INT(img.stride, 20);
    for (size_t i = 0; i < 5 * 3 * 4; i++)
        nonzero += img.pixels[i] != 0;
    EXPECT_EQ_INT(nonzero, 0);
    mc_image_release(&img);
    mc_image_release(&img);
    EXPECT(img.pixels == NULL);
    EXPECT_EQ_INT(mc_image_create(0, 3, &img, &err), MC_ERR_LIMIT);
}

/* The PNG path allocates only for the first frame of a size: the second and third encodes of
 * 1280x720 frames (RGB and RGBA) grow no block, and each PNG still decodes to its frame. */
TEST(png_encoding_reuses_its_memory)
{
    enum { W = 1280, H = 720 };
    uint8_t *px = malloc((size_t)W * H * 4);
    mc_png_buf buf = { 0 };
    mc_image back;
    mc_error err;

    ASSERT(px != NULL);
    for (int alpha = 0; alpha < 2; alpha++) {
        size_t after_first = 0;

        for (int frame = 0; frame < 3; frame++) {
            for (size_t i = 0; i < (size_t)W * H * 4; i++)
                px[i] = (uint8_t)((i * 7 + (size_t)frame * 13) >> (i % 4 == 3 ? 0 : 3));
            if (!alpha)
                for (size_t i = 3; i < (size_t)W * H * 4; i += 4)
                    px[i] = 255;
            ASSERT_OK(mc_png_encode(px, W, H, (size_t)W * 4, alpha, &buf, &err), &err);
            if (frame == 0)
                after_first = buf.allocations;
            else
                EXPECT_EQ_INT((long long)buf.allocations, (long long)after_first);
            ASSERT_OK(mc_image_decode(buf.data, buf.len, "frame", &back, &err), &err);
            EXPECT(memcmp(back.pixels, px, (size_t)W * H * 4) == 0);
            mc_image_release(&back);
        }
        EXPECT(after_first > 0);
    }
    mc_png_buf_release(&buf);
    EXPECT(buf.data == NULL && buf.allocations == 0);
    free(px);
}
