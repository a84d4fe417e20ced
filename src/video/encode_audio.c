/* The AAC track of a video (encode_audio.h, encode.h "Sound"). */
#include "video/encode_audio.h"

#include <errno.h>
#include <inttypes.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mathematics.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/types.h>

#include "video/chunk_internal.h"

#define AAC_FRAME 1024 /* samples per AAC-LC frame, and the encoder's priming */
#define BLOCK     4096 /* mix frames handed to the resampler at a time */
/* Mix frames the resampler sees before a chunk's first sample at least: more than half its
 * filter (libswresample's default filter_size is 32 taps), so that the samples kept are those
 * the whole mix resampled from time 0 would give, not those of the filter's start. */
#define PREROLL 64

struct mc_aac_track {
    const float *mix;
    int64_t mix_frames;
    int rate;
    mc_rate fps;
    int64_t first_frame;
    int64_t j0;       /* output sample (at rate, from time 0) of the track's first sample */
    int64_t in_next;  /* the next mix frame for the resampler (past the end: silence) */
    int64_t fifo_pos; /* output sample of the fifo's first sample */
    int64_t sent;     /* samples given to the encoder: the next frame starts at j0 + sent */
    bool mov;         /* MP4 or MOV: an edit list cuts the priming */
    const char *path;
    AVCodecContext *cc;
    AVStream *st;
    SwrContext *swr;
    AVAudioFifo *fifo;
    AVFrame *frame;
    AVPacket *pkt;
    float *in;     /* BLOCK frames of the mix, interleaved, scaled to +-1 */
    uint8_t **out; /* the resampler's output, two planes of out_cap */
    int out_cap;
};

static const char *av_text(int rc, char *buf, size_t cap)
{
    if (av_strerror(rc, buf, cap) < 0)
        snprintf(buf, cap, "error %d", rc);
    return buf;
}

/* The output sample at the start of output frame f: round(f * den * rate / num). */
static int64_t sample_at(const mc_aac_track *t, int64_t f)
{
    return av_rescale_rnd(f, (int64_t)t->fps.den * t->rate, t->fps.num, AV_ROUND_NEAR_INF);
}

/* ------------------------------------------------------------------------------------- */
/* Checks                                                                                */

static const AVCodec *aac_encoder(const char *path, mc_error *err)
{
    const AVCodec *c = avcodec_find_encoder_by_name("aac");

    if (!c || c->type != AVMEDIA_TYPE_AUDIO)
        mc_error_set(err, MC_ERR_CODEC, path, 0, 0,
                     "this libavcodec has no 'aac' encoder for the sound of '%s'", path);
    return c && c->type == AVMEDIA_TYPE_AUDIO ? c : NULL;
}

static mc_status check_rate(const AVCodec *c, int rate, const char *path, mc_error *err)
{
    char list[256] = "";
    size_t len = 0;

    for (const int *r = c->supported_samplerates; r && *r; r++) {
        if (*r == rate)
            return MC_OK;
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", len ? ", " : "", *r);
    }
    if (!c->supported_samplerates && rate >= 8000 && rate <= 96000)
        return MC_OK;
    return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                        "audio rate %d Hz is not one the AAC encoder takes (%s)", rate,
                        len ? list : "8000..96000");
}

mc_status mc_aac_check(const mc_audio_desc *a, const char *path, mc_error *err)
{
    const AVCodec *c;
    mc_status s;

    if (!a->mix)
        return MC_OK;
    if (a->frames < 0 || a->frames > INT64_MAX / 2)
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0, "the sound mix has %" PRId64 " frames",
                            a->frames);
    if (a->bitrate != 0 && (a->bitrate < 16000 || a->bitrate > 512000))
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                            "audio bitrate %d is not within 16000..512000 bits per second",
                            a->bitrate);
    c = aac_encoder(path, err);
    if (!c)
        return MC_ERR_CODEC;
    s = check_rate(c, a->rate ? a->rate : MC_ENCODER_DEFAULT_AUDIO_RATE, path, err);
    if (s != MC_OK)
        return s;
    for (int64_t i = 0; i < a->frames * 2; i++)
        if (!isfinite(a->mix[i]))
            return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                                "the sound mix's %s sample %" PRId64 " (%.6f s) is not a finite "
                                "number",
                                i % 2 ? "right" : "left", i / 2, (double)(i / 2) / MC_SOUND_RATE);
    return MC_OK;
}

