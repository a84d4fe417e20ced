/* The reference checker (refcheck.h): the one place where a frame is compared with its
 * reference, a row recorded for it, its failing pictures written and the result printed. */
#include <md5cine/refcheck.h>
#include <md5cine/json.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>

#include "refcheck_int.h"

#define PATH_CAP   4160
#define MAX_THREADS 16

/* What one caller owns: scratch memory and the reference frame it decoded. */
typedef struct rc_thread {
    mc_compare_work work;
    uint8_t *diff; /* width * height * 4: the difference picture */
    mc_png_buf png;
    mc_image img; /* the reference PNG decoded last (folder and image references) */
    char path[PATH_CAP];
} rc_thread;

struct mc_refcheck {
    char *reference, *candidate, *diff_dir; /* diff_dir NULL: nothing is written */
    int width, height;
    mc_compare_opts opts; /* effective limits */
    uint8_t *mask;        /* width * height, 0 = ignored; NULL: none (opts.mask points here) */
    bool update;
    mc_frame_no offset;
    mc_frames_in *src; /* NULL when an update-mode folder holds no PNG yet */
    bool video;
    int threads;
    rc_thread *t;
    mc_refcheck_on_fail on_fail; /* NULL: none */
    void *on_fail_user;

    pthread_mutex_t video_lock; /* the video source: one reader, forward only */
    bool video_failed;          /* a decode failed; every later frame is unreadable */
    char video_error[512];

    pthread_mutex_t lock; /* everything below */
    bool diff_made;
    mc_refcheck_row *rows; /* in frame order */
    size_t num_rows, cap_rows;
    mc_refcheck_summary sum;
};

