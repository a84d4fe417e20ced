/* libFuzzer target: mc_wav_decode on arbitrary bytes, under a 1 MiB budget. A decoded clip is
 * one the engine plays (mono or stereo, 11025/22050/44100 Hz, each source frame repeated
 * 44100 / rate times), costs what it says and no more than the budget, holds no more source
 * frames than the bytes can (2 bytes a value) and only 16-bit values; written as a stereo WAV
 * and read back it gives the same values. A failure is a sane error naming the file, with no
 * samples. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_audio.h"

#define BUDGET ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The clip as a stereo mix (a mono value on both sides), through the WAV writer and back. */
static void check_round_trip(const mc_audio_clip *c)
{
    size_t n = (size_t)c->frames;
    float *mix = malloc(n * 2 * sizeof *mix + 1);
    uint8_t *wav;
    size_t len;
    mc_audio_clip back;
    mc_error err;

    FUZZ_REQUIRE(mix != NULL);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 2; k++)
            mix[2 * i + k] = c->samples[i * (size_t)c->channels + (c->channels == 2 ? k : 0)];
    FUZZ_REQUIRE(mc_wav_write_memory(mix, c->frames, &wav, &len, &err) == MC_OK);
    FUZZ_REQUIRE(len == MC_WAV_HEADER_BYTES + 4 * n);
    FUZZ_REQUIRE(mc_wav_decode(wav, len, "back.wav", 8 * BUDGET, &back, &err) == MC_OK);
    FUZZ_REQUIRE(back.frames == c->frames && back.channels == 2);
    FUZZ_REQUIRE(memcmp(back.samples, mix, n * 2 * sizeof *mix) == 0);
    mc_audio_clip_release(&back);
    free(wav);
    free(mix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_audio_clip c;
    mc_error err;
    mc_status s = mc_wav_decode(data, size, "fuzz.wav", BUDGET, &c, &err);

    if (s != MC_OK) {
        fuzz_check_clip_error(s, &err, &c, "fuzz.wav");
        return 0;
    }
    fuzz_check_clip_format(&c);
    int64_t rep = 44100 / c.source_rate;

    FUZZ_REQUIRE(c.frames >= 0 && c.frames % rep == 0);
    FUZZ_REQUIRE(c.bytes == (size_t)c.frames * (size_t)c.channels * 4 && c.bytes <= BUDGET);
    FUZZ_REQUIRE((size_t)(c.frames / rep) * 2 * (size_t)c.channels <= size);
    FUZZ_REQUIRE(c.samples != NULL);
    for (int64_t i = 0; i < c.frames * c.channels; i++) {
        float v = c.samples[i];

        FUZZ_REQUIRE(v >= -32768.0f && v <= 32767.0f && v == (float)(int)v);
        FUZZ_REQUIRE(v == c.samples[(i / c.channels / rep * rep) * c.channels + i % c.channels]);
    }
    check_round_trip(&c);
    mc_audio_clip_release(&c);
    return 0;
}
