/* Material sets (material.h): the declarations of a base's files, found and resolved on
 * demand. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/entitydef.h>
#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/skin.h>
#include <md5cine/sndshd.h>
#include <md5cine/vfs.h>

#include "core/nearest.h"
#include "material/material_int.h"
#include "material/mtr_expr.h"
#include "material/implicit.h"
#include "material/warn_repeats.h"

/* ---------------------------------------------------------------- material sets */

/* The most tables of other files one material declaration may take (parse_with_tables). */
#define MC_MATERIAL_MAX_TABLES 64

/* The kinds of declaration a set looks up, each one namespace over every declaration file. */
enum { KIND_MATERIAL, KIND_SKIN, KIND_TABLE, KIND_SOUND, KIND_ENTITY, NUM_KINDS };
static const char *const KIND_TYPES[NUM_KINDS] = { "material", "skin", "table", "sound",
                                                   "entityDef" };

/* Where an entityDef's resolution stands (set_entry.state). */
enum { ENT_UNREAD, ENT_BUSY, ENT_DONE, ENT_BROKEN };

/* One declaration file of the base: its text (kept, since declarations are parsed when used)
 * and the index of its declarations of each kind. */
typedef struct set_file {
    char *where; /* "base/pak000.pk4:materials/x.mtr" */
    char *text;
    size_t len;
    mc_mtr_index index[NUM_KINDS];
    mc_expr_tables *tables; /* its tables, read when a declaration first names one */
} set_file;

/* An undeclared name's implicit material, made once (malloc'd: its address is kept). */
typedef struct implicit_material {
    char name[MC_LIMIT_NAME_LEN + 1]; /* canonical */
    mc_mtr_file parsed;
    mc_material material;
    bool drawn; /* its image is there (else no material: NULL is returned) */
} implicit_material;

typedef struct set_entry {
    const mc_mtr_span *span;
    int file;     /* index into files */
    int resolved; /* 0: not yet; 1: done (material or skin valid) */
    mc_mtr_file parsed; /* materials: the declaration, or Doom's default material in its place */
    mc_material material;
    mc_skinfile skin; /* skins: the declaration */
    char *text;   /* materials: the file's text with the tables of other files that the
                     declaration names appended, or NULL */
    mc_sndshd *sound;      /* sounds: the shader once used (malloc'd) */
    mc_entitydef *entity;  /* entityDefs: the merged declaration once used (malloc'd) */
    int state;             /* entityDefs: ENT_* */
} set_entry;

/* The declarations of one type: one entry per name, sorted by name. */
typedef struct decl_table {
    set_entry *entries;
    int count;
} decl_table;

struct mc_material_set {
    mc_vfs *vfs;
    mc_parse_opts opts; /* warnings and the stop flag, for declarations parsed later */
    set_file *files;    /* the declaration folders in Doom's order (DECL_FOLDERS) */
    int num_files, cap_files;
    decl_table materials, skins, tables, sounds, entities;
    int parsed;         /* material declarations parsed so far */
    px_budget pixels;   /* images read by every material resolved */
    image_cache images; /* those images, each kept once (pixels.cache) */
    size_t text_bytes;  /* declaration text held */
    long indexed;       /* declarations indexed */
    mc_warn_repeats repeats; /* where opts.warn sends warnings: the caller's, grouped on ask */
    implicit_material **implicit; /* the implicit materials made so far (implicit.h) */
    int num_implicit, cap_implicit;
};

static int entry_cmp(const void *a, const void *b)
{
    const set_entry *x = a, *y = b;
    int c = strcmp(x->span->name, y->span->name);

    /* Equal names: the earlier file first, then the earlier place in it, so that it wins. */
    if (c)
        return c;
    if (x->file != y->file)
        return x->file - y->file;
    return (x->span->start > y->span->start) - (x->span->start < y->span->start);
}

static bool stopped(const mc_parse_opts *opts)
{
    return opts && opts->stop && *opts->stop;
}

/* The folders Doom's declaration manager reads, in the order it registers them
 * (DeclManager.cpp idDeclManagerLocal::Init, then Game_local.cpp idGameLocal::Init), each with
 * the type of a declaration that names none. A declaration of any folder may name its type
 * (`material NAME { ... }` in a .def file), and each type is one namespace. */
