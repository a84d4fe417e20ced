/* The .md5scene file: parse (text only), then resolve (load every named file, match joints,
 * find textures). See include/md5cine/scene.h for the grammar and the rules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>
#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene.h>
#include <md5cine/timeline.h>
#include <md5cine/vfs.h>

#include "core/nearest.h"
#include "formats/lex.h"
#include "formats/modeldef.h"
#include "scene/mesh_groups.h"

#define PATH_CAP 4096

typedef struct scene_parser {
    mc_lexer lx;
    mc_scene *s;
    int actor_cap; /* room in s->actors */
} scene_parser;

#define LIGHT_COLOR_MAX  100.0f
#define LIGHT_RADIUS_MAX 1e6f
/* Each origin component, as far as the renderer takes a light (mc_renderer_begin). */
#define LIGHT_ORIGIN_MAX 1e30f

/* Where a keyword was first seen, for "duplicate" errors; line 0 = not seen. */
typedef struct seen_at {
    int line, col;
} seen_at;

/* ---------------------------------------------------------------- paths */

/* The folder of name with a trailing '/', or "" (both in the arena). */
static const char *dir_of(mc_arena *a, const char *name)
{
    const char *slash = strrchr(name, '/');

    return mc_arena_strndup(a, name, slash ? (size_t)(slash - name) + 1 : 0);
}

/* dir + text[0..len) with '\' read as '/'; an absolute text ignores dir. NULL when out of
 * memory. */
static char *join_path(mc_arena *a, const char *dir, const char *text, size_t len)
{
    size_t dlen = (len > 0 && (text[0] == '/' || text[0] == '\\')) ? 0 : strlen(dir);
    char *p = mc_arena_alloc(a, dlen + len + 1, 1);

    if (!p)
        return NULL;
    memcpy(p, dir, dlen);
    for (size_t i = 0; i < len; i++)
        p[dlen + i] = text[i] == '\\' ? '/' : text[i];
    p[dlen + len] = '\0';
    return p;
}

/* A regular file that exists (a folder named like an image does not count). */
static bool file_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool mc_scene_shader_equal(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = *a == '\\' ? '/' : (*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a);
        int cb = *b == '\\' ? '/' : (*b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b);

        if (ca != cb)
            return false;
        if (!ca)
            return true;
    }
}

/* ---------------------------------------------------------------- parse helpers */

static bool nomem(scene_parser *p, const mc_token *tok)
{
    return mc_lex_fail(&p->lx, tok, MC_ERR_NOMEM, "out of memory");
}

static bool expect_punct(scene_parser *p, const char *punct)
{
    mc_token tok;
    char d[80];

    if (!mc_lex_next(&p->lx, &tok))
        return false;
    if (tok.kind != MC_TOK_PUNCT || !mc_lex_is(&tok, punct))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "expected '%s', found %s", punct,
                           mc_lex_describe(&tok, d, sizeof d));
    return true;
}

/* Marks keyword tok as seen; a second time is an error. */
static bool once(scene_parser *p, const mc_token *tok, seen_at *seen)
{
    if (seen->line)
        return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "duplicate '%.*s' (first given at line %d)",
                           (int)tok->len, tok->text, seen->line);
    seen->line = tok->line;
    seen->col = tok->col;
    return true;
}

/* A path string resolved against the scene's folder; tok receives the string's token. */
static bool read_path(scene_parser *p, const char **out, mc_token *tok)
{
    const char *text;
    size_t len;

    if (!mc_lex_string(&p->lx, &text, &len, tok))
        return false;
    if (len == 0)
        return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "empty path");
    *out = join_path(&p->s->arena, p->s->dir, text, len);
    return *out ? true : nomem(p, tok);
}

static bool read_int_in(scene_parser *p, const char *what, int lo, int hi, int *out)
{
    mc_token tok;

    if (!mc_lex_int(&p->lx, out, &tok))
        return false;
    if (*out < lo || *out > hi)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "invalid '%s' %d, expected %d to %d", what,
                           *out, lo, hi);
    return true;
}

static bool read_flag(scene_parser *p, const char *what, bool *out)
{
    int v;

    if (!read_int_in(p, what, 0, 1, &v))
        return false;
    *out = v == 1;
    return true;
}

/* A quoted declaration name ("model", "skin") of 1 to MC_LIMIT_NAME_LEN bytes, kept in the
 * scene's arena with its position. */
static bool read_decl_name(scene_parser *p, const char *what, const char **out, int *line,
                           int *col)
{
    const char *text;
    size_t len;
    mc_token tok;

    if (!mc_lex_string(&p->lx, &text, &len, &tok))
        return false;
    if (len == 0 || len > MC_LIMIT_NAME_LEN)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "invalid %s name, expected 1 to %d bytes",
                           what, MC_LIMIT_NAME_LEN);
    *out = mc_lex_strdup(&p->lx, &p->s->arena, text, len);
    *line = tok.line;
    *col = tok.col;
    return *out != NULL;
}
/* ---------------------------------------------------------------- output block */

/* ( a b c ) with every component in lo..hi, reported at the component's own token. */
static bool read_triple_in(scene_parser *p, const char *what, float lo, float hi, float *out)
{
    if (!mc_lex_expect(&p->lx, "("))
        return false;
    for (int i = 0; i < 3; i++) {
        mc_token tok;

        if (!mc_lex_float(&p->lx, &out[i], &tok))
            return false;
        if (!(out[i] >= lo && out[i] <= hi))
            return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                               "invalid '%s' component %g, expected %g to %g", what,
                               (double)out[i], (double)lo, (double)hi);
    }
    return mc_lex_expect(&p->lx, ")");
}

/* ( r g b ), each 0 to 1. */
static bool parse_background(scene_parser *p)
{
    if (!read_triple_in(p, "background", 0.0f, 1.0f, p->s->background))
        return false;
    p->s->has_background = true;
    return true;
}

/* " (did you mean 'x'?)" when tok is a name near one of words[0..n), else "" (core/nearest.h). */
static const char *hint_for(const mc_token *tok, const char *const *words, size_t n, char *buf,
                            size_t cap)
{
    if (tok->kind != MC_TOK_NAME) {
        buf[0] = '\0';
        return buf;
    }
    return mc_nearest_hint(buf, cap, tok->text, tok->len, words, n);
}

static const char *const output_keywords[] = { "width", "height", "fps", "background" };

static bool parse_output(scene_parser *p)
{
    seen_at w = { 0, 0 }, h = { 0, 0 }, fps = { 0, 0 }, bg = { 0, 0 };
    mc_token tok;
    char d[80];

    if (!expect_punct(p, "{"))
        return false;
    for (;;) {
        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_PUNCT && mc_lex_is(&tok, "}"))
            return true;
        if (tok.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "expected a keyword or '}' in 'output', found %s",
                               mc_lex_describe(&tok, d, sizeof d));
        if (mc_lex_is(&tok, "width")) {
            if (!once(p, &tok, &w) || !read_int_in(p, "width", MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE, &p->s->width))
                return false;
        } else if (mc_lex_is(&tok, "height")) {
            if (!once(p, &tok, &h) || !read_int_in(p, "height", MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE, &p->s->height))
                return false;
        } else if (mc_lex_is(&tok, "fps")) {
            if (!once(p, &tok, &fps) || !read_int_in(p, "fps", MC_LIMIT_FPS_MIN, MC_LIMIT_FPS_MAX, &p->s->fps))
                return false;
        } else if (mc_lex_is(&tok, "background")) {
            if (!once(p, &tok, &bg) || !parse_background(p))
                return false;
        } else {
            char hint[80];

            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "unknown keyword %s in 'output'%s",
                               mc_lex_describe(&tok, d, sizeof d),
                               hint_for(&tok, output_keywords, 4, hint, sizeof hint));
        }
    }
}

/* ---------------------------------------------------------------- actor block */

static bool ends_with_nocase(const char *s, const char *ext)
{
    size_t n = strlen(s), e = strlen(ext);

    return n >= e && strcasecmp(s + n - e, ext) == 0;
}

static bool same_name(const char *a, size_t alen, const char *b)
{
    return strlen(b) == alen && memcmp(a, b, alen) == 0;
}

static bool parse_material(scene_parser *p, mc_scene_actor *a, int *cap, const mc_token *kw)
{
    mc_token stok, ptok;
    const char *text, *path;
    char *shader;
    size_t slen;
    mc_scene_material *m;

    if (!mc_lex_string(&p->lx, &text, &slen, &stok) || !read_path(p, &path, &ptok))
        return false;
    shader = mc_arena_strndup(&p->s->arena, text, slen);
    if (!shader)
        return nomem(p, kw);
    /* Compared as resolve matches them: two lines that differ only in case or slash
     * direction would name the same submeshes. */
    for (int i = 0; i < a->num_materials; i++) {
        if (mc_scene_shader_equal(shader, a->materials[i].shader))
            return mc_lex_fail(&p->lx, &stok, MC_ERR_SYNTAX,
                               "duplicate material for shader '%s' (first given at line %d)",
                               shader, a->materials[i].line);
    }
    if (a->num_materials == MC_SCENE_MAX_MATERIALS)
        return mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d materials in actor '%s'",
                           MC_SCENE_MAX_MATERIALS, a->name);
    if (a->num_materials == *cap) {
        int ncap = *cap ? *cap * 2 : 4;
        mc_scene_material *grown = mc_arena_alloc(&p->s->arena, (size_t)ncap, sizeof *grown);

        if (!grown)
            return nomem(p, kw);
        if (a->num_materials)
            memcpy(grown, a->materials, (size_t)a->num_materials * sizeof *grown);
        a->materials = grown;
        *cap = ncap;
    }
    m = &a->materials[a->num_materials++];
    m->shader = shader;
    m->path = path;
    m->line = ptok.line;
    m->col = ptok.col;
    return true;
}

