/* Repeated warnings about an actor's meshes, one per cause: the meshes a warning applies to
 * (a "pick") are grouped by shader; the first mesh of each shader gets the warning with its
 * position, and one line without a position stands for the others ("... and 9 more meshes of
 * actor 'boar'"). After MC_MESH_GROUPS_SHOWN shaders, one last line counts the meshes of the
 * rest ("... and 7990 more meshes of actor 'boar' like this, 7990 other shaders (...)"), so
 * that a model of thousands of shaders costs a few lines. MD5CINE_WARNINGS=all in the
 * environment makes every mesh its own group and shows every group. */
#ifndef MC_SCENE_MESH_GROUPS_H
#define MC_SCENE_MESH_GROUPS_H

#include "md5cine/scene.h"

/* Shaders (groups) of one cause warned about with a position before the rest is counted. */
#define MC_MESH_GROUPS_SHOWN 10

/* Whether mesh k of an actor is one the warning applies to. */
typedef bool (*mc_mesh_pick)(const mc_scene_actor *a, int k, const void *user);

/* Gives the warning about mesh k (the first of its group) through opts->warn. */
typedef void (*mc_mesh_warn)(const mc_scene_actor *a, int k, const void *user,
                             const mc_parse_opts *opts);

/* Walks an actor's meshes in order and, for the first picked mesh of each shader, calls warn and
 * then gives the line for the group's other meshes; past MC_MESH_GROUPS_SHOWN groups (unless
 * MD5CINE_WARNINGS=all), one line for all the groups left. user goes to pick and warn. Grouping
 * sorts the picked meshes by shader (n log n in the meshes, not n squared); when memory for it
 * runs out, each picked mesh is its own group. Nothing is given without opts->warn, and nothing
 * more once *opts->stop is set (the caller's next check of the flag acts on it). */
void mc_mesh_groups_warn(const mc_scene_actor *a, mc_mesh_pick pick, mc_mesh_warn warn,
                         const void *user, const mc_parse_opts *opts);

#endif
