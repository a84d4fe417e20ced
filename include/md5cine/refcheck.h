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
 * reason, and the check fails. After a video fails to decode, every later frame is such a row
 * with the same reason (its decoder cannot be trusted past the damage).
 *
 * Sizes are compared before any pixel is decoded: a reference PNG's declared size (its header,
 * mc_image_probe) that differs from the checked frame's is a MC_REFCHECK_SIZE row and the PNG
 * is never decoded, so a small file declaring a huge image costs nothing.
 *
 * Threads: a folder or PNG reference may be checked from desc.threads callers at once (each
 * reads and decodes its own reference file). A video reference reads forward only: its frames
 * are read one caller at a time, and must be checked in increasing order (a frame below the
 * last one read is an UNREADABLE row).
 *
 * Fail fast: mc_refcheck_preflight tells, before the first frame is made, whether the reference
 * holds every frame a run will check and whether its first one has the frames' size, so that
 * `render --reference` refuses a wrong reference (exit 2) before rendering anything.
 *
 * Layers (one direction): compare.h <- refcheck.h <- report.h (src/review/report*.c,
 * junit.c). The checker knows nothing of reports: a failing frame is handed to the desc's
 * on_fail hook, which mc_report_attach (report.h) points at a report. sheet.h stands apart. */
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
struct mc_refcheck_row;

/* A frame that did not pass, as the on_fail hook sees it (outside update mode). */
typedef struct mc_refcheck_failure {
    const struct mc_refcheck_row *row; /* its row: kind, metrics, reasons */
    const uint8_t *ref;    /* the reference frame (the checked frame's size); NULL: none */
    size_t ref_stride;
    const uint8_t *cand;   /* the checked frame; never NULL */
    size_t cand_stride;
    int width, height;
    const mc_compare_opts *limits; /* the limits in force (mc_refcheck_get_limits), mask set */
} mc_refcheck_failure;

/* Called for every failing frame that has pixels, from the caller of mc_refcheck_frame with
 * its thread index; an error it returns is mc_refcheck_frame's. */
typedef mc_status (*mc_refcheck_on_fail)(void *user, int thread, const mc_refcheck_failure *f,
                                         mc_error *err);

typedef struct mc_refcheck_desc {
    const char *reference; /* folder, PNG or video; in update mode a folder that may not exist */
    const char *candidate; /* what the frames come from, named in the JSON; NULL: none */
    int width, height;     /* size of the frames that will be checked (the buffers' size); a
                              frame of another size is a SIZE row */
    mc_compare_opts opts;  /* limits; .lossy is turned on when the reference is a video */
    const char *diff_dir;  /* where failing frames go; NULL: nothing is written */
    bool update;           /* write missing/failing frames into the reference folder */
    mc_frame_no offset;    /* frame k is checked against reference frame k + offset (the
                              sign of the command's --offset N) */
    int threads;           /* callers that may check at once (1..16; 0 = 1) */
    const char *mask;      /* a PNG of width x height: its pixels that are black (R = G = B =
                              0) or transparent (A = 0) are ignored by every metric; NULL: none */
    const mc_compare_rect *ignore; /* rectangles also ignored (clipped to the frame); borrowed */
    size_t num_ignore;
    mc_refcheck_on_fail on_fail; /* every frame that does not pass and has pixels, outside
                                    update mode; NULL: none (mc_report_attach sets it) */
    void *on_fail_user;
} mc_refcheck_desc;

typedef enum mc_refcheck_kind {
    MC_REFCHECK_PASSED = 0,
    MC_REFCHECK_FAILED,     /* compared and over a limit */
    MC_REFCHECK_MISSING,    /* no reference frame with that number */
    MC_REFCHECK_SIZE,       /* the reference frame has another size */
    MC_REFCHECK_UNREADABLE, /* the reference frame exists but could not be read */
} mc_refcheck_kind;

/* Most runs of failing frames a review page lists (report.h's max_frames). */
#define MC_REFCHECK_MAX_LISTED 1000

/* One checked frame. */
typedef struct mc_refcheck_row {
    mc_frame_no frame;          /* the checked frame's number */
    mc_refcheck_kind kind;
    mc_compare_result r;        /* metrics (FAILED and PASSED) */
    int ref_width, ref_height;  /* the reference frame's (declared) size; 0 when unknown */
    char reasons[512];          /* why it did not pass, "" when it passed */
    const char *written;        /* the file written for it (owned by the checker); NULL: none */
} mc_refcheck_row;

typedef struct mc_refcheck_summary {
    int64_t checked, passed, failed, missing, unreadable, written; /* failed counts SIZE rows */
    bool lossy; /* the lossy limits apply (the reference is a video, or opts asked for them) */
    bool ok;    /* every checked frame passed (or, in update mode, was written) */
} mc_refcheck_summary;

