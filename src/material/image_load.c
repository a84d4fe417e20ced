/* Image loading (material_int.h): the built-in images, image files looked up as Doom does,
 * resampled to powers of two, and the lists of sources they were read from. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

#include "material/material_int.h"

/* ---------------------------------------------------------------- text lists */

void mat_sb_add(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (b->failed)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 3 > b->cap) {
        size_t cap = (b->len + (size_t)n + 3) * 2;
        char *g = realloc(b->s, cap);

        if (!g) {
            b->failed = true;
            return;
        }
        b->s = g;
        b->cap = cap;
    }
    if (b->len > 0) {
        memcpy(b->s + b->len, "; ", 2);
        b->len += 2;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* ---------------------------------------------------------------- built-in images */

bool mat_make_image(int w, int h, mc_image *img)
{
    memset(img, 0, sizeof *img);
    img->pixels = calloc((size_t)w * (size_t)h, 4);
    if (!img->pixels)
        return false;
    img->width = w;
    img->height = h;
    img->channels = 4;
    img->stride = (size_t)w * 4;
    return true;
}

bool mc_material_builtin(const char *name, mc_image *img)
{
    static const struct {
        const char *name;
        uint8_t px[4];
    } solid[] = {
        { "_white", { 255, 255, 255, 255 } },
        { "_black", { 0, 0, 0, 255 } },
        { "_flat", { 128, 128, 255, 255 } },
    };
    const int n = MC_MATERIAL_DEFAULT_SIDE;

    memset(img, 0, sizeof *img);
    for (size_t i = 0; i < sizeof solid / sizeof solid[0]; i++) {
        if (strcasecmp(name, solid[i].name) == 0) {
            if (!mat_make_image(1, 1, img))
                return false;
            memcpy(img->pixels, solid[i].px, 4);
            return true;
        }
    }
    if (strcasecmp(name, "_noFalloff") == 0) {
        /* Image_init.cpp, R_CreateNoFalloffImage: FALLOFF_TEXTURE_SIZE (64) x 16, white inside
         * a ring of (0, 0, 0, 0) */
        if (!mat_make_image(64, 16, img))
            return false;
        for (int y = 1; y < 15; y++)
            memset(img->pixels + ((size_t)y * 64 + 1) * 4, 255, 62 * 4);
        return true;
    }
    if (strcasecmp(name, "_default") != 0 || !mat_make_image(n, n, img))
        return false;
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            bool edge = x == 0 || y == 0 || x == n - 1 || y == n - 1;

            uint8_t *px = img->pixels + ((size_t)y * (size_t)n + (size_t)x) * 4;

            /* Image_init.cpp idImage::MakeDefault (com_developer): opaque everywhere */
            memset(px, edge ? 255 : 32, 3);
            px[3] = 255;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- image files */

/* The most bytes an image file of at most px pixels takes: 8 a pixel (16-bit RGBA stored
 * uncompressed; a DDS's mipmaps add a third to its 4 or fewer) and 1 MiB for headers, palettes
 * and metadata. A file declaring more is refused before it is read or inflated. */
static size_t image_file_bytes(uint64_t px)
{
    uint64_t cap = (uint64_t)MC_LIMIT_ARCHIVE_ENTRY_BYTES;

    return px >= cap / 8 ? (size_t)cap : (size_t)(px * 8 + ((uint64_t)1 << 20));
}

/* Decodes the image file bytes data[0..len) read from where, the reader chosen by the name
 * (image.h, mc_image_file_decode). An image whose header declares more pixels than room has
 * left is MC_ERR_LIMIT before anything is decoded (the caller counts what it keeps). */
static mc_status decode_checked(const uint8_t *data, size_t len, const char *where,
                                const px_budget *room, mc_image *img, mc_error *err)
{
    int w, h;
    mc_status st = mc_image_file_probe(data, len, where, &w, &h, err);

    if (st == MC_OK && (uint64_t)w * (uint64_t)h > room->limit - room->used)
        st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                          "%dx%d pixels take %s past %llu pixels of images in all", w, h,
                          room->what, (unsigned long long)room->limit);
    else if (st == MC_OK)
        st = mc_image_file_decode(data, len, where, img, err);
    return st;
}

/* Reads one candidate file; *found false when the VFS does not hold it. */
static mc_status read_candidate(mc_vfs *vfs, const char *path, const px_budget *room, mc_image *img,
                                bool *found, strbuf *src, mc_error *err)
{
    char where[1024];
    uint8_t *data;
    size_t len;
    mc_status st = mc_vfs_read_max(vfs, path, image_file_bytes(room->limit - room->used), &data,
                                   &len, found, where, sizeof where, err);

    if (st != MC_OK || !*found)
        return st;
    st = decode_checked(data, len, where, room, img, err);
    free(data);
    if (st == MC_OK)
        mat_sb_add(src, "%s", where);
    return st;
}

mc_status mc_image_file_load(const char *path, unsigned long long limit, unsigned long long *used,
                             mc_image *img, mc_error *err)
{
    px_budget room = { *used, limit ? limit : MC_LIMIT_SCENE_IMAGE_PIXELS, "the scene" };
    char *data;
    size_t len;
    mc_status st;

    memset(img, 0, sizeof *img);
    if (room.used > room.limit)
        room.used = room.limit;
    st = mc_read_file(path, &data, &len, err);
    if (st != MC_OK)
        return st;
    st = decode_checked((const uint8_t *)data, len, path, &room, img, err);
    free(data);
    if (st == MC_OK)
        *used = room.used + (uint64_t)img->width * (uint64_t)img->height;
    return st;
}

/* Where Doom looks for the precompressed form of an image name without extension
 * (Image_load.cpp, idImage::ImageProgramStringToCompressedFileName): "dds/" + the name with
 * its first four '/' (or '\\', '(') kept as folders and later ones as spaces, < > : | " .
 * as '_', a space right after a '/' and every ')' and ',' dropped, then ".dds". false when it
 * does not fit. */
static bool dds_name(const char *name, size_t len, char *out, size_t cap)
{
    size_t o = 0;
    int depth = 0;

    if (cap < 9)
        return false;
    memcpy(out, "dds/", 4);
    o = 4;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];

        if (o + 5 >= cap)
            return false;
        if (c == '/' || c == '\\' || c == '(') {
            out[o++] = depth < 4 ? '/' : ' ';
            depth++;
        } else if (c == '<' || c == '>' || c == ':' || c == '|' || c == '"' || c == '.') {
            out[o++] = '_';
        } else if (c == ' ' && out[o - 1] == '/') {
        } else if (c != ')' && c != ',') {
            out[o++] = c;
        }
    }
    memcpy(out + o, ".dds", 5);
    return true;
}

