/* The base folder's file tree (vfs.h): one hash index over loose files and .pk4 entries. */
#define _DEFAULT_SOURCE /* DT_DIR, strdup with -std=c11 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <md5cine/arena.h>
#include <md5cine/fileio.h>
#include <md5cine/vfs.h>

/* Deepest folder nesting walked under base (Doom 3's deepest is 7). */
#define MAX_DEPTH 64

typedef struct vfs_entry {
    const char *key;    /* folded name; NULL for an empty slot */
    const char *name;   /* as found: the path under base, or the entry's stored name */
    int source;         /* -1: loose file; else the archive's index */
    bool read;          /* looked up by a read (mc_vfs_files_read) */
    zip_uint64_t index; /* the entry in its archive */
    zip_uint64_t size;  /* declared size in the archive */
} vfs_entry;

typedef struct vfs_archive {
    char *path; /* "base/pak000.pk4" */
    zip_t *zip;
} vfs_archive;

struct mc_vfs {
    char *base; /* with no trailing '/' */
    char *real; /* base's real path (realpath), NULL when it has none */
    vfs_entry *slots;
    size_t cap, count; /* cap is a power of two, count <= cap / 2 */
    vfs_archive *archives;
    int num_archives;
    mc_arena arena; /* keys and names */
    const volatile sig_atomic_t *stop; /* NULL, or the caller's stop flag */
};

void mc_vfs_set_stop(mc_vfs *vfs, const volatile sig_atomic_t *stop)
{
    vfs->stop = stop;
}

/* Folds a name: '\' to '/', ASCII upper case to lower, no leading '/'. */
static void fold(const char *in, char *out, size_t cap)
{
    size_t n = 0;

    while (*in == '/' || *in == '\\')
        in++;
    for (; *in && n + 1 < cap; in++) {
        char c = *in == '\\' ? '/' : *in;

        out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[n] = '\0';
}

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static vfs_entry *slot_of(const mc_vfs *v, const char *key)
{
    size_t i = hash(key) & (v->cap - 1);

    while (v->slots[i].key && strcmp(v->slots[i].key, key) != 0)
        i = (i + 1) & (v->cap - 1);
    return &v->slots[i];
}

static mc_status rehash(mc_vfs *v, mc_error *err)
{
    size_t cap = v->cap ? v->cap * 2 : 1024;
    vfs_entry *old = v->slots;
    size_t old_cap = v->cap;

    v->slots = calloc(cap, sizeof *v->slots);
    if (!v->slots) {
        v->slots = old;
        return mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
    }
    v->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key)
            *slot_of(v, old[i].key) = old[i];
    free(old);
    return MC_OK;
}

/* Adds name unless an earlier place holds it. */
static mc_status add(mc_vfs *v, const char *name, int source, zip_uint64_t index, zip_uint64_t size,
                     mc_error *err)
{
    char key[4096];
    vfs_entry *e;
    mc_status st;

    fold(name, key, sizeof key);
    if (!key[0])
        return MC_OK;
    if ((v->count + 1) * 2 > v->cap && (st = rehash(v, err)) != MC_OK)
        return st;
    e = slot_of(v, key);
    if (e->key)
        return MC_OK;
    if (v->count >= MC_LIMIT_ARCHIVE_ENTRIES)
        return mc_error_set(err, MC_ERR_LIMIT, v->base, 0, 0,
                            "more than %d files in the base folder and its archives",
                            MC_LIMIT_ARCHIVE_ENTRIES);
    e->key = mc_arena_strndup(&v->arena, key, strlen(key));
    e->name = mc_arena_strndup(&v->arena, name, strlen(name));
    if (!e->key || !e->name) {
        e->key = NULL;
        return mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
    }
    e->source = source;
    e->index = index;
    e->size = size;
    v->count++;
    return MC_OK;
}

/* Whether the link at path leads to a file inside the base (its real path under base's). */
static bool link_inside(const mc_vfs *v, const char *path)
{
    char *r = v->real ? realpath(path, NULL) : NULL;
    size_t n = v->real ? strlen(v->real) : 0;
    /* "/" as the base: every path is under it */
    bool in = r && strncmp(r, v->real, n) == 0 && (r[n] == '/' || (n == 1 && r[0] == '/'));

    free(r);
    return in;
}

