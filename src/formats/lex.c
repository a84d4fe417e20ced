#include "lex.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>

/* Longest number text we convert; longer digit runs are rejected rather than cut. */
#define MAX_NUMBER_LEN MC_LIMIT_NUMBER_LEN

void mc_lex_init(mc_lexer *lx, const char *buf, size_t len, const char *name,
                 const mc_parse_opts *opts, mc_error *err)
{
    memset(lx, 0, sizeof *lx);
    if (!buf) {
        buf = "";
        len = 0;
    }
    lx->buf = buf;
    lx->end = buf + len;
    lx->cur = buf;
    lx->name = name ? name : "";
    lx->line = 1;
    lx->line_start = buf;
    lx->err = err;
    lx->opts = opts;
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF) {
        lx->cur = buf + 3;
        lx->line_start = lx->cur;
    }
}

static int col_of(const mc_lexer *lx, const char *p)
{
    size_t c = (size_t)(p - lx->line_start) + 1;

    return c > INT_MAX ? INT_MAX : (int)c;
}

static void set_error_v(mc_lexer *lx, int line, int col, mc_status code, const char *fmt,
                        va_list ap) __attribute__((format(printf, 5, 0)));
static void set_error_v(mc_lexer *lx, int line, int col, mc_status code, const char *fmt,
                        va_list ap)
{
    char msg[sizeof lx->err->msg];

    if (lx->failed)
        return;
    lx->failed = true;
    if (!lx->err)
        return;
    vsnprintf(msg, sizeof msg, fmt, ap);
    mc_error_set(lx->err, code, lx->name, line, col, "%s", msg);
}

