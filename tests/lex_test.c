/* The token reader: token kinds, positions, number forms, and lexical errors. Expected values
 * are read off the input text by hand (columns counted in bytes from 1). */
#include <stdlib.h>

#include "formats/lex.h"
#include "test.h"

/* Lexes a NUL-terminated text passed as exactly strlen(text) bytes. */
static void start(mc_lexer *lx, const char *text, mc_error *err)
{
    memset(err, 0, sizeof *err);
    mc_lex_init(lx, text, strlen(text), "t.txt", NULL, err);
}

TEST(reads_every_number_form)
{
    /* Each value written by hand next to its text. */
    static const struct {
        const char *text;
        double value;
        bool is_int;
    } cases[] = {
        { "12", 12.0, true },      { "-3", -3.0, true },        { "0.5", 0.5, false },
        { ".5", 0.5, false },      { "5.", 5.0, false },        { "-.5", -0.5, false },
        { "-0", 0.0, true },       { "1e-05", 0.00001, false }, { "2.5E+3", 2500.0, false },
        { "2.5e3", 2500.0, false }, { "010", 10.0, true },      { "-0.000000", 0.0, false },
    };
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        mc_lexer lx;
        mc_error err;
        mc_token t;

        start(&lx, cases[i].text, &err);
        ASSERT(mc_lex_next(&lx, &t));
        EXPECT_EQ_INT(t.kind, MC_TOK_NUMBER);
        EXPECT_NEAR(t.num, cases[i].value, 1e-12);
        EXPECT_EQ_INT(t.is_int, cases[i].is_int);
        EXPECT_EQ_INT(t.len, strlen(cases[i].text));
        ASSERT(mc_lex_next(&lx, &t));
        EXPECT_EQ_INT(t.kind, MC_TOK_EOF);
    }
}

TEST(negative_zero_keeps_its_sign)
{
    mc_lexer lx;
    mc_error err;
    float f = 0.0f;

    start(&lx, "-0", &err);
    ASSERT(mc_lex_float(&lx, &f, NULL));
    EXPECT(signbit(f));
}

TEST(records_line_and_column_of_every_token)
{
    /* line 1: "MD5Version" at col 1, "10" at col 12; line 2: tab then '{' at col 2, the string
     * at col 4; line 4 (the rest of a two-line block comment, then " )") has the ")" at col 7. */
    const char *text = "MD5Version 10\n\t{ \"a b\" // c\n/* x\n y */ )";
    mc_lexer lx;
    mc_error err;
    mc_token t;
    const int expect[][3] = {
        { MC_TOK_NAME, 1, 1 },   { MC_TOK_NUMBER, 1, 12 }, { MC_TOK_PUNCT, 2, 2 },
        { MC_TOK_STRING, 2, 4 }, { MC_TOK_PUNCT, 4, 7 },   { MC_TOK_EOF, 4, 8 },
    };

    start(&lx, text, &err);
    for (size_t i = 0; i < TEST_COUNT(expect); i++) {
        ASSERT(mc_lex_next(&lx, &t));
        EXPECT_EQ_INT(t.kind, expect[i][0]);
        EXPECT_EQ_INT(t.line, expect[i][1]);
        EXPECT_EQ_INT(t.col, expect[i][2]);
    }
}

TEST(crlf_line_ends_leave_columns_alone)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "a\r\n  b\r\n", &err);
    ASSERT(mc_lex_next(&lx, &t));
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_is(&t, "b"));
    EXPECT_EQ_INT(t.line, 2);
    EXPECT_EQ_INT(t.col, 3);
}

TEST(skips_a_byte_order_mark_at_the_start)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "\xEF\xBB\xBFnumJoints 1", &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_is(&t, "numJoints"));
    EXPECT_EQ_INT(t.col, 1);
}

TEST(backslashes_in_strings_are_ordinary)
{
    mc_lexer lx;
    mc_error err;
    const char *s;
    size_t n;

    start(&lx, "\"C:\\Users\\x.png\"", &err);
    ASSERT(mc_lex_string(&lx, &s, &n, NULL));
    EXPECT_EQ_INT(n, 14);
    EXPECT(memcmp(s, "C:\\Users\\x.png", 14) == 0);
}

TEST(high_bytes_are_fine_inside_strings_and_comments)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "\"Par d\xE9" "faut\" // caf\xE9\n/* \xFF */ x", &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT_EQ_INT(t.kind, MC_TOK_STRING);
    EXPECT_EQ_INT(t.len, 10); /* P a r space d 0xE9 f a u t */
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_is(&t, "x"));
}

