/* The comparison limits, the mask and the ignored rectangles as options, shared by
 * `md5cine compare` and `md5cine render --reference`: one struct, and MC_LIMIT_ARG_OPTS(base)
 * expanding into the rows of a command's option table (base: the struct's offset in the
 * command's destination; the spec's seen_offset must point at base + offsetof(mc_limit_args,
 * opts.set)). Every limit accepts `off`. */
#ifndef MC_CLI_LIMIT_ARGS_H
#define MC_CLI_LIMIT_ARGS_H

#include <stddef.h>

#include <md5cine/compare.h>

#include "args.h"

#define MC_LIMIT_MAX_IGNORE 64

typedef struct mc_limit_args {
    mc_compare_opts opts;
    const char *mask; /* --mask PNG */
    struct mc_ignore_list {
        mc_compare_rect r[MC_LIMIT_MAX_IGNORE];
        size_t n;
    } ignore; /* --ignore x,y,w,h, repeatable */
} mc_limit_args;

bool mc_arg_threshold(void *field, const char *value);
bool mc_arg_share(void *field, const char *value);
bool mc_arg_max_diff(void *field, const char *value);
bool mc_arg_min_ssim(void *field, const char *value);
bool mc_arg_min_db(void *field, const char *value);
bool mc_arg_levels(void *field, const char *value);
bool mc_arg_ignore(void *field, const char *value);

/* "x,y,w,h": whole numbers, x and y in -65536..65536, w and h in 1..65536. */
bool mc_parse_rect(const char *s, mc_compare_rect *out);

#define MC_LIMIT_OFF(base, m) ((base) + offsetof(mc_limit_args, m))

#define MC_LIMIT_ARG_OPTS(base)                                                                 \
    { .name = "--threshold", .kind = MC_ARG_CUSTOM, .parse = mc_arg_threshold,                  \
      .offset = MC_LIMIT_OFF(base, opts.threshold), .expect = "0..255 or off",                  \
      .seen_bit = MC_COMPARE_SET_THRESHOLD, .metavar = "N",                                     \
      .help = "a pixel differs when a channel differs by more than N (default 4)" },                                                                \
    { .name = "--max-failing-share", .kind = MC_ARG_CUSTOM, .parse = mc_arg_share,              \
      .offset = MC_LIMIT_OFF(base, opts.max_failing_share),                                     \
      .expect = "0..1, a percentage such as 0.05%, or off",                                     \
      .seen_bit = MC_COMPARE_SET_MAX_FAILING_SHARE, .metavar = "P",                             \
      .help = "fail when more than P of the pixels differ: a fraction, or a\n"                  \
              "percentage such as 0.05% (default 0.01%; off for video)" },                     \
    { .name = "--max-diff", .kind = MC_ARG_CUSTOM, .parse = mc_arg_max_diff,                    \
      .offset = MC_LIMIT_OFF(base, opts.max_diff_limit), .expect = "0..255 or off",             \
      .seen_bit = MC_COMPARE_SET_MAX_DIFF, .metavar = "N",                                      \
      .help = "fail when any channel differs by more than N (default off)" },                   \
    { .name = "--min-ssim", .kind = MC_ARG_CUSTOM, .parse = mc_arg_min_ssim,                    \
      .offset = MC_LIMIT_OFF(base, opts.min_ssim), .expect = "-1..1 or off",                    \
      .seen_bit = MC_COMPARE_SET_MIN_SSIM, .metavar = "S",                                      \
      .help = "fail when luma SSIM < S (default 0.95)" },                                       \
    { .name = "--min-psnr", .kind = MC_ARG_CUSTOM, .parse = mc_arg_min_db,                      \
      .offset = MC_LIMIT_OFF(base, opts.min_psnr), .expect = "0..1000 (dB) or off",             \
      .seen_bit = MC_COMPARE_SET_MIN_PSNR, .metavar = "D",                                      \
      .help = "fail when PSNR < D dB (default off; 35 for video)" },                            \
    { .name = "--min-block-psnr", .kind = MC_ARG_CUSTOM, .parse = mc_arg_min_db,                \
      .offset = MC_LIMIT_OFF(base, opts.min_block_psnr), .expect = "0..1000 (dB) or off",       \
      .seen_bit = MC_COMPARE_SET_MIN_BLOCK_PSNR, .metavar = "D",                                \
      .help = "fail when the worst 16x16 block's PSNR < D dB (default off;\n"                   \
              "22 for video)" },                                                           \
    { .name = "--max-block-bias", .kind = MC_ARG_CUSTOM, .parse = mc_arg_levels,               \
      .offset = MC_LIMIT_OFF(base, opts.max_block_bias), .expect = "0..255 (levels) or off",   \
      .seen_bit = MC_COMPARE_SET_MAX_BLOCK_BIAS, .metavar = "L",                                \
      .help = "fail when one channel's mean over a 16x16 block moved by more\n"                 \
              "than L levels (default off; 9 for video)" },                               \
    { .name = "--mask", .kind = MC_ARG_STRING, .offset = MC_LIMIT_OFF(base, mask),              \
      .metavar = "PNG",                                                                         \
      .help = "ignore the pixels that are black or transparent in PNG (the\n"                   \
              "frames' size)" },                                                                \
    { .name = "--ignore", .kind = MC_ARG_CUSTOM, .parse = mc_arg_ignore,                        \
      .offset = MC_LIMIT_OFF(base, ignore), .expect = "x,y,w,h (w, h >= 1; at most 64)",        \
      .metavar = "X,Y,W,H", .help = "ignore that rectangle of pixels (repeatable)" }

#endif
