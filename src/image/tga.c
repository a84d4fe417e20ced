/* The strict TGA reader of image.h (mc_tga_decode): pure byte decoding, no library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/image.h>

#define TGA_HEADER 18

static mc_status bad(mc_error *err, const char *name, const char *reason)
{
    return mc_error_set(err, MC_ERR_IMAGE, NULL, 0, 0, "cannot read '%s': %s", name, reason);
}

/* "not a TGA image", naming the format the bytes begin like where they say. */
static const char *not_tga(const uint8_t *h, size_t len, char *buf, size_t cap)
{
    const char *kind = NULL;

    if (len >= 8 && memcmp(h, "\x89PNG\r\n\x1a\n", 8) == 0)
        kind = "PNG";
    else if (len >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF)
        kind = "JPEG";
    else if (len >= 4 && memcmp(h, "DDS ", 4) == 0)
        kind = "DDS";
    else if (len >= 3 && h[0] == 'P' && h[1] >= '1' && h[1] <= '7' &&
             (h[2] == ' ' || h[2] == '\t' || h[2] == '\n' || h[2] == '\r'))
        kind = "PNM";
    if (kind)
        snprintf(buf, cap, "not a TGA image: its bytes are a %s image's", kind);
    else
        snprintf(buf, cap, "not a TGA image");
    return buf;
}

/* Writes one file pixel (BGR, BGRA or grey, n bytes) as RGBA. */
static void put_pixel(uint8_t *dst, const uint8_t *src, int n)
{
    if (n == 1) {
        dst[0] = dst[1] = dst[2] = src[0];
        dst[3] = 255;
    } else {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        dst[3] = n == 4 ? src[3] : 255;
    }
}

/* What the 18-byte header says, checked. */
typedef struct tga_header {
    int width, height, bytes; /* bytes per pixel */
    bool rle, top_down;
} tga_header;

/* Reads and checks the header of h (len >= TGA_HEADER); NULL or the reason it is refused, in
 * reason[cap] where the text needs numbers. */
static const char *read_header(const uint8_t *h, size_t len, tga_header *t, char *reason,
                               size_t cap)
{
    int type = h[2], bpp = h[16];

    /* TGA has no signature: a colour map type other than 0 or 1, or an image type the format
     * does not define, is another kind of file under a .tga name (a PNM's "P6\n" reads as
     * colour map type 54). */
    if (h[1] > 1 || !(type <= 3 || (type >= 9 && type <= 11) || type == 32 || type == 33))
        return not_tga(h, len, reason, cap);
    if (h[1] != 0)
        return "colour-mapped TGA images are not supported";
    if (type != 2 && type != 3 && type != 10 && type != 11) {
        snprintf(reason, cap, "unsupported TGA image type %d", type);
        return reason;
    }
    t->rle = type >= 9;
    t->width = h[12] | h[13] << 8;
    t->height = h[14] | h[15] << 8;
    if ((type == 2 || type == 10) ? bpp != 24 && bpp != 32 : bpp != 8) {
        snprintf(reason, cap, "unsupported %d bits per pixel for TGA image type %d", bpp, type);
        return reason;
    }
    if (h[17] & 0x10)
        return "right-to-left TGA images are not supported";
    t->top_down = (h[17] & 0x20) != 0;
    if (t->width < 1 || t->height < 1)
        return "image has no pixels";
    if (t->width > MC_IMAGE_MAX_SIDE || t->height > MC_IMAGE_MAX_SIDE) {
        snprintf(reason, cap, "too large: %dx%d, over %d pixels per side", t->width, t->height,
                 MC_IMAGE_MAX_SIDE);
        return reason;
    }
    t->bytes = bpp / 8;
    return NULL;
}

/* Decodes the pixels p..end of an image of header t into px (RGBA, top row first); NULL or
 * the reason it fails. */
static const char *read_pixels(const tga_header *t, const uint8_t *p, const uint8_t *end,
                               uint8_t *px)
{
    size_t count = (size_t)t->width * (size_t)t->height, n = (size_t)t->bytes;

    for (size_t i = 0; i < count;) {
        size_t run = 1;
        bool repeat = false;

        if (t->rle) {
            if (p >= end)
                return "truncated image data";
            repeat = (*p & 0x80) != 0;
            run = (size_t)(*p & 0x7f) + 1;
            p++;
            if (run > count - i)
                return "run-length packet goes past the end of the image";
        }
        if ((size_t)(end - p) < (repeat ? 1 : run) * n)
            return "truncated image data";
        for (size_t k = 0; k < run; k++, i++) {
            size_t x = i % (size_t)t->width, y = i / (size_t)t->width;
            size_t row = t->top_down ? y : (size_t)t->height - 1 - y;

            put_pixel(px + (row * (size_t)t->width + x) * 4, p, t->bytes);
            if (!repeat)
                p += n;
        }
        if (repeat)
            p += n;
    }
    return NULL;
}

mc_status mc_tga_decode(const void *data, size_t len, const char *name, mc_image *img,
                        mc_error *err)
{
    const uint8_t *h = data, *p, *end = (const uint8_t *)data + len;
    tga_header t;
    const char *why;
    size_t count;
    uint8_t *px;
    char reason[96];

    memset(img, 0, sizeof *img);
    if (!name)
        name = "<memory>";
    if (len < TGA_HEADER)
        return bad(err, name, "truncated image data");
    why = read_header(h, len, &t, reason, sizeof reason);
    if (why)
        return bad(err, name, why);
    count = (size_t)t.width * (size_t)t.height;
    if ((size_t)(end - h) < (size_t)TGA_HEADER + h[0]) /* the ID field runs past the end */
        return bad(err, name, "truncated image data");
    p = h + TGA_HEADER + h[0];
    /* The fewest bytes the pixels can take: checked before allocating. */
    if ((size_t)(end - p) <
        (t.rle ? (count + 127) / 128 * (size_t)(1 + t.bytes) : count * (size_t)t.bytes))
        return bad(err, name, "truncated image data");
    px = malloc(count * 4);
    if (!px)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for '%s'", name);
    why = read_pixels(&t, p, end, px);
    if (why) {
        free(px);
        return bad(err, name, why);
    }
    img->width = t.width;
    img->height = t.height;
    img->channels = 4;
    img->stride = (size_t)t.width * 4;
    img->pixels = px;
    return MC_OK;
}
