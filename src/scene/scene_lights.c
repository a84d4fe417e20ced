/* The scene side of lights: the scene's lights as the renderer takes them (mc_scene_lights,
 * include/md5cine/scene_renderer.h): its own, or without any a key and a fill light placed and
 * sized by the actors' bind-pose bounds. The renderer's side (material stages, images) stays in
 * scene_renderer.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene_renderer.h>

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

mc_status mc_scene_lights(const mc_scene *s, mc_light *lights, int *num_lights, float ambient[3],
                          mc_error *err)
{
    mc_vec3 lo = { 0, 0, 0 }, hi = { 0, 0, 0 }, c, f, l, up = { 0, 0, 1 }, key, fill;
    mc_mat3 axis;
    bool any = false;
    float r;

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
    c = mc_v3_scale(mc_v3_add(lo, hi), 0.5f);
    r = fmaxf(0.5f * mc_v3_len(mc_v3_sub(hi, lo)), 64.0f);
    /* The camera's first stored frame gives the rig its orientation, once: forward flattened
     * onto the floor (world +X when the camera looks straight up or down), left = up x f. */
    axis = mc_quat_to_mat3(s->camera.frames[0].rot);
    f = mc_v3_normalize(mc_v3(axis.m[0][0], axis.m[0][1], 0.0f));
    if (mc_v3_len(f) < 0.5f)
        f = mc_v3(1.0f, 0.0f, 0.0f);
    l = mc_v3_cross(up, f);
    key = mc_v3_normalize(mc_v3_add(mc_v3_add(mc_v3_scale(f, -1.0f), mc_v3_scale(l, 0.7f)),
                                    mc_v3_scale(up, 0.9f)));
    fill = mc_v3_normalize(mc_v3_add(mc_v3_add(mc_v3_scale(f, -1.0f), mc_v3_scale(l, -1.0f)),
                                     mc_v3_scale(up, 0.3f)));
    /* Doom point lights with md5cine's built-in light images (render.h); the colours are
     * before r_lightScale's 2 */
    memset(lights, 0, 2 * sizeof *lights);
    lights[0].origin = mc_v3_add(c, mc_v3_scale(key, 2.0f * r));
    lights[0].color[0] = lights[0].color[1] = lights[0].color[2] = 0.8f;
    lights[0].radius = 6.0f * r;
    lights[1].origin = mc_v3_add(c, mc_v3_scale(fill, 2.0f * r));
    lights[1].color[0] = lights[1].color[1] = lights[1].color[2] = 0.25f;
    lights[1].radius = 6.0f * r;
    *num_lights = 2;
    for (int i = 0; i < 3; i++)
        ambient[i] = s->has_ambient ? s->ambient[i] : 0.1f;
    return MC_OK;
}
