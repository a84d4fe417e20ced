/* The .md5scene file parser's paths and shared parse helpers (scene_parse.h), below the blocks
 * that use them: scene.c, scene_parse_lights.c, camera_block.c, scene_resolve.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>
#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene.h>
#include <md5cine/timeline.h>
#include <md5cine/vfs.h>

#include "core/nearest.h"
#include "formats/lex.h"
#include "formats/modeldef.h"
#include "scene/mesh_groups.h"
#include "scene/scene_parse.h"


/* ---------------------------------------------------------------- paths */

/* The folder of name with a trailing '/', or "" (both in the arena). */
const char *dir_of(mc_arena *a, const char *name)
{
    const char *slash = strrchr(name, '/');

    return mc_arena_strndup(a, name, slash ? (size_t)(slash - name) + 1 : 0);
}

/* dir + text[0..len) with '\' read as '/'; an absolute text ignores dir. NULL when out of
 * memory. */
char *join_path(mc_arena *a, const char *dir, const char *text, size_t len)
{
    size_t dlen = (len > 0 && (text[0] == '/' || text[0] == '\\')) ? 0 : strlen(dir);
    char *p = mc_arena_alloc(a, dlen + len + 1, 1);

    if (!p)
        return NULL;
    memcpy(p, dir, dlen);
    for (size_t i = 0; i < len; i++)
        p[dlen + i] = text[i] == '\\' ? '/' : text[i];
    p[dlen + len] = '\0';
    return p;
}

/* A regular file that exists (a folder named like an image does not count). */
bool file_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool mc_scene_shader_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = *a == '\\' ? '/' : (*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a);
        int cb = *b == '\\' ? '/' : (*b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b);

        if (ca != cb)
            return false;
        if (!ca)
            return true;
    }
}

/* ---------------------------------------------------------------- parse helpers */

bool nomem(scene_parser *p, const mc_token *tok)
{
    return mc_lex_fail(&p->lx, tok, MC_ERR_NOMEM, "out of memory");
}

bool expect_punct(scene_parser *p, const char *punct)
{
    mc_token tok;
    char d[80];

    if (!mc_lex_next(&p->lx, &tok))
        return false;
    if (tok.kind != MC_TOK_PUNCT || !mc_lex_is(&tok, punct))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "expected '%s', found %s", punct,
                           mc_lex_describe(&tok, d, sizeof d));
    return true;
}

/* Marks keyword tok as seen; a second time is an error. */
bool once(scene_parser *p, const mc_token *tok, seen_at *seen)
{
    if (seen->line)
        return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "duplicate '%.*s' (first given at line %d)",
                           (int)tok->len, tok->text, seen->line);
    seen->line = tok->line;
    seen->col = tok->col;
    return true;
}

/* A path string resolved against the scene's folder; tok receives the string's token. */
bool read_path(scene_parser *p, const char **out, mc_token *tok)
{
    const char *text;
    size_t len;

    if (!mc_lex_string(&p->lx, &text, &len, tok))
        return false;
    if (len == 0)
        return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "empty path");
    *out = join_path(&p->s->arena, p->s->dir, text, len);
    return *out ? true : nomem(p, tok);
}

bool read_int_in(scene_parser *p, const char *what, int lo, int hi, int *out)
{
    mc_token tok;

    if (!mc_lex_int(&p->lx, out, &tok))
        return false;
    if (*out < lo || *out > hi)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "invalid '%s' %d, expected %d to %d", what,
                           *out, lo, hi);
    return true;
}

bool read_flag(scene_parser *p, const char *what, bool *out)
{
    int v;

    if (!read_int_in(p, what, 0, 1, &v))
        return false;
    *out = v == 1;
    return true;
}

/* A quoted declaration name ("model", "skin") of 1 to MC_LIMIT_NAME_LEN bytes, kept in the
 * scene's arena with its position. */
bool read_decl_name(scene_parser *p, const char *what, const char **out, int *line,
                    int *col)
{
    const char *text;
    size_t len;
    mc_token tok;

    if (!mc_lex_string(&p->lx, &text, &len, &tok))
        return false;
    if (len == 0 || len > MC_LIMIT_NAME_LEN)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "invalid %s name, expected 1 to %d bytes",
                           what, MC_LIMIT_NAME_LEN);
    *out = mc_lex_strdup(&p->lx, &p->s->arena, text, len);
    *line = tok.line;
    *col = tok.col;
    return *out != NULL;
}