static char *dup_str(const char *s)
{
    size_t n;
    char *d;

    if (!s)
        return NULL;
    n = strlen(s) + 1;
    d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* True when folder path holds no file ending in .png (or does not exist). */
static bool no_png_in(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *e;
    bool none = true;

    if (!dir)
        return true;
    while (none && (e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);

        none = !(n > 4 && strcasecmp(e->d_name + n - 4, ".png") == 0);
    }
    closedir(dir);
    return none;
}

/* In update mode the reference may be missing or empty: it is created and every frame is
 * "missing". */
static mc_status open_for_update(mc_refcheck *c, mc_error *err)
{
    struct stat sb;

    if (stat(c->reference, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return mc_error_set(err, MC_ERR_USAGE, c->reference, 0, 0,
                            "--update-reference needs a folder of PNGs, not a file");
    if (!mc_mkdirs(c->reference))
        return mc_error_set(err, MC_ERR_IO, c->reference, 0, 0, "cannot create folder: %s",
                            strerror(errno));
    if (no_png_in(c->reference))
        return MC_OK;
    return mc_frames_open(c->reference, &c->src, err);
}

static mc_status check_desc(const mc_refcheck_desc *d, mc_error *err)
{
    if (!d->reference)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no reference given");
    if (d->width < 1 || d->height < 1 || d->width > MC_IMAGE_MAX_SIDE ||
        d->height > MC_IMAGE_MAX_SIDE)
        return mc_error_set(err, MC_ERR_USAGE, d->reference, 0, 0,
                            "frame size %dx%d is outside 1..%d per side", d->width, d->height,
                            MC_IMAGE_MAX_SIDE);
    if (d->threads < 0 || d->threads > MAX_THREADS)
        return mc_error_set(err, MC_ERR_USAGE, d->reference, 0, 0,
                            "%d checking threads, expected 1..%d", d->threads, MAX_THREADS);
    return MC_OK;
}

static mc_status alloc_threads(mc_refcheck *c, mc_error *err)
{
    size_t px = (size_t)c->width * (size_t)c->height * 4;

    c->t = calloc((size_t)c->threads, sizeof *c->t);
    if (!c->t)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < c->threads; i++) {
        c->t[i].diff = malloc(px);
        if (!c->t[i].diff)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    c->cap_rows = 256;
    c->rows = malloc(c->cap_rows * sizeof *c->rows);
    if (!c->rows)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return MC_OK;
}

/* The ignore mask from desc's PNG and rectangles (refcheck.h); none when neither is given. */
static mc_status build_mask(mc_refcheck *c, const mc_refcheck_desc *d, mc_error *err)
{
    size_t n = (size_t)c->width * (size_t)c->height;
    mc_image img = { 0 };
    mc_status st;

    if (!d->mask && d->num_ignore == 0)
        return MC_OK;
    c->mask = malloc(n);
    if (!c->mask)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the mask");
    memset(c->mask, 1, n);
    if (d->mask) {
        st = mc_image_load(d->mask, &img, err);
        if (st != MC_OK)
            return st;
        if (img.width != c->width || img.height != c->height) {
            int w = img.width, h = img.height;
            mc_image_release(&img);
            return mc_error_set(err, MC_ERR_USAGE, d->mask, 0, 0,
                                "mask is %dx%d, the frames are %dx%d", w, h, c->width,
                                c->height);
        }
        for (int y = 0; y < c->height; y++) {
            const uint8_t *p = img.pixels + (size_t)y * img.stride;
            uint8_t *m = c->mask + (size_t)y * (size_t)c->width;
            for (int x = 0; x < c->width; x++, p += 4)
                m[x] = p[3] != 0 && (p[0] | p[1] | p[2]) != 0;
        }
        mc_image_release(&img);
    }
    for (size_t i = 0; i < d->num_ignore; i++) {
        const mc_compare_rect *r = &d->ignore[i];
        long x0 = r->x < 0 ? 0 : r->x, y0 = r->y < 0 ? 0 : r->y;
        long x1 = (long)r->x + r->w, y1 = (long)r->y + r->h;

        if (r->w < 1 || r->h < 1)
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                                "ignore rectangle %d,%d,%d,%d is empty", r->x, r->y, r->w, r->h);
        x1 = x1 > c->width ? c->width : x1;
        y1 = y1 > c->height ? c->height : y1;
        for (long y = y0; y < y1; y++)
            for (long x = x0; x < x1; x++)
                c->mask[(size_t)y * (size_t)c->width + (size_t)x] = 0;
    }
    if (!memchr(c->mask, 1, n)) /* every frame would pass, having nothing compared */
        return mc_error_set(err, MC_ERR_USAGE, d->mask, 0, 0,
                            "%s no pixel of the %dx%d frames to compare",
                            !d->num_ignore ? "the mask leaves"
                            : d->mask      ? "the mask and the ignored rectangles leave"
                                           : "the ignored rectangles leave",
                            c->width, c->height);
    return MC_OK;
}

/* "diffs/" and "diffs//" name the folder "diffs": file names are joined to it with one '/'
 * ("/" stays the root). */
static void trim_slashes(char *dir)
{
    size_t n = dir ? strlen(dir) : 0;

    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
}

mc_status mc_refcheck_open(const mc_refcheck_desc *desc, mc_refcheck **out, mc_error *err)
{
    mc_refcheck *c;
    mc_status st;

    *out = NULL;
    st = check_desc(desc, err);
    if (st != MC_OK)
        return st;
    c = calloc(1, sizeof *c);
    if (!c)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->video_lock, NULL);
    c->width = desc->width;
    c->height = desc->height;
    c->update = desc->update;
    c->offset = desc->offset;
    c->on_fail = desc->on_fail;
    c->on_fail_user = desc->on_fail_user;
    c->threads = desc->threads ? desc->threads : 1;
    c->reference = dup_str(desc->reference);
    c->candidate = dup_str(desc->candidate);
    c->diff_dir = dup_str(desc->diff_dir);
    trim_slashes(c->diff_dir);
    if (!c->reference || (desc->candidate && !c->candidate) || (desc->diff_dir && !c->diff_dir))
        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    else if (desc->update)
        st = open_for_update(c, err);
    else
        st = mc_frames_open(c->reference, &c->src, err);
    c->video = c->src && mc_frames_kind_of(c->src) == MC_FRAMES_VIDEO;
    if (st == MC_OK && c->video && c->update)
        st = mc_error_set(err, MC_ERR_USAGE, c->reference, 0, 0,
                          "--update-reference needs a folder of PNGs, not a video");
    if (st == MC_OK)
        st = alloc_threads(c, err);
    if (st == MC_OK)
        st = build_mask(c, desc, err);
    if (st != MC_OK) {
        mc_refcheck_release(c);
        return st;
    }
    c->opts = desc->opts;
    c->opts.lossy = c->opts.lossy || c->video;
    c->opts.mask = c->mask;
    mc_compare_effective(&c->opts, &c->opts);
    c->sum.lossy = c->opts.lossy;
    *out = c;
    return MC_OK;
}

void mc_refcheck_release(mc_refcheck *c)
{
    if (!c)
        return;
    for (int i = 0; c->t && i < c->threads; i++) {
        mc_compare_work_release(&c->t[i].work);
        free(c->t[i].diff);
        mc_png_buf_release(&c->t[i].png);
        mc_image_release(&c->t[i].img);
    }
    free(c->t);
    for (size_t i = 0; i < c->num_rows; i++)
        free((char *)(uintptr_t)c->rows[i].written);
    free(c->rows);
    mc_frames_release(c->src);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->video_lock);
    free(c->reference);
    free(c->candidate);
    free(c->diff_dir);
    free(c->mask);
    free(c);
}

