/* What the files of a review report share; private to the library. Layers, each calling only
 * those below it: report_pixels.c and report_text.c (pure helpers) <- report_html.c (the
 * page), junit.c (the XML) <- report.c (the folder, report.h's entry points); all over compare
 * and refcheck (report.h), and nothing here is called from refcheck.c. */
#ifndef MC_REPORT_INT_H
#define MC_REPORT_INT_H

#include <stdio.h>

#include <md5cine/report.h>

/* The line in every report page's <head> that marks a folder as an earlier report, which a new
 * report may replace. */
#define MC_REPORT_GENERATOR "<meta name=\"generator\" content=\"md5cine report\">"

/* What the page knows of a frame whose pictures the folder holds (a run's worst so far). */
typedef struct mc_rp_frame {
    mc_frame_no frame;
    bool has_ref; /* ref_, tref_ and heat_ pictures were written */
    mc_report_box box;   /* changed region */
    mc_report_box worst; /* the worst block; x1 < x0: none */
    int failing_blocks;  /* blocks over a block limit */
} mc_rp_frame;

/* ---- report_pixels.c ---- */

/* Box-filtered copy of an RGBA image at tw x th, opaque. */
void mc_rp_thumbnail(const uint8_t *src, size_t stride, int w, int h, uint8_t *out, int tw,
                     int th);

/* Whether a block limit is on in l (effective): the box, heat map and worst frame of a run
 * then follow the blocks (report.h). */
bool mc_rp_block_mode(const mc_compare_opts *l);

/* How bad a row is, to pick a run's worst frame (report.h): higher is worse; 0 for the kinds
 * without metrics. */
double mc_rp_badness(const mc_refcheck_row *row, bool block_mode);

/* ---- report_text.c ---- */

/* The index in groups of the group frame k belongs to: the first numbered shot holding it,
 * else the group numbered 0; n when there is none. */
size_t mc_rp_group_of(const mc_shot_range *groups, size_t n, mc_frame_no k);

/* mc_rp_group_of for every row of info->check, in row order: malloc'd (the caller frees it);
 * NULL when out of memory (or when the check has no rows). */
size_t *mc_rp_row_groups(const mc_report_info *info, const mc_shot_range *groups, size_t n);

/* Metric m of r as JUnit and the page show it: value * scale with its unit, " at (x, y)" where
 * the metric has a place ("12 at (3, 4)", "41.20 dB", "inf"). */
void mc_rp_metric_text(const mc_compare_result *r, const mc_compare_metric *m, char *buf,
                       size_t cap);

/* "shot N (frames a-b)", "all frames (frames a-b)" or "frames outside the shots". */
void mc_rp_group_name(const mc_shot_range *g, bool shots_known, char *buf, size_t cap);

/* "passed", "failed", "missing", "size", "unreadable". */
const char *mc_rp_kind_name(mc_refcheck_kind k);

/* ---- report_html.c ---- */

/* The page (index.html) into to. frames: those whose pictures the folder holds, in frame
 * order; max_runs: the runs listed. */
void mc_rp_write_html(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                      size_t ngroups, const size_t *row_group, const mc_rp_frame *frames,
                      size_t nframes, int width, int height, size_t max_runs);

/* ---- junit.c ---- */

/* One frame of a failing test case: "frame K: KIND", for a failed frame each metric as
 * ", LABEL VALUE" (mc_rp_metric_text), then ": " and the reasons, escaped, and a newline. */
void mc_rp_junit_frame_line(FILE *to, const mc_refcheck_row *row);

/* ---- report_sound.c ---- */

/* The timeline figure (report.h: the frame strip, the waveforms under it, the sound's
 * figures) when info->audio is set; nothing otherwise. */
void mc_rp_write_timeline(FILE *to, const mc_report_info *info);

#endif
