/* chunk_tags: the four format tags of a chunk as text (chunk.h describes them): formatting
 * and the strict parser. Plain text in, plain values out: nothing here opens a file, so the
 * fuzz target links it alone (core/chunk_tags.c). */
#ifndef MC_CHUNK_TAGS_H
#define MC_CHUNK_TAGS_H

#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_CHUNK_ID_LEN       64  /* hex digits of a scene identity */
#define MC_CHUNK_SETTINGS_CAP 256 /* settings bytes, with the NUL */

typedef struct mc_chunk_info {
    int64_t first, last; /* output frames of the part, inclusive */
    int64_t frames;      /* output frames of the whole scene */
    mc_rate fps;
    char scene[MC_CHUNK_ID_LEN + 1];
    char settings[MC_CHUNK_SETTINGS_CAP];
} mc_chunk_info;

/* The four tags' values for info, as text: chunk, fps, scene, settings. */
typedef struct mc_chunk_tags {
    char chunk[64], fps[32], scene[MC_CHUNK_ID_LEN + 1], settings[MC_CHUNK_SETTINGS_CAP];
} mc_chunk_tags;

/* Formats info's tags into *out. */
void mc_chunk_format(const mc_chunk_info *info, mc_chunk_tags *out);

/* Parses the four tag values (each may be NULL: missing) of the file name into *out. A file
 * with none of them is MC_ERR_SYNTAX "'NAME' is not an md5cine chunk (no md5cine_chunk tag)";
 * a bad value is MC_ERR_SYNTAX naming the tag. */
mc_status mc_chunk_parse(const char *name, const char *chunk, const char *fps, const char *scene,
                         const char *settings, mc_chunk_info *out, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
