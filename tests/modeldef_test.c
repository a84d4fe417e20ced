/* Model declarations of def files (src/formats/modeldef.h): what a declaration holds, how the
 * rest of a def file is passed over, and a golden table of errors with their positions
 * (counted by hand in the inputs). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/limits.h>
#include <md5cine/scene.h>

#include "formats/modeldef.h"
#include "test.h"

static mc_status find(const char *text, const char *name, mc_arena *a, mc_modeldef *m, bool *found,
                      mc_error *err)
{
    return mc_modeldef_find(text, strlen(text), "t.def", name, a, m, found, err);
}

TEST(reads_mesh_skin_offset_and_anims)
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
                       "        frame 3 sound_body snd_step } \n"                   /* 12 */
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
    ASSERT(m.anims[1].num_commands == 1);
    EXPECT_EQ_INT(m.anims[1].commands[0].kind, MC_FC_SOUND_BODY);
    EXPECT_EQ_INT(m.anims[0].num_commands, 0);
    EXPECT_EQ_STR(m.anims[2].name, "pain");
    EXPECT(m.anims[2].remove && m.anims[2].path == NULL);
    mc_arena_release(&a);
}

TEST(passes_over_other_declarations_and_stops_at_nul)
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

/* Every command of a block with its frame, kind, arguments and positions (columns counted by
 * hand: the block's lines are indented by 8 spaces, so `frame` is at column 9 and a command
 * word after "frame NN  " at column 19). */
TEST(reads_frame_commands_and_flags)
{
    const char *text = "model m {\n"                                               /* 1 */
                       "    mesh m.md5mesh\n"                                      /* 2 */
                       "    anim walk w.md5anim {\n"                               /* 3 */
                       "        frame 1   sound_voice \"monster_x_sight\"\n"       /* 4 */
                       "        frame 12  sound_body snd_footstep  frame 12 footstep\n" /* 5 */
                       "        prevent_idle_override ai_no_turn\n"                /* 6 */
                       "        frame 20  fire_missile_at_target barrel player1\n" /* 7 */
                       "        frame 21  recordDemo\n"                            /* 8 */
                       "        frame 22  aviGame cine1\n"                         /* 9 */
                       "        frame 30  attach sword hand_r; \"x y\"\n"          /* 10 */
                       "        no_pitch 1\n"                                      /* 11 */
                       "        frame 31  Sound_Body snd_x\n"                      /* 12 */
                       "    }\n"                                                   /* 13 */
                       "}\n";
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;
    const mc_frame_command *c;
    const mc_modeldef_anim *w;

    ASSERT_OK(find(text, "m", &a, &m, &found, &err), &err);
    ASSERT(found && m.num_anims == 1);
    w = &m.anims[0];
    EXPECT_EQ_INT(w->flags, MC_ANIMFLAG_PREVENT_IDLE_OVERRIDE | MC_ANIMFLAG_AI_NO_TURN);
    ASSERT(w->num_commands == 8);
    c = w->commands;
    EXPECT_EQ_INT(c[0].frame, 1);
    EXPECT_EQ_INT(c[0].kind, MC_FC_SOUND_VOICE);
    EXPECT_EQ_STR(c[0].word, "sound_voice");
    EXPECT(c[0].line == 4 && c[0].col == 9 && c[0].word_line == 4 && c[0].word_col == 19);
    ASSERT(c[0].num_args == 1);
    EXPECT_EQ_STR(c[0].args[0].text, "monster_x_sight");
    EXPECT(c[0].args[0].line == 4 && c[0].args[0].col == 31);
    /* two on one line, in file order */
    EXPECT(c[1].frame == 12 && c[1].kind == MC_FC_SOUND_BODY && c[1].col == 9);
    ASSERT(c[1].num_args == 1);
    EXPECT_EQ_STR(c[1].args[0].text, "snd_footstep");
    EXPECT_EQ_INT(c[1].args[0].col, 30);
    EXPECT(c[2].frame == 12 && c[2].kind == MC_FC_FOOTSTEP && c[2].num_args == 0);
    EXPECT(c[2].line == 5 && c[2].col == 44 && c[2].word_col == 53);
    EXPECT(c[3].frame == 20 && c[3].kind == MC_FC_FIRE_MISSILE_AT_TARGET && c[3].num_args == 2);
    EXPECT_EQ_STR(c[3].args[0].text, "barrel");
    EXPECT_EQ_STR(c[3].args[1].text, "player1");
    EXPECT(c[3].args[0].col == 42 && c[3].args[1].col == 49);
    /* the optional argument: none on its line, then one */
    EXPECT(c[4].kind == MC_FC_RECORD_DEMO && c[4].num_args == 0);
    EXPECT(c[5].kind == MC_FC_AVI_GAME && c[5].num_args == 1);
    EXPECT_EQ_STR(c[5].args[0].text, "cine1");
    EXPECT_EQ_INT(c[5].args[0].col, 27);
    /* an unknown command keeps the rest of its line, whatever bytes it holds */
    EXPECT(c[6].frame == 30 && c[6].kind == MC_FC_UNKNOWN);
    EXPECT_EQ_STR(c[6].word, "attach");
    ASSERT(c[6].num_args == 3);
    EXPECT_EQ_STR(c[6].args[0].text, "sword");
    EXPECT_EQ_STR(c[6].args[1].text, "hand_r;");
    EXPECT_EQ_STR(c[6].args[2].text, "x y");
    EXPECT(c[6].args[0].col == 26 && c[6].args[1].col == 32 && c[6].args[2].col == 40);
    /* command words are compared with case, as the engine's idStr == */
    EXPECT(c[7].frame == 31 && c[7].kind == MC_FC_UNKNOWN && c[7].line == 12);
    EXPECT_EQ_STR(c[7].word, "Sound_Body");
    ASSERT(c[7].num_args == 1);
    EXPECT_EQ_STR(c[7].args[0].text, "snd_x");
    /* a word of the block that is no flag: kept with the rest of its line */
    ASSERT(w->num_unknown_flags == 1);
    EXPECT_EQ_STR(w->unknown_flags[0].word, "no_pitch");
    EXPECT(w->unknown_flags[0].frame == 0 && w->unknown_flags[0].line == 11 &&
           w->unknown_flags[0].col == 9);
    ASSERT(w->unknown_flags[0].num_args == 1);
    EXPECT_EQ_STR(w->unknown_flags[0].args[0].text, "1");
    EXPECT_EQ_INT(w->unknown_flags[0].args[0].col, 18);
    mc_arena_release(&a);
}

