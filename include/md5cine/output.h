/* The output room: what a render writes, and how. Its parts, one header each:
 *
 *   output_kinds.h  the table of output kinds (MC_OUTPUT_KINDS: MP4, MKV, MOV, Y4M, PNG, WAV),
 *                   re-exported here. It lives on the lowest floor (src/core/) because the
 *                   encoder and the joiner below this room pick their containers from it
 *   png_sequence.h  the PNG sequence: name pattern, folder, per-thread writers
 *   render_run.h    the render run: a scene's frames drawn by the frame jobs into the
 *                   pipeline and its sinks (encoder, PNG sequence, reference check), with
 *                   the chunk tags, the shots' keyframes and chapters, reports and stats
 *
 * and here the one question every writer asks first: what does an output name mean. Sound
 * (DESIGN.md 7) will be written here too: the kinds with MC_OUTPUT_SOUND take it. Nothing in
 * this room prints or exits; src/cli/ decides what reaches the terminal. */
#ifndef MC_OUTPUT_H
#define MC_OUTPUT_H

#include <stdbool.h>

#include <md5cine/error.h>
#include <md5cine/output_kinds.h>
#include <md5cine/png_sequence.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An output name read for a render. */
typedef struct mc_output_target {
    const char *path;                /* as given (borrowed); NULL: no output */
    const mc_output_kind_info *kind; /* its row of the table; NULL when path is NULL */
    mc_png_pattern pattern;          /* the name split, for a kind with MC_OUTPUT_PATTERN */
} mc_output_target;

/* Reads path (NULL: no output, *out then empty) as the output of a render's frames: kind, or
 * when that is MC_OUTPUT_NONE the kind the name means (mc_output_kind_of). It must hold frames;
 * "-" only a kind with MC_OUTPUT_STDOUT; a pattern kind's name must be a pattern. Errors, each
 * MC_ERR_USAGE naming path:
 *   "cannot tell the format of output 'P': use .mp4, .mkv, .mov, .y4m, a PNG pattern such as
 *    'frames/%05d.png', or '-'"  (the table's kinds with frames)
 *   "output 'P' holds sound only (WAV): a render's output takes its frames, a video
 *    or a PNG pattern"
 *   "output '-' is standard output, which takes yuv4mpeg2 only"
 *   those of mc_png_pattern_parse.
 * A message longer than mc_error's is cut. */
mc_status mc_output_parse(const char *path, mc_output_kind kind, mc_output_target *out,
                          mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
