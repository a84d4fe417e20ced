#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/fileio.h>
#include <md5cine/mtr.h>

#include "core/nearest.h"
#include "formats/decl_scan.h"
#include "formats/lex.h"
#include "mtr_expr.h"

/* Punctuation of material files beyond ( ) { }: the argument separator and the operators of
 * Doom's expressions (which only appear in skipped keywords). */
#define MTR_PUNCT ",*+-%<>=!&|[]"

/* A keyword warned about once in this file. */
typedef struct warned_word {
    const char *text;
    size_t len;
} warned_word;

typedef struct mtr_parser {
    mc_lexer lx;
    mc_mtr_file *f;
    /* Growing arrays while the file is read (malloc'd, freed by mc_mtr_parse). */
    mc_mtr_decl *decls;
    int cap_decls;
    mc_mtr_stage *stages; /* the current material's */
    int num_stages, cap_stages;
    warned_word *warned;
    int num_warned, cap_warned;
    const mc_mtr_span *span; /* mc_mtr_parse_span: the one declaration to read */
    mc_wrap wrap;        /* the current material's clamp keyword so far */
    mc_expr_builder xb;      /* the current material's expressions */
    mc_expr_tables **cache;  /* NULL, or where the caller keeps the file's tables */
    size_t text_len;         /* the whole text, for the tables a span names */
} mtr_parser;

static bool fold_name(const char *name, size_t len, bool strip, char *buf, size_t cap)
{
    size_t n = len, i;

    for (i = strip ? len : 0; i > 0; i--) {
        if (name[i - 1] == '.') {
            n = i - 1;
            break;
        }
    }
    if (n + 1 > cap)
        return false;
    for (i = 0; i < n; i++) {
        char c = name[i];

        if (c == '\\')
            c = '/';
        else if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buf[i] = c;
    }
    buf[n] = '\0';
    return true;
}

bool mc_mtr_canonical(const char *name, size_t len, char *buf, size_t cap)
{
    return fold_name(name, len, true, buf, cap);
}

/* tok is a name (or string) equal to word, ignoring case. */
/* The text Doom's lexer reads: up to the first NUL byte (idLexer stops there). */
static size_t text_len(const char *buf, size_t len)
{
    const char *nul = buf ? memchr(buf, 0, len) : NULL;

    return nul ? (size_t)(nul - buf) : len;
}

static bool is_kw(const mc_token *tok, const char *word)
{
    return (tok->kind == MC_TOK_NAME || tok->kind == MC_TOK_STRING) && tok->len == strlen(word) &&
           strncasecmp(tok->text, word, tok->len) == 0;
}

static bool is_punct(const mc_token *tok, char c)
{
    return tok->kind == MC_TOK_PUNCT && tok->text[0] == c;
}

static bool grow(mtr_parser *p, void **arr, int *cap, int need, size_t size)
{
    void *n;
    int c;

    if (need <= *cap)
        return true;
    c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    n = realloc(*arr, (size_t)c * size);
    if (!n) {
        mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
        if (p->lx.err)
            p->lx.err->line = p->lx.err->col = 0;
        return false;
    }
    *arr = n;
    *cap = c;
    return true;
}

/* Whether keyword kw was warned about already in this file. */
static bool warned(const mtr_parser *p, const mc_token *kw)
{
    for (int i = 0; i < p->num_warned; i++)
        if (p->warned[i].len == kw->len && strncasecmp(p->warned[i].text, kw->text, kw->len) == 0)
            return true;
    return false;
}

/* Warns about keyword kw once per file; hint is appended to the message. */
static bool warn_once(mtr_parser *p, const mc_token *kw, const char *what, const char *hint)
{
    char d[80];

    if (warned(p, kw))
        return true;
    if (!grow(p, (void **)&p->warned, &p->cap_warned, p->num_warned + 1, sizeof *p->warned))
        return false;
    p->warned[p->num_warned].text = kw->text;
    p->warned[p->num_warned].len = kw->len;
    p->num_warned++;
    mc_lex_warn(&p->lx, kw, MC_ERR_SYNTAX, "%s %s skipped%s", what,
                mc_lex_describe(kw, d, sizeof d), hint);
    return true;
}

/* Skips a ( ... ), [ ... ] or { ... } group whose opening token open was just read (only
 * brackets of its own kind are counted). */
static bool skip_group(mtr_parser *p, const mc_token *open)
{
    char close = open->text[0] == '(' ? ')' : open->text[0] == '[' ? ']' : '}';
    int depth = 1;
    mc_token t;
    char d[80];

    while (depth > 0) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "end of file inside %s opened at line %d, column %d",
                               mc_lex_describe(open, d, sizeof d), open->line, open->col);
        if (is_punct(&t, open->text[0]))
            depth++;
        else if (is_punct(&t, close))
            depth--;
    }
    return true;
}

/* Skips what follows keyword kw on its line (with the ( ... ) groups that start there),
 * stopping before a '{' (a stage) or a '}' (the end of the enclosing block). */
static bool skip_rest(mtr_parser *p, const mc_token *kw)
{
    mc_token t;

    for (;;) {
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF || t.line != kw->line || is_punct(&t, '}') || is_punct(&t, '{'))
            return true;
        mc_lex_next(&p->lx, &t);
        if (is_punct(&t, '(') && !skip_group(p, &t))
            return false;
        if (is_punct(&t, ')'))
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "unexpected ')'");
    }
}

/* Doom keywords md5cine does not use that take no argument: surface flags and parameters,
 * texture options, colour masks. Skipping their line would swallow the keywords after them. */