/* Walks base/rel (rel "" or ending in '/'). A link to a file is indexed when the file is inside
 * the base; a link to a folder is not followed. */
static mc_status walk(mc_vfs *v, const char *rel, int depth, mc_error *err)
{
    char dir[8200], path[8200], sub[4096];
    DIR *d;
    struct dirent *de;
    mc_status st = MC_OK;

    snprintf(dir, sizeof dir, "%s/%s", v->base, rel);
    d = opendir(dir);
    if (!d)
        return depth == 0
                       ? mc_error_set(err, MC_ERR_IO, v->base, 0, 0, "cannot read the base folder")
                       : MC_OK;
    while (st == MC_OK && (de = readdir(d)) != NULL) {
        struct stat sb, lsb;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if ((size_t)snprintf(sub, sizeof sub, "%s%s", rel, de->d_name) >= sizeof sub - 1)
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", v->base, sub) >= sizeof path)
            continue;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISREG(sb.st_mode)) {
            if (lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode) && !link_inside(v, path))
                continue;
            st = add(v, sub, -1, 0, (zip_uint64_t)sb.st_size, err);
        } else if (S_ISDIR(sb.st_mode) && depth < MAX_DEPTH && lstat(path, &lsb) == 0 &&
                   S_ISDIR(lsb.st_mode)) {
            strcat(sub, "/");
            st = walk(v, sub, depth + 1, err);
        }
    }
    closedir(d);
    return st;
}

static int by_name_desc(const void *a, const void *b)
{
    return -strcasecmp(*(char *const *)a, *(char *const *)b);
}

static bool is_pk4(const char *name)
{
    size_t n = strlen(name);

    return n > 4 && strcasecmp(name + n - 4, ".pk4") == 0;
}

/* The names of the .pk4 files of the base folder into *names (malloc'd, *n of them; the caller
 * frees them, also on an error). */
static mc_status list_pk4(mc_vfs *v, char ***names, int *n, mc_error *err)
{
    DIR *d = opendir(v->base);
    struct dirent *de;
    int cap = 0;
    mc_status st = MC_OK;

    if (!d)
        return mc_error_set(err, MC_ERR_IO, v->base, 0, 0, "cannot read the base folder");
    while ((de = readdir(d)) != NULL) {
        if (!is_pk4(de->d_name))
            continue;
        if (*n == cap) {
            char **g = realloc(*names, (size_t)(cap = cap ? cap * 2 : 8) * sizeof **names);

            if (!g) {
                st = mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
                break;
            }
            *names = g;
        }
        if (!((*names)[*n] = strdup(de->d_name))) {
            st = mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
            break;
        }
        (*n)++;
    }
    closedir(d);
    return st;
}

/* Opens the archive base/name into a; on an error a holds nothing. */
static mc_status open_archive(mc_vfs *v, vfs_archive *a, const char *name, mc_error *err)
{
    size_t plen = strlen(v->base) + strlen(name) + 2;
    int code = 0;

    a->path = malloc(plen);
    if (!a->path)
        return mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
    snprintf(a->path, plen, "%s/%s", v->base, name);
    {
        struct stat sb;
        /* Opened here first (not blocking, so a FIFO is refused rather than waited on) to
         * learn why it cannot be: out of descriptors or memory is the machine's fault
         * (mc_open_status), not the archive's. A folder named x.pk4 is no archive. */
        int fd = open(a->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = errno;

        if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            mc_status st = fd < 0 ? mc_error_set(err, mc_open_status(e), a->path, 0, 0,
                                                 "cannot open archive '%s': %s", a->path,
                                                 strerror(e))
                                  : mc_error_set(err, MC_ERR_IO, a->path, 0, 0,
                                                 "cannot open archive '%s': not a file", a->path);

            if (fd >= 0)
                close(fd);
            free(a->path);
            return st;
        }
        close(fd);
    }
    errno = 0;
    a->zip = zip_open(a->path, ZIP_RDONLY, &code);
    if (!a->zip) {
        int e = errno;
        zip_error_t ze;
        bool machine = code == ZIP_ER_MEMORY ||
                       ((code == ZIP_ER_OPEN || code == ZIP_ER_READ) &&
                        mc_open_status(e) == MC_ERR_NOMEM);
        mc_status st;

        zip_error_init_with_code(&ze, code);
        st = mc_error_set(err, machine ? MC_ERR_NOMEM : MC_ERR_IO, a->path, 0, 0,
                          "cannot open archive '%s': %s%s%s", a->path, zip_error_strerror(&ze),
                          machine && e ? ": " : "", machine && e ? strerror(e) : "");
        zip_error_fini(&ze);
        free(a->path);
        return st;
    }
    return MC_OK;
}

