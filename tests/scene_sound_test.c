/* The scene file's sound lines: `sound "SHADER" { ... }` cues, an actor's `key` lines and the
 * `seed` line, with every error at its token (positions counted by hand in the texts below,
 * columns 1-based bytes). */
#include <string.h>

#include <md5cine/scene.h>

#include "test.h"

static mc_status parse_text(const char *text, mc_scene *s, mc_error *err)
{
    return mc_scene_parse(text, strlen(text), "s.md5scene", NULL, s, err);
}

#define HEAD "md5scene 1\ncamera \"c\"\n"
#define ACTOR "actor \"guard\" { mesh \"m\" }\n"

TEST(reads_cues_keys_and_the_seed)
{
    const char *text = HEAD "sound \"music_intro\" { at 0 }\n"
                            "sound \"guard_line\" { at 4 actor \"guard\" channel VOICE "
                            "volume -3 }\n"
                            "sound \"door\" { origin ( 1 2 3 ) at 7.5 channel body2 }\n"
                            "actor \"guard\" { mesh \"m\" key \"snd_footstep\" \"steps\" "
                            "key \"s_volume\" \"-6\" }\n"
                            "seed 42\n";
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text(text, &s, &err), &err);
    EXPECT_EQ_INT(s.seed, 42);
    ASSERT(s.num_sounds == 3);
    EXPECT_EQ_STR(s.sounds[0].shader, "music_intro");
    EXPECT_EQ_INT(s.sounds[0].line, 3);
    EXPECT_EQ_INT(s.sounds[0].col, 7);
    EXPECT(s.sounds[0].at == 0.0f && !s.sounds[0].actor && s.sounds[0].actor_index == -1);
    EXPECT_EQ_INT(s.sounds[0].channel, MC_SND_CHANNEL_ANY);
    EXPECT(!s.sounds[0].has_volume && !s.sounds[0].has_origin);
    EXPECT_EQ_STR(s.sounds[1].actor, "guard");
    EXPECT_EQ_INT(s.sounds[1].actor_index, 0); /* declared after the cue */
    EXPECT_EQ_INT(s.sounds[1].channel, MC_SND_CHANNEL_VOICE);
    EXPECT(s.sounds[1].has_volume && s.sounds[1].volume == -3.0f && s.sounds[1].at == 4.0f);
    EXPECT(s.sounds[2].has_origin && s.sounds[2].origin.x == 1.0f && s.sounds[2].origin.z == 3.0f);
    EXPECT_EQ_INT(s.sounds[2].channel, MC_SND_CHANNEL_BODY2);
    EXPECT(s.sounds[2].at == 7.5f);
    ASSERT(s.num_actors == 1 && s.actors[0].num_spawnargs == 2);
    EXPECT_EQ_STR(s.actors[0].spawnargs[0].key, "snd_footstep");
    EXPECT_EQ_STR(s.actors[0].spawnargs[0].value, "steps");
    EXPECT_EQ_STR(s.actors[0].spawnargs[1].value, "-6");
    EXPECT_EQ_INT(s.actors[0].spawnargs[1].line, 6);
    mc_scene_release(&s);
}

TEST(has_a_fixed_default_seed_and_no_cues)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text(HEAD, &s, &err), &err);
    EXPECT_EQ_INT(s.seed, MC_SCENE_DEFAULT_SEED);
    EXPECT(s.num_sounds == 0 && s.sounds == NULL);
    mc_scene_release(&s);
}

TEST(names_every_channel_of_the_engine)
{
    /* game/Game_local.h s_channelType: ANY 0, VOICE 1, ... DAMAGE 13 */
    EXPECT_EQ_INT(mc_scene_channel_find("any", 3), 0);
    EXPECT_EQ_INT(mc_scene_channel_find("heart", 5), 8);
    EXPECT_EQ_INT(mc_scene_channel_find("Demonic", 7), 10);
    EXPECT_EQ_INT(mc_scene_channel_find("damage", 6), 13);
    EXPECT_EQ_INT(mc_scene_channel_find("voice3", 6), -1);
    EXPECT_EQ_STR(mc_scene_channel_word(MC_SND_CHANNEL_WEAPON), "weapon");
    EXPECT(mc_scene_channel_word(MC_SND_CHANNEL_COUNT) == NULL);
}

typedef struct error_case {
    const char *text;
    mc_status code;
    int line, col;
    const char *msg; /* a part of the message */
} error_case;

static const error_case errors[] = {
    { HEAD "sound \"x\" { }\n", MC_ERR_SYNTAX, 3, 7, "sound 'x' has no 'at'" },
    { HEAD "sound \"x\" { at -1 }\n", MC_ERR_RANGE, 3, 16, "invalid 'at' -1" },
    { HEAD "sound \"x\" { at 1 at 2 }\n", MC_ERR_SYNTAX, 3, 18, "duplicate 'at'" },
    { HEAD "sound \"x\" { at 1 channel mouth }\n", MC_ERR_SYNTAX, 3, 26, "unknown channel" },
    { HEAD "sound \"x\" { at 1 actor \"nobody\" }\n", MC_ERR_SYNTAX, 3, 24,
      "sound 'x': no actor 'nobody' in the scene" },
    { HEAD ACTOR "sound \"x\" { at 1 actor \"guard\" origin ( 0 0 0 ) }\n", MC_ERR_SYNTAX, 4, 32,
      "has both 'actor' (line 4) and 'origin'" },
    { HEAD "sound \"x\" { at 1 volume 1e9 }\n", MC_ERR_RANGE, 3, 25, "invalid 'volume'" },
    { HEAD "sound \"x\" { at 1 pitch 2 }\n", MC_ERR_SYNTAX, 3, 18, "unknown keyword 'pitch'" },
    { HEAD "sound \"\" { at 1 }\n", MC_ERR_SYNTAX, 3, 7, "invalid sound shader name" },
    { HEAD "sound \"x\" at 1\n", MC_ERR_SYNTAX, 3, 11, "expected '{'" },
    { HEAD "seed 1\nseed 2\n", MC_ERR_SYNTAX, 4, 1, "duplicate 'seed'" },
    { HEAD "seed -1\n", MC_ERR_RANGE, 3, 6, "invalid 'seed' -1" },
    { HEAD "actor \"a\" { mesh \"m\" key \"snd_x\" \"a\" key \"SND_X\" \"b\" }\n", MC_ERR_SYNTAX,
      3, 42, "duplicate key 'snd_x'" },
    { HEAD "actor \"a\" { mesh \"m\" key \"\" \"a\" }\n", MC_ERR_SYNTAX, 3, 26, "invalid key" },
    { HEAD "actor \"a\" { mesh \"m\" key \"snd_x\" }\n", MC_ERR_SYNTAX, 3, 34,
      "expected a string" },
};

TEST(reports_each_error_at_its_token)
{
    for (size_t i = 0; i < TEST_COUNT(errors); i++) {
        const error_case *c = &errors[i];
        mc_scene s;
        mc_error err;
        mc_status st = parse_text(c->text, &s, &err);

        if (st == MC_OK) {
            test_fail(__FILE__, __LINE__, "case %zu parsed", i);
            mc_scene_release(&s);
            continue;
        }
        if (st != c->code || err.line != c->line || err.col != c->col)
            test_fail(__FILE__, __LINE__, "case %zu: expected %s at %d:%d, got %s at %d:%d: %s",
                      i, mc_status_name(c->code), c->line, c->col, mc_status_name(st), err.line,
                      err.col, err.msg);
        EXPECT_CONTAINS(err.msg, c->msg);
        EXPECT(s.sounds == NULL && s.arena.head == NULL);
    }
}
