/* Outputs never replace inputs (DESIGN.md 6): every command lists what it reads in an mc_guard
 * and asks it about each path it is going to write, before it writes anything. Paths are
 * compared by file identity (device and inode), so that "x", "./x", "dir/../x", a symbolic link
 * and a hard link to an input all count as the input. An input folder (a folder of reference
 * frames, the frames a comparison reads) may not hold an output at any depth: the folders above
 * the output are walked up to the root with openat(fd, ".."), which follows the real tree, not
 * the spelling of the path. */
#define _GNU_SOURCE /* O_PATH, realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* stat() of the archive a place names ("base/pak000.pk4:models/x.md5mesh": a model's file read
 * from a .pk4 archive, scene.h), which is the input a write could replace. */
static int stat_place(const char *path, struct stat *sb)
{
    char archive[4096];

    for (const char *p = path; (p = strchr(p, ':')) != NULL; p++)
        if (p - path >= 4 && strncasecmp(p - 4, ".pk4", 4) == 0 &&
            (size_t)(p - path) < sizeof archive) {
            snprintf(archive, sizeof archive, "%.*s", (int)(p - path), path);
            return stat(archive, sb);
        }
    return -1;
}

void mc_guard_add(mc_guard *g, const char *path)
{
    struct stat sb;

    if (!path || strcmp(path, "-") == 0 || (stat(path, &sb) != 0 && stat_place(path, &sb) != 0))
        return; /* nothing there: nothing to replace (reading it fails on its own) */
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        mc_guard_in *in = realloc(g->in, cap * sizeof *in);

        if (!in) {
            g->nomem = true;
            return;
        }
        g->in = in;
        g->cap = cap;
    }
    g->in[g->n++] = (mc_guard_in){ path, sb.st_dev, sb.st_ino, S_ISDIR(sb.st_mode) };
}

void mc_guard_add_scene(mc_guard *g, const mc_scene *s)
{
    mc_guard_add(g, s->name);
    mc_guard_add(g, s->camera_path);
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        mc_guard_add(g, a->mesh_path);
        mc_guard_add(g, a->anim_path);
        mc_guard_add(g, a->model_file);
        for (int m = 0; a->textures && m < a->mesh.num_meshes; m++)
            mc_guard_add(g, a->textures[m]);
    }
}

void mc_guard_release(mc_guard *g)
{
    free(g->in);
    memset(g, 0, sizeof *g);
}

/* The input folder that holds the folder open as fd (or is it), or NULL. Closes fd. */
static const mc_guard_in *folder_holding(const mc_guard *g, int fd)
{
    struct stat cur, up;

    for (int depth = 0; fd >= 0 && depth < 4096 && fstat(fd, &cur) == 0; depth++) {
        int parent;

        for (size_t i = 0; i < g->n; i++)
            if (g->in[i].dir && g->in[i].dev == cur.st_dev && g->in[i].ino == cur.st_ino) {
                close(fd);
                return &g->in[i];
            }
        parent = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = parent;
        if (fd >= 0 && fstat(fd, &up) == 0 && up.st_dev == cur.st_dev && up.st_ino == cur.st_ino)
            break; /* the root is its own parent */
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

/* Opens the folder the output goes into: the output itself when it is a folder, else the
 * nearest existing folder above it in its spelling (missing ones are made inside that one). */
static int open_output_folder(const char *out, bool is_dir)
{
    char buf[MC_GUARD_PATH_CAP];
    size_t n = strlen(out);

    if (is_dir)
        return open(out, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, out, n + 1);
    for (;;) {
        char *slash;
        int fd;

        while (n > 1 && buf[n - 1] == '/')
            buf[--n] = '\0';
        slash = strrchr(buf, '/');
        if (!slash)
            return open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (slash == buf)
            return open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        *slash = '\0';
        n = (size_t)(slash - buf);
        fd = open(buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0 || errno != ENOENT)
            return fd; /* -1 through a file (ENOTDIR): nothing can be made there */
    }
}

int mc_guard_output(const mc_guard *g, const char *opt, const char *out)
{
    struct stat sb;
    bool exists;
    const mc_guard_in *in;
    char real[PATH_MAX];
    const char *out_real;

    if (g->nomem) {
        fputs("md5cine: error: out of memory\n", stderr);
        return MC_EXIT_RUNTIME;
    }
    if (!out || strcmp(out, "-") == 0)
        return -1;
    out_real = *out ? out : ".";
    exists = stat(out_real, &sb) == 0;
    for (size_t i = 0; exists && i < g->n; i++)
        if (!g->in[i].dir && g->in[i].dev == sb.st_dev && g->in[i].ino == sb.st_ino) {
            fprintf(stderr,
                    "md5cine: error: %s '%s' is the input '%s'; refusing to replace an input\n",
                    opt, out, g->in[i].path);
            return MC_EXIT_INPUT;
        }
    if (exists && !S_ISDIR(sb.st_mode) && realpath(out, real))
        out_real = real; /* a link's target is what a write would reach */
    in = folder_holding(g, open_output_folder(out_real, exists && S_ISDIR(sb.st_mode)));
    if (in) {
        fprintf(stderr,
                "md5cine: error: %s '%s' lies inside the input folder '%s'; refusing to write "
                "into an input\n",
                opt, out, in->path);
        return MC_EXIT_INPUT;
    }
    return -1;
}
