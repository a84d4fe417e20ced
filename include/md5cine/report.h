/* Review and CI reports of a reference check (refcheck.h): a static HTML page with pictures of
 * every failing frame, and a JUnit XML file with one test case per shot.
 *
 * Shots: the reports group frames by shot (mc_shot_range: a shot number and its inclusive
 * frame range). `render --reference` takes them from the scene's camera cuts; `compare` from
 * --scene's camera cuts, else the chapters of the candidate (then of the reference) when it is
 * a video with chapters, as md5cine's MP4s have (mc_report_chapters, frames_in.h), else every
 * frame is in one group, number 0, named "all frames". Frames outside every listed shot form a
 * last group, number 0.
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
 * Layers: report.h builds on refcheck.h (its rows and limits) and compare.h; the checker knows
 * nothing of reports (mc_report_attach hands it a hook). In src/review/: report.c makes the
 * folder and its pictures (their pixels: report_pixels.c), report_html.c the page, junit.c the
 * XML, report_text.c the groups and the escaping both write; sheet.h stands apart.
 *
 * Runs: failing frames of consecutive numbers, of one kind (failed, size, missing,
 * unreadable) and in one group (shot), are one run, shown as one row with its worst frame:
 * where a block limit is on (min_block_psnr > 0 or max_block_bias < 255, the video limits),
 * the frame with the lowest worst-block PSNR, else the one with the largest failing share;
 * the first one on ties and for the kinds that have no metrics.
 *
 * The page, in order: the counts and every limit in force (mc_refcheck_format_limits, "off"
 * for a limit that cannot fail); the failing runs (in frame order, at most max_frames of
 * them; "N more runs (F frames) not listed" says what was left out), each a <tr class="fail"
 * data-frame="W" data-first="A" data-last="B" data-frames="N"> (W its worst frame, or the
 * frame of the run whose pictures the folder holds when that is another) with
 * thumbnails of W's reference, new frame and heat map, the changed region (class "box") and
 * the worst block (class "worst") drawn on each and given as numbers, W's metrics (those of
 * compare.h's MC_COMPARE_METRICS, each a <dd class="ID"> with its id's '_' as '-'; the blocks
 * over a block limit) and
 * reasons, and a <table class="blocks"> with every frame of the run (up to 200): its number,
 * block PSNR, block bias, PSNR, failing share; then (when W has a reference picture) a
 * <tr class="more"> with a viewer that wipes (slider) or flips between the reference and the
 * new frame at full size; the per-shot summary (frames, passed, failed, worst PSNR and SSIM);
 * the passing frames as ranges per shot. With a sound comparison (info.audio) a <figure
 * id="timeline" class="pass|fail"> stands between the counts and the failing runs: the frames
 * and the sound on one time axis, MC_REPORT_WAVE_WIDTH units from the earlier of the first
 * checked frame's time and the sound's first sample to the later of the last checked frame's
 * end and the sound's end (the sound's span alone without info.fps). First (with info.fps) the
 * frame strip, an inline <svg class="frame-strip"> (MC_REPORT_STRIP_HEIGHT high): a <rect
 * class="frames KIND" data-first="A" data-last="B"> per run of consecutive frames of one kind
 * from A / fps to (B + 1) / fps (green passed, red failed, grey the rest), a <line class="cut"
 * data-frame="F"> at each shot's first frame after the first shot; directly under it, for each
 * side with a track, an <svg class="waveform" data-side="a|b"> (MC_REPORT_WAVE_HEIGHT high):
 * one vertical line per column from the min to the max of mc_audio_envelope over the axis,
 * and a <line class="onset"> at each onset (red where it is unpaired or over the onset limit);
 * under them the comparison's figures (mc_audio_print_text's) in a <figcaption>. Once every
 * image has loaded or failed, the page's
 * script sets data-images-total, data-images-loaded and data-images-failed on <body>.
 *
 * Files (%05lld: frame k): ref_k.png, new_k.png (full size), tref_k.png, tnew_k.png, heat_k.png
 * (thumbnails, at most thumb_width wide, box-filtered), for the worst frame of each run only,
 * and for at most max_frames runs: while frames come, a run keeps the pictures of its worst
 * frame so far (a worse frame's replace them), so the folder never holds more than max_frames
 * frames' pictures. A frame with no reference picture (missing, unreadable, another size) has
 * only new_k.png and tnew_k.png.
 *
 * Changed region (mc_report_region): where a block limit is on, the bounding box of the blocks
 * (mc_compare_blocks) over a block limit -- the measure that failed the frame, so codec noise
 * spread over the frame stays outside; else, or when no block is over, the pixel box
 * (mc_report_change_box): the pixels whose largest channel difference exceeds the threshold
 * (those counted in the check's "over" share), or when none does, every pixel that differs.
 * Empty for identical frames. x0, y0, x1, y1 inclusive, in full-size pixels, top row 0.
 * The worst block: the block of block_bias when only max_block_bias failed, else the block of
 * block_psnr (compare.h).
 *
 * Heat map (mc_report_heat_map), per thumbnail pixel over the frame pixels it covers: a grey
 * copy of the reference, grey = 96 + Y / 2 (Y: BT.709 luma of their mean), under a colour
 * blended with weight w. Where a block limit is on: the covered block furthest over a block
 * limit decides, w = 1/2 + excess / 16 (capped at 1; excess: dB under min_block_psnr or levels
 * over max_block_bias, the larger), 0 for blocks within the limits; red when the block's mean
 * change (b - a) is > 0, blue when < 0, magenta when 0. Else the pixel with the largest channel
 * difference m (first in row order on ties) decides, w = min(1, m / 64), at least 1/2 when m
 * is over the threshold, red when its R + G + B difference new - reference is > 0, blue when
 * < 0, magenta when 0 (a change of hue only). Max-pooling keeps a single change visible.
 *
 * JUnit (mc_junit_write): <testsuites> holding one <testsuite name="TITLE"> with one <testcase
 * name="shot N (frames a-b)" classname="md5cine.CLASS"> per group (CLASS: TITLE's base name
 * without extension, every character outside [A-Za-z0-9_-] as '_'). A group with an unreadable
 * reference frame gets one <error>, else one with any other failing frame gets one <failure>;
 * message = "F of N frames differ", type = the kinds of its failing frames ("failed", "size",
 * "missing", "unreadable", joined by '+'), and the text one line per failing frame with its
 * metrics and reasons. tests = groups, failures and errors = groups with each, time = the
 * seconds given (the whole check). With a sound comparison (info.audio) one more <testcase
 * name="sound">, with a <failure message="sound differs" type="sound"> holding its reasons
 * when it failed. Text is escaped for XML (mc_xml_write_escaped). Written
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

#include <md5cine/audio_compare.h>
#include <md5cine/error.h>
#include <md5cine/refcheck.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_REPORT_THUMB_WIDTH 320 /* default thumbnail width, pixels */
#define MC_REPORT_MAX_FRAMES  100 /* default max_frames: runs listed, with pictures */
#define MC_REPORT_WAVE_WIDTH  960 /* the timeline's frame strip and waveforms, SVG units */
#define MC_REPORT_WAVE_HEIGHT 64
#define MC_REPORT_STRIP_HEIGHT 24

