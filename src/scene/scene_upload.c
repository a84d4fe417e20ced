/* The scene renderer's uploads (scene_renderer_int.h): the scene's texture images, decoded before
 * the GL context exists and uploaded once it does, and a material's maps and unlit stages. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/image.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/scene_renderer.h>

#include "scene_renderer_int.h"

/* Index of path in the set, or -1. */
static int find_image(const texture_set *ts, const char *path)
{
    for (int i = 0; i < ts->count; i++)
        if (strcmp(ts->paths[i], path) == 0)
            return i;
    return -1;
}

/* Points an image error at the scene's material line naming path, when there is one. */
static void position_image_error(const mc_scene *s, const char *path, mc_error *err)
{
    if (!err)
        return;
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

void mc_sr_release_textures(texture_set *ts)
{
    for (int i = 0; i < ts->count; i++)
        mc_image_release(&ts->images[i]);
    free(ts->images);
    free(ts->paths);
    free(ts->ids);
    memset(ts, 0, sizeof *ts);
}

/* Decodes every distinct texture the scene resolved, each counted once against the image budget
 * (mc_parse_opts.image_pixels) that the materials' images share. */
mc_status mc_sr_decode_textures(const mc_scene *s, unsigned long long budget, texture_set *ts,
                                mc_error *err)
{
    int total = 0;

    for (int i = 0; i < s->num_actors; i++)
        total += s->actors[i].mesh.num_meshes;
    ts->images = calloc((size_t)total + 1, sizeof *ts->images);
    ts->paths = calloc((size_t)total + 1, sizeof *ts->paths);
    ts->ids = calloc((size_t)total + 1, sizeof *ts->ids);
    if (!ts->images || !ts->paths || !ts->ids)
        return no_memory(err);
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        for (int k = 0; k < a->mesh.num_meshes; k++) {
            const char *path = a->textures ? a->textures[k] : NULL;
            mc_status st;

            if (!path || find_image(ts, path) >= 0)
                continue;
            st = mc_image_file_load(path, budget, &ts->pixels, &ts->images[ts->count], err);
            if (st != MC_OK) {
                position_image_error(s, path, err);
                return st;
            }
            ts->paths[ts->count++] = path;
        }
    }
    return MC_OK;
}

/* Uploads the decoded images (freeing each once it is on the GL side) and gives every
 * submesh its texture id. */
mc_status mc_sr_upload_textures(mc_scene_renderer *sr, texture_set *ts, mc_error *err)
{
    const mc_scene *s = sr->scene;

    for (int i = 0; i < ts->count; i++) {
        const mc_image *im = &ts->images[i];
        mc_status st = mc_renderer_add_texture(sr->r, im->pixels, im->width, im->height, im->stride,
                                               &ts->ids[i], err);

        if (st != MC_OK)
            return st;
        mc_image_release(&ts->images[i]);
    }
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        for (int k = 0; k < a->mesh.num_meshes; k++) {
            int at = a->textures && a->textures[k] ? find_image(ts, a->textures[k]) : -1;

            sr->actors[i].surf[k].texture = at >= 0 ? ts->ids[at] : 0;
        }
    }
    return MC_OK;
}

void mc_sr_forget_uploads(mc_scene_renderer *sr)
{
    free(sr->up_pixels);
    free(sr->up_ids);
    sr->up_pixels = NULL;
    sr->up_ids = NULL;
    sr->num_up = sr->cap_up = 0;
}

/* Records that the texture id holds the pixels at key. */
static mc_status remember_upload(mc_scene_renderer *sr, const void *key, int id, mc_error *err)
{
    if (sr->num_up == sr->cap_up) {
        int cap = sr->cap_up ? sr->cap_up * 2 : 16;
        const void **p = realloc(sr->up_pixels, (size_t)cap * sizeof *p);
        int *ids;

        if (!p)
            return no_memory(err);
        sr->up_pixels = p;
        ids = realloc(sr->up_ids, (size_t)cap * sizeof *ids);
        if (!ids)
            return no_memory(err);
        sr->up_ids = ids;
        sr->cap_up = cap;
    }
    sr->up_pixels[sr->num_up] = key;
    sr->up_ids[sr->num_up++] = id;
    return MC_OK;
}

/* Uploads a map (none: *id 0). One that fell back to `_default` is all zero, alpha 0 included,
 * unless developer images are asked for (Image_init.cpp, idImage::MakeDefault: the box only with
 * com_developer): black in a lit or opaque stage, nothing where it is blended or alpha tested.
 * A clamping stage's texture clamps. A map sharing its pixels with one already uploaded (the
 * same image and clamp mode of a material set) takes that one's texture. */
