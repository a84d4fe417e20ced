/* libFuzzer target: an output name as render reads it (mc_output_parse: the table of output
 * kinds, then mc_png_pattern_parse for a pattern). The input is the name (cut at its first NUL).
 * A name that parses has a kind that holds frames; a pattern's file names for a few frame
 * numbers are its prefix, the number padded to its width, then its suffix, and its folder is a
 * prefix of its prefix ending in '/'; a failure is a usage error naming the name. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/output.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const mc_png_pattern *p, int64_t k)
{
    char name[MC_PNG_PATTERN_CAP + 64], digits[32];
    size_t np = strlen(p->prefix), ns = strlen(p->suffix), nd;

    snprintf(digits, sizeof digits, "%" PRId64, k);
    nd = strlen(digits);
    if (!mc_png_pattern_format(p, k, name, sizeof name)) {
        FUZZ_REQUIRE(np + ns + nd + 1 > sizeof name || np + ns + (size_t)p->width + 1 > sizeof name);
        return;
    }
    size_t n = strlen(name), pad = (size_t)p->width > nd ? (size_t)p->width - nd : 0;

    FUZZ_REQUIRE(n == np + pad + nd + ns);
    FUZZ_REQUIRE(memcmp(name, p->prefix, np) == 0);
    for (size_t i = 0; i < pad; i++)
        FUZZ_REQUIRE(name[np + i] == (p->zero ? '0' : ' '));
    FUZZ_REQUIRE(memcmp(name + np + pad, digits, nd) == 0);
    FUZZ_REQUIRE(strcmp(name + np + pad + nd, p->suffix) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), dir[MC_PNG_PATTERN_CAP];
    mc_output_target t;
    mc_error err;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    if (mc_output_parse(buf, MC_OUTPUT_NONE, &t, &err) == MC_OK) {
        FUZZ_REQUIRE(t.kind && (t.kind->props & MC_OUTPUT_FRAMES) && t.path == buf);
        FUZZ_REQUIRE(mc_output_kind_of(buf) == t.kind->kind);
        if (t.kind->props & MC_OUTPUT_PATTERN) {
            FUZZ_REQUIRE(t.pattern.width >= 0 && t.pattern.width <= 20);
            check_name(&t.pattern, 0);
            check_name(&t.pattern, 17);
            check_name(&t.pattern, -1);
            check_name(&t.pattern, INT64_MAX);
            mc_png_pattern_dir(&t.pattern, dir, sizeof dir);
            FUZZ_REQUIRE(strncmp(dir, t.pattern.prefix, strlen(dir)) == 0);
            FUZZ_REQUIRE(dir[0] == '\0' || dir[strlen(dir) - 1] == '/');
        }
    } else {
        FUZZ_REQUIRE(err.code == MC_ERR_USAGE && err.msg[0] != '\0' && err.line == 0);
        FUZZ_REQUIRE(strncmp(err.file, buf, sizeof err.file - 1) == 0);
    }
    free(buf);
    return 0;
}
