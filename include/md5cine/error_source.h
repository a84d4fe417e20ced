/* The error record (error.h) formatted with its source line, read from the file it names: a
 * plain file, or an entry of a .pk4 archive (vfs.h), which is why these functions live beside
 * the base folder's reader (src/base/) and not with the record. */
#ifndef MC_ERROR_SOURCE_H
#define MC_ERROR_SOURCE_H

#include <stddef.h>

#include <md5cine/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mc_error_format_source with the source line read from e->file: a plain file, or an entry of
 * a .pk4 archive when e->file is such a place ("base/pak000.pk4:materials/x.mtr", vfs.h).
 * Without a position, or when the line cannot be read, only the first line is written. It writes
 * nowhere but out. */
size_t mc_error_format(const mc_error *e, const char *severity, char *out, size_t cap);

/* What mc_error_format_cached keeps between calls so that many records about one file do not
 * read it again from its start each: the file last read, where every 1024th of its lines starts
 * (found as lines are passed; a line is then found from the mark before it), and the bytes of
 * an archive entry (at most 64 MiB, the size mc_error_format reads an entry to). Zero it
 * before the first call; end it with mc_source_cache_release. Records about another file
 * replace what it keeps. */
typedef struct mc_source_cache {
    char file[512];    /* the file the rest is about; "" when none */
    char *entry;       /* an archive entry's bytes; NULL for a plain file, read in pieces */
    size_t entry_len;
    long long *marks;  /* marks[i]: byte offset of line 1 + 1024 * i; marks[0] is 0 */
    int num_marks;
    int cap_marks;
} mc_source_cache;

/* mc_error_format with cache (may be NULL: nothing kept). The file's lines are read once in
 * all while records come in line order, and at most 1024 lines past a mark otherwise. */
size_t mc_error_format_cached(const mc_error *e, const char *severity, mc_source_cache *cache,
                              char *out, size_t cap);

/* Frees what cache holds and zeroes it; NULL is fine. */
void mc_source_cache_release(mc_source_cache *cache);

#ifdef __cplusplus
}
#endif

#endif
