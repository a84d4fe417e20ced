#include "progress.h"

#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Seconds between two bar redraws or JSON lines. */
#define MIN_INTERVAL 0.1
#define BAR_CELLS    24

bool mc_progress_parse_mode(const char *s, mc_progress_mode *out)
{
    if (strcmp(s, "auto") == 0)
        *out = MC_PROGRESS_AUTO;
    else if (strcmp(s, "log") == 0)
        *out = MC_PROGRESS_LOG;
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
    bool tty = bar && isatty(fileno(bar));

    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->bar = bar;
    p->json = json;
    p->draw_bar = mode == MC_PROGRESS_AUTO && tty;
    p->log_lines = bar && (mode == MC_PROGRESS_LOG || (mode == MC_PROGRESS_AUTO && !tty));
    p->total = total > 0 ? total : 0;
    p->first = first;
    p->start = mc_cli_now();
    p->last_print = -1.0;
    p->interval = MC_PROGRESS_LOG_INTERVAL;
    p->next_log = p->start + p->interval;
}

void mc_progress_set_interval(mc_progress *p, double seconds)
{
    p->interval = seconds > 0.0 ? seconds : 0.0;
    p->next_log = p->start + p->interval;
}

static double rate(int64_t done, double elapsed)
{
    return elapsed > 0.0 ? (double)done / elapsed : 0.0;
}

/* Whole seconds as m:ss, or h:mm:ss from an hour on. */
static void put_time(char *buf, size_t cap, double seconds)
{
    long s = seconds > 0.0 ? (long)(seconds + 0.5) : 0;

    if (s >= 3600)
        snprintf(buf, cap, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, cap, "%ld:%02ld", s / 60, s % 60);
}

static void print_json(mc_progress *p, int64_t done, double elapsed)
{
    fprintf(p->json,
            "{\"frame\":%lld,\"done\":%lld,\"total\":%lld,\"fps\":%.2f,\"elapsed\":%.3f}\n",
            (long long)(p->first + done - 1), (long long)done, (long long)p->total,
            rate(done, elapsed), elapsed);
    fflush(p->json);
}

static void draw_bar(mc_progress *p, int64_t done, double elapsed)
{
    char cells[BAR_CELLS + 1];
    double fps = rate(done, elapsed);
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

/* "md5cine: frame 150 (51/100, 51%), 4.9 fps, elapsed 0:10, ETA 0:10"; no ETA once done. */
static void print_log(mc_progress *p, int64_t done, double elapsed)
{
    double fps = rate(done, elapsed);
    char spent[32], eta[32] = "";

    put_time(spent, sizeof spent, elapsed);
    if (done < p->total && fps > 0.0) {
        char left[24];

        put_time(left, sizeof left, (double)(p->total - done) / fps);
        snprintf(eta, sizeof eta, ", ETA %s", left);
    }
    fprintf(p->bar, "md5cine: frame %lld (%lld/%lld, %d%%), %.1f fps, elapsed %s%s\n",
            (long long)(p->first + done - 1), (long long)done, (long long)p->total,
            p->total > 0 ? (int)(done * 100 / p->total) : 100, fps, spent, eta);
    fflush(p->bar);
}

void mc_progress_update(mc_progress *p, int64_t done)
{
    double t = mc_cli_now();
    bool first = p->last_print < 0.0, last = done >= p->total;

    p->last_frame = done;
    if (p->log_lines) {
        if (t < p->next_log)
            return;
        print_log(p, done, t - p->start);
        p->last_print = t;
        p->printed = done;
        /* the next line is due at the next multiple of the interval: steady, never bunched */
        while (p->next_log <= t && p->interval > 0.0)
            p->next_log += p->interval;
        return;
    }
    if (p->mode == MC_PROGRESS_QUIET || (!first && !last && t - p->last_print < MIN_INTERVAL))
        return;
    if (p->mode == MC_PROGRESS_JSON && p->json) {
        print_json(p, done, t - p->start);
        p->last_print = t;
        p->printed = done;
    } else if (p->draw_bar) {
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
    if (p->log_lines && p->last_print >= 0.0 && p->printed != p->last_frame)
        print_log(p, p->last_frame, t - p->start);
    if (p->drawn) {
        if (p->printed != p->last_frame)
            draw_bar(p, p->last_frame, t - p->start);
        fputc('\n', p->bar);
        fflush(p->bar);
        p->drawn = false;
    }
}
