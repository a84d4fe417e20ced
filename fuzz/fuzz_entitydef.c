/* libFuzzer target: entity declarations (entitydef.h) on arbitrary bytes: the index of the bytes
 * as a def/ file, every indexed entityDef parsed, merged with the declarations of the same bytes
 * it inherits (one level, the first of each name), and its sound keys read. A parsed declaration
 * holds unique keys (without case) with classname its name and no inherit key; a merged one
 * holds every own pair unchanged and every parent key; a failure is a sane error inside the
 * text, the declaration zeroed. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <md5cine/entitydef.h>
#include <md5cine/limits.h>

#include "fuzz_decl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DEFS 64 /* declarations of one input parsed and merged */

static void check_unique(const mc_entitydef *d)
{
    FUZZ_REQUIRE(d->num_pairs >= 1 && d->num_pairs <= MC_LIMIT_ENTITYDEF_PAIRS);
    if (d->num_pairs > 256)
        return;
    for (int i = 0; i < d->num_pairs; i++) {
        FUZZ_REQUIRE(d->pairs[i].key && d->pairs[i].value && d->pairs[i].file);
        for (int k = 0; k < i; k++)
            FUZZ_REQUIRE(strcasecmp(d->pairs[i].key, d->pairs[k].key) != 0);
    }
}

static void check_parsed(const mc_entitydef *d, const mc_mtr_span *span)
{
    check_unique(d);
    FUZZ_REQUIRE(strcmp(d->name, span->name) == 0 && !d->merged);
    FUZZ_REQUIRE(strcmp(mc_entitydef_value(d, "classname", ""), d->name) == 0);
    for (int i = 0; i < d->num_pairs; i++)
        FUZZ_REQUIRE(strncasecmp(d->pairs[i].key, "inherit", 7) != 0);
    for (int i = 0; i < d->num_inherits; i++)
        FUZZ_REQUIRE(strncasecmp(d->inherits[i].key, "inherit", 7) == 0);
}

static void check_sound(const mc_entitydef *d)
{
    mc_sound_parms over, parms = { 1.0f, 10.0f, 1.0f, 0.0f, 0, 0 };
    mc_error err;
    float div;
    mc_status s = mc_entitydef_sound_parms(d, &over, &div, &err);

    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_RANGE && err.line >= 1 && err.col >= 1);
        FUZZ_REQUIRE(mc_entitydef_apply_sound(d, &parms, &err) == MC_ERR_RANGE);
        FUZZ_REQUIRE(parms.volume == 1.0f && parms.max_distance == 10.0f);
        return;
    }
    FUZZ_REQUIRE(isfinite(over.volume) && isfinite(over.min_distance) && isfinite(div));
    FUZZ_REQUIRE(over.sound_class >= 0 && over.sound_class < MC_SOUND_CLASSES);
    FUZZ_REQUIRE(mc_entitydef_apply_sound(d, &parms, &err) == MC_OK);
    FUZZ_REQUIRE(parms.volume == (over.volume != 0.0f ? over.volume : 1.0f));
    FUZZ_REQUIRE(parms.flags == over.flags);
}

/* Merges own with the parsed declarations it names (the first of each name among defs). */
static void check_merge(const mc_entitydef *own, const mc_entitydef *defs, int n)
{
    const mc_entitydef *parents[MAX_DEFS];
    mc_entitydef m;
    mc_error err;
    mc_status s;

    if (own->num_inherits > MAX_DEFS)
        return;
    for (int i = 0; i < own->num_inherits; i++) {
        parents[i] = NULL;
        for (int k = 0; k < n && !parents[i]; k++)
            if (defs[k].name && strcasecmp(defs[k].name, own->inherits[i].value) == 0)
                parents[i] = &defs[k];
    }
    s = mc_entitydef_merge(own, parents, &m, &err);
    if (s != MC_OK) {
        FUZZ_REQUIRE(s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(m.pairs == NULL && m.num_pairs == 0);
        return;
    }
    check_unique(&m);
    FUZZ_REQUIRE(m.merged && m.num_inherits == own->num_inherits);
    for (int i = 0; i < own->num_pairs; i++) {
        FUZZ_REQUIRE(strcmp(m.pairs[i].key, own->pairs[i].key) == 0);
        FUZZ_REQUIRE(strcmp(m.pairs[i].value, own->pairs[i].value) == 0);
    }
    for (int i = 0; i < own->num_inherits; i++)
        for (int k = 0; parents[i] && k < parents[i]->num_pairs; k++)
            FUZZ_REQUIRE(mc_entitydef_find(&m, parents[i]->pairs[k].key) != NULL);
    check_sound(&m);
    mc_entitydef_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_entitydef defs[MAX_DEFS];
    mc_mtr_index idx;
    mc_error err;
    mc_status s;
    int n;

    if (!fuzz_index_decls(data, size, "fuzz.def", "entityDef", &idx))
        return 0;
    n = idx.num_spans < MAX_DEFS ? idx.num_spans : MAX_DEFS;
    for (int i = 0; i < n; i++) {
        s = mc_entitydef_parse_span((const char *)data, size, "fuzz.def", &idx.spans[i], NULL,
                                    &defs[i], &err);
        if (s != MC_OK) {
            FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_LIMIT || s == MC_ERR_NOMEM);
            FUZZ_REQUIRE(s == MC_ERR_NOMEM || (err.line >= idx.spans[i].line && err.col >= 1 &&
                                               err.line <= fuzz_line_count(data, size)));
            FUZZ_REQUIRE(strcmp(err.file, "fuzz.def") == 0);
            FUZZ_REQUIRE(defs[i].name == NULL && defs[i].num_pairs == 0);
            continue;
        }
        check_parsed(&defs[i], &idx.spans[i]);
        check_sound(&defs[i]);
    }
    for (int i = 0; i < n; i++)
        if (defs[i].name)
            check_merge(&defs[i], defs, n);
    for (int i = 0; i < n; i++)
        mc_entitydef_release(&defs[i]);
    mc_mtr_index_release(&idx);
    return 0;
}
