#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/cpu.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/memlimit.h"
#include "video/chunk_internal.h"
#include "video/encode_audio.h"
#include "video/ffmpeg_log.h"
#include <md5cine/encode.h>
#include <md5cine/fileio.h>
#include <md5cine/limits.h>
#include <md5cine/output_kinds.h>

/* Encoders tried, in order, when the asked one is not in this libavcodec. */
static const char *const default_fallbacks[] = { "libx264", "mpeg4", NULL };

typedef enum out_kind { OUT_AV, OUT_Y4M } out_kind;

struct mc_encoder {
    mc_encoder_desc desc; /* path and shot arrays point at the copies below; the other
                             strings are used only during create */
    char *path;
    int64_t *shot_starts;
    int *shot_numbers;
    out_kind kind;
    const char *format; /* libavformat muxer name */
    bool to_stdout;
    mc_outfile out;
    char name[64]; /* encoder used */

    AVFormatContext *oc;
    AVStream *st;
    AVCodecContext *cc;
    struct SwsContext *sws;
    AVFrame *frame; /* yuv420p, reused */
    AVPacket *pkt;  /* reused */
    FILE *y4m;      /* stdout or out.fp */
    mc_aac_track *aac; /* the sound track, or NULL */

    int64_t frames; /* frames written = next pts */
    size_t next_shot;
    bool finished;
    bool failed;
};

/* ------------------------------------------------------------------------------------- */
/* Checks                                                                                */

static const char *display_path(const mc_encoder_desc *d)
{
    return strcmp(d->path, "-") == 0 ? "<stdout>" : d->path;
}

/* Picks the output kind and muxer: desc.kind, else the one the table of output kinds
 * (output_kinds.h) gives the name; a kind that holds frames in one file. */
static mc_status pick_format(mc_encoder *e, mc_error *err)
{
    const char *path = e->desc.path;
    mc_output_kind kind = e->desc.kind ? e->desc.kind : mc_output_kind_of(path);
    const mc_output_kind_info *row = mc_output_kind_get(kind);
    bool dash = strcmp(path, "-") == 0;
    char list[128];

    if (row && (row->muxer || kind == MC_OUTPUT_Y4M) && (row->props & MC_OUTPUT_FRAMES) &&
        !(row->props & MC_OUTPUT_PATTERN) && (!dash || (row->props & MC_OUTPUT_STDOUT))) {
        e->kind = row->muxer ? OUT_AV : OUT_Y4M;
        e->format = row->muxer;
        e->to_stdout = dash;
        return MC_OK;
    }
    mc_output_kinds_list(MC_OUTPUT_FRAMES, MC_OUTPUT_PATTERN, ", ", ", ", list, sizeof list);
    return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                        "cannot tell the video format of '%s': use %s or '-'", path, list);
}

static mc_status check_numbers(const mc_encoder_desc *d, mc_error *err)
{
    const char *p = display_path(d);
    long mbs;

    if (d->width < MC_ENCODER_MIN_SIZE || d->height < MC_ENCODER_MIN_SIZE ||
        d->width > MC_ENCODER_MAX_SIZE || d->height > MC_ENCODER_MAX_SIZE)
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0, "video size %dx%d is not within %d..%d",
                            d->width, d->height, MC_ENCODER_MIN_SIZE, MC_ENCODER_MAX_SIZE);
    if (d->width % 2 != 0 || d->height % 2 != 0)
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0,
                            "video size %dx%d is odd; 4:2:0 video needs an even width and "
                            "height (try %dx%d)",
                            d->width, d->height, d->width + d->width % 2,
                            d->height + d->height % 2);
    mbs = (long)((d->width + 15) / 16) * ((d->height + 15) / 16);
    if (mbs > MC_LIMIT_VIDEO_MAX_MACROBLOCKS)
        return mc_error_set(err, MC_ERR_LIMIT, p, 0, 0,
                            "video size %dx%d is too large: %ld macroblocks, H.264 allows at "
                            "most %d (8192x4352; 7680x4320 fits)",
                            d->width, d->height, mbs, MC_LIMIT_VIDEO_MAX_MACROBLOCKS);
    if (d->fps.num < 1 || d->fps.den < 1 ||
        d->fps.num < (int64_t)MC_LIMIT_FPS_MIN * d->fps.den ||
        d->fps.num > (int64_t)MC_LIMIT_FPS_MAX * d->fps.den)
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0, "frame rate %d/%d is not within %d..%d",
                            d->fps.num, d->fps.den, MC_LIMIT_FPS_MIN, MC_LIMIT_FPS_MAX);
    if (d->first_frame < 0 || d->first_frame > ((int64_t)1 << 40))
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0, "first frame %lld is not within 0..2^40",
                            (long long)d->first_frame);
    if (d->crf < 0 || d->crf > 51)
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0, "crf %d is not within 1..51", d->crf);
    if (d->threads < 0 || d->threads > 16)
        return mc_error_set(err, MC_ERR_USAGE, p, 0, 0, "thread count %d is not within 1..16",
                            d->threads);
    return MC_OK;
}

