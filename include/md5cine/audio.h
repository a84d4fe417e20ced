/* Sound files in (WAV and Ogg Vorbis, decoded from memory) and the mix out (a 16-bit stereo
 * WAV file, as the engine's aviGame writes one).
 *
 * A decoded clip is what Doom 3's sound cache plays (snd_cache.cpp idSoundSample::Load,
 * snd_decoder.cpp idSampleDecoderLocal): float samples at 16-bit scale (a 16-bit PCM sample s
 * becomes (float)s; a Vorbis sample v becomes v * 32768), brought to 44100 Hz by repeating
 * each sample (Simd_Generic.cpp idSIMD_Generic::UpSamplePCMTo44kHz and UpSampleOGGTo44kHz
 * copy a 22050 Hz sample into 2 output samples, an 11025 Hz one into 4: no filter), so a clip
 * of N frames at rate r holds N * 44100 / r frames here, and a frame of the source plays for
 * exactly 44100 / r samples of the mix.
 *
 * What the engine accepts, and so what is read here (anything else is an error; the engine
 * plays its default beep instead, which the caller may stand in for with silence):
 *   - 11025, 22050 or 44100 Hz, mono or stereo (snd_cache.cpp idSoundSample::Load);
 *   - WAV: RIFF/WAVE, format tag 1 (PCM), 16 bits per sample. The engine refuses 8-bit
 *     files ("is %dbits, expected 16bits", idSoundSample::Load) and every format tag but 1
 *     (snd_wavefile.cpp idWaveFile::ReadMMIO), so they are refused here too.
 *   - Ogg Vorbis (snd_decoder.cpp idWaveFile::OpenOGG), decoded with stb_vorbis.
 *
 * Sizes. A WAV's chunks are walked by their declared sizes, each checked against the bytes
 * present: a chunk that runs past the end of the file (a truncated file, or a header that lies)
 * is an error naming the chunk. The engine's own tolerances are kept where they are safe: the
 * RIFF size field is not read (the engine never uses it, and tools writing a stream leave it 0
 * or 0xFFFFFFFF), nor are the fmt chunk's byte rate and block align (the engine reads the data
 * as 16-bit samples whatever they say), bytes after the fmt chunk's first 16 are skipped, and a
 * data chunk that ends in a part of a frame (an odd byte, or one channel of a stereo frame)
 * loses that part. An Ogg stream's length is its last page's granule position
 * (stb_vorbis_stream_length_in_samples; the engine's ov_pcm_total); it is checked against the
 * caller's budget before anything is decoded, so a small file that declares an hour of audio
 * costs nothing, and a stream that decodes to more samples than it declared is an error when
 * the first sample past the declared length comes.
 *
 * Memory. A clip's samples take frames * channels * 4 bytes (clip.bytes); decoding refuses,
 * before allocating, a clip whose bytes exceed the budget the caller passes (what is left of
 * a scene's MC_LIMIT_AUDIO_DECODED_BYTES). stb_vorbis may hold at most
 * MC_LIMIT_OGG_DECODER_BYTES while it decodes (every allocation counted), all freed after.
 *
 * Errors name the file in the message, "cannot read 'NAME': REASON", and in err->file, with
 * no position: MC_ERR_SYNTAX (not a WAV or Ogg Vorbis file, a chunk or page cut short, a
 * damaged stream), MC_ERR_RANGE (a format the engine does not play: "unsupported sample rate
 * 48000 Hz (the engine plays 11025, 22050 or 44100)"), MC_ERR_LIMIT (over the budget, or over
 * the decoder's memory), MC_ERR_NOMEM. */
#ifndef MC_AUDIO_H
#define MC_AUDIO_H

#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/fileio.h>
#include <md5cine/limits.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A decoded sound file. */
typedef struct mc_audio_clip {
    float *samples;  /* frames * channels floats, interleaved (left, right), at MC_SOUND_RATE,
                      * 16-bit scale (full scale is +-32768); owned (mc_audio_clip_release) */
    int64_t frames;  /* at MC_SOUND_RATE: the source's frames * MC_SOUND_RATE / source_rate */
    int channels;    /* 1 or 2 */
    int source_rate; /* the file's rate: 11025, 22050 or 44100 */
    size_t bytes;    /* bytes of samples, what the clip costs of the budget */
} mc_audio_clip;

