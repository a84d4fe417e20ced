/* mc_error_format (error.h): the record with its source line, read from a plain file or from a
 * .pk4 archive (vfs.h), which is why it lives beside the base folder's reader and not in core. */
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/error.h>
#include <md5cine/vfs.h>

/* Copies line `line` (1-based) of the file into out without its newline (cut at cap - 1
 * bytes); false if the file cannot be read or is shorter. */
static bool read_source_line(const char *path, int line, char *out, size_t cap)
{
    char *archived = NULL;
    size_t alen = 0;
    FILE *f;
    int c, at = 1;
    size_t n = 0;

    /* A file in a .pk4 ("base/pak000.pk4:materials/x.mtr") is read from its archive. */
    if (mc_vfs_read_place(path, (size_t)64 << 20, &archived, &alen))
        f = fmemopen(archived, alen, "rb");
    else
        f = fopen(path, "rb");
    if (!f) {
        free(archived);
        return false;
    }
    while (at < line && (c = fgetc(f)) != EOF)
        if (c == '\n')
            at++;
    if (at != line) {
        fclose(f);
        free(archived);
        return false;
    }
    while ((c = fgetc(f)) != EOF && c != '\n' && c != '\r' && n + 1 < cap)
        out[n++] = (char)c;
    out[n] = '\0';
    fclose(f);
    free(archived);
    return true;
}

size_t mc_error_format(const mc_error *e, const char *severity, char *out, size_t cap)
{
    char src[1024];
    bool have = e->line > 0 && e->file[0] && read_source_line(e->file, e->line, src, sizeof src);

    return mc_error_format_source(e, severity, have ? src : NULL, out, cap);
}
