/* The token reader shared by every md5cine text format (md5mesh, md5anim, md5camera, scene).
 *
 * Tokens: white space (space, tab, CR, LF, VT, FF), // and block comments, "quoted strings"
 * (a backslash is an ordinary character; no newline inside; no escape), names
 * ([A-Za-z_/\\.][A-Za-z0-9_/\\:.]*, a '.' followed by a digit starts a number instead),
 * punctuation ( ) { } (plus the characters of extra_punct, for a format that sets it), and decimal numbers in every form Doom reads -- 12, -3, 0.5, .5, 5., -.5,
 * -0, 1e-05, 2.5E+3 -- where a leading '-' directly followed by a digit or '.digit' belongs to
 * the number. nan, inf (names, so every typed read rejects them), 1.#INF, out-of-range values
 * and malformed numbers (1.2.3, 1.5f, 12abc) are errors. 010 is ten (no octal). Keywords are
 * case-sensitive. Bytes >= 0x80 are allowed only inside strings and comments; other control
 * bytes and a NUL byte anywhere (the input is read as exactly len bytes, NUL-terminated or not)
 * are errors. A UTF-8 byte order mark at the very start is skipped (columns start after it).
 * CRLF line ends work: CR is white space and columns count from the byte after the LF.
 *
 * Every token records its 1-based line and byte column. Failures go into the lexer's mc_error
 * with the position of the offending token (for an unterminated comment or string: where it
 * starts); once failed, every later call fails too and changes nothing.
 *
 * Messages follow git's style: lower case, no full stop, tokens in single quotes ('x'), the end
 * of the input written as "end of file". */
#ifndef MC_LEX_H
#define MC_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>

typedef enum mc_tok_kind {
    MC_TOK_EOF,
    MC_TOK_NAME,
    MC_TOK_STRING, /* text excludes the quotes */
    MC_TOK_NUMBER,
    MC_TOK_PUNCT, /* one of ( ) { } or of the lexer's extra_punct */
} mc_tok_kind;

typedef struct mc_token {
    mc_tok_kind kind;
    const char *text; /* points into the buffer; not NUL-terminated */
    size_t len;
    int line, col;    /* 1-based; col counts bytes */
    double num;       /* value of a MC_TOK_NUMBER (finite) */
    bool is_int;      /* number written without '.' or exponent */
} mc_token;

typedef struct mc_lexer {
    const char *buf, *end, *cur;
    const char *name;       /* file name for errors; not copied, must outlive the lexer */
    int line;               /* line of cur */
    const char *line_start; /* first byte of cur's line */
    mc_token peeked;
    bool has_peeked;
    bool failed;
    bool lexical;  /* the failure was a lexical error: the bytes after it are not tokens */
    mc_error *err; /* may be NULL */
    const mc_parse_opts *opts; /* may be NULL */
    /* NULL, or more one-character punctuation tokens for this format (a material's ",*+-").
     * Set after mc_lex_init. A '-' listed here still starts a number before a digit. Each of
     * these characters also ends a number or a name. */
    const char *extra_punct;
} mc_lexer;

/* Starts reading buf[0..len) (need not be NUL-terminated; buf may be NULL when len is 0).
 * name, opts and err may be NULL; none is copied. */
void mc_lex_init(mc_lexer *lx, const char *buf, size_t len, const char *name,
                 const mc_parse_opts *opts, mc_error *err);

/* Next token into *tok (EOF is a token, returned again on every later call). false on a
 * lexical error: then *tok is an EOF token where reading stopped, which for an unterminated
 * comment is the end of the input; the error record holds the error's own position. */
bool mc_lex_next(mc_lexer *lx, mc_token *tok);
/* The next token without consuming it. */
bool mc_lex_peek(mc_lexer *lx, mc_token *tok);
/* After a parser's own error (mc_lex_fail), reads again from tok, a token this lexer gave
 * before (the start of a statement the parser skips to go on, as a compiler reports several
 * errors). false, with nothing changed, after a lexical error. */
bool mc_lex_resume_at(mc_lexer *lx, const mc_token *tok);

/* Consume a token whose text equals word (a name, or a quoted string with that text).
 * Error (MC_ERR_SYNTAX): "expected 'word', found 'x'" at the token found. tok may be NULL. */
bool mc_lex_expect_tok(mc_lexer *lx, const char *word, mc_token *tok);
bool mc_lex_expect(mc_lexer *lx, const char *word);
/* Consume the next token only if its text equals word (name, string or punctuation);
 * *found tells which. */
bool mc_lex_accept(mc_lexer *lx, const char *word, bool *found);

/* An integer (no '.', no exponent) that fits in int. tok (may be NULL) receives the token.
 * Errors: "expected integer, found 'x'" (MC_ERR_SYNTAX; also for 29.97), "integer 'x' is out of
 * range" (MC_ERR_RANGE). */
bool mc_lex_int(mc_lexer *lx, int *out, mc_token *tok);
/* A number that fits in float ("expected number, found 'x'", "number 'x' is out of range"). */
bool mc_lex_float(mc_lexer *lx, float *out, mc_token *tok);
/* ( v0 v1 ... v[n-1] ), each value read with mc_lex_float. */
bool mc_lex_vec(mc_lexer *lx, int n, float *out);
/* A quoted string or a name; *text points into the buffer (not NUL-terminated).
 * Error: "expected a string, found 'x'". */
