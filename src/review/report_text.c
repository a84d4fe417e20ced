/* What a review report's page and its JUnit file both write (report.h): the groups (shots)
 * and their names, the kinds' names, text escaped for XML and HTML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

mc_status mc_report_groups(const mc_report_info *info, mc_shot_range **out, size_t *count,
                           mc_error *err)
{
    size_t rows = mc_refcheck_row_count(info->check), n = 0;
    mc_frame_no lo = 0, hi = -1;
    bool outside = false;
    mc_shot_range *g;

    *out = NULL;
    *count = 0;
    if (rows > 0) {
        lo = mc_refcheck_row_at(info->check, 0)->frame;
        hi = mc_refcheck_row_at(info->check, rows - 1)->frame;
    }
    for (size_t i = 0; i < rows && info->shot_count > 0; i++) {
        mc_frame_no k = mc_refcheck_row_at(info->check, i)->frame;
        bool in = false;

        for (size_t s = 0; s < info->shot_count && !in; s++)
            in = k >= info->shots[s].first && k <= info->shots[s].last;
        outside = outside || !in;
    }
    g = calloc(info->shot_count + 1, sizeof *g);
    if (!g)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (size_t s = 0; s < info->shot_count; s++)
        g[n++] = info->shots[s];
    if (info->shot_count == 0 || outside)
        g[n++] = (mc_shot_range){ 0, lo, hi };
    *out = g;
    *count = n;
    return MC_OK;
}

size_t mc_rp_group_of(const mc_shot_range *groups, size_t n, mc_frame_no k)
{
    size_t other = n;

    for (size_t i = 0; i < n; i++) {
        if (groups[i].number == 0) {
            other = other == n ? i : other;
            continue;
        }
        if (k >= groups[i].first && k <= groups[i].last)
            return i;
    }
    return other;
}

size_t *mc_rp_row_groups(const mc_report_info *info, const mc_shot_range *groups, size_t n)
{
    size_t rows = mc_refcheck_row_count(info->check);
    size_t *rg = malloc((rows ? rows : 1) * sizeof *rg);

    for (size_t i = 0; rg && i < rows; i++)
        rg[i] = mc_rp_group_of(groups, n, mc_refcheck_row_at(info->check, i)->frame);
    return rg;
}

void mc_rp_group_name(const mc_shot_range *g, bool shots_known, char *buf, size_t cap)
{
    if (g->number > 0)
        snprintf(buf, cap, "shot %d (frames %lld-%lld)", g->number, (long long)g->first,
                 (long long)g->last);
    else if (shots_known)
        snprintf(buf, cap, "frames outside the shots");
    else
        snprintf(buf, cap, "all frames (frames %lld-%lld)", (long long)g->first,
                 (long long)g->last);
}

const char *mc_rp_kind_name(mc_refcheck_kind k)
{
    static const char *const names[] = { "passed", "failed", "missing", "size", "unreadable" };

    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "unknown";
}

void mc_rp_metric_text(const mc_compare_result *r, const mc_compare_metric *m, char *buf,
                       size_t cap)
{
    char v[64];
    int x, y;

    mc_compare_metric_format(r, m, MC_COMPARE_STYLE_PROSE, v, sizeof v);
    if (mc_compare_metric_at(r, m, &x, &y))
        snprintf(buf, cap, "%s at (%d, %d)", v, x, y);
    else
        snprintf(buf, cap, "%s", v);
}

/* ---- escaping -------------------------------------------------------------------------- */

/* Bytes of the valid UTF-8 sequence at s (1..4), or 0 when s does not start one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned cp;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
        return 0; /* overlong, surrogate, beyond Unicode, or not an XML character */
    return n;
}

void mc_xml_write_escaped(FILE *to, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (p && *p) {
        size_t n = utf8_len(p);

        if (*p == '&')
            fputs("&amp;", to);
        else if (*p == '<')
            fputs("&lt;", to);
        else if (*p == '>')
            fputs("&gt;", to);
        else if (*p == '"')
            fputs("&quot;", to);
        else if (*p == '\'')
            fputs("&#39;", to);
        else if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
            fputs("&#xFFFD;", to);
        else if (n == 0)
            fprintf(to, "&#x%02X;", (unsigned)*p);
        else
            fwrite(p, 1, n, to);
        p += n ? n : 1;
    }
}
