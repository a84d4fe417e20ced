/* Frame sources for comparison: one image, a folder of numbered PNGs, or a video decoded with
 * libavformat/libavcodec and converted to RGBA with libswscale. */
#include "video/chunk_internal.h"
#include "video/ffmpeg_log.h"
#include <md5cine/frames_in.h>

#include <md5cine/fileio.h>
#include <md5cine/image.h>
#include <md5cine/limits.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

#define MAX_FRAMES MC_LIMIT_REFERENCE_FRAMES

typedef struct frame_file {
    long number;
    char *path; /* malloc'd */
} frame_file;

typedef struct video_state {
    AVFormatContext *fmt;
    AVCodecContext *dec;
    AVPacket *pkt;
    AVFrame *frame;
    struct SwsContext *sws;
    int stream;
    bool flushing; /* the demuxer is done; the decoder is being drained */
    long decoded;  /* frames delivered so far */
    uint8_t *rgba;
    size_t rgba_cap;
    int w, h;
} video_state;

struct mc_frames_in {
    mc_frames_kind kind;
    char *path;
    size_t count;
    size_t listed;     /* video: frames the container's index lists, when more than count */
    long first;        /* video: the number of its first frame (its md5cine_chunk tag, or 0) */
    bool is_chunk;
    mc_chunk_info chunk; /* video: its chunk tags when is_chunk */
    frame_file *files; /* image and folder: count entries sorted by number */
    mc_image img;      /* the image read last */
    size_t img_index;
    bool img_valid;
    video_state v;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);

    if (d)
        memcpy(d, s, n);
    return d;
}

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    if (n < m)
        return false;
    for (size_t i = 0; i < m; i++)
        if (tolower((unsigned char)s[n - m + i]) != suffix[i])
            return false;
    return true;
}

static bool is_video_name(const char *path)
{
    static const char *const ext[] = { ".mp4", ".mkv", ".mov", ".webm", ".avi", ".y4m" };

    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (ends_with_ci(path, ext[i]))
            return true;
    return false;
}

/* The number of the last run of digits in the file name (not the folder), or -1 when the
 * name has none or the run is too long for a frame number. */
static long name_number(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *end = NULL, *start;
    char *stop;
    long v;

    base = base ? base + 1 : path;
    for (const char *p = base; *p; p++)
        if (isdigit((unsigned char)*p))
            end = p + 1;
    if (!end)
        return -1;
    start = end;
    while (start > base && isdigit((unsigned char)start[-1]))
        start--;
    if (end - start > 9)
        return -1;
    v = strtol(start, &stop, 10);
    return stop == end ? v : -1;
}

static int by_number(const void *pa, const void *pb)
{
    const frame_file *a = pa, *b = pb;

    return (a->number > b->number) - (a->number < b->number);
}

static void free_files(mc_frames_in *src)
{
    for (size_t i = 0; i < src->count && src->files; i++)
        free(src->files[i].path);
    free(src->files);
    src->files = NULL;
}

/* Appends dir/name with its number (one '/' between them, "ref/" or "ref" alike); grows the
 * array by doubling. */
static mc_status add_file(mc_frames_in *src, size_t *cap, const char *dir, const char *name,
                          long number, mc_error *err)
{
    size_t dlen = strlen(dir), len = dlen + strlen(name) + 2;
    const char *sep = dlen > 0 && dir[dlen - 1] == '/' ? "" : "/";
    char *path;

    if (src->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        frame_file *nf = realloc(src->files, ncap * sizeof *nf);
        if (!nf)
            return mc_error_set(err, MC_ERR_NOMEM, dir, 0, 0, "out of memory listing '%s'", dir);
        src->files = nf;
        *cap = ncap;
    }
    path = malloc(len);
    if (!path)
        return mc_error_set(err, MC_ERR_NOMEM, dir, 0, 0, "out of memory listing '%s'", dir);
    snprintf(path, len, "%s%s%s", dir, sep, name);
    src->files[src->count].number = number;
    src->files[src->count].path = path;
    src->count++;
    return MC_OK;
}

