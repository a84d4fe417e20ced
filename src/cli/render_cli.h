/* md5cine render, split over a few files: argument parsing (render_args.c), the address-space
 * estimates (address_space.c) and the command (cmd_render.c), which hands the options to the
 * library's render run (render_run.h) and prints what it did. These declarations are private
 * to the command line. */
#ifndef MC_RENDER_CLI_H
#define MC_RENDER_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md5cine/output.h>
#include <md5cine/render.h>
#include <md5cine/render_run.h>
#include <md5cine/scene.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/view.h>

#include "limit_args.h"
#include "progress.h"
#include "scene_args.h"

#define MC_PATH_CAP 4096

/* Address space a render needs beyond what is in use (address_space.c), in bytes: estimates
 * meant as upper bounds on llvmpipe, for refusing a render under `ulimit -v` before the GL
 * driver runs out inside code that does not survive it. */
typedef struct mc_address_need {
    unsigned long long gl;     /* making the GL context and the scene renderer */
    unsigned long long output; /* the encoder and the frame pipeline */
    unsigned long long frame;  /* drawing one frame */
    unsigned long long job;    /* each frame job beyond the first (frame_jobs.h): its context's
                                  raster threads and buffers, its thread and its frame */
} mc_address_need;

/* Under an address-space limit (RLIMIT_AS), one malloc arena for the whole process: call
 * before any thread starts. Does nothing without a limit. */
void mc_cli_address_space_setup(void);
/* What rendering scene s (resolved) at width x height with samples per pixel needs. */
void mc_cli_render_need(const mc_scene *s, int width, int height, int samples,
                        mc_address_need *need);
/* -1 when there is no address-space limit or need bytes fit in what it leaves; else prints
 * "md5cine: error: out of memory: ..." naming the limit, what is left and what (a noun
 * phrase) needs it, and returns MC_EXIT_RUNTIME. */
int mc_cli_address_check(const char *what, unsigned long long need);
/* True when there is no address-space limit or need bytes fit in what it leaves. */
bool mc_cli_address_fits(unsigned long long need);
/* The memory frame jobs may take, in bytes, for mc_frame_jobs_fit: what the machine has available
 * (mc_memory_available) or, when less, what an address-space limit leaves; 0 when neither is
 * known. *how (may be NULL) says which. */
unsigned long long mc_cli_memory_for_jobs(const char **how);


typedef enum mc_out_kind {
    MC_OUT_NONE,  /* no -o (allowed with --reference) */
    MC_OUT_VIDEO, /* .mp4 .mkv .mov .y4m or "-" */
    MC_OUT_PNG,   /* a PNG pattern */
} mc_out_kind;

/* --quality: a set of size, samples and shadows that the options given win over
 * (docs/speed-round2.md): draft half the size (each side halved to an even number, at least
 * 16), no MSAA, no shadows; review (the default) the scene's size, 4x MSAA, shadows decided
 * once per pixel; final as review with the shadows at each sample. */
typedef enum mc_quality { MC_QUALITY_DRAFT, MC_QUALITY_REVIEW, MC_QUALITY_FINAL } mc_quality;