mc_status mc_sr_upload_map(mc_scene_renderer *sr, const mc_material_map *m, bool developer, int *id,
                           mc_error *err)
{
    static const uint8_t black[4] = { 0, 0, 0, 0 }, black_cube[24] = { 0 };
    const void *key;
    mc_status st;

    *id = 0;
    if (!m->present || !m->image.pixels)
        return MC_OK;
    /* the built-in named on its own (the default material's `map _default`) is the same
     * image as a missing one's */
    if ((m->fell_back || (m->program && strcasecmp(m->program, "_default") == 0)) && !developer)
        key = m->cube != MC_CUBE_NONE ? (const void *)black_cube : black;
    else
        key = m->shared ? (const void *)m->image.pixels : NULL;
    for (int i = 0; key && i < sr->num_up; i++)
        if (sr->up_pixels[i] == key)
            return *id = sr->up_ids[i], MC_OK;
    if (key == black_cube)
        st = mc_renderer_add_cube_texture(sr->r, black_cube, 1, 4, id, err);
    else if (key == black)
        st = mc_renderer_add_texture(sr->r, black, 1, 1, 4, id, err);
    else if (m->cube != MC_CUBE_NONE)
        st = mc_renderer_add_cube_texture(sr->r, m->image.pixels, m->image.width,
                                          m->image.stride, id, err);
    else
        st = mc_renderer_add_texture(sr->r, m->image.pixels, m->image.width, m->image.height,
                                     m->image.stride, id, err);
    if (st == MC_OK && key != black && key != black_cube && m->cube == MC_CUBE_NONE &&
        m->wrap != MC_WRAP_REPEAT)
        st = mc_renderer_texture_clamp(sr->r, *id, err);
    if (st == MC_OK && key)
        st = remember_upload(sr, key, *id, err);
    return st;
}

/* Image_files.cpp R_LoadCubeImages: a face missing, or of another size, fails the whole cube
 * map, and the engine's default image stands in (drawn black without developer images). */
static void warn_cube(mc_scene_renderer *sr, const mc_material *m, const mc_material_map *map)
{
    mc_error w;

    if (!sr->warn)
        return;
    mc_error_set(&w, MC_ERR_IMAGE, m->file ? m->file : "", m->line, m->col,
                 "material '%s': %s is incomplete (%s); the default image stands in",
                 m->name ? m->name : "", map->program ? map->program : "cube map",
                 map->sources ? map->sources : "");
    sr->warn(sr->warn_user, &w);
}

/* Keeps what material m needs per frame as sr->mats[sr->num_mats]: its expression program and
 * its unlit stages, each map uploaded. */
mc_status mc_sr_keep_stages(mc_scene_renderer *sr, const mc_material *m, bool developer,
                            mc_error *err)
{
    kept_material *km = &sr->mats[sr->num_mats];
    stage_src *grown;

    if (!mc_expr_program_copy(&m->expr, &km->prog))
        return no_memory(err);
    sr->num_mats++;
    km->name = strdup(m->name ? m->name : "");
    km->file = m->file ? strdup(m->file) : NULL;
    if (!km->name || (m->file && !km->file))
        return no_memory(err);
    km->line = m->line;
    km->col = m->col;
    km->first = sr->num_stage_srcs;
    if (m->num_layers == 0)
        return MC_OK;
    if (sr->num_stage_srcs + m->num_layers > sr->cap_stage_srcs) {
        /* doubled: a scene of thousands of materials must not copy the array for each */
        int cap = sr->cap_stage_srcs ? sr->cap_stage_srcs : 16;

        while (cap < sr->num_stage_srcs + m->num_layers && cap <= INT_MAX / 2)
            cap *= 2;
        if (cap < sr->num_stage_srcs + m->num_layers)
            return no_memory(err);
        grown = realloc(sr->stage_srcs, (size_t)cap * sizeof *grown);
        if (!grown)
            return no_memory(err);
        sr->stage_srcs = grown;
        sr->cap_stage_srcs = cap;
    }
    for (int i = 0; i < m->num_layers; i++) {
        const mc_material_layer *l = &m->layers[i];
        stage_src *src = &sr->stage_srcs[sr->num_stage_srcs];
        mc_status st;

        memset(src, 0, sizeof *src);
        st = mc_sr_upload_map(sr, &l->map, developer, &src->texture, err);
        if (st != MC_OK)
            return st;
        src->blend = l->blend;
        src->expr = l->expr;
        src->wrap = l->map.wrap;
        src->texgen = l->texgen;
        if (l->map.cube != MC_CUBE_NONE && l->map.fell_back)
            warn_cube(sr, m, &l->map);
        src->mask[0] = l->mask_red;
        src->mask[1] = l->mask_green;
        src->mask[2] = l->mask_blue;
        src->mask[3] = l->mask_alpha;
        src->translucent = l->translucent;
        src->vertex_color = l->vertex_color;
        sr->num_stage_srcs++;
        km->count++;
    }
    return MC_OK;
}
