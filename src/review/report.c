/* The HTML review report of a reference check (report.h): pictures of every failing frame
 * written as the check goes, the page written at the end (report_html.c), the folder renamed
 * into place. The pictures' pixels are report_pixels.c's, the groups report_text.c's. */
#include <md5cine/report.h>

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/fileio.h>
#include <md5cine/image.h>

#include "report_int.h"

#define PATH_CAP    4200
#define MAX_THREADS 16

typedef struct rp_thread {
    uint8_t *tref, *tnew, *heat; /* tw x th RGBA each */
    mc_compare_block *blocks;    /* the frame's block grid */
    mc_png_buf png;
    char path[PATH_CAP + 64];
} rp_thread;

typedef mc_rp_frame rp_frame;

/* A run of failing frames (report.h) as the frames come: consecutive numbers, one kind, one
 * group; the pictures of its worst frame so far, when it was given any. */
typedef struct rp_run {
    mc_frame_no first, last;
    mc_refcheck_kind kind;
    size_t group;      /* index of the desc shot holding it; shot_count: none */
    double badness;    /* of its worst frame */
    bool pics;         /* the folder holds the pictures of shown */
    rp_frame shown;
} rp_run;

struct mc_report {
    char dir[PATH_CAP], tmp[PATH_CAP], old[PATH_CAP];
    int width, height, tw, th, threads, max_frames;
    rp_thread *t;
    mc_shot_range *shots; /* the desc's, copied */
    size_t shot_count;
    bool finished; /* the folder is DIR now */
    bool tmp_made;
    int lock_fd; /* holds the lock on tmp while it is being made; -1: none */
    pthread_mutex_t lock; /* the runs, and the pictures in the folder */
    rp_run *runs;         /* in frame order */
    size_t num_runs, cap_runs;
    size_t pictured;      /* runs whose pictures the folder holds (at most max_frames) */
};

/* ---- the folder ------------------------------------------------------------------------ */

/* Removes every file in folder path, then the folder (a report holds no subfolder). Nothing
 * is followed: a path that is a symbolic link is left alone, and an entry that is a link is
 * removed as a link (unlinkat on the folder opened without following links). */
static void remove_tree(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;

    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        unlinkat(fd, e->d_name, 0);
    }
    closedir(d);
    rmdir(path);
}

/* index.html begins with the generator line md5cine writes (MC_REPORT_GENERATOR). */
static bool written_by_md5cine(const char *index)
{
    char head[256];
    FILE *f = fopen(index, "rb");
    size_t n;

    if (!f)
        return false;
    n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return strstr(head, MC_REPORT_GENERATOR) != NULL;
}

/* A name the report writes: index.html, or KIND_NNNNN.png for the kinds save() writes. */
static bool report_name(const char *name)
{
    static const char *const kinds[] = { "new_", "tnew_", "ref_", "tref_", "heat_" };
    size_t n = strlen(name);

    if (strcmp(name, "index.html") == 0)
        return true;
    if (n < 9 || strcmp(name + n - 4, ".png") != 0)
        return false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t k = strlen(kinds[i]);

        if (strncmp(name, kinds[i], k) == 0 && n - 4 - k >= 5 &&
            strspn(name + k, "0123456789-") == n - 4 - k)
            return true;
    }
    return false;
}

/* An existing DIR may be replaced: an empty folder, or an earlier report -- its index.html
 * written by md5cine and every entry a regular file of a name the report writes. Otherwise
 * *stranger names the first entry that is not (for the message). */
static bool replaceable(const char *dir, char *stranger, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool empty = true, ok = true;
    char p[PATH_CAP + 256];
    struct stat sb;

    stranger[0] = '\0';
    if (!d)
        return false;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        empty = false;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (ok && (!report_name(e->d_name) || lstat(p, &sb) != 0 || !S_ISREG(sb.st_mode))) {
            snprintf(stranger, cap, "%s", e->d_name);
            ok = false;
        }
    }
    closedir(d);
    if (empty)
        return true;
    snprintf(p, sizeof p, "%s/index.html", dir);
    if (ok && !written_by_md5cine(p)) {
        snprintf(stranger, cap, "index.html");
        ok = false;
    }
    return ok;
}

/* Whether the report may take the place of dir (which need not exist): not a link, not a
 * file, and a folder only if replaceable. Refusals are MC_ERR_USAGE (exit 2), naming why. */
