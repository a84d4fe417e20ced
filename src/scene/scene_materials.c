/* The materials of a scene's submeshes (scene_materials.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/material.h>
#include <md5cine/scene.h>
#include <md5cine/scene_materials.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

#include "material/implicit.h"
#include "material/warn_repeats.h"
#include "scene/mesh_groups.h"

bool mc_scene_actor_has_material_line(const mc_scene_actor *a, const char *shader)
{
    for (int i = 0; i < a->num_materials; i++)
        if (mc_scene_shader_equal(a->materials[i].shader, shader))
            return true;
    return false;
}

/* A skin the scene names: the actor's (at its skin line) or a frame command's (at its argument
 * in the .def file). Not declared: an error there. One that fails to parse: a warning at its
 * position, and no skin (Doom makes it its default, which maps nothing). */
typedef struct skin_at {
    const char *name, *file, *what; /* what: "skin 'x' of actor 'y'" in the warning */
    int line, col;
} skin_at;

static mc_status find_skin(mc_material_set *set, const mc_scene *scene, const skin_at *at,
                           const mc_parse_opts *opts, const mc_skinfile **out, mc_error *err)
{
    mc_error perr;
    mc_status st;

    *out = mc_material_set_skin(set, at->name, &st, &perr);
    if (st != MC_OK) {
        if (st == MC_ERR_NOMEM)
            return *err = perr, st;
        if (opts && opts->warn) {
            mc_error w;

            mc_error_set(&w, perr.code, perr.file, perr.line, perr.col, "%s; %s is not applied",
                         perr.msg, at->what);
            opts->warn(opts->warn_user, &w);
        }
        return MC_OK;
    }
    if (!*out) {
        const char *near = mc_material_set_nearest_skin(set, at->name);

        return mc_error_set(err, MC_ERR_IO, at->file, at->line, at->col,
                            "no skin '%s' in the base folder '%s' (skins/*.skin)%s%s%s",
                            at->name, scene->base_path, near ? " (did you mean '" : "",
                            near ? near : "", near ? "'?)" : "");
    }
    return MC_OK;
}

/* The actor's own skin. */
static mc_status actor_skin(mc_material_set *set, const mc_scene *scene, const mc_scene_actor *act,
                            const mc_parse_opts *opts, const mc_skinfile **out, mc_error *err)
{
    char what[256];
    skin_at at = { act->skin, scene->name, what, act->skin_line, act->skin_col };

    snprintf(what, sizeof what, "skin '%s' of actor '%s'", act->skin, act->name);
    return find_skin(set, scene, &at, opts, out, err);
}

/* Doom's stage-less materials of textures/common (common.mtr), which hide a surface even
 * where a base does not declare them. */