bool mc_lex_string(mc_lexer *lx, const char **text, size_t *len, mc_token *tok);

/* keyword followed by an integer: "numJoints 27". tok receives the integer's token. */
bool mc_lex_keyword_int(mc_lexer *lx, const char *keyword, int *out, mc_token *tok);

/* A count read with mc_lex_keyword_int, checked before anything is allocated for it:
 * count >= min (else MC_ERR_RANGE "invalid 'keyword' -1, expected at least 0"), count <= limit
 * and count * min_bytes_each <= the bytes still unread (else MC_ERR_LIMIT, both at the count's
 * token). min_bytes_each is the fewest bytes of text one item can take. */
bool mc_lex_count(mc_lexer *lx, const char *keyword, int min, int limit, size_t min_bytes_each,
                  int *out, mc_token *tok);

/* Succeeds at the end of the input; otherwise MC_ERR_SYNTAX
 * "unexpected 'x' after the end of the file's data" at the extra token. */
bool mc_lex_expect_eof(mc_lexer *lx);

/* true when tok's text is exactly word (any kind of token but EOF). */
bool mc_lex_is(const mc_token *tok, const char *word);

/* Writes a printable description of tok into buf for messages: "'text'" (quotes included,
 * long text shortened with "...", bytes outside printable ASCII as \xNN), or "end of file".
 * Returns buf. */
const char *mc_lex_describe(const mc_token *tok, char *buf, size_t cap);

/* Records an error at tok's position (or the current position when tok is NULL), marks the
 * lexer failed and returns false. Only the first error is kept. */
bool mc_lex_fail(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
/* Reports a warning at tok through opts->warn, if any. */
void mc_lex_warn(mc_lexer *lx, const mc_token *tok, mc_status code, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* The header every MD5 file starts with: "MD5Version 10" then "commandline <token>" (any
 * string, name or number; its value is ignored). A version other than 10 is MC_ERR_RANGE at the
 * number. A file that starts with commandline is an error ("expected 'MD5Version', found
 * 'commandline'") unless opts->lenient, which reports a warning at that token instead; a
 * missing commandline line (seen in a shipped Red Eclipse mesh) is likewise an error, or a
 * warning with lenient. A file whose first word is none of an MD5 file's keywords (and that is
 * not empty) is not an MD5 file: MC_ERR_SYNTAX without a position and without quoting any of its
 * text ("not an MD5 file: ..."), so that an error never shows a line of a file that is not of
 * the format (docs/hardening.md, "Scenes are trusted input"). */
bool mc_lex_md5_header(mc_lexer *lx);

/* mc_arena_alloc that records MC_ERR_NOMEM (no position) and fails the lexer when out of
 * memory (then lx->failed is set). count 0 yields NULL without failing. */
void *mc_lex_alloc(mc_lexer *lx, mc_arena *a, size_t count, size_t size);

/* Expects `word {` and then allocates as mc_lex_alloc; NULL with the lexer failed when either
 * is missing. */
void *mc_lex_block(mc_lexer *lx, const char *word, mc_arena *a, size_t count, size_t size);

/* A NUL-terminated copy of text[0..len) in a, or NULL (lexer failed with MC_ERR_NOMEM). */
char *mc_lex_strdup(mc_lexer *lx, mc_arena *a, const char *text, size_t len);

/* true when opts asks for lenient parsing. */
bool mc_lex_lenient(const mc_lexer *lx);

/* Bytes not yet read, for count-versus-size checks before allocating. */
size_t mc_lex_remaining(const mc_lexer *lx);

/* The frame every parse function shares. Zeroes *err (a NULL err is replaced by a local
 * record), initialises lx over buf[0..len) for the file `name` (NULL: ""), copies name into arena
 * as *name_out, then runs body(ctx), which reads through lx. When anything fails the arena is
 * released and the error's code is returned; the caller zeroes its output. */
mc_status mc_lex_run(mc_lexer *lx, const char *buf, size_t len, const char *name,
                     const mc_parse_opts *opts, mc_arena *arena, const char **name_out,
                     bool (*body)(void *ctx), void *ctx, mc_error *err);

/* One parse target for mc_lex_parse_into and mc_lex_load_into: the output record (size bytes,
 * zeroed before parsing and again on failure), its arena and name field, and the body that fills
 * it through lx with ctx. */
typedef struct mc_lex_target {
    mc_lexer *lx;
    void *out;
    size_t size;
    mc_arena *arena;
    const char **name_out;
    bool (*body)(void *ctx);
    void *ctx;
} mc_lex_target;

/* mc_lex_run over buf[0..len) into t, zeroing t.out first and on failure. */
mc_status mc_lex_parse_into(mc_lex_target t, const char *buf, size_t len, const char *name,
                            const mc_parse_opts *opts, mc_error *err);

/* Reads the file at path (errors as mc_read_file) and parses it as mc_lex_parse_into, with path
 * as the name. */
mc_status mc_lex_load_into(mc_lex_target t, const char *path, const mc_parse_opts *opts,
                           mc_error *err);

/* Releases arena and zeroes the record rec of size bytes that holds it. */
void mc_lex_release(mc_arena *arena, void *rec, size_t size);

#endif
