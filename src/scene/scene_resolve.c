/* The .md5scene file: resolve (load every named file, match joints, find textures). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/limits.h>
#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene.h>
#include <md5cine/timeline.h>
#include <md5cine/vfs.h>

#include "core/nearest.h"
#include "formats/lex.h"
#include "formats/modeldef.h"
#include "scene/mesh_groups.h"
#include "scene/scene_parse.h"

/* ---------------------------------------------------------------- resolve */

/* A file named at scene line:col failed to load. An error without a position (cannot open,
 * too large) is moved to the scene token that names the file; a parse error inside the file
 * keeps its own position. */
static mc_status at_scene_token(const mc_scene *s, mc_error *e, int line, int col, const char *what)
{
    char inner[sizeof e->msg];

    if (e->line != 0)
        return e->code;
    memcpy(inner, e->msg, sizeof inner);
    return mc_error_set(e, e->code, s->name, line, col, "cannot load %s: %s", what, inner);
}

static void warn(const mc_parse_opts *opts, const mc_error *w)
{
    if (opts && opts->warn)
        opts->warn(opts->warn_user, w);
}

/* The shader name as an image stem: '\' -> '/', extension after the last '.' of the last path
 * component removed. */
static void shader_stem(const char *shader, char *out, size_t cap)
{
    size_t n = strlen(shader);
    char *slash, *dot;

    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        out[i] = shader[i] == '\\' ? '/' : shader[i];
    out[n] = '\0';
    slash = strrchr(out, '/');
    dot = strrchr(slash ? slash : out, '.');
    if (dot && dot != (slash ? slash + 1 : out))
        *dot = '\0';
}

/* Doom's implicit rule: <stem>.tga, .png, .jpg next to the mesh, then under base. Returns the
 * found path in the arena, NULL when none (*oom set when out of memory). */
static const char *implicit_texture(mc_scene *s, const mc_scene_actor *a, const char *shader,
                                    bool *oom)
{
    static const char *const exts[3] = { ".tga", ".png", ".jpg" };
    const char *mesh_dir = dir_of(&s->arena, a->mesh_path);
    const char *dirs[2], *names[2];
    char stem[PATH_CAP], path[PATH_CAP];

    *oom = mesh_dir == NULL;
    if (*oom)
        return NULL;
    dirs[0] = mesh_dir;
    dirs[1] = s->base_path;
    shader_stem(shader, stem, sizeof stem);
    /* Next to the mesh the shader's file name counts (shaders are game paths, or an artist's
     * absolute path as in Red Eclipse's files); under base, its whole path. */
    names[0] = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
    names[1] = stem;
    for (int d = 0; d < 2; d++) {
        if (!dirs[d])
            continue;
        for (int x = 0; x < 3; x++) {
            int n = snprintf(path, sizeof path, "%s%s%s%s", dirs[d],
                             (d == 1 && dirs[d][0] && dirs[d][strlen(dirs[d]) - 1] != '/') ? "/"
                                                                                           : "",
                             names[d], exts[x]);

            if (n > 0 && (size_t)n < sizeof path && file_exists(path)) {
                const char *found = mc_arena_strndup(&s->arena, path, (size_t)n);

                *oom = found == NULL;
                return found;
            }
        }
    }
    return NULL;
}

static void warn_no_texture(const mc_scene *s, const mc_scene_actor *a, const mc_submesh *sm,
                            int index, const mc_parse_opts *opts)
{
    mc_error w;
    char stem[PATH_CAP];
    const char *slash = strrchr(a->mesh_path, '/');
    /* The mesh's folder as looked in: without its trailing '/' (but "/" itself), "." for the
     * current one. */
    int dir_len = !slash ? 1 : slash == a->mesh_path ? 1 : (int)(slash - a->mesh_path);
    const char *dir = slash ? a->mesh_path : ".";

    if (!opts || !opts->warn)
        return;
    if (!sm->shader[0]) {
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "mesh %d of actor '%s' has an empty shader and no 'material' line for "
                     "it: drawn without a texture",
                     index, a->name);
    } else {
        const char *file;

        shader_stem(sm->shader, stem, sizeof stem);
        file = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "no image for shader '%s' of actor '%s': looked for '%s.tga', '.png', "
                     "'.jpg' in '%.*s'%s%s%s%s%s%s; drawn without a texture",
                     sm->shader, a->name, file, dir_len, dir, s->base_path ? " and in '" : "",
                     s->base_path ? s->base_path : "", s->base_path ? "'" : "",
                     s->base_path && file != stem ? " as '" : "",
                     s->base_path && file != stem ? stem : "",
                     s->base_path && file != stem ? "'" : "");
    }
    warn(opts, &w);
}

