/* The scene tests' helpers (tests/scene_test.c, tests/scene_textures_test.c): parsing a text,
 * writing files, and scratch folders made from the fixtures in data/scenes/ (run from tests/). */
#ifndef MC_TEST_SCENE_FIXTURE_H
#define MC_TEST_SCENE_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/fileio.h>
#include <md5cine/scene.h>

#include "test.h"

#define R(n) ((mc_rate){ (n), 1 })

static inline mc_status parse_text(const char *text, const char *name, mc_scene *s, mc_error *err)
{
    return mc_scene_parse(text, strlen(text), name, NULL, s, err);
}

static inline bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    bool ok;

    if (!f)
        return false;
    ok = fwrite(text, 1, strlen(text), f) == strlen(text);
    return fclose(f) == 0 && ok;
}

/* Writes dir/leaf as the fixture data/scenes/leaf, with the first `from` replaced by `to`
 * when from is not NULL (it must occur). */
static inline bool edit_fixture(const char *dir, const char *leaf, const char *from, const char *to)
{
    char src[512], dst[512], *text, *edited;
    const char *at;
    size_t n, cap;
    bool ok;

    snprintf(src, sizeof src, "data/scenes/%s", leaf);
    snprintf(dst, sizeof dst, "%s/%s", dir, leaf);
    if (mc_read_file(src, &text, &n, NULL) != MC_OK)
        return false;
    if (!from) {
        ok = write_text(dst, text);
        free(text);
        return ok;
    }
    at = strstr(text, from);
    cap = n + strlen(to) + 1;
    edited = malloc(cap);
    ok = at && edited;
    if (ok) {
        snprintf(edited, cap, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
        ok = write_text(dst, edited);
    }
    free(text);
    free(edited);
    return ok;
}

/* A fresh folder under the test scratch space holding arm.md5mesh and still.md5camera. */
static inline bool make_scene_dir(char *dir, size_t cap, const char *leaf)
{
    test_tmp_path(dir, cap, leaf);
    mkdir(dir, 0755);
    return edit_fixture(dir, "arm.md5mesh", NULL, NULL) &&
           edit_fixture(dir, "still.md5camera", NULL, NULL);
}

static inline bool touch(const char *dir, const char *leaf)
{
    char path[512];

    snprintf(path, sizeof path, "%s/%s", dir, leaf);
    return write_text(path, "x");
}

#endif
