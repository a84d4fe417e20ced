/* Model declarations of a scene's actors (model_resolve.h). The work of a scene is bounded by
 * its def text: each file is scanned once, each declaration parsed once, each model's anims
 * applied once through hash tables, and an actor takes its model's result and looks its anim
 * up by hash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
#include <md5cine/vfs.h>

#include "formats/modeldef.h"
#include "scene/model_resolve.h"
#include "scene/scene_parse.h"

/* One model declaration of the def files: the first of its name. */
struct model_decl {
    mc_modeldef_at at;   /* its name (in its file's text) and place */
    int file;            /* its def file: mb->text[file] */
    mc_modeldef *parsed; /* in the scene's arena once asked for, else NULL */
    bool checked;        /* its files found in the base */
};

/* A model as its actors take it: the declaration asked for with those it inherits applied. */
struct model_resolved {
    int decl;
    const char *file; /* the place of the declaration's .def */
    int decl_line;
    const char *mesh, *mesh_place, *skin;
    bool has_offset;
    mc_vec3 offset;
    int num_anims;
    mc_scene_model_anim *anims;
    size_t *hash, *alias_hash; /* each anim's name's, and its alias's */
    int *alias_len;
    /* the unknown model to inherit met (warned for each actor), or NULL */
    const char *unknown, *unknown_file;
    const mc_modeldef *unknown_by;
};

static size_t hash_bytes(const char *s, size_t n, bool fold)
{
    size_t h = 1469598103934665603u;

    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (fold && c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        h = (h ^ c) * 1099511628211u;
    }
    return h;
}

/* The length of an anim name's alias: without its number suffix ("idle2" -> "idle"; ParseAnim
 * keeps one character at least). */
static int alias_len(const char *name)
{
    size_t n = strlen(name);

    while (n > 1 && name[n - 1] >= '0' && name[n - 1] <= '9')
        n--;
    return (int)n;
}

void model_base_release(model_base *mb)
{
    for (int i = 0; i < mb->loaded; i++)
        free(mb->text[i]);
    free(mb->text);
    free(mb->len);
    free(mb->where);
    free(mb->names);
    free(mb->decls);
    free(mb->slots);
    free(mb->models);
    mc_vfs_destroy(mb->vfs);
    memset(mb, 0, sizeof *mb);
}

static mc_status out_of_memory(const mc_scene *s, mc_error *e)
{
    return mc_error_set(e, MC_ERR_NOMEM, s->name, 0, 0, "out of memory");
}

/* ---------------------------------------------------------------- the index of declarations */

/* The slot of name in mb->slots: the declaration's, or the empty one where it goes. */
static size_t decl_slot(const model_base *mb, const char *name, size_t len)
{
    size_t i = hash_bytes(name, len, true) & (mb->num_slots - 1);

    for (; mb->slots[i] >= 0; i = (i + 1) & (mb->num_slots - 1)) {
        const mc_modeldef_at *at = &mb->decls[mb->slots[i]].at;

        if (at->name_len == len && strncasecmp(at->name, name, len) == 0)
            break;
    }
    return i;
}

static bool grow_slots(model_base *mb)
{
    size_t n = mb->num_slots ? mb->num_slots * 2 : 1024;
    int *old = mb->slots;

    mb->slots = malloc(n * sizeof *mb->slots);
    if (!mb->slots) {
        mb->slots = old;
        return false;
    }
    memset(mb->slots, 0xff, n * sizeof *mb->slots);
    mb->num_slots = n;
    for (int d = 0; d < mb->num_decls; d++)
        mb->slots[decl_slot(mb, mb->decls[d].at.name, mb->decls[d].at.name_len)] = d;
    free(old);
    return true;
}

typedef struct index_ctx {
    const mc_scene *s;
    model_base *mb;
    int file;
    mc_error *e;
} index_ctx;

/* mc_modeldef_each's callback: a declaration of the file being indexed, kept when it is the
 * first of its name (the declaration manager keeps the first: DeclManager.cpp,
 * idDeclFile::LoadAndParse). */
