/* The soundtrack (soundtrack.h): a scene's frame commands and cues on Doom's mixer. Each
 * expected value is worked by hand from the engine's rules: a frame command at anim time
 * (N - 1) / frameRate (game/anim/Anim_Blend.cpp idAnimBlend::CallFrameCommands), a looping
 * anim's period of numFrames - 1 frames (anim/Anim.cpp idMD5Anim::ConvertTimeToFrame), dB as
 * 2^(dB/6) (snd_system.cpp idSoundSystemLocal::dB2Scale), a global sound at s_globalFraction 0.8
 * to both ears (snd_world.cpp idSoundWorldLocal::AddChannelContribution), a channel cut by the
 * next sound on it but not by ANY (snd_emitter.cpp idSoundEmitterLocal::StartSound). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/scene.h>
#include <md5cine/soundtrack.h>

#include "test.h"

#define R24 ((mc_rate){ 24, 1 })

/* A mono 16-bit 44.1 kHz WAV of n samples: the first `head` at v0, the rest at v1. */
static bool write_wav(const char *dir, const char *name, int n, int head, int v0, int v1)
{
    char path[512];
    unsigned char h[44] = "RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x44\xac\0\0\x88\x58\x01\0"
                          "\x02\0\x10\0data";
    unsigned bytes = (unsigned)n * 2;
    FILE *f;
    bool ok;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return false;
    for (int i = 0; i < 4; i++) {
        h[4 + i] = (unsigned char)((36 + bytes) >> (8 * i));
        h[40 + i] = (unsigned char)(bytes >> (8 * i));
    }
    ok = fwrite(h, 1, 44, f) == 44;
    for (int i = 0; i < n && ok; i++) {
        int v = i < head ? v0 : v1;
        unsigned char s[2] = { (unsigned char)(v & 0xff), (unsigned char)((v >> 8) & 0xff) };

        ok = fwrite(s, 1, 2, f) == 2;
    }
    return fclose(f) == 0 && ok;
}

/* An anim of one joint, 25 frames at 24 fps (one second from the first to the last). */
static bool write_anim(const char *dir)
{
    char text[4096];
    size_t n = 0;

    n += (size_t)snprintf(text + n, sizeof text - n,
                          "MD5Version 10\ncommandline \"\"\nnumFrames 25\nnumJoints 1\n"
                          "frameRate 24\nnumAnimatedComponents 0\nhierarchy {\n\"root\" -1 0 0\n"
                          "}\nbounds {\n");
    for (int i = 0; i < 25; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "( 0 0 0 ) ( 0 0 0 )\n");
    n += (size_t)snprintf(text + n, sizeof text - n, "}\nbaseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\n");
    for (int i = 0; i < 25; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "frame %d {\n}\n", i);
    return test_write_file(dir, "models/a.md5anim", text);
}

/* The base: a model "m" whose anim "walk" has `frame 2 footstep` and `frame 5 sound_voice
 * snd_line`, an entityDef m with snd_footstep "click", sound shaders click (one sample of
 * 16384 then silence), tone (1000 for a second), pair (tone or tone2, 2000), and quiet (a
 * file no place holds). */
static bool write_base(char *dir, size_t cap, const char *leaf)
{
    char sub[600];

    test_tmp_path(dir, cap, leaf);
    mkdir(dir, 0777);
    snprintf(sub, sizeof sub, "%s/models", dir);
    mkdir(sub, 0777);
    snprintf(sub, sizeof sub, "%s/def", dir);
    mkdir(sub, 0777);
    snprintf(sub, sizeof sub, "%s/sound", dir);
    mkdir(sub, 0777);
    return test_write_file(dir, "models/a.md5mesh", test_quad_mesh) && write_anim(dir) &&
           test_write_file(dir, "def/m.def",
                           "model m {\n mesh models/a.md5mesh\n anim walk models/a.md5anim {\n"
                           "  frame 2 footstep\n  frame 5 sound_voice snd_line\n }\n}\n"
                           "entityDef m {\n \"model\" \"m\"\n \"snd_footstep\" \"click\"\n}\n") &&
           test_write_file(dir, "sound/t.sndshd",
                           "click { sound/click.wav }\ntone { sound/tone.wav }\n"
                           "pair { sound/tone.wav sound/tone2.wav }\n"
                           "quiet { sound/none.wav }\n") &&
           write_wav(sub, "click.wav", 100, 1, 16384, 0) &&
           write_wav(sub, "tone.wav", 44100, 44100, 1000, 1000) &&
           write_wav(sub, "tone2.wav", 44100, 44100, 2000, 2000);
}

/* Writes dir/s.md5scene (a still camera at the origin looking down +X, base ".", then body)
 * and makes its soundtrack of `frames` output frames at 24 fps. */
