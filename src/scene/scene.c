/* The .md5scene file: parse (text only), the top level and the actor and output blocks;
 * lights parse in scene_parse_lights.c, the camera block in camera_block.c, the files it names
 * load in scene_resolve.c. See include/md5cine/scene.h for the grammar and the rules. */
#include <float.h>
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

/* ---------------------------------------------------------------- output block */

/* ( r g b ), each 0 to 1. */
static bool parse_background(scene_parser *p)
{
    if (!read_triple_in(p, "background", 0.0f, 1.0f, p->s->background))
        return false;
    p->s->has_background = true;
    return true;
}

enum { O_WIDTH, O_HEIGHT, O_FPS, O_BACKGROUND, O_COUNT };
static const char *const output_keywords[O_COUNT] = { "width", "height", "fps", "background" };

static bool parse_output(scene_parser *p)
{
    seen_at seen[O_COUNT] = { { 0, 0 } };
    mc_token tok;
    int k;

    if (!expect_punct(p, "{"))
        return false;
    while ((k = block_keyword(p, &tok, "'output'", output_keywords, O_COUNT)) >= 0) {
        bool ok = once(p, &tok, &seen[k]);

        if (ok && k == O_WIDTH)
            ok = read_int_in(p, "width", MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE,
                             &p->s->width);
        else if (ok && k == O_HEIGHT)
            ok = read_int_in(p, "height", MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE,
                             &p->s->height);
        else if (ok && k == O_FPS)
            ok = read_int_in(p, "fps", MC_LIMIT_FPS_MIN, MC_LIMIT_FPS_MAX, &p->s->fps);
        else if (ok) /* O_BACKGROUND */
            ok = parse_background(p);
        if (!ok)
            return false;
    }
    return k == BLOCK_END;
}

/* ---------------------------------------------------------------- actor block */

static bool ends_with_nocase(const char *s, const char *ext)
{
    size_t n = strlen(s), e = strlen(ext);

    return n >= e && strcasecmp(s + n - e, ext) == 0;
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
    K_REBASE_ROOT, K_COUNT
};
static const char *const actor_keywords[K_COUNT + 3] = {
    "mesh", "anim", "origin", "yaw", "scale", "start", "loop", "in_place", "skin", "model",
    "rebase_root", "material", "parm", "key", /* repeatable: not in the K_ list, hints only */
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
        if (!read_triple_in(p, "origin", -FLT_MAX, FLT_MAX, v))
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
    case K_REBASE_ROOT: {
        bool on;

        if (!read_flag(p, "rebase_root", &on))
            return false;
        a->rebase_root = on;
        return true;
    }
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
    int material_cap = 0, key_cap = 0, k;
    char where[MC_LIMIT_NAME_LEN + 16];
    mc_token tok;

    memset(seen, 0, sizeof seen);
    memset(parm_seen, 0, sizeof parm_seen);
    snprintf(where, sizeof where, "actor '%s'", a->name);
    /* material, parm and key, repeatable, follow the K_ keywords in actor_keywords */
    while ((k = block_keyword(p, &tok, where, actor_keywords, K_COUNT + 3)) >= 0) {
        if (k == K_COUNT + 2) {
            if (!parse_spawnarg(p, a, &key_cap, &tok))
                return false;
        } else if (k == K_COUNT) {
            if (!parse_material(p, a, &material_cap, &tok))
                return false;
        } else if (k == K_COUNT + 1) {
            if (!parse_parm(p, a, parm_seen))
                return false;
        } else if (!once(p, &tok, &seen[k]) || !parse_actor_value(p, a, k)) {
            return false;
        }
    }
    if (k == BLOCK_FAILED)
        return false;
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
    a->rebase_root = -1;
    /* Doom's entity defaults (Entity.cpp, ParseSpawnArgsToRenderEntity): _color 1 1 1 and
     * shaderParm3 1; the others 0. */
    for (int i = 0; i < 4; i++)
        a->parms[i] = 1.0f;
    return expect_punct(p, "{") && parse_actor_body(p, a, &tok);
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

/* The top level's keywords: the unknown one's hints, the statements skip_statement stops at. */
static const char *const top_words[] = { "camera", "base",    "frames", "output", "actor",
                                         "light",  "ambient", "sound",  "seed" };

static bool parse_top_keyword(scene_parser *p, const mc_token *tok, seen_at seen[6])
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
    if (mc_lex_is(tok, "sound"))
        return parse_sound(p, tok);
    if (mc_lex_is(tok, "seed")) {
        int seed;

        if (!once(p, tok, &seen[5]) || !read_int_in(p, "seed", 0, 2147483647, &seed))
            return false;
        p->s->seed = (unsigned)seed;
        return true;
    }
    if (mc_lex_is(tok, "ambient")) {
        if (!once(p, tok, &seen[4]) ||
            !read_triple_in(p, "ambient", 0.0f, 1.0f, p->s->ambient))
            return false;
        p->s->has_ambient = true;
        return true;
    }
    char hint[80];

    return mc_lex_fail(&p->lx, tok, MC_ERR_SYNTAX, "unknown keyword %s%s",
                       mc_lex_describe(tok, d, sizeof d),
                       hint_for(tok, top_words, sizeof top_words / sizeof top_words[0], hint,
                                sizeof hint));
}