/* ---- writing pictures ------------------------------------------------------------------ */

static mc_status write_png(rc_thread *t, const char *path, const uint8_t *rgba, size_t stride,
                           int w, int h, mc_error *err)
{
    mc_status st = mc_png_encode(rgba, w, h, stride, 0, &t->png, err);

    if (st != MC_OK)
        return st;
    return mc_png_save(path, &t->png, err);
}

static mc_status make_diff_dir(mc_refcheck *c, mc_error *err)
{
    mc_status st = MC_OK;

    pthread_mutex_lock(&c->lock);
    if (!c->diff_made) {
        if (mc_mkdirs(c->diff_dir))
            c->diff_made = true;
        else
            st = mc_error_set(err, MC_ERR_IO, c->diff_dir, 0, 0, "cannot create folder: %s",
                              strerror(errno));
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Update mode: the checked frame goes into the reference, over the file it failed against
 * (existing) or as <reference>/<reference frame number, 5 digits>.png. */
static mc_status write_update(mc_refcheck *c, rc_thread *t, const mc_image_view *f,
                              mc_frame_no n, const char *existing, mc_refcheck_row *row,
                              mc_error *err)
{
    size_t len = strlen(c->reference);
    mc_status st;

    if (existing)
        snprintf(t->path, sizeof t->path, "%s", existing);
    else /* one '/' after the folder, as it was written ("ref" or "ref/") */
        snprintf(t->path, sizeof t->path, "%s%s%05lld.png", c->reference,
                 len > 0 && c->reference[len - 1] == '/' ? "" : "/", (long long)n);
    st = write_png(t, t->path, f->pixels, f->stride, f->width, f->height, err);
    if (st == MC_OK)
        row->written = t->path;
    return st;
}

/* diff_dir/frame_%05d.png (the checked frame), and diff_%05d.png against ref when there is
 * one of the same size. */
static mc_status write_diff(mc_refcheck *c, rc_thread *t, const mc_image_view *f,
                            const uint8_t *ref, size_t ref_stride, mc_refcheck_row *row,
                            mc_error *err)
{
    mc_status st;

    if (c->on_fail && f->pixels) {
        mc_refcheck_failure fl = { row, ref, ref_stride, f->pixels, f->stride,
                                   f->width, f->height, &c->opts };

        st = c->on_fail(c->on_fail_user, (int)(t - c->t), &fl, err);
        if (st != MC_OK)
            return st;
    }
    if (!c->diff_dir || !f->pixels)
        return MC_OK;
    st = make_diff_dir(c, err);
    if (st != MC_OK)
        return st;
    snprintf(t->path, sizeof t->path, "%s/frame_%05lld.png", c->diff_dir, (long long)row->frame);
    st = write_png(t, t->path, f->pixels, f->stride, f->width, f->height, err);
    if (st != MC_OK)
        return st;
    row->written = t->path;
    if (!ref)
        return MC_OK;
    mc_compare_diff_image(ref, ref_stride, f->pixels, f->stride, f->width, f->height, &c->opts,
                          t->diff, (size_t)f->width * 4);
    snprintf(t->path, sizeof t->path, "%s/diff_%05lld.png", c->diff_dir, (long long)row->frame);
    return write_png(t, t->path, t->diff, (size_t)f->width * 4, f->width, f->height, err);
}

/* ---- checking one frame ---------------------------------------------------------------- */

/* The row of a frame that could not be compared; mc_error's message is the reason. */
static void set_unreadable(mc_refcheck_row *row, const char *why)
{
    row->kind = MC_REFCHECK_UNREADABLE;
    snprintf(row->reasons, sizeof row->reasons, "%s", why);
}

/* After the sizes agree: compare, then write what a failing frame needs. ref_name: the file
 * the frame was compared with, for update mode (NULL for a video). */
static mc_status compare_with(mc_refcheck *c, rc_thread *t, const mc_image_view *f,
                              const uint8_t *ref, size_t ref_stride, const char *ref_name,
                              mc_frame_no n, mc_refcheck_row *row, mc_error *err)
{
    mc_status st = mc_compare_rgba(ref, ref_stride, f->pixels, f->stride, f->width, f->height,
                                   &c->opts, &t->work, &row->r, err);

    if (st != MC_OK)
        return st;
    if (row->r.pass) {
        row->kind = MC_REFCHECK_PASSED;
        return MC_OK;
    }
    row->kind = MC_REFCHECK_FAILED;
    mc_compare_reasons(&row->r, &c->opts, row->reasons, sizeof row->reasons);
    if (c->update)
        return write_update(c, t, f, n, ref_name, row, err);
    return write_diff(c, t, f, ref, ref_stride, row, err);
}

/* A frame whose size differs from its reference's: nothing is decoded. */
static mc_status size_row(mc_refcheck *c, rc_thread *t, const mc_image_view *f, mc_frame_no n,
                          const char *ref_name, mc_refcheck_row *row, mc_error *err)
{
    row->kind = MC_REFCHECK_SIZE;
    snprintf(row->reasons, sizeof row->reasons, "size %dx%d, reference %dx%d", f->width,
             f->height, row->ref_width, row->ref_height);
    if (!f->pixels || f->width != c->width || f->height != c->height)
        return MC_OK;
    if (c->update)
        return write_update(c, t, f, n, ref_name, row, err);
    return write_diff(c, t, f, NULL, 0, row, err);
}

/* A folder or image reference: read the file, check its declared size, decode, compare. */
static mc_status check_file(mc_refcheck *c, rc_thread *t, const mc_image_view *f, size_t index,
                            mc_frame_no n, mc_refcheck_row *row, mc_error *err)
{
    const char *path = mc_frames_file(c->src, index);
    char *buf = NULL;
    size_t len = 0;
    mc_error e;
    mc_status st = mc_read_file(path, &buf, &len, &e);

    if (st == MC_OK)
        st = mc_image_probe(buf, len, path, &row->ref_width, &row->ref_height, &e);
    if (st == MC_OK && (row->ref_width != f->width || row->ref_height != f->height)) {
        free(buf);
        return size_row(c, t, f, n, path, row, err);
    }
    if (st == MC_OK && !f->pixels)
        st = mc_error_set(&e, MC_ERR_USAGE, NULL, 0, 0, "frame %lld has no pixels",
                          (long long)row->frame);
    mc_image_release(&t->img);
    if (st == MC_OK)
        st = mc_image_decode(buf, len, path, &t->img, &e);
    free(buf);
    if (st == MC_ERR_NOMEM || st == MC_ERR_USAGE) {
        *err = e;
        return st;
    }
    if (st != MC_OK) {
        set_unreadable(row, e.msg);
        if (c->update)
            return write_update(c, t, f, n, path, row, err);
        return write_diff(c, t, f, NULL, 0, row, err);
    }
    return compare_with(c, t, f, t->img.pixels, t->img.stride, path, n, row, err);
}

/* A video reference, under video_lock: its decoded frame lives in the source. */
static mc_status check_video(mc_refcheck *c, rc_thread *t, const mc_image_view *f,
                             size_t index, mc_frame_no n, mc_refcheck_row *row, mc_error *err)
{
    mc_frame ref;
    mc_error e;
    mc_status st;

    if (c->video_failed) {
        set_unreadable(row, c->video_error);
        return write_diff(c, t, f, NULL, 0, row, err);
    }
    st = mc_frames_size(c->src, index, &row->ref_width, &row->ref_height, &e);
    if (st == MC_OK && (row->ref_width != f->width || row->ref_height != f->height))
        return size_row(c, t, f, n, NULL, row, err);
    if (st == MC_OK && !f->pixels)
        st = mc_error_set(&e, MC_ERR_USAGE, NULL, 0, 0, "frame %lld has no pixels",
                          (long long)row->frame);
    if (st == MC_OK)
        st = mc_frames_read(c->src, index, &ref, &e);
    if (st == MC_ERR_NOMEM || (st == MC_ERR_USAGE && !f->pixels)) {
        *err = e;
        return st;
    }
    if (st != MC_OK) {
        /* Reading backwards (MC_ERR_USAGE) leaves the decoder intact; a decode error does not. */
        if (st != MC_ERR_USAGE) {
            c->video_failed = true;
            snprintf(c->video_error, sizeof c->video_error, "%s", e.msg);
        }
        set_unreadable(row, e.msg);
        return write_diff(c, t, f, NULL, 0, row, err);
    }
    if (ref.width != f->width || ref.height != f->height) {
        row->ref_width = ref.width;
        row->ref_height = ref.height;
        return size_row(c, t, f, n, NULL, row, err);
    }
    return compare_with(c, t, f, ref.rgba, ref.stride, NULL, n, row, err);
}

/* Adds row to the table in frame order (frames come nearly in order: insert from the end),
 * taking a copy of the name written, and counts it. */
static mc_status record(mc_refcheck *c, const mc_refcheck_row *row, mc_error *err)
{
    mc_status st = MC_OK;
    char *written = NULL;
    size_t at;

    if (row->written && !(written = dup_str(row->written)))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    pthread_mutex_lock(&c->lock);
    if (c->num_rows == c->cap_rows) {
        mc_refcheck_row *p = realloc(c->rows, 2 * c->cap_rows * sizeof *p);

        if (!p) {
            st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
            goto done;
        }
        c->rows = p;
        c->cap_rows *= 2;
    }
    at = c->num_rows;
    while (at > 0 && c->rows[at - 1].frame > row->frame)
        at--;
    memmove(&c->rows[at + 1], &c->rows[at], (c->num_rows - at) * sizeof *c->rows);
    c->rows[at] = *row;
    c->rows[at].written = written;
    written = NULL;
    c->num_rows++;
    c->sum.checked++;
    c->sum.passed += row->kind == MC_REFCHECK_PASSED;
    c->sum.failed += row->kind == MC_REFCHECK_FAILED || row->kind == MC_REFCHECK_SIZE;
    c->sum.missing += row->kind == MC_REFCHECK_MISSING;
    c->sum.unreadable += row->kind == MC_REFCHECK_UNREADABLE;
    c->sum.written += c->update && row->written;
done:
    pthread_mutex_unlock(&c->lock);
    free(written);
    return st;
}

mc_status mc_refcheck_frame(mc_refcheck *c, int thread, const mc_image_view *frame,
                            mc_frame_no k, mc_error *err)
{
    mc_refcheck_row row;
    mc_frame_no n = k + c->offset;
    size_t index = 0;
    rc_thread *t;
    mc_status st;

    if (thread < 0 || thread >= c->threads || !frame)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad reference check call");
    if (frame->pixels && (frame->width != c->width || frame->height != c->height ||
                          frame->stride < (size_t)frame->width * 4))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "frame %lld is %dx%d with pixels, the check expects %dx%d",
                            (long long)k, frame->width, frame->height, c->width, c->height);
    t = &c->t[thread];
    memset(&row, 0, sizeof row);
    row.frame = k;
    /* A video's frames are numbered from its first one's number (a chunk's first frame). */
    if (c->video && n - mc_frames_number(c->src, 0) >= (mc_frame_no)mc_frames_count(c->src) &&
        n - mc_frames_number(c->src, 0) < (mc_frame_no)mc_frames_listed(c->src)) {
        row.kind = MC_REFCHECK_UNREADABLE;
        snprintf(row.reasons, sizeof row.reasons,
                 "video '%s' was cut short: its index lists %zu frames, %zu can be read",
                 c->reference, mc_frames_listed(c->src), mc_frames_count(c->src));
        st = write_diff(c, t, frame, NULL, 0, &row, err);
    } else if (!c->src || n < 0 || n > LONG_MAX || !mc_frames_find(c->src, (long)n, &index)) {
        row.kind = MC_REFCHECK_MISSING;
        snprintf(row.reasons, sizeof row.reasons, "no reference frame");
        if (!frame->pixels)
            st = MC_OK;
        else if (c->update)
            st = write_update(c, t, frame, n, NULL, &row, err);
        else
            st = write_diff(c, t, frame, NULL, 0, &row, err);
    } else if (c->video) {
        pthread_mutex_lock(&c->video_lock);
        st = check_video(c, t, frame, index, n, &row, err);
        pthread_mutex_unlock(&c->video_lock);
    } else {
        st = check_file(c, t, frame, index, n, &row, err);
    }
    if (st != MC_OK)
        return st;
    return record(c, &row, err);
}

/* Whether reference frame n exists for the preflight: listed, also when a video is cut short
 * before it. */
static bool has_reference_frame(const mc_refcheck *c, mc_frame_no n)
{
    size_t index;

    if (n < 0 || n > LONG_MAX)
        return false;
    if (c->video) {
        mc_frame_no rel = n - mc_frames_number(c->src, 0);

        return rel >= 0 && rel < (mc_frame_no)mc_frames_listed(c->src);
    }
    return mc_frames_find(c->src, (long)n, &index);
}

mc_status mc_refcheck_preflight(mc_refcheck *c, mc_frame_no first, mc_frame_no last,
                                mc_error *err)
{
    mc_frame_no lacking = 0, first_lacking = 0;
    size_t index = 0;
    int w = 0, h = 0;
    mc_status st;

    if (c->update || first > last)
        return MC_OK;
    for (mc_frame_no k = first; k <= last; k++) {
        if (has_reference_frame(c, k + c->offset))
            continue;
        if (lacking++ == 0)
            first_lacking = k;
    }
    if (lacking > 0) {
        size_t held = c->video ? mc_frames_listed(c->src) : mc_frames_count(c->src);
        long lo = mc_frames_number(c->src, 0);
        long hi = c->video ? lo + (long)held - 1
                           : mc_frames_number(c->src, mc_frames_count(c->src) - 1);

        char with_offset[64] = "";

        if (c->offset != 0)
            snprintf(with_offset, sizeof with_offset, " (reference frame %lld)",
                     (long long)(first_lacking + c->offset));
        return mc_error_set(err, MC_ERR_RANGE, c->reference, 0, 0,
                            "holds %zu frame%s (%ld-%ld) but frames %lld-%lld are checked: "
                            "%lld of them %s not in it, the first frame %lld%s",
                            held, held == 1 ? "" : "s", lo, hi, (long long)first,
                            (long long)last, (long long)lacking, lacking == 1 ? "is" : "are",
                            (long long)first_lacking, with_offset);
    }
    mc_frames_find(c->src, (long)(first + c->offset), &index);
    if (c->video)
        index = (size_t)(first + c->offset - mc_frames_number(c->src, 0));
    if (c->video && index >= mc_frames_count(c->src))
        return MC_OK; /* past where it can be read: the frame loop's UNREADABLE rows say so */
    st = mc_frames_size(c->src, index, &w, &h, err);
    if (st != MC_OK)
        return st;
    if (w != c->width || h != c->height)
        return mc_error_set(err, MC_ERR_MISMATCH, mc_frames_file(c->src, index), 0, 0,
                            "reference frame %lld is %dx%d but the frames checked are %dx%d",
                            (long long)(first + c->offset), w, h, c->width, c->height);
    return MC_OK;
}

void mc_refcheck_get_summary(const mc_refcheck *c, mc_refcheck_summary *out)
{
    mc_refcheck *m = (mc_refcheck *)(uintptr_t)c; /* the lock only */

    pthread_mutex_lock(&m->lock);
    *out = c->sum;
    out->ok = c->update || c->sum.passed == c->sum.checked;
    pthread_mutex_unlock(&m->lock);
}

void mc_refcheck_get_limits(const mc_refcheck *c, mc_compare_opts *out)
{
    *out = c->opts;
}

size_t mc_refcheck_row_count(const mc_refcheck *c)
{
    return c->num_rows;
}

const mc_refcheck_row *mc_refcheck_row_at(const mc_refcheck *c, size_t i)
{
    return i < c->num_rows ? &c->rows[i] : NULL;
}

/* ---- reports --------------------------------------------------------------------------- */

void mc_rc_table_heading(FILE *to)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);

    fprintf(to, "%7s", "frame");
    for (size_t i = 0; i < n; i++)
        fprintf(to, " %*s", m[i].width, m[i].heading);
    fprintf(to, "  %s\n", "reasons");
}

