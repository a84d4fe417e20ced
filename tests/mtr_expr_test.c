/* Doom's material expressions and tables (mtr_expr.h) and a stage's state at a moment
 * (material_eval.h). Every expected value below is worked out by hand from Doom's rules:
 * Material.cpp (ParseExpressionPriority: every level right-associative; EmitOp folds only + and
 * *), DeclTable.cpp (TableLookup), draw_common.cpp (RB_STD_T_RenderShaderPasses' skips) and
 * tr_render.cpp (RB_GetShaderTextureMatrix). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>

#include "test.h"

/* Doom's entity defaults: parm0..3 = 1, the rest 0; parm4 = 0.25 here. */
static const float PARMS[12] = { 1, 1, 1, 1, 0.25f, 0, 0, 0, 0, 0, 0, 0 };

static mc_status parse(const char *text, mc_mtr_file *f, mc_error *err)
{
    return mc_mtr_parse(text, strlen(text), "t.mtr", NULL, f, err);
}

/* The state of stage 0 of the file's first material at time with parms. */
static bool stage_at(const char *text, float time, const float *parms, mc_stage_state *ss)
{
    mc_mtr_file f;
    mc_error err;
    float *regs;
    const mc_mtr_decl *d;

    if (!EXPECT(parse(text, &f, &err) == MC_OK)) {
        fprintf(stderr, "  %s: %s\n", text, err.msg);
        return false;
    }
    d = &f.decls[0];
    regs = malloc((size_t)d->expr.num_regs * sizeof *regs);
    if (!EXPECT(regs)) {
        mc_mtr_release(&f);
        return false;
    }
    mc_expr_eval(&d->expr, time, parms, regs);
    mc_stage_state_eval(&d->stages[0].expr, d->stages[0].blend, regs, ss);
    free(regs);
    mc_mtr_release(&f);
    return true;
}

/* The value of expression x (as a stage's alphaTest register, which is not clamped; parm11,
 * 0 and never a constant, keeps a constant x from the 0..1 check of a literal alphaTest). */
static float value(const char *x, float time, const char *tables)
{
    char text[1024];
    mc_stage_state ss;

    snprintf(text, sizeof text, "%s\nm { { blend add map y alphaTest parm11 + ( %s ) } }\n",
             tables, x);
    if (!stage_at(text, time, PARMS, &ss))
        return -12345.0f;
    return ss.alpha_test;
}

TEST(operators_follow_dooms_priorities)
{
    EXPECT_NEAR(value("2 + 3 * 4", 0, ""), 14.0, 0);
    EXPECT_NEAR(value("2 * 3 + 4", 0, ""), 10.0, 0);
    /* right-associative at every level: 1 - (2 - 3), 8 / (4 / 2) */
    EXPECT_NEAR(value("1 - 2 - 3", 0, ""), 2.0, 0);
    EXPECT_NEAR(value("( 1 - 2 ) - 3", 0, ""), -4.0, 0);
    EXPECT_NEAR(value("8 / 4 / 2", 0, ""), 4.0, 0);
    /* % truncates both to integers; a zero divisor reads as 1 */
    EXPECT_NEAR(value("7.9 % 3.9", 0, ""), 1.0, 0);
    EXPECT_NEAR(value("5 % 0", 0, ""), 0.0, 0);
    EXPECT_NEAR(value("1 < 2 && 3 >= 3", 0, ""), 1.0, 0);
    EXPECT_NEAR(value("0 || 2 == 2", 0, ""), 1.0, 0);
    EXPECT_NEAR(value("1 != 1", 0, ""), 0.0, 0);
    EXPECT_NEAR(value("2 > 1 + 3", 0, ""), 0.0, 0); /* 2 > 4 */
    EXPECT_NEAR(value("-2 * -3", 0, ""), 6.0, 0);
    EXPECT_NEAR(value("- 2 + 5", 0, ""), 3.0, 0);
    /* "time -1" is time - 1; "time/2" is time / 2 */
    EXPECT_NEAR(value("time -1", 3, ""), 2.0, 0);
    EXPECT_NEAR(value("time/2", 3, ""), 1.5, 0);
    EXPECT_NEAR(value("time / 2 / 3", 3, ""), 4.5, 1e-5); /* time / (2 / 3) */
    /* parm4 = 0.25, parm0 = 1; sound and global3 are 0; fragmentPrograms is 1 */
    EXPECT_NEAR(value("parm4 * 2 + PARM0", 0, ""), 1.5, 0);
    EXPECT_NEAR(value("sound + global3 + fragmentPrograms", 0, ""), 1.0, 0);
}

