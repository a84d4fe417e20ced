/* md5cine render: posing, skinning and drawing the scene's actors. Every buffer is made by
 * mc_scene_draw_init, before the first frame; the frame loop only refills them. */
#include <stdlib.h>
#include <string.h>

#include "render_cli.h"

/* Base colour of a surface without a texture: a light grey that the lights can shade. */
static const float plain_color[4] = { 0.72f, 0.72f, 0.72f, 1.0f };

static void skin_actor(const mc_scene_actor *a, mc_actor_draw *ad)
{
    for (int s = 0; s < a->mesh.num_meshes; s++) {
        const mc_submesh *sm = &a->mesh.meshes[s];

        mc_skin_positions(sm, ad->joints, ad->pos[s]);
        mc_skin_normals(sm, &ad->topo[s], ad->pos[s], ad->nrm[s]);
    }
}

static mc_status alloc_actor(const mc_scene_actor *a, mc_actor_draw *ad, mc_error *err)
{
    int nm = a->mesh.num_meshes;

    ad->joints = calloc((size_t)a->mesh.num_joints + 1, sizeof *ad->joints);
    ad->pos = calloc((size_t)nm + 1, sizeof *ad->pos);
    ad->nrm = calloc((size_t)nm + 1, sizeof *ad->nrm);
    ad->topo = calloc((size_t)nm + 1, sizeof *ad->topo);
    ad->texture = calloc((size_t)nm + 1, sizeof *ad->texture);
    if (!ad->joints || !ad->pos || !ad->nrm || !ad->topo || !ad->texture)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int s = 0; s < nm; s++) {
        size_t nv = (size_t)a->mesh.meshes[s].num_verts + 1;
        mc_status st;

        ad->pos[s] = calloc(nv, sizeof(mc_vec3));
        ad->nrm[s] = calloc(nv, sizeof(mc_vec3));
        if (!ad->pos[s] || !ad->nrm[s])
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        st = mc_skin_topology_build(&a->mesh, s, &ad->topo[s], err);
        if (st != MC_OK)
            return st;
    }
    mc_scene_actor_matrix(a, &ad->model);
    ad->animated = a->anim_path != NULL;
    if (!ad->animated) {
        mc_pose_bind(&a->mesh, ad->joints);
        skin_actor(a, ad);
    }
    return MC_OK;
}

/* Index of path in the decoded list, or -1. */
static int find_image(const mc_scene_draw *d, const char *path)
{
    for (int i = 0; i < d->num_images; i++)
        if (strcmp(d->image_paths[i], path) == 0)
            return i;
    return -1;
}

/* Points an image error at the scene's material line naming path, when there is one. */
static void position_image_error(const mc_scene *s, const char *path, mc_error *err)
{
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        for (int m = 0; m < a->num_materials; m++) {
            if (strcmp(a->materials[m].path, path) != 0)
                continue;
            char msg[sizeof err->msg];

            snprintf(msg, sizeof msg, "%s", err->msg);
            mc_error_set(err, err->code, s->name, a->materials[m].line, a->materials[m].col, "%s",
                         msg);
            return;
        }
    }
}

static mc_status decode_textures(mc_scene_draw *d, mc_error *err)
{
    const mc_scene *s = d->scene;
    int total = 0;

    for (int i = 0; i < s->num_actors; i++)
        total += s->actors[i].mesh.num_meshes;
    d->images = calloc((size_t)total + 1, sizeof *d->images);
    d->image_paths = calloc((size_t)total + 1, sizeof *d->image_paths);
    if (!d->images || !d->image_paths)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        for (int k = 0; k < a->mesh.num_meshes; k++) {
            const char *path = a->textures ? a->textures[k] : NULL;

            if (!path || find_image(d, path) >= 0)
                continue;
            mc_status st = mc_image_load(path, &d->images[d->num_images], err);

            if (st != MC_OK) {
                position_image_error(s, path, err);
                return st;
            }
            d->image_paths[d->num_images++] = path;
        }
    }
    return MC_OK;
}

