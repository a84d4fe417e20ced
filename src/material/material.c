/* Material resolution (material.h): one declaration's maps and layers. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/material.h>
#include <md5cine/mtr.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

#include "material/material_int.h"

/* ---------------------------------------------------------------- materials */

static void map_release(mc_material_map *m)
{
    if (!m->shared)
        mc_image_release(&m->image);
    free(m->program);
    free(m->sources);
    memset(m, 0, sizeof *m);
}

void mat_cache_release(image_cache *c)
{
    for (int i = 0; i < c->count; i++) {
        mc_image_release(&c->items[i].image);
        free(c->items[i].key);
        free(c->items[i].sources);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}

static const cached_image *cache_find(const image_cache *c, const char *key)
{
    for (int i = 0; i < c->count; i++)
        if (strcmp(c->items[i].key, key) == 0)
            return &c->items[i];
    return NULL;
}

/* Hands m's image to the cache under key; m then shares it. false when out of memory (m keeps
 * its own). */
static bool cache_keep(image_cache *c, const char *key, mc_material_map *m)
{
    cached_image *it;

    if (c->count == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        cached_image *grown = realloc(c->items, (size_t)cap * sizeof *grown);

        if (!grown)
            return false;
        c->items = grown;
        c->cap = cap;
    }
    it = &c->items[c->count];
    it->key = strdup(key);
    it->sources = m->sources ? strdup(m->sources) : NULL;
    if (!it->key || (m->sources && !it->sources)) {
        free(it->key);
        free(it->sources);
        return false;
    }
    it->image = m->image;
    it->fell_back = m->fell_back;
    c->count++;
    m->shared = true;
    return true;
}

/* Fills m's image, fell_back and sources from program prog under clamp mode wrap: read (and
 * counted in pixels) the first time, then from pixels->cache when there is one. */
static mc_status map_image(const mc_mtr_prog *prog, const char *text, mc_wrap wrap, mc_vfs *vfs,
                           mc_material_map *m, px_budget *pixels, mc_error *err)
{
    static const uint8_t zero[4] = { 0, 0, 0, 255 }, alpha_zero[4] = { 255, 255, 255, 0 };
    char key[1100];
    /* a program whose text was cut short may not be told from another: read on its own */
    bool keyed = pixels->cache && strlen(text) < 1023;
    const cached_image *hit;
    mc_status st;

    snprintf(key, sizeof key, "%s|%d", text, (int)wrap);
    hit = keyed ? cache_find(pixels->cache, key) : NULL;
    if (hit) {
        m->image = hit->image;
        m->shared = true;
        m->fell_back = hit->fell_back;
        m->sources = hit->sources ? strdup(hit->sources) : NULL;
        return hit->sources && !m->sources ? MC_ERR_NOMEM : MC_OK;
    }
    if (m->cube != MC_CUBE_NONE)
        st = mat_eval_cube(prog, m->cube, vfs, &m->image, &m->fell_back, &m->sources, pixels,
                           err);
    else
        st = mat_eval_program(prog, vfs, &m->image, &m->fell_back, &m->sources, pixels, err);
    if (st != MC_OK)
        return st;
    /* Image_load.cpp, idImage::GenerateImage: "zero the border if desired". */
    if (wrap == MC_WRAP_ZERO_CLAMP)
        mat_set_border(&m->image, zero);
    else if (wrap == MC_WRAP_ALPHA_ZERO_CLAMP)
        mat_set_border(&m->image, alpha_zero);
    return keyed && !cache_keep(pixels->cache, key, m) ? MC_ERR_NOMEM : MC_OK;
}

/* Runs image program prog into *m, with the stage colour color and clamp mode wrap; a cube
 * map's image (cube) instead: its program's text names it "cubeMap(NAME)" or
 * "cameraCubeMap(NAME)", and it clamps whatever the stage says (Image_load.cpp,
 * idImage::GenerateCubeImage: "no other clamp mode makes sense"). */
static mc_status fill_prog(const mc_mtr_prog *prog, mc_cube cube, const float color[4],
                           mc_wrap wrap, mc_vfs *vfs, mc_material_map *m, px_budget *pixels,
                           mc_error *err)
{
    char text[1024], name[1000];
    mc_status st;

    memset(m, 0, sizeof *m);
    m->cube = cube;
    mc_mtr_prog_text(prog, name, sizeof name);
    if (cube != MC_CUBE_NONE)
        wrap = MC_WRAP_CLAMP;
    snprintf(text, sizeof text, cube == MC_CUBE_NATIVE   ? "cubeMap(%s)"
                                : cube == MC_CUBE_CAMERA ? "cameraCubeMap(%s)"
                                                         : "%s",
             name);
    st = map_image(prog, text, wrap, vfs, m, pixels, err);
    if (st == MC_OK) {
        memcpy(m->color, color, sizeof m->color);
        m->wrap = wrap;
        m->present = true;
        m->program = strdup(text);
        if (!m->program)
            st = MC_ERR_NOMEM;
    }
    if (st == MC_ERR_NOMEM)
        mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st != MC_OK)
        map_release(m);
    return st;
}