static mc_status index_decl(void *user, const mc_modeldef_at *at)
{
    index_ctx *c = user;
    model_base *mb = c->mb;
    size_t slot;

    if ((size_t)(mb->num_decls + 1) * 2 > mb->num_slots && !grow_slots(mb))
        return out_of_memory(c->s, c->e);
    slot = decl_slot(mb, at->name, at->name_len);
    if (mb->slots[slot] >= 0)
        return MC_OK;
    if (mb->num_decls == MC_LIMIT_MODELDEF_DECLS)
        return mc_error_set(c->e, MC_ERR_LIMIT, mb->where[c->file], at->name_line, at->name_col,
                            "more than %d model declarations in the base's def files",
                            MC_LIMIT_MODELDEF_DECLS);
    if (mb->num_decls == mb->cap_decls) {
        int cap = mb->cap_decls ? mb->cap_decls * 2 : 256;
        model_decl *grown = realloc(mb->decls, (size_t)cap * sizeof *grown);

        if (!grown)
            return out_of_memory(c->s, c->e);
        mb->decls = grown;
        mb->cap_decls = cap;
    }
    mb->decls[mb->num_decls] = (model_decl){ .at = *at, .file = c->file };
    mb->slots[slot] = mb->num_decls++;
    return MC_OK;
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
            st = out_of_memory(s, e);
    }
    if (st == MC_OK && !grow_slots(mb))
        st = out_of_memory(s, e);
    if (st != MC_OK)
        model_base_release(mb);
    return st;
}

/* Reads the next def file, within what is left of the declaration text budget (checked on its
 * declared size before it is read or inflated), and indexes its model declarations. */
static mc_status model_base_read_next(mc_scene *s, model_base *mb, mc_error *e)
{
    char where[4200];
    uint8_t *data;
    size_t len;
    bool found;
    int i = mb->loaded;
    mc_status st = mc_vfs_read_max(mb->vfs, mb->names[i], MC_LIMIT_MTR_TEXT_BYTES - mb->text_bytes,
                                   &data, &len, &found, where, sizeof where, e);
    index_ctx c = { s, mb, i, e };

    if (st != MC_OK)
        return st;
    if (!found) /* listed by the same vfs: cannot happen */
        return mc_error_set(e, MC_ERR_IO, s->base_path, 0, 0, "cannot read '%s'", mb->names[i]);
    mb->where[i] = mc_arena_strndup(&s->arena, where, strlen(where));
    if (!mb->where[i]) {
        free(data);
        return out_of_memory(s, e);
    }
    mb->text[i] = (char *)data;
    mb->len[i] = len;
    mb->text_bytes += len;
    mb->loaded++;
    return mc_modeldef_each(mb->text[i], len, index_decl, &c);
}

/* The first declaration `model name` of the def files, in their order: its index in mb->decls,
 * -1 when none declares it. Files are read as far as the search needs. */
static mc_status find_decl(mc_scene *s, model_base *mb, const char *name,
                           const mc_parse_opts *opts, int *decl, mc_error *e)
{
    size_t len = strlen(name);

    for (;;) {
        size_t slot = decl_slot(mb, name, len);
        mc_status st;

        *decl = mb->slots[slot];
        if (*decl >= 0 || mb->loaded == mb->count)
            return MC_OK;
        if (resolve_stopped(opts, e))
            return MC_ERR_INTERRUPTED;
        st = model_base_read_next(s, mb, e);
        if (st != MC_OK)
            return st;
    }
}

/* Declaration d parsed (once: its modeldef is kept in the scene's arena). */
static mc_status parsed_decl(mc_scene *s, model_base *mb, int d, const mc_modeldef **m,
                             mc_error *e)
{
    model_decl *md = &mb->decls[d];
    mc_status st;

    if (!md->parsed) {
        mc_modeldef *p = mc_arena_alloc(&s->arena, 1, sizeof *p);

        if (!p)
            return out_of_memory(s, e);
        st = mc_modeldef_parse_at(mb->text[md->file], mb->len[md->file], mb->where[md->file],
                                  &md->at, &s->arena, p, e);
        if (st != MC_OK)
            return st;
        md->parsed = p;
    }
    *m = md->parsed;
    return MC_OK;
}

/* ---------------------------------------------------------------- files of a declaration */