/* Decodes a WAV or an Ogg Vorbis file held in memory, told apart by their first bytes ("RIFF",
 * "OggS") whatever the name says (the engine opens NAME.ogg for a shader's NAME.wav). name is
 * used in messages (NULL: "<memory>"); budget is the most bytes the clip may take. On success
 * *clip holds the samples; on failure it is zeroed. The data is only read. */
mc_status mc_audio_decode(const void *data, size_t len, const char *name, size_t budget,
                          mc_audio_clip *clip, mc_error *err);

/* The two decoders mc_audio_decode chooses from, with the same contract. */
mc_status mc_wav_decode(const void *data, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err);
mc_status mc_ogg_decode(const void *data, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err);

/* Frees the samples and zeroes *clip; NULL and a zeroed clip are fine. */
void mc_audio_clip_release(mc_audio_clip *clip);

/* ---- the mix out ---- */

/* The engine's float-to-short conversion of a mix (Simd_Generic.cpp
 * idSIMD_Generic::MixedSoundToSamples): a value at or below -32768 gives -32768, at or above
 * 32767 gives 32767, any other is truncated toward zero ((short)x: 0.9 -> 0, -1.7 -> -1); NaN
 * gives 0. The GPL build's aviGame (snd_world.cpp idSoundWorldLocal::AVIUpdate) converts the
 * same way, its idMath::FtoiFast being (int)f off Windows. n values from mix to out. */
void mc_audio_to_s16(const float *mix, size_t n, int16_t *out);

/* Size of the WAV header written here: RIFF, fmt (16 bytes: PCM, 2 channels, 44100 Hz, 16
 * bits) and the data chunk's header. */
#define MC_WAV_HEADER_BYTES 44

/* The most frames a WAV can hold: its data chunk's size is a 32-bit count of bytes and the
 * RIFF size above it adds 36 (4 bytes a stereo frame): 1,073,741,814 frames, 6 h 45 min. */
#define MC_WAV_MAX_FRAMES ((int64_t)((0xFFFFFFFFu - 36u) / 4u))

/* Writes the 44-byte header of a 16-bit PCM stereo 44100 Hz WAV of frames frames (0 <= frames
 * <= MC_WAV_MAX_FRAMES), the format of the engine's aviGame sound (snd_world.cpp
 * idSoundWorldLocal::AVIClose), into out. Its RIFF size is 36 + the data's bytes (the engine
 * writes 8 less, data + 28, which players ignore). */
void mc_wav_header(uint8_t out[MC_WAV_HEADER_BYTES], int64_t frames);

/* A WAV file written as a mix comes, under a temporary name renamed into place by
 * mc_wav_writer_commit (fileio.h mc_outfile): never left half-written. */
typedef struct mc_wav_writer {
    mc_outfile out;
    int64_t frames;     /* frames written so far */
    uint8_t buf[16384]; /* the bytes of the frames being written */
} mc_wav_writer;

/* Creates the temporary file of path and writes a header for 0 frames (completed by commit).
 * Errors as mc_outfile_begin (MC_ERR_IO naming path); then there is nothing to abort. */
mc_status mc_wav_writer_begin(mc_wav_writer *w, const char *path, mc_error *err);

/* Appends frames stereo frames of mix (2 * frames floats, left then right, 16-bit scale),
 * converted by mc_audio_to_s16. Errors: MC_ERR_LIMIT (past MC_WAV_MAX_FRAMES in all),
 * MC_ERR_IO (a write failed); the writer must then be aborted. */
mc_status mc_wav_writer_put(mc_wav_writer *w, const float *mix, size_t frames, mc_error *err);

/* Writes the sizes into the header, closes the file (checking for write errors) and renames
 * it into place; on failure the temporary file is removed. */
mc_status mc_wav_writer_commit(mc_wav_writer *w, mc_error *err);

/* Removes the temporary file; safe after commit or a failed begin, and twice. */
void mc_wav_writer_abort(mc_wav_writer *w);

/* The whole WAV of frames stereo frames of mix at path (begin, put, commit). */
mc_status mc_wav_write(const char *path, const float *mix, int64_t frames, mc_error *err);

/* The same bytes in memory: *out (malloc'd, the caller frees it) holds *len =
 * MC_WAV_HEADER_BYTES + 4 * frames bytes. Errors: MC_ERR_LIMIT (frames < 0 or over
 * MC_WAV_MAX_FRAMES), MC_ERR_NOMEM; *out is then NULL and *len 0. */
mc_status mc_wav_write_memory(const float *mix, int64_t frames, uint8_t **out, size_t *len,
                              mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
