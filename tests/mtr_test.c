/* The .mtr parser: declarations, stages, blends, image programs, switches, skipped keywords
 * and declarations, and a golden table of errors with their positions (counted by hand). */
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/mtr.h>

#include "test.h"

static mc_status parse(const char *text, mc_mtr_file *f, mc_error *err, test_warnings *log)
{
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = log };

    return mc_mtr_parse(text, strlen(text), "t.mtr", &opts, f, err);
}

static const char *prog(const mc_mtr_prog *g, char *buf, size_t cap)
{
    return g ? mc_mtr_prog_text(g, buf, cap) : "(none)";
}

TEST(parses_the_imp_material)
{
    const char *text = "models/monsters/imp/imp\n"
                       "{\n"
                       "    diffusemap  models/monsters/imp/imp_d.tga\n"
                       "    bumpmap     addnormals(models/monsters/imp/imp_local, "
                       "heightmap(models/monsters/imp/imp_h, 4))\n"
                       "    specularmap models/monsters/imp/imp_s\n"
                       "}\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    char buf[256];

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 1);
    EXPECT_EQ_STR(f.decls[0].name, "models/monsters/imp/imp");
    EXPECT_EQ_INT(f.decls[0].line, 1);
    EXPECT_EQ_INT(f.decls[0].col, 1);
    ASSERT(f.decls[0].num_stages == 3);
    EXPECT_EQ_INT(f.decls[0].stages[0].kind, MC_STAGE_DIFFUSE);
    EXPECT_EQ_STR(prog(f.decls[0].stages[0].map, buf, sizeof buf), "models/monsters/imp/imp_d.tga");
    EXPECT_EQ_INT(f.decls[0].stages[1].kind, MC_STAGE_BUMP);
    EXPECT_EQ_STR(
            prog(f.decls[0].stages[1].map, buf, sizeof buf),
            "addnormals(models/monsters/imp/imp_local, heightmap(models/monsters/imp/imp_h, 4))");
    EXPECT_EQ_INT(f.decls[0].stages[1].map->kind, MC_PROG_ADDNORMALS);
    EXPECT_EQ_INT(f.decls[0].stages[1].map->arg[1]->kind, MC_PROG_HEIGHTMAP);
    EXPECT_NEAR(f.decls[0].stages[1].map->arg[1]->value[0], 4.0, 0);
    EXPECT_EQ_INT(f.decls[0].stages[2].kind, MC_STAGE_SPECULAR);
    EXPECT_EQ_INT(log.count, 0);
    EXPECT(mc_mtr_find(&f, "Models\\Monsters\\Imp\\IMP.tga") == &f.decls[0]);
    EXPECT(mc_mtr_find(&f, "models/monsters/imp") == NULL);
    mc_mtr_release(&f);
}

