/* Image reading through stb_image and PNG writing through stb_image_write, both compiled here
 * as file-local (static) code, with zlib as stb_image_write's deflate.
 *
 * stb_image_write's own deflate uses fixed Huffman codes only and is slow (~100 ms of CPU for a
 * rendered 1280x720 RGB frame). Its STBIW_ZLIB_COMPRESS hook hands the filtered rows to
 * png_deflate below instead. The hook's quality argument is stb's process-wide compression
 * level, which is never changed here (no stb knob is: level, forced filter and vertical flip
 * stay at their defaults, so concurrent writers cannot disturb each other); png_deflate ignores
 * it and always uses zlib level 1 with Z_RLE. Measured on five demo frames (CPU ms per frame and
 * bytes, RGB, the per-row adaptive filter stb always applies):
 *   1280x720   stb deflate 100 ms 725 kB; Z_RLE levels 1-3 33 ms 474 kB (identical bytes);
 *              default strategy level 1 34 ms 569 kB, 2 37 ms 551 kB, 3 48 ms 531 kB
 *   1920x1080  stb deflate 213 ms 1375 kB; Z_RLE 72 ms 894 kB; default level 1 74 ms 1102 kB
 * Most of what remains is stb trying all five filters on every row. */
#include <md5cine/image.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include <md5cine/fileio.h>

/* stb is third-party code: our warning set is for our code, so it is off around its headers. */
#define STB_WARNINGS_OFF                                             \
    _Pragma("GCC diagnostic push")                                   \
    _Pragma("GCC diagnostic ignored \"-Wconversion\"")               \
    _Pragma("GCC diagnostic ignored \"-Wsign-conversion\"")          \
    _Pragma("GCC diagnostic ignored \"-Wfloat-conversion\"")         \
    _Pragma("GCC diagnostic ignored \"-Wdouble-promotion\"")         \
    _Pragma("GCC diagnostic ignored \"-Wcast-qual\"")                \
    _Pragma("GCC diagnostic ignored \"-Wunused-function\"")          \
    _Pragma("GCC diagnostic ignored \"-Wimplicit-fallthrough\"")     \
    _Pragma("GCC diagnostic ignored \"-Wmissing-prototypes\"")       \
    _Pragma("GCC diagnostic ignored \"-Wshadow\"")

/* stb_image: static functions in this file only. Its failure reason is thread-local in C11.
 * No stb global is ever changed here (flip-on-load etc. keep their defaults). */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO /* files are read with mc_read_file, which bounds their size */
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#define STBI_ONLY_PNG /* the formats docs/ documents; TGA and DDS have readers of their own */
#define STBI_ONLY_JPEG
#define STBI_MAX_DIMENSIONS MC_IMAGE_MAX_SIDE
STB_WARNINGS_OFF
#include <stb_image.h>
#pragma GCC diagnostic pop

static unsigned char *png_deflate(unsigned char *data, int data_len, int *out_len, int quality);
static unsigned int png_crc32(unsigned char *data, int len);

/* Every allocation of an encode -- stb's filtered rows and output, zlib's state, the deflated
 * stream, the RGB copy -- comes from the blocks of the mc_png_buf being encoded into (the
 * thread's current one), so steady-state encoding allocates nothing. */
static _Thread_local mc_png_buf *scratch;

static void *scratch_alloc(size_t n);
static void *scratch_realloc(void *p, size_t n);
static void scratch_free(void *p);

/* stb_image_write: static functions in this file only, the PNG path from memory. Its settings
 * (static variables here) are only ever read. */
#define STBIW_MALLOC(sz)       scratch_alloc(sz)
#define STBIW_REALLOC(p, newsz) scratch_realloc(p, newsz)
#define STBIW_FREE(p)          scratch_free(p)
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#define STBIW_ZLIB_COMPRESS png_deflate
#define STBIW_CRC32         png_crc32
STB_WARNINGS_OFF
#include <stb_image_write.h>
#pragma GCC diagnostic pop
/* stb declares static functions it never defines in this configuration; GCC reports those at
 * the end of the file, after the pop. */
#pragma GCC diagnostic ignored "-Wunused-function"

mc_status mc_image_create(int width, int height, mc_image *img, mc_error *err)
{
    memset(img, 0, sizeof *img);
    if (width < 1 || height < 1 || width > MC_IMAGE_MAX_SIDE || height > MC_IMAGE_MAX_SIDE)
        return mc_error_set(err, MC_ERR_LIMIT, NULL, 0, 0,
                            "image size %dx%d is outside 1..%d per side", width, height,
                            MC_IMAGE_MAX_SIDE);
    img->pixels = calloc((size_t)width * (size_t)height, 4);
    if (!img->pixels)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a %dx%d image", width,
                            height);
    img->width = width;
    img->height = height;
    img->channels = 4;
    img->stride = (size_t)width * 4;
    return MC_OK;
}

