/* The mixer (mixer.h). Every expected value is worked by hand in the comments from the engine's
 * formulas: snd_system.cpp dB2Scale and its table, snd_world.cpp AddChannelContribution and
 * CalcEars with the default cvars (s_globalFraction 0.8, s_dotbias2 1.1,
 * s_spatializationDecay 2, s_minVolume2 0.25, s_quadraticFalloff 1, s_clipVolumes 1), and the
 * channel rules of snd_emitter.cpp StartSound, StopSound, CheckForCompletion and
 * idSoundChannel::GatherChannelSamples.
 *
 * Units: positions in inches (0.0254 m each), min/max distances in metres. The listener sits at
 * the origin looking down +X (axis rows forward +X, left +Y, up +Z) unless a test says. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mixer.h>

#include "test.h"

/* ---- fixtures ---- */

#define MAXF 16

typedef struct scene {
    mc_mix_desc d;
    mc_mix_listener lis[MAXF];
    mc_mix_emitter em[4];
    mc_vec3 pos[4][MAXF];
    mc_mix_event ev[64];
} scene;

static const mc_mat3 facing_x = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

/* One listener frame at the origin facing +X; emitter 0 is the world (no position), emitter 1
 * a fixed point at p; 10 frames a second (4410 samples a frame). */
static void scene_init(scene *s, mc_vec3 p)
{
    memset(s, 0, sizeof *s);
    s->lis[0].axis = facing_x;
    s->pos[1][0] = p;
    s->em[1].origins = s->pos[1];
    s->em[1].num_origins = 1;
    s->d.rate = (mc_rate){ 10, 1 };
    s->d.num_frames = 1;
    s->d.listener = s->lis;
    s->d.emitters = s->em;
    s->d.num_emitters = 2;
    s->d.events = s->ev;
}

static mc_mix_event *add(scene *s, int64_t at, int emitter, mc_sound_channel ch,
                         const mc_mix_shader *sh, int flags)
{
    mc_mix_event *e = &s->ev[s->d.num_events++];

    *e = (mc_mix_event){ .start = at, .emitter = emitter, .channel = ch, .shader = sh };
    e->parms = (mc_sound_parms){ .min_distance = 1, .max_distance = 10, .flags = flags };
    return e;
}

static mc_mix_event *add_stop(scene *s, int64_t at, int emitter, mc_sound_channel ch)
{
    mc_mix_event *e = &s->ev[s->d.num_events++];

    *e = (mc_mix_event){ .start = at, .kind = MC_MIX_STOP, .emitter = emitter, .channel = ch };
    return e;
}

static mc_audio_clip clip_of(float *v, int64_t frames, int channels)
{
    return (mc_audio_clip){ .samples = v,
                            .frames = frames,
                            .channels = channels,
                            .source_rate = 44100,
                            .bytes = (size_t)frames * (size_t)channels * 4 };
}

static mc_mix_shader shader_of(const mc_audio_clip *entry)
{
    mc_mix_shader sh = { .num_entries = 1 };

    sh.entries[0] = entry;
    return sh;
}

/* Prepares the scene (failing the test on an error) and mixes [first, first + count). */
static float *mix(scene *s, mc_mix *m, int64_t first, size_t count)
{
    mc_error err;
    float *out;

    if (mc_mix_prepare(&s->d, m, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "prepare: %s", err.msg);
        return NULL;
    }
    out = malloc(count * 2 * sizeof *out);
    if (out)
        mc_mix_render(m, first, count, out);
    return out;
}

static float click_v[1] = { 32767.0f };
static mc_audio_clip click;

/* The left and right output of one click of 32767 from emitter 1 at p with distances min, max
 * (metres) and flags, at sample 0. */
static void click_at(mc_vec3 p, float min, float max, int flags, float *l, float *r)
{
    scene s;
    mc_mix m;
    mc_mix_shader sh;

    click = clip_of(click_v, 1, 1);
    sh = shader_of(&click);
    scene_init(&s, p);
    mc_mix_event *e = add(&s, 0, 1, MC_SND_CHANNEL_ANY, &sh, flags);

    e->parms.min_distance = min;
    e->parms.max_distance = max;
    float *out = mix(&s, &m, 0, 1);

    *l = out ? out[0] : -1.0f;
    *r = out ? out[1] : -1.0f;
    free(out);
    mc_mix_release(&m);
}

/* ---- dB and time ---- */

/* dB2Scale: 0 -> 1; table entry (int)((dB + 60) * 10) of 2^((i - 600) * 0.1 / 6): -30 dB is
 * entry 300, pt -30, 2^-5 = 0.03125 exactly; 6 dB 2^1; 1 dB 2^(1/6) = 1.122462; -3.05 dB is
 * entry (int)569.5 = 569, -3.1 dB, 2^(-3.1/6) = 0.698985 (not 2^(-3.05/6) = 0.703034);
 * -59.99 dB entry 0, 2^-10; -60 and below 0; 70 dB 2^(70/6) = 3250.997 (no table above 60). */
