#include <md5cine/fileio.h>

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

mc_status mc_open_status(int e)
{
    return e == EMFILE || e == ENFILE || e == ENOMEM ? MC_ERR_NOMEM : MC_ERR_IO;
}

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
    if (fd < 0) {
        int e = errno;

        return mc_error_set(err, mc_open_status(e), path, 0, 0, "cannot open '%s': %s", path,
                            strerror(e));
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "'%s' is not a regular file", path);
    }
    f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;

        close(fd);
        return mc_error_set(err, mc_open_status(e), path, 0, 0, "cannot open '%s': %s", path,
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

/* Longest file name (one path component) the file systems md5cine writes to take. */
#define NAME_MAX_BYTES 255

/* The temporary's name ends ".<pid>.tmp" or ".<pid>-<n>.tmp": at most 1 + 10 + 1 + 2 + 4
 * bytes, plus the leading dot. The output's own name is cut to what is left (at a UTF-8
 * character boundary), so any output name a file system takes has a temporary. */
#define TMP_EXTRA 19

/* The part of base the temporaries of an output carry: its first bytes, at most
 * NAME_MAX_BYTES - TMP_EXTRA. */
static size_t tmp_stem_len(const char *base)
{
    size_t n = strlen(base);

    if (n <= NAME_MAX_BYTES - TMP_EXTRA)
        return n;
    n = NAME_MAX_BYTES - TMP_EXTRA;
    while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80)
        n--;
    return n;
}

/* Creates out->tmp exclusively (O_EXCL), so two outputs never share a temporary file:
 * "<dir>/.<stem>.<pid>.tmp", and "<dir>/.<stem>.<pid>-<n>.tmp" when that exists (another
 * output of this process with the same name, or a leftover of an earlier process with the
 * same id). The mode is 0666 less the umask, as for any new file. Returns the descriptor, or
 * -1 with errno. */
static int create_tmp(mc_outfile *out, int dirlen, const char *base)
{
    int stem = (int)tmp_stem_len(base);

    for (int attempt = 0; attempt < 100; attempt++) {
        char n[16] = "";
        int fd;

        if (attempt > 0)
            snprintf(n, sizeof n, "-%d", attempt);
        snprintf(out->tmp, sizeof out->tmp, "%.*s%s.%.*s.%ld%s.tmp", dirlen, out->path,
                 dirlen || out->path[0] == '/' ? "/" : "", stem, base, (long)getpid(), n);
        fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* The process id in name when it is a temporary of an output whose stem is stem[0..len)
 * (".<stem>.<pid>.tmp" or ".<stem>.<pid>-<n>.tmp"), else 0. */
static long tmp_owner(const char *name, const char *stem, size_t len)
{
    const char *p = name + 1 + len;
    char *end;
    long pid;

    if (name[0] != '.' || strncmp(name + 1, stem, len) != 0 || p[0] != '.' ||
        !(p[1] >= '0' && p[1] <= '9'))
        return 0;
    errno = 0;
    pid = strtol(p + 1, &end, 10);
    if (errno || pid <= 0)
        return 0;
    if (*end == '-') {
        if (!(end[1] >= '0' && end[1] <= '9'))
            return 0;
        strtol(end + 1, &end, 10);
    }
    return strcmp(end, ".tmp") == 0 ? pid : 0;
}

/* The process id in name when it is a temporary of any output (".<stem>.<pid>.tmp" or
 * ".<stem>.<pid>-<n>.tmp" for a non-empty stem), else 0. */
static long any_tmp_owner(const char *name)
{
    size_t n = strlen(name);

    /* The stem ends at the last '.' before the id: try each '.' from the right. */
    for (size_t i = n; i-- > 1;)
        if (name[i] == '.' && i > 1 && name[i + 1] >= '0' && name[i + 1] <= '9')
            return tmp_owner(name, name + 1, i - 1);
    return 0;
}

/* What to do with the temporary name in folder dfd, owned by process pid: 1 when another
 * process holds its lock (being written), -1 when nobody locks it and pid is gone (a
 * leftover of a killed process: removed here), 0 otherwise (left alone: its writer may be
 * between creating and locking it, or the id was reused). A link or anything but a regular
 * file is never opened through nor removed. */
static int sweep_one(int dfd, const char *name, long pid)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), r = 0;
    struct stat sb;

    if (fd < 0)
        return 0;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return 0;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        r = errno == EWOULDBLOCK;
    } else if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
        unlinkat(dfd, name, 0);
        r = -1;
    }
    close(fd);
    return r;
}