/* A block on one line: the unknown command's arguments stop at its '}', and the model reads on. */
TEST(reads_a_block_on_one_line)
{
    const char *text = "model m {\n"
                       "    anim idle i.md5anim { frame 2 drop a b } anim run r.md5anim\n"
                       "}\n";
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;

    ASSERT_OK(find(text, "m", &a, &m, &found, &err), &err);
    ASSERT(found && m.num_anims == 2);
    ASSERT(m.anims[0].num_commands == 1);
    EXPECT_EQ_STR(m.anims[0].commands[0].word, "drop");
    EXPECT(m.anims[0].commands[0].frame == 2 && m.anims[0].commands[0].num_args == 2);
    EXPECT_EQ_STR(m.anims[0].commands[0].args[1].text, "b");
    EXPECT_EQ_STR(m.anims[1].name, "run");
    EXPECT_EQ_INT(m.anims[1].num_commands, 0);
    mc_arena_release(&a);
}

/* The table of commands: 41 of them in the engine's order, their arguments and sound channels
 * as AddFrameCommand and CallFrameCommands read and play them. */
TEST(knows_the_engines_frame_commands)
{
    mc_sound_channel ch;
    int flags;

    EXPECT_EQ_INT(MC_FC_UNKNOWN, 41);
    EXPECT_EQ_INT(mc_frame_cmd_find("call", 4), MC_FC_CALL);
    EXPECT_EQ_INT(mc_frame_cmd_find("aviGame", 7), MC_FC_AVI_GAME);
    EXPECT_EQ_INT(mc_frame_cmd_find("avigame", 7), MC_FC_UNKNOWN);
    EXPECT_EQ_INT(mc_frame_cmd_find("sound_body2x", 11), MC_FC_SOUND_BODY2); /* len counts */
    EXPECT_EQ_STR(mc_frame_cmd_word(MC_FC_TRIGGER_SMOKE_PARTICLE), "triggerSmokeParticle");
    EXPECT_EQ_STR(mc_frame_cmd_word(MC_FC_UNKNOWN), "?");
    EXPECT_EQ_INT(mc_frame_cmd_args(MC_FC_FIRE_MISSILE_AT_TARGET), 2);
    EXPECT_EQ_INT(mc_frame_cmd_args(MC_FC_ATTACK_END), 0);
    EXPECT_EQ_INT(mc_frame_cmd_args(MC_FC_ENABLE_LEG_IK), 1);
    EXPECT_EQ_INT(mc_frame_cmd_args(MC_FC_RECORD_DEMO), MC_FC_OPTIONAL_ARG);
    EXPECT(mc_frame_cmd_sound(MC_FC_SOUND_GLOBAL, &ch, &flags));
    EXPECT(ch == MC_SND_CHANNEL_ANY && flags == MC_SSF_GLOBAL);
    EXPECT(mc_frame_cmd_sound(MC_FC_SOUND_CHATTER, &ch, &flags));
    EXPECT(ch == MC_SND_CHANNEL_VOICE && flags == 0);
    EXPECT(mc_frame_cmd_sound(MC_FC_SOUND_ITEM, &ch, NULL) && ch == MC_SND_CHANNEL_ITEM);
    EXPECT(mc_frame_cmd_sound(MC_FC_LEFTFOOT, &ch, NULL) && ch == MC_SND_CHANNEL_BODY);
    EXPECT(!mc_frame_cmd_sound(MC_FC_SKIN, &ch, NULL));
    EXPECT(!mc_frame_cmd_sound(MC_FC_UNKNOWN, NULL, NULL));
    /* what md5cine acts on: 10 sounds, 3 footsteps, skin */
    {
        int acted = 0;

        for (int k = 0; k <= MC_FC_UNKNOWN; k++)
            acted += mc_frame_cmd_acted((mc_frame_cmd_kind)k);
        EXPECT_EQ_INT(acted, 14);
    }
    EXPECT(mc_frame_cmd_acted(MC_FC_SKIN) && !mc_frame_cmd_acted(MC_FC_FX));
    EXPECT(mc_frame_cmd_names_key("snd_footstep") && !mc_frame_cmd_names_key("SND_footstep"));
    EXPECT(!mc_frame_cmd_names_key("monster_snd"));
}