/* Adds the files of archive number source (a) to the index. */
static mc_status add_archive_files(mc_vfs *v, const vfs_archive *a, int source, mc_error *err)
{
    zip_int64_t entries = zip_get_num_entries(a->zip, 0);
    mc_status st = MC_OK;

    for (zip_int64_t k = 0; st == MC_OK && k < entries; k++) {
        zip_stat_t zs;
        size_t len;

        if (zip_stat_index(a->zip, (zip_uint64_t)k, ZIP_FL_ENC_GUESS, &zs) != 0 ||
            !(zs.valid & ZIP_STAT_NAME))
            continue;
        len = strlen(zs.name);
        if (len == 0 || zs.name[len - 1] == '/' || zs.name[len - 1] == '\\')
            continue;
        st = add(v, zs.name, source, (zip_uint64_t)k, (zs.valid & ZIP_STAT_SIZE) ? zs.size : 0,
                 err);
    }
    return st;
}

static mc_status open_archives(mc_vfs *v, mc_error *err)
{
    char **names = NULL;
    int n = 0;
    mc_status st = list_pk4(v, &names, &n, err);

    if (st == MC_OK && n > 0) {
        qsort(names, (size_t)n, sizeof *names, by_name_desc);
        v->archives = calloc((size_t)n, sizeof *v->archives);
        if (!v->archives)
            st = mc_error_set(err, MC_ERR_NOMEM, v->base, 0, 0, "out of memory");
    }
    for (int i = 0; st == MC_OK && i < n; i++) {
        vfs_archive *a = &v->archives[v->num_archives];

        st = open_archive(v, a, names[i], err);
        if (st != MC_OK)
            break;
        v->num_archives++;
        st = add_archive_files(v, a, v->num_archives - 1, err);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return st;
}

mc_status mc_vfs_open(const char *base, mc_vfs **out, mc_error *err)
{
    mc_vfs *v;
    size_t n;
    mc_status st;

    *out = NULL;
    v = calloc(1, sizeof *v);
    if (!v || !(v->base = strdup(base))) {
        free(v);
        return mc_error_set(err, MC_ERR_NOMEM, base, 0, 0, "out of memory");
    }
    n = strlen(v->base);
    while (n > 1 && v->base[n - 1] == '/')
        v->base[--n] = '\0';
    v->real = realpath(v->base, NULL);
    st = rehash(v, err);
    if (st == MC_OK)
        st = walk(v, "", 0, err);
    if (st == MC_OK)
        st = open_archives(v, err);
    if (st != MC_OK) {
        mc_vfs_destroy(v);
        return st;
    }
    *out = v;
    return MC_OK;
}

void mc_vfs_destroy(mc_vfs *vfs)
{
    if (!vfs)
        return;
    for (int i = 0; i < vfs->num_archives; i++) {
        zip_discard(vfs->archives[i].zip);
        free(vfs->archives[i].path);
    }
    free(vfs->archives);
    free(vfs->slots);
    mc_arena_release(&vfs->arena);
    free(vfs->base);
    free(vfs->real);
    free(vfs);
}

static vfs_entry *lookup(const mc_vfs *v, const char *path)
{
    char key[4096];
    vfs_entry *e;

    fold(path, key, sizeof key);
    e = slot_of(v, key);
    return e->key ? e : NULL;
}

static void describe(const mc_vfs *v, const vfs_entry *e, char *where, size_t cap)
{
    if (!where || cap == 0)
        return;
    if (e->source < 0)
        snprintf(where, cap, "%s/%s", v->base, e->name);
    else
        snprintf(where, cap, "%s:%s", v->archives[e->source].path, e->name);
}

bool mc_vfs_exists(const mc_vfs *vfs, const char *path, char *where, size_t cap)
{
    const vfs_entry *e = lookup(vfs, path);

    if (where && cap)
        where[0] = '\0';
    if (!e)
        return false;
    describe(vfs, e, where, cap);
    return true;
}

/* The declared size over the budget max: an error naming the place, before a byte is read. */
static mc_status over_budget(const vfs_entry *e, const char *place, size_t max, mc_error *err)
{
    return mc_error_set(err, MC_ERR_LIMIT, place, 0, 0,
                        "'%s' declares %llu bytes, over the limit of %zu", place,
                        (unsigned long long)e->size, max);
}

/* Refuses entry e before anything is inflated when its declared size is over the limit of any
 * entry, over what its compression can give, or over the caller's budget max: in that order. */
static mc_status check_entry_size(zip_t *z, const vfs_entry *e, const char *place, size_t max,
                                  mc_error *err)
{
    zip_stat_t zs;

    if (e->size > MC_LIMIT_ARCHIVE_ENTRY_BYTES)
        return over_budget(e, place, MC_LIMIT_ARCHIVE_ENTRY_BYTES, err);
    /* The declared size against the compressed one before anything is inflated: stored
     * data is as long as it is, and deflate gives at most 1032 bytes a byte (RFC 1951's
     * longest match, 258 bytes, from 2 bits). */
    if (zip_stat_index(z, e->index, 0, &zs) == 0 && (zs.valid & ZIP_STAT_COMP_SIZE) &&
        (zs.valid & ZIP_STAT_COMP_METHOD) &&
        (zs.comp_method == ZIP_CM_STORE ? e->size > zs.comp_size
                                        : e->size / 1032 > zs.comp_size + 64))
        return mc_error_set(err, MC_ERR_LIMIT, place, 0, 0,
                            "'%s' declares %llu bytes from %llu compressed, more than its "
                            "compression can give",
                            place, (unsigned long long)e->size,
                            (unsigned long long)zs.comp_size);
    if (e->size > max)
        return over_budget(e, place, max, err);
    return MC_OK;
}

/* Inflates the size bytes of the open entry zf into *out (malloc'd, one byte more for a NUL),
 * checking that no more follow; zf stays open. */
static mc_status inflate_entry(mc_vfs *v, zip_file_t *zf, size_t size, const char *place,
                               uint8_t **out, mc_error *err)
{
    /* Inflated in steps, the buffer growing with the data that arrives (to the declared size
     * at most), so an entry whose data stops short costs what it holds, not what it claims. */
    size_t cap = size < ((size_t)1 << 20) ? size : (size_t)1 << 20, have = 0;
    zip_int64_t got = 0;
    uint8_t *buf = malloc(cap + 1), extra;

    while (buf && have < size) {
        if (have == cap) {
            size_t ncap = cap > size / 2 ? size : cap * 2;
            uint8_t *g = realloc(buf, ncap + 1);

            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
            cap = ncap;
        }
        if (v->stop && *v->stop) {
            mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            goto fail;
        }
        got = zip_fread(zf, buf + have, (cap - have) < ((size_t)1 << 20) ? cap - have
                                                                         : (size_t)1 << 20);
        if (got <= 0)
            break;
        have += (size_t)got;
    }
    if (!buf)
        return mc_error_set(err, MC_ERR_NOMEM, place, 0, 0, "out of memory reading '%s'", place);
    if (have != size) {
        mc_error_set(err, MC_ERR_IO, place, 0, 0, "cannot read '%s': %s", place,
                     got < 0 ? zip_file_strerror(zf) : "shorter than declared");
        goto fail;
    }
    got = zip_fread(zf, &extra, 1);
    if (got != 0) {
        if (got > 0)
            mc_error_set(err, MC_ERR_LIMIT, place, 0, 0,
                         "'%s' holds more data than its declared %zu bytes", place, size);
        else
            mc_error_set(err, MC_ERR_IO, place, 0, 0, "cannot read '%s': %s", place,
                         zip_file_strerror(zf));
        goto fail;
    }
    *out = buf;
    return MC_OK;

fail:
    free(buf);
    return err ? err->code : MC_ERR_IO;
}

static mc_status read_entry(mc_vfs *v, const vfs_entry *e, const char *place, size_t max,
                            uint8_t **data, size_t *len, mc_error *err)
{
    zip_t *z = v->archives[e->source].zip;
    zip_file_t *zf;
    uint8_t *buf = NULL;
    size_t size = (size_t)e->size;
    mc_status st = check_entry_size(z, e, place, max, err);

    if (st != MC_OK)
        return st;
    zf = zip_fopen_index(z, e->index, 0);
    if (!zf) {
        zip_error_t *ze = zip_get_error(z);
        bool machine = zip_error_code_zip(ze) == ZIP_ER_MEMORY ||
                       (zip_error_system_type(ze) == ZIP_ET_SYS &&
                        mc_open_status(zip_error_code_system(ze)) == MC_ERR_NOMEM);

        return mc_error_set(err, machine ? MC_ERR_NOMEM : MC_ERR_IO, place, 0, 0,
                            "cannot read '%s': %s", place, zip_strerror(z));
    }
    st = inflate_entry(v, zf, size, place, &buf, err);
    if (st != MC_OK) {
        zip_fclose(zf);
        return st;
    }
    if (zip_fclose(zf) != 0) {
        free(buf);
        return mc_error_set(err, MC_ERR_IO, place, 0, 0, "cannot read '%s': damaged entry", place);
    }
    buf[size] = 0;
    *data = buf;
    *len = size;
    return MC_OK;
}

mc_status mc_vfs_read(mc_vfs *vfs, const char *path, uint8_t **data, size_t *len, bool *found,
                      char *where, size_t cap, mc_error *err)
{
    return mc_vfs_read_max(vfs, path, MC_LIMIT_ARCHIVE_ENTRY_BYTES, data, len, found, where, cap,
                           err);
}

mc_status mc_vfs_read_max(mc_vfs *vfs, const char *path, size_t max, uint8_t **data, size_t *len,
                          bool *found, char *where, size_t cap, mc_error *err)
{
    vfs_entry *e = lookup(vfs, path);
    char place[4200];

    *data = NULL;
    *len = 0;
    *found = e != NULL;
    if (where && cap)
        where[0] = '\0';
    if (!e)
        return MC_OK;
    e->read = true; /* an input now, whether or not the read succeeds */
    describe(vfs, e, place, sizeof place);
    describe(vfs, e, where, cap);
    if (max > MC_LIMIT_ARCHIVE_ENTRY_BYTES)
        max = MC_LIMIT_ARCHIVE_ENTRY_BYTES;
    /* The declared (or loose file's) size against the budget before a byte is read (an entry's
     * after the check of what its compression can give, read_entry); an entry whose data runs
     * past its declared size stops there. */
    if (e->source < 0) {
        char *buf;
        mc_status st;

        if (e->size > max)
            return over_budget(e, place, max, err);
        st = mc_read_file(place, &buf, len, err);
        if (st == MC_OK && *len > max) { /* grown since the folder was walked */
            free(buf);
            *len = 0;
            return mc_error_set(err, MC_ERR_LIMIT, place, 0, 0,
                                "'%s' holds more than %zu bytes", place, max);
        }
        *data = (uint8_t *)buf;
        return st;
    }
    return read_entry(vfs, e, place, max, data, len, err);
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Allocates *out as one block of *n pointers followed by bytes of text for them (*strs) and
 * sets *n to 0 for the filling pass; false with err set when out of memory. */
static bool name_block(const mc_vfs *vfs, int *n, size_t bytes, char ***out, char **strs,
                       mc_error *err)
{
    *out = malloc((size_t)*n * sizeof **out + bytes);
    if (!*out) {
        mc_error_set(err, MC_ERR_NOMEM, vfs->base, 0, 0, "out of memory");
        return false;
    }
    *strs = (char *)(*out + *n);
    *n = 0;
    return true;
}

mc_status mc_vfs_list(const mc_vfs *vfs, const char *dir, const char *ext, char ***names,
                      int *count, mc_error *err)
{
    char d[4096];
    size_t dl, el = strlen(ext), bytes = 0;
    int n = 0;
    char **out = NULL, *strs = NULL;

    *names = NULL;
    *count = 0;
    fold(dir, d, sizeof d);
    dl = strlen(d);
    while (dl > 0 && d[dl - 1] == '/')
        d[--dl] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < vfs->cap; i++) {
            const char *k = vfs->slots[i].key, *rest;
            size_t kl;

            if (!k || strncmp(k, d, dl) != 0 || (dl > 0 && k[dl] != '/'))
                continue;
            rest = k + dl + (dl > 0);
            kl = strlen(rest);
            if (strchr(rest, '/') || kl < el || strcasecmp(rest + kl - el, ext) != 0)
                continue;
            if (pass == 0) {
                n++;
                bytes += strlen(k) + 1;
            } else {
                strcpy(strs, k);
                out[n++] = strs;
                strs += strlen(k) + 1;
            }
        }
        if (pass == 0) {
            if (n == 0)
                return MC_OK;
            if (!name_block(vfs, &n, bytes, &out, &strs, err))
                return MC_ERR_NOMEM;
        }
    }
    qsort(out, (size_t)n, sizeof *out, by_bytes);
    *names = out;
    *count = n;
    return MC_OK;
}

