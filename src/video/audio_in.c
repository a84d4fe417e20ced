/* A video's sound read back (audio_in.h): demuxed with libavformat, decoded with libavcodec,
 * resampled to float stereo with libswresample. */
#include <errno.h>
#include <inttypes.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mathematics.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/audio_in.h>
#include <md5cine/limits.h>

#include "video/chunk_internal.h"
#include "video/ffmpeg_log.h"

#define CHUNK      8192 /* output frames converted at a time */
#define MAX_PLANES 64   /* channels of a planar track read: libswresample takes no more */

typedef struct reader {
    const char *path;
    mc_audio_track *clip;
    AVFormatContext *fmt;
    AVCodecContext *dec;
    SwrContext *swr;
    AVPacket *pkt;
    AVFrame *frame;
    int stream;
    int64_t cap;   /* frames clip->samples holds */
    int64_t limit; /* frames allowed: MC_LIMIT_AUDIO_SECONDS at the rate */
    bool started;  /* the first frame's time is known and the resampler set up */
    float out[CHUNK * 2];
} reader;

static mc_status av_fail(mc_error *err, mc_status code, const char *path, const char *what, int rc)
{
    char text[128];

    if (av_strerror(rc, text, sizeof text) < 0)
        snprintf(text, sizeof text, "error %d", rc);
    return mc_error_set(err, code, path, 0, 0, "%s '%s': %s", what, path, text);
}

static mc_status too_long(const reader *r, mc_error *err)
{
    return mc_error_set(err, MC_ERR_LIMIT, r->path, 0, 0,
                        "the sound of '%s' is longer than %d seconds (MC_LIMIT_AUDIO_SECONDS)",
                        r->path, MC_LIMIT_AUDIO_SECONDS);
}

/* Opens the file and the best audio stream's decoder; no stream: clip->has_audio stays
 * false and r->dec NULL. */
