/* The sound decoders' fuzz targets' shared checks (fuzz_ogg.c, fuzz_wav.c). */
#ifndef MC_FUZZ_AUDIO_H
#define MC_FUZZ_AUDIO_H

#include <md5cine/audio.h>

#include "fuzz_common.h"

/* A failed decode of the file name: a sane error (syntax, range, limit or memory) naming it
 * quoted, on no line, in one line, and no samples. */
static inline void fuzz_check_clip_error(mc_status s, const mc_error *err, const mc_audio_clip *c,
                                         const char *name)
{
    char quoted[64];

    FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_LIMIT ||
                 s == MC_ERR_NOMEM);
    FUZZ_REQUIRE(err->code == s && strcmp(err->file, name) == 0 && err->line == 0);
    snprintf(quoted, sizeof quoted, "'%s'", name);
    FUZZ_REQUIRE(strstr(err->msg, quoted) != NULL && strchr(err->msg, '\n') == NULL);
    FUZZ_REQUIRE(c->samples == NULL && c->frames == 0 && c->bytes == 0);
}

/* A decoded clip is one the engine plays: mono or stereo, at 11025, 22050 or 44100 Hz. */
static inline void fuzz_check_clip_format(const mc_audio_clip *c)
{
    FUZZ_REQUIRE(c->channels == 1 || c->channels == 2);
    FUZZ_REQUIRE(c->source_rate == 11025 || c->source_rate == 22050 || c->source_rate == 44100);
}

#endif
