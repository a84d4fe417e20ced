/* Checks shared by the fuzz targets: a broken invariant aborts with a message, so libFuzzer
 * (and the replay driver under ctest) reports it as a crash. */
#ifndef MC_FUZZ_COMMON_H
#define MC_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/error.h>

#define FUZZ_REQUIRE(c)                                                                      \
    do {                                                                                     \
        if (!(c)) {                                                                          \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #c);       \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

/* Number of lines in data (1 + newlines), the largest line an error may name. */
static inline long fuzz_line_count(const unsigned char *data, size_t size)
{
    long n = 1;

    for (size_t i = 0; i < size; i++)
        n += data[i] == '\n';
    return n;
}

/* A failed parse must say what, where and in which file. */
static inline void fuzz_check_error(mc_status s, const mc_error *err, const char *name,
                                    const unsigned char *data, size_t size)
{
    FUZZ_REQUIRE(s != MC_OK);
    FUZZ_REQUIRE(err->code == s);
    FUZZ_REQUIRE(err->msg[0] != '\0');
    FUZZ_REQUIRE(strcmp(err->file, name) == 0);
    if (s == MC_ERR_NOMEM) {
        FUZZ_REQUIRE(err->line == 0 && err->col == 0);
        return;
    }
    FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_LIMIT);
    /* lex.h: a file that does not start as an MD5 file is named without a position */
    if (s == MC_ERR_SYNTAX && strncmp(err->msg, "not an MD5 file: ", 17) == 0) {
        FUZZ_REQUIRE(err->line == 0 && err->col == 0);
        return;
    }
    FUZZ_REQUIRE(err->line >= 1 && err->col >= 1);
    FUZZ_REQUIRE(err->line <= fuzz_line_count(data, size));
    FUZZ_REQUIRE((size_t)err->col <= size + 1);
    FUZZ_REQUIRE(strchr(err->msg, '\n') == NULL);
}

/* Parse options varied by the input itself: lenient when the size is odd. */
static inline mc_parse_opts fuzz_opts(size_t size)
{
    mc_parse_opts o = { .lenient = (size & 1) != 0 };

    return o;
}

/* Growing text buffer for round trips (open_memstream). */
typedef struct fuzz_text {
    char *buf;
    size_t len;
    FILE *f;
} fuzz_text;

static inline void fuzz_text_open(fuzz_text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    FUZZ_REQUIRE(t->f != NULL);
}

static inline void fuzz_text_close(fuzz_text *t)
{
    FUZZ_REQUIRE(fclose(t->f) == 0);
    t->f = NULL;
}

/* Same float, bit for bit (a round trip through %.9g is exact for float). */
static inline int fuzz_same_float(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

#endif
