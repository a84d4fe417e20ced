/* The scene of a mesh rendered directly (mesh_scene.h). */
#include "mesh_scene.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

bool mc_mesh_scene_is_mesh(const char *path)
{
    size_t n = path ? strlen(path) : 0;

    return n > 8 && strcasecmp(path + n - 8, ".md5mesh") == 0;
}

/* Grows [lo, hi] to hold p. */
static void grow(mc_vec3 *lo, mc_vec3 *hi, mc_vec3 p)
{
    lo->x = fminf(lo->x, p.x);
    lo->y = fminf(lo->y, p.y);
    lo->z = fminf(lo->z, p.z);
    hi->x = fmaxf(hi->x, p.x);
    hi->y = fmaxf(hi->y, p.y);
    hi->z = fmaxf(hi->z, p.z);
}

/* The bounds of the mesh's bind pose and of every frame of the anim (may be NULL); false when
 * there is no vertex and no frame, or out of memory. */
static bool model_bounds(const mc_mesh *mesh, const mc_anim *anim, mc_vec3 *lo, mc_vec3 *hi)
{
    bool any = false;

    *lo = (mc_vec3){ INFINITY, INFINITY, INFINITY };
    *hi = (mc_vec3){ -INFINITY, -INFINITY, -INFINITY };
    for (int s = 0; s < mesh->num_meshes; s++) {
        int n = mesh->meshes[s].num_verts;
        mc_vec3 *pos = malloc((size_t)(n > 0 ? n : 1) * sizeof *pos);

        if (!pos)
            return false;
        mc_skin_bind_positions(mesh, s, pos);
        for (int v = 0; v < n; v++)
            grow(lo, hi, pos[v]);
        any = any || n > 0;
        free(pos);
    }
    for (int f = 0; anim && f < anim->num_bounds; f++) {
        grow(lo, hi, anim->bounds[f].min);
        grow(lo, hi, anim->bounds[f].max);
        any = true;
    }
    return any;
}

/* The absolute path of a file a scene string can hold, in out; false with an error in err. */
static bool scene_path(const char *path, char *out, mc_error *err)
{
    if (!realpath(path, out)) {
        mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot read '%s'", path);
        return false;
    }
    if (strpbrk(out, "\"\\")) {
        mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                     "'%s': a path with '\"' or '\\' cannot be rendered directly; write a scene "
                     "file that names it",
                     out);
        return false;
    }
    return true;
}

/* The scene text of the model: into text (cap bytes); false when it does not fit. */
static bool scene_text(const char *mesh, const char *anim, double seconds, mc_vec3 lo, mc_vec3 hi,
                       char *text, size_t cap)
{
    /* 2.4 half diagonals away: the bounds' sphere inside a 90 degree view across a 16:9
     * output (half height 29.4 degrees: 1 / sin 29.4 = 2.04), with room around it */
    const double elev = 15.0 * M_PI / 180.0;
    double dx = (double)hi.x - (double)lo.x, dy = (double)hi.y - (double)lo.y,
           dz = (double)hi.z - (double)lo.z;
    double r = 0.5 * sqrt(dx * dx + dy * dy + dz * dz), d = 2.4 * (r > 1e-3 ? r : 1e-3);
    const char *slash = strrchr(mesh, '/');
    const char *leaf = slash ? slash + 1 : mesh;
    int name_len = (int)strlen(leaf) - 8; /* the leaf without ".md5mesh" */
    int n;

    if (name_len < 1) {
        leaf = "mesh.md5mesh";
        name_len = 4;
    }
    n = snprintf(text, cap,
                     "md5scene 1\n"
                     "camera { turntable { center ( %.9g %.9g %.9g ) radius %.9g height %.9g "
                     "aim 0 seconds %.9g } }\n"
                     "actor \"%.*s\" { mesh \"%s\"%s%s%s }\n",
                     0.5 * ((double)lo.x + (double)hi.x), 0.5 * ((double)lo.y + (double)hi.y),
                     0.5 * ((double)lo.z + (double)hi.z), d * cos(elev), d * sin(elev), seconds,
                     name_len, leaf, mesh, anim ? " anim \"" : "",
                     anim ? anim : "", anim ? "\" loop 1" : "");

    return n > 0 && (size_t)n < cap;
}

mc_status mc_mesh_scene_load(const char *mesh_path, const char *anim_path,
                             const mc_parse_opts *opts, mc_scene *out, mc_error *err)
{
    char mesh_abs[PATH_MAX], anim_abs[PATH_MAX], text[3 * PATH_MAX];
    mc_mesh mesh;
    mc_anim anim;
    mc_vec3 lo, hi;
    double seconds = MC_MESH_SCENE_SECONDS;
    mc_status st;
    bool bounded;

    memset(out, 0, sizeof *out);
    if ((st = mc_mesh_load(mesh_path, opts, &mesh, err)) != MC_OK)
        return st;
    if (anim_path && (st = mc_anim_load(anim_path, opts, &anim, err)) != MC_OK) {
        mc_mesh_release(&mesh);
        return st;
    }
    if (anim_path && anim.num_frames > 1)
        seconds = fmax(seconds, (double)(anim.num_frames - 1) / anim.frame_rate);
    bounded = model_bounds(&mesh, anim_path ? &anim : NULL, &lo, &hi);
    mc_mesh_release(&mesh);
    if (anim_path)
        mc_anim_release(&anim);
    if (!bounded)
        lo = hi = (mc_vec3){ 0, 0, 0 };
    if (!scene_path(mesh_path, mesh_abs, err) ||
        (anim_path && !scene_path(anim_path, anim_abs, err)))
        return err ? err->code : MC_ERR_IO;
    if (!scene_text(mesh_abs, anim_path ? anim_abs : NULL, seconds, lo, hi, text, sizeof text))
        return mc_error_set(err, MC_ERR_USAGE, mesh_path, 0, 0, "path too long");
    st = mc_scene_parse(text, strlen(text), mesh_path, opts, out, err);
    if (st == MC_OK && (st = mc_scene_resolve(out, opts, err)) != MC_OK)
        mc_scene_release(out);
    return st;
}
