#include <md5cine/fileio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

mc_status mc_read_file(const char *path, char **buf, size_t *len, mc_error *err)
{
    struct stat st;
    FILE *f;
    char *data;
    size_t got;
    int fd;

    *buf = NULL;
    *len = 0;
    /* Non-blocking so that a FIFO is refused below instead of waiting for a writer; reads
     * from a regular file are not affected by the flag. */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot open '%s': %s", path,
                            strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "'%s' is not a regular file", path);
    }
    f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;

        close(fd);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot open '%s': %s", path,
                            strerror(e));
    }
    if ((unsigned long long)st.st_size > MC_MAX_FILE_BYTES) {
        fclose(f);
        return mc_error_set(err, MC_ERR_LIMIT, path, 0, 0, "'%s' is larger than %zu bytes", path,
                            MC_MAX_FILE_BYTES);
    }
    data = malloc((size_t)st.st_size + 1);
    if (!data) {
        fclose(f);
        return mc_error_set(err, MC_ERR_NOMEM, path, 0, 0, "out of memory reading '%s'", path);
    }
    got = fread(data, 1, (size_t)st.st_size, f);
    if (ferror(f) || got != (size_t)st.st_size) {
        free(data);
        fclose(f);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot read '%s'", path);
    }
    fclose(f);
    data[got] = '\0';
    *buf = data;
    *len = got;
    return MC_OK;
}

/* Distinguishes temporary names of several outputs in one process. */
static atomic_uint tmp_counter;

mc_status mc_outfile_begin(mc_outfile *out, const char *path, int open_stream, mc_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) : 0;
    unsigned n = atomic_fetch_add(&tmp_counter, 1u);

    memset(out, 0, sizeof *out);
    if (!*base || strlen(path) >= sizeof out->path)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad output name '%s'", path);
    snprintf(out->path, sizeof out->path, "%s", path);
    snprintf(out->tmp, sizeof out->tmp, "%.*s%s.%s.tmp-%ld-%u", dirlen, path, slash ? "/" : "",
             base, (long)getpid(), n);
    if (!open_stream)
        return MC_OK;
    out->fp = fopen(out->tmp, "wb");
    if (!out->fp) {
        int e = errno;

        out->tmp[0] = '\0';
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write '%s': %s", path,
                            strerror(e));
    }
    return MC_OK;
}

mc_status mc_outfile_commit(mc_outfile *out, mc_error *err)
{
    if (out->fp) {
        int bad = ferror(out->fp) || fflush(out->fp) != 0;
        int e = errno;

        bad |= fclose(out->fp) != 0;
        out->fp = NULL;
        if (bad) {
            mc_outfile_abort(out);
            return mc_error_set(err, MC_ERR_IO, out->path, 0, 0, "cannot write '%s': %s",
                                out->path, strerror(e ? e : EIO));
        }
    }
    if (rename(out->tmp, out->path) != 0) {
        int e = errno;

        mc_outfile_abort(out);
        return mc_error_set(err, MC_ERR_IO, out->path, 0, 0, "cannot create '%s': %s",
                            out->path, strerror(e));
    }
    out->tmp[0] = '\0';
    return MC_OK;
}

void mc_outfile_abort(mc_outfile *out)
{
    if (out->fp) {
        fclose(out->fp);
        out->fp = NULL;
    }
    if (out->tmp[0]) {
        unlink(out->tmp);
        out->tmp[0] = '\0';
    }
}