void mc_rc_table_row(const mc_refcheck_row *row, FILE *to)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);
    char v[64];

    fprintf(to, "%7lld ", (long long)row->frame);
    for (size_t i = 0; i < n && row->kind == MC_REFCHECK_FAILED; i++) {
        mc_compare_metric_format(&row->r, &m[i], MC_COMPARE_STYLE_TABLE, v, sizeof v);
        fprintf(to, "%*s ", m[i].width, v);
    }
    fprintf(to, " %s\n", row->reasons);
}

/* How a limit's value reads in the limits line: "<= 9 levels", ">= 0.95", "4" (a setting). */
static const char *sense_text(int sense)
{
    return sense == '<' ? "<= " : sense == '>' ? ">= " : "";
}

void mc_refcheck_format_limits(const mc_compare_opts *l, char *buf, size_t cap)
{
    size_t n, len;
    const mc_compare_limit *lim = mc_compare_limits(&n);

    if (!buf || cap == 0)
        return;
    len = (size_t)snprintf(buf, cap, "%s", l->lossy ? "lossy" : "lossless");
    for (size_t i = 0; i < n && len < cap; i++) {
        /* "off": the values mc_compare_effective's limits cannot fail with (compare.h). */
        if (!mc_compare_limit_on(l, &lim[i]))
            len += (size_t)snprintf(buf + len, cap - len, "%s %s off", i ? "," : ":",
                                    lim[i].label);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s %s %s%.4g%s", i ? "," : ":",
                                    lim[i].label, sense_text(lim[i].sense),
                                    mc_compare_limit_get(l, &lim[i]) * lim[i].scale,
                                    lim[i].unit);
    }
    if (len < cap)
        snprintf(buf + len, cap - len, "%s", l->mask ? ", masked" : "");
}

