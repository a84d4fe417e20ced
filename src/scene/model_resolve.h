/* An actor's `model` resolved (model_resolve.c), private to src/scene/: the base's def files
 * read as the declaration manager reads them and their model declarations indexed by name once
 * (the first declaration of a name wins), each declaration asked for parsed once, and each model
 * resolved once per scene with those it inherits (Anim_Blend.cpp, idDeclModelDef::Parse): the
 * actors of one model share its anims. */
#ifndef MC_SCENE_MODEL_RESOLVE_H
#define MC_SCENE_MODEL_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/limits.h>
#include <md5cine/scene.h>
#include <md5cine/vfs.h>

#define INHERIT_WARNED_MAX 16

typedef struct model_decl model_decl;
typedef struct model_resolved model_resolved;

/* The base as Doom's file system sees it (vfs.h: its loose files, then its .pk4 archives) and
 * the .def files of its def/ folder in the order the declaration manager reads them
 * (idFileSystem::ListFiles with sort: by name, each name once, its text from the place that
 * wins), each read and indexed when a search first reaches it and kept until the scene is
 * resolved. Opened by the first actor with a model; a scene without one never indexes its base
 * here. Zeroed: not opened. */
typedef struct model_base {
    mc_vfs *vfs;        /* NULL until opened */
    char **names;       /* mc_vfs_list's block: "def/x.def", ... */
    int count;
    int loaded;         /* names[0 .. loaded) are read and indexed: */
    char **text;        /* count entries, NUL-terminated */
    size_t *len;
    const char **where; /* places for errors, in the scene's arena: "base/def/x.def",
                           "base/pak000.pk4:def/x.def" */
    size_t text_bytes;  /* held in all; within MC_LIMIT_MTR_TEXT_BYTES, the budget of the
                           base's declaration text (docs/materials-and-shading.md, "Files") */
    model_decl *decls;  /* the first declaration of each name, in the order found */
    int num_decls, cap_decls;
    int *slots;         /* decls by name (compared without case), -1 empty */
    size_t num_slots;   /* a power of two, at least twice num_decls */
    model_resolved *models; /* the models resolved so far, one for each declaration asked for */
    int num_models, cap_models;
    long scene_anims;   /* their anims in all: within MC_LIMIT_SCENE_MODEL_ANIMS */
    /* The unknown models to inherit warned about, each once: the actors that meet one again
     * are counted and said in one line at the end (past INHERIT_WARNED_MAX, each warns) */
    struct {
        char file[512], model[MC_LIMIT_NAME_LEN + 1];
        int line, col, more;
    } warned[INHERIT_WARNED_MAX];
    int num_warned;
} model_base;

/* Frees what the base holds (not what it put in the scene's arena) and zeroes it. */
void model_base_release(model_base *mb);

/* An actor's `model`: its declaration and those it inherits, their mesh, skin, offset and
 * anims; an `anim` naming one of them becomes its file (a->mesh_game, a->anim_game: read
 * through mb->vfs). Errors at the scene's model token or at their place in a .def. */
mc_status resolve_model(mc_scene *s, mc_scene_actor *a, model_base *mb,
                        const mc_parse_opts *opts, mc_error *e);

/* After the actors: one line for each unknown inherit more actors met, as mesh_groups.c says
 * the more meshes of a group. */
void warned_more(const model_base *mb, const mc_parse_opts *opts);

#endif