TEST(reads_stages_blends_and_switches)
{
    const char *text =
            "material Textures/Glass { twoSided\n translucent noShadows noSelfShadow polygonOffset\n"
            "  alphaTest 0.25\n"
            "  { blend diffusemap\n map _white\n alphaTest 0.5 }\n"
            "  { blend add map scale(glow, 0.5) rgb 0.75 }\n"
            "  { blend GL_DST_COLOR, GL_ONE_MINUS_SRC_COLOR\n map invertColor(makeAlpha(x)) "
            "color 1, 0.5, 0.25, 1 }\n"
            "  { blend filter map smoothnormals(add(invertAlpha(a), makeIntensity(b))) }\n"
            "  { blend blend map a } { blend none map a } { blend modulate map a } { map _flat }\n"
            "}\n"
            "second { polygonOffset 3 }\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    const mc_mtr_decl *d;
    char buf[256];

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 2);
    d = &f.decls[0];
    EXPECT_EQ_STR(d->name, "textures/glass");
    EXPECT(d->flags == (MC_MTR_TWO_SIDED | MC_MTR_TRANSLUCENT | MC_MTR_NO_SHADOWS |
                       MC_MTR_NO_SELF_SHADOW));
    EXPECT(!(f.decls[1].flags & MC_MTR_NO_SELF_SHADOW));
    EXPECT_NEAR(d->polygon_offset, 1.0, 0);
    EXPECT(d->has_alpha_test);
    EXPECT_NEAR(d->alpha_test, 0.25, 1e-7);
    ASSERT(d->num_stages == 8);
    EXPECT_EQ_INT(d->stages[0].kind, MC_STAGE_DIFFUSE);
    EXPECT_NEAR(d->stages[0].alpha_test, 0.5, 0);
    EXPECT_EQ_STR(prog(d->stages[0].map, buf, sizeof buf), "_white");
    EXPECT_EQ_INT(d->stages[1].kind, MC_STAGE_COLOR);
    EXPECT_EQ_INT(d->stages[1].blend.src, MC_BLEND_ONE);
    EXPECT_EQ_INT(d->stages[1].blend.dst, MC_BLEND_ONE);
    EXPECT_EQ_STR(prog(d->stages[1].map, buf, sizeof buf), "scale(glow, 0.5, 1, 1, 1)");
    EXPECT_NEAR(d->stages[1].color[0], 0.75, 0);
    EXPECT_NEAR(d->stages[1].color[3], 1.0, 0);
    EXPECT_EQ_INT(d->stages[2].blend.src, MC_BLEND_DST_COLOR);
    EXPECT_EQ_INT(d->stages[2].blend.dst, MC_BLEND_ONE_MINUS_SRC_COLOR);
    EXPECT_EQ_STR(prog(d->stages[2].map, buf, sizeof buf), "invertColor(makeAlpha(x))");
    EXPECT_NEAR(d->stages[2].color[1], 0.5, 0);
    EXPECT_NEAR(d->stages[2].color[2], 0.25, 0);
    EXPECT_EQ_INT(d->stages[3].blend.src, MC_BLEND_DST_COLOR);
    EXPECT_EQ_INT(d->stages[3].blend.dst, MC_BLEND_ZERO);
    EXPECT_EQ_STR(prog(d->stages[3].map, buf, sizeof buf),
                  "smoothnormals(add(invertAlpha(a), makeIntensity(b)))");
    EXPECT_EQ_INT(d->stages[4].blend.src, MC_BLEND_SRC_ALPHA);
    EXPECT_EQ_INT(d->stages[4].blend.dst, MC_BLEND_ONE_MINUS_SRC_ALPHA);
    EXPECT_EQ_INT(d->stages[5].blend.src, MC_BLEND_ZERO);
    EXPECT_EQ_INT(d->stages[5].blend.dst, MC_BLEND_ONE);
    EXPECT_EQ_INT(d->stages[6].blend.src, MC_BLEND_DST_COLOR);
    EXPECT_EQ_INT(d->stages[7].blend.src, MC_BLEND_ONE); /* no blend: opaque */
    EXPECT_EQ_INT(d->stages[7].blend.dst, MC_BLEND_ZERO);
    EXPECT_NEAR(f.decls[1].polygon_offset, 3.0, 0);
    EXPECT_EQ_INT(log.count, 0);
    mc_mtr_release(&f);
}

TEST(skips_tables_guides_and_other_declarations)
{
    const char *text = "table sintable { snap { 0, 1, 0, -1 } }\n"
                       "guide textures/a/b generic_shader(textures/a/b, 2)\n"
                       "skin skins/x { foo bar }\n"
                       "real { diffusemap a }\n"
                       "skin skins/y { }\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 1);
    EXPECT_EQ_STR(f.decls[0].name, "real");
    EXPECT_EQ_INT(log.count, 1); /* 'skin' once, though it appears twice */
    EXPECT_AT(&log.first[0], 3, 1, "declaration type 'skin' skipped");
    mc_mtr_release(&f);
}

