/* Grouping an actor's mesh warnings by shader (mesh_groups.h). */
#include "scene/mesh_groups.h"

#include <stdlib.h>
#include <string.h>

static bool warnings_all(void)
{
    const char *env = getenv("MD5CINE_WARNINGS");

    return env && strcmp(env, "all") == 0;
}

/* The line that stands for the more meshes of a group, when more > 0. */
static void group_more(const mc_scene_actor *a, int more, const mc_parse_opts *opts)
{
    mc_error w;

    if (more <= 0 || !opts || !opts->warn)
        return;
    mc_error_set(&w, MC_ERR_IO, a->mesh.name, 0, 0, "... and %d more %s of actor '%s'", more,
                 more == 1 ? "mesh" : "meshes", a->name);
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
static bool group_sizes(const mc_scene_actor *a, mc_mesh_pick pick, const void *user, bool all,
                        int *size)
{
    int n = a->mesh.num_meshes, np = 0, lead = -1;
    picked *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);

    if (!p)
        return false;
    for (int k = 0; k < n; k++)
        if (pick(a, k, user))
            p[np++] = (picked){ a->mesh.meshes[k].shader, k };
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

void mc_mesh_groups_warn(const mc_scene_actor *a, mc_mesh_pick pick, mc_mesh_warn warn,
                         const void *user, const mc_parse_opts *opts)
{
    int n = a->mesh.num_meshes, shown = 0, rest_meshes = 0, rest_groups = 0;
    bool all = warnings_all();
    int *size;
    mc_error w;

    if (!opts || !opts->warn || n <= 0)
        return;
    size = calloc((size_t)n, sizeof *size);
    if (size && !group_sizes(a, pick, user, all, size)) {
        free(size);
        size = NULL;
    }
    for (int k = 0; k < n; k++) {
        int m = size ? size[k] : pick(a, k, user) ? 1 : 0;

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
        warn(a, k, user, opts);
        group_more(a, m - 1, opts);
        shown++;
    }
    free(size);
    if (rest_groups == 0)
        return;
    mc_error_set(&w, MC_ERR_IO, a->mesh.name, 0, 0,
                 "... and %d more %s of actor '%s' like this, %d other shader%s "
                 "(MD5CINE_WARNINGS=all prints each)",
                 rest_meshes, rest_meshes == 1 ? "mesh" : "meshes", a->name, rest_groups,
                 rest_groups == 1 ? "" : "s");
    opts->warn(opts->warn_user, &w);
}
