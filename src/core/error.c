#include <md5cine/error.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_text[] = {
#define MC_X_TEXT(name, text) text,
    MC_STATUS_LIST(MC_X_TEXT)
#undef MC_X_TEXT
};

static const char *const status_names[] = {
#define MC_X_NAME(name, text) #name,
    MC_STATUS_LIST(MC_X_NAME)
#undef MC_X_NAME
};

#define STATUS_COUNT (sizeof(status_text) / sizeof(status_text[0]))

const char *mc_status_str(mc_status s)
{
    return (unsigned)s < STATUS_COUNT ? status_text[s] : "unknown status";
}

const char *mc_status_name(mc_status s)
{
    return (unsigned)s < STATUS_COUNT ? status_names[s] : "MC_ERR_UNKNOWN";
}

mc_status mc_error_set(mc_error *err, mc_status code, const char *file, int line, int col,
                       const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

/* A bounded writer: counts every byte, stores those that fit (snprintf's contract). */
typedef struct fmt_out {
    char *buf;
    size_t cap, len;
} fmt_out;

static void put_bytes(fmt_out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, o->len++)
        if (o->len + 1 < o->cap)
            o->buf[o->len] = s[i];
}

static void put_str(fmt_out *o, const char *s)
{
    put_bytes(o, s, strlen(s));
}

/* Length of the valid UTF-8 sequence of two to four bytes at s (no overlong forms, no
 * surrogates, nothing past U+10FFFF), else 0. */
static int utf8_seq(const unsigned char *s)
{
    int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;

    if (n == 0 || s[0] > 0xF4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

/* How many bytes at s a terminal would act on rather than show, each written as \xNN: one
 * for a C0 control other than tab, DEL, or a C1 byte 0x80-0x9F that is not part of a valid
 * UTF-8 sequence (an 8-bit terminal takes 0x9B for CSI); two for a UTF-8 encoded C1 control
 * U+0080-U+009F (C2 80 - C2 9F), which a UTF-8 terminal may act on the same way. 0 for a byte
 * shown as it is: other valid UTF-8 passes through, and so do stray bytes 0xA0-0xFF, printable
 * in an 8-bit terminal. */
static int control_len(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;

    if ((u[0] < 0x20 && u[0] != '\t') || u[0] == 0x7f)
        return 1;
    if (u[0] == 0xC2 && u[1] >= 0x80 && u[1] <= 0x9F)
        return 2;
    if (u[0] >= 0x80 && u[0] <= 0x9F)
        return 1; /* a continuation byte outside a sequence: valid ones are skipped whole */
    return 0;
}

/* Writes s with each control byte as \xNN. Valid UTF-8 sequences are copied whole (so their
 * continuation bytes, which lie in 0x80-0xBF, are not taken for C1 controls). */
static void put_escaped(fmt_out *o, const char *s)
{
    while (*s) {
        int n = control_len(s), seq;

        if (n > 0) {
            for (int i = 0; i < n; i++) {
                char hex[8];

                snprintf(hex, sizeof hex, "\\x%02X", (unsigned)(unsigned char)s[i]);
                put_str(o, hex);
            }
            s += n;
        } else if ((seq = utf8_seq((const unsigned char *)s)) > 0) {
            put_bytes(o, s, (size_t)seq);
            s += seq;
        } else {
            put_bytes(o, s++, 1);
        }
    }
}

/* True when msg already names file in quotes ("cannot open 'out/x.png': ..."): the I/O
 * messages do, and a "file: " prefix would then name it twice. */
static bool msg_names_file(const mc_error *e)
{
    char quoted[sizeof e->file + 2];

    snprintf(quoted, sizeof quoted, "'%s'", e->file);
    return strstr(e->msg, quoted) != NULL;
}

size_t mc_error_format_source(const mc_error *e, const char *severity, const char *source,
                              char *out, size_t cap)
{
    fmt_out o = { out, cap, 0 };
    char num[32];

    if (!severity)
        severity = "error";
    if (e->file[0] && e->line > 0) {
        put_escaped(&o, e->file);
        snprintf(num, sizeof num, ":%d:%d: ", e->line, e->col);
        put_str(&o, num);
    } else if (e->file[0] && !msg_names_file(e)) {
        put_escaped(&o, e->file);
        put_str(&o, ": ");
    } else {
        put_str(&o, "md5cine: ");
    }
    put_str(&o, severity);
    put_str(&o, ": ");
    put_escaped(&o, e->msg);
    put_str(&o, "\n");
    if (e->line > 0 && source) {
        snprintf(num, sizeof num, "%5d | ", e->line);
        put_str(&o, num);
        put_escaped(&o, source);
        put_str(&o, "\n      | ");
        /* An escaped byte takes four columns; a UTF-8 sequence one per byte, as col counts
         * bytes. */
        for (int i = 0; i + 1 < e->col && source[i];) {
            int n = control_len(source + i), seq = utf8_seq((const unsigned char *)source + i);

            if (n > 0) {
                for (int k = 0; k < n; k++)
                    put_str(&o, "    ");
                i += n;
            } else if (seq > 0) {
                for (int k = 0; k < seq; k++)
                    put_str(&o, " ");
                i += seq;
            } else {
                put_str(&o, source[i] == '\t' ? "\t" : " ");
                i++;
            }
        }
        put_str(&o, "^\n");
    }
    if (cap > 0)
        out[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}
