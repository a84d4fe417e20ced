/* Model declarations of .def files of def/ (modeldef.h). */
#include "modeldef.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/framecmd.h>
#include <md5cine/limits.h>

#include "decl_scan.h"
#include "lex.h"

/* Slots of the parser's index of anim names: twice the most anims a declaration holds. */
#define NAME_SLOTS (2 * MC_LIMIT_MODELDEF_ANIMS)

typedef struct md_parser {
    mc_lexer lx;
    mc_arena *arena;
    mc_modeldef *m;
    int cap_anims;
    int cap_commands, cap_flags; /* of the anim whose block is being read */
    int *names;                  /* NAME_SLOTS: the anims (not removes) by name's hash, -1 empty;
                                    malloc'd at the first anim */
} md_parser;

static size_t name_hash(const char *s, size_t n)
{
    size_t h = 1469598103934665603u;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The anim of this name declared before (not a remove), or NULL; *slot the free slot where it
 * goes otherwise (-1 when out of memory: the error is set). */
static const mc_modeldef_anim *anim_named(md_parser *p, const mc_token *name, size_t *slot)
{
    size_t i = name_hash(name->text, name->len) & (NAME_SLOTS - 1);

    if (!p->names) {
        p->names = malloc(NAME_SLOTS * sizeof *p->names);
        if (!p->names) {
            mc_lex_fail(&p->lx, name, MC_ERR_NOMEM, "out of memory");
            *slot = (size_t)-1;
            return NULL;
        }
        memset(p->names, 0xff, NAME_SLOTS * sizeof *p->names);
    }
    for (; p->names[i] >= 0; i = (i + 1) & (NAME_SLOTS - 1)) {
        const mc_modeldef_anim *o = &p->m->anims[p->names[i]];

        if (strlen(o->name) == name->len && memcmp(o->name, name->text, name->len) == 0)
            return o;
    }
    *slot = i;
    return NULL;
}

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

/* A file a declaration names is a game path inside the base: no '..', no '::', not absolute
 * ('/', '\\' or a drive's "c:" first). The engine refuses the same before it looks in its search
 * paths (framework/FileSystem.cpp, idFileSystemLocal::OpenFileReadFlags); here no file outside
 * the base is looked at either. */
static bool in_base(md_parser *p, const mc_token *t, const char *what)
{
    bool drive = t->len >= 2 && t->text[1] == ':';
    bool up = false, colons = false;

    for (size_t i = 0; i + 1 < t->len; i++) {
        up = up || (t->text[i] == '.' && t->text[i + 1] == '.');
        colons = colons || (t->text[i] == ':' && t->text[i + 1] == ':');
    }
    if (up || colons || drive || t->text[0] == '/' || t->text[0] == '\\')
        return mc_lex_fail(&p->lx, t, MC_ERR_SYNTAX,
                           "%s '%.*s' leaves the base: a declaration names game paths inside it "
                           "(no '..', '::' or absolute path)", what, (int)t->len, t->text);
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

/* Room for one more item of a growing array of the arena (doubling), the new item zeroed. */
static void *grow(md_parser *p, void **items, int count, int *cap, size_t size)
{
    if (count == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        void *grown = mc_lex_alloc(&p->lx, p->arena, (size_t)ncap, size);

        if (!grown)
            return NULL;
        if (count)
            memcpy(grown, *items, (size_t)count * size);
        *items = grown;
        *cap = ncap;
    }
    return (char *)*items + (size_t)count * size;
}

/* A new command (unknown: a new unknown flag) of anim a, at token at, its word w. */
static mc_frame_command *new_command(md_parser *p, mc_modeldef_anim *a, bool flag,
                                     const mc_token *at, const mc_token *w)
{
    mc_frame_command *c;

    if (a->num_commands + a->num_unknown_flags >= MC_LIMIT_ANIM_FRAME_COMMANDS) {
        mc_lex_fail(&p->lx, at, MC_ERR_LIMIT, "more than %d frame commands in anim '%s'",
                    MC_LIMIT_ANIM_FRAME_COMMANDS, a->name);
        return NULL;
    }
    c = flag ? grow(p, (void **)&a->unknown_flags, a->num_unknown_flags, &p->cap_flags, sizeof *c)
             : grow(p, (void **)&a->commands, a->num_commands, &p->cap_commands, sizeof *c);
    if (!c)
        return NULL;
    *c = (mc_frame_command){ .kind = MC_FC_UNKNOWN, .line = at->line, .col = at->col,
                             .word_line = w->line, .word_col = w->col };
    c->word = mc_lex_strdup(&p->lx, p->arena, w->text, w->len);
    if (!c->word)
        return NULL;
    if (flag)
        a->num_unknown_flags++;
    else
        a->num_commands++;
    return c;
}

/* The rest of w's line (w was just read) as c's arguments: every token up to the end of the
 * line, a brace or the end of the text, read as the declaration manager reads tokens (decl_scan.h:
 * any bytes but white space, braces and quotes make a token), so that a command md5cine does not
 * know passes whatever it holds. The lexer goes on after them. */
static bool rest_of_line(md_parser *p, const mc_token *w, mc_frame_command *c)
{
    mc_frame_arg args[MC_LIMIT_FRAME_COMMAND_ARGS];
    mc_scan s = { .buf = p->lx.buf, .p = p->lx.cur, .end = p->lx.end, .line = p->lx.line,
                  .line_start = p->lx.line_start };
    mc_frame_arg *kept;
    int n = 0;

    for (;;) {
        mc_scan probe = s;
        mc_scan_tok t;

        if (!mc_scan_token(&probe, &t) || t.line != w->line || mc_scan_brace(&t, '{') ||
            mc_scan_brace(&t, '}'))
            break;
        if (n == MC_LIMIT_FRAME_COMMAND_ARGS) {
            mc_token at = { .kind = MC_TOK_NAME, .text = t.text, .len = t.len, .line = t.line,
                            .col = t.col };

            return mc_lex_fail(&p->lx, &at, MC_ERR_LIMIT, "more than %d arguments after '%s'",
                               MC_LIMIT_FRAME_COMMAND_ARGS, c->word);
        }
        args[n] = (mc_frame_arg){ mc_lex_strdup(&p->lx, p->arena, t.text, t.len), t.line, t.col };
        if (!args[n++].text)
            return false;
        s = probe;
    }
    p->lx.cur = s.p;
    p->lx.line = s.line;
    p->lx.line_start = s.line_start;
    p->lx.has_peeked = false;
    if (n == 0)
        return true;
    kept = mc_lex_alloc(&p->lx, p->arena, (size_t)n, sizeof *kept);
    if (!kept)
        return false;
    memcpy(kept, args, (size_t)n * sizeof *kept);
    c->args = kept;
    c->num_args = n;
    return true;
}

/* The arguments of a known command c read from the line of its word w (idAnim::AddFrameCommand:
 * ReadTokenOnLine for each): a name, number or string each. */
static bool command_args(md_parser *p, const mc_token *w, mc_frame_command *c)
{
    int want = mc_frame_cmd_args(c->kind), n = want == MC_FC_OPTIONAL_ARG ? 1 : want;
    mc_frame_arg *args = n ? mc_lex_alloc(&p->lx, p->arena, (size_t)n, sizeof *args) : NULL;
    char d[80];

    if (n && !args)
        return false;
    c->args = args;
    for (int i = 0; i < n; i++) {
        mc_token t;

        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF || t.kind == MC_TOK_PUNCT || t.line != w->line) {
            if (want == MC_FC_OPTIONAL_ARG)
                return true;
            return mc_lex_fail(&p->lx, t.kind == MC_TOK_PUNCT && t.line == w->line ? &t : w,
                               MC_ERR_SYNTAX, "'%s' needs %d argument%s on its line, found %s",
                               c->word, want, want == 1 ? "" : "s",
                               t.line == w->line ? mc_lex_describe(&t, d, sizeof d)
                                                 : "the end of the line");
        }
        mc_lex_next(&p->lx, &t);
        args[i] = (mc_frame_arg){ mc_lex_strdup(&p->lx, p->arena, t.text, t.len), t.line, t.col };
        if (!args[i].text)
            return false;
        c->num_args++;
    }
    return true;
}

/* frame N COMMAND ARGS... (ParseAnim, AddFrameCommand): N an integer from 1 on the line of
 * `frame` (kw), the command on the same line. */
static bool parse_frame(md_parser *p, mc_modeldef_anim *a, const mc_token *kw)
{
    mc_token n, w;
    mc_frame_command *c;
    char d[80];

    if (!mc_lex_peek(&p->lx, &n))
        return false;
    if (n.kind == MC_TOK_EOF || n.line != kw->line)
        return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX, "missing frame number after 'frame'");
    mc_lex_next(&p->lx, &n);
    if (n.kind != MC_TOK_NUMBER || !n.is_int)
        return mc_lex_fail(&p->lx, &n, MC_ERR_SYNTAX,
                           "expected a whole frame number after 'frame', found %s",
                           mc_lex_describe(&n, d, sizeof d));
    /* Anim_Blend.cpp: "Frame %d out of range", and the whole model is its default one */
    if (n.num < 1 || n.num > MC_LIMIT_ANIM_FRAMES)
        return mc_lex_fail(&p->lx, &n, MC_ERR_RANGE,
                           "frame %.*s out of range: frames count from 1 to the anim's numFrames",
                           n.len > 24 ? 24 : (int)n.len, n.text);
    if (!mc_lex_peek(&p->lx, &w))
        return false;
    if (w.kind == MC_TOK_EOF || w.kind == MC_TOK_PUNCT || w.line != kw->line)
        return mc_lex_fail(&p->lx, w.kind == MC_TOK_PUNCT && w.line == kw->line ? &w : &n,
                           MC_ERR_SYNTAX, "expected a command after 'frame %d', found %s",
                           (int)n.num,
                           w.line == kw->line ? mc_lex_describe(&w, d, sizeof d)
                                              : "the end of the line");
    mc_lex_next(&p->lx, &w);
    c = new_command(p, a, false, kw, &w);
    if (!c)
        return false;
    c->frame = (int)n.num;
    c->kind = mc_frame_cmd_find(w.text, w.len);
    return c->kind == MC_FC_UNKNOWN ? rest_of_line(p, &w, c) : command_args(p, &w, c);
}

