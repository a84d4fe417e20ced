/* Image programs and material resolution (material.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

/* ---------------------------------------------------------------- text lists */

typedef struct strbuf {
    char *s;
    size_t len, cap;
    bool failed;
} strbuf;

static void sb_add(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(strbuf *b, const char *fmt, ...)
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

static bool make_image(int w, int h, mc_image *img)
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
            if (!make_image(1, 1, img))
                return false;
            memcpy(img->pixels, solid[i].px, 4);
            return true;
        }
    }
    if (strcasecmp(name, "_noFalloff") == 0) {
        /* Image_init.cpp, R_CreateNoFalloffImage: FALLOFF_TEXTURE_SIZE (64) x 16, white inside
         * a ring of (0, 0, 0, 0) */
        if (!make_image(64, 16, img))
            return false;
        for (int y = 1; y < 15; y++)
            memset(img->pixels + ((size_t)y * 64 + 1) * 4, 255, 62 * 4);
        return true;
    }
    if (strcasecmp(name, "_default") != 0 || !make_image(n, n, img))
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

/* ---------------------------------------------------------------- pixel operations */

/* Doom's idMath::RSqrt: the bit-trick estimate and one Newton step. */
static float rsqrt_fast(float x)
{
    union {
        float f;
        int32_t i;
    } u;
    float y = x * 0.5f, r;

    u.f = x;
    u.i = 0x5f3759df - (u.i >> 1);
    r = u.f;
    return r * (1.5f - r * r * y);
}

static void normalize_fast(float v[3])
{
    float inv = rsqrt_fast(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

static void normalize_exact(float v[3])
{
    float sq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2], inv;

    if (sq <= 0.0f)
        return;
    inv = 1.0f / sqrtf(sq);
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

/* byte(v * 127 + 128), truncated; v is in -1..1 (a little over 1 after fast normalising). */
static uint8_t to_byte(float v)
{
    float f = v * 127.0f + 128.0f;

    return (uint8_t)(f < 0.0f ? 0.0f : f > 255.0f ? 255.0f : f);
}

static uint8_t *px_at(const mc_image *im, int x, int y)
{
    return im->pixels + (size_t)y * im->stride + (size_t)x * 4;
}

static int wrap(int v, int n)
{
    return ((v % n) + n) % n;
}

static bool heightmap(mc_image *im, float scale)
{
    int w = im->width, h = im->height;
    uint8_t *depth = malloc((size_t)w * (size_t)h);

    if (!depth)
        return false;
    scale /= 256.0f;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *p = px_at(im, x, y);

            depth[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)((p[0] + p[1] + p[2]) / 3);
        }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int x1 = wrap(x + 1, w), y1 = wrap(y + 1, h);
            int d1 = depth[(size_t)y * (size_t)w + (size_t)x];
            int d2 = depth[(size_t)y * (size_t)w + (size_t)x1];
            int d3 = depth[(size_t)y1 * (size_t)w + (size_t)x];
            int d4 = depth[(size_t)y1 * (size_t)w + (size_t)x1];
            float n1[3] = { (float)-(d2 - d1) * scale, (float)-(d3 - d1) * scale, 1.0f };
            float n2[3] = { (float)-(d4 - d3) * scale, (float)(d1 - d3) * scale, 1.0f };
            uint8_t *o = px_at(im, x, y);

            normalize_fast(n1);
            normalize_fast(n2);
            n1[0] += n2[0];
            n1[1] += n2[1];
            n1[2] += n2[2];
            normalize_fast(n1);
            o[0] = to_byte(n1[0]);
            o[1] = to_byte(n1[1]);
            o[2] = to_byte(n1[2]);
            o[3] = 255;
        }
    }
    free(depth);
    return true;
}

/* b resized to a's size by Doom's drop-sampling, into a new image (or b itself when the sizes
 * match: then *owned is false). */
static bool dropsample_like(const mc_image *a, const mc_image *b, mc_image *out, bool *owned)
{
    *owned = false;
    if (a->width == b->width && a->height == b->height) {
        *out = *b;
        return true;
    }
    if (!make_image(a->width, a->height, out))
        return false;
    *owned = true;
    for (int y = 0; y < a->height; y++) {
        int sy = (int)(((double)y + 0.25) * b->height / a->height);

        for (int x = 0; x < a->width; x++) {
            int sx = (int)((long long)x * b->width / a->width);

            memcpy(px_at(out, x, y), px_at(b, sx, sy), 4);
        }
    }
    return true;
}

