/* Doom 3's material expressions (Material.cpp: ParseExpression, ParseExpressionPriority,
 * ParseTerm, EmitOp, GetExpressionConstant, EvaluateRegisters) and tables (DeclTable.cpp:
 * idDeclTable::Parse, TableLookup). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mtr_expr.h"

static bool grow(mc_lexer *lx, void **arr, int *cap, int need, size_t size)
{
    void *n;
    int c;

    if (need <= *cap)
        return true;
    c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    n = realloc(*arr, (size_t)c * size);
    if (!n) {
        mc_lex_fail(lx, NULL, MC_ERR_NOMEM, "out of memory");
        if (lx->err)
            lx->err->line = lx->err->col = 0;
        return false;
    }
    *arr = n;
    *cap = c;
    return true;
}

static bool grow_regs(mc_expr_builder *b, mc_lexer *lx, int need)
{
    int cap = b->cap_regs;

    if (!grow(lx, (void **)&b->regs, &cap, need, sizeof *b->regs))
        return false;
    if (cap != b->cap_regs) {
        int c2 = b->cap_regs;

        if (!grow(lx, (void **)&b->temp, &c2, cap, sizeof *b->temp))
            return false;
        b->cap_regs = cap;
    }
    return true;
}

bool mc_expr_builder_reset(mc_expr_builder *b, mc_lexer *lx)
{
    b->num_regs = b->num_ops = b->num_refs = 0;
    b->split_len = 0;
    if (!grow_regs(b, lx, MC_EXPR_NUM_PREDEFINED))
        return false;
    for (int i = 0; i < MC_EXPR_NUM_PREDEFINED; i++) {
        b->regs[i] = 0.0f;
        b->temp[i] = true;
    }
    b->num_regs = MC_EXPR_NUM_PREDEFINED;
    return true;
}

void mc_expr_builder_free(mc_expr_builder *b)
{
    free(b->regs);
    free(b->temp);
    free(b->ops);
    free(b->refs);
    memset(b, 0, sizeof *b);
}

bool mc_expr_is_constant(const mc_expr_builder *b, int reg, float *value)
{
    if (reg < 0 || reg >= b->num_regs || b->temp[reg])
        return false;
    *value = b->regs[reg];
    return true;
}

/* A new register holding v (temp: a temporary, else a constant); -1 past the limit or out of
 * memory. */
static int new_reg(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, float v, bool temp)
{
    if (b->num_regs >= MC_LIMIT_EXPR_REGS) {
        mc_lex_fail(lx, tok, MC_ERR_LIMIT, "more than %d expression registers in one material",
                    MC_LIMIT_EXPR_REGS);
        return -1;
    }
    if (!grow_regs(b, lx, b->num_regs + 1))
        return -1;
    b->regs[b->num_regs] = v;
    b->temp[b->num_regs] = temp;
    return b->num_regs++;
}

/* GetExpressionConstant: an existing constant register of the same value, or a new one. */
int mc_expr_constant(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, float v)
{
    for (int i = MC_EXPR_NUM_PREDEFINED; i < b->num_regs; i++)
        if (!b->temp[i] && b->regs[i] == v)
            return i;
    return new_reg(b, lx, tok, v, false);
}

static int temporary(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok)
{
    return new_reg(b, lx, tok, 0.0f, true);
}

static bool is_const(const mc_expr_builder *b, int r, float v)
{
    return !b->temp[r] && b->regs[r] == v;
}