/* Copies and checks the shot list: starts >= 0 and strictly increasing. */
static mc_status copy_shots(mc_encoder *e, const mc_encoder_desc *d, mc_error *err)
{
    size_t i, n = d->shot_starts ? d->shot_count : 0;

    e->desc.shot_count = n;
    if (n == 0)
        return MC_OK;
    e->shot_starts = malloc(n * sizeof *e->shot_starts);
    e->shot_numbers = malloc(n * sizeof *e->shot_numbers);
    if (!e->shot_starts || !e->shot_numbers)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < n; i++) {
        if (d->shot_starts[i] < 0 || (i > 0 && d->shot_starts[i] <= d->shot_starts[i - 1]))
            return mc_error_set(err, MC_ERR_USAGE, display_path(d), 0, 0,
                                "shot start %lld (shot %zu) is not after the previous one",
                                (long long)d->shot_starts[i], i + 1);
        e->shot_starts[i] = d->shot_starts[i];
        e->shot_numbers[i] = d->shot_numbers ? d->shot_numbers[i] : (int)i + 1;
    }
    e->desc.shot_starts = e->shot_starts;
    e->desc.shot_numbers = e->shot_numbers;
    return MC_OK;
}

static void warn_fallback(const mc_encoder *e, const char *asked, const char *used)
{
    mc_error w;

    if (!e->desc.warn)
        return;
    memset(&w, 0, sizeof w);
    mc_error_set(&w, MC_ERR_CODEC, display_path(&e->desc), 0, 0,
                 "encoder '%s' is not available, using '%s'", asked, used);
    e->desc.warn(e->desc.warn_user, &w);
}

/* FFmpeg's error text for a return code. */
static const char *av_text(int rc, char *buf, size_t cap)
{
    if (av_strerror(rc, buf, cap) < 0)
        snprintf(buf, cap, "error %d", rc);
    return buf;
}

/* ------------------------------------------------------------------------------------- */
/* Pixel conversion (shared by both outputs)                                             */

/* Zeroes the frame's memory once, including the row padding past the picture's width that
 * swscale never writes, so no stale heap bytes can reach the encoder. */
static void clear_padding(AVFrame *f)
{
    for (int i = 0; i < AV_NUM_DATA_POINTERS && f->buf[i]; i++)
        memset(f->buf[i]->data, 0, f->buf[i]->size);
}

static mc_status setup_convert(mc_encoder *e, mc_error *err)
{
    const int *coeffs = sws_getCoefficients(SWS_CS_ITU709);
    int w = e->desc.width, h = e->desc.height;

    /* Same size, so the flags only pick the conversion path: this one measured fastest at
     * 720p (1.6 ms against 2.8 ms for plain bilinear) with the same round-trip PSNR. */
    e->sws = sws_getContext(w, h, AV_PIX_FMT_RGBA, w, h, AV_PIX_FMT_YUV420P,
                            SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, NULL, NULL, NULL);
    if (!e->sws)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "cannot set up RGBA to YUV conversion");
    /* RGB is full range; YUV is BT.709 limited range (16..235 luma). */
    if (sws_setColorspaceDetails(e->sws, coeffs, 1, coeffs, 0, 0, 1 << 16, 1 << 16) < 0)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "cannot select BT.709 conversion");
    e->frame = av_frame_alloc();
    if (!e->frame)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    e->frame->format = AV_PIX_FMT_YUV420P;
    e->frame->width = w;
    e->frame->height = h;
    e->frame->color_range = AVCOL_RANGE_MPEG;
    e->frame->colorspace = AVCOL_SPC_BT709;
    e->frame->color_primaries = AVCOL_PRI_BT709;
    e->frame->color_trc = AVCOL_TRC_BT709;
    if (av_frame_get_buffer(e->frame, 0) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a video frame");
    clear_padding(e->frame);
    return MC_OK;
}

