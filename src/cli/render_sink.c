/* md5cine render: where finished frames go -- the encoder, a PNG sequence, a comparison with
 * reference frames, or several of these (the pipeline's sink function). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "render_cli.h"

/* The renderer's frame over a transparent background is premultiplied: an edge pixel that
 * covers a share a of a surface of colour c reads back as (c * a, a). PNG alpha is straight,
 * so c = rgb * 255 / a (rounded, at most 255); fully transparent pixels stay black. */
static const uint8_t *unpremultiply(const uint8_t *rgba, int w, int h, uint8_t *out)
{
    size_t n = (size_t)w * (size_t)h * 4;

    for (size_t i = 0; i < n; i += 4) {
        unsigned a = rgba[i + 3];

        for (size_t c = 0; c < 3; c++) {
            unsigned v = a == 0 ? 0u : (rgba[i + c] * 255u + a / 2u) / a;

            out[i + c] = (uint8_t)(v > 255u ? 255u : v);
        }
        out[i + 3] = (uint8_t)a;
    }
    return out;
}

static mc_status write_png(mc_sink_thread *t, const char *path, const uint8_t *rgba, int w, int h,
                           int alpha, mc_error *err)
{
    mc_status st;

    if (alpha)
        rgba = unpremultiply(rgba, w, h, t->straight);
    st = mc_png_encode(rgba, w, h, (size_t)w * 4, alpha, &t->png, err);

    if (st != MC_OK)
        return st;
    return mc_png_save(path, &t->png, err);
}

/* Remembers a row for the final table (the first MC_REF_MAX_LISTED only). */
static mc_ref_row *add_row(mc_ref_check *c, int64_t frame, int kind)
{
    mc_ref_row *row;

    if (c->num_rows >= MC_REF_MAX_LISTED)
        return NULL;
    row = &c->rows[c->num_rows++];
    memset(row, 0, sizeof *row);
    row->frame = frame;
    row->kind = kind;
    return row;
}

/* Writes the rendered frame into REF (update mode): over the failing file, else
 * REF/<frame, 5 digits>.png. */
static mc_status update_reference(mc_ref_check *c, mc_sink_thread *t, const uint8_t *rgba,
                                  int64_t frame, const char *existing, mc_ref_row *row,
                                  mc_error *err)
{
    mc_status st;

    if (existing)
        snprintf(t->path, sizeof t->path, "%s", existing);
    else
        snprintf(t->path, sizeof t->path, "%s/%05lld.png", c->path, (long long)frame);
    st = write_png(t, t->path, rgba, c->width, c->height, 0, err);
    if (st != MC_OK)
        return st;
    c->written++;
    if (row)
        snprintf(row->written, sizeof row->written, "%s", t->path);
    return MC_OK;
}

/* Writes the rendered frame and its difference picture into the diff folder. */
static mc_status write_diff(mc_ref_check *c, mc_sink_thread *t, const mc_frame *ref,
                            const uint8_t *rgba, int64_t frame, mc_ref_row *row, mc_error *err)
{
    mc_status st;

    if (!c->diff_made) {
        if (!mc_cli_mkdirs(c->diff_dir))
            return mc_error_set(err, MC_ERR_IO, c->diff_dir, 0, 0, "cannot create folder: %s",
                                strerror(errno));
        c->diff_made = true;
    }
    snprintf(t->path, sizeof t->path, "%s/frame_%05lld.png", c->diff_dir, (long long)frame);
    st = write_png(t, t->path, rgba, c->width, c->height, 0, err);
    if (st != MC_OK)
        return st;
    if (!ref)
        return MC_OK;
    mc_compare_diff_image(ref->rgba, ref->stride, rgba, (size_t)c->width * 4, c->width, c->height,
                          &c->opts, c->diff, (size_t)c->width * 4);
    snprintf(t->path, sizeof t->path, "%s/diff_%05lld.png", c->diff_dir, (long long)frame);
    st = write_png(t, t->path, c->diff, c->width, c->height, 0, err);
    if (st == MC_OK && row)
        snprintf(row->written, sizeof row->written, "%s", t->path);
    return st;
}

/* A frame with no usable reference (missing, or of another size). */
static mc_status no_reference(mc_ref_check *c, mc_sink_thread *t, const uint8_t *rgba,
                              int64_t frame, int kind, const mc_frame *ref, mc_error *err)
{
    mc_ref_row *row = add_row(c, frame, kind);

    if (kind == MC_REF_MISSING)
        c->missing++;
    else
        c->failed++;
    if (row && kind == MC_REF_SIZE)
        snprintf(row->reasons, sizeof row->reasons, "size %dx%d, reference %dx%d", c->width,
                 c->height, ref->width, ref->height);
    if (c->update)
        return update_reference(c, t, rgba, frame, ref ? ref->name : NULL, row, err);
    return write_diff(c, t, NULL, rgba, frame, row, err);
}

static mc_status check_frame(mc_ref_check *c, mc_sink_thread *t, const uint8_t *rgba, int64_t frame,
                             mc_error *err)
{
    size_t index;
    mc_frame ref;
    mc_compare_result r;
    mc_ref_row *row;
    mc_status st;

    c->checked++;
    if (!c->src || frame > (int64_t)0x7fffffff || !mc_frames_find(c->src, (long)frame, &index))
        return no_reference(c, t, rgba, frame, MC_REF_MISSING, NULL, err);
    st = mc_frames_read(c->src, index, &ref, err);
    if (st != MC_OK)
        return st;
    if (ref.width != c->width || ref.height != c->height)
        return no_reference(c, t, rgba, frame, MC_REF_SIZE, &ref, err);
    st = mc_compare_rgba(ref.rgba, ref.stride, rgba, (size_t)c->width * 4, c->width, c->height,
                         &c->opts, &c->work, &r, err);
    if (st != MC_OK)
        return st;
    if (r.pass) {
        c->passed++;
        return MC_OK;
    }
    c->failed++;
    row = add_row(c, frame, MC_REF_FAILED);
    if (row) {
        row->r = r;
        mc_compare_reasons(&r, &c->opts, row->reasons, sizeof row->reasons);
    }
    if (c->update)
        return update_reference(c, t, rgba, frame, ref.name, row, err);
    return write_diff(c, t, &ref, rgba, frame, row, err);
}