bool mc_lex_fail(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
{
    va_list ap;
    int line = tok ? tok->line : lx->line;
    int col = tok ? tok->col : col_of(lx, lx->cur);

    va_start(ap, fmt);
    set_error_v(lx, line, col, code, fmt, ap);
    va_end(ap);
    return false;
}

/* An error at byte p on the current line. */
static bool fail_at(mc_lexer *lx, const char *p, mc_status code, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static bool fail_at(mc_lexer *lx, const char *p, mc_status code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    set_error_v(lx, lx->line, col_of(lx, p), code, fmt, ap);
    va_end(ap);
    return false;
}

void mc_lex_warn(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
{
    mc_error w;
    char msg[sizeof w.msg];
    va_list ap;

    if (!lx->opts || !lx->opts->warn)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mc_error_set(&w, code, lx->name, tok ? tok->line : lx->line,
                 tok ? tok->col : col_of(lx, lx->cur), "%s", msg);
    lx->opts->warn(lx->opts->warn_user, &w);
}

bool mc_lex_lenient(const mc_lexer *lx)
{
    return lx->opts && lx->opts->lenient;
}

size_t mc_lex_remaining(const mc_lexer *lx)
{
    return (size_t)(lx->end - lx->cur);
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_start(int c)
{
    return is_alpha(c) || c == '/' || c == '\\' || c == '.';
}

static bool name_char(int c)
{
    return name_start(c) || is_digit(c) || c == ':';
}

static void newline(mc_lexer *lx, const char *after)
{
    lx->line++;
    lx->line_start = after;
}

/* Skips a block comment starting at lx->cur ("/" "*"); an unterminated one is an error at
 * its start. */
static bool skip_block_comment(mc_lexer *lx)
{
    mc_token start = { .line = lx->line, .col = col_of(lx, lx->cur) };
    const char *p = lx->cur + 2;

    for (; p < lx->end; p++) {
        if (*p == '\0') {
            lx->cur = p;
            return fail_at(lx, p, MC_ERR_SYNTAX, "unexpected NUL byte");
        }
        if (*p == '\n') {
            newline(lx, p + 1);
        } else if (*p == '*' && p + 1 < lx->end && p[1] == '/') {
            lx->cur = p + 2;
            return true;
        }
    }
    lx->cur = p;
    return mc_lex_fail(lx, &start, MC_ERR_SYNTAX, "unterminated comment");
}

/* Skips white space and comments; fails on a NUL byte or an unterminated block comment. */
static bool skip_space(mc_lexer *lx)
{
    while (lx->cur < lx->end) {
        unsigned char c = (unsigned char)*lx->cur;

        if (c == '\n') {
            newline(lx, lx->cur + 1);
            lx->cur++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            lx->cur++;
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '/') {
            while (lx->cur < lx->end && *lx->cur != '\n') {
                if (*lx->cur == '\0')
                    return fail_at(lx, lx->cur, MC_ERR_SYNTAX, "unexpected NUL byte");
                lx->cur++;
            }
        } else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '*') {
            if (!skip_block_comment(lx))
                return false;
        } else {
            return true;
        }
    }
    return true;
}

static bool number_delim(const mc_lexer *lx, const char *p)
{
    unsigned char c;

    if (p >= lx->end)
        return true;
    c = (unsigned char)*p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == '(' ||
        c == ')' || c == '{' || c == '}' || c == '"')
        return true;
    if (lx->extra_punct && strchr(lx->extra_punct, c))
        return true;
    return c == '/' && p + 1 < lx->end && (p[1] == '/' || p[1] == '*');
}

/* Scans the decimal number at lx->cur into tok: -?(digits[.digits?]|.digits)([eE][+-]?digits)?
 * followed by a delimiter. */
static bool read_number(mc_lexer *lx, mc_token *tok)
{
    const char *s = lx->cur, *p = s;
    char text[MAX_NUMBER_LEN + 1];
    size_t n, digits = 0;
    bool is_int = true;
    char *endp;
    double v;

    if (*p == '-')
        p++;
    for (; p < lx->end && is_digit(*p); p++)
        digits++;
    if (p < lx->end && *p == '.') {
        is_int = false;
        for (p++; p < lx->end && is_digit(*p); p++)
            digits++;
    }
    if (digits > 0 && p < lx->end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;

        if (q < lx->end && (*q == '+' || *q == '-'))
            q++;
        if (q < lx->end && is_digit(*q)) {
            while (q < lx->end && is_digit(*q))
                q++;
            p = q;
            is_int = false;
        }
    }
    if (digits == 0 || !number_delim(lx, p)) {
        const char *e = p;
        char buf[80];
        mc_token bad = { .kind = MC_TOK_NAME, .text = s };

        while (!number_delim(lx, e) && *e != '\0')
            e++;
        bad.len = (size_t)(e - s);
        return fail_at(lx, s, MC_ERR_SYNTAX, "malformed number %s",
                       mc_lex_describe(&bad, buf, sizeof buf));
    }
    n = (size_t)(p - s);
    tok->kind = MC_TOK_NUMBER;
    tok->text = s;
    tok->len = n;
    tok->is_int = is_int;
    if (n > MAX_NUMBER_LEN)
        return fail_at(lx, s, MC_ERR_RANGE, "number is too long (%zu characters)", n);
    memcpy(text, s, n);
    text[n] = '\0';
    errno = 0;
    v = strtod(text, &endp);
    if (endp != text + n || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) {
        char buf[80];

        return fail_at(lx, s, MC_ERR_RANGE, "number %s is out of range",
                       mc_lex_describe(tok, buf, sizeof buf));
    }
    tok->num = v;
    lx->cur = p;
    return true;
}

static bool read_string(mc_lexer *lx, mc_token *tok)
{
    const char *s = lx->cur, *p = s + 1;

    for (; p < lx->end; p++) {
        if (*p == '"') {
            tok->kind = MC_TOK_STRING;
            tok->text = s + 1;
            tok->len = (size_t)(p - s - 1);
            lx->cur = p + 1;
            return true;
        }
        if (*p == '\n' || *p == '\r')
            return fail_at(lx, s, MC_ERR_SYNTAX, "newline inside string");
        if (*p == '\0')
            return fail_at(lx, p, MC_ERR_SYNTAX, "unexpected NUL byte inside string");
    }
    return fail_at(lx, s, MC_ERR_SYNTAX, "missing closing quote");
}

static bool read_token(mc_lexer *lx, mc_token *tok)
{
    unsigned char c;

    memset(tok, 0, sizeof *tok);
    if (!skip_space(lx))
        return false;
    tok->line = lx->line;
    tok->col = col_of(lx, lx->cur);
    tok->text = lx->cur;
    if (lx->cur >= lx->end) {
        tok->kind = MC_TOK_EOF;
        return true;
    }
    c = (unsigned char)*lx->cur;
    if (is_digit(c) || ((c == '.' || c == '-') && lx->cur + 1 < lx->end &&
                        (is_digit(lx->cur[1]) ||
                         (c == '-' && lx->cur[1] == '.' && lx->cur + 2 < lx->end &&
                          is_digit(lx->cur[2])))))
        return read_number(lx, tok);
    if (c == '"')
        return read_string(lx, tok);
    if (name_start(c)) {
        const char *p = lx->cur;

        while (p < lx->end && name_char(*p))
            p++;
        tok->kind = MC_TOK_NAME;
        tok->len = (size_t)(p - lx->cur);
        lx->cur = p;
        return true;
    }
    if (c == '(' || c == ')' || c == '{' || c == '}' ||
        (c != 0 && lx->extra_punct && strchr(lx->extra_punct, c))) {
        tok->kind = MC_TOK_PUNCT;
        tok->len = 1;
        lx->cur++;
        return true;
    }
    if (c == 0)
        return fail_at(lx, lx->cur, MC_ERR_SYNTAX, "unexpected NUL byte");
    if (c >= 0x80 || c < 0x20 || c == 0x7f)
        return fail_at(lx, lx->cur, MC_ERR_SYNTAX,
                       "unexpected byte 0x%02x (only allowed inside strings and comments)", c);
    return fail_at(lx, lx->cur, MC_ERR_SYNTAX, "unexpected character '%c'", c);
}

bool mc_lex_next(mc_lexer *lx, mc_token *tok)
{
    if (lx->failed) {
        memset(tok, 0, sizeof *tok);
        tok->kind = MC_TOK_EOF;
        tok->line = lx->line;
        tok->col = col_of(lx, lx->cur);
        return false;
    }
    if (lx->has_peeked) {
        *tok = lx->peeked;
        lx->has_peeked = false;
        return true;
    }
    if (!read_token(lx, tok)) {
        lx->lexical = true;
        memset(tok, 0, sizeof *tok);
        tok->kind = MC_TOK_EOF;
        tok->line = lx->line;
        tok->col = col_of(lx, lx->cur);
        return false;
    }
    return true;
}

bool mc_lex_peek(mc_lexer *lx, mc_token *tok)
{
    if (lx->failed)
        return mc_lex_next(lx, tok);
    if (!lx->has_peeked) {
        mc_token t;

        if (!mc_lex_next(lx, &t)) {
            *tok = t;
            return false;
        }
        lx->peeked = t;
        lx->has_peeked = true;
    }
    *tok = lx->peeked;
    return true;
}

bool mc_lex_resume_at(mc_lexer *lx, const mc_token *tok)
{
    /* a string token's text starts after its opening quote, every other one's at its column */
    const char *start = tok->kind == MC_TOK_STRING ? tok->text - 1 : tok->text;

    if (lx->lexical || tok->kind == MC_TOK_EOF || start < lx->buf || start > lx->end)
        return false;
    lx->cur = start;
    lx->line = tok->line;
    lx->line_start = tok->col >= 1 && (size_t)(tok->col - 1) <= (size_t)(start - lx->buf)
                             ? start - (tok->col - 1)
                             : lx->buf;
    lx->has_peeked = false;
    lx->failed = false;
    return true;
}

bool mc_lex_is(const mc_token *tok, const char *word)
{
    size_t n = strlen(word);

    return tok->kind != MC_TOK_EOF && tok->len == n && memcmp(tok->text, word, n) == 0;
}

const char *mc_lex_describe(const mc_token *tok, char *buf, size_t cap)
{
    size_t o = 0, limit;

    if (cap == 0)
        return buf;
    if (tok->kind == MC_TOK_EOF) {
        snprintf(buf, cap, "end of file");
        return buf;
    }
    /* Room for the quotes, one escape, "..." and the NUL. */
    limit = cap > 12 ? cap - 12 : 0;
    buf[o++] = '\'';
    for (size_t i = 0; i < tok->len && o < limit; i++) {
        unsigned char c = (unsigned char)tok->text[i];

        if (c >= 0x20 && c < 0x7f) {
            buf[o++] = (char)c;
        } else {
            snprintf(buf + o, cap - o, "\\x%02X", c);
            o += 4;
        }
        if (i + 1 < tok->len && o >= limit) {
            memcpy(buf + o, "...", 3);
            o += 3;
        }
    }
    if (o + 2 <= cap) {
        buf[o++] = '\'';
        buf[o] = '\0';
    } else {
        buf[cap - 1] = '\0';
    }
    return buf;
}

/* The next token in *t, and in *tok too when tok is not NULL; false at an error. */
static bool next_kept(mc_lexer *lx, mc_token *t, mc_token *tok)
{
    if (!mc_lex_next(lx, t))
        return false;
    if (tok)
        *tok = *t;
    return true;
}

bool mc_lex_expect_tok(mc_lexer *lx, const char *word, mc_token *tok)
{
    mc_token t;
    char d[80];

    if (!next_kept(lx, &t, tok))
        return false;
    if ((t.kind == MC_TOK_NAME || t.kind == MC_TOK_STRING || t.kind == MC_TOK_PUNCT) &&
        mc_lex_is(&t, word))
        return true;
    return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected '%s', found %s", word,
                       mc_lex_describe(&t, d, sizeof d));
}

bool mc_lex_expect(mc_lexer *lx, const char *word)
{
    return mc_lex_expect_tok(lx, word, NULL);
}

void *mc_lex_block(mc_lexer *lx, const char *word, mc_arena *a, size_t count, size_t size)
{
    if (!mc_lex_expect(lx, word) || !mc_lex_expect(lx, "{"))
        return NULL;
    return mc_lex_alloc(lx, a, count, size);
}

bool mc_lex_accept(mc_lexer *lx, const char *word, bool *found)
{
    mc_token t;

    *found = false;
    if (!mc_lex_peek(lx, &t))
        return false;
    if (mc_lex_is(&t, word)) {
        *found = true;
        return mc_lex_next(lx, &t);
    }
    return true;
}

bool mc_lex_int(mc_lexer *lx, int *out, mc_token *tok)
{
    mc_token t;
    char d[80];

    if (!next_kept(lx, &t, tok))
        return false;
    if (t.kind != MC_TOK_NUMBER || !t.is_int)
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected integer, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    if (t.num < (double)INT_MIN || t.num > (double)INT_MAX)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "integer %s is out of range",
                           mc_lex_describe(&t, d, sizeof d));
    *out = (int)t.num;
    return true;
}