TEST(warns_once_per_unknown_keyword)
{
    const char *text = "a {\n"
                       "    qer_editorimage textures/a.tga\n"
                       "    description \"one\"\n"
                       "    { blend add map x scroll time * 0.1, 0\n"
                       "      if ( parm7 > 0 ) }\n"
                       "    qer_editorimage textures/b.tga\n"
                       "    sort decal texgen sprite\n"
                       "    diffusemap d\n"
                       "}\n"
                       "b { QER_EDITORIMAGE c { blend add\n rgb 0.5 * parm0\n map e } }\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 2);
    ASSERT(f.decls[0].num_stages == 2);
    EXPECT_EQ_INT(f.decls[0].stages[1].kind, MC_STAGE_DIFFUSE);
    EXPECT(f.decls[0].stages[0].conditional && !f.decls[0].stages[1].conditional);
    ASSERT(f.decls[1].num_stages == 1);
    EXPECT_NEAR(f.decls[1].stages[0].color[0], 1.0, 0); /* not a constant: see expr */
    /* qer_editorimage, description, sort, texgen (after sort's one token): one each; the
     * expressions of scroll, if and rgb are read, not skipped. */
    EXPECT_EQ_INT(log.count, 4);
    EXPECT_AT(&log.first[0], 2, 5, "unknown keyword 'qer_editorimage' skipped");
    EXPECT_AT(&log.first[2], 7, 5, "'sort'");
    EXPECT_AT(&log.last, 7, 16, "unknown keyword 'texgen' skipped");
    mc_mtr_release(&f);
}

/* mtr_keywords.h: each row's keyword, in any case, sets its bit (twoSided bit 0 ...
 * unsmoothedTangents bit 5); a word that is no switch sets none. */
TEST(reads_every_switch_of_the_table)
{
    static const char text[] = "a { TWOSIDED diffusemap x }\nb { noselfshadow ambientLight }\n"
                               "c { translucent noShadows unsmoothedTangents }\nd { nearest }\n";
    mc_mtr_file f;
    mc_error err;
    size_t n;

    EXPECT(mc_mtr_keywords(&n)[0].bit == 1u && n == 6);
    EXPECT_EQ_INT(mc_mtr_keyword_bit("noShadowsX", 9), 4); /* "noShadows" */
    EXPECT_EQ_INT(mc_mtr_keyword_bit("noShadowsX", 10), 0);
    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "s.mtr", NULL, &f, &err), &err);
    ASSERT(f.num_decls == 4);
    EXPECT_EQ_INT(f.decls[0].flags, 1);
    EXPECT_EQ_INT(f.decls[1].flags, 8 + 16);
    EXPECT_EQ_INT(f.decls[2].flags, 2 + 4 + 32);
    EXPECT_EQ_INT(f.decls[3].flags, 0);
    mc_mtr_release(&f);
}

/* Doom reads the arguments of alphaTest, color, rgb, if, scroll, ... as expressions, token by
 * token: an expression ends before the first token that is not an operator, on the same line
 * or not, so the keywords after it are read. */
