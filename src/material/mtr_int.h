/* What the parts of the .mtr reader share (mtr.c: the helpers and a material's body;
 * mtr_file.c: a whole file's declarations and the material index). Private to
 * src/material/. */
#ifndef MC_MATERIAL_MTR_INT_H
#define MC_MATERIAL_MTR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include <md5cine/mtr.h>

#include "base/decl_name.h"
#include "formats/lex.h"
#include "mtr_expr.h"

/* Punctuation of material files beyond ( ) { }: the argument separator and the operators of
 * Doom's expressions (which only appear in skipped keywords). */
#define MTR_PUNCT ",*+-%<>=!&|[]"

/* A keyword warned about once in this file. */
typedef struct warned_word {
    const char *text;
    size_t len;
} warned_word;

typedef struct mtr_parser {
    mc_lexer lx;
    mc_mtr_file *f;
    /* Growing arrays while the file is read (malloc'd, freed by mc_mtr_parse). */
    mc_mtr_decl *decls;
    int cap_decls;
    mc_mtr_stage *stages; /* the current material's */
    int num_stages, cap_stages;
    warned_word *warned;
    int num_warned, cap_warned;
    const mc_mtr_span *span; /* mc_mtr_parse_span: the one declaration to read */
    mc_wrap wrap;        /* the current material's clamp keyword so far */
    mc_expr_builder xb;      /* the current material's expressions */
    mc_expr_tables **cache;  /* NULL, or where the caller keeps the file's tables */
    size_t text_len;         /* the whole text, for the tables a span names */
} mtr_parser;

/* tok is a name (or string) equal to word, ignoring case. */
static inline bool is_kw(const mc_token *tok, const char *word)
{
    return (tok->kind == MC_TOK_NAME || tok->kind == MC_TOK_STRING) && tok->len == strlen(word) &&
           strncasecmp(tok->text, word, tok->len) == 0;
}

static inline bool is_punct(const mc_token *tok, char c)
{
    return tok->kind == MC_TOK_PUNCT && tok->text[0] == c;
}

/* Grows *arr (of *cap elements of size bytes) to hold need; false (p failed) when out of
 * memory. */
bool mc_mtr_grow(mtr_parser *p, void **arr, int *cap, int need, size_t size);
/* Warns about keyword kw once per file; hint is appended to the message. */
bool mc_mtr_warn_once(mtr_parser *p, const mc_token *kw, const char *what, const char *hint);
/* Skips a ( ... ), [ ... ] or { ... } group whose opening token open was just read (only
 * brackets of its own kind are counted). */
bool mc_mtr_skip_group(mtr_parser *p, const mc_token *open);
/* Reads the next token into out, which must be the punctuation c; false (p failed) if not. */
bool mc_mtr_expect_punct(mtr_parser *p, char c, mc_token *out);
/* The canonical copy of a material name (strip: its extension removed) or an image name. */
char *mc_mtr_canonical_dup(mtr_parser *p, const mc_token *t, const char *what, bool strip);
/* Reads material m's body, whose '{' open was just read, through its closing '}'. */
bool mc_mtr_parse_body(mtr_parser *p, mc_mtr_decl *m, const mc_token *open);

#endif
