/* Render progress for people and for farm managers.
 *
 * MC_PROGRESS_AUTO draws one line "frame k/K  x.x fps  ETA m:ss" on `bar` (stderr), redrawn
 * with '\r' at most every 0.1 s and only when that stream is a terminal, so CI logs stay
 * clean. MC_PROGRESS_JSON prints one JSON object per line on `json`:
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
    MC_PROGRESS_AUTO,  /* bar on a terminal, nothing otherwise */
    MC_PROGRESS_JSON,  /* JSON lines */
    MC_PROGRESS_QUIET, /* nothing */
} mc_progress_mode;

typedef struct mc_progress {
    mc_progress_mode mode;
    FILE *bar;          /* the bar's stream (stderr) */
    FILE *json;         /* the JSON lines' stream (stdout; stderr when stdout carries video) */
    bool tty;           /* bar is a terminal */
    bool drawn;         /* a bar line is on screen and needs a newline at the end */
    int64_t total;      /* frames expected */
    int64_t first;      /* output frame number of the first of them */
    int64_t last_frame; /* latest count given to update */
    int64_t printed;    /* count shown by the last output */
    double start;       /* monotonic seconds at begin */
    double last_print;  /* monotonic seconds of the last output */
} mc_progress;

/* Parses a --progress value: "auto", "json", "none" or "quiet". Returns false otherwise. */
bool mc_progress_parse_mode(const char *s, mc_progress_mode *out);

/* Starts the clock. total is the number of frames that will be reported (>= 0), numbered from
 * output frame first, in order. bar and json may be NULL when the mode does not use them. */
void mc_progress_begin(mc_progress *p, mc_progress_mode mode, int64_t first, int64_t total,
                       FILE *bar, FILE *json);

/* Reports that `done` frames (1..total) are finished. Cheap when nothing is printed. */
void mc_progress_update(mc_progress *p, int64_t done);

/* Ends the bar line (a newline after the last redraw). Prints the final JSON line if the
 * last update was rate-limited away. */
void mc_progress_end(mc_progress *p);

#endif