/* The error of a triple with too few numbers, too many or no parentheses, at tok (the ')',
 * the fourth number, the token where '(' belongs): "'origin' takes three numbers ( x y z )". */
static bool triple_count(scene_parser *p, const mc_token *tok, const char *what)
{
    static const char *const colours[] = { "background", "ambient", "color" };
    const char *form = "( x y z )";
    char d[80];

    for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++)
        if (strcmp(what, colours[i]) == 0)
            form = "( r g b )";
    return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "'%s' takes three numbers %s, found %s", what,
                       form, mc_lex_describe(tok, d, sizeof d));
}

/* Whether tok is the punctuation punct. */
static bool is_punct(const mc_token *tok, const char *punct)
{
    return tok->kind == MC_TOK_PUNCT && mc_lex_is(tok, punct);
}

/* ( a b c ) with every component in lo..hi, reported at the component's own token; a count
 * that is not three, at the token that shows it (triple_count). */
bool read_triple_in(scene_parser *p, const char *what, float lo, float hi, float *out)
{
    mc_token tok;

    if (!mc_lex_peek(&p->lx, &tok))
        return false;
    if (!is_punct(&tok, "("))
        return triple_count(p, &tok, what);
    (void)mc_lex_next(&p->lx, &tok);
    for (int i = 0; i < 3; i++) {
        if (!mc_lex_peek(&p->lx, &tok))
            return false;
        if (is_punct(&tok, ")"))
            return triple_count(p, &tok, what);
        if (!mc_lex_float(&p->lx, &out[i], &tok))
            return false;
        if (!(out[i] >= lo && out[i] <= hi))
            return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                               "invalid '%s' component %g, expected %g to %g", what,
                               (double)out[i], (double)lo, (double)hi);
    }
    if (!mc_lex_peek(&p->lx, &tok))
        return false;
    if (tok.kind == MC_TOK_NUMBER)
        return triple_count(p, &tok, what);
    return mc_lex_expect(&p->lx, ")");
}

/* " (did you mean 'x'?)" when tok is a name near one of words[0..n), else "" (core/nearest.h). */
const char *hint_for(const mc_token *tok, const char *const *words, size_t n, char *buf,
                     size_t cap)
{
    if (tok->kind != MC_TOK_NAME) {
        buf[0] = '\0';
        return buf;
    }
    return mc_nearest_hint(buf, cap, tok->text, tok->len, words, n);
}

int block_keyword(scene_parser *p, mc_token *tok, const char *where, const char *const *words,
                  int count)
{
    char d[80], hint[80];
    int k = 0;

    if (!mc_lex_next(&p->lx, tok))
        return BLOCK_FAILED;
    if (tok->kind == MC_TOK_PUNCT && mc_lex_is(tok, "}"))
        return BLOCK_END;
    if (tok->kind != MC_TOK_NAME) {
        mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "expected a keyword or '}' in %s, found %s",
                    where, mc_lex_describe(tok, d, sizeof d));
        return BLOCK_FAILED;
    }
    while (k < count && !mc_lex_is(tok, words[k]))
        k++;
    if (k < count)
        return k;
    mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "unknown keyword %s in %s%s",
                mc_lex_describe(tok, d, sizeof d), where,
                hint_for(tok, words, (size_t)count, hint, sizeof hint));
    return BLOCK_FAILED;
}

bool same_name(const char *a, size_t alen, const char *b)
{
    return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

/* ---------------------------------------------------------------- resolve's helpers */

void resolve_warn(const mc_parse_opts *opts, const mc_error *w)
{
    if (opts && opts->warn)
        opts->warn(opts->warn_user, w);
}

/* True (with MC_ERR_INTERRUPTED in e) once the caller's stop flag is set. */
bool resolve_stopped(const mc_parse_opts *opts, mc_error *e)
{
    if (!opts || !opts->stop || !*opts->stop)
        return false;
    mc_error_set(e, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    return true;
}