static const char *const FLAG_WORDS[] = {
    "forceShadows", "noOverlays", "forceOverlays", "forceOpaque", "noFog",
    "noPortalFog", "mirror", "backSided", "uncompressed", "highquality", "forceHighQuality", "nopicmip",
    "fogLight", "blendLight", "ignoreAlphaTest", "nearest", "linear",
    "vertexColor", "inverseVertexColor", "solid", "water", "playerclip", "monsterclip", "moveableclip",
    "ikclip", "blood", "trigger", "aassolid", "aasobstacle", "flashlight_trigger", "nonsolid",
    "nullNormal", "areaportal", "qer_nocarve", "discrete", "noFragment", "slick", "collision",
    "noimpact", "nodamage", "ladder", "nosteps", "metal", "stone", "flesh", "wood", "cardboard",
    "liquid", "glass", "plastic", "ricochet", "surftype10", "surftype11", "surftype12",
    "surftype13", "surftype14", "surftype15",
};

/* ... and those Doom gives at most one token read from their own line (ReadTokenOnLine). */
static const char *const TOKEN_WORDS[] = {
    "sort", "description", "spectrum", "fragmentProgram", "vertexProgram", "program",
    "privatePolygonOffset",
};

static bool in_words(const mc_token *kw, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (is_kw(kw, words[i]))
            return true;
    return false;
}

/* The keywords md5cine reads in a stage and in a material's body (the hints of an unknown one,
 * with FLAG_WORDS and TOKEN_WORDS). */
static const char *const STAGE_WORDS[] = {
    "blend", "map", "alphaTest", "color", "rgb", "rgba", "red", "green", "blue", "alpha",
    "colored", "if", "noclamp", "clamp", "zeroclamp", "alphazeroclamp", "maskRed", "maskGreen",
    "maskBlue", "maskAlpha", "maskColor", "maskDepth", "scroll", "translate", "scale",
    "centerScale", "shear", "rotate",
};
static const char *const BODY_WORDS[] = {
    "diffusemap", "bumpmap", "specularmap", "alphaTest", "twoSided", "translucent", "noShadows",
    "noSelfShadow", "ambientLight", "deform", "lightFalloffImage", "polygonOffset", "noclamp",
    "clamp", "zeroclamp", "alphazeroclamp",
};

/* " (did you mean 'x'?)" for the keyword of words (then FLAG_WORDS, TOKEN_WORDS) nearest kw,
 * compared without case as Doom's keywords are (core/nearest.h); "" when none is close. */
static const char *keyword_hint(const mc_token *kw, const char *const *words, size_t n,
                                char *out, size_t cap)
{
    const char *all[sizeof FLAG_WORDS / sizeof FLAG_WORDS[0] +
                    sizeof TOKEN_WORDS / sizeof TOKEN_WORDS[0] + 32];
    const char *near;
    size_t count = 0;

    for (size_t i = 0; i < n && count < sizeof all / sizeof all[0]; i++)
        all[count++] = words[i];
    for (size_t i = 0; i < sizeof FLAG_WORDS / sizeof FLAG_WORDS[0]; i++)
        if (count < sizeof all / sizeof all[0])
            all[count++] = FLAG_WORDS[i];
    for (size_t i = 0; i < sizeof TOKEN_WORDS / sizeof TOKEN_WORDS[0]; i++)
        if (count < sizeof all / sizeof all[0])
            all[count++] = TOKEN_WORDS[i];
    near = kw->kind == MC_TOK_NAME ? mc_nearest_word_nocase(kw->text, kw->len, all, count) : NULL;
    out[0] = '\0';
    if (near)
        snprintf(out, cap, MC_NEAREST_HINT, near);
    return out;
}

/* A keyword md5cine does not read; words: those it reads where kw stands, for the hint. */
static bool skip_keyword(mtr_parser *p, const mc_token *kw, const char *const *words, size_t n)
{
    mc_token t;
    char hint[80];

    if (in_words(kw, FLAG_WORDS, sizeof FLAG_WORDS / sizeof FLAG_WORDS[0]))
        return warn_once(p, kw, "keyword", "");
    if (in_words(kw, TOKEN_WORDS, sizeof TOKEN_WORDS / sizeof TOKEN_WORDS[0])) {
        if (!warn_once(p, kw, "keyword", "") || !mc_lex_peek(&p->lx, &t))
            return false;
        if (t.line == kw->line &&
            (t.kind == MC_TOK_NAME || t.kind == MC_TOK_STRING || t.kind == MC_TOK_NUMBER))
            mc_lex_next(&p->lx, &t);
        return true;
    }
    hint[0] = '\0'; /* looked for once per keyword and file, as the warning is given */
    return warn_once(p, kw, "unknown keyword",
                     warned(p, kw) ? hint : keyword_hint(kw, words, n, hint, sizeof hint)) &&
           skip_rest(p, kw);
}

static bool expect_punct(mtr_parser *p, char c, mc_token *out)
{
    mc_token t;
    char d[80];

    if (!mc_lex_next(&p->lx, &t))
        return false;
    if (!is_punct(&t, c))
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "expected '%c', found %s", c,
                           mc_lex_describe(&t, d, sizeof d));
    if (out)
        *out = t;
    return true;
}

/* The canonical copy of a material name (strip: its extension removed) or an image name. */
static char *canonical_dup(mtr_parser *p, const mc_token *t, const char *what, bool strip)
{
    char buf[MC_LIMIT_NAME_LEN + 1];

    if (t->len > MC_LIMIT_NAME_LEN || !fold_name(t->text, t->len, strip, buf, sizeof buf)) {
        mc_lex_fail(&p->lx, t, MC_ERR_LIMIT, "%s is too long (%zu bytes, at most %d)", what, t->len,
                    MC_LIMIT_NAME_LEN);
        return NULL;
    }
    return mc_lex_strdup(&p->lx, &p->f->arena, buf, strlen(buf));
}

typedef struct prog_func {
    const char *word;
    mc_mtr_prog_kind kind;
    int progs;              /* image program arguments */
    int min_values, values; /* fewest and most numbers after them */
} prog_func;