/* Actor keywords that appear at most once, in the order of the grammar. */
enum {
    K_MESH, K_ANIM, K_ORIGIN, K_YAW, K_SCALE, K_START, K_LOOP, K_IN_PLACE, K_SKIN, K_MODEL,
    K_COUNT
};
static const char *const actor_keywords[K_COUNT + 2] = {
    "mesh", "anim", "origin", "yaw", "scale", "start", "loop", "in_place", "skin", "model",
    "material", "parm", /* repeatable: not in the K_ list, hints only */
};

static bool parse_actor_value(scene_parser *p, mc_scene_actor *a, int k)
{
    mc_token tok;
    float v[3];

    switch (k) {
    case K_MESH:
        if (!read_path(p, &a->mesh_path, &tok))
            return false;
        a->mesh_line = tok.line;
        a->mesh_col = tok.col;
        return true;
    case K_ANIM: {
        /* kept as written until the end of the block: with a `model` it may be an anim's name */
        const char *text;
        size_t len;

        if (!mc_lex_string(&p->lx, &text, &len, &tok))
            return false;
        if (len == 0)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "empty path");
        a->anim_name = mc_lex_strdup(&p->lx, &p->s->arena, text, len);
        a->anim_line = tok.line;
        a->anim_col = tok.col;
        return a->anim_name != NULL;
    }
    case K_MODEL:
        return read_decl_name(p, "model", &a->model, &a->model_line, &a->model_col);
    case K_ORIGIN:
        if (!mc_lex_vec(&p->lx, 3, v))
            return false;
        a->origin = (mc_vec3){ v[0], v[1], v[2] };
        return true;
    case K_YAW:
        return mc_lex_float(&p->lx, &a->yaw, NULL);
    case K_SCALE:
        if (!mc_lex_float(&p->lx, &a->scale, &tok))
            return false;
        if (!(a->scale > 0.0f))
            return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                               "invalid 'scale' %g, expected a number above 0", (double)a->scale);
        return true;
    case K_START:
        return mc_lex_float(&p->lx, &a->start, NULL);
    case K_LOOP:
        return read_flag(p, "loop", &a->loop);
    case K_SKIN:
        return read_decl_name(p, "skin", &a->skin, &a->skin_line, &a->skin_col);
    default:
        return read_flag(p, "in_place", &a->in_place);
    }
}

/* parm N VALUE: the actor's shader parameter N (0..11), once per N. */
static bool parse_parm(scene_parser *p, mc_scene_actor *a, seen_at *seen)
{
    mc_token tok;
    int n;

    if (!mc_lex_int(&p->lx, &n, &tok))
        return false;
    if (n < 0 || n >= MC_SCENE_PARMS)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "invalid 'parm' %d, expected 0 to %d", n,
                           MC_SCENE_PARMS - 1);
    if (seen[n].line)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                           "duplicate 'parm %d' (first given at line %d)", n, seen[n].line);
    seen[n].line = tok.line;
    seen[n].col = tok.col;
    return mc_lex_float(&p->lx, &a->parms[n], NULL);
}

static bool parse_actor_body(scene_parser *p, mc_scene_actor *a, const mc_token *name_tok)
{
    seen_at seen[K_COUNT];
    seen_at parm_seen[MC_SCENE_PARMS];
    int material_cap = 0;
    mc_token tok;
    char d[80];

    memset(seen, 0, sizeof seen);
    memset(parm_seen, 0, sizeof parm_seen);
    for (;;) {
        int k = 0;

        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_PUNCT && mc_lex_is(&tok, "}"))
            break;
        if (tok.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "expected a keyword or '}' in actor '%s', found %s", a->name,
                               mc_lex_describe(&tok, d, sizeof d));
        if (mc_lex_is(&tok, "material")) {
            if (!parse_material(p, a, &material_cap, &tok))
                return false;
            continue;
        }
        if (mc_lex_is(&tok, "parm")) {
            if (!parse_parm(p, a, parm_seen))
                return false;
            continue;
        }
        while (k < K_COUNT && !mc_lex_is(&tok, actor_keywords[k]))
            k++;
        if (k == K_COUNT) {
            char hint[80];

            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "unknown keyword %s in actor '%s'%s",
                               mc_lex_describe(&tok, d, sizeof d), a->name,
                               hint_for(&tok, actor_keywords, K_COUNT + 2, hint, sizeof hint));
        }
        if (!once(p, &tok, &seen[k]) || !parse_actor_value(p, a, k))
            return false;
    }
    if (a->model && a->mesh_path) {
        mc_token at = { MC_TOK_STRING, a->model, strlen(a->model), a->model_line, a->model_col,
                        0.0, false };

        return mc_lex_fail(&p->lx, &at, MC_ERR_SYNTAX,
                           "actor '%s' has both 'mesh' (line %d) and 'model': give one", a->name,
                           a->mesh_line);
    }
    if (!a->mesh_path && !a->model)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX, "actor '%s' has no 'mesh'", a->name);
    /* An anim is a file, unless the actor has a model and it does not end in .md5anim: then the
     * name of one of the model's anims (resolved with the model). */
    if (a->anim_name && !(a->model && !ends_with_nocase(a->anim_name, ".md5anim"))) {
        a->anim_path = join_path(&p->s->arena, p->s->dir, a->anim_name, strlen(a->anim_name));
        a->anim_name = NULL;
        if (!a->anim_path)
            return nomem(p, name_tok);
    }
    return true;
}

static mc_scene_actor *new_actor(scene_parser *p, const mc_token *kw)
{
    mc_scene *s = p->s;

    if (s->num_actors == MC_SCENE_MAX_ACTORS) {
        mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d actors", MC_SCENE_MAX_ACTORS);
        return NULL;
    }
    if (s->num_actors == p->actor_cap) {
        int ncap = p->actor_cap ? p->actor_cap * 2 : 8;
        mc_scene_actor *grown = mc_arena_alloc(&s->arena, (size_t)ncap, sizeof *grown);

        if (!grown) {
            nomem(p, kw);
            return NULL;
        }
        if (s->num_actors)
            memcpy(grown, s->actors, (size_t)s->num_actors * sizeof *grown);
        s->actors = grown;
        p->actor_cap = ncap;
    }
    return &s->actors[s->num_actors++];
}

static bool parse_actor(scene_parser *p, const mc_token *kw)
{
    mc_token tok;
    const char *name;
    size_t len;
    mc_scene_actor *a;

    if (!mc_lex_string(&p->lx, &name, &len, &tok))
        return false;
    for (int i = 0; i < p->s->num_actors; i++) {
        if (same_name(name, len, p->s->actors[i].name))
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "duplicate actor '%.*s' (first given at line %d)", (int)len, name,
                               p->s->actors[i].line);
    }
    a = new_actor(p, kw);
    if (!a)
        return false;
    a->name = mc_arena_strndup(&p->s->arena, name, len);
    if (!a->name)
        return nomem(p, &tok);
    a->line = tok.line;
    a->col = tok.col;
    a->scale = 1.0f;
    /* Doom's entity defaults (Entity.cpp, ParseSpawnArgsToRenderEntity): _color 1 1 1 and
     * shaderParm3 1; the others 0. */
    for (int i = 0; i < 4; i++)
        a->parms[i] = 1.0f;
    return expect_punct(p, "{") && parse_actor_body(p, a, &tok);
}

/* ---------------------------------------------------------------- lights */

/* A light's keywords, in the order of light_keywords (the hint's list too). */
enum {
    LK_ORIGIN, LK_COLOR, LK_RADIUS, LK_BOX, LK_TARGET, LK_RIGHT, LK_UP, LK_START, LK_END,
    LK_NOSHADOWS, LK_SHADER, LK_COUNT
};
static const char *const light_keywords[LK_COUNT] = {
    "origin", "color", "radius", "light_radius", "target", "right", "up", "start",
    "end", "noShadows", "shader",
};

/* A light's shader "lights/NAME". */
static bool parse_light_shader(scene_parser *p, mc_scene_light *l)
{
    const char *text;
    size_t len;
    mc_token vt;

    if (!mc_lex_string(&p->lx, &text, &len, &vt))
        return false;
    if (len == 0 || len > MC_LIMIT_NAME_LEN)
        return mc_lex_fail(&p->lx, &vt, MC_ERR_SYNTAX,
                           "invalid light shader name, expected 1 to %d bytes", MC_LIMIT_NAME_LEN);
    l->shader = mc_lex_strdup(&p->lx, &p->s->arena, text, len);
    l->shader_line = vt.line;
    l->shader_col = vt.col;
    return l->shader != NULL;
}

/* The value of light keyword k (seen once already checked). */
static bool parse_light_value(scene_parser *p, mc_scene_light *l, int k)
{
    mc_vec3 *const vecs[LK_COUNT] = { [LK_ORIGIN] = &l->origin, [LK_BOX] = &l->box,
                                      [LK_TARGET] = &l->target, [LK_RIGHT] = &l->right,
                                      [LK_UP] = &l->up,         [LK_START] = &l->start,
                                      [LK_END] = &l->end };
    mc_token vt;
    float v[3];
    int n;

    switch (k) {
    case LK_COLOR:
        return read_triple_in(p, "color", 0.0f, LIGHT_COLOR_MAX, l->color);
    case LK_RADIUS:
        if (!mc_lex_float(&p->lx, &l->radius, &vt))
            return false;
        if (!(l->radius > 0.0f && l->radius <= LIGHT_RADIUS_MAX))
            return mc_lex_fail(&p->lx, &vt, MC_ERR_RANGE,
                               "invalid 'radius' %g, expected above 0 and at most %g",
                               (double)l->radius, (double)LIGHT_RADIUS_MAX);
        return true;
    case LK_NOSHADOWS:
        if (!mc_lex_int(&p->lx, &n, &vt))
            return false;
        if (n != 0 && n != 1)
            return mc_lex_fail(&p->lx, &vt, MC_ERR_RANGE, "'noShadows' is 0 or 1, not %d", n);
        l->no_shadows = n == 1;
        return true;
    case LK_SHADER:
        return parse_light_shader(p, l);
    default: /* a vector: light_radius half-sizes from 1e-3, positions and offsets any sign */
        if (!read_triple_in(p, light_keywords[k], k == LK_BOX ? 1e-3f : -LIGHT_ORIGIN_MAX,
                            k == LK_BOX ? LIGHT_RADIUS_MAX : LIGHT_ORIGIN_MAX, v))
            return false;
        *vecs[k] = (mc_vec3){ v[0], v[1], v[2] };
        return true;
    }
}

