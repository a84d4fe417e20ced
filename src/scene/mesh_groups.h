/* Repeated warnings about the actors' meshes, one per cause: the meshes a warning applies to
 * (a "pick") are grouped by shader; the first mesh of each shader gets the warning with its
 * position, and one line without a position stands for the others ("... and 9 more meshes of
 * actor 'boar'"). After MC_MESH_GROUPS_SHOWN shaders, one last line counts the meshes of the
 * rest ("... and 7990 more meshes of actor 'boar' like this, 7990 other shaders (...)"), so
 * that a model of thousands of shaders costs a few lines. Actors that share one mesh and whose
 * meshes are picked for the same causes are told once, the first one's warnings naming them all
 * ("mesh 0 of actors 'boar' and 'pig'"). MD5CINE_WARNINGS=all in the environment makes every
 * mesh of every actor its own group and shows every group. */
#ifndef MC_SCENE_MESH_GROUPS_H
#define MC_SCENE_MESH_GROUPS_H

#include "md5cine/scene.h"

/* Shaders (groups) of one cause warned about with a position before the rest is counted. */
#define MC_MESH_GROUPS_SHOWN 10

/* The cause of the warning for mesh k of s->actors[actor], NULL when the warning does not apply
 * to it: what the warning's text says of the mesh besides the actor's name (a material, the
 * shader), so that two actors of one mesh with equal causes at every mesh are told once. */
typedef const void *(*mc_mesh_pick)(const mc_scene *s, int actor, int k, const void *user);

/* Gives the warning about mesh k of s->actors[actor] (the first of its group) through
 * opts->warn; who names the actors it stands for ("actor 'boar'", "actors 'boar' and 'pig'",
 * "actors 'a', 'b', 'c' and 2 more"), count how many they are. */
typedef void (*mc_mesh_warn)(const mc_scene *s, int actor, int k, const char *who, int count,
                             const void *user, const mc_parse_opts *opts);

/* Walks the meshes of s->actors[actor] in order and, for the first picked mesh of each shader,
 * calls warn and then gives the line for the group's other meshes, more_note appended to it
 * (NULL: nothing); past MC_MESH_GROUPS_SHOWN groups (unless MD5CINE_WARNINGS=all), one line for
 * all the groups left. Nothing when an earlier actor of the same mesh has the same causes (its
 * warnings named this one). user goes to pick and warn. Grouping sorts the picked meshes by
 * shader (n log n in the meshes, not n squared); when memory for it runs out, each picked mesh is
 * its own group. Nothing is given without opts->warn, and nothing more once *opts->stop is set
 * (the caller's next check of the flag acts on it). Call it for each actor in order once the
 * causes of every actor are known. */
void mc_mesh_groups_warn(const mc_scene *s, int actor, mc_mesh_pick pick, mc_mesh_warn warn,
                         const void *user, const char *more_note, const mc_parse_opts *opts);

#endif