static const prog_func PROG_FUNCS[] = {
    { "heightmap", MC_PROG_HEIGHTMAP, 1, 1, 1 },
    { "addnormals", MC_PROG_ADDNORMALS, 2, 0, 0 },
    { "smoothnormals", MC_PROG_SMOOTHNORMALS, 1, 0, 0 },
    { "add", MC_PROG_ADD, 2, 0, 0 },
    { "scale", MC_PROG_SCALE, 1, 1, 4 },
    { "invertAlpha", MC_PROG_INVERT_ALPHA, 1, 0, 0 },
    { "invertColor", MC_PROG_INVERT_COLOR, 1, 0, 0 },
    { "makeIntensity", MC_PROG_MAKE_INTENSITY, 1, 0, 0 },
    { "makeAlpha", MC_PROG_MAKE_ALPHA, 1, 0, 0 },
};

static bool parse_prog(mtr_parser *p, int depth, mc_mtr_prog **out);

static bool parse_prog_args(mtr_parser *p, const prog_func *fn, int depth, mc_mtr_prog *g)
{
    mc_token t;
    char d[80];
    int nv = 0;

    if (!expect_punct(p, '(', NULL))
        return false;
    for (int i = 0; i < fn->progs; i++) {
        if ((i > 0 && !expect_punct(p, ',', NULL)) || !parse_prog(p, depth + 1, &g->arg[i]))
            return false;
    }
    for (int i = 0; i < 4; i++)
        g->value[i] = 1.0f;
    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (is_punct(&t, ')') && nv >= fn->min_values)
            break;
        if (!is_punct(&t, ',') || nv == fn->values)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "expected %s, found %s",
                               nv < fn->min_values ? "','"
                               : nv < fn->values   ? "',' or ')'"
                                                   : "')'",
                               mc_lex_describe(&t, d, sizeof d));
        if (!mc_lex_float(&p->lx, &g->value[nv], NULL))
            return false;
        nv++;
    }
    return true;
}

static bool parse_prog(mtr_parser *p, int depth, mc_mtr_prog **out)
{
    mc_token t;
    char d[80];
    mc_mtr_prog *g;

    if (!mc_lex_next(&p->lx, &t))
        return false;
    if (t.kind != MC_TOK_NAME && t.kind != MC_TOK_STRING)
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "expected an image name, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    g = mc_lex_alloc(&p->lx, &p->f->arena, 1, sizeof *g);
    if (!g)
        return false;
    g->line = t.line;
    g->col = t.col;
    *out = g;
    if (t.kind == MC_TOK_NAME) {
        for (size_t i = 0; i < sizeof PROG_FUNCS / sizeof PROG_FUNCS[0]; i++) {
            if (is_kw(&t, PROG_FUNCS[i].word)) {
                /* depth counts the functions around this one and itself: at most
                 * MC_LIMIT_MTR_PROG_DEPTH functions nest, the image inside the last is free. */
                if (depth > MC_LIMIT_MTR_PROG_DEPTH)
                    return mc_lex_fail(&p->lx, &t, MC_ERR_LIMIT,
                                       "image program nested deeper than %d functions",
                                       MC_LIMIT_MTR_PROG_DEPTH);
                g->kind = PROG_FUNCS[i].kind;
                return parse_prog_args(p, &PROG_FUNCS[i], depth, g);
            }
        }
    }
    g->kind = MC_PROG_IMAGE;
    g->name = canonical_dup(p, &t, "image name", false);
    return g->name != NULL;
}

