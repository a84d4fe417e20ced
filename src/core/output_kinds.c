/* The table of output kinds (output_kinds.h) as data, and the lookups every writer shares. */
#include <md5cine/output_kinds.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const mc_output_kind_info rows[] = {
#define MC_X_ROW(c, id, name, title, exts, muxer, props, example)                                 \
    { MC_OUTPUT_##id, name, title, exts, muxer, props, example },
    MC_OUTPUT_KINDS(MC_X_ROW, _)
#undef MC_X_ROW
};

#define NROWS (sizeof rows / sizeof rows[0])

const mc_output_kind_info *mc_output_kinds(size_t *count)
{
    *count = NROWS;
    return rows;
}

const mc_output_kind_info *mc_output_kind_get(mc_output_kind kind)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].kind == kind)
            return &rows[i];
    return NULL;
}

const mc_output_kind_info *mc_output_kind_with(unsigned props)
{
    for (size_t i = 0; i < NROWS; i++)
        if ((rows[i].props & props) == props)
            return &rows[i];
    return NULL;
}

/* Whether name ends with one of exts (space-separated) after at least one other byte. */
static bool ends_with_one_of(const char *name, const char *exts)
{
    size_t n = strlen(name);

    for (const char *e = exts; *e;) {
        size_t len = strcspn(e, " ");

        if (len > 0 && n > len && strncasecmp(name + n - len, e, len) == 0)
            return true;
        e += len;
        e += strspn(e, " ");
    }
    return false;
}

mc_output_kind mc_output_kind_of(const char *name)
{
    const mc_output_kind_info *dash = mc_output_kind_with(MC_OUTPUT_STDOUT);

    if (!name)
        return MC_OUTPUT_NONE;
    if (strcmp(name, "-") == 0)
        return dash ? dash->kind : MC_OUTPUT_NONE;
    for (size_t i = 0; i < NROWS; i++)
        if (ends_with_one_of(name, rows[i].exts))
            return rows[i].kind;
    return MC_OUTPUT_NONE;
}

/* Appends s to out (cap bytes) at *len, cutting it to fit; *len counts the whole text. */
static void append(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len + 1 < cap) {
        size_t room = cap - 1 - *len;

        memcpy(out + *len, s, n < room ? n : room);
    }
    *len += n;
}

size_t mc_output_kinds_list(unsigned all, unsigned none, const char *sep, const char *last,
                            char *out, size_t cap)
{
    size_t len = 0, total = 0, seen = 0;

    for (size_t i = 0; i < NROWS; i++)
        if ((rows[i].props & all) == all && (rows[i].props & none) == 0)
            for (const char *e = rows[i].exts; *e; e += strspn(e, " "))
                total++, e += strcspn(e, " ");
    for (size_t i = 0; i < NROWS; i++) {
        if ((rows[i].props & all) != all || (rows[i].props & none) != 0)
            continue;
        for (const char *e = rows[i].exts; *e; e += strspn(e, " ")) {
            size_t n = strcspn(e, " ");

            if (seen > 0) {
                const char *s = seen + 1 == total ? last : sep;

                append(out, cap, &len, s, strlen(s));
            }
            append(out, cap, &len, e, n);
            seen++;
            e += n;
        }
    }
    if (cap > 0)
        out[len < cap ? len : cap - 1] = '\0';
    return len;
}