/* A projected light's checks (tr_lightrun.cpp R_SetLightProject needs target, right and up,
 * right and up not parallel, and target off their plane) and its defaults. */
static bool check_projected(scene_parser *p, mc_scene_light *l, const mc_token *name_tok,
                            const seen_at *seen)
{
    mc_vec3 n = mc_v3_cross(l->up, l->right);

    if (!seen[LK_TARGET].line || !seen[LK_RIGHT].line || !seen[LK_UP].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "projected light '%s' needs 'target', 'right' and 'up'", l->name);
    if (!(mc_v3_len(n) > 0.0f) || !(fabsf(mc_v3_dot(n, l->target)) > 0.0f))
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_RANGE,
                           "projected light '%s': 'right' and 'up' must span a plane that "
                           "'target' is off",
                           l->name);
    if (seen[LK_RADIUS].line || seen[LK_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "projected light '%s' takes no 'radius' or 'light_radius'", l->name);
    /* Light.cpp: light_start defaults to 0 0 0 and light_end to light_target, each on its own */
    if (!seen[LK_END].line)
        l->end = l->target;
    if (mc_v3_len(mc_v3_sub(l->end, l->start)) <= 0.0f)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_RANGE,
                           "projected light '%s': 'start' and 'end' are the same point", l->name);
    return true;
}

/* What a light's keywords must be together: an origin, and a radius, a light_radius or a
 * projection. */
static bool check_light(scene_parser *p, mc_scene_light *l, const mc_token *name_tok,
                        const seen_at *seen)
{
    if (!seen[LK_ORIGIN].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX, "light '%s' has no 'origin'", l->name);
    l->projected = seen[LK_TARGET].line || seen[LK_RIGHT].line || seen[LK_UP].line;
    if (l->projected)
        return check_projected(p, l, name_tok, seen);
    if (seen[LK_START].line || seen[LK_END].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s': 'start' and 'end' need 'target', 'right' and 'up'",
                           l->name);
    if (!seen[LK_RADIUS].line && !seen[LK_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s' has no 'radius' or 'light_radius'", l->name);
    if (seen[LK_RADIUS].line && seen[LK_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s' has both 'radius' and 'light_radius'", l->name);
    return true;
}

static bool parse_light_body(scene_parser *p, mc_scene_light *l, const mc_token *name_tok)
{
    seen_at seen[LK_COUNT];
    mc_token tok;
    char d[80];

    memset(seen, 0, sizeof seen);
    for (;;) {
        int k = 0;

        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_PUNCT && mc_lex_is(&tok, "}"))
            break;
        if (tok.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "expected a keyword or '}' in light '%s', found %s", l->name,
                               mc_lex_describe(&tok, d, sizeof d));
        while (k < LK_COUNT && !mc_lex_is(&tok, light_keywords[k]))
            k++;
        if (k == LK_COUNT) {
            char hint[80];

            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "unknown keyword %s in light '%s'%s",
                               mc_lex_describe(&tok, d, sizeof d), l->name,
                               hint_for(&tok, light_keywords, LK_COUNT, hint, sizeof hint));
        }
        if (!once(p, &tok, &seen[k]) || !parse_light_value(p, l, k))
            return false;
    }
    return check_light(p, l, name_tok, seen);
}

static bool parse_light(scene_parser *p, const mc_token *kw)
{
    mc_scene *s = p->s;
    mc_token tok;
    const char *name;
    size_t len;
    mc_scene_light *l;

    if (!mc_lex_string(&p->lx, &name, &len, &tok))
        return false;
    for (int i = 0; i < s->num_lights; i++) {
        if (same_name(name, len, s->lights[i].name))
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "duplicate light '%.*s' (first given at line %d)", (int)len, name,
                               s->lights[i].line);
    }
    if (s->num_lights == MC_SCENE_MAX_LIGHTS)
        return mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d lights", MC_SCENE_MAX_LIGHTS);
    if (!s->lights) {
        s->lights = mc_arena_alloc(&s->arena, MC_SCENE_MAX_LIGHTS, sizeof *s->lights);
        if (!s->lights)
            return nomem(p, kw);
    }
    l = &s->lights[s->num_lights++];
    memset(l, 0, sizeof *l);
    l->name = mc_arena_strndup(&s->arena, name, len);
    if (!l->name)
        return nomem(p, &tok);
    l->line = tok.line;
    l->col = tok.col;
    l->color[0] = l->color[1] = l->color[2] = 1.0f;
    return expect_punct(p, "{") && parse_light_body(p, l, &tok);
}

/* ---------------------------------------------------------------- camera block */

#define SHOT_SECONDS_MAX 3600.0f
#define SHOT_COORD_MAX   1e6f /* positions, radius, height, aim: inches */
#define SHOT_DEGREES_MAX 36000.0f

/* v with the fewest significant digits (6 to 9) that read back as v, so that a value just past
 * a bound (3600.001 against 3600) is never printed as the bound. */
static const char *fmt_float(char buf[32], float v)
{
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, 32, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    return buf;
}

static bool read_float_in(scene_parser *p, const char *what, float lo, float hi, bool open_lo,
                          float *out)
{
    mc_token tok;
    char v[32], a[32], b[32];

    if (!mc_lex_float(&p->lx, out, &tok))
        return false;
    if (!((open_lo ? *out > lo : *out >= lo) && *out <= hi))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "invalid '%s' %s, expected %s%s to %s",
                           what, fmt_float(v, *out), open_lo ? "above " : "", fmt_float(a, lo),
                           fmt_float(b, hi));
    return true;
}

static bool read_point(scene_parser *p, const char *what, mc_vec3 *out)
{
    float v[3];

    if (!read_triple_in(p, what, -SHOT_COORD_MAX, SHOT_COORD_MAX, v))
        return false;
    *out = (mc_vec3){ v[0], v[1], v[2] };
    return true;
}

enum { SK_POSITION, SK_TARGET, SK_CENTER, SK_AROUND, SK_RADIUS, SK_HEIGHT, SK_AIM, SK_START,
       SK_DEGREES, SK_SECONDS, SK_FOV, SK_KEY, SK_COUNT };
static const char *const shot_keywords[SK_COUNT] = { "position", "target", "center", "around",
                                                     "radius", "height", "aim", "start",
                                                     "degrees", "seconds", "fov", "key" };

/* key T ( position ) ( target ), after the keyword: times from 0, strictly increasing. */
static bool parse_key(scene_parser *p, mc_scene_shot *sh, const mc_token *kw)
{
    mc_scene_key *keys = sh->keys, *k;
    mc_token tok;
    char v[32], a[32], b[32];

    if (sh->num_keys == MC_SCENE_MAX_KEYS)
        return mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d keys in a 'keys' shot",
                           MC_SCENE_MAX_KEYS);
    if (!keys) {
        keys = mc_arena_alloc(&p->s->arena, MC_SCENE_MAX_KEYS, sizeof *keys);
        if (!keys)
            return nomem(p, kw);
        sh->keys = keys;
    }
    k = &keys[sh->num_keys];
    k->line = kw->line;
    k->col = kw->col;
    if (!mc_lex_float(&p->lx, &k->time, &tok))
        return false;
    if (sh->num_keys == 0 && k->time != 0.0f)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "the first key is at %s, expected 0",
                           fmt_float(v, k->time));
    if (sh->num_keys > 0 &&
        !(k->time > keys[sh->num_keys - 1].time && k->time <= SHOT_SECONDS_MAX))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                           "invalid key time %s, expected above %s (the key before) to %s",
                           fmt_float(v, k->time), fmt_float(a, keys[sh->num_keys - 1].time),
                           fmt_float(b, SHOT_SECONDS_MAX));
    if (!read_point(p, "key position", &k->position) || !read_point(p, "key target", &k->target))
        return false;
    sh->num_keys++;
    sh->seconds = k->time;
    return true;
}

static bool parse_shot_value(scene_parser *p, mc_scene_shot *sh, int k)
{
    mc_token tok;
    const char *text;
    size_t len;

    switch (k) {
    case SK_POSITION: return read_point(p, "position", &sh->position);
    case SK_TARGET: return read_point(p, "target", &sh->target);
    case SK_CENTER: return read_point(p, "center", &sh->center);
    case SK_AROUND:
        if (!mc_lex_string(&p->lx, &text, &len, &tok))
            return false;
        sh->around = mc_arena_strndup(&p->s->arena, text, len);
        sh->around_line = tok.line;
        sh->around_col = tok.col;
        return sh->around ? true : nomem(p, &tok);
    case SK_RADIUS: return read_float_in(p, "radius", 0.0f, SHOT_COORD_MAX, true, &sh->radius);
    case SK_HEIGHT:
        return read_float_in(p, "height", -SHOT_COORD_MAX, SHOT_COORD_MAX, false, &sh->height);
    case SK_AIM: return read_float_in(p, "aim", -SHOT_COORD_MAX, SHOT_COORD_MAX, false, &sh->aim);
    case SK_START:
        return read_float_in(p, "start", -SHOT_DEGREES_MAX, SHOT_DEGREES_MAX, false, &sh->start);
    case SK_DEGREES:
        return read_float_in(p, "degrees", -SHOT_DEGREES_MAX, SHOT_DEGREES_MAX, false,
                             &sh->degrees);
    case SK_SECONDS:
        return read_float_in(p, "seconds", 0.0f, SHOT_SECONDS_MAX, true, &sh->seconds);
    default: break;
    }
    if (!mc_lex_float(&p->lx, &sh->fov, &tok))
        return false;
    if (!(sh->fov > 0.0f && sh->fov < 180.0f))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                           "invalid 'fov' %g, expected above 0 and below 180", (double)sh->fov);
    return true;
}

