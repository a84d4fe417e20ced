/* Grouping an actor's mesh warnings by shader (mesh_groups.h). */
#include "scene/mesh_groups.h"

#include <stdlib.h>
#include <string.h>

int mc_mesh_group(const mc_scene_actor *a, int k, mc_mesh_pick pick, const void *user)
{
    const char *env = getenv("MD5CINE_WARNINGS");
    const char *shader = a->mesh.meshes[k].shader;
    int more = 0;

    if (!pick(a, k, user))
        return -1;
    if (env && strcmp(env, "all") == 0)
        return 0;
    for (int j = 0; j < k; j++)
        if (pick(a, j, user) && strcmp(a->mesh.meshes[j].shader, shader) == 0)
            return -1; /* counted with mesh j */
    for (int j = k + 1; j < a->mesh.num_meshes; j++)
        more += pick(a, j, user) && strcmp(a->mesh.meshes[j].shader, shader) == 0;
    return more;
}

void mc_mesh_group_more(const mc_scene_actor *a, int more, const mc_parse_opts *opts)
{
    mc_error w;

    if (more <= 0 || !opts || !opts->warn)
        return;
    mc_error_set(&w, MC_ERR_IO, a->mesh.name, 0, 0, "... and %d more %s of actor '%s'", more,
                 more == 1 ? "mesh" : "meshes", a->name);
    opts->warn(opts->warn_user, &w);
}
