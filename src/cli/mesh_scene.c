/* The scene of a mesh rendered directly (mesh_scene.h). */
#include "mesh_scene.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
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

/* The turntable camera line framed around [lo, hi]: into text (cap bytes); false when it does
 * not fit. */
static bool camera_text(double seconds, mc_vec3 lo, mc_vec3 hi, char *text, size_t cap)
{
    /* 2.4 half diagonals away: the bounds' sphere inside a 90 degree view across a 16:9
     * output (half height 29.4 degrees: 1 / sin 29.4 = 2.04), with room around it */
    const double elev = 15.0 * M_PI / 180.0;
    double dx = (double)hi.x - (double)lo.x, dy = (double)hi.y - (double)lo.y,
           dz = (double)hi.z - (double)lo.z;
    double r = 0.5 * sqrt(dx * dx + dy * dy + dz * dz), d = 2.4 * (r > 1e-3 ? r : 1e-3);
    int n = snprintf(text, cap,
                     "camera { turntable { center ( %.9g %.9g %.9g ) radius %.9g height %.9g "
                     "aim 0 seconds %.9g } }\n",
                     0.5 * ((double)lo.x + (double)hi.x), 0.5 * ((double)lo.y + (double)hi.y),
                     0.5 * ((double)lo.z + (double)hi.z), d * cos(elev), d * sin(elev), seconds);

    return n > 0 && (size_t)n < cap;
}

/* The scene text of the model: into text (cap bytes); false when it does not fit. */
static bool scene_text(const char *mesh, const char *anim, double seconds, mc_vec3 lo, mc_vec3 hi,
                       char *text, size_t cap)
{
    const char *slash = strrchr(mesh, '/');
    const char *leaf = slash ? slash + 1 : mesh;
    int name_len = (int)strlen(leaf) - 8; /* the leaf without ".md5mesh" */
    char camera[256];
    int n;

    if (name_len < 1) {
        leaf = "mesh.md5mesh";
        name_len = 4;
    }
    if (!camera_text(seconds, lo, hi, camera, sizeof camera))
        return false;
    n = snprintf(text, cap, "md5scene 1\n%sactor \"%.*s\" { mesh \"%s\"%s%s%s }\n", camera,
                 name_len, leaf, mesh, anim ? " anim \"" : "", anim ? anim : "",
                 anim ? "\" loop 1" : "");
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

/* The scene of model name of base_abs: its actor plays anim (NULL: none) under the camera line;
 * parsed and resolved into out. An error placed in this text (the model or its anim not
 * declared) loses the place: the text is no file the user has. */
static mc_status model_scene(const char *name, const char *base_abs, const char *anim,
                             const char *camera, const mc_parse_opts *opts, mc_scene *out,
                             mc_error *err)
{
    char text[PATH_MAX + 3 * MC_LIMIT_NAME_LEN + 512];
    int n = snprintf(text, sizeof text,
                     "md5scene 1\nbase \"%s\"\n%sactor \"%s\" { model \"%s\"%s%s%s }\n", base_abs,
                     camera, name, name, anim ? " anim \"" : "", anim ? anim : "",
                     anim ? "\" loop 1" : "");
    mc_status st;

    if (n < 0 || (size_t)n >= sizeof text)
        return mc_error_set(err, MC_ERR_USAGE, name, 0, 0, "model name too long");
    st = mc_scene_parse(text, (size_t)n, name, opts, out, err);
    if (st == MC_OK && (st = mc_scene_resolve(out, opts, err)) != MC_OK)
        mc_scene_release(out);
    if (st != MC_OK && err && strcmp(err->file, name) == 0) {
        err->file[0] = '\0';
        err->line = err->col = 0;
    }
    return st;
}

/* The anim to play: want among the model's anims (exactly as declared), else "idle", else the
 * first; NULL when the model has none. want not declared is left to the scene's own error. */
static const char *pick_anim(const mc_scene_actor *a, const char *want)
{
    if (want)
        return want;
    for (int i = 0; i < a->num_model_anims; i++)
        if (strcmp(a->model_anims[i].name, MC_MODEL_SCENE_DEFAULT_ANIM) == 0)
            return a->model_anims[i].name;
    return a->num_model_anims > 0 ? a->model_anims[0].name : NULL;
}

mc_status mc_model_scene_load(const char *name, const char *anim, const char *base,
                              const mc_parse_opts *opts, mc_scene *out, mc_error *err)
{
    const char *still = "camera { turntable { center ( 0 0 0 ) radius 1 height 0 aim 0 seconds "
                        "1 } }\n";
    char base_abs[PATH_MAX], camera[256], played[MC_LIMIT_NAME_LEN + 1] = "";
    mc_parse_opts quiet = opts ? *opts : (mc_parse_opts){ 0 }; /* warnings once: the last load's */
    double seconds = MC_MESH_SCENE_SECONDS;
    mc_scene probe;
    mc_vec3 lo, hi;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (!name[0] || strpbrk(name, "\"\\") || (anim && strpbrk(anim, "\"\\")))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "'%s': a model's name has no '\"' or '\\'", name);
    if (!scene_path(base, base_abs, err))
        return err ? err->code : MC_ERR_IO;
    /* first the declaration's anims, then the anim played (for its bounds and length) */
    quiet.warn = NULL;
    if ((st = model_scene(name, base_abs, NULL, still, &quiet, &probe, err)) != MC_OK)
        return st;
    if (pick_anim(&probe.actors[0], anim)) {
        snprintf(played, sizeof played, "%s", pick_anim(&probe.actors[0], anim));
        mc_scene_release(&probe);
        if ((st = model_scene(name, base_abs, played, still, &quiet, &probe, err)) != MC_OK)
            return st;
    }
    if (played[0] && probe.actors[0].anim.num_frames > 1)
        seconds = fmax(seconds, (double)(probe.actors[0].anim.num_frames - 1) /
                                        probe.actors[0].anim.frame_rate);
    if (!model_bounds(&probe.actors[0].mesh, played[0] ? &probe.actors[0].anim : NULL, &lo, &hi))
        lo = hi = (mc_vec3){ 0, 0, 0 };
    /* the declaration's offset moves the model in its own space (scene.h) */
    lo = (mc_vec3){ lo.x + probe.actors[0].offset.x, lo.y + probe.actors[0].offset.y,
                    lo.z + probe.actors[0].offset.z };
    hi = (mc_vec3){ hi.x + probe.actors[0].offset.x, hi.y + probe.actors[0].offset.y,
                    hi.z + probe.actors[0].offset.z };
    mc_scene_release(&probe);
    if (!camera_text(seconds, lo, hi, camera, sizeof camera))
        return mc_error_set(err, MC_ERR_USAGE, name, 0, 0, "camera too long");
    return model_scene(name, base_abs, played[0] ? played : NULL, camera, opts, out, err);
}