static const char *const TABLES =
        "table wrap { { 0, 10, 20, 30 } }\n"
        "table snapped { snap { 0, 10, 20, 30 } }\n"
        "table clamped { clamp { 0, 10, 20, 30 } }\n"
        "table both { snap clamp { 0, 10, 20, 30 } }\n"
        "table one { { 5 } }\n";

TEST(tables_interpolate_snap_and_clamp)
{
    /* four values, wrapping: x * 4, the first value again after the last */
    EXPECT_NEAR(value("wrap[0.125]", 0, TABLES), 5.0, 0);   /* 0.5: 0 and 10 halfway */
    EXPECT_NEAR(value("wrap[0.875]", 0, TABLES), 15.0, 0);  /* 3.5: 30 and 0 halfway */
    EXPECT_NEAR(value("wrap[-0.25]", 0, TABLES), 30.0, 0);  /* -1 + 4 = 3 */
    EXPECT_NEAR(value("wrap[1.125]", 0, TABLES), 5.0, 0);   /* 4.5: index 0 again */
    EXPECT_NEAR(value("WRAP[ time * 0.25 ]", 1, TABLES), 10.0, 0); /* names ignore case */
    EXPECT_NEAR(value("snapped[0.3]", 0, TABLES), 10.0, 0); /* 1.2: value 1 */
    EXPECT_NEAR(value("snapped[0.99]", 0, TABLES), 30.0, 0);
    /* clamp: x * 3 within [0, 3] */
    EXPECT_NEAR(value("clamped[0.5]", 0, TABLES), 15.0, 0); /* 1.5 */
    EXPECT_NEAR(value("clamped[2]", 0, TABLES), 30.0, 0);
    EXPECT_NEAR(value("clamped[-1]", 0, TABLES), 0.0, 0);
    EXPECT_NEAR(value("both[0.5]", 0, TABLES), 10.0, 0);    /* 1.5 snapped */
    EXPECT_NEAR(value("one[0.5]", 0, TABLES), 1.0, 0);      /* one value: always 1 */
    /* a table after the material that uses it, and a lookup inside a lookup */
    {
        mc_stage_state ss;

        ASSERT(stage_at("m { { blend add map y alphaTest late[late[0.5] * 0.25] } }\n"
                        "table late { { 1, 3 } }\n",
                        0, PARMS, &ss));
        /* late[0.5]: x = 1, value 3 (1 index past the middle: 3); late[0.75]: x = 1.5 ->
         * 3 and (the first again) 1 halfway = 2 */
        EXPECT_NEAR(ss.alpha_test, 2.0, 0);
    }
}

TEST(a_table_is_found_in_the_file_of_a_lazily_parsed_material)
{
    const char *text = "table ramp { clamp { 0, 1 } }\nm { { blend add map y rgb ramp[time] } }\n";
    mc_mtr_index idx;
    mc_mtr_file f;
    mc_error err;
    float regs[64];
    mc_stage_state ss;

    ASSERT_OK(mc_mtr_index_text(text, strlen(text), "t.mtr", NULL, &idx, &err), &err);
    ASSERT(idx.num_spans == 1);
    ASSERT_OK(mc_mtr_parse_span(text, strlen(text), "t.mtr", &idx.spans[0], NULL, &f, &err),
              &err);
    ASSERT(f.decls[0].expr.num_regs <= 64);
    mc_expr_eval(&f.decls[0].expr, 0.25f, PARMS, regs);
    mc_stage_state_eval(&f.decls[0].stages[0].expr, f.decls[0].stages[0].blend, regs, &ss);
    EXPECT_NEAR(ss.color[0], 0.25, 0); /* clamp over 2 values: x * 1 */
    mc_mtr_release(&f);
    mc_mtr_index_release(&idx);
}

