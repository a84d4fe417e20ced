/* libFuzzer target: sound shaders (sndshd.h) on arbitrary bytes: the index of the bytes as a
 * sound/ file, every indexed shader parsed (with warnings counted), its implicit shader made,
 * its parameters overridden by themselves. A parsed shader keeps the engine's bounds (32 files,
 * a class 0..3, known flags and speakers, '/' paths); a failure is a sane error inside its span
 * with the shader zeroed. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <md5cine/limits.h>
#include <md5cine/sndshd.h>

#include "fuzz_decl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_warning(void *user, const mc_error *w)
{
    FUZZ_REQUIRE(w->msg[0] != '\0' && w->line >= 1 && w->col >= 1);
    ++*(int *)user;
}

static void check_samples(const mc_sndshd_sample *s, int n)
{
    FUZZ_REQUIRE(n >= 0 && n <= MC_SOUND_MAX_ENTRIES);
    for (int i = 0; i < n; i++) {
        FUZZ_REQUIRE(s[i].file && strlen(s[i].file) <= MC_LIMIT_NAME_LEN);
        FUZZ_REQUIRE(strchr(s[i].file, '\\') == NULL);
    }
}

static void check_shader(const mc_sndshd *sh, const mc_mtr_span *span)
{
    mc_sound_parms p;
    mc_sndshd imp;
    mc_error err;

    FUZZ_REQUIRE(strcmp(sh->name, span->name) == 0 && !sh->implicit && !sh->defaulted);
    FUZZ_REQUIRE(sh->line == span->line && sh->col == span->col);
    FUZZ_REQUIRE(sh->parms.sound_class >= 0 && sh->parms.sound_class < MC_SOUND_CLASSES);
    FUZZ_REQUIRE((sh->parms.flags & ~1023) == 0 && (sh->speaker_mask & ~63) == 0);
    FUZZ_REQUIRE(isfinite(sh->parms.volume) && isfinite(sh->parms.min_distance));
    check_samples(sh->entries, sh->num_entries);
    check_samples(sh->leadins, sh->num_leadins);
    mc_sndshd_override_parms(&sh->parms, &sh->parms, &p);
    FUZZ_REQUIRE(p.flags == sh->parms.flags && p.sound_class == sh->parms.sound_class);
    /* the implicit shader of the same name: one file, the name plus ".wav", or none */
    if (mc_sndshd_implicit(sh->name, &imp, &err) == MC_OK) {
        /* a name left with a '.' loses one more extension when canonicalised again */
        FUZZ_REQUIRE(imp.implicit && (strchr(sh->name, '.') || strcmp(imp.name, sh->name) == 0));
        FUZZ_REQUIRE(imp.num_entries == (imp.defaulted ? 0 : 1));
        FUZZ_REQUIRE(imp.defaulted ||
                     strncmp(imp.entries[0].file, imp.name, strlen(imp.name)) == 0);
        mc_sndshd_release(&imp);
    } else {
        FUZZ_REQUIRE(err.code == MC_ERR_SYNTAX || err.code == MC_ERR_NOMEM);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int warnings = 0;
    mc_parse_opts opts = { .warn = count_warning, .warn_user = &warnings };
    mc_mtr_index idx;
    mc_error err;
    mc_status s;

    if (!fuzz_index_decls(data, size, "fuzz.sndshd", "sound", &idx))
        return 0;
    for (int i = 0; i < idx.num_spans; i++) {
        mc_sndshd sh;

        s = mc_sndshd_parse_span((const char *)data, size, "fuzz.sndshd", &idx.spans[i], &opts, &sh,
                                 &err);
        if (s != MC_OK) {
            FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_NOMEM);
            FUZZ_REQUIRE(s == MC_ERR_NOMEM || (err.line >= idx.spans[i].line && err.col >= 1 &&
                                               err.line <= fuzz_line_count(data, size)));
            FUZZ_REQUIRE(strcmp(err.file, "fuzz.sndshd") == 0);
            FUZZ_REQUIRE(sh.name == NULL && sh.num_entries == 0 && sh.arena.head == NULL);
            continue;
        }
        FUZZ_REQUIRE(strcmp(sh.file, "fuzz.sndshd") == 0);
        check_shader(&sh, &idx.spans[i]);
        mc_sndshd_release(&sh);
    }
    FUZZ_REQUIRE(warnings >= 0);
    mc_mtr_index_release(&idx);
    return 0;
}
