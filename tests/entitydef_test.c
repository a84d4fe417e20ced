/* Entity declarations (entitydef.h): key/value pairs as idDeclEntityDef::Parse reads them,
 * inheritance merged as idDict::SetDefaults does it, through the base's set (material.h), and
 * the s_* keys applied onto a sound shader's parameters as ParseSpawnArgsToRefSound and
 * OverrideParms do. Expected orders and values are worked out by hand from that code;
 * positions are counted by hand in the inputs. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/entitydef.h>
#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/vfs.h>

#include "decl_fixture.h"
#include "test.h"

DECL_PARSER(parse, mc_entitydef, "e.def", "entityDef", mc_entitydef_parse_span)

TEST(reads_pairs_classname_and_inherits)
{
    const char *text = "entityDef Monster_X {\n"                  /* 1 */
                       "    \"model\"    \"x\"\n"                 /* 2 */
                       "    \"inherit\"  \"base\"\n"              /* 3 */
                       "    \"health\"   100\n"                   /* 4 */
                       "    \"MODEL\"    \"y\"  // given again\n" /* 5 */
                       "    \"Inherit2\" \"other\"\n"             /* 6 */
                       "}\n";
    test_warnings tw = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &tw };
    mc_entitydef d;
    mc_error err;

    ASSERT_OK(parse(text, &opts, &d, &err), &err);
    EXPECT_EQ_STR(d.name, "monster_x");
    EXPECT(!d.merged);
    /* model (first place, later value), health, classname; the inherit keys taken out */
    ASSERT(d.num_pairs == 3);
    EXPECT_EQ_STR(d.pairs[0].key, "model");
    EXPECT_EQ_STR(d.pairs[0].value, "y");
    EXPECT(d.pairs[0].line == 5 && d.pairs[0].col == 5);
    EXPECT_EQ_STR(d.pairs[1].key, "health");
    EXPECT_EQ_STR(d.pairs[1].value, "100"); /* an unquoted value */
    EXPECT_EQ_STR(d.pairs[2].key, "classname");
    EXPECT_EQ_STR(d.pairs[2].value, "monster_x");
    EXPECT(d.pairs[2].line == 1 && d.pairs[2].col == 1);
    ASSERT(d.num_inherits == 2);
    EXPECT_EQ_STR(d.inherits[0].value, "base");
    EXPECT_EQ_STR(d.inherits[1].value, "other");
    EXPECT(d.inherits[1].line == 6 && d.inherits[1].col == 5);
    ASSERT(tw.count == 1);
    EXPECT(tw.first[0].line == 5 && tw.first[0].col == 5);
    EXPECT_CONTAINS(tw.first[0].msg, "'MODEL' already defined in entityDef 'monster_x'");
    EXPECT_EQ_STR(mc_entitydef_value(&d, "Model", "none"), "y");
    EXPECT_EQ_STR(mc_entitydef_value(&d, "skin", "none"), "none");
    mc_entitydef_release(&d);
}

/* A given classname keeps its place and takes the declaration's name; the end of the text
 * before a '}' ends the pairs, as in the engine's loop. */
TEST(sets_classname_and_reads_to_the_end)
{
    mc_entitydef d;
    mc_error err;

    ASSERT_OK(parse("entityDef a { \"classname\" \"b\" \"k\" \"v\"", NULL, &d, &err), &err);
    ASSERT(d.num_pairs == 2);
    EXPECT_EQ_STR(d.pairs[0].key, "classname");
    EXPECT_EQ_STR(d.pairs[0].value, "a");
    EXPECT_EQ_STR(d.pairs[1].value, "v");
    mc_entitydef_release(&d);
}

/* The sound keys, worked by hand: atof and atoi of the values (a leading number, 0 without
 * one; atoi("2.9") is 2, atoi("true") 0), a non-zero key overriding the shader's value. */
