/* Model declarations of .def files of def/ (modeldef.h). */
#include "modeldef.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>

#include "decl_scan.h"
#include "lex.h"

typedef struct md_parser {
    mc_lexer lx;
    mc_arena *arena;
    mc_modeldef *m;
    int cap_anims;
} md_parser;

static bool is_punct(const mc_token *t, char c)
{
    return t->kind == MC_TOK_PUNCT && t->text[0] == c;
}

/* A name or string token's text as a game path ('\' as '/'), in the arena. */
static char *dup_path(md_parser *p, const mc_token *t)
{
    char *s = mc_lex_strdup(&p->lx, p->arena, t->text, t->len);

    for (char *c = s; c && *c; c++)
        if (*c == '\\')
            *c = '/';
    return s;
}

static bool read_word(md_parser *p, const mc_token *kw, mc_token *out)
{
    char d[80];

    if (!mc_lex_next(&p->lx, out))
        return false;
    if (out->kind != MC_TOK_NAME && out->kind != MC_TOK_STRING && out->kind != MC_TOK_NUMBER)
        return mc_lex_fail(&p->lx, out, MC_ERR_SYNTAX, "expected a name after '%.*s', found %s",
                           (int)kw->len, kw->text, mc_lex_describe(out, d, sizeof d));
    if (out->len == 0 || out->len > MC_LIMIT_NAME_LEN)
        return mc_lex_fail(&p->lx, out, MC_ERR_SYNTAX,
                           "invalid name after '%.*s', expected 1 to %d bytes", (int)kw->len,
                           kw->text, MC_LIMIT_NAME_LEN);
    return true;
}

static bool ends_with(const mc_token *t, const char *ext)
{
    size_t n = strlen(ext);

    return t->len > n && memcmp(t->text + t->len - n, ext, n) == 0;
}

static mc_modeldef_anim *new_anim(md_parser *p, const mc_token *at)
{
    mc_modeldef *m = p->m;

    if (m->num_anims == MC_LIMIT_MODELDEF_ANIMS) {
        mc_lex_fail(&p->lx, at, MC_ERR_LIMIT, "more than %d anims in model '%s'",
                    MC_LIMIT_MODELDEF_ANIMS, m->name);
        return NULL;
    }
    if (m->num_anims == p->cap_anims) {
        int cap = p->cap_anims ? p->cap_anims * 2 : 16;
        mc_modeldef_anim *grown = mc_lex_alloc(&p->lx, p->arena, (size_t)cap, sizeof *grown);

        if (!grown)
            return NULL;
        if (m->num_anims)
            memcpy(grown, m->anims, (size_t)m->num_anims * sizeof *grown);
        m->anims = grown;
        p->cap_anims = cap;
    }
    memset(&m->anims[m->num_anims], 0, sizeof m->anims[0]);
    return &m->anims[m->num_anims++];
}

/* After an anim's files: a `{ ... }` of frame commands and flags, skipped the way the
 * declaration manager skips a body (any bytes up to the matching '}'). */
static bool skip_frame_block(md_parser *p, const mc_token *name)
{
    mc_token t;
    mc_scan s;

    if (!mc_lex_peek(&p->lx, &t) || !is_punct(&t, '{'))
        return !p->lx.failed;
    mc_lex_next(&p->lx, &t);
    s = (mc_scan){ .buf = p->lx.buf,
                   .p = p->lx.cur,
                   .end = p->lx.end,
                   .line = p->lx.line,
                   .line_start = p->lx.line_start };
    for (long depth = 1; depth > 0;) {
        mc_scan_tok st;

        if (!mc_scan_token(&s, &st))
            break;
        depth += mc_scan_brace(&st, '{') ? 1 : mc_scan_brace(&st, '}') ? -1 : 0;
        if (depth == 0) {
            p->lx.cur = s.p;
            p->lx.line = s.line;
            p->lx.line_start = s.line_start;
            return true;
        }
    }
    return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                       "end of file inside the frame commands of anim '%.*s'", (int)name->len,
                       name->text);
}

/* anim NAME FILE [, FILE ...] [{ ... }] (ParseAnim). */
static bool parse_anim(md_parser *p, const mc_token *kw)
{
    mc_token name, file;
    mc_modeldef_anim *a;
    bool more;
    size_t i;

    if (!read_word(p, kw, &name))
        return false;
    /* "random anims end with a number": the name without its digits may not be empty */
    for (i = name.len; i > 1 && name.text[i - 1] >= '0' && name.text[i - 1] <= '9'; i--)
        ;
    if (name.text[i - 1] >= '0' && name.text[i - 1] <= '9')
        return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX, "invalid animation name '%.*s'",
                           (int)name.len, name.text);
    for (int k = 0; k < p->m->num_anims; k++) {
        const mc_modeldef_anim *o = &p->m->anims[k];

        if (!o->remove && strlen(o->name) == name.len && memcmp(o->name, name.text, name.len) == 0)
            return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX,
                               "duplicate anim '%s' (first given at line %d)", o->name, o->line);
    }
    if (!read_word(p, &name, &file))
        return false;
    if (!ends_with(&file, ".md5anim"))
        return mc_lex_fail(&p->lx, &file, MC_ERR_SYNTAX,
                           "expected a .md5anim file for anim '%.*s', found '%.*s'", (int)name.len,
                           name.text, (int)file.len, file.text);
    a = new_anim(p, &name);
    if (!a)
        return false;
    a->name = mc_lex_strdup(&p->lx, p->arena, name.text, name.len);
    a->path = dup_path(p, &file);
    a->line = name.line;
    a->col = name.col;
    if (p->lx.failed)
        return false;
    /* synced anims: the others are read and left out */
    for (;;) {
        mc_token other;

        if (!mc_lex_accept(&p->lx, ",", &more))
            return false;
        if (!more)
            break;
        if (!read_word(p, kw, &other))
            return false;
    }
    return skip_frame_block(p, &name);
}