/* Image_files.cpp, R_LoadImage with makePowerOf2 and Doom's default image_roundDown 1: a side
 * that is not a power of two is rounded down to one, and the image resampled by
 * Image_process.cpp, R_ResampleTexture (each output texel the truncated mean of four input
 * texels at a quarter and three quarters of its step, in 16.16 fixed point; at most 4096 a
 * side, its MAX_DIMENSION). false when out of memory. */
static bool round_down_pow2(mc_image *im)
{
    unsigned ow = 1, oh = 1, fracstep, frac;
    unsigned p1[4096], p2[4096];
    unsigned iw = (unsigned)im->width, ih = (unsigned)im->height;
    uint8_t *out;

    while (ow * 2 <= iw)
        ow *= 2;
    while (oh * 2 <= ih)
        oh *= 2;
    if (ow == iw && oh == ih)
        return true;
    ow = ow > 4096 ? 4096 : ow;
    oh = oh > 4096 ? 4096 : oh;
    out = malloc((size_t)ow * oh * 4);
    if (!out)
        return false;
    fracstep = iw * 0x10000u / ow;
    frac = fracstep >> 2;
    for (unsigned i = 0; i < ow; i++, frac += fracstep)
        p1[i] = 4 * (frac >> 16);
    frac = 3 * (fracstep >> 2);
    for (unsigned i = 0; i < ow; i++, frac += fracstep)
        p2[i] = 4 * (frac >> 16);
    for (unsigned i = 0; i < oh; i++) {
        const uint8_t *row = im->pixels + im->stride * (size_t)((i + 0.25f) * (float)ih / (float)oh);
        const uint8_t *row2 = im->pixels + im->stride * (size_t)((i + 0.75f) * (float)ih / (float)oh);

        for (unsigned j = 0; j < ow; j++)
            for (unsigned c = 0; c < 4; c++)
                out[((size_t)i * ow + j) * 4 + c] =
                        (uint8_t)((row[p1[j] + c] + row[p2[j] + c] + row2[p1[j] + c] +
                                   row2[p2[j] + c]) >> 2);
    }
    free(im->pixels);
    im->pixels = out;
    im->width = (int)ow;
    im->height = (int)oh;
    im->stride = (size_t)ow * 4;
    return true;
}

mc_status mat_load_image(const char *name, mc_vfs *vfs, const px_budget *room, mc_image *img,
                         bool *fell_back, strbuf *src, mc_error *err)
{
    static const char *const exts[] = { ".tga", ".jpg", ".png" };
    const char *slash = strrchr(name, '/'), *dot = strrchr(name, '.');
    size_t stem = strlen(name);
    bool tga_or_none = true, found = false;
    char path[MC_LIMIT_NAME_LEN + 8];
    mc_status st;

    if (name[0] == '_' && mc_material_builtin(name, img)) {
        mat_sb_add(src, "%s", name);
        return MC_OK;
    }
    if (dot && (!slash || dot > slash)) {
        tga_or_none = strcasecmp(dot, ".tga") == 0;
        if (tga_or_none)
            stem = (size_t)(dot - name);
    }
    if (!tga_or_none) {
        st = read_candidate(vfs, name, room, img, &found, src, err);
        if (st == MC_OK && found && !round_down_pow2(img)) {
            mc_image_release(img);
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        if (st != MC_OK || found)
            return st;
    } else {
        /* Image_load.cpp, idImage::ActuallyLoadImage: the .dds first (CheckPrecompressedImage
         * with image_usePrecompressedTextures, on in Doom's default configuration). */
        if (dds_name(name, stem, path, sizeof path)) {
            st = read_candidate(vfs, path, room, img, &found, src, err);
            if (st != MC_OK || found)
                return st;
        }
        for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
            snprintf(path, sizeof path, "%.*s%s", (int)stem, name, exts[i]);
            st = read_candidate(vfs, path, room, img, &found, src, err);
            if (st == MC_OK && found && !round_down_pow2(img)) {
                mc_image_release(img);
                return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
            }
            if (st != MC_OK || found)
                return st;
        }
    }
    if (!mc_material_builtin("_default", img))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    *fell_back = true;
    mat_sb_add(src, "_default (missing %s)", name);
    return MC_OK;
}

/* ---------------------------------------------------------------- borders */

/* Image_process.cpp, R_SetBorderTexels: the outermost ring of texels set to one value. */
void mat_set_border(mc_image *im, const uint8_t v[4])
{
    for (int y = 0; y < im->height; y++)
        for (int x = 0; x < im->width; x++)
            if (x == 0 || y == 0 || x == im->width - 1 || y == im->height - 1)
                memcpy(px_at(im, x, y), v, 4);
}
