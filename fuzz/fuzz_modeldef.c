/* libFuzzer target: model declarations of def files (src/formats/modeldef.h) on arbitrary
 * bytes: the first model declaration found, parsed strictly. A parsed one holds its anims
 * within the limit, each with a name (and a file unless it is a `remove`); a failure is a sane
 * error inside the text. */
#include <stddef.h>
#include <stdint.h>

#include "formats/modeldef.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_arena arena = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;
    mc_status s;

    s = mc_modeldef_find((const char *)data, size, "fuzz.def", NULL, &arena, &m, &found, &err);
    if (s != MC_OK) {
        FUZZ_REQUIRE(found);
        FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_LIMIT ||
                     s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(s == MC_ERR_NOMEM ||
                     (err.line >= 1 && err.col >= 1 && err.line <= fuzz_line_count(data, size)));
        FUZZ_REQUIRE(m.name == NULL && m.num_anims == 0);
    } else if (found) {
        FUZZ_REQUIRE(m.name && m.line >= 1);
        FUZZ_REQUIRE(m.num_anims >= 0 && m.num_anims <= MC_LIMIT_MODELDEF_ANIMS);
        for (int i = 0; i < m.num_anims; i++)
            FUZZ_REQUIRE(m.anims[i].name && (m.anims[i].remove || m.anims[i].path));
    }
    mc_arena_release(&arena);
    return 0;
}
