/* Doom 3 skin declarations (skin.h). */
#include <string.h>

#include <md5cine/limits.h>
#include <md5cine/skin.h>

#include "formats/decl_scan.h"

static mc_status fail_at(mc_skinfile *out, mc_error *err, mc_status code, const char *file,
                         const mc_scan_tok *t, const char *msg)
{
    mc_arena_release(&out->arena);
    memset(out, 0, sizeof *out);
    return mc_error_set(err, code, file, t->line, t->col, "%s", msg);
}

/* A canonical copy of t's text in the skin's arena, or NULL (too long, or out of memory:
 * *code says which). */
static const char *canonical(mc_skinfile *out, const mc_scan_tok *t, mc_status *code)
{
    char buf[MC_LIMIT_NAME_LEN + 1];

    *code = MC_ERR_SYNTAX;
    if (t->len == 0 || t->len > MC_LIMIT_NAME_LEN || !mc_mtr_canonical(t->text, t->len, buf, sizeof buf))
        return NULL;
    *code = MC_ERR_NOMEM;
    return mc_arena_strndup(&out->arena, buf, strlen(buf));
}

mc_status mc_skinfile_parse_span(const char *buf, size_t len, const char *name,
                                 const mc_mtr_span *span, mc_skinfile *out, mc_error *err)
{
    mc_scan s;
    mc_scan_tok first, t, t2;
    mc_status code;
    int cap = 0;

    memset(out, 0, sizeof *out);
    if (!buf || span->start > span->end || span->end > len || span->col < 1)
        return mc_error_set(err, MC_ERR_USAGE, name, span->line, span->col,
                            "declaration span outside the text");
    s = (mc_scan){ .buf = buf, .p = buf + span->start, .end = buf + span->end,
                   .line = span->line, .line_start = buf + span->start - (span->col - 1) };
    out->line = span->line;
    out->col = span->col;
    out->name = mc_arena_strndup(&out->arena, span->name, strlen(span->name));
    if (!out->name)
        return mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
    /* The name (after a type word, if any), then '{': idDeclSkin::Parse skips to the '{'. */
    mc_scan_token(&s, &first);
    do {
        if (!mc_scan_token(&s, &t))
            return fail_at(out, err, MC_ERR_SYNTAX, name, &first, "expected '{' after the skin's name");
    } while (!mc_scan_brace(&t, '{'));
    for (;;) {
        mc_skinfile_mapping *m;

        if (!mc_scan_token(&s, &t) || mc_scan_brace(&t, '}'))
            break; /* the index ends a span at its '}' or at the end of the text */
        if (!mc_scan_token(&s, &t2) || mc_scan_brace(&t2, '}') || mc_scan_brace(&t2, '{'))
            return fail_at(out, err, MC_ERR_SYNTAX, name, &t,
                           "a skin line needs two names: material and replacement");
        if (mc_scan_is(&t, "model"))
            continue;
        if (out->num_mappings >= MC_LIMIT_SKIN_MAPPINGS)
            return fail_at(out, err, MC_ERR_LIMIT, name, &t, "too many mappings in one skin");
        if (out->num_mappings == cap) {
            int ncap = cap ? cap * 2 : 8;
            mc_skinfile_mapping *grown = mc_arena_alloc(&out->arena, (size_t)ncap, sizeof *grown);

            if (!grown)
                return fail_at(out, err, MC_ERR_NOMEM, name, &t, "out of memory");
            if (out->num_mappings)
                memcpy(grown, out->mappings, (size_t)out->num_mappings * sizeof *grown);
            out->mappings = grown;
            cap = ncap;
        }
        m = &out->mappings[out->num_mappings];
        *m = (mc_skinfile_mapping){ .line = t.line, .col = t.col };
        if (!(t.len == 1 && !t.string && t.text[0] == '*') && !(m->from = canonical(out, &t, &code)))
            return fail_at(out, err, code, name, &t,
                           code == MC_ERR_NOMEM ? "out of memory" : "invalid material name");
        if (!(m->to = canonical(out, &t2, &code)))
            return fail_at(out, err, code, name, &t2,
                           code == MC_ERR_NOMEM ? "out of memory" : "invalid material name");
        out->num_mappings++;
    }
    return MC_OK;
}

const char *mc_skinfile_remap(const mc_skinfile *skin, const char *shader)
{
    char c[MC_LIMIT_NAME_LEN + 1];

    if (!mc_mtr_canonical(shader, strlen(shader), c, sizeof c))
        return NULL;
    for (int i = 0; i < skin->num_mappings; i++)
        if (!skin->mappings[i].from || strcmp(skin->mappings[i].from, c) == 0)
            return skin->mappings[i].to;
    return NULL;
}

void mc_skinfile_release(mc_skinfile *skin)
{
    if (!skin)
        return;
    mc_arena_release(&skin->arena);
    memset(skin, 0, sizeof *skin);
}
