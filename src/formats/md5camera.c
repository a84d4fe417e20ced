#include <md5cine/md5camera.h>

#include <stdlib.h>
#include <string.h>

#include <md5cine/limits.h>
#include <md5cine/mathx.h>

#include "lex.h"

#define MAX_FRAMES MC_LIMIT_CAMERA_FRAMES

/* Fewest bytes of text per camera frame: '(0 0 0)(0 0 0)0' = 15; per cut: one digit. */
#define FRAME_BYTES 12
#define CUT_BYTES 1

typedef struct camera_parser {
    mc_lexer lx;
    mc_camera *c;
} camera_parser;

static bool parse_counts(camera_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_camera *c = p->c;
    mc_token t;

    if (!mc_lex_md5_header(lx) ||
        !mc_lex_count(lx, "numFrames", 1, MAX_FRAMES, FRAME_BYTES, &c->num_frames, NULL) ||
        !mc_lex_keyword_int(lx, "frameRate", &c->frame_rate, &t))
        return false;
    /* The output rate defaults to the camera's: it is held to the encoder's range. */
    if (c->frame_rate < MC_LIMIT_FPS_MIN || c->frame_rate > MC_LIMIT_FPS_MAX)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE, "invalid 'frameRate' %d, expected %d to %d",
                           c->frame_rate, MC_LIMIT_FPS_MIN, MC_LIMIT_FPS_MAX);
    if (!mc_lex_count(lx, "numCuts", 0, MAX_FRAMES, CUT_BYTES, &c->num_cuts, &t))
        return false;
    if (c->num_cuts > c->num_frames)
        return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                           "invalid 'numCuts' %d, expected at most 'numFrames' (%d)", c->num_cuts,
                           c->num_frames);
    return true;
}

static bool parse_cuts(camera_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_camera *c = p->c;

    c->cuts = mc_lex_block(lx, "cuts", &c->arena, (size_t)c->num_cuts, sizeof *c->cuts);
    if (lx->failed)
        return false;
    for (int i = 0; i < c->num_cuts; i++) {
        mc_token t;
        int v;

        if (!mc_lex_int(lx, &v, &t))
            return false;
        if (c->num_frames == 1)
            return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                               "cut %d is out of range: a camera with one frame has no cuts", v);
        if (v < 1 || v > c->num_frames - 1)
            return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                               "cut %d is out of range: cuts are 1 to %d ('numFrames' - 1)", v,
                               c->num_frames - 1);
        if (i > 0 && v <= c->cuts[i - 1])
            return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                               "cut %d does not come after the cut before it (%d): cuts must be "
                               "strictly increasing",
                               v, c->cuts[i - 1]);
        c->cuts[i] = v;
    }
    return mc_lex_expect(lx, "}");
}

static bool parse_frames(camera_parser *p)
{
    mc_lexer *lx = &p->lx;
    mc_camera *c = p->c;

    c->frames = mc_lex_block(lx, "camera", &c->arena, (size_t)c->num_frames, sizeof *c->frames);
    if (lx->failed)
        return false;
    for (int i = 0; i < c->num_frames; i++) {
        mc_camera_frame *f = &c->frames[i];
        mc_token t;
        float v[6];

        if (!mc_lex_vec(lx, 3, v) || !mc_lex_vec(lx, 3, v + 3) ||
            !mc_lex_float(lx, &f->fov, &t))
            return false;
        /* Not a check of Doom's loader, but a projection with such a fov is degenerate. */
        if (!(f->fov > 0.0f && f->fov < 180.0f))
            return mc_lex_fail(lx, &t, MC_ERR_RANGE,
                               "field of view %g of camera frame %d is out of range: expected "
                               "more than 0 and less than 180 degrees",
                               (double)f->fov, i);
        f->pos = (mc_vec3){ v[0], v[1], v[2] };
        f->rot = mc_quat_from_xyz(v[3], v[4], v[5]);
    }
    return mc_lex_expect(lx, "}");
}

static bool parse_camera_file(void *ctx)
{
    camera_parser *p = ctx;

    return parse_counts(p) && parse_cuts(p) && parse_frames(p) && mc_lex_expect_eof(&p->lx);
}

/* The parse target for out through a fresh parser p. */
static mc_lex_target camera_target(camera_parser *p, mc_camera *out)
{
    *p = (camera_parser){ .c = out };
    return (mc_lex_target){ &p->lx, out, sizeof *out, &out->arena, &out->name, parse_camera_file,
                            p };
}

mc_status mc_camera_parse(const char *buf, size_t len, const char *name,
                          const mc_parse_opts *opts, mc_camera *out, mc_error *err)
{
    camera_parser p;

    return mc_lex_parse_into(camera_target(&p, out), buf, len, name, opts, err);
}

mc_status mc_camera_load(const char *path, const mc_parse_opts *opts, mc_camera *out,
                         mc_error *err)
{
    camera_parser p;

    return mc_lex_load_into(camera_target(&p, out), path, opts, err);
}

void mc_camera_release(mc_camera *cam)
{
    if (cam)
        mc_lex_release(&cam->arena, cam, sizeof *cam);
}