TEST(db_scale_follows_the_engines_table)
{
    EXPECT(mc_mix_db_scale(0.0f) == 1.0f);
    EXPECT(mc_mix_db_scale(-30.0f) == 0.03125f);
    EXPECT(mc_mix_db_scale(6.0f) == 2.0f);
    EXPECT(mc_mix_db_scale(-6.0f) == 0.5f);
    EXPECT(mc_mix_db_scale(12.0f) == 4.0f);
    EXPECT_NEAR(mc_mix_db_scale(1.0f), 1.122462, 1e-6);
    EXPECT_NEAR(mc_mix_db_scale(-3.05f), 0.698985, 1e-6);
    EXPECT(mc_mix_db_scale(-59.99f) == 0.0009765625f);
    EXPECT(mc_mix_db_scale(-60.0f) == 0.0f);
    EXPECT(mc_mix_db_scale(-75.0f) == 0.0f);
    EXPECT_NEAR(mc_mix_db_scale(70.0f), 3250.997, 0.01);
}

/* ceil(k * 44100 * den / num): 24 fps 1837.5 -> 1838, 3675; 29.97 fps 1471.47 -> 1472. */
TEST(frames_begin_at_the_first_sample_at_or_after_their_time)
{
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 24, 1 }, 1), 1838);
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 24, 1 }, 2), 3675);
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 24, 1 }, 24), 44100);
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 30000, 1001 }, 1), 1472);
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 30000, 1001 }, 30000), 44144100);
    EXPECT_EQ_INT(mc_mix_frame_sample((mc_rate){ 44100, 1 }, 12345), 12345);
}

/* ---- gains ---- */

/* A global click at T = 1.25 s lands on sample round(1.25 * 44100) = 55125, both ears
 * s_globalFraction 0.8: 32767 * 0.8 = 26213.6; every other sample 0. */
TEST(global_click_lands_on_its_sample_at_0_8)
{
    scene s;
    mc_mix m;
    mc_mix_shader sh;

    click = clip_of(click_v, 1, 1);
    sh = shader_of(&click);
    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 55125, 0, MC_SND_CHANNEL_ANY, &sh, 0);
    float *out = mix(&s, &m, 55000, 300);

    ASSERT(out);
    for (int i = 0; i < 300; i++) {
        float want = i == 125 ? 26213.6f : 0.0f;

        EXPECT_NEAR(out[2 * i], want, 0.01);
        EXPECT_NEAR(out[2 * i + 1], want, 0.01);
    }
    free(out);
    mc_mix_release(&m);
}

/* volume -30: 32767 * 0.03125 = 1023.97 before the ears, * 0.8 = 819.175, 819 as a short. */
TEST(volume_minus_30_is_a_32nd)
{
    scene s;
    mc_mix m;
    mc_mix_shader sh;
    int16_t out16[2];

    click = clip_of(click_v, 1, 1);
    sh = shader_of(&click);
    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 0, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_GLOBAL)->parms.volume = -30.0f;
    float *out = mix(&s, &m, 0, 1);

    ASSERT(out);
    EXPECT_NEAR(out[0], 819.175, 0.001);
    mc_audio_to_s16(out, 2, out16);
    EXPECT_EQ_INT(out16[0], 819);
    EXPECT_EQ_INT(out16[1], 819);
    free(out);
    mc_mix_release(&m);
}

/* At the listener: d = 0 <= min, spatialize = 0, bias = 1.1 + (2 - 1.1) * 1 = 2; the direction
 * is the zero vector (dot 0): each ear 1.1 / 3 = 0.366667, 32767 * that = 12014.57. */
TEST(a_sound_at_the_listener)
{
    float l, r;

    click_at((mc_vec3){ 0, 0, 0 }, 1, 10, 0, &l, &r);
    EXPECT_NEAR(l, 12014.57, 0.05);
    EXPECT_NEAR(r, 12014.57, 0.05);
}

/* Straight ahead (dot 0) at min distance (50 in = 1.27 m): spatialize 1, bias 1.1, each ear
 * 1.1 / 2.1 = 0.523810, 32767 * that = 17163.86. Halfway inside it (25 in): spatialize 0.5,
 * bias 1.55, 1.1 / 2.55 = 0.431373, 14134.78. */
TEST(a_sound_at_and_inside_min_distance)
{
    float l, r;

    click_at((mc_vec3){ 50, 0, 0 }, 1.27f, 10, 0, &l, &r);
    EXPECT_NEAR(l, 17163.86, 0.5);
    EXPECT_NEAR(r, 17163.86, 0.5);
    click_at((mc_vec3){ 25, 0, 0 }, 1.27f, 10, 0, &l, &r);
    EXPECT_NEAR(l, 14134.78, 0.5);
    EXPECT_NEAR(r, 14134.78, 0.5);
}

