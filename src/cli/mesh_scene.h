/* `md5cine render MESH.md5mesh [ANIM.md5anim]` and `md5cine render NAME --base DIR [ANIM]`: a
 * model looked at without a scene file, as F3D's one line does. The mesh (posed by the anim,
 * which loops) stands at the origin under the default rig, and a turntable circles it once,
 * framed around its bounds. */
#ifndef MC_CLI_MESH_SCENE_H
#define MC_CLI_MESH_SCENE_H

#include <stdbool.h>

#include <md5cine/scene.h>

/* Seconds of the turntable: one turn in at least this, or in the anim's length when longer. */
#define MC_MESH_SCENE_SECONDS 4.0

/* Whether path names a mesh to render directly (it ends in ".md5mesh", any case). */
bool mc_mesh_scene_is_mesh(const char *path);

/* Loads the scene of mesh_path and anim_path (NULL: the bind pose): the files are read first,
 * each error at its own position; then a scene of one actor, named after the mesh, and a
 * turntable shot whose centre is the middle of the bounds (the bind pose's vertices, and the
 * anim's bounds of every frame), at 2.4 times their half diagonal, 15 degrees above, fov 90,
 * one turn in MC_MESH_SCENE_SECONDS or the anim's length. Fails as mc_scene_load does, and
 * with MC_ERR_USAGE for a path that a scene cannot name (a '"' or '\' in it). */
mc_status mc_mesh_scene_load(const char *mesh_path, const char *anim_path,
                             const mc_parse_opts *opts, mc_scene *out, mc_error *err);

/* The anim a model plays when none is named: this one when the declaration has it, else its
 * first. */
#define MC_MODEL_SCENE_DEFAULT_ANIM "idle"

/* Loads the scene of the model declaration name of the base folder base (its def/ files, as
 * a scene's `model "NAME"` actor is resolved): one actor, named name, with the declaration's
 * mesh, skin and offset, playing anim (one of its anims; NULL: "idle" when declared, else its
 * first, else none), looping, under the turntable of mc_mesh_scene_load framed around the
 * bind pose and the anim's bounds moved by the offset. An unknown model or anim fails with the
 * scene's error (its hint, "did you mean"), without a place. */
mc_status mc_model_scene_load(const char *name, const char *anim, const char *base,
                              const mc_parse_opts *opts, mc_scene *out, mc_error *err);

#endif