/* What the no-texture warnings look at: the scene, and whether its base may declare materials. */
typedef struct no_texture_at {
    const mc_scene *s;
    bool materials;
} no_texture_at;

/* Whether mesh k of a is drawn without a texture and is warned about (after resolve_textures has
 * looked): with materials in the base, a named shader may still be a material. */
static bool lacks_texture(const mc_scene_actor *a, int k, const void *user)
{
    const no_texture_at *at = user;

    return !a->textures[k] && !(at->materials && a->mesh.meshes[k].shader[0]);
}

static void warn_lacking(const mc_scene_actor *a, int k, const void *user,
                         const mc_parse_opts *opts)
{
    warn_no_texture(((const no_texture_at *)user)->s, a, &a->mesh.meshes[k], k, opts);
}

/* The meshes of a drawn without a texture: one warning per shader (the empty one too), the
 * others of it in one line, the shaders past the first few counted (mesh_groups.h). */
static void warn_no_textures(const mc_scene *s, const mc_scene_actor *a, bool materials,
                             const mc_parse_opts *opts)
{
    const no_texture_at at = { s, materials };

    mc_mesh_groups_warn(a, lacks_texture, warn_lacking, &at, opts);
}

/* Whether the base folder may declare materials (a folder of declarations the engine reads,
 * material.h mc_material_set_load, or a .pk4 archive): then a shader without an image may still
 * name a material, and mc_scene_materials_load (material.h) warns about the submeshes that get
 * neither. */
static bool base_has_materials(const mc_scene *s)
{
    static const char *const folders[] = { "materials", "skins",     "sound", "def",
                                           "fx",        "particles", "af",    "newpdas" };
    char path[PATH_CAP];
    struct stat st;
    DIR *d;
    const struct dirent *de;
    bool found = false;

    if (!s->base_path)
        return false;
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", s->base_path, folders[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return true;
    }
    d = opendir(s->base_path);
    while (d && !found && (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);

        found = n > 4 && strcasecmp(de->d_name + n - 4, ".pk4") == 0;
    }
    if (d)
        closedir(d);
    return found;
}