typedef struct mc_report_box {
    int x0, y0, x1, y1; /* inclusive pixels; x1 < x0 when empty */
} mc_report_box;

typedef struct mc_report mc_report;

typedef struct mc_report_desc {
    const char *dir;   /* the report folder to make */
    int width, height; /* size of the checked frames */
    int threads;       /* callers of mc_report_frame at once, 1..16; 0 = 1 */
    int thumb_width;   /* 0: MC_REPORT_THUMB_WIDTH; never wider than the frame */
    int max_frames;    /* runs listed with pictures, 1..MC_REFCHECK_MAX_LISTED; 0:
                          MC_REPORT_MAX_FRAMES */
    const mc_shot_range *shots; /* the groups runs stay within: the same as mc_report_info's
                                   (copied); NULL: one group */
    size_t shot_count;
} mc_report_desc;

/* What the page and the JUnit file describe. */
typedef struct mc_report_info {
    const char *title;           /* scene or reference path, shown and used as suite name */
    const char *reference;       /* shown; may be NULL */
    const char *candidate;       /* shown; may be NULL */
    const mc_refcheck *check;    /* the rows; must be set */
    const mc_shot_range *shots;  /* in increasing, non-overlapping order; may be NULL */
    size_t shot_count;
    const mc_audio_result *audio; /* the sound's comparison (audio_compare.h); NULL: none */
    const mc_audio_track *audio_a, *audio_b; /* the tracks it compared, for the waveforms;
                                                NULL: none drawn */
    mc_rate fps; /* the checked frames' rate, for the timeline's frame strip; {0, 0}: none */
} mc_report_info;