static mc_status fill_map(const mc_mtr_stage *stage, mc_vfs *vfs, mc_material_map *m,
                          px_budget *pixels, mc_error *err)
{
    return fill_prog(stage->map, stage->cube, stage->color, stage->wrap, vfs, m, pixels, err);
}

void mc_material_release(mc_material *mat)
{
    if (!mat)
        return;
    mc_expr_program_free(&mat->expr);
    free(mat->name);
    free(mat->file);
    map_release(&mat->diffuse);
    map_release(&mat->normal);
    map_release(&mat->specular);
    map_release(&mat->falloff);
    for (int i = 0; i < mat->num_layers; i++)
        map_release(&mat->layers[i].map);
    free(mat->layers);
    memset(mat, 0, sizeof *mat);
}

/* Doom's coverage (Material.cpp, idMaterial::ParseMaterial, "automatically determine
 * coverage"): translucent when so declared, when there is no stage, or when no stage is lit and
 * the first one blends with what is drawn. */
/* Material.h, idMaterial::IsDrawn: a material with a stage. */
bool mc_material_drawn(const mc_material *m)
{
    return m->lit || m->num_layers > 0;
}

static bool coverage_translucent(const mc_mtr_decl *decl)
{
    mc_blend b;

    if ((decl->flags & MC_MTR_TRANSLUCENT) || decl->num_stages == 0)
        return true;
    for (int i = 0; i < decl->num_stages; i++)
        if (decl->stages[i].kind != MC_STAGE_COLOR)
            return false;
    b = decl->stages[0].blend;
    return b.dst != MC_BLEND_ZERO || b.src == MC_BLEND_DST_COLOR ||
           b.src == MC_BLEND_ONE_MINUS_DST_COLOR || b.src == MC_BLEND_DST_ALPHA ||
           b.src == MC_BLEND_ONE_MINUS_DST_ALPHA;
}

mc_status mc_material_resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs,
                              mc_material *out, mc_error *err)
{
    px_budget budget = { 0, MC_LIMIT_MATERIAL_PIXELS, "its material", NULL };

    return mat_resolve(decl, file, vfs, &budget, out, err);
}

