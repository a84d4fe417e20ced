/* The kinds of output md5cine writes, declared once. Every place that tells from a name what an
 * output is -- render's -o (output.h, mc_output_parse), the encoder's container
 * (encode.h), the joined video of concat (chunk.h), the usage text of render --help -- loops
 * over this table; a new kind is one row here plus the writer that makes it.
 *
 * Why this table is on the lowest floor (src/core/output_kinds.c) rather than in the output
 * room (src/output/, output.h, which re-exports it): the encoder and the joiner (src/video/)
 * pick their container from these rows, and they sit below the room that builds the render run
 * on them. The rows are data only: the muxer column is libavformat's name for the container,
 * so nothing here needs FFmpeg.
 *
 * MC_OUTPUT_KINDS(X, c) expands to X(c, <columns>) for each row, c passed through as it is.
 * Columns:
 *   id       the kind's enum name after MC_OUTPUT_ (MC_OUTPUT_MP4)
 *   name     its word ("mp4"), lower case
 *   title    what people call it in a sentence ("MP4", "yuv4mpeg2")
 *   exts     the name endings that mean this kind, space-separated, with the dot (".mp4");
 *            matched without case
 *   muxer    libavformat's muxer for it; NULL where md5cine writes the bytes itself
 *   props    what it holds and how it is written (MC_OUTPUT_FRAMES .. below)
 *   example  a name of this kind, as messages show one ("frames/%05d.png")
 *
 * Sound: the MP4, MKV and MOV rows can carry a sound track beside the frames and the WAV row
 * holds sound only (MC_OUTPUT_SOUND). The render run refuses an output that holds sound only
 * (output.h); the command line writes one from the soundtrack (soundtrack.h). */
#ifndef MC_OUTPUT_KINDS_H
#define MC_OUTPUT_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The props column: what a kind holds and how it is written. */
enum {
    MC_OUTPUT_FRAMES = 1 << 0,   /* holds the rendered frames */
    MC_OUTPUT_ENCODED = 1 << 1,  /* compressed by a codec into a container: metadata (the chunk
                                    tags, chunk.h), chapters and a keyframe at each shot */
    MC_OUTPUT_SOUND = 1 << 2,    /* holds sound: a track beside the frames, or sound alone */
    MC_OUTPUT_STDOUT = 1 << 3,   /* the name "-" means this kind on standard output */
    MC_OUTPUT_PATTERN = 1 << 4,  /* one file per frame, named by a printf-style pattern with the
                                    output frame number (png_sequence.h) */
    MC_OUTPUT_ALPHA = 1 << 5,    /* keeps alpha: a transparent background (RGBA) */
    MC_OUTPUT_PARALLEL = 1 << 6, /* frames may be written in any order by several threads;
                                    without it frames go out in order, one writer */
};

#define MC_OUTPUT_KINDS(X, c)                                                                      \
    X(c, MP4, "mp4", "MP4", ".mp4", "mp4",                                                         \
      MC_OUTPUT_FRAMES | MC_OUTPUT_ENCODED | MC_OUTPUT_SOUND, "out.mp4")                           \
    X(c, MKV, "mkv", "Matroska", ".mkv", "matroska",                                               \
      MC_OUTPUT_FRAMES | MC_OUTPUT_ENCODED | MC_OUTPUT_SOUND, "out.mkv")                           \
    X(c, MOV, "mov", "QuickTime", ".mov", "mov",                                                   \
      MC_OUTPUT_FRAMES | MC_OUTPUT_ENCODED | MC_OUTPUT_SOUND, "out.mov")                           \
    X(c, Y4M, "y4m", "yuv4mpeg2", ".y4m", NULL, MC_OUTPUT_FRAMES | MC_OUTPUT_STDOUT, "out.y4m")    \
    X(c, PNG, "png", "PNG", ".png", NULL,                                                          \
      MC_OUTPUT_FRAMES | MC_OUTPUT_PATTERN | MC_OUTPUT_ALPHA | MC_OUTPUT_PARALLEL,                 \
      "frames/%05d.png")                                                                           \
    X(c, WAV, "wav", "WAV", ".wav", NULL, MC_OUTPUT_SOUND, "sound.wav")

typedef enum mc_output_kind {
    MC_OUTPUT_NONE = 0, /* no output, or a name the table does not know */
#define MC_X_OUTPUT_KIND(c, id, ...) MC_OUTPUT_##id,
    MC_OUTPUT_KINDS(MC_X_OUTPUT_KIND, _)
#undef MC_X_OUTPUT_KIND
} mc_output_kind;

/* One row of MC_OUTPUT_KINDS as data. */
typedef struct mc_output_kind_info {
    mc_output_kind kind;
    const char *name;
    const char *title;
    const char *exts;    /* space-separated, with the dot */
    const char *muxer;   /* NULL: written by md5cine itself */
    unsigned props;      /* MC_OUTPUT_FRAMES .. */
    const char *example;
} mc_output_kind_info;

/* The rows of MC_OUTPUT_KINDS, in its order; *count receives how many. Static data. */
const mc_output_kind_info *mc_output_kinds(size_t *count);

/* The row of kind; NULL for MC_OUTPUT_NONE or a value that is no row. */
const mc_output_kind_info *mc_output_kind_get(mc_output_kind kind);

/* The first row whose props hold every bit of props; NULL when none does. */
const mc_output_kind_info *mc_output_kind_with(unsigned props);

/* The kind a name means: "-" the kind with MC_OUTPUT_STDOUT, else the first row one of whose
 * extensions ends the name, without case, after at least one other byte ("x.MP4" is MP4,
 * ".mp4" alone is nothing). MC_OUTPUT_NONE for NULL or a name no row knows. */
mc_output_kind mc_output_kind_of(const char *name);

/* The extensions of the rows whose props hold every bit of all and none of none, in the
 * table's order, joined by sep and the last two by last (", " and " or ": ".mp4, .mkv or
 * .mov"), into out: cap bytes, cut to fit and NUL-terminated when cap > 0. Returns the length
 * of the whole text, as snprintf does. */
size_t mc_output_kinds_list(unsigned all, unsigned none, const char *sep, const char *last,
                            char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
