/* md5cine render: where finished frames go -- the encoder, a PNG sequence, a comparison with
 * reference frames (refcheck.h), or several of these (the pipeline's sink function). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render_cli.h"

/* The renderer's frame over a transparent background is premultiplied: an edge pixel that
 * covers a share a of a surface of colour c reads back as (c * a, a). PNG alpha is straight,
 * so c = rgb * 255 / a (rounded, at most 255); fully transparent pixels stay black. */
static const uint8_t *unpremultiply(const uint8_t *rgba, int w, int h, uint8_t *out)
{
    size_t n = (size_t)w * (size_t)h * 4;

    for (size_t i = 0; i < n; i += 4) {
        unsigned a = rgba[i + 3];

        for (size_t c = 0; c < 3; c++) {
            unsigned v = a == 0 ? 0u : (rgba[i + c] * 255u + a / 2u) / a;

            out[i + c] = (uint8_t)(v > 255u ? 255u : v);
        }
        out[i + 3] = (uint8_t)a;
    }
    return out;
}

static mc_status write_png(mc_sink_thread *t, const char *path, const uint8_t *rgba, int w, int h,
                           int alpha, mc_error *err)
{
    mc_status st;

    if (alpha)
        rgba = unpremultiply(rgba, w, h, t->straight);
    st = mc_png_encode(rgba, w, h, (size_t)w * 4, alpha, &t->png, err);

    if (st != MC_OK)
        return st;
    return mc_png_save(path, &t->png, err);
}

mc_status mc_sink_frame(void *user, int thread, const uint8_t *rgba, int64_t frame, mc_error *err)
{
    mc_sink *s = user;
    mc_sink_thread *t = &s->per_thread[thread];
    double t0 = mc_cli_now(), t1;
    mc_status st;

    if (s->enc) {
        st = mc_encoder_write_rgba(s->enc, rgba, (size_t)s->width * 4, err);
        if (st != MC_OK)
            return st;
        t1 = mc_cli_now();
        t->encode_s += t1 - t0;
        t0 = t1;
    }
    if (s->pattern) {
        if (!mc_png_pattern_format(s->pattern, frame, t->path, sizeof t->path))
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "output file name too long");
        st = write_png(t, t->path, rgba, s->width, s->height, s->png_alpha ? 1 : 0, err);
        if (st != MC_OK)
            return st;
        t1 = mc_cli_now();
        t->png_s += t1 - t0;
        t0 = t1;
    }
    if (s->ref) {
        /* The checker only reads the pixels; the view type has no const variant. */
        mc_image_view v = { s->width, s->height, (size_t)s->width * 4,
                            (uint8_t *)(uintptr_t)rgba };

        st = mc_refcheck_frame(s->ref, thread, &v, frame, err);
        if (st != MC_OK)
            return st;
        t->compare_s += mc_cli_now() - t0;
    }
    return MC_OK;
}