TEST(names_take_path_characters)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "models/a\\b:c.tga .x", &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT_EQ_INT(t.kind, MC_TOK_NAME);
    EXPECT(mc_lex_is(&t, "models/a\\b:c.tga"));
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_is(&t, ".x"));
}

TEST(reads_exactly_len_bytes)
{
    /* "12345" passed as 2 bytes is the number 12: nothing past len is looked at. */
    mc_lexer lx;
    mc_error err;
    mc_token t;

    memset(&err, 0, sizeof err);
    mc_lex_init(&lx, "12345", 2, "t", NULL, &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT_NEAR(t.num, 12.0, 0.0);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT_EQ_INT(t.kind, MC_TOK_EOF);
}

TEST(peek_does_not_consume)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;
    bool found;

    start(&lx, "a b", &err);
    ASSERT(mc_lex_peek(&lx, &t));
    EXPECT(mc_lex_is(&t, "a"));
    ASSERT(mc_lex_accept(&lx, "x", &found));
    EXPECT(!found);
    ASSERT(mc_lex_accept(&lx, "a", &found));
    EXPECT(found);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_is(&t, "b"));
}

TEST(expect_matches_a_quoted_keyword)
{
    mc_lexer lx;
    mc_error err;

    start(&lx, "\"joints\" {", &err);
    EXPECT(mc_lex_expect(&lx, "joints"));
    EXPECT(mc_lex_expect(&lx, "{"));
}

/* Reads every token of row `row`'s text (as floats where numbers) until an error; checks its
 * record. */
static void check_error(const test_error_case *c, size_t row)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;
    bool ok = true;

    start(&lx, c->input, &err);
    for (int i = 0; i < 100 && ok; i++) {
        ok = mc_lex_peek(&lx, &t);
        if (!ok || t.kind == MC_TOK_EOF)
            break;
        if (t.kind == MC_TOK_NUMBER && !t.is_int) {
            float f;
            ok = mc_lex_float(&lx, &f, NULL);
        } else if (t.kind == MC_TOK_NUMBER) {
            int v;
            ok = mc_lex_int(&lx, &v, NULL);
        } else if (t.kind == MC_TOK_NAME && (mc_lex_is(&t, "nan") || mc_lex_is(&t, "inf"))) {
            float f;
            ok = mc_lex_float(&lx, &f, NULL);
        } else {
            ok = mc_lex_next(&lx, &t);
        }
    }
    if (ok) {
        test_fail(__FILE__, __LINE__, "no error for \"%s\"", c->input);
        return;
    }
    EXPECT_ERROR_IS(c, err.code, &err, row);
    EXPECT_EQ_STR(err.file, "t.txt");
}

TEST(reports_lexical_errors_at_the_token)
{
    /* Columns counted by hand in each text. */
    static const test_error_case cases[] = {
        { "x nan", MC_ERR_SYNTAX, 1, 3, "expected number, found 'nan'" },
        { "inf", MC_ERR_SYNTAX, 1, 1, "expected number, found 'inf'" },
        { "( 1.#INF )", MC_ERR_SYNTAX, 1, 3, "malformed number '1.#INF'" },
        { "\n  1.2.3", MC_ERR_SYNTAX, 2, 3, "malformed number '1.2.3'" },
        { "1.5f", MC_ERR_SYNTAX, 1, 1, "malformed number '1.5f'" },
        { "1e", MC_ERR_SYNTAX, 1, 1, "malformed number '1e'" },
        { "a 1e999", MC_ERR_RANGE, 1, 3, "number '1e999' is out of range" },
        { "3e38 4e38", MC_ERR_RANGE, 1, 6, "number '4e38' is out of range" },
        { "2147483648", MC_ERR_RANGE, 1, 1, "integer '2147483648' is out of range" },
        { "a \"b\nc\"", MC_ERR_SYNTAX, 1, 3, "newline inside string" },
        { "a\n \"bc", MC_ERR_SYNTAX, 2, 2, "missing closing quote" },
        { "a /* b\n c", MC_ERR_SYNTAX, 1, 3, "unterminated comment" },
        { "ab \xE9", MC_ERR_SYNTAX, 1, 4, "unexpected byte 0xe9" },
        { "a\x01", MC_ERR_SYNTAX, 1, 2, "unexpected byte 0x01" },
        { "a @", MC_ERR_SYNTAX, 1, 3, "unexpected character '@'" },
        { "- 1", MC_ERR_SYNTAX, 1, 1, "unexpected character '-'" },
        { "+1", MC_ERR_SYNTAX, 1, 1, "unexpected character '+'" },
    };
    for (size_t i = 0; i < TEST_COUNT(cases); i++)
        check_error(&cases[i], i);
}