static mc_status make(const char *dir, const char *body, int64_t frames, bool strict,
                      test_warnings *warns, mc_scene *scene, mc_soundtrack *st, mc_error *err)
{
    char text[8192], path[600];
    mc_parse_opts opts = { 0 };
    mc_soundtrack_desc d = { 0 };
    mc_status s;

    snprintf(text, sizeof text,
             "md5scene 1\nbase \".\"\ncamera { look_at { position ( 0 0 0 ) target ( 100 0 0 ) "
             "seconds 10 } }\n%s",
             body);
    snprintf(path, sizeof path, "%s/s.md5scene", dir);
    if (!test_write_file(dir, "s.md5scene", text))
        return MC_ERR_IO;
    opts.warn = warns ? test_record_warning : NULL;
    opts.warn_user = warns;
    s = mc_scene_load(path, &opts, scene, err);
    if (s != MC_OK)
        return s;
    d.scene = scene;
    d.fps = R24;
    d.num_frames = frames;
    d.opts = &opts;
    d.strict = strict;
    s = mc_soundtrack_make(&d, st, err);
    if (s != MC_OK)
        mc_scene_release(scene);
    return s;
}

static int64_t first_sound(const mc_soundtrack *st)
{
    for (int64_t i = 0; i < st->frames; i++) {
        if (st->mix[2 * i] != 0.0f || st->mix[2 * i + 1] != 0.0f)
            return i;
    }
    return -1;
}

TEST(fires_a_frame_command_on_its_sample)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;

    ASSERT(write_base(dir, sizeof dir, "st_click"));
    ASSERT_OK(make(dir, "actor \"w\" { model \"m\" anim \"walk\" origin ( 100 0 0 ) }\n", 48,
                   false, NULL, &scene, &st, &err),
              &err);
    /* frame 2 footstep: (2 - 1) / 24 s = 1837.5 samples, rounded to 1838; snd_line is no key
     * of the entity: frame 5 plays nothing */
    ASSERT(st.num_events == 1);
    EXPECT_EQ_INT(st.events[0].sample, 1838);
    EXPECT_EQ_INT(st.events[0].frame, 1); /* 1838 * 24 / 44100 = 1.0002 */
    EXPECT_EQ_STR(st.events[0].command, "footstep");
    EXPECT_EQ_INT(st.events[0].anim_frame, 2);
    EXPECT_EQ_INT(st.events[0].channel, MC_SND_CHANNEL_BODY);
    EXPECT_EQ_STR(st.events[0].shader, "click");
    EXPECT_EQ_STR(st.events[0].file, "sound/click.wav");
    EXPECT_EQ_INT(st.events[0].actor, 0);
    EXPECT_EQ_INT(first_sound(&st), 1838);
    /* 100 inches ahead = 2.54 m, min 1, max 10: (1 - 1.54 / 9)^2 = 0.687057; volume 1 dB =
     * 2^(1/6) = 1.122462; straight ahead each ear (1.1 + 0) / (1 + 1.1) = 0.523810:
     * 16384 * 1.122462 * 0.687057 * 0.523810 = 6618.4 */
    EXPECT_NEAR(st.mix[2 * 1838], 6618.4, 0.5);
    EXPECT_NEAR(st.mix[2 * 1838 + 1], 6618.4, 0.5);
    EXPECT_EQ_INT(st.frames, 88200); /* 48 frames at 24 fps: 2 s */
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
}

TEST(scales_a_cue_by_two_to_the_db_over_six)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;

    ASSERT(write_base(dir, sizeof dir, "st_volume"));
    ASSERT_OK(make(dir, "sound \"click\" { at 1 volume -30 }\n", 48, false, NULL, &scene, &st,
                   &err),
              &err);
    ASSERT(st.num_events == 1);
    EXPECT_EQ_INT(first_sound(&st), 44100);
    EXPECT_EQ_STR(st.events[0].command, "cue");
    EXPECT_EQ_INT(st.events[0].actor, -1);
    EXPECT(st.events[0].volume == -30.0f);
    /* 2^(-30/6) = 0.03125 (not 10^(-30/20) = 0.0316), global: 0.8 to each ear:
     * 16384 * 0.03125 * 0.8 = 409.6 */
    EXPECT_NEAR(st.mix[2 * 44100], 409.6, 1e-3);
    EXPECT_NEAR(st.mix[2 * 44100 + 1], 409.6, 1e-3);
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
}

TEST(cuts_a_voice_with_the_next_but_not_with_any)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;

    ASSERT(write_base(dir, sizeof dir, "st_cut"));
    ASSERT_OK(make(dir,
                   "sound \"tone\" { at 0 channel voice volume 0 }\n"
                   "sound \"tone\" { at 0.5 channel voice volume 0 }\n",
                   48, false, NULL, &scene, &st, &err),
              &err);
    ASSERT(st.num_events == 2);
    EXPECT(!st.events[0].cut && st.events[1].cut);
    /* 0 dB, global: 1000 * 0.8 = 800; after 0.5 s (sample 22050) the second line alone */
    EXPECT_NEAR(st.mix[2 * 10000], 800.0, 1e-3);
    EXPECT_NEAR(st.mix[2 * 30000], 800.0, 1e-3);
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);

    ASSERT_OK(make(dir,
                   "sound \"tone\" { at 0 channel voice volume 0 }\n"
                   "sound \"tone\" { at 0.5 volume 0 }\n",
                   48, false, NULL, &scene, &st, &err),
              &err);
    ASSERT(st.num_events == 2);
    EXPECT(!st.events[1].cut);
    EXPECT_NEAR(st.mix[2 * 30000], 1600.0, 1e-3); /* both play */
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
}

