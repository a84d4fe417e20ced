/* The .md5scene file: resolve (load every named file, match joints, find textures). */
#include <limits.h>
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
#include "scene/mesh_groups.h"
#include "scene/model_resolve.h"
#include "scene/scene_parse.h"

/* ---------------------------------------------------------------- resolve */

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

/* Whether path, found under base as a shader's stem, is a file of the base: the stem neither
 * absolute nor a drive's nor with a '..' part (idFileSystemLocal::OpenFileReadFlags refuses
 * those names), and the file, links followed, inside the base folder (as vfs.c indexes links). */
static bool inside_base(const char *base, const char *stem, const char *path)
{
    char real_base[PATH_MAX], real_path[PATH_MAX];
    size_t n;

    if (stem[0] == '/' || strchr(stem, ':'))
        return false;
    for (const char *p = stem; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == stem || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            return false;
    if (!realpath(base, real_base) || !realpath(path, real_path))
        return false;
    n = strlen(real_base);
    return strncmp(real_path, real_base, n) == 0 && (n == 1 || real_path[n] == '/');
}

/* Doom's implicit rule: <stem>.tga, .png, .jpg next to the mesh, then under base (a file of the
 * base only: inside_base). Returns the found path in the arena, NULL when none (*oom set when
 * out of memory). */
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

            if (n > 0 && (size_t)n < sizeof path && file_exists(path) &&
                (d == 0 || inside_base(dirs[d], stem, path))) {
                const char *found = mc_arena_strndup(&s->arena, path, (size_t)n);

                *oom = found == NULL;
                return found;
            }
        }
    }
    return NULL;
}

/* Whether the base folder may declare materials (a folder of declarations the engine reads,
 * material.h mc_material_set_load, or a .pk4 archive): then a shader without an image may still
 * name a material, and mc_scene_materials_load (scene_materials.h) warns about the submeshes
 * that get neither. */
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

/* The words that end a no-texture warning: the material line that gives the meshes of shader
 * an image, in the actor (or in each of count actors). */
static void fix_words(const char *shader, int count, char *out, size_t cap)
{
    snprintf(out, cap, "; to give %s one, write material \"%s\" \"IMAGE\" in %s",
             count > 1 ? "them" : "it", shader, count > 1 ? "each actor" : "the actor");
}

static void warn_no_texture(const mc_scene *s, int actor, int index, const char *who, int count,
                            const void *user, const mc_parse_opts *opts)
{
    const mc_scene_actor *a = &s->actors[actor];
    const mc_submesh *sm = &a->mesh.meshes[index];
    mc_error w;
    char stem[PATH_CAP], fix[PATH_CAP + 96];
    const char *slash = strrchr(a->mesh_path, '/');
    /* The mesh's folder as looked in: without its trailing '/' (but "/" itself), "." for the
     * current one. */
    int dir_len = !slash ? 1 : slash == a->mesh_path ? 1 : (int)(slash - a->mesh_path);
    const char *dir = slash ? a->mesh_path : ".";

    (void)user;
    fix_words(sm->shader, count, fix, sizeof fix);
    if (!sm->shader[0]) {
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "mesh %d of %s has an empty shader and no 'material' line for it: drawn "
                     "without a texture%s",
                     index, who, fix);
    } else {
        const char *file;

        shader_stem(sm->shader, stem, sizeof stem);
        file = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
        mc_error_set(&w, MC_ERR_IO, a->mesh.name, sm->shader_line, sm->shader_col,
                     "no image for shader '%s' of %s: looked for '%s.tga', '.png', "
                     "'.jpg' in '%.*s'%s%s%s%s%s%s; drawn without a texture%s",
                     sm->shader, who, file, dir_len, dir, s->base_path ? " and in '" : "",
                     s->base_path ? s->base_path : "", s->base_path ? "'" : "",
                     s->base_path && file != stem ? " as '" : "",
                     s->base_path && file != stem ? stem : "",
                     s->base_path && file != stem ? "'" : "", fix);
    }
    resolve_warn(opts, &w);
}