/* Halfway from min 1.27 m to max 3.81 m (100 in = 2.54 m): frac 0.5, squared 0.25, ears
 * 1.1 / 2.1: 32767 * 0.25 * 0.523810 = 4290.97. At max (150 in) and past it: silent. */
TEST(falls_off_with_the_square_between_min_and_max)
{
    float l, r;

    click_at((mc_vec3){ 100, 0, 0 }, 1.27f, 3.81f, 0, &l, &r);
    EXPECT_NEAR(l, 4290.97, 0.5);
    EXPECT_NEAR(r, 4290.97, 0.5);
    click_at((mc_vec3){ 0, 0, -150.01f }, 1.27f, 3.81f, 0, &l, &r);
    EXPECT(l == 0.0f && r == 0.0f);
    click_at((mc_vec3){ 0, 0, 200 }, 1.27f, 3.81f, 0, &l, &r);
    EXPECT(l == 0.0f && r == 0.0f);
}

/* On the listener's left (+Y, 100 in = 2.54 m = min): dot +1, left (1.1 + 1) / (1 + 1.1) = 1,
 * right (1.1 - 1) / 2.1 = 0.047619, raised to s_minVolume2 0.25: 32767 and 8191.75. On the
 * right, the other way round. At 45 degrees ahead left (dot 0.707107): left (1.1 + 0.707107)
 * / 2.1 = 0.860527, 28196.90; right 0.187092 -> 0.25. */
TEST(pans_by_the_left_component)
{
    float l, r;

    click_at((mc_vec3){ 0, 100, 0 }, 2.54f, 100, 0, &l, &r);
    EXPECT_NEAR(l, 32767.0, 0.5);
    EXPECT_NEAR(r, 8191.75, 0.5);
    click_at((mc_vec3){ 0, -100, 0 }, 2.54f, 100, 0, &l, &r);
    EXPECT_NEAR(l, 8191.75, 0.5);
    EXPECT_NEAR(r, 32767.0, 0.5);
    click_at((mc_vec3){ 70.710678f, 70.710678f, 0 }, 2.54f, 100, 0, &l, &r);
    EXPECT_NEAR(l, 28196.90, 0.5);
    EXPECT_NEAR(r, 8191.75, 0.5);
    /* omnidirectional: no panning, 0.8 on both sides */
    click_at((mc_vec3){ 0, 100, 0 }, 2.54f, 100, MC_SSF_OMNIDIRECTIONAL, &l, &r);
    EXPECT_NEAR(l, 26213.6, 0.5);
    EXPECT_NEAR(r, 26213.6, 0.5);
}

/* The listener turned to face +Y (rows forward (0 1 0), left (-1 0 0)): an emitter at +Y is
 * ahead (both 1.1 / 2.1: 17163.86), one at -X on its left (32767, 8191.75). */
TEST(pans_in_the_listeners_axes)
{
    const mc_mat3 facing_y = { { { 0, 1, 0 }, { -1, 0, 0 }, { 0, 0, 1 } } };
    const mc_vec3 at[2] = { { 0, 100, 0 }, { -100, 0, 0 } };
    const float want[2][2] = { { 17163.86f, 17163.86f }, { 32767.0f, 8191.75f } };

    for (int i = 0; i < 2; i++) {
        scene s;
        mc_mix m;
        mc_mix_shader sh;

        click = clip_of(click_v, 1, 1);
        sh = shader_of(&click);
        scene_init(&s, at[i]);
        s.lis[0].axis = facing_y;
        add(&s, 0, 1, MC_SND_CHANNEL_ANY, &sh, 0)->parms.min_distance = 2.54f;
        float *out = mix(&s, &m, 0, 1);

        ASSERT(out);
        EXPECT_NEAR(out[0], want[i][0], 0.5);
        EXPECT_NEAR(out[1], want[i][1], 0.5);
        free(out);
        mc_mix_release(&m);
    }
}

/* A stereo sample is omnidirectional whatever its flags ("stereo samples are always omni"):
 * from the left at min distance both ears 0.8; its left goes left, its right right. */
TEST(a_stereo_sample_is_heard_as_omni)
{
    float v[2] = { 100, 200 };
    mc_audio_clip c = clip_of(v, 1, 2);
    mc_mix_shader sh = shader_of(&c);
    scene s;
    mc_mix m;

    scene_init(&s, (mc_vec3){ 0, 100, 0 });
    add(&s, 0, 1, MC_SND_CHANNEL_ANY, &sh, 0)->parms.min_distance = 2.54f;
    float *out = mix(&s, &m, 0, 1);

    ASSERT(out);
    EXPECT_NEAR(out[0], 80.0, 1e-3);
    EXPECT_NEAR(out[1], 160.0, 1e-3);
    free(out);
    mc_mix_release(&m);
}

