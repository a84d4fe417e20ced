/* decl_scan: the reading Doom's declaration manager does of .mtr, .skin and the other decl
 * files before a declaration is parsed (framework/DeclManager.cpp, idDeclFile::LoadAndParse,
 * with idLexer::SkipBracedSection): white space (every byte up to ' '), // and block comments,
 * "strings" (no newline inside), braces, and runs of any other bytes as one token. It never
 * fails: whatever the bytes, it moves forward and stops at the end of the text. Private to
 * src/formats. */
#ifndef MC_DECL_SCAN_H
#define MC_DECL_SCAN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mc_scan {
    const char *buf, *p, *end;
    int line;
    const char *line_start;
} mc_scan;

typedef struct mc_scan_tok {
    const char *text; /* a string's without its quotes */
    size_t len;
    size_t start;     /* offset of the token's first byte (a string's quote) */
    int line, col;
    bool string;
} mc_scan_tok;

/* Skips white space and comments. */
void mc_scan_space(mc_scan *s);

/* The next token into *t; false at the end of the text. */
bool mc_scan_token(mc_scan *s, mc_scan_tok *t);

/* t is the unquoted word `word` (compared without case); t is the brace c. */
bool mc_scan_is(const mc_scan_tok *t, const char *word);
bool mc_scan_brace(const mc_scan_tok *t, char c);

/* After an opening '{': everything to its matching '}', or to the end of the text. */
void mc_scan_braced(mc_scan *s);

#endif
