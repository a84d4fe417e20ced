/* Render progress for people, for logs and for farm managers.
 *
 * The bar is one line "frame k/K [####....] x.x fps  ETA m:ss" on `bar` (stderr), redrawn
 * with '\r' at most every 0.1 s. The log lines (MC_PROGRESS_LOG) go to the same stream at a
 * steady interval of wall time, as encoders and renderers print them into logs:
 *     md5cine: frame 150 (51/100, 51%), 4.9 fps, elapsed 0:10, ETA 0:10
 * due at start + n * interval (each printed by the first frame finished at or after that time;
 * a frame slower than the interval gives one line, not several), none in the first interval, so
 * a render shorter than that prints nothing more; when it printed any, a last line shows the
 * count reached at the end. MC_PROGRESS_AUTO is the bar when `bar` is a terminal and the log
 * lines otherwise (CI, `| tee`, a farm's log). MC_PROGRESS_JSON prints one JSON object per line
 * on `json`:
 *     {"frame":f,"done":n,"total":K,"fps":x,"elapsed":s}
 * at most every 0.1 s, except that the first and last frames are always printed: f is the
 * output frame number of the latest frame rendered (first + n - 1, so `--frames 100-199` counts
 * f from 100 as PNG names and chunk tags do), n how many of the K frames are rendered.
 * MC_PROGRESS_QUIET prints nothing. */
#ifndef MC_PROGRESS_H
#define MC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum mc_progress_mode {
    MC_PROGRESS_AUTO,  /* the bar on a terminal, the log lines otherwise */
    MC_PROGRESS_LOG,   /* the log lines, terminal or not */
    MC_PROGRESS_JSON,  /* JSON lines */
    MC_PROGRESS_QUIET, /* nothing */
} mc_progress_mode;

/* Seconds between two log lines unless mc_progress_set_interval says otherwise. */
#define MC_PROGRESS_LOG_INTERVAL 10.0

typedef struct mc_progress {
    mc_progress_mode mode;
    bool draw_bar;  /* the bar is drawn: AUTO with bar a terminal */
    bool log_lines; /* the log lines are printed: LOG, or AUTO with bar not a terminal */
    FILE *bar;      /* the bar's and the log lines' stream (stderr) */
    FILE *json;     /* the JSON lines' stream (stdout; stderr when stdout carries video) */
    bool drawn;     /* a bar line is on screen and needs a newline at the end */
    int64_t total;  /* frames expected */
    int64_t first;  /* output frame number of the first of them */
    int64_t last_frame; /* latest count given to update */
    int64_t printed;    /* count shown by the last output */
    double start;       /* monotonic seconds at begin */
    double last_print;  /* monotonic seconds of the last output */
    double interval;    /* seconds between log lines (0: a line per frame) */
    double next_log;    /* monotonic seconds at or after which the next log line is due */
} mc_progress;

/* Parses a --progress value: "auto", "log", "json", "none" or "quiet". Returns false otherwise. */
bool mc_progress_parse_mode(const char *s, mc_progress_mode *out);

/* Starts the clock. total is the number of frames that will be reported (>= 0), numbered from
 * output frame first, in order. bar and json may be NULL when the mode does not use them. The
 * log interval is MC_PROGRESS_LOG_INTERVAL. */
void mc_progress_begin(mc_progress *p, mc_progress_mode mode, int64_t first, int64_t total,
                       FILE *bar, FILE *json);

/* Sets the seconds between log lines (>= 0; 0: one line per frame); call after begin. */
void mc_progress_set_interval(mc_progress *p, double seconds);

/* Reports that `done` frames (1..total) are finished. Cheap when nothing is printed. */
void mc_progress_update(mc_progress *p, int64_t done);

/* Ends the bar line (a newline after the last redraw). Prints the final JSON line if the
 * last update was rate-limited away, and the final log line when log lines were printed and
 * the last one did not show the count reached. */
void mc_progress_end(mc_progress *p);

#endif