/* An unknown command takes at most MC_LIMIT_FRAME_COMMAND_ARGS tokens of its line: the next is
 * an error at its own column (17 + 2 k for the token k counted from 0). */
TEST(limits_an_unknown_commands_arguments)
{
    char text[512];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "model a {\n anim w x.md5anim {\n frame 1 attach");
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;

    for (int k = 0; k <= MC_LIMIT_FRAME_COMMAND_ARGS; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, " a");
    snprintf(text + n, sizeof text - n, "\n}\n}\n");
    EXPECT_EQ_INT(find(text, "a", &a, &m, &found, &err), MC_ERR_LIMIT);
    EXPECT(err.line == 3 && err.col == 17 + 2 * MC_LIMIT_FRAME_COMMAND_ARGS);
    EXPECT_CONTAINS(err.msg, "more than 64 arguments after 'attach'");
    mc_arena_release(&a);
}

static const test_error_case GOLDEN[] = {
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

TEST(reports_golden_errors_at_their_positions)
{
    for (size_t i = 0; i < TEST_COUNT(GOLDEN); i++) {
        const test_error_case *g = &GOLDEN[i];
        mc_arena a = { 0 };
        mc_modeldef m;
        mc_error err;
        bool found;
        mc_status st = find(g->input, "a", &a, &m, &found, &err);

        EXPECT_ERROR_IS(g, st, &err, i);
        EXPECT(found && m.name == NULL && m.num_anims == 0);
        EXPECT_EQ_STR(err.file, "t.def");
        mc_arena_release(&a);
    }
}

static mc_status count_decl(void *user, const mc_modeldef_at *at)
{
    char *names = user;

    strncat(names, at->name, at->name_len);
    strcat(names, at->line == at->name_line ? " " : "? ");
    return MC_OK;
}

/* mc_modeldef_each lists every `model NAME` as mc_modeldef_find reads them (other declarations
 * passed over, the text ending at a NUL byte), and mc_modeldef_parse_at parses the one given,
 * the second of two of a name included. */
TEST(lists_declarations_and_parses_one_at_its_place)
{
    const char text[] = "model a { mesh a.md5mesh }\n"
                        "export x { model y }\n"
                        "model b { mesh first.md5mesh }\n"
                        "model\nb { mesh second.md5mesh }\n"
                        "model c { mesh c.md5mesh }\0model d { }";
    char names[64] = "";
    mc_arena a = { 0 };
    mc_modeldef m;
    mc_error err;
    mc_modeldef_at at = { .start = 79, .line = 4, .col = 1 }; /* the second "model b" */

    ASSERT_OK(mc_modeldef_each(text, sizeof text - 1, count_decl, names), &err);
    EXPECT_EQ_STR(names, "a b b? c ");
    ASSERT_OK(mc_modeldef_parse_at(text, sizeof text - 1, "t.def", &at, &a, &m, &err), &err);
    EXPECT_EQ_STR(m.mesh, "second.md5mesh");
    EXPECT_EQ_INT(m.line, 5);
    EXPECT_EQ_INT(m.col, 1);
    mc_arena_release(&a);
}

/* Writes dir/base with a mesh of one joint, two anims of it and def/m.def. */
static bool write_model_base(const char *dir)
{
    static const char *const folders[] = { "", "/base", "/base/def", "/base/models" };
    static const char mesh[] = "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\n"
                               "joints {\n\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n"
                               "shader \"s\"\nnumverts 3\nvert 0 ( 0 0 ) 0 1\nvert 1 ( 1 0 ) 1 1\n"
                               "vert 2 ( 0 1 ) 2 1\nnumtris 1\ntri 0 0 1 2\nnumweights 3\n"
                               "weight 0 0 1 ( 0 0 0 )\nweight 1 0 1 ( 0 1 0 )\n"
                               "weight 2 0 1 ( 0 0 1 )\n}\n";
    static const char anim[] = "MD5Version 10\ncommandline \"\"\nnumFrames 1\nnumJoints 1\n"
                               "frameRate 24\nnumAnimatedComponents 0\nhierarchy {\n"
                               "\"origin\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 0 1 1 )\n}\n"
                               "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n";
    static const char def[] = "model low {\n"
                              "    mesh models/m.md5mesh\n"
                              "    anim idle1 models/a.md5anim\n"
                              "    anim idle2 models/a.md5anim\n"
                              "    anim pain1 models/a.md5anim\n"
                              "    anim pain2 models/a.md5anim\n"
                              "    anim walk models/a.md5anim\n"
                              "}\n"
                              "model top {\n"
                              "    inherit low\n"
                              "    remove pain\n"
                              "    anim walk models/b.md5anim\n"
                              "    anim run models/a.md5anim\n"
                              "}\n";
    char path[1000];

    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        snprintf(path, sizeof path, "%s%s", dir, folders[i]);
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return false;
    }
    snprintf(path, sizeof path, "%s/base", dir);
    return test_write_file(path, "models/m.md5mesh", mesh) &&
           test_write_file(path, "models/a.md5anim", anim) &&
           test_write_file(path, "models/b.md5anim", anim) &&
           test_write_file(path, "def/m.def", def);
}