static mc_status may_replace(const mc_report *r, mc_error *err)
{
    struct stat sb;
    char stranger[256];

    if (lstat(r->dir, &sb) != 0)
        return MC_OK;
    if (S_ISLNK(sb.st_mode))
        return mc_error_set(err, MC_ERR_USAGE, r->dir, 0, 0,
                            "is a symbolic link; a report is never written through one");
    if (!S_ISDIR(sb.st_mode))
        return mc_error_set(err, MC_ERR_USAGE, r->dir, 0, 0,
                            "exists and is not an md5cine report; not replaced");
    if (!replaceable(r->dir, stranger, sizeof stranger))
        return mc_error_set(err, MC_ERR_USAGE, r->dir, 0, 0,
                            "holds '%s', which no md5cine report writes; not replaced",
                            stranger[0] ? stranger : "?");
    return MC_OK;
}

/* Removes the temporary and old folders of killed reports beside dir: ".<base>.<pid>.tmp" and
 * ".<base>.<pid>.old" whose process is gone and that nobody locks (a report locks its
 * temporary folder while it lives, see make_tmp), as mc_outfile_sweep does for files. */
static void sweep_leftovers(const char *dir)
{
    const char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : dir;
    size_t len = strlen(base);
    char parent[PATH_CAP], p[PATH_CAP + 256];
    struct dirent *e;
    DIR *d;

    snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - dir) : 1,
             slash ? (slash == dir ? "/" : dir) : ".");
    d = opendir(parent);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        char *end;
        long pid;
        int fd;

        if (n[0] != '.' || strncmp(n + 1, base, len) != 0 || n[1 + len] != '.' ||
            !(n[2 + len] >= '0' && n[2 + len] <= '9'))
            continue;
        errno = 0;
        pid = strtol(n + 2 + len, &end, 10);
        if (errno || pid <= 0 || pid == (long)getpid() ||
            (strcmp(end, ".tmp") != 0 && strcmp(end, ".old") != 0))
            continue;
        fd = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            snprintf(p, sizeof p, "%s/%s", parent, n);
            remove_tree(p);
        }
        close(fd);
    }
    closedir(d);
}

/* dir without trailing slashes, and the temporary and old names beside it. */
static mc_status name_folders(mc_report *r, const char *dir, mc_error *err)
{
    size_t n = strlen(dir);
    const char *slash, *base;

    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0 || n >= 4000)
        return mc_error_set(err, MC_ERR_USAGE, dir, 0, 0, "bad report folder name");
    memcpy(r->dir, dir, n);
    r->dir[n] = '\0';
    slash = strrchr(r->dir, '/');
    base = slash ? slash + 1 : r->dir;
    if (strcmp(base, ".") == 0 || strcmp(base, "..") == 0 || strcmp(r->dir, "/") == 0)
        return mc_error_set(err, MC_ERR_USAGE, dir, 0, 0, "the report needs a folder of its own");
    snprintf(r->tmp, sizeof r->tmp, "%.*s.%.180s.%ld.tmp", (int)(base - r->dir), r->dir, base,
             (long)getpid());
    snprintf(r->old, sizeof r->old, "%.*s.%.180s.%ld.old", (int)(base - r->dir), r->dir, base,
             (long)getpid());
    return MC_OK;
}