/* Opens the reference and allocates every pixel buffer a check needs (the table of rows grows
 * as frames are checked). *out is NULL on failure. Errors name the reference: MC_ERR_IO
 * (missing, unreadable, a diff folder that cannot be made), MC_ERR_IMAGE, MC_ERR_USAGE (update
 * mode on a file or a video, a size or thread count out of range, a mask of another size than
 * the frames, an empty ignore rectangle), MC_ERR_NOMEM. A mask that cannot be read is named
 * (MC_ERR_IO or MC_ERR_IMAGE). */
mc_status mc_refcheck_open(const mc_refcheck_desc *desc, mc_refcheck **out, mc_error *err);

/* Frees everything; NULL is fine. */
void mc_refcheck_release(mc_refcheck *c);

/* Checks frame k and records its row. thread: 0 .. threads - 1, one caller per index at a
 * time. frame->pixels may be NULL when its size differs from the desc's: the row is then
 * SIZE without reading anything. A failing frame is not an error: only a failure to write a
 * diff or reference file (MC_ERR_IO), MC_ERR_NOMEM, or a bad argument (MC_ERR_USAGE) is. */
mc_status mc_refcheck_frame(mc_refcheck *c, int thread, const mc_image_view *frame,
                            mc_frame_no k, mc_error *err);

/* Before any frame: whether frames first..last (the checked numbers, k) can be checked. Every
 * reference frame k + offset must exist (a video's frames that its index lists but that cannot
 * be read count as present: they become UNREADABLE rows), and the first one's declared size must
 * be the desc's. Errors, each one message: MC_ERR_RANGE naming the reference, how many frames
 * it holds and the first checked frame it lacks; MC_ERR_MISMATCH naming the reference file and
 * both sizes; MC_ERR_IO / MC_ERR_IMAGE when that file cannot be read. Update mode: MC_OK. */
mc_status mc_refcheck_preflight(mc_refcheck *c, mc_frame_no first, mc_frame_no last,
                                mc_error *err);

void mc_refcheck_get_summary(const mc_refcheck *c, mc_refcheck_summary *out);

/* The limits that apply (mc_compare_effective of the desc's, lossy for a video). */
void mc_refcheck_get_limits(const mc_refcheck *c, mc_compare_opts *out);

/* Every limit of l (effective) as one line, a limit that cannot fail as "off":
 * "lossy: threshold 4, failing share off, max diff off, SSIM >= 0.95, PSNR >= 35 dB, block PSNR
 * >= 22 dB, block bias <= 9 levels" (+ ", masked" with a mask). Always NUL-terminated. */
void mc_refcheck_format_limits(const mc_compare_opts *l, char *buf, size_t cap);

/* Rows in frame order; valid until release. */
size_t mc_refcheck_row_count(const mc_refcheck *c);
const mc_refcheck_row *mc_refcheck_row_at(const mc_refcheck *c, size_t i);

/* The result as md5cine prints it, summary first: the line "reference 'REF': N frames checked,
 * P matched, F differ, M missing" (", U unreadable"; " (video: lossy limits)"); with frames
 * that did not pass, the limits line (mc_refcheck_format_limits), the table of the first
 * max_rows of them in frame order (the frame, a column per metric of compare.h's
 * MC_COMPARE_METRICS, the reasons; SIZE_MAX lists all), "... and N more" followed by more_hint
 * (NULL: nothing) when some were left out, and one line naming the pictures written and their
 * folder ("wrote 121 failing frames (frame_NNNNN.png) and 121 difference pictures
 * (diff_NNNNN.png) to 'diffs/'"). In update mode only one line: the summary, naming the frames
 * written as ranges ("reference 'ref': 12 frames checked, 10 matched, 2 written (2 missing,
 * 0 failing): frames 3, 7"). */
void mc_refcheck_print_table_rows(const mc_refcheck *c, size_t max_rows, const char *more_hint,
                                  FILE *to);

/* Rows mc_refcheck_print_table lists. */
#define MC_REFCHECK_TABLE_ROWS 10

/* mc_refcheck_print_table_rows with the first MC_REFCHECK_TABLE_ROWS rows. */
void mc_refcheck_print_table(const mc_refcheck *c, FILE *to);

/* One JSON object: reference, candidate, limits, every row, summary. A row's keys are the same
 * for every kind ("kind": "passed" | "failed" | "missing" | "size" | "unreadable"): each
 * metric of MC_COMPARE_METRICS under its id, with its place and count keys; metrics that were
 * not measured are null. */
void mc_refcheck_print_json(const mc_refcheck *c, FILE *to);

/* mc_refcheck_print_json without the object's closing "}\n", so that a caller may add members
 * (", \"audio\": ...") and close it. */
void mc_refcheck_print_json_members(const mc_refcheck *c, FILE *to);

#ifdef __cplusplus
}
#endif

#endif