/* Whether mesh k of actor a is drawn without a texture and is warned about (after
 * resolve_textures has looked; user: whether the base may declare materials, where a named
 * shader may still be a material): its shader, the cause (mesh_groups.h). */
static const void *lacks_texture(const mc_scene *s, int actor, int k, const void *user)
{
    const mc_scene_actor *a = &s->actors[actor];
    const bool *materials = user;
    const char *shader = a->mesh.meshes[k].shader;

    return !a->textures[k] && !(*materials && shader[0]) ? shader : NULL;
}

/* The meshes drawn without a texture, actor by actor: one warning per shader (the empty one
 * too), the others of it in one line, the shaders past the first few counted, actors of one mesh
 * without the same images told once (mesh_groups.h); then each actor's material lines that no
 * mesh uses. */
static void warn_no_textures(const mc_scene *s, const mc_parse_opts *opts)
{
    const bool materials = base_has_materials(s);

    if (!opts || !opts->warn)
        return;
    for (int i = 0; i < s->num_actors && !(opts->stop && *opts->stop); i++) {
        const mc_scene_actor *a = &s->actors[i];

        mc_mesh_groups_warn(s, i, lacks_texture, warn_no_texture, &materials,
                            ", which the same material line covers", opts);
        for (int m = 0; m < a->num_materials; m++) {
            mc_error w;

            if (a->materials[m].used)
                continue;
            mc_error_set(&w, MC_ERR_MISMATCH, s->name, a->materials[m].line,
                         a->materials[m].col, "no mesh of actor '%s' has shader '%s'", a->name,
                         a->materials[m].shader);
            resolve_warn(opts, &w);
        }
    }
}

static mc_status resolve_textures(mc_scene *s, mc_scene_actor *a, mc_error *e)
{
    for (int i = 0; i < a->num_materials; i++) {
        const mc_scene_material *m = &a->materials[i];

        char hint[PATH_CAP + 32];

        if (!file_exists(m->path))
            return mc_error_set(e, MC_ERR_IO, s->name, m->line, m->col,
                                "cannot read image '%s' for shader '%s'%s", m->path, m->shader,
                                file_hint(m->path, hint, sizeof hint));
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
    return MC_OK;
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

        /* an anim is shared only between actors that place joint 0 alike */
        if (other && !(anim ? b->anim_shared : b->mesh_shared) && strcmp(other, path) == 0 &&
            (!anim || mc_scene_actor_rebases_root(b) == mc_scene_actor_rebases_root(a)))
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

    if (resolve_stopped(opts, e))
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
        return resolve_at_token(s, e, a->mesh_line, a->mesh_col, "mesh");
    }
    if (a->anim_path) {
        if (resolve_stopped(opts, e))
            return MC_ERR_INTERRUPTED;
        if ((owner = loaded_by(s, a, true)) != NULL) {
            a->anim = owner->anim;
            a->anim_shared = true;
        } else if ((st = load_anim(mb, a, opts, e)) != MC_OK) {
            return resolve_at_token(s, e, a->anim_line, a->anim_col, "anim");
        } else if (mc_scene_actor_rebases_root(a)) { /* as the engine loads it (md5anim.h) */
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
    return resolve_textures(s, a, e);
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
        resolve_warn(opts, &e);
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
    if (resolve_stopped(opts, e))
        return MC_ERR_INTERRUPTED;
    if (scene->camera_path) {
        st = mc_camera_load(scene->camera_path, opts, &scene->camera, e);
        if (st != MC_OK)
            st = resolve_at_token(scene, e, scene->camera_line, scene->camera_col, "camera");
    } else {
        st = mc_scene_camera_build(scene, &scene->camera, e);
    }
    if (st != MC_OK) {
        unload(scene);
        return st;
    }
    for (int i = 0; i < scene->num_actors && st == MC_OK; i++)
        st = resolve_actor(scene, &scene->actors[i], &mb, opts, e);
    if (st == MC_OK) {
        warn_no_textures(scene, opts);
        warned_more(&mb, opts);
    }
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
    if (resolve_stopped(opts, err))
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