/* A game file the declaration m (in file) names, looked up among the base's loose files and
 * archives only (vfs.h: never through a link to a folder, nor a link to a file outside the base;
 * the parser has refused '..' and absolute paths): one that is not there is an error at its
 * token in the .def. The engine defaults the whole model then (Anim_Blend.cpp,
 * idDeclModelDef::Parse "Model '%s' defaulted" for its mesh, idDeclModelDef::ParseAnim
 * "Couldn't load anim" for any file of any anim), and so does a model inheriting it ("inherited
 * model definition '%s' defaulted"). */
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

/* Every file of declaration d: its mesh and each file of each anim, even one that a later
 * declaration replaces or removes (each declaration is parsed whole, on its own); once. */
static mc_status decl_files_exist(const mc_scene *s, model_base *mb, int d, mc_error *e)
{
    model_decl *md = &mb->decls[d];
    const mc_modeldef *m = md->parsed;
    const char *file = mb->where[md->file];
    mc_modeldef_file mesh = { m->mesh, m->mesh_line, m->mesh_col };
    mc_status st = m->mesh ? decl_file_exists(s, mb, file, m, &mesh, NULL, e) : MC_OK;

    for (int k = 0; st == MC_OK && k < m->num_anims; k++)
        for (int f = 0; st == MC_OK && f < m->anims[k].num_files; f++)
            st = decl_file_exists(s, mb, file, m, &m->anims[k].files[f], m->anims[k].name, e);
    md->checked = st == MC_OK;
    return st;
}

/* A game path the model names (its mesh, an anim), which decl_files_exist found in the base:
 * *place is where the base holds it, the loose file's path ("base/models/x.md5mesh") or the
 * archive's place ("base/pak000.pk4:models/x.md5mesh"). */
static mc_status game_place(mc_scene *s, const model_base *mb, const char *path,
                            const char **place, mc_error *e)
{
    char where[4200];

    if (!mc_vfs_exists(mb->vfs, path, where, sizeof where))
        return mc_error_set(e, MC_ERR_IO, s->base_path, 0, 0, "cannot read '%s'", path);
    *place = mc_arena_strndup(&s->arena, where, strlen(where));
    return *place ? MC_OK : out_of_memory(s, e);
}

/* ---------------------------------------------------------------- a model's anims */

/* The anims of a model being resolved, in order, those removed marked dead, with two indexes:
 * by name, and by alias (each alias's entries in a list, the latest first). */
typedef struct anim_set {
    mc_scene_model_anim *a;
    size_t *hash;
    int *alen, *next; /* the alias's length; the entry before of the same alias, -1 */
    bool *dead;
    int n, live;
    int *names, *aliases; /* slots: an entry (removed ones stay); the latest of an alias */
    size_t mask;
} anim_set;

static void anim_set_free(anim_set *set)
{
    free(set->a);
    free(set->hash);
    free(set->alen);
    free(set->next);
    free(set->dead);
    free(set->names);
    free(set->aliases);
}

/* Room for cap entries (the anim and remove lines of the chain). */
static bool anim_set_init(anim_set *set, int cap)
{
    size_t slots = 16;

    memset(set, 0, sizeof *set);
    while (slots < 2 * (size_t)cap)
        slots *= 2;
    set->mask = slots - 1;
    set->a = calloc((size_t)cap + 1, sizeof *set->a);
    set->hash = calloc((size_t)cap + 1, sizeof *set->hash);
    set->alen = calloc((size_t)cap + 1, sizeof *set->alen);
    set->next = calloc((size_t)cap + 1, sizeof *set->next);
    set->dead = calloc((size_t)cap + 1, sizeof *set->dead);
    set->names = malloc(slots * sizeof *set->names);
    set->aliases = malloc(slots * sizeof *set->aliases);
    if (!set->a || !set->hash || !set->alen || !set->next || !set->dead || !set->names ||
        !set->aliases) {
        anim_set_free(set);
        return false;
    }
    memset(set->names, 0xff, slots * sizeof *set->names);
    memset(set->aliases, 0xff, slots * sizeof *set->aliases);
    return true;
}

/* The live entry named name, or -1; *slot the empty slot where a new one goes. */
static int anim_find(const anim_set *set, const char *name, size_t h, size_t *slot)
{
    size_t i = h & set->mask;

    for (; set->names[i] >= 0; i = (i + 1) & set->mask) {
        int k = set->names[i];

        if (!set->dead[k] && set->hash[k] == h && strcmp(set->a[k].name, name) == 0)
            return k;
    }
    *slot = i;
    return -1;
}