/* Update mode's one line: the counts, then the frames written as ranges (the first few). */
static void print_update_line(const mc_refcheck *c, const mc_refcheck_summary *s, FILE *to)
{
    int ranges = 0;

    fprintf(to,
            "reference '%s': %lld frame%s checked, %lld matched, %lld written (%lld missing, "
            "%lld failing%s)",
            c->reference, (long long)s->checked, s->checked == 1 ? "" : "s",
            (long long)s->passed, (long long)s->written, (long long)s->missing,
            (long long)(s->failed + s->unreadable), s->unreadable ? ", some unreadable" : "");
    for (size_t i = 0; i < c->num_rows; i++) {
        size_t j = i;

        if (!c->rows[i].written)
            continue;
        while (j + 1 < c->num_rows && c->rows[j + 1].written &&
               c->rows[j + 1].frame == c->rows[j].frame + 1)
            j++;
        if (ranges < 8)
            fprintf(to, ranges == 0 ? ": frame%s %lld" : "%.0s, %lld",
                    s->written == 1 ? "" : "s", (long long)c->rows[i].frame);
        if (ranges < 8 && j > i)
            fprintf(to, "-%lld", (long long)c->rows[j].frame);
        if (ranges++ == 8)
            fputs(", ...", to);
        i = j;
    }
    fputc('\n', to);
}