TEST(applies_sound_keys_as_the_engine)
{
    const char *text =
            "entityDef s {\n"
            "  \"s_volume\" \"-6 dB\" \"s_mindistance\" \"2\" \"s_maxdistance\" \"abc\"\n"
            "  \"s_shakes\" \"0.5\" \"s_looping\" \"2.9\" \"s_omni\" \"true\"\n"
            "  \"s_global\" \" 1\" \"s_occlusion\" \"0\" \"s_unclamped\" \"-1\"\n"
            "  \"s_soundClass\" \"3\" \"s_diversity\" \"0.25\"\n"
            "}\n";
    mc_sound_parms parms = { 1.0f, 10.0f, 1.0f, 0.0f, MC_SSF_NO_DUPS, 0 }, over;
    mc_entitydef d;
    mc_error err;
    float div;

    ASSERT_OK(parse(text, NULL, &d, &err), &err);
    ASSERT_OK(mc_entitydef_sound_parms(&d, &over, &div, &err), &err);
    EXPECT(over.volume == -6.0f && over.min_distance == 2.0f && over.max_distance == 0.0f);
    EXPECT(over.shakes == 0.5f && over.sound_class == 3 && div == 0.25f);
    EXPECT_EQ_INT(over.flags, MC_SSF_LOOPING | MC_SSF_GLOBAL | MC_SSF_UNCLAMPED);
    ASSERT_OK(mc_entitydef_apply_sound(&d, &parms, &err), &err);
    EXPECT(parms.min_distance == 2.0f && parms.max_distance == 10.0f);
    EXPECT(parms.volume == -6.0f && parms.shakes == 0.5f && parms.sound_class == 3);
    EXPECT_EQ_INT(parms.flags, MC_SSF_NO_DUPS | MC_SSF_LOOPING | MC_SSF_GLOBAL | MC_SSF_UNCLAMPED);
    mc_entitydef_release(&d);
    /* no keys: nothing overridden, diversity -1 (a random one per start) */
    ASSERT_OK(parse("entityDef n { }", NULL, &d, &err), &err);
    ASSERT_OK(mc_entitydef_sound_parms(&d, &over, &div, &err), &err);
    EXPECT(div == -1.0f && over.volume == 0.0f && over.flags == 0);
    mc_entitydef_release(&d);
}

TEST(rejects_sound_keys_the_engine_would_misuse)
{
    const char *text = "entityDef s {\n \"s_soundClass\" \"7\"\n \"s_volume\" \"nan\"\n}\n";
    mc_sound_parms parms = { 1.0f, 10.0f, 1.0f, 0.0f, 0, 0 }, before = parms;
    mc_entitydef d;
    mc_error err;

    ASSERT_OK(parse(text, NULL, &d, &err), &err);
    EXPECT_EQ_INT(mc_entitydef_apply_sound(&d, &parms, &err), MC_ERR_RANGE);
    EXPECT(err.line == 3 && err.col == 2); /* the floats are read first */
    EXPECT_CONTAINS(err.msg, "'s_volume' of entityDef 's' is 'nan', which is no finite number");
    EXPECT(memcmp(&parms, &before, sizeof parms) == 0);
    mc_entitydef_release(&d);
    ASSERT_OK(parse("entityDef s {\n \"s_soundClass\" \"-1\"\n}\n", NULL, &d, &err), &err);
    EXPECT_EQ_INT(mc_entitydef_apply_sound(&d, &parms, &err), MC_ERR_RANGE);
    EXPECT(err.line == 2 && err.col == 2);
    EXPECT_CONTAINS(err.msg, "is -1, out of range 0 to 3");
    mc_entitydef_release(&d);
}

/* A set over a fresh base whose def/a.def holds text. */
static mc_material_set *set_of(const char *leaf, const char *text, const mc_parse_opts *opts,
                               mc_vfs **v)
{
    char base[1024], dir[1100];
    mc_material_set *set = NULL;
    mc_error err;

    test_tmp_path(base, sizeof base, leaf);
    snprintf(dir, sizeof dir, "%s/def", base);
    mc_mkdirs(dir);
    if (!test_write_file(base, "def/a.def", text) || mc_vfs_open(base, v, &err) != MC_OK)
        return NULL;
    if (mc_material_set_load(*v, opts, &set, &err) != MC_OK) {
        mc_vfs_destroy(*v);
        return NULL;
    }
    return set;
}

/* top inherits mid (which inherits base) and then other. By SetDefaults, in order: top's own
 * keys and classname; mid's merged list (health, s_mindistance, [classname], then base's
 * s_volume, snd_step, [health], [classname]) for what top lacks; then other's s_shakes. */
