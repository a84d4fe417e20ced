/* What the two decoders (wav.c, ogg.c) share: the error text, the clip's allocation against
 * the budget, and the engine's up-sampling to 44100 Hz. */
#ifndef MC_SOUND_CLIP_H
#define MC_SOUND_CLIP_H

#include <stddef.h>
#include <stdint.h>

#include <md5cine/audio.h>

/* name, or "<memory>" when NULL. */
const char *clip_name(const char *name);

/* Sets err to "cannot read 'NAME': REASON" (file NAME, no position) and returns code. */
mc_status clip_fail(mc_error *err, mc_status code, const char *name, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* Whether rate is one the engine plays (11025, 22050, 44100); the error when not. */
mc_status clip_check_format(int rate, int channels, const char *name, mc_error *err);

/* Allocates clip for src_frames frames at rate (checked by clip_check_format) and channels:
 * src_frames * 44100 / rate frames, zeroed. MC_ERR_LIMIT when that takes more than budget
 * bytes (checked before allocating), MC_ERR_NOMEM. On failure *clip is zeroed. */
mc_status clip_alloc(mc_audio_clip *clip, int64_t src_frames, int rate, int channels, size_t budget,
                     const char *name, mc_error *err);

/* Writes n source frames of 16-bit little-endian PCM (interleaved as the clip's channels) as
 * source frames [at, at + n) of clip: each value (float)s, repeated 44100 / rate times
 * (Simd_Generic.cpp idSIMD_Generic::UpSamplePCMTo44kHz). */
void clip_put_pcm16(mc_audio_clip *clip, int64_t at, const uint8_t *pcm, int64_t n);

/* The same for n source frames of planar floats (planes[c][i], full scale 1), each value
 * v * 32768 (idSIMD_Generic::UpSampleOGGTo44kHz). */
void clip_put_planar(mc_audio_clip *clip, int64_t at, float *const *planes, int64_t n);

#endif