static mc_status resolve_textures(mc_scene *s, mc_scene_actor *a, const mc_parse_opts *opts,
                                  mc_error *e)
{
    bool materials = base_has_materials(s);

    for (int i = 0; i < a->num_materials; i++) {
        const mc_scene_material *m = &a->materials[i];

        if (!file_exists(m->path))
            return mc_error_set(e, MC_ERR_IO, s->name, m->line, m->col,
                                "cannot read image '%s' for shader '%s'", m->path, m->shader);
    }
    a->textures = mc_arena_alloc(&s->arena, (size_t)a->mesh.num_meshes, sizeof *a->textures);
    if (!a->textures && a->mesh.num_meshes > 0)
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    for (int k = 0; k < a->mesh.num_meshes; k++) {
        const mc_submesh *sm = &a->mesh.meshes[k];
        bool oom = false;

        for (int i = 0; i < a->num_materials && !a->textures[k]; i++) {
            if (mc_scene_shader_equal(a->materials[i].shader, sm->shader)) {
                a->textures[k] = a->materials[i].path;
                a->materials[i].used = true;
            }
        }
        if (!a->textures[k] && sm->shader[0])
            a->textures[k] = implicit_texture(s, a, sm->shader, &oom);
        if (oom)
            return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    warn_no_textures(s, a, materials, opts);
    for (int i = 0; i < a->num_materials; i++) {
        mc_error w;

        if (a->materials[i].used || !opts || !opts->warn)
            continue;
        mc_error_set(&w, MC_ERR_MISMATCH, s->name, a->materials[i].line, a->materials[i].col,
                     "no mesh of actor '%s' has shader '%s'", a->name, a->materials[i].shader);
        warn(opts, &w);
    }
    return MC_OK;
}

/* True (with MC_ERR_INTERRUPTED in e) once the caller's stop flag is set. */
static bool stopped(const mc_parse_opts *opts, mc_error *e)
{
    if (!opts || !opts->stop || !*opts->stop)
        return false;
    mc_error_set(e, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    return true;
}

/* ---------------------------------------------------------------- model declarations */

#define MAX_MODEL_INHERIT 16
#define INHERIT_WARNED_MAX 16

/* The base as Doom's file system sees it (vfs.h: its loose files, then its .pk4 archives) and
 * the .def files of its def/ folder in the order the declaration manager reads them
 * (idFileSystem::ListFiles with sort: by name, each name once, its text from the place that
 * wins), each read when a search first reaches it and kept until the scene is resolved. Opened
 * by the first actor with a model; a scene without one never indexes its base here. */
typedef struct model_base {
    mc_vfs *vfs;        /* NULL until opened */
    char **names;       /* mc_vfs_list's block: "def/x.def", ... */
    int count;
    int loaded;         /* names[0 .. loaded) are read: */
    char **text;        /* count entries, NUL-terminated */
    size_t *len;
    const char **where; /* places for errors, in the scene's arena: "base/def/x.def",
                           "base/pak000.pk4:def/x.def" */
    size_t text_bytes;  /* held in all; within MC_LIMIT_MTR_TEXT_BYTES, the budget of the
                           base's declaration text (docs/materials-and-shading.md, "Files") */
    /* The unknown models to inherit warned about, each once: the actors that meet one again
     * are counted and said in one line at the end (past INHERIT_WARNED_MAX, each warns) */
    struct {
        char file[512], model[MC_LIMIT_NAME_LEN + 1];
        int line, col, more;
    } warned[INHERIT_WARNED_MAX];
    int num_warned;
} model_base;

static void model_base_release(model_base *mb)
{
    for (int i = 0; i < mb->loaded; i++)
        free(mb->text[i]);
    free(mb->text);
    free(mb->len);
    free(mb->where);
    free(mb->names);
    mc_vfs_destroy(mb->vfs);
    memset(mb, 0, sizeof *mb);
}

static mc_status model_base_open(mc_scene *s, model_base *mb, mc_error *e)
{
    mc_status st;

    if (mb->vfs)
        return MC_OK;
    st = mc_vfs_open(s->base_path, &mb->vfs, e);
    if (st == MC_OK)
        st = mc_vfs_list(mb->vfs, "def", ".def", &mb->names, &mb->count, e);
    if (st == MC_OK && mb->count > 0) {
        mb->text = calloc((size_t)mb->count, sizeof *mb->text);
        mb->len = calloc((size_t)mb->count, sizeof *mb->len);
        mb->where = calloc((size_t)mb->count, sizeof *mb->where);
        if (!mb->text || !mb->len || !mb->where)
            st = mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    if (st != MC_OK)
        model_base_release(mb);
    return st;
}

/* Reads the next def file, within what is left of the declaration text budget (checked on its
 * declared size before it is read or inflated). */
static mc_status model_base_read_next(mc_scene *s, model_base *mb, mc_error *e)
{
    char where[4200];
    uint8_t *data;
    size_t len;
    bool found;
    int i = mb->loaded;
    mc_status st = mc_vfs_read_max(mb->vfs, mb->names[i], MC_LIMIT_MTR_TEXT_BYTES - mb->text_bytes,
                                   &data, &len, &found, where, sizeof where, e);

    if (st != MC_OK)
        return st;
    if (!found) /* listed by the same vfs: cannot happen */
        return mc_error_set(e, MC_ERR_IO, s->base_path, 0, 0, "cannot read '%s'", mb->names[i]);
    mb->where[i] = mc_arena_strndup(&s->arena, where, strlen(where));
    if (!mb->where[i]) {
        free(data);
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    }
    mb->text[i] = (char *)data;
    mb->len[i] = len;
    mb->text_bytes += len;
    mb->loaded++;
    return MC_OK;
}

/* The first declaration `model name` of the def files, in their order (the declaration
 * manager keeps the first of a name: DeclManager.cpp, idDeclFile::LoadAndParse). *file (its
 * place) NULL when none declares it. */
static mc_status find_model(mc_scene *s, model_base *mb, const char *name,
                            const mc_parse_opts *opts, mc_modeldef *out, const char **file,
                            mc_error *e)
{
    *file = NULL;
    for (int i = 0; i < mb->count; i++) {
        bool found;
        mc_status st;

        if (i == mb->loaded) {
            if (stopped(opts, e))
                return MC_ERR_INTERRUPTED;
            st = model_base_read_next(s, mb, e);
            if (st != MC_OK)
                return st;
        }
        st = mc_modeldef_find(mb->text[i], mb->len[i], mb->where[i], name, &s->arena, out, &found,
                              e);
        if (st != MC_OK)
            return st;
        if (found) {
            *file = mb->where[i];
            return MC_OK;
        }
    }
    return MC_OK;
}

/* A game path the model names (its mesh, an anim): *place is where the base holds it, the
 * loose file's path ("base/models/x.md5mesh") or the archive's place
 * ("base/pak000.pk4:models/x.md5mesh"), and *game the path to read it by. Only the base's
 * files and archives are looked in (decl_files_exist has found it there). */
static mc_status game_file(mc_scene *s, const model_base *mb, const char *path,
                           const char **place, const char **game, mc_error *e)
{
    char where[4200];

    *game = NULL;
    if (!mc_vfs_exists(mb->vfs, path, where, sizeof where))
        return mc_error_set(e, MC_ERR_IO, s->base_path, 0, 0, "cannot read '%s'", path);
    *place = mc_arena_strndup(&s->arena, where, strlen(where));
    *game = path;
    return *place ? MC_OK : mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
}

/* The name of anim `full` without its numeric suffix (ParseAnim's alias: "idle2" -> "idle"). */
static bool alias_is(const char *full, const char *name)
{
    size_t n = strlen(full);

    while (n > 1 && full[n - 1] >= '0' && full[n - 1] <= '9')
        n--;
    return strlen(name) == n && strncmp(full, name, n) == 0;
}

/* Applies one declaration over what those it inherits gave: its mesh, skin and offset when it
 * names them, its anims added (one of an inherited name replaced in place), its removes. */
static mc_status apply_modeldef(mc_scene_actor *a, const mc_modeldef *m,
                                const char *file, const char **mesh, mc_error *e)
{
    if (m->mesh)
        *mesh = m->mesh;
    if (m->skin)
        a->model_skin = m->skin;
    if (m->has_offset)
        a->offset = (mc_vec3){ m->offset[0], m->offset[1], m->offset[2] };
    for (int k = 0; k < m->num_anims; k++) {
        const mc_modeldef_anim *an = &m->anims[k];
        int i = 0;

        while (i < a->num_model_anims && strcmp(a->model_anims[i].name, an->name) != 0)
            i++;
        if (an->remove) {
            int removed = 0;

            for (int j = 0; j < a->num_model_anims; j++) {
                if (strcmp(a->model_anims[j].name, an->name) == 0 ||
                    alias_is(a->model_anims[j].name, an->name)) {
                    memmove(&a->model_anims[j], &a->model_anims[j + 1],
                            (size_t)(a->num_model_anims - j - 1) * sizeof a->model_anims[0]);
                    a->num_model_anims--;
                    j--;
                    removed++;
                }
            }
            if (!removed)
                return mc_error_set(e, MC_ERR_SYNTAX, file, an->line, an->col,
                                    "no inherited anim '%s' to remove in model '%s'", an->name,
                                    m->name);
            continue;
        }
        if (i == a->num_model_anims)
            a->num_model_anims++;
        /* declared again: idAnim::SetAnim clears the inherited one's commands and flags */
        a->model_anims[i] = (mc_scene_model_anim){
            .name = an->name, .path = an->path, .file = file, .flags = an->flags,
            .num_commands = an->num_commands, .commands = an->commands,
            .num_unknown_flags = an->num_unknown_flags, .unknown_flags = an->unknown_flags };
    }
    return MC_OK;
}

/* A game file the declaration m (in file) names, looked up among the base's loose files and
 * archives only (vfs.h: never through a link to a folder, nor a link to a file outside the base;
 * the parser has refused '..' and absolute paths): one that is not there is an error at its
 * token in the .def. The engine defaults the whole model
 * then (Anim_Blend.cpp, idDeclModelDef::Parse "Model '%s' defaulted" for its mesh,
 * idDeclModelDef::ParseAnim "Couldn't load anim" for any file of any anim), and so does a model
 * inheriting it ("inherited model definition '%s' defaulted"). */
static mc_status decl_file_exists(const mc_scene *s, const model_base *mb, const char *file,
                                  const mc_modeldef *m, const mc_modeldef_file *f,
                                  const char *anim, mc_error *e)
{
    if (mc_vfs_exists(mb->vfs, f->path, NULL, 0))
        return MC_OK;
    if (!anim)
        return mc_error_set(e, MC_ERR_IO, file, f->line, f->col,
                            "mesh '%s' of model '%s' is not in '%s' (loose files and .pk4 "
                            "archives)", f->path, m->name, s->base_path);
    return mc_error_set(e, MC_ERR_IO, file, f->line, f->col,
                        "file '%s' of anim '%s' of model '%s' is not in '%s' (loose files and "
                        ".pk4 archives)", f->path, anim, m->name, s->base_path);
}

/* Every file of every declaration of the chain: its mesh and each file of each anim, even one
 * that a later declaration replaces or removes (each declaration is parsed whole, on its own). */
static mc_status decl_files_exist(const mc_scene *s, const model_base *mb,
                                  const mc_modeldef *chain, const char *const *files, int depth,
                                  mc_error *e)
{
    for (int i = 0; i < depth; i++) {
        const mc_modeldef *m = &chain[i];
        mc_modeldef_file mesh = { m->mesh, m->mesh_line, m->mesh_col };
        mc_status st = m->mesh ? decl_file_exists(s, mb, files[i], m, &mesh, NULL, e) : MC_OK;

        for (int k = 0; st == MC_OK && k < m->num_anims; k++)
            for (int f = 0; st == MC_OK && f < m->anims[k].num_files; f++)
                st = decl_file_exists(s, mb, files[i], m, &m->anims[k].files[f],
                                      m->anims[k].name, e);
        if (st != MC_OK)
            return st;
    }
    return MC_OK;
}

/* The base an actor's `model` is read from, opened (at the model's token when it cannot be). */
static mc_status open_model_base(mc_scene *s, const mc_scene_actor *a, model_base *mb,
                                 mc_error *e)
{
    mc_status st;

    if (!s->base_path)
        return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->model_line, a->model_col,
                            "actor '%s' names model '%s', but the scene has no 'base' (model "
                            "declarations are read from its def/ folder)", a->name, a->model);
    st = model_base_open(s, mb, e);
    if (st != MC_OK && e->line == 0) { /* the base or an archive in it: name it once */
        char inner[sizeof e->msg], file[sizeof e->file];

        memcpy(inner, e->msg, sizeof inner);
        memcpy(file, e->file, sizeof file);
        if (strstr(inner, file))
            file[0] = '\0';
        return mc_error_set(e, st, s->name, a->model_line, a->model_col,
                            "cannot load model '%s': %s%s%s%s", a->model, file[0] ? "'" : "", file,
                            file[0] ? "': " : "", inner);
    }
    return st;
}

/* The actor's `anim` as one of its model's anims: its file, in a->anim_path. */
static mc_status model_anim(mc_scene *s, mc_scene_actor *a, const model_base *mb, mc_error *e)
{
    /* idDeclModelDef::GetAnim: the full name, else the first of its alias (the engine picks
     * one of those at random) */
    int k = 0;

    while (k < a->num_model_anims && strcmp(a->model_anims[k].name, a->anim_name) != 0)
        k++;
    for (int i = 0; k == a->num_model_anims && i < a->num_model_anims; i++)
        if (alias_is(a->model_anims[i].name, a->anim_name))
            k = i;
    if (k == a->num_model_anims)
        return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->anim_line, a->anim_col,
                            "model '%s' has no anim '%s' (%d anims declared at %s:%d)", a->model,
                            a->anim_name, a->num_model_anims, a->model_file, a->model_decl_line);
    a->played = &a->model_anims[k];
    a->num_frame_commands = a->played->num_commands;
    a->frame_commands = a->played->commands;
    return game_file(s, mb, a->model_anims[k].path, &a->anim_path, &a->anim_game, e);
}

/* The warning for declaration m's unknown model to inherit, name: once for all the actors that
 * meet it (warned_more gives the count). */
static void warn_inherit(model_base *mb, const mc_parse_opts *opts, const char *file,
                         const mc_modeldef *m, const char *name)
{
    mc_error w;
    int i = 0;

    while (i < mb->num_warned && !(mb->warned[i].line == m->inherit_line &&
                                   mb->warned[i].col == m->inherit_col &&
                                   strcmp(mb->warned[i].file, file) == 0))
        i++;
    if (i < mb->num_warned) {
        mb->warned[i].more++;
        return;
    }
    if (i < INHERIT_WARNED_MAX) {
        snprintf(mb->warned[i].file, sizeof mb->warned[i].file, "%s", file);
        snprintf(mb->warned[i].model, sizeof mb->warned[i].model, "%s", m->name);
        mb->warned[i].line = m->inherit_line;
        mb->warned[i].col = m->inherit_col;
        mb->warned[i].more = 0;
        mb->num_warned++;
    }
    mc_error_set(&w, MC_ERR_SYNTAX, file, m->inherit_line, m->inherit_col,
                 "unknown model '%s' to inherit", name);
    warn(opts, &w);
}

/* After the actors: one line for each unknown inherit more actors met, as mesh_groups.c says
 * the more meshes of a group. */
static void warned_more(const model_base *mb, const mc_parse_opts *opts)
{
    for (int i = 0; i < mb->num_warned; i++) {
        mc_error w;
        int n = mb->warned[i].more;

        if (n == 0)
            continue;
        mc_error_set(&w, MC_ERR_SYNTAX, mb->warned[i].file, 0, 0,
                     "... and %d more actor%s of model '%s' (line %d) like this", n,
                     n == 1 ? "" : "s", mb->warned[i].model, mb->warned[i].line);
        warn(opts, &w);
    }
}

/* An actor's `model`: its declaration and those it inherits (the first declaration of each
 * name in def/ under the base), their mesh, skin, offset and anims; an `anim` naming one of
 * them becomes its file. */
static mc_status resolve_model(mc_scene *s, mc_scene_actor *a, model_base *mb,
                               const mc_parse_opts *opts, mc_error *e)
{
    mc_modeldef chain[MAX_MODEL_INHERIT];
    const char *files[MAX_MODEL_INHERIT] = { NULL };
    const char *mesh = NULL, *name = a->model;
    int depth = 0, total = 0;
    mc_status st;

    st = open_model_base(s, a, mb, e);
    if (st != MC_OK)
        return st;
    while (st == MC_OK && name) {
        st = find_model(s, mb, name, opts, &chain[depth], &files[depth], e);
        if (st != MC_OK && st != MC_ERR_INTERRUPTED) /* a def file unread: at the model */
            return at_scene_token(s, e, a->model_line, a->model_col, "model");
        if (st != MC_OK)
            return st;
        if (!files[depth]) {
            if (depth == 0)
                return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->model_line, a->model_col,
                                    "no model declaration '%s' in %s/def/*.def (loose files "
                                    "and .pk4 archives)", a->model, s->base_path);
            /* Anim_Blend.cpp: an unknown model to inherit is a warning; the rest is used */
            warn_inherit(mb, opts, files[depth - 1], &chain[depth - 1], name);
            break;
        }
        total += chain[depth].num_anims;
        name = chain[depth].inherit;
        for (int i = 0; name && i <= depth; i++)
            if (strcasecmp(chain[i].name, name) == 0)
                return mc_error_set(e, MC_ERR_SYNTAX, files[depth], chain[depth].inherit_line,
                                    chain[depth].inherit_col,
                                    "model '%s' inherits itself (through '%s')", chain[0].name,
                                    name);
        if (++depth == MAX_MODEL_INHERIT && name)
            return mc_error_set(e, MC_ERR_LIMIT, files[depth - 1],
                                chain[depth - 1].inherit_line, chain[depth - 1].inherit_col,
                                "model '%s' inherits more than %d deep", a->model,
                                MAX_MODEL_INHERIT);
    }
    if (st == MC_OK)
        st = decl_files_exist(s, mb, chain, files, depth, e);
    if (st != MC_OK)
        return st;
    a->model_file = files[0];
    a->model_decl_line = chain[0].line;
    a->model_anims = mc_arena_alloc(&s->arena, (size_t)total + 1, sizeof *a->model_anims);
    if (!a->model_anims)
        return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
    for (int i = depth - 1; i >= 0; i--) {
        st = apply_modeldef(a, &chain[i], files[i], &mesh, e);
        if (st != MC_OK)
            return st;
    }
    if (!mesh)
        return mc_error_set(e, MC_ERR_SYNTAX, files[0], chain[0].line, chain[0].col,
                            "model '%s' names no mesh", chain[0].name);
    st = game_file(s, mb, mesh, &a->mesh_path, &a->mesh_game, e);
    if (st != MC_OK)
        return st;
    a->mesh_line = a->model_line;
    a->mesh_col = a->model_col;
    if (!a->skin && a->model_skin) {
        a->skin = a->model_skin;
        a->skin_line = a->model_line;
        a->skin_col = a->model_col;
    }
    return a->anim_name ? model_anim(s, a, mb, e) : MC_OK;
}

