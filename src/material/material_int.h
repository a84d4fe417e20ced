/* What the material resolution files share (src/material/): image_load.c (built-in images,
 * image files, borders, source lists), imgprog.c (image programs), material.c (one material
 * resolved), material_set.c (the set of a base's declarations). Calls go one way: material_set.c
 * calls material.c, which calls imgprog.c, which calls image_load.c. Not installed; nothing
 * outside src/material/ includes it. */
#ifndef MC_MATERIAL_INT_H
#define MC_MATERIAL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/vfs.h>

/* ---------------------------------------------------------------- text lists */

typedef struct strbuf {
    char *s;
    size_t len, cap;
    bool failed;
} strbuf;

void mat_sb_add(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One image of a material set, read once for every map that names the same program with the
 * same clamp mode (its key): the maps' image.pixels point at pixels. */
typedef struct cached_image {
    char *key; /* the program's canonical text, '|', the wrap mode */
    mc_image image;
    char *sources;
    bool fell_back;
} cached_image;

typedef struct image_cache {
    cached_image *items;
    int count, cap;
} image_cache;

/* Pixels read so far and the most allowed: one material's (mc_material_resolve), or a whole
 * material set's (MC_LIMIT_SCENE_IMAGE_PIXELS, or the scene's own setting). A set's images are
 * kept in its cache, so that each is read and counted once; a lone material has none. */
typedef struct px_budget {
    uint64_t used, limit;
    const char *what;   /* "its material", "the scene" */
    image_cache *cache; /* NULL: every map reads its own */
} px_budget;

void mat_cache_release(image_cache *c);

static inline uint8_t *px_at(const mc_image *im, int x, int y)
{
    return im->pixels + (size_t)y * im->stride + (size_t)x * 4;
}

bool mat_make_image(int w, int h, mc_image *img);
mc_status mat_load_image(const char *name, mc_vfs *vfs, const px_budget *room, mc_image *img,
                         bool *fell_back, strbuf *src, mc_error *err);
void mat_set_border(mc_image *im, const uint8_t v[4]);
mc_status mat_eval_program(const mc_mtr_prog *prog, mc_vfs *vfs, mc_image *out, bool *fell_back,
                           char **sources, px_budget *pixels, mc_error *err);
/* The cube map named by image prog (cubemap.c): its six faces one under another (px, nx, py,
 * ny, pz, nz), as mc_material_map describes; with a face missing or of another size, six
 * `_default` faces and *fell_back set. */
mc_status mat_eval_cube(const mc_mtr_prog *prog, mc_cube kind, mc_vfs *vfs, mc_image *out,
                        bool *fell_back, char **sources, px_budget *pixels, mc_error *err);
mc_status mat_resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs, px_budget *budget,
                      mc_material *out, mc_error *err);

#endif