/* A table that does not parse ends nothing: the engine skips a declaration's braced section and
 * reads on at the next one (idDeclFile::LoadAndParse), so a table after a broken one is found,
 * and a material naming a broken one gets that table's own error at its position, each of two
 * broken tables its own. */
TEST(a_table_after_a_broken_one_is_found)
{
    const char *text = "table bad { { 0, x } }\n"
                       "table Later { { 1, 3 } }\n"
                       "table worse { snap }\n"
                       "m { { blend add map y alphaTest parm11 + later[0.375] } }\n"
                       "n { { blend add map y alphaTest parm11 + bad[0] } }\n"
                       "o { { blend add map y alphaTest parm11 + worse[0] } }\n";
    mc_mtr_index idx;
    mc_mtr_file f;
    mc_error err;
    float regs[64];
    mc_stage_state ss;

    ASSERT_OK(mc_mtr_index_text(text, strlen(text), "t.mtr", NULL, &idx, &err), &err);
    ASSERT(idx.num_spans == 3);
    ASSERT_OK(mc_mtr_parse_span(text, strlen(text), "t.mtr", &idx.spans[0], NULL, &f, &err),
              &err);
    ASSERT(f.decls[0].expr.num_regs <= 64);
    mc_expr_eval(&f.decls[0].expr, 0.0f, PARMS, regs);
    mc_stage_state_eval(&f.decls[0].stages[0].expr, f.decls[0].stages[0].blend, regs, &ss);
    /* 0.375 x 2 values = 0.75: 1 and 3 three quarters of the way, 2.5 */
    EXPECT_NEAR(ss.alpha_test, 2.5, 1e-6);
    mc_mtr_release(&f);
    /* "table bad { { 0, x": the x at column 18; "table worse": the name at column 7 */
    EXPECT_EQ_INT(mc_mtr_parse_span(text, strlen(text), "t.mtr", &idx.spans[1], NULL, &f, &err),
                  MC_ERR_SYNTAX);
    EXPECT_AT(&err, 1, 18, "expected a number in table 'bad', found 'x'");
    EXPECT_EQ_INT(mc_mtr_parse_span(text, strlen(text), "t.mtr", &idx.spans[2], NULL, &f, &err),
                  MC_ERR_SYNTAX);
    EXPECT_AT(&err, 3, 7, "table 'worse' has no values");
    mc_mtr_index_release(&idx);
}

TEST(a_scrolling_stage_moves_with_time)
{
    const char *text = "m { { blend add map y scroll time * 0.1, 0.5 } }";
    mc_stage_state ss;

    ASSERT(stage_at(text, 2.0f, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][0], 1.0, 0);
    EXPECT_NEAR(ss.matrix[0][1], 0.0, 0);
    EXPECT_NEAR(ss.matrix[0][2], 0.2, 1e-6);
    EXPECT_NEAR(ss.matrix[1][1], 1.0, 0);
    EXPECT_NEAR(ss.matrix[1][2], 0.5, 0);
    ASSERT(stage_at(text, 5.0f, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][2], 0.5, 1e-6);
    /* past 40 an offset keeps only its fraction: 1000.25 * 0.1 = 100.025 -> 0.025 */
    ASSERT(stage_at(text, 1000.25f, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][2], 0.025, 1e-4);
}