mc_status mc_sink_frame(void *user, int thread, const uint8_t *rgba, int64_t frame, mc_error *err)
{
    mc_sink *s = user;
    mc_sink_thread *t = &s->per_thread[thread];
    double t0 = mc_cli_now(), t1;
    mc_status st;

    if (s->enc) {
        st = mc_encoder_write_rgba(s->enc, rgba, (size_t)s->width * 4, err);
        if (st != MC_OK)
            return st;
        t1 = mc_cli_now();
        t->encode_s += t1 - t0;
        t0 = t1;
    }
    if (s->pattern) {
        if (!mc_png_pattern_format(s->pattern, frame, t->path, sizeof t->path))
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "output file name too long");
        st = write_png(t, t->path, rgba, s->width, s->height, s->png_alpha ? 1 : 0, err);
        if (st != MC_OK)
            return st;
        t1 = mc_cli_now();
        t->png_s += t1 - t0;
        t0 = t1;
    }
    if (s->ref) {
        st = check_frame(s->ref, t, rgba, frame, err);
        if (st != MC_OK)
            return st;
        t->compare_s += mc_cli_now() - t0;
    }
    return MC_OK;
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

/* In update mode REF may be missing or empty: it is created and every frame is "missing". */
static mc_status open_for_update(mc_ref_check *c, const char *path, mc_error *err)
{
    struct stat sb;

    if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                            "--update-reference needs a folder of PNGs, not a file");
    if (!mc_cli_mkdirs(path))
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot create folder: %s",
                            strerror(errno));
    if (no_png_in(path))
        return MC_OK;
    return mc_frames_open(path, &c->src, err);
}

mc_status mc_ref_check_open(mc_ref_check *c, const char *path, bool update, int width, int height,
                            const char *diff_dir, mc_error *err)
{
    mc_status st;

    memset(c, 0, sizeof *c);
    c->path = path;
    c->update = update;
    c->width = width;
    c->height = height;
    snprintf(c->diff_dir, sizeof c->diff_dir, "%s", diff_dir);
    st = update ? open_for_update(c, path, err) : mc_frames_open(path, &c->src, err);
    if (st != MC_OK)
        return st;
    c->opts.lossy = c->src && mc_frames_kind_of(c->src) == MC_FRAMES_VIDEO;
    c->diff = malloc((size_t)width * (size_t)height * 4);
    c->rows = calloc(MC_REF_MAX_LISTED, sizeof *c->rows);
    if (!c->diff || !c->rows)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return MC_OK;
}

static void print_row(const mc_ref_row *row, FILE *to)
{
    const mc_compare_result *r = &row->r;

    if (row->kind == MC_REF_MISSING) {
        fprintf(to, "%7lld  %-60s", (long long)row->frame, "no reference frame");
    } else if (row->kind == MC_REF_SIZE) {
        fprintf(to, "%7lld  %-60s", (long long)row->frame, row->reasons);
    } else {
        fprintf(to, "%7lld  %4d %8.3f %8.2f %7.4f %8.3f%%  %s", (long long)row->frame, r->max_diff,
                r->mean_diff, isinf(r->psnr) ? 99.99 : r->psnr, r->ssim, r->over_share * 100.0,
                row->reasons);
    }
    fputc('\n', to);
    if (row->written[0])
        fprintf(to, "         wrote '%s'\n", row->written);
}

void mc_ref_check_report(const mc_ref_check *c, FILE *to)
{
    int64_t bad = c->failed + c->missing;

    if (c->num_rows > 0) {
        fprintf(to, "%7s  %4s %8s %8s %7s %9s  %s\n", "frame", "max", "mean", "psnr", "ssim",
                "over", "reasons");
        for (size_t i = 0; i < c->num_rows; i++)
            print_row(&c->rows[i], to);
        if ((int64_t)c->num_rows < bad)
            fprintf(to, "... and %lld more\n", (long long)(bad - (int64_t)c->num_rows));
    }
    if (c->update) {
        fprintf(to,
                "reference '%s': %lld frames checked, %lld matched, %lld written "
                "(%lld missing, %lld failing)\n",
                c->path, (long long)c->checked, (long long)c->passed, (long long)c->written,
                (long long)c->missing, (long long)c->failed);
        return;
    }
    fprintf(to, "reference '%s': %lld frames checked, %lld matched, %lld differ, %lld missing%s\n",
            c->path, (long long)c->checked, (long long)c->passed, (long long)c->failed,
            (long long)c->missing, c->opts.lossy ? " (video: lossy limits)" : "");
    if (bad > 0)
        fprintf(to, "failing frames and difference pictures are in '%s'\n", c->diff_dir);
}

void mc_ref_check_release(mc_ref_check *c)
{
    if (!c)
        return;
    mc_frames_release(c->src);
    mc_compare_work_release(&c->work);
    free(c->diff);
    free(c->rows);
    memset(c, 0, sizeof *c);
}