/* Reads past the statement whose first token was just read again: to its block's closing '}'
 * (braces and parentheses counted), or to the next top-level keyword outside any; false on a
 * lexical error. */
static bool skip_statement(scene_parser *p)
{
    mc_token t;
    int depth = 0;

    if (!mc_lex_next(&p->lx, &t))
        return false;
    for (;;) {
        if (t.kind == MC_TOK_PUNCT && (mc_lex_is(&t, "{") || mc_lex_is(&t, "(")))
            depth++;
        else if (t.kind == MC_TOK_PUNCT && (mc_lex_is(&t, "}") || mc_lex_is(&t, ")")))
            depth = depth > 0 ? depth - 1 : 0;
        if (depth == 0 && t.kind == MC_TOK_PUNCT && mc_lex_is(&t, "}"))
            return true;
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF)
            return true;
        if (depth == 0 && t.kind == MC_TOK_NAME)
            for (size_t i = 0; i < sizeof top_words / sizeof top_words[0]; i++)
                if (mc_lex_is(&t, top_words[i]))
                    return true;
        (void)mc_lex_next(&p->lx, &t);
    }
}

/* After the error of the statement that starts at start: when the caller takes errors
 * (mc_parse_opts.error), the error is a syntax or range error of the parser (not a lexical
 * one) and fewer than MC_LIMIT_SCENE_ERRORS came, keeps it (the one before it goes to the
 * caller) and reads on after the statement: true. */
static bool go_on(scene_parser *p, const mc_token *start)
{
    const mc_parse_opts *o = p->lx.opts;
    const mc_error *e = p->lx.err;

    if (!o || !o->error || !e || (e->code != MC_ERR_SYNTAX && e->code != MC_ERR_RANGE) ||
        p->errors + 1 >= MC_LIMIT_SCENE_ERRORS || !mc_lex_resume_at(&p->lx, start))
        return false;
    if (p->errors++ > 0)
        o->error(o->error_user, &p->pending);
    p->pending = *e;
    return skip_statement(p);
}

/* The end of a parse that went on after errors: the error held back goes to the caller before
 * a later one (failed: this is in the lexer's record), else it is the parse's error. */
static bool end_after_errors(scene_parser *p, bool failed)
{
    const mc_parse_opts *o = p->lx.opts;

    if (p->errors == 0)
        return !failed;
    if (failed)
        o->error(o->error_user, &p->pending);
    else if (p->lx.err)
        *p->lx.err = p->pending;
    return false;
}