mc_status mc_vfs_files_read(const mc_vfs *vfs, char ***paths, int *count, mc_error *err)
{
    size_t bytes = 0, blen = strlen(vfs->base);
    int n = vfs->num_archives;
    char **out, *strs;

    *paths = NULL;
    *count = 0;
    for (int i = 0; i < vfs->num_archives; i++)
        bytes += strlen(vfs->archives[i].path) + 1;
    for (size_t i = 0; i < vfs->cap; i++)
        if (vfs->slots[i].key && vfs->slots[i].read && vfs->slots[i].source < 0) {
            n++;
            bytes += blen + 1 + strlen(vfs->slots[i].name) + 1;
        }
    if (n == 0)
        return MC_OK;
    if (!name_block(vfs, &n, bytes, &out, &strs, err))
        return MC_ERR_NOMEM;
    for (int i = 0; i < vfs->num_archives; i++) {
        out[n++] = strcpy(strs, vfs->archives[i].path);
        strs += strlen(strs) + 1;
    }
    for (size_t i = 0; i < vfs->cap; i++)
        if (vfs->slots[i].key && vfs->slots[i].read && vfs->slots[i].source < 0) {
            out[n++] = strs;
            strs += sprintf(strs, "%s/%s", vfs->base, vfs->slots[i].name) + 1;
        }
    *paths = out;
    *count = n;
    return MC_OK;
}

