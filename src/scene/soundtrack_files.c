/* The soundtrack's sound shaders and files (soundtrack_int.h): looked up in the scene's base,
 * decoded once each, and the actors' entity keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/material.h>
#include <md5cine/scene.h>
#include <md5cine/vfs.h>

#include "scene/soundtrack_int.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);

    if (p)
        memcpy(p, s, n);
    return p;
}

/* Grows *items (of *cap pointers) to hold one more. */
static bool grow_ptrs(void ***items, size_t count, size_t *cap)
{
    size_t ncap;
    void **grown;

    if (count < *cap)
        return true;
    ncap = *cap ? *cap * 2 : 16;
    grown = realloc(*items, ncap * sizeof *grown);
    if (!grown)
        return false;
    *items = grown;
    *cap = ncap;
    return true;
}

/* Reads path from the base: NAME.ogg first, then as written (snd_wavefile.cpp
 * idWaveFile::Open). *data NULL when neither is there. */
static mc_status read_sound_file(struct mc_soundtrack_data *d, st_file *f, uint8_t **data,
                                 size_t *len, mc_error *err)
{
    char ogg[MC_LIMIT_NAME_LEN + 8];
    const char *dot = strrchr(f->path, '.'), *slash = strrchr(f->path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - f->path) : strlen(f->path);
    const char *tries[2] = { ogg, f->path };
    bool found = false;

    *data = NULL;
    if (!d->vfs || stem + 5 > sizeof ogg)
        return MC_OK;
    memcpy(ogg, f->path, stem);
    memcpy(ogg + stem, ".ogg", 5);
    for (int i = 0; i < 2 && !found; i++) {
        mc_status s = mc_vfs_read_max(d->vfs, tries[i], MC_LIMIT_AUDIO_DECODED_BYTES, data,
                                      len, &found, NULL, 0, err);

        if (s != MC_OK)
            return s;
        if (found) {
            f->played = dup_str(tries[i]);
            if (!f->played)
                return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
    }
    return MC_OK;
}

/* The decoded file of path (read and decoded on first use). */
static mc_status file_get(struct mc_soundtrack_data *d, const char *path, st_file **out,
                          mc_error *err)
{
    st_file *f;
    uint8_t *data;
    size_t len;
    mc_status s;

    for (size_t i = 0; i < d->num_files; i++) {
        if (strcasecmp(d->files[i]->path, path) == 0) {
            *out = d->files[i];
            return MC_OK;
        }
    }
    if (!grow_ptrs((void ***)&d->files, d->num_files, &d->cap_files) ||
        !(f = calloc(1, sizeof *f)))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    f->path = dup_str(path);
    if (!f->path) {
        free(f);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    d->files[d->num_files++] = f;
    *out = f;
    if (d->opts && d->opts->stop && *d->opts->stop)
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    s = read_sound_file(d, f, &data, &len, err);
    if (s != MC_OK || !data)
        return s;
    s = mc_audio_decode(data, len, f->played, d->budget, &f->clip, err);
    free(data);
    if (s == MC_OK)
        d->budget -= f->clip.bytes;
    return s;
}

static void warn_missing(struct mc_soundtrack_data *d, const st_shader *sh,
                         const mc_sndshd_sample *smp)
{
    mc_error w;

    if (!d->opts || !d->opts->warn)
        return;
    mc_error_set(&w, MC_ERR_IO, sh->decl->file[0] ? sh->decl->file : NULL, smp->line, smp->col,
                 "sound shader '%s': no sound file '%s' in the base (tried its .ogg first); it "
                 "plays silence",
                 sh->name, smp->file);
    d->opts->warn(d->opts->warn_user, &w);
}

/* Decodes a shader's entries and leadins into its mixer shader. */
static mc_status shader_files(struct mc_soundtrack_data *d, st_shader *sh, mc_error *err)
{
    const mc_sndshd *decl = sh->decl;

    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? decl->num_leadins : decl->num_entries;

        for (int i = 0; i < n; i++) {
            const mc_sndshd_sample *smp = pass ? &decl->leadins[i] : &decl->entries[i];
            st_file *f = NULL;
            mc_status s = file_get(d, smp->file, &f, err);

            if (s != MC_OK)
                return s;
            if (!f->played) {
                if (!sh->missing)
                    sh->missing = f->path;
                warn_missing(d, sh, smp);
            }
            (pass ? sh->leadin : sh->entry)[i] = f;
            (pass ? sh->mix.leadins : sh->mix.entries)[i] = f->played ? &f->clip : NULL;
        }
    }
    sh->mix.num_entries = decl->num_entries;
    sh->mix.num_leadins = decl->num_leadins;
    sh->mix.leadin_volume = decl->leadin_volume;
    sh->mix.speaker_mask = decl->speaker_mask;
    return MC_OK;
}

static mc_status shader_decl(struct mc_soundtrack_data *d, st_shader *sh, mc_error *err)
{
    mc_status s = MC_OK;

    if (d->set) {
        sh->decl = mc_material_set_sound(d->set, sh->name, &s, err);
        if (!sh->decl && s != MC_OK)
            return s;
    }
    if (!sh->decl) {
        s = mc_sndshd_implicit(sh->name, &sh->own, err);
        if (s != MC_OK)
            return s;
        sh->decl = &sh->own;
    }
    return MC_OK;
}

mc_status st_shader_get(struct mc_soundtrack_data *d, const char *name, st_shader **out,
                        mc_error *err)
{
    st_shader *sh = NULL;

    for (size_t i = 0; i < d->num_shaders; i++) {
        if (strcmp(d->shaders[i]->name, name) == 0) {
            *out = d->shaders[i];
            return MC_OK;
        }
    }
    if (!grow_ptrs((void ***)&d->shaders, d->num_shaders, &d->cap_shaders) ||
        !(sh = calloc(1, sizeof *sh)))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    sh->name = dup_str(name);
    if (!sh->name) {
        free(sh);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    d->shaders[d->num_shaders++] = sh;
    *out = sh;
    mc_status s = shader_decl(d, sh, err);

    return s != MC_OK ? s : shader_files(d, sh, err);
}

mc_status st_open_base(struct mc_soundtrack_data *d, const mc_soundtrack_desc *desc,
                       mc_error *err)
{
    const mc_scene *scene = desc->scene;
    mc_status s;

    d->vfs = desc->vfs;
    d->set = desc->set;
    if (d->vfs || d->set || !scene->base_path)
        return MC_OK;
    s = mc_vfs_open(scene->base_path, &d->own_vfs, err);
    if (s == MC_OK)
        s = mc_material_set_load(d->own_vfs, desc->opts, &d->own_set, err);
    d->vfs = d->own_vfs;
    d->set = d->own_set;
    return s;
}

/* d->keys[i]: the scene's key lines, then the entityDef's pairs whose keys they do not set. */
static mc_status actor_keys(struct mc_soundtrack_data *d, const mc_scene_actor *a,
                            mc_entitydef *out, mc_error *err)
{
    const mc_entitydef *def = NULL;
    mc_status s = MC_OK;
    int n = a->num_spawnargs;

    if (d->set && a->model) {
        def = mc_material_set_entitydef(d->set, a->model, &s, err);
        if (s != MC_OK)
            return s;
    }
    out->pairs = calloc((size_t)n + (def ? (size_t)def->num_pairs : 0) + 1, sizeof *out->pairs);
    if (!out->pairs)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < n; i++) {
        out->pairs[i].key = a->spawnargs[i].key;
        out->pairs[i].value = a->spawnargs[i].value;
        out->pairs[i].line = a->spawnargs[i].line;
        out->pairs[i].col = a->spawnargs[i].col;
    }
    out->num_pairs = n;
    for (int i = 0; def && i < def->num_pairs; i++) {
        if (!mc_entitydef_find(out, def->pairs[i].key))
            out->pairs[out->num_pairs++] = def->pairs[i];
    }
    out->merged = true;
    return MC_OK;
}

mc_status st_actor_keys(struct mc_soundtrack_data *d, const mc_scene *scene, mc_error *err)
{
    d->keys = calloc((size_t)scene->num_actors + 1, sizeof *d->keys);
    if (!d->keys)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < scene->num_actors; i++) {
        mc_status s = actor_keys(d, &scene->actors[i], &d->keys[i], err);

        if (s != MC_OK)
            return s;
    }
    return MC_OK;
}

void st_data_release(struct mc_soundtrack_data *d)
{
    for (size_t i = 0; i < d->num_files; i++) {
        mc_audio_clip_release(&d->files[i]->clip);
        free(d->files[i]->path);
        free(d->files[i]->played);
        free(d->files[i]);
    }
    for (size_t i = 0; i < d->num_shaders; i++) {
        mc_sndshd_release(&d->shaders[i]->own);
        free(d->shaders[i]->name);
        free(d->shaders[i]);
    }
    free(d->files);
    free(d->shaders);
    if (d->keys) {
        /* the pairs point into the scene and the set; only the arrays are ours */
        for (size_t i = 0; d->keys[i].pairs || d->keys[i].num_pairs; i++)
            free(d->keys[i].pairs);
        free(d->keys);
    }
    mc_material_set_destroy(d->own_set);
    mc_vfs_destroy(d->own_vfs);
}
