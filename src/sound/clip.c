/* The decoded clip: allocation against the budget and the engine's up-sampling (clip.h). */
#include "clip.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *clip_name(const char *name)
{
    return name ? name : "<memory>";
}

mc_status clip_fail(mc_error *err, mc_status code, const char *name, const char *fmt, ...)
{
    char reason[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return mc_error_set(err, code, clip_name(name), 0, 0, "cannot read '%s': %s", clip_name(name),
                        reason);
}

mc_status clip_check_format(int rate, int channels, const char *name, mc_error *err)
{
    /* snd_cache.cpp idSoundSample::Load: the rates and channel counts it keeps. */
    if (rate != 11025 && rate != 22050 && rate != 44100)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported sample rate %d Hz (the engine plays 11025, 22050 or "
                         "44100)",
                         rate);
    if (channels != 1 && channels != 2)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported channel count %d (the engine plays mono or stereo)",
                         channels);
    return MC_OK;
}

mc_status clip_alloc(mc_audio_clip *clip, int64_t src_frames, int rate, int channels, size_t budget,
                     const char *name, mc_error *err)
{
    int64_t repeat = MC_SOUND_RATE / rate;
    /* The largest source frame count whose samples a size_t counts (no overflow below). */
    uint64_t most = (uint64_t)SIZE_MAX / (sizeof(float) * 2u * 4u);
    size_t values, bytes;

    memset(clip, 0, sizeof *clip);
    if (src_frames < 0 || (uint64_t)src_frames > most)
        return clip_fail(err, MC_ERR_LIMIT, name, "%lld frames are too many",
                         (long long)src_frames);
    values = (size_t)src_frames * (size_t)repeat * (size_t)channels;
    bytes = values * sizeof(float);
    if (bytes > budget)
        return clip_fail(err, MC_ERR_LIMIT, name,
                         "decodes to %zu bytes, more than the %zu bytes left of the audio "
                         "budget",
                         bytes, budget);
    clip->samples = calloc(values ? values : 1, sizeof(float));
    if (!clip->samples)
        return mc_error_set(err, MC_ERR_NOMEM, clip_name(name), 0, 0,
                            "out of memory for the %zu bytes of '%s'", bytes, clip_name(name));
    clip->frames = src_frames * repeat;
    clip->channels = channels;
    clip->source_rate = rate;
    clip->bytes = bytes;
    return MC_OK;
}

void clip_put_pcm16(mc_audio_clip *clip, int64_t at, const uint8_t *pcm, int64_t n)
{
    int64_t repeat = MC_SOUND_RATE / clip->source_rate;
    size_t ch = (size_t)clip->channels;
    float *dst = clip->samples + (size_t)(at * repeat) * ch;

    for (int64_t i = 0; i < n; i++) {
        float v[2];

        for (size_t c = 0; c < ch; c++, pcm += 2)
            v[c] = (float)(int16_t)(uint16_t)(pcm[0] | pcm[1] << 8);
        for (int64_t r = 0; r < repeat; r++)
            for (size_t c = 0; c < ch; c++)
                *dst++ = v[c];
    }
}

void clip_put_planar(mc_audio_clip *clip, int64_t at, float *const *planes, int64_t n)
{
    int64_t repeat = MC_SOUND_RATE / clip->source_rate;
    size_t ch = (size_t)clip->channels;
    float *dst = clip->samples + (size_t)(at * repeat) * ch;

    for (int64_t i = 0; i < n; i++) {
        float v[2];

        for (size_t c = 0; c < ch; c++)
            v[c] = planes[c][i] * 32768.0f;
        for (int64_t r = 0; r < repeat; r++)
            for (size_t c = 0; c < ch; c++)
                *dst++ = v[c];
    }
}

void mc_audio_clip_release(mc_audio_clip *clip)
{
    if (!clip)
        return;
    free(clip->samples);
    memset(clip, 0, sizeof *clip);
}
