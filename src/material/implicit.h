/* The implicit material of a name that no declaration gives (Material.cpp,
 * idMaterial::SetDefaultText): its own name as the image, unlit, `blend blend`, `colored`,
 * clamped. Used by src/scene for a shader that is neither a declared material nor an image
 * found as a file; not installed. */
#ifndef MC_MATERIAL_IMPLICIT_H
#define MC_MATERIAL_IMPLICIT_H

#include <md5cine/error.h>
#include <md5cine/material.h>

/* The implicit material of `name` (canonicalised: '\' as '/', lower case, extension after the
 * last '.' removed) when its image, NAME.dds, .tga, .jpg or .png, is in the set's base, loose
 * or inside a .pk4 archive; made once and owned by the set. NULL with MC_OK when no such image
 * is there (the engine's implicit material then draws nothing md5cine shows, the image being
 * missing); NULL with an error when reading the image failed (a limit, a damaged file). */
const mc_material *mc_material_set_implicit(mc_material_set *set, const char *name,
                                            mc_status *status, mc_error *err);

#endif