TEST(reads_keywords_sharing_a_line)
{
    const char *text = "a { alphaTest 0.5 diffusemap x }\n"
                       "b { { blend add alphaTest 0.25 color 1, 0.5, 0.25, 0.75 map y } }\n"
                       "c { { rgb 0.5 * parm0 map z alphaTest 0.75 } }\n"
                       "d { { if parm7 > 0 && parm3 == 1 map w red 0.5 } twoSided }\n"
                       "e { { scroll time * -0.1, t[ time * 2 ] blend add map v } }\n"
                       "f { alphaTest 0.5 -0.25 translucent }\n"
                       "g { { rgba ( parm0 ) / 2 blue 0.125 map u alpha 0 } }\n"
                       "h { noSelfShadow sort decal diffusemap s { nearest map r } }\n"
                       "table t { { 0, 1 } }\n";
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    char buf[64];

    ASSERT_OK(parse(text, &f, &err, &log), &err);
    ASSERT(f.num_decls == 8);
    /* a: the material's alphaTest, then its diffusemap stage */
    EXPECT(f.decls[0].has_alpha_test);
    EXPECT_NEAR(f.decls[0].alpha_test, 0.5, 0);
    ASSERT(f.decls[0].num_stages == 1);
    EXPECT_EQ_INT(f.decls[0].stages[0].kind, MC_STAGE_DIFFUSE);
    EXPECT_EQ_STR(prog(f.decls[0].stages[0].map, buf, sizeof buf), "x");
    /* b: four keywords of one stage on one line */
    ASSERT(f.decls[1].num_stages == 1);
    EXPECT_EQ_INT(f.decls[1].stages[0].blend.src, MC_BLEND_ONE);
    EXPECT_EQ_INT(f.decls[1].stages[0].blend.dst, MC_BLEND_ONE);
    EXPECT(f.decls[1].stages[0].has_alpha_test);
    EXPECT_NEAR(f.decls[1].stages[0].alpha_test, 0.25, 0);
    EXPECT_NEAR(f.decls[1].stages[0].color[0], 1.0, 0);
    EXPECT_NEAR(f.decls[1].stages[0].color[1], 0.5, 0);
    EXPECT_NEAR(f.decls[1].stages[0].color[2], 0.25, 0);
    EXPECT_NEAR(f.decls[1].stages[0].color[3], 0.75, 0);
    EXPECT_EQ_STR(prog(f.decls[1].stages[0].map, buf, sizeof buf), "y");
    /* c: the expression 0.5 * parm0 ends before map */
    ASSERT(f.decls[2].num_stages == 1);
    EXPECT_NEAR(f.decls[2].stages[0].color[0], 1.0, 0);
    EXPECT_EQ_STR(prog(f.decls[2].stages[0].map, buf, sizeof buf), "z");
    EXPECT(f.decls[2].stages[0].has_alpha_test);
    EXPECT_NEAR(f.decls[2].stages[0].alpha_test, 0.75, 0);
    /* d: the condition with two-character operators, then map and red */
    ASSERT(f.decls[3].num_stages == 1);
    EXPECT(f.decls[3].stages[0].conditional);
    EXPECT_EQ_STR(prog(f.decls[3].stages[0].map, buf, sizeof buf), "w");
    EXPECT_NEAR(f.decls[3].stages[0].color[0], 0.5, 0);
    EXPECT_NEAR(f.decls[3].stages[0].color[1], 1.0, 0);
    EXPECT(f.decls[3].flags & MC_MTR_TWO_SIDED);
    /* e: scroll's two expressions (a negative number after '*', a table lookup) */
    ASSERT(f.decls[4].num_stages == 1);
    EXPECT_EQ_INT(f.decls[4].stages[0].blend.src, MC_BLEND_ONE);
    EXPECT_EQ_STR(prog(f.decls[4].stages[0].map, buf, sizeof buf), "v");
    /* f: 0.5 -0.25 is the expression 0.5 - 0.25, not two numbers; Doom's EmitOp folds only
     * + and *, so it is no constant and the material's own alphaTest skips it */
    EXPECT(!f.decls[5].has_alpha_test);
    EXPECT(f.decls[5].flags & MC_MTR_TRANSLUCENT);
    /* g: a '/' operator after a group; blue and alpha set one component each */
    ASSERT(f.decls[6].num_stages == 1);
    EXPECT_NEAR(f.decls[6].stages[0].color[0], 1.0, 0);
    EXPECT_NEAR(f.decls[6].stages[0].color[2], 0.125, 0);
    EXPECT_NEAR(f.decls[6].stages[0].color[3], 0.0, 0);
    EXPECT_EQ_STR(prog(f.decls[6].stages[0].map, buf, sizeof buf), "u");
    /* h: a flag takes no argument and sort one token, so diffusemap and map are read */
    ASSERT(f.decls[7].num_stages == 2);
    EXPECT_EQ_INT(f.decls[7].stages[0].kind, MC_STAGE_DIFFUSE);
    EXPECT_EQ_STR(prog(f.decls[7].stages[0].map, buf, sizeof buf), "s");
    EXPECT_EQ_STR(prog(f.decls[7].stages[1].map, buf, sizeof buf), "r");
    EXPECT(f.decls[7].flags == MC_MTR_NO_SELF_SHADOW);
    /* alphaTest (f), sort, nearest: one warning each (stage expressions are read; noSelfShadow
     * is a switch md5cine honours, so it is no skipped keyword) */
    EXPECT_EQ_INT(log.count, 3);
    EXPECT_AT(&log.first[0], 6, 5, "expression of 'alphaTest' skipped");
    EXPECT_AT(&log.last, 8, 44, "keyword 'nearest' skipped");
    mc_mtr_release(&f);
}

