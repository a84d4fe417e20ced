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
#include "mtr_int.h"

bool mc_mtr_grow(mtr_parser *p, void **arr, int *cap, int need, size_t size)
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
bool mc_mtr_warn_once(mtr_parser *p, const mc_token *kw, const char *what, const char *hint)
{
    char d[80];

    if (warned(p, kw))
        return true;
    if (!mc_mtr_grow(p, (void **)&p->warned, &p->cap_warned, p->num_warned + 1, sizeof *p->warned))
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
bool mc_mtr_skip_group(mtr_parser *p, const mc_token *open)
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
        if (is_punct(&t, '(') && !mc_mtr_skip_group(p, &t))
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
    "centerScale", "shear", "rotate", "cubeMap", "cameraCubeMap", "texgen",
};
#define SWITCH_WORD(id, bit, word, info) word,
static const char *const BODY_WORDS[] = {
    "diffusemap", "bumpmap", "specularmap", "alphaTest", MC_MTR_KEYWORDS(SWITCH_WORD) "deform",
    "lightFalloffImage", "polygonOffset", "noclamp", "clamp", "zeroclamp", "alphazeroclamp",
};
#undef SWITCH_WORD

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
        return mc_mtr_warn_once(p, kw, "keyword", "");
    if (in_words(kw, TOKEN_WORDS, sizeof TOKEN_WORDS / sizeof TOKEN_WORDS[0])) {
        if (!mc_mtr_warn_once(p, kw, "keyword", "") || !mc_lex_peek(&p->lx, &t))
            return false;
        if (t.line == kw->line &&
            (t.kind == MC_TOK_NAME || t.kind == MC_TOK_STRING || t.kind == MC_TOK_NUMBER))
            mc_lex_next(&p->lx, &t);
        return true;
    }
    hint[0] = '\0'; /* looked for once per keyword and file, as the warning is given */
    return mc_mtr_warn_once(p, kw, "unknown keyword",
                     warned(p, kw) ? hint : keyword_hint(kw, words, n, hint, sizeof hint)) &&
           skip_rest(p, kw);
}

bool mc_mtr_expect_punct(mtr_parser *p, char c, mc_token *out)
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
char *mc_mtr_canonical_dup(mtr_parser *p, const mc_token *t, const char *what, bool strip)
{
    char buf[MC_LIMIT_NAME_LEN + 1];

    if (t->len > MC_LIMIT_NAME_LEN || !mc_mtr_fold_name(t->text, t->len, strip, buf, sizeof buf)) {
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

    if (!mc_mtr_expect_punct(p, '(', NULL))
        return false;
    for (int i = 0; i < fn->progs; i++) {
        if ((i > 0 && !mc_mtr_expect_punct(p, ',', NULL)) || !parse_prog(p, depth + 1, &g->arg[i]))
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
    g->name = mc_mtr_canonical_dup(p, &t, "image name", false);
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
    if (!mc_mtr_grow(p, (void **)&p->stages, &p->cap_stages, p->num_stages + 1, sizeof *p->stages))
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
    if (!gl_factor_of(p, &t, true, &s->blend.src) || !mc_mtr_expect_punct(p, ',', NULL) ||
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
        if (i > 0 && !mc_mtr_expect_punct(p, ',', NULL))
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
            return mc_mtr_warn_once(p, kw, "expression of", "");
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

/* cubeMap NAME, cameraCubeMap NAME (the stage's image read as six faces, replacing a map as a
 * second map does) and texgen normal|reflect|skybox|wobbleSky EXPR EXPR EXPR (Material.cpp,
 * idMaterial::ParseStage: wobbleSky's three expressions follow with no ',' between); *handled
 * false for another keyword. Another texgen is an error at it (Doom warns and defaults the
 * material). */
static bool parse_cube_texgen(mtr_parser *p, const mc_token *kw, mc_mtr_stage *s, bool *handled)
{
    static const char *const GENS[] = { "normal", "reflect", "skybox", "wobbleSky" };
    mc_token t;
    char d[80];

    *handled = true;
    if (is_kw(kw, "cubeMap") || is_kw(kw, "cameraCubeMap")) {
        s->map = NULL;
        s->cube = is_kw(kw, "cubeMap") ? MC_CUBE_NATIVE : MC_CUBE_CAMERA;
        if (!parse_prog(p, 1, &s->map))
            return false;
        if (s->map->kind != MC_PROG_IMAGE)
            return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX,
                               "%s takes an image name (its six files end in the faces' "
                               "suffixes), not an image program",
                               s->cube == MC_CUBE_NATIVE ? "cubeMap" : "cameraCubeMap");
        return true;
    }
    if (!is_kw(kw, "texgen")) {
        *handled = false;
        return true;
    }
    if (!mc_lex_next(&p->lx, &t))
        return false;
    for (int i = 0; i < 4; i++)
        if (is_kw(&t, GENS[i]))
            s->texgen = (mc_texgen)(MC_TEXGEN_NORMAL + i);
    if (s->texgen == MC_TEXGEN_EXPLICIT)
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                           "unknown texgen %s, expected normal, reflect, skybox or wobbleSky",
                           mc_lex_describe(&t, d, sizeof d));
    for (int i = 0; s->texgen == MC_TEXGEN_WOBBLESKY && i < 3; i++)
        if (!mc_expr_parse(&p->xb, &p->lx, kw, &s->expr.wobble[i]))
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
        } else if (is_kw(&t, "vertexColor") || is_kw(&t, "inverseVertexColor")) {
            /* Material.cpp, idMaterial::ParseStage: SVC_MODULATE, SVC_INVERSE_MODULATE */
            s->vertex_color = is_kw(&t, "vertexColor") ? MC_VERTEX_COLOR_MODULATE
                                                        : MC_VERTEX_COLOR_INVERSE;
        } else if (is_kw(&t, "if")) {
            s->conditional = true;
            if (!mc_expr_parse(&p->xb, &p->lx, &t, &s->expr.condition))
                return false;
        } else if (!parse_cube_texgen(p, &t, s, &handled)) {
            return false;
        } else if (!handled && !parse_matrix(p, &t, s, &handled)) {
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
        m->flags |= MC_MTR_TWO_SIDED | MC_MTR_NO_SHADOWS;
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

bool mc_mtr_parse_body(mtr_parser *p, mc_mtr_decl *m, const mc_token *open)
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
        } else if (t.kind == MC_TOK_NAME && mc_mtr_keyword_bit(t.text, t.len)) {
            m->flags |= mc_mtr_keyword_bit(t.text, t.len); /* mtr_keywords.h */
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