/* ------------------------------------------------------------------------------------- */
/* Opening                                                                               */

static mc_status open_encoder(mc_aac_track *t, AVFormatContext *oc, const AVCodec *codec,
                              int bitrate, mc_error *err)
{
    const AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    AVCodecContext *cc = avcodec_alloc_context3(codec);
    char text[128];
    int rc;

    if (!cc)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    t->cc = cc;
    cc->sample_fmt = AV_SAMPLE_FMT_FLTP;
    cc->sample_rate = t->rate;
    if (av_channel_layout_copy(&cc->ch_layout, &stereo) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    cc->bit_rate = bitrate;
    cc->profile = FF_PROFILE_AAC_LOW;
    cc->time_base = (AVRational){ 1, t->rate };
    cc->thread_count = 1;
    cc->flags |= AV_CODEC_FLAG_BITEXACT;
    if (oc->oformat->flags & AVFMT_GLOBALHEADER)
        cc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    rc = avcodec_open2(cc, codec, NULL);
    if (rc < 0)
        return mc_error_set(err, rc == AVERROR(ENOMEM) ? MC_ERR_NOMEM : MC_ERR_CODEC, t->path, 0, 0,
                            "the AAC encoder refused the sound settings (%d Hz, %d b/s): %s",
                            t->rate, bitrate, av_text(rc, text, sizeof text));
    if (cc->frame_size != AAC_FRAME)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0,
                            "the AAC encoder takes frames of %d samples, not %d", cc->frame_size,
                            AAC_FRAME);
    t->st = avformat_new_stream(oc, NULL);
    if (!t->st || avcodec_parameters_from_context(t->st->codecpar, cc) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    t->st->time_base = cc->time_base;
    return MC_OK;
}

/* The resampler (interleaved float at the mix's rate to planar float at the track's), where it
 * starts in the mix, and the buffers between it and the encoder. It starts on a mix frame that
 * falls on an output sample (a multiple of 44100 / gcd(44100, rate)), a pre-roll before the
 * track's first sample, so that every sample kept has the value the whole mix resampled from
 * time 0 gives it (libswresample's output sample k is at input time k * 44100 / rate). */
static mc_status open_resampler(mc_aac_track *t, mc_error *err)
{
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO; /* swr_alloc_set_opts2 takes no const */
    int64_t g = av_gcd(MC_SOUND_RATE, t->rate), lin = MC_SOUND_RATE / g, lout = t->rate / g;
    int64_t i = av_rescale_rnd(t->j0, MC_SOUND_RATE, t->rate, AV_ROUND_DOWN) / lin * lin;

    i -= (PREROLL + lin - 1) / lin * lin;
    t->in_next = i > 0 ? i : 0;
    t->fifo_pos = t->in_next / lin * lout;
    if (swr_alloc_set_opts2(&t->swr, &stereo, AV_SAMPLE_FMT_FLTP, t->rate, &stereo,
                            AV_SAMPLE_FMT_FLT, MC_SOUND_RATE, 0, NULL) < 0 ||
        !t->swr)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (swr_init(t->swr) < 0)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0,
                            "cannot resample the sound from %d to %d Hz", MC_SOUND_RATE, t->rate);
    t->out_cap = (int)av_rescale_rnd(BLOCK, t->rate, MC_SOUND_RATE, AV_ROUND_UP) + 1024;
    t->fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, 2, t->out_cap + AAC_FRAME);
    t->in = malloc(sizeof *t->in * BLOCK * 2);
    t->frame = av_frame_alloc();
    t->pkt = av_packet_alloc();
    if (!t->fifo || !t->in || !t->frame || !t->pkt ||
        av_samples_alloc_array_and_samples(&t->out, NULL, 2, t->out_cap, AV_SAMPLE_FMT_FLTP, 0) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    t->frame->format = AV_SAMPLE_FMT_FLTP;
    t->frame->sample_rate = t->rate;
    t->frame->nb_samples = AAC_FRAME;
    if (av_channel_layout_copy(&t->frame->ch_layout, &stereo) < 0 ||
        av_frame_get_buffer(t->frame, 0) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return MC_OK;
}

mc_status mc_aac_open(AVFormatContext *oc, const mc_audio_desc *a, mc_rate fps, int64_t first_frame,
                      const char *path, mc_aac_track **out, mc_error *err)
{
    const AVCodec *codec = aac_encoder(path, err);
    mc_aac_track *t;
    mc_status s;

    *out = NULL;
    if (!codec)
        return MC_ERR_CODEC;
    t = calloc(1, sizeof *t);
    if (!t)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    t->mix = a->mix;
    t->mix_frames = a->frames;
    t->rate = a->rate ? a->rate : MC_ENCODER_DEFAULT_AUDIO_RATE;
    t->fps = fps;
    t->path = path;
    t->first_frame = first_frame;
    t->j0 = sample_at(t, first_frame);
    if (t->j0 < AAC_FRAME) { /* see encode.h: the sound from time 0 */
        t->j0 = 0;
        t->first_frame = 0;
    }
    t->mov = strcmp(oc->oformat->name, "mp4") == 0 || strcmp(oc->oformat->name, "mov") == 0;
    /* Matroska has no edit list: the priming packet keeps its time, before the first sample
     * (negative in a file from time 0), rather than every stream being shifted later by it. */
    if (strcmp(oc->oformat->name, "matroska") == 0)
        oc->avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED;
    s = open_encoder(t, oc, codec, a->bitrate ? a->bitrate : MC_ENCODER_DEFAULT_AUDIO_BITRATE, err);
    if (s == MC_OK)
        s = open_resampler(t, err);
    if (s != MC_OK) {
        mc_aac_close(t);
        return s;
    }
    *out = t;
    return MC_OK;
}

void mc_aac_close(mc_aac_track *t)
{
    if (!t)
        return;
    avcodec_free_context(&t->cc);
    swr_free(&t->swr);
    if (t->fifo)
        av_audio_fifo_free(t->fifo);
    av_frame_free(&t->frame);
    av_packet_free(&t->pkt);
    if (t->out)
        av_freep(&t->out[0]);
    av_freep(&t->out);
    free(t->in);
    free(t);
}

/* ------------------------------------------------------------------------------------- */
/* Encoding                                                                              */

/* Resamples the next BLOCK mix frames (silence past the mix's end) into the fifo, dropping
 * what comes before the track's first sample. The blocks depend only on where the track
 * starts, never on how far the caller asks for, so the same mix gives the same samples. */
static mc_status feed(mc_aac_track *t, mc_error *err)
{
    const uint8_t *src[1] = { (const uint8_t *)t->in };
    int n;

    for (int64_t k = 0; k < BLOCK; k++) {
        int64_t i = t->in_next + k;
        bool inside = i < t->mix_frames;

        /* 1/32768: the scale 16-bit PCM is read at (an exact power of two) */
        t->in[2 * k] = inside ? t->mix[2 * i] * (1.0f / 32768.0f) : 0.0f;
        t->in[2 * k + 1] = inside ? t->mix[2 * i + 1] * (1.0f / 32768.0f) : 0.0f;
    }
    t->in_next += BLOCK;
    n = swr_convert(t->swr, t->out, t->out_cap, src, BLOCK);
    if (n < 0)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0, "cannot resample the sound");
    if (av_audio_fifo_write(t->fifo, (void **)t->out, n) < n)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (t->fifo_pos < t->j0) {
        int64_t d = t->j0 - t->fifo_pos;
        int size = av_audio_fifo_size(t->fifo);

        if (d > size)
            d = size;
        av_audio_fifo_drain(t->fifo, (int)d);
        t->fifo_pos += d;
    }
    return MC_OK;
}

