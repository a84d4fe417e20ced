/* libFuzzer target: skin declarations (skin.h) on arbitrary bytes: the index of the bytes as a
 * skins/ file, then every indexed skin parsed and a few shaders remapped. A parsed skin holds
 * canonical names within the limits; a failure is a sane error inside its span. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md5cine/skin.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_mtr_index idx;
    mc_error err;
    mc_status s = mc_decl_index_text((const char *)data, size, "fuzz.skin", "skin", "skin", NULL,
                                     &idx, &err);

    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
        return 0;
    }
    for (int i = 0; i < idx.num_spans; i++) {
        mc_skinfile skin;

        s = mc_skinfile_parse_span((const char *)data, size, "fuzz.skin", &idx.spans[i], &skin,
                                   &err);
        if (s != MC_OK) {
            FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
            FUZZ_REQUIRE(err.line >= idx.spans[i].line && err.col >= 1);
            FUZZ_REQUIRE(skin.num_mappings == 0 && skin.mappings == NULL);
            continue;
        }
        FUZZ_REQUIRE(strcmp(skin.name, idx.spans[i].name) == 0);
        for (int k = 0; k < skin.num_mappings; k++) {
            const mc_skinfile_mapping *m = &skin.mappings[k];

            FUZZ_REQUIRE(m->to && strlen(m->to) <= MC_LIMIT_NAME_LEN && strchr(m->to, '\\') == NULL);
            FUZZ_REQUIRE(!m->from || strlen(m->from) <= MC_LIMIT_NAME_LEN);
            /* Looked up with an extension added, the stored canonical name comes back (a name
             * may hold dots of its own; canonicalising drops one extension). */
            if (m->from) {
                char name[MC_LIMIT_NAME_LEN + 8];

                snprintf(name, sizeof name, "%s.tga", m->from);
                FUZZ_REQUIRE(strlen(m->from) + 4 > MC_LIMIT_NAME_LEN ||
                             mc_skinfile_remap(&skin, name) != NULL);
            }
        }
        (void)mc_skinfile_remap(&skin, "models/x");
        mc_skinfile_release(&skin);
    }
    mc_mtr_index_release(&idx);
    return 0;
}