/* EmitOp, with its folding of additions and multiplications. */
int mc_expr_emit(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, mc_expr_op_kind kind,
                 int ra, int rb)
{
    mc_expr_op *op;

    if (ra < 0 || rb < 0)
        return -1;
    if (kind == MC_EXPR_ADD) {
        if (is_const(b, ra, 0.0f))
            return rb;
        if (is_const(b, rb, 0.0f))
            return ra;
        if (!b->temp[ra] && !b->temp[rb])
            return mc_expr_constant(b, lx, tok, b->regs[ra] + b->regs[rb]);
    }
    if (kind == MC_EXPR_MUL) {
        if (is_const(b, ra, 1.0f))
            return rb;
        if (is_const(b, ra, 0.0f))
            return ra;
        if (is_const(b, rb, 1.0f))
            return ra;
        if (is_const(b, rb, 0.0f))
            return rb;
        if (!b->temp[ra] && !b->temp[rb])
            return mc_expr_constant(b, lx, tok, b->regs[ra] * b->regs[rb]);
    }
    if (b->num_ops >= MC_LIMIT_EXPR_OPS) {
        mc_lex_fail(lx, tok, MC_ERR_LIMIT, "more than %d expression operations in one material",
                    MC_LIMIT_EXPR_OPS);
        return -1;
    }
    if (!grow(lx, (void **)&b->ops, &b->cap_ops, b->num_ops + 1, sizeof *b->ops))
        return -1;
    op = &b->ops[b->num_ops];
    op->kind = kind;
    op->a = ra;
    op->b = rb;
    op->c = temporary(b, lx, tok);
    if (op->c < 0)
        return -1;
    b->num_ops++;
    return op->c;
}

static int table_ref(mc_expr_builder *b, mc_lexer *lx, const char *text, size_t len, int line,
                     int col)
{
    for (int i = 0; i < b->num_refs; i++)
        if (b->refs[i].len == len && strncasecmp(b->refs[i].text, text, len) == 0)
            return i;
    if (!grow(lx, (void **)&b->refs, &b->cap_refs, b->num_refs + 1, sizeof *b->refs))
        return -1;
    b->refs[b->num_refs] = (mc_expr_table_ref){ text, len, line, col };
    return b->num_refs++;
}

int mc_expr_emit_table(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok, const char *name,
                       int index)
{
    int t = table_ref(b, lx, name, strlen(name), tok->line, tok->col);

    return t < 0 ? -1 : mc_expr_emit(b, lx, tok, MC_EXPR_TABLE, t, index);
}

int mc_expr_table_index(mc_expr_builder *b, mc_lexer *lx, const mc_token *tok)
{
    return table_ref(b, lx, tok->text, tok->len, tok->line, tok->col);
}

/* ---------------------------------------------------------------- tokens */

/* The next piece of a name that holds '/' ("time/2" is time, '/', 2, as Doom's lexer, for which
 * '/' is punctuation, reads it). */
static void split_piece(const mc_expr_builder *b, mc_token *t, size_t *used)
{
    const char *s = b->split;
    size_t n = 0;

    memset(t, 0, sizeof *t);
    t->text = s;
    t->line = b->split_line;
    t->col = b->split_col;
    if (s[0] == '/') {
        t->kind = MC_TOK_NAME;
        t->len = *used = 1;
        return;
    }
    while (n < b->split_len && s[n] != '/')
        n++;
    t->len = *used = n;
    t->kind = MC_TOK_NAME;
    if ((s[0] >= '0' && s[0] <= '9') || s[0] == '.') {
        char buf[64], *end;
        double v;

        if (n < sizeof buf) {
            memcpy(buf, s, n);
            buf[n] = '\0';
            v = strtod(buf, &end);
            if (end == buf + n) {
                t->kind = MC_TOK_NUMBER;
                t->num = v;
            }
        }
    }
}

static bool fetch(mc_expr_builder *b, mc_lexer *lx, mc_token *tok, bool consume)
{
    size_t used;

    if (b->split_len == 0) {
        mc_token t;

        if (!mc_lex_peek(lx, &t))
            return false;
        if (t.kind != MC_TOK_NAME || t.len < 2 || !memchr(t.text, '/', t.len)) {
            *tok = t;
            if (consume)
                mc_lex_next(lx, &t);
            return true;
        }
        mc_lex_next(lx, &t);
        b->split = t.text;
        b->split_len = t.len;
        b->split_line = t.line;
        b->split_col = t.col;
    }
    split_piece(b, tok, &used);
    if (consume) {
        b->split += used;
        b->split_len -= used;
        b->split_col += (int)used;
    }
    return true;
}

static bool punct_is(const mc_token *t, char c)
{
    return (t->kind == MC_TOK_PUNCT || (t->kind == MC_TOK_NAME && t->len == 1)) &&
           t->text[0] == c;
}

static bool word_is(const mc_token *t, const char *w)
{
    return (t->kind == MC_TOK_NAME || t->kind == MC_TOK_STRING) && t->len == strlen(w) &&
           strncasecmp(t->text, w, t->len) == 0;
}

