/* Frame rates on the command line: "24", "30000/1001", "29.97", "12.5". */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/limits.h>

#include "cli.h"

/* The NTSC-family rates people write as decimals: each is n * 1000 / 1001. */
static const struct {
    const char *text;
    int n;
} ntsc[] = { { "23.976", 24 }, { "23.98", 24 },   { "29.97", 30 },
             { "47.952", 48 }, { "59.94", 60 },   { "119.88", 120 } };

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;

        a = b;
        b = t;
    }
    return a;
}

/* Digits only, at least one, at most max_digits; value into *out. */
static bool digits(const char *s, size_t n, size_t max_digits, int64_t *out)
{
    int64_t v = 0;

    if (n == 0 || n > max_digits)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

bool mc_cli_parse_rate(const char *s, mc_rate *out)
{
    const char *slash = strchr(s, '/'), *dot = strchr(s, '.');
    int64_t num, den = 1, g;

    for (size_t i = 0; i < sizeof ntsc / sizeof ntsc[0]; i++) {
        if (strcmp(s, ntsc[i].text) == 0) {
            *out = (mc_rate){ ntsc[i].n * 1000, 1001 };
            return true;
        }
    }
    if (slash) {
        if (!digits(s, (size_t)(slash - s), 9, &num) || !digits(slash + 1, strlen(slash + 1), 9, &den))
            return false;
    } else if (dot) {
        int64_t whole, frac;
        size_t nf = strlen(dot + 1);

        if (!digits(s, (size_t)(dot - s), 4, &whole) || !digits(dot + 1, nf, 6, &frac))
            return false;
        for (size_t i = 0; i < nf; i++)
            den *= 10;
        num = whole * den + frac;
    } else if (!digits(s, strlen(s), 9, &num)) {
        return false;
    }
    if (den < 1 || num < MC_LIMIT_FPS_MIN * den || num > MC_LIMIT_FPS_MAX * den)
        return false;
    g = gcd64(num, den);
    num /= g;
    den /= g;
    if (num > INT32_MAX || den > INT32_MAX)
        return false;
    *out = (mc_rate){ (int)num, (int)den };
    return true;
}

void mc_cli_format_rate(mc_rate r, char *buf, size_t cap)
{
    if (r.den == 1)
        snprintf(buf, cap, "%d", r.num);
    else
        snprintf(buf, cap, "%d/%d (%.3f)", r.num, r.den, (double)r.num / r.den);
}