/* A mesh/anim mismatch stays at the offending joint's line in its file and names the actor
 * and the scene line of its anim: the same two files may pair well in another actor. */
static mc_status for_actor(const mc_scene *s, const mc_scene_actor *a, mc_error *e)
{
    char inner[sizeof e->msg], file[sizeof e->file];

    memcpy(inner, e->msg, sizeof inner);
    memcpy(file, e->file, sizeof file);
    return mc_error_set(e, e->code, file, e->line, e->col, "%s, in actor '%s' (%s:%d)", inner,
                        a->name, s->name, a->anim_line);
}

/* The earlier actor that loaded the file at path as its mesh (anim false) or anim, or NULL:
 * a file is read once per scene, and actors of one mesh share it (its arena is released with
 * the actor that loaded it). */
static const mc_scene_actor *loaded_by(const mc_scene *s, const mc_scene_actor *a, bool anim)
{
    const char *path = anim ? a->anim_path : a->mesh_path;

    for (const mc_scene_actor *b = s->actors; b < a; b++) {
        const char *other = anim ? b->anim_path : b->mesh_path;

        /* an anim is shared only between actors that place joint 0 alike (model or files) */
        if (other && !(anim ? b->anim_shared : b->mesh_shared) && strcmp(other, path) == 0 &&
            (!anim || !b->model == !a->model))
            return b;
    }
    return NULL;
}