bool mc_lex_float(mc_lexer *lx, float *out, mc_token *tok)
{
    mc_token t;
    char d[80];

    if (!next_kept(lx, &t, tok))
        return false;
    if (t.kind != MC_TOK_NUMBER)
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected number, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    if (fabs(t.num) > (double)FLT_MAX)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "number %s is out of range",
                           mc_lex_describe(&t, d, sizeof d));
    *out = (float)t.num;
    return true;
}

bool mc_lex_vec(mc_lexer *lx, int n, float *out)
{
    if (!mc_lex_expect(lx, "("))
        return false;
    for (int i = 0; i < n; i++)
        if (!mc_lex_float(lx, &out[i], NULL))
            return false;
    return mc_lex_expect(lx, ")");
}

bool mc_lex_string(mc_lexer *lx, const char **text, size_t *len, mc_token *tok)
{
    mc_token t;
    char d[80];

    if (!next_kept(lx, &t, tok))
        return false;
    if (t.kind != MC_TOK_STRING && t.kind != MC_TOK_NAME)
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected a string, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    *text = t.text;
    *len = t.len;
    return true;
}

bool mc_lex_keyword_int(mc_lexer *lx, const char *keyword, int *out, mc_token *tok)
{
    return mc_lex_expect(lx, keyword) && mc_lex_int(lx, out, tok);
}