/* ---------------------------------------------------------------- the grammar */

typedef struct xp {
    mc_expr_builder *b;
    mc_lexer *lx;
    const mc_token *kw;
    bool unglue; /* the next term is a "-N" number token whose '-' was read as the operator */
} xp;

static bool expr(xp *x, int depth, int *reg);

static bool expect(xp *x, char c)
{
    mc_token t;
    char d[80];

    if (!fetch(x->b, x->lx, &t, true))
        return false;
    if (!punct_is(&t, c))
        return mc_lex_fail(x->lx, &t, MC_ERR_SYNTAX, "expected '%c', found %s", c,
                           mc_lex_describe(&t, d, sizeof d));
    return true;
}

/* time, parm0..parm11, global0..global7: the predefined register, else -1. */
static int predefined(const mc_token *t)
{
    char w[24]; /* "global" and any int */

    if (word_is(t, "time"))
        return MC_EXPR_REG_TIME;
    for (int i = 0; i < MC_EXPR_NUM_PARMS; i++) {
        snprintf(w, sizeof w, "parm%d", i);
        if (word_is(t, w))
            return MC_EXPR_REG_PARM0 + i;
    }
    for (int i = 0; i < MC_EXPR_NUM_GLOBALS; i++) {
        snprintf(w, sizeof w, "global%d", i);
        if (word_is(t, w))
            return MC_EXPR_REG_GLOBAL0 + i;
    }
    return -1;
}

static bool term(xp *x, int depth, int *reg)
{
    mc_token t, n;
    char d[80], e[80];

    if (mc_expr_stopped(x->lx) || !fetch(x->b, x->lx, &t, true))
        return false;
    if (x->unglue) {
        x->unglue = false;
        *reg = mc_expr_constant(x->b, x->lx, &t, (float)-t.num);
        return *reg >= 0;
    }
    if (punct_is(&t, '(')) {
        if (depth >= MC_LIMIT_EXPR_DEPTH)
            return mc_lex_fail(x->lx, &t, MC_ERR_LIMIT, "expression nested deeper than %d",
                               MC_LIMIT_EXPR_DEPTH);
        return expr(x, depth + 1, reg) && expect(x, ')');
    }
    if (t.kind == MC_TOK_NUMBER) {
        *reg = mc_expr_constant(x->b, x->lx, &t, (float)t.num);
        return *reg >= 0;
    }
    if (punct_is(&t, '-')) {
        if (!fetch(x->b, x->lx, &n, true))
            return false;
        if (n.kind != MC_TOK_NUMBER || n.text[0] == '-')
            return mc_lex_fail(x->lx, &n, MC_ERR_SYNTAX, "expected a number after '-', found %s",
                               mc_lex_describe(&n, d, sizeof d));
        *reg = mc_expr_constant(x->b, x->lx, &n, (float)-n.num);
        return *reg >= 0;
    }
    if (t.kind == MC_TOK_NAME || t.kind == MC_TOK_STRING) {
        int r = predefined(&t), tab;

        if (r >= 0) {
            *reg = r;
            return true;
        }
        if (word_is(&t, "fragmentPrograms")) {
            *reg = mc_expr_constant(x->b, x->lx, &t, 1.0f);
            return *reg >= 0;
        }
        if (word_is(&t, "sound")) {
            *reg = mc_expr_emit(x->b, x->lx, &t, MC_EXPR_SOUND, 0, 0);
            return *reg >= 0;
        }
        if (!fetch(x->b, x->lx, &n, false))
            return false;
        if (!punct_is(&n, '['))
            return mc_lex_fail(x->lx, &t, MC_ERR_SYNTAX,
                               "unknown term %s in an expression (a table needs [ ])",
                               mc_lex_describe(&t, d, sizeof d));
        fetch(x->b, x->lx, &n, true);
        if (depth >= MC_LIMIT_EXPR_DEPTH)
            return mc_lex_fail(x->lx, &n, MC_ERR_LIMIT, "expression nested deeper than %d",
                               MC_LIMIT_EXPR_DEPTH);
        tab = table_ref(x->b, x->lx, t.text, t.len, t.line, t.col);
        if (tab < 0 || !expr(x, depth + 1, &r) || !expect(x, ']'))
            return false;
        *reg = mc_expr_emit(x->b, x->lx, &t, MC_EXPR_TABLE, tab, r);
        return *reg >= 0;
    }
    return mc_lex_fail(x->lx, &t, MC_ERR_SYNTAX, "expected an expression after %s, found %s",
                       mc_lex_describe(x->kw, e, sizeof e), mc_lex_describe(&t, d, sizeof d));
}