TEST(merges_inherited_keys_in_the_engines_order)
{
    const char *text =
            "entityDef base { \"s_volume\" \"-6\" \"snd_step\" \"base_step\" \"health\" \"100\" }\n"
            "entityDef mid { \"inherit\" \"base\" \"health\" \"50\" \"s_mindistance\" \"2\" }\n"
            "entityDef top { \"inherit\" \"mid\" \"inherit2\" \"other\" \"model\" \"x\"\n"
            "                \"s_looping\" \"1\" \"inherit3\" \"nowhere\" }\n"
            "entityDef other { \"model\" \"o\" \"s_shakes\" \"0.5\" \"health\" \"1\" }\n";
    static const char *const want[][2] = {
        { "model", "x" },
        { "s_looping", "1" },
        { "classname", "top" },
        { "health", "50" },
        { "s_mindistance", "2" },
        { "s_volume", "-6" },
        { "snd_step", "base_step" },
        { "s_shakes", "0.5" },
    };
    test_warnings tw = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &tw };
    mc_vfs *v;
    mc_material_set *set = set_of("entitydef_merge", text, &opts, &v);
    mc_sound_parms parms = { 1.0f, 10.0f, 1.0f, 0.0f, 0, 0 };
    const mc_entitydef *d;
    mc_status st;
    mc_error err;

    ASSERT(set);
    d = mc_material_set_entitydef(set, "TOP", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(d && d->merged && d->num_pairs == 8);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ_STR(d->pairs[i].key, want[i][0]);
        EXPECT_EQ_STR(d->pairs[i].value, want[i][1]);
    }
    EXPECT(d->pairs[5].line == 1 && d->pairs[5].col == 18); /* base's s_volume, where it is */
    EXPECT_CONTAINS(d->pairs[5].file, "def/a.def");
    EXPECT(d->num_inherits == 3);
    /* the unknown inherit: the engine's warning, at its key (line 4: 16 spaces, then 16 bytes) */
    ASSERT(tw.count == 1);
    EXPECT(tw.first[0].line == 4 && tw.first[0].col == 33);
    EXPECT_CONTAINS(tw.first[0].msg, "unknown entityDef 'nowhere' inherited by 'top'");
    ASSERT_OK(mc_entitydef_apply_sound(d, &parms, &err), &err);
    EXPECT(parms.min_distance == 2.0f && parms.volume == -6.0f && parms.shakes == 0.5f);
    EXPECT(parms.max_distance == 10.0f && parms.flags == MC_SSF_LOOPING);
    EXPECT(mc_material_set_entitydef(set, "top", &st, &err) == d); /* kept */
    EXPECT(mc_material_set_entitydef(set, "nosuch", &st, &err) == NULL);
    ASSERT_OK(st, &err);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

TEST(rejects_cycles_and_chains_too_deep)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "entityDef c1 { \"inherit\" \"c2\" }\n"
                                "entityDef c2 {\n  \"inherit\" \"c1\"\n}\n");
    mc_vfs *v;
    mc_material_set *set;
    mc_status st;
    mc_error err;

    /* d0 inherits d1 ... d31: 32 deep, the limit; e0 ... e32 is one more */
    for (int i = 0; i < 31; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "entityDef d%d { \"inherit\" \"d%d\" }\n",
                              i, i + 1);
    n += (size_t)snprintf(text + n, sizeof text - n, "entityDef d31 { \"k\" \"deep\" }\n");
    for (int i = 0; i < 32; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "entityDef e%d { \"inherit\" \"e%d\" }\n",
                              i, i + 1);
    snprintf(text + n, sizeof text - n, "entityDef e32 { }\n");
    set = set_of("entitydef_cycle", text, NULL, &v);
    ASSERT(set);
    EXPECT(mc_material_set_entitydef(set, "c1", &st, &err) == NULL);
    EXPECT_EQ_INT(st, MC_ERR_SYNTAX);
    EXPECT(err.line == 3 && err.col == 3); /* c2's inherit closes it */
    EXPECT_CONTAINS(err.msg, "inherit cycle: entityDef 'c2' inherits 'c1', which inherits it");
    EXPECT(mc_material_set_entitydef(set, "c2", &st, &err) == NULL && st == MC_ERR_SYNTAX);
    {
        const mc_entitydef *d = mc_material_set_entitydef(set, "d0", &st, &err);

        ASSERT_OK(st, &err);
        EXPECT(d && strcmp(mc_entitydef_value(d, "k", ""), "deep") == 0);
    }
    EXPECT(mc_material_set_entitydef(set, "e0", &st, &err) == NULL);
    EXPECT_EQ_INT(st, MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "entityDef 'e31' inherits more than 32 deep");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

/* A declaration that does not parse: one warning, left out (NULL, MC_OK), and one inheriting
 * it gets nothing from it; under strict_game_data the error itself. */
TEST(leaves_out_a_broken_declaration)
{
    const char *text = "entityDef bad {\n  model \"x\"\n}\n"
                       "entityDef child { \"inherit\" \"bad\" \"k\" \"v\" }\n";
    test_warnings tw = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &tw };
    mc_vfs *v;
    mc_material_set *set = set_of("entitydef_bad", text, &opts, &v);
    const mc_entitydef *d;
    mc_status st;
    mc_error err;

    ASSERT(set);
    d = mc_material_set_entitydef(set, "child", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(d && d->num_pairs == 2); /* k, classname */
    ASSERT(tw.count == 1);
    EXPECT(tw.first[0].line == 2 && tw.first[0].col == 3);
    EXPECT_CONTAINS(tw.first[0].msg, "expected a quoted key in entityDef 'bad', found 'model'; "
                                     "entityDef 'bad' is left out");
    EXPECT(mc_material_set_entitydef(set, "bad", &st, &err) == NULL && st == MC_OK);
    EXPECT_EQ_INT(tw.count, 1);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
    opts.strict_game_data = true;
    set = set_of("entitydef_bad_strict", text, &opts, &v);
    ASSERT(set);
    EXPECT(mc_material_set_entitydef(set, "child", &st, &err) == NULL);
    EXPECT(st == MC_ERR_SYNTAX && err.line == 2 && err.col == 3);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}