/* mask_left (bit 0): the right ear 0; +12 dB (x4): 0.8 * 4 = 3.2 clamped to 1 (s_clipVolumes),
 * unclamped 3.2; sound class 1 faded -6 dB: x0.5, 0.4; PRIVATE on an actor's emitter: silent;
 * on the listener's own: heard as global even past max distance; ANTI_PRIVATE there: silent. */
TEST(masks_clamps_fades_and_private_sounds)
{
    float v[1] = { 1000 };
    mc_audio_clip c = clip_of(v, 1, 1);
    mc_mix_shader sh = shader_of(&c), left_only = sh;
    scene s;
    mc_mix m;

    left_only.speaker_mask = 1;
    scene_init(&s, (mc_vec3){ 5000, 0, 0 });
    s.em[2] = s.em[1];
    s.em[2].listener_own = true;
    s.d.num_emitters = 3;
    s.d.class_fade_db[1] = -6.0f;
    add(&s, 0, 0, MC_SND_CHANNEL_ANY, &left_only, 0);
    add(&s, 1, 0, MC_SND_CHANNEL_ANY, &sh, 0)->parms.volume = 12.0f;
    add(&s, 2, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_UNCLAMPED)->parms.volume = 12.0f;
    add(&s, 3, 0, MC_SND_CHANNEL_ANY, &sh, 0)->parms.sound_class = 1;
    add(&s, 4, 1, MC_SND_CHANNEL_ANY, &sh, MC_SSF_PRIVATE | MC_SSF_GLOBAL);
    add(&s, 5, 2, MC_SND_CHANNEL_ANY, &sh, MC_SSF_PRIVATE);
    add(&s, 6, 2, MC_SND_CHANNEL_ANY, &sh, MC_SSF_ANTI_PRIVATE);
    float *out = mix(&s, &m, 0, 7);
    const float want[7][2] = { { 800, 0 }, { 1000, 1000 }, { 3200, 3200 }, { 400, 400 },
                               { 0, 0 },   { 800, 800 },   { 0, 0 } };

    ASSERT(out);
    for (int i = 0; i < 7; i++) {
        EXPECT_NEAR(out[2 * i], want[i][0], 1e-3);
        EXPECT_NEAR(out[2 * i + 1], want[i][1], 1e-3);
    }
    free(out);
    mc_mix_release(&m);
}

/* Emitter 1 moves from 100 in ahead at frame 0 to 200 in at frame 1 (held after), omni, min 0,
 * max 10.16 m: frac (1 - 2.54 / 10.16)^2 = 0.5625 then (1 - 5.08 / 10.16)^2 = 0.25; times 0.8:
 * 0.45 and 0.2. A loop of 1000s ramps across frame 0's 4410 samples: sample s is 1000 * (0.45
 * - 0.25 * s / 4410): 450 at 0, 325 at 2205, 200.06 at 4409, 200 from 4410 on. With a cut
 * after frame 0 the gain holds 450 to sample 4409 and jumps to 200 at 4410. */
TEST(gains_ramp_across_a_frame_and_jump_at_a_cut)
{
    float v[4] = { 1000, 1000, 1000, 1000 };
    mc_audio_clip c = clip_of(v, 4, 1);
    mc_mix_shader sh = shader_of(&c);

    for (int cut = 0; cut < 2; cut++) {
        scene s;
        mc_mix m;

        scene_init(&s, (mc_vec3){ 100, 0, 0 });
        s.pos[1][1] = (mc_vec3){ 200, 0, 0 };
        s.em[1].num_origins = 2;
        s.lis[1] = s.lis[0];
        s.lis[0].cut_after = cut;
        s.d.num_frames = 2;
        mc_mix_event *e =
                add(&s, 0, 1, MC_SND_CHANNEL_ANY, &sh, MC_SSF_LOOPING | MC_SSF_OMNIDIRECTIONAL);

        e->parms.min_distance = 0.0f;
        e->parms.max_distance = 10.16f;
        float *out = mix(&s, &m, 0, 9000);

        ASSERT(out);
        EXPECT_NEAR(out[0], 450.0, 0.01);
        EXPECT_NEAR(out[2 * 2205], cut ? 450.0 : 325.0, 0.01);
        EXPECT_NEAR(out[2 * 4409 + 1], cut ? 450.0 : 200.0567, 0.01);
        EXPECT_NEAR(out[2 * 4410], 200.0, 0.01);
        EXPECT_NEAR(out[2 * 8999], 200.0, 0.01);
        free(out);
        mc_mix_release(&m);
    }
}