/* Reads game path `game` through the base's vfs (a loose file or a .pk4 entry) into *buf, held
 * to the size a loose file may have (mc_read_file's MC_MAX_FILE_BYTES), checked on an entry's
 * declared size before it is inflated. */
static mc_status read_game_file(const model_base *mb, const char *game, char **buf, size_t *len,
                                mc_error *e)
{
    uint8_t *data;
    bool found;
    mc_status st = mc_vfs_read_max(mb->vfs, game, MC_MAX_FILE_BYTES, &data, len, &found, NULL, 0,
                                   e);

    *buf = (char *)data;
    if (st == MC_OK && !found) /* found by mc_vfs_exists in the same vfs: cannot happen */
        st = mc_error_set(e, MC_ERR_IO, NULL, 0, 0, "cannot read '%s'", game);
    return st;
}

/* The actor's mesh: a file, or a model's mesh through the base (errors at its place there,
 * "base/pak000.pk4:models/x.md5mesh:12:5"). */
static mc_status load_mesh(const model_base *mb, mc_scene_actor *a, const mc_parse_opts *opts,
                           mc_error *e)
{
    char *buf;
    size_t len;
    mc_status st;

    if (!a->mesh_game)
        return mc_mesh_load(a->mesh_path, opts, &a->mesh, e);
    st = read_game_file(mb, a->mesh_game, &buf, &len, e);
    if (st == MC_OK)
        st = mc_mesh_parse(buf, len, a->mesh_path, opts, &a->mesh, e);
    free(buf);
    return st;
}

