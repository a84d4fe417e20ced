/* A video's chapters as shots (frames_in.h, mc_report_chapters). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libavformat/avformat.h>
#include <libavutil/dict.h>

#include <md5cine/frames_in.h>

#include "chunk_internal.h"

/* N of a title "Shot N" (N >= 1), else fallback. */
static int shot_number(const AVChapter *ch, int fallback)
{
    const AVDictionaryEntry *t = av_dict_get(ch->metadata, "title", NULL, 0);
    char *end;
    long n;

    if (!t || strncmp(t->value, "Shot ", 5) != 0)
        return fallback;
    n = strtol(t->value + 5, &end, 10);
    return end != t->value + 5 && *end == '\0' && n >= 1 && n <= INT_MAX ? (int)n : fallback;
}

/* The chapters of an opened file with its video stream's rate. */
static mc_status collect(AVFormatContext *fmt, AVRational fps, mc_shot_range **out,
                         size_t *count, mc_error *err)
{
    AVRational frame = av_inv_q(fps);
    mc_shot_range *s = calloc(fmt->nb_chapters, sizeof *s);
    size_t n = 0;

    if (!s)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (unsigned i = 0; i < fmt->nb_chapters; i++) {
        const AVChapter *ch = fmt->chapters[i];
        int64_t a = av_rescale_q(ch->start, ch->time_base, frame);
        int64_t b = av_rescale_q(ch->end, ch->time_base, frame) - 1;

        if (b < a || a < 0 || (n > 0 && a <= s[n - 1].last))
            continue; /* empty, before the start, or overlapping the one before */
        s[n].number = shot_number(ch, (int)i + 1);
        s[n].first = a;
        s[n].last = b;
        n++;
    }
    if (n == 0) {
        free(s);
        s = NULL;
    }
    *out = s;
    *count = n;
    return MC_OK;
}

mc_status mc_report_chapters(const char *path, mc_shot_range **out, size_t *count,
                             mc_error *err)
{
    AVFormatContext *fmt = NULL;
    mc_status st = MC_OK;
    int vs;

    *out = NULL;
    *count = 0;
    /* A local regular file only, as frames_in.c opens it; other failures leave no chapters. */
    st = mc_chunk_open_input(path, NULL, &fmt, err);
    if (st == MC_ERR_NOMEM)
        return st;
    st = MC_OK;
    if (fmt && fmt->nb_chapters > 0 && avformat_find_stream_info(fmt, NULL) >= 0 &&
        (vs = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0)) >= 0) {
        AVRational fps = fmt->streams[vs]->avg_frame_rate;

        if (fps.num <= 0 || fps.den <= 0)
            fps = fmt->streams[vs]->r_frame_rate;
        if (fps.num > 0 && fps.den > 0)
            st = collect(fmt, fps, out, count, err);
    }
    avformat_close_input(&fmt);
    return st;
}