/* After an anim's files: a `{ ... }` of frame commands and flags (ParseAnim). */
static bool parse_frame_block(md_parser *p, const mc_token *name, mc_modeldef_anim *a)
{
    mc_token open, t;
    char d[80];

    if (!mc_lex_peek(&p->lx, &open) || !is_punct(&open, '{'))
        return !p->lx.failed;
    mc_lex_next(&p->lx, &open);
    p->cap_commands = p->cap_flags = 0;
    for (;;) {
        unsigned flag;
        mc_frame_command *c;

        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (is_punct(&t, '}'))
            return true;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &open, MC_ERR_SYNTAX,
                               "end of file inside the frame commands of anim '%.*s'",
                               (int)name->len, name->text);
        if (t.kind == MC_TOK_PUNCT)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "unexpected %s in the frame commands of anim '%.*s'",
                               mc_lex_describe(&t, d, sizeof d), (int)name->len, name->text);
        if (mc_lex_is(&t, "frame")) {
            if (!parse_frame(p, a, &t))
                return false;
        } else if ((flag = mc_anim_flag_find(t.text, t.len)) != 0) {
            a->flags |= flag;
        } else if (!(c = new_command(p, a, true, &t, &t)) || !rest_of_line(p, &t, c)) {
            return false;
        }
    }
}