/* Moves every packet the encoder has ready into the file. */
static mc_status drain(mc_aac_track *t, AVFormatContext *oc, mc_error *err)
{
    char text[128];
    int rc;

    for (;;) {
        rc = avcodec_receive_packet(t->cc, t->pkt);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return MC_OK;
        if (rc < 0)
            return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0, "the AAC encoder failed: %s",
                                av_text(rc, text, sizeof text));
        av_packet_rescale_ts(t->pkt, t->cc->time_base, t->st->time_base);
        t->pkt->stream_index = t->st->index;
        rc = av_interleaved_write_frame(oc, t->pkt);
        if (rc >= 0 && oc->pb->error < 0)
            rc = oc->pb->error;
        if (rc < 0)
            return mc_error_set(err, MC_ERR_IO, t->path, 0, 0, "cannot write '%s': %s", t->path,
                                av_text(rc, text, sizeof text));
    }
}

/* Encodes the next n samples of the track (n <= AAC_FRAME; less only for the last frame). */
static mc_status encode_frame(mc_aac_track *t, AVFormatContext *oc, int n, mc_error *err)
{
    char text[128];
    mc_status s;
    int rc;

    while (t->fifo_pos + av_audio_fifo_size(t->fifo) < t->j0 + t->sent + n)
        if ((s = feed(t, err)) != MC_OK)
            return s;
    /* the encoder may still hold the last frame's buffer: write into a free one */
    if (av_frame_make_writable(t->frame) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    t->frame->nb_samples = n;
    if (av_audio_fifo_read(t->fifo, (void **)t->frame->data, n) < n)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0, "the sound fifo ran dry");
    t->fifo_pos += n;
    t->frame->pts = t->j0 + t->sent;
    t->sent += n;
    rc = avcodec_send_frame(t->cc, t->frame);
    t->frame->nb_samples = AAC_FRAME;
    if (rc < 0)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0, "the AAC encoder failed: %s",
                            av_text(rc, text, sizeof text));
    return drain(t, oc, err);
}