static const unsigned char png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

static bool is_png(const unsigned char *p, size_t len)
{
    return len >= 8 && memcmp(p, png_signature, 8) == 0;
}

static long png_u32(const unsigned char *p)
{
    return (long)((unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
                  (unsigned long)p[2] << 8 | (unsigned long)p[3]);
}

/* A PNG's declared size: the first chunk must be IHDR (PNG spec 5.6), width and height its
 * first two 4-byte big-endian fields. False when the header is missing or cut short. */
static bool png_ihdr(const unsigned char *p, size_t len, long *w, long *h)
{
    if (len < 8 + 8 + 13 || png_u32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4) != 0)
        return false;
    *w = png_u32(p + 16);
    *h = png_u32(p + 20);
    return true;
}

/* True when data is a PNG whose chunks run past the end of the data before its IEND chunk:
 * a file cut short. stb_image gives no reason for some of these. */
static bool png_truncated(const unsigned char *p, size_t len)
{
    size_t at = 8;

    if (!is_png(p, len))
        return false;
    while (len - at >= 12) {
        size_t n = (size_t)png_u32(p + at);

        if (memcmp(p + at + 4, "IEND", 4) == 0)
            return false;
        if (n > len - at - 12)
            return true;
        at += n + 12;
    }
    return true;
}

static bool is_jpeg(const unsigned char *p, size_t len)
{
    return len >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF;
}

/* The most pixels len bytes of a PNG or JPEG can hold: deflate inflates at most 1032:1 and a
 * 1-bit PNG packs 8 pixels a byte; a JPEG spends at least 2 bits on an 8x8 block of one
 * component (a DC code and an end of block), 256 pixels a byte. */
static uint64_t most_pixels(bool png, size_t len)
{
    return png ? (uint64_t)len * 1032u * 8u : (uint64_t)len * 256u;
}

mc_status mc_image_probe(const void *data, size_t len, const char *name, int *w, int *h,
                         mc_error *err)
{
    int n = 0;

    *w = 0;
    *h = 0;
    if (!name)
        name = "<memory>";
    if (len > INT_MAX)
        return mc_error_set(err, MC_ERR_LIMIT, name, 0, 0, "cannot read '%s': file too large",
                            name);
    if (is_png(data, len)) {
        long pw, ph;

        if (!png_ihdr(data, len, &pw, &ph))
            return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0,
                                "cannot read '%s': no PNG header (IHDR)", name);
        if (pw < 1 || ph < 1 || pw > MC_IMAGE_MAX_SIDE || ph > MC_IMAGE_MAX_SIDE)
            return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0,
                                "cannot read '%s': too large: %ldx%ld, over %d pixels per side",
                                name, pw, ph, MC_IMAGE_MAX_SIDE);
        *w = (int)pw;
        *h = (int)ph;
        return MC_OK;
    }
    if (!is_jpeg(data, len))
        return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0,
                            "cannot read '%s': not a PNG or JPEG image", name);
    if (!stbi_info_from_memory(data, (int)len, w, h, &n)) {
        const char *why = stbi_failure_reason();

        *w = 0;
        *h = 0;
        return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0, "cannot read '%s': %s", name,
                            why && why[0] ? why : "not an image");
    }
    if (*w < 1 || *h < 1 || *w > MC_IMAGE_MAX_SIDE || *h > MC_IMAGE_MAX_SIDE) {
        mc_status st = mc_error_set(err, MC_ERR_IMAGE, name, 0, 0,
                                    "cannot read '%s': too large: %dx%d, over %d pixels per side",
                                    name, *w, *h, MC_IMAGE_MAX_SIDE);
        *w = 0;
        *h = 0;
        return st;
    }
    return MC_OK;
}

mc_status mc_image_decode(const void *data, size_t len, const char *name, mc_image *img,
                          mc_error *err)
{
    int w = 0, h = 0, n = 0;
    unsigned char *px;
    const char *why;
    mc_status st;

    memset(img, 0, sizeof *img);
    if (!name)
        name = "<memory>";
    st = mc_image_probe(data, len, name, &w, &h, err);
    if (st != MC_OK)
        return st;
    /* Nothing is allocated for more pixels than the file's bytes can hold. */
    if ((uint64_t)w * (uint64_t)h > most_pixels(is_png(data, len), len))
        return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0,
                            "cannot read '%s': declares %dx%d pixels, more than its %zu bytes "
                            "can hold",
                            name, w, h, len);
    px = stbi_load_from_memory(data, (int)len, &w, &h, &n, 4);
    if (!px) {
        why = stbi_failure_reason();
        if (png_truncated(data, len))
            why = "truncated image data";
        else if (!why || !why[0])
            why = "damaged image data";
        return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0, "cannot read '%s': %s", name, why);
    }
    img->width = w;
    img->height = h;
    img->channels = 4;
    img->stride = (size_t)w * 4;
    img->pixels = px; /* stbi_image_free is free(): STBI_MALLOC is left as malloc */
    return MC_OK;
}