/* Where the failing frames' pictures went, named once with their folder. */
static void print_written(const mc_refcheck *c, FILE *to)
{
    int64_t frames = 0, diffs = 0;

    for (size_t i = 0; i < c->num_rows; i++) {
        const char *w = c->rows[i].written, *name = w ? strrchr(w, '/') : NULL;

        frames += w != NULL; /* the last file written: diff_ when there was a reference frame */
        diffs += name && strncmp(name + 1, "diff_", 5) == 0;
    }
    if (frames == 0)
        return;
    fprintf(to, "wrote %lld failing frame%s (frame_NNNNN.png)", (long long)frames,
            frames == 1 ? "" : "s");
    if (diffs > 0)
        fprintf(to, " and %lld difference picture%s (diff_NNNNN.png)", (long long)diffs,
                diffs == 1 ? "" : "s");
    fprintf(to, " to '%s%s'\n", c->diff_dir, strcmp(c->diff_dir, "/") == 0 ? "" : "/");
}

void mc_refcheck_print_table_rows(const mc_refcheck *c, size_t max_rows, const char *more_hint,
                                  FILE *to)
{
    mc_refcheck_summary s;
    int64_t bad;
    size_t listed = 0;
    char limits[320];

    mc_refcheck_get_summary(c, &s);
    if (c->update) {
        print_update_line(c, &s, to);
        return;
    }
    bad = s.checked - s.passed;
    fprintf(to, "reference '%s': %lld frame%s checked, %lld matched, %lld differ, %lld missing",
            c->reference, (long long)s.checked, s.checked == 1 ? "" : "s", (long long)s.passed,
            (long long)s.failed, (long long)s.missing);
    if (s.unreadable)
        fprintf(to, ", %lld unreadable", (long long)s.unreadable);
    fprintf(to, "%s\n", s.lossy ? " (video: lossy limits)" : "");
    if (bad <= 0)
        return;
    mc_refcheck_format_limits(&c->opts, limits, sizeof limits);
    fprintf(to, "limits (%s)\n", limits);
    for (size_t i = 0; i < c->num_rows && listed < max_rows; i++) {
        if (c->rows[i].kind == MC_REFCHECK_PASSED)
            continue;
        if (listed++ == 0)
            mc_rc_table_heading(to);
        mc_rc_table_row(&c->rows[i], to);
    }
    if ((int64_t)listed < bad)
        fprintf(to, "... and %lld more%s\n", (long long)(bad - (int64_t)listed),
                more_hint ? more_hint : "");
    if (c->diff_dir && c->diff_made)
        print_written(c, to);
}

