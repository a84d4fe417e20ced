/* libFuzzer target: material expressions and tables (mtr_expr.c) through mc_mtr_parse on
 * arbitrary bytes. Every register an operation or a stage names must exist, every table lookup
 * name a table with values, and running the program (at a few times and parameters, NaN and
 * huge values included) must stay within its registers. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <md5cine/mtr.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_stage(const mc_expr_stage *e, int n)
{
    FUZZ_REQUIRE(e->condition >= 0 && e->condition < n);
    for (int i = 0; i < 4; i++)
        FUZZ_REQUIRE(e->color[i] >= 0 && e->color[i] < n);
    FUZZ_REQUIRE(!e->has_alpha_test || (e->alpha_test >= 0 && e->alpha_test < n));
    for (int r = 0; r < 2 && e->has_matrix; r++)
        for (int k = 0; k < 3; k++)
            FUZZ_REQUIRE(e->matrix[r][k] >= 0 && e->matrix[r][k] < n);
}

static void check_program(const mc_expr_program *x)
{
    static const float TIMES[] = { 0.0f, 0.5f, -3.25f, 1e30f, NAN };
    float parms[12], *regs;

    FUZZ_REQUIRE(x->num_regs >= MC_EXPR_NUM_PREDEFINED && x->num_regs <= MC_LIMIT_EXPR_REGS);
    FUZZ_REQUIRE(x->num_ops >= 0 && x->num_ops <= MC_LIMIT_EXPR_OPS);
    for (int i = 0; i < x->num_tables; i++)
        FUZZ_REQUIRE(x->tables[i].num_values >= 1 && x->tables[i].values && x->tables[i].name);
    for (int i = 0; i < x->num_ops; i++) {
        const mc_expr_op *op = &x->ops[i];

        FUZZ_REQUIRE(op->kind <= MC_EXPR_OR);
        FUZZ_REQUIRE(op->c >= MC_EXPR_NUM_PREDEFINED && op->c < x->num_regs);
        FUZZ_REQUIRE(op->b >= 0 && op->b < x->num_regs);
        if (op->kind == MC_EXPR_TABLE)
            FUZZ_REQUIRE(op->a >= 0 && op->a < x->num_tables);
        else
            FUZZ_REQUIRE(op->a >= 0 && op->a < x->num_regs);
    }
    regs = malloc((size_t)x->num_regs * sizeof *regs);
    FUZZ_REQUIRE(regs != NULL);
    for (size_t t = 0; t < sizeof TIMES / sizeof TIMES[0]; t++) {
        for (int i = 0; i < 12; i++)
            parms[i] = TIMES[(t + (size_t)i) % (sizeof TIMES / sizeof TIMES[0])];
        mc_expr_eval(x, TIMES[t], parms, regs);
    }
    free(regs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_mtr_file f;
    mc_error err;
    mc_status s = mc_mtr_parse((const char *)data, size, "fuzz.mtr", NULL, &f, &err);

    if (s != MC_OK) {
        fuzz_check_error(s, &err, "fuzz.mtr", data, size);
        return 0;
    }
    for (int i = 0; i < f.num_decls; i++) {
        const mc_mtr_decl *d = &f.decls[i];

        check_program(&d->expr);
        for (int k = 0; k < d->num_stages; k++)
            check_stage(&d->stages[k].expr, d->expr.num_regs);
    }
    mc_mtr_release(&f);
    return 0;
}
