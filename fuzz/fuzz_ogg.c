/* libFuzzer target: mc_ogg_decode (stb_vorbis) on arbitrary bytes, under a 4 MiB budget. A
 * decoded clip is one the engine plays (mono or stereo, 11025/22050/44100 Hz, each source frame
 * repeated 44100 / rate times) and costs what it says, within the budget; every value is read
 * (so ASan and MSan see any left unwritten). A failure is a sane error naming the file, with no
 * samples. stb_vorbis holds at most MC_LIMIT_OGG_DECODER_BYTES (sound/ogg.c counts it). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <md5cine/audio.h>

#include "fuzz_common.h"

#define BUDGET ((size_t)4 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_audio_clip c;
    mc_error err;
    mc_status s = mc_ogg_decode(data, size, "fuzz.ogg", BUDGET, &c, &err);
    double sum = 0;

    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_LIMIT ||
                     s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(err.code == s && strcmp(err.file, "fuzz.ogg") == 0 && err.line == 0);
        FUZZ_REQUIRE(strstr(err.msg, "'fuzz.ogg'") != NULL && strchr(err.msg, '\n') == NULL);
        FUZZ_REQUIRE(c.samples == NULL && c.frames == 0 && c.bytes == 0);
        return 0;
    }
    FUZZ_REQUIRE(c.channels == 1 || c.channels == 2);
    FUZZ_REQUIRE(c.source_rate == 11025 || c.source_rate == 22050 || c.source_rate == 44100);
    FUZZ_REQUIRE(c.frames > 0 && c.frames % (44100 / c.source_rate) == 0);
    FUZZ_REQUIRE(c.bytes == (size_t)c.frames * (size_t)c.channels * 4 && c.bytes <= BUDGET);
    FUZZ_REQUIRE(c.samples != NULL);
    for (int64_t i = 0; i < c.frames * c.channels; i++)
        sum += (double)c.samples[i];
    (void)sum;
    mc_audio_clip_release(&c);
    return 0;
}
