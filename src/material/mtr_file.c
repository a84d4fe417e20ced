/* A whole .mtr file: its declarations in order, the tables its expressions name, duplicate names,
 * and the entry points that read a file or one declaration of it (mtr.c reads a material's
 * body). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/fileio.h>
#include <md5cine/mtr.h>

#include "formats/lex.h"
#include "mtr_expr.h"
#include "mtr_int.h"

static bool fail_as(mtr_parser *p, const mc_error *e)
{
    if (p->lx.err)
        *p->lx.err = *e;
    p->lx.failed = true;
    return false;
}

/* Remembers the table named n whose body did not parse, its body at lexer state body (just
 * after the name); it counts against the file's table budget as the values its record costs. */
static bool add_failed(mtr_parser *p, mc_expr_tables *t, const mc_lexer *body, const mc_token *n,
                       size_t *values)
{
    char name[MC_LIMIT_NAME_LEN + 1];
    mc_expr_table_failed bad = { .name_at = (size_t)(n->text - body->buf),
                                 .name_len = n->len,
                                 .at = (size_t)(body->cur - body->buf),
                                 .line_start = (size_t)(body->line_start - body->buf),
                                 .kind = (int)n->kind,
                                 .name_line = n->line,
                                 .name_col = n->col,
                                 .line = body->line };

    if (!mc_mtr_fold_name(n->text, n->len, false, name, sizeof name))
        return true; /* a name no program can name */
    bad.name = mc_arena_strndup(&t->arena, name, strlen(name));
    if (!bad.name || !mc_expr_tables_add_failed(t, &bad))
        return mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
    *values += (sizeof bad + strlen(name) + 1 + sizeof(float) - 1) / sizeof(float);
    return true;
}

/* Every `table NAME { ... }` of the whole text, read loosely into t: the tables a material's
 * expressions may name, wherever in the file they are (Doom finds a table declared anywhere).
 * A table that does not parse is remembered and skipped, braces counted, as Doom's
 * DeclManager skips a declaration's braced section and goes on at the next one
 * (idDeclFile::LoadAndParse); a lexical error ends the reading (t records it). */
static bool collect_tables(mtr_parser *p, mc_expr_tables *t)
{
    mc_parse_opts quiet = { 0 };
    mc_lexer lx;
    mc_token tok, n;
    int depth = 0;
    long count = 0;
    size_t values = 0;

    if (p->lx.opts)
        quiet.stop = p->lx.opts->stop;
    mc_lex_init(&lx, p->lx.buf, p->text_len, p->lx.name, &quiet, &t->error);
    lx.extra_punct = MTR_PUNCT;
    while (mc_lex_next(&lx, &tok) && tok.kind != MC_TOK_EOF) {
        if (++count % 4096 == 0 && mc_expr_stopped(&lx))
            return fail_as(p, &t->error);
        if (is_punct(&tok, '{')) {
            depth++;
        } else if (is_punct(&tok, '}')) {
            depth -= depth > 0;
        } else if (depth == 0 && is_kw(&tok, "table") && mc_lex_next(&lx, &n) &&
                   (n.kind == MC_TOK_NAME || n.kind == MC_TOK_STRING)) {
            const mc_lexer body = lx;
            mc_expr_table tab;
            char d[80];

            if (mc_expr_table_parse(&lx, &t->arena, &n, &tab)) {
                values += (size_t)tab.num_values;
                if (!mc_expr_tables_add(t, &tab))
                    return mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
            } else if (t->error.code == MC_ERR_NOMEM || t->error.code == MC_ERR_INTERRUPTED) {
                return fail_as(p, &t->error);
            } else if (!add_failed(p, t, &body, &n, &values)) {
                return false;
            } else {
                lx = body; /* its braces are counted from here on */
            }
            if (values > MC_LIMIT_MTR_TABLE_VALUES) {
                mc_lex_fail(&lx, &n, MC_ERR_LIMIT, MC_EXPR_TABLE_BUDGET_MSG " %zu values (table %s)",
                            MC_LIMIT_MTR_TABLE_VALUES, mc_lex_describe(&n, d, sizeof d));
                return fail_as(p, &t->error);
            }
        }
    }
    t->failed = lx.failed;
    return true;
}

