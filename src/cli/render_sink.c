/* md5cine render: where finished frames go -- the encoder, a PNG sequence, a comparison with
 * reference frames (refcheck.h), or several of these (the pipeline's sink function). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render_cli.h"

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
        st = mc_png_writer_write(&t->png, s->pattern, rgba, frame, err);
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
