/* When frame commands fire (scene.h, mc_scene_command_offset, mc_scene_command_last_cycle,
 * mc_scene_actor_skin_at), from the engine's rule worked by hand: a command on frame N (from
 * 1) fires at anim time (N - 1 + c * (numFrames - 1)) / frameRate, for every cycle c of a
 * looping anim, once for one that holds (game/anim/Anim_Blend.cpp idAnimBlend::
 * CallFrameCommands, anim/Anim.cpp idMD5Anim::ConvertTimeToFrame); one frame's commands in
 * file order; at the wrap the last frame's before the first frame's of the next cycle. The
 * actor: an anim of 5 frames at 10 fps, so one cycle is 0.4 s. */
#include <string.h>

#include <md5cine/scene.h>

#include "test.h"

/* An actor and its commands. */
typedef struct fixture {
    mc_scene_actor a;
    mc_frame_arg args[3];
    mc_frame_command commands[3];
} fixture;

/* *x: an actor playing 5 frames at 10 fps with n commands: frame[i] `skin NAME[i]`. */
static mc_scene_actor *actor(fixture *x, int n, const int *frame, const char *const *name,
                             bool loop, float start)
{
    memset(x, 0, sizeof *x);
    for (int i = 0; i < n; i++) {
        x->args[i].text = name[i];
        x->commands[i].frame = frame[i];
        x->commands[i].kind = MC_FC_SKIN;
        x->commands[i].word = "skin";
        x->commands[i].num_args = 1;
        x->commands[i].args = &x->args[i];
    }
    x->a.anim.num_frames = 5;
    x->a.anim.frame_rate = 10;
    x->a.loop = loop;
    x->a.start = start;
    x->a.num_frame_commands = n;
    x->a.frame_commands = x->commands;
    return &x->a;
}

static int skin_at(const mc_scene_actor *a, double t)
{
    mc_timeline_sample s;

    memset(&s, 0, sizeof s);
    s.time = t;
    s.engine_ms = -1;
    return mc_scene_actor_skin_at(a, &s);
}

static int skin_at_ms(const mc_scene_actor *a, int64_t ms)
{
    mc_timeline_sample s;

    memset(&s, 0, sizeof s);
    s.time = (double)ms / 1000.0;
    s.engine_ms = ms;
    return mc_scene_actor_skin_at(a, &s);
}

TEST(offsets_count_frames_from_one_and_cycles_of_n_minus_one_frames)
{
    const int f[1] = { 3 };
    const char *const n[1] = { "a" };
    fixture x;
    mc_scene_actor *a = actor(&x, 1, f, n, true, 0.0f);

    /* (3 - 1) / 10 = 0.2 s; cycle 2: (2 + 2 * 4) / 10 = 1 s; in samples 0.2 * 44100 = 8820 */
    EXPECT_NEAR(mc_scene_command_offset(a, 3, 0, 1.0), 0.2, 1e-12);
    EXPECT_NEAR(mc_scene_command_offset(a, 3, 2, 1.0), 1.0, 1e-12);
    EXPECT_NEAR(mc_scene_command_offset(a, 3, 0, 44100.0), 8820.0, 1e-9);
    EXPECT_NEAR(mc_scene_command_offset(a, 1, 1, 1000.0), 400.0, 1e-9);
    EXPECT(mc_scene_command_repeats(a));
    a->loop = false;
    EXPECT(!mc_scene_command_repeats(a));
    a->loop = true;
    a->anim.num_frames = 1; /* one frame: nothing to cycle through */
    EXPECT(!mc_scene_command_repeats(a));
}

TEST(the_last_cycle_fired_by_a_time)
{
    const int f[1] = { 2 };
    const char *const n[1] = { "a" };
    fixture x;
    mc_scene_actor *a = actor(&x, 1, f, n, true, 0.0f);

    /* frame 2 of a loop: 0.1 + 0.4 c */
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.09, 1.0), -1);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.1, 1.0), 0);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.49, 1.0), 0);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.5, 1.0), 1);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 100.1, 1.0), 250);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 500.0, 1000.0), 1);
    /* held: once, whatever the time after it */
    a->loop = false;
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.09, 1.0), -1);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 0.1, 1.0), 0);
    EXPECT_EQ_INT(mc_scene_command_last_cycle(a, 2, 100.1, 1.0), 0);
}

