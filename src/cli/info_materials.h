/* md5cine info's materials (info_materials.c), private to the command line: a resolved
 * material as text (--materials) or as the JSON member ,"material":{...}. */
#ifndef MC_CLI_INFO_MATERIALS_H
#define MC_CLI_INFO_MATERIALS_H

#include <md5cine/material.h>

/* GL's names of the blend factors, by mc_blend_factor. */
extern const char *const mc_info_blend_names[];

/* n floats as a JSON array, shortest round-trip text. */
void mc_info_print_floats_json(const float *v, int n);

/* ,"twoSided":true ... for the material switches (mtr_keywords.h) shown at level
 * (MC_MTR_INFO_DECL: the declarations, MC_MTR_INFO_MATERIAL: materials too), in the table's
 * order; text: ", twoSided" for the set ones. */
void mc_info_print_switches(unsigned flags, int level, bool text);

/* ,"material":{...} (null for no material). */
void mc_info_print_material_json(const mc_material *m);

/* " (material NAME, FILE:LINE)" and a line per map, layer and deform. */
void mc_info_print_material_text(const mc_material *m);

#endif
