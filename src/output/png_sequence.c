/* A PNG sequence (png_sequence.h): the name pattern, the folder, and each thread's writer. */
#include <md5cine/png_sequence.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/fileio.h>

/* Appends c to buf (length *n, capacity cap); false when full. */
static bool put_char(char *buf, size_t *n, size_t cap, char c)
{
    if (*n + 1 >= cap)
        return false;
    buf[(*n)++] = c;
    buf[*n] = '\0';
    return true;
}

/* Reads the conversion at c ('%' not followed by '%') into p; the pointer to its 'd', or NULL
 * when it is not '%d' with an optional '0' and a width of at most 20. */
static const char *read_conversion(const char *c, mc_png_pattern *p)
{
    const char *d = c + 1;
    long w = 0;

    p->zero = *d == '0';
    while (*d >= '0' && *d <= '9' && w <= 20)
        w = w * 10 + (*d++ - '0');
    if (*d != 'd' || w > 20)
        return NULL;
    p->width = (int)w;
    return d;
}

static mc_status bad_pattern(const char *s, mc_png_pattern *p, const char *why, mc_error *err)
{
    memset(p, 0, sizeof *p);
    return mc_error_set(err, MC_ERR_USAGE, s, 0, 0, "PNG output '%s' %s", s, why);
}

mc_status mc_png_pattern_parse(const char *s, mc_png_pattern *p, mc_error *err)
{
    size_t np = 0, ns = 0;
    bool found = false;

    memset(p, 0, sizeof *p);
    for (const char *c = s; *c; c++) {
        bool ok;

        if (c[0] == '%' && c[1] == '%') {
            ok = found ? put_char(p->suffix, &ns, sizeof p->suffix, '%')
                       : put_char(p->prefix, &np, sizeof p->prefix, '%');
            c++;
        } else if (c[0] == '%') {
            const char *d = found ? NULL : read_conversion(c, p);

            if (!d)
                return bad_pattern(s, p,
                                   found ? "has two frame numbers"
                                         : "may only use '%d' with a width, as in '%05d'",
                                   err);
            found = true;
            c = d;
            ok = true;
        } else {
            ok = found ? put_char(p->suffix, &ns, sizeof p->suffix, *c)
                       : put_char(p->prefix, &np, sizeof p->prefix, *c);
        }
        if (!ok)
            return bad_pattern(s, p, "is too long", err);
    }
    if (!found)
        return bad_pattern(s, p, "needs a frame number such as '%05d'", err);
    return MC_OK;
}

bool mc_png_pattern_format(const mc_png_pattern *p, mc_frame_no k, char *out, size_t cap)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)k);
    int pad = p->width > n ? p->width - n : 0;
    size_t need = strlen(p->prefix) + (size_t)pad + (size_t)n + strlen(p->suffix) + 1;

    if (n < 0 || need > cap)
        return false;
    snprintf(out, cap, "%s%*s%s%s", p->prefix, pad, "", digits, p->suffix);
    if (p->zero && pad > 0)
        memset(out + strlen(p->prefix), '0', (size_t)pad);
    return true;
}

void mc_png_pattern_dir(const mc_png_pattern *p, char *out, size_t cap)
{
    const char *slash = strrchr(p->prefix, '/');
    size_t n = slash ? (size_t)(slash - p->prefix) + 1 : 0;

    if (n >= cap)
        n = cap - 1;
    memcpy(out, p->prefix, n);
    out[n] = '\0';
}

mc_status mc_png_sequence_open(const mc_png_pattern *p, const char *name, mc_frame_no first,
                               mc_error *err)
{
    char dir[MC_PNG_PATTERN_CAP], path[MC_PNG_PATTERN_CAP];
    mc_outfile probe;
    mc_status st;

    mc_png_pattern_dir(p, dir, sizeof dir);
    if (!mc_mkdirs(dir))
        return mc_error_set(err, MC_ERR_IO, dir, 0, 0, "cannot create folder '%s': %s", dir,
                            strerror(errno));
    if (!mc_png_pattern_format(p, first, path, sizeof path))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "output name '%s' is too long", name);
    mc_outfile_sweep(path); /* temporaries of frames of killed renders */
    st = mc_outfile_begin(&probe, path, MC_OUTFILE_STREAM, err);
    if (st != MC_OK)
        return st;
    mc_outfile_abort(&probe);
    return MC_OK;
}

/* The renderer's frame over a transparent background is premultiplied: an edge pixel that
 * covers a share a of a surface of colour c reads back as (c * a, a). PNG alpha is straight. */
void mc_png_unpremultiply(const uint8_t *rgba, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n * 4; i += 4) {
        unsigned a = rgba[i + 3];

        for (size_t c = 0; c < 3; c++) {
            unsigned v = a == 0 ? 0u : (rgba[i + c] * 255u + a / 2u) / a;

            out[i + c] = (uint8_t)(v > 255u ? 255u : v);
        }
        out[i + 3] = (uint8_t)a;
    }
}

mc_status mc_png_writer_init(mc_png_writer *w, int width, int height, bool alpha,
                             mc_error *err)
{
    memset(w, 0, sizeof *w);
    if (width < 1 || height < 1)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "PNG frame size %dx%d", width,
                            height);
    w->width = width;
    w->height = height;
    w->alpha = alpha;
    if (alpha) {
        w->straight = malloc((size_t)width * (size_t)height * 4);
        if (!w->straight)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

mc_status mc_png_writer_write(mc_png_writer *w, const mc_png_pattern *p, const uint8_t *rgba,
                              mc_frame_no k, mc_error *err)
{
    mc_status st;

    if (!mc_png_pattern_format(p, k, w->path, sizeof w->path))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "output file name too long");
    if (w->alpha) {
        mc_png_unpremultiply(rgba, (size_t)w->width * (size_t)w->height, w->straight);
        rgba = w->straight;
    }
    st = mc_png_encode(rgba, w->width, w->height, (size_t)w->width * 4, w->alpha ? 1 : 0,
                       &w->png, err);
    if (st != MC_OK)
        return st;
    return mc_png_save(w->path, &w->png, err);
}

void mc_png_writer_release(mc_png_writer *w)
{
    if (!w)
        return;
    mc_png_buf_release(&w->png);
    free(w->straight);
    memset(w, 0, sizeof *w);
}