static mc_status check_folder(mc_frames_in *src, mc_error *err)
{
    if (src->count == 0)
        return mc_error_set(err, MC_ERR_IO, src->path, 0, 0,
                            "folder '%s' holds no numbered PNG", src->path);
    qsort(src->files, src->count, sizeof *src->files, by_number);
    for (size_t i = 1; i < src->count; i++)
        if (src->files[i].number == src->files[i - 1].number)
            return mc_error_set(err, MC_ERR_IO, src->path, 0, 0,
                                "'%s' and '%s' both hold frame %ld", src->files[i - 1].path,
                                src->files[i].path, src->files[i].number);
    return MC_OK;
}

static mc_status open_folder(mc_frames_in *src, mc_error *err)
{
    DIR *d = opendir(src->path);
    struct dirent *e;
    size_t cap = 0;
    mc_status st = MC_OK;

    if (!d)
        return mc_error_set(err, MC_ERR_IO, src->path, 0, 0, "cannot open folder '%s': %s",
                            src->path, strerror(errno));
    while (st == MC_OK && (e = readdir(d)) != NULL) {
        long n;
        if (e->d_name[0] == '.' || !ends_with_ci(e->d_name, ".png"))
            continue;
        n = name_number(e->d_name);
        if (n < 0)
            continue;
        if ((long)src->count >= MAX_FRAMES)
            st = mc_error_set(err, MC_ERR_LIMIT, src->path, 0, 0,
                              "folder '%s' holds over %ld frames", src->path, MAX_FRAMES);
        else
            st = add_file(src, &cap, src->path, e->d_name, n, err);
    }
    closedir(d);
    return st != MC_OK ? st : check_folder(src, err);
}

static mc_status open_image(mc_frames_in *src, mc_error *err)
{
    long n = name_number(src->path);

    src->files = malloc(sizeof *src->files);
    if (!src->files)
        return mc_error_set(err, MC_ERR_NOMEM, src->path, 0, 0, "out of memory");
    src->files[0].number = n < 0 ? 0 : n;
    src->files[0].path = dup_str(src->path);
    src->count = 1;
    if (!src->files[0].path)
        return mc_error_set(err, MC_ERR_NOMEM, src->path, 0, 0, "out of memory");
    return MC_OK;
}

static mc_status av_fail(mc_error *err, mc_status code, const char *path, const char *what,
                         int averr)
{
    char msg[AV_ERROR_MAX_STRING_SIZE] = "";

    av_strerror(averr, msg, sizeof msg);
    return mc_error_set(err, code, path, 0, 0, "%s '%s': %s", what, path, msg);
}

static void video_close(video_state *v)
{
    sws_freeContext(v->sws);
    av_frame_free(&v->frame);
    av_packet_free(&v->pkt);
    avcodec_free_context(&v->dec);
    avformat_close_input(&v->fmt);
    free(v->rgba);
    memset(v, 0, sizeof *v);
}

