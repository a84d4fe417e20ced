/* Images in memory, image files in (PNG and JPEG through stb_image, TGA and DDS through
 * md5cine's own strict readers; no other format) and PNG files out.
 *
 * Pixels are always 8-bit RGBA, rows top first. PNGs are encoded by stb_image_write
 * (stbi_write_png_to_mem: its per-row adaptive filter choice and chunk layout) with zlib as its
 * deflate, always at zlib level 1 with the run-length strategy (Z_RLE): on the demo's rendered
 * frames that is ~3x faster than stb_image_write's own deflate and ~35% smaller (levels 1-3 give
 * identical bytes with Z_RLE; zlib's default strategy at levels 1-3 is no faster and 15-20%
 * larger; see src/image.c and bench/render_bench.c). The writer never changes stb_image_write's
 * process-wide settings and keeps no state between calls, so several threads may write at once.
 * Output is lossless. */
#ifndef MC_IMAGE_H
#define MC_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest width or height read or written; a larger image is MC_ERR_LIMIT. */
#define MC_IMAGE_MAX_SIDE MC_LIMIT_IMAGE_SIDE

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

/* The size an image file held in memory declares in its header (a PNG's IHDR, a JPEG's frame
 * header), read without decoding any pixel, so that a small file declaring a huge image costs
 * nothing. Only PNG and JPEG are read here (recognised by their signatures, whatever the
 * name); TGA and DDS have readers of their own below. name as for mc_image_decode. Errors:
 * MC_ERR_IMAGE "cannot read 'name': <reason>" ("not a PNG or JPEG image", a header cut
 * short, a side over MC_IMAGE_MAX_SIDE: reason "too large: WxH, over N pixels per side"),
 * MC_ERR_LIMIT (len over INT_MAX bytes); *w and *h are then 0. */
mc_status mc_image_probe(const void *data, size_t len, const char *name, int *w, int *h,
                         mc_error *err);

/* Decodes a PNG or JPEG file held in memory into RGBA8, top row first. The header is checked
 * first (mc_image_probe), and then against the file's size: a PNG inflates at most 1032:1 (and
 * packs at most 8 pixels a byte), a JPEG holds at most 256 pixels a byte, so nothing is
 * allocated for a declared size its bytes cannot hold ("declares WxH pixels, more than its N
 * bytes can hold"). name is the file name used in error messages (may be NULL: "<memory>").
 * On failure *img is zeroed and err says "cannot read 'name': <reason>": MC_ERR_IMAGE (not a
 * PNG or JPEG, damaged -- a PNG that ends before its last chunk: "truncated image data" --,
 * or too large), MC_ERR_LIMIT (len over INT_MAX bytes). The data is only read; the caller
 * keeps it. */
mc_status mc_image_decode(const void *data, size_t len, const char *name, mc_image *img,
                          mc_error *err);

/* Decodes a TGA file held in memory with md5cine's own strict reader (the one material images
 * go through): image types 2 (truecolour) and 10 (run-length truecolour) at 24 or 32 bits per
 * pixel (BGR, BGRA), 3 and 11 (grey, plain and run-length) at 8 bits; no colour map; rows
 * bottom-up (the default) or top-down (descriptor bit 5), left to right. Rows come out top
 * first; 24-bit and grey pixels get alpha 255, grey sets R = G = B. A run-length packet may
 * cross a row's end, not the image's. Nothing is allocated before the header's size has been
 * checked against MC_IMAGE_MAX_SIDE and against the bytes the file holds (an RLE packet holds
 * at most 128 pixels). Errors: MC_ERR_IMAGE "cannot read 'name': <reason>" ("unsupported TGA
 * image type 1", "truncated image data", "too large: WxH, over N pixels per side", ...),
 * MC_ERR_NOMEM. On failure *img is zeroed. The pixels are malloc'd: free() or
 * mc_image_release. */
mc_status mc_tga_decode(const void *data, size_t len, const char *name, mc_image *img,
                        mc_error *err);

