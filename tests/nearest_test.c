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

TEST(one_edit_finds_the_keyword)
{
    EXPECT_EQ_STR(near("orgin"), "origin");     /* 'i' inserted */
    EXPECT_EQ_STR(near("colour"), "color");     /* 'u' deleted */
    EXPECT_EQ_STR(near("shaded"), "shader");    /* d -> r */
    EXPECT_EQ_STR(near("noshadows"), "noShadows"); /* s -> S: case counts */
}

TEST(a_swap_of_neighbours_costs_one)
{
    /* raduis -> radius swaps 'u' and 'i': 1. ned -> end swaps 'n' and 'e': 1, and 2 * 1 < 3;
     * plain Levenshtein would count 2 (two substitutions), too far for a 3-byte word. */
    EXPECT_EQ_STR(near("raduis"), "radius");
    EXPECT_EQ_STR(near("ned"), "end");
}

TEST(two_edits_need_five_bytes)
{
    /* shdar -> shader: insert 'a' after 'h', a -> e: 2; 2 * 2 < 5 */
    EXPECT_EQ_STR(near("shdar"), "shader");
    /* tgt -> target is 3 (insert a, r, e); rigt -> right 1; rgt -> right 2 but 2 * 2 < 3 fails */
    EXPECT(near("tgt") == NULL);
    EXPECT_EQ_STR(near("rigt"), "right");
    EXPECT(near("rgt") == NULL);
}

TEST(short_words_get_no_guess)
{
    /* "un" is 1 from "up", but 2 * 1 < 2 fails: a two-letter word is never guessed at */
    EXPECT(near("un") == NULL);
    EXPECT(near("") == NULL);
}

TEST(three_edits_are_too_far)
{
    /* xxxius -> radius: three substitutions */
    EXPECT(near("xxxius") == NULL);
    /* xxdius -> radius: two */
    EXPECT_EQ_STR(near("xxdius"), "radius");
    EXPECT(near("fighter") == NULL);
}

TEST(an_exact_word_is_not_a_mistake)
{
    EXPECT(near("origin") == NULL);
}

TEST(ties_go_to_the_first)
{
    static const char *const w[] = { "mesh", "mash" };

    /* mush: 1 from each */
    EXPECT_EQ_STR(mc_nearest_word("mush", 4, w, 2), "mesh");
}

TEST(the_word_is_its_length_not_its_terminator)
{
    /* the first 5 bytes of "orgins and more": "orgin" */
    EXPECT_EQ_STR(mc_nearest_word("orgins and more", 5, light_words, N_LIGHT), "origin");
}

TEST(null_entries_and_long_words_are_passed_over)
{
    static const char *const w[] = { NULL, "skin", NULL };
    char longw[200];

    EXPECT_EQ_STR(mc_nearest_word("skn", 3, w, 3), "skin");
    memset(longw, 'a', sizeof longw);
    EXPECT(mc_nearest_word(longw, sizeof longw, w, 3) == NULL);
    EXPECT(mc_nearest_word(NULL, 0, w, 3) == NULL);
}

TEST(nocase_compares_letters_without_case)
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

TEST(the_hint_has_one_format)
{
    char buf[64];

    EXPECT_EQ_STR(mc_nearest_hint(buf, sizeof buf, "orgin", 5, light_words, N_LIGHT),
                  " (did you mean 'origin'?)");
    EXPECT_EQ_STR(mc_nearest_hint(buf, sizeof buf, "zzzzzz", 6, light_words, N_LIGHT), "");
}
