/* The declaration index of a text (decl_index.h): where each `TYPE NAME { ... }` of the wanted
 * type is, found as Doom's DeclManager finds declarations (braces counted, the bodies not
 * parsed), and the names' canonical form. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/decl_index.h>
#include <md5cine/limits.h>

#include "base/decl_name.h"
#include "formats/decl_scan.h"

/* The declaration types Doom's DeclManager knows (idDeclManagerLocal::Init's RegisterDeclType
 * calls); a file may hold any of them. */
static const char *const DECL_TYPES[] = {
    "table", "material", "skin", "sound", "entityDef", "mapDef", "fx", "particle",
    "articulatedFigure", "pda", "email", "video", "audio",
};

static bool scan_is_type(const mc_scan_tok *t)
{
    for (size_t i = 0; i < sizeof DECL_TYPES / sizeof DECL_TYPES[0]; i++)
        if (mc_scan_is(t, DECL_TYPES[i]))
            return true;
    return false;
}

bool mc_mtr_fold_name(const char *name, size_t len, bool strip, char *buf, size_t cap)
{
    size_t n = len, i;

    for (i = strip ? len : 0; i > 0; i--) {
        if (name[i - 1] == '.') {
            n = i - 1;
            break;
        }
    }
    if (n + 1 > cap)
        return false;
    for (i = 0; i < n; i++) {
        char c = name[i];

        if (c == '\\')
            c = '/';
        else if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buf[i] = c;
    }
    buf[n] = '\0';
    return true;
}

bool mc_mtr_canonical(const char *name, size_t len, char *buf, size_t cap)
{
    return mc_mtr_fold_name(name, len, true, buf, cap);
}

/* What scan_decl found. */
enum { DECL_END, DECL_SKIP, DECL_FOUND };

/* The kind among types[0..n) (compared without case) of the type word t, or -1. */
static int kind_of(const mc_scan_tok *t, const char *const *types, int n)
{
    for (int k = 0; k < n; k++)
        if (mc_scan_is(t, types[k]))
            return k;
    return -1;
}

/* Reads the declaration whose first token first was just read, through its body: DECL_FOUND
 * with its name token in *nm and its kind among types in *kind (-1: none of them; untyped:
 * default_kind), DECL_SKIP for what Doom's loop reads on past, DECL_END at the end of the
 * text. */
static int scan_decl(mc_scan *s, const mc_scan_tok *first, const char *const *types, int n,
                     int default_kind, mc_scan_tok *nm, int *kind)
{
    mc_scan_tok t;

    *nm = *first;
    *kind = default_kind;
    if (mc_scan_brace(first, '}'))
        return DECL_SKIP; /* a stray '}': Doom's loop reads on */
    if (mc_scan_brace(first, '{')) {
        mc_scan_braced(s);
        return DECL_SKIP;
    }
    if (mc_scan_is(first, "guide")) {
        /* guide NAME template(args): to the end of its line, then an optional body. */
        while (s->p < s->end && *s->p != '\n')
            s->p++;
        return DECL_SKIP;
    }
    if (scan_is_type(first)) {
        if (!mc_scan_token(s, &t))
            return DECL_END;
        if (mc_scan_brace(&t, '{')) {
            /* "skin { ... }": a material named like a type word (Doom would read '{' as
             * the name and skip the body; md5cine reads it as the strict parser does). */
            *nm = *first;
        } else {
            *kind = kind_of(first, types, n);
            *nm = t;
            if (!mc_scan_token(s, &t))
                return DECL_END;
        }
    } else if (!mc_scan_token(s, &t)) {
        return DECL_END;
    }
    if (!mc_scan_brace(&t, '{'))
        return DECL_SKIP; /* "Expecting '{'": Doom warns and reads on from the next token */
    mc_scan_braced(s);
    return DECL_FOUND;
}

/* The index of one kind as it grows: the spans, their names' offsets in one pool of names. */
typedef struct index_build {
    mc_mtr_span *spans;
    size_t *name_at; /* per span: its name's offset in pool */
    int n, cap;
    char *pool;
    size_t pool_len, pool_cap;
} index_build;

/* Appends the span of the declaration from first to end named canon; false when out of
 * memory. */
static bool add_span(index_build *b, const mc_scan_tok *first, size_t end, const char *canon)
{
    size_t len = strlen(canon) + 1;

    if (b->n == b->cap) {
        int ncap = b->cap ? b->cap * 2 : 16;
        mc_mtr_span *ns = realloc(b->spans, (size_t)ncap * sizeof *ns);
        size_t *na;

        if (!ns)
            return false;
        b->spans = ns;
        if (!(na = realloc(b->name_at, (size_t)ncap * sizeof *na)))
            return false;
        b->name_at = na;
        b->cap = ncap;
    }
    if (b->pool_cap - b->pool_len < len) {
        size_t ncap = b->pool_cap ? b->pool_cap * 2 : 256;
        char *np;

        while (ncap - b->pool_len < len)
            ncap *= 2;
        if (!(np = realloc(b->pool, ncap)))
            return false;
        b->pool = np;
        b->pool_cap = ncap;
    }
    memcpy(b->pool + b->pool_len, canon, len);
    b->name_at[b->n] = b->pool_len;
    b->pool_len += len;
    b->spans[b->n++] = (mc_mtr_span){ .start = first->start, .end = end, .line = first->line,
                                      .col = first->col };
    return true;
}

