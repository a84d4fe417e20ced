/* Repeated warnings about an actor's meshes, one per cause: the meshes a warning applies to
 * (a "pick") are grouped by shader; the first mesh of each shader gets the warning with its
 * position, and one line without a position stands for the others ("... and 9 more meshes of
 * actor 'boar'"). MD5CINE_WARNINGS=all in the environment makes every mesh its own group. */
#ifndef MC_SCENE_MESH_GROUPS_H
#define MC_SCENE_MESH_GROUPS_H

#include "md5cine/scene.h"

/* Whether mesh k of an actor is one the warning applies to. */
typedef bool (*mc_mesh_pick)(const mc_scene_actor *a, int k, const void *user);

/* -1 when mesh k gets no warning of its own (not picked, or counted with an earlier mesh of its
 * shader); else how many later picked meshes share its shader (0 for each under
 * MD5CINE_WARNINGS=all). */
int mc_mesh_group(const mc_scene_actor *a, int k, mc_mesh_pick pick, const void *user);

/* The line that stands for the more meshes of a group, when more > 0. */
void mc_mesh_group_more(const mc_scene_actor *a, int more, const mc_parse_opts *opts);

#endif