static mc_status convert(mc_encoder *e, const uint8_t *rgba, size_t stride, mc_error *err)
{
    const uint8_t *src[1];
    int src_stride[1];

    if (stride < (size_t)e->desc.width * 4u || stride > INT_MAX / 2)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad row stride %zu for width %d",
                            stride, e->desc.width);
    if (e->desc.bottom_up) {
        /* Start at the last row and walk up: the top of the picture comes first. */
        src[0] = rgba + (size_t)(e->desc.height - 1) * stride;
        src_stride[0] = -(int)stride;
    } else {
        src[0] = rgba;
        src_stride[0] = (int)stride;
    }
    if (sws_scale(e->sws, src, src_stride, 0, e->desc.height, e->frame->data, e->frame->linesize) !=
        e->desc.height)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "RGBA to YUV conversion failed");
    return MC_OK;
}

/* ------------------------------------------------------------------------------------- */
/* yuv4mpeg2                                                                             */

static mc_status y4m_io_error(mc_encoder *e, mc_error *err)
{
    int errnum = errno ? errno : EIO;

    e->failed = true;
    /* EPIPE: the reader of the stream went away ("-o - | head"); with SIGPIPE ignored (the
     * caller's choice) the write fails instead of the process dying silently. */
    return mc_error_set(err, MC_ERR_IO, display_path(&e->desc), 0, 0, "cannot write '%s': %s",
                        display_path(&e->desc),
                        errnum == EPIPE ? "output pipe closed" : strerror(errnum));
}

static mc_status y4m_open(mc_encoder *e, mc_error *err)
{
    mc_status s;

    snprintf(e->name, sizeof e->name, "yuv4mpeg2");
    if (e->to_stdout) {
        e->y4m = stdout;
    } else {
        s = mc_outfile_begin(&e->out, e->desc.path, MC_OUTFILE_STREAM | MC_OUTFILE_EXCLUSIVE,
                             err);
        if (s != MC_OK)
            return s;
        e->y4m = e->out.fp;
    }
    /* C420jpeg: 4:2:0 with centred chroma, what swscale produces. */
    if (fprintf(e->y4m, "YUV4MPEG2 W%d H%d F%d:%d Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n",
                e->desc.width, e->desc.height, e->desc.fps.num, e->desc.fps.den) < 0)
        return y4m_io_error(e, err);
    return MC_OK;
}

static mc_status y4m_write(mc_encoder *e, mc_error *err)
{
    int plane, row;

    if (fputs("FRAME\n", e->y4m) == EOF)
        return y4m_io_error(e, err);
    for (plane = 0; plane < 3; plane++) {
        int w = plane ? e->desc.width / 2 : e->desc.width;
        int h = plane ? e->desc.height / 2 : e->desc.height;

        for (row = 0; row < h; row++) {
            const uint8_t *line = e->frame->data[plane] + row * e->frame->linesize[plane];

            if (fwrite(line, 1, (size_t)w, e->y4m) != (size_t)w)
                return y4m_io_error(e, err);
        }
    }
    return MC_OK;
}

static mc_status y4m_finish(mc_encoder *e, mc_error *err)
{
    if (e->to_stdout) {
        if (fflush(stdout) != 0)
            return y4m_io_error(e, err);
        return MC_OK;
    }
    e->y4m = NULL;
    return mc_outfile_commit(&e->out, err);
}

/* ------------------------------------------------------------------------------------- */
/* libavcodec + libavformat                                                              */

static bool has_option(const AVCodec *codec, const char *name)
{
    const AVClass *cls = codec->priv_class;

    return cls && av_opt_find(&cls, name, NULL, 0, AV_OPT_SEARCH_FAKE_OBJ) != NULL;
}