/* The file's tables: the caller's, made here when it has none yet. */
static bool file_tables(mtr_parser *p)
{
    mc_expr_tables *t;

    if (p->f->tables)
        return true;
    t = p->cache && *p->cache ? mc_expr_tables_retain(*p->cache) : NULL;
    if (!t) {
        t = mc_expr_tables_new();
        if (!t)
            return mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
        if (!collect_tables(p, t)) {
            mc_expr_tables_release(t);
            return false;
        }
        if (p->cache)
            *p->cache = mc_expr_tables_retain(t);
    }
    p->f->tables = t;
    return true;
}

/* The error of table bad, read again from its body (none of it is kept). */
static bool table_error(mtr_parser *p, const mc_expr_table_failed *bad)
{
    mc_parse_opts quiet = { 0 };
    mc_error e = { 0 };
    mc_lexer lx;
    mc_arena scratch = { 0 };
    mc_expr_table tab;
    mc_token name = { (mc_tok_kind)bad->kind, p->lx.buf + bad->name_at, bad->name_len,
                      bad->name_line, bad->name_col, 0.0, false };

    mc_lex_init(&lx, p->lx.buf, p->text_len, p->lx.name, &quiet, &e);
    lx.extra_punct = MTR_PUNCT;
    lx.cur = lx.buf + bad->at;
    lx.line = bad->line;
    lx.line_start = lx.buf + bad->line_start;
    if (mc_expr_table_parse(&lx, &scratch, &name, &tab)) /* cannot be: it failed before */
        mc_error_set(&e, MC_ERR_SYNTAX, p->lx.name, bad->line, 0, "table '%s' does not parse",
                     bad->name);
    mc_arena_release(&scratch);
    return fail_as(p, &e);
}

/* The table ref names, from the file's tables; a table that did not parse fails with its own
 * error, at its position. */
static bool resolve_table(mtr_parser *p, const mc_expr_table_ref *r, mc_expr_table *out)
{
    const mc_expr_tables *t = p->f->tables;
    char name[MC_LIMIT_NAME_LEN + 1], d[80];
    const mc_expr_table *found;
    const mc_expr_table_failed *bad;
    mc_token tok = { MC_TOK_NAME, r->text, r->len, r->line, r->col, 0.0, false };

    if (!mc_mtr_fold_name(r->text, r->len, false, name, sizeof name))
        name[0] = '\0';
    found = mc_expr_tables_find(t, name);
    if (found) {
        *out = *found;
        return true;
    }
    bad = mc_expr_tables_find_failed(t, name);
    if (bad)
        return table_error(p, bad);
    return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "unknown table %s",
                       mc_lex_describe(&tok, d, sizeof d));
}

/* The declaration's program, its tables found by name among the file's (shared, not copied). */
static bool finish_program(mtr_parser *p, mc_mtr_decl *m)
{
    mc_expr_builder *b = &p->xb;
    mc_expr_program *x = &m->expr;
    mc_arena *a = &p->f->arena;

    x->num_regs = b->num_regs;
    x->regs = mc_lex_alloc(&p->lx, a, (size_t)b->num_regs, sizeof *x->regs);
    x->num_ops = b->num_ops;
    x->ops = mc_lex_alloc(&p->lx, a, (size_t)b->num_ops, sizeof *x->ops);
    x->num_tables = b->num_refs;
    x->tables = mc_lex_alloc(&p->lx, a, (size_t)b->num_refs, sizeof *x->tables);
    if (p->lx.failed)
        return false;
    for (int i = 0; i < b->num_regs; i++)
        x->regs[i] = b->temp[i] ? 0.0f : b->regs[i];
    if (b->num_ops > 0)
        memcpy(x->ops, b->ops, (size_t)b->num_ops * sizeof *x->ops);
    if (b->num_refs == 0)
        return true;
    if (!file_tables(p))
        return false;
    x->shared = p->f->tables; /* the file's reference */
    for (int i = 0; i < b->num_refs; i++)
        if (!resolve_table(p, &b->refs[i], &x->tables[i]))
            return false;
    return true;
}