static mc_status load_anim(const model_base *mb, mc_scene_actor *a, const mc_parse_opts *opts,
                           mc_error *e)
{
    char *buf;
    size_t len;
    mc_status st;

    if (!a->anim_game)
        return mc_anim_load(a->anim_path, opts, &a->anim, e);
    st = read_game_file(mb, a->anim_game, &buf, &len, e);
    if (st == MC_OK)
        st = mc_anim_parse(buf, len, a->anim_path, opts, &a->anim, e);
    free(buf);
    return st;
}

/* The played anim's frame commands against its file's frames: idAnim::AddFrameCommand's
 * "Frame %d out of range" (1 <= frame <= numFrames of the anim's first file), which makes the
 * engine default the whole model; here an error at the command's `frame` in the .def file. */
static mc_status check_frames(const mc_scene_actor *a, mc_error *e)
{
    for (int i = 0; i < a->num_frame_commands; i++) {
        const mc_frame_command *c = &a->frame_commands[i];

        if (c->frame > a->anim.num_frames)
            return mc_error_set(e, MC_ERR_RANGE, a->played->file, c->line, c->col,
                                "frame %d out of range: anim '%s' (%s) has %d frame%s", c->frame,
                                a->played->name, a->played->path, a->anim.num_frames,
                                a->anim.num_frames == 1 ? "" : "s");
    }
    return MC_OK;
}

