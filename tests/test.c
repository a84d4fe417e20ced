#include "test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The harness is the one place with process state: the running totals of a test binary. */
static int failures_in_case;

bool test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failures_in_case++;
    return false;
}

void test_record_warning(void *user, const mc_error *w)
{
    test_warnings *log = user;

    if (log->count < TEST_WARN_KEEP)
        log->first[log->count] = *w;
    log->last = *w;
    log->count++;
}

char *test_tmp_path(char *out, size_t cap, const char *leaf)
{
    const char *dir = getenv("MC_TEST_TMP");

    snprintf(out, cap, "%s/%ld-%s", dir && *dir ? dir : "/tmp", (long)getpid(), leaf);
    return out;
}

static bool selected(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

int test_run(int argc, char **argv, const test_case *cases, size_t n)
{
    int passed = 0, failed = 0;

    for (size_t i = 0; i < n; i++) {
        if (!selected(argc, argv, cases[i].name))
            continue;
        failures_in_case = 0;
        cases[i].fn();
        if (failures_in_case) {
            fprintf(stderr, "FAIL %s\n", cases[i].name);
            failed++;
        } else {
            printf("ok   %s\n", cases[i].name);
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
