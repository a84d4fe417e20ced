/* The materials of a scene (scene.h): mc_scene_materials_load opens the scene's `base` as a
 * VFS (vfs.h: loose files, then its .pk4 archives), loads its material set (material.h), and
 * gives each submesh of each actor the material declared for its shader -- or NULL when the
 * actor has an explicit `material` line for that shader (which wins) or when no declaration
 * names it; then the submesh's texture path (scene.h: the implicit image rule) applies, as
 * without materials. */
#ifndef MC_SCENE_MATERIALS_H
#define MC_SCENE_MATERIALS_H

#include <stdbool.h>

#include <md5cine/error.h>
#include <md5cine/material.h>
#include <md5cine/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An actor's submeshes' materials under the skin its `skin` frame commands set (scene.h,
 * mc_scene_actor_skin_at): one look per distinct skin of the actor's commands, resolved once. */
typedef struct mc_scene_look {
    const char *skin;               /* as the command names it; NULL: `skin none`, or a skin
                                       that failed to parse (warned; Doom's default skin,
                                       which maps nothing) */
    const struct mc_skinfile *decl; /* its declaration (owned by the set), or NULL */
    const mc_material **submesh;    /* the actor's mesh.num_meshes, as submesh[actor] is */
} mc_scene_look;

/* The materials of a resolved scene's submeshes (see above). */
typedef struct mc_scene_materials {
    struct mc_vfs *vfs;   /* the scene's base; NULL when it names none */
    mc_material_set *set; /* NULL when the scene names no base */
    int num_actors;       /* the scene's */
    const mc_material ***submesh; /* [actor][submesh]: owned by set (or the nodraw material
                                     below), or NULL */
    mc_material nodraw;   /* a material with no stage, named textures/common/nodraw: what a
                             skin's undeclared nodraw target stands for */
    int *num_looks;       /* [actor]: its looks, 0 for an actor without a skin command (NULL
                             without a base) */
    mc_scene_look **looks; /* [actor][look] */
    int **command_look;   /* [actor][frame command]: the look a skin command sets, -1 for the
                             other commands; NULL for an actor without a skin command */
    int num_lights;       /* the scene's with a base; 0 without */
    const mc_material **light;         /* [light]: its light material (its `shader`, else
                                          the base's lights/defaultPointLight or
                                          lights/defaultProjectedLight), or NULL: md5cine's
                                          built-in default light */
    const mc_material **light_falloff; /* [light]: the material whose falloff image the
                                          light uses, or NULL: the built-in one */
} mc_scene_materials;

/* Whether one of the actor's `material` lines names shader (compared as
 * mc_scene_shader_equal does): such a line's image wins over a declared material. */
bool mc_scene_actor_has_material_line(const mc_scene_actor *a, const char *shader);

/* Fills *out for a resolved scene. The actors' `skin` frame commands give looks: a skin that
 * is not declared is an error at the command's argument in the .def file, one that fails to
 * parse a warning there (as the actor's own skin). A scene without a base gets every entry
 * NULL (and a light `shader` is then an error at its line, MC_ERR_USAGE). Warnings through
 * opts (the .mtr files' unknown keywords, a light material that is not declared). Errors: as
 * mc_vfs_open, mc_mtr_parse (at the .mtr file's own position; the file named
 * "base/pak000.pk4:materials/x.mtr" for an archived one) and mc_material_resolve; then *out is
 * zeroed. */
mc_status mc_scene_materials_load(const mc_scene *scene, const mc_parse_opts *opts,
                                  mc_scene_materials *out, mc_error *err);

/* Frees what *m holds and zeroes it; accepts a zeroed struct. */
void mc_scene_materials_release(mc_scene_materials *m);

#ifdef __cplusplus
}
#endif

#endif