/* leadinVolume -6 dB (0.5) while the first sample plays (its 100 frames), volume 0 dB after:
 * at frame boundary 0 the leadin plays (gain 0.8 * 0.5 = 0.4), at boundary 1 (4410) it does
 * not (0.8): a constant 1000 is 400 at sample 0, 600 at 2205, 800 at 4410. */
TEST(leadin_volume_ramps_into_the_volume)
{
    static float lead[100], loop[3] = { 1000, 1000, 1000 };
    mc_audio_clip lc, pc;
    mc_mix_shader sh;
    scene s;
    mc_mix m;

    for (int i = 0; i < 100; i++)
        lead[i] = 1000;
    lc = clip_of(lead, 100, 1);
    pc = clip_of(loop, 3, 1);
    sh = shader_of(&pc);
    sh.leadins[0] = &lc;
    sh.num_leadins = 1;
    sh.leadin_volume = -6.0f;
    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 0, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_LOOPING);
    float *out = mix(&s, &m, 0, 4411);

    ASSERT(out);
    EXPECT_NEAR(out[0], 400.0, 0.01);
    EXPECT_NEAR(out[2 * 2205], 600.0, 0.01);
    EXPECT_NEAR(out[2 * 4410], 800.0, 0.01);
    free(out);
    mc_mix_release(&m);
}

/* ---- channel rules ---- */

static float ones[20000];

/* A clip of n frames of 1s (the tests tell such clips apart by their volumes). */
static mc_audio_clip ones_clip(int64_t n)
{
    for (size_t i = 0; i < TEST_COUNT(ones); i++)
        ones[i] = 1.0f;
    return clip_of(ones, n, 1);
}

/* On the world emitter (global, 0.8, unclamped), clips of 1s told apart by their volumes: A
 * (+60 dB: 2^10 = 1024, 10000 samples) on VOICE at 0, B (+6 dB: 2, 100 samples) on ANY at 1000,
 * C (0 dB, 10000 samples) on VOICE at 2000. ANY cuts nothing: 1050 hears A + B = 0.8 * 1026 =
 * 820.8; C stops A at 2000 (1999: 819.2; 2000: 0.8); C ends at 12000. */
TEST(a_voice_is_cut_by_the_next_voice_not_by_any)
{
    mc_audio_clip a = ones_clip(10000), b = ones_clip(100);
    mc_mix_shader sa = shader_of(&a), sb = shader_of(&b), sc = shader_of(&a);
    scene s;
    mc_mix m;

    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 0, 0, MC_SND_CHANNEL_VOICE, &sa, 0)->parms.volume = 60.0f; /* 2^10 = 1024 */
    add(&s, 1000, 0, MC_SND_CHANNEL_ANY, &sb, MC_SSF_UNCLAMPED)->parms.volume = 6.0f;
    add(&s, 2000, 0, MC_SND_CHANNEL_VOICE, &sc, MC_SSF_UNCLAMPED)->parms.volume = 0.0f;
    s.ev[0].parms.flags = MC_SSF_UNCLAMPED;
    float *out = mix(&s, &m, 0, 13000);

    ASSERT(out);
    /* A: 0.8 * 1024 = 819.2; B: 0.8 * 2 = 1.6; C: 0.8 */
    EXPECT_NEAR(out[2 * 1050], 820.8, 1e-3);
    EXPECT_NEAR(out[2 * 1999 + 1], 819.2, 1e-3);
    EXPECT_NEAR(out[2 * 2000], 0.8, 1e-6);
    EXPECT_NEAR(out[2 * 11999], 0.8, 1e-6);
    EXPECT(out[2 * 12000] == 0.0f);
    EXPECT_EQ_INT(m.records[0].end, 2000);
    EXPECT_EQ_INT(m.records[0].ended_by, 2);
    EXPECT_EQ_INT(m.records[2].cut, 0);
    EXPECT_EQ_INT(m.records[1].cut, -1);
    EXPECT_EQ_INT(m.records[1].end, 1100);
    EXPECT_EQ_INT(m.records[1].slot, 1);
    EXPECT_EQ_INT(m.records[2].slot, 0); /* the slot the cut freed */
    EXPECT_EQ_INT(m.records[2].end, 12000);
    free(out);
    mc_mix_release(&m);
}

/* Nine looping sounds on one emitter: the ninth finds its 8 slots busy and is dropped. A STOP
 * on ANY stops all eight (their ends 100); the next sound takes slot 0. */