static bool takes_yuv420p(const AVCodec *codec)
{
    const enum AVPixelFormat *f;

    if (!codec->pix_fmts)
        return true;
    for (f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; f++)
        if (*f == AV_PIX_FMT_YUV420P)
            return true;
    return false;
}

/* The asked encoder, or the first of the fallback chain that exists, with a warning. */
static mc_status pick_codec(mc_encoder *e, const AVCodec **out, mc_error *err)
{
    const char *asked = e->desc.codec ? e->desc.codec : MC_ENCODER_DEFAULT_CODEC;
    const char *const *chain = e->desc.fallbacks ? e->desc.fallbacks : default_fallbacks;
    const AVCodec *c = avcodec_find_encoder_by_name(asked);
    size_t i;

    *out = NULL;
    if (c && c->type != AVMEDIA_TYPE_VIDEO)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "'%s' is not a video encoder", asked);
    for (i = 0; !c && chain[i]; i++) {
        if (strcmp(chain[i], asked) == 0)
            continue;
        c = avcodec_find_encoder_by_name(chain[i]);
        if (c && c->type != AVMEDIA_TYPE_VIDEO)
            c = NULL;
        if (c)
            warn_fallback(e, asked, c->name);
    }
    if (!c)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0,
                            "encoder '%s' is not available and neither is any fallback", asked);
    if (!takes_yuv420p(c))
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0,
                            "encoder '%s' does not take 4:2:0 (yuv420p) video", c->name);
    snprintf(e->name, sizeof e->name, "%s", c->name);
    *out = c;
    return MC_OK;
}

/* x264's AVX-512 routines (x264 0.164) read memory they never wrote: on a CPU with AVX-512 the
 * bitstream then changes with whatever the heap held (seen with MALLOC_PERTURB_ and with
 * the order of earlier encodes in one process). On such CPUs x264 gets the detected features
 * without AVX-512, which gives the same bytes as an AVX2 machine. Elsewhere x264 detects. */
static void x264_cpu_option(AVDictionary **opts)
{
    static const struct {
        int flag;
        const char *name;
    } table[] = {
        { AV_CPU_FLAG_MMXEXT, "MMX2" },  { AV_CPU_FLAG_SSE, "SSE" },
        { AV_CPU_FLAG_SSE2, "SSE2" },    { AV_CPU_FLAG_SSE3, "SSE3" },
        { AV_CPU_FLAG_SSSE3, "SSSE3" },  { AV_CPU_FLAG_SSE4, "SSE4.1" },
        { AV_CPU_FLAG_SSE42, "SSE4.2" }, { AV_CPU_FLAG_AVX, "AVX" },
        { AV_CPU_FLAG_XOP, "XOP" },      { AV_CPU_FLAG_FMA4, "FMA4" },
        { AV_CPU_FLAG_FMA3, "FMA3" },    { AV_CPU_FLAG_BMI1, "BMI1" },
        { AV_CPU_FLAG_BMI2, "BMI2" },    { AV_CPU_FLAG_AVX2, "AVX2" },
    };
    int flags = av_get_cpu_flags();
    char list[256] = "asm=";
    size_t i;

    if (!(flags & AV_CPU_FLAG_AVX512))
        return;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (flags & table[i].flag) {
            strcat(list, table[i].name);
            strcat(list, ",");
        }
    }
    strcat(list, "LZCNT"); /* every AVX-512 CPU has it; x264 detects it separately */
    av_dict_set(opts, "x264-params", list, 0);
}

