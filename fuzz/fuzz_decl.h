/* The declaration files' fuzz targets' shared first step (fuzz_entitydef.c, fuzz_sndshd.c). */
#ifndef MC_FUZZ_DECL_H
#define MC_FUZZ_DECL_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/mtr.h>

#include "fuzz_common.h"

/* Indexes data, as the file name, for the declarations of type; false when the index is refused,
 * which may only be for a limit or for memory. */
static inline bool fuzz_index_decls(const uint8_t *data, size_t size, const char *name,
                                    const char *type, mc_mtr_index *idx)
{
    mc_error err;
    mc_status s = mc_decl_index_text((const char *)data, size, name, type, type, NULL, idx, &err);

    if (s != MC_OK)
        FUZZ_REQUIRE(s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
    return s == MC_OK;
}

#endif
