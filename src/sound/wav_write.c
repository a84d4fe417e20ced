/* The mix out (audio.h): the engine's float-to-short conversion and the 16-bit stereo 44100 Hz
 * WAV its aviGame writes (snd_world.cpp idSoundWorldLocal::AVIClose), to a file or to memory. */
#include <md5cine/audio.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mc_audio_to_s16(const float *mix, size_t n, int16_t *out)
{
    /* Simd_Generic.cpp idSIMD_Generic::MixedSoundToSamples: clip, else (short) truncates. The
     * SSE version of the Windows build rounds to nearest instead (cvtps2pi); the portable
     * code, and aviGame off Windows (idMath::FtoiFast is (int)f there), truncate. */
    for (size_t i = 0; i < n; i++) {
        float v = mix[i];

        if (v <= -32768.0f)
            out[i] = -32768;
        else if (v >= 32767.0f)
            out[i] = 32767;
        else if (v == v)
            out[i] = (int16_t)v;
        else
            out[i] = 0; /* NaN */
    }
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_le16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void mc_wav_header(uint8_t out[MC_WAV_HEADER_BYTES], int64_t frames)
{
    uint32_t data = (uint32_t)frames * 4u;

    memcpy(out, "RIFF", 4);
    put_le32(out + 4, 36u + data);
    memcpy(out + 8, "WAVEfmt ", 8);
    put_le32(out + 16, 16);                /* fmt chunk size */
    put_le16(out + 20, 1);                 /* WAVE_FORMAT_TAG_PCM */
    put_le16(out + 22, 2);                 /* channels */
    put_le32(out + 24, MC_SOUND_RATE);     /* samples per second */
    put_le32(out + 28, MC_SOUND_RATE * 4); /* bytes per second */
    put_le16(out + 32, 4);                 /* block align: 2 channels * 16 bits / 8 */
    put_le16(out + 34, 16);                /* bits per sample */
    memcpy(out + 36, "data", 4);
    put_le32(out + 40, data);
}

/* n values of mix as the file holds them: 16-bit little-endian, 2 bytes each, into dst. */
static void put_samples(const float *mix, size_t n, uint8_t *dst)
{
    int16_t s[1024];

    for (size_t at = 0; at < n; at += 1024) {
        size_t k = n - at < 1024 ? n - at : 1024;

        mc_audio_to_s16(mix + at, k, s);
        for (size_t i = 0; i < k; i++, dst += 2)
            put_le16(dst, (uint16_t)s[i]);
    }
}

static mc_status too_long(mc_error *err, const char *path, int64_t frames)
{
    return mc_error_set(err, MC_ERR_LIMIT, path, 0, 0,
                        "'%s': %lld frames are more than a WAV file holds (%lld, 6 h 45 min)",
                        path ? path : "<memory>", (long long)frames, (long long)MC_WAV_MAX_FRAMES);
}

mc_status mc_wav_writer_begin(mc_wav_writer *w, const char *path, mc_error *err)
{
    uint8_t header[MC_WAV_HEADER_BYTES];
    mc_status s;

    memset(w, 0, sizeof *w);
    s = mc_outfile_begin(&w->out, path, MC_OUTFILE_STREAM, err);
    if (s != MC_OK)
        return s;
    mc_wav_header(header, 0);
    if (fwrite(header, 1, sizeof header, w->out.fp) != sizeof header) {
        int e = errno;

        mc_outfile_abort(&w->out);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write '%s': %s", path, strerror(e));
    }
    return MC_OK;
}

mc_status mc_wav_writer_put(mc_wav_writer *w, const float *mix, size_t frames, mc_error *err)
{
    const size_t step = sizeof w->buf / 4;

    if (frames > (uint64_t)(MC_WAV_MAX_FRAMES - w->frames))
        return too_long(err, w->out.path,
                        frames > (uint64_t)INT64_MAX - (uint64_t)w->frames
                                ? INT64_MAX
                                : w->frames + (int64_t)frames);
    for (size_t at = 0; at < frames; at += step) {
        size_t n = frames - at < step ? frames - at : step;

        put_samples(mix + 2 * at, 2 * n, w->buf);
        if (fwrite(w->buf, 4, n, w->out.fp) != n)
            return mc_error_set(err, MC_ERR_IO, w->out.path, 0, 0, "cannot write '%s': %s",
                                w->out.path, strerror(errno));
    }
    w->frames += (int64_t)frames;
    return MC_OK;
}

mc_status mc_wav_writer_commit(mc_wav_writer *w, mc_error *err)
{
    uint8_t header[MC_WAV_HEADER_BYTES];

    mc_wav_header(header, w->frames);
    if (fseek(w->out.fp, 0, SEEK_SET) != 0 ||
        fwrite(header, 1, sizeof header, w->out.fp) != sizeof header) {
        int e = errno;

        mc_outfile_abort(&w->out);
        return mc_error_set(err, MC_ERR_IO, w->out.path, 0, 0, "cannot write '%s': %s", w->out.path,
                            strerror(e));
    }
    return mc_outfile_commit(&w->out, err);
}

void mc_wav_writer_abort(mc_wav_writer *w)
{
    mc_outfile_abort(&w->out);
}

mc_status mc_wav_write(const char *path, const float *mix, int64_t frames, mc_error *err)
{
    mc_wav_writer w;
    mc_status s;

    if (frames < 0 || frames > MC_WAV_MAX_FRAMES)
        return too_long(err, path, frames);
    s = mc_wav_writer_begin(&w, path, err);
    if (s != MC_OK)
        return s;
    s = mc_wav_writer_put(&w, mix, (size_t)frames, err);
    if (s != MC_OK) {
        mc_wav_writer_abort(&w);
        return s;
    }
    return mc_wav_writer_commit(&w, err);
}

mc_status mc_wav_write_memory(const float *mix, int64_t frames, uint8_t **out, size_t *len,
                              mc_error *err)
{
    size_t n;

    *out = NULL;
    *len = 0;
    if (frames < 0 || frames > MC_WAV_MAX_FRAMES)
        return too_long(err, NULL, frames);
    n = MC_WAV_HEADER_BYTES + (size_t)frames * 4u;
    *out = malloc(n);
    if (!*out)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for a %zu-byte WAV", n);
    mc_wav_header(*out, frames);
    put_samples(mix, (size_t)frames * 2u, *out + MC_WAV_HEADER_BYTES);
    *len = n;
    return MC_OK;
}
