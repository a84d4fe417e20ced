/* Grouping the actors' mesh warnings by shader (mesh_groups.h). */
#include "scene/mesh_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Actors named in a warning before the rest are counted ("and 2 more"). */
#define WHO_NAMED 3

static bool warnings_all(void)
{
    const char *env = getenv("MD5CINE_WARNINGS");

    return env && strcmp(env, "all") == 0;
}

/* Whether actor b is told by actor a's warnings: the same mesh, the same cause at every mesh. */
static bool same_causes(const mc_scene *s, int a, int b, mc_mesh_pick pick, const void *user)
{
    const mc_mesh *ma = &s->actors[a].mesh, *mb = &s->actors[b].mesh;

    if (ma->meshes != mb->meshes || ma->num_meshes != mb->num_meshes)
        return false;
    for (int k = 0; k < ma->num_meshes; k++)
        if (pick(s, a, k, user) != pick(s, b, k, user))
            return false;
    return true;
}

/* Whether an earlier actor's warnings tell this one's: the first actor of its mesh with the
 * same causes is told alone or with the others. */
static bool told_before(const mc_scene *s, int actor, mc_mesh_pick pick, const void *user)
{
    for (int b = 0; b < actor; b++)
        if (same_causes(s, b, actor, pick, user))
            return true;
    return false;
}

/* Writes into who the actors actor's warnings stand for (it and the later ones of its mesh with
 * the same causes); returns how many. */
static int who_of(const mc_scene *s, int actor, mc_mesh_pick pick, const void *user, bool all,
                  char *who, size_t cap)
{
    int named[WHO_NAMED], count = 1;
    size_t n;

    named[0] = actor;
    for (int b = actor + 1; b < s->num_actors && !all; b++) {
        if (!same_causes(s, actor, b, pick, user))
            continue;
        if (count < WHO_NAMED)
            named[count] = b;
        count++;
    }
    n = (size_t)snprintf(who, cap, "actor%s '%s'", count > 1 ? "s" : "", s->actors[actor].name);
    for (int i = 1; i < count && i < WHO_NAMED && n < cap; i++)
        n += (size_t)snprintf(who + n, cap - n, "%s'%s'",
                              i == count - 1 ? " and " : ", ", s->actors[named[i]].name);
    if (count > WHO_NAMED && n < cap)
        snprintf(who + n, cap - n, " and %d more", count - WHO_NAMED);
    return count;
}

/* The line that stands for the more meshes of a group, when more > 0. */
static void group_more(const mc_scene_actor *a, int more, const char *who, const char *note,
                       const mc_parse_opts *opts)
{
    mc_error w;

    if (more <= 0)
        return;
    mc_error_set(&w, MC_ERR_IO, a->mesh.name, 0, 0, "... and %d more %s of %s%s", more,
                 more == 1 ? "mesh" : "meshes", who, note ? note : "");
    opts->warn(opts->warn_user, &w);
}

typedef struct picked {
    const char *shader;
    int k;
} picked;

/* By shader, then by mesh: the first of each run of one shader is its group's first mesh. */
static int by_shader(const void *x, const void *y)
{
    const picked *p = x, *q = y;
    int c = strcmp(p->shader, q->shader);

    return c ? c : (p->k > q->k) - (p->k < q->k);
}

/* size[k]: the meshes of the group mesh k is the first of, 0 for every other mesh; false when
 * memory for the sort ran out. */
static bool group_sizes(const mc_scene *s, int actor, mc_mesh_pick pick, const void *user,
                        bool all, int *size)
{
    const mc_mesh *mesh = &s->actors[actor].mesh;
    int n = mesh->num_meshes, np = 0, lead = -1;
    picked *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);

    if (!p)
        return false;
    for (int k = 0; k < n; k++)
        if (pick(s, actor, k, user))
            p[np++] = (picked){ mesh->meshes[k].shader, k };
    if (!all)
        qsort(p, (size_t)np, sizeof *p, by_shader);
    for (int i = 0; i < np; i++) {
        if (all || i == 0 || strcmp(p[i].shader, p[i - 1].shader) != 0)
            lead = p[i].k;
        size[lead]++;
    }
    free(p);
    return true;
}

/* The last line: the groups past the shown ones, counted. */
static void rest_line(const mc_scene_actor *a, int meshes, int groups, const char *who,
                      const mc_parse_opts *opts)
{
    mc_error w;

    mc_error_set(&w, MC_ERR_IO, a->mesh.name, 0, 0,
                 "... and %d more %s of %s like this, %d other shader%s "
                 "(MD5CINE_WARNINGS=all prints each)",
                 meshes, meshes == 1 ? "mesh" : "meshes", who, groups, groups == 1 ? "" : "s");
    opts->warn(opts->warn_user, &w);
}

void mc_mesh_groups_warn(const mc_scene *s, int actor, mc_mesh_pick pick, mc_mesh_warn warn,
                         const void *user, const char *more_note, const mc_parse_opts *opts)
{
    const mc_scene_actor *a = &s->actors[actor];
    int n = a->mesh.num_meshes, shown = 0, rest_meshes = 0, rest_groups = 0, count;
    bool all = warnings_all();
    char who[400];
    int *size;

    if (!opts || !opts->warn || n <= 0 || (!all && told_before(s, actor, pick, user)))
        return;
    count = who_of(s, actor, pick, user, all, who, sizeof who);
    size = calloc((size_t)n, sizeof *size);
    if (size && !group_sizes(s, actor, pick, user, all, size)) {
        free(size);
        size = NULL;
    }
    for (int k = 0; k < n; k++) {
        int m = size ? size[k] : pick(s, actor, k, user) ? 1 : 0;

        if (m == 0)
            continue;
        if (opts->stop && *opts->stop) {
            free(size);
            return;
        }
        if (!all && shown == MC_MESH_GROUPS_SHOWN) {
            rest_meshes += m;
            rest_groups++;
            continue;
        }
        warn(s, actor, k, who, count, user, opts);
        group_more(a, m - 1, who, more_note, opts);
        shown++;
    }
    free(size);
    if (rest_groups > 0)
        rest_line(a, rest_meshes, rest_groups, who, opts);
}
