/* libFuzzer target: mc_chunk_parse on arbitrary tag values. The input is split at NUL bytes
 * into the chunk, fps, scene and settings values (fewer parts: the rest are missing). A parsed
 * chunk must satisfy chunk.h's rules and survive a round trip through mc_chunk_format; a
 * failure must be a sane error naming the file. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/chunk_tags.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    const char *v[4] = { NULL, NULL, NULL, NULL };
    mc_chunk_info info, again;
    mc_chunk_tags tags;
    mc_error err;
    size_t start = 0;
    int n = 0;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    for (size_t i = 0; i <= size && n < 4; i++)
        if (buf[i] == '\0') {
            v[n++] = buf + start;
            start = i + 1;
        }
    if (mc_chunk_parse("x.mp4", v[0], v[1], v[2], v[3], &info, &err) == MC_OK) {
        FUZZ_REQUIRE(info.first >= 0 && info.first <= info.last && info.last < info.frames);
        FUZZ_REQUIRE(info.fps.num >= info.fps.den && info.fps.num <= 1000LL * info.fps.den);
        FUZZ_REQUIRE(strlen(info.scene) == MC_CHUNK_ID_LEN && info.settings[0] != '\0');
        mc_chunk_format(&info, &tags);
        FUZZ_REQUIRE(mc_chunk_parse("x.mp4", tags.chunk, tags.fps, tags.scene, tags.settings,
                                    &again, &err) == MC_OK);
        FUZZ_REQUIRE(memcmp(&info, &again, sizeof info) == 0);
    } else {
        FUZZ_REQUIRE(err.code == MC_ERR_SYNTAX && strcmp(err.file, "x.mp4") == 0 &&
                     err.msg[0] != '\0' && err.line == 0);
    }
    free(buf);
    return 0;
}