static mc_mtr_stage *new_stage(mtr_parser *p, const mc_token *at, mc_mtr_stage_kind kind)
{
    mc_mtr_stage *s;

    if (p->num_stages >= MC_LIMIT_MTR_STAGES) {
        mc_lex_fail(&p->lx, at, MC_ERR_LIMIT, "more than %d stages in one material",
                    MC_LIMIT_MTR_STAGES);
        return NULL;
    }
    if (!grow(p, (void **)&p->stages, &p->cap_stages, p->num_stages + 1, sizeof *p->stages))
        return NULL;
    s = &p->stages[p->num_stages++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->wrap = p->wrap;
    s->blend = (mc_blend){ MC_BLEND_ONE, MC_BLEND_ZERO };
    for (int i = 0; i < 4; i++)
        s->color[i] = 1.0f;
    s->line = at->line;
    s->col = at->col;
    /* idMaterial::ClearStage: condition and colour are the constant 1 */
    s->expr.condition = mc_expr_constant(&p->xb, &p->lx, at, 1.0f);
    for (int i = 0; i < 4; i++)
        s->expr.color[i] = s->expr.condition;
    return s->expr.condition < 0 ? NULL : s;
}

typedef struct gl_factor {
    const char *word;
    mc_blend_factor f;
    bool src, dst; /* where OpenGL 1 allows it */
} gl_factor;

static const gl_factor GL_FACTORS[] = {
    { "GL_ONE", MC_BLEND_ONE, true, true },
    { "GL_ZERO", MC_BLEND_ZERO, true, true },
    { "GL_DST_COLOR", MC_BLEND_DST_COLOR, true, false },
    { "GL_ONE_MINUS_DST_COLOR", MC_BLEND_ONE_MINUS_DST_COLOR, true, false },
    { "GL_SRC_ALPHA", MC_BLEND_SRC_ALPHA, true, true },
    { "GL_ONE_MINUS_SRC_ALPHA", MC_BLEND_ONE_MINUS_SRC_ALPHA, true, true },
    { "GL_DST_ALPHA", MC_BLEND_DST_ALPHA, true, true },
    { "GL_ONE_MINUS_DST_ALPHA", MC_BLEND_ONE_MINUS_DST_ALPHA, true, true },
    { "GL_SRC_ALPHA_SATURATE", MC_BLEND_SRC_ALPHA_SATURATE, true, false },
    { "GL_SRC_COLOR", MC_BLEND_SRC_COLOR, false, true },
    { "GL_ONE_MINUS_SRC_COLOR", MC_BLEND_ONE_MINUS_SRC_COLOR, false, true },
};

static bool gl_factor_of(mtr_parser *p, const mc_token *t, bool src, mc_blend_factor *out)
{
    char d[80];

    for (size_t i = 0; i < sizeof GL_FACTORS / sizeof GL_FACTORS[0]; i++) {
        if (is_kw(t, GL_FACTORS[i].word)) {
            if (src ? !GL_FACTORS[i].src : !GL_FACTORS[i].dst)
                return mc_lex_fail(&p->lx, t, MC_ERR_SYNTAX, "%s is not a %s blend factor",
                                   mc_lex_describe(t, d, sizeof d), src ? "source" : "destination");
            *out = GL_FACTORS[i].f;
            return true;
        }
    }
    return mc_lex_fail(&p->lx, t, MC_ERR_SYNTAX, "unknown blend %s",
                       mc_lex_describe(t, d, sizeof d));
}

static bool parse_blend(mtr_parser *p, mc_mtr_stage *s)
{
    static const struct {
        const char *word;
        mc_blend blend;
    } words[] = {
        { "add", { MC_BLEND_ONE, MC_BLEND_ONE } },
        { "filter", { MC_BLEND_DST_COLOR, MC_BLEND_ZERO } },
        { "modulate", { MC_BLEND_DST_COLOR, MC_BLEND_ZERO } },
        { "blend", { MC_BLEND_SRC_ALPHA, MC_BLEND_ONE_MINUS_SRC_ALPHA } },
        { "none", { MC_BLEND_ZERO, MC_BLEND_ONE } },
    };
    mc_token t;

    if (!mc_lex_next(&p->lx, &t))
        return false;
    if (is_kw(&t, "diffusemap") || is_kw(&t, "bumpmap") || is_kw(&t, "specularmap")) {
        s->kind = is_kw(&t, "diffusemap") ? MC_STAGE_DIFFUSE
                  : is_kw(&t, "bumpmap")  ? MC_STAGE_BUMP
                                          : MC_STAGE_SPECULAR;
        return true;
    }
    s->kind = MC_STAGE_COLOR;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (is_kw(&t, words[i].word)) {
            s->blend = words[i].blend;
            return true;
        }
    }
    if (!gl_factor_of(p, &t, true, &s->blend.src) || !expect_punct(p, ',', NULL) ||
        !mc_lex_next(&p->lx, &t))
        return false;
    return gl_factor_of(p, &t, false, &s->blend.dst);
}

/* Doom's expressions (mtr_expr.h), compiled into the material's program as Doom compiles them
 * (Material.cpp, idMaterial::ParseStage): every keyword below reads its expressions with
 * mc_expr_parse, which ends an expression before the first token that is not an operator, so
 * `alphaTest 0.5 diffusemap x` reads 0.5 and then diffusemap. */
static bool read_exprs(mtr_parser *p, const mc_token *kw, int n, int *regs)
{
    for (int i = 0; i < n; i++) {
        if (i > 0 && !expect_punct(p, ',', NULL))
            return false;
        if (!mc_expr_parse(&p->xb, &p->lx, kw, &regs[i]))
            return false;
    }
    return true;
}

static int konst(mtr_parser *p, const mc_token *at, float v)
{
    return mc_expr_constant(&p->xb, &p->lx, at, v);
}

/* alphaTest X: a constant 0..1 fills *out; for a stage (expr not NULL) any expression is kept
 * as its register; the material's own alphaTest takes only a constant (another is skipped). */
static bool parse_alpha_test(mtr_parser *p, const mc_token *kw, float *out, bool *has,
                             mc_expr_stage *expr)
{
    mc_token first;
    int reg;
    float v;

    if (!mc_lex_peek(&p->lx, &first) || !mc_expr_parse(&p->xb, &p->lx, kw, &reg))
        return false;
    if (!mc_expr_is_constant(&p->xb, reg, &v)) {
        if (!expr)
            return warn_once(p, kw, "expression of", "");
        expr->has_alpha_test = true;
        expr->alpha_test = reg;
        *has = true;
        *out = 0.0f;
        return true;
    }
    if (v < 0.0f || v > 1.0f)
        return mc_lex_fail(&p->lx, &first, MC_ERR_RANGE, "invalid 'alphaTest' %g, expected 0 to 1",
                           (double)v);
    *out = v;
    *has = true;
    if (expr) {
        expr->has_alpha_test = true;
        expr->alpha_test = reg;
    }
    return true;
}

/* color r, g, b, a / rgb v / rgba v / red v / green v / blue v / alpha v, and `colored`
 * (parm0..parm3): the stage's colour registers; s->color keeps the constant ones. */
static bool parse_color(mtr_parser *p, const mc_token *kw, mc_mtr_stage *s)
{
    static const char *const ONE[] = { "red", "green", "blue", "alpha" };
    int regs[4] = { 0, 0, 0, 0 };
    int *c = s->expr.color;

    if (is_kw(kw, "colored")) {
        for (int i = 0; i < 4; i++)
            c[i] = MC_EXPR_REG_PARM0 + i;
    } else if (is_kw(kw, "color")) {
        if (!read_exprs(p, kw, 4, regs))
            return false;
        memcpy(c, regs, sizeof regs);
    } else {
        if (!read_exprs(p, kw, 1, regs))
            return false;
        if (is_kw(kw, "rgb")) {
            c[0] = c[1] = c[2] = regs[0];
        } else if (is_kw(kw, "rgba")) {
            c[0] = c[1] = c[2] = c[3] = regs[0];
        } else {
            for (int i = 0; i < 4; i++)
                if (is_kw(kw, ONE[i]))
                    c[i] = regs[0];
        }
    }
    for (int i = 0; i < 4; i++) {
        float v;

        s->color[i] = mc_expr_is_constant(&p->xb, c[i], &v) ? v : 1.0f;
    }
    return true;
}