/* Which keywords each kind takes (bit k: shot_keywords[k]). */
#define SHOT_COMMON ((1u << SK_SECONDS) | (1u << SK_FOV))
#define SHOT_LOOK_AT_KEYS ((1u << SK_POSITION) | (1u << SK_TARGET) | SHOT_COMMON)
#define SHOT_ORBIT_KEYS                                                                          \
    ((1u << SK_CENTER) | (1u << SK_AROUND) | (1u << SK_RADIUS) | (1u << SK_HEIGHT) |             \
     (1u << SK_AIM) | (1u << SK_START) | (1u << SK_DEGREES) | SHOT_COMMON)
#define SHOT_KEYS_KEYS ((1u << SK_KEY) | (1u << SK_FOV))

static bool parse_shot(scene_parser *p, mc_scene_shot *sh, const mc_token *kw)
{
    seen_at seen[SK_COUNT];
    unsigned allowed = sh->kind == MC_SHOT_LOOK_AT ? SHOT_LOOK_AT_KEYS
                       : sh->kind == MC_SHOT_KEYS  ? SHOT_KEYS_KEYS
                                                   : SHOT_ORBIT_KEYS;
    mc_token tok;
    char d[80];

    memset(seen, 0, sizeof seen);
    if (!expect_punct(p, "{"))
        return false;
    for (;;) {
        int k = 0;

        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_PUNCT && mc_lex_is(&tok, "}"))
            break;
        while (k < SK_COUNT && !(tok.kind == MC_TOK_NAME && mc_lex_is(&tok, shot_keywords[k])))
            k++;
        if (k == SK_COUNT || !(allowed & (1u << k))) {
            const char *words[SK_COUNT];
            char hint[80];
            int i;

            for (i = 0; i < SK_COUNT; i++) /* only what this kind takes */
                words[i] = allowed & (1u << i) ? shot_keywords[i] : NULL;
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "unknown keyword %s in '%.*s' shot%s",
                               mc_lex_describe(&tok, d, sizeof d), (int)kw->len, kw->text,
                               hint_for(&tok, words, SK_COUNT, hint, sizeof hint));
        }
        if (k == SK_KEY) {
            if (!parse_key(p, sh, &tok))
                return false;
            continue;
        }
        if (!once(p, &tok, &seen[k]) || !parse_shot_value(p, sh, k))
            return false;
    }
    if (sh->kind == MC_SHOT_KEYS) {
        if (sh->num_keys < 2)
            return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX,
                               "'keys' shot needs at least 2 keys, has %d", sh->num_keys);
        return true;
    }
    if (sh->kind == MC_SHOT_LOOK_AT) {
        if (!seen[SK_POSITION].line || !seen[SK_TARGET].line)
            return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX,
                               "'look_at' shot needs 'position' and 'target'");
        return true;
    }
    if (!seen[SK_RADIUS].line)
        return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX, "'%.*s' shot has no 'radius'",
                           (int)kw->len, kw->text);
    if (seen[SK_CENTER].line && seen[SK_AROUND].line)
        return mc_lex_fail(&p->lx, kw, MC_ERR_SYNTAX,
                           "'%.*s' shot has both 'center' and 'around'", (int)kw->len, kw->text);
    return true;
}

static int shot_steps(const mc_scene_shot *sh, int fps);

/* The frames a block makes (each shot's steps + 1) are held as a camera's, so a block may make
 * no more than the camera file it would be written as may hold (MC_LIMIT_CAMERA_BLOCK_FRAMES,
 * limits.h): checked once the block's fps is known, at the shot that goes past it, before any
 * frame exists. */
static bool check_block_frames(scene_parser *p)
{
    const mc_scene *s = p->s;
    int64_t total = 0;

    for (int i = 0; i < s->num_shots; i++) {
        const mc_scene_shot *sh = &s->shots[i];
        int n = shot_steps(sh, s->camera_fps);

        total += n + 1;
        if (total > MC_LIMIT_CAMERA_BLOCK_FRAMES) {
            mc_token at = { .line = sh->line, .col = sh->col };

            return mc_lex_fail(&p->lx, &at, MC_ERR_LIMIT,
                               "camera block makes more than %d frames (what a camera file of "
                               "at most %zu bytes holds): %lld with this shot's %d at %d fps",
                               MC_LIMIT_CAMERA_BLOCK_FRAMES, MC_LIMIT_FILE_BYTES,
                               (long long)total, n + 1, s->camera_fps);
        }
    }
    return true;
}

/* camera { fps N  look_at { ... }  orbit { ... }  turntable { ... } }, after the '{'. */
static bool parse_camera_block(scene_parser *p)
{
    mc_scene *s = p->s;
    seen_at fps = { 0, 0 };
    mc_token tok;
    char d[80];

    s->camera_fps = 24;
    for (;;) {
        mc_scene_shot *sh;

        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_PUNCT && mc_lex_is(&tok, "}"))
            break;
        if (tok.kind == MC_TOK_NAME && mc_lex_is(&tok, "fps")) {
            if (!once(p, &tok, &fps) ||
                !read_int_in(p, "fps", MC_LIMIT_FPS_MIN, MC_LIMIT_FPS_MAX, &s->camera_fps))
                return false;
            continue;
        }
        if (tok.kind != MC_TOK_NAME ||
            !(mc_lex_is(&tok, "look_at") || mc_lex_is(&tok, "orbit") ||
              mc_lex_is(&tok, "turntable") || mc_lex_is(&tok, "keys"))) {
            static const char *const camera_words[] = { "fps", "look_at", "orbit", "turntable",
                                                        "keys" };
            char hint[80];

            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                               "expected 'fps', 'look_at', 'orbit', 'turntable', 'keys' or '}' "
                               "in camera, found %s%s",
                               mc_lex_describe(&tok, d, sizeof d),
                               hint_for(&tok, camera_words, 5, hint, sizeof hint));
        }
        if (s->num_shots == MC_SCENE_MAX_SHOTS)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_LIMIT, "more than %d shots",
                               MC_SCENE_MAX_SHOTS);
        if (!s->shots) {
            s->shots = mc_arena_alloc(&s->arena, MC_SCENE_MAX_SHOTS, sizeof *s->shots);
            if (!s->shots)
                return nomem(p, &tok);
        }
        sh = &s->shots[s->num_shots++];
        memset(sh, 0, sizeof *sh);
        sh->kind = mc_lex_is(&tok, "look_at") ? MC_SHOT_LOOK_AT
                   : mc_lex_is(&tok, "keys")  ? MC_SHOT_KEYS
                                              : MC_SHOT_ORBIT;
        sh->line = tok.line;
        sh->col = tok.col;
        sh->seconds = 1.0f;
        sh->fov = 90.0f;
        sh->degrees = 360.0f;
        if (!parse_shot(p, sh, &tok))
            return false;
    }
    if (s->num_shots == 0)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "camera block has no shot");
    return check_block_frames(p);
}

/* ---------------------------------------------------------------- top level */

static bool parse_header(scene_parser *p, mc_token *kw)
{
    mc_token tok;

    if (!mc_lex_expect_tok(&p->lx, "md5scene", kw) || !mc_lex_int(&p->lx, &p->s->version, &tok))
        return false;
    if (p->s->version != 1)
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE,
                           "unsupported 'md5scene' version %d, expected 1", p->s->version);
    return true;
}

static bool parse_top_keyword(scene_parser *p, const mc_token *tok, seen_at seen[5])
{
    mc_token ptok;
    char d[80];

    if (mc_lex_is(tok, "camera")) {
        if (!once(p, tok, &seen[0]) || !mc_lex_peek(&p->lx, &ptok))
            return false;
        if (ptok.kind == MC_TOK_PUNCT && mc_lex_is(&ptok, "{")) {
            p->s->camera_line = ptok.line;
            p->s->camera_col = ptok.col;
            return expect_punct(p, "{") && parse_camera_block(p);
        }
        if (!read_path(p, &p->s->camera_path, &ptok))
            return false;
        p->s->camera_line = ptok.line;
        p->s->camera_col = ptok.col;
        return true;
    }
    if (mc_lex_is(tok, "base"))
        return once(p, tok, &seen[1]) && read_path(p, &p->s->base_path, &ptok);
    if (mc_lex_is(tok, "frames"))
        return once(p, tok, &seen[2]) && read_int_in(p, "frames", 1, MC_LIMIT_SCENE_FRAMES, &p->s->frames);
    if (mc_lex_is(tok, "output"))
        return once(p, tok, &seen[3]) && parse_output(p);
    if (mc_lex_is(tok, "actor"))
        return parse_actor(p, tok);
    if (mc_lex_is(tok, "light"))
        return parse_light(p, tok);
    if (mc_lex_is(tok, "ambient")) {
        if (!once(p, tok, &seen[4]) ||
            !read_triple_in(p, "ambient", 0.0f, 1.0f, p->s->ambient))
            return false;
        p->s->has_ambient = true;
        return true;
    }
    static const char *const top_keywords[] = { "camera", "base",  "frames", "output",
                                                "actor",  "light", "ambient" };
    char hint[80];

    return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "unknown keyword %s%s",
                       mc_lex_describe(tok, d, sizeof d),
                       hint_for(tok, top_keywords, 7, hint, sizeof hint));
}

static bool parse_scene_text(scene_parser *p)
{
    seen_at seen[5];
    mc_token head, tok;
    char d[80];

    memset(seen, 0, sizeof seen);
    if (!parse_header(p, &head))
        return false;
    for (;;) {
        if (!mc_lex_next(&p->lx, &tok))
            return false;
        if (tok.kind == MC_TOK_EOF)
            break;
        if (tok.kind != MC_TOK_NAME)
            return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "expected a keyword, found %s",
                               mc_lex_describe(&tok, d, sizeof d));
        if (!parse_top_keyword(p, &tok, seen))
            return false;
    }
    if (!p->s->camera_path && p->s->num_shots == 0)
        return mc_lex_fail(&p->lx, &head, MC_ERR_SYNTAX, "scene has no 'camera'");
    return true;
}