TEST(keywords_ignore_case)
{
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };

    ASSERT_OK(parse("A { DiffuseMap HeightMap(x, 2) { BLEND GL_one, gl_ZERO MAP y } TWOSIDED }", &f,
                    &err, &log),
              &err);
    ASSERT(f.num_decls == 1 && f.decls[0].num_stages == 2);
    EXPECT_EQ_INT(f.decls[0].stages[0].map->kind, MC_PROG_HEIGHTMAP);
    EXPECT_EQ_INT(f.decls[0].stages[1].blend.src, MC_BLEND_ONE);
    EXPECT(f.decls[0].flags & MC_MTR_TWO_SIDED);
    EXPECT_EQ_INT(log.count, 0);
    mc_mtr_release(&f);
}

static const test_error_case GOLDEN[] = {
    { "a {\n diffusemap\n}", MC_ERR_SYNTAX, 3, 1, "expected an image name, found '}'" },
    { "a {", MC_ERR_SYNTAX, 1, 4, "end of file inside material 'a' opened at line 1, column 3" },
    { "a\nb", MC_ERR_SYNTAX, 2, 2, "expected '{', found end of file" },
    { "a { { map x }", MC_ERR_SYNTAX, 1, 14, "end of file inside material 'a'" },
    { "a { { map x ", MC_ERR_SYNTAX, 1, 13,
      "end of file inside the stage opened at line 1, column 5" },
    { "a { { blend foo } }", MC_ERR_SYNTAX, 1, 13, "unknown blend 'foo'" },
    { "a { { blend GL_SRC_COLOR, GL_ONE } }", MC_ERR_SYNTAX, 1, 13,
      "'GL_SRC_COLOR' is not a source blend factor" },
    { "a { { blend GL_ONE, GL_DST_COLOR } }", MC_ERR_SYNTAX, 1, 21,
      "'GL_DST_COLOR' is not a destination blend factor" },
    { "a { { blend GL_ONE GL_ONE } }", MC_ERR_SYNTAX, 1, 20, "expected ',', found 'GL_ONE'" },
    { "a {\n bumpmap heightmap(x)\n}", MC_ERR_SYNTAX, 2, 21, "expected ',', found ')'" },
    { "a { bumpmap heightmap x, 2) }", MC_ERR_SYNTAX, 1, 23, "expected '(', found 'x'" },
    { "a { bumpmap heightmap(x, y) }", MC_ERR_SYNTAX, 1, 26, "expected number, found 'y'" },
    { "a { bumpmap addnormals(x) }", MC_ERR_SYNTAX, 1, 25, "expected ',', found ')'" },
    { "a { bumpmap smoothnormals(x, 2) }", MC_ERR_SYNTAX, 1, 28, "expected ')', found ','" },
    { "a { diffusemap scale(x, 1, 2, 3, 4, 5) }", MC_ERR_SYNTAX, 1, 35, "expected ')', found ','" },
    { "a { diffusemap scale(x) }", MC_ERR_SYNTAX, 1, 23, "expected ',', found ')'" },
    { "a { diffusemap add(x, (y)) }", MC_ERR_SYNTAX, 1, 23, "expected an image name, found '('" },
    { "a { alphaTest 1.5 }", MC_ERR_RANGE, 1, 15, "invalid 'alphaTest' 1.5, expected 0 to 1" },
    { "a { polygonOffset 2e6 }", MC_ERR_RANGE, 1, 19,
      "invalid 'polygonOffset' 2e+06, expected -1e+06 to 1e+06" },
    { "a { polygonOffset -1e7 }", MC_ERR_RANGE, 1, 19,
      "invalid 'polygonOffset' -1e+07, expected -1e+06 to 1e+06" },
    { "a { alphaTest\n}", MC_ERR_SYNTAX, 2, 1, "expected an expression after 'alphaTest', found '}'" },
    { "a { alphaTest -0.5 }", MC_ERR_RANGE, 1, 15, "invalid 'alphaTest' -0.5, expected 0 to 1" },
    { "a { alphaTest - x }", MC_ERR_SYNTAX, 1, 17, "expected a number after '-', found 'x'" },
    { "a { alphaTest ) }", MC_ERR_SYNTAX, 1, 15,
      "expected an expression after 'alphaTest', found ')'" },
    { "a { alphaTest 0.5 = 1 }", MC_ERR_SYNTAX, 1, 21, "expected '=' after '=', found '1'" },
    { "a { { color 1, 0.5 map x } }", MC_ERR_SYNTAX, 1, 20, "expected ',', found 'map'" },
    { "a { { if ( parm7 } }", MC_ERR_SYNTAX, 1, 18, "expected ')', found '}'" },
    { "a { { { } } }", MC_ERR_SYNTAX, 1, 7, "unexpected '{' in a stage" },
    { "a { 12 }", MC_ERR_SYNTAX, 1, 5, "unexpected '12' in material 'a'" },
    { "a { }\nA.tga { }", MC_ERR_SYNTAX, 2, 1,
      "material 'a' is declared twice (first at line 1, column 1)" },
    { "{ }", MC_ERR_SYNTAX, 1, 1, "expected a material name, found '{'" },
    { "a { qer_editorimage ( x\n }", MC_ERR_SYNTAX, 2, 3,
      "end of file inside '(' opened at line 1, column 21" },
    { "a { foo ) }", MC_ERR_SYNTAX, 1, 9, "unexpected ')'" },
    { "table t { { }", MC_ERR_SYNTAX, 1, 13, "expected a number in table 't', found '}'" },
    { "table { }", MC_ERR_SYNTAX, 1, 7, "expected a name after 'table', found '{'" },
    { "a { diffusemap x ; }", MC_ERR_SYNTAX, 1, 18, "unexpected character ';'" },
};