/* idMaterial::MultiplyTextureMatrix: the stage's matrix becomes old * m (m applied first). */
static bool multiply_matrix(mtr_parser *p, const mc_token *at, mc_expr_stage *e, int m[2][3])
{
    int old[2][3];
    mc_expr_builder *b = &p->xb;
    mc_lexer *lx = &p->lx;

    if (!e->has_matrix) {
        e->has_matrix = true;
        memcpy(e->matrix, m, sizeof e->matrix);
        return true;
    }
    memcpy(old, e->matrix, sizeof old);
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 2; k++)
            e->matrix[r][k] =
                    mc_expr_emit(b, lx, at, MC_EXPR_ADD,
                                 mc_expr_emit(b, lx, at, MC_EXPR_MUL, old[r][0], m[0][k]),
                                 mc_expr_emit(b, lx, at, MC_EXPR_MUL, old[r][1], m[1][k]));
        e->matrix[r][2] = mc_expr_emit(
                b, lx, at, MC_EXPR_ADD,
                mc_expr_emit(b, lx, at, MC_EXPR_ADD,
                             mc_expr_emit(b, lx, at, MC_EXPR_MUL, old[r][0], m[0][2]),
                             mc_expr_emit(b, lx, at, MC_EXPR_MUL, old[r][1], m[1][2])),
                old[r][2]);
    }
    return !lx->failed;
}

/* scroll/translate, scale, centerScale, shear, rotate: the matrices of idMaterial::ParseStage.
 * false with *handled false when kw is none of them. */
static bool parse_matrix(mtr_parser *p, const mc_token *kw, mc_mtr_stage *s, bool *handled)
{
    mc_expr_builder *b = &p->xb;
    mc_lexer *lx = &p->lx;
    int m[2][3], ab[2];
    int zero, one, half, mhalf;

    *handled = is_kw(kw, "scroll") || is_kw(kw, "translate") || is_kw(kw, "scale") ||
               is_kw(kw, "centerScale") || is_kw(kw, "shear") || is_kw(kw, "rotate");
    if (!*handled)
        return true;
    if (!read_exprs(p, kw, is_kw(kw, "rotate") ? 1 : 2, ab))
        return false;
    zero = konst(p, kw, 0.0f);
    one = konst(p, kw, 1.0f);
    half = konst(p, kw, 0.5f);
    mhalf = konst(p, kw, -0.5f);
    if (is_kw(kw, "scroll") || is_kw(kw, "translate")) {
        int t[2][3] = { { one, zero, ab[0] }, { zero, one, ab[1] } };

        memcpy(m, t, sizeof m);
    } else if (is_kw(kw, "scale")) {
        int t[2][3] = { { ab[0], zero, zero }, { zero, ab[1], zero } };

        memcpy(m, t, sizeof m);
    } else if (is_kw(kw, "centerScale")) {
        /* subtracts 0.5, scales, adds 0.5 */
        int t[2][3] = {
            { ab[0], zero,
              mc_expr_emit(b, lx, kw, MC_EXPR_SUB, half,
                           mc_expr_emit(b, lx, kw, MC_EXPR_MUL, half, ab[0])) },
            { zero, ab[1],
              mc_expr_emit(b, lx, kw, MC_EXPR_SUB, half,
                           mc_expr_emit(b, lx, kw, MC_EXPR_MUL, half, ab[1])) },
        };

        memcpy(m, t, sizeof m);
    } else if (is_kw(kw, "shear")) {
        int t[2][3] = {
            { one, ab[0], mc_expr_emit(b, lx, kw, MC_EXPR_MUL, mhalf, ab[0]) },
            { ab[1], one, mc_expr_emit(b, lx, kw, MC_EXPR_MUL, mhalf, ab[1]) },
        };

        memcpy(m, t, sizeof m);
    } else {
        /* rotate, in cycles, through the tables sinTable and cosTable */
        int sn = mc_expr_emit_table(b, lx, kw, "sintable", ab[0]);
        int cs = mc_expr_emit_table(b, lx, kw, "costable", ab[0]);
        int t[2][3] = {
            { cs, mc_expr_emit(b, lx, kw, MC_EXPR_SUB, zero, sn),
              mc_expr_emit(b, lx, kw, MC_EXPR_ADD,
                           mc_expr_emit(b, lx, kw, MC_EXPR_ADD,
                                        mc_expr_emit(b, lx, kw, MC_EXPR_MUL, mhalf, cs),
                                        mc_expr_emit(b, lx, kw, MC_EXPR_MUL, half, sn)),
                           half) },
            { sn, cs,
              mc_expr_emit(b, lx, kw, MC_EXPR_ADD,
                           mc_expr_emit(b, lx, kw, MC_EXPR_ADD,
                                        mc_expr_emit(b, lx, kw, MC_EXPR_MUL, mhalf, sn),
                                        mc_expr_emit(b, lx, kw, MC_EXPR_MUL, mhalf, cs)),
                           half) },
        };

        memcpy(m, t, sizeof m);
    }
    if (lx->failed)
        return false;
    return multiply_matrix(p, kw, &s->expr, m);
}

/* clamp, zeroclamp, alphazeroclamp, noclamp: the wrap they name, or -1 for another word. */
static int wrap_word(const mc_token *t)
{
    static const char *const words[] = { "noclamp", "clamp", "zeroclamp", "alphazeroclamp" };

    for (int i = 0; i < 4; i++)
        if (is_kw(t, words[i]))
            return i;
    return -1;
}

