/* The material switches: the keywords of a .mtr body that only turn something on, one row
 * each. The parser (src/material/mtr.c) sets the row's bit in mc_mtr_decl.flags, the material
 * (mc_material.flags) and the draw item (mc_draw_item.material_flags) carry the same bits to
 * the pass named in the row's comment, and `md5cine info` prints them from this table. A new
 * switch is one row here and the test of its bit in the pass that uses it
 * (docs/materials-and-shading.md, "Adding a keyword"). Doom's parser: Material.cpp
 * idMaterial::ParseMaterial; its flags Material.h (MF_*, cullType, coverage). */
#ifndef MC_MTR_KEYWORDS_H
#define MC_MTR_KEYWORDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which of info's outputs show a switch: none, the .mtr declarations (`info FILE.mtr`: JSON key
 * and ", keyword" in text) or those and a mesh's resolved materials (`info --json` of a model).
 * Rows print in table order, so a row's place fixes where its JSON key goes. */
enum { MC_MTR_INFO_NONE, MC_MTR_INFO_DECL, MC_MTR_INFO_MATERIAL };

/* X(ID, bit, "keyword as the .mtr spells it (and info's JSON key)", info) - where it takes
 * effect: */
#define MC_MTR_KEYWORDS(X)                                                                     \
    /* gpu/interaction.c: no face culling; scene_renderer.c: implies noShadows */              \
    X(TWO_SIDED, 0, "twoSided", MC_MTR_INFO_MATERIAL)                                          \
    /* material.c: coverage; gpu/render.c: drawn late, blended; interaction.c: no depth */     \
    X(TRANSLUCENT, 1, "translucent", MC_MTR_INFO_MATERIAL)                                     \
    /* gpu/shadow.c: casts no volume; interaction.c: back faces lit */                        \
    X(NO_SHADOWS, 2, "noShadows", MC_MTR_INFO_DECL)                                            \
    /* gpu/interaction.c, shadow.c: back faces lit, own volumes after its light (Material.h   \
     * MF_NOSELFSHADOW, Interaction.cpp localInteractions) */                                  \
    X(NO_SELF_SHADOW, 3, "noSelfShadow", MC_MTR_INFO_NONE)                                     \
    /* scene/scene_lights.c: a light material of Doom's ambient lights */                     \
    X(AMBIENT_LIGHT, 4, "ambientLight", MC_MTR_INFO_NONE)                                      \
    /* scene/unsmoothed.c: each vertex's tangents from its largest triangle (Material.cpp     \
     * unsmoothedTangents, tr_trisurf.cpp R_BuildDominantTris) */                              \
    X(UNSMOOTHED_TANGENTS, 5, "unsmoothedTangents", MC_MTR_INFO_NONE)

/* MC_MTR_TWO_SIDED, ...: the bits of the flags above. */
enum {
#define MC_MTR_KEYWORD_BIT(id, bit, word, info) MC_MTR_##id = 1u << (bit),
    MC_MTR_KEYWORDS(MC_MTR_KEYWORD_BIT)
#undef MC_MTR_KEYWORD_BIT
};

/* One row of the table. */
typedef struct mc_mtr_keyword {
    const char *word; /* as the .mtr spells it; info's JSON key */
    unsigned bit;     /* MC_MTR_TWO_SIDED, ... */
    int info;         /* MC_MTR_INFO_* */
} mc_mtr_keyword;

/* The table's rows in order; *count gets their number. */
const mc_mtr_keyword *mc_mtr_keywords(size_t *count);

/* The bit of the switch named word[0..len) (compared without case, as Doom's keywords are),
 * or 0 for a word that is none. */
unsigned mc_mtr_keyword_bit(const char *word, size_t len);

#ifdef __cplusplus
}
#endif

#endif