mc_status mc_scene_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                         mc_scene *out, mc_error *err)
{
    scene_parser p;
    mc_error local;
    mc_error *e = err ? err : &local;

    memset(out, 0, sizeof *out);
    memset(&p, 0, sizeof p);
    p.s = out;
    if (!name)
        name = "";
    out->name = mc_arena_strndup(&out->arena, name, strlen(name));
    out->dir = out->name ? dir_of(&out->arena, name) : NULL;
    if (!out->dir) {
        mc_arena_release(&out->arena);
        memset(out, 0, sizeof *out);
        return mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
    }
    e->code = MC_OK;
    mc_lex_init(&p.lx, buf, len, out->name, opts, e);
    if (!parse_scene_text(&p)) {
        mc_status code = e->code != MC_OK ? e->code : MC_ERR_SYNTAX;

        mc_arena_release(&out->arena);
        memset(out, 0, sizeof *out);
        return code;
    }
    return MC_OK;
}

/* ---------------------------------------------------------------- resolve */

/* A file named at scene line:col failed to load. An error without a position (cannot open,
 * too large) is moved to the scene token that names the file; a parse error inside the file
 * keeps its own position. */
static mc_status at_scene_token(const mc_scene *s, mc_error *e, int line, int col, const char *what)
{
    char inner[sizeof e->msg];

    if (e->line != 0)
        return e->code;
    memcpy(inner, e->msg, sizeof inner);
    return mc_error_set(e, e->code, s->name, line, col, "cannot load %s: %s", what, inner);
}

static void warn(const mc_parse_opts *opts, const mc_error *w)
{
    if (opts && opts->warn)
        opts->warn(opts->warn_user, w);
}

/* The shader name as an image stem: '\' -> '/', extension after the last '.' of the last path
 * component removed. */
static void shader_stem(const char *shader, char *out, size_t cap)
{
    size_t n = strlen(shader);
    char *slash, *dot;

    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = shader[i] == '\\' ? '/' : shader[i];
    out[n] = '\0';
    slash = strrchr(out, '/');
    dot = strrchr(slash ? slash : out, '.');
    if (dot && dot != (slash ? slash + 1 : out))
        *dot = '\0';
}

/* Doom's implicit rule: <stem>.tga, .png, .jpg next to the mesh, then under base. Returns the
 * found path in the arena, NULL when none (*oom set when out of memory). */
static const char *implicit_texture(mc_scene *s, const mc_scene_actor *a, const char *shader,
                                    bool *oom)
{
    static const char *const exts[3] = { ".tga", ".png", ".jpg" };
    const char *mesh_dir = dir_of(&s->arena, a->mesh_path);
    const char *dirs[2], *names[2];
    char stem[PATH_CAP], path[PATH_CAP];

    *oom = mesh_dir == NULL;
    if (*oom)
        return NULL;
    dirs[0] = mesh_dir;
    dirs[1] = s->base_path;
    shader_stem(shader, stem, sizeof stem);
    /* Next to the mesh the shader's file name counts (shaders are game paths, or an artist's
     * absolute path as in Red Eclipse's files); under base, its whole path. */
    names[0] = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
    names[1] = stem;
    for (int d = 0; d < 2; d++) {
        if (!dirs[d])
            continue;
        for (int x = 0; x < 3; x++) {
            int n = snprintf(path, sizeof path, "%s%s%s%s", dirs[d],
                             (d == 1 && dirs[d][0] && dirs[d][strlen(dirs[d]) - 1] != '/') ? "/"
                                                                                           : "",
                             names[d], exts[x]);

            if (n > 0 && (size_t)n < sizeof path && file_exists(path)) {
                const char *found = mc_arena_strndup(&s->arena, path, (size_t)n);

                *oom = found == NULL;
                return found;
            }
        }
    }
    return NULL;
}

static void warn_no_texture(const mc_scene *s, const mc_scene_actor *a, const mc_submesh *sm,
                            int index, const mc_parse_opts *opts)
{
    mc_error w;
    char stem[PATH_CAP];
    const char *slash = strrchr(a->mesh_path, '/');
    /* The mesh's folder as looked in: without its trailing '/' (but "/" itself), "." for the
     * current one. */
    int dir_len = !slash ? 1 : slash == a->mesh_path ? 1 : (int)(slash - a->mesh_path);
    const char *dir = slash ? a->mesh_path : ".";

    if (!opts || !opts->warn)
        return;
    if (!sm->shader[0]) {
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "mesh %d of actor '%s' has an empty shader and no 'material' line for "
                     "it: drawn without a texture",
                     index, a->name);
    } else {
        const char *file;

        shader_stem(sm->shader, stem, sizeof stem);
        file = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "no image for shader '%s' of actor '%s': looked for '%s.tga', '.png', "
                     "'.jpg' in '%.*s'%s%s%s%s%s%s; drawn without a texture",
                     sm->shader, a->name, file, dir_len, dir, s->base_path ? " and in '" : "",
                     s->base_path ? s->base_path : "", s->base_path ? "'" : "",
                     s->base_path && file != stem ? " as '" : "",
                     s->base_path && file != stem ? stem : "",
                     s->base_path && file != stem ? "'" : "");
    }
    warn(opts, &w);
}

/* What the no-texture warnings look at: the scene, and whether its base may declare materials. */
typedef struct no_texture_at {
    const mc_scene *s;
    bool materials;
} no_texture_at;

/* Whether mesh k of a is drawn without a texture and is warned about (after resolve_textures has
 * looked): with materials in the base, a named shader may still be a material. */
static bool lacks_texture(const mc_scene_actor *a, int k, const void *user)
{
    const no_texture_at *at = user;

    return !a->textures[k] && !(at->materials && a->mesh.meshes[k].shader[0]);
}

static void warn_lacking(const mc_scene_actor *a, int k, const void *user,
                         const mc_parse_opts *opts)
{
    warn_no_texture(((const no_texture_at *)user)->s, a, &a->mesh.meshes[k], k, opts);
}

/* The meshes of a drawn without a texture: one warning per shader (the empty one too), the
 * others of it in one line, the shaders past the first few counted (mesh_groups.h). */
static void warn_no_textures(const mc_scene *s, const mc_scene_actor *a, bool materials,
                             const mc_parse_opts *opts)
{
    const no_texture_at at = { s, materials };

    mc_mesh_groups_warn(a, lacks_texture, warn_lacking, &at, opts);
}

/* Whether the base folder may declare materials (a folder of declarations the engine reads,
 * material.h mc_material_set_load, or a .pk4 archive): then a shader without an image may still
 * name a material, and mc_scene_materials_load (material.h) warns about the submeshes that get
 * neither. */
static bool base_has_materials(const mc_scene *s)
{
    static const char *const folders[] = { "materials", "skins",     "sound", "def",
                                           "fx",        "particles", "af",    "newpdas" };
    char path[PATH_CAP];
    struct stat st;
    DIR *d;
    const struct dirent *de;
    bool found = false;

    if (!s->base_path)
        return false;
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", s->base_path, folders[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return true;
    }
    d = opendir(s->base_path);
    while (d && !found && (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);

        found = n > 4 && strcasecmp(de->d_name + n - 4, ".pk4") == 0;
    }
    if (d)
        closedir(d);
    return found;
}