/* Reads the operator of priority prio if one is next (*kind; *found). */
static bool oper(xp *x, int prio, mc_expr_op_kind *kind, bool *found, mc_token *at)
{
    static const struct {
        char c1, c2; /* c2: the second character, or 0; '?' when it is optional ('<', '>') */
        int prio;
        mc_expr_op_kind one, two;
    } OPS[] = {
        { '*', 0, 1, MC_EXPR_MUL, MC_EXPR_MUL },   { '/', 0, 1, MC_EXPR_DIV, MC_EXPR_DIV },
        { '%', 0, 1, MC_EXPR_MOD, MC_EXPR_MOD },   { '+', 0, 2, MC_EXPR_ADD, MC_EXPR_ADD },
        { '-', 0, 2, MC_EXPR_SUB, MC_EXPR_SUB },   { '>', '?', 3, MC_EXPR_GT, MC_EXPR_GE },
        { '<', '?', 3, MC_EXPR_LT, MC_EXPR_LE },   { '=', '=', 3, MC_EXPR_EQ, MC_EXPR_EQ },
        { '!', '=', 3, MC_EXPR_NE, MC_EXPR_NE },   { '&', '&', 4, MC_EXPR_AND, MC_EXPR_AND },
        { '|', '|', 4, MC_EXPR_OR, MC_EXPR_OR },
    };
    mc_token t, n;
    char d[80];

    *found = false;
    if (!fetch(x->b, x->lx, &t, false))
        return false;
    *at = t;
    if (t.kind == MC_TOK_NUMBER && t.text[0] == '-') {
        /* "a -1": the lexer's negative number is Doom's '-' and 1 */
        if (prio == 2) {
            *found = true;
            *kind = MC_EXPR_SUB;
            x->unglue = true;
        }
        return true;
    }
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++) {
        if (!punct_is(&t, OPS[i].c1))
            continue;
        if (OPS[i].prio != prio)
            return true;
        fetch(x->b, x->lx, &t, true);
        *found = true;
        *kind = OPS[i].one;
        if (!OPS[i].c2)
            return true;
        if (!fetch(x->b, x->lx, &n, false))
            return false;
        if (punct_is(&n, OPS[i].c2 == '?' ? '=' : OPS[i].c2) && n.line == t.line &&
            n.col == t.col + 1) {
            fetch(x->b, x->lx, &n, true);
            *kind = OPS[i].two;
            return true;
        }
        if (OPS[i].c2 == '?')
            return true;
        return mc_lex_fail(x->lx, &n, MC_ERR_SYNTAX, "expected '%c' after '%c', found %s",
                           OPS[i].c2, OPS[i].c1, mc_lex_describe(&n, d, sizeof d));
    }
    return true;
}

/* ParseExpressionPriority: right-associative at every level, as Doom's. depth counts both ( )
 * nesting and the length of an operator chain, which recurses. */
static bool level(xp *x, int prio, int depth, int *reg)
{
    mc_expr_op_kind kind;
    bool found;
    int a = 0, b = 0;
    mc_token at;

    if (prio == 0)
        return term(x, depth, reg);
    if (!level(x, prio - 1, depth, &a))
        return false;
    if (!oper(x, prio, &kind, &found, &at))
        return false;
    if (!found) {
        *reg = a;
        return true;
    }
    if (depth >= MC_LIMIT_EXPR_DEPTH)
        return mc_lex_fail(x->lx, &at, MC_ERR_LIMIT, "expression nested deeper than %d",
                           MC_LIMIT_EXPR_DEPTH);
    if (!level(x, prio, depth + 1, &b))
        return false;
    *reg = mc_expr_emit(x->b, x->lx, &at, kind, a, b);
    return *reg >= 0;
}

static bool expr(xp *x, int depth, int *reg)
{
    return level(x, 4, depth, reg);
}

bool mc_expr_parse(mc_expr_builder *b, mc_lexer *lx, const mc_token *kw, int *reg)
{
    xp x = { b, lx, kw, false };

    return expr(&x, 0, reg);
}

