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

void mc_chunk_format(const mc_chunk_info *info, mc_chunk_tags *out)
{
    snprintf(out->chunk, sizeof out->chunk, "%" PRId64 "-%" PRId64 "/%" PRId64, info->first,
             info->last, info->frames);
    snprintf(out->fps, sizeof out->fps, "%d/%d", info->fps.num, info->fps.den);
    snprintf(out->scene, sizeof out->scene, "%s", info->scene);
    snprintf(out->settings, sizeof out->settings, "%s", info->settings);
}

/* A decimal number without sign or leading zero, at most 15 digits, at *s; moves *s past it. */
static bool read_number(const char **s, int64_t *out)
{
    const char *p = *s;
    int64_t v = 0;
    int n = 0;

    while (p[n] >= '0' && p[n] <= '9') {
        if (n == 15)
            return false;
        v = v * 10 + (p[n] - '0');
        n++;
    }
    if (n == 0 || (n > 1 && p[0] == '0'))
        return false;
    *s = p + n;
    *out = v;
    return true;
}

static mc_status bad_tag(mc_error *err, const char *name, const char *tag, const char *value,
                         const char *expect)
{
    return mc_error_set(err, MC_ERR_SYNTAX, name, 0, 0,
                        "'%s' has a bad %s tag '%.80s': expected %s", name, tag,
                        value ? value : "", expect);
}

mc_status mc_chunk_parse(const char *name, const char *chunk, const char *fps, const char *scene,
                         const char *settings, mc_chunk_info *out, mc_error *err)
{
    const char *s = chunk;
    int64_t num, den;
    size_t n;

    memset(out, 0, sizeof *out);
    if (!chunk)
        return mc_error_set(err, MC_ERR_SYNTAX, name, 0, 0,
                            "'%s' is not an md5cine chunk (no md5cine_chunk tag)", name);
    if (!read_number(&s, &out->first) || *s++ != '-' || !read_number(&s, &out->last) ||
        *s++ != '/' || !read_number(&s, &out->frames) || *s != '\0' || out->last < out->first ||
        out->last >= out->frames)
        return bad_tag(err, name, "md5cine_chunk", chunk,
                       "FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES");
    s = fps;
    if (!s || !read_number(&s, &num) || *s++ != '/' || !read_number(&s, &den) || *s != '\0' ||
        num > INT32_MAX || den > INT32_MAX || num < MC_LIMIT_FPS_MIN * den ||
        num > MC_LIMIT_FPS_MAX * den)
        return bad_tag(err, name, "md5cine_fps", fps, "NUM/DEN within 1..1000 frames per second");
    out->fps = (mc_rate){ (int)num, (int)den };
    n = scene ? strlen(scene) : 0;
    for (size_t i = 0; i < n; i++)
        if (!((scene[i] >= '0' && scene[i] <= '9') || (scene[i] >= 'a' && scene[i] <= 'f')))
            n = 0;
    if (n != MC_CHUNK_ID_LEN)
        return bad_tag(err, name, "md5cine_scene", scene, "64 lower-case hex digits");
    memcpy(out->scene, scene, n + 1);
    n = settings ? strlen(settings) : 0;
    for (size_t i = 0; i < n; i++)
        if (settings[i] < 0x20 || settings[i] > 0x7e)
            n = 0;
    if (n == 0 || n >= sizeof out->settings)
        return bad_tag(err, name, "md5cine_settings", settings, "1..255 printable ASCII bytes");
    memcpy(out->settings, settings, n + 1);
    return MC_OK;
}

static const char *tag(const AVFormatContext *fmt, const char *key)
{
    const AVDictionaryEntry *e = av_dict_get(fmt->metadata, key, NULL, AV_DICT_MATCH_CASE);

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