TEST(the_ninth_sound_is_dropped_and_stop_any_stops_all)
{
    mc_audio_clip a = ones_clip(10);
    mc_mix_shader sh = shader_of(&a);
    scene s;
    mc_mix m;

    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    for (int i = 0; i < 9; i++)
        add(&s, i, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_LOOPING);
    add_stop(&s, 100, 0, MC_SND_CHANNEL_ANY);
    add(&s, 101, 0, MC_SND_CHANNEL_BODY, &sh, 0);
    float *out = mix(&s, &m, 0, 120);

    ASSERT(out);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ_INT(m.records[i].outcome, MC_MIX_PLAYED);
        EXPECT_EQ_INT(m.records[i].slot, i);
        EXPECT_EQ_INT(m.records[i].end, 100);
        EXPECT_EQ_INT(m.records[i].ended_by, 9);
    }
    EXPECT_EQ_INT(m.records[8].outcome, MC_MIX_DROPPED);
    EXPECT_EQ_INT(m.records[8].slot, -1);
    EXPECT_EQ_INT(m.records[8].choice, 0);
    EXPECT_EQ_INT(m.records[9].outcome, MC_MIX_STOPPED);
    EXPECT_EQ_INT(m.records[9].stopped, 8);
    EXPECT_EQ_INT(m.records[10].slot, 0);
    EXPECT_NEAR(out[2 * 50], 8 * 0.8, 1e-5); /* eight loops of 1 */
    EXPECT_NEAR(out[2 * 99], 8 * 0.8, 1e-5);
    EXPECT(out[2 * 100] == 0.0f);
    EXPECT_NEAR(out[2 * 101], 0.8, 1e-6);
    EXPECT_EQ_STR(mc_mix_outcome_word(m.records[8].outcome), "dropped");
    EXPECT_EQ_STR(mc_mix_outcome_word(m.records[9].outcome), "stop");
    free(out);
    mc_mix_release(&m);
}

/* Leadin [1 2 3] then entries[0] [10 20] repeating, from sample 5 exactly: 1 2 3 10 20 10 20
 * ..., each * 0.8. Not looping, the leadin alone plays (GatherChannelSamples zero-fills after
 * the first sample). Looping with choice 1 and no leadin: entries[1] [7 7 7] once, then
 * entries[0]. */
TEST(a_loop_plays_its_leadin_then_entry_0_sample_exactly)
{
    float lead[3] = { 1, 2, 3 }, e0[2] = { 10, 20 }, e1[3] = { 7, 7, 7 };
    mc_audio_clip lc = clip_of(lead, 3, 1), c0 = clip_of(e0, 2, 1), c1 = clip_of(e1, 3, 1);
    mc_mix_shader sh = shader_of(&c0), two = shader_of(&c0);
    const float want[3][12] = { { 0, 0, 0, 0, 0, 1, 2, 3, 10, 20, 10, 20 },
                                { 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0 },
                                { 0, 0, 0, 0, 0, 7, 7, 7, 10, 20, 10, 20 } };

    sh.leadins[0] = &lc;
    sh.num_leadins = 1;
    two.entries[1] = &c1;
    two.num_entries = 2;
    for (int k = 0; k < 3; k++) {
        scene s;
        mc_mix m;

        scene_init(&s, (mc_vec3){ 0, 0, 0 });
        mc_mix_event *e =
                add(&s, 5, 0, MC_SND_CHANNEL_ANY, k == 2 ? &two : &sh, k == 1 ? 0 : MC_SSF_LOOPING);

        e->diversity = k == 2 ? 0.5f : 0.0f;
        float *out = mix(&s, &m, 0, 1000);

        ASSERT(out);
        for (int i = 0; i < 12; i++)
            EXPECT_NEAR(out[2 * i], 0.8f * want[k][i], 1e-5);
        EXPECT_NEAR(out[2 * 999], k == 1 ? 0.0 : 0.8 * ((999 - 5 - 3) % 2 ? 20 : 10), 1e-5);
        EXPECT_EQ_INT(m.records[0].leadin, k != 2);
        EXPECT_EQ_INT(m.records[0].choice, k == 2 ? 1 : 0);
        EXPECT_EQ_INT(m.records[0].end, k == 1 ? 8 : MC_MIX_FOREVER);
        free(out);
        mc_mix_release(&m);
    }
}

/* choice = (int)(diversity * 3): 0.5 -> 1, 0.99 -> 2, 0 -> 0; out of [0, 3) -> 0. */
TEST(diversity_picks_the_entry)
{
    mc_audio_clip a = ones_clip(1);
    mc_mix_shader sh = shader_of(&a);
    const float div[5] = { 0.5f, 0.99f, 0.0f, 1.5f, -0.2f };
    const int want[5] = { 1, 2, 0, 0, 0 };
    scene s;
    mc_mix m;
    mc_error err;

    sh.entries[1] = sh.entries[2] = &a;
    sh.num_entries = 3;
    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    for (int i = 0; i < 5; i++)
        add(&s, 10 * i, 0, MC_SND_CHANNEL_ANY, &sh, 0)->diversity = div[i];
    ASSERT_OK(mc_mix_prepare(&s.d, &m, &err), &err);
    for (int i = 0; i < 5; i++)
        EXPECT_EQ_INT(m.records[i].choice, want[i]);
    mc_mix_release(&m);
}