TEST(texture_matrices_compose_as_dooms)
{
    mc_stage_state ss;

    /* scale 2, 3 then scroll 0.5, 0.25: old * new = [[2, 0, 2 * 0.5], [0, 3, 3 * 0.25]] */
    ASSERT(stage_at("m { { map y scale 2, 3 scroll 0.5, 0.25 } }", 0, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][0], 2.0, 0);
    EXPECT_NEAR(ss.matrix[0][2], 1.0, 0);
    EXPECT_NEAR(ss.matrix[1][1], 3.0, 0);
    EXPECT_NEAR(ss.matrix[1][2], 0.75, 0);
    /* centerScale 2, 4: offsets 0.5 - 0.5 * 2 = -0.5 and 0.5 - 0.5 * 4 = -1.5 */
    ASSERT(stage_at("m { { map y centerScale 2, 4 } }", 0, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][0], 2.0, 0);
    EXPECT_NEAR(ss.matrix[0][2], -0.5, 0);
    EXPECT_NEAR(ss.matrix[1][2], -1.5, 0);
    /* shear 0.5, 0: [[1, 0.5, -0.25], [0, 1, 0]] */
    ASSERT(stage_at("m { { map y shear 0.5, 0 } }", 0, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][1], 0.5, 0);
    EXPECT_NEAR(ss.matrix[0][2], -0.25, 0);
    EXPECT_NEAR(ss.matrix[1][0], 0.0, 0);
    /* rotate 0.25 (a quarter cycle): sin 1, cos 0 -> [[0, -1, 1], [1, 0, 0]] */
    ASSERT(stage_at("m { { map y rotate 0.25 } }", 0, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][0], 0.0, 1e-6);
    EXPECT_NEAR(ss.matrix[0][1], -1.0, 1e-6);
    EXPECT_NEAR(ss.matrix[0][2], 1.0, 1e-6);
    EXPECT_NEAR(ss.matrix[1][0], 1.0, 1e-6);
    EXPECT_NEAR(ss.matrix[1][1], 0.0, 1e-6);
    EXPECT_NEAR(ss.matrix[1][2], 0.0, 1e-6);
    /* a file's own sinTable wins over the built-in one: 0.25 * 4 = 1 reads its 0.5 */
    ASSERT(stage_at("table sinTable { { 0, 0.5, 0, -0.5 } }\nm { { map y rotate 0.25 } }", 0,
                    PARMS, &ss));
    EXPECT_NEAR(ss.matrix[1][0], 0.5, 1e-6);
    /* no matrix keyword: identity */
    ASSERT(stage_at("m { { map y } }", 0, PARMS, &ss));
    EXPECT_NEAR(ss.matrix[0][0], 1.0, 0);
    EXPECT_NEAR(ss.matrix[0][2], 0.0, 0);
}

TEST(parms_drive_the_colour)
{
    float parms[12];
    mc_stage_state ss;

    memcpy(parms, PARMS, sizeof parms);
    ASSERT(stage_at("m { { blend add map y rgb parm4 alpha 0.5 } }", 0, parms, &ss));
    EXPECT(ss.visible);
    EXPECT_NEAR(ss.color[0], 0.25, 0);
    EXPECT_NEAR(ss.color[2], 0.25, 0);
    EXPECT_NEAR(ss.color[3], 0.5, 0);
    /* an add of black is skipped (draw_common.cpp) */
    parms[4] = 0.0f;
    ASSERT(stage_at("m { { blend add map y rgb parm4 } }", 0, parms, &ss));
    EXPECT(!ss.visible);
    /* colored: parm0..3; a colour above 1 is clamped as glColor clamps it */
    parms[0] = 0.5f;
    parms[1] = 2.0f;
    parms[2] = 0.125f;
    ASSERT(stage_at("m { { blend filter map y colored } }", 0, parms, &ss));
    EXPECT(ss.visible);
    EXPECT_NEAR(ss.color[0], 0.5, 0);
    EXPECT_NEAR(ss.color[1], 1.0, 0);
    EXPECT_NEAR(ss.color[2], 0.125, 0);
    EXPECT_NEAR(ss.color[3], 1.0, 0);
    /* color with four expressions */
    ASSERT(stage_at("m { { map y color parm4 + 0.5, 0, time, 1 } }", 0.75f, PARMS, &ss));
    EXPECT_NEAR(ss.color[0], 0.75, 0);
    EXPECT_NEAR(ss.color[1], 0.0, 0);
    EXPECT_NEAR(ss.color[2], 0.75, 0);
}

