/* Doom 3's entity declarations (entitydef.h), read as framework/DeclEntityDef.cpp's
 * idDeclEntityDef::Parse reads them, merged as its inherit keys ask. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/entitydef.h>
#include <md5cine/limits.h>
#include <md5cine/sndshd.h>

#include "formats/decl_scan.h"

/* ---------------------------------------------------------------- keys, without case */

/* An open-addressing index of the keys of a pair array (idDict's argHash): slots hold index + 1. */
typedef struct key_index {
    int *slots;
    size_t mask;
} key_index;

static uint32_t key_hash(const char *k)
{
    uint32_t h = 2166136261u;

    for (; *k; k++)
        h = (h ^ (uint32_t)tolower((unsigned char)*k)) * 16777619u;
    return h;
}

/* Room for n keys; false when out of memory. */
static bool kx_init(key_index *x, size_t n)
{
    size_t size = 16;

    while (size < 2 * n + 1)
        size *= 2;
    x->mask = size - 1;
    x->slots = calloc(size, sizeof *x->slots);
    return x->slots != NULL;
}

/* The slot of key among pairs: one holding it, or the empty one where it would go. */
static size_t kx_slot(const key_index *x, const mc_entitydef_pair *pairs, const char *key)
{
    size_t i = key_hash(key) & x->mask;

    while (x->slots[i] && strcasecmp(pairs[x->slots[i] - 1].key, key) != 0)
        i = (i + 1) & x->mask;
    return i;
}

/* ---------------------------------------------------------------- parsing */

typedef struct ed_parser {
    const char *name; /* the file, for errors */
    mc_entitydef *out;
    const mc_parse_opts *opts;
    mc_entitydef_pair *pairs; /* malloc'd: as read, then as kept */
    int n, cap;
} ed_parser;

