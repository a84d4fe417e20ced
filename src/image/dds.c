/* The DDS reader of image.h (mc_dds_probe, mc_dds_decode): pure byte decoding, no library. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/image.h>

#define DDS_HEADER 128
#define DDSD_MIPMAPCOUNT 0x20000u
#define DDPF_ALPHAPIXELS 0x1u
#define DDPF_FOURCC 0x4u
#define DDPF_RGB 0x40u
#define DDPF_LUMINANCE 0x20000u
#define DDSCAPS2_CUBEMAP 0x200u
#define DDSCAPS2_VOLUME 0x200000u

typedef enum { FMT_DXT1, FMT_DXT3, FMT_DXT5, FMT_RGB, FMT_LUM } dds_format;

typedef struct dds_info {
    int w, h, levels;
    dds_format format;
    int bytes_pp;      /* uncompressed: bytes per texel */
    int shift[4];      /* uncompressed: bit offset of R, G, B, A; -1 for an absent channel */
} dds_info;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static mc_status bad(mc_error *err, const char *name, const char *reason)
{
    return mc_error_set(err, MC_ERR_IMAGE, NULL, 0, 0, "cannot read '%s': %s", name, reason);
}

/* A channel mask that is one whole byte of the texel: its bit offset; 0 mask: -1; else -2. */
static int mask_shift(uint32_t mask, int bytes_pp)
{
    if (mask == 0)
        return -1;
    for (int s = 0; s + 8 <= bytes_pp * 8; s += 8)
        if (mask == 0xFFu << s)
            return s;
    return -2;
}

static size_t level_bytes(const dds_info *d, int w, int h)
{
    size_t bw = (size_t)(w + 3) / 4, bh = (size_t)(h + 3) / 4;

    switch (d->format) {
    case FMT_DXT1:
        return bw * bh * 8;
    case FMT_DXT3:
    case FMT_DXT5:
        return bw * bh * 16;
    default:
        return (size_t)w * (size_t)h * (size_t)d->bytes_pp;
    }
}

/* The pixel format at p + 76 into d->format, bytes_pp and shift; NULL or why it is refused
 * (in reason[cap] where the text needs numbers). */
static const char *pixel_format(const uint8_t *p, dds_info *d, char *reason, size_t cap)
{
    uint32_t pf_flags = le32(p + 80), fourcc = le32(p + 84);

    if (pf_flags & DDPF_FOURCC) {
        if (fourcc == le32((const uint8_t *)"DXT1"))
            d->format = FMT_DXT1;
        else if (fourcc == le32((const uint8_t *)"DXT3"))
            d->format = FMT_DXT3;
        else if (fourcc == le32((const uint8_t *)"DXT5"))
            d->format = FMT_DXT5;
        else {
            char cc[5] = { 0 };

            for (int i = 0; i < 4; i++) {
                char c = (char)(fourcc >> (8 * i));
                cc[i] = c >= 0x20 && c < 0x7f ? c : '?';
            }
            snprintf(reason, cap, "unsupported FourCC '%s' (DXT1, DXT3 and DXT5 are read)", cc);
            return reason;
        }
    } else if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE)) {
        uint32_t bits = le32(p + 88);

        d->format = pf_flags & DDPF_RGB ? FMT_RGB : FMT_LUM;
        if (d->format == FMT_RGB ? bits != 24 && bits != 32 : bits != 8) {
            snprintf(reason, cap, "unsupported %u bits per pixel", bits);
            return reason;
        }
        d->bytes_pp = (int)bits / 8;
        for (int c = 0; c < 4; c++)
            d->shift[c] = mask_shift(le32(p + 92 + 4 * (size_t)c), d->bytes_pp);
        if (d->format == FMT_LUM)
            d->shift[0] = d->shift[1] = d->shift[2] = mask_shift(le32(p + 92), 1);
        if (!(pf_flags & DDPF_ALPHAPIXELS))
            d->shift[3] = -1;
        for (int c = 0; c < 4; c++)
            if (d->shift[c] == -2 || (c < 3 && d->shift[c] < 0))
                return "unsupported channel masks (whole bytes are read)";
    } else {
        return "unsupported pixel format (neither FourCC, RGB nor luminance)";
    }
    return NULL;
}

