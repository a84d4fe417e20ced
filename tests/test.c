#include "test.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <dirent.h>
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

bool test_write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

bool test_bad_texture_scene(const char *leaf, char *out, size_t cap)
{
    char dir[900], cwd[1024], text[3200]; /* dir leaves room for test_write_file's names */

    if (!getcwd(cwd, sizeof cwd))
        return false;
    test_tmp_path(dir, sizeof dir, leaf);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return false;
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"%s/data/render/cuts.md5camera\"\n"
             "actor \"a\" { mesh \"%s/data/render/box.md5mesh\"\n"
             "    material \"box\" \"not_an_image.png\" }\n",
             cwd, cwd);
    snprintf(out, cap, "%s/scene.md5scene", dir);
    return test_write_file(dir, "not_an_image.png", "this is text\n") &&
           test_write_file(dir, "scene.md5scene", text);
}

const char test_quad_mesh[] =
        "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\n"
        "joints {\n\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
        "mesh {\nshader \"quad\"\nnumverts 4\n"
        "vert 0 ( 0 0 ) 0 1\nvert 1 ( 1 0 ) 1 1\nvert 2 ( 0 1 ) 2 1\nvert 3 ( 1 1 ) 3 1\n"
        "numtris 2\ntri 0 0 1 2\ntri 1 1 3 2\nnumweights 4\n"
        "weight 0 0 1 ( 0 25 25 )\nweight 1 0 1 ( 0 -25 25 )\n"
        "weight 2 0 1 ( 0 25 -25 )\nweight 3 0 1 ( 0 -25 -25 )\n}\n";
const char test_front_camera[] =
        "MD5Version 10\ncommandline \"\"\nnumFrames 1\nframeRate 24\n"
        "numCuts 0\ncuts {\n}\ncamera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n";

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

static test_case registered[TEST_MAX_CASES];
static int registered_line[TEST_MAX_CASES];
static size_t n_registered;

void test_register(const char *name, void (*fn)(void), int line)
{
    if (n_registered == TEST_MAX_CASES) {
        fprintf(stderr, "more than %d test cases in one file\n", TEST_MAX_CASES);
        exit(1);
    }
    /* insertion by line: the constructors' order is the compiler's */
    size_t i = n_registered++;
    for (; i > 0 && registered_line[i - 1] > line; i--) {
        registered[i] = registered[i - 1];
        registered_line[i] = registered_line[i - 1];
    }
    registered[i] = (test_case){ name, fn };
    registered_line[i] = line;
}

int test_main(int argc, char **argv)
{
    return test_run(argc, argv, registered, n_registered);
}

__attribute__((weak)) int main(int argc, char **argv)
{
    return test_main(argc, argv);
}

bool test_error_is(const char *file, int line, const test_error_case *c, mc_status st,
                   const mc_error *err, size_t row)
{
    if (st == c->code && err->line == c->line && err->col == c->col && strstr(err->msg, c->msg))
        return true;
    return test_fail(file, line, "row %zu (%s): got %s at %d:%d '%s', expected %s at %d:%d '%s'",
                     row, c->input, mc_status_name(st), err->line, err->col, err->msg,
                     mc_status_name(c->code), c->line, c->col, c->msg);
}

int test_count_entries(const char *dir, const char *part, bool hidden)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
             (hidden || e->d_name[0] != '.') && strstr(e->d_name, part) != NULL;
    closedir(d);
    return n;
}

bool test_touch(const char *path)
{
    FILE *f = fopen(path, "wb");

    return f && fclose(f) == 0;
}

bool test_error_at(const char *file, int line, const mc_error *e, int at_line, int at_col,
                   const char *msg)
{
    if (e->line == at_line && e->col == at_col && strstr(e->msg, msg))
        return true;
    return test_fail(file, line, "got %d:%d '%s', expected %d:%d '%s'", e->line, e->col, e->msg,
                     at_line, at_col, msg);
}
