/* md5cine info's materials (info_materials.h). */
#include <stdio.h>

#include <md5cine/json.h>
#include <md5cine/material.h>

#include "info_materials.h"

const char *const mc_info_blend_names[] = {
    [MC_BLEND_ZERO] = "GL_ZERO",
    [MC_BLEND_ONE] = "GL_ONE",
    [MC_BLEND_DST_COLOR] = "GL_DST_COLOR",
    [MC_BLEND_ONE_MINUS_DST_COLOR] = "GL_ONE_MINUS_DST_COLOR",
    [MC_BLEND_SRC_ALPHA] = "GL_SRC_ALPHA",
    [MC_BLEND_ONE_MINUS_SRC_ALPHA] = "GL_ONE_MINUS_SRC_ALPHA",
    [MC_BLEND_DST_ALPHA] = "GL_DST_ALPHA",
    [MC_BLEND_ONE_MINUS_DST_ALPHA] = "GL_ONE_MINUS_DST_ALPHA",
    [MC_BLEND_SRC_ALPHA_SATURATE] = "GL_SRC_ALPHA_SATURATE",
    [MC_BLEND_SRC_COLOR] = "GL_SRC_COLOR",
    [MC_BLEND_ONE_MINUS_SRC_COLOR] = "GL_ONE_MINUS_SRC_COLOR",
};

static const char *const WRAP_NAMES[] = { "repeat", "clamp", "zeroclamp", "alphazeroclamp" };

/* n floats as a JSON array, each as written in the file (the shortest round trip). */
void mc_info_print_floats_json(const float *v, int n)
{
    printf("[");
    for (int i = 0; i < n; i++) {
        printf("%s", i ? "," : "");
        mc_json_write_float(stdout, v[i]);
    }
    printf("]");
}

static void print_map_json(const char *key, const mc_material_map *m)
{
    printf(",\"%s\":", key);
    if (!m->present) {
        printf("null");
        return;
    }
    printf("{\"program\":");
    mc_json_write_cstr(stdout, m->program);
    printf(",\"sources\":");
    mc_json_write_cstr(stdout, m->sources);
    printf(",\"width\":%d,\"height\":%d,\"fallback\":%s,\"color\":", m->image.width,
           m->image.height, m->fell_back ? "true" : "false");
    mc_info_print_floats_json(m->color, 4);
    printf(",\"wrap\":\"%s\"}", WRAP_NAMES[m->wrap]);
}

/* A material's deform by its keyword (material.h, mc_deform_kind order). */
static const char *const DEFORM_NAMES[] = { "",     "sprite",    "tube",    "flare",   "expand",
                                            "move", "turbulent", "eyeBall", "particle",
                                            "particle2" };
/* A stage's vertex colour keyword (types.h, mc_vertex_color order). */
static const char *const VERTEX_COLOR_NAMES[] = { "", "vertexColor", "inverseVertexColor" };

/* A stage's texgen by its keyword (types.h, mc_texgen order). */
static const char *const TEXGEN_NAMES[] = { "", "normal", "reflect", "skybox", "wobbleSky" };

void mc_info_print_switches(unsigned flags, int level, bool text)
{
    size_t n;
    const mc_mtr_keyword *kw = mc_mtr_keywords(&n);

    for (size_t i = 0; i < n; i++) {
        if (kw[i].info < level)
            continue;
        if (text && (flags & kw[i].bit))
            printf(", %s", kw[i].word);
        else if (!text)
            printf(",\"%s\":%s", kw[i].word, flags & kw[i].bit ? "true" : "false");
    }
}

void mc_info_print_material_json(const mc_material *m)
{
    if (!m) {
        printf(",\"material\":null");
        return;
    }
    printf(",\"material\":{\"name\":");
    mc_json_write_cstr(stdout, m->name);
    printf(",\"file\":");
    mc_json_write_cstr(stdout, m->file ? m->file : "");
    printf(",\"line\":%d,\"lit\":%s", m->line, m->lit ? "true" : "false");
    mc_info_print_switches(m->flags, MC_MTR_INFO_MATERIAL, false);
    printf(",\"alphaTest\":%.9g", (double)m->alpha_test);
    print_map_json("diffuse", &m->diffuse);
    print_map_json("normal", &m->normal);
    print_map_json("specular", &m->specular);
    printf(",\"layers\":[");
    for (int i = 0; i < m->num_layers; i++) {
        printf("%s{\"blend\":[\"%s\",\"%s\"]", i ? "," : "", mc_info_blend_names[m->layers[i].blend.src],
               mc_info_blend_names[m->layers[i].blend.dst]);
        print_map_json("map", &m->layers[i].map);
        {
            /* maskColor (all three colours) as "color", else each colour by name */
            const mc_material_layer *l = &m->layers[i];
            const bool color = l->mask_red && l->mask_green && l->mask_blue;
            const bool on[6] = { color, !color && l->mask_red, !color && l->mask_green,
                                 !color && l->mask_blue, l->mask_alpha, l->mask_depth };
            static const char *const names[6] = { "color", "red", "green", "blue", "alpha",
                                                  "depth" };
            const char *sep = "";

            printf(",\"mask\":[");
            for (int k = 0; k < 6; k++)
                if (on[k]) {
                    printf("%s\"%s\"", sep, names[k]);
                    sep = ",";
                }
            printf("]");
        }
        if (m->layers[i].texgen != MC_TEXGEN_EXPLICIT) /* only then, as the deform below */
            printf(",\"texgen\":\"%s\"", TEXGEN_NAMES[m->layers[i].texgen]);
        if (m->layers[i].vertex_color != MC_VERTEX_COLOR_IGNORE) /* only then, as deform */
            printf(",\"vertexColor\":\"%s\"", VERTEX_COLOR_NAMES[m->layers[i].vertex_color]);
        printf("}");
    }
    printf("]");
    if (m->lit_vertex_color != MC_VERTEX_COLOR_IGNORE)
        printf(",\"vertexColor\":\"%s\"", VERTEX_COLOR_NAMES[m->lit_vertex_color]);
    if (m->deform.kind != MC_DEFORM_NONE) /* only then: other materials' JSON is as it was */
        printf(",\"deform\":\"%s\"", DEFORM_NAMES[m->deform.kind]);
    printf("}");
}

static void print_map_text(const char *what, const mc_material_map *m)
{
    if (m->present)
        printf("        %s: %s <- %s (%dx%d)%s\n", what, m->program, m->sources, m->image.width,
               m->image.height, m->fell_back ? " FALLBACK" : "");
}

void mc_info_print_material_text(const mc_material *m)
{
    printf(" (material %s, %s:%d)\n", m->name, m->file ? m->file : "", m->line);
    print_map_text("diffuse", &m->diffuse);
    print_map_text("normal", &m->normal);
    print_map_text("specular", &m->specular);
    for (int i = 0; i < m->num_layers; i++) {
        char what[96];

        snprintf(what, sizeof what, "layer %d (blend %s, %s%s%s)", i + 1,
                 mc_info_blend_names[m->layers[i].blend.src], mc_info_blend_names[m->layers[i].blend.dst],
                 m->layers[i].texgen != MC_TEXGEN_EXPLICIT ? ", texgen " : "",
                 TEXGEN_NAMES[m->layers[i].texgen]);
        print_map_text(what, &m->layers[i].map);
    }
    if (m->deform.kind != MC_DEFORM_NONE)
        printf("        deform %s\n", DEFORM_NAMES[m->deform.kind]);
}