static mc_status parse_header(const uint8_t *p, size_t len, const char *name, dds_info *d,
                              mc_error *err)
{
    uint32_t flags, caps2, mips;
    uint64_t w, h;
    size_t need = DDS_HEADER;
    char reason[128];
    const char *why;
    int max_levels = 1;

    memset(d, 0, sizeof *d);
    if (len < 4 || memcmp(p, "DDS ", 4) != 0)
        return bad(err, name, "not a DDS file (no 'DDS ' magic)");
    if (len < DDS_HEADER)
        return bad(err, name, "truncated header");
    if (le32(p + 4) != 124)
        return bad(err, name, "bad header size, expected 124");
    if (le32(p + 76) != 32)
        return bad(err, name, "bad pixel format size, expected 32");
    flags = le32(p + 8);
    h = le32(p + 12);
    w = le32(p + 16);
    mips = le32(p + 28);
    caps2 = le32(p + 112);
    if (w < 1 || h < 1 || w > MC_IMAGE_MAX_SIDE || h > MC_IMAGE_MAX_SIDE) {
        snprintf(reason, sizeof reason, "too large: %llux%llu, over %d pixels per side",
                 (unsigned long long)w, (unsigned long long)h, MC_IMAGE_MAX_SIDE);
        if (w < 1 || h < 1)
            snprintf(reason, sizeof reason, "bad size %llux%llu", (unsigned long long)w,
                     (unsigned long long)h);
        return bad(err, name, reason);
    }
    if (caps2 & (DDSCAPS2_CUBEMAP | DDSCAPS2_VOLUME))
        return bad(err, name, "cube maps and volume textures are not supported");
    d->w = (int)w;
    d->h = (int)h;
    why = pixel_format(p, d, reason, sizeof reason);
    if (why)
        return bad(err, name, why);
    for (int s = d->w > d->h ? d->w : d->h; s > 1; s /= 2)
        max_levels++;
    d->levels = (flags & DDSD_MIPMAPCOUNT) && mips > 0 ? (int)(mips > 64 ? 64 : mips) : 1;
    if (d->levels > max_levels) {
        snprintf(reason, sizeof reason, "%u mip levels declared, a %dx%d image has at most %d",
                 mips, d->w, d->h, max_levels);
        return bad(err, name, reason);
    }
    for (int l = 0, lw = d->w, lh = d->h; l < d->levels; l++) {
        need += level_bytes(d, lw, lh);
        lw = lw > 1 ? lw / 2 : 1;
        lh = lh > 1 ? lh / 2 : 1;
    }
    if (need > len) {
        snprintf(reason, sizeof reason, "truncated image data: %d levels need %zu bytes, the file has %zu",
                 d->levels, need, len);
        return bad(err, name, reason);
    }
    return MC_OK;
}

mc_status mc_dds_probe(const void *data, size_t len, const char *name, int *w, int *h,
                       mc_error *err)
{
    dds_info d;
    mc_status st = parse_header(data, len, name ? name : "<memory>", &d, err);

    *w = st == MC_OK ? d.w : 0;
    *h = st == MC_OK ? d.h : 0;
    return st;
}

/* RGB565 to 8 bits a channel, the top bits repeated. */
static void rgb565(unsigned c, uint8_t out[4])
{
    unsigned r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;

    out[0] = (uint8_t)(r << 3 | r >> 2);
    out[1] = (uint8_t)(g << 2 | g >> 4);
    out[2] = (uint8_t)(b << 3 | b >> 2);
    out[3] = 255;
}