static bool parse_material(mtr_parser *p, const mc_token *name)
{
    mc_mtr_file *f = p->f;
    mc_mtr_decl *m;
    mc_token open = {0};

    if (f->num_decls >= MC_LIMIT_MTR_DECLS)
        return mc_lex_fail(&p->lx, name, MC_ERR_LIMIT, "more than %d materials in one file",
                           MC_LIMIT_MTR_DECLS);
    if (!mc_mtr_grow(p, (void **)&p->decls, &p->cap_decls, f->num_decls + 1, sizeof *p->decls))
        return false;
    m = &p->decls[f->num_decls];
    memset(m, 0, sizeof *m);
    m->line = name->line;
    m->col = name->col;
    m->name = mc_mtr_canonical_dup(p, name, "material name", true);
    if (!m->name)
        return false;
    if (!mc_mtr_expect_punct(p, '{', &open))
        return false;
    p->num_stages = 0;
    p->wrap = MC_WRAP_REPEAT;
    if (!mc_expr_builder_reset(&p->xb, &p->lx) || !mc_mtr_parse_body(p, m, &open) ||
        !finish_program(p, m))
        return false;
    m->num_stages = p->num_stages;
    m->stages = mc_lex_alloc(&p->lx, &f->arena, (size_t)p->num_stages, sizeof *m->stages);
    if (p->lx.failed)
        return false;
    if (p->num_stages > 0)
        memcpy(m->stages, p->stages, (size_t)p->num_stages * sizeof *m->stages);

    f->num_decls++;
    return true;
}

/* table NAME { ... }, guide NAME [template] [( ... )] [{ ... }], or TYPE NAME { ... } of a
 * declaration type other than material. */
static bool skip_decl(mtr_parser *p, const mc_token *type)
{
    mc_token t;
    char d[80];
    bool guide = is_kw(type, "guide");

    if (!mc_lex_next(&p->lx, &t))
        return false;
    if (t.kind != MC_TOK_NAME && t.kind != MC_TOK_STRING)
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "expected a name after %s, found %s",
                           mc_lex_describe(type, d, sizeof d), mc_lex_describe(&t, d + 40, 40));
    if (guide) {
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_NAME && t.line == type->line)
            mc_lex_next(&p->lx, &t);
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (is_punct(&t, '(')) {
            mc_lex_next(&p->lx, &t);
            if (!mc_mtr_skip_group(p, &t))
                return false;
        }
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (!is_punct(&t, '{'))
            return true;
    }
    return mc_mtr_expect_punct(p, '{', &t) && mc_mtr_skip_group(p, &t);
}

static int decl_order_cmp(const void *a, const void *b)
{
    const mc_mtr_decl *x = *(const mc_mtr_decl *const *)a, *y = *(const mc_mtr_decl *const *)b;
    int c = strcmp(x->name, y->name);

    if (c)
        return c;
    return x->line != y->line ? (x->line > y->line) - (x->line < y->line)
                              : (x->col > y->col) - (x->col < y->col);
}

/* Two declarations of one name in one file: the earliest second declaration is the error.
 * Sorting keeps this O(n log n) for a file of tens of thousands of names. */
static bool check_duplicates(mtr_parser *p)
{
    int n = p->f->num_decls;
    const mc_mtr_decl **order;
    const mc_mtr_decl *dup = NULL, *first = NULL;

    if (n < 2)
        return true;
    order = malloc((size_t)n * sizeof *order);
    if (!order)
        return mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        order[i] = &p->decls[i];
    qsort(order, (size_t)n, sizeof *order, decl_order_cmp);
    for (int i = 1; i < n; i++) {
        if (strcmp(order[i]->name, order[i - 1]->name) != 0)
            continue;
        if (i >= 2 && strcmp(order[i]->name, order[i - 2]->name) == 0)
            continue; /* a third one: the second is earlier */
        if (!dup || order[i]->line < dup->line ||
            (order[i]->line == dup->line && order[i]->col < dup->col)) {
            dup = order[i];
            first = order[i - 1];
        }
    }
    free(order);
    if (dup) {
        mc_token at = { .kind = MC_TOK_NAME, .text = dup->name, .len = strlen(dup->name),
                        .line = dup->line, .col = dup->col };

        return mc_lex_fail(&p->lx, &at, MC_ERR_SYNTAX,
                           "material '%s' is declared twice (first at line %d, column %d)",
                           dup->name, first->line, first->col);
    }
    return true;
}

