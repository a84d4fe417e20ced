/* The scene side of lights: the scene's lights as the renderer takes them (mc_scene_lights,
 * include/md5cine/scene_renderer.h): its own, or without any a key and a fill light placed and
 * sized by the actors' bind-pose bounds; and for the scene renderer (scene_renderer_int.h) each
 * light's material kept at create (its program, its stages' images uploaded) and evaluated per
 * frame into the frame's light passes, and the scene position of a renderer error about a
 * light. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene_renderer.h>

#include "scene_renderer_int.h"

/* Grows the box lo..hi (*any: not empty) by the world-space bind pose of actor a. */
static mc_status actor_bounds(const mc_scene_actor *a, mc_vec3 *lo, mc_vec3 *hi, bool *any,
                              mc_error *err)
{
    mc_mat4 model;

    mc_scene_actor_matrix(a, &model);
    for (int s = 0; s < a->mesh.num_meshes; s++) {
        int nv = a->mesh.meshes[s].num_verts;
        mc_vec3 *pos = calloc((size_t)nv + 1, sizeof *pos);

        if (!pos)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        mc_skin_bind_positions(&a->mesh, s, pos);
        for (int v = 0; v < nv; v++) {
            float w[4];

            mc_mat4_apply(&model, pos[v], 1.0f, w);
            if (!*any) {
                *lo = *hi = mc_v3(w[0], w[1], w[2]);
                *any = true;
            }
            lo->x = fminf(lo->x, w[0]);
            lo->y = fminf(lo->y, w[1]);
            lo->z = fminf(lo->z, w[2]);
            hi->x = fmaxf(hi->x, w[0]);
            hi->y = fmaxf(hi->y, w[1]);
            hi->z = fmaxf(hi->z, w[2]);
        }
        free(pos);
    }
    return MC_OK;
}

/* The default rig around the box lo..hi, oriented by the camera's first stored frame: a key and
 * a fill light, Doom point lights with md5cine's built-in light images (render.h); the colours
 * are before r_lightScale's 2. */
static void place_rig(const mc_scene *s, mc_vec3 lo, mc_vec3 hi, mc_light lights[2])
{
    mc_vec3 c = mc_v3_scale(mc_v3_add(lo, hi), 0.5f), f, l, up = { 0, 0, 1 }, key, fill;
    float r = fmaxf(0.5f * mc_v3_len(mc_v3_sub(hi, lo)), 64.0f);
    /* forward flattened onto the floor (world +X when the camera looks straight up or down),
     * left = up x f */
    mc_mat3 axis = mc_quat_to_mat3(s->camera.frames[0].rot);

    f = mc_v3_normalize(mc_v3(axis.m[0][0], axis.m[0][1], 0.0f));
    if (mc_v3_len(f) < 0.5f)
        f = mc_v3(1.0f, 0.0f, 0.0f);
    l = mc_v3_cross(up, f);
    key = mc_v3_normalize(mc_v3_add(mc_v3_add(mc_v3_scale(f, -1.0f), mc_v3_scale(l, 0.7f)),
                                    mc_v3_scale(up, 0.9f)));
    fill = mc_v3_normalize(mc_v3_add(mc_v3_add(mc_v3_scale(f, -1.0f), mc_v3_scale(l, -1.0f)),
                                     mc_v3_scale(up, 0.3f)));
    /* Doom point lights with md5cine's built-in light images (render.h); the colours are
     * before r_lightScale's 2. The fill casts no shadows, as Doom's level designers light
     * with shadowless fill lights (a map light's "noshadows" key, Light.cpp
     * idGameEdit::ParseSpawnArgsToRenderLight): only the key's volumes are drawn. */
    memset(lights, 0, 2 * sizeof *lights);
    lights[0].origin = mc_v3_add(c, mc_v3_scale(key, 2.0f * r));
    lights[0].color[0] = lights[0].color[1] = lights[0].color[2] = 0.8f;
    lights[0].radius = 6.0f * r;
    lights[1].origin = mc_v3_add(c, mc_v3_scale(fill, 2.0f * r));
    lights[1].color[0] = lights[1].color[1] = lights[1].color[2] = 0.25f;
    lights[1].radius = 6.0f * r;
    lights[1].no_shadows = 1;
}

static bool coord_ok(float v)
{
    return v >= -MC_LIGHT_MAX_COORD && v <= MC_LIGHT_MAX_COORD; /* false for NaN */
}

/* Whether the renderer takes the rig's two lights: origins and radii within its bounds. */
static bool rig_ok(const mc_light lights[2])
{
    for (int i = 0; i < 2; i++)
        if (!coord_ok(lights[i].origin.x) || !coord_ok(lights[i].origin.y) ||
            !coord_ok(lights[i].origin.z) || !coord_ok(lights[i].radius))
            return false;
    return true;
}