TEST(conditions_and_blends_skip_stages)
{
    mc_stage_state ss;

    ASSERT(stage_at("m { { if time > 1 blend add map y } }", 0.5f, PARMS, &ss));
    EXPECT(!ss.visible);
    ASSERT(stage_at("m { { if time > 1 blend add map y } }", 2.0f, PARMS, &ss));
    EXPECT(ss.visible);
    ASSERT(stage_at("m { { if ( parm7 > 0 ) map y } }", 2.0f, PARMS, &ss));
    EXPECT(!ss.visible);
    /* GL_ZERO, GL_ONE draws nothing: skipped */
    ASSERT(stage_at("m { { blend GL_ZERO, GL_ONE map y } }", 0, PARMS, &ss));
    EXPECT(!ss.visible);
    ASSERT(stage_at("m { { blend GL_DST_COLOR, GL_ONE map y } }", 0, PARMS, &ss));
    EXPECT(ss.visible);
    /* blend blend with alpha 0 is fully transparent: skipped */
    ASSERT(stage_at("m { { blend blend map y alpha time } }", 0, PARMS, &ss));
    EXPECT(!ss.visible);
    ASSERT(stage_at("m { { blend blend map y alpha time } }", 0.5f, PARMS, &ss));
    EXPECT(ss.visible);
    EXPECT_NEAR(ss.color[3], 0.5, 0);
    /* an alphaTest expression */
    ASSERT(stage_at("m { { map y alphaTest time * 0.5 } }", 0.5f, PARMS, &ss));
    EXPECT(ss.has_alpha_test);
    EXPECT_NEAR(ss.alpha_test, 0.25, 0);
}

TEST(constants_are_shared_and_folded)
{
    mc_mtr_file f;
    mc_error err;

    /* 1 (ClearStage), then 2 + 3 folded to 5, 2 and 3 also kept: 21..24; no operation */
    ASSERT_OK(parse("m { { map y rgb 2 + 3 } }", &f, &err), &err);
    EXPECT_EQ_INT(f.decls[0].expr.num_ops, 0);
    EXPECT_EQ_INT(f.decls[0].expr.num_regs, MC_EXPR_NUM_PREDEFINED + 4);
    EXPECT_NEAR(f.decls[0].stages[0].color[0], 5.0, 0);
    mc_mtr_release(&f);
    /* time * 1 and time + 0 are time itself */
    ASSERT_OK(parse("m { { map y rgb time * 1 + 0 } }", &f, &err), &err);
    EXPECT_EQ_INT(f.decls[0].expr.num_ops, 0);
    EXPECT_EQ_INT(f.decls[0].stages[0].expr.color[0], MC_EXPR_REG_TIME);
    mc_mtr_release(&f);
}

TEST(stage_masks_and_texture_repeat_are_read)
{
    mc_mtr_file f;
    mc_error err;
    const mc_mtr_stage *st;

    ASSERT_OK(parse("m { zeroclamp { map a maskColor } { map b clamp maskAlpha maskDepth }\n"
                    "    { map c noclamp maskGreen } }",
                    &f, &err),
              &err);
    EXPECT_EQ_INT(f.decls[0].wrap, MC_WRAP_ZERO_CLAMP);
    ASSERT(f.decls[0].num_stages == 3);
    st = f.decls[0].stages;
    EXPECT(!st[0].has_wrap && st[0].mask_red && st[0].mask_green && st[0].mask_blue &&
           !st[0].mask_alpha && !st[0].mask_depth);
    EXPECT(st[1].has_wrap && st[1].wrap == MC_WRAP_CLAMP && !st[1].mask_red && st[1].mask_alpha &&
           st[1].mask_depth);
    EXPECT(st[2].has_wrap && st[2].wrap == MC_WRAP_REPEAT && st[2].mask_green && !st[2].mask_red);
    mc_mtr_release(&f);
}

