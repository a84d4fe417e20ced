/* mtr_expr: Doom 3's material expressions and tables, compiled to registers and operations.
 *
 * Doom compiles every expression of a material (Material.cpp, idMaterial::ParseExpression,
 * ParseExpressionPriority, ParseTerm, EmitOp) into one list of three-address operations over one
 * array of float registers, shared by all of the material's stages. md5cine keeps that form:
 *
 *   registers   0 time (seconds), 1..12 parm0..parm11, 13..20 global0..global7 (the
 *               MC_EXPR_REG_* below, filled per frame), then constants and temporaries in the
 *               order the parser made them. A constant is stored once (GetExpressionConstant).
 *   operations  c = a OP b, run in order (idMaterial::EvaluateRegisters). For MC_EXPR_TABLE, a
 *               indexes mc_expr_program.tables and b is the index register; for MC_EXPR_SOUND,
 *               a and b are unused and the result is 0 (a cut scene plays no sound).
 *
 * Grammar (Doom's, operators as separate tokens; `a/b` without spaces also reads as a division):
 *
 *   expr   := or
 *   level4 := level3 [ ('&&' | '||') level4 ]           -- each level is right-associative, as
 *   level3 := level2 [ ('>' '>=' '<' '<=' '==' '!=') level3 ]   in Doom: a - b - c = a - (b - c)
 *   level2 := level1 [ ('+' | '-') level2 ]
 *   level1 := term [ ('*' | '/' | '%') level1 ]
 *   term   := '(' expr ')' | NUMBER | '-' NUMBER | time | parm0..parm11 | global0..global7
 *           | sound | fragmentPrograms (1) | TABLE '[' expr ']'
 *
 * Names compare case-insensitively. An expression ends before the first token that is not an
 * operator of its level. Additions and multiplications of constants are folded, and x + 0,
 * x * 1, x * 0 simplified, exactly as EmitOp does (so the same registers come out).
 *
 * Tables (DeclTable.cpp, idDeclTable::Parse and TableLookup): `table NAME { [snap] [clamp]
 * { v, v, ... } }`. Looked up with index x over n values:
 *   n <= 1:     1
 *   clamp:      x *= n - 1; x >= n - 1 gives v[n-1], x <= 0 gives v[0]; else i = (int)x
 *   otherwise:  x *= n; wrapped into [0, n) by adding n * ceil(-x / n) when negative; i = floor(x)
 *               mod n
 *   snap: v[i]; else v[i] * (1 - f) + v[i+1] * f with f = x - i and v[n] = v[0].
 * `rotate` reads the tables sinTable and cosTable; when the files declare none, md5cine uses
 * built-in ones of 256 entries, sin(2 pi i / 256) and cos(2 pi i / 256) (Doom's tables.mtr). */
#ifndef MC_MTR_EXPR_H
#define MC_MTR_EXPR_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    MC_EXPR_REG_TIME = 0,
    MC_EXPR_REG_PARM0 = 1,    /* .. parm11 = 12 */
    MC_EXPR_REG_GLOBAL0 = 13, /* .. global7 = 20 */
    MC_EXPR_NUM_PREDEFINED = 21,
    MC_EXPR_NUM_PARMS = 12,
    MC_EXPR_NUM_GLOBALS = 8,
};

/* Doom's MAX_EXPRESSION_REGISTERS and MAX_EXPRESSION_OPS (Material.h). */
#define MC_LIMIT_EXPR_REGS 4096
#define MC_LIMIT_EXPR_OPS  4096
/* Values in one table, and nesting of ( ) and [ ] in one expression. */
#define MC_LIMIT_TABLE_VALUES 65536
#define MC_LIMIT_EXPR_DEPTH   64

typedef enum mc_expr_op_kind {
    MC_EXPR_ADD,
    MC_EXPR_SUB,
    MC_EXPR_MUL,
    MC_EXPR_DIV,
    MC_EXPR_MOD,   /* (int)a % (int)b, b of 0 taken as 1 */
    MC_EXPR_TABLE, /* tables[a] looked up at register b */
    MC_EXPR_SOUND, /* 0 */
    MC_EXPR_GT,
    MC_EXPR_GE,
    MC_EXPR_LT,
    MC_EXPR_LE,
    MC_EXPR_EQ,
    MC_EXPR_NE,
    MC_EXPR_AND,
    MC_EXPR_OR,
} mc_expr_op_kind;

typedef struct mc_expr_op {
    mc_expr_op_kind kind;
    int a, b, c; /* register indices (a: table index for MC_EXPR_TABLE); c the result */
} mc_expr_op;

typedef struct mc_expr_table {
    const char *name; /* canonical (lower case) */
    bool snap, clamp;
    int num_values;   /* >= 1 */
    float *values;    /* num_values + 1: the first value repeated at the end */
} mc_expr_table;

/* The tables of one declaration file, read once and shared by every program that names one of
 * them (counted: each parsed file and each program copy holds one reference). Opaque. */
typedef struct mc_expr_tables mc_expr_tables;

typedef struct mc_expr_program {
    int num_regs;       /* >= MC_EXPR_NUM_PREDEFINED */
    float *regs;        /* [num_regs]: constants at their index, 0 elsewhere */
    int num_ops;
    mc_expr_op *ops;
    int num_tables;
    mc_expr_table *tables; /* their names and values point into shared, when set */
    mc_expr_tables *shared; /* the tables' owner, or NULL (the program owns them) */
} mc_expr_program;

/* A stage's values as registers of its material's program (Doom's shaderStage_t). A stage with
 * no `if` has condition = a register holding 1; with no colour keyword, each colour register
 * holds 1. */
typedef struct mc_expr_stage {
    int condition;      /* drawn where the register is non-zero */
    int color[4];       /* r g b a */
    bool has_alpha_test;
    int alpha_test;     /* keep fragments whose alpha is above it */
    bool has_matrix;    /* scroll, translate, scale, centerScale, shear or rotate seen */
    int matrix[2][3];   /* s' = m00 s + m01 t + m02; t' = m10 s + m11 t + m12 */
    int wobble[3];      /* texgen wobbleSky: degrees, wobble speed, rotate speed (0: unused) */
} mc_expr_stage;

/* Doom's idDeclTable::TableLookup (see above). */
float mc_expr_table_lookup(const mc_expr_table *table, float index);

/* Runs prog into regs[0..prog->num_regs): copies its constants, sets time, parm0..11 (parms,
 * may be NULL for zeros) and the globals (0), then runs the operations in order
 * (idMaterial::EvaluateRegisters). Allocates nothing. */
void mc_expr_eval(const mc_expr_program *prog, float time, const float *parms, float *regs);

/* A malloc'd copy of from into *to, which then owns it (end it with mc_expr_program_free). The
 * tables' values are shared with from (one more reference to from->shared), not copied; a
 * program without shared tables has its tables copied. A program with no more than the predefined registers (a
 * declaration made without the parser) becomes one with the constant 1 at register
 * MC_EXPR_NUM_PREDEFINED. false when out of memory (*to zeroed). */
bool mc_expr_program_copy(const mc_expr_program *from, mc_expr_program *to);

/* Frees what mc_expr_program_copy made and zeroes *x; accepts a zeroed struct. */
void mc_expr_program_free(mc_expr_program *x);

/* Drops one reference to a file's tables (freed with the last); accepts NULL. */
void mc_expr_tables_release(mc_expr_tables *tables);

#ifdef __cplusplus
}
#endif

#endif
