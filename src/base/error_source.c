/* mc_error_format (error_source.h): the record with its source line, read from a plain file or
 * from a .pk4 archive (vfs.h), which is why it lives beside the base folder's reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/error_source.h>
#include <md5cine/vfs.h>

#define MARK_LINES 1024
#define ENTRY_MAX ((size_t)64 << 20)
#define PIECE 65536

/* The bytes of the cached file from an offset on: the archive entry's, or a piece of a plain
 * file read into buf. */
typedef struct source_reader {
    const mc_source_cache *c;
    FILE *f;          /* a plain file; NULL for an entry */
    char *buf;        /* PIECE bytes of a plain file, from buf_off */
    long long buf_off;
    size_t buf_len;
} source_reader;

/* Bytes from off on (*n of them, 0 at the end of the file or on a read error). */
static const char *bytes_at(source_reader *r, long long off, size_t *n)
{
    if (!r->f) {
        *n = off < (long long)r->c->entry_len ? r->c->entry_len - (size_t)off : 0;
        return r->c->entry + off;
    }
    if (off < r->buf_off || off >= r->buf_off + (long long)r->buf_len) {
        r->buf_len = 0;
        r->buf_off = off;
        if (fseeko(r->f, (off_t)off, SEEK_SET) == 0)
            r->buf_len = fread(r->buf, 1, PIECE, r->f);
    }
    *n = r->buf_len - (size_t)(off - r->buf_off);
    return r->buf + (off - r->buf_off);
}

/* Makes c about path: kept when it already is, else emptied and the archive entry read when
 * path names one. */
static void cache_select(mc_source_cache *c, const char *path)
{
    if (strcmp(c->file, path) == 0 && c->num_marks > 0)
        return;
    mc_source_cache_release(c);
    snprintf(c->file, sizeof c->file, "%s", path);
    mc_vfs_read_place(path, ENTRY_MAX, &c->entry, &c->entry_len);
}

/* Notes that line `at` starts at off, when it is the next line to mark. */
static void mark(mc_source_cache *c, int at, long long off)
{
    if ((at - 1) % MARK_LINES != 0 || (at - 1) / MARK_LINES != c->num_marks)
        return;
    if (c->num_marks == c->cap_marks) {
        int cap = c->cap_marks ? 2 * c->cap_marks : 64;
        long long *m = realloc(c->marks, (size_t)cap * sizeof *m);

        if (!m)
            return; /* the line is then found from an earlier mark */
        c->marks = m;
        c->cap_marks = cap;
    }
    c->marks[c->num_marks++] = off;
}

/* Copies line `line` (1-based) of the file into out without its newline (cut at cap - 1
 * bytes); false if the file cannot be read or is shorter. */
static bool read_source_line(mc_source_cache *c, const char *path, int line, char *out,
                             size_t cap)
{
    source_reader r = { c, NULL, NULL, 0, 0 };
    long long off;
    int at, j;
    size_t n = 0, len;
    const char *p;
    bool found = false;

    cache_select(c, path);
    if (c->num_marks == 0)
        mark(c, 1, 0);
    if (c->num_marks == 0)
        return false;
    if (!c->entry) {
        r.buf = malloc(PIECE);
        r.f = r.buf ? fopen(path, "rb") : NULL;
        if (!r.f) {
            free(r.buf);
            return false;
        }
    }
    j = (line - 1) / MARK_LINES < c->num_marks ? (line - 1) / MARK_LINES : c->num_marks - 1;
    off = c->marks[j];
    at = 1 + j * MARK_LINES;
    while (at < line && (p = bytes_at(&r, off, &len)) != NULL && len > 0) {
        const char *nl = memchr(p, '\n', len);

        off += nl ? nl - p + 1 : (long long)len;
        if (nl)
            mark(c, ++at, off);
    }
    if (at == line) {
        found = true;
        while (n + 1 < cap && (p = bytes_at(&r, off, &len)) != NULL && len > 0) {
            size_t k = 0;

            while (k < len && p[k] != '\n' && p[k] != '\r' && n + 1 < cap)
                out[n++] = p[k++];
            off += (long long)k;
            if (k < len)
                break;
        }
        out[n] = '\0';
    }
    if (r.f)
        fclose(r.f);
    free(r.buf);
    return found;
}

size_t mc_error_format_cached(const mc_error *e, const char *severity, mc_source_cache *cache,
                              char *out, size_t cap)
{
    mc_source_cache local;
    char src[1024];
    bool have = false;

    if (e->line > 0 && e->file[0]) {
        if (!cache) {
            memset(&local, 0, sizeof local);
            have = read_source_line(&local, e->file, e->line, src, sizeof src);
            mc_source_cache_release(&local);
        } else {
            have = read_source_line(cache, e->file, e->line, src, sizeof src);
        }
    }
    return mc_error_format_source(e, severity, have ? src : NULL, out, cap);
}

size_t mc_error_format(const mc_error *e, const char *severity, char *out, size_t cap)
{
    return mc_error_format_cached(e, severity, NULL, out, cap);
}

void mc_source_cache_release(mc_source_cache *cache)
{
    if (!cache)
        return;
    free(cache->entry);
    free(cache->marks);
    memset(cache, 0, sizeof *cache);
}