/* Makes the temporary folder. *out is NULL on failure. Errors: MC_ERR_USAGE (no dir, a size
 * or thread count out of range, DIR a symbolic link, a file, or a folder that is not empty and
 * not an earlier report), MC_ERR_IO (the parent cannot be written), MC_ERR_NOMEM. */
mc_status mc_report_open(const mc_report_desc *desc, mc_report **out, mc_error *err);

/* Points d's on_fail hook at r, so that every failing frame of the check is given to
 * mc_report_frame with its thread index. */
void mc_report_attach(mc_report *r, mc_refcheck_desc *d);

/* Records failing frame f->row->frame and, when it is the worst of its run so far (see the
 * top), writes its pictures: f->cand (the checked frame, desc's size) and f->ref (its
 * reference, or NULL), with f->limits (their mask ignored). Errors: MC_ERR_IO naming the file,
 * MC_ERR_NOMEM, MC_ERR_USAGE (a bad thread index, another size, NULL cand). */
mc_status mc_report_frame(mc_report *r, int thread, const mc_refcheck_failure *f,
                          mc_error *err);

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

/* The pixel box of b against a (see the top), both w x h RGBA; pixels whose mask byte is 0
 * are left out (mask: w * h bytes, or NULL for none). */
void mc_report_change_box(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                          int w, int h, int threshold, const uint8_t *mask, mc_report_box *out);

/* The changed region and the worst block of a failing frame (see the top): f as given to
 * mc_report_frame with its reference (f->ref not NULL); blocks: mc_compare_blocks of the pair
 * with f->limits->mask. *failing: the blocks over a block limit (0 where none is on). */
void mc_report_region(const mc_refcheck_failure *f, const mc_compare_block *blocks,
                      mc_report_box *box, mc_report_box *worst, int *failing);

/* The heat map of b against a (see the top) at tw x th (1 <= tw <= w, 1 <= th <= h), opaque
 * RGBA into out, rows tw * 4 bytes apart; a pixel whose mask byte is 0 counts as unchanged
 * (mask: w * h bytes, or NULL for none). blocks: mc_compare_blocks of the pair, for limits
 * with a block limit on; NULL, or limits without one: the pixel form with the limits'
 * threshold. limits: effective (mc_compare_effective). */
void mc_report_heat_map(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                        int w, int h, const mc_compare_opts *limits, const uint8_t *mask,
                        const mc_compare_block *blocks, uint8_t *out, int tw, int th);

/* Writes s as XML/HTML text or attribute value: & < > " ' as entities, valid UTF-8 as is, a
 * byte that is not as the code point of the same value (&#xNN;), and control bytes XML 1.0
 * cannot hold (all below 0x20 but tab, newline, return) as U+FFFD. NULL writes nothing. */
void mc_xml_write_escaped(FILE *to, const char *s);

/* The JUnit XML file (see the top) at path; seconds is the suite's time. Errors: MC_ERR_IO
 * naming path, MC_ERR_NOMEM. */
mc_status mc_junit_write(const char *path, const mc_report_info *info, double seconds,
                         mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