/* maskRed, maskGreen, maskBlue, maskAlpha, maskColor, maskDepth (Material.cpp,
 * idMaterial::ParseStage: each clears one GL write mask). false for another word. */
static bool mask_word(const mc_token *t, mc_mtr_stage *s)
{
    if (is_kw(t, "maskRed"))
        s->mask_red = true;
    else if (is_kw(t, "maskGreen"))
        s->mask_green = true;
    else if (is_kw(t, "maskBlue"))
        s->mask_blue = true;
    else if (is_kw(t, "maskAlpha"))
        s->mask_alpha = true;
    else if (is_kw(t, "maskColor"))
        s->mask_red = s->mask_green = s->mask_blue = true;
    else if (is_kw(t, "maskDepth"))
        s->mask_depth = true;
    else
        return false;
    return true;
}

static bool parse_stage(mtr_parser *p, const mc_token *open)
{
    mc_mtr_stage *s = new_stage(p, open, MC_STAGE_COLOR);
    int index = p->num_stages - 1;
    mc_token t;
    char d[80];
    bool handled;

    if (!s)
        return false;
    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        s = &p->stages[index]; /* the array may have moved */
        if (is_punct(&t, '}'))
            return true;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "end of file inside the stage opened at line %d, column %d",
                               open->line, open->col);
        if (t.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "unexpected %s in a stage",
                               mc_lex_describe(&t, d, sizeof d));
        if (is_kw(&t, "blend")) {
            if (!parse_blend(p, s))
                return false;
        } else if (is_kw(&t, "map")) {
            /* A second map replaces the first, as Doom's ParseStage keeps the last image
             * name it reads (Material.cpp, idMaterial::ParseStage, "map"). */
            s->map = NULL;
            if (!parse_prog(p, 1, &s->map))
                return false;
        } else if (is_kw(&t, "alphaTest")) {
            if (!parse_alpha_test(p, &t, &s->alpha_test, &s->has_alpha_test, &s->expr))
                return false;
        } else if (is_kw(&t, "color") || is_kw(&t, "rgb") || is_kw(&t, "rgba") ||
                   is_kw(&t, "red") || is_kw(&t, "green") || is_kw(&t, "blue") ||
                   is_kw(&t, "alpha") || is_kw(&t, "colored")) {
            if (!parse_color(p, &t, s))
                return false;
        } else if (wrap_word(&t) >= 0) {
            s->wrap = (mc_wrap)wrap_word(&t);
            s->has_wrap = true;
        } else if (mask_word(&t, s)) {
            /* read */
        } else if (is_kw(&t, "if")) {
            s->conditional = true;
            if (!mc_expr_parse(&p->xb, &p->lx, &t, &s->expr.condition))
                return false;
        } else if (!parse_matrix(p, &t, s, &handled)) {
            return false;
        } else if (!handled &&
                   !skip_keyword(p, &t, STAGE_WORDS, sizeof STAGE_WORDS / sizeof STAGE_WORDS[0])) {
            return false;
        }
    }
}

/* deform TYPE [arguments] (Material.cpp, idMaterial::ParseDeform): sprite, tube and flare make
 * the material two-sided and shadowless; flare, expand and move take one expression; turbulent a
 * table name and three expressions; eyeBall, particle NAME and particle2 NAME are read and said
 * not to be drawn. Any other type is an error (Doom warns and defaults the material). */
static bool parse_deform(mtr_parser *p, mc_mtr_decl *m, const mc_token *kw)
{
    static const char *const NAMES[] = { "sprite", "tube", "flare", "expand", "move",
                                         "turbulent", "eyeBall", "particle", "particle2" };
    mc_token t, name;
    int kind = -1;
    char d[80];

    if (!mc_lex_next(&p->lx, &t))
        return false;
    for (int i = 0; i < (int)(sizeof NAMES / sizeof NAMES[0]); i++)
        if (is_kw(&t, NAMES[i]))
            kind = MC_DEFORM_SPRITE + i;
    if (kind < 0)
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                           "unknown deform %s, expected sprite, tube, flare, expand, move, "
                           "turbulent, eyeBall, particle or particle2",
                           mc_lex_describe(&t, d, sizeof d));
    memset(&m->deform, 0, sizeof m->deform);
    m->deform.kind = (mc_deform_kind)kind;
    switch (m->deform.kind) {
    case MC_DEFORM_SPRITE:
    case MC_DEFORM_TUBE:
    case MC_DEFORM_FLARE:
        m->two_sided = m->no_shadows = true;
        return m->deform.kind != MC_DEFORM_FLARE || read_exprs(p, kw, 1, m->deform.regs);
    case MC_DEFORM_EXPAND:
    case MC_DEFORM_MOVE:
        return read_exprs(p, kw, 1, m->deform.regs);
    case MC_DEFORM_TURBULENT:
        if (!mc_lex_next(&p->lx, &name))
            return false;
        if (name.kind != MC_TOK_NAME && name.kind != MC_TOK_STRING)
            return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX,
                               "expected a table name after 'deform turbulent', found %s",
                               mc_lex_describe(&name, d, sizeof d));
        m->deform.table = mc_expr_table_index(&p->xb, &p->lx, &name);
        if (m->deform.table < 0)
            return false;
        for (int i = 0; i < 3; i++)
            if (!mc_expr_parse(&p->xb, &p->lx, kw, &m->deform.regs[i]))
                return false;
        return true;
    case MC_DEFORM_PARTICLE:
    case MC_DEFORM_PARTICLE2:
        if (!mc_lex_next(&p->lx, &name))
            return false;
        if (name.kind != MC_TOK_NAME && name.kind != MC_TOK_STRING)
            return mc_lex_fail(&p->lx, &name, MC_ERR_SYNTAX,
                               "expected a particle name after 'deform %s', found %s",
                               NAMES[kind - MC_DEFORM_SPRITE],
                               mc_lex_describe(&name, d, sizeof d));
        break;
    default:
        break;
    }
    mc_lex_warn(&p->lx, &t, MC_ERR_SYNTAX,
                "deform %s is not drawn by md5cine: the surface is drawn undeformed",
                NAMES[kind - MC_DEFORM_SPRITE]);
    return true;
}