static mc_status open_track(reader *r, mc_error *err)
{
    const AVCodec *codec = NULL;
    const AVStream *st;
    mc_status s = mc_chunk_open_input(r->path, NULL, &r->fmt, err);
    int64_t stated = 0; /* seconds */
    int rc;

    if (s != MC_OK)
        return s;
    rc = avformat_find_stream_info(r->fmt, NULL);
    if (rc < 0)
        return av_fail(err, MC_ERR_IMAGE, r->path, "cannot read video", rc);
    rc = av_find_best_stream(r->fmt, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
    if (rc == AVERROR_STREAM_NOT_FOUND)
        return MC_OK;
    st = rc >= 0 ? r->fmt->streams[rc] : NULL;
    if (!st || !codec)
        return mc_error_set(err, MC_ERR_IMAGE, r->path, 0, 0,
                            "'%s' has a sound track this build cannot decode", r->path);
    r->stream = rc;
    r->clip->has_audio = true;
    snprintf(r->clip->codec, sizeof r->clip->codec, "%s", codec->name);
    r->clip->source_rate = st->codecpar->sample_rate;
    r->clip->source_channels = st->codecpar->ch_layout.nb_channels;
    /* what the file states (not a guess from its bitrate): refused before any decoding */
    if (st->duration > 0 && st->time_base.num > 0)
        stated = av_rescale_q(st->duration, st->time_base, (AVRational){ 1, 1 });
    else if (r->fmt->duration > 0 &&
             r->fmt->duration_estimation_method != AVFMT_DURATION_FROM_BITRATE)
        stated = r->fmt->duration / AV_TIME_BASE;
    if (stated > MC_LIMIT_AUDIO_SECONDS)
        return mc_error_set(err, MC_ERR_LIMIT, r->path, 0, 0,
                            "the sound of '%s' lasts %" PRId64 " seconds, longer than %d "
                            "(MC_LIMIT_AUDIO_SECONDS)",
                            r->path, stated, MC_LIMIT_AUDIO_SECONDS);
    r->dec = avcodec_alloc_context3(codec);
    r->pkt = av_packet_alloc();
    r->frame = av_frame_alloc();
    if (!r->dec || !r->pkt || !r->frame)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rc = avcodec_parameters_to_context(r->dec, st->codecpar);
    if (rc >= 0) {
        r->dec->pkt_timebase = st->time_base;
        rc = avcodec_open2(r->dec, codec, NULL);
    }
    if (rc < 0)
        return av_fail(err, rc == AVERROR(ENOMEM) ? MC_ERR_NOMEM : MC_ERR_IMAGE, r->path,
                       "cannot open the sound decoder of", rc);
    return MC_OK;
}

/* On the first decoded frame: where the clip starts, and the resampler from its format. */
static mc_status start(reader *r, const AVFrame *f, mc_error *err)
{
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO, in;
    const AVStream *st = r->fmt->streams[r->stream];
    int64_t pts = f->best_effort_timestamp;
    int rc;

    if (pts != AV_NOPTS_VALUE)
        r->clip->first = av_rescale_q_rnd(pts, st->time_base, (AVRational){ 1, r->clip->rate },
                                          AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX);
    /* a stream that names no channels: the usual layout of its count */
    if (f->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
        av_channel_layout_default(&in, f->ch_layout.nb_channels);
    else if (av_channel_layout_copy(&in, &f->ch_layout) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rc = swr_alloc_set_opts2(&r->swr, &stereo, AV_SAMPLE_FMT_FLT, r->clip->rate, &in,
                             (enum AVSampleFormat)f->format, f->sample_rate, 0, NULL);
    av_channel_layout_uninit(&in);
    if (rc >= 0 && r->swr)
        rc = swr_init(r->swr);
    if (rc < 0 || !r->swr)
        return mc_error_set(err, MC_ERR_IMAGE, r->path, 0, 0,
                            "cannot resample the sound of '%s' (%d channels at %d Hz)", r->path,
                            f->ch_layout.nb_channels, f->sample_rate);
    r->started = true;
    return MC_OK;
}

/* Appends n converted frames of r->out to the clip, scaled to 16-bit. */
static mc_status append(reader *r, int n, mc_error *err)
{
    mc_audio_track *c = r->clip;

    if (c->frames + n > r->limit)
        return too_long(r, err);
    if (c->frames + n > r->cap) {
        int64_t cap = r->cap ? r->cap * 2 : (int64_t)c->rate * 4;
        float *p;

        while (cap < c->frames + n)
            cap *= 2;
        if (cap > r->limit)
            cap = r->limit;
        p = realloc(c->samples, (size_t)cap * 2 * sizeof *p);
        if (!p)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        c->samples = p;
        r->cap = cap;
    }
    for (int i = 0; i < 2 * n; i++)
        c->samples[c->frames * 2 + i] = r->out[i] * 32768.0f;
    c->frames += n;
    return MC_OK;
}

/* Resamples frame f (NULL: what the resampler still holds) into the clip. */
static mc_status convert(reader *r, const AVFrame *f, mc_error *err)
{
    const uint8_t *planes[MAX_PLANES], **in = NULL;
    int count = f ? f->nb_samples : 0;
    mc_status s = MC_OK;

    if (f && !r->started && (s = start(r, f, err)) != MC_OK)
        return s;
    if (!r->started)
        return MC_OK;
    if (f) {
        int n = av_sample_fmt_is_planar((enum AVSampleFormat)f->format) ? f->ch_layout.nb_channels
                                                                        : 1;

        if (n > MAX_PLANES)
            return mc_error_set(err, MC_ERR_IMAGE, r->path, 0, 0,
                                "the sound of '%s' has %d channels, more than %d", r->path,
                                f->ch_layout.nb_channels, MAX_PLANES);
        for (int i = 0; i < n; i++)
            planes[i] = f->extended_data[i];
        in = planes;
    }
    do {
        uint8_t *out[1] = { (uint8_t *)r->out };
        int n = swr_convert(r->swr, out, CHUNK, in, count);

        if (n < 0)
            return mc_error_set(err, MC_ERR_IMAGE, r->path, 0, 0,
                                "the sound of '%s' changes its format midway", r->path);
        if (n > 0)
            s = append(r, n, err);
        if (s != MC_OK || n < CHUNK)
            return s;
        in = NULL; /* the rest of what it holds */
        count = 0;
    } while (true);
}

/* Sends one packet (NULL: the end) and converts every frame the decoder has ready. */
static mc_status decode(reader *r, const AVPacket *pkt, mc_error *err)
{
    mc_status s = MC_OK;
    int rc = avcodec_send_packet(r->dec, pkt);

    if (rc < 0 && rc != AVERROR_EOF)
        return av_fail(err, rc == AVERROR(ENOMEM) ? MC_ERR_NOMEM : MC_ERR_IMAGE, r->path,
                       "cannot decode the sound of", rc);
    while (s == MC_OK && (rc = avcodec_receive_frame(r->dec, r->frame)) >= 0) {
        s = convert(r, r->frame, err);
        av_frame_unref(r->frame);
    }
    if (s == MC_OK && rc != AVERROR(EAGAIN) && rc != AVERROR_EOF)
        return av_fail(err, rc == AVERROR(ENOMEM) ? MC_ERR_NOMEM : MC_ERR_IMAGE, r->path,
                       "cannot decode the sound of", rc);
    return s;
}

static mc_status read_all(reader *r, mc_error *err)
{
    mc_status s = open_track(r, err);
    int rc = 0;

    if (s != MC_OK || !r->dec)
        return s;
    while (s == MC_OK && (rc = av_read_frame(r->fmt, r->pkt)) >= 0) {
        if (r->pkt->stream_index == r->stream)
            s = decode(r, r->pkt, err);
        av_packet_unref(r->pkt);
    }
    if (s == MC_OK && rc != AVERROR_EOF)
        return av_fail(err, MC_ERR_IMAGE, r->path, "cannot read video", rc);
    if (s == MC_OK)
        s = decode(r, NULL, err);
    return s == MC_OK ? convert(r, NULL, err) : s;
}

mc_status mc_audio_read(const char *path, int rate, mc_audio_track *out, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    reader *r;
    mc_status s;

    memset(out, 0, sizeof *out);
    out->rate = rate;
    if (rate < 8000 || rate > 96000)
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                            "sound rate %d Hz is not within 8000..96000", rate);
    r = calloc(1, sizeof *r); /* r->out is 64 KiB: not on the stack */
    if (!r)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    r->path = path;
    r->clip = out;
    r->limit = (int64_t)MC_LIMIT_AUDIO_SECONDS * rate;
    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    s = read_all(r, err);
    swr_free(&r->swr);
    av_frame_free(&r->frame);
    av_packet_free(&r->pkt);
    avcodec_free_context(&r->dec);
    avformat_close_input(&r->fmt);
    mc_ffmpeg_log_leave(&sc);
    free(r);
    if (s != MC_OK)
        mc_audio_track_release(out);
    return s;
}

void mc_audio_track_release(mc_audio_track *clip)
{
    if (!clip)
        return;
    free(clip->samples);
    memset(clip, 0, sizeof *clip);
}