/* The slot of the alias text[0..len): its latest entry's, or the empty one where it goes. */
static size_t alias_slot(const anim_set *set, const char *text, size_t len)
{
    size_t i = hash_bytes(text, len, false) & set->mask;

    for (; set->aliases[i] >= 0; i = (i + 1) & set->mask) {
        int k = set->aliases[i];

        if ((size_t)set->alen[k] == len && memcmp(set->a[k].name, text, len) == 0)
            break;
    }
    return i;
}

/* `remove NAME`: drops the anim of that name and those whose alias it is (idDeclModelDef::Parse
 * removes by name; ParseAnim's alias makes `remove pain` drop pain1, pain2 ...). */
static int anim_remove(anim_set *set, const char *name)
{
    size_t slot, h = hash_bytes(name, strlen(name), false);
    int k = anim_find(set, name, h, &slot), removed = 0;

    if (k >= 0) {
        set->dead[k] = true;
        removed++;
    }
    for (k = set->aliases[alias_slot(set, name, strlen(name))]; k >= 0; k = set->next[k]) {
        if (!set->dead[k]) {
            set->dead[k] = true;
            removed++;
        }
    }
    set->live -= removed;
    return removed;
}

/* Applies one declaration over what those it inherits gave: its mesh, skin and offset when it
 * names them, its anims added (one of an inherited name replaced in place), its removes. */
static mc_status apply_decl(model_resolved *r, anim_set *set, const mc_modeldef *m,
                            const char *file, const char *top, mc_error *e)
{
    if (m->mesh)
        r->mesh = m->mesh;
    if (m->skin)
        r->skin = m->skin;
    if (m->has_offset) {
        r->has_offset = true;
        r->offset = (mc_vec3){ m->offset[0], m->offset[1], m->offset[2] };
    }
    for (int j = 0; j < m->num_anims; j++) {
        const mc_modeldef_anim *an = &m->anims[j];
        size_t slot, h = hash_bytes(an->name, strlen(an->name), false);
        int k = an->remove ? -1 : anim_find(set, an->name, h, &slot);

        if (an->remove) {
            if (!anim_remove(set, an->name))
                return mc_error_set(e, MC_ERR_SYNTAX, file, an->line, an->col,
                                    "no inherited anim '%s' to remove in model '%s'", an->name,
                                    m->name);
            continue;
        }
        if (k < 0) {
            size_t as;

            if (set->live == MC_LIMIT_MODELDEF_ANIMS)
                return mc_error_set(e, MC_ERR_LIMIT, file, an->line, an->col,
                                    "model '%s' has more than %d anims with those it inherits",
                                    top, MC_LIMIT_MODELDEF_ANIMS);
            k = set->n++;
            set->hash[k] = h;
            set->alen[k] = alias_len(an->name);
            set->names[slot] = k;
            as = alias_slot(set, an->name, (size_t)set->alen[k]);
            set->next[k] = set->aliases[as];
            set->aliases[as] = k;
            set->live++;
        }
        /* declared again: idAnim::SetAnim clears the inherited one's commands and flags */
        set->a[k] = (mc_scene_model_anim){
            .name = an->name, .path = an->path, .file = file, .flags = an->flags,
            .num_commands = an->num_commands, .commands = an->commands,
            .num_unknown_flags = an->num_unknown_flags, .unknown_flags = an->unknown_flags };
    }
    return MC_OK;
}

/* The live anims of set, in order, into r (in the scene's arena) with their hashes. */
static mc_status keep_anims(mc_scene *s, model_resolved *r, const anim_set *set, mc_error *e)
{
    size_t n = (size_t)set->live + 1;

    r->anims = mc_arena_alloc(&s->arena, n, sizeof *r->anims);
    r->hash = mc_arena_alloc(&s->arena, n, sizeof *r->hash);
    r->alias_hash = mc_arena_alloc(&s->arena, n, sizeof *r->alias_hash);
    r->alias_len = mc_arena_alloc(&s->arena, n, sizeof *r->alias_len);
    if (!r->anims || !r->hash || !r->alias_hash || !r->alias_len)
        return out_of_memory(s, e);
    for (int k = 0; k < set->n; k++) {
        int i = r->num_anims;

        if (set->dead[k])
            continue;
        r->anims[i] = set->a[k];
        r->hash[i] = set->hash[k];
        r->alias_len[i] = set->alen[k];
        r->alias_hash[i] = hash_bytes(set->a[k].name, (size_t)set->alen[k], false);
        r->num_anims++;
    }
    return MC_OK;
}