void mc_refcheck_print_table(const mc_refcheck *c, FILE *to)
{
    mc_refcheck_print_table_rows(c, MC_REFCHECK_TABLE_ROWS, NULL, to);
}

static const char *kind_name(mc_refcheck_kind k)
{
    static const char *const names[] = { "passed", "failed", "missing", "size", "unreadable" };

    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "unknown";
}

/* One metric of a JSON row: its count, its value and where it was measured, each null when
 * not measured (and the value and its at when infinite). */
static void json_metric(const mc_compare_result *r, const mc_compare_metric *m, bool measured,
                        FILE *to)
{
    char v[64];
    int x, y;
    size_t count;

    if (m->count_key && measured) {
        memcpy(&count, (const char *)r + m->count, sizeof count);
        fprintf(to, "\"%s\": %zu, ", m->count_key, count);
    } else if (m->count_key) {
        fprintf(to, "\"%s\": null, ", m->count_key);
    }
    if (measured)
        mc_compare_metric_format(r, m, MC_COMPARE_STYLE_JSON, v, sizeof v);
    else
        snprintf(v, sizeof v, "null");
    fprintf(to, "\"%s\": %s, ", m->id, v);
    if (mc_compare_metric_at(r, m, &x, &y) && strcmp(v, "null") != 0)
        fprintf(to, "\"%s\": [%d, %d], ", m->at_key, x, y);
    else if (m->at_key)
        fprintf(to, "\"%s\": null, ", m->at_key);
}