TEST(reports_golden_errors_at_their_positions)
{
    for (size_t i = 0; i < TEST_COUNT(GOLDEN); i++) {
        const test_error_case *g = &GOLDEN[i];
        mc_mtr_file f;
        mc_error err;
        test_warnings log = { 0 };
        mc_status st = parse(g->input, &f, &err, &log);

        if (!EXPECT_ERROR_IS(g, st, &err, i) && st != g->code)
            continue;
        EXPECT_EQ_STR(err.file, "t.mtr");
        EXPECT(f.num_decls == 0 && f.decls == NULL);
    }
}

TEST(limits_nesting_and_name_length)
{
    char text[4096], name[400];
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    size_t n = 0;

    /* "Programs nest at most 32 deep" (docs/materials-and-shading.md, "Images"): 32 functions
     * around the image parse, 33 do not, at the 33rd: "a { diffusemap " is 15 bytes and each
     * "invertColor(" 12, so the k-th function starts at column 16 + 12 (k - 1). */
    for (int funcs = 32; funcs <= 33; funcs++) {
        n = (size_t)snprintf(text, sizeof text, "a { diffusemap ");
        for (int i = 0; i < funcs; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "invertColor(");
        n += (size_t)snprintf(text + n, sizeof text - n, "x");
        for (int i = 0; i < funcs; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, ")");
        snprintf(text + n, sizeof text - n, " }");
        if (funcs == 32) {
            EXPECT_EQ_INT(parse(text, &f, &err, &log), MC_OK);
            mc_mtr_release(&f);
            continue;
        }
        EXPECT_EQ_INT(parse(text, &f, &err, &log), MC_ERR_LIMIT);
        EXPECT_AT(&err, 1, 16 + 12 * 32, "image program nested deeper than 32 functions");
    }
    memset(name, 'x', 300);
    name[300] = '\0';
    snprintf(text, sizeof text, "%s { }", name);
    EXPECT_EQ_INT(parse(text, &f, &err, &log), MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "material name is too long (300 bytes, at most 256)");
}


/* Doom's lexer stops at a NUL byte: a shipped file ends in one, and whatever follows it is not
 * read (a stray '{' there is no error). */
