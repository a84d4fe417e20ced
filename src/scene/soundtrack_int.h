/* The soundtrack's private parts (soundtrack.c, soundtrack_files.c): the shaders and files it
 * decoded, and what the mixer reads. */
#ifndef MC_SCENE_SOUNDTRACK_INT_H
#define MC_SCENE_SOUNDTRACK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/audio.h>
#include <md5cine/entitydef.h>
#include <md5cine/mixer.h>
#include <md5cine/sndshd.h>
#include <md5cine/soundtrack.h>

/* A sound file of the base, decoded once. */
typedef struct st_file {
    char *path;   /* as the shader names it */
    char *played; /* the path found (the .ogg first), NULL when no place holds either */
    mc_audio_clip clip;
} st_file;

/* A sound shader as played: its declaration (the base's, or an implicit one it owns). */
typedef struct st_shader {
    char *name;           /* as looked up */
    const mc_sndshd *decl;
    mc_sndshd own;        /* the implicit shader, when decl points here */
    mc_mix_shader mix;
    const st_file *entry[MC_SOUND_MAX_ENTRIES];
    const st_file *leadin[MC_SOUND_MAX_ENTRIES];
    const char *missing;  /* the first file no place holds, or NULL */
} st_shader;

struct mc_soundtrack_data {
    st_file **files;
    size_t num_files, cap_files;
    st_shader **shaders;
    size_t num_shaders, cap_shaders;
    size_t budget; /* decoded bytes still allowed */
    struct mc_vfs *vfs, *own_vfs;
    struct mc_material_set *set, *own_set;
    const mc_parse_opts *opts;
    mc_entitydef *keys; /* per actor: the scene's keys, then its entityDef's (pairs only) */
    mc_mix mix;
    mc_mix_listener *listeners;
    mc_mix_emitter *emitters;
    mc_vec3 **origins; /* per emitter, NULL for the world's */
    int num_emitters;
    mc_mix_event *events;
};

/* The shader named name, read (the base's declaration or the implicit shader) and its files
 * decoded, on first use. Warnings for missing files (once per shader and file). */
mc_status st_shader_get(struct mc_soundtrack_data *d, const char *name, st_shader **out,
                        mc_error *err);

/* Opens the scene's base when the desc gives none. */
mc_status st_open_base(struct mc_soundtrack_data *d, const mc_soundtrack_desc *desc,
                       mc_error *err);

/* Builds d->keys[i] for every actor: the scene's key lines, then the entityDef named like its
 * model (keys the scene does not set). */
mc_status st_actor_keys(struct mc_soundtrack_data *d, const struct mc_scene *scene,
                        mc_error *err);

/* Frees the shaders, files, keys and the base it opened. */
void st_data_release(struct mc_soundtrack_data *d);

#endif
