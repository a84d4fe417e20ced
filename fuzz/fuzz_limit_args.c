/* libFuzzer target: the command line's value parsers and its table-driven option parser. The
 * input is split at NUL bytes into words. Each word goes through the value parsers (--ignore's
 * rectangles, --frames ranges, rates, whole and decimal numbers), each accepted value must lie
 * in its documented range and read back the same from its N,N,N,N / A-B / N/D form; then the words
 * are an argv for mc_args_parse over compare's limit options, which must either accept them,
 * with every limit in range, or refuse with the usage exit code. Usage errors go to stderr,
 * which the replay driver and libFuzzer discard. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/limit_args.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 16

static const mc_arg_opt opts[] = { MC_LIMIT_ARG_OPTS(0) };
static const mc_arg_spec spec = {
    .command = "compare",
    .synopsis = "usage: md5cine compare A B [options]\n",
    .opts = opts,
    .nopts = MC_ARG_COUNT(opts),
    .min_pos = 0,
    .max_pos = -1,
    .seen_offset = offsetof(mc_limit_args, opts.set),
};

static void check_word(const char *w)
{
    mc_compare_rect r, again;
    int64_t first, last;
    mc_rate rate, rate2;
    long l;
    double d;
    char buf[96];

    if (mc_parse_rect(w, &r)) {
        FUZZ_REQUIRE(r.x >= -65536 && r.x <= 65536 && r.y >= -65536 && r.y <= 65536);
        FUZZ_REQUIRE(r.w >= 1 && r.w <= 65536 && r.h >= 1 && r.h <= 65536);
        snprintf(buf, sizeof buf, "%d,%d,%d,%d", r.x, r.y, r.w, r.h);
        FUZZ_REQUIRE(mc_parse_rect(buf, &again));
        FUZZ_REQUIRE(memcmp(&r, &again, sizeof r) == 0);
    }
    if (mc_arg_frame_range(w, &first, &last)) {
        FUZZ_REQUIRE(first >= 0 && first <= last);
        snprintf(buf, sizeof buf, "%lld-%lld", (long long)first, (long long)last);
        int64_t f2, l2;
        FUZZ_REQUIRE(mc_arg_frame_range(buf, &f2, &l2) && f2 == first && l2 == last);
    }
    if (mc_cli_parse_rate(w, &rate)) {
        FUZZ_REQUIRE(rate.den >= 1 && rate.num >= rate.den && rate.num <= 1000LL * rate.den);
        snprintf(buf, sizeof buf, "%d/%d", rate.num, rate.den); /* reduced: the same back */
        FUZZ_REQUIRE(mc_cli_parse_rate(buf, &rate2));
        FUZZ_REQUIRE(rate2.num == rate.num && rate2.den == rate.den);
    }
    if (mc_arg_long(w, -1000, 1000, &l))
        FUZZ_REQUIRE(l >= -1000 && l <= 1000);
    if (mc_arg_double(w, 0.0, 1.0, true, &d))
        FUZZ_REQUIRE(isfinite(d) && d >= 0.0 && d <= 1.0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char *argv[MAX_WORDS + 2];
    int argc = 1, npos = 0, rc;
    size_t start = 0;
    mc_limit_args lim;
    char command[] = "compare";

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[0] = command;
    for (size_t i = 0; i <= size && argc <= MAX_WORDS; i++) {
        if (buf[i] == '\0') {
            argv[argc++] = buf + start;
            start = i + 1;
        }
    }
    for (int i = 1; i < argc; i++)
        check_word(argv[i]);
    argv[argc] = NULL;

    memset(&lim, 0, sizeof lim);
    rc = mc_args_parse(&spec, argc, argv, &lim, &npos);
    if (rc == -1) {
        FUZZ_REQUIRE(npos >= 0 && npos < argc);
        FUZZ_REQUIRE(lim.ignore.n <= MC_LIMIT_MAX_IGNORE);
        FUZZ_REQUIRE(lim.opts.threshold >= 0 && lim.opts.threshold <= 255);
        FUZZ_REQUIRE(lim.opts.max_failing_share >= 0.0 && lim.opts.max_failing_share <= 1.0);
        for (size_t i = 0; i < lim.ignore.n; i++)
            FUZZ_REQUIRE(lim.ignore.r[i].w >= 1 && lim.ignore.r[i].h >= 1);
    } else {
        FUZZ_REQUIRE(rc == MC_EXIT_OK || rc == MC_EXIT_INPUT);
    }
    free(buf);
    return 0;
}
