/* Review and CI reports of a reference check (refcheck.h): a static HTML page with pictures of
 * every failing frame, and a JUnit XML file with one test case per shot.
 *
 * Shots: the reports group frames by shot (mc_shot_range: a shot number and its inclusive
 * frame range). `render --reference` takes them from the scene's camera cuts; `compare` from the
 * chapters of the candidate (then of the reference) when it is a video with chapters, as
 * md5cine's MP4s have (mc_report_chapters), else every frame is in one group, number 0, named
 * "all frames". Frames outside every listed shot form a last group, number 0.
 *
 * The HTML report (mc_report_open .. mc_report_finish) is a folder DIR holding index.html and
 * its PNGs; the page needs nothing else (no network, no external script or font: its CSS and
 * its few lines of script are inline). It is built in a temporary folder next to DIR,
 * "<parent>/.<name>.<pid>.tmp", and renamed to DIR by mc_report_finish, so DIR is either the
 * whole report or absent; mc_report_release before finish removes the temporary folder. An
 * existing DIR is replaced only when it is empty or an earlier report: an index.html whose head
 * holds <meta name="generator" content="md5cine report"> and nothing but regular files of the
 * names a report writes (index.html, new_, tnew_, ref_, tref_, heat_ + frame + .png). Any other
 * existing DIR, and a DIR that is a symbolic link, is refused at open (and again before the
 * rename), naming the first entry no report writes; nothing is ever removed through a link.
 *
 * The page, in order: the counts; the failing frames (every row that did not pass, in frame
 * order, up to MC_REFCHECK_MAX_LISTED), each a <tr class="fail" data-frame="N"> with
 * thumbnails of the reference, the new frame and the signed heat map, the changed region drawn
 * on each (and given as numbers), the metrics and reasons, then (when it has a reference
 * picture) a <tr class="more"> with a viewer that wipes (slider) or flips between the reference
 * and the new frame at full size; the per-shot summary (frames,
 * passed, failed, worst PSNR and SSIM); the passing frames as ranges per shot. Once every
 * image has loaded or failed, the page's script sets data-images-total, data-images-loaded and
 * data-images-failed on <body>.
 *
 * Files per failing frame k (%05lld): ref_k.png, new_k.png (full size), tref_k.png, tnew_k.png,
 * heat_k.png (thumbnails, at most thumb_width wide, box-filtered). A frame with no reference
 * picture (missing, unreadable, another size) has only new_k.png and tnew_k.png. Only the first
 * MC_REFCHECK_MAX_LISTED frames given get pictures (the page lists no more), so a check where
 * every frame fails writes a bounded report.
 *
 * Changed region (mc_report_change_box): the bounding box of the pixels whose largest channel
 * difference exceeds the threshold (those counted in the check's "over" share); when none does,
 * of every pixel that differs at all; empty for identical frames. x0, y0, x1, y1 inclusive, in
 * full-size pixels, top row 0.
 *
 * Heat map (mc_report_heat_map), per thumbnail pixel over the block of frame pixels it covers:
 * a grey copy of the reference, grey = 96 + Y / 2 (Y: BT.709 luma of the block's mean), under
 * the colour of the block's strongest change -- the pixel with the largest channel difference
 * m (first in row order on ties) -- blended with weight min(1, m / 64), at least 1/2 when m is
 * over the threshold. The colour is red (255, 0, 0) when that pixel is brighter in the new frame
 * (its R + G + B difference new - reference is > 0), blue (0, 0, 255) when darker, magenta
 * (255, 0, 255) when its sum is unchanged (a change of hue only). Max-pooling keeps a single
 * changed pixel visible in a small thumbnail.
 *
 * JUnit (mc_junit_write): <testsuites> holding one <testsuite name="TITLE"> with one <testcase
 * name="shot N (frames a-b)" classname="md5cine.CLASS"> per group (CLASS: TITLE's base name
 * without extension, every character outside [A-Za-z0-9_-] as '_'). A group with an unreadable
 * reference frame gets one <error>, else one with any other failing frame gets one <failure>;
 * message = "F of N frames differ", type = the kinds of its failing frames ("failed", "size",
 * "missing", "unreadable", joined by '+'), and the text one line per failing frame with its
 * metrics and reasons. tests = groups, failures and errors = groups with each, time = the
 * seconds given (the whole check). Text is escaped for XML (mc_xml_write_escaped). Written
 * through mc_outfile: the file is whole or absent.
 *
 * Threads: mc_report_frame may be called from desc.threads callers at once (one per thread
 * index), as the reference checker's callers do; everything else from one thread. */
#ifndef MC_REPORT_H
#define MC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md5cine/error.h>
#include <md5cine/refcheck.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_REPORT_THUMB_WIDTH 320 /* default thumbnail width, pixels */

typedef struct mc_shot_range {
    int number;              /* shot number from 1; 0: not a shot ("all frames", "other") */
    mc_frame_no first, last; /* inclusive frame numbers, first <= last */
} mc_shot_range;

