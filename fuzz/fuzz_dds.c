/* libFuzzer target: mc_dds_probe and mc_dds_decode on arbitrary bytes. Both agree on the size;
 * a decoded image has a size within the limits and no more texels than the file's bytes can
 * hold (16 per 8-byte block at most); a failure is MC_ERR_IMAGE (or out of memory) naming the
 * file, with no pixels. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <md5cine/image.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_image img;
    mc_error err;
    int w, h;
    mc_status p = mc_dds_probe(data, size, "fuzz.dds", &w, &h, &err);
    mc_status s = mc_dds_decode(data, size, "fuzz.dds", &img, &err);
    unsigned sum = 0;

    FUZZ_REQUIRE(p == s || s == MC_ERR_NOMEM);
    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_IMAGE || s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(err.code == s && (s == MC_ERR_NOMEM || strstr(err.msg, "fuzz.dds") != NULL));
        FUZZ_REQUIRE(img.pixels == NULL && img.width == 0);
        return 0;
    }
    FUZZ_REQUIRE(img.width == w && img.height == h);
    FUZZ_REQUIRE(img.width >= 1 && img.width <= MC_IMAGE_MAX_SIDE);
    FUZZ_REQUIRE(img.height >= 1 && img.height <= MC_IMAGE_MAX_SIDE);
    FUZZ_REQUIRE(img.stride == (size_t)img.width * 4 && img.pixels);
    FUZZ_REQUIRE(size >= 128 && ((size_t)img.width + 3) / 4 * (((size_t)img.height + 3) / 4) <=
                                        (size - 128) / 8);
    for (size_t i = 0; i < img.stride * (size_t)img.height; i++)
        sum += img.pixels[i];
    (void)sum;
    free(img.pixels);
    return 0;
}
