#include <md5cine/fileio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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

/* Creates out->tmp exclusively, so two outputs never share a temporary file. The name carries
 * the process id and the record's address (distinct for outputs open at the same time); a
 * leftover of an earlier process with the same id only moves the name on by a counter. The
 * mode is 0666 less the umask, as for any new file. Returns the descriptor, or -1 with errno. */
static int create_tmp(mc_outfile *out, int dirlen, const char *base)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        int fd;

        snprintf(out->tmp, sizeof out->tmp, "%.*s%s.%s.tmp-%ld-%lx-%d", dirlen, out->path,
                 dirlen || out->path[0] == '/' ? "/" : "", base, (long)getpid(),
                 (unsigned long)(uintptr_t)out, attempt);
        fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

mc_status mc_outfile_begin(mc_outfile *out, const char *path, int open_stream, mc_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) : 0;
    int fd, e;

    memset(out, 0, sizeof *out);
    if (!*base || strlen(path) >= sizeof out->path)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad output name '%s'", path);
    snprintf(out->path, sizeof out->path, "%s", path);
    fd = create_tmp(out, dirlen, base);
    if (fd < 0) {
        e = errno;
        out->tmp[0] = '\0';
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write '%s': %s", path,
                            strerror(e));
    }
    if (!open_stream) {
        close(fd); /* the writer opens the (empty) file by name */
        return MC_OK;
    }
    out->fp = fdopen(fd, "wb");
    if (!out->fp) {
        e = errno;
        close(fd);
        mc_outfile_abort(out);
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

bool mc_mkdirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    struct stat sb;

    if (n == 0)
        return true;
    if (n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char keep = buf[i];

        buf[i] = '\0';
        if (stat(buf, &sb) != 0) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
        } else if (!S_ISDIR(sb.st_mode)) {
            errno = ENOTDIR;
            return false;
        }
        buf[i] = keep;
    }
    return true;
}
