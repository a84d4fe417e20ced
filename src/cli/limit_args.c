/* The limit options of compare and render --reference (limit_args.h). */
#include <string.h>

#include "limit_args.h"

static bool is_off(const char *s)
{
    return strcmp(s, "off") == 0;
}

static bool int_or_off(const char *s, long lo, long hi, int off, int *out)
{
    long v;

    if (is_off(s)) {
        *out = off;
        return true;
    }
    if (!mc_arg_long(s, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

static bool double_or_off(const char *s, double lo, double hi, bool percent_ok, double off,
                          double *out)
{
    if (is_off(s)) {
        *out = off;
        return true;
    }
    return mc_arg_double(s, lo, hi, percent_ok, out);
}

/* mc_arg_limit_<id>: the row's range (an int field: whole numbers) or `off`. */
#define LIMIT_PARSER(c, id, option, label, field, is_int, set, fail, lossless, lossy, off, sense, \
                     unit, scale, lo, hi, percent, metavar, expect, help)                       \
    bool mc_arg_limit_##id(void *f, const char *value)                                          \
    {                                                                                           \
        return is_int ? int_or_off(value, (long)(lo), (long)(hi), (int)(off), f)                \
                      : double_or_off(value, lo, hi, percent, off, f);                          \
    }
MC_COMPARE_LIMITS(LIMIT_PARSER, _)

bool mc_parse_rect(const char *s, mc_compare_rect *out)
{
    static const long lo[4] = { -65536, -65536, 1, 1 }, hi[4] = { 65536, 65536, 65536, 65536 };
    int v[4];
    char part[32];

    for (int i = 0; i < 4; i++) {
        const char *end = i < 3 ? strchr(s, ',') : s + strlen(s);
        size_t n = end ? (size_t)(end - s) : 0;
        long x;

        if (!end || n == 0 || n >= sizeof part)
            return false;
        memcpy(part, s, n);
        part[n] = '\0';
        if (!mc_arg_long(part, lo[i], hi[i], &x))
            return false;
        v[i] = (int)x;
        s = end + (i < 3);
    }
    out->x = v[0];
    out->y = v[1];
    out->w = v[2];
    out->h = v[3];
    return true;
}

bool mc_arg_ignore(void *field, const char *value)
{
    struct mc_ignore_list *list = field;

    if (list->n >= MC_LIMIT_MAX_IGNORE)
        return false;
    if (!mc_parse_rect(value, &list->r[list->n]))
        return false;
    list->n++;
    return true;
}