/* Quality, speed and keyframe options. Options the encoder lacks are not set. */
static void codec_options(const mc_encoder *e, const AVCodec *codec, AVCodecContext *cc,
                          AVDictionary **opts)
{
    int crf = e->desc.crf ? e->desc.crf : MC_ENCODER_DEFAULT_CRF;

    if (has_option(codec, "crf")) {
        av_dict_set_int(opts, "crf", crf, 0);
    } else {
        /* A fixed quantiser instead: crf 18 -> qscale 3, a similar visual quality. */
        cc->flags |= AV_CODEC_FLAG_QSCALE;
        cc->global_quality = FF_QP2LAMBDA * (crf / 6 > 1 ? crf / 6 : 1);
    }
    if (has_option(codec, "preset"))
        av_dict_set(opts, "preset", e->desc.preset ? e->desc.preset : MC_ENCODER_DEFAULT_PRESET, 0);
    /* A forced I frame becomes an IDR frame, so each shot starts a closed group. */
    if (has_option(codec, "forced-idr"))
        av_dict_set(opts, "forced-idr", "1", 0);
    if (strcmp(codec->name, "libx264") == 0)
        x264_cpu_option(opts);
}

static mc_status open_codec(mc_encoder *e, const AVCodec *codec, mc_error *err)
{
    AVCodecContext *cc = avcodec_alloc_context3(codec);
    AVDictionary *opts = NULL;
    char text[128];
    int rc;

    if (!cc)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    e->cc = cc;
    cc->width = e->desc.width;
    cc->height = e->desc.height;
    cc->pix_fmt = AV_PIX_FMT_YUV420P;
    cc->time_base = (AVRational){ e->desc.fps.den, e->desc.fps.num };
    cc->framerate = (AVRational){ e->desc.fps.num, e->desc.fps.den };
    cc->gop_size = 10 * ((e->desc.fps.num + e->desc.fps.den / 2) / e->desc.fps.den);
    cc->thread_count = e->desc.threads ? e->desc.threads : MC_ENCODER_DEFAULT_THREADS;
    cc->color_range = AVCOL_RANGE_MPEG;
    cc->colorspace = AVCOL_SPC_BT709;
    cc->color_primaries = AVCOL_PRI_BT709;
    cc->color_trc = AVCOL_TRC_BT709;
    cc->flags |= AV_CODEC_FLAG_BITEXACT;
    if (e->oc->oformat->flags & AVFMT_GLOBALHEADER)
        cc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    codec_options(e, codec, cc, &opts);
    rc = avcodec_open2(cc, codec, &opts);
    av_dict_free(&opts);
    if (rc < 0 && (rc == AVERROR(ENOMEM) || mc_memory_limited(NULL))) {
        char note[96];

        /* libx264 reports a failed allocation as a generic external-library error. */
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "encoder '%s' did not start: %s%s",
                            codec->name, av_text(rc, text, sizeof text),
                            rc == AVERROR(ENOMEM) ? "" : mc_memory_limit_note(note, sizeof note));
    }
    if (rc < 0)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "encoder '%s' refused the settings: %s",
                            codec->name, av_text(rc, text, sizeof text));
    if (avcodec_parameters_from_context(e->st->codecpar, cc) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    e->st->time_base = cc->time_base;
    e->st->avg_frame_rate = cc->framerate;
    return MC_OK;
}

static mc_status av_io_error(mc_encoder *e, int rc, mc_error *err)
{
    char text[128];

    e->failed = true;
    return mc_error_set(err, MC_ERR_IO, e->desc.path, 0, 0, "cannot write '%s': %s", e->desc.path,
                        av_text(rc, text, sizeof text));
}