static mc_status resolve_actor(mc_scene *s, mc_scene_actor *a, model_base *mb,
                               const mc_parse_opts *opts, mc_error *e)
{
    const mc_scene_actor *owner;
    mc_status st;

    if (stopped(opts, e))
        return MC_ERR_INTERRUPTED;
    if (a->model && !a->mesh_path) {
        st = resolve_model(s, a, mb, opts, e);
        if (st != MC_OK)
            return st;
    }
    if ((owner = loaded_by(s, a, false)) != NULL) {
        a->mesh = owner->mesh; /* read only from here on */
        a->mesh_shared = true;
    } else if ((st = load_mesh(mb, a, opts, e)) != MC_OK) {
        return at_scene_token(s, e, a->mesh_line, a->mesh_col, "mesh");
    }
    if (a->anim_path) {
        if (stopped(opts, e))
            return MC_ERR_INTERRUPTED;
        if ((owner = loaded_by(s, a, true)) != NULL) {
            a->anim = owner->anim;
            a->anim_shared = true;
        } else if ((st = load_anim(mb, a, opts, e)) != MC_OK) {
            return at_scene_token(s, e, a->anim_line, a->anim_col, "anim");
        } else if (a->model) { /* placed as the engine loads it (md5anim.h) */
            mc_anim_rebase_root(&a->anim);
        }
        a->joint_map = mc_arena_alloc(&s->arena, (size_t)a->mesh.num_joints, sizeof(int));
        if (!a->joint_map)
            return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
        st = mc_pose_map_anim(&a->mesh, &a->anim, a->joint_map, e);
        if (st == MC_ERR_MISMATCH)
            return for_actor(s, a, e);
        if (st != MC_OK || (st = check_frames(a, e)) != MC_OK)
            return st;
    }
    return resolve_textures(s, a, opts, e);
}

/* A frame command word md5cine skips, with where it is first and how often it comes. */
typedef struct skipped_word {
    const mc_frame_command *first;
    const char *file;
    int count;
    bool flag; /* an unknown anim flag, not a command */
} skipped_word;

/* Counts c (a command, or an unknown flag when flag) among *w; false when out of memory. */
static bool note_skipped(skipped_word **w, int *n, int *cap, const mc_frame_command *c,
                         const char *file, bool flag)
{
    for (int i = 0; i < *n; i++) {
        if ((*w)[i].flag == flag && strcmp((*w)[i].first->word, c->word) == 0) {
            (*w)[i].count++;
            return true;
        }
    }
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        skipped_word *grown = realloc(*w, (size_t)ncap * sizeof *grown);

        if (!grown)
            return false;
        *w = grown;
        *cap = ncap;
    }
    (*w)[(*n)++] = (skipped_word){ c, file, 1, flag };
    return true;
}