/* ---------------------------------------------------------------- a model, once per scene */

/* The chain of declaration top: it and those it inherits, found and parsed, at most
 * MC_LIMIT_MODELDEF_INHERIT deep; an unknown model to inherit ends it (Anim_Blend.cpp: a
 * warning, the rest is used) and is kept in r. */
static mc_status find_chain(mc_scene *s, model_base *mb, const mc_scene_actor *a, int top,
                            const mc_parse_opts *opts, int *chain, int *depth,
                            model_resolved *r, mc_error *e)
{
    const mc_modeldef *m[MC_LIMIT_MODELDEF_INHERIT];
    int d = top;

    for (*depth = 0;;) {
        mc_status st = parsed_decl(s, mb, d, &m[*depth], e);
        const char *name, *file = mb->where[mb->decls[d].file];

        if (st != MC_OK)
            return st;
        chain[(*depth)++] = d;
        name = m[*depth - 1]->inherit;
        if (!name)
            return MC_OK;
        for (int i = 0; i < *depth; i++)
            if (strcasecmp(m[i]->name, name) == 0)
                return mc_error_set(e, MC_ERR_SYNTAX, file, m[*depth - 1]->inherit_line,
                                    m[*depth - 1]->inherit_col,
                                    "model '%s' inherits itself (through '%s')", m[0]->name,
                                    name);
        if (*depth == MC_LIMIT_MODELDEF_INHERIT)
            return mc_error_set(e, MC_ERR_LIMIT, file, m[*depth - 1]->inherit_line,
                                m[*depth - 1]->inherit_col, "model '%s' inherits more than %d deep",
                                a->model, MC_LIMIT_MODELDEF_INHERIT);
        st = find_decl(s, mb, name, opts, &d, e);
        if (st != MC_OK && st != MC_ERR_INTERRUPTED) /* a def file unread: at the model */
            return resolve_at_token(s, e, a->model_line, a->model_col, "model");
        if (st != MC_OK)
            return st;
        if (d < 0) {
            r->unknown = name;
            r->unknown_file = file;
            r->unknown_by = m[*depth - 1];
            return MC_OK;
        }
    }
}

