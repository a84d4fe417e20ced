/* mtr_keywords.h: the material switches' table as data. */
#include <md5cine/mtr_keywords.h>

#include <string.h>
#include <strings.h>

#define ROW(id, bit, word, info) {word, MC_MTR_##id, info},
static const mc_mtr_keyword ROWS[] = {MC_MTR_KEYWORDS(ROW)};
#undef ROW

const mc_mtr_keyword *mc_mtr_keywords(size_t *count)
{
    *count = sizeof ROWS / sizeof ROWS[0];
    return ROWS;
}

unsigned mc_mtr_keyword_bit(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++)
        if (strlen(ROWS[i].word) == len && strncasecmp(ROWS[i].word, word, len) == 0)
            return ROWS[i].bit;
    return 0;
}