static mc_status open_muxer(mc_encoder *e, mc_error *err)
{
    AVDictionary *mux_opts = NULL, *io_opts = NULL;
    char text[128];
    int rc;

    av_dict_set(&io_opts, "protocol_whitelist", "file", 0);
    rc = avio_open2(&e->oc->pb, e->oc->url, AVIO_FLAG_WRITE, NULL, &io_opts);
    av_dict_free(&io_opts);
    if (rc < 0) /* the temporary is removed by mc_encoder_release */
        return mc_error_set(err, MC_ERR_IO, e->desc.path, 0, 0, "cannot write '%s': %s",
                            e->desc.path, av_text(rc, text, sizeof text));
    /* use_metadata_tags: keys of any name (the md5cine_* chunk tags), not only iTunes' list. */
    if (strcmp(e->format, "mp4") == 0 || strcmp(e->format, "mov") == 0) {
        av_dict_set(&mux_opts, "movflags", "+faststart+use_metadata_tags", 0);
        av_dict_set_int(&mux_opts, "movie_timescale", mc_mov_timescale(e->desc.fps), 0);
    }
    for (const char *const *kv = e->desc.metadata; kv && kv[0] && kv[1]; kv += 2)
        if (av_dict_set(&e->oc->metadata, kv[0], kv[1], 0) < 0) {
            av_dict_free(&mux_opts);
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
    rc = avformat_write_header(e->oc, &mux_opts);
    av_dict_free(&mux_opts);
    if (rc < 0)
        return mc_error_set(err, MC_ERR_CODEC, e->desc.path, 0, 0,
                            "cannot start '%s' with encoder '%s': %s", e->desc.path, e->name,
                            av_text(rc, text, sizeof text));
    return MC_OK;
}

static mc_status av_open(mc_encoder *e, mc_error *err)
{
    const AVCodec *codec;
    char url[sizeof e->out.tmp + 8];
    mc_status s;

    s = pick_codec(e, &codec, err);
    if (s != MC_OK)
        return s;
    s = mc_outfile_begin(&e->out, e->desc.path, MC_OUTFILE_EXCLUSIVE, err);
    if (s != MC_OK)
        return s;
    /* A local file and nothing else, for the first write and for the muxer's own reopening
     * (MP4's faststart pass): without "file:" a ':' before the first '/' names a protocol
     * (".a:b.mp4.<pid>.tmp" is protocol ".a"), and the whitelist keeps every other one out. */
    snprintf(url, sizeof url, "file:%s", e->out.tmp);
    if (avformat_alloc_output_context2(&e->oc, NULL, e->format, url) < 0 || !e->oc)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "muxer '%s' is not available",
                            e->format);
    e->oc->protocol_whitelist = av_strdup("file");
    if (!e->oc->protocol_whitelist)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    e->oc->flags |= AVFMT_FLAG_BITEXACT; /* no "Lavf" string, fixed MKV UIDs */
    e->st = avformat_new_stream(e->oc, NULL);
    e->pkt = av_packet_alloc();
    if (!e->st || !e->pkt)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    s = open_codec(e, codec, err);
    if (s == MC_OK && e->desc.audio.mix)
        s = mc_aac_open(e->oc, &e->desc.audio, e->desc.fps, e->desc.first_frame, e->desc.path,
                        &e->aac, err);
    if (s != MC_OK)
        return s;
    return open_muxer(e, err);
}

/* Moves every packet the encoder has ready into the file. */
static mc_status drain(mc_encoder *e, mc_error *err)
{
    char text[128];
    int rc;

    for (;;) {
        rc = avcodec_receive_packet(e->cc, e->pkt);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return MC_OK;
        if (rc < 0) {
            e->failed = true;
            return mc_error_set(err, MC_ERR_CODEC, e->desc.path, 0, 0, "encoder '%s' failed: %s",
                                e->name, av_text(rc, text, sizeof text));
        }
        /* Every frame lasts one tick; without it the last frame has no duration. */
        if (e->pkt->duration == 0)
            e->pkt->duration = 1;
        av_packet_rescale_ts(e->pkt, e->cc->time_base, e->st->time_base);
        e->pkt->stream_index = e->st->index;
        rc = av_interleaved_write_frame(e->oc, e->pkt);
        if (rc < 0)
            return av_io_error(e, rc, err);
        if (e->oc->pb->error < 0)
            return av_io_error(e, e->oc->pb->error, err);
    }
}

static mc_status av_write(mc_encoder *e, mc_error *err)
{
    char text[128];
    mc_status s;
    int rc;

    e->frame->pts = e->desc.first_frame + e->frames;
    e->frame->pict_type = AV_PICTURE_TYPE_NONE;
    if (e->next_shot < e->desc.shot_count && e->shot_starts[e->next_shot] == e->frames) {
        e->frame->pict_type = AV_PICTURE_TYPE_I;
        e->next_shot++;
    }
    rc = avcodec_send_frame(e->cc, e->frame);
    if (rc < 0) {
        e->failed = true;
        return mc_error_set(err, MC_ERR_CODEC, e->desc.path, 0, 0, "encoder '%s' failed: %s",
                            e->name, av_text(rc, text, sizeof text));
    }
    s = drain(e, err);
    /* the sound to the end of this frame, so the muxer interleaves the two by time */
    if (s == MC_OK && e->aac)
        s = mc_aac_write_until(e->aac, e->oc, e->desc.first_frame + e->frames + 1, err);
    return s;
}