static const struct {
    const char *dir, *ext, *type;
} DECL_FOLDERS[] = {
    { "materials", ".mtr", "material" },
    { "skins", ".skin", "skin" },
    { "sound", ".sndshd", "sound" },
    { "def", ".def", "entityDef" },
    { "fx", ".fx", "fx" },
    { "particles", ".prt", "particle" },
    { "af", ".af", "articulatedFigure" },
    { "newpdas", ".pda", "pda" },
};

/* Reads every DIR/NAME.EXT of the vfs into set->files and indexes its declarations of each
 * kind, those without a type word being `type`. */
static mc_status load_folder(mc_material_set *set, const char *dir, const char *ext,
                             const char *type, mc_error *err)
{
    char **names = NULL;
    int n = 0, first = set->num_files;
    mc_status st = mc_vfs_list(set->vfs, dir, ext, &names, &n, err);

    if (st != MC_OK)
        return st;
    if (n > MC_LIMIT_DECL_FILES - first) {
        char where[1024];

        mc_vfs_exists(set->vfs, names[MC_LIMIT_DECL_FILES - first], where, sizeof where);
        free(names);
        return mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                            "the base holds more than %d declaration files (%s/*%s and the "
                            "other declaration folders)",
                            MC_LIMIT_DECL_FILES, dir, ext);
    }
    if (n > 0) {
        set_file *grown = realloc(set->files, (size_t)(first + n) * sizeof *grown);

        if (!grown) {
            free(names);
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        }
        memset(grown + first, 0, (size_t)n * sizeof *grown);
        set->files = grown;
        set->cap_files = first + n;
    }
    for (int i = 0; i < n && st == MC_OK; i++) {
        set_file *f = &set->files[first + i];
        char where[1024];
        uint8_t *data;
        size_t len;
        bool found;

        if (stopped(&set->opts)) {
            st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            break;
        }
        /* The declaration text left (MC_LIMIT_MTR_TEXT_BYTES for all files) is this file's
         * budget, checked on its declared size before it is read or inflated. */
        st = mc_vfs_read_max(set->vfs, names[i], MC_LIMIT_MTR_TEXT_BYTES - set->text_bytes, &data,
                             &len, &found, where, sizeof where, err);
        if (st != MC_OK)
            break;
        set->num_files = first + i + 1;
        f->text = (char *)data;
        f->len = len;
        f->where = strdup(where);
        if (!f->where) {
            st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        if (len > MC_LIMIT_MTR_TEXT_BYTES - set->text_bytes) {
            st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                              "the base's declaration files hold more than %zu bytes in all",
                              (size_t)MC_LIMIT_MTR_TEXT_BYTES);
            break;
        }
        set->text_bytes += len;
        /* one reading of the text for every kind */
        st = mc_decl_index_kinds(f->text, f->len, f->where, type, KIND_TYPES, NUM_KINDS,
                                 &set->opts, f->index, err);
        for (int k = 0; k < NUM_KINDS && st == MC_OK; k++)
            set->indexed += f->index[k].num_spans;
        if (st == MC_OK && set->indexed > MC_LIMIT_MTR_INDEX)
            st = mc_error_set(err, MC_ERR_LIMIT, where, 0, 0,
                              "the base's declaration files declare more than %d names",
                              MC_LIMIT_MTR_INDEX);
    }
    free(names);
    return st;
}

/* Fills t with the declarations of kind k of every file, one per name. */
static mc_status make_table(mc_material_set *set, int k, decl_table *t, mc_error *err)
{
    long total = 0;
    int kept = 0;

    for (int f = 0; f < set->num_files; f++)
        total += set->files[f].index[k].num_spans;
    if (total > 0 && !(t->entries = calloc((size_t)total, sizeof *t->entries)))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int f = 0; f < set->num_files; f++)
        for (int d = 0; d < set->files[f].index[k].num_spans; d++)
            t->entries[t->count++] =
                    (set_entry){ .span = &set->files[f].index[k].spans[d], .file = f };
    if (t->count > 1)
        qsort(t->entries, (size_t)t->count, sizeof *t->entries, entry_cmp);
    /* Keep the first of each name: Doom's DeclManager.cpp, idDeclFile::LoadAndParse, skips a
     * declaration whose name another file (or an earlier place in the same one) already
     * defined ("previously defined at ..."), and reads its folders in the order they are
     * registered, each folder's files in sorted name order (idFileSystem::ListFiles with
     * sort). */
    for (int i = 0; i < t->count; i++)
        if (kept == 0 || strcmp(t->entries[kept - 1].span->name, t->entries[i].span->name))
            t->entries[kept++] = t->entries[i];
    t->count = kept;
    return MC_OK;
}

