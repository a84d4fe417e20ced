/* libFuzzer target: mc_ogg_decode (stb_vorbis) on arbitrary bytes, under a 4 MiB budget. A
 * decoded clip is one the engine plays (mono or stereo, 11025/22050/44100 Hz, each source frame
 * repeated 44100 / rate times) and costs what it says, within the budget; every value is read
 * (so ASan and MSan see any left unwritten). A failure is a sane error naming the file, with no
 * samples. stb_vorbis holds at most MC_LIMIT_OGG_DECODER_BYTES (sound/ogg.c counts it). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_audio.h"

#define BUDGET ((size_t)4 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_audio_clip c;
    mc_error err;
    mc_status s = mc_ogg_decode(data, size, "fuzz.ogg", BUDGET, &c, &err);
    double sum = 0;

    if (s != MC_OK) {
        fuzz_check_clip_error(s, &err, &c, "fuzz.ogg");
        return 0;
    }
    fuzz_check_clip_format(&c);
    FUZZ_REQUIRE(c.frames > 0 && c.frames % (44100 / c.source_rate) == 0);
    FUZZ_REQUIRE(c.bytes == (size_t)c.frames * (size_t)c.channels * 4 && c.bytes <= BUDGET);
    FUZZ_REQUIRE(c.samples != NULL);
    for (int64_t i = 0; i < c.frames * c.channels; i++)
        sum += (double)c.samples[i];
    (void)sum;
    mc_audio_clip_release(&c);
    return 0;
}