static bool is_builtin_nodraw(const char *name)
{
    static const char *const names[] = { "textures/common/nodraw", "textures/common/shadow",
                                         "textures/common/collision" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* idDeclSkin::RemapShaderBySkin: a surface whose material is not drawn keeps it; otherwise the
 * first matching mapping's target replaces it. */
static mc_status apply_skin(mc_scene_materials *sm, const mc_skinfile *skin, const char *shader,
                            const mc_material **mat, mc_error *err)
{
    const char *to;
    mc_status st;

    if (*mat && !mc_material_drawn(*mat))
        return MC_OK;
    to = mc_skinfile_remap(skin, shader);
    if (!to)
        return MC_OK;
    *mat = mc_material_set_find(sm->set, to, &st, err);
    if (st == MC_OK && !*mat && is_builtin_nodraw(to))
        *mat = &sm->nodraw;
    return st;
}


/* Whether mesh m of the actor found neither a material nor an image (after actor_materials;
 * user: the submeshes' materials of every actor): its shader, the cause (mesh_groups.h). */
static const void *untextured(const mc_scene *scene, int actor, int m, const void *user)
{
    const mc_material *const *const *submesh = user;
    const mc_scene_actor *act = &scene->actors[actor];
    const char *shader = act->mesh.meshes[m].shader;

    return shader[0] && !mc_scene_actor_has_material_line(act, shader) && !submesh[actor][m] &&
                   !act->textures[m]
           ? shader
           : NULL;
}

static void warn_untextured_mesh(const mc_scene *scene, int actor, int m, const char *who,
                                 int count, const void *user, const mc_parse_opts *opts)
{
    const mc_scene_actor *act = &scene->actors[actor];
    mc_error w;

    (void)user;
    mc_error_set(&w, MC_ERR_IO, act->mesh.name, act->mesh.meshes[m].shader_line,
                 act->mesh.meshes[m].shader_col,
                 "no material and no image for shader '%s' of %s in '%s'; "
                 "not drawn (Doom's implicit material of a missing image is invisible; "
                 "developer images draw its box); to draw %s, write material \"%s\" "
                 "\"IMAGE\" in %s",
                 act->mesh.meshes[m].shader, who, scene->base_path, count > 1 ? "them" : "it",
                 act->mesh.meshes[m].shader, count > 1 ? "each actor" : "the actor");
    opts->warn(opts->warn_user, &w);
}

/* One warning per shader that found neither a material nor an image, at its first mesh, a line
 * for the other meshes with it, the shaders past the first few counted, actors of one mesh told
 * once (mesh_groups.h), as scene_resolve.c groups the meshes without an image. */
static void warn_untextured(const mc_scene *scene, const mc_scene_materials *out,
                            const mc_parse_opts *opts)
{
    for (int a = 0; a < scene->num_actors && !(opts && opts->stop && *opts->stop); a++)
        mc_mesh_groups_warn(scene, a, untextured, warn_untextured_mesh,
                            (const mc_material *const *const *)out->submesh,
                            ", which the same material line covers", opts);
}

/* Light i's material (tr_lightrun.cpp, R_DeriveLightData): the one it names; one not declared
 * is a warning and, as Doom's FindMaterial(texture, false) returning NULL, the light takes the
 * default of its kind, lights/defaultPointLight or lights/defaultProjectedLight, when the base
 * declares it (NULL otherwise: md5cine's built-in images). Its falloff image is the material's
 * lightFalloffImage, else the default material's ("use the falloff from the default shader of
 * the correct type"), else the built-in one (NULL). */
static mc_status light_material(mc_scene_materials *out, const mc_scene *scene, int i,
                                const mc_parse_opts *opts, mc_error *err)
{
    const mc_scene_light *l = &scene->lights[i];
    const char *def = l->projected ? "lights/defaultProjectedLight" : "lights/defaultPointLight";
    const mc_material *m = NULL, *d;
    mc_status st = MC_OK;

    if (l->shader) {
        m = mc_material_set_find(out->set, l->shader, &st, err);
        if (st != MC_OK)
            return st;
        if (!m && opts && opts->warn) {
            mc_error w;

            mc_error_set(&w, MC_ERR_IO, scene->name, l->shader_line, l->shader_col,
                         "no light material '%s' in the base folder '%s'; light '%s' is %s",
                         l->shader, scene->base_path, l->name, def);
            opts->warn(opts->warn_user, &w);
        }
    }
    d = mc_material_set_find(out->set, def, &st, err);
    if (st != MC_OK)
        return st;
    out->light[i] = m ? m : d;
    out->light_falloff[i] = m && m->falloff.present ? m : d && d->falloff.present ? d : NULL;
    return MC_OK;
}

/* The materials of act's submeshes under skin (NULL: none) into mats. */
static mc_status fill_look(mc_scene_materials *out, const mc_scene_actor *act,
                           const mc_skinfile *skin, const mc_material **mats, mc_error *err)
{
    mc_status st = MC_OK;

    for (int m = 0; m < act->mesh.num_meshes && st == MC_OK; m++) {
        const char *shader = act->mesh.meshes[m].shader;

        if (!shader[0] || mc_scene_actor_has_material_line(act, shader))
            continue;
        mats[m] = mc_material_set_find(out->set, shader, &st, err);
        /* neither a declaration nor a loose image file: the implicit material, its image
         * found wherever the base has one, archives too */
        if (st == MC_OK && !mats[m] && !act->textures[m])
            mats[m] = mc_material_set_implicit(out->set, shader, &st, err);
        if (st == MC_OK && skin)
            st = apply_skin(out, skin, shader, &mats[m], err);
    }
    return st;
}

/* The look of skin command fc of act: the one of its skin when an earlier command made it, else
 * a new one (*n of them so far). `none` (compared with case, as AddFrameCommand does) is no
 * skin: game/anim/Anim_Blend.cpp idAnim::CallFrameCommands FC_SKIN calls idEntity::SetSkin,
 * which sets the render entity's customSkin, NULL for none -- no skin at all, the actor's own
 * included. */
static mc_status command_look(mc_scene_materials *out, const mc_scene *scene,
                              const mc_scene_actor *act, const mc_frame_command *fc,
                              mc_scene_look *looks, int *n, int *look,
                              const mc_parse_opts *opts, mc_error *err)
{
    const char *name = fc->args[0].text;
    const mc_skinfile *skin = NULL;
    mc_status st = MC_OK;

    if (strcmp(name, "none") != 0) {
        char what[256];
        skin_at at = { name, act->played->file, what, fc->args[0].line, fc->args[0].col };

        snprintf(what, sizeof what, "skin '%s' of frame %d of anim '%s'", name, fc->frame,
                 act->played->name);
        st = find_skin(out->set, scene, &at, opts, &skin, err);
    }
    for (*look = 0; st == MC_OK && *look < *n; (*look)++)
        if (looks[*look].decl == skin)
            return MC_OK;
    if (st != MC_OK)
        return st;
    looks[*n].skin = skin ? name : NULL;
    looks[*n].decl = skin;
    looks[*n].submesh = calloc((size_t)act->mesh.num_meshes + 1, sizeof *looks[*n].submesh);
    if (!looks[*n].submesh)
        return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
    (*n)++;
    return fill_look(out, act, skin, looks[*look].submesh, err);
}

/* The looks of actor a's skin commands, each skin resolved once. */
static mc_status actor_looks(mc_scene_materials *out, const mc_scene *scene, int a,
                             const mc_parse_opts *opts, mc_error *err)
{
    const mc_scene_actor *act = &scene->actors[a];
    int nc = act->num_frame_commands;
    mc_status st = MC_OK;

    if (!mc_scene_actor_has_skin_commands(act))
        return MC_OK;
    out->looks[a] = calloc((size_t)nc, sizeof *out->looks[a]);
    out->command_look[a] = malloc((size_t)nc * sizeof *out->command_look[a]);
    if (!out->looks[a] || !out->command_look[a])
        return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
    for (int i = 0; i < nc && st == MC_OK; i++) {
        out->command_look[a][i] = -1;
        if (act->frame_commands[i].kind == MC_FC_SKIN)
            st = command_look(out, scene, act, &act->frame_commands[i], out->looks[a],
                              &out->num_looks[a], &out->command_look[a][i], opts, err);
    }
    return st;
}

/* The materials of actor a's submeshes, its skin applied, and its skin commands' looks. */
static mc_status actor_materials(mc_scene_materials *out, const mc_scene *scene, int a,
                                 const mc_parse_opts *opts, mc_error *err)
{
    const mc_scene_actor *act = &scene->actors[a];
    const mc_skinfile *skin = NULL;
    mc_status st = MC_OK;

    if (act->skin && (st = actor_skin(out->set, scene, act, opts, &skin, err)) != MC_OK)
        return st;
    st = fill_look(out, act, skin, out->submesh[a], err);
    if (st == MC_OK)
        st = actor_looks(out, scene, a, opts, err);
    return st;
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
    out->nodraw.name = strdup("textures/common/nodraw");
    if (!out->nodraw.name) {
        mc_scene_materials_release(out);
        return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
    }
    for (int a = 0; a < scene->num_actors; a++)
        if (scene->actors[a].skin && !scene->base_path) {
            mc_scene_materials_release(out);
            return mc_error_set(err, MC_ERR_USAGE, scene->name, scene->actors[a].skin_line,
                                scene->actors[a].skin_col,
                                "actor '%s' names a skin, but the scene names no base folder",
                                scene->actors[a].name);
        }
    for (int i = 0; i < scene->num_lights; i++)
        if (scene->lights[i].shader && !scene->base_path) {
            mc_scene_materials_release(out);
            return mc_error_set(err, MC_ERR_USAGE, scene->name, scene->lights[i].shader_line,
                                scene->lights[i].shader_col,
                                "light '%s' names a shader, but the scene names no base folder",
                                scene->lights[i].name);
        }
    if (!scene->base_path)
        return MC_OK;
    out->num_lights = scene->num_lights;
    out->num_looks = calloc((size_t)scene->num_actors + 1, sizeof *out->num_looks);
    out->looks = calloc((size_t)scene->num_actors + 1, sizeof *out->looks);
    out->command_look = calloc((size_t)scene->num_actors + 1, sizeof *out->command_look);
    out->light = calloc((size_t)scene->num_lights + 1, sizeof *out->light);
    out->light_falloff = calloc((size_t)scene->num_lights + 1, sizeof *out->light_falloff);
    if (!out->light || !out->light_falloff || !out->num_looks || !out->looks ||
        !out->command_look) {
        mc_scene_materials_release(out);
        return mc_error_set(err, MC_ERR_NOMEM, scene->name, 0, 0, "out of memory");
    }
    st = mc_vfs_open(scene->base_path, &out->vfs, err);
    if (st == MC_OK)
        st = mc_material_set_load(out->vfs, opts, &out->set, err);
    if (st == MC_OK) /* the used declarations' repeated warnings, one line each */
        mc_material_set_group_warnings(out->set);
    for (int a = 0; a < scene->num_actors && st == MC_OK; a++)
        st = actor_materials(out, scene, a, opts, err);
    if (st == MC_OK)
        warn_untextured(scene, out, opts);
    for (int i = 0; i < scene->num_lights && st == MC_OK; i++)
        st = light_material(out, scene, i, opts, err);
    if (st == MC_OK)
        mc_material_set_ungroup_warnings(out->set);
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
    for (int a = 0; m->looks && a < m->num_actors; a++) {
        for (int k = 0; m->looks[a] && k < m->num_looks[a]; k++)
            free(m->looks[a][k].submesh);
        free(m->looks[a]);
        free(m->command_look[a]);
    }
    free(m->num_looks);
    free(m->looks);
    free(m->command_look);
    free(m->submesh);
    free(m->light);
    free(m->light_falloff);
    mc_material_set_destroy(m->set);
    mc_vfs_destroy(m->vfs);
    mc_material_release(&m->nodraw);
    memset(m, 0, sizeof *m);
}
