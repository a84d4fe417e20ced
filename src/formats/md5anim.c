#include <md5cine/md5anim.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/limits.h>
#include <md5cine/mathx.h>

#include "lex.h"

#define MAX_JOINTS MC_LIMIT_ANIM_JOINTS
#define MAX_FRAMES MC_LIMIT_ANIM_FRAMES

/* Fewest bytes of text per item: a frame needs at least 'frame 0{}' (9) and a joint a
 * hierarchy line 'a 0 0 0' (7) plus a baseframe line '(0 0 0)(0 0 0)' (14). Each value of a
 * frame takes at least two bytes (a digit and a separator or the closing brace). */
#define FRAME_BYTES 8
#define JOINT_BYTES 16

typedef struct anim_parser {
    mc_lexer lx;
    mc_anim *a;
} anim_parser;

static int popcount6(int flags)
{
    int n = 0;

    for (int b = 0; b < 6; b++)
        n += (flags >> b) & 1;
    return n;
}

static bool parse_counts(anim_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_anim *a = p->a;
    mc_token t;
    uint64_t need;

    if (!mc_lex_md5_header(lx) ||
        !mc_lex_count(lx, "numFrames", 1, MAX_FRAMES, FRAME_BYTES, &a->num_frames, NULL) ||
        !mc_lex_count(lx, "numJoints", 1, MAX_JOINTS, JOINT_BYTES, &a->num_joints, NULL) ||
        !mc_lex_keyword_int(lx, "frameRate", &a->frame_rate, &t))
        return false;
    if (a->frame_rate < 1)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "invalid 'frameRate' %d, expected at least 1",
                           a->frame_rate);
    if (!mc_lex_keyword_int(lx, "numAnimatedComponents", &a->num_components, &t))
        return false;
    if (a->num_components < 0 || a->num_components > 6 * a->num_joints)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                           "invalid 'numAnimatedComponents' %d, expected 0 to %d (6 per joint)",
                           a->num_components, 6 * a->num_joints);
    need = (uint64_t)a->num_frames * (uint64_t)a->num_components * 2u;
    if (need > mc_lex_remaining(lx))
        return mc_lex_fail(lx, &t, MC_ERR_LIMIT,
                           "%d frames of %d values need at least %llu bytes but only %zu remain "
                           "in the file",
                           a->num_frames, a->num_components, (unsigned long long)need,
                           mc_lex_remaining(lx));
    return true;
}

/* One hierarchy line: name parent flags first. */
static bool parse_joint(anim_parser *p, int i)
{
    mc_lexer *lx = &p->lx;
    mc_anim_joint *j = &p->a->joints[i];
    mc_token nt, pt, ft, st;
    const char *text;
    size_t len;
    char d[80];

    if (!mc_lex_string(lx, &text, &len, &nt) || !mc_lex_int(lx, &j->parent, &pt) ||
        !mc_lex_int(lx, &j->flags, &ft) || !mc_lex_int(lx, &j->first, &st))
        return false;
    mc_lex_describe(&nt, d, sizeof d);
    if (j->parent == -1 && i > 0) {
        if (!mc_lex_lenient(lx))
            return mc_lex_fail(lx, &pt, MC_ERR_RANGE,
                               "joint %d %s is a second root: only the first joint may have "
                               "parent -1 (lenient mode accepts this)",
                               i, d);
        mc_lex_warn(lx, &pt, MC_ERR_RANGE, "joint %d %s is a second root (parent -1)", i, d);
    } else if (j->parent < -1 || j->parent >= i) {
        return mc_lex_fail(lx, &pt, MC_ERR_RANGE,
                           "invalid parent %d for joint %d %s: a parent is an earlier joint", j->parent,
                           i, d);
    }
    if (j->flags < 0 || j->flags > 63)
        return mc_lex_fail(lx, &ft, MC_ERR_RANGE, "invalid flags %d for joint %s, expected 0 to 63",
                           j->flags, d);
    if (j->first < 0 || (int64_t)j->first + popcount6(j->flags) > p->a->num_components)
        return mc_lex_fail(lx, &st, MC_ERR_RANGE,
                           "joint %s reads values %d to %lld but frames have %d "
                           "('numAnimatedComponents')",
                           d, j->first, (long long)j->first + popcount6(j->flags) - 1,
                           p->a->num_components);
    j->name = mc_lex_strdup(lx, &p->a->arena, text, len);
    j->line = nt.line;
    j->col = nt.col;
    return j->name != NULL;
}

static bool parse_hierarchy(anim_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_anim *a = p->a;

    a->joints = mc_lex_block(lx, "hierarchy", &a->arena, (size_t)a->num_joints, sizeof *a->joints);
    if (lx->failed)
        return false;
    for (int i = 0; i < a->num_joints; i++)
        if (!parse_joint(p, i))
            return false;
    return mc_lex_expect(lx, "}");
}

/* Reads bounds entries until '}'; keeps at most num_frames of them. A different count is an
 * error at the first token that shows it, or a warning with --lenient. */