mc_status mc_aac_write_until(mc_aac_track *t, AVFormatContext *oc, int64_t frame, mc_error *err)
{
    int64_t until = sample_at(t, frame);
    mc_status s = MC_OK;

    while (s == MC_OK && t->j0 + t->sent + AAC_FRAME <= until)
        s = encode_frame(t, oc, AAC_FRAME, err);
    return s;
}

mc_status mc_aac_finish(mc_aac_track *t, AVFormatContext *oc, int64_t end_frame, mc_error *err)
{
    int64_t rest;
    char text[128];
    mc_status s = mc_aac_write_until(t, oc, end_frame, err);
    int rc;

    rest = sample_at(t, end_frame) - (t->j0 + t->sent);
    if (s == MC_OK && rest > 0)
        s = encode_frame(t, oc, (int)rest, err);
    if (s != MC_OK)
        return s;
    rc = avcodec_send_frame(t->cc, NULL);
    if (rc < 0 && rc != AVERROR_EOF)
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0, "the AAC encoder failed: %s",
                            av_text(rc, text, sizeof text));
    return drain(t, oc, err);
}

/* ------------------------------------------------------------------------------------- */
/* The edit list of an MP4/MOV chunk                                                     */

typedef struct box {
    char type[5];
    int64_t body; /* offset of its contents */
    int64_t end;  /* offset just past it */
} box;

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;

    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_be(uint8_t *p, int n, uint64_t v)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static bool read_at(FILE *f, int64_t pos, void *buf, size_t n)
{
    return fseeko(f, (off_t)pos, SEEK_SET) == 0 && fread(buf, 1, n, f) == n;
}

/* The first box of the given type among those from pos to end (one level). */
static bool find_box(FILE *f, int64_t pos, int64_t end, const char *type, box *out)
{
    uint8_t h[16];

    while (pos + 8 <= end && read_at(f, pos, h, 8)) {
        int64_t size = (int64_t)be(h, 4), head = 8;

        if (size == 1 && read_at(f, pos + 8, h + 8, 8)) { /* a 64-bit size follows */
            size = (int64_t)be(h + 8, 8);
            head = 16;
        } else if (size == 0) { /* to the end */
            size = end - pos;
        }
        if (size < head || size > end - pos)
            return false;
        if (memcmp(h + 4, type, 4) == 0) {
            memcpy(out->type, type, 5);
            out->body = pos + head;
            out->end = pos + size;
            return true;
        }
        pos += size;
    }
    return false;
}