/* ---------------------------------------------------------------- tables */

static bool table_values(mc_lexer *lx, const mc_token *name, float **vals, int *n, int *cap)
{
    mc_token t;
    char d[80], e[80];

    for (;;) {
        if (!mc_lex_next(lx, &t))
            return false;
        if (t.kind != MC_TOK_NUMBER)
            return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected a number in table %s, found %s",
                               mc_lex_describe(name, e, sizeof e),
                               mc_lex_describe(&t, d, sizeof d));
        if (*n >= MC_LIMIT_TABLE_VALUES)
            return mc_lex_fail(lx, &t, MC_ERR_LIMIT, "more than %d values in table %s",
                               MC_LIMIT_TABLE_VALUES, mc_lex_describe(name, e, sizeof e));
        if (*n % 4096 == 4095 && mc_expr_stopped(lx))
            return false;
        if (!grow(lx, (void **)vals, cap, *n + 2, sizeof **vals))
            return false;
        (*vals)[(*n)++] = (float)t.num;
        if (!mc_lex_next(lx, &t))
            return false;
        if (t.kind == MC_TOK_PUNCT && t.text[0] == '}')
            return true;
        if (!(t.kind == MC_TOK_PUNCT && t.text[0] == ','))
            return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected ',' or '}' in table %s, found %s",
                               mc_lex_describe(name, e, sizeof e),
                               mc_lex_describe(&t, d, sizeof d));
    }
}

bool mc_expr_table_parse(mc_lexer *lx, mc_arena *arena, const mc_token *name, mc_expr_table *out)
{
    mc_token t;
    char d[80], e[80];
    float *vals = NULL;
    int n = 0, cap = 0;
    bool ok = false;
    char *lower;

    memset(out, 0, sizeof *out);
    if (!mc_lex_next(lx, &t))
        return false;
    if (!(t.kind == MC_TOK_PUNCT && t.text[0] == '{'))
        return mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "expected '{', found %s",
                           mc_lex_describe(&t, d, sizeof d));
    for (;;) {
        if (!mc_lex_next(lx, &t))
            goto done;
        if (t.kind == MC_TOK_PUNCT && t.text[0] == '}')
            break;
        if (word_is(&t, "snap")) {
            out->snap = true;
        } else if (word_is(&t, "clamp")) {
            out->clamp = true;
        } else if (t.kind == MC_TOK_PUNCT && t.text[0] == '{') {
            if (!table_values(lx, name, &vals, &n, &cap))
                goto done;
        } else {
            mc_lex_fail(lx, &t, MC_ERR_SYNTAX, "unexpected %s in table %s",
                        mc_lex_describe(&t, d, sizeof d), mc_lex_describe(name, e, sizeof e));
            goto done;
        }
    }
    if (n == 0) {
        mc_lex_fail(lx, name, MC_ERR_SYNTAX, "table %s has no values",
                    mc_lex_describe(name, e, sizeof e));
        goto done;
    }
    vals[n] = vals[0]; /* idDeclTable::Parse: the first value again, so lerping need not wrap */
    out->num_values = n;
    out->values = mc_lex_alloc(lx, arena, (size_t)n + 1, sizeof *out->values);
    lower = mc_lex_strdup(lx, arena, name->text, name->len);
    if (!out->values || !lower)
        goto done;
    for (char *c = lower; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    out->name = lower;
    memcpy(out->values, vals, ((size_t)n + 1) * sizeof *vals);
    ok = true;
done:
    free(vals);
    return ok;
}

/* ---------------------------------------------------------------- evaluation */

float mc_expr_table_lookup(const mc_expr_table *table, float index)
{
    int domain = table->num_values, i;
    float frac;

    if (domain <= 1)
        return 1.0f;
    if (table->clamp) {
        index *= (float)(domain - 1);
        if (index >= (float)(domain - 1))
            return table->values[domain - 1];
        if (!(index > 0.0f)) /* index <= 0, or not a number */
            return table->values[0];
        i = (int)index; /* idMath::Ftoi */
        frac = index - (float)i;
    } else {
        index *= (float)domain;
        if (index < 0.0f)
            index += (float)domain * ceilf(-index / (float)domain);
        if (!(index < 1e9f)) /* not finite or past int: Doom's cast is undefined there */
            index = 0.0f;
        i = (int)floorf(index);
        frac = index - (float)i;
        i %= domain;
    }
    if (!table->snap)
        return table->values[i] * (1.0f - frac) + table->values[i + 1] * frac;
    return table->values[i];
}

