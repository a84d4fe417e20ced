/* The .md5scene file: the light block. */
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
#include "scene/scene_parse.h"

/* ---------------------------------------------------------------- lights */

/* Light keywords, each at most once, in the order of the grammar. */
enum {
    L_ORIGIN, L_COLOR, L_RADIUS, L_BOX, L_TARGET, L_RIGHT, L_UP, L_START, L_END, L_NOSHADOWS,
    L_SHADER, L_COUNT
};
static const char *const light_keywords[L_COUNT] = {
    "origin", "color", "radius", "light_radius", "target", "right", "up", "start",
    "end", "noShadows", "shader",
};

/* Reads a light's "( x y z )" vector, named what. */
static bool light_vec(scene_parser *p, const char *what, float lo, mc_vec3 *out)
{
    float v[3];

    if (!read_triple_in(p, what, lo, LIGHT_ORIGIN_MAX, v))
        return false;
    *out = (mc_vec3){ v[0], v[1], v[2] };
    return true;
}

/* The value of keyword k (a light_keywords index). */
static bool parse_light_value(scene_parser *p, mc_scene_light *l, int k)
{
    mc_vec3 *const vecs[] = { [L_ORIGIN] = &l->origin, [L_TARGET] = &l->target,
                              [L_RIGHT] = &l->right,   [L_UP] = &l->up,
                              [L_START] = &l->start,   [L_END] = &l->end };
    mc_token vt;
    const char *text;
    size_t len;
    int v;

    switch (k) {
    case L_COLOR:
        return read_triple_in(p, "color", 0.0f, LIGHT_COLOR_MAX, l->color);
    case L_RADIUS:
        if (!mc_lex_float(&p->lx, &l->radius, &vt))
            return false;
        if (!(l->radius > 0.0f && l->radius <= LIGHT_RADIUS_MAX))
            return mc_lex_fail(&p->lx, &vt, MC_ERR_RANGE,
                               "invalid 'radius' %g, expected above 0 and at most %g",
                               (double)l->radius, (double)LIGHT_RADIUS_MAX);
        return true;
    case L_BOX: {
        float b[3];

        if (!read_triple_in(p, "light_radius", 1e-3f, LIGHT_RADIUS_MAX, b))
            return false;
        l->box = (mc_vec3){ b[0], b[1], b[2] };
        return true;
    }
    case L_NOSHADOWS:
        if (!mc_lex_int(&p->lx, &v, &vt))
            return false;
        if (v != 0 && v != 1)
            return mc_lex_fail(&p->lx, &vt, MC_ERR_RANGE, "'noShadows' is 0 or 1, not %d", v);
        l->no_shadows = v == 1;
        return true;
    case L_SHADER:
        if (!mc_lex_string(&p->lx, &text, &len, &vt))
            return false;
        if (len == 0 || len > MC_LIMIT_NAME_LEN)
            return mc_lex_fail(&p->lx, &vt, MC_ERR_SYNTAX,
                               "invalid light shader name, expected 1 to %d bytes",
                               MC_LIMIT_NAME_LEN);
        l->shader = mc_lex_strdup(&p->lx, &p->s->arena, text, len);
        l->shader_line = vt.line;
        l->shader_col = vt.col;
        return l->shader != NULL;
    default:
        return light_vec(p, light_keywords[k], -LIGHT_ORIGIN_MAX, vecs[k]);
    }
}

/* A projected light's rules, once its block is read (seen: where each keyword was given). */
static bool check_projected(scene_parser *p, mc_scene_light *l, const mc_token *name_tok,
                            const seen_at *seen)
{
    /* tr_lightrun.cpp R_SetLightProject needs all three, right and up not parallel, and
     * target off their plane */
    mc_vec3 n = mc_v3_cross(l->up, l->right);

    if (!seen[L_TARGET].line || !seen[L_RIGHT].line || !seen[L_UP].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "projected light '%s' needs 'target', 'right' and 'up'", l->name);
    if (!(mc_v3_len(n) > 0.0f) || !(fabsf(mc_v3_dot(n, l->target)) > 0.0f))
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_RANGE,
                           "projected light '%s': 'right' and 'up' must span a plane that "
                           "'target' is off",
                           l->name);
    if (seen[L_RADIUS].line || seen[L_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "projected light '%s' takes no 'radius' or 'light_radius'", l->name);
    /* Light.cpp: light_start defaults to 0 0 0 and light_end to light_target, each on its
     * own */
    if (!seen[L_END].line)
        l->end = l->target;
    if (mc_v3_len(mc_v3_sub(l->end, l->start)) <= 0.0f)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_RANGE,
                           "projected light '%s': 'start' and 'end' are the same point", l->name);
    return true;
}

/* The rules between keywords, once the block is read. */
static bool check_light(scene_parser *p, mc_scene_light *l, const mc_token *name_tok,
                        const seen_at *seen)
{
    if (!seen[L_ORIGIN].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX, "light '%s' has no 'origin'", l->name);
    l->projected = seen[L_TARGET].line || seen[L_RIGHT].line || seen[L_UP].line;
    if (l->projected)
        return check_projected(p, l, name_tok, seen);
    if (seen[L_START].line || seen[L_END].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s': 'start' and 'end' need 'target', 'right' and 'up'",
                           l->name);
    if (!seen[L_RADIUS].line && !seen[L_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s' has no 'radius' or 'light_radius'", l->name);
    if (seen[L_RADIUS].line && seen[L_BOX].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX,
                           "light '%s' has both 'radius' and 'light_radius'", l->name);
    return true;
}

static bool parse_light_body(scene_parser *p, mc_scene_light *l, const mc_token *name_tok)
{
    seen_at seen[L_COUNT] = { { 0, 0 } };
    char where[MC_LIMIT_NAME_LEN + 16];
    mc_token tok;
    int k;

    snprintf(where, sizeof where, "light '%s'", l->name);
    while ((k = block_keyword(p, &tok, where, light_keywords, L_COUNT)) >= 0)
        if (!once(p, &tok, &seen[k]) || !parse_light_value(p, l, k))
            return false;
    if (k == BLOCK_FAILED)
        return false;
    return check_light(p, l, name_tok, seen);
}

bool parse_light(scene_parser *p, const mc_token *kw)
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
