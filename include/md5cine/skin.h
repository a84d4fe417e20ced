/* skin: Doom 3 skin declarations (the base's skins/NAME.skin files), which replace the
 * materials of a model's surfaces:
 *
 *   skin skins/monsters/imp_red {            // "skin" may be left out in skins/
 *       model   models/monsters/imp.md5mesh  // the models it is meant for (not used)
 *       models/monsters/imp/imp   models/monsters/imp/imp_red
 *       models/monsters/imp/gun   textures/common/nodraw
 *       *                         models/x  // "*": every surface not matched above
 *   }
 *
 * Read as Doom reads them (framework/DeclSkin.cpp, idDeclSkin::Parse): tokens in pairs up to
 * the closing '}', any bytes but white space and braces making a token (or a "string"); a pair
 * whose first token is `model` (any case) names a model and is otherwise ignored; every other
 * pair maps a material (canonical name, decl_index.h) to another. A pair missing its second token
 * ("unexpected end of file") is an error at the first one. Remapping (idDeclSkin::
 * RemapShaderBySkin) takes the first mapping whose `from` is the surface's material or `*`;
 * a surface whose material Doom does not draw (no stages: textures/common/nodraw and the like)
 * is never remapped, and a surface mapped to such a material is hidden. The files are found
 * and the first declaration of a name wins as for materials (material.h). */
#ifndef MC_SKIN_H
#define MC_SKIN_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/mtr.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_skinfile_mapping {
    const char *from; /* canonical material name; NULL for "*" */
    const char *to;   /* canonical material name */
    int line, col;    /* position of the from token */
} mc_skinfile_mapping;

typedef struct mc_skinfile {
    const char *name; /* canonical */
    int line, col;    /* position of the declaration's first token */
    int num_mappings;
    mc_skinfile_mapping *mappings; /* in file order */
    mc_arena arena;            /* owns every pointer above */
} mc_skinfile;

/* Parses the skin declaration span of buf[0..len) (an index made by mc_decl_index_text with
 * the type "skin"); name names the file in errors. Errors: MC_ERR_SYNTAX (no '{', a pair
 * cut by the end of the text or the closing '}', a name longer than MC_LIMIT_NAME_LEN),
 * MC_ERR_LIMIT (more than MC_LIMIT_SKIN_MAPPINGS pairs), MC_ERR_NOMEM. On failure *out is
 * zeroed. */
mc_status mc_skinfile_parse_span(const char *buf, size_t len, const char *name,
                                 const mc_mtr_span *span, mc_skinfile *out, mc_error *err);

/* The material a surface of material `shader` (any spelling) gets under skin: the target of
 * the first matching mapping (canonical), or NULL when none matches (the surface keeps its
 * own). */
const char *mc_skinfile_remap(const mc_skinfile *skin, const char *shader);

/* Frees the skin and zeroes it; accepts a zeroed struct. */
void mc_skinfile_release(mc_skinfile *skin);

#ifdef __cplusplus
}
#endif

#endif
