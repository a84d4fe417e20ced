/* The command line: one file per subcommand, plus the shared diagnostics printer. Only code
 * under src/cli/ prints or chooses exit codes. */
#ifndef MC_CLI_H
#define MC_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <md5cine/error.h>
#include <md5cine/error_source.h>
#include <md5cine/scene.h>
#include <md5cine/types.h>

/* Exit codes (DESIGN.md 4). */
enum {
    MC_EXIT_OK = 0,
    MC_EXIT_DIFFERENT = 1, /* a comparison found differences */
    MC_EXIT_INPUT = 2,     /* bad input or usage */
    MC_EXIT_RUNTIME = 3,   /* GL, encoder, I/O */
    MC_EXIT_INTERRUPT = 130,
};

int mc_cmd_info(int argc, char **argv);
int mc_cmd_render(int argc, char **argv);
int mc_cmd_export(int argc, char **argv);
int mc_cmd_compare(int argc, char **argv);
int mc_cmd_doctor(int argc, char **argv);
int mc_cmd_sheet(int argc, char **argv);
int mc_cmd_plan(int argc, char **argv);
int mc_cmd_concat(int argc, char **argv);
int mc_cmd_camera(int argc, char **argv);

/* Prints "file:line:col: error: msg", "file: error: msg" without a position, or
 * "md5cine: error: msg" without a file or when msg already names the file in quotes (so
 * that a path is said once). Then, when the error has a position and the file can be read,
 * the source line and a caret under the column. severity is "error" or "warning". */
void mc_diag_print(FILE *to, const char *severity, const mc_error *e);

/* The one line every command prints when it has written a file (render, export, sheet, concat,
 * camera, the review page and JUnit file of render and compare), on stderr, since stdout may
 * carry a video, JSON or a table: "md5cine: wrote 'PATH': DETAILS", or "md5cine: wrote stdout:
 * DETAILS" for "-". Commands skip it under --quiet. */
void mc_cli_wrote(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* mc_cli_wrote for the review page (DIR/index.html; report_dir may be NULL) and the JUnit file
 * (junit may be NULL) of a finished reference check. */
struct mc_refcheck;
void mc_cli_wrote_reports(const char *report_dir, const char *junit,
                          const struct mc_refcheck *check);

/* The reference check's table, summary first (mc_refcheck_print_table_rows): the first
 * MC_REFCHECK_TABLE_ROWS frames that did not pass, or every one with verbose (--verbose). */
void mc_cli_print_check(const struct mc_refcheck *check, bool verbose, FILE *to);

/* An mc_warn_fn that prints warnings with mc_diag_print to stderr. user is NULL, or an
 * mc_source_cache (error.h) the command zeroed and releases at its end: then the source lines
 * of many warnings about one file are found without reading it again from its start. */
void mc_diag_warn(void *user, const mc_error *w);
/* The same for the errors a parser goes on after (mc_parse_opts.error): printed as errors. */
void mc_diag_error(void *user, const mc_error *e);

/* The exit code for a failed library call: input errors -> 2, runtime errors -> 3,
 * MC_ERR_INTERRUPTED -> 130. */
int mc_exit_code(mc_status s);

/* The exit code for a failure to load an input file: 2 for every reason (missing, unreadable,
 * bad content), except out of memory (3) and an interrupt (130). */
int mc_input_exit_code(mc_status s);

/* Monotonic seconds (CLOCK_MONOTONIC), for timing and progress. */
double mc_cli_now(void);

/* Creates folder path and its missing parents (mkdir -p); "" is fine. False with errno set
 * on failure (ENAMETOOLONG for a path of 4096 bytes or more). */
bool mc_cli_mkdirs(const char *path);

/* A frame rate from the command line (rate.c): an integer ("24"), a fraction ("30000/1001"), or
 * a decimal: 23.976, 23.98, 29.97, 47.952, 59.94 and 119.88 mean n * 1000 / 1001 (NTSC), any
 * other is exact and reduced ("12.5" -> 25/2). 1..1000 frames per second. False when s is not
 * such a rate. */
bool mc_cli_parse_rate(const char *s, mc_rate *out);

/* "24", or "30000/1001 (29.970)" for a fractional rate. */
void mc_cli_format_rate(mc_rate r, char *buf, size_t cap);

/* Prints "md5cine: error: <msg>" for a usage problem and returns MC_EXIT_INPUT. */
int mc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- outguard.c: outputs never replace inputs ---- */

#define MC_GUARD_PATH_CAP 4096

typedef struct mc_guard_in {
    const char *path; /* as the user named it, for messages; not owned */
    dev_t dev;
    ino_t ino;
    bool dir; /* an input folder: no output may lie inside it */
} mc_guard_in;

/* What a command reads, by file identity. Zero-initialise; mc_guard_release frees it. */
typedef struct mc_guard {
    mc_guard_in *in;
    size_t n, cap;
    bool nomem; /* an add ran out of memory: mc_guard_output fails (exit 3) */
} mc_guard;

/* Records the file or folder at path as an input (stat now; path must outlive g). NULL, "-"
 * and a path that does not exist record nothing. */
void mc_guard_add(mc_guard *g, const char *path);

/* Records every file a loaded scene read: the scene, its camera, each actor's mesh, anim,
 * model file and textures. */
void mc_guard_add_scene(mc_guard *g, const mc_scene *s);

void mc_guard_release(mc_guard *g);

/* Before out (a file or folder, existing or not; NULL and "-" pass) is written: -1 when it is
 * none of g's input files and lies inside none of its input folders; else prints
 * "md5cine: error: OPT 'OUT' is the input 'IN'..." (or "lies inside the input folder") and
 * returns MC_EXIT_INPUT. opt names the option in the message ("-o", "--junit"). */
int mc_guard_output(const mc_guard *g, const char *opt, const char *out);

#endif
