/* Image programs (material.h, mc_imgprog_eval): heightmap, addnormals, smoothnormals, add,
 * scale, invert, makeIntensity, makeAlpha ... and their evaluation. */
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

#include "material/material_int.h"

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
    if (!mat_make_image(a->width, a->height, out))
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
        st = mat_load_image(g->name, vfs, pixels, out, fell_back, src, err);
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

mc_status mat_eval_program(const mc_mtr_prog *prog, mc_vfs *vfs, mc_image *out, bool *fell_back,
                           char **sources, px_budget *pixels, mc_error *err)
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

    return mat_eval_program(prog, vfs, out, fell_back, sources, &pixels, err);
}