/* Looks at the other temporaries of out's output. One whose writer still holds its lock
 * means another process is writing the output: MC_ERR_IO naming that process. Leftovers of
 * killed processes are removed (sweep_one). */
static mc_status sweep_tmps(mc_outfile *out, int dirlen, const char *base, mc_error *err)
{
    char dir[sizeof out->path];
    const char *own = strrchr(out->tmp, '/');
    size_t stem = tmp_stem_len(base);
    struct dirent *de;
    mc_status st = MC_OK;
    DIR *d;

    snprintf(dir, sizeof dir, "%.*s", dirlen, out->path);
    if (!dir[0])
        snprintf(dir, sizeof dir, "%s", out->path[0] == '/' ? "/" : ".");
    own = own ? own + 1 : out->tmp;
    d = opendir(dir);
    if (!d)
        return MC_OK; /* the temporary was made there, so this is unexpected but harmless */
    while (st == MC_OK && (de = readdir(d)) != NULL) {
        long pid = tmp_owner(de->d_name, base, stem);

        if (pid == 0 || strcmp(de->d_name, own) == 0)
            continue;
        if (sweep_one(dirfd(d), de->d_name, pid) > 0)
            st = mc_error_set(err, MC_ERR_IO, out->path, 0, 0,
                              "'%s' is being written by another process (%ld, temporary "
                              "'%s'); not writing it twice at once",
                              out->path, pid, de->d_name);
    }
    closedir(d);
    return st;
}

size_t mc_outfile_sweep(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    struct dirent *de;
    size_t gone = 0;
    DIR *d;

    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    else
        snprintf(dir, sizeof dir, ".");
    d = opendir(dir);
    if (!d)
        return 0;
    while ((de = readdir(d)) != NULL) {
        long pid = any_tmp_owner(de->d_name);

        if (pid != 0 && pid != (long)getpid() && sweep_one(dirfd(d), de->d_name, pid) < 0)
            gone++;
    }
    closedir(d);
    return gone;
}

mc_status mc_outfile_begin(mc_outfile *out, const char *path, unsigned flags, mc_error *err)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = slash ? (int)(slash - path) : 0;
    int fd, e;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (!*base || strlen(path) >= sizeof out->path)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad output name '%s'", path);
    snprintf(out->path, sizeof out->path, "%s", path);
    fd = create_tmp(out, dirlen, base);
    if (fd < 0) {
        e = errno;
        out->tmp[0] = '\0';
        return mc_error_set(err, mc_open_status(e), path, 0, 0, "cannot write '%s': %s", path,
                            strerror(e));
    }
    /* Every temporary is locked, so that a sweep tells one being written from a leftover. The
     * lock lives as long as lock_fd, so until the rename or the removal, and the kernel drops
     * it when the process dies, whatever kills it. */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || (out->lock_fd = dup(fd)) < 0) {
        e = errno;
        close(fd);
        mc_outfile_abort(out);
        return mc_error_set(err, mc_open_status(e), path, 0, 0, "cannot lock '%s': %s", path,
                            strerror(e));
    }
    out->locked = true;
    if (flags & MC_OUTFILE_EXCLUSIVE) {
        st = sweep_tmps(out, dirlen, base, err);
        if (st != MC_OK) {
            close(fd);
            mc_outfile_abort(out);
            return st;
        }
    }
    if (!(flags & MC_OUTFILE_STREAM)) {
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

/* Drops the lock (after the rename or the removal, so that no other process takes the name's
 * temporary for a leftover while it still stands). */
static void unlock(mc_outfile *out)
{
    if (out->locked) {
        close(out->lock_fd);
        out->locked = false;
    }
}

mc_status mc_outfile_commit(mc_outfile *out, mc_error *err)
{
    if (out->fp) {
        int bad, e;

        errno = 0;
        bad = ferror(out->fp) || fflush(out->fp) != 0;
        e = errno; /* the failing flush's (ENOSPC on a full disk), else the close's below */
        if (fclose(out->fp) != 0) {
            bad = 1;
            e = e ? e : errno;
        }
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
    unlock(out);
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
    unlock(out);
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

bool mc_is_regular_file(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}