/* The actors of one model share what resolving it once gave (the same anims, not a copy); its
 * anims are those of the declaration it inherits with its own applied (idDeclModelDef::Parse:
 * `remove pain` drops pain1 and pain2 by their alias, `walk` replaced in place, `run` added),
 * and an actor's anim is found by its name or its alias (GetAnim: `idle` plays idle1). */
TEST(actors_of_one_model_share_its_anims)
{
    char dir[900], cwd[1024], text[2400], path[1000];
    mc_scene sc;
    mc_error err;
    const mc_scene_actor *x, *y, *z;

    ASSERT(getcwd(cwd, sizeof cwd) != NULL);
    test_tmp_path(dir, sizeof dir, "modeldef_share");
    ASSERT(write_model_base(dir));
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"%s/data/render/cuts.md5camera\"\nbase \"base\"\n"
             "actor x { model \"top\" anim \"idle\" }\nactor y { model \"TOP\" anim \"walk\" }\n"
             "actor z { model \"low\" anim \"pain2\" }\n", cwd);
    ASSERT(test_write_file(dir, "s.md5scene", text));
    snprintf(path, sizeof path, "%s/s.md5scene", dir);
    ASSERT_OK(mc_scene_load(path, NULL, &sc, &err), &err);
    x = &sc.actors[0];
    y = &sc.actors[1];
    z = &sc.actors[2];
    EXPECT(x->model_anims == y->model_anims);
    ASSERT(x->num_model_anims == 4 && y->num_model_anims == 4);
    EXPECT_EQ_STR(x->model_anims[0].name, "idle1");
    EXPECT_EQ_STR(x->model_anims[1].name, "idle2");
    EXPECT_EQ_STR(x->model_anims[2].name, "walk");
    EXPECT_EQ_STR(x->model_anims[2].path, "models/b.md5anim");
    EXPECT_EQ_STR(x->model_anims[3].name, "run");
    EXPECT(x->played == &x->model_anims[0]);
    EXPECT(y->played == &y->model_anims[2]);
    EXPECT(x->mesh_path == y->mesh_path);
    ASSERT(z->num_model_anims == 5);
    EXPECT(z->model_anims != x->model_anims);
    EXPECT_EQ_STR(z->played->name, "pain2");
    mc_scene_release(&sc);
}