/* anim NAME FILE [, FILE ...] [{ ... }] (ParseAnim). */
static bool parse_anim(md_parser *p, const mc_token *kw)
{
    mc_token name, file;
    const mc_modeldef_anim *o;
    mc_modeldef_anim *a;
    bool more;
    size_t i, slot;

    if (!read_word(p, kw, &name))
        return false;
    /* "random anims end with a number": the name without its digits may not be empty */
    for (i = name.len; i > 1 && name.text[i - 1] >= '0' && name.text[i - 1] <= '9'; i--)
        ;
    if (name.text[i - 1] >= '0' && name.text[i - 1] <= '9')
        return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX, "invalid animation name '%.*s'",
                           (int)name.len, name.text);
    o = anim_named(p, &name, &slot);
    if (o)
        return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX,
                           "duplicate anim '%s' (first given at line %d)", o->name, o->line);
    if (slot == (size_t)-1)
        return false;
    if (!read_word(p, &name, &file))
        return false;
    if (!ends_with(&file, ".md5anim"))
        return mc_lex_fail(&p->lx, &file, MC_ERR_SYNTAX,
                           "expected a .md5anim file for anim '%.*s', found '%.*s'", (int)name.len,
                           name.text, (int)file.len, file.text);
    if (!in_base(p, &file, "anim file"))
        return false;
    a = new_anim(p, &name);
    if (!a)
        return false;
    p->names[slot] = p->m->num_anims - 1;
    a->name = mc_lex_strdup(&p->lx, p->arena, name.text, name.len);
    a->line = name.line;
    a->col = name.col;
    /* synced anims: listed (their files must exist), the first played */
    for (;;) {
        mc_modeldef_file *f = &a->files[a->num_files++];

        f->path = dup_path(p, &file);
        f->line = file.line;
        f->col = file.col;
        if (p->lx.failed || !mc_lex_accept(&p->lx, ",", &more))
            return false;
        if (!more)
            break;
        if (!read_word(p, kw, &file))
            return false;
        if (!ends_with(&file, ".md5anim"))
            return mc_lex_fail(&p->lx, &file, MC_ERR_SYNTAX,
                               "expected a .md5anim file for anim '%s', found '%.*s'", a->name,
                               (int)file.len, file.text);
        if (!in_base(p, &file, "anim file"))
            return false;
        if (a->num_files == MC_MODELDEF_SYNCED)
            return mc_lex_fail(&p->lx, &file, MC_ERR_LIMIT,
                               "more than %d synced files for anim '%s'", MC_MODELDEF_SYNCED,
                               a->name);
    }
    a->path = a->files[0].path;
    return parse_frame_block(p, &name, a);
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
            if (!in_base(p, &v, "mesh"))
                return false;
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