mc_status mc_scene_draw_init(mc_scene_draw *d, const mc_scene *s, mc_error *err)
{
    mc_status st;

    memset(d, 0, sizeof *d);
    d->scene = s;
    d->actors = calloc((size_t)s->num_actors + 1, sizeof *d->actors);
    if (!d->actors)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    d->num_actors = s->num_actors;
    for (int i = 0; i < s->num_actors; i++) {
        st = alloc_actor(&s->actors[i], &d->actors[i], err);
        if (st != MC_OK)
            return st;
    }
    return decode_textures(d, err);
}

mc_status mc_scene_draw_upload(mc_scene_draw *d, mc_renderer *r, mc_error *err)
{
    const mc_scene *s = d->scene;
    int *ids = calloc((size_t)d->num_images + 1, sizeof *ids);

    if (!ids)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < d->num_images; i++) {
        const mc_image *im = &d->images[i];
        mc_status st = mc_renderer_add_texture(r, im->pixels, im->width, im->height, im->stride,
                                               &ids[i], err);

        if (st != MC_OK) {
            free(ids);
            return st;
        }
        mc_image_release(&d->images[i]);
    }
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        for (int k = 0; k < a->mesh.num_meshes; k++) {
            int at = a->textures && a->textures[k] ? find_image(d, a->textures[k]) : -1;

            d->actors[i].texture[k] = at >= 0 ? ids[at] : 0;
        }
    }
    free(ids);
    return MC_OK;
}

void mc_scene_draw_pose(mc_scene_draw *d, double t)
{
    for (int i = 0; i < d->num_actors; i++) {
        const mc_scene_actor *a = &d->scene->actors[i];
        mc_actor_draw *ad = &d->actors[i];
        mc_pose_opts po = { .loop = a->loop, .in_place = a->in_place };

        if (!ad->animated)
            continue;
        mc_pose_sample(&a->mesh, &a->anim, a->joint_map, mc_scene_actor_time(a, t), &po,
                       ad->joints);
        skin_actor(a, ad);
    }
}

mc_status mc_scene_draw_submit(const mc_scene_draw *d, mc_renderer *r, mc_error *err)
{
    for (int i = 0; i < d->num_actors; i++) {
        const mc_scene_actor *a = &d->scene->actors[i];
        const mc_actor_draw *ad = &d->actors[i];

        for (int s = 0; s < a->mesh.num_meshes; s++) {
            const mc_submesh *sm = &a->mesh.meshes[s];
            mc_draw_item it;
            mc_status st;

            if (sm->num_verts == 0 || sm->num_tris == 0)
                continue;
            memset(&it, 0, sizeof it);
            it.model = ad->model;
            it.positions = ad->pos[s];
            it.normals = ad->nrm[s];
            it.texture = ad->texture[s];
            it.texcoords = it.texture > 0 ? &sm->verts[0].st.x : NULL;
            it.texcoord_stride = sizeof(mc_vert);
            it.vertex_count = sm->num_verts;
            it.indices = &sm->tris[0].v[0];
            it.triangle_count = sm->num_tris;
            memcpy(it.color, plain_color, sizeof it.color);
            st = mc_renderer_draw(r, &it, err);
            if (st != MC_OK)
                return st;
        }
    }
    return MC_OK;
}

void mc_scene_draw_release(mc_scene_draw *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->num_actors && d->actors; i++) {
        mc_actor_draw *ad = &d->actors[i];
        int nm = d->scene->actors[i].mesh.num_meshes;

        for (int s = 0; s < nm; s++) {
            if (ad->pos)
                free(ad->pos[s]);
            if (ad->nrm)
                free(ad->nrm[s]);
            if (ad->topo)
                mc_skin_topology_release(&ad->topo[s]);
        }
        free(ad->joints);
        free(ad->pos);
        free(ad->nrm);
        free(ad->topo);
        free(ad->texture);
    }
    free(d->actors);
    for (int i = 0; i < d->num_images; i++)
        mc_image_release(&d->images[i]);
    free(d->images);
    free(d->image_paths);
    memset(d, 0, sizeof *d);
}
