/* mc_audio_decode (audio.h): a sound file in memory, WAV or Ogg Vorbis by its first bytes. */
#include <md5cine/audio.h>

#include <string.h>

#include "clip.h"

mc_status mc_audio_decode(const void *data, size_t len, const char *name, size_t budget,
                          mc_audio_clip *clip, mc_error *err)
{
    const char *p = data;

    if (len >= 4 && memcmp(p, "RIFF", 4) == 0)
        return mc_wav_decode(data, len, name, budget, clip, err);
    if (len >= 4 && memcmp(p, "OggS", 4) == 0)
        return mc_ogg_decode(data, len, name, budget, clip, err);
    memset(clip, 0, sizeof *clip);
    if (len == 0)
        return clip_fail(err, MC_ERR_SYNTAX, name, "an empty file is not a sound");
    return clip_fail(err, MC_ERR_SYNTAX, name, "not a WAV or Ogg Vorbis file");
}