/* The next `model NAME` of the scan (the declaration manager's reading: other declarations'
 * bodies skipped, decl_scan.h): its `model` word in *kw and its name in *n; false at the end. */
static bool next_model(mc_scan *s, mc_scan_tok *kw, mc_scan_tok *n)
{
    while (mc_scan_token(s, kw)) {
        if (mc_scan_brace(kw, '{')) {
            mc_scan_braced(s);
            continue;
        }
        if (kw->string || !mc_scan_is(kw, "model"))
            continue;
        if (!mc_scan_token(s, n))
            return false;
        if (mc_scan_brace(n, '{')) {
            mc_scan_braced(s);
            continue;
        }
        return true;
    }
    return false;
}

/* The text Doom's lexer reads: up to the first NUL byte. */
static size_t text_len(const char *buf, size_t len)
{
    const char *nul = buf ? memchr(buf, 0, len) : NULL;

    return nul ? (size_t)(nul - buf) : len;
}

static mc_status parse_at(const char *buf, size_t len, const char *file, const mc_scan_tok *kw,
                          mc_arena *arena, mc_modeldef *out, mc_error *err)
{
    md_parser p;
    mc_error local;
    bool ok;

    memset(&p, 0, sizeof p);
    mc_lex_init(&p.lx, buf, len, file, NULL, err ? err : &local);
    p.lx.extra_punct = ",*-";
    p.arena = arena;
    p.m = out;
    ok = parse_model(&p, kw);
    free(p.names);
    if (!ok) {
        memset(out, 0, sizeof *out);
        return p.lx.err->code;
    }
    return MC_OK;
}

mc_status mc_modeldef_each(const char *buf, size_t len,
                           mc_status (*fn)(void *user, const mc_modeldef_at *at), void *user)
{
    mc_scan s;
    mc_scan_tok t, n;

    len = text_len(buf, len);
    s = (mc_scan){ .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    while (next_model(&s, &t, &n)) {
        mc_modeldef_at at = { n.text, n.len, t.start, t.line, t.col, n.line, n.col };
        mc_status st = fn(user, &at);

        if (st != MC_OK)
            return st;
    }
    return MC_OK;
}

void mc_modeldef_each_name(const char *buf, size_t len,
                           void (*each)(void *user, const char *name, size_t len), void *user)
{
    mc_scan s;
    mc_scan_tok t, n;

    len = text_len(buf, len);
    s = (mc_scan){ .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    while (next_model(&s, &t, &n))
        each(user, n.text, n.len);
}

mc_status mc_modeldef_parse_at(const char *buf, size_t len, const char *file,
                               const mc_modeldef_at *at, mc_arena *arena, mc_modeldef *out,
                               mc_error *err)
{
    mc_scan_tok kw = { .start = at->start, .line = at->line, .col = at->col };

    memset(out, 0, sizeof *out);
    return parse_at(buf, text_len(buf, len), file, &kw, arena, out, err);
}

mc_status mc_modeldef_find(const char *buf, size_t len, const char *file, const char *name,
                           mc_arena *arena, mc_modeldef *out, bool *found, mc_error *err)
{
    mc_scan s;
    mc_scan_tok t, n;

    memset(out, 0, sizeof *out);
    *found = false;
    len = text_len(buf, len);
    s = (mc_scan){ .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    while (next_model(&s, &t, &n)) {
        if (name && (n.len != strlen(name) || strncasecmp(n.text, name, n.len) != 0))
            continue;
        *found = true;
        return parse_at(buf, len, file, &t, arena, out, err);
    }
    return MC_OK;
}
