/* mc_error_format_cached (error.h): the source line of a record found through a cache that marks
 * every 1024th line, in order, out of order, past the end, across files and pieces. The files
 * are written here with known text ("line N" on line N), so each expected line is known without
 * the code under test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/error_source.h>

#include "test.h"

/* n lines "line 1" ... "line n", each ended by ending ("\n" or "\r\n"), the last one too unless
 * last_open; returns the path. */
static void write_lines(char *path, size_t cap, const char *name, int n, const char *ending,
                        bool last_open)
{
    FILE *f;

    test_tmp_path(path, cap, name);
    f = fopen(path, "wb");
    ASSERT(f);
    for (int i = 1; i <= n; i++)
        fprintf(f, "line %d%s", i, i == n && last_open ? "" : ending);
    fclose(f);
}

/* The second line of the formatted record ("%5d | SOURCE"), or "" when there is none. */
static void source_of(const char *path, int line, mc_source_cache *cache, char *out, size_t cap)
{
    mc_error e;
    char text[2048];
    const char *bar, *nl;

    mc_error_set(&e, MC_ERR_SYNTAX, path, line, 1, "m");
    mc_error_format_cached(&e, "warning", cache, text, sizeof text);
    bar = strchr(text, '\n');
    out[0] = '\0';
    if (!bar || !bar[1])
        return;
    bar = strstr(bar, " | ");
    nl = bar ? strchr(bar, '\n') : NULL;
    if (bar && nl)
        snprintf(out, cap, "%.*s", (int)(nl - bar - 3), bar + 3);
}

TEST(lines_in_order_out_of_order_and_past_the_end)
{
    char path[1024], got[256], want[32];
    mc_source_cache c;
    static const int order[] = { 1, 2, 1024, 1025, 1026, 3000, 5, 2049, 2048, 1025, 2999, 1 };

    write_lines(path, sizeof path, "lines.txt", 3000, "\n", false);
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        snprintf(want, sizeof want, "line %d", order[i]);
        source_of(path, order[i], &c, got, sizeof got);
        EXPECT_EQ_STR(got, want);
    }
    /* 3000 lines: marks at lines 1, 1025 and 2049 (1 + 1024 i). */
    EXPECT_EQ_INT(c.num_marks, 3);
    EXPECT_EQ_INT(c.marks[1], 9 * 7 + 90 * 8 + 900 * 9 + 25 * 10); /* "line 1".."line 1024" */
    /* a line after the last newline's line 3001 is empty; 3002 is past the end */
    source_of(path, 3001, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "");
    source_of(path, 3002, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "");
    source_of(path, 7, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "line 7");
    mc_source_cache_release(&c);
    EXPECT_EQ_INT(c.num_marks, 0);
    EXPECT(c.marks == NULL && c.file[0] == '\0');
}

TEST(another_file_replaces_the_cache_and_crlf_ends_a_line)
{
    char a[1024], b[1024], got[256];
    mc_source_cache c;

    write_lines(a, sizeof a, "a.txt", 2100, "\r\n", false);
    write_lines(b, sizeof b, "b.txt", 5, "\n", true);
    memset(&c, 0, sizeof c);
    source_of(a, 2050, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "line 2050");
    source_of(b, 5, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "line 5"); /* the last line, without a newline */
    EXPECT_EQ_STR(c.file, b);
    source_of(b, 6, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "");
    source_of(a, 2, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "line 2");
    mc_source_cache_release(&c);
}

/* A line longer than a read piece (64 KiB) and lines across a piece's end: the 1023 bytes of
 * source the record keeps are those of the line, and the lines after it are found. */
TEST(long_lines_across_pieces)
{
    char path[1024], got[2048], want[1024];
    mc_source_cache c;
    FILE *f;

    test_tmp_path(path, sizeof path, "long.txt");
    f = fopen(path, "wb");
    ASSERT(f);
    fputs("short\n", f);
    for (int i = 0; i < 70000; i++)
        fputc('a' + i % 26, f);
    fputs("\nafter\n", f);
    fclose(f);
    for (int i = 0; i < 1023; i++)
        want[i] = (char)('a' + i % 26);
    want[1023] = '\0';
    memset(&c, 0, sizeof c);
    source_of(path, 2, &c, got, sizeof got);
    EXPECT_EQ_STR(got, want);
    source_of(path, 3, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "after");
    source_of(path, 1, NULL, got, sizeof got);
    EXPECT_EQ_STR(got, "short");
    source_of(path, 3, NULL, got, sizeof got);
    EXPECT_EQ_STR(got, "after");
    mc_source_cache_release(&c);
}

TEST(an_unreadable_file_has_no_source_line)
{
    char got[256];
    mc_source_cache c;

    memset(&c, 0, sizeof c);
    source_of("/nonexistent/x.md5mesh", 3, &c, got, sizeof got);
    EXPECT_EQ_STR(got, "");
    mc_source_cache_release(&c);
    mc_source_cache_release(NULL);
}
