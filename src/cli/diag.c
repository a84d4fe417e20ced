#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <md5cine/fileio.h>
#include <md5cine/refcheck.h>

#include "cli.h"

static void print_cached(FILE *to, const char *severity, const mc_error *e,
                         mc_source_cache *cache)
{
    char buf[2048], *big = NULL;
    size_t n = mc_error_format_cached(e, severity, cache, buf, sizeof buf);

    /* Escaped control bytes take four bytes each: a long line needs a second pass. */
    if (n >= sizeof buf && (big = malloc(n + 1)) != NULL)
        mc_error_format_cached(e, severity, cache, big, n + 1);
    fputs(big ? big : buf, to);
    free(big);
}

void mc_diag_print(FILE *to, const char *severity, const mc_error *e)
{
    print_cached(to, severity, e, NULL);
}

void mc_cli_wrote(const char *path, const char *fmt, ...)
{
    va_list ap;

    if (strcmp(path, "-") == 0)
        fputs("md5cine: wrote stdout: ", stderr);
    else
        fprintf(stderr, "md5cine: wrote '%s': ", path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void mc_cli_wrote_reports(const char *report_dir, const char *junit,
                          const struct mc_refcheck *check)
{
    mc_refcheck_summary s;

    mc_refcheck_get_summary(check, &s);
    if (report_dir) {
        char page[4200];
        size_t n = strlen(report_dir);

        /* one '/' between the folder and the page, however the folder was written */
        while (n > 1 && report_dir[n - 1] == '/')
            n--;
        snprintf(page, sizeof page, "%.*s%sindex.html", (int)n, report_dir,
                 n == 1 && report_dir[0] == '/' ? "" : "/");
        mc_cli_wrote(page, "review page, %lld frames checked, %lld not passed",
                     (long long)s.checked, (long long)(s.checked - s.passed));
    }
    if (junit)
        mc_cli_wrote(junit, "JUnit XML, %lld frames checked, %lld not passed",
                     (long long)s.checked, (long long)(s.checked - s.passed));
}

void mc_cli_print_check(const struct mc_refcheck *check, bool verbose, FILE *to)
{
    mc_refcheck_print_table_rows(check, verbose ? SIZE_MAX : MC_REFCHECK_TABLE_ROWS,
                                 " (--verbose lists them all)", to);
}

void mc_diag_warn(void *user, const mc_error *w)
{
    print_cached(stderr, "warning", w, user);
}

void mc_diag_error(void *user, const mc_error *e)
{
    print_cached(stderr, "error", e, user);
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