static mc_status resolve_textures(mc_scene *s, mc_scene_actor *a, const mc_parse_opts *opts,
                                  mc_error *e)
{
    bool materials = base_has_materials(s);

    for (int i = 0; i < a->num_materials; i++) {
        const mc_scene_material *m = &a->materials[i];

        if (!file_exists(m->path))
            return mc_error_set(e, MC_ERR_IO, s->name, m->line, m->col,
                                "cannot read image '%s' for shader '%s'", m->path, m->shader);
    }
    a->textures = mc_arena_alloc(&s->arena, (size_t)a->mesh.num_meshes, sizeof *a->textures);
    if (!a->textures && a->mesh.num_meshes > 0)
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    for (int k = 0; k < a->mesh.num_meshes; k++) {
        const mc_submesh *sm = &a->mesh.meshes[k];
        bool oom = false;

        for (int i = 0; i < a->num_materials && !a->textures[k]; i++) {
            if (mc_scene_shader_equal(a->materials[i].shader, sm->shader)) {
                a->textures[k] = a->materials[i].path;
                a->materials[i].used = true;
            }
        }
        if (!a->textures[k] && sm->shader[0])
            a->textures[k] = implicit_texture(s, a, sm->shader, &oom);
        if (oom)
            return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    warn_no_textures(s, a, materials, opts);
    for (int i = 0; i < a->num_materials; i++) {
        mc_error w;

        if (a->materials[i].used || !opts || !opts->warn)
            continue;
        mc_error_set(&w, MC_ERR_MISMATCH, s->name, a->materials[i].line, a->materials[i].col,
                     "no mesh of actor '%s' has shader '%s'", a->name, a->materials[i].shader);
        warn(opts, &w);
    }
    return MC_OK;
}

/* True (with MC_ERR_INTERRUPTED in e) once the caller's stop flag is set. */
static bool stopped(const mc_parse_opts *opts, mc_error *e)
{
    if (!opts || !opts->stop || !*opts->stop)
        return false;
    mc_error_set(e, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    return true;
}

/* ---------------------------------------------------------------- model declarations */

#define MAX_MODEL_INHERIT 16

/* The base as Doom's file system sees it (vfs.h: its loose files, then its .pk4 archives) and
 * the .def files of its def/ folder in the order the declaration manager reads them
 * (idFileSystem::ListFiles with sort: by name, each name once, its text from the place that
 * wins), each read when a search first reaches it and kept until the scene is resolved. Opened
 * by the first actor with a model; a scene without one never indexes its base here. */
typedef struct model_base {
    mc_vfs *vfs;        /* NULL until opened */
    char **names;       /* mc_vfs_list's block: "def/x.def", ... */
    int count;
    int loaded;         /* names[0 .. loaded) are read: */
    char **text;        /* count entries, NUL-terminated */
    size_t *len;
    const char **where; /* places for errors, in the scene's arena: "base/def/x.def",
                           "base/pak000.pk4:def/x.def" */
    size_t text_bytes;  /* held in all; within MC_LIMIT_MTR_TEXT_BYTES, the budget of the
                           base's declaration text (README "Materials") */
} model_base;

static void model_base_release(model_base *mb)
{
    for (int i = 0; i < mb->loaded; i++)
        free(mb->text[i]);
    free(mb->text);
    free(mb->len);
    free(mb->where);
    free(mb->names);
    mc_vfs_destroy(mb->vfs);
    memset(mb, 0, sizeof *mb);
}

static mc_status model_base_open(mc_scene *s, model_base *mb, mc_error *e)
{
    mc_status st;

    if (mb->vfs)
        return MC_OK;
    st = mc_vfs_open(s->base_path, &mb->vfs, e);
    if (st == MC_OK)
        st = mc_vfs_list(mb->vfs, "def", ".def", &mb->names, &mb->count, e);
    if (st == MC_OK && mb->count > 0) {
        mb->text = calloc((size_t)mb->count, sizeof *mb->text);
        mb->len = calloc((size_t)mb->count, sizeof *mb->len);
        mb->where = calloc((size_t)mb->count, sizeof *mb->where);
        if (!mb->text || !mb->len || !mb->where)
            st = mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    if (st != MC_OK)
        model_base_release(mb);
    return st;
}

/* Reads the next def file, within what is left of the declaration text budget (checked on its
 * declared size before it is read or inflated). */
static mc_status model_base_read_next(mc_scene *s, model_base *mb, mc_error *e)
{
    char where[4200];
    uint8_t *data;
    size_t len;
    bool found;
    int i = mb->loaded;
    mc_status st = mc_vfs_read_max(mb->vfs, mb->names[i], MC_LIMIT_MTR_TEXT_BYTES - mb->text_bytes,
                                   &data, &len, &found, where, sizeof where, e);

    if (st != MC_OK)
        return st;
    if (!found) /* listed by the same vfs: cannot happen */
        return mc_error_set(e, MC_ERR_IO, s->base_path, 0, 0, "cannot read '%s'", mb->names[i]);
    mb->where[i] = mc_arena_strndup(&s->arena, where, strlen(where));
    if (!mb->where[i]) {
        free(data);
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    mb->text[i] = (char *)data;
    mb->len[i] = len;
    mb->text_bytes += len;
    mb->loaded++;
    return MC_OK;
}

/* The first declaration `model name` of the def files, in their order (the declaration
 * manager keeps the first of a name: DeclManager.cpp, idDeclFile::LoadAndParse). *file (its
 * place) NULL when none declares it. */
static mc_status find_model(mc_scene *s, model_base *mb, const char *name,
                            const mc_parse_opts *opts, mc_modeldef *out, const char **file,
                            mc_error *e)
{
    *file = NULL;
    for (int i = 0; i < mb->count; i++) {
        bool found;
        mc_status st;

        if (i == mb->loaded) {
            if (stopped(opts, e))
                return MC_ERR_INTERRUPTED;
            st = model_base_read_next(s, mb, e);
            if (st != MC_OK)
                return st;
        }
        st = mc_modeldef_find(mb->text[i], mb->len[i], mb->where[i], name, &s->arena, out, &found,
                              e);
        if (st != MC_OK)
            return st;
        if (found) {
            *file = mb->where[i];
            return MC_OK;
        }
    }
    return MC_OK;
}

/* A game path the model names (its mesh, an anim): *place is where the base holds it, the
 * loose file's path ("base/models/x.md5mesh") or the archive's place
 * ("base/pak000.pk4:models/x.md5mesh"), and *game the path to read it by (NULL when the base
 * holds no such file: then *place is base/path, and loading it fails there as a file). */
static mc_status game_file(mc_scene *s, const model_base *mb, const char *base, const char *path,
                           const char **place, const char **game, mc_error *e)
{
    char where[4200];

    *game = NULL;
    if (mc_vfs_exists(mb->vfs, path, where, sizeof where)) {
        *place = mc_arena_strndup(&s->arena, where, strlen(where));
        *game = path;
    } else {
        *place = join_path(&s->arena, base, path, strlen(path));
    }
    return *place ? MC_OK : mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
}

/* The name of anim `full` without its numeric suffix (ParseAnim's alias: "idle2" -> "idle"). */
static bool alias_is(const char *full, const char *name)
{
    size_t n = strlen(full);

    while (n > 1 && full[n - 1] >= '0' && full[n - 1] <= '9')
        n--;
    return strlen(name) == n && strncmp(full, name, n) == 0;
}

/* Applies one declaration over what those it inherits gave: its mesh, skin and offset when it
 * names them, its anims added (one of an inherited name replaced in place), its removes. */
static mc_status apply_modeldef(mc_scene_actor *a, const mc_modeldef *m,
                                const char *file, const char **mesh, mc_error *e)
{
    if (m->mesh)
        *mesh = m->mesh;
    if (m->skin)
        a->model_skin = m->skin;
    if (m->has_offset)
        a->offset = (mc_vec3){ m->offset[0], m->offset[1], m->offset[2] };
    for (int k = 0; k < m->num_anims; k++) {
        const mc_modeldef_anim *an = &m->anims[k];
        int i = 0;

        while (i < a->num_model_anims && strcmp(a->model_anims[i].name, an->name) != 0)
            i++;
        if (an->remove) {
            int removed = 0;

            for (int j = 0; j < a->num_model_anims; j++) {
                if (strcmp(a->model_anims[j].name, an->name) == 0 ||
                    alias_is(a->model_anims[j].name, an->name)) {
                    memmove(&a->model_anims[j], &a->model_anims[j + 1],
                            (size_t)(a->num_model_anims - j - 1) * sizeof a->model_anims[0]);
                    a->num_model_anims--;
                    j--;
                    removed++;
                }
            }
            if (!removed)
                return mc_error_set(e, MC_ERR_SYNTAX, file, an->line, an->col,
                                    "no inherited anim '%s' to remove in model '%s'", an->name,
                                    m->name);
            continue;
        }
        if (i == a->num_model_anims)
            a->num_model_anims++;
        a->model_anims[i].name = an->name;
        a->model_anims[i].path = an->path;
    }
    return MC_OK;
}

/* An actor's `model`: its declaration and those it inherits (the first declaration of each
 * name in def/ under the base), their mesh, skin, offset and anims; an `anim` naming one of
 * them becomes its file. */
/* Opens the scene's base for actor a's model; an error of the base or an archive in it is named
 * once, at the actor's model token. */
static mc_status open_model_base(mc_scene *s, const mc_scene_actor *a, model_base *mb,
                                 mc_error *e)
{
    mc_status st;

    if (!s->base_path)
        return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->model_line, a->model_col,
                            "actor '%s' names model '%s', but the scene has no 'base' (model "
                            "declarations are read from its def/ folder)", a->name, a->model);
    st = model_base_open(s, mb, e);
    if (st != MC_OK && e->line == 0) {
        char inner[sizeof e->msg], file[sizeof e->file];

        memcpy(inner, e->msg, sizeof inner);
        memcpy(file, e->file, sizeof file);
        if (strstr(inner, file))
            file[0] = '\0';
        return mc_error_set(e, st, s->name, a->model_line, a->model_col,
                            "cannot load model '%s': %s%s%s%s", a->model, file[0] ? "'" : "", file,
                            file[0] ? "': " : "", inner);
    }
    return st;
}

/* The declarations of actor a's model and those it inherits, into chain[0..*depth) with their
 * files; *total counts their anims. */
static mc_status read_model_chain(mc_scene *s, const mc_scene_actor *a, model_base *mb,
                                  const mc_parse_opts *opts, mc_modeldef *chain,
                                  const char **files, int *depth, int *total, mc_error *e)
{
    const char *name = a->model;
    mc_status st = MC_OK;

    for (*depth = 0, *total = 0; name;) {
        int d = *depth;

        st = find_model(s, mb, name, opts, &chain[d], &files[d], e);
        if (st != MC_OK) /* a def file unread: at the model */
            return st == MC_ERR_INTERRUPTED ? st
                                            : at_scene_token(s, e, a->model_line, a->model_col,
                                                             "model");
        if (!files[d]) {
            mc_error w;

            if (d == 0)
                return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->model_line, a->model_col,
                                    "no model declaration '%s' in %s/def/*.def (loose files "
                                    "and .pk4 archives)", a->model, s->base_path);
            /* Anim_Blend.cpp: an unknown model to inherit is a warning; the rest is used */
            mc_error_set(&w, MC_ERR_SYNTAX, files[d - 1], chain[d - 1].inherit_line,
                         chain[d - 1].inherit_col, "unknown model '%s' to inherit", name);
            warn(opts, &w);
            return MC_OK;
        }
        *total += chain[d].num_anims;
        name = chain[d].inherit;
        for (int i = 0; name && i <= d; i++)
            if (strcasecmp(chain[i].name, name) == 0)
                return mc_error_set(e, MC_ERR_SYNTAX, files[d], chain[d].inherit_line,
                                    chain[d].inherit_col,
                                    "model '%s' inherits itself (through '%s')", chain[0].name,
                                    name);
        if (++*depth == MAX_MODEL_INHERIT && name)
            return mc_error_set(e, MC_ERR_LIMIT, files[d], chain[d].inherit_line,
                                chain[d].inherit_col, "model '%s' inherits more than %d deep",
                                a->model, MAX_MODEL_INHERIT);
    }
    return st;
}

/* The anim actor a names among its model's (idDeclModelDef::GetAnim: the full name, else the
 * first of its alias, where the engine picks one of those at random), as a game file. */
static mc_status pick_model_anim(mc_scene *s, mc_scene_actor *a, model_base *mb,
                                 const char *base, mc_error *e)
{
    int k = 0;

    while (k < a->num_model_anims && strcmp(a->model_anims[k].name, a->anim_name) != 0)
        k++;
    for (int i = 0; k == a->num_model_anims && i < a->num_model_anims; i++)
        if (alias_is(a->model_anims[i].name, a->anim_name))
            k = i;
    if (k == a->num_model_anims)
        return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->anim_line, a->anim_col,
                            "model '%s' has no anim '%s' (%d anims declared at %s:%d)", a->model,
                            a->anim_name, a->num_model_anims, a->model_file, a->model_decl_line);
    return game_file(s, mb, base, a->model_anims[k].path, &a->anim_path, &a->anim_game, e);
}

static mc_status resolve_model(mc_scene *s, mc_scene_actor *a, model_base *mb,
                               const mc_parse_opts *opts, mc_error *e)
{
    mc_modeldef chain[MAX_MODEL_INHERIT];
    const char *files[MAX_MODEL_INHERIT];
    const char *mesh = NULL;
    char base[1024];
    int depth = 0, total = 0;
    mc_status st = open_model_base(s, a, mb, e);

    if (st == MC_OK)
        st = read_model_chain(s, a, mb, opts, chain, files, &depth, &total, e);
    if (st != MC_OK)
        return st;
    a->model_file = files[0];
    a->model_decl_line = chain[0].line;
    a->model_anims = mc_arena_alloc(&s->arena, (size_t)total + 1, sizeof *a->model_anims);
    if (!a->model_anims)
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    for (int i = depth - 1; i >= 0; i--) {
        st = apply_modeldef(a, &chain[i], files[i], &mesh, e);
        if (st != MC_OK)
            return st;
    }
    if (!mesh)
        return mc_error_set(e, MC_ERR_SYNTAX, files[0], chain[0].line, chain[0].col,
                            "model '%s' names no mesh", chain[0].name);
    snprintf(base, sizeof base, "%s/", s->base_path);
    st = game_file(s, mb, base, mesh, &a->mesh_path, &a->mesh_game, e);
    if (st != MC_OK)
        return st;
    a->mesh_line = a->model_line;
    a->mesh_col = a->model_col;
    if (!a->skin && a->model_skin) {
        a->skin = a->model_skin;
        a->skin_line = a->model_line;
        a->skin_col = a->model_col;
    }
    return a->anim_name ? pick_model_anim(s, a, mb, base, e) : MC_OK;
}

/* A mesh/anim mismatch stays at the offending joint's line in its file and names the actor
 * and the scene line of its anim: the same two files may pair well in another actor. */
static mc_status for_actor(const mc_scene *s, const mc_scene_actor *a, mc_error *e)
{
    char inner[sizeof e->msg], file[sizeof e->file];

    memcpy(inner, e->msg, sizeof inner);
    memcpy(file, e->file, sizeof file);
    return mc_error_set(e, e->code, file, e->line, e->col, "%s, in actor '%s' (%s:%d)", inner,
                        a->name, s->name, a->anim_line);
}

/* The earlier actor that loaded the file at path as its mesh (anim false) or anim, or NULL:
 * a file is read once per scene, and actors of one mesh share it (its arena is released with
 * the actor that loaded it). */
static const mc_scene_actor *loaded_by(const mc_scene *s, const mc_scene_actor *a, bool anim)
{
    const char *path = anim ? a->anim_path : a->mesh_path;

    for (const mc_scene_actor *b = s->actors; b < a; b++) {
        const char *other = anim ? b->anim_path : b->mesh_path;

        if (other && !(anim ? b->anim_shared : b->mesh_shared) && strcmp(other, path) == 0)
            return b;
    }
    return NULL;
}

/* Reads game path `game` through the base's vfs (a loose file or a .pk4 entry) into *buf, held
 * to the size a loose file may have (mc_read_file's MC_MAX_FILE_BYTES), checked on an entry's
 * declared size before it is inflated. */
static mc_status read_game_file(const model_base *mb, const char *game, char **buf, size_t *len,
                                mc_error *e)
{
    uint8_t *data;
    bool found;
    mc_status st = mc_vfs_read_max(mb->vfs, game, MC_MAX_FILE_BYTES, &data, len, &found, NULL, 0,
                                   e);

    *buf = (char *)data;
    if (st == MC_OK && !found) /* found by mc_vfs_exists in the same vfs: cannot happen */
        st = mc_error_set(e, MC_ERR_IO, NULL, 0, 0, "cannot read '%s'", game);
    return st;
}

/* The actor's mesh: a file, or a model's mesh through the base (errors at its place there,
 * "base/pak000.pk4:models/x.md5mesh:12:5"). */
static mc_status load_mesh(const model_base *mb, mc_scene_actor *a, const mc_parse_opts *opts,
                           mc_error *e)
{
    char *buf;
    size_t len;
    mc_status st;

    if (!a->mesh_game)
        return mc_mesh_load(a->mesh_path, opts, &a->mesh, e);
    st = read_game_file(mb, a->mesh_game, &buf, &len, e);
    if (st == MC_OK)
        st = mc_mesh_parse(buf, len, a->mesh_path, opts, &a->mesh, e);
    free(buf);
    return st;
}

static mc_status load_anim(const model_base *mb, mc_scene_actor *a, const mc_parse_opts *opts,
                           mc_error *e)
{
    char *buf;
    size_t len;
    mc_status st;

    if (!a->anim_game)
        return mc_anim_load(a->anim_path, opts, &a->anim, e);
    st = read_game_file(mb, a->anim_game, &buf, &len, e);
    if (st == MC_OK)
        st = mc_anim_parse(buf, len, a->anim_path, opts, &a->anim, e);
    free(buf);
    return st;
}

static mc_status resolve_actor(mc_scene *s, mc_scene_actor *a, model_base *mb,
                               const mc_parse_opts *opts, mc_error *e)
{
    const mc_scene_actor *owner;
    mc_status st;

    if (stopped(opts, e))
        return MC_ERR_INTERRUPTED;
    if (a->model && !a->mesh_path) {
        st = resolve_model(s, a, mb, opts, e);
        if (st != MC_OK)
            return st;
    }
    if ((owner = loaded_by(s, a, false)) != NULL) {
        a->mesh = owner->mesh; /* read only from here on */
        a->mesh_shared = true;
    } else if ((st = load_mesh(mb, a, opts, e)) != MC_OK) {
        return at_scene_token(s, e, a->mesh_line, a->mesh_col, "mesh");
    }
    if (a->anim_path) {
        if (stopped(opts, e))
            return MC_ERR_INTERRUPTED;
        if ((owner = loaded_by(s, a, true)) != NULL) {
            a->anim = owner->anim;
            a->anim_shared = true;
        } else if ((st = load_anim(mb, a, opts, e)) != MC_OK) {
            return at_scene_token(s, e, a->anim_line, a->anim_col, "anim");
        }
        a->joint_map = mc_arena_alloc(&s->arena, (size_t)a->mesh.num_joints, sizeof(int));
        if (!a->joint_map)
            return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
        st = mc_pose_map_anim(&a->mesh, &a->anim, a->joint_map, e);
        if (st == MC_ERR_MISMATCH)
            return for_actor(s, a, e);
        if (st != MC_OK)
            return st;
    }
    return resolve_textures(s, a, opts, e);
}

static void unload(mc_scene *s)
{
    mc_camera_release(&s->camera);
    for (int i = 0; i < s->num_actors; i++) {
        mc_scene_actor *a = &s->actors[i];

        if (!a->mesh_shared)
            mc_mesh_release(&a->mesh);
        if (!a->anim_shared)
            mc_anim_release(&a->anim);
        memset(&a->mesh, 0, sizeof a->mesh);
        memset(&a->anim, 0, sizeof a->anim);
        a->mesh_shared = a->anim_shared = false;
        a->joint_map = NULL; /* arena memory: reclaimed with the scene */
        a->textures = NULL;
    }
    s->resolved = false;
}

/* ---------------------------------------------------------------- camera block: frames */

/* The quaternion whose ToMat3 (mathx.h: the textbook matrix of (x, y, z, w)) is m, with w >= 0
 * as md5camera stores it (w is rebuilt as +sqrt). Shepperd's method: the largest of the four
 * diagonal sums decides which component is found first, so no division is by a small number. */
static mc_quat quat_from_axis(const mc_mat3 *m)
{
    const float(*a)[3] = m->m;
    float tr = a[0][0] + a[1][1] + a[2][2];
    mc_quat q;

    if (tr > 0.0f) {
        float s = 2.0f * sqrtf(1.0f + tr);
        q = (mc_quat){ (a[2][1] - a[1][2]) / s, (a[0][2] - a[2][0]) / s,
                       (a[1][0] - a[0][1]) / s, 0.25f * s };
    } else if (a[0][0] > a[1][1] && a[0][0] > a[2][2]) {
        float s = 2.0f * sqrtf(1.0f + a[0][0] - a[1][1] - a[2][2]);
        q = (mc_quat){ 0.25f * s, (a[0][1] + a[1][0]) / s, (a[0][2] + a[2][0]) / s,
                       (a[2][1] - a[1][2]) / s };
    } else if (a[1][1] > a[2][2]) {
        float s = 2.0f * sqrtf(1.0f + a[1][1] - a[0][0] - a[2][2]);
        q = (mc_quat){ (a[0][1] + a[1][0]) / s, 0.25f * s, (a[1][2] + a[2][1]) / s,
                       (a[0][2] - a[2][0]) / s };
    } else {
        float s = 2.0f * sqrtf(1.0f + a[2][2] - a[0][0] - a[1][1]);
        q = (mc_quat){ (a[0][2] + a[2][0]) / s, (a[1][2] + a[2][1]) / s, 0.25f * s,
                       (a[1][0] - a[0][1]) / s };
    }
    if (q.w < 0.0f)
        q = (mc_quat){ -q.x, -q.y, -q.z, -q.w };
    return q;
}

/* Rows forward, left, up for an eye at pos looking at target (+Z up); false when they coincide
 * or the look is straight up or down (no left). */
static bool look_axis(mc_vec3 pos, mc_vec3 target, mc_mat3 *out)
{
    mc_vec3 f = mc_v3_sub(target, pos), l, u;
    float fl = mc_v3_len(f), hl;

    if (!(fl > 0.0f))
        return false;
    f = mc_v3_scale(f, 1.0f / fl);
    l = (mc_vec3){ -f.y, f.x, 0.0f }; /* Z x F */
    hl = mc_v3_len(l);
    if (!(hl > 1e-6f))
        return false;
    l = mc_v3_scale(l, 1.0f / hl);
    u = mc_v3_cross(f, l);
    *out = (mc_mat3){ { { f.x, f.y, f.z }, { l.x, l.y, l.z }, { u.x, u.y, u.z } } };
    return true;
}

/* Eye and target of a keys shot t seconds in: linear between the keys around t. */
static void key_pose(const mc_scene_shot *sh, double t, mc_vec3 *pos, mc_vec3 *target)
{
    int k = 0;
    const mc_scene_key *a, *b;
    float u;

    while (k + 2 < sh->num_keys && t > (double)sh->keys[k + 1].time)
        k++;
    a = &sh->keys[k];
    b = &sh->keys[k + 1];
    u = (float)((t - (double)a->time) / ((double)b->time - (double)a->time));
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    *pos = mc_v3_add(a->position, mc_v3_scale(mc_v3_sub(b->position, a->position), u));
    *target = mc_v3_add(a->target, mc_v3_scale(mc_v3_sub(b->target, a->target), u));
}

static int shot_steps(const mc_scene_shot *sh, int fps)
{
    double n = floor((double)sh->seconds * fps + 0.5);

    return n < 1.0 ? 1 : (int)n;
}

static mc_status shot_center(const mc_scene *s, const mc_scene_shot *sh, mc_vec3 *c,
                             mc_error *err)
{
    if (!sh->around) {
        *c = sh->center;
        return MC_OK;
    }
    for (int i = 0; i < s->num_actors; i++) {
        if (strcmp(s->actors[i].name, sh->around) == 0) {
            *c = s->actors[i].origin;
            return MC_OK;
        }
    }
    return mc_error_set(err, MC_ERR_SYNTAX, s->name, sh->around_line, sh->around_col,
                        "orbit around '%s': no actor of that name", sh->around);
}

mc_status mc_scene_camera_build(const mc_scene *s, mc_camera *out, mc_error *err)
{
    int64_t total = 0;
    int k = 0;

    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->num_shots; i++)
        total += shot_steps(&s->shots[i], s->camera_fps) + 1;
    if (s->num_shots < 1 || total > MC_LIMIT_CAMERA_BLOCK_FRAMES)
        return mc_error_set(err, MC_ERR_LIMIT, s->name, s->camera_line, s->camera_col,
                            "camera block has %lld frames, at most %d", (long long)total,
                            MC_LIMIT_CAMERA_BLOCK_FRAMES);
    out->name = mc_arena_strndup(&out->arena, s->name, strlen(s->name));
    out->frames = mc_arena_alloc(&out->arena, (size_t)total, sizeof *out->frames);
    out->cuts = mc_arena_alloc(&out->arena, (size_t)s->num_shots, sizeof *out->cuts);
    if (!out->name || !out->frames || !out->cuts) {
        mc_camera_release(out);
        return mc_error_set(err, MC_ERR_NOMEM, s->name, s->camera_line, s->camera_col,
                            "out of memory");
    }
    out->frame_rate = s->camera_fps;
    out->num_frames = (int)total;
    for (int i = 0; i < s->num_shots; i++) {
        const mc_scene_shot *sh = &s->shots[i];
        int n = shot_steps(sh, s->camera_fps);
        mc_vec3 c = { 0.0f, 0.0f, 0.0f };
        mc_status st = sh->kind == MC_SHOT_ORBIT ? shot_center(s, sh, &c, err) : MC_OK;

        for (int j = 0; j <= n && st == MC_OK; j++, k++) {
            mc_camera_frame *f = &out->frames[k];
            mc_vec3 target = sh->target;
            mc_mat3 axis = mc_mat3_identity();

            f->pos = sh->position;
            if (sh->kind == MC_SHOT_KEYS)
                key_pose(sh, (double)sh->seconds * j / n, &f->pos, &target);
            if (sh->kind == MC_SHOT_ORBIT) {
                double a = ((double)sh->start + (double)sh->degrees * j / n) * (M_PI / 180.0);
                f->pos = (mc_vec3){ c.x + sh->radius * (float)cos(a),
                                    c.y + sh->radius * (float)sin(a), c.z + sh->height };
                target = (mc_vec3){ c.x, c.y, c.z + sh->aim };
            }
            f->fov = sh->fov;
            if (!look_axis(f->pos, target, &axis))
                st = mc_error_set(err, MC_ERR_RANGE, s->name, sh->line, sh->col,
                                  "shot %d looks from its target or straight up or down", i + 1);
            f->rot = quat_from_axis(&axis);
        }
        if (st != MC_OK) {
            mc_camera_release(out);
            return st;
        }
        if (i + 1 < s->num_shots)
            out->cuts[out->num_cuts++] = k - 1;
    }
    return MC_OK;
}

