/* JSON strings (json.h). */
#include <md5cine/json.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void mc_json_write_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;

    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned c = p[i];
        /* Sequence length by lead byte; C0, C1 and F5 to FF never start a character. */
        size_t n = c >= 0xF0 && c <= 0xF4   ? 4
                   : c >= 0xE0 && c <= 0xEF ? 3
                   : c >= 0xC2 && c <= 0xDF ? 2
                                            : 0;

        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(out, "\\u%04x", c);
        } else if (c < 0x80) {
            fputc((int)c, out);
        } else {
            bool valid = n > 0 && i + n <= len;
            /* The second byte's range excludes overlong forms, surrogates and > U+10FFFF. */
            unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
            unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;

            if (valid)
                valid = p[i + 1] >= lo && p[i + 1] <= hi;
            for (size_t k = 2; valid && k < n; k++)
                valid = (p[i + k] & 0xC0) == 0x80;
            if (valid) {
                fwrite(p + i, 1, n, out);
                i += n - 1;
            } else {
                fprintf(out, "\\u%04x", c);
            }
        }
    }
    fputc('"', out);
}

void mc_json_write_cstr(FILE *out, const char *s)
{
    if (!s)
        fputs("null", out);
    else
        mc_json_write_string(out, s, strlen(s));
}

const char *mc_format_float(float v, char *buf, size_t cap)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "null");
        return buf;
    }
    int digits = 1;

    for (; digits < 9; digits++) {
        snprintf(buf, cap, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    /* 9 significant digits always round-trip a float. %g writes 900 with one digit as 9e+02:
     * within the range people write plainly, add digits until it is written out. */
    snprintf(buf, cap, "%.*g", digits, (double)v);
    while (strchr(buf, 'e') && fabsf(v) >= 1e-4f && fabsf(v) < 1e15f && digits < 17)
        snprintf(buf, cap, "%.*g", ++digits, (double)v);
    return buf;
}

void mc_json_write_float(FILE *out, float v)
{
    char buf[32];

    fputs(mc_format_float(v, buf, sizeof buf), out);
}