static bool parse_file(void *ctx)
{
    mtr_parser *p = ctx;
    mc_token t, n;
    char d[80];

    p->lx.extra_punct = MTR_PUNCT;
    if (p->span) {
        /* Read only the span, positioned as in the whole file. */
        p->lx.cur = p->lx.buf + p->span->start;
        p->lx.end = p->lx.buf + p->span->end;
        p->lx.line = p->span->line;
        p->lx.line_start = p->lx.cur - (p->span->col - 1);
    }
    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF)
            break;
        /* A span holds one declaration as the index saw its braces; the parser, which skips
         * ( ) groups, can close it earlier: what is left is an error of that material. */
        if (p->span && p->f->num_decls == 1)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "unexpected %s after the material's closing '}' (its braces and "
                               "parentheses do not pair up)",
                               mc_lex_describe(&t, d, sizeof d));
        if (t.kind != MC_TOK_NAME && t.kind != MC_TOK_STRING)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "expected a material name, found %s",
                               mc_lex_describe(&t, d, sizeof d));
        if (is_kw(&t, "table")) {
            mc_expr_table tab;
            mc_arena scratch = { 0 };
            bool ok;

            /* checked here; the expressions use what collect_tables reads */
            if (!mc_lex_next(&p->lx, &n))
                return false;
            if (n.kind != MC_TOK_NAME && n.kind != MC_TOK_STRING)
                return mc_lex_fail(&p->lx, &n, MC_ERR_SYNTAX, "expected a name after %s, found %s",
                                   mc_lex_describe(&t, d, sizeof d),
                                   mc_lex_describe(&n, d + 40, 40));
            ok = mc_expr_table_parse(&p->lx, &scratch, &n, &tab);
            mc_arena_release(&scratch);
            if (!ok)
                return false;
            continue;
        }
        if (is_kw(&t, "guide")) {
            if (!skip_decl(p, &t))
                return false;
            continue;
        }
        if (!mc_lex_peek(&p->lx, &n))
            return false;
        if (t.kind == MC_TOK_NAME && (n.kind == MC_TOK_NAME || n.kind == MC_TOK_STRING)) {
            /* "TYPE NAME {": a material, or a declaration of another type. */
            if (is_kw(&t, "material")) {
                mc_lex_next(&p->lx, &n);
                if (!parse_material(p, &n))
                    return false;
            } else if (!mc_mtr_warn_once(p, &t, "declaration type", "") || !skip_decl(p, &t)) {
                return false;
            }
            continue;
        }
        if (!parse_material(p, &t))
            return false;
    }
    if (!check_duplicates(p))
        return false;
    p->f->decls = mc_lex_alloc(&p->lx, &p->f->arena, (size_t)p->f->num_decls, sizeof *p->decls);
    if (p->lx.failed)
        return false;
    if (p->f->num_decls > 0)
        memcpy(p->f->decls, p->decls, (size_t)p->f->num_decls * sizeof *p->decls);
    return true;
}

/* The whole text (span NULL) or one indexed declaration of it into *out. */
static mc_status run_parser(const char *buf, size_t len, const char *name,
                            const mc_mtr_span *span, const mc_parse_opts *opts,
                            mc_expr_tables **cache, mc_mtr_file *out, mc_error *err)
{
    mtr_parser p;
    mc_status st;

    memset(out, 0, sizeof *out);
    memset(&p, 0, sizeof p);
    p.f = out;
    p.span = span;
    p.cache = cache;
    len = text_len(buf, len);
    p.text_len = len;
    st = mc_lex_run(&p.lx, buf, len, name, opts, &out->arena, &out->name, parse_file, &p, err);
    free(p.decls);
    free(p.stages);
    free(p.warned);
    mc_expr_builder_free(&p.xb);
    if (st != MC_OK) {
        mc_expr_tables_release(out->tables);
        memset(out, 0, sizeof *out);
    }
    return st;
}

mc_status mc_mtr_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                       mc_mtr_file *out, mc_error *err)
{
    return run_parser(buf, text_len(buf, len), name, NULL, opts, NULL, out, err);
}

mc_status mc_mtr_load(const char *path, const mc_parse_opts *opts, mc_mtr_file *out, mc_error *err)
{
    char *buf;
    size_t len;
    mc_status st;

    memset(out, 0, sizeof *out);
    st = mc_read_file(path, &buf, &len, err);
    if (st != MC_OK)
        return st;
    st = mc_mtr_parse(buf, len, path, opts, out, err);
    free(buf);
    return st;
}