/* Opens the container, picks the best video stream and opens its decoder. */
static mc_status video_start(mc_frames_in *src, mc_error *err)
{
    video_state *v = &src->v;
    const AVCodec *codec = NULL;
    AVDictionary *opts = NULL;
    size_t n = strlen(src->path) + 6;
    char *url;
    mc_status st;
    int r;

    /* FFmpeg's file protocol would wait forever on a FIFO for a writer. */
    st = mc_video_check_regular(src->path, err);
    if (st != MC_OK)
        return st;
    url = malloc(n);
    if (!url)
        return mc_error_set(err, MC_ERR_NOMEM, src->path, 0, 0, "out of memory");
    /* A local file and nothing else: without "file:" a ':' before the first '/' names a
     * protocol ("c:d.mp4"), and the whitelist keeps every other protocol out, also for
     * demuxers that open further files (playlists). */
    snprintf(url, n, "file:%s", src->path);
    av_dict_set(&opts, "protocol_whitelist", "file", 0);
    r = avformat_open_input(&v->fmt, url, NULL, &opts);
    av_dict_free(&opts);
    free(url);
    if (r < 0) /* EMFILE and the like are the machine's, not the video's */
        return av_fail(err, mc_open_status(AVUNERROR(r)), src->path, "cannot open video", r);
    r = avformat_find_stream_info(v->fmt, NULL);
    if (r < 0)
        return av_fail(err, MC_ERR_IMAGE, src->path, "cannot read video", r);
    r = av_find_best_stream(v->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (r < 0 || !codec)
        return mc_error_set(err, MC_ERR_IMAGE, src->path, 0, 0,
                            "'%s' has no video stream this build can decode", src->path);
    v->stream = r;
    v->dec = avcodec_alloc_context3(codec);
    v->pkt = av_packet_alloc();
    v->frame = av_frame_alloc();
    if (!v->dec || !v->pkt || !v->frame)
        return mc_error_set(err, MC_ERR_NOMEM, src->path, 0, 0, "out of memory");
    r = avcodec_parameters_to_context(v->dec, v->fmt->streams[v->stream]->codecpar);
    if (r >= 0)
        r = avcodec_open2(v->dec, codec, NULL);
    if (r < 0)
        return av_fail(err, MC_ERR_IMAGE, src->path, "cannot open the decoder of", r);
    return MC_OK;
}

/* Counts the video stream's packets, then reopens the file at its start. */
static mc_status open_video(mc_frames_in *src, mc_error *err)
{
    video_state *v = &src->v;
    mc_status st = video_start(src, err);
    int64_t nb;
    int r;

    if (st != MC_OK)
        return st;
    /* A chunk's frames are numbered from its first output frame, so that it lines up with
     * references of the whole scene; its tags are read as strictly as concat reads them. */
    if (av_dict_get(v->fmt->metadata, "md5cine_chunk", NULL, 0)) {
        st = mc_chunk_probe_fmt(src->path, v->fmt, &src->chunk, err);
        if (st != MC_OK)
            return st;
        if (src->chunk.last > MAX_FRAMES)
            return mc_error_set(err, MC_ERR_LIMIT, src->path, 0, 0,
                                "video '%s' is a chunk of frames past %ld", src->path,
                                MAX_FRAMES);
        src->is_chunk = true;
        src->first = (long)src->chunk.first;
    }
    while ((r = av_read_frame(v->fmt, v->pkt)) >= 0) {
        if (v->pkt->stream_index == v->stream)
            src->count++;
        av_packet_unref(v->pkt);
        if ((long)src->count > MAX_FRAMES)
            return mc_error_set(err, MC_ERR_LIMIT, src->path, 0, 0,
                                "video '%s' holds over %ld frames", src->path, MAX_FRAMES);
    }
    if (r != AVERROR_EOF)
        return av_fail(err, MC_ERR_IMAGE, src->path, "cannot read video", r);
    if (src->count == 0)
        return mc_error_set(err, MC_ERR_IMAGE, src->path, 0, 0, "video '%s' holds no frame",
                            src->path);
    /* An MP4 cut short keeps its whole index (the moov box) while its packets stop early. */
    nb = v->fmt->streams[v->stream]->nb_frames;
    if (nb > (int64_t)src->count && nb <= MAX_FRAMES)
        src->listed = (size_t)nb;
    video_close(v);
    return video_start(src, err);
}

static mc_status frames_open(const char *path, mc_frames_in **out, mc_error *err)
{
    struct stat sb;
    mc_frames_in *src;
    mc_status st;

    *out = NULL;
    if (stat(path, &sb) != 0)
        return mc_error_set(err, mc_open_status(errno), path, 0, 0, "cannot open '%s': %s", path,
                            strerror(errno));
    /* A FIFO or a device would block the reader (FFmpeg, or read()) for ever. */
    if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode))
        return mc_error_set(err, MC_ERR_IMAGE, path, 0, 0, "cannot open '%s': not a regular file",
                            path);
    src = calloc(1, sizeof *src);
    if (!src || !(src->path = dup_str(path))) {
        free(src);
        return mc_error_set(err, MC_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    if (S_ISDIR(sb.st_mode)) {
        src->kind = MC_FRAMES_FOLDER;
        st = open_folder(src, err);
    } else if (is_video_name(path)) {
        src->kind = MC_FRAMES_VIDEO;
        st = open_video(src, err);
    } else {
        src->kind = MC_FRAMES_IMAGE;
        st = open_image(src, err);
    }
    if (st != MC_OK) {
        mc_frames_release(src);
        return st;
    }
    *out = src;
    return MC_OK;
}

/* A reader drops FFmpeg's messages made inside its calls (every failure is an mc_error). */
mc_status mc_frames_open(const char *path, mc_frames_in **out, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    mc_status s;

    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    s = frames_open(path, out, err);
    mc_ffmpeg_log_leave(&sc);
    return s;
}

static void frames_release(mc_frames_in *src)
{
    if (!src)
        return;
    free_files(src);
    mc_image_release(&src->img);
    video_close(&src->v);
    free(src->path);
    free(src);
}

void mc_frames_release(mc_frames_in *src)
{
    mc_ffmpeg_log_scope sc;

    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    frames_release(src);
    mc_ffmpeg_log_leave(&sc);
}

mc_frames_kind mc_frames_kind_of(const mc_frames_in *src)
{
    return src->kind;
}

const char *mc_frames_path(const mc_frames_in *src)
{
    return src->path;
}

const mc_chunk_info *mc_frames_chunk(const mc_frames_in *src)
{
    return src->is_chunk ? &src->chunk : NULL;
}

size_t mc_frames_count(const mc_frames_in *src)
{
    return src->count;
}

size_t mc_frames_listed(const mc_frames_in *src)
{
    return src->listed > src->count ? src->listed : src->count;
}

long mc_frames_number(const mc_frames_in *src, size_t index)
{
    if (index >= src->count)
        return -1;
    return src->kind == MC_FRAMES_VIDEO ? src->first + (long)index : src->files[index].number;
}

bool mc_frames_find(const mc_frames_in *src, long number, size_t *index)
{
    size_t lo = 0, hi = src->count;

    if (src->kind == MC_FRAMES_VIDEO) {
        if (number < src->first || (size_t)(number - src->first) >= src->count)
            return false;
        *index = (size_t)(number - src->first);
        return true;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->files[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < src->count && src->files[lo].number == number) {
        *index = lo;
        return true;
    }
    return false;
}

const char *mc_frames_file(const mc_frames_in *src, size_t index)
{
    if (index >= src->count)
        return NULL;
    return src->kind == MC_FRAMES_VIDEO ? src->path : src->files[index].path;
}

mc_status mc_frames_size(const mc_frames_in *src, size_t index, int *w, int *h, mc_error *err)
{
    char *buf;
    size_t len;
    mc_status st;

    *w = 0;
    *h = 0;
    if (index >= src->count)
        return mc_error_set(err, MC_ERR_USAGE, src->path, 0, 0,
                            "'%s' has no frame at index %zu (it has %zu)", src->path, index,
                            src->count);
    if (src->kind == MC_FRAMES_VIDEO) {
        *w = src->v.dec->width;
        *h = src->v.dec->height;
        return MC_OK;
    }
    st = mc_read_file(src->files[index].path, &buf, &len, err);
    if (st != MC_OK)
        return st;
    st = mc_image_probe(buf, len, src->files[index].path, w, h, err);
    free(buf);
    return st;
}

/* Maps the frame's colour tags to swscale's: BT.709 when untagged. */
static int sws_matrix(enum AVColorSpace cs)
{
    switch (cs) {
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M:
        return SWS_CS_ITU601;
    case AVCOL_SPC_SMPTE240M:
        return SWS_CS_SMPTE240M;
    case AVCOL_SPC_FCC:
        return SWS_CS_FCC;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL:
        return SWS_CS_BT2020;
    default:
        return SWS_CS_ITU709;
    }
}

/* Converts the decoded frame into v->rgba. */
static mc_status video_convert(mc_frames_in *src, mc_error *err)
{
    video_state *v = &src->v;
    AVFrame *f = v->frame;
    size_t need = (size_t)f->width * (size_t)f->height * 4;
    const int *coef = sws_getCoefficients(sws_matrix(f->colorspace));
    uint8_t *dst[4] = { NULL };
    int dst_stride[4] = { 0 };

    if (need > v->rgba_cap) {
        uint8_t *p = realloc(v->rgba, need);
        if (!p)
            return mc_error_set(err, MC_ERR_NOMEM, src->path, 0, 0, "out of memory");
        v->rgba = p;
        v->rgba_cap = need;
    }
    v->sws = sws_getCachedContext(v->sws, f->width, f->height, (enum AVPixelFormat)f->format,
                                  f->width, f->height, AV_PIX_FMT_RGBA,
                                  SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL,
                                  NULL, NULL);
    if (!v->sws)
        return mc_error_set(err, MC_ERR_IMAGE, src->path, 0, 0,
                            "cannot convert the pixels of '%s' to RGBA", src->path);
    /* Fails harmlessly (-1) for RGB sources, which have no matrix. */
    sws_setColorspaceDetails(v->sws, coef, f->color_range == AVCOL_RANGE_JPEG, coef, 1, 0,
                             1 << 16, 1 << 16);
    dst[0] = v->rgba;
    dst_stride[0] = f->width * 4;
    if (sws_scale(v->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst,
                  dst_stride) != f->height)
        return mc_error_set(err, MC_ERR_IMAGE, src->path, 0, 0,
                            "cannot convert the pixels of '%s' to RGBA", src->path);
    v->w = f->width;
    v->h = f->height;
    return MC_OK;
}

/* Decodes the next frame into v->frame; MC_ERR_IMAGE when the stream ends early. */
static mc_status video_next(mc_frames_in *src, mc_error *err)
{
    video_state *v = &src->v;

    for (;;) {
        int r = avcodec_receive_frame(v->dec, v->frame);
        if (r >= 0)
            return MC_OK;
        if (r == AVERROR_EOF)
            return mc_error_set(err, MC_ERR_IMAGE, src->path, 0, 0,
                                "video '%s' ends after %ld of %zu frames", src->path,
                                v->decoded, src->count);
        if (r != AVERROR(EAGAIN))
            return av_fail(err, MC_ERR_IMAGE, src->path, "cannot decode", r);
        if (v->flushing) {
            r = avcodec_send_packet(v->dec, NULL);
        } else {
            r = av_read_frame(v->fmt, v->pkt);
            if (r == AVERROR_EOF) {
                v->flushing = true;
                r = avcodec_send_packet(v->dec, NULL);
            } else if (r >= 0) {
                if (v->pkt->stream_index == v->stream)
                    r = avcodec_send_packet(v->dec, v->pkt);
                av_packet_unref(v->pkt);
            }
        }
        if (r < 0 && r != AVERROR_EOF)
            return av_fail(err, MC_ERR_IMAGE, src->path, "cannot decode", r);
    }
}

static mc_status read_video(mc_frames_in *src, size_t index, mc_frame *out, mc_error *err)
{
    video_state *v = &src->v;

    if ((long)index < v->decoded - 1)
        return mc_error_set(err, MC_ERR_USAGE, src->path, 0, 0,
                            "video '%s' reads forward only: frame %zu after %ld", src->path,
                            index, v->decoded - 1);
    while (v->decoded <= (long)index) {
        mc_status st = video_next(src, err);
        if (st == MC_OK && v->decoded == (long)index)
            st = video_convert(src, err);
        av_frame_unref(v->frame);
        if (st != MC_OK)
            return st;
        v->decoded++;
    }
    out->number = (long)index;
    out->width = v->w;
    out->height = v->h;
    out->stride = (size_t)v->w * 4;
    out->rgba = v->rgba;
    out->name = src->path;
    return MC_OK;
}

static mc_status frames_read(mc_frames_in *src, size_t index, mc_frame *out, mc_error *err)
{
    memset(out, 0, sizeof *out);
    if (index >= src->count)
        return mc_error_set(err, MC_ERR_USAGE, src->path, 0, 0,
                            "'%s' has no frame at index %zu (it has %zu)", src->path, index,
                            src->count);
    if (src->kind == MC_FRAMES_VIDEO)
        return read_video(src, index, out, err);
    if (!src->img_valid || src->img_index != index) {
        mc_status st;
        mc_image_release(&src->img);
        src->img_valid = false;
        st = mc_image_load(src->files[index].path, &src->img, err);
        if (st != MC_OK)
            return st;
        src->img_valid = true;
        src->img_index = index;
    }
    out->number = src->files[index].number;
    out->width = src->img.width;
    out->height = src->img.height;
    out->stride = src->img.stride;
    out->rgba = src->img.pixels;
    out->name = src->files[index].path;
    return MC_OK;
}

mc_status mc_frames_read(mc_frames_in *src, size_t index, mc_frame *out, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    mc_status s;

    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    s = frames_read(src, index, out, err);
    mc_ffmpeg_log_leave(&sc);
    return s;
}

mc_rate mc_frames_rate(const mc_frames_in *src)
{
    const AVFormatContext *fmt = src->v.fmt;
    AVRational r;

    if (src->kind != MC_FRAMES_VIDEO || !fmt)
        return (mc_rate){ 0, 0 };
    r = fmt->streams[src->v.stream]->avg_frame_rate;
    if (r.num <= 0 || r.den <= 0)
        r = fmt->streams[src->v.stream]->r_frame_rate;
    if (r.num <= 0 || r.den <= 0)
        return (mc_rate){ 0, 0 };
    return (mc_rate){ r.num, r.den };
}
