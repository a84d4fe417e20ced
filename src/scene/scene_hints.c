/* The errors of names a scene gives that nothing has, with the name nearest each: a missing
 * file against its folder's entries, an actor, a model declaration, a model's anim
 * (scene_parse.h declares them; core/nearest.h decides what is near). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
#include <md5cine/scene.h>

#include "core/nearest.h"
#include "formats/modeldef.h"
#include "scene/scene_parse.h"

/* Entries of a folder a missing file's hint looks at, at most; entries of its kind named. */
#define FILE_HINT_ENTRIES 4096
#define FILE_HINT_NAMED   3

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* " (its folder holds 'a.md5anim', 'b.md5anim')": the entries (sorted) with the missing leaf's
 * extension, the first FILE_HINT_NAMED named and the rest counted; "" when there is none. */
static void same_kind(char *buf, size_t cap, const char *leaf, char *const *names, int n)
{
    const char *ext = strrchr(leaf, '.');
    size_t o = 0;
    int found = 0;

    buf[0] = '\0';
    if (!ext || ext == leaf)
        return;
    for (int i = 0; i < n; i++) {
        const char *e = strrchr(names[i], '.');

        if (!e || strcasecmp(e, ext) != 0)
            continue;
        if (found < FILE_HINT_NAMED && o < cap)
            o += (size_t)snprintf(buf + o, cap - o, "%s'%s'",
                                  found ? ", " : " (its folder holds ", names[i]);
        found++;
    }
    if (found > FILE_HINT_NAMED && o < cap)
        o += (size_t)snprintf(buf + o, cap - o, " and %d more", found - FILE_HINT_NAMED);
    if (found > 0 && o < cap)
        snprintf(buf + o, cap - o, ")");
}

const char *file_hint(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/'), *leaf = slash ? slash + 1 : path, *near;
    char dir[1024];
    char **names;
    int n = 0;
    DIR *d;
    const struct dirent *de;

    buf[0] = '\0';
    if (file_exists(path) || !leaf[0] ||
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1,
                 slash ? path : ".") >= (int)sizeof dir)
        return buf;
    names = malloc(FILE_HINT_ENTRIES * sizeof *names);
    d = names ? opendir(dir) : NULL;
    while (d && n < FILE_HINT_ENTRIES && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)) != NULL)
            n++;
    if (d)
        closedir(d);
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, by_name);
    near = names ? mc_nearest_word(leaf, strlen(leaf), (const char *const *)names, (size_t)n)
                 : NULL;
    if (near)
        snprintf(buf, cap, MC_NEAREST_HINT, near);
    else if (names)
        same_kind(buf, cap, leaf, names, n);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return buf;
}

const char *actor_hint(const mc_scene *s, const char *name, char *buf, size_t cap)
{
    const char **names = malloc((size_t)(s->num_actors > 0 ? s->num_actors : 1) * sizeof *names);

    buf[0] = '\0';
    if (!names)
        return buf;
    for (int i = 0; i < s->num_actors; i++)
        names[i] = s->actors[i].name;
    mc_nearest_hint(buf, cap, name, strlen(name), names, (size_t)s->num_actors);
    free(names);
    return buf;
}

/* The names of the model declarations of a base, for a hint (at most MODEL_HINT_NAMES). */
#define MODEL_HINT_NAMES 65536
typedef struct model_names {
    char **names;
    int count, cap;
} model_names;

static void add_model_name(void *user, const char *name, size_t len)
{
    model_names *l = user;

    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        char **grown = cap <= MODEL_HINT_NAMES ? realloc(l->names, (size_t)cap * sizeof *grown)
                                               : NULL;

        if (!grown)
            return;
        l->names = grown;
        l->cap = cap;
    }
    if ((l->names[l->count] = strndup(name, len)) != NULL)
        l->count++;
}

mc_status no_model_error(const mc_scene *s, const mc_scene_actor *a, char *const *texts,
                         const size_t *lens, int count, mc_error *e)
{
    model_names l = { 0 };
    char hint[MC_LIMIT_NAME_LEN + 32] = "";
    const char *near;

    for (int i = 0; i < count; i++)
        mc_modeldef_each_name(texts[i], lens[i], add_model_name, &l);
    near = mc_nearest_word_nocase(a->model, strlen(a->model), (const char *const *)l.names,
                                  (size_t)l.count);
    if (near)
        snprintf(hint, sizeof hint, MC_NEAREST_HINT, near);
    for (int i = 0; i < l.count; i++)
        free(l.names[i]);
    free(l.names);
    return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->model_line, a->model_col,
                        "no model declaration '%s' in %s/def/*.def (loose files and .pk4 "
                        "archives)%s",
                        a->model, s->base_path, hint);
}

mc_status no_model_anim_error(const mc_scene *s, const mc_scene_actor *a,
                              const mc_scene_model_anim *anims, int count, const char *file,
                              int line, mc_error *e)
{
    const char **names = malloc((size_t)(count > 0 ? count : 1) * sizeof *names);
    char hint[MC_LIMIT_NAME_LEN + 32] = "";

    for (int i = 0; names && i < count; i++)
        names[i] = anims[i].name;
    if (names)
        mc_nearest_hint(hint, sizeof hint, a->anim_name, strlen(a->anim_name), names,
                        (size_t)count);
    free(names);
    return mc_error_set(e, MC_ERR_SYNTAX, s->name, a->anim_line, a->anim_col,
                        "model '%s' has no anim '%s' (%d anims declared at %s:%d)%s", a->model,
                        a->anim_name, count, file, line, hint);
}

/* A file named at scene line:col failed to load. An error without a position (cannot open,
 * too large) is moved to the scene token that names the file; a parse error inside the file
 * keeps its own position. */
mc_status resolve_at_token(const mc_scene *s, mc_error *e, int line, int col, const char *what)
{
    char inner[sizeof e->msg], hint[sizeof e->file + 32];

    if (e->line != 0)
        return e->code;
    memcpy(inner, e->msg, sizeof inner);
    file_hint(e->file, hint, sizeof hint);
    return mc_error_set(e, e->code, s->name, line, col, "cannot load %s: %s%s", what, inner, hint);
}
