/* Sound shaders (sndshd.h): every keyword of idSoundShader::ParseShader with its effect, the
 * cap on files, unknown keywords as warnings, the implicit shader, OverrideParms, and the base's
 * set (material.h): found in any declaration folder, parsed once, a broken one silent. Expected
 * values are read off the engine's code (sound/snd_shader.cpp, snd_emitter.cpp) by hand;
 * columns are counted by hand in the inputs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/sndshd.h>
#include <md5cine/vfs.h>

#include "decl_fixture.h"
#include "test.h"

/* Parses the first sound declaration of text (a sound/ file) into *sh. */
DECL_PARSER(parse, mc_sndshd, "s.sndshd", "sound", mc_sndshd_parse_span)

/* Parses text into *sh counting warnings in *tw (zeroed first); false, reported, when it fails. */
static bool parse_warned(const char *text, test_warnings *tw, mc_sndshd *sh)
{
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = tw };
    mc_error err;
    mc_status st;

    *tw = (test_warnings){ 0 };
    st = parse(text, &opts, sh, &err);
    EXPECT_OK(st, &err);
    return st == MC_OK;
}

TEST(reads_every_keyword)
{
    const char *text =
            "sound Monsters/ZFat/Step {\n"                                              /* 1 */
            "    description \"fat steps\"   minSamples 4\n"                            /* 2 */
            "    minDistance 2 MAXDISTANCE 30.5\n"                                      /* 3 */
            "    volume -3 leadinVolume 6\n"                                            /* 4 */
            "    shakes\n"                                                              /* 5 */
            "    reverb 0.5, 0.25\n"                                                    /* 6 */
            "    MASK_LEFT mask_lfe mask_backright\n"                                   /* 7 */
            "    soundClass 2 altSound \"monsters/zfat/alt\"\n"                         /* 8 */
            "    ordered plain onDemand\n"                                              /* 9 */
            "    no_dups LOOPING no_occlusion private antiPrivate playonce\n"           /* 10 */
            "    global unclamped \"omnidirectional\" no_flicker\n"                     /* 11 */
            "    leadin sound\\zfat\\in.wav\n"                                          /* 12 */
            "    sound\\monsters\\zfat\\step1.WAV \"sound/monsters/zfat/step 2.ogg\"\n" /* 13 */
            "}\n";
    test_warnings tw;
    mc_sndshd sh;

    ASSERT(parse_warned(text, &tw, &sh));
    EXPECT_EQ_INT(tw.count, 0);
    EXPECT_EQ_STR(sh.name, "monsters/zfat/step");
    EXPECT_EQ_STR(sh.file, "s.sndshd");
    EXPECT(sh.line == 1 && sh.col == 1 && !sh.implicit && !sh.defaulted);
    EXPECT_EQ_STR(sh.description, "fat steps");
    EXPECT_EQ_INT(sh.min_samples, 4);
    EXPECT(sh.parms.min_distance == 2.0f && sh.parms.max_distance == 30.5f);
    EXPECT(sh.parms.volume == -3.0f && sh.leadin_volume == 6.0f);
    EXPECT(sh.parms.shakes == 1.0f); /* no number after it: 1 */
    /* 1 << LEFT (0) | 1 << LFE (3) | 1 << BACKRIGHT (5) = 1 + 8 + 32 */
    EXPECT_EQ_INT(sh.speaker_mask, 41);
    EXPECT_EQ_INT(sh.parms.sound_class, 2);
    EXPECT_EQ_STR(sh.alt_sound, "monsters/zfat/alt");
    /* all ten flags: 1 + 2 + ... + 512 */
    EXPECT_EQ_INT(sh.parms.flags, 1023);
    ASSERT(sh.num_leadins == 1 && sh.num_entries == 2);
    EXPECT_EQ_STR(sh.leadins[0].file, "sound/zfat/in.wav");
    EXPECT(sh.leadins[0].line == 12 && sh.leadins[0].col == 12);
    EXPECT_EQ_STR(sh.entries[0].file, "sound/monsters/zfat/step1.WAV");
    EXPECT(sh.entries[0].line == 13 && sh.entries[0].col == 5);
    EXPECT_EQ_STR(sh.entries[1].file, "sound/monsters/zfat/step 2.ogg");
    EXPECT(sh.entries[1].line == 13 && sh.entries[1].col == 35);
    mc_sndshd_release(&sh);
}