/* (int)v where C defines it; 0 beyond int's range (Doom's cast has no defined value there). */
static int to_int(float v)
{
    return v > -2147483520.0f && v < 2147483520.0f ? (int)v : 0;
}

void mc_expr_eval(const mc_expr_program *prog, float time, const float *parms, float *regs)
{
    memcpy(regs, prog->regs, (size_t)prog->num_regs * sizeof *regs);
    regs[MC_EXPR_REG_TIME] = time;
    for (int i = 0; i < MC_EXPR_NUM_PARMS; i++)
        regs[MC_EXPR_REG_PARM0 + i] = parms ? parms[i] : 0.0f;
    for (int i = 0; i < MC_EXPR_NUM_GLOBALS; i++)
        regs[MC_EXPR_REG_GLOBAL0 + i] = 0.0f;
    for (int i = 0; i < prog->num_ops; i++) {
        const mc_expr_op *op = &prog->ops[i];
        float a = regs[op->a], b = regs[op->b], r = 0.0f;

        switch (op->kind) {
        case MC_EXPR_ADD: r = a + b; break;
        case MC_EXPR_SUB: r = a - b; break;
        case MC_EXPR_MUL: r = a * b; break;
        case MC_EXPR_DIV: r = a / b; break;
        case MC_EXPR_MOD: {
            int d = to_int(b), n = to_int(a);

            d = d != 0 ? d : 1;
            r = d == -1 ? 0.0f : (float)(n % d);
            break;
        }
        case MC_EXPR_TABLE: r = mc_expr_table_lookup(&prog->tables[op->a], b); break;
        case MC_EXPR_SOUND: r = 0.0f; break;
        case MC_EXPR_GT: r = a > b; break;
        case MC_EXPR_GE: r = a >= b; break;
        case MC_EXPR_LT: r = a < b; break;
        case MC_EXPR_LE: r = a <= b; break;
        case MC_EXPR_EQ: r = a == b; break;
        case MC_EXPR_NE: r = a != b; break;
        case MC_EXPR_AND: r = a != 0.0f && b != 0.0f; break;
        case MC_EXPR_OR: r = a != 0.0f || b != 0.0f; break;
        }
        regs[op->c] = r;
    }
}

/* ---------------------------------------------------------------- copies */

bool mc_expr_stopped(mc_lexer *lx)
{
    if (!lx->opts || !lx->opts->stop || !*lx->opts->stop)
        return false;
    mc_lex_fail(lx, NULL, MC_ERR_INTERRUPTED, "interrupted");
    if (lx->err)
        lx->err->line = lx->err->col = 0;
    return true;
}

/* Doom's tables.mtr sinTable / cosTable, for `rotate` when the files declare none: 256 values
 * of sin and cos over one cycle, interpolated and wrapping. */
static bool add_builtin(mc_expr_tables *t, const char *name, bool is_sin)
{
    mc_expr_table tab = { name, false, false, 256, NULL };

    tab.values = mc_arena_alloc(&t->arena, 257, sizeof *tab.values);
    if (!tab.values)
        return false;
    for (int i = 0; i <= 256; i++) {
        double a = 2.0 * 3.14159265358979323846 * (double)(i % 256) / 256.0;

        tab.values[i] = (float)(is_sin ? sin(a) : cos(a));
    }
    return mc_expr_tables_add(t, &tab);
}

mc_expr_tables *mc_expr_tables_new(void)
{
    mc_expr_tables *t = calloc(1, sizeof *t);

    if (!t)
        return NULL;
    t->refs = 1;
    if (!add_builtin(t, "sintable", true) || !add_builtin(t, "costable", false)) {
        mc_expr_tables_release(t);
        return NULL;
    }
    return t;
}

bool mc_expr_tables_add(mc_expr_tables *t, const mc_expr_table *tab)
{
    if (t->num == t->cap) {
        int c = t->cap ? t->cap * 2 : 16;
        mc_expr_table *n = realloc(t->tables, (size_t)c * sizeof *n);

        if (!n)
            return false;
        t->tables = n;
        t->cap = c;
    }
    t->tables[t->num++] = *tab;
    return true;
}