/* One warning per name, for the whole scene, of the played anims' frame commands md5cine does
 * not act on (framecmd.h) and of their unknown flags, at the first of each. */
static void warn_skipped_commands(const mc_scene *s, const mc_parse_opts *opts)
{
    skipped_word *w = NULL;
    int n = 0, cap = 0;
    bool ok = true;

    if (!opts || !opts->warn)
        return;
    for (int i = 0; i < s->num_actors && ok; i++) {
        const mc_scene_model_anim *p = s->actors[i].played;

        for (int k = 0; p && ok && k < p->num_commands; k++)
            if (!mc_frame_cmd_acted(p->commands[k].kind))
                ok = note_skipped(&w, &n, &cap, &p->commands[k], p->file, false);
        for (int k = 0; p && ok && k < p->num_unknown_flags; k++)
            ok = note_skipped(&w, &n, &cap, &p->unknown_flags[k], p->file, true);
    }
    for (int i = 0; i < n; i++) {
        const mc_frame_command *c = w[i].first;
        mc_error e;

        mc_error_set(&e, MC_ERR_SYNTAX, w[i].file, c->word_line, c->word_col,
                     "%s '%s' skipped%s (%d time%s in the scene)",
                     w[i].flag ? "unknown anim flag"
                     : c->kind == MC_FC_UNKNOWN ? "unknown frame command"
                                                : "frame command",
                     c->word,
                     w[i].flag || c->kind == MC_FC_UNKNOWN
                             ? ""
                             : ": md5cine acts only on sound, footstep and skin commands",
                     w[i].count, w[i].count == 1 ? "" : "s");
        warn(opts, &e);
    }
    free(w);
}

static void unload(mc_scene *s)
{
    mc_camera_release(&s->camera);
    for (int i = 0; i < s->num_actors; i++) {
        mc_scene_actor *a = &s->actors[i];

        if (!a->mesh_shared)
            mc_mesh_release(&a->mesh);
        if (!a->anim_shared)
            mc_anim_release(&a->anim);
        memset(&a->mesh, 0, sizeof a->mesh);
        memset(&a->anim, 0, sizeof a->anim);
        a->mesh_shared = a->anim_shared = false;
        a->joint_map = NULL; /* arena memory: reclaimed with the scene */
        a->textures = NULL;
    }
    s->resolved = false;
}

mc_status mc_scene_resolve(mc_scene *scene, const mc_parse_opts *opts, mc_error *err)
{
    mc_error local;
    mc_error *e = err ? err : &local;
    model_base mb = { 0 };
    mc_status st;

    if (scene->resolved)
        return mc_error_set(err, MC_ERR_USAGE, scene->name, 0, 0, "scene '%s' is already resolved",
                            scene->name);
    if (stopped(opts, e))
        return MC_ERR_INTERRUPTED;
    if (scene->camera_path) {
        st = mc_camera_load(scene->camera_path, opts, &scene->camera, e);
        if (st != MC_OK)
            st = at_scene_token(scene, e, scene->camera_line, scene->camera_col, "camera");
    } else {
        st = mc_scene_camera_build(scene, &scene->camera, e);
    }
    if (st != MC_OK) {
        unload(scene);
        return st;
    }
    for (int i = 0; i < scene->num_actors && st == MC_OK; i++)
        st = resolve_actor(scene, &scene->actors[i], &mb, opts, e);
    if (st == MC_OK)
        warned_more(&mb, opts);
    model_base_release(&mb);
    if (st != MC_OK) {
        unload(scene);
        return st;
    }
    warn_skipped_commands(scene, opts);
    scene->resolved = true;
    return MC_OK;
}

mc_status mc_scene_load(const char *path, const mc_parse_opts *opts, mc_scene *out, mc_error *err)
{
    char *buf;
    size_t len;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (stopped(opts, err))
        return MC_ERR_INTERRUPTED;
    st = mc_read_file(path, &buf, &len, err);
    if (st != MC_OK)
        return st;
    st = mc_scene_parse(buf, len, path, opts, out, err);
    free(buf);
    if (st != MC_OK)
        return st;
    st = mc_scene_resolve(out, opts, err);
    if (st != MC_OK)
        mc_scene_release(out);
    return st;
}

void mc_scene_release(mc_scene *scene)
{
    if (!scene)
        return;
    unload(scene);
    mc_arena_release(&scene->arena);
    memset(scene, 0, sizeof *scene);
}
