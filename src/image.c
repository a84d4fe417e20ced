/* Image reading through stb_image (compiled here, file-local) and a PNG writer on zlib.
 *
 * Why not stb_image_write for PNG: its deflate is slow (fixed Huffman codes only), and its knobs
 * (compression level, forced filter, vertical flip) are process globals that its
 * STBIW_ZLIB_COMPRESS hook cannot see per call. Writing the few PNG chunks directly keeps the level
 * per call and the module free of mutable state.
 *
 * One filter for every row, chosen by level (measured on rendered frames, bench/render_bench.c):
 *   1      Up filter + zlib's run-length strategy: the fastest, and smaller than Sub or Up at
 *          zlib levels 1-3 (720p: 8 ms, 158 kB; stb_image_write's default: 57 ms, 197 kB);
 *   2..5   Paeth + run-length: ~45% slower, ~10% smaller (zlib levels 4-5 gain nothing);
 *   6..9   Paeth + zlib's default strategy at that level: 3x slower than 1, ~14% smaller; 9 is
 *          very slow for ~2% more.
 * stb's per-row adaptive choice costs a pass per filter for little gain on these images. */
#include <md5cine/image.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <md5cine/fileio.h>

/* stb_image: static functions in this file only. Its failure reason is thread-local in C11.
 * No stb global is ever changed here (flip-on-load etc. keep their defaults). */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO /* files are read with mc_read_file, which bounds their size */
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#define STBI_MAX_DIMENSIONS MC_IMAGE_MAX_SIDE
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#include <stb_image.h>
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