void mc_rc_json_row(const mc_refcheck_row *row, FILE *to)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);
    bool measured = row->kind == MC_REFCHECK_PASSED || row->kind == MC_REFCHECK_FAILED;

    fprintf(to, "{\"frame\": %lld, \"pass\": %s, ", (long long)row->frame,
            row->kind == MC_REFCHECK_PASSED ? "true" : "false");
    for (size_t i = 0; i < n; i++)
        json_metric(&row->r, &m[i], measured, to);
    fputs("\"reasons\": ", to);
    mc_json_write_cstr(to, row->reasons);
    fprintf(to, ", \"kind\": \"%s\", \"written\": ", kind_name(row->kind));
    mc_json_write_cstr(to, row->written);
    fputc('}', to);
}

void mc_refcheck_print_json_members(const mc_refcheck *c, FILE *to)
{
    const mc_compare_opts *l = &c->opts;
    size_t n;
    const mc_compare_limit *lim = mc_compare_limits(&n);
    mc_refcheck_summary s;

    mc_refcheck_get_summary(c, &s);
    fputs("{\"reference\": ", to);
    mc_json_write_cstr(to, c->reference);
    fputs(", \"candidate\": ", to);
    mc_json_write_cstr(to, c->candidate);
    fprintf(to, ", \"limits\": {\"mode\": \"%s\"", l->lossy ? "lossy" : "lossless");
    for (size_t i = 0; i < n; i++)
        fprintf(to, ", \"%s\": %g", lim[i].id, mc_compare_limit_get(l, &lim[i]));
    fprintf(to, ", \"masked\": %s},\n \"frames\": [", l->mask ? "true" : "false");
    for (size_t i = 0; i < c->num_rows; i++) {
        fputs(i ? ",\n  " : "\n  ", to);
        mc_rc_json_row(&c->rows[i], to);
    }
    fprintf(to,
            "],\n \"summary\": {\"checked\": %lld, \"passed\": %lld, \"failed\": %lld, "
            "\"missing\": %lld, \"unreadable\": %lld, \"written\": %lld, \"pass\": %s}",
            (long long)s.checked, (long long)s.passed, (long long)s.failed,
            (long long)s.missing, (long long)s.unreadable, (long long)s.written,
            s.passed == s.checked ? "true" : "false");
}

void mc_refcheck_print_json(const mc_refcheck *c, FILE *to)
{
    mc_refcheck_print_json_members(c, to);
    fputs("}\n", to);
}
