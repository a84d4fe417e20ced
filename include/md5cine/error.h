/* Status codes and the error record every md5cine function fills on failure.
 *
 * A data error names the file, line and column (1-based, columns in bytes) of the offending
 * token and carries one line of text in git's style: lower case, no full stop, the subject in
 * single quotes ("frame 7 has 118 values, expected 120"). Library code never prints: the CLI
 * prints records as mc_error_format (error_source.h) writes them ("file:line:col: error:
 * message", the source line, a caret). line == 0 means "no position" (an I/O
 * or runtime failure), and then col is 0 too. */
#ifndef MC_ERROR_H
#define MC_ERROR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, description). The order is part of no interface; compare by name. */
#define MC_STATUS_LIST(X)                                               \
    X(MC_OK, "success")                                                 \
    X(MC_ERR_SYNTAX, "syntax error")                                    \
    X(MC_ERR_RANGE, "value out of range")                               \
    X(MC_ERR_LIMIT, "size limit exceeded")                              \
    X(MC_ERR_MISMATCH, "files do not match each other")                 \
    X(MC_ERR_USAGE, "bad usage")                                        \
    X(MC_ERR_NOMEM, "out of memory")                                    \
    X(MC_ERR_IO, "input/output error")                                  \
    X(MC_ERR_IMAGE, "image error")                                      \
    X(MC_ERR_GL, "OpenGL error")                                        \
    X(MC_ERR_CODEC, "video codec error")                                \
    X(MC_ERR_INTERRUPTED, "interrupted")

typedef enum mc_status {
#define MC_X_ENUM(name, text) name,
    MC_STATUS_LIST(MC_X_ENUM)
#undef MC_X_ENUM
} mc_status;

typedef struct mc_error {
    mc_status code;
    char file[512]; /* file the error is about; "" when none */
    int line;       /* 1-based; 0 when the error has no position */
    int col;        /* 1-based byte column; 0 when the error has no position */
    char msg[512];  /* one line, no trailing newline */
} mc_error;

/* The description of a status ("syntax error"); never NULL. */
const char *mc_status_str(mc_status s);

/* The status name as written in the source ("MC_ERR_SYNTAX"); never NULL. */
const char *mc_status_name(mc_status s);

/* Fills *err (if err is not NULL) and returns code. file may be NULL. Over-long text is cut. */
mc_status mc_error_set(mc_error *err, mc_status code, const char *file, int line, int col,
                       const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Formats e as the md5cine command prints it, into out: cap bytes, the text cut to fit and
 * NUL-terminated when cap > 0 (out may be NULL when cap is 0). Returns the length of the whole
 * text without its NUL, as snprintf does, so that a caller can size a buffer and call again.
 *
 * The first line is "FILE:LINE:COL: SEVERITY: MESSAGE" when e has a position, "FILE: SEVERITY:
 * MESSAGE" when it has a file only, and "md5cine: SEVERITY: MESSAGE" when it has none or when
 * the message already names the file in quotes (so a path is said once). severity is "error"
 * or "warning"; NULL means "error". When e has a position and source is not NULL (the text of
 * line e->line, without its newline), two more lines follow: "%5d | SOURCE" and a caret under
 * column e->col ("      |    ^"; tabs are kept so the caret lines up whatever the tab width).
 * Every line ends with '\n'. Control bytes of the file name, message and source (C0 but tab,
 * DEL, C1 bytes outside valid UTF-8 and the UTF-8 encoded U+0080..U+009F) are written as \xNN,
 * so nothing read from an input file can move a terminal's cursor; valid UTF-8 is kept. */
size_t mc_error_format_source(const mc_error *e, const char *severity, const char *source,
                              char *out, size_t cap);

/* One line of a library's own log (FFmpeg's, through the encoder), level MC_LOG_*; the line
 * ends with a newline as FFmpeg writes it. */
enum { MC_LOG_ERROR = 1, MC_LOG_WARNING = 2 };
typedef void (*mc_log_fn)(void *user, int level, const char *line);

/* A warning receives an error record whose code says what kind of deviation it is. */
typedef void (*mc_warn_fn)(void *user, const mc_error *warning);

/* Options every parser takes. A NULL pointer or a zeroed struct means: strict, no warnings
 * reported. lenient turns the harmless deviations seen in shipped game files (a missing
 * MD5Version, a bounds count that differs from numFrames, several roots in an anim) into
 * warnings passed to warn. */
typedef struct mc_parse_opts {
    bool lenient;
    mc_warn_fn warn; /* may be NULL: warnings are then dropped */
    void *warn_user;
    /* May be NULL. Else a load that reads several files (mc_scene_load, mc_scene_resolve)
     * looks at it before each file and stops with MC_ERR_INTERRUPTED "interrupted" once it is
     * non-zero: the flag a signal handler sets, so that an interrupt during loading is acted
     * on before the next file rather than after the last. */
    const volatile sig_atomic_t *stop;
    /* The most pixels of images a scene's materials may read in all (material.h), checked on
     * each image's header before it is decoded; 0: MC_LIMIT_SCENE_IMAGE_PIXELS. */
    unsigned long long image_pixels;
    /* Pixels of that budget already spent (a scene's own texture images, read first). */
    unsigned long long image_pixels_used;
    /* The game data of a base (materials, material.h) read strictly: a used declaration that
     * fails to parse is an error instead of Doom's default material with one warning. */
    bool strict_game_data;
    /* May be NULL: a parser stops at its first error. Else a parser that can go on after an
     * error (the scene file's, mc_scene_parse and so mc_scene_load) skips the statement of a
     * syntax or range error and reads on, as a compiler does: each error but the last is given
     * here, in the order of the file, and the last (at most the MC_LIMIT_SCENE_ERRORS-th) is
     * the call's failure. A lexical error, or any other kind, stops it. */
    mc_warn_fn error;
    void *error_user;
} mc_parse_opts;

#ifdef __cplusplus
}
#endif

#endif