static mc_status fail_at(ed_parser *p, mc_error *err, mc_status code, int line, int col,
                         const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static mc_status fail_at(ed_parser *p, mc_error *err, mc_status code, int line, int col,
                         const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(p->pairs);
    p->pairs = NULL;
    mc_arena_release(&p->out->arena);
    memset(p->out, 0, sizeof *p->out);
    return mc_error_set(err, code, p->name, line, col, "%s", msg);
}

static void describe(const mc_scan_tok *t, char *out, size_t cap)
{
    int n = t->len > 40 ? 40 : (int)t->len;

    snprintf(out, cap, "%s%.*s%s", t->string ? "'\"" : "'", n, t->text,
             t->len > 40 ? "...'"
             : t->string ? "\"'"
                         : "'");
    for (char *c = out; *c; c++)
        if ((unsigned char)*c < ' ' || (unsigned char)*c >= 0x7f)
            *c = '?';
}

/* Whether string token t was cut by the end of its line (or of the text). */
static bool cut_string(const mc_scan *s, const mc_scan_tok *t)
{
    return t->string && (t->text + t->len >= s->end || t->text[t->len] != '"');
}

/* Reads the pairs after the '{' into p->pairs, as read (duplicates kept). */
static mc_status read_pairs(ed_parser *p, mc_scan *s, mc_error *err)
{
    mc_scan_tok k, v;
    char d[64];

    while (mc_scan_token(s, &k) && !mc_scan_brace(&k, '}')) {
        mc_entitydef_pair *pr;

        describe(&k, d, sizeof d);
        if (!k.string || cut_string(s, &k))
            return fail_at(p, err, MC_ERR_SYNTAX, k.line, k.col,
                           k.string ? "string cut by the end of its line in entityDef '%s'%.0s"
                                    : "expected a quoted key in entityDef '%s', found %s",
                           p->out->name, d);
        if (!mc_scan_token(s, &v) || mc_scan_brace(&v, '{') || mc_scan_brace(&v, '}'))
            return fail_at(p, err, MC_ERR_SYNTAX, k.line, k.col,
                           "key %s of entityDef '%s' has no value", d, p->out->name);
        if (cut_string(s, &v))
            return fail_at(p, err, MC_ERR_SYNTAX, v.line, v.col,
                           "string cut by the end of its line in entityDef '%s'", p->out->name);
        if (p->n == MC_LIMIT_ENTITYDEF_PAIRS)
            return fail_at(p, err, MC_ERR_LIMIT, k.line, k.col,
                           "more than %d keys in entityDef '%s'", MC_LIMIT_ENTITYDEF_PAIRS,
                           p->out->name);
        if (p->n == p->cap) {
            int ncap = p->cap ? p->cap * 2 : 32;
            mc_entitydef_pair *grown = realloc(p->pairs, (size_t)ncap * sizeof *grown);

            if (!grown)
                return fail_at(p, err, MC_ERR_NOMEM, 0, 0, "out of memory");
            p->pairs = grown;
            p->cap = ncap;
        }
        pr = &p->pairs[p->n];
        *pr = (mc_entitydef_pair){ .file = p->out->file, .line = k.line, .col = k.col };
        pr->key = mc_arena_strndup(&p->out->arena, k.text, k.len);
        pr->value = mc_arena_strndup(&p->out->arena, v.text, v.len);
        if (!pr->key || !pr->value)
            return fail_at(p, err, MC_ERR_NOMEM, 0, 0, "out of memory");
        p->n++;
    }
    return MC_OK;
}

/* idDict::Set for each pair read (a key again: its value replaced, with the engine's warning),
 * then "classname"; the pairs kept replace p->pairs, one more slot left for classname. */
static mc_status keep_pairs(ed_parser *p, mc_error *err)
{
    mc_entitydef_pair *kept = malloc(((size_t)p->n + 1) * sizeof *kept);
    key_index x = { 0 };
    int n = 0;
    size_t slot;

    if (!kept || !kx_init(&x, (size_t)p->n + 1)) {
        free(kept);
        return fail_at(p, err, MC_ERR_NOMEM, 0, 0, "out of memory");
    }
    for (int i = 0; i < p->n; i++) {
        slot = kx_slot(&x, kept, p->pairs[i].key);
        if (!x.slots[slot]) {
            kept[n] = p->pairs[i];
            x.slots[slot] = ++n;
            continue;
        }
        if (p->opts && p->opts->warn) {
            mc_error w;

            mc_error_set(&w, MC_ERR_SYNTAX, p->name, p->pairs[i].line, p->pairs[i].col,
                         "'%s' already defined in entityDef '%s': the later value is kept",
                         p->pairs[i].key, p->out->name);
            p->opts->warn(p->opts->warn_user, &w);
        }
        kept[x.slots[slot] - 1].value = p->pairs[i].value;
        kept[x.slots[slot] - 1].line = p->pairs[i].line;
        kept[x.slots[slot] - 1].col = p->pairs[i].col;
    }
    /* "we always automatically set a classname key to our name" */
    slot = kx_slot(&x, kept, "classname");
    if (!x.slots[slot]) {
        kept[n] = (mc_entitydef_pair){ .key = "classname", .file = p->out->file };
        x.slots[slot] = ++n;
    }
    kept[x.slots[slot] - 1].value = p->out->name;
    kept[x.slots[slot] - 1].line = p->out->line;
    kept[x.slots[slot] - 1].col = p->out->col;
    free(x.slots);
    free(p->pairs);
    p->pairs = kept;
    p->n = n;
    return MC_OK;
}

/* The inherit keys (idDict::MatchPrefix("inherit"), without case) taken out in their order; the
 * rest copied into the arena. */
static mc_status split_inherits(ed_parser *p, mc_error *err)
{
    mc_entitydef *out = p->out;
    int inherits = 0;

    for (int i = 0; i < p->n; i++)
        inherits += strncasecmp(p->pairs[i].key, "inherit", 7) == 0;
    out->pairs = mc_arena_alloc(&out->arena, (size_t)(p->n - inherits), sizeof *out->pairs);
    out->inherits =
            inherits ? mc_arena_alloc(&out->arena, (size_t)inherits, sizeof *out->inherits) : NULL;
    if ((!out->pairs && p->n > inherits) || (inherits && !out->inherits))
        return fail_at(p, err, MC_ERR_NOMEM, 0, 0, "out of memory");
    for (int i = 0; i < p->n; i++) {
        if (strncasecmp(p->pairs[i].key, "inherit", 7) == 0)
            out->inherits[out->num_inherits++] = p->pairs[i];
        else
            out->pairs[out->num_pairs++] = p->pairs[i];
    }
    free(p->pairs);
    p->pairs = NULL;
    return MC_OK;
}

mc_status mc_entitydef_parse_span(const char *buf, size_t len, const char *name,
                                  const mc_mtr_span *span, const mc_parse_opts *opts,
                                  mc_entitydef *out, mc_error *err)
{
    ed_parser p = { .name = name ? name : "", .out = out, .opts = opts };
    mc_scan s;
    mc_scan_tok t, first;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (!buf || span->start > span->end || span->end > len || span->col < 1)
        return mc_error_set(err, MC_ERR_USAGE, name, span->line, span->col,
                            "declaration span outside the text");
    out->line = span->line;
    out->col = span->col;
    out->name = mc_arena_strndup(&out->arena, span->name, strlen(span->name));
    out->file = mc_arena_strndup(&out->arena, p.name, strlen(p.name));
    if (!out->name || !out->file)
        return fail_at(&p, err, MC_ERR_NOMEM, 0, 0, "out of memory");
    s = (mc_scan){ .buf = buf,
                   .p = buf + span->start,
                   .end = buf + span->end,
                   .line = span->line,
                   .line_start = buf + span->start - (span->col - 1) };
    /* idDeclEntityDef::Parse: SkipUntilString("{") */
    mc_scan_token(&s, &first);
    do {
        if (!mc_scan_token(&s, &t))
            return fail_at(&p, err, MC_ERR_SYNTAX, first.line, first.col,
                           "expected '{' after entityDef '%s'", out->name);
    } while (!mc_scan_brace(&t, '{'));
    /* The end of the text before a '}' ends the pairs (the engine's ReadToken loop stops). */
    if ((st = read_pairs(&p, &s, err)) != MC_OK || (st = keep_pairs(&p, err)) != MC_OK ||
        (st = split_inherits(&p, err)) != MC_OK)
        return st;
    return MC_OK;
}

/* ---------------------------------------------------------------- merging */

/* A copy of s in a, the last copy reused when s is the same pointer (files). */
static const char *copy_once(mc_arena *a, const char *s, const char **last_src, const char **last)
{
    if (s != *last_src) {
        *last_src = s;
        *last = mc_arena_strndup(a, s, strlen(s));
    }
    return *last;
}

/* Appends pr to out (an index of its keys in x) unless its key is there. */
static mc_status merge_one(mc_entitydef *out, key_index *x, const mc_entitydef_pair *pr,
                           const mc_entitydef *own, mc_error *err)
{
    size_t slot = kx_slot(x, out->pairs, pr->key);

    if (x->slots[slot])
        return MC_OK;
    if (out->num_pairs == MC_LIMIT_ENTITYDEF_PAIRS)
        return mc_error_set(err, MC_ERR_LIMIT, own->file, own->line, own->col,
                            "entityDef '%s' holds more than %d keys with those it inherits",
                            own->name, MC_LIMIT_ENTITYDEF_PAIRS);
    out->pairs[out->num_pairs] = *pr;
    x->slots[slot] = ++out->num_pairs;
    return MC_OK;
}

/* Makes out's strings its own (the pairs point into own's and the parents' arenas). */
static bool own_strings(mc_entitydef *out)
{
    const char *src = NULL, *copy = NULL;

    for (int i = 0; i < out->num_pairs; i++) {
        mc_entitydef_pair *pr = &out->pairs[i];

        pr->key = mc_arena_strndup(&out->arena, pr->key, strlen(pr->key));
        pr->value = mc_arena_strndup(&out->arena, pr->value, strlen(pr->value));
        pr->file = copy_once(&out->arena, pr->file, &src, &copy);
        if (!pr->key || !pr->value || !pr->file)
            return false;
    }
    for (int i = 0; i < out->num_inherits; i++) {
        mc_entitydef_pair *pr = &out->inherits[i];

        pr->key = mc_arena_strndup(&out->arena, pr->key, strlen(pr->key));
        pr->value = mc_arena_strndup(&out->arena, pr->value, strlen(pr->value));
        pr->file = copy_once(&out->arena, pr->file, &src, &copy);
        if (!pr->key || !pr->value || !pr->file)
            return false;
    }
    return true;
}

mc_status mc_entitydef_merge(const mc_entitydef *own, const mc_entitydef *const *parents,
                             mc_entitydef *out, mc_error *err)
{
    size_t total = (size_t)own->num_pairs;
    key_index x = { 0 };
    mc_status st = MC_OK;

    memset(out, 0, sizeof *out);
    for (int i = 0; i < own->num_inherits; i++)
        total += parents[i] ? (size_t)parents[i]->num_pairs : 0;
    if (total > MC_LIMIT_ENTITYDEF_PAIRS)
        total = MC_LIMIT_ENTITYDEF_PAIRS;
    *out = (mc_entitydef){ .line = own->line, .col = own->col, .merged = true };
    out->name = mc_arena_strndup(&out->arena, own->name, strlen(own->name));
    out->file = mc_arena_strndup(&out->arena, own->file, strlen(own->file));
    out->pairs = mc_arena_alloc(&out->arena, total + 1, sizeof *out->pairs);
    out->inherits =
            mc_arena_alloc(&out->arena, (size_t)own->num_inherits + 1, sizeof *out->inherits);
    if (!out->name || !out->file || !out->pairs || !out->inherits || !kx_init(&x, total))
        st = mc_error_set(err, MC_ERR_NOMEM, own->file, 0, 0, "out of memory");
    for (int i = 0; st == MC_OK && i < own->num_pairs; i++)
        st = merge_one(out, &x, &own->pairs[i], own, err);
    for (int i = 0; st == MC_OK && i < own->num_inherits; i++) {
        out->inherits[out->num_inherits++] = own->inherits[i];
        for (int k = 0; parents[i] && st == MC_OK && k < parents[i]->num_pairs; k++)
            st = merge_one(out, &x, &parents[i]->pairs[k], own, err);
    }
    free(x.slots);
    if (st == MC_OK && !own_strings(out))
        st = mc_error_set(err, MC_ERR_NOMEM, own->file, 0, 0, "out of memory");
    if (st != MC_OK)
        mc_entitydef_release(out);
    return st;
}

/* ---------------------------------------------------------------- lookups */

const mc_entitydef_pair *mc_entitydef_find(const mc_entitydef *def, const char *key)
{
    for (int i = 0; i < def->num_pairs; i++)
        if (strcasecmp(def->pairs[i].key, key) == 0)
            return &def->pairs[i];
    return NULL;
}

const char *mc_entitydef_value(const mc_entitydef *def, const char *key, const char *fallback)
{
    const mc_entitydef_pair *pr = mc_entitydef_find(def, key);

    return pr ? pr->value : fallback;
}

/* atof of key's value (fallback's when def has no key): strtod's leading number, 0 without one;
 * a value that reads as infinite or not a number is an error at the pair. */
static mc_status key_float(const mc_entitydef *def, const char *key, const char *fallback, float *v,
                           mc_error *err)
{
    const mc_entitydef_pair *pr = mc_entitydef_find(def, key);
    const char *s = pr ? pr->value : fallback;
    char *end;
    double d = strtod(s, &end);

    *v = end == s ? 0.0f : (float)d;
    if (pr && !isfinite(*v))
        return mc_error_set(err, MC_ERR_RANGE, pr->file, pr->line, pr->col,
                            "'%s' of entityDef '%s' is '%s', which is no finite number", pr->key,
                            def->name, pr->value);
    return MC_OK;
}

/* atoi of key's value: strtol's leading decimal number, 0 without one. */
static long key_long(const mc_entitydef *def, const char *key, const mc_entitydef_pair **at)
{
    const mc_entitydef_pair *pr = mc_entitydef_find(def, key);
    char *end;
    long v = pr ? strtol(pr->value, &end, 10) : 0;

    if (at)
        *at = pr;
    return pr && end != pr->value ? v : 0;
}

mc_status mc_entitydef_sound_parms(const mc_entitydef *def, mc_sound_parms *over, float *diversity,
                                   mc_error *err)
{
    static const struct {
        const char *key;
        int flag;
    } FLAGS[] = {
        { "s_omni", MC_SSF_OMNIDIRECTIONAL },   { "s_looping", MC_SSF_LOOPING },
        { "s_occlusion", MC_SSF_NO_OCCLUSION }, { "s_global", MC_SSF_GLOBAL },
        { "s_unclamped", MC_SSF_UNCLAMPED },
    };
    mc_sound_parms r = { 0 };
    const mc_entitydef_pair *at;
    float div;
    long cls;
    mc_status st;

    /* game/Entity.cpp, idGameEdit::ParseSpawnArgsToRefSound */
    if ((st = key_float(def, "s_mindistance", "0", &r.min_distance, err)) != MC_OK ||
        (st = key_float(def, "s_maxdistance", "0", &r.max_distance, err)) != MC_OK ||
        (st = key_float(def, "s_volume", "0", &r.volume, err)) != MC_OK ||
        (st = key_float(def, "s_shakes", "0", &r.shakes, err)) != MC_OK ||
        (st = key_float(def, "s_diversity", "-1", &div, err)) != MC_OK)
        return st;
    for (size_t i = 0; i < sizeof FLAGS / sizeof FLAGS[0]; i++)
        if (key_long(def, FLAGS[i].key, NULL) != 0)
            r.flags |= FLAGS[i].flag;
    cls = key_long(def, "s_soundClass", &at);
    if (cls < 0 || cls >= MC_SOUND_CLASSES)
        return mc_error_set(err, MC_ERR_RANGE, at->file, at->line, at->col,
                            "'%s' of entityDef '%s' is %ld, out of range 0 to %d", at->key,
                            def->name, cls, MC_SOUND_CLASSES - 1);
    r.sound_class = (int)cls;
    *over = r;
    if (diversity)
        *diversity = div;
    return MC_OK;
}

mc_status mc_entitydef_apply_sound(const mc_entitydef *def, mc_sound_parms *parms, mc_error *err)
{
    mc_sound_parms over;
    mc_status st = mc_entitydef_sound_parms(def, &over, NULL, err);

    if (st == MC_OK)
        mc_sndshd_override_parms(parms, &over, parms);
    return st;
}

void mc_entitydef_release(mc_entitydef *def)
{
    if (!def)
        return;
    mc_arena_release(&def->arena);
    memset(def, 0, sizeof *def);
}