/* The readers an image file's name chooses between. */
typedef enum image_reader { READ_STB, READ_TGA, READ_DDS } image_reader;

/* TGA has no signature: the name decides, and the strict reader reads it. */
static image_reader reader_of(const char *name)
{
    size_t n = name ? strlen(name) : 0;

    if (n > 4 && strcasecmp(name + n - 4, ".tga") == 0)
        return READ_TGA;
    if (n > 4 && strcasecmp(name + n - 4, ".dds") == 0)
        return READ_DDS;
    return READ_STB;
}

mc_status mc_image_file_probe(const void *data, size_t len, const char *name, int *w, int *h,
                              mc_error *err)
{
    const uint8_t *p = data;

    *w = *h = 0;
    switch (reader_of(name)) {
    case READ_TGA: /* the header's width and height, little-endian at 12 and 14 */
        if (len >= 18) {
            *w = p[12] | p[13] << 8;
            *h = p[14] | p[15] << 8;
        }
        return MC_OK;
    case READ_DDS:
        return mc_dds_probe(data, len, name, w, h, err);
    default:
        return mc_image_probe(data, len, name, w, h, err);
    }
}

mc_status mc_image_file_decode(const void *data, size_t len, const char *name, mc_image *img,
                               mc_error *err)
{
    switch (reader_of(name)) {
    case READ_TGA:
        return mc_tga_decode(data, len, name, img, err);
    case READ_DDS:
        return mc_dds_decode(data, len, name, img, err);
    default:
        return mc_image_decode(data, len, name, img, err);
    }
}

mc_status mc_image_load(const char *path, mc_image *img, mc_error *err)
{
    char *buf;
    size_t len;
    mc_status s;

    memset(img, 0, sizeof *img);
    s = mc_read_file(path, &buf, &len, err);
    if (s != MC_OK)
        return s;
    s = mc_image_file_decode(buf, len, path, img, err);
    free(buf);
    return s;
}

void mc_image_release(mc_image *img)
{
    if (!img)
        return;
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

/* The smallest free block of at least n bytes, else the largest free one grown to n. */
static void *scratch_alloc(size_t n)
{
    mc_png_buf *b = scratch;
    int best = -1, spare = -1;

    if (!b)
        return NULL;
    if (n == 0)
        n = 1;
    for (int i = 0; i < MC_PNG_SCRATCH_BLOCKS; i++) {
        if (b->block_used[i])
            continue;
        if (b->block_cap[i] >= n && (best < 0 || b->block_cap[i] < b->block_cap[best]))
            best = i;
        if (spare < 0 || b->block_cap[i] > b->block_cap[spare])
            spare = i;
    }
    if (best < 0 && spare >= 0) {
        void *p = realloc(b->block[spare], n);

        if (!p)
            return NULL;
        b->block[spare] = p;
        b->block_cap[spare] = n;
        b->allocations++;
        best = spare;
    }
    if (best < 0)
        return NULL;
    b->block_used[best] = 1;
    return b->block[best];
}

static int scratch_find(const void *p)
{
    for (int i = 0; scratch && p && i < MC_PNG_SCRATCH_BLOCKS; i++)
        if (scratch->block[i] == p)
            return i;
    return -1;
}

static void *scratch_realloc(void *p, size_t n)
{
    int i = scratch_find(p);
    void *q;

    if (i < 0)
        return p ? NULL : scratch_alloc(n);
    if (scratch->block_cap[i] >= n)
        return p;
    q = realloc(p, n);
    if (!q)
        return NULL;
    scratch->block[i] = q;
    scratch->block_cap[i] = n;
    scratch->allocations++;
    return q;
}

static void scratch_free(void *p)
{
    int i = scratch_find(p);

    if (i >= 0)
        scratch->block_used[i] = 0;
}

static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return scratch_alloc((size_t)items * size);
}

static void zlib_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    scratch_free(p);
}

void mc_png_buf_release(mc_png_buf *b)
{
    if (!b)
        return;
    for (int i = 0; i < MC_PNG_SCRATCH_BLOCKS; i++)
        free(b->block[i]);
    memset(b, 0, sizeof *b);
}

/* zlib level 1 with Z_RLE (see the top of this file); quality, stb's global level, is ignored.
 * Returns a zlib stream in a scratch block and its length, or NULL (out of memory) for stb to
 * report. */
