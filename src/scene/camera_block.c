/* The .md5scene file: the camera block, parsed and built into a camera (mc_scene_camera_build). */
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
bool parse_camera_block(scene_parser *p)
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
    char hint[MC_LIMIT_NAME_LEN + 32];

    return mc_error_set(err, MC_ERR_SYNTAX, s->name, sh->around_line, sh->around_col,
                        "orbit around '%s': no actor of that name%s", sh->around,
                        actor_hint(s, sh->around, hint, sizeof hint));
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