mc_status mc_material_set_load(mc_vfs *vfs, const mc_parse_opts *opts, mc_material_set **out,
                               mc_error *err)
{
    mc_material_set *set = calloc(1, sizeof *set);
    mc_status st;

    *out = NULL;
    if (!set)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    set->vfs = vfs;
    if (opts)
        set->opts = *opts;
    if (set->opts.warn) {
        set->repeats = (mc_warn_repeats){ .warn = set->opts.warn, .user = set->opts.warn_user };
        set->opts.warn = mc_warn_repeats_fn;
        set->opts.warn_user = &set->repeats;
    }
    mc_vfs_set_stop(vfs, set->opts.stop);
    set->pixels = (px_budget){ 0, set->opts.image_pixels ? set->opts.image_pixels
                                                         : MC_LIMIT_SCENE_IMAGE_PIXELS,
                               "the scene", &set->images };
    set->pixels.used = set->opts.image_pixels_used < set->pixels.limit
                               ? set->opts.image_pixels_used
                               : set->pixels.limit;
    st = MC_OK;
    for (size_t i = 0; i < sizeof DECL_FOLDERS / sizeof DECL_FOLDERS[0] && st == MC_OK; i++)
        st = load_folder(set, DECL_FOLDERS[i].dir, DECL_FOLDERS[i].ext, DECL_FOLDERS[i].type, err);
    if (st == MC_OK)
        st = make_table(set, KIND_MATERIAL, &set->materials, err);
    if (st == MC_OK)
        st = make_table(set, KIND_SKIN, &set->skins, err);
    if (st == MC_OK)
        st = make_table(set, KIND_TABLE, &set->tables, err);
    if (st == MC_OK)
        st = make_table(set, KIND_SOUND, &set->sounds, err);
    if (st == MC_OK)
        st = make_table(set, KIND_ENTITY, &set->entities, err);
    if (st != MC_OK) {
        mc_material_set_destroy(set);
        return st;
    }
    *out = set;
    return MC_OK;
}

/* Tables are one namespace over every declaration file (Material.cpp finds a table with
 * declManager->FindType(DECL_TABLE, ...)), while the parser looks in the declaration's own file:
 * each table that the parse names and its file lacks is appended, from the first file that
 * declares it, to a copy of the text, and the declaration parsed again. *perr holds the failed
 * parse on entry; returns the last parse's status (its warnings only once it is the last). */
static set_entry *lookup(const decl_table *t, const char *name);

