#include "core/nearest.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Longer words than this are never near a keyword of the lists in md5cine (their distance to
 * every word is more than 2); the bound keeps the rows on the stack. */
#define NEAREST_MAX_LEN 64

/* Optimal string alignment distance of a[0..n) and b[0..m), both at most NEAREST_MAX_LEN:
 * three rows of the edit table (i - 2, i - 1, i) are enough for the swap case. */
static bool same(char a, char b, bool fold)
{
    return a == b || (fold && tolower((unsigned char)a) == tolower((unsigned char)b));
}

static size_t osa_distance(const char *a, size_t n, const char *b, size_t m, bool fold)
{
    size_t rows[3][NEAREST_MAX_LEN + 1];
    size_t i, j;

    for (j = 0; j <= m; j++)
        rows[0][j] = j;
    for (i = 1; i <= n; i++) {
        size_t *cur = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];

        cur[0] = i;
        for (j = 1; j <= m; j++) {
            size_t cost = same(a[i - 1], b[j - 1], fold) ? 0 : 1;
            size_t d = up[j] + 1; /* deletion */

            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1; /* insertion */
            if (up[j - 1] + cost < d)
                d = up[j - 1] + cost; /* substitution */
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2], fold) &&
                same(a[i - 2], b[j - 1], fold) && up2[j - 2] + 1 < d)
                d = up2[j - 2] + 1; /* swap of two adjacent bytes */
            cur[j] = d;
        }
    }
    return rows[n % 3][m];
}

static const char *nearest(const char *word, size_t len, const char *const *words, size_t count,
                           bool fold)
{
    const char *best = NULL;
    size_t best_d = 3, i;

    if (!word || len > NEAREST_MAX_LEN)
        return NULL;
    for (i = 0; i < count; i++) {
        size_t m, d;

        if (!words[i])
            continue;
        m = strlen(words[i]);
        if (m > NEAREST_MAX_LEN || m + 2 < len || len + 2 < m)
            continue;
        d = osa_distance(word, len, words[i], m, fold);
        if (d == 0)
            return NULL;
        if (d < best_d && 2 * d < len) {
            best = words[i];
            best_d = d;
        }
    }
    return best;
}

const char *mc_nearest_word(const char *word, size_t len, const char *const *words, size_t count)
{
    return nearest(word, len, words, count, false);
}

const char *mc_nearest_word_nocase(const char *word, size_t len, const char *const *words,
                                   size_t count)
{
    return nearest(word, len, words, count, true);
}

char *mc_nearest_hint(char *out, size_t cap, const char *word, size_t len,
                      const char *const *words, size_t count)
{
    const char *near = mc_nearest_word(word, len, words, count);

    if (cap == 0)
        return out;
    out[0] = '\0';
    if (near)
        snprintf(out, cap, MC_NEAREST_HINT, near);
    return out;
}
