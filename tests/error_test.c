/* mc_error_format / mc_error_format_source (error.h): the command's message, source line and
 * caret, written into a caller's buffer. Expected texts are written out by hand from the
 * contract in error.h; the last case checks that the command prints exactly what the library
 * formats (src/cli/diag.c prints through it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/error.h>
#include <md5cine/error_source.h>
#include <md5cine/md5mesh.h>

#include "test.h"

static mc_error record(const char *file, int line, int col, const char *msg)
{
    mc_error e;

    mc_error_set(&e, MC_ERR_SYNTAX, file, line, col, "%s", msg);
    return e;
}

TEST(positioned_error_has_source_and_caret)
{
    mc_error e = record("walk.md5anim", 211, 5, "frame 7 has 118 values, expected 120");
    char out[512];
    size_t n = mc_error_format_source(&e, "error", "\tab cd", out, sizeof out);
    /* col 5 of "\tab cd" is 'c' after tab, 'a', 'b', ' ': the tab is kept, then 3 spaces */
    const char *want = "walk.md5anim:211:5: error: frame 7 has 118 values, expected 120\n"
                       "  211 | \tab cd\n"
                       "      | \t   ^\n";

    EXPECT_EQ_STR(out, want);
    EXPECT_EQ_INT(n, strlen(want));
}

TEST(severity_defaults_to_error_and_warning_is_kept)
{
    mc_error e = record("a.mtr", 2, 1, "unknown keyword 'x'");
    char out[256];

    mc_error_format_source(&e, NULL, NULL, out, sizeof out);
    EXPECT_EQ_STR(out, "a.mtr:2:1: error: unknown keyword 'x'\n");
    mc_error_format_source(&e, "warning", "x", out, sizeof out);
    EXPECT_EQ_STR(out, "a.mtr:2:1: warning: unknown keyword 'x'\n    2 | x\n      | ^\n");
}

TEST(without_position_the_file_is_named_once)
{
    mc_error a = record("f.png", 0, 0, "not a PNG");
    mc_error b = record("out/x.png", 0, 0, "cannot open 'out/x.png': Permission denied");
    mc_error c = record(NULL, 0, 0, "out of memory");
    char out[256];

    mc_error_format_source(&a, "error", "ignored without a line", out, sizeof out);
    EXPECT_EQ_STR(out, "f.png: error: not a PNG\n");
    mc_error_format_source(&b, "error", NULL, out, sizeof out);
    EXPECT_EQ_STR(out, "md5cine: error: cannot open 'out/x.png': Permission denied\n");
    mc_error_format_source(&c, "error", NULL, out, sizeof out);
    EXPECT_EQ_STR(out, "md5cine: error: out of memory\n");
}

TEST(control_bytes_are_escaped_and_the_caret_follows)
{
    /* ESC in the file name; in the source an ESC (byte 1, 4 columns as \x1B), "é" (bytes 2-3,
     * 2 columns), 'a' (byte 4, 1 column), then the token 'b' at byte column 5: 7 spaces. */
    mc_error e = record("a\x1b[2Jb.md5mesh", 1, 5, "bad \x9b token");
    char out[256];

    mc_error_format_source(&e, "error", "\x1b\xc3\xa9" "ab", out, sizeof out);
    EXPECT_EQ_STR(out, "a\\x1B[2Jb.md5mesh:1:5: error: bad \\x9B token\n"
                       "    1 | \\x1B\xc3\xa9" "ab\n"
                       "      |        ^\n");
}

TEST(a_short_buffer_is_cut_and_the_length_is_whole)
{
    mc_error e = record("m.md5mesh", 3, 1, "expected '{'");
    char out[8], big[128];
    size_t n = mc_error_format_source(&e, "error", "x", out, sizeof out);
    size_t m = mc_error_format_source(&e, "error", "x", big, sizeof big);

    EXPECT_EQ_INT(n, m);
    EXPECT_EQ_INT(strlen(out), 7);
    EXPECT(strncmp(out, big, 7) == 0);
    EXPECT_EQ_INT(mc_error_format_source(&e, "error", "x", NULL, 0), m);
}

/* The library reads the source line from the file; the command prints the same bytes. */
TEST(the_command_prints_what_mc_error_format_writes)
{
    const char *bin = getenv("MD5CINE");
    char path[1024], errpath[1024], cmd[4096], want[1024], got[1024] = "";
    mc_mesh mesh;
    mc_error e;
    FILE *f;
    size_t n;

    test_tmp_path(path, sizeof path, "bad.md5mesh");
    test_tmp_path(errpath, sizeof errpath, "bad.err");
    f = fopen(path, "w");
    ASSERT(f);
    fputs("MD5Version 10\ncommandline \"\"\n\nnumJoints\t1 numMeshes 1\n\tjoints {\n\t\t\"origin\" "
          "-1 ( 0 0 0 ) ( 0 0 0 ) x\n\t}\n",
          f);
    fclose(f);
    ASSERT(mc_mesh_load(path, NULL, &mesh, &e) != MC_OK);
    EXPECT_EQ_INT(e.line, 6);
    mc_error_format(&e, "error", want, sizeof want);
    EXPECT_CONTAINS(want, "    6 | \t\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 ) x\n      | \t\t");
    ASSERT(bin && !strchr(bin, '\'') && !strchr(path, '\''));
    snprintf(cmd, sizeof cmd, "'%s' info '%s' 2>'%s' >/dev/null", bin, path, errpath);
    EXPECT(system(cmd) != 0);
    f = fopen(errpath, "r");
    ASSERT(f);
    n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    EXPECT_EQ_STR(got, want);
}
