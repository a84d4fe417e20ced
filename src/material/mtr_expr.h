/* The expression and table parser of .mtr files (mtr.c calls it where a keyword takes an
 * expression). The language and the register layout are in include/md5cine/mtr_expr.h. */
#ifndef MC_FORMATS_MTR_EXPR_H
#define MC_FORMATS_MTR_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/limits.h>
#include <md5cine/mtr_expr.h>

#include "formats/lex.h"

/* A table named in an expression, resolved after the material is read. */
typedef struct mc_expr_table_ref {
    const char *text; /* into the source buffer */
    size_t len;
    int line, col;
} mc_expr_table_ref;

/* One material's program while it is read (malloc'd arrays; mc_expr_builder_free). */
typedef struct mc_expr_builder {
    float *regs;
    bool *temp; /* register is a temporary (or predefined): never folded */
    int num_regs, cap_regs;
    mc_expr_op *ops;
    int num_ops, cap_ops;
    mc_expr_table_ref *refs; /* MC_EXPR_TABLE's a indexes this */
    int num_refs, cap_refs;
    /* An image-path-like name token holding '/' ("time/2") being read in pieces. */
    const char *split;
    size_t split_len;
    int split_line, split_col;
} mc_expr_builder;

/* Empties b for a new material: only the predefined registers. false when out of memory (the
 * lexer is failed). */
bool mc_expr_builder_reset(mc_expr_builder *b, mc_lexer *lx);
void mc_expr_builder_free(mc_expr_builder *b);

/* The register of constant v (made when new). -1 when out of memory or past the limit (the
 * lexer is failed at tok). */
int mc_expr_constant(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, float v);
/* EmitOp: the register of a OP b (folded as Doom folds). -1 on failure. */
int mc_expr_emit(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, mc_expr_op_kind kind,
                 int ra, int rb);
/* A table lookup of name at register index (for rotate's sinTable / cosTable). */
int mc_expr_emit_table(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, const char *name,
                       int index);

/* The index of the table named by token tok (a name) among the program's tables, resolved with
 * the others after the material is read (a deform's table: turbulent). -1 when out of memory. */
int mc_expr_table_index(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok);

/* Reads one expression after keyword kw into *reg. Errors (MC_ERR_SYNTAX at the token): a
 * missing term ("expected an expression after 'scroll', found '}'"), "expected ')'", "expected
 * ']'", "expected '=' after '='"; MC_ERR_LIMIT past the register, operation or nesting limits. */
bool mc_expr_parse(mc_expr_builder *b, mc_lexer *lx, const mc_token *kw, int *reg);

/* true when reg holds a constant (not a temporary or predefined); *value receives it. */
bool mc_expr_is_constant(const mc_expr_builder *b, int reg, float *value);

/* After `table NAME` was read: the body `{ [snap] [clamp] { v, v, ... } }` into *out (values in
 * arena). Errors at their tokens: "expected '{'", "expected a number in table 'x'", "expected
 * ',' or '}' in table 'x'", "unexpected 'x' in table 'y'", "table 'x' has no values", more than
 * MC_LIMIT_TABLE_VALUES values (MC_ERR_LIMIT). */
bool mc_expr_table_parse(mc_lexer *lx, mc_arena *arena, const mc_token *name, mc_expr_table *out);

/* How the error of a file whose tables hold more than MC_LIMIT_MTR_TABLE_VALUES values begins
 * (mtr_file.c), which material_set.c treats as the end of the load rather than one default
 * material. */
#define MC_EXPR_TABLE_BUDGET_MSG "the tables of one material file hold more than"

/* A table whose body did not parse: its canonical name (in the set's arena), its name token
 * (byte offset into the file's text, length, kind, position) and the lexer's place just after
 * it (byte offsets, its line there), from where reading it again gives its error. */
typedef struct mc_expr_table_failed {
    const char *name;
    size_t name_at, name_len, at, line_start;
    int kind, name_line, name_col, line;
} mc_expr_table_failed;

/* The tables of one file (include/md5cine/mtr_expr.h), made by mtr_file.c. Doom's sinTable and
 * cosTable come first, so that a file's own table of that name, found from the end, wins. */
struct mc_expr_tables {
    int refs;             /* counted atomically: copies may be freed from other threads */
    mc_arena arena;       /* names and values */
    mc_expr_table *tables; /* malloc'd */
    int num, cap;
    /* The tables that did not parse, where their bodies begin: reading goes on after each one's
     * braces, as Doom's declaration files go on at the next declaration, and a program naming
     * one reads it again there for its error (malloc'd). */
    mc_expr_table_failed *bad;
    int num_bad, cap_bad;
    /* A lexical error, which ends the reading: the tables after it are not known. */
    bool failed;
    mc_error error;
};

/* A new set holding only the built-in sinTable and cosTable (one reference), or NULL. */
mc_expr_tables *mc_expr_tables_new(void);
/* Appends *tab (its values already in t->arena); false when out of memory. */
bool mc_expr_tables_add(mc_expr_tables *t, const mc_expr_table *tab);
/* Appends *bad (its name already in t->arena); false when out of memory. */
bool mc_expr_tables_add_failed(mc_expr_tables *t, const mc_expr_table_failed *bad);
/* One more reference; returns t. */
mc_expr_tables *mc_expr_tables_retain(mc_expr_tables *t);
/* The last table named name (canonical), or NULL. */
const mc_expr_table *mc_expr_tables_find(const mc_expr_tables *t, const char *name);
/* The last table named name (canonical) that did not parse, or NULL. */
const mc_expr_table_failed *mc_expr_tables_find_failed(const mc_expr_tables *t, const char *name);

/* true (the lexer failed with MC_ERR_INTERRUPTED) once the caller's stop flag is set. */
bool mc_expr_stopped(mc_lexer *lx);

#endif
