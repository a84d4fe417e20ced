/* A PNG sequence: the output frames of a render as one PNG file each, named by a printf-style
 * pattern with the output frame number: "frames/%05d.png" writes frame 17 as
 * frames/00017.png, so chunks rendered apart (render --frames) line up. The PNG row of the
 * table of output kinds (output_kinds.h): MC_OUTPUT_PATTERN, MC_OUTPUT_ALPHA,
 * MC_OUTPUT_PARALLEL.
 *
 * Pattern: exactly one %d conversion, with an optional '0' flag and a width of at most 20
 * digits; "%%" is a '%'. It is kept split (prefix, width, suffix), so no text of the user's is
 * ever used as a printf format.
 *
 * Files: each frame is encoded (mc_png_encode, image.h) and saved under a temporary name in
 * its folder, renamed when complete (mc_png_save, fileio.h): a frame's file is whole or absent,
 * also after an interrupt. mc_png_sequence_open makes the folder and sweeps the temporaries of
 * killed renders once, before the first frame.
 *
 * Alpha: a frame drawn over a transparent background (MC_BACKGROUND_NONE, scene_renderer.h) is
 * premultiplied; a writer with alpha writes it with straight alpha (mc_png_unpremultiply) as
 * RGBA, one without writes RGB.
 *
 * Threads: one mc_png_writer per thread; the writers of one sequence may write different frames
 * at once. Nothing here prints. */
#ifndef MC_PNG_SEQUENCE_H
#define MC_PNG_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/image.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_PNG_PATTERN_CAP 4096 /* bytes of a pattern's prefix and of a frame's file name */

/* A pattern, split at its frame number. */
typedef struct mc_png_pattern {
    char prefix[MC_PNG_PATTERN_CAP]; /* text before the number, "%%" already turned into '%' */
    char suffix[256];                /* text after it */
    int width;                       /* minimum digits, 0..20 */
    bool zero;                       /* pad with '0' rather than ' ' */
} mc_png_pattern;

/* Splits s into *p. Errors: MC_ERR_USAGE naming s ("PNG output 'S' needs a frame number such
 * as '%05d'", "... has two frame numbers", "... may only use '%d' with a width, as in '%05d'",
 * "... is too long"); *p is then zeroed. */
mc_status mc_png_pattern_parse(const char *s, mc_png_pattern *p, mc_error *err);

/* The file name of frame k into out (cap bytes); false when it does not fit (out unchanged
 * then, or cut). */
bool mc_png_pattern_format(const mc_png_pattern *p, mc_frame_no k, char *out, size_t cap);

/* The pattern's folder into out: "frames/" for "frames/%05d.png", "" for none. */
void mc_png_pattern_dir(const mc_png_pattern *p, char *out, size_t cap);

/* Before the first frame: makes the pattern's folder and its parents, removes the temporaries
 * killed renders left in it (mc_outfile_sweep), and proves a file can be made there by
 * creating and removing frame first's temporary. name is the pattern as the user wrote it, for
 * the messages. Errors: MC_ERR_IO "cannot create folder 'DIR': REASON"; MC_ERR_USAGE "output
 * name 'NAME' is too long" (frame first's name does not fit MC_PNG_PATTERN_CAP); those of
 * mc_outfile_begin (MC_ERR_IO naming the file, MC_ERR_NOMEM). */
mc_status mc_png_sequence_open(const mc_png_pattern *p, const char *name, mc_frame_no first,
                               mc_error *err);

/* Straight alpha from premultiplied: n RGBA pixels of rgba into out (which may be rgba).
 * c = rgb * 255 / a, rounded, at most 255; a pixel with a = 0 becomes 0, 0, 0, 0. */
void mc_png_unpremultiply(const uint8_t *rgba, size_t n, uint8_t *out);

/* One thread's writer of a sequence: its encoder's reused memory and, with alpha, the
 * straight-alpha copy of a frame. Zero it, then mc_png_writer_init; end with
 * mc_png_writer_release. Frames are width x height RGBA, rows width * 4 bytes apart. */
typedef struct mc_png_writer {
    int width, height;
    bool alpha;                           /* RGBA with straight alpha, else RGB */
    mc_png_buf png;                       /* the last PNG's bytes and the encoder's blocks */
    uint8_t *straight;                    /* width * height * 4 with alpha; NULL without */
    char path[MC_PNG_PATTERN_CAP + 64];   /* the last frame's file name */
} mc_png_writer;

/* Sets the size and allocates what a frame needs (nothing per frame after). Errors:
 * MC_ERR_USAGE (a size below 1), MC_ERR_NOMEM. */
mc_status mc_png_writer_init(mc_png_writer *w, int width, int height, bool alpha,
                             mc_error *err);

/* Writes frame k (rgba: premultiplied when alpha) as the file p names for k. Errors:
 * MC_ERR_USAGE "output file name too long", those of mc_png_encode and mc_png_save (MC_ERR_IO
 * naming the file, MC_ERR_NOMEM). */
mc_status mc_png_writer_write(mc_png_writer *w, const mc_png_pattern *p, const uint8_t *rgba,
                              mc_frame_no k, mc_error *err);

/* Frees what w holds and zeroes it; NULL is fine. */
void mc_png_writer_release(mc_png_writer *w);

#ifdef __cplusplus
}
#endif

#endif