/* The files the events of a scene of 16 "pair" cues chose, with the scene's seed line. */
static bool choices(const char *dir, const char *seed, char out[16], float **mix, int64_t *n)
{
    char body[2048];
    size_t len = (size_t)snprintf(body, sizeof body, "%s\n", seed);
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;

    for (int i = 0; i < 16; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, "sound \"pair\" { at %.1f }\n",
                                i * 0.2);
    if (make(dir, body, 80, false, NULL, &scene, &st, &err) != MC_OK || st.num_events != 16)
        return false;
    for (int i = 0; i < 16; i++)
        out[i] = st.events[i].file && strstr(st.events[i].file, "tone2") ? '2' : '1';
    *n = st.frames;
    *mix = malloc((size_t)st.frames * 2 * sizeof **mix);
    if (*mix)
        memcpy(*mix, st.mix, (size_t)st.frames * 2 * sizeof **mix);
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
    return *mix != NULL;
}

TEST(chooses_files_by_the_scenes_seed)
{
    char dir[512], a[16], b[16], c[16];
    float *ma = NULL, *mb = NULL, *mc = NULL;
    int64_t na = 0, nb = 0, nc = 0;

    ASSERT(write_base(dir, sizeof dir, "st_seed"));
    ASSERT(choices(dir, "seed 5", a, &ma, &na) && choices(dir, "seed 5", b, &mb, &nb) &&
           choices(dir, "seed 6", c, &mc, &nc));
    EXPECT(memcmp(a, b, 16) == 0);
    EXPECT(na == nb && memcmp(ma, mb, (size_t)na * 2 * sizeof *ma) == 0);
    /* another seed: another sequence of the 2^16 possible */
    EXPECT(memcmp(a, c, 16) != 0);
    EXPECT(na == nc && memcmp(ma, mc, (size_t)na * 2 * sizeof *ma) != 0);
    free(ma);
    free(mb);
    free(mc);
}

TEST(fires_again_every_loop_and_reads_the_scenes_keys)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;
    /* the period is 24 frames (1 s): footstep at 1837.5 + 44100 c, voice at 7350 + 44100 c,
     * before the end of 73 frames, ceil(73 * 1837.5) = 134138 (c = 3 of the footstep rounds to
     * 134138: not before the end) */
    static const int64_t want[] = { 1838, 7350, 45938, 51450, 90038, 95550 };

    ASSERT(write_base(dir, sizeof dir, "st_loop"));
    ASSERT_OK(make(dir,
                   "actor \"w\" { model \"m\" anim \"walk\" loop 1 origin ( 100 0 0 )\n"
                   "  key \"snd_line\" \"tone\" key \"SND_FOOTSTEP\" \"pair\" }\n",
                   73, false, NULL, &scene, &st, &err),
              &err);
    ASSERT(st.num_events == 6);
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ_INT(st.events[i].sample, want[i]);
        EXPECT_EQ_STR(st.events[i].shader, i % 2 ? "tone" : "pair");
    }
    EXPECT_EQ_STR(st.events[1].command, "sound_voice");
    EXPECT_EQ_INT(st.events[1].channel, MC_SND_CHANNEL_VOICE);
    EXPECT(st.events[3].cut); /* the next line on the voice channel cuts the first (1 s long) */
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
}

TEST(warns_once_about_a_missing_file_or_fails_when_strict)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;
    test_warnings w = { 0 };

    ASSERT(write_base(dir, sizeof dir, "st_missing"));
    ASSERT_OK(make(dir, "sound \"quiet\" { at 0 }\nsound \"quiet\" { at 1 }\n", 48, false, &w,
                   &scene, &st, &err),
              &err);
    EXPECT_EQ_INT(w.count, 1);
    EXPECT_CONTAINS(w.last.msg, "sound shader 'quiet': no sound file 'sound/none.wav'");
    EXPECT_EQ_INT(st.missing_files, 1);
    ASSERT(st.num_events == 2);
    EXPECT(st.events[0].file == NULL);
    EXPECT_EQ_INT(first_sound(&st), -1);
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);

    EXPECT(make(dir, "sound \"quiet\" { at 0 }\n", 48, true, NULL, &scene, &st, &err) ==
           MC_ERR_IO);
    EXPECT_AT(&err, 4, 7, "no sound file 'sound/none.wav'");
}

TEST(makes_no_mix_for_a_silent_scene)
{
    char dir[512];
    mc_scene scene;
    mc_soundtrack st;
    mc_error err;

    ASSERT(write_base(dir, sizeof dir, "st_silent"));
    ASSERT_OK(make(dir, "", 24, false, NULL, &scene, &st, &err), &err);
    EXPECT(st.num_events == 0 && st.mix == NULL);
    EXPECT(!mc_soundtrack_scene_has_sound(&scene));
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
}