/* Moves what b holds into out as one block of exactly its size: a base of many small
 * declaration files keeps a few hundred bytes per file, not an arena's block. */
static bool finish(index_build *b, const char *name, mc_mtr_index *out)
{
    size_t spans = (size_t)b->n * sizeof *b->spans, nlen = strlen(name) + 1;
    char *block = malloc(spans + nlen + b->pool_len);

    if (!block)
        return false;
    out->block = block;
    out->spans = b->n > 0 ? (mc_mtr_span *)(void *)block : NULL;
    if (b->n > 0)
        memcpy(block, b->spans, spans);
    out->name = memcpy(block + spans, name, nlen);
    if (b->pool_len)
        memcpy(block + spans + nlen, b->pool, b->pool_len);
    for (int i = 0; i < b->n; i++)
        out->spans[i].name = block + spans + nlen + b->name_at[i];
    out->num_spans = b->n;
    return true;
}

/* Reads the declarations of buf[0..len) into lists[kind] for each of types[0..n). */
static mc_status index_all(const char *buf, size_t len, const char *name, const char *const *types,
                           int n, int default_kind, const mc_parse_opts *opts,
                           index_build *lists, mc_error *err)
{
    mc_scan s = { .buf = buf, .p = buf, .end = buf + len, .line = 1, .line_start = buf };
    mc_scan_tok first, nm;
    size_t next_stop_check = 0;
    int kind;

    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB &&
        (unsigned char)buf[2] == 0xBF)
        s.p = s.line_start = buf + 3;
    while (mc_scan_token(&s, &first)) {
        char canon[MC_LIMIT_NAME_LEN + 1];
        int found;

        if ((size_t)(s.p - buf) >= next_stop_check) {
            if (opts && opts->stop && *opts->stop)
                return mc_error_set(err, MC_ERR_INTERRUPTED, name, first.line, first.col,
                                    "interrupted");
            next_stop_check = (size_t)(s.p - buf) + 65536;
        }
        found = scan_decl(&s, &first, types, n, default_kind, &nm, &kind);
        if (found == DECL_END)
            break;
        if (found == DECL_SKIP || kind < 0 || nm.len > MC_LIMIT_NAME_LEN || nm.len == 0 ||
            !mc_mtr_canonical(nm.text, nm.len, canon, sizeof canon))
            continue;
        if (lists[kind].n >= MC_LIMIT_MTR_DECLS)
            return mc_error_set(err, MC_ERR_LIMIT, name, first.line, first.col,
                                "more than %d declarations in one file", MC_LIMIT_MTR_DECLS);
        if (!add_span(&lists[kind], &first, (size_t)(s.p - buf), canon))
            return mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
    }
    return MC_OK;
}

mc_status mc_decl_index_kinds(const char *buf, size_t len, const char *name,
                              const char *default_type, const char *const *types, int n,
                              const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err)
{
    index_build lists[MC_DECL_MAX_KINDS] = { { 0 } };
    int default_kind = -1;
    mc_status st;

    if (n < 1 || n > MC_DECL_MAX_KINDS)
        return mc_error_set(err, MC_ERR_USAGE, name, 0, 0, "1 to %d kinds", MC_DECL_MAX_KINDS);
    if (!name)
        name = "";
    memset(out, 0, (size_t)n * sizeof *out);
    for (int k = 0; k < n; k++)
        if (strcasecmp(default_type, types[k]) == 0 && default_kind < 0)
            default_kind = k;
    st = index_all(buf, text_len(buf, len), name, types, n, default_kind, opts, lists, err);
    for (int k = 0; k < n; k++) {
        if (st == MC_OK && !finish(&lists[k], name, &out[k]))
            st = mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
        free(lists[k].spans);
        free(lists[k].name_at);
        free(lists[k].pool);
    }
    if (st != MC_OK)
        for (int k = 0; k < n; k++)
            mc_mtr_index_release(&out[k]);
    return st;
}

mc_status mc_decl_index_text(const char *buf, size_t len, const char *name,
                             const char *default_type, const char *type,
                             const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err)
{
    return mc_decl_index_kinds(buf, len, name, default_type, &type, 1, opts, out, err);
}

void mc_mtr_index_release(mc_mtr_index *index)
{
    if (!index)
        return;
    free(index->block);
    memset(index, 0, sizeof *index);
}