bool mc_expr_tables_add_failed(mc_expr_tables *t, const mc_expr_table_failed *bad)
{
    if (t->num_bad == t->cap_bad) {
        int c = t->cap_bad ? t->cap_bad * 2 : 16;
        mc_expr_table_failed *n = realloc(t->bad, (size_t)c * sizeof *n);

        if (!n)
            return false;
        t->bad = n;
        t->cap_bad = c;
    }
    t->bad[t->num_bad++] = *bad;
    return true;
}

mc_expr_tables *mc_expr_tables_retain(mc_expr_tables *t)
{
    if (t)
        __atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
    return t;
}

void mc_expr_tables_release(mc_expr_tables *t)
{
    if (!t || __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    mc_arena_release(&t->arena);
    free(t->tables);
    free(t->bad);
    free(t);
}

const mc_expr_table *mc_expr_tables_find(const mc_expr_tables *t, const char *name)
{
    for (int k = t->num - 1; k >= 0; k--)
        if (strcmp(t->tables[k].name, name) == 0)
            return &t->tables[k];
    return NULL;
}

const mc_expr_table_failed *mc_expr_tables_find_failed(const mc_expr_tables *t, const char *name)
{
    for (int k = t->num_bad - 1; k >= 0; k--)
        if (strcmp(t->bad[k].name, name) == 0)
            return &t->bad[k];
    return NULL;
}

void mc_expr_program_free(mc_expr_program *x)
{
    if (x->shared) {
        mc_expr_tables_release(x->shared);
    } else {
        for (int i = 0; i < x->num_tables; i++) {
            free(x->tables[i].values);
            free((void *)(uintptr_t)x->tables[i].name);
        }
    }
    free(x->tables);
    free(x->regs);
    free(x->ops);
    memset(x, 0, sizeof *x);
}

bool mc_expr_program_copy(const mc_expr_program *from, mc_expr_program *to)
{
    memset(to, 0, sizeof *to);
    if (from->num_regs <= MC_EXPR_NUM_PREDEFINED) {
        /* no program: the predefined registers and the constant 1 */
        to->regs = calloc(MC_EXPR_NUM_PREDEFINED + 1, sizeof *to->regs);
        if (!to->regs)
            return false;
        to->regs[MC_EXPR_NUM_PREDEFINED] = 1.0f;
        to->num_regs = MC_EXPR_NUM_PREDEFINED + 1;
        return true;
    }
    to->regs = malloc((size_t)from->num_regs * sizeof *to->regs);
    to->ops = malloc((size_t)(from->num_ops > 0 ? from->num_ops : 1) * sizeof *to->ops);
    to->tables = calloc((size_t)(from->num_tables > 0 ? from->num_tables : 1), sizeof *to->tables);
    if (!to->regs || !to->ops || !to->tables)
        goto fail;
    to->num_regs = from->num_regs;
    to->num_ops = from->num_ops;
    if (from->num_regs > 0)
        memcpy(to->regs, from->regs, (size_t)from->num_regs * sizeof *to->regs);
    if (from->num_ops > 0)
        memcpy(to->ops, from->ops, (size_t)from->num_ops * sizeof *to->ops);
    if (from->shared) { /* the values stay where they are, one more reference to them */
        to->shared = mc_expr_tables_retain(from->shared);
        to->num_tables = from->num_tables;
        if (from->num_tables > 0)
            memcpy(to->tables, from->tables, (size_t)from->num_tables * sizeof *to->tables);
        return true;
    }
    for (int i = 0; i < from->num_tables; i++) {
        const mc_expr_table *t = &from->tables[i];
        size_t n = (size_t)t->num_values + 1;

        to->tables[i] = *t;
        to->tables[i].values = malloc(n * sizeof *t->values);
        to->tables[i].name = strdup(t->name);
        to->num_tables = i + 1;
        if (!to->tables[i].values || !to->tables[i].name)
            goto fail;
        memcpy(to->tables[i].values, t->values, n * sizeof *t->values);
    }
    return true;
fail:
    mc_expr_program_free(to);
    return false;
}
