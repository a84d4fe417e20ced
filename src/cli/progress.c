#include "progress.h"

#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Seconds between two outputs (bar redraws or JSON lines). */
#define MIN_INTERVAL 0.1
#define BAR_CELLS    24

bool mc_progress_parse_mode(const char *s, mc_progress_mode *out)
{
    if (strcmp(s, "auto") == 0)
        *out = MC_PROGRESS_AUTO;
    else if (strcmp(s, "json") == 0)
        *out = MC_PROGRESS_JSON;
    else if (strcmp(s, "none") == 0 || strcmp(s, "quiet") == 0)
        *out = MC_PROGRESS_QUIET;
    else
        return false;
    return true;
}

void mc_progress_begin(mc_progress *p, mc_progress_mode mode, int64_t first, int64_t total,
                       FILE *bar, FILE *json)
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->bar = bar;
    p->json = json;
    p->tty = bar && isatty(fileno(bar));
    p->total = total > 0 ? total : 0;
    p->first = first;
    p->start = mc_cli_now();
    p->last_print = -1.0;
}

static void print_json(mc_progress *p, int64_t done, double elapsed)
{
    double fps = elapsed > 0.0 ? (double)done / elapsed : 0.0;

    fprintf(p->json,
            "{\"frame\":%lld,\"done\":%lld,\"total\":%lld,\"fps\":%.2f,\"elapsed\":%.3f}\n",
            (long long)(p->first + done - 1), (long long)done, (long long)p->total, fps, elapsed);
    fflush(p->json);
}

static void draw_bar(mc_progress *p, int64_t done, double elapsed)
{
    char cells[BAR_CELLS + 1];
    double fps = elapsed > 0.0 ? (double)done / elapsed : 0.0;
    int filled = p->total > 0 ? (int)(done * BAR_CELLS / p->total) : 0;
    long eta = fps > 0.0 ? (long)((double)(p->total - done) / fps + 0.5) : 0;

    for (int i = 0; i < BAR_CELLS; i++)
        cells[i] = i < filled ? '#' : '.';
    cells[BAR_CELLS] = '\0';
    /* Trailing blanks cover a longer previous line. */
    fprintf(p->bar, "\rframe %lld/%lld [%s] %6.1f fps  ETA %ld:%02ld   ", (long long)done,
            (long long)p->total, cells, fps, eta / 60, eta % 60);
    fflush(p->bar);
    p->drawn = true;
}

void mc_progress_update(mc_progress *p, int64_t done)
{
    double t = mc_cli_now();
    bool first = p->last_print < 0.0, last = done >= p->total;

    p->last_frame = done;
    if (p->mode == MC_PROGRESS_QUIET)
        return;
    if (!first && !last && t - p->last_print < MIN_INTERVAL)
        return;
    if (p->mode == MC_PROGRESS_JSON && p->json) {
        print_json(p, done, t - p->start);
        p->last_print = t;
        p->printed = done;
    } else if (p->mode == MC_PROGRESS_AUTO && p->tty) {
        draw_bar(p, done, t - p->start);
        p->last_print = t;
        p->printed = done;
    }
}

void mc_progress_end(mc_progress *p)
{
    double t = mc_cli_now();

    if (p->mode == MC_PROGRESS_JSON && p->json && p->printed != p->last_frame)
        print_json(p, p->last_frame, t - p->start);
    if (p->mode == MC_PROGRESS_AUTO && p->drawn) {
        if (p->printed != p->last_frame)
            draw_bar(p, p->last_frame, t - p->start);
        fputc('\n', p->bar);
        fflush(p->bar);
        p->drawn = false;
    }
}
