/* Repeated warnings, counted (warn_repeats.h). */
#include "warn_repeats.h"

#include <stdlib.h>
#include <string.h>

static bool warnings_all(void)
{
    const char *env = getenv("MD5CINE_WARNINGS");

    return env && strcmp(env, "all") == 0;
}

/* The item of message msg, a new one when there is room (NULL when none: passed on). */
static mc_warn_repeat *item_of(mc_warn_repeats *r, const mc_error *w, bool *seen)
{
    mc_warn_repeat *it;

    for (int i = 0; i < r->count; i++)
        if (strcmp(r->items[i].msg, w->msg) == 0) {
            *seen = true;
            return &r->items[i];
        }
    *seen = false;
    if (r->count == MC_WARN_REPEATS_KEYS)
        return NULL;
    if (r->count == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        mc_warn_repeat *grown = realloc(r->items, (size_t)cap * sizeof *grown);

        if (!grown)
            return NULL;
        r->items = grown;
        r->cap = cap;
    }
    it = &r->items[r->count];
    it->msg = strdup(w->msg);
    it->file = strdup(w->file);
    it->more = 0;
    if (!it->msg || !it->file) {
        free(it->msg);
        free(it->file);
        return NULL;
    }
    r->count++;
    return it;
}

void mc_warn_repeats_fn(void *user, const mc_error *w)
{
    mc_warn_repeats *r = user;
    mc_warn_repeat *it;
    bool seen;

    if (!r->warn)
        return;
    if (!r->grouping || warnings_all() || !(it = item_of(r, w, &seen)) || !seen) {
        r->warn(r->user, w);
        return;
    }
    it->more++;
}

void mc_warn_repeats_flush(mc_warn_repeats *r)
{
    for (int i = 0; i < r->count; i++) {
        mc_error w;

        if (r->items[i].more > 0 && r->warn) {
            mc_error_set(&w, MC_ERR_SYNTAX, r->items[i].file, 0, 0,
                         "... and %d more like this: %s (MD5CINE_WARNINGS=all prints each)",
                         r->items[i].more, r->items[i].msg);
            r->warn(r->user, &w);
        }
        free(r->items[i].msg);
        free(r->items[i].file);
    }
    r->count = 0;
    r->grouping = false;
}

void mc_warn_repeats_release(mc_warn_repeats *r)
{
    for (int i = 0; i < r->count; i++) {
        free(r->items[i].msg);
        free(r->items[i].file);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}
