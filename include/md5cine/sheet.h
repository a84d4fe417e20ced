/* Contact sheets: which frames of a sequence a sheet shows, where each cell lies, and the
 * drawing of a cell (a box-filtered copy of the frame with a label strip under it).
 *
 * Frames picked (output frame numbers, increasing, without repeats):
 *   with shots  the first and the last frame of every shot, so each cut appears as the pair
 *               "last frame before, first frame after" (mc_sheet_pick_shots)
 *   every N     frames 0, N, 2N, ... below the count (mc_sheet_pick_every); without shot
 *               information N defaults to ceil(count / 24), which gives 12..24 cells for 24 or
 *               more frames (mc_sheet_default_every)
 *
 * Layout (all in pixels): cells of cell_width x cell_height image over a label strip of
 * MC_SHEET_LABEL_HEIGHT, in `columns` columns, MC_SHEET_GAP pixels between cells and around
 * them; cell i is in row i / columns, column i % columns. The cell size defaults to 320 wide at
 * the frames' aspect (height rounded, at least 1); with only `columns` given the width is
 * 1280 / columns instead. Columns default to 4 (fewer when there are fewer cells). The sheet's
 * background is (24, 24, 24); labels are white on (0, 0, 0).
 *
 * Waveform (a source with sound): a band of wave_height rows under the last row of cells,
 * MC_SHEET_GAP below it and above the sheet's bottom edge, from column MC_SHEET_GAP to
 * width - MC_SHEET_GAP - 1 (one sample column per pixel column, the whole source's time from
 * left to right). Each column is a vertical line in MC_SHEET_WAVE_COLOUR from its envelope's
 * max to its min (mc_sheet_draw_wave), on the sheet's background; a column whose envelope stays
 * within half a pixel of the centre draws nothing, so silence leaves the band empty. The marks
 * (the caller's: `md5cine sheet` marks a video's onsets, a scene's sound events) are
 * whole-height lines in MC_SHEET_ONSET_COLOUR. */
#ifndef MC_SHEET_H
#define MC_SHEET_H

#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_SHEET_MAX_CELLS    1024
#define MC_SHEET_GAP          4
#define MC_SHEET_LABEL_HEIGHT 14
#define MC_SHEET_MAX_SIDE     16384 /* of the whole sheet */
#define MC_SHEET_WAVE_HEIGHT  48    /* `md5cine sheet`'s waveform band, rows */
#define MC_SHEET_WAVE_COLOUR  127, 209, 127
#define MC_SHEET_ONSET_COLOUR 255, 208, 64

typedef struct mc_sheet_layout_desc {
    int frame_width, frame_height; /* the frames' size, >= 1 */
    int cell_width, cell_height;   /* the image part of a cell; 0, 0: see above */
    int columns;                   /* 0: 4, or the number of cells when fewer */
    size_t cells;                  /* 1 .. MC_SHEET_MAX_CELLS */
    int wave_height;               /* the waveform band's rows (0..1024); 0: none */
} mc_sheet_layout_desc;

typedef struct mc_sheet_layout {
    int columns, rows;
    int cell_width, cell_height; /* the image part */
    int width, height;           /* the whole sheet */
    size_t cells;
    int wave_y, wave_height;     /* the waveform band's first row and rows; 0, 0: none */
    int wave_width;              /* its columns (width - 2 * MC_SHEET_GAP) when it has rows */
} mc_sheet_layout;

/* Fills *out from desc. Errors (MC_ERR_USAGE, *out zeroed): a frame size below 1, a cell count
 * outside 1..MC_SHEET_MAX_CELLS, a wave height outside 0..1024, a cell side outside 1..4096 or
 * only one side given, columns below 0, a sheet wider or higher than MC_SHEET_MAX_SIDE. */
mc_status mc_sheet_layout_make(const mc_sheet_layout_desc *desc, mc_sheet_layout *out,
                               mc_error *err);

/* The top left pixel of cell i's image part; its label strip starts cell_height rows lower. */
void mc_sheet_cell_origin(const mc_sheet_layout *l, size_t i, int *x, int *y);

/* ceil(count / 24), at least 1. */
int64_t mc_sheet_default_every(int64_t count);

/* Frames 0, every, 2 * every, ... below count into out (at most cap); returns how many there
 * are in all (which may exceed cap: then only cap were written). every < 1 counts as 1. */
size_t mc_sheet_pick_every(int64_t count, int64_t every, int64_t *out, size_t cap);

/* The first and last frame of each shot. shot_starts: the first frame of each shot after the
 * first, increasing (the first shot starts at 0); starts outside 1..count-1 are skipped.
 * Returns how many frames there are in all (written up to cap). */
size_t mc_sheet_pick_shots(int64_t count, const int64_t *shot_starts, size_t num_starts,
                           int64_t *out, size_t cap);

/* "HH:MM:SS:FF" of output frame k at fps, as --overlay shows it: the whole seconds of k / fps
 * and FF the frame's place among the frames in that second. */
void mc_sheet_timecode(int64_t k, mc_rate fps, char *buf, size_t cap);

/* Fills the sheet (l->width x l->height RGBA, rows stride bytes apart) with the background. */
void mc_sheet_clear(const mc_sheet_layout *l, uint8_t *sheet, size_t stride);

/* Draws frame (any size >= 1x1) into cell i, box-filtered to the cell's image size (each cell
 * pixel is the mean of the frame pixels its area covers, weighted by the covered share), and
 * text (printable ASCII; other bytes drawn as '?') in the cell's label strip, cut at the cell's
 * right edge. Opaque output. Does nothing when i >= l->cells or a pointer is NULL. */
void mc_sheet_draw_cell(const mc_sheet_layout *l, uint8_t *sheet, size_t stride, size_t i,
                        const mc_image_view *frame, const char *text);

/* Draws the waveform band (see the top) from n = l->wave_width columns of envelope, min[i] and
 * max[i] in -1..1 (full scale; values past it are clipped, NaN counts as 0), and the onset columns marks[0 ..
 * nmarks - 1] (those outside the band are skipped). Column i's line runs from row
 * wave_y + round(half * (1 - max[i])) to wave_y + round(half * (1 - min[i])), inclusive, with
 * half = (wave_height - 1) / 2; nothing when both |min[i]| and |max[i]| are under
 * 0.5 / half. Does nothing without a band, with n other than wave_width or a NULL pointer. */
void mc_sheet_draw_wave(const mc_sheet_layout *l, uint8_t *sheet, size_t stride,
                        const float *min, const float *max, size_t n, const int *marks,
                        size_t nmarks);

#ifdef __cplusplus
}
#endif

#endif
