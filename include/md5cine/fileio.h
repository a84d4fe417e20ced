/* Whole-file reads for the parsers, and outputs that are never left half-written. */
#ifndef MC_FILEIO_H
#define MC_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest file a parser will read (bytes), see limits.h. */
#define MC_MAX_FILE_BYTES MC_LIMIT_FILE_BYTES

/* Reads the whole file into a malloc'd buffer with a NUL after the last byte (not counted in
 * *len). The caller frees *buf. Errors: MC_ERR_IO (cannot open/read; not a regular file, such
 * as a folder or a FIFO, which is refused without waiting for a writer), MC_ERR_LIMIT
 * (over MC_MAX_FILE_BYTES), each naming the path with no position. */
mc_status mc_read_file(const char *path, char **buf, size_t *len, mc_error *err);

/* An output written under a temporary name in the target's folder and renamed into place by
 * mc_outfile_commit. The temporary name is "<dir>/.<base>.<pid>.tmp" (or ".<pid>-<n>.tmp"
 * when that exists), created exclusively (O_EXCL), so no two outputs ever share one. <base>
 * is cut to its first 236 bytes, so any name of up to 255 bytes has a temporary; the process
 * id tells a leftover of a killed process from one being written. */
typedef struct mc_outfile {
    char path[4096]; /* final name */
    char tmp[4200];  /* temporary name being written */
    FILE *fp;        /* open for binary writing when created with a stream */
    int lock_fd;     /* holds the lock on the temporary when locked */
    bool locked;
} mc_outfile;

/* mc_outfile_begin flags. */
enum {
    MC_OUTFILE_STREAM = 1, /* open fp on the temporary */
    /* Take an exclusive lock (flock) on the temporary until commit or abort, then look at the
     * output's other temporaries: one another process holds locked makes begin fail
     * (MC_ERR_IO "'<path>' is being written by another process ..."), one that nobody locks and
     * whose process is gone (a render killed by SIGKILL) is removed. For outputs that take long
     * to write (videos); it reads the folder once. */
    MC_OUTFILE_EXCLUSIVE = 2,
};

/* Prepares *out for path and creates the temporary file (mode 0666 less the umask). With
 * MC_OUTFILE_STREAM fp is open on it; without, the file is left empty and closed for writers
 * that open it by name themselves, such as libavformat. An unwritable folder is MC_ERR_IO
 * naming path; then nothing is left to abort. */
mc_status mc_outfile_begin(mc_outfile *out, const char *path, unsigned flags, mc_error *err);

/* Closes fp (if open, checking for write errors such as a full disk) and renames the
 * temporary file to the final name. On failure the temporary file is removed. */
mc_status mc_outfile_commit(mc_outfile *out, mc_error *err);

/* Closes and removes the temporary file; safe to call twice or after commit. */
void mc_outfile_abort(mc_outfile *out);

/* Creates folder path and its missing parents (mkdir -p, mode 0777 less the umask); "" is
 * fine. False with errno set on failure (ENOTDIR when a part is a file, ENAMETOOLONG for a
 * path of 4096 bytes or more). */
bool mc_mkdirs(const char *path);

/* Whether path names a regular file (following links): false for a folder, a FIFO, a device
 * or a missing file. Inputs that would block a reader (a FIFO named as a video) are refused
 * with it before they are opened. */
bool mc_is_regular_file(const char *path);

#ifdef __cplusplus
}
#endif

#endif
