/* The token reader shared by every md5cine text format (md5mesh, md5anim, md5camera, scene).
 *
 * Tokens: white space, // and block comments, "quoted strings" (a backslash is an ordinary
 * character; no newline inside; no escape), names ([A-Za-z_/\\.][A-Za-z0-9_/\\:.]*),
 * punctuation ( ) { }, and decimal numbers in every form Doom reads -- 12, -3, 0.5, .5, 5., -.5,
 * -0, 1e-05, 2.5E+3 -- where a leading '-' directly followed by a digit or '.digit' belongs to
 * the number. nan, inf, 1.#INF, out-of-range values and malformed numbers (1.2.3, 1.5f) are
 * errors. 010 is ten (no octal). Keywords are case-sensitive. Bytes >= 0x80 are allowed only
 * inside strings and comments.
 *
 * Every token records its 1-based line and byte column. Failures go into the lexer's mc_error
 * with the position of the offending token; once failed, every later call fails too. */
#ifndef MC_LEX_H
#define MC_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/error.h>

typedef enum mc_tok_kind {
    MC_TOK_EOF,
    MC_TOK_NAME,
    MC_TOK_STRING, /* text excludes the quotes */
    MC_TOK_NUMBER,
    MC_TOK_PUNCT, /* one of ( ) { } */
} mc_tok_kind;

typedef struct mc_token {
    mc_tok_kind kind;
    const char *text; /* points into the buffer; not NUL-terminated */
    size_t len;
    int line, col;    /* 1-based; col counts bytes */
    double num;       /* value of a MC_TOK_NUMBER */
    bool is_int;      /* number written without '.' or exponent */
} mc_token;

typedef struct mc_lexer {
    const char *buf, *end, *cur;
    const char *name;       /* file name for errors */
    int line;               /* line of cur */
    const char *line_start; /* first byte of cur's line */
    mc_token peeked;
    bool has_peeked;
    bool failed;
    mc_error *err; /* may be NULL */
    const mc_parse_opts *opts; /* may be NULL */
} mc_lexer;

void mc_lex_init(mc_lexer *lx, const char *buf, size_t len, const char *name,
                 const mc_parse_opts *opts, mc_error *err);

/* Next token into *tok (EOF is a token). false on a lexical error. */
bool mc_lex_next(mc_lexer *lx, mc_token *tok);
/* The next token without consuming it. */
bool mc_lex_peek(mc_lexer *lx, mc_token *tok);

/* Consume a token whose text equals word (a name, or a quoted string with that text).
 * Error: "expected 'word', found 'x'" at the token found. */
bool mc_lex_expect(mc_lexer *lx, const char *word);
/* Consume the next token only if its text equals word; *found tells which. */
bool mc_lex_accept(mc_lexer *lx, const char *word, bool *found);

/* An integer (no '.', no exponent) that fits in int. tok (may be NULL) receives the token. */
bool mc_lex_int(mc_lexer *lx, int *out, mc_token *tok);
/* A finite number that fits in float. */
bool mc_lex_float(mc_lexer *lx, float *out, mc_token *tok);
/* ( v0 v1 ... v[n-1] ) */
bool mc_lex_vec(mc_lexer *lx, int n, float *out);
/* A quoted string or a name; *text points into the buffer. */
bool mc_lex_string(mc_lexer *lx, const char **text, size_t *len, mc_token *tok);

/* Records an error at tok's position (or the current position when tok is NULL), marks the
 * lexer failed and returns false. */
bool mc_lex_fail(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
/* Reports a warning at tok through opts->warn, if any. */
void mc_lex_warn(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* Bytes not yet read, for count-versus-size checks before allocating. */
size_t mc_lex_remaining(const mc_lexer *lx);

#endif