/* channel NAME ( joints ) -- read and left out. */
static bool skip_channel(md_parser *p, const mc_token *kw)
{
    mc_token name, t, open;

    if (!read_word(p, kw, &name) || !mc_lex_expect_tok(&p->lx, "(", &open))
        return false;
    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (is_punct(&t, ')'))
            return true;
        if (t.kind == MC_TOK_EOF || is_punct(&t, '{') || is_punct(&t, '}'))
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "expected ')' closing channel '%.*s' opened at line %d, column %d",
                               (int)name.len, name.text, open.line, open.col);
    }
}

static bool parse_body(md_parser *p, const mc_token *open)
{
    mc_modeldef *m = p->m;
    mc_token t, v;
    char d[80];

    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (is_punct(&t, '}'))
            return true;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "end of file inside model '%s' opened at line %d, column %d",
                               m->name, open->line, open->col);
        if (t.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "unexpected %s in model '%s'",
                               mc_lex_describe(&t, d, sizeof d), m->name);
        if (mc_lex_is(&t, "inherit")) {
            if (!read_word(p, &t, &v))
                return false;
            m->inherit = mc_lex_strdup(&p->lx, p->arena, v.text, v.len);
            m->inherit_line = v.line;
            m->inherit_col = v.col;
        } else if (mc_lex_is(&t, "skin")) {
            if (!read_word(p, &t, &v))
                return false;
            m->skin = dup_path(p, &v);
        } else if (mc_lex_is(&t, "mesh")) {
            if (!read_word(p, &t, &v))
                return false;
            if (!ends_with(&v, ".md5mesh"))
                return mc_lex_fail(&p->lx, &v, MC_ERR_SYNTAX,
                                   "expected a .md5mesh file after 'mesh', found %s",
                                   mc_lex_describe(&v, d, sizeof d));
            m->mesh = dup_path(p, &v);
            m->mesh_line = v.line;
            m->mesh_col = v.col;
        } else if (mc_lex_is(&t, "offset")) {
            if (!mc_lex_vec(&p->lx, 3, m->offset))
                return false;
            m->has_offset = true;
        } else if (mc_lex_is(&t, "anim")) {
            if (!parse_anim(p, &t))
                return false;
        } else if (mc_lex_is(&t, "remove")) {
            mc_modeldef_anim *a;

            if (!read_word(p, &t, &v) || !(a = new_anim(p, &v)))
                return false;
            a->name = mc_lex_strdup(&p->lx, p->arena, v.text, v.len);
            a->line = v.line;
            a->col = v.col;
            a->remove = true;
        } else if (mc_lex_is(&t, "channel")) {
            if (!skip_channel(p, &t))
                return false;
        } else {
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "unknown keyword %s in model '%s' (expected inherit, mesh, skin, "
                               "offset, anim, remove or channel)",
                               mc_lex_describe(&t, d, sizeof d), m->name);
        }
        if (p->lx.failed)
            return false;
    }
}

/* The model declaration whose `model` word is at kw, parsed strictly. */
static bool parse_model(md_parser *p, const mc_scan_tok *kw)
{
    mc_token t, name, open;

    p->lx.cur = p->lx.buf + kw->start;
    p->lx.line = kw->line;
    p->lx.line_start = p->lx.cur - (kw->col - 1);
    if (!mc_lex_next(&p->lx, &t) || !read_word(p, &t, &name))
        return false;
    p->m->name = mc_lex_strdup(&p->lx, p->arena, name.text, name.len);
    p->m->line = name.line;
    p->m->col = name.col;
    if (!p->m->name || !mc_lex_expect_tok(&p->lx, "{", &open))
        return false;
    return parse_body(p, &open);
}

mc_status mc_modeldef_find(const char *buf, size_t len, const char *file, const char *name,
                           mc_arena *arena, mc_modeldef *out, bool *found, mc_error *err)
{
    const char *nul = buf ? memchr(buf, 0, len) : NULL;
    mc_scan s;
    mc_scan_tok t, n;
    md_parser p;
    mc_error local;

    memset(out, 0, sizeof *out);
    *found = false;
    if (nul) /* the text Doom's lexer reads ends at the first NUL byte */
        len = (size_t)(nul - buf);
    s = (mc_scan){ .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    while (mc_scan_token(&s, &t)) {
        if (mc_scan_brace(&t, '{')) {
            mc_scan_braced(&s);
            continue;
        }
        if (t.string || !mc_scan_is(&t, "model"))
            continue;
        if (!mc_scan_token(&s, &n))
            break;
        if (mc_scan_brace(&n, '{')) {
            mc_scan_braced(&s);
            continue;
        }
        if (name && (n.len != strlen(name) || strncasecmp(n.text, name, n.len) != 0))
            continue;
        memset(&p, 0, sizeof p);
        mc_lex_init(&p.lx, buf, len, file, NULL, err ? err : &local);
        p.lx.extra_punct = ",*-";
        p.arena = arena;
        p.m = out;
        *found = true;
        if (!parse_model(&p, &t)) {
            memset(out, 0, sizeof *out);
            return p.lx.err->code;
        }
        return MC_OK;
    }
    return MC_OK;
}
