/* The materials of a scene's submeshes (material.h, "In a scene"). */
#include <stdlib.h>
#include <string.h>

#include <md5cine/material.h>
#include <md5cine/scene.h>
#include <md5cine/vfs.h>

static bool has_material_line(const mc_scene_actor *a, const char *shader)
{
    for (int i = 0; i < a->num_materials; i++)
        if (mc_scene_shader_equal(a->materials[i].shader, shader))
            return true;
    return false;
}

/* The stand-in of a missing material (material.h, mc_scene_materials.missing). */
static mc_status make_missing(mc_material *m, bool box, mc_error *err)
{
    memset(m, 0, sizeof *m);
    m->name = strdup("_missing");
    m->diffuse.program = strdup("_default");
    m->diffuse.sources = strdup(box ? "_default (missing material)" : "black (missing material)");
    if (!m->name || !m->diffuse.program || !m->diffuse.sources ||
        !mc_material_missing_image(box, &m->diffuse.image)) {
        mc_material_release(m);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    m->lit = true;
    m->diffuse.present = true;
    m->diffuse.fell_back = true;
    for (int i = 0; i < 4; i++)
        m->diffuse.color[i] = 1.0f;
    m->diffuse_blend = (mc_blend){ MC_BLEND_ONE, MC_BLEND_ZERO };
    return MC_OK;
}

mc_status mc_scene_materials_load(const mc_scene *scene, const mc_parse_opts *opts,
                                  mc_scene_materials *out, mc_error *err)
{
    mc_status st = MC_OK;

    memset(out, 0, sizeof *out);
    out->num_actors = scene->num_actors;
    if (scene->num_actors > 0) {
        out->submesh = calloc((size_t)scene->num_actors, sizeof *out->submesh);
        if (!out->submesh)
            return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
    }
    for (int a = 0; a < scene->num_actors; a++) {
        int n = scene->actors[a].mesh.num_meshes;

        out->submesh[a] = calloc(n > 0 ? (size_t)n : 1, sizeof *out->submesh[a]);
        if (!out->submesh[a]) {
            mc_scene_materials_release(out);
            return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
        }
    }
    if (!scene->base_path)
        return MC_OK;
    st = mc_vfs_open(scene->base_path, &out->vfs, err);
    if (st == MC_OK)
        st = mc_material_set_load(out->vfs, opts, &out->set, err);
    for (int a = 0; a < scene->num_actors && st == MC_OK; a++) {
        const mc_scene_actor *act = &scene->actors[a];

        for (int m = 0; m < act->mesh.num_meshes && st == MC_OK; m++) {
            const char *shader = act->mesh.meshes[m].shader;

            if (!shader[0] || has_material_line(act, shader))
                continue;
            out->submesh[a][m] = mc_material_set_find(out->set, shader, &st, err);
            if (st != MC_OK || out->submesh[a][m] || act->textures[m])
                continue;
            if (!out->missing.name) {
                st = make_missing(&out->missing, opts && opts->missing_box, err);
                if (st != MC_OK)
                    break;
            }
            out->submesh[a][m] = &out->missing;
            if (opts && opts->warn) {
                mc_error w;

                mc_error_set(&w, MC_ERR_IO, act->mesh.name, act->mesh.meshes[m].shader_line,
                             act->mesh.meshes[m].shader_col,
                             "no material and no image for shader '%s' of actor '%s' in '%s'; "
                             "drawn %s",
                             shader, act->name, scene->base_path,
                             opts->missing_box ? "as Doom's default box" : "black");
                opts->warn(opts->warn_user, &w);
            }
        }
    }
    if (st != MC_OK)
        mc_scene_materials_release(out);
    return st;
}

void mc_scene_materials_release(mc_scene_materials *m)
{
    if (!m)
        return;
    for (int a = 0; m->submesh && a < m->num_actors; a++)
        free(m->submesh[a]);
    free(m->submesh);
    mc_material_set_destroy(m->set);
    mc_material_release(&m->missing);
    mc_vfs_destroy(m->vfs);
    memset(m, 0, sizeof *m);
}