/* The rig cannot be placed around the actors' box: the error names the actor that is the
 * cause, the first whose own bounds give no rig either, else the one that reaches farthest
 * (a coordinate that is not a number counts as farthest). */
static mc_status rig_error(const mc_scene *s, mc_error *err)
{
    int worst = 0;
    float far = -1.0f;
    mc_vec3 lo = { 0, 0, 0 }, hi = { 0, 0, 0 }, wlo = lo, whi = hi;

    for (int i = 0; i < s->num_actors; i++) {
        mc_light rig[2];
        bool any = false;
        float reach;
        mc_status st;

        lo = hi = mc_v3(0.0f, 0.0f, 0.0f);
        st = actor_bounds(&s->actors[i], &lo, &hi, &any, err);
        if (st != MC_OK)
            return st;
        place_rig(s, lo, hi, rig);
        reach = fmaxf(fmaxf(fmaxf(fabsf(lo.x), fabsf(lo.y)), fmaxf(fabsf(lo.z), fabsf(hi.x))),
                      fmaxf(fabsf(hi.y), fabsf(hi.z)));
        if (!rig_ok(rig))
            reach = INFINITY;
        if (reach > far) {
            far = reach;
            worst = i;
            wlo = lo;
            whi = hi;
        }
        if (far == INFINITY)
            break;
    }
    return mc_error_set(err, MC_ERR_RANGE, s->name, s->actors[worst].line, s->actors[worst].col,
                        "the default lights (the scene has no 'light') cannot be placed around "
                        "the actors: actor '%s' spans (%g %g %g) to (%g %g %g); give the scene "
                        "lights of its own, or bring the actor nearer the origin",
                        s->actors[worst].name, (double)wlo.x, (double)wlo.y, (double)wlo.z,
                        (double)whi.x, (double)whi.y, (double)whi.z);
}

mc_status mc_scene_lights(const mc_scene *s, mc_light *lights, int *num_lights, float ambient[3],
                          mc_error *err)
{
    mc_vec3 lo = { 0, 0, 0 }, hi = { 0, 0, 0 };
    bool any = false;

    *num_lights = 0;
    if (s->num_lights > 0) {
        for (int i = 0; i < s->num_lights && i < MC_RENDER_MAX_LIGHTS; i++) {
            const mc_scene_light *sl = &s->lights[i];

            memset(&lights[i], 0, sizeof lights[i]);
            lights[i].origin = sl->origin;
            memcpy(lights[i].color, sl->color, sizeof lights[i].color);
            lights[i].radius = sl->radius;
            lights[i].box = sl->box;
            lights[i].projected = sl->projected;
            lights[i].target = sl->target;
            lights[i].right = sl->right;
            lights[i].up = sl->up;
            lights[i].start = sl->start;
            lights[i].end = sl->end;
            lights[i].no_shadows = sl->no_shadows;
        }
        *num_lights = s->num_lights < MC_RENDER_MAX_LIGHTS ? s->num_lights : MC_RENDER_MAX_LIGHTS;
        for (int i = 0; i < 3; i++)
            ambient[i] = s->has_ambient ? s->ambient[i] : 0.0f;
        return MC_OK;
    }
    for (int i = 0; i < s->num_actors; i++) {
        mc_status st = actor_bounds(&s->actors[i], &lo, &hi, &any, err);

        if (st != MC_OK)
            return st;
    }
    place_rig(s, lo, hi, lights);
    if (!rig_ok(lights))
        return rig_error(s, err);
    *num_lights = 2;
    for (int i = 0; i < 3; i++)
        ambient[i] = s->has_ambient ? s->ambient[i] : 0.1f;
    return MC_OK;
}

/* Keeps each scene light's material (mc_scene_materials.light): its program, its stages'
 * projection images and its falloff image, uploaded. A light material's stages are the light's
 * passes (tr_render.cpp, RB_CreateSingleDrawInteractions loops over them): the lights' passes
 * together may not pass MC_RENDER_MAX_LIGHTS (MC_ERR_LIMIT at the light). Its `noShadows`
 * makes the light cast none (Material.h, LightCastsShadows). */