static bool parse_body(mtr_parser *p, mc_mtr_decl *m, const mc_token *open)
{
    mc_token t;
    char d[80];

    for (;;) {
        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (is_punct(&t, '}'))
            return true;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                               "end of file inside material '%s' opened at line %d, column %d",
                               m->name, open->line, open->col);
        if (is_punct(&t, '{')) {
            if (!parse_stage(p, &t))
                return false;
            continue;
        }
        if (t.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX, "unexpected %s in material '%s'",
                               mc_lex_describe(&t, d, sizeof d), m->name);
        if (is_kw(&t, "diffusemap") || is_kw(&t, "bumpmap") || is_kw(&t, "specularmap")) {
            mc_mtr_stage *s = new_stage(p, &t,
                                        is_kw(&t, "diffusemap") ? MC_STAGE_DIFFUSE
                                        : is_kw(&t, "bumpmap")  ? MC_STAGE_BUMP
                                                                : MC_STAGE_SPECULAR);

            if (!s || !parse_prog(p, 1, &s->map))
                return false;
        } else if (is_kw(&t, "alphaTest")) {
            if (!parse_alpha_test(p, &t, &m->alpha_test, &m->has_alpha_test, NULL))
                return false;
        } else if (is_kw(&t, "twoSided")) {
            m->two_sided = true;
        } else if (is_kw(&t, "translucent")) {
            m->translucent = true;
        } else if (is_kw(&t, "noShadows")) {
            m->no_shadows = true;
        } else if (is_kw(&t, "noSelfShadow")) {
            m->no_self_shadow = true; /* Material.h MF_NOSELFSHADOW */
        } else if (is_kw(&t, "unsmoothedTangents")) {
            m->unsmoothed_tangents = true; /* Material.cpp unsmoothedTangents */
        } else if (is_kw(&t, "ambientLight")) {
            m->ambient_light = true;
        } else if (is_kw(&t, "deform")) {
            if (!parse_deform(p, m, &t))
                return false;
        } else if (is_kw(&t, "lightFalloffImage")) {
            /* Material.cpp, ParseMaterial: an image program, the last one given wins */
            m->falloff = NULL;
            m->falloff_line = t.line;
            m->falloff_col = t.col;
            if (!parse_prog(p, 1, &m->falloff))
                return false;
        } else if (wrap_word(&t) >= 0) {
            /* Material.cpp: sets trpDefault, which the stages read after it start from. */
            m->wrap = p->wrap = (mc_wrap)wrap_word(&t);
        } else if (is_kw(&t, "polygonOffset")) {
            mc_token n;

            m->polygon_offset = 1.0f;
            if (!mc_lex_peek(&p->lx, &n))
                return false;
            if (n.kind == MC_TOK_NUMBER && n.line == t.line &&
                !mc_lex_float(&p->lx, &m->polygon_offset, &n))
                return false;
            if (!(fabsf(m->polygon_offset) <= MC_LIMIT_POLYGON_OFFSET))
                return mc_lex_fail(&p->lx, &n, MC_ERR_RANGE,
                                   "invalid 'polygonOffset' %g, expected %g to %g",
                                   (double)m->polygon_offset, -(double)MC_LIMIT_POLYGON_OFFSET,
                                   (double)MC_LIMIT_POLYGON_OFFSET);
        } else if (!skip_keyword(p, &t, BODY_WORDS, sizeof BODY_WORDS / sizeof BODY_WORDS[0])) {
            return false;
        }
    }
}

/* Every `table NAME { ... }` of the whole text, read loosely into t (reading stops at a table
 * that does not parse, or at a lexical error, which t records): the tables a material's
 * expressions may name, wherever in the file they are (Doom finds a table declared anywhere). */
static bool fail_as(mtr_parser *p, const mc_error *e)
{
    if (p->lx.err)
        *p->lx.err = *e;
    p->lx.failed = true;
    return false;
}