static bool add_normals(mc_image *a, const mc_image *b0)
{
    mc_image b;
    bool owned;

    if (!dropsample_like(a, b0, &b, &owned))
        return false;
    for (int y = 0; y < a->height; y++) {
        for (int x = 0; x < a->width; x++) {
            uint8_t *d1 = px_at(a, x, y);
            const uint8_t *d2 = px_at(&b, x, y);
            float n[3], sq, len;

            for (int c = 0; c < 3; c++)
                n[c] = (float)((d1[c] - 128) / 127.0);
            sq = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
            len = sq * rsqrt_fast(sq);
            if (len < 1.0f) {
                float z2 = 1.0f - n[0] * n[0] - n[1] * n[1];

                n[2] = z2 > 0.0f ? sqrtf(z2) : 0.0f;
            }
            n[0] += (float)((d2[0] - 128) / 127.0);
            n[1] += (float)((d2[1] - 128) / 127.0);
            normalize_exact(n);
            d1[0] = to_byte(n[0]);
            d1[1] = to_byte(n[1]);
            d1[2] = to_byte(n[2]);
            d1[3] = 255;
        }
    }
    if (owned)
        free(b.pixels);
    return true;
}

static bool smooth_normals(mc_image *im)
{
    size_t bytes = (size_t)im->height * im->stride;
    mc_image orig = *im;

    orig.pixels = malloc(bytes);
    if (!orig.pixels)
        return false;
    memcpy(orig.pixels, im->pixels, bytes);
    for (int y = 0; y < im->height; y++) {
        for (int x = 0; x < im->width; x++) {
            float n[3] = { 0.0f, 0.0f, 0.0f };
            uint8_t *o = px_at(im, x, y);

            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    const uint8_t *in =
                            px_at(&orig, wrap(x + dx, im->width), wrap(y + dy, im->height));

                    if ((in[0] == 0 && in[1] == 0 && in[2] == 0) ||
                        (in[0] == 128 && in[1] == 128 && in[2] == 128))
                        continue;
                    for (int c = 0; c < 3; c++)
                        n[c] += (float)(in[c] - 128);
                }
            }
            normalize_exact(n);
            for (int c = 0; c < 3; c++)
                o[c] = to_byte(n[c]);
        }
    }
    free(orig.pixels);
    return true;
}

