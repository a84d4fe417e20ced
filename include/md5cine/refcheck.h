/* The reference checker: frames checked one by one against a reference -- a folder of
 * numbered PNGs, one PNG or a video (frames_in.h) -- with the limits of compare.h, one row per
 * frame checked, the failing frames and their difference pictures written under one naming, and
 * one table and one JSON form of the result. `md5cine render --reference` feeds it each frame as
 * it is rendered; `md5cine compare A B` feeds it B's frames with A as the reference. There is
 * no other comparison path.
 *
 * Files written into diff_dir for a failing frame k: frame_%05d.png (the checked frame) and
 * diff_%05d.png (mc_compare_diff_image); a frame with no reference gets only frame_%05d.png.
 * In update mode (a folder reference) a missing or failing frame is written into the reference
 * as %05d.png instead, or over the file it failed against.
 *
 * A reference that cannot be read to the end (a truncated video, a damaged PNG) does not stop
 * the check: the frames it could not give are rows of kind MC_REFCHECK_UNREADABLE with the
 * reason, and the check fails. */
#ifndef MC_REFCHECK_H
#define MC_REFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md5cine/compare.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_refcheck mc_refcheck;

typedef struct mc_refcheck_desc {
    const char *reference; /* folder, PNG or video; in update mode a folder that may not exist */
    int width, height;     /* size of the frames that will be checked */
    mc_compare_opts opts;  /* limits; .lossy is set from the reference's kind */
    const char *diff_dir;  /* where failing frames go; NULL: nothing is written */
    bool update;           /* write missing/failing frames into the reference folder */
    mc_frame_no offset;    /* frame k is checked against reference frame k - offset */
    int threads;           /* callers that may check at once (1..16; 0 = 1) */
} mc_refcheck_desc;

typedef enum mc_refcheck_kind {
    MC_REFCHECK_PASSED = 0,
    MC_REFCHECK_FAILED,     /* compared and over a limit */
    MC_REFCHECK_MISSING,    /* no reference frame with that number */
    MC_REFCHECK_SIZE,       /* the reference frame has another size */
    MC_REFCHECK_UNREADABLE, /* the reference frame exists but could not be read */
} mc_refcheck_kind;

/* One checked frame. */
typedef struct mc_refcheck_row {
    mc_frame_no frame;     /* the checked frame's number */
    mc_refcheck_kind kind;
    mc_compare_result r;   /* metrics (FAILED and PASSED) */
    char reasons[200];     /* why it failed, "" when it passed */
    char written[4160];    /* the file written for it, "" when none */
} mc_refcheck_row;

typedef struct mc_refcheck_summary {
    int64_t checked, passed, failed, missing, unreadable, written;
    bool lossy; /* the reference is a video: lossy limits */
    bool ok;    /* every checked frame passed (or, in update mode, was written) */
} mc_refcheck_summary;

/* Opens the reference and allocates every buffer a check needs. *out is NULL on failure.
 * Errors name the reference: MC_ERR_IO (missing, unreadable), MC_ERR_IMAGE, MC_ERR_USAGE
 * (update mode on a file), MC_ERR_NOMEM. */
mc_status mc_refcheck_open(const mc_refcheck_desc *desc, mc_refcheck **out, mc_error *err);

/* Frees everything; NULL is fine. */
void mc_refcheck_release(mc_refcheck *c);

/* Checks frame k (the desc's size) and records its row. thread: 0 .. threads - 1, one caller
 * per index at a time. A failing frame is not an error: only a failure to write a diff file
 * (MC_ERR_IO) or MC_ERR_NOMEM is. */
mc_status mc_refcheck_frame(mc_refcheck *c, int thread, const mc_image_view *frame,
                            mc_frame_no k, mc_error *err);

void mc_refcheck_get_summary(const mc_refcheck *c, mc_refcheck_summary *out);

/* Rows in frame order; valid until release. */
size_t mc_refcheck_row_count(const mc_refcheck *c);
const mc_refcheck_row *mc_refcheck_row_at(const mc_refcheck *c, size_t i);

/* The table of rows that did not pass and the summary lines, as md5cine prints them. */
void mc_refcheck_print_table(const mc_refcheck *c, FILE *to);

/* One JSON object: summary and every row. */
void mc_refcheck_print_json(const mc_refcheck *c, FILE *to);

#ifdef __cplusplus
}
#endif

#endif
