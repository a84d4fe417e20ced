/* vfs: a Doom 3 `base` folder as one tree of files -- its loose files and its .pk4 archives.
 *
 * Opening indexes the names once: every regular file under the folder (recursively; a symbolic
 * link to a file is followed when the file is inside the folder, its real path under the
 * folder's, and left out otherwise; links to folders are not followed), then every `*.pk4`
 * directly in it (a zip archive, read with libzip; a link to one is followed wherever it leads:
 * the archive is the folder's, and its entries are read from it). A name is looked up in the
 * index only, so no name opens a file outside the folder ("../x" is no loose file's name, and a
 * leading '/' is read as the folder's top). A name is looked up with '\' read as '/' and ASCII letters
 * compared without case, both on disk and in archives. When several places hold one name, the
 * first in this order wins:
 *
 *   1. the loose file under the folder;
 *   2. the archives, by file name in descending order (compared without case), so that
 *      pak002.pk4 overrides pak001.pk4, which overrides pak000.pk4 -- as Doom 3 searches them.
 *
 * Bounds: at most MC_LIMIT_ARCHIVE_ENTRIES names in all; an entry is read only when its
 * declared size is at most MC_LIMIT_ARCHIVE_ENTRY_BYTES (a loose file: MC_LIMIT_FILE_BYTES),
 * checked before anything is allocated, and an entry whose data runs past its declared size
 * (a zip bomb) or fails its checksum is an error. A vfs is not safe to use from several
 * threads at once. */
#ifndef MC_VFS_H
#define MC_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_vfs mc_vfs;

/* Indexes the folder `base`. Errors: MC_ERR_IO (the folder cannot be read, an archive cannot be
 * opened or is not a zip: "cannot open archive 'base/pak000.pk4': <reason>"), MC_ERR_LIMIT
 * (too many names), MC_ERR_NOMEM. On failure *out is NULL. */
mc_status mc_vfs_open(const char *base, mc_vfs **out, mc_error *err);

/* The stop flag (a signal handler's; NULL for none) that archive entries look at as they are
 * inflated, one MiB at a time: once it is set a read fails with MC_ERR_INTERRUPTED. */
void mc_vfs_set_stop(mc_vfs *vfs, const volatile sig_atomic_t *stop);

/* Closes the archives and frees everything. NULL is accepted. */
void mc_vfs_destroy(mc_vfs *vfs);

/* Whether `path` exists; where (may be NULL) receives its place for reports:
 * "base/models/x.tga" for a loose file, "base/pak001.pk4:models/x.tga" in an archive (the
 * entry's name as stored), cut to cap bytes. */
bool mc_vfs_exists(const mc_vfs *vfs, const char *path, char *where, size_t cap);

/* Reads `path` into a malloc'd buffer with a NUL after the last byte (not counted in *len).
 * MC_OK with *found false (and *data NULL) when no place holds it. where as for
 * mc_vfs_exists. Errors: MC_ERR_IO (read failure, a damaged entry), MC_ERR_LIMIT (declared size
 * over the limit, or more data than declared), MC_ERR_NOMEM; each names the place. */
mc_status mc_vfs_read(mc_vfs *vfs, const char *path, uint8_t **data, size_t *len, bool *found,
                      char *where, size_t cap, mc_error *err);

/* mc_vfs_read with a budget: a file whose size (an archive entry's declared size) is over max
 * bytes (or MC_LIMIT_ARCHIVE_ENTRY_BYTES) is MC_ERR_LIMIT naming its place before anything is
 * read or inflated; an entry that inflates past its declared size stops there (MC_ERR_LIMIT),
 * so no more than max + 1 bytes are ever held. */
mc_status mc_vfs_read_max(mc_vfs *vfs, const char *path, size_t max, uint8_t **data, size_t *len,
                          bool *found, char *where, size_t cap, mc_error *err);

/* The names (lower case, '/' separated, as indexed) of every file directly in folder `dir`
 * (e.g. "materials") whose name ends with `ext` (e.g. ".mtr", compared without case), sorted
 * by byte value, each once. *names is one malloc'd block (free() it); *count may be 0. */
mc_status mc_vfs_list(const mc_vfs *vfs, const char *dir, const char *ext, char ***names,
                      int *count, mc_error *err);

/* Reads the archived file a place names ("base/pak000.pk4:materials/x.mtr", as mc_vfs_read's
 * where gives it: the archive's path, ':', the entry's name as stored) into a malloc'd buffer
 * with a NUL after the last byte, for showing an error's source line. false when the place
 * names no .pk4 entry, the entry is over max bytes, or it cannot be read. */
bool mc_vfs_read_place(const char *place, size_t max, char **data, size_t *len);

/* The files on disk the vfs has read (for a caller that must not write over them): every
 * archive (its index is read when the vfs opens; "base/pak000.pk4") and every loose file that
 * mc_vfs_read or mc_vfs_read_max looked up, whether or not it read to the end
 * ("base/models/x.tga"), each once, archives first. *paths is one malloc'd block (free() it);
 * *count may be 0 (then *paths is NULL). Errors: MC_ERR_NOMEM. */
mc_status mc_vfs_files_read(const mc_vfs *vfs, char ***paths, int *count, mc_error *err);

/* Number of archives opened, and of names indexed, for reports. */
int mc_vfs_archive_count(const mc_vfs *vfs);
int mc_vfs_file_count(const mc_vfs *vfs);

#ifdef __cplusplus
}
#endif

#endif