/* The colour stages with a map of decl, layers of them, into out->layers (mat_resolve). */
static mc_status fill_layers(const mc_mtr_decl *decl, int layers, bool translucent, mc_vfs *vfs,
                             px_budget *budget, mc_material *out, mc_error *err)
{
    mc_status st = MC_OK;

    out->layers = calloc((size_t)layers, sizeof *out->layers);
    if (!out->layers)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (int i = 0; i < decl->num_stages && st == MC_OK; i++) {
        const mc_mtr_stage *s = &decl->stages[i];
        mc_material_layer *l = &out->layers[out->num_layers];

        if (s->kind != MC_STAGE_COLOR || !s->map)
            continue;
        st = fill_map(s, vfs, &l->map, budget, err);
        if (st != MC_OK)
            break;
        l->blend = s->blend;
        l->texgen = s->texgen;
        l->alpha_test = s->has_alpha_test ? s->alpha_test : 0.0f;
        memcpy(l->color, s->color, sizeof l->color);
        l->expr = s->expr;
        l->mask_red = s->mask_red;
        l->mask_green = s->mask_green;
        l->mask_blue = s->mask_blue;
        l->mask_alpha = s->mask_alpha;
        l->mask_depth = s->mask_depth;
        l->vertex_color = s->vertex_color;
        l->translucent = translucent;
        if (decl->expr.num_regs <= MC_EXPR_NUM_PREDEFINED) {
            /* a declaration made without the parser: constant 1 (mc_expr_program_copy) */
            l->expr.condition = MC_EXPR_NUM_PREDEFINED;
            for (int c = 0; c < 4; c++)
                l->expr.color[c] = MC_EXPR_NUM_PREDEFINED;
        }
        out->num_layers++;
    }
    return st;
}

mc_status mat_resolve(const mc_mtr_decl *decl, const char *file, mc_vfs *vfs, px_budget *budget,
                      mc_material *out, mc_error *err)
{
    bool translucent = coverage_translucent(decl);
    const mc_mtr_stage *lit[3] = { NULL, NULL, NULL };
    mc_material_map *maps[3];
    mc_status st = MC_OK;
    int layers = 0;

    memset(out, 0, sizeof *out);
    maps[0] = &out->diffuse;
    maps[1] = &out->normal;
    maps[2] = &out->specular;
    out->name = strdup(decl->name);
    out->file = file ? strdup(file) : NULL;
    if (!out->name || (file && !out->file))
        goto nomem;
    if (file) {
        out->line = decl->line;
        out->col = decl->col;
    }
    for (int i = 0; i < decl->num_stages; i++) {
        const mc_mtr_stage *s = &decl->stages[i];

        if (s->kind != MC_STAGE_COLOR && s->conditional)
            continue;
        if (s->kind != MC_STAGE_COLOR && !lit[s->kind] && s->map)
            lit[s->kind] = s;
        else if (s->kind == MC_STAGE_COLOR && s->map)
            layers++;
    }
    if (!mc_expr_program_copy(&decl->expr, &out->expr))
        goto nomem;
    out->lit = lit[0] || lit[1] || lit[2];
    out->diffuse_blend = (mc_blend){ MC_BLEND_ONE, MC_BLEND_ZERO };
    for (int k = 0; k < 3 && st == MC_OK; k++)
        if (lit[k])
            st = fill_map(lit[k], vfs, maps[k], budget, err);
    if (st == MC_OK && layers > 0)
        st = fill_layers(decl, layers, translucent, vfs, budget, out, err);
    if (st == MC_OK && decl->falloff) {
        /* Material.cpp, ParseMaterial: lightFalloffImage is loaded TR_CLAMP */
        static const float one[4] = { 1, 1, 1, 1 };

        st = fill_prog(decl->falloff, MC_CUBE_NONE, one, MC_WRAP_CLAMP, vfs, &out->falloff,
                       budget, err);
    }
    if (st != MC_OK) {
        mc_material_release(out);
        return st;
    }
    out->flags = decl->flags;
    out->alpha_test = lit[0] && lit[0]->has_alpha_test ? lit[0]->alpha_test
                      : decl->has_alpha_test           ? decl->alpha_test
                                                       : 0.0f;
    out->polygon_offset = decl->polygon_offset;
    out->deform = decl->deform;
    /* tr_render.cpp RB_CreateSingleDrawInteractions: the interaction takes the vertexColor of
     * the last of its diffuse and specular stages */
    if (lit[0] || lit[2])
        out->lit_vertex_color = (!lit[2] || (lit[0] && lit[0] > lit[2]) ? lit[0] : lit[2])
                                        ->vertex_color;
    return MC_OK;

nomem:
    mc_material_release(out);
    return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
}
