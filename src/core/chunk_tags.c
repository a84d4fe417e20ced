/* The chunk tags as text (chunk_tags.h): formatting and the strict parser, with no dependency
 * beyond libc, so that the fuzz target links it alone. */
#include <md5cine/chunk_tags.h>

#include <md5cine/limits.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