bool mc_lex_count(mc_lexer *lx, const char *keyword, int min, int limit, size_t min_bytes_each,
                  int *out, mc_token *tok)
{
    mc_token t;
    size_t left;

    if (!mc_lex_keyword_int(lx, keyword, out, &t))
        return false;
    if (tok)
        *tok = t;
    if (*out < min)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "invalid '%s' %d, expected at least %d",
                           keyword, *out, min);
    if (*out > limit)
        return mc_lex_fail(lx, &t, MC_ERR_LIMIT, "'%s' %d is over the limit of %d", keyword,
                           *out, limit);
    left = mc_lex_remaining(lx);
    if (min_bytes_each > 0 && (size_t)*out > left / min_bytes_each)
        return mc_lex_fail(lx, &t, MC_ERR_LIMIT,
                           "'%s' %d needs at least %zu bytes but only %zu remain in the file",
                           keyword, *out, (size_t)*out * min_bytes_each, left);
    return true;
}

bool mc_lex_expect_eof(mc_lexer *lx)
{
    mc_token t;
    char d[80];

    if (!mc_lex_next(lx, &t))
        return false;
    if (t.kind == MC_TOK_EOF)
        return true;
    return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "unexpected %s after the end of the file's data",
                       mc_lex_describe(&t, d, sizeof d));
}

/* Whether tok is a word an MD5 file is made of (its header and block keywords), or the end of
 * an empty file: then the file may be quoted in an error about its header (lex.h). */
static bool md5_like(const mc_token *tok)
{
    static const char *const words[] = {
        "MD5Version", "commandline", "numJoints", "numMeshes", "joints", "mesh", "numFrames",
        "frameRate", "numAnimatedComponents", "hierarchy", "bounds", "baseframe", "frame",
        "numCuts", "cuts", "camera",
    };

    if (tok->kind == MC_TOK_EOF)
        return tok->line == 1 && tok->col == 1;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (mc_lex_is(tok, words[i]))
            return true;
    return false;
}