static bool collect_tables(mtr_parser *p, mc_expr_tables *t)
{
    mc_parse_opts quiet = { 0 };
    mc_lexer lx;
    mc_token tok, n;
    int depth = 0;
    long count = 0;

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
            mc_expr_table tab;

            if (!mc_expr_table_parse(&lx, &t->arena, &n, &tab)) {
                if (t->error.code == MC_ERR_NOMEM || t->error.code == MC_ERR_INTERRUPTED)
                    return fail_as(p, &t->error);
                if (!fold_name(n.text, n.len, false, t->failed_name, sizeof t->failed_name))
                    t->failed_name[0] = '\0';
                break;
            }
            if (!mc_expr_tables_add(t, &tab))
                return mc_lex_fail(&p->lx, NULL, MC_ERR_NOMEM, "out of memory");
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

/* The table ref names, from the file's tables; a table that did not parse fails with its own
 * error, at its position. */
static bool resolve_table(mtr_parser *p, const mc_expr_table_ref *r, mc_expr_table *out)
{
    const mc_expr_tables *t = p->f->tables;
    char name[MC_LIMIT_NAME_LEN + 1], d[80];
    const mc_expr_table *found;
    mc_token tok = { MC_TOK_NAME, r->text, r->len, r->line, r->col, 0.0, false };

    if (!fold_name(r->text, r->len, false, name, sizeof name))
        name[0] = '\0';
    found = mc_expr_tables_find(t, name);
    if (found) {
        *out = *found;
        return true;
    }
    if (t->failed && t->failed_name[0] && strcmp(t->failed_name, name) == 0)
        return fail_as(p, &t->error);
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
    if (!grow(p, (void **)&p->decls, &p->cap_decls, f->num_decls + 1, sizeof *p->decls))
        return false;
    m = &p->decls[f->num_decls];
    memset(m, 0, sizeof *m);
    m->line = name->line;
    m->col = name->col;
    m->name = canonical_dup(p, name, "material name", true);
    if (!m->name)
        return false;
    if (!expect_punct(p, '{', &open))
        return false;
    p->num_stages = 0;
    p->wrap = MC_WRAP_REPEAT;
    if (!mc_expr_builder_reset(&p->xb, &p->lx) || !parse_body(p, m, &open) ||
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
            if (!skip_group(p, &t))
                return false;
        }
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (!is_punct(&t, '{'))
            return true;
    }
    return expect_punct(p, '{', &t) && skip_group(p, &t);
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
            } else if (!warn_once(p, &t, "declaration type", "") || !skip_decl(p, &t)) {
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

/* ---------------------------------------------------------------- the index */

/* The declaration types Doom's DeclManager knows (idDeclManagerLocal::Init's RegisterDeclType
 * calls); a file may hold any of them. */
static const char *const DECL_TYPES[] = {
    "table", "material", "skin", "sound", "entityDef", "mapDef", "fx", "particle",
    "articulatedFigure", "pda", "email", "video", "audio",
};

static bool scan_is_type(const mc_scan_tok *t)
{
    for (size_t i = 0; i < sizeof DECL_TYPES / sizeof DECL_TYPES[0]; i++)
        if (mc_scan_is(t, DECL_TYPES[i]))
            return true;
    return false;
}

mc_status mc_mtr_index_text(const char *buf, size_t len, const char *name,
                            const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err)
{
    return mc_decl_index_text(buf, len, name, "material", "material", opts, out, err);
}

mc_status mc_decl_index_text(const char *buf, size_t len, const char *name,
                             const char *default_type, const char *type,
                             const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err)
{
    const bool wanted_by_default = strcasecmp(default_type, type) == 0;
    mc_scan s;
    mc_scan_tok first, t;
    mc_mtr_span *spans = NULL;
    int n = 0, cap = 0;
    size_t next_stop_check = 0;
    mc_status st = MC_OK;

    memset(out, 0, sizeof *out);
    if (!name)
        name = "";
    len = text_len(buf, len);
    s = (mc_scan){ .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF)
        s.p = s.line_start = buf + 3;
    out->name = mc_arena_strndup(&out->arena, name, strlen(name));
    if (!out->name)
        goto nomem;
    while (mc_scan_token(&s, &first)) {
        mc_scan_tok nm = first;
        bool material = wanted_by_default;
        char canon[MC_LIMIT_NAME_LEN + 1];

        if ((size_t)(s.p - buf) >= next_stop_check) {
            if (opts && opts->stop && *opts->stop) {
                st = mc_error_set(err, MC_ERR_INTERRUPTED, name, first.line, first.col,
                                  "interrupted");
                goto fail;
            }
            next_stop_check = (size_t)(s.p - buf) + 65536;
        }
        if (mc_scan_brace(&first, '}'))
            continue; /* a stray '}': Doom's loop reads on */
        if (mc_scan_brace(&first, '{')) {
            mc_scan_braced(&s);
            continue;
        }
        if (mc_scan_is(&first, "guide")) {
            /* guide NAME template(args): to the end of its line, then an optional body. */
            while (s.p < s.end && *s.p != '\n')
                s.p++;
            continue;
        }
        if (scan_is_type(&first)) {
            if (!mc_scan_token(&s, &t))
                break;
            if (mc_scan_brace(&t, '{')) {
                /* "skin { ... }": a material named like a type word (Doom would read '{' as
                 * the name and skip the body; md5cine reads it as the strict parser does). */
                nm = first;
            } else {
                material = mc_scan_is(&first, type);
                nm = t;
                if (!mc_scan_token(&s, &t))
                    break;
            }
        } else if (!mc_scan_token(&s, &t)) {
            break;
        }
        if (!mc_scan_brace(&t, '{'))
            continue; /* "Expecting '{'": Doom warns and reads on from the next token */
        mc_scan_braced(&s);
        if (!material || nm.len > MC_LIMIT_NAME_LEN || nm.len == 0 ||
            !mc_mtr_canonical(nm.text, nm.len, canon, sizeof canon))
            continue;
        if (n >= MC_LIMIT_MTR_DECLS) {
            st = mc_error_set(err, MC_ERR_LIMIT, name, first.line, first.col,
                              "more than %d declarations in one file", MC_LIMIT_MTR_DECLS);
            goto fail;
        }
        if (n == cap) {
            int ncap = cap ? cap * 2 : 64;
            mc_mtr_span *ns = realloc(spans, (size_t)ncap * sizeof *ns);

            if (!ns)
                goto nomem;
            spans = ns;
            cap = ncap;
        }
        spans[n] = (mc_mtr_span){ .start = first.start, .end = (size_t)(s.p - buf),
                                  .line = first.line, .col = first.col };
        spans[n].name = mc_arena_strndup(&out->arena, canon, strlen(canon));
        if (!spans[n].name)
            goto nomem;
        n++;
    }
    if (n > 0) {
        out->spans = mc_arena_alloc(&out->arena, (size_t)n, sizeof *out->spans);
        if (!out->spans)
            goto nomem;
        memcpy(out->spans, spans, (size_t)n * sizeof *spans);
    }
    out->num_spans = n;
    free(spans);
    return MC_OK;

nomem:
    st = mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
fail:
    free(spans);
    mc_arena_release(&out->arena);
    memset(out, 0, sizeof *out);
    return st;
}

void mc_mtr_index_release(mc_mtr_index *index)
{
    if (!index)
        return;
    mc_arena_release(&index->arena);
    memset(index, 0, sizeof *index);
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
