/* Chunk tags of a video file (chunk.h). */
#include "video/chunk_internal.h"
#include "video/ffmpeg_log.h"
#include <md5cine/chunk.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libavformat/avformat.h>
#include <libavutil/mem.h>

/* Looked up without regard to case: Matroska stores tag names in upper case. */
static const char *tag(const AVFormatContext *fmt, const char *key)
{
    const AVDictionaryEntry *e = av_dict_get(fmt->metadata, key, NULL, 0);

    return e ? e->value : NULL;
}

mc_status mc_video_check_regular(const char *path, mc_error *err)
{
    struct stat sb;

    if (stat(path, &sb) != 0) {
        int e = errno;

        return mc_error_set(err, mc_open_status(e), path, 0, 0, "cannot open video '%s': %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode))
        return mc_error_set(err, MC_ERR_IMAGE, path, 0, 0, "cannot open '%s': not a regular file",
                            path);
    return MC_OK;
}

int mc_video_stop_cb(void *opaque)
{
    const volatile sig_atomic_t *stop = opaque;

    return stop && *stop;
}

mc_status mc_chunk_open_input(const char *path, volatile sig_atomic_t *stop,
                              AVFormatContext **fmt, mc_error *err)
{
    size_t n = strlen(path) + 6;
    AVDictionary *opts = NULL;
    char *url;
    char text[128];
    mc_status st;
    int r;

    *fmt = NULL;
    st = mc_video_check_regular(path, err);
    if (st != MC_OK)
        return st;
    url = malloc(n);
    *fmt = avformat_alloc_context();
    if (!url || !*fmt) {
        free(url);
        avformat_free_context(*fmt);
        *fmt = NULL;
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    (*fmt)->interrupt_callback.callback = mc_video_stop_cb;
    (*fmt)->interrupt_callback.opaque = (void *)(uintptr_t)stop;
    snprintf(url, n, "file:%s", path);
    av_dict_set(&opts, "protocol_whitelist", "file", 0);
    r = avformat_open_input(fmt, url, NULL, &opts); /* frees *fmt and sets it NULL on failure */
    av_dict_free(&opts);
    free(url);
    if (r < 0 && mc_open_status(AVUNERROR(r)) == MC_ERR_NOMEM) {
        av_strerror(r, text, sizeof text);
        return mc_error_set(err, MC_ERR_NOMEM, path, 0, 0, "cannot open video '%s': %s", path,
                            text);
    }
    if (r == AVERROR_EXIT || (r < 0 && stop && *stop))
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    if (r < 0) {
        av_strerror(r, text, sizeof text);
        return mc_error_set(err, MC_ERR_IMAGE, path, 0, 0, "cannot open video '%s': %s", path,
                            text);
    }
    return MC_OK;
}

mc_status mc_chunk_probe_fmt(const char *path, const AVFormatContext *fmt, mc_chunk_info *out,
                             mc_error *err)
{
    return mc_chunk_parse(path, tag(fmt, "md5cine_chunk"), tag(fmt, "md5cine_fps"),
                          tag(fmt, "md5cine_scene"), tag(fmt, "md5cine_settings"), out, err);
}

mc_status mc_chunk_probe(const char *path, mc_chunk_info *out, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    AVFormatContext *fmt;
    mc_status st;

    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    st = mc_chunk_open_input(path, NULL, &fmt, err);
    if (st == MC_OK)
        st = mc_chunk_probe_fmt(path, fmt, out, err);
    avformat_close_input(&fmt);
    mc_ffmpeg_log_leave(&sc);
    return st;
}