static mc_status parse_with_tables(mc_material_set *set, set_entry *e, mc_error *perr)
{
    static const char unknown[] = "unknown table '";
    const set_file *f = &set->files[e->file];
    mc_parse_opts quiet = set->opts;
    size_t len = f->len;
    mc_status st = MC_ERR_SYNTAX;
    bool added = false;

    quiet.warn = NULL;
    for (int n = 0; n < MC_MATERIAL_MAX_TABLES && st == MC_ERR_SYNTAX; n++) {
        const char *q = perr->msg + sizeof unknown - 1, *close = strchr(q, '\'');
        char name[MC_LIMIT_NAME_LEN + 1];
        const set_entry *t;
        const set_file *tf;
        size_t tlen;
        char *grown;

        if (strncmp(perr->msg, unknown, sizeof unknown - 1) != 0 || !close ||
            (size_t)(close - q) >= sizeof name)
            break;
        memcpy(name, q, (size_t)(close - q));
        name[close - q] = '\0';
        t = lookup(&set->tables, name);
        if (!t)
            break;
        tf = &set->files[t->file];
        tlen = t->span->end - t->span->start;
        grown = realloc(e->text, len + tlen + 2);
        if (!grown)
            return mc_error_set(perr, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        if (!e->text)
            memcpy(grown, f->text, len);
        grown[len] = '\n';
        memcpy(grown + len + 1, tf->text + t->span->start, tlen);
        len += tlen + 1;
        grown[len] = '\0';
        e->text = grown;
        added = true;
        mc_mtr_release(&e->parsed);
        st = mc_mtr_parse_span(e->text, len, f->where, e->span, &quiet, &e->parsed, perr);
    }
    if (!added)
        return MC_ERR_SYNTAX;
    /* once more with the warnings, on the text the last try read */
    mc_mtr_release(&e->parsed);
    return mc_mtr_parse_span(e->text, len, f->where, e->span, &set->opts, &e->parsed, perr);
}

/* Parses e's declaration. One that fails becomes Doom's default material (idDecl's
 * MakeDefault after a failed Parse), with the failure as one warning at its position. */
static mc_status parse_entry(mc_material_set *set, set_entry *e, mc_error *err)
{
    set_file *f = &set->files[e->file];
    mc_error perr;
    mc_status st;

    set->parsed++;
    st = mc_mtr_parse_span_tables(f->text, f->len, f->where, e->span, &set->opts, &f->tables,
                                  &e->parsed, &perr);
    if (st == MC_ERR_SYNTAX)
        st = parse_with_tables(set, e, &perr);
    if (st == MC_OK)
        return MC_OK;
    if (st == MC_ERR_NOMEM || st == MC_ERR_INTERRUPTED ||
        (st == MC_ERR_LIMIT && strncmp(perr.msg, MC_EXPR_TABLE_BUDGET_MSG,
                                       sizeof MC_EXPR_TABLE_BUDGET_MSG - 1) == 0)) {
        /* out of memory, stopped, or over the tables' budget: the load ends here */
        *err = perr;
        return st;
    }
    if (set->opts.strict_game_data) { /* --strict: the error itself */
        *err = perr;
        return st;
    }
    if (set->opts.warn) {
        mc_error w;

        mc_error_set(&w, perr.code, perr.file, perr.line, perr.col,
                     "%s; material '%s' is drawn as the default material", perr.msg,
                     e->span->name);
        set->opts.warn(set->opts.warn_user, &w);
    }
    st = mc_mtr_default_decl(e->span->name, &e->parsed, err);
    if (st == MC_OK) {
        e->parsed.decls[0].line = e->span->line;
        e->parsed.decls[0].col = e->span->col;
    }
    return st;
}

/* The entry of `name` (canonicalised first), or NULL. */
static set_entry *lookup(const decl_table *t, const char *name)
{
    char c[MC_LIMIT_NAME_LEN + 1];
    int lo = 0, hi = t->count - 1;

    if (!mc_mtr_canonical(name, strlen(name), c, sizeof c))
        return NULL;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int cmp = strcmp(c, t->entries[mid].span->name);

        if (cmp == 0)
            return &t->entries[mid];
        if (cmp < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return NULL;
}

const mc_material *mc_material_set_find(mc_material_set *set, const char *name, mc_status *status,
                                        mc_error *err)
{
    set_entry *e = lookup(&set->materials, name);

    *status = MC_OK;
    if (!e)
        return NULL;
    if (!e->resolved) {
        if (stopped(&set->opts)) {
            *status = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            return NULL;
        }
        if (!e->parsed.decls && (*status = parse_entry(set, e, err)) != MC_OK)
            return NULL;
        *status = mat_resolve(&e->parsed.decls[0], set->files[e->file].where, set->vfs,
                              &set->pixels, &e->material, err);
        if (*status != MC_OK)
            return NULL;
        e->resolved = 1;
    }
    return &e->material;
}

const char *mc_material_set_declared(const mc_material_set *set, const char *name, int *line)
{
    const set_entry *e = lookup(&set->materials, name);

    if (!e)
        return NULL;
    if (line)
        *line = e->span->line;
    return set->files[e->file].where;
}

const mc_skinfile *mc_material_set_skin(mc_material_set *set, const char *name, mc_status *status,
                                        mc_error *err)
{
    set_entry *e = lookup(&set->skins, name);

    *status = MC_OK;
    if (!e)
        return NULL;
    if (!e->resolved) {
        const set_file *f = &set->files[e->file];

        *status = mc_skinfile_parse_span(f->text, f->len, f->where, e->span, &e->skin, err);
        if (*status != MC_OK)
            return NULL;
        e->resolved = 1;
    }
    return &e->skin;
}

/* ---------------------------------------------------------------- sounds, entityDefs */

/* Whether a parse failure ends the load (out of memory, stopped) rather than the declaration. */
static bool fatal(mc_status st)
{
    return st == MC_ERR_NOMEM || st == MC_ERR_INTERRUPTED || st == MC_ERR_USAGE;
}

/* A declaration of kind `what` failed to parse with perr: the error itself under
 * strict_game_data (or when fatal), else one warning at its position saying what becomes of
 * it, and MC_OK. */
static mc_status broken_decl(const mc_material_set *set, const mc_error *perr, const char *what,
                             const char *name, const char *becomes, mc_error *err)
{
    if (fatal(perr->code) || set->opts.strict_game_data) {
        *err = *perr;
        return perr->code;
    }
    if (set->opts.warn) {
        mc_error w;

        mc_error_set(&w, perr->code, perr->file, perr->line, perr->col, "%s; %s '%s' %s",
                     perr->msg, what, name, becomes);
        set->opts.warn(set->opts.warn_user, &w);
    }
    return MC_OK;
}

/* The shader of a declaration that fails to parse: its name and place, no sound file. The
 * engine plays its default beep (idSoundShader::DefaultDefinition, _default.wav) instead. */
static mc_status silent_shader(const set_entry *e, const set_file *f, mc_sndshd *sh,
                               mc_error *err)
{
    memset(sh, 0, sizeof *sh);
    sh->parms = mc_sndshd_default_parms();
    sh->defaulted = true;
    sh->line = e->span->line;
    sh->col = e->span->col;
    sh->name = mc_arena_strndup(&sh->arena, e->span->name, strlen(e->span->name));
    sh->file = mc_arena_strndup(&sh->arena, f->where, strlen(f->where));
    if (sh->name && sh->file)
        return MC_OK;
    mc_sndshd_release(sh);
    return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

const mc_sndshd *mc_material_set_sound(mc_material_set *set, const char *name, mc_status *status,
                                       mc_error *err)
{
    set_entry *e = lookup(&set->sounds, name);
    const set_file *f;
    mc_sndshd *sh;
    mc_error perr;

    *status = MC_OK;
    if (!e || e->sound)
        return e ? e->sound : NULL;
    if (stopped(&set->opts)) {
        *status = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
        return NULL;
    }
    f = &set->files[e->file];
    if (!(sh = malloc(sizeof *sh))) {
        *status = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    *status = mc_sndshd_parse_span(f->text, f->len, f->where, e->span, &set->opts, sh, &perr);
    if (*status != MC_OK) {
        *status = broken_decl(set, &perr, "sound shader", e->span->name, "is silent", err);
        if (*status == MC_OK)
            *status = silent_shader(e, f, sh, err);
    }
    if (*status != MC_OK) {
        free(sh);
        return NULL;
    }
    e->sound = sh;
    return sh;
}

static mc_status resolve_entity(mc_material_set *set, set_entry *e, int depth, mc_error *err);

/* The declarations own inherits, each resolved, into parents (NULL: unknown or broken). */
static mc_status resolve_parents(mc_material_set *set, const mc_entitydef *own, int depth,
                                 const mc_entitydef **parents, mc_error *err)
{
    for (int i = 0; i < own->num_inherits; i++) {
        const mc_entitydef_pair *in = &own->inherits[i];
        set_entry *pe = lookup(&set->entities, in->value);
        mc_status st;

        parents[i] = NULL;
        if (!pe) { /* DeclEntityDef.cpp: a warning, and the rest is used */
            if (set->opts.warn) {
                mc_error w;

                mc_error_set(&w, MC_ERR_SYNTAX, in->file, in->line, in->col,
                             "unknown entityDef '%s' inherited by '%s'", in->value, own->name);
                set->opts.warn(set->opts.warn_user, &w);
            }
            continue;
        }
        if (pe->state == ENT_BUSY)
            return mc_error_set(err, MC_ERR_SYNTAX, in->file, in->line, in->col,
                                "inherit cycle: entityDef '%s' inherits '%s', which inherits it",
                                own->name, in->value);
        if (depth + 1 >= MC_LIMIT_ENTITYDEF_INHERIT)
            return mc_error_set(err, MC_ERR_LIMIT, in->file, in->line, in->col,
                                "entityDef '%s' inherits more than %d deep", own->name,
                                MC_LIMIT_ENTITYDEF_INHERIT);
        if ((st = resolve_entity(set, pe, depth + 1, err)) != MC_OK)
            return st;
        parents[i] = pe->state == ENT_DONE ? pe->entity : NULL;
    }
    return MC_OK;
}

/* Parses e's declaration and merges what it inherits into e->entity (ENT_DONE), or marks it
 * ENT_BROKEN after the warning of a declaration that fails to parse. On an error e is left
 * unread. */
static mc_status resolve_entity(mc_material_set *set, set_entry *e, int depth, mc_error *err)
{
    const set_file *f = &set->files[e->file];
    mc_entitydef own, *merged;
    const mc_entitydef **parents;
    mc_error perr;
    mc_status st;

    if (e->state != ENT_UNREAD)
        return MC_OK;
    if (stopped(&set->opts))
        return mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
    st = mc_entitydef_parse_span(f->text, f->len, f->where, e->span, &set->opts, &own, &perr);
    if (st != MC_OK) {
        st = broken_decl(set, &perr, "entityDef", e->span->name, "is left out", err);
        if (st == MC_OK)
            e->state = ENT_BROKEN;
        return st;
    }
    parents = calloc((size_t)own.num_inherits + 1, sizeof *parents);
    merged = malloc(sizeof *merged);
    e->state = ENT_BUSY;
    st = parents && merged ? resolve_parents(set, &own, depth, parents, err)
                           : mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st == MC_OK)
        st = mc_entitydef_merge(&own, parents, merged, err);
    free(parents);
    mc_entitydef_release(&own);
    if (st != MC_OK) {
        free(merged);
        e->state = ENT_UNREAD;
        return st;
    }
    e->entity = merged;
    e->state = ENT_DONE;
    return MC_OK;
}

const mc_entitydef *mc_material_set_entitydef(mc_material_set *set, const char *name,
                                              mc_status *status, mc_error *err)
{
    set_entry *e = lookup(&set->entities, name);

    *status = e ? resolve_entity(set, e, 0, err) : MC_OK;
    return e && e->state == ENT_DONE ? e->entity : NULL;
}

int mc_material_set_parsed(const mc_material_set *set)
{
    return set->parsed;
}

const char *mc_material_set_nearest_skin(const mc_material_set *set, const char *name)
{
    char c[MC_LIMIT_NAME_LEN + 1];
    const char **names;
    const char *near = NULL;

    if (!set || set->skins.count == 0 || !mc_mtr_canonical(name, strlen(name), c, sizeof c) ||
        !(names = malloc((size_t)set->skins.count * sizeof *names)))
        return NULL;
    for (int i = 0; i < set->skins.count; i++)
        names[i] = set->skins.entries[i].span->name;
    near = mc_nearest_word(c, strlen(c), names, (size_t)set->skins.count);
    free(names);
    return near;
}

int mc_material_set_count(const mc_material_set *set)
{
    return set->materials.count;
}

const char *mc_material_set_name(const mc_material_set *set, int i)
{
    return set->materials.entries[i].span->name;
}

void mc_material_set_destroy(mc_material_set *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->materials.count; i++) {
        mc_material_release(&set->materials.entries[i].material);
        mc_mtr_release(&set->materials.entries[i].parsed);
        free(set->materials.entries[i].text);
    }
    for (int i = 0; i < set->skins.count; i++)
        mc_skinfile_release(&set->skins.entries[i].skin);
    for (int i = 0; i < set->sounds.count; i++) {
        mc_sndshd_release(set->sounds.entries[i].sound);
        free(set->sounds.entries[i].sound);
    }
    for (int i = 0; i < set->entities.count; i++) {
        mc_entitydef_release(set->entities.entries[i].entity);
        free(set->entities.entries[i].entity);
    }
    mat_cache_release(&set->images);
    mc_warn_repeats_release(&set->repeats);
    for (int i = 0; i < set->num_implicit; i++) {
        mc_material_release(&set->implicit[i]->material);
        mc_mtr_release(&set->implicit[i]->parsed);
        free(set->implicit[i]);
    }
    free(set->implicit);
    free(set->materials.entries);
    free(set->skins.entries);
    free(set->tables.entries);
    free(set->sounds.entries);
    free(set->entities.entries);
    for (int i = 0; set->files && i < set->cap_files; i++) {
        for (int k = 0; k < NUM_KINDS; k++)
            mc_mtr_index_release(&set->files[i].index[k]);
        mc_expr_tables_release(set->files[i].tables);
        free(set->files[i].text);
        free(set->files[i].where);
    }
    free(set->files);
    free(set);
}

void mc_material_set_group_warnings(mc_material_set *set)
{
    set->repeats.grouping = true;
}

void mc_material_set_ungroup_warnings(mc_material_set *set)
{
    mc_warn_repeats_flush(&set->repeats);
}

/* Whether the image an implicit material maps is there: name.dds, .tga, .jpg or .png, as
 * mat_load_image looks for it (loose files and archives alike). */
static bool implicit_image_exists(const mc_material_set *set, const char *name)
{
    static const char *const exts[] = { ".dds", ".tga", ".jpg", ".png" };
    char path[MC_LIMIT_NAME_LEN + 16];

    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        snprintf(path, sizeof path, "%s%s", name, exts[i]);
        if (mc_vfs_exists(set->vfs, path, NULL, 0))
            return true;
    }
    return false;
}

/* Makes im's material: Material.cpp, idMaterial::SetDefaultText writes an undeclared material
 * as one stage `blend blend`, `colored`, `map NAME`, `clamp`. */
static mc_status make_implicit(mc_material_set *set, implicit_material *im, mc_error *err)
{
    char text[2 * MC_LIMIT_NAME_LEN + 96];
    int n;
    mc_status st;

    im->drawn = implicit_image_exists(set, im->name);
    if (!im->drawn)
        return MC_OK;
    n = snprintf(text, sizeof text, "\"%s\" {\n\t{\n\t\tblend blend\n\t\tcolored\n"
                 "\t\tmap \"%s\"\n\t\tclamp\n\t}\n}\n", im->name, im->name);
    if (n < 0 || (size_t)n >= sizeof text || strchr(im->name, '"'))
        return mc_error_set(err, MC_ERR_SYNTAX, NULL, 0, 0, "bad material name '%s'", im->name);
    st = mc_mtr_parse(text, (size_t)n, "(implicit material)", NULL, &im->parsed, err);
    if (st == MC_OK)
        st = mat_resolve(&im->parsed.decls[0], "(implicit material)", set->vfs, &set->pixels,
                         &im->material, err);
    return st;
}

const mc_material *mc_material_set_implicit(mc_material_set *set, const char *name,
                                            mc_status *status, mc_error *err)
{
    char c[MC_LIMIT_NAME_LEN + 1];
    implicit_material *im;

    *status = MC_OK;
    if (!mc_mtr_canonical(name, strlen(name), c, sizeof c) || !c[0])
        return NULL;
    for (int i = 0; i < set->num_implicit; i++)
        if (strcmp(set->implicit[i]->name, c) == 0)
            return set->implicit[i]->drawn ? &set->implicit[i]->material : NULL;
    if (set->num_implicit == set->cap_implicit) {
        int cap = set->cap_implicit ? set->cap_implicit * 2 : 8;
        implicit_material **grown = realloc(set->implicit, (size_t)cap * sizeof *grown);

        if (!grown) {
            *status = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
            return NULL;
        }
        set->implicit = grown;
        set->cap_implicit = cap;
    }
    im = calloc(1, sizeof *im);
    if (!im) {
        *status = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        return NULL;
    }
    memcpy(im->name, c, sizeof c);
    set->implicit[set->num_implicit++] = im;
    *status = make_implicit(set, im, err);
    if (*status != MC_OK)
        im->drawn = false;
    return *status == MC_OK && im->drawn ? &im->material : NULL;
}