mc_status mc_scene_resolve(mc_scene *scene, const mc_parse_opts *opts, mc_error *err)
{
    mc_error local;
    mc_error *e = err ? err : &local;
    model_base mb = { 0 };
    mc_status st;

    if (scene->resolved)
        return mc_error_set(err, MC_ERR_USAGE, scene->name, 0, 0, "scene '%s' is already resolved",
                            scene->name);
    if (stopped(opts, e))
        return MC_ERR_INTERRUPTED;
    if (scene->camera_path) {
        st = mc_camera_load(scene->camera_path, opts, &scene->camera, e);
        if (st != MC_OK)
            st = at_scene_token(scene, e, scene->camera_line, scene->camera_col, "camera");
    } else {
        st = mc_scene_camera_build(scene, &scene->camera, e);
    }
    if (st != MC_OK) {
        unload(scene);
        return st;
    }
    for (int i = 0; i < scene->num_actors && st == MC_OK; i++)
        st = resolve_actor(scene, &scene->actors[i], &mb, opts, e);
    model_base_release(&mb);
    if (st != MC_OK) {
        unload(scene);
        return st;
    }
    scene->resolved = true;
    return MC_OK;
}

mc_status mc_scene_load(const char *path, const mc_parse_opts *opts, mc_scene *out, mc_error *err)
{
    char *buf;
    size_t len;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (stopped(opts, err))
        return MC_ERR_INTERRUPTED;
    st = mc_read_file(path, &buf, &len, err);
    if (st != MC_OK)
        return st;
    st = mc_scene_parse(buf, len, path, opts, out, err);
    free(buf);
    if (st != MC_OK)
        return st;
    st = mc_scene_resolve(out, opts, err);
    if (st != MC_OK)
        mc_scene_release(out);
    return st;
}

