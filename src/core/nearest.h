/* The word of a list nearest a misspelled one, for "did you mean" hints in error messages.
 *
 * Distance is the optimal string alignment distance (Damerau-Levenshtein restricted so that no
 * substring is edited twice): an insertion, deletion, substitution or swap of two adjacent
 * bytes costs 1. Bytes are compared exactly (keywords are case-sensitive), so 'noshadows' is 1
 * from 'noShadows'. A word is near enough when its distance is at most 2 and less than half the
 * misspelled word's length (2 * d < len): 'orgin' (5) finds 'origin' (d 1), 'fo' (2) finds
 * nothing. Every failure message that hints uses MC_NEAREST_HINT. */
#ifndef MC_NEAREST_H
#define MC_NEAREST_H

#include <stddef.h>

/* The hint appended to a message: printf(" (did you mean '%s'?)", word). */
#define MC_NEAREST_HINT " (did you mean '%s'?)"

/* The word of words[0..count) nearest to word[0..len) (not NUL-terminated), or NULL when none is
 * near enough or word equals one of them. Ties go to the earliest in the list. NULL entries of
 * words are passed over. Allocates nothing. */
const char *mc_nearest_word(const char *word, size_t len, const char *const *words, size_t count);

/* The same with ASCII letters compared without case (for case-insensitive keywords: material
 * files): 'DifuseMap' is 1 from 'diffusemap'. */
const char *mc_nearest_word_nocase(const char *word, size_t len, const char *const *words,
                                   size_t count);

/* Writes MC_NEAREST_HINT with the nearest word into out (at most cap bytes, NUL-terminated), or
 * the empty string when there is none; returns out. */
char *mc_nearest_hint(char *out, size_t cap, const char *word, size_t len,
                      const char *const *words, size_t count);

#endif