mc_status mc_image_decode(const void *data, size_t len, const char *name, mc_image *img,
                          mc_error *err)
{
    int w = 0, h = 0, n = 0;
    unsigned char *px;

    memset(img, 0, sizeof *img);
    if (!name)
        name = "<memory>";
    if (len > INT_MAX)
        return mc_error_set(err, MC_ERR_LIMIT, name, 0, 0, "cannot read '%s': file too large",
                            name);
    px = stbi_load_from_memory(data, (int)len, &w, &h, &n, 4);
    if (!px)
        return mc_error_set(err, MC_ERR_IMAGE, name, 0, 0, "cannot read '%s': %s", name,
                            stbi_failure_reason());
    img->width = w;
    img->height = h;
    img->channels = 4;
    img->stride = (size_t)w * 4;
    img->pixels = px; /* stbi_image_free is free(): STBI_MALLOC is left as malloc */
    return MC_OK;
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
    s = mc_image_decode(buf, len, path, img, err);
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

void mc_png_buf_release(mc_png_buf *b)
{
    if (!b)
        return;
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* Makes room for need more bytes after b->len. */
static int buf_reserve(mc_png_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 65536;
    uint8_t *p;

    if (b->len + need <= b->cap)
        return 1;
    while (cap < b->len + need)
        cap *= 2;
    p = realloc(b->data, cap);
    if (!p)
        return 0;
    b->data = p;
    b->cap = cap;
    return 1;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends a chunk header (length + type) whose data the caller writes next; returns the offset
 * of the type, which chunk_end's CRC starts from. Room must have been reserved. */
static size_t chunk_begin(mc_png_buf *b, const char type[4], uint32_t len)
{
    size_t at = b->len + 4;

    put_be32(b->data + b->len, len);
    memcpy(b->data + at, type, 4);
    b->len += 8;
    return at;
}

/* Appends the CRC of the chunk that started at type_at (type + data). */
static void chunk_end(mc_png_buf *b, size_t type_at)
{
    uLong crc = crc32(0L, b->data + type_at, (uInt)(b->len - type_at));

    put_be32(b->data + b->len, (uint32_t)crc);
    b->len += 4;
}

/* Packs one row of RGBA pixels into raw PNG bytes (RGBA, or RGB without the alpha). */
static void pack_row(const uint8_t *row, int w, int alpha, uint8_t *raw)
{
    if (alpha) {
        memcpy(raw, row, (size_t)w * 4);
        return;
    }
    for (int x = 0; x < w; x++, raw += 3, row += 4) {
        raw[0] = row[0];
        raw[1] = row[1];
        raw[2] = row[2];
    }
}

/* PNG's Paeth predictor: whichever of left, up, upper-left is closest to left + up - upleft. */
static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Writes the filtered scanline (filter byte first) of raw, whose previous row is prev (all
 * zero for the first row), into line. n bytes per row, bpp bytes per pixel. */
static void filter_row(const uint8_t *raw, const uint8_t *prev, size_t n, size_t bpp, int paeth_f,
                       uint8_t *line)
{
    uint8_t *o = line + 1;

    line[0] = paeth_f ? 4 : 2; /* Paeth or Up */
    if (!paeth_f) {
        for (size_t i = 0; i < n; i++)
            o[i] = (uint8_t)(raw[i] - prev[i]);
        return;
    }
    for (size_t i = 0; i < bpp; i++)
        o[i] = (uint8_t)(raw[i] - prev[i]); /* Paeth with no left neighbour is Up */
    for (size_t i = bpp; i < n; i++)
        o[i] = (uint8_t)(raw[i] - paeth(raw[i - bpp], prev[i], prev[i - bpp]));
}

/* Appends the IHDR chunk after the PNG signature. */
static int write_header(mc_png_buf *b, int w, int h, int alpha)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    size_t at;

    if (!buf_reserve(b, 8 + 25))
        return 0;
    memcpy(b->data + b->len, sig, 8);
    b->len += 8;
    at = chunk_begin(b, "IHDR", 13);
    put_be32(b->data + b->len, (uint32_t)w);
    put_be32(b->data + b->len + 4, (uint32_t)h);
    b->data[b->len + 8] = 8;             /* bit depth */
    b->data[b->len + 9] = alpha ? 6 : 2; /* colour type: RGBA or RGB */
    b->data[b->len + 10] = 0;            /* deflate */
    b->data[b->len + 11] = 0;            /* adaptive filtering (per-row filter byte) */
    b->data[b->len + 12] = 0;            /* no interlace */
    b->len += 13;
    chunk_end(b, at);
    return 1;
}

/* Starts zlib for a level as the file comment describes. */
static int deflate_start(z_stream *zs, int level)
{
    int strategy = level <= 5 ? Z_RLE : Z_DEFAULT_STRATEGY;

    memset(zs, 0, sizeof *zs);
    return deflateInit2(zs, level <= 5 ? 1 : level, Z_DEFLATED, 15, 8, strategy) == Z_OK;
}

/* Deflates every filtered row straight into one IDAT chunk sized by deflateBound. */
static mc_status write_idat(mc_png_buf *b, const uint8_t *rgba, int w, int h, size_t stride,
                            int alpha, int level, mc_error *err)
{
    size_t bpp = alpha ? 4 : 3, n = (size_t)w * bpp;
    z_stream zs;
    uint8_t *work, *raw, *prev, *line;
    size_t bound, at;
    int zr = Z_OK;

    if (!deflate_start(&zs, level))
        return mc_error_set(err, MC_ERR_IMAGE, NULL, 0, 0, "zlib cannot start (level %d)", level);
    bound = deflateBound(&zs, (uLong)((n + 1) * (size_t)h));
    work = calloc(3, n + 1); /* raw row, previous raw row (zero before the first), scanline */
    if (!work || bound > UINT32_MAX - 64 || !buf_reserve(b, 12 + bound + 12)) {
        free(work);
        deflateEnd(&zs);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a %dx%d PNG", w, h);
    }
    raw = work;
    prev = work + n + 1;
    line = work + 2 * (n + 1);
    at = chunk_begin(b, "IDAT", 0); /* length patched below */
    zs.next_out = b->data + b->len;
    zs.avail_out = (uInt)bound;
    for (int y = 0; y < h && zr == Z_OK; y++) {
        uint8_t *t;

        pack_row(rgba + (size_t)y * stride, w, alpha, raw);
        filter_row(raw, prev, n, bpp, level > 1, line);
        zs.next_in = line;
        zs.avail_in = (uInt)(n + 1);
        zr = deflate(&zs, y + 1 == h ? Z_FINISH : Z_NO_FLUSH);
        t = prev;
        prev = raw;
        raw = t;
    }
    free(work);
    deflateEnd(&zs);
    if (zr != Z_STREAM_END)
        return mc_error_set(err, MC_ERR_IMAGE, NULL, 0, 0, "zlib failed (%d)", zr);
    put_be32(b->data + at - 4, (uint32_t)zs.total_out);
    b->len += zs.total_out;
    chunk_end(b, at);
    return MC_OK;
}

mc_status mc_png_encode(const uint8_t *rgba, int w, int h, size_t stride, int alpha, int level,
                        mc_png_buf *out, mc_error *err)
{
    size_t at;
    mc_status s;

    out->len = 0;
    if (w < 1 || h < 1 || w > MC_IMAGE_MAX_SIDE || h > MC_IMAGE_MAX_SIDE)
        return mc_error_set(err, MC_ERR_LIMIT, NULL, 0, 0,
                            "image size %dx%d is outside 1..%d per side", w, h, MC_IMAGE_MAX_SIDE);
    if (!rgba || stride < (size_t)w * 4 || level < 0 || level > 9)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "bad PNG request (stride %zu for width %d, level %d)", stride, w,
                            level);
    if (level == 0)
        level = MC_PNG_LEVEL_DEFAULT;
    if (!write_header(out, w, h, alpha))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a PNG");
    s = write_idat(out, rgba, w, h, stride, alpha, level, err);
    if (s == MC_OK && !buf_reserve(out, 12))
        s = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a PNG");
    if (s != MC_OK) {
        out->len = 0;
        return s;
    }
    at = chunk_begin(out, "IEND", 0);
    chunk_end(out, at);
    return MC_OK;
}

mc_status mc_png_save(const char *path, const mc_png_buf *png, mc_error *err)
{
    mc_outfile of;
    mc_status s;

    s = mc_outfile_begin(&of, path, 1, err);
    if (s != MC_OK)
        return s;
    if (fwrite(png->data, 1, png->len, of.fp) != png->len) {
        mc_outfile_abort(&of);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write '%s'", path);
    }
    return mc_outfile_commit(&of, err);
}

mc_status mc_png_write(const char *path, const uint8_t *rgba, int w, int h, size_t stride,
                       int alpha, int level, mc_error *err)
{
    mc_png_buf buf = { 0 };
    mc_status s;

    s = mc_png_encode(rgba, w, h, stride, alpha, level, &buf, err);
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