void mc_scene_release(mc_scene *scene)
{
    if (!scene)
        return;
    unload(scene);
    mc_arena_release(&scene->arena);
    memset(scene, 0, sizeof *scene);
}

/* ---------------------------------------------------------------- timing, placement */

mc_rate mc_scene_fps(const mc_scene *scene, mc_rate fps)
{
    if (fps.num >= 1 && fps.den >= 1)
        return fps;
    if (scene->fps >= 1)
        return (mc_rate){ scene->fps, 1 };
    return (mc_rate){ scene->camera.frame_rate >= 1 ? scene->camera.frame_rate : 24, 1 };
}

int64_t mc_scene_single_frame_length(const mc_scene *scene, mc_rate fps)
{
    double rate = (double)fps.num / (double)(fps.den >= 1 ? fps.den : 1);
    int64_t best = 1;

    if (scene->frames > 0)
        return scene->frames;
    for (int i = 0; i < scene->num_actors; i++) {
        const mc_scene_actor *a = &scene->actors[i];
        double frames;
        int64_t n;

        if (!a->anim_path || a->anim.num_frames < 1)
            continue;
        /* end * fps with the anim part as an exact ratio of integers; 1e-6 absorbs the
         * rounding of start * fps so that an end on a whole output frame counts. */
        frames = (double)a->start * rate +
                 (double)(a->anim.num_frames - 1) * rate / a->anim.frame_rate;
        if (frames < 0.0)
            frames = 0.0;
        if (frames > 1e12)
            frames = 1e12;
        n = (int64_t)floor(frames + 1e-6) + 1;
        if (n > best)
            best = n;
    }
    return best;
}

int64_t mc_scene_frame_count(const mc_scene *scene, mc_rate fps)
{
    return mc_timeline_frame_count(&scene->camera, fps, mc_scene_single_frame_length(scene, fps));
}

int64_t mc_scene_actor_ms(const mc_scene_actor *actor, int64_t ms)
{
    /* Far past any anim's end either way; keeps llround and the subtraction in range. */
    const double far = (double)((int64_t)1 << 40);
    double start = (double)actor->start * 1000.0;

    if (!(start > -far))
        start = -far;
    if (start > far)
        start = far;
    if (ms > ((int64_t)1 << 40))
        ms = (int64_t)1 << 40;
    return ms - (int64_t)llround(start);
}

int64_t mc_scene_frame_count_clock(const mc_scene *scene, mc_rate fps, mc_clock clock)
{
    return mc_timeline_frame_count_clock(&scene->camera, fps, clock,
                                         mc_scene_single_frame_length(scene, fps));
}

void mc_scene_actor_matrix(const mc_scene_actor *actor, mc_mat4 *out)
{
    mc_vec3 o = actor->offset;

    *out = mc_pose_placement(actor->origin, actor->yaw, actor->scale);
    if (o.x != 0.0f || o.y != 0.0f || o.z != 0.0f) {
        /* the model's offset in model space, before yaw and scale (Anim_Blend.cpp,
         * idAnimator::CreateFrame adds it to joint 0's translation) */
        out->m[12] += out->m[0] * o.x + out->m[4] * o.y + out->m[8] * o.z;
        out->m[13] += out->m[1] * o.x + out->m[5] * o.y + out->m[9] * o.z;
        out->m[14] += out->m[2] * o.x + out->m[6] * o.y + out->m[10] * o.z;
    }
}

double mc_scene_actor_time(const mc_scene_actor *actor, double t)
{
    return t - (double)actor->start;
}
