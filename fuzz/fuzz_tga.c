/* libFuzzer target: mc_tga_decode on arbitrary bytes. A decoded image has a size within the
 * limits and no more pixels than the file's bytes can hold (128 per run-length packet); a
 * failure is MC_ERR_IMAGE (or out of memory) naming the file, with no pixels. */
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
    mc_status s = mc_tga_decode(data, size, "fuzz.tga", &img, &err);
    unsigned sum = 0;

    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_IMAGE || s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(err.code == s && strstr(err.msg, "fuzz.tga") != NULL);
        FUZZ_REQUIRE(img.pixels == NULL && img.width == 0);
        return 0;
    }
    FUZZ_REQUIRE(img.width >= 1 && img.width <= MC_IMAGE_MAX_SIDE);
    FUZZ_REQUIRE(img.height >= 1 && img.height <= MC_IMAGE_MAX_SIDE);
    FUZZ_REQUIRE(img.stride == (size_t)img.width * 4 && img.pixels);
    FUZZ_REQUIRE((size_t)img.width * (size_t)img.height <= (size - 18) * 128);
    /* Every byte is written: reading them all is clean under MemorySanitizer and ASan. */
    for (size_t i = 0; i < img.stride * (size_t)img.height; i++)
        sum += img.pixels[i];
    (void)sum;
    free(img.pixels);
    return 0;
}