static mc_status make_tmp(mc_report *r, mc_error *err)
{
    const char *slash = strrchr(r->tmp, '/');
    mc_status st = may_replace(r, err);

    if (st != MC_OK)
        return st;
    if (slash && slash != r->tmp) { /* the parent folder, made as needed */
        char parent[PATH_CAP];

        snprintf(parent, sizeof parent, "%.*s", (int)(slash - r->tmp), r->tmp);
        if (!mc_mkdirs(parent))
            return mc_error_set(err, MC_ERR_IO, r->dir, 0, 0, "cannot create folder '%s': %s",
                                parent, strerror(errno));
    }
    sweep_leftovers(r->dir);
    remove_tree(r->tmp); /* a leftover of an earlier process with this id */
    if (mkdir(r->tmp, 0777) != 0)
        return mc_error_set(err, MC_ERR_IO, r->dir, 0, 0, "cannot create folder '%s': %s",
                            r->tmp, strerror(errno));
    r->tmp_made = true;
    /* Locked while this process lives (the kernel drops the lock with it), so that a sweep
     * by another report never takes it for a leftover. */
    r->lock_fd = open(r->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (r->lock_fd >= 0 && flock(r->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        close(r->lock_fd);
        r->lock_fd = -1;
    }
    return MC_OK;
}

static mc_status alloc_threads(mc_report *r, mc_error *err)
{
    size_t px = (size_t)r->tw * (size_t)r->th * 4;
    size_t blocks = (size_t)((r->width + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK) *
                    (size_t)((r->height + MC_COMPARE_BLOCK - 1) / MC_COMPARE_BLOCK);

    if (r->shot_count > 0) {
        r->shots = malloc(r->shot_count * sizeof *r->shots);
        if (!r->shots)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    r->t = calloc((size_t)r->threads, sizeof *r->t);
    if (!r->t)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < r->threads; i++) {
        r->t[i].tref = malloc(px);
        r->t[i].tnew = malloc(px);
        r->t[i].heat = malloc(px);
        r->t[i].blocks = malloc(blocks * sizeof *r->t[i].blocks);
        if (!r->t[i].tref || !r->t[i].tnew || !r->t[i].heat || !r->t[i].blocks)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

mc_status mc_report_open(const mc_report_desc *desc, mc_report **out, mc_error *err)
{
    mc_report *r;
    mc_status st;
    int tw;

    *out = NULL;
    if (!desc->dir)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no report folder given");
    if (desc->width < 1 || desc->height < 1 || desc->width > MC_IMAGE_MAX_SIDE ||
        desc->height > MC_IMAGE_MAX_SIDE || desc->threads < 0 || desc->threads > MAX_THREADS ||
        desc->thumb_width < 0 || desc->max_frames < 0 ||
        desc->max_frames > MC_REFCHECK_MAX_LISTED || (desc->shot_count > 0 && !desc->shots))
        return mc_error_set(err, MC_ERR_USAGE, desc->dir, 0, 0,
                            "report for %dx%d frames, %d threads and %d listed frames is out of "
                            "range", desc->width, desc->height, desc->threads,
                            desc->max_frames);
    r = calloc(1, sizeof *r);
    if (!r)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    pthread_mutex_init(&r->lock, NULL);
    r->lock_fd = -1;
    r->width = desc->width;
    r->height = desc->height;
    r->threads = desc->threads ? desc->threads : 1;
    r->max_frames = desc->max_frames ? desc->max_frames : MC_REPORT_MAX_FRAMES;
    r->shot_count = desc->shot_count;
    tw = desc->thumb_width ? desc->thumb_width : MC_REPORT_THUMB_WIDTH;
    r->tw = tw < r->width ? tw : r->width;
    r->th = (int)(((int64_t)r->height * r->tw + r->width / 2) / r->width);
    r->th = r->th < 1 ? 1 : r->th;
    st = name_folders(r, desc->dir, err);
    if (st == MC_OK)
        st = alloc_threads(r, err);
    if (st == MC_OK && r->shot_count > 0)
        memcpy(r->shots, desc->shots, r->shot_count * sizeof *r->shots);
    if (st == MC_OK)
        st = make_tmp(r, err);
    if (st != MC_OK) {
        mc_report_release(r);
        return st;
    }
    *out = r;
    return MC_OK;
}

void mc_report_release(mc_report *r)
{
    if (!r)
        return;
    if (r->tmp_made && !r->finished)
        remove_tree(r->tmp);
    if (r->lock_fd >= 0)
        close(r->lock_fd);
    for (int i = 0; r->t && i < r->threads; i++) {
        free(r->t[i].tref);
        free(r->t[i].tnew);
        free(r->t[i].heat);
        free(r->t[i].blocks);
        mc_png_buf_release(&r->t[i].png);
    }
    free(r->t);
    free(r->runs);
    free(r->shots);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* ---- one failing frame ----------------------------------------------------------------- */

static mc_status save(mc_report *r, rp_thread *t, const char *name, mc_frame_no k,
                      const uint8_t *px, size_t stride, int w, int h, mc_error *err)
{
    mc_status st = mc_png_encode(px, w, h, stride, 0, &t->png, err);

    snprintf(t->path, sizeof t->path, "%s/%s_%05lld.png", r->tmp, name, (long long)k);
    return st == MC_OK ? mc_png_save(t->path, &t->png, err) : st;
}

/* Removes the pictures of frame k from the temporary folder. */
static void unsave(mc_report *r, rp_thread *t, mc_frame_no k)
{
    static const char *const kinds[] = { "new", "tnew", "ref", "tref", "heat" };

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        snprintf(t->path, sizeof t->path, "%s/%s_%05lld.png", r->tmp, kinds[i], (long long)k);
        unlink(t->path);
    }
}

/* Writes the pictures of frame f (thumbnails already in t). */
static mc_status save_frame(mc_report *r, rp_thread *t, const mc_refcheck_failure *fl,
                            mc_frame_no k, mc_error *err)
{
    const size_t tstride = (size_t)r->tw * 4;
    mc_status st = save(r, t, "new", k, fl->cand, fl->cand_stride, r->width, r->height, err);

    if (st == MC_OK)
        st = save(r, t, "tnew", k, t->tnew, tstride, r->tw, r->th, err);
    if (st == MC_OK && fl->ref)
        st = save(r, t, "ref", k, fl->ref, fl->ref_stride, r->width, r->height, err);
    if (st == MC_OK && fl->ref)
        st = save(r, t, "tref", k, t->tref, tstride, r->tw, r->th, err);
    if (st == MC_OK && fl->ref)
        st = save(r, t, "heat", k, t->heat, tstride, r->tw, r->th, err);
    if (st != MC_OK)
        unsave(r, t, k);
    return st;
}

/* Index of the first run that starts after k. */
static size_t run_after(const mc_report *r, mc_frame_no k)
{
    size_t lo = 0, hi = r->num_runs;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (r->runs[mid].first <= k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool joins(const rp_run *run, mc_refcheck_kind kind, size_t group)
{
    return run->kind == kind && run->group == group;
}

/* The run frame k belongs to, made or merged as needed (under the lock); NULL when out of
 * memory. Of two runs merged, the worse keeps its pictures, the other's are removed. */
static rp_run *place(mc_report *r, rp_thread *t, mc_frame_no k, mc_refcheck_kind kind,
                     size_t group)
{
    size_t i = run_after(r, k);
    rp_run *left = i > 0 ? &r->runs[i - 1] : NULL, *right = i < r->num_runs ? &r->runs[i] : NULL;

    if (left && k <= left->last)
        return left; /* given before */
    left = left && left->last == k - 1 && joins(left, kind, group) ? left : NULL;
    right = right && right->first == k + 1 && joins(right, kind, group) ? right : NULL;
    if (left && right) {
        rp_run *lose = right->pics && (!left->pics || right->badness > left->badness) ? left
                                                                                      : right;
        rp_run *keep = lose == left ? right : left;

        if (lose->pics) {
            unsave(r, t, lose->shown.frame);
            r->pictured--;
        }
        left->last = right->last;
        left->badness = keep->badness;
        left->pics = keep->pics;
        left->shown = keep->shown;
        memmove(right, right + 1, (r->num_runs - i - 1) * sizeof *right);
        r->num_runs--;
        return left;
    }
    if (left || right) {
        rp_run *run = left ? left : right;

        run->first = k < run->first ? k : run->first;
        run->last = k > run->last ? k : run->last;
        return run;
    }
    if (r->num_runs == r->cap_runs) {
        size_t cap = r->cap_runs ? 2 * r->cap_runs : 64;
        rp_run *p = realloc(r->runs, cap * sizeof *p);

        if (!p)
            return NULL;
        r->runs = p;
        r->cap_runs = cap;
    }
    memmove(&r->runs[i + 1], &r->runs[i], (r->num_runs - i) * sizeof *r->runs);
    r->num_runs++;
    r->runs[i] = (rp_run){ k, k, kind, group, -1.0, false, { 0 } };
    return &r->runs[i];
}

static mc_status on_fail(void *user, int thread, const mc_refcheck_failure *f, mc_error *err)
{
    return mc_report_frame(user, thread, f, err);
}

void mc_report_attach(mc_report *r, mc_refcheck_desc *d)
{
    d->on_fail = on_fail;
    d->on_fail_user = r;
}

mc_status mc_report_frame(mc_report *r, int thread, const mc_refcheck_failure *f,
                          mc_error *err)
{
    const mc_refcheck_row *row = f ? f->row : NULL;
    bool by_block;
    rp_frame shown = { 0, false, { 0, 0, -1, -1 }, { 0, 0, -1, -1 }, 0 };
    double bad;
    size_t group;
    rp_thread *t;
    rp_run *run;
    mc_status st = MC_OK;

    if (thread < 0 || thread >= r->threads || !f || !row || !f->cand || !f->limits ||
        r->finished || f->width != r->width || f->height != r->height)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad report call");
    t = &r->t[thread];
    by_block = mc_rp_block_mode(f->limits);
    bad = mc_rp_badness(row, by_block);
    group = mc_rp_group_of(r->shots, r->shot_count, row->frame);
    shown.frame = row->frame;
    shown.has_ref = f->ref != NULL;
    /* Everything the pictures need, outside the lock: the block grid, region, thumbnails. */
    mc_rp_thumbnail(f->cand, f->cand_stride, r->width, r->height, t->tnew, r->tw, r->th);
    if (f->ref) {
        mc_compare_blocks(f->ref, f->ref_stride, f->cand, f->cand_stride, r->width, r->height,
                          f->limits->mask, t->blocks);
        mc_report_region(f, t->blocks, &shown.box, &shown.worst, &shown.failing_blocks);
        mc_rp_thumbnail(f->ref, f->ref_stride, r->width, r->height, t->tref, r->tw, r->th);
        mc_report_heat_map(f->ref, f->ref_stride, f->cand, f->cand_stride, r->width, r->height,
                           f->limits, f->limits->mask, t->blocks, t->heat, r->tw, r->th);
    }
    pthread_mutex_lock(&r->lock);
    run = place(r, t, row->frame, row->kind, group);
    if (!run) {
        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    } else if (run->pics ? bad > run->badness
                         : r->pictured < (size_t)r->max_frames) {
        mc_frame_no old = run->shown.frame;
        bool had = run->pics;

        st = save_frame(r, t, f, row->frame, err);
        if (st == MC_OK) {
            if (had)
                unsave(r, t, old);
            else
                r->pictured++;
            run->pics = true;
            run->badness = bad;
            run->shown = shown;
        }
    }
    pthread_mutex_unlock(&r->lock);
    return st;
}

/* ---- the page and the rename ----------------------------------------------------------- */

static int cmp_frame(const void *x, const void *y)
{
    const rp_frame *a = x, *b = y;

    return (a->frame > b->frame) - (a->frame < b->frame);
}

static mc_status write_page(mc_report *r, const mc_report_info *info, mc_error *err)
{
    char path[PATH_CAP + 16];
    mc_shot_range *groups;
    size_t ngroups, nframes = 0;
    rp_frame *frames;
    FILE *fp;
    bool bad;
    mc_status st = mc_report_groups(info, &groups, &ngroups, err);

    size_t *rg;

    if (st != MC_OK)
        return st;
    rg = mc_rp_row_groups(info, groups, ngroups);
    if (!rg) {
        free(groups);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    frames = malloc((r->num_runs ? r->num_runs : 1) * sizeof *frames);
    if (!frames) {
        free(groups);
        free(rg);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    for (size_t i = 0; i < r->num_runs; i++)
        if (r->runs[i].pics)
            frames[nframes++] = r->runs[i].shown;
    if (nframes > 0) /* qsort takes no NULL array, even empty */
        qsort(frames, nframes, sizeof *frames, cmp_frame);
    snprintf(path, sizeof path, "%s/index.html", r->tmp);
    fp = fopen(path, "wb");
    if (!fp) {
        free(groups);
        free(rg);
        free(frames);
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot create: %s", strerror(errno));
    }
    mc_rp_write_html(fp, info, groups, ngroups, rg, frames, nframes, r->width, r->height,
                     (size_t)r->max_frames);
    bad = ferror(fp) != 0;
    bad = fclose(fp) != 0 || bad;
    free(groups);
    free(rg);
    free(frames);
    if (bad)
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    return MC_OK;
}

/* tmp becomes dir; an earlier report at dir goes aside first and is removed after. */
static mc_status rename_into_place(mc_report *r, mc_error *err)
{
    struct stat sb;
    bool had_old = false;
    mc_status st = may_replace(r, err);

    if (st != MC_OK)
        return st;
    if (lstat(r->dir, &sb) == 0) {
        remove_tree(r->old);
        if (rename(r->dir, r->old) != 0)
            return mc_error_set(err, MC_ERR_IO, r->dir, 0, 0, "cannot replace: %s",
                                strerror(errno));
        had_old = true;
    }
    if (rename(r->tmp, r->dir) != 0) {
        int e = errno;

        if (had_old)
            rename(r->old, r->dir);
        return mc_error_set(err, MC_ERR_IO, r->dir, 0, 0, "cannot rename '%s' to it: %s",
                            r->tmp, strerror(e));
    }
    if (had_old)
        remove_tree(r->old);
    return MC_OK;
}

mc_status mc_report_finish(mc_report *r, const mc_report_info *info, mc_error *err)
{
    mc_status st;

    if (r->finished || !r->tmp_made || !info || !info->check)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad report call");
    st = write_page(r, info, err);
    if (st == MC_OK)
        st = rename_into_place(r, err);
    if (st != MC_OK) {
        remove_tree(r->tmp);
        r->tmp_made = false;
        return st;
    }
    r->finished = true;
    return MC_OK;
}
