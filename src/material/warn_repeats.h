/* Warnings that repeat, counted: the used materials of a shipped game's archives often share
 * a keyword md5cine skips or a deform it does not draw, and each material parsed says so at its
 * own place. While grouping, the first warning of each message (its text, whatever its place)
 * is passed on with its place and the others are counted; the end of grouping passes on one
 * line per message that came more than once, `FILE: warning: ... and N more like this:
 * MESSAGE`, at the first one's file. MD5CINE_WARNINGS=all passes each on, as the grouping of
 * mesh warnings does (scene/mesh_groups.h). Used by src/material and src/scene; not
 * installed. */
#ifndef MC_WARN_REPEATS_H
#define MC_WARN_REPEATS_H

#include <stdbool.h>

#include <md5cine/error.h>
#include <md5cine/material.h>

#define MC_WARN_REPEATS_KEYS 1024 /* messages told apart; past them each is passed on */

typedef struct mc_warn_repeat {
    char *msg;  /* the message, as the first gave it */
    char *file; /* the first one's file */
    int more;   /* the same message given again */
} mc_warn_repeat;

typedef struct mc_warn_repeats {
    mc_warn_fn warn; /* where warnings go; NULL: dropped */
    void *user;
    bool grouping;
    mc_warn_repeat *items;
    int count, cap;
} mc_warn_repeats;

/* An mc_warn_fn: user is an mc_warn_repeats. */
void mc_warn_repeats_fn(void *user, const mc_error *w);

/* Ends grouping: the "... and N more" lines, then forgets the messages. */
void mc_warn_repeats_flush(mc_warn_repeats *r);

/* Frees what r holds (without passing anything on). */
void mc_warn_repeats_release(mc_warn_repeats *r);

/* A material set's warnings grouped from now on (the declarations parsed by
 * mc_material_set_find, mc_material_set_skin, ...), until mc_material_set_ungroup_warnings. */
void mc_material_set_group_warnings(mc_material_set *set);
void mc_material_set_ungroup_warnings(mc_material_set *set);

#endif