/* Columns counted by hand. */
static const test_error_case GOLDEN[] = {
    { "m { { rgb 1 + } }", MC_ERR_SYNTAX, 1, 15, "expected an expression after 'rgb', found '}'" },
    { "m { { rgb ( 1 + 2 } }", MC_ERR_SYNTAX, 1, 19, "expected ')', found '}'" },
    { "m { { rgb t[ 1 } }", MC_ERR_SYNTAX, 1, 16, "expected ']', found '}'" },
    { "m { { rgb foo } }", MC_ERR_SYNTAX, 1, 11, "unknown term 'foo' in an expression" },
    { "m { { rgb nosuch[0] } }", MC_ERR_SYNTAX, 1, 11, "unknown table 'nosuch'" },
    { "m { { rgb 1 & 2 } }", MC_ERR_SYNTAX, 1, 15, "expected '&' after '&', found '2'" },
    { "m { { rgb 1 ! 2 } }", MC_ERR_SYNTAX, 1, 15, "expected '=' after '!', found '2'" },
    { "m { { rgb 1 = = 2 } }", MC_ERR_SYNTAX, 1, 15, "expected '=' after '=', found '='" },
    { "m { { scroll 1 } }", MC_ERR_SYNTAX, 1, 16, "expected ',', found '}'" },
    { "m { { if\n} }", MC_ERR_SYNTAX, 2, 1, "expected an expression after 'if', found '}'" },
    { "m { { rgb - time } }", MC_ERR_SYNTAX, 1, 13, "expected a number after '-', found 'time'" },
    { "table t { { 1 2 } }", MC_ERR_SYNTAX, 1, 15, "expected ',' or '}' in table 't', found '2'" },
    { "table t { wrap { 1 } }", MC_ERR_SYNTAX, 1, 11, "unexpected 'wrap' in table 't'" },
    { "table t { }", MC_ERR_SYNTAX, 1, 7, "table 't' has no values" },
    { "table t { { 1, x } }", MC_ERR_SYNTAX, 1, 16, "expected a number in table 't', found 'x'" },
    { "table t [ ]", MC_ERR_SYNTAX, 1, 9, "expected '{', found '['" },
};

TEST(reports_golden_errors_at_their_positions)
{
    for (size_t i = 0; i < TEST_COUNT(GOLDEN); i++) {
        const test_error_case *g = &GOLDEN[i];
        mc_mtr_file f;
        mc_error err;
        mc_status st = parse(g->input, &f, &err);

        if (!EXPECT_ERROR_IS(g, st, &err, i) && st != g->code)
            continue;
    }
}

TEST(limits_nesting_and_length)
{
    char text[4096];
    size_t n = 0;
    mc_mtr_file f;
    mc_error err;

    n += (size_t)snprintf(text + n, sizeof text - n, "m { { rgb ");
    for (int i = 0; i < MC_LIMIT_EXPR_DEPTH + 1; i++)
        text[n++] = '(';
    snprintf(text + n, sizeof text - n, " 1 } }");
    EXPECT_EQ_INT(parse(text, &f, &err), MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "nested deeper than");
    EXPECT_EQ_INT(err.col, 11 + MC_LIMIT_EXPR_DEPTH);
    /* a long chain recurses too: 1 + 1 + ... */
    n = (size_t)snprintf(text, sizeof text, "m { { rgb time");
    for (int i = 0; i < MC_LIMIT_EXPR_DEPTH + 2; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " + time");
    snprintf(text + n, sizeof text - n, " } }");
    EXPECT_EQ_INT(parse(text, &f, &err), MC_ERR_LIMIT);
}
