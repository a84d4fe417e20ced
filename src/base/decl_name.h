/* Declaration texts and names as Doom reads and compares them (decl_index.c); shared with the
 * .mtr reader. */
#ifndef MC_BASE_DECL_NAME_H
#define MC_BASE_DECL_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The text Doom's lexer reads: up to the first NUL byte (idLexer stops there). */
static inline size_t text_len(const char *buf, size_t len)
{
    const char *nul = buf ? memchr(buf, 0, len) : NULL;

    return nul ? (size_t)(nul - buf) : len;
}

/* name folded as Doom compares declaration names (lower case, '/' for '\\'; strip: its
 * extension removed) into buf; false when it does not fit. */
bool mc_mtr_fold_name(const char *name, size_t len, bool strip, char *buf, size_t cap);

#endif