/* DDS files (Doom looks up dds/NAME.dds before NAME.tga: material.h), decoded to RGBA8 in C by
 * md5cine's own reader, never uploaded compressed, so that every GL driver gives the same
 * pixels. Read: the 128-byte header ("DDS ", header size 124, pixel format size 32), 2D images
 * only (no cube map, no volume, no DX10 header), FourCC DXT1, DXT3, DXT5, or uncompressed
 * 32- or 24-bit RGB(A) whose masks are whole bytes, or 8-bit luminance. Every mip level the
 * header declares (DDSD_MIPMAPCOUNT; at most 1 + log2 of the larger side) must lie within the
 * file; only the top level is decoded (the renderer makes its own mipmaps, as for any image).
 *
 * Block decoding (4x4 texels, rows top first, LSB-first indices): colours c0, c1 are RGB565
 * widened to 8 bits by repeating their top bits (r8 = r5 << 3 | r5 >> 2, g8 = g6 << 2 | g6 >> 4);
 * with c0 > c1 (as 16-bit numbers), or always in DXT3 and DXT5, c2 = (2 c0 + c1) / 3 and
 * c3 = (c0 + 2 c1) / 3 per channel; in DXT1 with c0 <= c1, c2 = (c0 + c1) / 2 and c3 is
 * transparent black (0, 0, 0, 0); divisions truncate. DXT3 alpha: 4 bits a texel, a * 17.
 * DXT5 alpha: a0, a1 then 3-bit indices; a0 > a1: a_k = ((8 - k) a0 + (k - 1) a1) / 7 for
 * k = 2..7; otherwise a_k = ((6 - k) a0 + (k - 1) a1) / 5 for k = 2..5, a6 = 0, a7 = 255.
 *
 * mc_dds_probe reads the size only. Errors: MC_ERR_IMAGE "cannot read 'name': <reason>" (not a
 * DDS file, a bad header field, an unsupported format, data shorter than the levels declared,
 * "too large: WxH, over N pixels per side"), MC_ERR_NOMEM. On failure *img is zeroed. */
mc_status mc_dds_probe(const void *data, size_t len, const char *name, int *w, int *h,
                       mc_error *err);
mc_status mc_dds_decode(const void *data, size_t len, const char *name, mc_image *img,
                        mc_error *err);

/* An image file held in memory, its name choosing the reader (the one place that does): a name
 * ending in .tga (any case) mc_tga_decode (TGA has no signature), .dds mc_dds_decode, any other
 * mc_image_decode (PNG or JPEG by signature). mc_image_file_probe reads the size the header
 * declares without decoding: a TGA's from its header (0x0 when the file is shorter than one,
 * which the decoder then refuses), a DDS's with mc_dds_probe, any other's with mc_image_probe.
 * Errors: the reader's, naming name. */
mc_status mc_image_file_probe(const void *data, size_t len, const char *name, int *w, int *h,
                              mc_error *err);
mc_status mc_image_file_decode(const void *data, size_t len, const char *name, mc_image *img,
                               mc_error *err);

/* The whole file at path through mc_image_file_decode. Errors as mc_read_file (MC_ERR_IO) and
 * the decoder, each naming path. */
mc_status mc_image_load(const char *path, mc_image *img, mc_error *err);

/* Frees the pixels and zeroes *img. img may be NULL; calling it twice is safe. */
void mc_image_release(mc_image *img);

/* Memory blocks an mc_png_buf keeps for the encoder's working buffers (the RGB copy, the filtered
 * rows, zlib's state, the output), reused from one encode to the next. */
#define MC_PNG_SCRATCH_BLOCKS 16

/* One encoded PNG and the memory it was made in. Zero-initialise it and keep it: each
 * mc_png_encode reuses the blocks of the one before (the previous PNG's bytes included), so a
 * writer thread that encodes frames of one size allocates only for the first. */
typedef struct mc_png_buf {
    uint8_t *data; /* the last encoded PNG, inside the buffer's blocks; mc_png_buf_release */
    size_t len;    /* bytes of the last encoded PNG */
    size_t cap;    /* bytes of the block holding it */
    void *block[MC_PNG_SCRATCH_BLOCKS];
    size_t block_cap[MC_PNG_SCRATCH_BLOCKS];
    unsigned char block_used[MC_PNG_SCRATCH_BLOCKS];
    size_t allocations; /* blocks allocated or grown so far (for tests and benchmarks) */
} mc_png_buf;

/* Encodes w x h RGBA8 pixels (rows top first, stride bytes apart, stride >= w * 4) as a PNG
 * into out (replacing what it held, whose memory it reuses). alpha 0 writes RGB (the alpha bytes are dropped), 1 RGBA.
 * The compression is fixed (see the top of this file). Errors: MC_ERR_USAGE (NULL pixels or
 * a bad stride), MC_ERR_LIMIT (a side < 1 or > MC_IMAGE_MAX_SIDE), MC_ERR_NOMEM (memory for
 * the copy, the filtered rows or zlib); out is then empty (data NULL, len 0). */
mc_status mc_png_encode(const uint8_t *rgba, int w, int h, size_t stride, int alpha,
                        mc_png_buf *out, mc_error *err);

/* Frees the buffer's memory and zeroes it. b may be NULL. */
void mc_png_buf_release(mc_png_buf *b);

/* Writes bytes (an encoded PNG, or anything) to path through mc_outfile: a temporary name in
 * the same folder renamed into place, so a failure leaves no file. Errors: MC_ERR_IO naming
 * path (a missing folder, a full disk). */
mc_status mc_png_save(const char *path, const mc_png_buf *png, mc_error *err);

/* mc_png_encode into a temporary buffer, then mc_png_save. Errors: as those two, naming path. */
mc_status mc_png_write(const char *path, const uint8_t *rgba, int w, int h, size_t stride,
                       int alpha, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