TEST(an_embedded_nul_byte_is_an_error)
{
    /* "a \0 b" as 5 bytes: the NUL is at column 3. */
    mc_lexer lx;
    mc_error err;
    mc_token t;

    memset(&err, 0, sizeof err);
    mc_lex_init(&lx, "a \0 b", 5, "t", NULL, &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(!mc_lex_next(&lx, &t));
    EXPECT_AT(&err, 1, 3, "NUL");
}

TEST(integers_reject_fractions)
{
    mc_lexer lx;
    mc_error err;
    int v;

    start(&lx, "29.97", &err);
    EXPECT(!mc_lex_int(&lx, &v, NULL));
    EXPECT_EQ_STR(err.msg, "expected integer, found '29.97'");
}

TEST(a_failed_lexer_stays_failed)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "@ a b", &err);
    EXPECT(!mc_lex_next(&lx, &t));
    EXPECT(!mc_lex_next(&lx, &t));
    EXPECT(!mc_lex_peek(&lx, &t));
    EXPECT_EQ_INT(err.col, 1);
}

TEST(count_is_checked_against_remaining_bytes)
{
    /* After "numverts 1000000" 4 bytes remain (" x y"): 1000000 items of >= 10 bytes cannot
     * fit. */
    mc_lexer lx;
    mc_error err;
    int n;

    start(&lx, "numverts 1000000 x y", &err);
    EXPECT(!mc_lex_count(&lx, "numverts", 0, 1 << 24, 10, &n, NULL));
    EXPECT_EQ_STR(mc_status_name(err.code), "MC_ERR_LIMIT");
    EXPECT_EQ_INT(err.col, 10);
    start(&lx, "numverts -1", &err);
    EXPECT(!mc_lex_count(&lx, "numverts", 0, 1 << 24, 10, &n, NULL));
    EXPECT_EQ_STR(mc_status_name(err.code), "MC_ERR_RANGE");
    start(&lx, "numverts 2 aaaaaaaaaaaaaaaaaaaaaaaaaa", &err);
    EXPECT(mc_lex_count(&lx, "numverts", 0, 1 << 24, 10, &n, NULL));
    EXPECT_EQ_INT(n, 2);
}

TEST(trailing_data_is_an_error)
{
    mc_lexer lx;
    mc_error err;
    mc_token t;

    start(&lx, "a\n x", &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(!mc_lex_expect_eof(&lx));
    EXPECT_EQ_STR(err.msg, "unexpected 'x' after the end of the file's data");
    EXPECT_EQ_INT(err.line, 2);
    EXPECT_EQ_INT(err.col, 2);
}

TEST(describe_escapes_and_shortens)
{
    mc_token t = { .kind = MC_TOK_STRING, .text = "d\xE9" "f", .len = 3 };
    char buf[80];
    char longtext[200];

    EXPECT_EQ_STR(mc_lex_describe(&t, buf, sizeof buf), "'d\\xE9f'");
    memset(longtext, 'a', sizeof longtext);
    t.text = longtext;
    t.len = sizeof longtext;
    mc_lex_describe(&t, buf, sizeof buf);
    EXPECT(strlen(buf) < sizeof buf);
    EXPECT_CONTAINS(buf, "...");
}

TEST(warnings_reach_the_callback_with_a_position)
{
    test_warnings log = { 0 };
    mc_parse_opts opts = { .lenient = true, .warn = test_record_warning, .warn_user = &log };
    mc_lexer lx;
    mc_error err;
    mc_token t;

    mc_lex_init(&lx, "\n  x", 4, "w.txt", &opts, &err);
    ASSERT(mc_lex_next(&lx, &t));
    EXPECT(mc_lex_lenient(&lx));
    mc_lex_warn(&lx, &t, MC_ERR_SYNTAX, "odd %s", "thing");
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_EQ_INT(log.last.line, 2);
    EXPECT_EQ_INT(log.last.col, 3);
    EXPECT_EQ_STR(log.last.msg, "odd thing");
    EXPECT_EQ_STR(log.last.file, "w.txt");
}