static bool parse_scene_text(scene_parser *p)
{
    seen_at seen[6];
    mc_token head, tok;
    char d[80];

    memset(seen, 0, sizeof seen);
    if (!parse_header(p, &head))
        return false;
    for (;;) {
        bool ok;

        if (!mc_lex_next(&p->lx, &tok))
            return end_after_errors(p, true);
        if (tok.kind == MC_TOK_EOF)
            break;
        if (tok.kind != MC_TOK_NAME)
            ok = mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX, "expected a keyword, found %s",
                             mc_lex_describe(&tok, d, sizeof d));
        else
            ok = parse_top_keyword(p, &tok, seen);
        if (!ok && !go_on(p, &tok))
            return end_after_errors(p, true);
    }
    /* a camera statement that failed is no missing camera */
    if (!p->s->camera_path && p->s->num_shots == 0 && seen[0].line == 0)
        return end_after_errors(
                p, !mc_lex_fail(&p->lx, &head, MC_ERR_SYNTAX, "scene has no 'camera'"));
    return end_after_errors(p, !check_sound_actors(p));
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
    out->seed = MC_SCENE_DEFAULT_SEED;
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

bool mc_scene_actor_rebases_root(const mc_scene_actor *actor)
{
    return actor->rebase_root >= 0 ? actor->rebase_root == 1 : actor->model != NULL;
}

double mc_scene_actor_time(const mc_scene_actor *actor, double t)
{
    return t - (double)actor->start;
}

bool mc_scene_command_repeats(const mc_scene_actor *actor)
{
    return actor->loop && actor->anim.num_frames > 1;
}

double mc_scene_command_offset(const mc_scene_actor *actor, int frame, int64_t cycle,
                               double unit)
{
    double frames = (double)(frame - 1) + (double)cycle * (actor->anim.num_frames - 1);

    return frames * unit / actor->anim.frame_rate;
}

int64_t mc_scene_command_last_cycle(const mc_scene_actor *actor, int frame, double t,
                                    double unit)
{
    /* past any scene's length at any frame rate: the cycle no longer matters */
    const double far = 1e15;
    double est;
    int64_t c;

    /* a nanosecond's slack: an output frame at start + an exact ratio of the anim's frames
     * counts as reached, whatever the rounding of the subtraction t - start */
    t += unit * 1e-9;
    if (actor->anim.num_frames < 1 || actor->anim.frame_rate < 1 ||
        !(t >= mc_scene_command_offset(actor, frame, 0, unit)))
        return -1;
    if (!mc_scene_command_repeats(actor))
        return 0;
    est = (t / unit * actor->anim.frame_rate - (frame - 1)) / (actor->anim.num_frames - 1);
    if (!(est < far))
        return (int64_t)far;
    /* the estimate, then settled on the offsets themselves, so that the times agree with them
     * to the last bit */
    c = est > 0.0 ? (int64_t)floor(est) : 0;
    while (c > 0 && mc_scene_command_offset(actor, frame, c, unit) > t)
        c--;
    while (mc_scene_command_offset(actor, frame, c + 1, unit) <= t)
        c++;
    return c;
}

int mc_scene_actor_skin_at(const mc_scene_actor *actor, const mc_timeline_sample *smp)
{
    int64_t best_pos = 0, best_cycle = 0;
    int best = -1;
    double t = smp->engine_ms >= 0 ? (double)mc_scene_actor_ms(actor, smp->engine_ms)
                                   : mc_scene_actor_time(actor, smp->time);
    double unit = smp->engine_ms >= 0 ? 1000.0 : 1.0;

    for (int i = 0; i < actor->num_frame_commands; i++) {
        const mc_frame_command *fc = &actor->frame_commands[i];
        int64_t c, pos;

        if (fc->kind != MC_FC_SKIN)
            continue;
        c = mc_scene_command_last_cycle(actor, fc->frame, t, unit);
        if (c < 0)
            continue;
        /* firing order: the anim frame passed, then the cycle (the wrap), then file order */
        pos = fc->frame - 1 + c * (actor->anim.num_frames - 1);
        if (best < 0 || pos > best_pos || (pos == best_pos && c >= best_cycle)) {
            best = i;
            best_pos = pos;
            best_cycle = c;
        }
    }
    return best;
}

bool mc_scene_actor_has_skin_commands(const mc_scene_actor *actor)
{
    for (int i = 0; i < actor->num_frame_commands; i++)
        if (actor->frame_commands[i].kind == MC_FC_SKIN)
            return true;
    return false;
}