int mc_vfs_archive_count(const mc_vfs *vfs)
{
    return vfs->num_archives;
}

int mc_vfs_file_count(const mc_vfs *vfs)
{
    return (int)vfs->count;
}

bool mc_vfs_read_place(const char *place, size_t max, char **data, size_t *len)
{
    const char *colon = NULL;
    char archive[4096];
    zip_t *z;
    zip_int64_t idx;
    zip_stat_t zs;
    zip_file_t *zf;
    char *buf;
    zip_int64_t got;

    *data = NULL;
    *len = 0;
    for (const char *p = place; (p = strchr(p, ':')) != NULL; p++)
        if (p - place >= 4 && strncasecmp(p - 4, ".pk4", 4) == 0) {
            colon = p;
            break;
        }
    if (!colon || (size_t)(colon - place) >= sizeof archive)
        return false;
    snprintf(archive, sizeof archive, "%.*s", (int)(colon - place), place);
    if (!mc_is_regular_file(archive) || !(z = zip_open(archive, ZIP_RDONLY, NULL)))
        return false;
    idx = zip_name_locate(z, colon + 1, 0);
    if (idx < 0 || zip_stat_index(z, (zip_uint64_t)idx, 0, &zs) != 0 ||
        !(zs.valid & ZIP_STAT_SIZE) || zs.size > max || !(zf = zip_fopen_index(z, (zip_uint64_t)idx, 0))) {
        zip_close(z);
        return false;
    }
    buf = malloc((size_t)zs.size + 1);
    got = buf ? zip_fread(zf, buf, zs.size) : -1;
    zip_fclose(zf);
    zip_close(z);
    if (got < 0 || (zip_uint64_t)got != zs.size) {
        free(buf);
        return false;
    }
    buf[zs.size] = '\0';
    *data = buf;
    *len = (size_t)zs.size;
    return true;
}