const mc_mtr_decl *mc_mtr_find(const mc_mtr_file *file, const char *name)
{
    char c[MC_LIMIT_NAME_LEN + 1];

    if (!mc_mtr_canonical(name, strlen(name), c, sizeof c))
        return NULL;
    for (int i = 0; i < file->num_decls; i++)
        if (strcmp(file->decls[i].name, c) == 0)
            return &file->decls[i];
    return NULL;
}

static size_t prog_text(const mc_mtr_prog *g, char *buf, size_t cap, size_t at)
{
    static const char *const names[] = {
        "",      "heightmap",   "addnormals",  "smoothnormals", "add",
        "scale", "invertAlpha", "invertColor", "makeIntensity", "makeAlpha"
    };
    int n;

#define PUT(...)                                                                             \
    do {                                                                                     \
        n = snprintf(buf + (at < cap ? at : cap - 1), at < cap ? cap - at : 1, __VA_ARGS__); \
        at += n > 0 ? (size_t)n : 0;                                                         \
    } while (0)
    if (g->kind == MC_PROG_IMAGE) {
        PUT("%s", g->name);
        return at;
    }
    PUT("%s(", names[g->kind]);
    at = prog_text(g->arg[0], buf, cap, at);
    if (g->kind == MC_PROG_ADD || g->kind == MC_PROG_ADDNORMALS) {
        PUT(", ");
        at = prog_text(g->arg[1], buf, cap, at);
    } else if (g->kind == MC_PROG_HEIGHTMAP) {
        PUT(", %g", (double)g->value[0]);
    } else if (g->kind == MC_PROG_SCALE) {
        PUT(", %g, %g, %g, %g", (double)g->value[0], (double)g->value[1], (double)g->value[2],
            (double)g->value[3]);
    }
    PUT(")");
#undef PUT
    return at;
}

const char *mc_mtr_prog_text(const mc_mtr_prog *prog, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    prog_text(prog, buf, cap, 0);
    return buf;
}

void mc_mtr_release(mc_mtr_file *file)
{
    if (!file)
        return;
    mc_arena_release(&file->arena);
    mc_expr_tables_release(file->tables);
    memset(file, 0, sizeof *file);
}

mc_status mc_mtr_index_text(const char *buf, size_t len, const char *name,
                            const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err)
{
    return mc_decl_index_text(buf, len, name, "material", "material", opts, out, err);
}

mc_status mc_mtr_parse_span(const char *buf, size_t len, const char *name, const mc_mtr_span *span,
                            const mc_parse_opts *opts, mc_mtr_file *out, mc_error *err)
{
    memset(out, 0, sizeof *out);
    len = text_len(buf, len);
    if (span->start > span->end || span->end > len || span->col < 1)
        return mc_error_set(err, MC_ERR_USAGE, name, span->line, span->col,
                            "declaration span outside the text");
    return run_parser(buf, len, name, span, opts, NULL, out, err);
}

mc_status mc_mtr_parse_span_tables(const char *buf, size_t len, const char *name,
                                   const mc_mtr_span *span, const mc_parse_opts *opts,
                                   mc_expr_tables **tables, mc_mtr_file *out, mc_error *err)
{
    memset(out, 0, sizeof *out);
    len = text_len(buf, len);
    if (span->start > span->end || span->end > len || span->col < 1)
        return mc_error_set(err, MC_ERR_USAGE, name, span->line, span->col,
                            "declaration span outside the text");
    return run_parser(buf, len, name, span, opts, tables, out, err);
}

mc_status mc_mtr_default_decl(const char *name, mc_mtr_file *out, mc_error *err)
{
    char text[MC_LIMIT_NAME_LEN + 64];
    int n;

    memset(out, 0, sizeof *out);
    if (strchr(name, '"') || strchr(name, '\n'))
        return mc_error_set(err, MC_ERR_SYNTAX, NULL, 0, 0, "bad material name '%s'", name);
    /* Material.cpp, idMaterial::DefaultDefinition. */
    n = snprintf(text, sizeof text, "\"%s\" {\n\t{\n\t\tblend\tblend\n\t\tmap\t\t_default\n\t}\n}",
                 name);
    if (n < 0 || (size_t)n >= sizeof text)
        return mc_error_set(err, MC_ERR_SYNTAX, NULL, 0, 0, "material name too long");
    return mc_mtr_parse(text, (size_t)n, "(default material)", NULL, out, err);
}