mc_status mc_sr_keep_lights(mc_scene_renderer *sr, const mc_scene_materials *sm, bool developer,
                            const mc_parse_opts *po, mc_error *err)
{
    const mc_scene *s = sr->scene;
    int passes = 0;

    for (int i = 0; i < sr->num_lights && i < sm->num_lights; i++) {
        const mc_material *m = sm->light[i];
        const mc_scene_light *sl = &s->lights[i];
        light_src *ls = &sr->light_srcs[i];
        light_stage *grown;
        mc_status st;

        if (!m) {
            passes++;
            continue;
        }
        passes += m->num_layers;
        if (passes > MC_RENDER_MAX_LIGHTS)
            return mc_error_set(err, MC_ERR_LIMIT, s->name, sl->line, sl->col,
                                "the lights' materials give more than %d light passes (light "
                                "'%s', material '%s' has %d stages)",
                                MC_RENDER_MAX_LIGHTS, sl->name, m->name, m->num_layers);
        if ((m->flags & MC_MTR_AMBIENT_LIGHT) && po->warn) {
            mc_error w;

            mc_error_set(&w, MC_ERR_USAGE, m->file, m->line, m->col,
                         "'ambientLight' material '%s' of light '%s' is drawn as a plain light "
                         "(the scene's `ambient` line is md5cine's ambient light)",
                         m->name, sl->name);
            po->warn(po->warn_user, &w);
        }
        if (!mc_expr_program_copy(&m->expr, &ls->prog))
            return no_memory(err);
        ls->material = true;
        mc_light_parms(sl->color, ls->parms);
        if (m->flags & MC_MTR_NO_SHADOWS)
            sr->lights[i].no_shadows = 1;
        if (sm->light_falloff[i]) {
            st = mc_sr_upload_map(sr, &sm->light_falloff[i]->falloff, developer, &ls->falloff, err);
            if (st != MC_OK)
                return st;
        }
        ls->first = sr->num_light_stages;
        if (m->num_layers == 0)
            continue;
        grown = realloc(sr->light_stages,
                        ((size_t)sr->num_light_stages + (size_t)m->num_layers) * sizeof *grown);
        if (!grown)
            return no_memory(err);
        sr->light_stages = grown;
        for (int k = 0; k < m->num_layers; k++) {
            light_stage *ld = &sr->light_stages[sr->num_light_stages];

            /* a light's image is a picture projected on the scene: a cube map stage (Doom's
             * light shaders have none) gives no light here */
            if (m->layers[k].map.cube != MC_CUBE_NONE)
                continue;
            memset(ld, 0, sizeof *ld);
            st = mc_sr_upload_map(sr, &m->layers[k].map, developer, &ld->texture, err);
            if (st != MC_OK)
                return st;
            ld->expr = m->layers[k].expr;
            sr->num_light_stages++;
            ls->count++;
        }
    }
    return MC_OK;
}

/* One frame's light passes at time (seconds on the scene's clock) into sr->frame_lights; returns
 * how many. */
int mc_sr_eval_lights(mc_scene_renderer *sr, float time)
{
    int n = 0;

    for (int i = 0; i < sr->num_lights; i++) {
        const light_src *ls = &sr->light_srcs[i];

        if (!ls->material) {
            sr->frame_light_of[n] = i;
            sr->frame_lights[n++] = sr->lights[i];
            continue;
        }
        mc_expr_eval(&ls->prog, time, ls->parms, sr->regs);
        for (int k = 0; k < ls->count && n < MC_RENDER_MAX_LIGHTS; k++) {
            const light_stage *ld = &sr->light_stages[ls->first + k];
            mc_light *l = &sr->frame_lights[n];

            *l = sr->lights[i];
            if (!mc_light_stage_eval(&ld->expr, sr->regs, l->color))
                continue;
            l->projection_image = ld->texture;
            l->falloff_image = ls->falloff;
            sr->frame_light_of[n++] = i;
        }
    }
    if (n == 0 && sr->num_lights > 0) {
        /* every light material's stage is off: a black light keeps the frame lit (no light
         * at all would be the renderer's camera rig) */
        sr->frame_lights[0] = sr->lights[0];
        memset(sr->frame_lights[0].color, 0, sizeof sr->frame_lights[0].color);
        sr->frame_light_of[0] = 0;
        n = 1;
    }
    return n;
}

/* A renderer error about "light N" (mc_renderer_begin's light check) names the scene light that
 * frame light N came from, at its name in the scene file. */
void mc_sr_light_error_position(const mc_scene_renderer *sr, int num, mc_error *err)
{
    const mc_scene *s = sr->scene;
    const mc_scene_light *l;
    const char *rest;
    char *end, msg[sizeof err->msg];
    long i;

    if (!err || err->line != 0 || strncmp(err->msg, "light ", 6) != 0)
        return;
    i = strtol(err->msg + 6, &end, 10);
    if (end == err->msg + 6 || *end != ':' || i < 0 || i >= num ||
        sr->frame_light_of[i] >= s->num_lights)
        return;
    for (rest = end + 1; *rest == ' ';)
        rest++;
    snprintf(msg, sizeof msg, "%s", rest);
    l = &s->lights[sr->frame_light_of[i]];
    mc_error_set(err, err->code, s->name, l->line, l->col, "light '%s': %s", l->name, msg);
}
