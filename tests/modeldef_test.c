/* Model declarations of def files (src/formats/modeldef.h): what a declaration holds, how the
 * rest of a def file is passed over, and a golden table of errors with their positions
 * (counted by hand in the inputs). */
#include <math.h>
#include <string.h>

#include "formats/modeldef.h"
#include "test.h"

static mc_status find(const char *text, const char *name, mc_arena *a, mc_modeldef *m, bool *found,
                      mc_error *err)
{
    return mc_modeldef_find(text, strlen(text), "t.def", name, a, m, found, err);
}

static void reads_mesh_skin_offset_and_anims(void)
{
    const char *text = "entityDef monster_x {\n"                                    /* 1 */
                       "    \"model\" \"x\" // model x { a body-like value }\n"     /* 2 */
                       "}\n"                                                        /* 3 */
                       "model X {\n"                                                /* 4 */
                       "    inherit base\n"                                         /* 5 */
                       "    mesh models\\x\\x.md5mesh\n"                            /* 6 */
                       "    skin skins/x_red\n"                                     /* 7 */
                       "    offset ( 1 -2 .5 )\n"                                   /* 8 */
                       "    channel torso ( *Waist -Hips )\n"                       /* 9 */
                       "    anim idle1 models/x/idle.md5anim\n"                     /* 10 */
                       "    anim walk models/x/w1.md5anim, models/x/w2.md5anim {\n" /* 11 */
                       "        frame 3 sound_body snd_step; call 'q' $ } \n"       /* 12 */
                       "    remove pain\n"                                          /* 13 */
                       "}\n";
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;

    ASSERT_OK(find(text, "x", &a, &m, &found, &err), &err);
    ASSERT(found);
    EXPECT_EQ_STR(m.name, "X");
    EXPECT_EQ_INT(m.line, 4);
    EXPECT_EQ_INT(m.col, 7);
    EXPECT_EQ_STR(m.inherit, "base");
    EXPECT_EQ_STR(m.mesh, "models/x/x.md5mesh");
    EXPECT_EQ_STR(m.skin, "skins/x_red");
    EXPECT(m.has_offset);
    EXPECT_NEAR(m.offset[0], 1, 0);
    EXPECT_NEAR(m.offset[1], -2, 0);
    EXPECT_NEAR(m.offset[2], 0.5, 0);
    ASSERT(m.num_anims == 3);
    EXPECT_EQ_STR(m.anims[0].name, "idle1");
    EXPECT_EQ_STR(m.anims[0].path, "models/x/idle.md5anim");
    EXPECT_EQ_STR(m.anims[1].name, "walk");
    EXPECT_EQ_STR(m.anims[1].path, "models/x/w1.md5anim");
    EXPECT_EQ_INT(m.anims[1].line, 11);
    EXPECT_EQ_INT(m.anims[1].col, 10);
    EXPECT(!m.anims[1].remove);
    EXPECT_EQ_STR(m.anims[2].name, "pain");
    EXPECT(m.anims[2].remove && m.anims[2].path == NULL);
    mc_arena_release(&a);
}

static void passes_over_other_declarations_and_stops_at_nul(void)
{
    const char text[] = "model a { mesh a.md5mesh }\n"
                        "export x { options -prefix X_ }\n"
                        "model b { mesh first.md5mesh }\n"
                        "model b { mesh second.md5mesh }\n"
                        "model c { mesh c.md5mesh }";
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;

    ASSERT_OK(find(text, "B", &a, &m, &found, &err), &err);
    ASSERT(found);
    EXPECT_EQ_STR(m.mesh, "first.md5mesh"); /* the first of a name */
    ASSERT_OK(find(text, NULL, &a, &m, &found, &err), &err);
    EXPECT(found && strcmp(m.name, "a") == 0);
    ASSERT_OK(find(text, "nosuch", &a, &m, &found, &err), &err);
    EXPECT(!found);
    /* a NUL byte ends the text, as Doom's lexer stops there */
    ASSERT_OK(mc_modeldef_find(text, sizeof text - 1, "t.def", "c", &a, &m, &found, &err), &err);
    EXPECT(found);
    {
        char cut[sizeof text];

        memcpy(cut, text, sizeof text);
        cut[strlen("model a { mesh a.md5mesh }\n")] = '\0';
        ASSERT_OK(mc_modeldef_find(cut, sizeof cut - 1, "t.def", "c", &a, &m, &found, &err), &err);
        EXPECT(!found);
    }
    mc_arena_release(&a);
}