/* One colour block into texels[16][4]. four: always the four-colour palette (DXT3, DXT5). */
static void colour_block(const uint8_t *b, bool four, uint8_t texels[16][4])
{
    unsigned c0 = b[0] | (unsigned)b[1] << 8, c1 = b[2] | (unsigned)b[3] << 8;
    uint32_t idx = le32(b + 4);
    uint8_t pal[4][4];

    rgb565(c0, pal[0]);
    rgb565(c1, pal[1]);
    for (int ch = 0; ch < 3; ch++) {
        unsigned a = pal[0][ch], z = pal[1][ch];

        if (four || c0 > c1) {
            pal[2][ch] = (uint8_t)((2 * a + z) / 3);
            pal[3][ch] = (uint8_t)((a + 2 * z) / 3);
        } else {
            pal[2][ch] = (uint8_t)((a + z) / 2);
            pal[3][ch] = 0;
        }
    }
    pal[2][3] = 255;
    pal[3][3] = four || c0 > c1 ? 255 : 0;
    for (int i = 0; i < 16; i++)
        memcpy(texels[i], pal[idx >> (2 * i) & 3], 4);
}

static void dxt5_alpha(const uint8_t *b, uint8_t texels[16][4])
{
    unsigned a0 = b[0], a1 = b[1], pal[8];
    uint64_t idx = 0;

    for (int i = 0; i < 6; i++)
        idx |= (uint64_t)b[2 + i] << (8 * i);
    pal[0] = a0;
    pal[1] = a1;
    if (a0 > a1) {
        for (unsigned k = 2; k < 8; k++)
            pal[k] = ((8 - k) * a0 + (k - 1) * a1) / 7;
    } else {
        for (unsigned k = 2; k < 6; k++)
            pal[k] = ((6 - k) * a0 + (k - 1) * a1) / 5;
        pal[6] = 0;
        pal[7] = 255;
    }
    for (int i = 0; i < 16; i++)
        texels[i][3] = (uint8_t)pal[idx >> (3 * i) & 7];
}

mc_status mc_dds_decode(const void *data, size_t len, const char *name, mc_image *img,
                        mc_error *err)
{
    const uint8_t *p = data, *src = (const uint8_t *)data + DDS_HEADER;
    dds_info d;
    mc_status st;

    memset(img, 0, sizeof *img);
    if (!name)
        name = "<memory>";
    if ((st = parse_header(p, len, name, &d, err)) != MC_OK)
        return st;
    img->pixels = malloc((size_t)d.w * (size_t)d.h * 4);
    if (!img->pixels)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    img->width = d.w;
    img->height = d.h;
    img->channels = 4;
    img->stride = (size_t)d.w * 4;
    if (d.format == FMT_RGB || d.format == FMT_LUM) {
        for (size_t i = 0; i < (size_t)d.w * (size_t)d.h; i++, src += d.bytes_pp)
            for (int c = 0; c < 4; c++)
                img->pixels[i * 4 + (size_t)c] =
                        d.shift[c] < 0 ? 255 : src[d.shift[c] / 8];
        return MC_OK;
    }
    for (int by = 0; by < d.h; by += 4)
        for (int bx = 0; bx < d.w; bx += 4) {
            uint8_t t[16][4];

            if (d.format == FMT_DXT1) {
                colour_block(src, false, t);
                src += 8;
            } else {
                colour_block(src + 8, true, t);
                if (d.format == FMT_DXT3)
                    for (int i = 0; i < 16; i++)
                        t[i][3] = (uint8_t)((src[i / 2] >> (4 * (i & 1)) & 15) * 17);
                else
                    dxt5_alpha(src, t);
                src += 16;
            }
            for (int y = 0; y < 4 && by + y < d.h; y++)
                for (int x = 0; x < 4 && bx + x < d.w; x++)
                    memcpy(img->pixels + ((size_t)(by + y) * (size_t)d.w + (size_t)(bx + x)) * 4,
                           t[y * 4 + x], 4);
        }
    return MC_OK;
}