TEST(the_skin_in_effect_is_the_last_fired)
{
    /* frame 2 A at 0.1 + 0.4c; frame 4 none, then B, both at 0.3 + 0.4c (file order: B last) */
    const int f[3] = { 2, 4, 4 };
    const char *const n[3] = { "A", "none", "B" };
    fixture x;
    mc_scene_actor *a = actor(&x, 3, f, n, true, 0.0f);

    EXPECT_EQ_INT(skin_at(a, 0.0), -1);
    EXPECT_EQ_INT(skin_at(a, 0.05), -1);
    EXPECT_EQ_INT(skin_at(a, 0.1), 0);
    EXPECT_EQ_INT(skin_at(a, 0.29), 0);
    EXPECT_EQ_INT(skin_at(a, 0.3), 2);
    EXPECT_EQ_INT(skin_at(a, 0.45), 2);
    EXPECT_EQ_INT(skin_at(a, 0.5), 0); /* the next cycle */
    EXPECT_EQ_INT(skin_at(a, 0.7), 2);
    a->loop = false; /* held from 0.4 s: B stays */
    EXPECT_EQ_INT(skin_at(a, 0.5), 2);
    EXPECT_EQ_INT(skin_at(a, 99.0), 2);
}

TEST(at_the_wrap_the_next_cycles_first_frame_fires_last)
{
    /* Y on frame 1 (0, 0.4, 0.8 ...), X on frame 5 (0.4, 0.8, ...): at 0.4 the last frame of
     * cycle 0 fires, then the first of cycle 1, so Y is in effect although X comes later in
     * the file; held, the anim never wraps and X stays from 0.4 s */
    const int f[2] = { 1, 5 };
    const char *const n[2] = { "Y", "X" };
    fixture x;
    mc_scene_actor *a = actor(&x, 2, f, n, true, 0.0f);

    EXPECT_EQ_INT(skin_at(a, 0.0), 0);
    EXPECT_EQ_INT(skin_at(a, 0.39), 0);
    EXPECT_EQ_INT(skin_at(a, 0.4), 0);
    EXPECT_EQ_INT(skin_at(a, 0.8), 0);
    a->loop = false;
    EXPECT_EQ_INT(skin_at(a, 0.39), 0);
    EXPECT_EQ_INT(skin_at(a, 0.4), 1);
    EXPECT_EQ_INT(skin_at(a, 5.0), 1);
}

TEST(times_count_from_the_anims_start_on_either_clock)
{
    const int f[1] = { 3 };
    const char *const n[1] = { "A" };
    fixture x;
    mc_scene_actor *a = actor(&x, 1, f, n, true, 1.5f);

    /* 1.5 + 0.2 = 1.7 s: nothing before the start, even for a loop */
    EXPECT_EQ_INT(skin_at(a, 1.0), -1);
    EXPECT_EQ_INT(skin_at(a, 1.69), -1);
    EXPECT_EQ_INT(skin_at(a, 1.7), 0);
    /* the engine clock: game time 1700 ms minus start 1500 ms is anim time 200 ms */
    EXPECT_EQ_INT(skin_at_ms(a, 1699), -1);
    EXPECT_EQ_INT(skin_at_ms(a, 1700), 0);
    /* start 0.5: 0.5 + 0.2 = 0.7, where 0.7 - 0.5 rounds below 0.2 in doubles */
    a->start = 0.5f;
    EXPECT_EQ_INT(skin_at(a, 14.0 / 20.0), 0);
    EXPECT_EQ_INT(skin_at(a, 13.0 / 20.0), -1);
}

TEST(other_commands_set_no_skin)
{
    const int f[1] = { 1 };
    const char *const n[1] = { "A" };
    fixture x;
    mc_scene_actor *a = actor(&x, 1, f, n, true, 0.0f);

    EXPECT(mc_scene_actor_has_skin_commands(a));
    x.commands[0].kind = MC_FC_SOUND_BODY;
    EXPECT(!mc_scene_actor_has_skin_commands(a));
    EXPECT_EQ_INT(skin_at(a, 1.0), -1);
}