/* One chapter per shot that starts before the end, in the den/num time base. */
static mc_status add_chapters(mc_encoder *e, mc_error *err)
{
    size_t i;

    for (i = 0; i < e->desc.shot_count && e->shot_starts[i] < e->frames; i++) {
        AVChapter **list = av_realloc_array(e->oc->chapters, e->oc->nb_chapters + 1u, sizeof *list);
        AVChapter *ch;
        char title[32];

        if (!list)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        e->oc->chapters = list;
        ch = av_mallocz(sizeof *ch);
        if (!ch)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        list[e->oc->nb_chapters++] = ch;
        ch->id = (int64_t)i + 1;
        ch->time_base = (AVRational){ e->desc.fps.den, e->desc.fps.num };
        ch->start = e->desc.first_frame + e->shot_starts[i];
        ch->end = e->desc.first_frame + (i + 1 < e->desc.shot_count &&
                                                         e->shot_starts[i + 1] < e->frames
                                                 ? e->shot_starts[i + 1]
                                                 : e->frames);
        snprintf(title, sizeof title, "Shot %d", e->shot_numbers[i]);
        if (av_dict_set(&ch->metadata, "title", title, 0) < 0)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

static mc_status av_finish(mc_encoder *e, mc_error *err)
{
    char text[128];
    mc_status s;
    int rc;

    rc = avcodec_send_frame(e->cc, NULL);
    if (rc < 0 && rc != AVERROR_EOF) {
        e->failed = true;
        return mc_error_set(err, MC_ERR_CODEC, e->desc.path, 0, 0, "encoder '%s' failed: %s",
                            e->name, av_text(rc, text, sizeof text));
    }
    s = drain(e, err);
    if (s == MC_OK && e->aac)
        s = mc_aac_finish(e->aac, e->oc, e->desc.first_frame + e->frames, err);
    if (s == MC_OK)
        s = add_chapters(e, err); /* in the trailer: the last shot's end is known now */
    if (s != MC_OK)
        return s;
    rc = av_write_trailer(e->oc);
    if (rc < 0)
        return av_io_error(e, rc, err);
    rc = avio_closep(&e->oc->pb);
    if (rc < 0)
        return av_io_error(e, rc, err);
    if (e->aac)
        s = mc_aac_fix_edit_list(e->aac, e->out.tmp, e->desc.first_frame + e->frames, err);
    return s == MC_OK ? mc_outfile_commit(&e->out, err) : s;
}

/* ------------------------------------------------------------------------------------- */
/* Public                                                                                */

static mc_status encoder_create(const mc_encoder_desc *desc, mc_encoder **out, mc_error *err)
{
    mc_encoder *e;
    mc_status s;

    *out = NULL;
    if (!desc->path || !*desc->path)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no output file given");
    s = check_numbers(desc, err);
    if (s != MC_OK)
        return s;
    e = calloc(1, sizeof *e);
    if (!e)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    e->desc = *desc;
    e->path = strdup(desc->path);
    if (!e->path) {
        free(e);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    e->desc.path = e->path;
    s = pick_format(e, err);
    if (s == MC_OK && desc->audio.mix && e->kind == OUT_Y4M)
        s = mc_error_set(err, MC_ERR_USAGE, display_path(desc), 0, 0,
                         "'%s' cannot hold sound: yuv4mpeg2 is video only (write the sound to a "
                         "WAV beside it)",
                         display_path(desc));
    if (s == MC_OK)
        s = mc_aac_check(&desc->audio, display_path(desc), err);
    if (s == MC_OK)
        s = copy_shots(e, desc, err);
    if (s == MC_OK)
        s = setup_convert(e, err);
    if (s == MC_OK)
        s = e->kind == OUT_Y4M ? y4m_open(e, err) : av_open(e, err);
    if (s != MC_OK) {
        mc_encoder_release(e);
        return s;
    }
    e->desc.codec = e->desc.preset = NULL; /* the caller's strings are not kept */
    e->desc.fallbacks = NULL;
    *out = e;
    return MC_OK;
}

mc_status mc_encoder_create(const mc_encoder_desc *desc, mc_encoder **out, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    mc_status s;

    mc_ffmpeg_log_enter(&sc, desc->ffmpeg_log, desc->ffmpeg_log_user);
    s = encoder_create(desc, out, err);
    mc_ffmpeg_log_leave(&sc);
    return s;
}

static mc_status encoder_write_rgba(mc_encoder *enc, const uint8_t *rgba, size_t stride, mc_error *err)
{
    mc_status s;

    if (enc->finished || enc->failed)
        return mc_error_set(err, MC_ERR_USAGE, display_path(&enc->desc), 0, 0,
                            "encoder for '%s' is %s", display_path(&enc->desc),
                            enc->finished ? "already finished" : "stopped after an error");
    if (enc->kind == OUT_AV && av_frame_make_writable(enc->frame) < 0) {
        enc->failed = true;
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a video frame");
    }
    s = convert(enc, rgba, stride, err);
    if (s == MC_OK)
        s = enc->kind == OUT_Y4M ? y4m_write(enc, err) : av_write(enc, err);
    if (s != MC_OK) {
        enc->failed = true;
        return s;
    }
    enc->frames++;
    return MC_OK;
}

mc_status mc_encoder_write_rgba(mc_encoder *enc, const uint8_t *rgba, size_t stride, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    mc_status s;

    mc_ffmpeg_log_enter(&sc, enc->desc.ffmpeg_log, enc->desc.ffmpeg_log_user);
    s = encoder_write_rgba(enc, rgba, stride, err);
    mc_ffmpeg_log_leave(&sc);
    return s;
}

static mc_status encoder_finish(mc_encoder *enc, mc_error *err)
{
    mc_status s;

    if (enc->finished || enc->failed)
        return mc_error_set(err, MC_ERR_USAGE, display_path(&enc->desc), 0, 0,
                            "encoder for '%s' is %s", display_path(&enc->desc),
                            enc->finished ? "already finished" : "stopped after an error");
    if (enc->frames == 0) {
        enc->failed = true;
        return mc_error_set(err, MC_ERR_USAGE, display_path(&enc->desc), 0, 0,
                            "no frames were written to '%s'", display_path(&enc->desc));
    }
    s = enc->kind == OUT_Y4M ? y4m_finish(enc, err) : av_finish(enc, err);
    if (s != MC_OK) {
        enc->failed = true;
        mc_outfile_abort(&enc->out);
        return s;
    }
    enc->finished = true;
    return MC_OK;
}

mc_status mc_encoder_finish(mc_encoder *enc, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    mc_status s;

    mc_ffmpeg_log_enter(&sc, enc->desc.ffmpeg_log, enc->desc.ffmpeg_log_user);
    s = encoder_finish(enc, err);
    mc_ffmpeg_log_leave(&sc);
    return s;
}

static void encoder_release(mc_encoder *enc)
{
    if (!enc)
        return;
    if (enc->oc) {
        if (enc->oc->pb)
            avio_closep(&enc->oc->pb);
        avformat_free_context(enc->oc);
    }
    if (!enc->finished)
        mc_outfile_abort(&enc->out); /* closes the y4m stream and removes the file */
    mc_aac_close(enc->aac);
    avcodec_free_context(&enc->cc);
    av_packet_free(&enc->pkt);
    av_frame_free(&enc->frame);
    sws_freeContext(enc->sws);
    free(enc->shot_starts);
    free(enc->shot_numbers);
    free(enc->path);
    free(enc);
}

void mc_encoder_release(mc_encoder *enc)
{
    mc_ffmpeg_log_scope sc;

    if (!enc)
        return;
    mc_ffmpeg_log_enter(&sc, enc->desc.ffmpeg_log, enc->desc.ffmpeg_log_user);
    encoder_release(enc);
    mc_ffmpeg_log_leave(&sc);
}

const char *mc_encoder_codec_name(const mc_encoder *enc)
{
    return enc->name;
}

int64_t mc_encoder_frame_count(const mc_encoder *enc)
{
    return enc->frames;
}
