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

/* One parser per row of MC_COMPARE_LIMITS (compare.h): mc_arg_limit_<id>, which takes the
 * row's range or `off` (its off value). */
#define MC_LIMIT_ARG_DECL(c, id, ...) bool mc_arg_limit_##id(void *field, const char *value);
MC_COMPARE_LIMITS(MC_LIMIT_ARG_DECL, _)
bool mc_arg_ignore(void *field, const char *value);

/* "x,y,w,h": whole numbers, x and y in -65536..65536, w and h in 1..65536. */
bool mc_parse_rect(const char *s, mc_compare_rect *out);

#define MC_LIMIT_OFF(base, m) ((base) + offsetof(mc_limit_args, m))

/* One option per row of MC_COMPARE_LIMITS; base is MC_LIMIT_ARG_OPTS's. */
#define MC_LIMIT_ARG_ROW(base, id, option, label, field, is_int, set, fail, lossless, lossy, off,  \
                         sense, unit, scale, lo, hi, percent, metavar_, expect_, help_)          \
    { .name = option, .kind = MC_ARG_CUSTOM, .parse = mc_arg_limit_##id,                        \
      .offset = MC_LIMIT_OFF(base, opts.field), .expect = expect_, .seen_bit = set,             \
      .metavar = metavar_, .help = help_ },

#define MC_LIMIT_ARG_OPTS(base)                                                                 \
    MC_COMPARE_LIMITS(MC_LIMIT_ARG_ROW, base)                                                \
    { .name = "--mask", .kind = MC_ARG_STRING, .offset = MC_LIMIT_OFF(base, mask),              \
      .metavar = "PNG",                                                                         \
      .help = "ignore the pixels that are black or transparent in PNG (the\n"                   \
              "frames' size)" },                                                                \
    { .name = "--ignore", .kind = MC_ARG_CUSTOM, .parse = mc_arg_ignore,                        \
      .offset = MC_LIMIT_OFF(base, ignore), .expect = "x,y,w,h (w, h >= 1; at most 64)",        \
      .metavar = "X,Y,W,H", .help = "ignore that rectangle of pixels (repeatable)" }

#endif
