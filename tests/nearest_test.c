/* mc_nearest_word: the "did you mean" hint. Distances are counted by hand in the comments
 * (edits: insert, delete, substitute, swap two adjacent bytes). */
#include <string.h>

#include "core/nearest.h"
#include "test.h"

static const char *const light_words[] = { "origin", "radius", "color", "target", "right",
                                           "up",     "start",  "end",   "noShadows", "shader" };
#define N_LIGHT (sizeof light_words / sizeof light_words[0])

static const char *near(const char *w)
{
    return mc_nearest_word(w, strlen(w), light_words, N_LIGHT);
}

static void one_edit_finds_the_keyword(void)
{
    EXPECT_EQ_STR(near("orgin"), "origin");     /* 'i' inserted */
    EXPECT_EQ_STR(near("colour"), "color");     /* 'u' deleted */
    EXPECT_EQ_STR(near("shaded"), "shader");    /* d -> r */
    EXPECT_EQ_STR(near("noshadows"), "noShadows"); /* s -> S: case counts */
}

static void a_swap_of_neighbours_costs_one(void)
{
    /* raduis -> radius swaps 'u' and 'i': 1. ned -> end swaps 'n' and 'e': 1, and 2 * 1 < 3;
     * plain Levenshtein would count 2 (two substitutions), too far for a 3-byte word. */
    EXPECT_EQ_STR(near("raduis"), "radius");
    EXPECT_EQ_STR(near("ned"), "end");
}

static void two_edits_need_five_bytes(void)
{
    /* shdar -> shader: insert 'a' after 'h', a -> e: 2; 2 * 2 < 5 */
    EXPECT_EQ_STR(near("shdar"), "shader");
    /* tgt -> target is 3 (insert a, r, e); rigt -> right 1; rgt -> right 2 but 2 * 2 < 3 fails */
    EXPECT(near("tgt") == NULL);
    EXPECT_EQ_STR(near("rigt"), "right");
    EXPECT(near("rgt") == NULL);
}

static void short_words_get_no_guess(void)
{
    /* "un" is 1 from "up", but 2 * 1 < 2 fails: a two-letter word is never guessed at */
    EXPECT(near("un") == NULL);
    EXPECT(near("") == NULL);
}

static void three_edits_are_too_far(void)
{
    /* xxxius -> radius: three substitutions */
    EXPECT(near("xxxius") == NULL);
    /* xxdius -> radius: two */
    EXPECT_EQ_STR(near("xxdius"), "radius");
    EXPECT(near("fighter") == NULL);
}

static void an_exact_word_is_not_a_mistake(void)
{
    EXPECT(near("origin") == NULL);
}

static void ties_go_to_the_first(void)
{
    static const char *const w[] = { "mesh", "mash" };

    /* mush: 1 from each */
    EXPECT_EQ_STR(mc_nearest_word("mush", 4, w, 2), "mesh");
}

static void the_word_is_its_length_not_its_terminator(void)
{
    /* the first 5 bytes of "orgins and more": "orgin" */
    EXPECT_EQ_STR(mc_nearest_word("orgins and more", 5, light_words, N_LIGHT), "origin");
}

static void null_entries_and_long_words_are_passed_over(void)
{
    static const char *const w[] = { NULL, "skin", NULL };
    char longw[200];

    EXPECT_EQ_STR(mc_nearest_word("skn", 3, w, 3), "skin");
    memset(longw, 'a', sizeof longw);
    EXPECT(mc_nearest_word(longw, sizeof longw, w, 3) == NULL);
    EXPECT(mc_nearest_word(NULL, 0, w, 3) == NULL);
}

static void nocase_compares_letters_without_case(void)
{
    static const char *const w[] = { "diffusemap", "bumpmap", "alphaTest" };

    /* DifuseMap: 'f' inserted, D and M equal to d and m without case: 1 (with case: 3) */
    EXPECT_EQ_STR(mc_nearest_word_nocase("DifuseMap", 9, w, 3), "diffusemap");
    EXPECT(mc_nearest_word("DifuseMap", 9, w, 3) == NULL);
    /* ALPHATEST is alphaTest: no mistake */
    EXPECT(mc_nearest_word_nocase("ALPHATEST", 9, w, 3) == NULL);
    /* alphatset: swap of 's' and 'e', t against T without case: 1 */
    EXPECT_EQ_STR(mc_nearest_word_nocase("alphatset", 9, w, 3), "alphaTest");
}

static void the_hint_has_one_format(void)
{
    char buf[64];

    EXPECT_EQ_STR(mc_nearest_hint(buf, sizeof buf, "orgin", 5, light_words, N_LIGHT),
                  " (did you mean 'origin'?)");
    EXPECT_EQ_STR(mc_nearest_hint(buf, sizeof buf, "zzzzzz", 6, light_words, N_LIGHT), "");
}

int main(int argc, char **argv)
{
    static const test_case cases[] = {
        TEST_ENTRY(one_edit_finds_the_keyword),
        TEST_ENTRY(a_swap_of_neighbours_costs_one),
        TEST_ENTRY(two_edits_need_five_bytes),
        TEST_ENTRY(short_words_get_no_guess),
        TEST_ENTRY(three_edits_are_too_far),
        TEST_ENTRY(an_exact_word_is_not_a_mistake),
        TEST_ENTRY(ties_go_to_the_first),
        TEST_ENTRY(the_word_is_its_length_not_its_terminator),
        TEST_ENTRY(null_entries_and_long_words_are_passed_over),
        TEST_ENTRY(nocase_compares_letters_without_case),
        TEST_ENTRY(the_hint_has_one_format),
    };
    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