/* no_dups with entries A, B (10 samples each): at 0 diversity 0 picks A; at 100 diversity 0.1
 * picks A again, but slot 0 still names A (a finished sound keeps its sample until a stop) so
 * B; at 200 diversity 0.9 picks B, slot 0 names B now, so A. Without no_dups: A, A, B. A STOP
 * while B plays forgets it: diversity 0.9 then keeps B. */
TEST(no_dups_steps_past_the_last_sample)
{
    mc_audio_clip a = ones_clip(10), b = ones_clip(10);
    mc_mix_shader sh = shader_of(&a);
    mc_error err;

    sh.entries[1] = &b;
    sh.num_entries = 2;
    for (int dups = 0; dups < 2; dups++) {
        const float div[3] = { 0.0f, 0.1f, 0.9f };
        const int want[2][3] = { { 0, 0, 1 }, { 0, 1, 0 } };
        scene s;
        mc_mix m;

        scene_init(&s, (mc_vec3){ 0, 0, 0 });
        for (int i = 0; i < 3; i++)
            add(&s, 100 * i, 0, MC_SND_CHANNEL_ANY, &sh, dups ? MC_SSF_NO_DUPS : 0)->diversity =
                    div[i];
        ASSERT_OK(mc_mix_prepare(&s.d, &m, &err), &err);
        for (int i = 0; i < 3; i++)
            EXPECT_EQ_INT(m.records[i].choice, want[dups][i]);
        mc_mix_release(&m);
    }
    scene s;
    mc_mix m;

    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 0, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_NO_DUPS)->diversity = 0.9f;
    add_stop(&s, 5, 0, MC_SND_CHANNEL_ANY);
    add(&s, 100, 0, MC_SND_CHANNEL_ANY, &sh, MC_SSF_NO_DUPS)->diversity = 0.9f;
    ASSERT_OK(mc_mix_prepare(&s.d, &m, &err), &err);
    EXPECT_EQ_INT(m.records[0].choice, 1);
    EXPECT_EQ_INT(m.records[2].choice, 1);
    mc_mix_release(&m);
}

/* playonce with a mono clip of 100 samples started at 0: refused at 50 and at 100 (the slot is
 * freed once trigger + length < now: 100 < 100 is false), played at 101. A stereo clip of 100
 * frames counts 200 (LengthIn44kHzSamples counts both channels' values): refused at 150 though
 * silent since 100, played at 201. The same shader at the same sample on another channel of
 * the emitter: refused; another shader there, or the same on another emitter: played. */
TEST(playonce_and_the_same_start)
{
    static float st[200];
    mc_audio_clip mono = ones_clip(100), stereo = clip_of(st, 100, 2);
    mc_mix_shader sm = shader_of(&mono), ss = shader_of(&stereo), other = shader_of(&mono);
    scene s;
    mc_mix m;
    mc_error err;

    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    s.em[1] = s.em[0];
    const int64_t at[8] = { 0, 50, 100, 101, 1000, 1150, 1201, 5000 };
    for (int i = 0; i < 8; i++)
        add(&s, at[i], 0, MC_SND_CHANNEL_ANY, i < 4 ? &sm : &ss, MC_SSF_PLAY_ONCE);
    s.d.num_events = 7;
    add(&s, 5000, 0, MC_SND_CHANNEL_VOICE, &sm, 0);
    add(&s, 5000, 0, MC_SND_CHANNEL_BODY, &sm, 0);
    add(&s, 5000, 0, MC_SND_CHANNEL_BODY2, &other, 0);
    add(&s, 5000, 1, MC_SND_CHANNEL_BODY, &sm, 0);
    ASSERT_OK(mc_mix_prepare(&s.d, &m, &err), &err);
    const mc_mix_outcome want[11] = { MC_MIX_PLAYED, MC_MIX_PLAYONCE, MC_MIX_PLAYONCE,
                                      MC_MIX_PLAYED, MC_MIX_PLAYED,   MC_MIX_PLAYONCE,
                                      MC_MIX_PLAYED, MC_MIX_PLAYED,   MC_MIX_SAME_START,
                                      MC_MIX_PLAYED, MC_MIX_PLAYED };
    for (int i = 0; i < 11; i++)
        EXPECT_EQ_INT(m.records[i].outcome, want[i]);
    EXPECT_EQ_INT(m.records[4].end, 1100); /* heard for its 100 frames */
    mc_mix_release(&m);
}

/* ---- ranges, checks ---- */

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

/* A busy scene (moving emitters, cuts, loops, stops, cuts by channel, three clip shapes) mixed
 * whole and in pieces of every size: the same floats, bit for bit. */
