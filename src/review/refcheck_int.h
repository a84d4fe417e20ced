/* The rows refcheck.c prints, one at a time; private to the library (its tests write rows of
 * results they made up through these). Each loops over compare.h's MC_COMPARE_METRICS. */
#ifndef MC_REFCHECK_INT_H
#define MC_REFCHECK_INT_H

#include <stdio.h>

#include <md5cine/refcheck.h>

/* The heading of the table of failing frames: "frame", each metric's heading, "reasons". */
void mc_rc_table_heading(FILE *to);

/* One row of that table: the frame, each metric of a failed row (the other kinds have none),
 * the reasons; then the file the row wrote, if any, on a line of its own. */
void mc_rc_table_row(const mc_refcheck_row *row, FILE *to);

/* One frame of the JSON form: {"frame": ..., "pass": ..., the metrics (null when the frame was
 * not measured), "reasons", "kind", "written"}, without a newline. */
void mc_rc_json_row(const mc_refcheck_row *row, FILE *to);

#endif
