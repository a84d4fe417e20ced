/* libFuzzer target: mc_mtr_parse on arbitrary bytes, then the engine's way: the index of the
 * same bytes, and each indexed declaration parsed alone (its errors positioned inside the
 * text, its name the index's). A parsed file must hold what mtr.h
 * promises: canonical names, stage and nesting counts within the limits, blends and kinds in
 * range, every image program well formed (its text can be written); a failure must be a sane
 * error. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/mtr.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_prog(const mc_mtr_prog *g, int depth)
{
    FUZZ_REQUIRE(g && depth <= MC_LIMIT_MTR_PROG_DEPTH + 1);
    FUZZ_REQUIRE(g->line >= 1 && g->col >= 1);
    switch (g->kind) {
    case MC_PROG_IMAGE:
        FUZZ_REQUIRE(g->name && strlen(g->name) <= MC_LIMIT_NAME_LEN);
        for (const char *p = g->name; *p; p++)
            FUZZ_REQUIRE(*p != '\\' && !(*p >= 'A' && *p <= 'Z'));
        return 1;
    case MC_PROG_ADD:
    case MC_PROG_ADDNORMALS:
        return check_prog(g->arg[0], depth + 1) + check_prog(g->arg[1], depth + 1);
    default:
        FUZZ_REQUIRE(g->kind <= MC_PROG_MAKE_ALPHA);
        return check_prog(g->arg[0], depth + 1);
    }
}

static void check_index(const uint8_t *data, size_t size)
{
    mc_mtr_index idx;
    mc_error err;
    mc_status s = mc_mtr_index_text((const char *)data, size, "fuzz.mtr", NULL, &idx, &err);

    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
        return;
    }
    for (int i = 0; i < idx.num_spans; i++) {
        const mc_mtr_span *sp = &idx.spans[i];
        mc_mtr_file one;

        FUZZ_REQUIRE(sp->start < sp->end && sp->end <= size && sp->line >= 1 && sp->col >= 1);
        FUZZ_REQUIRE(i == 0 || sp->start >= idx.spans[i - 1].end);
        s = mc_mtr_parse_span((const char *)data, size, "fuzz.mtr", sp, NULL, &one, &err);
        if (s != MC_OK) {
            /* in the declaration, or (a table it names that does not parse) where that table
             * is, anywhere in the file */
            FUZZ_REQUIRE(err.line >= sp->line || (err.line >= 1 && err.col >= 1));
            continue;
        }
        FUZZ_REQUIRE(one.num_decls == 1 && strcmp(one.decls[0].name, sp->name) == 0);
        mc_mtr_release(&one);
    }
    mc_mtr_index_release(&idx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_mtr_file f;
    mc_error err;
    mc_parse_opts opts = { .lenient = (size & 1) != 0 };
    mc_status s = mc_mtr_parse((const char *)data, size, "fuzz.mtr", &opts, &f, &err);
    char text[512];

    check_index(data, size);
    if (s != MC_OK) {
        fuzz_check_error(s, &err, "fuzz.mtr", data, size);
        FUZZ_REQUIRE(f.num_decls == 0 && f.decls == NULL);
        return 0;
    }
    FUZZ_REQUIRE(f.num_decls >= 0 && f.num_decls <= MC_LIMIT_MTR_DECLS);
    for (int i = 0; i < f.num_decls; i++) {
        const mc_mtr_decl *d = &f.decls[i];

        FUZZ_REQUIRE(d->name && strchr(d->name, '\\') == NULL &&
                     strlen(d->name) <= MC_LIMIT_NAME_LEN);
        /* Looking a name up canonicalises it once more: with an extension added, the stored
         * name comes back (a name may hold dots of its own, "a.b/c"). */
        snprintf(text, sizeof text, "%s.tga", d->name);
        FUZZ_REQUIRE(mc_mtr_find(&f, text) == d);
        FUZZ_REQUIRE(d->num_stages >= 0 && d->num_stages <= MC_LIMIT_MTR_STAGES);
        FUZZ_REQUIRE(!d->has_alpha_test || (d->alpha_test >= 0.0f && d->alpha_test <= 1.0f));
        for (int k = 0; k < d->num_stages; k++) {
            const mc_mtr_stage *st = &d->stages[k];

            FUZZ_REQUIRE(st->kind <= MC_STAGE_COLOR);
            FUZZ_REQUIRE(st->blend.src <= MC_BLEND_ONE_MINUS_SRC_COLOR &&
                         st->blend.dst <= MC_BLEND_ONE_MINUS_SRC_COLOR);
            /* A lit stage may name no map (`{ blend bumpmap }`): Doom accepts it, and so does
             * the parser; material resolution gives it no image. */
            if (st->map) {
                FUZZ_REQUIRE(check_prog(st->map, 1) >= 1);
                mc_mtr_prog_text(st->map, text, sizeof text);
                FUZZ_REQUIRE(strlen(text) < sizeof text);
            }
        }
    }
    mc_mtr_release(&f);
    return 0;
}