TEST(takes_the_engines_defaults_and_shakes_numbers)
{
    mc_sndshd sh;
    mc_error err;

    ASSERT_OK(parse("x { a.wav }", NULL, &sh, &err), &err);
    EXPECT(sh.parms.min_distance == 1.0f && sh.parms.max_distance == 10.0f);
    EXPECT(sh.parms.volume == 1.0f && sh.parms.shakes == 0.0f);
    EXPECT(sh.parms.flags == 0 && sh.parms.sound_class == 0);
    EXPECT(sh.leadin_volume == 0.0f && sh.speaker_mask == 0 && sh.min_samples == 0);
    EXPECT(sh.description == NULL && sh.alt_sound == NULL && sh.num_leadins == 0);
    mc_sndshd_release(&sh);
    /* shakes reads a number on any line (ExpectAnyToken); description one token of its own
     * line only (ReadTokenOnLine: the empty text) */
    ASSERT_OK(parse("x {\n shakes\n 0.75 description\n a.ogg\n}", NULL, &sh, &err), &err);
    EXPECT(sh.parms.shakes == 0.75f);
    EXPECT_EQ_STR(sh.description, "");
    EXPECT(sh.num_entries == 1);
    mc_sndshd_release(&sh);
}

/* Entries and leadins past the 32 the engine keeps are dropped, one warning at the first;
 * minSamples 40 would raise the engine's cap past its arrays: md5cine keeps 32. */
TEST(keeps_32_files)
{
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "x {\nminSamples 40\n");
    test_warnings tw;
    mc_sndshd sh;

    for (int i = 0; i < 34; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "s%02d.wav leadin l%02d\n", i, i);
    snprintf(text + n, sizeof text - n, "}\n");
    ASSERT(parse_warned(text, &tw, &sh));
    EXPECT(sh.num_entries == 32 && sh.num_leadins == 32 && sh.min_samples == 40);
    EXPECT_EQ_STR(sh.entries[31].file, "s31.wav");
    EXPECT_EQ_STR(sh.leadins[31].file, "l31");
    ASSERT(tw.count == 1); /* line 3 + 32 = 35 holds s32.wav */
    EXPECT(tw.first[0].line == 35 && tw.first[0].col == 1);
    EXPECT_CONTAINS(tw.first[0].msg, "more than 32 sound files");
    mc_sndshd_release(&sh);
}

TEST(warns_about_an_unknown_keyword_and_plays_on)
{
    const char *text = "x {\n"                                   /* 1 */
                       "  loping  b.wav\n"                       /* 2 */
                       "  editor_displayFolder \"Wind\" a.wav\n" /* 3 */
                       "}\n";
    test_warnings tw;
    mc_sndshd sh;

    ASSERT(parse_warned(text, &tw, &sh));
    ASSERT(tw.count == 2);
    EXPECT(tw.first[0].line == 2 && tw.first[0].col == 3);
    EXPECT_CONTAINS(tw.first[0].msg,
                    "unknown keyword 'loping' in sound shader 'x' skipped (did you mean "
                    "'looping'?)");
    EXPECT(tw.first[1].line == 3 && tw.first[1].col == 3);
    EXPECT_CONTAINS(tw.first[1].msg, "'editor_displayFolder'");
    EXPECT_EQ_STR(tw.first[0].file, "s.sndshd");
    /* "Wind" went with the unknown keyword; the sound files on their lines did not */
    ASSERT(sh.num_entries == 2);
    EXPECT_EQ_STR(sh.entries[0].file, "b.wav");
    EXPECT_EQ_STR(sh.entries[1].file, "a.wav");
    EXPECT(sh.parms.flags == 0);
    mc_sndshd_release(&sh);
}

TEST(makes_the_implicit_shader)
{
    mc_sndshd sh;
    mc_error err;

    /* canonical (lower case, no extension) plus ".wav" (SetDefaultText) */
    ASSERT_OK(mc_sndshd_implicit("Sound\\Monsters\\Step.ogg", &sh, &err), &err);
    EXPECT_EQ_STR(sh.name, "sound/monsters/step");
    EXPECT(sh.implicit && !sh.defaulted && sh.num_entries == 1);
    EXPECT_EQ_STR(sh.entries[0].file, "sound/monsters/step.wav");
    EXPECT(sh.parms.volume == 1.0f && sh.parms.max_distance == 10.0f);
    mc_sndshd_release(&sh);
    /* the last '.' goes, in a folder too: "sound/x" */
    ASSERT_OK(mc_sndshd_implicit("sound/x.y/z", &sh, &err), &err);
    EXPECT_EQ_STR(sh.entries[0].file, "sound/x.wav");
    mc_sndshd_release(&sh);
    /* "a.b.c" is named "a.b", which has an extension: the file "a.b" is no sound file */
    ASSERT_OK(mc_sndshd_implicit("a.b.c", &sh, &err), &err);
    EXPECT_EQ_STR(sh.name, "a.b");
    EXPECT(sh.implicit && sh.defaulted && sh.num_entries == 0);
    mc_sndshd_release(&sh);
    EXPECT_EQ_INT(mc_sndshd_implicit("", &sh, &err), MC_ERR_SYNTAX);
    EXPECT(sh.name == NULL);
}