bool mc_lex_md5_header(mc_lexer *lx)
{
    mc_token t;
    char d[80];
    int version;

    if (!mc_lex_peek(lx, &t))
        return false;
    if (mc_lex_is(&t, "MD5Version")) {
        if (!mc_lex_next(lx, &t) || !mc_lex_int(lx, &version, &t))
            return false;
        if (version != 10)
            return mc_lex_fail(lx, &t, MC_ERR_RANGE, "unsupported 'MD5Version' %d, expected 10",
                               version);
    } else if (mc_lex_is(&t, "commandline") && mc_lex_lenient(lx)) {
        mc_lex_warn(lx, &t, MC_ERR_SYNTAX, "missing 'MD5Version' line (read as version 10)");
    } else if (!md5_like(&t)) {
        /* Not the format at all (a scene may name any readable file): named, never quoted. */
        if (lx->failed)
            return false;
        lx->failed = true;
        if (lx->err)
            mc_error_set(lx->err, MC_ERR_SYNTAX, lx->name, 0, 0,
                         "not an MD5 file: it does not start with 'MD5Version' (its text is not "
                         "shown)");
        return false;
    } else {
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected 'MD5Version', found %s%s",
                           mc_lex_describe(&t, d, sizeof d),
                           mc_lex_is(&t, "commandline") ? " (lenient mode accepts this)" : "");
    }
    if (!mc_lex_peek(lx, &t))
        return false;
    if (!mc_lex_is(&t, "commandline") && mc_lex_lenient(lx)) {
        mc_lex_warn(lx, &t, MC_ERR_SYNTAX, "missing 'commandline' line");
        return true;
    }
    if (!mc_lex_expect(lx, "commandline") || !mc_lex_next(lx, &t))
        return false;
    if (t.kind == MC_TOK_EOF || t.kind == MC_TOK_PUNCT)
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected a string, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    return true;
}

void *mc_lex_alloc(mc_lexer *lx, mc_arena *a, size_t count, size_t size)
{
    void *p;

    if (count == 0 || size == 0)
        return NULL;
    p = mc_arena_alloc(a, count, size);
    if (!p) {
        mc_lex_fail(lx, NULL, MC_ERR_NOMEM, "out of memory");
        if (lx->err) {
            lx->err->line = 0;
            lx->err->col = 0;
        }
    }
    return p;
}

char *mc_lex_strdup(mc_lexer *lx, mc_arena *a, const char *text, size_t len)
{
    char *p = mc_arena_strndup(a, text, len);

    if (!p) {
        mc_lex_fail(lx, NULL, MC_ERR_NOMEM, "out of memory");
        if (lx->err) {
            lx->err->line = 0;
            lx->err->col = 0;
        }
    }
    return p;
}

mc_status mc_lex_run(mc_lexer *lx, const char *buf, size_t len, const char *name,
                     const mc_parse_opts *opts, mc_arena *arena, const char **name_out,
                     bool (*body)(void *ctx), void *ctx, mc_error *err)
{
    mc_error local;

    if (!err)
        err = &local;
    memset(err, 0, sizeof *err);
    if (!name)
        name = "";
    mc_lex_init(lx, buf, len, name, opts, err);
    *name_out = mc_lex_strdup(lx, arena, name, strlen(name));
    if (!*name_out || !body(ctx)) {
        mc_arena_release(arena);
        return err->code != MC_OK ? err->code : MC_ERR_SYNTAX;
    }
    return MC_OK;
}

mc_status mc_lex_parse_into(mc_lex_target t, const char *buf, size_t len, const char *name,
                            const mc_parse_opts *opts, mc_error *err)
{
    mc_status s;

    memset(t.out, 0, t.size);
    s = mc_lex_run(t.lx, buf, len, name, opts, t.arena, t.name_out, t.body, t.ctx, err);
    if (s != MC_OK)
        memset(t.out, 0, t.size);
    return s;
}

mc_status mc_lex_load_into(mc_lex_target t, const char *path, const mc_parse_opts *opts,
                           mc_error *err)
{
    char *buf;
    size_t len;
    mc_status s;

    memset(t.out, 0, t.size);
    s = mc_read_file(path, &buf, &len, err);
    if (s != MC_OK)
        return s;
    s = mc_lex_parse_into(t, buf, len, path, opts, err);
    free(buf);
    return s;
}

void mc_lex_release(mc_arena *arena, void *rec, size_t size)
{
    mc_arena_release(arena);
    memset(rec, 0, size);
}