typedef struct golden {
    const char *input;
    mc_status code;
    int line, col;
    const char *msg;
} golden;

static const golden GOLDEN[] = {
    { "model a {\n mesh a.lwo\n}", MC_ERR_SYNTAX, 2, 7,
      "expected a .md5mesh file after 'mesh', found 'a.lwo'" },
    { "model a {\n wobble 1\n}", MC_ERR_SYNTAX, 2, 2, "unknown keyword 'wobble' in model 'a'" },
    { "model a {\n anim walk\n}", MC_ERR_SYNTAX, 3, 1, "expected a name after 'walk', found '}'" },
    { "model a {\n anim walk w.md5mesh\n}", MC_ERR_SYNTAX, 2, 12,
      "expected a .md5anim file for anim 'walk', found 'w.md5mesh'" },
    { "model a {\n anim 12 w.md5anim\n}", MC_ERR_SYNTAX, 2, 7, "invalid animation name '12'" },
    { "model a {\n anim w x.md5anim\n anim w y.md5anim\n}", MC_ERR_SYNTAX, 3, 7,
      "duplicate anim 'w' (first given at line 2)" },
    { "model a {\n anim w x.md5anim {\n frame 1 x\n", MC_ERR_SYNTAX, 2, 19,
      "end of file inside the frame commands of anim 'w'" },
    { "model a {\n offset ( 1 2 )\n}", MC_ERR_SYNTAX, 2, 15, "expected number, found ')'" },
    { "model a {\n channel torso ( x\n}", MC_ERR_SYNTAX, 3, 1,
      "expected ')' closing channel 'torso' opened at line 2, column 16" },
    { "model a {\n mesh a.md5mesh\n", MC_ERR_SYNTAX, 3, 1,
      "end of file inside model 'a' opened at line 1, column 9" },
    { "model a (", MC_ERR_SYNTAX, 1, 9, "expected '{', found '('" },
    { "model a {\n ( }", MC_ERR_SYNTAX, 2, 2, "unexpected '(' in model 'a'" },
};

static void reports_golden_errors_at_their_positions(void)
{
    for (size_t i = 0; i < TEST_COUNT(GOLDEN); i++) {
        const golden *g = &GOLDEN[i];
        mc_arena a = { 0 };
        mc_modeldef m;
        mc_error err;
        bool found;
        mc_status st = find(g->input, "a", &a, &m, &found, &err);

        if (st != g->code || err.line != g->line || err.col != g->col || !strstr(err.msg, g->msg))
            test_fail(__FILE__, __LINE__,
                      "row %zu: got %d at %d:%d '%s', expected %d at %d:%d '%s'", i, (int)st,
                      err.line, err.col, err.msg, (int)g->code, g->line, g->col, g->msg);
        EXPECT(found && m.name == NULL && m.num_anims == 0);
        EXPECT_EQ_STR(err.file, "t.def");
        mc_arena_release(&a);
    }
}

int main(int argc, char **argv)
{
    static const test_case cases[] = {
        TEST_ENTRY(reads_mesh_skin_offset_and_anims),
        TEST_ENTRY(passes_over_other_declarations_and_stops_at_nul),
        TEST_ENTRY(reports_golden_errors_at_their_positions),
    };

    return test_run(argc, argv, cases, TEST_COUNT(cases));
}