static unsigned char *png_deflate(unsigned char *data, int data_len, int *out_len, int quality)
{
    z_stream zs;
    unsigned char *out;
    uLong bound;
    int zr;

    (void)quality;
    memset(&zs, 0, sizeof zs);
    zs.zalloc = zlib_alloc;
    zs.zfree = zlib_free;
    if (data_len < 0 || deflateInit2(&zs, 1, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK)
        return NULL;
    bound = deflateBound(&zs, (uLong)data_len);
    out = bound <= (uLong)INT_MAX - 64 ? scratch_alloc(bound) : NULL;
    if (!out) {
        deflateEnd(&zs);
        return NULL;
    }
    zs.next_in = data;
    zs.avail_in = (uInt)data_len;
    zs.next_out = out;
    zs.avail_out = (uInt)bound;
    zr = deflate(&zs, Z_FINISH);
    *out_len = (int)zs.total_out;
    deflateEnd(&zs);
    if (zr != Z_STREAM_END) {
        scratch_free(out);
        return NULL;
    }
    return out;
}

/* The PNG chunk CRC, by zlib (the same CRC-32, faster than stb's byte table). */
static unsigned int png_crc32(unsigned char *data, int len)
{
    return (unsigned int)crc32(0L, data, (uInt)len);
}

/* A w x h RGB copy of RGBA rows (alpha dropped), rows packed; NULL when out of memory. */
static uint8_t *pack_rgb(const uint8_t *rgba, int w, int h, size_t stride)
{
    uint8_t *rgb = scratch_alloc((size_t)w * (size_t)h * 3), *o = rgb;

    for (int y = 0; rgb && y < h; y++) {
        const uint8_t *p = rgba + (size_t)y * stride;

        for (int x = 0; x < w; x++, o += 3, p += 4) {
            o[0] = p[0];
            o[1] = p[1];
            o[2] = p[2];
        }
    }
    return rgb;
}

mc_status mc_png_encode(const uint8_t *rgba, int w, int h, size_t stride, int alpha,
                        mc_png_buf *out, mc_error *err)
{
    uint8_t *rgb = NULL;
    unsigned char *png;
    int len = 0;

    /* The previous PNG's block is free to reuse from here on. */
    memset(out->block_used, 0, sizeof out->block_used);
    out->data = NULL;
    out->len = out->cap = 0;
    if (w < 1 || h < 1 || w > MC_IMAGE_MAX_SIDE || h > MC_IMAGE_MAX_SIDE)
        return mc_error_set(err, MC_ERR_LIMIT, NULL, 0, 0,
                            "image size %dx%d is outside 1..%d per side", w, h, MC_IMAGE_MAX_SIDE);
    if (!rgba || stride < (size_t)w * 4 || stride > INT_MAX)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "bad PNG request (stride %zu for width %d)", stride, w);
    scratch = out;
    if (!alpha) {
        rgb = pack_rgb(rgba, w, h, stride);
        if (!rgb) {
            scratch = NULL;
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a %dx%d PNG", w,
                                h);
        }
    }
    png = alpha ? stbi_write_png_to_mem(rgba, (int)stride, w, h, 4, &len)
                : stbi_write_png_to_mem(rgb, w * 3, w, h, 3, &len);
    scratch_free(rgb);
    scratch = NULL;
    if (!png || len <= 0) {
        memset(out->block_used, 0, sizeof out->block_used);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a %dx%d PNG", w, h);
    }
    out->data = png;
    out->len = (size_t)len;
    out->cap = (size_t)len;
    return MC_OK;
}

mc_status mc_png_save(const char *path, const mc_png_buf *png, mc_error *err)
{
    mc_outfile of;
    mc_status s;

    s = mc_outfile_begin(&of, path, 1, err);
    if (s != MC_OK)
        return s;
    errno = 0;
    if (fwrite(png->data, 1, png->len, of.fp) != png->len) {
        int e = errno ? errno : EIO; /* the failing write's: ENOSPC on a full disk */

        mc_outfile_abort(&of);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write '%s': %s", path,
                            strerror(e));
    }
    return mc_outfile_commit(&of, err);
}

mc_status mc_png_write(const char *path, const uint8_t *rgba, int w, int h, size_t stride,
                       int alpha, mc_error *err)
{
    mc_png_buf buf = { 0 };
    mc_status s;

    s = mc_png_encode(rgba, w, h, stride, alpha, &buf, err);
    if (s == MC_OK) {
        s = mc_png_save(path, &buf, err);
    } else if (err) {
        char why[sizeof err->msg];

        snprintf(why, sizeof why, "%s", err->msg);
        mc_error_set(err, s, path, 0, 0, "cannot write '%s': %s", path, why);
    }
    mc_png_buf_release(&buf);
    return s;
}