typedef struct mc_render_opts {
    const char *scene; /* a scene file, or a mesh rendered directly (mesh_scene.h) */
    const char *anim;  /* NULL, or the mesh's anim (render MESH ANIM), or the name of the
                          model's anim (render NAME --base DIR ANIM) */
    const char *base;  /* --base DIR: scene is the name of a model declaration of DIR */
    const char *out; /* NULL without -o */
    mc_scene_args view; /* the options sheet shares (scene_args.h); msaa default
                           MC_MSAA_DEFAULT, no_shadows 0, both set by --quality when not given */
    mc_out_kind out_kind;
    mc_output_target target; /* -o read by the table of output kinds (output.h); its pattern
                                when out_kind is MC_OUT_PNG */
    int width, height;      /* 0: the scene's, else the default (halved by draft) */
    mc_quality quality;     /* --quality draft|review|final */
    mc_clock clock;         /* --clock ideal|engine */
    bool has_frames;
    int64_t first, last; /* --frames, inclusive output numbers */
    int crf;             /* 0: the encoder's default */
    const char *preset, *codec;
    mc_background_mode bg_mode; /* --background: the scene's, given or none (scene_renderer.h) */
    float bg[3];                /* 0..1 when MC_BACKGROUND_GIVEN */
    mc_fov_mode fov_mode;
    int gl_device;    /* --gl-device N (from 1); 0: automatic */
    bool overlay, stats, developer_images;
    mc_shadow_samples shadow_samples; /* --shadow-samples pixel|sample (render.h) */
    bool strict; /* --strict: a used material that fails to parse is an error (exit 2) */
    int image_mpixels; /* --image-pixels: 0 = the default budget */
    int jobs;          /* --jobs N|auto: frames drawn at once (frame_jobs.h); 0 = auto */
    double progress_interval; /* --progress-interval: seconds between log lines (progress.h) */
    const char *reference; /* --reference REF */
    const char *diff_dir;  /* --diff DIR; NULL: chosen from the output or REF */
    bool update_reference;
    long ref_offset; /* --offset N: output frame k is checked against REF's frame k + N */
    bool has_ref_offset;
    bool json; /* --json: the reference check as one JSON object */
    bool verbose; /* --verbose: the check's table lists every frame that did not pass */
    mc_limit_args lim; /* --threshold .. --ignore: the reference check's limits and mask */
    const char *report_dir; /* --report DIR: the HTML review page (report.h) */
    int report_max_frames;  /* --report-max-frames N: runs listed; 0: the default */
    const char *junit;      /* --junit FILE: the check as JUnit XML */
    const char *audio_path; /* --audio FILE.wav, or -o FILE.wav: the mix as a WAV */
    bool audio_off;         /* --audio off: no sound track */
    bool sound_only;        /* -o FILE.wav: the sound only, no frames drawn */
    int audio_rate;         /* --audio-rate N: the track's rate; 0: 48000 */
} mc_render_opts;

/* ---- render_checks.c: before the run writes anything ---- */

/* The size asked for, until the renderer settles it: --size, else the scene's, else 1280x720,
 * halved by --quality draft when --size is not given. */
void mc_render_asked_size(const mc_render_opts *o, const mc_scene *s, int *w, int *h);

/* -1 when no output of o replaces a file scene s read, the files of its base run's renderers
 * read (run: NULL before they are made), the reference or the mask, and none lies inside a
 * reference folder (d: the run's desc, for its diff folder); else the message is printed and
 * the exit code returned. */
int mc_render_check_outputs(const mc_render_opts *o, const mc_scene *s,
                            const mc_render_run_desc *d, const mc_render_run *run);

/* The frame jobs: --jobs, or mc_frame_jobs_auto of the cores shrunk to what fits under an
 * address-space limit; never more than the frames to render. Sets LP_NUM_THREADS for that
 * many contexts unless the user set it: call before any thread starts (setenv). */
int mc_render_settle_jobs(const mc_render_opts *o, const mc_scene *s);

/* Under `ulimit -v`: -1 when rendering s with jobs frame jobs fits, before the GL context
 * (run NULL: the driver, the outputs and the frames at the size asked) or once run is
 * prepared (its frames at the size and samples it settled); else the message is printed and
 * the exit code returned. */
int mc_render_check_address(const mc_render_opts *o, const mc_scene *s, int jobs,
                            const mc_render_run *run);

/* The GL facts of a renderer as JSON members ("backend":...,"samples":N, no braces), as doctor
 * and render --progress json print them (cmd_doctor.c). */
void mc_print_gl_json(FILE *to, const mc_renderer_info *info);

/* Parses argv (argv[0] is "render"). Returns -1 when the render should go ahead, else the
 * exit code (0 after --help, MC_EXIT_INPUT after a usage error, already printed). */
int mc_render_parse_args(int argc, char **argv, mc_render_opts *o);

#endif