TEST(overrides_as_the_emitter_does)
{
    const mc_sound_parms shader = { 1.0f, 10.0f, 1.0f, 0.0f, MC_SSF_LOOPING, 0 };
    const mc_sound_parms entity = { 0.0f, 30.0f, -3.0f, 0.5f, MC_SSF_GLOBAL, 2 };
    const mc_sound_parms none = { 0 };
    mc_sound_parms out;

    mc_sndshd_override_parms(&shader, &entity, &out);
    EXPECT(out.min_distance == 1.0f && out.max_distance == 30.0f && out.volume == -3.0f);
    EXPECT(out.shakes == 0.5f && out.sound_class == 2);
    EXPECT_EQ_INT(out.flags, MC_SSF_LOOPING | MC_SSF_GLOBAL);
    mc_sndshd_override_parms(&shader, &none, &out);
    EXPECT(memcmp(&out, &shader, sizeof out) == 0);
    out = shader; /* in place */
    mc_sndshd_override_parms(&out, &entity, &out);
    EXPECT(out.max_distance == 30.0f && out.min_distance == 1.0f);
}

/* A base folder of the given files (folder/name, text), fresh. */
static void make_base(char *base, size_t cap, const char *leaf, const char *const (*files)[2],
                      int n)
{
    char dir[1100];

    test_tmp_path(base, cap, leaf);
    for (int i = 0; i < n; i++) {
        const char *slash = strrchr(files[i][0], '/');

        snprintf(dir, sizeof dir, "%s/%.*s", base, (int)(slash - files[i][0]), files[i][0]);
        mc_mkdirs(dir);
        test_write_file(base, files[i][0], files[i][1]);
    }
}

TEST(the_base_finds_parses_once_and_silences_a_broken_shader)
{
    static const char *const files[][2] = {
        { "sound/a.sndshd", "step { a1.wav a2.wav }\n"
                            "broken {\n  volume 2\n  soundClass 9\n}\n"
                            "dup { first.wav }\n" },
        { "sound/b.sndshd", "dup { second.wav }\nsound typed_elsewhere { wrong.wav }\n" },
        { "def/m.def", "sound typed { t.wav }\nentityDef e { \"k\" \"v\" }\n" },
    };
    char base[1024];
    test_warnings tw = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &tw };
    mc_vfs *v;
    mc_material_set *set;
    const mc_sndshd *a, *b;
    mc_status st;
    mc_error err;

    make_base(base, sizeof base, "sndshd_base", files, 3);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    a = mc_material_set_sound(set, "STEP.wav", &st, &err); /* canonicalised */
    ASSERT_OK(st, &err);
    ASSERT(a && a->num_entries == 2);
    EXPECT_EQ_STR(a->entries[1].file, "a2.wav");
    EXPECT_CONTAINS(a->file, "sound/a.sndshd");
    EXPECT(mc_material_set_sound(set, "step", &st, &err) == a); /* kept */
    a = mc_material_set_sound(set, "dup", &st, &err);
    ASSERT(a && a->num_entries == 1);
    EXPECT_EQ_STR(a->entries[0].file, "first.wav"); /* the first file's wins */
    a = mc_material_set_sound(set, "typed", &st, &err);
    ASSERT(a && a->num_entries == 1);
    EXPECT_EQ_STR(a->entries[0].file, "t.wav");
    EXPECT(mc_material_set_sound(set, "nosuch", &st, &err) == NULL);
    ASSERT_OK(st, &err);
    EXPECT_EQ_INT(tw.count, 0);
    /* broken: one warning at its error, a silent shader in its place, only once */
    b = mc_material_set_sound(set, "broken", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(b && b->defaulted && b->num_entries == 0);
    EXPECT(b->line == 2 && b->col == 1 && b->parms.volume == 1.0f);
    ASSERT(tw.count == 1);
    EXPECT(tw.first[0].line == 4 && tw.first[0].col == 14);
    EXPECT_CONTAINS(tw.first[0].msg, "soundClass 9 is out of range 0 to 3; sound shader "
                                     "'broken' is silent");
    EXPECT(mc_material_set_sound(set, "broken", &st, &err) == b && tw.count == 1);
    mc_material_set_destroy(set);
    /* --strict: the error itself */
    opts.strict_game_data = true;
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    EXPECT(mc_material_set_sound(set, "broken", &st, &err) == NULL);
    EXPECT_EQ_INT(st, MC_ERR_RANGE);
    EXPECT(err.line == 4 && err.col == 14);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}