typedef struct mc_report_box {
    int x0, y0, x1, y1; /* inclusive pixels; x1 < x0 when empty */
} mc_report_box;

typedef struct mc_report mc_report;

typedef struct mc_report_desc {
    const char *dir;   /* the report folder to make */
    int width, height; /* size of the checked frames */
    int threads;       /* callers of mc_report_frame at once, 1..16; 0 = 1 */
    int thumb_width;   /* 0: MC_REPORT_THUMB_WIDTH; never wider than the frame */
} mc_report_desc;

/* What the page and the JUnit file describe. */
typedef struct mc_report_info {
    const char *title;           /* scene or reference path, shown and used as suite name */
    const char *reference;       /* shown; may be NULL */
    const char *candidate;       /* shown; may be NULL */
    const mc_refcheck *check;    /* the rows; must be set */
    const mc_shot_range *shots;  /* in increasing, non-overlapping order; may be NULL */
    size_t shot_count;
} mc_report_info;

/* Makes the temporary folder. *out is NULL on failure. Errors: MC_ERR_USAGE (no dir, a size
 * or thread count out of range, DIR a symbolic link, a file, or a folder that is not empty and
 * not an earlier report), MC_ERR_IO (the parent cannot be written), MC_ERR_NOMEM. */
mc_status mc_report_open(const mc_report_desc *desc, mc_report **out, mc_error *err);

/* The pixels the check ignores (refcheck.h's mask and ignored rectangles): width * height
 * bytes, 0 = ignored, or NULL for none (the default). The caller's; it must outlive the report.
 * Ignored pixels lie outside every changed region and count as unchanged in the heat map. The
 * reference checker sets its own when it is given a report. */
void mc_report_set_mask(mc_report *r, const uint8_t *mask);

/* Records failing frame k and writes its pictures: cand (the checked frame, desc's size, rows
 * cand_stride bytes apart) and ref (the reference of the same size, or NULL when there is
 * none). threshold as in mc_compare_opts. Errors: MC_ERR_IO naming the file, MC_ERR_NOMEM,
 * MC_ERR_USAGE (a bad thread index or NULL cand). */
mc_status mc_report_frame(mc_report *r, int thread, mc_frame_no k, const uint8_t *ref,
                          size_t ref_stride, const uint8_t *cand, size_t cand_stride,
                          int threshold, mc_error *err);

/* Writes index.html and renames the folder to DIR. After a failure the temporary folder is
 * removed; either way only release may follow. Errors: MC_ERR_IO, MC_ERR_NOMEM, MC_ERR_USAGE
 * (called twice, no check). */
mc_status mc_report_finish(mc_report *r, const mc_report_info *info, mc_error *err);

/* Frees everything and removes the temporary folder unless finish succeeded. NULL is fine. */
void mc_report_release(mc_report *r);

/* The groups the reports use for info (see the top): *out is malloc'd (the caller frees it),
 * *count >= 1 when the check has rows. Errors: MC_ERR_NOMEM. */
mc_status mc_report_groups(const mc_report_info *info, mc_shot_range **out, size_t *count,
                           mc_error *err);

/* The changed region of b against a (see the top), both w x h RGBA; pixels whose mask byte is 0
 * are left out (mask: w * h bytes, or NULL for none). */
void mc_report_change_box(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, int threshold, const uint8_t *mask, mc_report_box *out);

/* The heat map of b against a (see the top) at tw x th (1 <= tw <= w, 1 <= th <= h), opaque
 * RGBA into out, rows tw * 4 bytes apart; a pixel whose mask byte is 0 counts as unchanged
 * (mask: w * h bytes, or NULL for none). */
void mc_report_heat_map(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                        int w, int h, int threshold, const uint8_t *mask, uint8_t *out, int tw,
                        int th);

/* Writes s as XML/HTML text or attribute value: & < > " ' as entities, valid UTF-8 as is, a
 * byte that is not as the code point of the same value (&#xNN;), and control bytes XML 1.0
 * cannot hold (all below 0x20 but tab, newline, return) as U+FFFD. NULL writes nothing. */
void mc_xml_write_escaped(FILE *to, const char *s);

/* The JUnit XML file (see the top) at path; seconds is the suite's time. Errors: MC_ERR_IO
 * naming path, MC_ERR_NOMEM. */
mc_status mc_junit_write(const char *path, const mc_report_info *info, double seconds,
                         mc_error *err);

/* The shots of a video from its chapters: chapter i becomes shot N (its title "Shot N", else
 * i + 1) over the frames it covers, frame = round(time * the stream's frame rate). *out is
 * malloc'd, *count 0 (and *out NULL) when the file has no chapters or is not a video. Errors:
 * MC_ERR_NOMEM only (a file that cannot be opened has no chapters here). */
mc_status mc_report_chapters(const char *path, mc_shot_range **out, size_t *count,
                             mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
