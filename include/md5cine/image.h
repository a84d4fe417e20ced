/* Images in memory, image files in (PNG, TGA, JPG and the other formats stb_image reads) and
 * PNG files out.
 *
 * Pixels are always 8-bit RGBA, rows top first. The PNG writer is this module's own: filtered
 * scanlines deflated by zlib at a level chosen per call. It keeps no state between calls (so
 * several threads may write at once), is lossless, and at 720p writes a frame several times
 * faster than stb_image_write's built-in deflate (see bench/render_bench.c). */
#ifndef MC_IMAGE_H
#define MC_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>

/* Largest width or height read or written; a larger image is MC_ERR_LIMIT. */
#define MC_IMAGE_MAX_SIDE 16384

/* Compression level used when a writer is given level 0: 1, the fastest (Up filter + zlib's
 * run-length deflate). On rendered 720p frames it takes ~10 ms against stb_image_write's ~56 ms,
 * for ~20% fewer bytes; levels 2-9 trade time for size (src/image.c, bench/render_bench.c). */
#define MC_PNG_LEVEL_DEFAULT 1

typedef struct mc_image {
    int width;       /* pixels */
    int height;      /* pixels */
    int channels;    /* always 4 (RGBA) */
    size_t stride;   /* bytes from one row to the next; width * 4 for images made here */
    uint8_t *pixels; /* RGBA8, top row first; owned by the image (mc_image_release) */
} mc_image;

/* Makes a width x height image with every byte 0 (transparent black). Fills *img on success;
 * on failure *img is zeroed. Errors: MC_ERR_LIMIT (a side < 1 or > MC_IMAGE_MAX_SIDE),
 * MC_ERR_NOMEM. */
mc_status mc_image_create(int width, int height, mc_image *img, mc_error *err);

/* Decodes an image file held in memory (PNG, TGA, JPG, BMP, ...) into RGBA8, top row first.
 * name is the file name used in error messages (may be NULL: "<memory>"). On failure *img is
 * zeroed and err says "cannot read 'name': <reason>" (MC_ERR_IMAGE) or names the size limit
 * (MC_ERR_LIMIT). The data is only read; the caller keeps it. */
mc_status mc_image_decode(const void *data, size_t len, const char *name, mc_image *img,
                          mc_error *err);

/* mc_image_decode on the whole file at path. Errors as mc_read_file (MC_ERR_IO) and
 * mc_image_decode, each naming path. */
mc_status mc_image_load(const char *path, mc_image *img, mc_error *err);

/* Frees the pixels and zeroes *img. img may be NULL; calling it twice is safe. */
void mc_image_release(mc_image *img);

/* A growable byte buffer holding one encoded PNG. Zero-initialise it; mc_png_encode reuses its
 * memory from call to call (it only grows), so a writer thread allocates nothing per frame once
 * the largest frame has been seen (zlib's own work state excepted). */
typedef struct mc_png_buf {
    uint8_t *data; /* owned; free with mc_png_buf_release */
    size_t len;    /* bytes of the last encoded PNG */
    size_t cap;    /* bytes allocated */
} mc_png_buf;

/* Encodes w x h RGBA8 pixels (rows top first, stride bytes apart, stride >= w * 4) as a PNG
 * into out (replacing what it held). alpha 0 writes RGB (the alpha bytes are dropped), 1 RGBA.
 * level: 1 (fastest) .. 9 (smallest, very slow), 0 = MC_PNG_LEVEL_DEFAULT. Errors:
 * MC_ERR_USAGE (bad stride or level), MC_ERR_LIMIT (a side < 1 or > MC_IMAGE_MAX_SIDE),
 * MC_ERR_NOMEM, MC_ERR_IMAGE (zlib failure); out->len is then 0. */
mc_status mc_png_encode(const uint8_t *rgba, int w, int h, size_t stride, int alpha, int level,
                        mc_png_buf *out, mc_error *err);

/* Frees the buffer's memory and zeroes it. b may be NULL. */
void mc_png_buf_release(mc_png_buf *b);

/* Writes bytes (an encoded PNG, or anything) to path through mc_outfile: a temporary name in
 * the same folder renamed into place, so a failure leaves no file. Errors: MC_ERR_IO naming
 * path (a missing folder, a full disk). */
mc_status mc_png_save(const char *path, const mc_png_buf *png, mc_error *err);

/* mc_png_encode into a temporary buffer, then mc_png_save. Errors: as those two, naming path. */
mc_status mc_png_write(const char *path, const uint8_t *rgba, int w, int h, size_t stride,
                       int alpha, int level, mc_error *err);

#endif