TEST(nul_ends_the_text)
{
    static const char text[] = "a { diffusemap x }\n\0{ junk";
    mc_mtr_file f;
    mc_mtr_index idx;
    mc_error err;

    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "t.mtr", NULL, &f, &err), &err);
    EXPECT_EQ_INT(f.num_decls, 1);
    mc_mtr_release(&f);
    ASSERT_OK(mc_mtr_index_text(text, sizeof text - 1, "t.mtr", NULL, &idx, &err), &err);
    EXPECT_EQ_INT(idx.num_spans, 1);
    mc_mtr_index_release(&idx);
}

/* A second map in one stage replaces the first (Material.cpp, idMaterial::ParseStage). */
TEST(second_map_replaces_the_first)
{
    mc_mtr_file f;
    mc_error err;
    test_warnings log = { 0 };
    char buf[64];

    ASSERT_OK(parse("a { { blend add map x map y } }", &f, &err, &log), &err);
    ASSERT(f.num_decls == 1 && f.decls[0].num_stages == 1);
    EXPECT_EQ_STR(prog(f.decls[0].stages[0].map, buf, sizeof buf), "y");
    mc_mtr_release(&f);
}

/* The index reads names and spans only: bodies with errors cost nothing, a type word before the
 * name is skipped (table, skin: not materials), a name without '{' is skipped, and each span
 * parses on its own with positions in the whole file. Offsets by hand:
 *   line 1 "table t { { 1, 2 } }"            (0..19, '\n' at 20)
 *   line 2 "material m/One.tga {\n"           starts at 21
 *   line 3 "  { map a ) }\n" ... */
TEST(indexes_declarations_without_parsing_them)
{
    static const char text[] = "table t { { 1, 2 } }\n"
                               "material m/One.tga {\n"
                               "  { blend add map x }\n"
                               "}\n"
                               "broken { { map ) } }\n"
                               "skin s { model x }\n"
                               "loose junk\n"
                               "  \"two\" { diffusemap /* } */ y }";
    mc_mtr_index idx;
    mc_mtr_file f;
    mc_error err;

    ASSERT_OK(mc_mtr_index_text(text, sizeof text - 1, "t.mtr", NULL, &idx, &err), &err);
    ASSERT(idx.num_spans == 3);
    EXPECT_EQ_STR(idx.spans[0].name, "m/one");
    EXPECT_EQ_INT(idx.spans[0].start, 21);
    EXPECT_EQ_INT(idx.spans[0].line, 2);
    EXPECT_EQ_INT(idx.spans[0].col, 1);
    EXPECT_EQ_INT(idx.spans[0].end, 21 + 21 + 22 + 1); /* after line 4's '}' */
    EXPECT_EQ_STR(idx.spans[1].name, "broken");
    EXPECT_EQ_INT(idx.spans[1].line, 5);
    /* "loose" has no '{' after it: it and the token after it are skipped (Doom's "Expecting
     * '{'" path); "two" (quoted) follows on line 8. */
    EXPECT_EQ_STR(idx.spans[2].name, "two");
    EXPECT_EQ_INT(idx.spans[2].line, 8);
    EXPECT_EQ_INT(idx.spans[2].col, 3);
    EXPECT_EQ_INT(idx.spans[2].end, sizeof text - 1);

    ASSERT_OK(mc_mtr_parse_span(text, sizeof text - 1, "t.mtr", &idx.spans[0], NULL, &f, &err),
              &err);
    ASSERT(f.num_decls == 1);
    EXPECT_EQ_STR(f.decls[0].name, "m/one");
    EXPECT_EQ_INT(f.decls[0].line, 2);
    EXPECT_EQ_INT(f.decls[0].col, 10);
    mc_mtr_release(&f);
    EXPECT_EQ_INT(mc_mtr_parse_span(text, sizeof text - 1, "t.mtr", &idx.spans[1], NULL, &f, &err),
                  MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.line, 5);
    EXPECT_EQ_INT(err.col, 16);
    ASSERT_OK(mc_mtr_parse_span(text, sizeof text - 1, "t.mtr", &idx.spans[2], NULL, &f, &err),
              &err);
    ASSERT(f.num_decls == 1 && f.decls[0].num_stages == 1);
    mc_mtr_release(&f);
    mc_mtr_index_release(&idx);
}

