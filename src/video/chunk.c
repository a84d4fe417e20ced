/* Chunk tags and scene identity (chunk.h). */
#include "video/chunk_internal.h"
#include "video/ffmpeg_log.h"
#include <md5cine/chunk.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavformat/avformat.h>
#include <libavutil/mem.h>
#include <libavutil/sha.h>

/* Adds the SHA-256 digest of the file at path to sum. */
static mc_status hash_file(struct AVSHA *sum, const char *path, mc_error *err)
{
    struct AVSHA *one = av_sha_alloc();
    uint8_t digest[32];
    char *buf = NULL;
    size_t len = 0;
    mc_status st;

    if (!one)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    st = mc_read_file(path, &buf, &len, err);
    if (st == MC_OK) {
        av_sha_init(one, 256);
        av_sha_update(one, (const uint8_t *)buf, len);
        av_sha_final(one, digest);
        av_sha_update(sum, digest, sizeof digest);
    }
    free(buf);
    av_free(one);
    return st;
}

mc_status mc_chunk_scene_id(const mc_scene *scene, char out[MC_CHUNK_ID_LEN + 1], mc_error *err)
{
    struct AVSHA *sum = av_sha_alloc();
    uint8_t digest[32];
    mc_status st;

    out[0] = '\0';
    if (!sum)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    av_sha_init(sum, 256);
    st = hash_file(sum, scene->name, err);
    if (st == MC_OK)
        st = hash_file(sum, scene->camera_path, err);
    for (int i = 0; st == MC_OK && i < scene->num_actors; i++) {
        const mc_scene_actor *a = &scene->actors[i];

        st = hash_file(sum, a->mesh_path, err);
        if (st == MC_OK && a->anim_path)
            st = hash_file(sum, a->anim_path, err);
        for (int m = 0; st == MC_OK && a->textures && m < a->mesh.num_meshes; m++)
            if (a->textures[m])
                st = hash_file(sum, a->textures[m], err);
    }
    av_sha_final(sum, digest);
    av_free(sum);
    if (st != MC_OK)
        return st;
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
    return MC_OK;
}

/* Looked up without regard to case: Matroska stores tag names in upper case. */
static const char *tag(const AVFormatContext *fmt, const char *key)
{
    const AVDictionaryEntry *e = av_dict_get(fmt->metadata, key, NULL, 0);

    return e ? e->value : NULL;
}

/* Opens a local video for reading (the "file" protocol only, as frames_in.c does). */
int mc_chunk_open_input(const char *path, AVFormatContext **fmt)
{
    size_t n = strlen(path) + 6;
    AVDictionary *opts = NULL;
    char *url = malloc(n);
    int r;

    *fmt = NULL;
    if (!url)
        return AVERROR(ENOMEM);
    if (!mc_is_regular_file(path)) { /* a FIFO would block avformat_open_input for ever */
        free(url);
        return AVERROR(EINVAL);
    }
    snprintf(url, n, "file:%s", path);
    av_dict_set(&opts, "protocol_whitelist", "file", 0);
    r = avformat_open_input(fmt, url, NULL, &opts);
    av_dict_free(&opts);
    free(url);
    return r;
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
    char text[128];
    int r;

    if (!mc_is_regular_file(path))
        return mc_error_set(err, MC_ERR_IMAGE, path, 0, 0, "cannot open '%s': not a regular file",
                            path);
    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    r = mc_chunk_open_input(path, &fmt);
    if (r < 0) {
        av_strerror(r, text, sizeof text);
        st = mc_error_set(err, MC_ERR_IMAGE, path, 0, 0, "cannot open video '%s': %s", path,
                          text);
    } else {
        st = mc_chunk_probe_fmt(path, fmt, out, err);
    }
    avformat_close_input(&fmt);
    mc_ffmpeg_log_leave(&sc);
    return st;
}
