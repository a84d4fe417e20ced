/* The render run's sink (render_run_int.h): where a finished frame goes -- the encoder, the
 * PNG sequence, the reference check, or several of these -- on the pipeline's sink threads. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/render_run_int.h"

double mc_rr_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An output without MC_OUTPUT_PARALLEL (an encoder), and a video reference (read forward only),
 * need frames in order, one thread; PNG files and a folder reference may be written and checked
 * by two at once. */
int mc_rr_sink_threads(unsigned props, bool video_reference)
{
    bool in_order = (props != 0 && !(props & MC_OUTPUT_PARALLEL)) || video_reference;

    return in_order ? 1 : 2;
}

mc_status mc_rr_sink_open(mc_rr_sink *s, mc_error *err)
{
    s->per_thread = calloc((size_t)s->threads, sizeof *s->per_thread);
    if (!s->per_thread)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < s->threads && s->pattern; i++) {
        mc_status st = mc_png_writer_init(&s->per_thread[i].png, s->width, s->height,
                                          s->png_alpha, err);

        if (st != MC_OK)
            return st;
    }
    return MC_OK;
}

void mc_rr_sink_close(mc_rr_sink *s)
{
    if (!s->per_thread)
        return;
    for (int i = 0; i < s->threads; i++)
        mc_png_writer_release(&s->per_thread[i].png);
    free(s->per_thread);
    s->per_thread = NULL;
}

mc_status mc_rr_sink_frame(void *user, int thread, const uint8_t *rgba, int64_t frame,
                           mc_error *err)
{
    mc_rr_sink *s = user;
    mc_rr_sink_thread *t = &s->per_thread[thread];
    double t0 = mc_rr_now(), t1;
    mc_status st;

    if (s->enc) {
        st = mc_encoder_write_rgba(s->enc, rgba, (size_t)s->width * 4, err);
        if (st != MC_OK)
            return st;
        t1 = mc_rr_now();
        t->encode_s += t1 - t0;
        t0 = t1;
    }
    if (s->pattern) {
        st = mc_png_writer_write(&t->png, s->pattern, rgba, frame, err);
        if (st != MC_OK)
            return st;
        t1 = mc_rr_now();
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
        t->compare_s += mc_rr_now() - t0;
    }
    return MC_OK;
}
