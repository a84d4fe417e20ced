/* Replays inputs through a fuzz target's LLVMFuzzerTestOneInput without libFuzzer, so ctest
 * checks the corpus and every past crasher on any compiler:
 *
 *   fuzz_replay_<name> [--ext .suffix] PATH...
 *
 * A PATH that is a file is replayed; a folder is walked recursively (names starting with '.' and
 * README files skipped). --ext limits the folders walked after it to files with that suffix.
 * Each input is copied into a buffer of exactly its size, so reading past the end is caught by
 * AddressSanitizer. The target aborts on a broken invariant; a missing PATH is an error. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct replay {
    const char *ext; /* NULL: every file */
    long count;
} replay;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int replay_file(replay *r, const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long size;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "replay: cannot read '%s'\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    buf = malloc(size > 0 ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "replay: cannot read '%s'\n", path);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)size);
    free(buf);
    r->count++;
    return 0;
}

static int replay_path(replay *r, const char *path, bool top)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int rc = 0;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or folder '%s'\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return top || !r->ext || has_suffix(path, r->ext) ? replay_file(r, path) : 0;
    d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open folder '%s'\n", path);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        char child[4096];

        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        if (snprintf(child, sizeof child, "%s/%s", path, e->d_name) >= (int)sizeof child)
            continue;
        rc |= replay_path(r, child, false);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    replay r = { NULL, 0 };
    int rc = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ext") == 0 && i + 1 < argc)
            r.ext = argv[++i];
        else
            rc |= replay_path(&r, argv[i], true);
    }
    printf("replayed %ld inputs\n", r.count);
    return rc;
}
