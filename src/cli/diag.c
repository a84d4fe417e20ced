#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <md5cine/fileio.h>
#include <md5cine/vfs.h>

#include "cli.h"

/* Copies line `line` (1-based) of the file into out without its newline; false if the file
 * cannot be read or is shorter. */
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

/* True when msg already names file in quotes ("cannot open 'out/x.png': ..."): the I/O
 * messages do, and a "file: " prefix would then name it twice. */
static bool msg_names_file(const mc_error *e)
{
    char quoted[sizeof e->file + 2];

    snprintf(quoted, sizeof quoted, "'%s'", e->file);
    return strstr(e->msg, quoted) != NULL;
}

/* True for the bytes a terminal would act on rather than show: controls other than tab,
 * and DEL. */
static bool is_control(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* Writes s with each control byte as \xNN, as the token descriptions in messages show them,
 * so that nothing read from an input file can move the cursor, clear the screen or recolour
 * the terminal. */
static void put_escaped(FILE *to, const char *s)
{
    for (; *s; s++) {
        if (is_control((unsigned char)*s))
            fprintf(to, "\\x%02X", (unsigned char)*s);
        else
            fputc(*s, to);
    }
}

void mc_diag_print(FILE *to, const char *severity, const mc_error *e)
{
    char src[1024];

    if (e->file[0] && e->line > 0) {
        put_escaped(to, e->file);
        fprintf(to, ":%d:%d: %s: ", e->line, e->col, severity);
    } else if (e->file[0] && !msg_names_file(e)) {
        put_escaped(to, e->file);
        fprintf(to, ": %s: ", severity);
    } else {
        fprintf(to, "md5cine: %s: ", severity);
    }
    put_escaped(to, e->msg);
    fputc('\n', to);
    if (e->line <= 0 || !read_source_line(e->file, e->line, src, sizeof src))
        return;
    fprintf(to, "%5d | ", e->line);
    put_escaped(to, src);
    fputs("\n      | ", to);
    /* Keep tabs so the caret lines up under the column whatever the tab width; an escaped
     * byte takes four columns. */
    for (int i = 0; i + 1 < e->col && src[i]; i++)
        fputs(src[i] == '\t' ? "\t" : is_control((unsigned char)src[i]) ? "    " : " ", to);
    fputs("^\n", to);
}

void mc_diag_warn(void *user, const mc_error *w)
{
    (void)user;
    mc_diag_print(stderr, "warning", w);
}

int mc_input_exit_code(mc_status s)
{
    if (s == MC_OK || s == MC_ERR_NOMEM || s == MC_ERR_INTERRUPTED)
        return mc_exit_code(s);
    return MC_EXIT_INPUT;
}

int mc_exit_code(mc_status s)
{
    switch (s) {
    case MC_OK:
        return MC_EXIT_OK;
    case MC_ERR_SYNTAX:
    case MC_ERR_RANGE:
    case MC_ERR_LIMIT:
    case MC_ERR_MISMATCH:
    case MC_ERR_USAGE:
    case MC_ERR_IMAGE:
        return MC_EXIT_INPUT;
    case MC_ERR_INTERRUPTED:
        return MC_EXIT_INTERRUPT;
    case MC_ERR_NOMEM:
    case MC_ERR_IO:
    case MC_ERR_GL:
    case MC_ERR_CODEC:
        return MC_EXIT_RUNTIME;
    }
    return MC_EXIT_RUNTIME;
}

int mc_usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("md5cine: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return MC_EXIT_INPUT;
}

bool mc_cli_mkdirs(const char *path)
{
    return mc_mkdirs(path);
}

double mc_cli_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