static bool parse_bounds(anim_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_anim *a = p->a;
    mc_token t, off = { .kind = MC_TOK_EOF };
    int count = 0;

    a->bounds = mc_lex_block(lx, "bounds", &a->arena, (size_t)a->num_frames, sizeof *a->bounds);
    if (lx->failed || !mc_lex_peek(lx, &t))
        return false;
    while (mc_lex_is(&t, "(")) {
        float v[6];

        if (count == a->num_frames && off.kind == MC_TOK_EOF)
            off = t;
        if (!mc_lex_vec(lx, 3, v) || !mc_lex_vec(lx, 3, v + 3) || !mc_lex_peek(lx, &t))
            return false;
        if (count < a->num_frames)
            a->bounds[count] = (mc_bounds){ { v[0], v[1], v[2] }, { v[3], v[4], v[5] } };
        if (count < INT32_MAX)
            count++;
    }
    if (count < a->num_frames)
        off = t;
    if (!mc_lex_expect(lx, "}"))
        return false;
    a->num_bounds = count < a->num_frames ? count : a->num_frames;
    if (count == a->num_frames)
        return true;
    if (!mc_lex_lenient(lx))
        return mc_lex_fail(lx, &off, MC_ERR_RANGE,
                           "'bounds' has %d entr%s but 'numFrames' is %d (lenient mode accepts "
                           "this)",
                           count, count == 1 ? "y" : "ies", a->num_frames);
    mc_lex_warn(lx, &off, MC_ERR_RANGE, "'bounds' has %d entr%s but 'numFrames' is %d", count,
                count == 1 ? "y" : "ies", a->num_frames);
    return true;
}

static bool parse_baseframe(anim_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_anim *a = p->a;
    size_t n = (size_t)a->num_joints;

    a->base_pos = mc_lex_block(lx, "baseframe", &a->arena, n, sizeof *a->base_pos);
    a->base_rot = lx->failed ? NULL : mc_lex_alloc(lx, &a->arena, n, sizeof *a->base_rot);
    if (lx->failed)
        return false;
    for (size_t i = 0; i < n; i++) {
        float v[6];

        if (!mc_lex_vec(lx, 3, v) || !mc_lex_vec(lx, 3, v + 3))
            return false;
        a->base_pos[i] = (mc_vec3){ v[0], v[1], v[2] };
        a->base_rot[i] = mc_quat_from_xyz(v[3], v[4], v[5]);
    }
    return mc_lex_expect(lx, "}");
}

/* frame k { num_components values } */
static bool parse_frame(anim_parser *p, int k, float *values)
{
    mc_lexer *lx = &p->lx;
    int n = p->a->num_components, num, extra = 0;
    mc_token t, first_extra;

    if (!mc_lex_expect(lx, "frame") || !mc_lex_int(lx, &num, &t))
        return false;
    if (num != k)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "'frame' number %d is out of order, expected %d",
                           num, k);
    if (!mc_lex_expect(lx, "{"))
        return false;
    for (int i = 0; i < n; i++) {
        if (!mc_lex_peek(lx, &t))
            return false;
        if (mc_lex_is(&t, "}"))
            return mc_lex_fail(lx, &t, MC_ERR_RANGE, "frame %d has %d values, expected %d", k, i,
                               n);
        if (!mc_lex_float(lx, &values[i], NULL))
            return false;
    }
    if (!mc_lex_peek(lx, &first_extra))
        return false;
    for (t = first_extra; t.kind == MC_TOK_NUMBER; extra++) {
        if (!mc_lex_next(lx, &t) || !mc_lex_peek(lx, &t))
            return false;
    }
    if (extra > 0)
        return mc_lex_fail(lx, &first_extra, MC_ERR_RANGE, "frame %d has %lld values, expected %d",
                           k, (long long)n + extra, n);
    return mc_lex_expect(lx, "}");
}

static bool parse_anim_file(void *ctx)
{
    anim_parser *p = ctx;
    mc_lexer *lx = &p->lx;
    mc_anim *a = p->a;

    if (!parse_counts(p) || !parse_hierarchy(p) || !parse_bounds(p) || !parse_baseframe(p))
        return false;
    a->frames = mc_lex_alloc(lx, &a->arena, (size_t)a->num_frames * (size_t)a->num_components,
                             sizeof *a->frames);
    if (lx->failed)
        return false;
    for (int k = 0; k < a->num_frames; k++) {
        float *values = a->frames ? a->frames + (size_t)k * (size_t)a->num_components : NULL;

        if (!parse_frame(p, k, values))
            return false;
    }
    return mc_lex_expect_eof(lx);
}

/* The parse target for out through a fresh parser p. */
static mc_lex_target anim_target(anim_parser *p, mc_anim *out)
{
    *p = (anim_parser){ .a = out };
    return (mc_lex_target){ &p->lx, out, sizeof *out, &out->arena, &out->name, parse_anim_file, p };
}

mc_status mc_anim_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                        mc_anim *out, mc_error *err)
{
    anim_parser p;

    return mc_lex_parse_into(anim_target(&p, out), buf, len, name, opts, err);
}

mc_status mc_anim_load(const char *path, const mc_parse_opts *opts, mc_anim *out, mc_error *err)
{
    anim_parser p;

    return mc_lex_load_into(anim_target(&p, out), path, opts, err);
}

void mc_anim_release(mc_anim *anim)
{
    if (anim)
        mc_lex_release(&anim->arena, anim, sizeof *anim);
}

void mc_anim_rebase_root(mc_anim *anim)
{
    const mc_anim_joint *root = &anim->joints[0];
    const float base[3] = { anim->base_pos[0].x, anim->base_pos[0].y, anim->base_pos[0].z };
    int c = root->first;

    /* the components in the file's order, Tx Ty Tz first; frames are num_components apart */
    for (int axis = 0; axis < 3 && anim->num_components > 0; axis++) {
        if (!(root->flags & (MC_ANIM_TX << axis)))
            continue;
        for (int f = 0; f < anim->num_frames; f++)
            anim->frames[(size_t)f * (size_t)anim->num_components + (size_t)c] -= base[axis];
        c++;
    }
    anim->base_pos[0] = (mc_vec3){ 0.0f, 0.0f, 0.0f };
}