/* The edit list (elst) and media timescale (mdhd) of the file's one sound track. */
static bool find_sound_elst(FILE *f, box *elst, int64_t *timescale)
{
    box moov, trak, mdia, hdlr, mdhd, edts;
    int64_t pos;
    uint8_t b[4];
    int found = 0;

    if (fseeko(f, 0, SEEK_END) != 0 || !find_box(f, 0, (int64_t)ftello(f), "moov", &moov))
        return false;
    for (pos = moov.body; find_box(f, pos, moov.end, "trak", &trak); pos = trak.end)
        if (find_box(f, trak.body, trak.end, "mdia", &mdia) &&
            find_box(f, mdia.body, mdia.end, "hdlr", &hdlr) && read_at(f, hdlr.body + 8, b, 4) &&
            memcmp(b, "soun", 4) == 0 && find_box(f, mdia.body, mdia.end, "mdhd", &mdhd) &&
            read_at(f, mdhd.body, b, 1) && read_at(f, mdhd.body + (b[0] == 1 ? 20 : 12), b, 4) &&
            find_box(f, trak.body, trak.end, "edts", &edts) &&
            find_box(f, edts.body, edts.end, "elst", elst)) {
            *timescale = (int64_t)be(b, 4);
            found++;
        }
    return found == 1;
}

mc_status mc_aac_fix_edit_list(const mc_aac_track *t, const char *file, int64_t end_frame,
                               mc_error *err)
{
    uint8_t e[48];
    int64_t mts, ts = 0, width, size, empty, media;
    FILE *f;
    box elst;
    bool ok;

    if (!t->mov || t->j0 == 0)
        return MC_OK;
    f = fopen(file, "r+b");
    if (!f)
        return mc_error_set(err, MC_ERR_IO, t->path, 0, 0, "cannot reopen '%s': %s", t->path,
                            strerror(errno));
    /* the movie timescale is a multiple of num, so both edits are exact */
    mts = mc_mov_timescale(t->fps);
    empty = t->first_frame * t->fps.den * (mts / t->fps.num);
    media = (end_frame - t->first_frame) * t->fps.den * (mts / t->fps.num);
    ok = find_sound_elst(f, &elst, &ts) && ts == t->rate && read_at(f, elst.body, e, 8);
    width = ok && e[0] == 1 ? 8 : 4; /* version 1: 64-bit durations and times */
    size = 8 + 2 * (2 * width + 4);
    /* What the muxer wrote: two edits, the empty one (media time -1), then the media from 0;
     * media times count samples (the track's timescale is its rate). */
    ok = ok && elst.end - elst.body == size && be(e + 4, 4) == 2 &&
         read_at(f, elst.body, e, (size_t)size) &&
         be(e + 8 + width, (int)width) == (width == 8 ? UINT64_MAX : UINT32_MAX) &&
         be(e + 8 + 2 * width + 4 + width, (int)width) == 0 &&
         (width == 8 || (empty <= INT32_MAX && media <= INT32_MAX));
    if (!ok) {
        fclose(f);
        return mc_error_set(err, MC_ERR_CODEC, t->path, 0, 0,
                            "'%s': the sound track's edit list is not the one expected", t->path);
    }
    put_be(e + 8, (int)width, (uint64_t)empty);
    put_be(e + 8 + 2 * width + 4, (int)width, (uint64_t)media);
    put_be(e + 8 + 2 * width + 4 + width, (int)width, (uint64_t)t->cc->initial_padding);
    ok = fseeko(f, (off_t)elst.body, SEEK_SET) == 0 &&
         fwrite(e, 1, (size_t)size, f) == (size_t)size;
    if (fclose(f) != 0 || !ok)
        return mc_error_set(err, MC_ERR_IO, t->path, 0, 0, "cannot write '%s': %s", t->path,
                            strerror(errno ? errno : EIO));
    return MC_OK;
}