/* Resolves declaration top into a new entry of mb->models (*out). */
static mc_status resolve_decl(mc_scene *s, model_base *mb, const mc_scene_actor *a, int top,
                              const mc_parse_opts *opts, model_resolved **out, mc_error *e)
{
    int chain[MC_LIMIT_MODELDEF_INHERIT], depth, lines = 0;
    model_resolved r = { .decl = top };
    const mc_modeldef *m0;
    anim_set set;
    mc_status st = find_chain(s, mb, a, top, opts, chain, &depth, &r, e);

    for (int i = 0; st == MC_OK && i < depth; i++) {
        if (!mb->decls[chain[i]].checked)
            st = decl_files_exist(s, mb, chain[i], e);
        lines += mb->decls[chain[i]].parsed->num_anims;
    }
    if (st != MC_OK)
        return st;
    if (!anim_set_init(&set, lines))
        return out_of_memory(s, e);
    m0 = mb->decls[top].parsed;
    r.file = mb->where[mb->decls[top].file];
    r.decl_line = m0->line;
    for (int i = depth - 1; st == MC_OK && i >= 0; i--)
        st = apply_decl(&r, &set, mb->decls[chain[i]].parsed,
                        mb->where[mb->decls[chain[i]].file], a->model, e);
    if (st == MC_OK)
        st = keep_anims(s, &r, &set, e);
    anim_set_free(&set);
    if (st != MC_OK)
        return st;
    if (!r.mesh)
        return mc_error_set(e, MC_ERR_SYNTAX, r.file, m0->line, m0->col,
                            "model '%s' names no mesh", m0->name);
    mb->scene_anims += r.num_anims;
    if (mb->scene_anims > MC_LIMIT_SCENE_MODEL_ANIMS)
        return mc_error_set(e, MC_ERR_LIMIT, s->name, a->model_line, a->model_col,
                            "model '%s' takes the anims of the scene's models to %ld, past %d "
                            "in all (it has %d)", a->model, mb->scene_anims,
                            MC_LIMIT_SCENE_MODEL_ANIMS, r.num_anims);
    st = game_place(s, mb, r.mesh, &r.mesh_place, e);
    if (st != MC_OK)
        return st;
    if (mb->num_models == mb->cap_models) {
        int cap = mb->cap_models ? mb->cap_models * 2 : 16;
        model_resolved *grown = realloc(mb->models, (size_t)cap * sizeof *grown);

        if (!grown)
            return out_of_memory(s, e);
        mb->models = grown;
        mb->cap_models = cap;
    }
    mb->models[mb->num_models] = r;
    *out = &mb->models[mb->num_models++];
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
static mc_status model_anim(mc_scene *s, mc_scene_actor *a, const model_base *mb,
                            const model_resolved *r, mc_error *e)
{
    /* idDeclModelDef::GetAnim: the full name, else the first of its alias (the engine picks
     * one of those at random) */
    size_t len = strlen(a->anim_name), h = hash_bytes(a->anim_name, len, false);
    int k = 0;

    while (k < r->num_anims && !(r->hash[k] == h && strcmp(r->anims[k].name, a->anim_name) == 0))
        k++;
    for (int i = 0; k == r->num_anims && i < r->num_anims; i++)
        if ((size_t)r->alias_len[i] == len && r->alias_hash[i] == h &&
            memcmp(r->anims[i].name, a->anim_name, len) == 0)
            k = i;
    if (k == r->num_anims)
        return no_model_anim_error(s, a, r->anims, r->num_anims, r->file, r->decl_line, e);
    a->played = &r->anims[k];
    a->num_frame_commands = a->played->num_commands;
    a->frame_commands = a->played->commands;
    a->anim_game = r->anims[k].path;
    return game_place(s, mb, r->anims[k].path, &a->anim_path, e);
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
    resolve_warn(opts, &w);
}

/* After the actors: one line for each unknown inherit more actors met, as mesh_groups.c says
 * the more meshes of a group. */
void warned_more(const model_base *mb, const mc_parse_opts *opts)
{
    for (int i = 0; i < mb->num_warned; i++) {
        mc_error w;
        int n = mb->warned[i].more;

        if (n == 0)
            continue;
        mc_error_set(&w, MC_ERR_SYNTAX, mb->warned[i].file, 0, 0,
                     "... and %d more actor%s of model '%s' (line %d) like this", n,
                     n == 1 ? "" : "s", mb->warned[i].model, mb->warned[i].line);
        resolve_warn(opts, &w);
    }
}

mc_status resolve_model(mc_scene *s, mc_scene_actor *a, model_base *mb,
                        const mc_parse_opts *opts, mc_error *e)
{
    model_resolved *r = NULL;
    int top;
    mc_status st = open_model_base(s, a, mb, e);

    if (st == MC_OK)
        st = find_decl(s, mb, a->model, opts, &top, e);
    if (st != MC_OK && st != MC_ERR_INTERRUPTED && e->line == 0) /* a def file unread */
        return resolve_at_token(s, e, a->model_line, a->model_col, "model");
    if (st != MC_OK)
        return st;
    if (top < 0)
        return no_model_error(s, a, mb->text, mb->len, mb->loaded, e);
    for (int i = 0; i < mb->num_models && !r; i++)
        if (mb->models[i].decl == top)
            r = &mb->models[i];
    if (!r && (st = resolve_decl(s, mb, a, top, opts, &r, e)) != MC_OK)
        return st;
    if (r->unknown)
        warn_inherit(mb, opts, r->unknown_file, r->unknown_by, r->unknown);
    a->model_file = r->file;
    a->model_decl_line = r->decl_line;
    a->model_skin = r->skin;
    a->num_model_anims = r->num_anims;
    a->model_anims = r->anims;
    if (r->has_offset)
        a->offset = r->offset;
    a->mesh_path = r->mesh_place;
    a->mesh_game = r->mesh;
    a->mesh_line = a->model_line;
    a->mesh_col = a->model_col;
    if (!a->skin && a->model_skin) {
        a->skin = a->model_skin;
        a->skin_line = a->model_line;
        a->skin_col = a->model_col;
    }
    return a->anim_name ? model_anim(s, a, mb, r, e) : MC_OK;
}