/* Doom's default material (Material.cpp, idMaterial::DefaultDefinition): one unlit stage,
 * blend blend, map _default. */
/* One reading for several kinds: each declaration in the index of its type (an untyped one in
 * the folder's), the others in none; spans as a reading per kind gives them. */
TEST(indexes_several_kinds_in_one_reading)
{
    static const char *const kinds[] = { "sound", "entityDef", "material" };
    const char *text = "step { a.wav }\n"                  /* 1: untyped, the folder's sound */
                       "entityDef Monster { \"k\" \"v\" }\n" /* 2 */
                       "skin skins/x { a b }\n"            /* 3: no kind asked */
                       "material textures/y { }\n"         /* 4 */
                       "SOUND typed.wav { b.wav }\n";      /* 5: type words without case */
    mc_mtr_index idx[3], one;
    mc_error err;

    ASSERT_OK(mc_decl_index_kinds(text, strlen(text), "s.sndshd", "sound", kinds, 3, NULL, idx,
                                  &err),
              &err);
    ASSERT(idx[0].num_spans == 2 && idx[1].num_spans == 1 && idx[2].num_spans == 1);
    EXPECT_EQ_STR(idx[0].spans[0].name, "step");
    EXPECT_EQ_STR(idx[0].spans[1].name, "typed");
    EXPECT(idx[0].spans[1].line == 5 && idx[0].spans[1].col == 1);
    EXPECT_EQ_STR(idx[1].spans[0].name, "monster");
    EXPECT_EQ_STR(idx[2].spans[0].name, "textures/y");
    EXPECT_EQ_STR(idx[2].name, "s.sndshd");
    ASSERT_OK(mc_decl_index_text(text, strlen(text), "s.sndshd", "sound", "entityDef", NULL, &one,
                                 &err),
              &err);
    ASSERT(one.num_spans == 1);
    EXPECT(one.spans[0].start == idx[1].spans[0].start && one.spans[0].end == idx[1].spans[0].end);
    EXPECT_EQ_INT(mc_decl_index_kinds(text, strlen(text), "s", "sound", kinds, 0, NULL, idx, &err),
                  MC_ERR_USAGE);
    mc_mtr_index_release(&one);
    for (int k = 0; k < 3; k++)
        mc_mtr_index_release(&idx[k]);
}

TEST(default_material_is_dooms)
{
    mc_mtr_file f;
    mc_error err;
    char buf[64];

    ASSERT_OK(mc_mtr_default_decl("models/x", &f, &err), &err);
    ASSERT(f.num_decls == 1 && f.decls[0].num_stages == 1);
    EXPECT_EQ_STR(f.decls[0].name, "models/x");
    EXPECT_EQ_INT(f.decls[0].stages[0].kind, MC_STAGE_COLOR);
    EXPECT_EQ_INT(f.decls[0].stages[0].blend.src, MC_BLEND_SRC_ALPHA);
    EXPECT_EQ_INT(f.decls[0].stages[0].blend.dst, MC_BLEND_ONE_MINUS_SRC_ALPHA);
    EXPECT_EQ_STR(prog(f.decls[0].stages[0].map, buf, sizeof buf), "_default");
    mc_mtr_release(&f);
}

/* 65,536 distinct names in one file: the duplicate check sorts once instead of comparing each
 * name with all earlier ones (4 * 10^9 comparisons before). Only correctness is asserted; the
 * speed is in bench/material_bench. The last name repeats the 40,000th. */
TEST(finds_a_duplicate_among_many_names)
{
    size_t cap = 65536 * 16 + 64, n = 0;
    char *text = malloc(cap);
    mc_mtr_file f;
    mc_error err;

    ASSERT(text);
    for (int i = 0; i < 65535; i++)
        n += (size_t)snprintf(text + n, cap - n, "m%05d { }\n", i);
    n += (size_t)snprintf(text + n, cap - n, "m%05d { }\n", 39999);
    EXPECT_EQ_INT(mc_mtr_parse(text, n, "t.mtr", NULL, &f, &err), MC_ERR_SYNTAX);
    EXPECT_AT(&err, 65536, 1, "'m39999' is declared twice (first at line 40000, column 1)");
    free(text);
}