TEST(a_range_mixes_the_same_samples_as_the_whole)
{
    static float v[3000];
    static scene s;
    uint32_t x = 12345;
    mc_audio_clip c[3];
    mc_mix_shader sh[3];
    mc_mix m;
    const size_t n = 44100 + 1234;

    for (int i = 0; i < 3000; i++)
        v[i] = (float)((int)(lcg(&x) % 60001) - 30000);
    c[0] = clip_of(v, 1500, 2);
    c[1] = clip_of(v + 7, 700, 1);
    c[2] = clip_of(v + 100, 2900, 1);
    for (int i = 0; i < 3; i++) {
        sh[i] = shader_of(&c[i]);
        sh[i].entries[1] = &c[(i + 1) % 3];
        sh[i].num_entries = 2;
        sh[i].leadins[0] = &c[(i + 2) % 3];
        sh[i].num_leadins = i;
    }
    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    s.d.rate = (mc_rate){ 24, 1 };
    s.d.num_frames = MAXF;
    for (int k = 0; k < MAXF; k++) {
        s.lis[k].axis = facing_x;
        s.lis[k].origin = (mc_vec3){ (float)k * 3, 0, 0 };
        s.lis[k].cut_after = k == 5;
        s.pos[1][k] = (mc_vec3){ 60, (float)k * 9 - 60, 10 };
    }
    s.em[1].num_origins = MAXF;
    int64_t at = 0;

    for (int i = 0; i < 60; i++) {
        at += lcg(&x) % 1500;
        if (i % 13 == 12) {
            add_stop(&s, at, (int)(lcg(&x) % 2), (mc_sound_channel)(lcg(&x) % 3));
            continue;
        }
        mc_mix_event *e = add(&s, at, (int)(lcg(&x) % 2), (mc_sound_channel)(lcg(&x) % 3),
                              &sh[lcg(&x) % 3], (int)(lcg(&x) % 2) * MC_SSF_LOOPING);
        e->diversity = (float)(lcg(&x) % 1000) / 1000.0f;
        e->parms.volume = (float)(lcg(&x) % 20) - 10.0f;
    }
    float *whole = mix(&s, &m, 0, n);
    float *piece = malloc(n * 2 * sizeof *piece);

    ASSERT(whole && piece);
    for (size_t step = 1; step < n; step = step * 3 + 17) {
        for (size_t a = 0; a < n; a += step) {
            size_t k = n - a < step ? n - a : step;

            mc_mix_render(&m, (int64_t)a, k, piece + 2 * a);
        }
        if (memcmp(piece, whole, n * 2 * sizeof *piece) != 0)
            test_fail(__FILE__, __LINE__, "pieces of %zu differ from the whole mix", step);
    }
    double energy = 0;

    for (size_t i = 0; i < 2 * n; i++)
        energy += fabs(whole[i]);
    EXPECT(energy > 1e6); /* the scene is heard */
    free(whole);
    free(piece);
    mc_mix_release(&m);
}

TEST(refuses_a_bad_description_naming_the_event)
{
    mc_audio_clip a = ones_clip(10);
    mc_mix_shader sh = shader_of(&a);
    scene s;
    mc_mix m;
    mc_error err;

    scene_init(&s, (mc_vec3){ 0, 0, 0 });
    add(&s, 10, 0, MC_SND_CHANNEL_ANY, &sh, 0);
    add(&s, 5, 0, MC_SND_CHANNEL_ANY, &sh, 0);
    EXPECT_EQ_INT(mc_mix_prepare(&s.d, &m, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "event 1 starts at sample 5, before the event before it: events "
                           "must be sorted by start");
    EXPECT(m.records == NULL);
    s.ev[1].start = 10;
    s.ev[1].emitter = 3;
    EXPECT_EQ_INT(mc_mix_prepare(&s.d, &m, &err), MC_ERR_RANGE);
    EXPECT_EQ_STR(err.msg, "event 1: emitter 3 out of range (2 emitters)");
    s.ev[1].emitter = 0;
    s.ev[1].parms.sound_class = 4;
    EXPECT_EQ_INT(mc_mix_prepare(&s.d, &m, &err), MC_ERR_RANGE);
    EXPECT_EQ_STR(err.msg, "event 1: sound class 4 out of range (0 to 3)");
    s.ev[1].parms.sound_class = 0;
    s.d.rate = (mc_rate){ 44101, 1 };
    EXPECT_EQ_INT(mc_mix_prepare(&s.d, &m, &err), MC_ERR_RANGE);
    s.d.rate = (mc_rate){ 24, 1 };
    ASSERT_OK(mc_mix_prepare(&s.d, &m, &err), &err);
    mc_mix_release(&m);
    mc_mix_release(&m);
}