static bool add_images(mc_image *a, const mc_image *b0)
{
    mc_image b;
    bool owned;

    if (!dropsample_like(a, b0, &b, &owned))
        return false;
    for (int y = 0; y < a->height; y++) {
        uint8_t *d = px_at(a, 0, y);
        const uint8_t *s = px_at(&b, 0, y);

        for (int i = 0; i < a->width * 4; i++) {
            int v = d[i] + s[i];

            d[i] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    if (owned)
        free(b.pixels);
    return true;
}

static void per_pixel(mc_image *im, mc_mtr_prog_kind kind, const float *f)
{
    for (int y = 0; y < im->height; y++) {
        for (int x = 0; x < im->width; x++) {
            uint8_t *p = px_at(im, x, y);

            switch (kind) {
            case MC_PROG_SCALE:
                /* Image_program.cpp R_ImageScale: j = (byte)(data[i] * scale[i & 3]), so the
                 * product is cut to its integer and then to its low 8 bits (as x86 converts a
                 * float to a byte through an int); its clamp after the cast never acts. */
                for (int c = 0; c < 4; c++) {
                    float v = (float)p[c] * f[c];
                    long n = v > -2147483648.0f && v < 2147483648.0f ? (long)v : 0;

                    p[c] = (uint8_t)((unsigned long)n & 255u);
                }
                break;
            case MC_PROG_INVERT_ALPHA:
                p[3] = (uint8_t)(255 - p[3]);
                break;
            case MC_PROG_INVERT_COLOR:
                for (int c = 0; c < 3; c++)
                    p[c] = (uint8_t)(255 - p[c]);
                break;
            case MC_PROG_MAKE_INTENSITY:
                p[1] = p[2] = p[3] = p[0];
                break;
            case MC_PROG_MAKE_ALPHA:
                p[3] = (uint8_t)((p[0] + p[1] + p[2]) / 3);
                p[0] = p[1] = p[2] = 255;
                break;
            default:
                break;
            }
        }
    }
}

/* ---------------------------------------------------------------- image files */

/* Pixels read so far and the most allowed: one material's (mc_material_resolve), or a whole
 * material set's (MC_LIMIT_SCENE_IMAGE_PIXELS, or the scene's own setting). */
typedef struct px_budget {
    uint64_t used, limit;
    const char *what; /* "its material", "the scene" */
} px_budget;

/* The most bytes an image file of at most px pixels takes: 8 a pixel (16-bit RGBA stored
 * uncompressed; a DDS's mipmaps add a third to its 4 or fewer) and 1 MiB for headers, palettes
 * and metadata. A file declaring more is refused before it is read or inflated. */
static size_t image_file_bytes(uint64_t px)
{
    uint64_t cap = (uint64_t)MC_LIMIT_ARCHIVE_ENTRY_BYTES;

    return px >= cap / 8 ? (size_t)cap : (size_t)(px * 8 + ((uint64_t)1 << 20));
}

/* Reads one candidate file; *found false when the VFS does not hold it. An image whose header
 * declares more than room pixels is MC_ERR_LIMIT before anything is decoded. */
static mc_status read_candidate(mc_vfs *vfs, const char *path, const px_budget *room, mc_image *img,
                                bool *found, strbuf *src, mc_error *err)
{
    char where[1024];
    uint8_t *data;
    size_t len, n = strlen(path);
    bool tga = n > 4 && strcasecmp(path + n - 4, ".tga") == 0;
    bool dds = n > 4 && strcasecmp(path + n - 4, ".dds") == 0;
    int w = 0, h = 0;
    mc_status st = mc_vfs_read_max(vfs, path, image_file_bytes(room->limit - room->used), &data,
                                   &len, found, where, sizeof where, err);

    if (st != MC_OK || !*found)
        return st;
    if (tga && len >= 18) { /* the header's width and height, little-endian at 12 and 14 */
        w = data[12] | data[13] << 8;
        h = data[14] | data[15] << 8;
    } else if (dds) {
        st = mc_dds_probe(data, len, where, &w, &h, err);
    } else if (!tga) {
        st = mc_image_probe(data, len, where, &w, &h, err);
    }
    if (st == MC_OK && (uint64_t)w * (uint64_t)h > room->limit - room->used)
        st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                          "%dx%d pixels take %s past %llu pixels of images in all", w, h,
                          room->what, (unsigned long long)room->limit);
    else if (st == MC_OK && tga)
        st = mc_tga_decode(data, len, where, img, err);
    else if (st == MC_OK && dds)
        st = mc_dds_decode(data, len, where, img, err);
    else if (st == MC_OK)
        st = mc_image_decode(data, len, where, img, err);
    free(data);
    if (st == MC_OK)
        sb_add(src, "%s", where);
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

static mc_status load_image(const char *name, mc_vfs *vfs, const px_budget *room, mc_image *img,
                            bool *fell_back, strbuf *src, mc_error *err)
{
    static const char *const exts[] = { ".tga", ".jpg", ".png" };
    const char *slash = strrchr(name, '/'), *dot = strrchr(name, '.');
    size_t stem = strlen(name);
    bool tga_or_none = true, found = false;
    char path[MC_LIMIT_NAME_LEN + 8];
    mc_status st;

    if (name[0] == '_' && mc_material_builtin(name, img)) {
        sb_add(src, "%s", name);
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
    sb_add(src, "_default (missing %s)", name);
    return MC_OK;
}

/* ---------------------------------------------------------------- programs */

/* pixels counts what the material (or the set) has read so far. */
static mc_status eval(const mc_mtr_prog *g, mc_vfs *vfs, mc_image *out, bool *fell_back,
                      strbuf *src, px_budget *pixels, mc_error *err)
{
    mc_image second;
    mc_status st;
    bool ok = true;

    memset(out, 0, sizeof *out);
    if (g->kind == MC_PROG_IMAGE) {
        /* An error names the image file itself (a limit: its size from its header). */
        st = load_image(g->name, vfs, pixels, out, fell_back, src, err);
        if (st != MC_OK)
            return st;
        pixels->used += (uint64_t)out->width * (uint64_t)out->height; /* built-ins: tiny */
        return MC_OK;
    }
    st = eval(g->arg[0], vfs, out, fell_back, src, pixels, err);
    if (st != MC_OK)
        return st;
    switch (g->kind) {
    case MC_PROG_HEIGHTMAP:
        ok = heightmap(out, g->value[0]);
        break;
    case MC_PROG_ADDNORMALS:
    case MC_PROG_ADD:
        st = eval(g->arg[1], vfs, &second, fell_back, src, pixels, err);
        if (st != MC_OK) {
            mc_image_release(out);
            return st;
        }
        ok = g->kind == MC_PROG_ADD ? add_images(out, &second) : add_normals(out, &second);
        mc_image_release(&second);
        break;
    case MC_PROG_SMOOTHNORMALS:
        ok = smooth_normals(out);
        break;
    default:
        per_pixel(out, g->kind, g->value);
        break;
    }
    if (!ok) {
        mc_image_release(out);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

static mc_status eval_program(const mc_mtr_prog *prog, mc_vfs *vfs, mc_image *out,
                              bool *fell_back, char **sources, px_budget *pixels, mc_error *err)
{
    strbuf src = { 0 };
    bool fb = false;
    mc_status st = eval(prog, vfs, out, &fb, &src, pixels, err);

    if (st == MC_OK && src.failed) {
        mc_image_release(out);
        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (st != MC_OK) {
        free(src.s);
        return st;
    }
    if (fell_back)
        *fell_back = fb;
    if (sources)
        *sources = src.s ? src.s : strdup("");
    else
        free(src.s);
    return MC_OK;
}

mc_status mc_imgprog_eval(const mc_mtr_prog *prog, mc_vfs *vfs, mc_image *out, bool *fell_back,
                          char **sources, mc_error *err)
{
    px_budget pixels = { 0, MC_LIMIT_MATERIAL_PIXELS, "its material" };

    return eval_program(prog, vfs, out, fell_back, sources, &pixels, err);
}

/* ---------------------------------------------------------------- materials */

static void map_release(mc_material_map *m)
{
    mc_image_release(&m->image);
    free(m->program);
    free(m->sources);
    memset(m, 0, sizeof *m);
}

/* Image_process.cpp, R_SetBorderTexels: the outermost ring of texels set to one value. */
static void set_border(mc_image *im, const uint8_t v[4])
{
    for (int y = 0; y < im->height; y++)
        for (int x = 0; x < im->width; x++)
            if (x == 0 || y == 0 || x == im->width - 1 || y == im->height - 1)
                memcpy(px_at(im, x, y), v, 4);
}

/* Runs image program prog into *m, with the stage colour color and clamp mode wrap. */
static mc_status fill_prog(const mc_mtr_prog *prog, const float color[4], mc_wrap wrap,
                           mc_vfs *vfs, mc_material_map *m, px_budget *pixels, mc_error *err)
{
    static const uint8_t zero[4] = { 0, 0, 0, 255 }, alpha_zero[4] = { 255, 255, 255, 0 };
    char text[1024];
    mc_status st;

    memset(m, 0, sizeof *m);
    st = eval_program(prog, vfs, &m->image, &m->fell_back, &m->sources, pixels, err);
    if (st != MC_OK)
        return st;
    memcpy(m->color, color, sizeof m->color);
    m->wrap = wrap;
    /* Image_load.cpp, idImage::GenerateImage: "zero the border if desired". */
    if (m->wrap == MC_WRAP_ZERO_CLAMP)
        set_border(&m->image, zero);
    else if (m->wrap == MC_WRAP_ALPHA_ZERO_CLAMP)
        set_border(&m->image, alpha_zero);
    m->present = true;
    m->program = strdup(mc_mtr_prog_text(prog, text, sizeof text));
    if (!m->program) {
        map_release(m);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

static mc_status fill_map(const mc_mtr_stage *stage, mc_vfs *vfs, mc_material_map *m,
                          px_budget *pixels, mc_error *err)
{
    return fill_prog(stage->map, stage->color, stage->wrap, vfs, m, pixels, err);
}

void mc_material_release(mc_material *mat)
{
    if (!mat)
        return;
    mc_expr_program_free(&mat->expr);
    free(mat->name);
    free(mat->file);
    map_release(&mat->diffuse);
    map_release(&mat->normal);
    map_release(&mat->specular);
    map_release(&mat->falloff);
    for (int i = 0; i < mat->num_layers; i++)
        map_release(&mat->layers[i].map);
    free(mat->layers);
    memset(mat, 0, sizeof *mat);
}

static mc_status resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs,
                         px_budget *budget, mc_material *out, mc_error *err);

/* Doom's coverage (Material.cpp, idMaterial::ParseMaterial, "automatically determine
 * coverage"): translucent when so declared, when there is no stage, or when no stage is lit and
 * the first one blends with what is drawn. */
static bool coverage_translucent(const mc_mtr_decl *decl)
{
    mc_blend b;

    if (decl->translucent || decl->num_stages == 0)
        return true;
    for (int i = 0; i < decl->num_stages; i++)
        if (decl->stages[i].kind != MC_STAGE_COLOR)
            return false;
    b = decl->stages[0].blend;
    return b.dst != MC_BLEND_ZERO || b.src == MC_BLEND_DST_COLOR ||
           b.src == MC_BLEND_ONE_MINUS_DST_COLOR || b.src == MC_BLEND_DST_ALPHA ||
           b.src == MC_BLEND_ONE_MINUS_DST_ALPHA;
}

mc_status mc_material_resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs,
                              mc_material *out, mc_error *err)
{
    px_budget budget = { 0, MC_LIMIT_MATERIAL_PIXELS, "its material" };

    return resolve(decl, file, vfs, &budget, out, err);
}

static mc_status resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs,
                         px_budget *budget, mc_material *out, mc_error *err)
{
    bool translucent = coverage_translucent(decl);
    const mc_mtr_stage *lit[3] = { NULL, NULL, NULL };
    mc_material_map *maps[3];
    mc_status st = MC_OK;
    int layers = 0;

    memset(out, 0, sizeof *out);
    maps[0] = &out->diffuse;
    maps[1] = &out->normal;
    maps[2] = &out->specular;
    out->name = strdup(decl->name);
    out->file = file ? strdup(file) : NULL;
    if (!out->name || (file && !out->file))
        goto nomem;
    if (file) {
        out->line = decl->line;
        out->col = decl->col;
    }
    for (int i = 0; i < decl->num_stages; i++) {
        const mc_mtr_stage *s = &decl->stages[i];

        if (s->kind != MC_STAGE_COLOR && s->conditional)
            continue;
        if (s->kind != MC_STAGE_COLOR && !lit[s->kind] && s->map)
            lit[s->kind] = s;
        else if (s->kind == MC_STAGE_COLOR && s->map)
            layers++;
    }
    if (!mc_expr_program_copy(&decl->expr, &out->expr))
        goto nomem;
    out->lit = lit[0] || lit[1] || lit[2];
    out->diffuse_blend = (mc_blend){ MC_BLEND_ONE, MC_BLEND_ZERO };
    for (int k = 0; k < 3 && st == MC_OK; k++)
        if (lit[k])
            st = fill_map(lit[k], vfs, maps[k], budget, err);
    if (st == MC_OK && layers > 0) {
        out->layers = calloc((size_t)layers, sizeof *out->layers);
        if (!out->layers)
            goto nomem;
        for (int i = 0; i < decl->num_stages && st == MC_OK; i++) {
            const mc_mtr_stage *s = &decl->stages[i];
            mc_material_layer *l = &out->layers[out->num_layers];

            if (s->kind != MC_STAGE_COLOR || !s->map)
                continue;
            st = fill_map(s, vfs, &l->map, budget, err);
            if (st != MC_OK)
                break;
            l->blend = s->blend;
            l->alpha_test = s->has_alpha_test ? s->alpha_test : 0.0f;
            memcpy(l->color, s->color, sizeof l->color);
            l->expr = s->expr;
            l->mask_red = s->mask_red;
            l->mask_green = s->mask_green;
            l->mask_blue = s->mask_blue;
            l->mask_alpha = s->mask_alpha;
            l->mask_depth = s->mask_depth;
            l->translucent = translucent;
            if (decl->expr.num_regs <= MC_EXPR_NUM_PREDEFINED) {
                /* a declaration made without the parser: constant 1 (mc_expr_program_copy) */
                l->expr.condition = MC_EXPR_NUM_PREDEFINED;
                for (int c = 0; c < 4; c++)
                    l->expr.color[c] = MC_EXPR_NUM_PREDEFINED;
            }
            out->num_layers++;
        }
    }
    if (st == MC_OK && decl->falloff) {
        /* Material.cpp, ParseMaterial: lightFalloffImage is loaded TR_CLAMP */
        static const float one[4] = { 1, 1, 1, 1 };

        st = fill_prog(decl->falloff, one, MC_WRAP_CLAMP, vfs, &out->falloff, budget, err);
    }
    if (st != MC_OK) {
        mc_material_release(out);
        return st;
    }
    out->ambient_light = decl->ambient_light;
    out->alpha_test = lit[0] && lit[0]->has_alpha_test ? lit[0]->alpha_test
                      : decl->has_alpha_test           ? decl->alpha_test
                                                       : 0.0f;
    out->two_sided = decl->two_sided;
    out->translucent = decl->translucent;
    out->no_shadows = decl->no_shadows;
    out->no_self_shadow = decl->no_self_shadow;
    out->unsmoothed_tangents = decl->unsmoothed_tangents;
    out->polygon_offset = decl->polygon_offset;
    out->deform = decl->deform;
    return MC_OK;

nomem:
    mc_material_release(out);
    return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

/* ---------------------------------------------------------------- material sets */

/* The most tables of other files one material declaration may take (parse_with_tables). */
#define MC_MATERIAL_MAX_TABLES 64

/* The kinds of declaration a set looks up, each one namespace over every declaration file. */
enum { KIND_MATERIAL, KIND_SKIN, KIND_TABLE, NUM_KINDS };
static const char *const KIND_TYPES[NUM_KINDS] = { "material", "skin", "table" };

/* One declaration file of the base: its text (kept, since declarations are parsed when used)
 * and the index of its declarations of each kind. */
typedef struct set_file {
    char *where; /* "base/pak000.pk4:materials/x.mtr" */
    char *text;
    size_t len;
    mc_mtr_index index[NUM_KINDS];
    mc_expr_tables *tables; /* its tables, read when a declaration first names one */
} set_file;

typedef struct set_entry {
    const mc_mtr_span *span;
    int file;     /* index into files */
    int resolved; /* 0: not yet; 1: done (material or skin valid) */
    mc_mtr_file parsed; /* materials: the declaration, or Doom's default material in its place */
    mc_material material;
    mc_skin skin; /* skins: the declaration */
    char *text;   /* materials: the file's text with the tables of other files that the
                     declaration names appended, or NULL */
} set_entry;

/* The declarations of one type: one entry per name, sorted by name. */
typedef struct decl_table {
    set_entry *entries;
    int count;
} decl_table;

struct mc_material_set {
    mc_vfs *vfs;
    mc_parse_opts opts; /* warnings and the stop flag, for declarations parsed later */
    set_file *files;    /* the declaration folders in Doom's order (DECL_FOLDERS) */
    int num_files, cap_files;
    decl_table materials, skins, tables;
    int parsed;         /* material declarations parsed so far */
    px_budget pixels;   /* images read by every material resolved */
    size_t text_bytes;  /* declaration text held */
    long indexed;       /* declarations indexed */
};

static int entry_cmp(const void *a, const void *b)
{
    const set_entry *x = a, *y = b;
    int c = strcmp(x->span->name, y->span->name);

    /* Equal names: the earlier file first, then the earlier place in it, so that it wins. */
    if (c)
        return c;
    if (x->file != y->file)
        return x->file - y->file;
    return (x->span->start > y->span->start) - (x->span->start < y->span->start);
}

static bool stopped(const mc_parse_opts *opts)
{
    return opts && opts->stop && *opts->stop;
}

/* The folders Doom's declaration manager reads, in the order it registers them
 * (DeclManager.cpp idDeclManagerLocal::Init, then Game_local.cpp idGameLocal::Init), each with
 * the type of a declaration that names none. A declaration of any folder may name its type
 * (`material NAME { ... }` in a .def file), and each type is one namespace. */
static const struct {
    const char *dir, *ext, *type;
} DECL_FOLDERS[] = {
    { "materials", ".mtr", "material" },
    { "skins", ".skin", "skin" },
    { "sound", ".sndshd", "sound" },
    { "def", ".def", "entityDef" },
    { "fx", ".fx", "fx" },
    { "particles", ".prt", "particle" },
    { "af", ".af", "articulatedFigure" },
    { "newpdas", ".pda", "pda" },
};

/* Reads every DIR/NAME.EXT of the vfs into set->files and indexes its declarations of each
 * kind, those without a type word being `type`. */
static mc_status load_folder(mc_material_set *set, const char *dir, const char *ext,
                             const char *type, mc_error *err)
{
    char **names = NULL;
    int n = 0, first = set->num_files;
    mc_status st = mc_vfs_list(set->vfs, dir, ext, &names, &n, err);

    if (st != MC_OK)
        return st;
    if (n > 0) {
        set_file *grown = realloc(set->files, (size_t)(first + n) * sizeof *grown);

        if (!grown) {
            free(names);
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        memset(grown + first, 0, (size_t)n * sizeof *grown);
        set->files = grown;
        set->cap_files = first + n;
    }
    for (int i = 0; i < n && st == MC_OK; i++) {
        set_file *f = &set->files[first + i];
        char where[1024];
        uint8_t *data;
        size_t len;
        bool found;

        if (stopped(&set->opts)) {
            st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            break;
        }
        /* The declaration text left (MC_LIMIT_MTR_TEXT_BYTES for all files) is this file's
         * budget, checked on its declared size before it is read or inflated. */
        st = mc_vfs_read_max(set->vfs, names[i], MC_LIMIT_MTR_TEXT_BYTES - set->text_bytes, &data,
                             &len, &found, where, sizeof where, err);
        if (st != MC_OK)
            break;
        set->num_files = first + i + 1;
        f->text = (char *)data;
        f->len = len;
        f->where = strdup(where);
        if (!f->where) {
            st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        if (len > MC_LIMIT_MTR_TEXT_BYTES - set->text_bytes) {
            st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                              "the base's declaration files hold more than %zu bytes in all",
                              (size_t)MC_LIMIT_MTR_TEXT_BYTES);
            break;
        }
        set->text_bytes += len;
        for (int k = 0; k < NUM_KINDS && st == MC_OK; k++) {
            st = mc_decl_index_text(f->text, f->len, f->where, type, KIND_TYPES[k], &set->opts,
                                    &f->index[k], err);
            if (st == MC_OK) {
                set->indexed += f->index[k].num_spans;
                if (set->indexed > MC_LIMIT_MTR_INDEX)
                    st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                                      "the base's declaration files declare more than %d names",
                                      MC_LIMIT_MTR_INDEX);
            }
        }
    }
    free(names);
    return st;
}

/* Fills t with the declarations of kind k of every file, one per name. */
static mc_status make_table(mc_material_set *set, int k, decl_table *t, mc_error *err)
{
    long total = 0;
    int kept = 0;

    for (int f = 0; f < set->num_files; f++)
        total += set->files[f].index[k].num_spans;
    if (total > 0 && !(t->entries = calloc((size_t)total, sizeof *t->entries)))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int f = 0; f < set->num_files; f++)
        for (int d = 0; d < set->files[f].index[k].num_spans; d++)
            t->entries[t->count++] =
                    (set_entry){ .span = &set->files[f].index[k].spans[d], .file = f };
    if (t->count > 1)
        qsort(t->entries, (size_t)t->count, sizeof *t->entries, entry_cmp);
    /* Keep the first of each name: Doom's DeclManager.cpp, idDeclFile::LoadAndParse, skips a
     * declaration whose name another file (or an earlier place in the same one) already
     * defined ("previously defined at ..."), and reads its folders in the order they are
     * registered, each folder's files in sorted name order (idFileSystem::ListFiles with
     * sort). */
    for (int i = 0; i < t->count; i++)
        if (kept == 0 || strcmp(t->entries[kept - 1].span->name, t->entries[i].span->name))
            t->entries[kept++] = t->entries[i];
    t->count = kept;
    return MC_OK;
}

mc_status mc_material_set_load(mc_vfs *vfs, const mc_parse_opts *opts, mc_material_set **out,
                               mc_error *err)
{
    mc_material_set *set = calloc(1, sizeof *set);
    mc_status st;

    *out = NULL;
    if (!set)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    set->vfs = vfs;
    if (opts)
        set->opts = *opts;
    mc_vfs_set_stop(vfs, set->opts.stop);
    set->pixels = (px_budget){ 0, set->opts.image_pixels ? set->opts.image_pixels
                                                         : MC_LIMIT_SCENE_IMAGE_PIXELS,
                               "the scene" };
    st = MC_OK;
    for (size_t i = 0; i < sizeof DECL_FOLDERS / sizeof DECL_FOLDERS[0] && st == MC_OK; i++)
        st = load_folder(set, DECL_FOLDERS[i].dir, DECL_FOLDERS[i].ext, DECL_FOLDERS[i].type, err);
    if (st == MC_OK)
        st = make_table(set, KIND_MATERIAL, &set->materials, err);
    if (st == MC_OK)
        st = make_table(set, KIND_SKIN, &set->skins, err);
    if (st == MC_OK)
        st = make_table(set, KIND_TABLE, &set->tables, err);
    if (st != MC_OK) {
        mc_material_set_destroy(set);
        return st;
    }
    *out = set;
    return MC_OK;
}

/* Tables are one namespace over every declaration file (Material.cpp finds a table with
 * declManager->FindType(DECL_TABLE, ...)), while the parser looks in the declaration's own file:
 * each table that the parse names and its file lacks is appended, from the first file that
 * declares it, to a copy of the text, and the declaration parsed again. *perr holds the failed
 * parse on entry; returns the last parse's status (its warnings only once it is the last). */
static set_entry *lookup(const decl_table *t, const char *name);

static mc_status parse_with_tables(mc_material_set *set, set_entry *e, mc_error *perr)
{
    static const char unknown[] = "unknown table '";
    const set_file *f = &set->files[e->file];
    mc_parse_opts quiet = set->opts;
    size_t len = f->len;
    mc_status st = MC_ERR_SYNTAX;
    bool added = false;

    quiet.warn = NULL;
    for (int n = 0; n < MC_MATERIAL_MAX_TABLES && st == MC_ERR_SYNTAX; n++) {
        const char *q = perr->msg + sizeof unknown - 1, *close = strchr(q, '\'');
        char name[MC_LIMIT_NAME_LEN + 1];
        const set_entry *t;
        const set_file *tf;
        size_t tlen;
        char *grown;

        if (strncmp(perr->msg, unknown, sizeof unknown - 1) != 0 || !close ||
            (size_t)(close - q) >= sizeof name)
            break;
        memcpy(name, q, (size_t)(close - q));
        name[close - q] = '\0';
        t = lookup(&set->tables, name);
        if (!t)
            break;
        tf = &set->files[t->file];
        tlen = t->span->end - t->span->start;
        grown = realloc(e->text, len + tlen + 2);
        if (!grown)
            return mc_error_set(perr, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        if (!e->text)
            memcpy(grown, f->text, len);
        grown[len] = '\n';
        memcpy(grown + len + 1, tf->text + t->span->start, tlen);
        len += tlen + 1;
        grown[len] = '\0';
        e->text = grown;
        added = true;
        mc_mtr_release(&e->parsed);
        st = mc_mtr_parse_span(e->text, len, f->where, e->span, &quiet, &e->parsed, perr);
    }
    if (!added)
        return MC_ERR_SYNTAX;
    /* once more with the warnings, on the text the last try read */
    mc_mtr_release(&e->parsed);
    return mc_mtr_parse_span(e->text, len, f->where, e->span, &set->opts, &e->parsed, perr);
}

/* Parses e's declaration. One that fails becomes Doom's default material (idDecl's
 * MakeDefault after a failed Parse), with the failure as one warning at its position. */
static mc_status parse_entry(mc_material_set *set, set_entry *e, mc_error *err)
{
    set_file *f = &set->files[e->file];
    mc_error perr;
    mc_status st;

    set->parsed++;
    st = mc_mtr_parse_span_tables(f->text, f->len, f->where, e->span, &set->opts, &f->tables,
                                  &e->parsed, &perr);
    if (st == MC_ERR_SYNTAX)
        st = parse_with_tables(set, e, &perr);
    if (st == MC_OK)
        return MC_OK;
    if (st == MC_ERR_NOMEM || st == MC_ERR_INTERRUPTED) {
        *err = perr;
        return st;
    }
    if (set->opts.strict_game_data) { /* --strict: the error itself */
        *err = perr;
        return st;
    }
    if (set->opts.warn) {
        mc_error w;

        mc_error_set(&w, perr.code, perr.file, perr.line, perr.col,
                     "%s; material '%s' is drawn as the default material", perr.msg,
                     e->span->name);
        set->opts.warn(set->opts.warn_user, &w);
    }
    st = mc_mtr_default_decl(e->span->name, &e->parsed, err);
    if (st == MC_OK) {
        e->parsed.decls[0].line = e->span->line;
        e->parsed.decls[0].col = e->span->col;
    }
    return st;
}

/* The entry of `name` (canonicalised first), or NULL. */
static set_entry *lookup(const decl_table *t, const char *name)
{
    char c[MC_LIMIT_NAME_LEN + 1];
    int lo = 0, hi = t->count - 1;

    if (!mc_mtr_canonical(name, strlen(name), c, sizeof c))
        return NULL;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int cmp = strcmp(c, t->entries[mid].span->name);

        if (cmp == 0)
            return &t->entries[mid];
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return NULL;
}

const mc_material *mc_material_set_find(mc_material_set *set, const char *name, mc_status *status,
                                        mc_error *err)
{
    set_entry *e = lookup(&set->materials, name);

    *status = MC_OK;
    if (!e)
        return NULL;
    if (!e->resolved) {
        if (stopped(&set->opts)) {
            *status = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            return NULL;
        }
        if (!e->parsed.decls && (*status = parse_entry(set, e, err)) != MC_OK)
            return NULL;
        *status = resolve(&e->parsed.decls[0], set->files[e->file].where, set->vfs,
                          &set->pixels, &e->material, err);
        if (*status != MC_OK)
            return NULL;
        e->resolved = 1;
    }
    return &e->material;
}

const char *mc_material_set_declared(const mc_material_set *set, const char *name, int *line)
{
    const set_entry *e = lookup(&set->materials, name);

    if (!e)
        return NULL;
    if (line)
        *line = e->span->line;
    return set->files[e->file].where;
}

const mc_skin *mc_material_set_skin(mc_material_set *set, const char *name, mc_status *status,
                                    mc_error *err)
{
    set_entry *e = lookup(&set->skins, name);

    *status = MC_OK;
    if (!e)
        return NULL;
    if (!e->resolved) {
        const set_file *f = &set->files[e->file];

        *status = mc_skinfile_parse_span(f->text, f->len, f->where, e->span, &e->skin, err);
        if (*status != MC_OK)
            return NULL;
        e->resolved = 1;
    }
    return &e->skin;
}

int mc_material_set_parsed(const mc_material_set *set)
{
    return set->parsed;
}

int mc_material_set_count(const mc_material_set *set)
{
    return set->materials.count;
}

const char *mc_material_set_name(const mc_material_set *set, int i)
{
    return set->materials.entries[i].span->name;
}

void mc_material_set_destroy(mc_material_set *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->materials.count; i++) {
        mc_material_release(&set->materials.entries[i].material);
        mc_mtr_release(&set->materials.entries[i].parsed);
        free(set->materials.entries[i].text);
    }
    for (int i = 0; i < set->skins.count; i++)
        mc_skinfile_release(&set->skins.entries[i].skin);
    free(set->materials.entries);
    free(set->skins.entries);
    free(set->tables.entries);
    for (int i = 0; set->files && i < set->cap_files; i++) {
        for (int k = 0; k < NUM_KINDS; k++)
            mc_mtr_index_release(&set->files[i].index[k]);
        mc_expr_tables_release(set->files[i].tables);
        free(set->files[i].text);
        free(set->files[i].where);
    }
    free(set->files);
    free(set);
}
