/* Weak stand-ins for src/cli/progress.c, used only while that file is not in the tree: JSON
 * lines and nothing else. A real definition replaces each of these at link time. */
#include <string.h>

#include "progress.h"
#include "render_cli.h"

__attribute__((weak)) bool mc_progress_parse_mode(const char *s, mc_progress_mode *out)
{
    if (strcmp(s, "auto") == 0)
        *out = MC_PROGRESS_AUTO;
    else if (strcmp(s, "json") == 0)
        *out = MC_PROGRESS_JSON;
    else if (strcmp(s, "none") == 0)
        *out = MC_PROGRESS_QUIET;
    else
        return false;
    return true;
}

__attribute__((weak)) void mc_progress_begin(mc_progress *p, mc_progress_mode mode,
                                             int64_t total, FILE *bar, FILE *json)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->total = total;
    p->bar = bar;
    p->json = json;
    p->start = mc_cli_now();
}

__attribute__((weak)) void mc_progress_update(mc_progress *p, int64_t done)
{
    double t = mc_cli_now() - p->start;

    if (p->mode != MC_PROGRESS_JSON || !p->json)
        return;
    fprintf(p->json, "{\"frame\":%lld,\"total\":%lld,\"fps\":%.2f,\"elapsed\":%.3f}\n",
            (long long)done, (long long)p->total, t > 0 ? (double)done / t : 0.0, t);
    fflush(p->json);
}

__attribute__((weak)) void mc_progress_end(mc_progress *p)
{
    (void)p;
}
