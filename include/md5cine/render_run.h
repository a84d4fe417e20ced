/* The render run: what `md5cine render` does, for any program. A loaded scene's output frames
 * are drawn by frame jobs (frame_jobs.h) into the buffers of a pipeline (pipeline.h), whose sink
 * threads write them to the output -- a video through the encoder (encode.h) or a PNG sequence
 * (png_sequence.h) -- and check them against a reference (refcheck.h), while the next frames are
 * drawn. What the command adds is only its options, its messages and its exit status.
 *
 *     mc_render_run_desc d = { .renderer = { .scene = &scene, .width = 640, .height = 360,
 *                                            .msaa = MC_MSAA_DEFAULT },
 *                              .output = "out.mp4" };
 *     mc_render_run *run;
 *     if (mc_render_run_create(&d, &run, &err) == MC_OK &&
 *         mc_render_run_prepare(run, &err) == MC_OK &&     // GL, images, outputs: no frame yet
 *         mc_render_run_frames(run, &err) == MC_OK)        // every frame; outputs complete
 *         ...                                              // mc_render_run_get_stats, ...
 *     mc_render_run_release(run);
 *
 * The phases:
 *   create   checks the desc against the scene and reads the output's name (output.h); no GL,
 *            no file. The frame range and the kind are settled here.
 *   prepare  makes the frame jobs' renderers (GL context, the scene's images and materials),
 *            then opens, in this order and each only while desc.renderer.stop is unset: the
 *            review page's folder and the reference, which must hold every frame to check at
 *            the frames' size (mc_refcheck_preflight: a wrong reference stops the run before any
 *            output exists); the PNG sequence's folder (mc_png_sequence_open) or the video's
 *            folder, its chunk tags (chunk.h: the scene's identity, the frames, the settings)
 *            and the encoder, under a temporary name, with a keyframe and a chapter at each shot
 *            start (mc_plan_shots); then the pipeline and its sink threads.
 *   frames   draws every frame in order, up to desc.jobs at once, and hands each to the sinks;
 *            then finishes the outputs (the video renamed into place) and writes the review
 *            page and the JUnit file of the check.
 *
 * Nothing half-written: a video is written under a temporary name and renamed when complete;
 * each PNG frame likewise, so after a failure or an interrupt every frame file there is whole.
 * When frames fails the encoder is dropped at once, removing its temporary (a stream on stdout
 * cannot be taken back: it ends early), and so is an unfinished review page's folder.
 *
 * Stop: desc.renderer.stop (may be NULL), set by the caller's signal handler, is looked at
 * while the scene's images and materials load, before each step of prepare and before each
 * frame is started; then the call returns MC_ERR_INTERRUPTED ("interrupted") and the outputs go
 * as after a failure. The run itself installs no handler and changes no process-wide state.
 *
 * Threads: a run belongs to one thread, which the progress callback and desc.renderer.warn
 * (once its renderers are made) run on, except the warnings of frames drawn by other jobs'
 * threads (frame_jobs.h). Every thread the run starts -- the jobs', the GL driver's, the sinks',
 * the encoder's, a reference video's decoder's -- starts with every signal blocked but those a
 * fault raises, so a program's SIGINT and SIGTERM handlers run on its own threads.
 *
 * Frame jobs and llvmpipe: each job is one GL context, whose rasteriser starts LP_NUM_THREADS
 * threads (Mesa's default: one per core). A program that wants another count sets that
 * variable itself, before the first context and before any thread starts (`md5cine render` sets
 * twice the cores, shared out among the jobs); the run never calls setenv.
 *
 * Sound (soundtrack.h): prepare mixes the scene's sound once, before the first frame, when
 * the output can carry a track (MC_OUTPUT_SOUND: MP4, MKV, MOV) and the scene has sound (a cue
 * or a sound frame command), or when desc.audio_path asks for the mix; the encoder gets it as
 * its AAC track (encode.h mc_audio_desc, from the first rendered frame on, as long as the
 * video), and frames writes desc.audio_path (the mix of the rendered frames as mixed: 16-bit
 * PCM stereo, 44.1 kHz) once the other outputs are finished. A scene without sound writes what
 * it wrote before: no track. renderer.strict_materials also makes a missing sound file an
 * error. sound_off: no track and no mixing.
 */
#ifndef MC_RENDER_RUN_H
#define MC_RENDER_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/compare.h>
#include <md5cine/error.h>
#include <md5cine/output.h>
#include <md5cine/refcheck.h>
#include <md5cine/render.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/soundtrack.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_render_run mc_render_run;

/* Called on the run's thread after each frame went to the sinks: done frames of total so far,
 * frame the output number of the last (first + done - 1). */
typedef void (*mc_render_progress_fn)(void *user, int64_t done, int64_t total,
                                      mc_frame_no frame);

/* A caller's check inside prepare (before_outputs below). */
typedef mc_status (*mc_render_run_hook_fn)(void *user, const mc_render_run *run, mc_error *err);

/* Zero means default for every field but renderer.scene. The run keeps a copy: the scene and
 * every string and array the desc points to must stay valid until mc_render_run_release. */
typedef struct mc_render_run_desc {
    /* What is drawn and how (scene_renderer.h): the scene (loaded and resolved, borrowed), size,
     * fps, clock, msaa (0 is off, as there), shading, fov mode, background, overlay, GL backend
     * and device, image budget, strict materials, developer images, shadows; its warn and stop
     * serve the whole run. A transparent background (MC_BACKGROUND_NONE) needs an output with
     * MC_OUTPUT_ALPHA or none, and is written with straight alpha (png_sequence.h). */
    mc_scene_renderer_desc renderer;
    int jobs;                /* frames drawn at once, 1..MC_FRAME_JOBS_MAX; 0: mc_frame_jobs_auto
                                of the cores online; never more than the frames rendered */
    bool has_frames;         /* false: every output frame of the scene */
    mc_frame_no first, last; /* with has_frames: output frames first..last, inclusive */

    /* The output (output.h): a video file, "-" (yuv4mpeg2 on stdout) or a PNG pattern; NULL:
     * none, the frames go only to the reference check (or nowhere: a benchmark). */
    const char *output;
    mc_output_kind output_kind; /* MC_OUTPUT_NONE: the kind output names */
    const char *codec;          /* as mc_encoder_desc: NULL MC_ENCODER_DEFAULT_CODEC */
    int crf;                    /* 0: MC_ENCODER_DEFAULT_CRF */
    const char *preset;         /* NULL: MC_ENCODER_DEFAULT_PRESET */

    bool sound_off;         /* no sound track (and no mixing unless audio_path) */
    const char *audio_path; /* the mix as a WAV beside the output, written by frames; NULL:
                               none */
    int audio_rate;         /* the track's rate; 0: MC_ENCODER_DEFAULT_AUDIO_RATE (48000) */

    /* The reference check (refcheck.h) of every frame; NULL reference: none. */
    const char *reference;
    const char *diff_dir;  /* failing frames and their diffs; NULL: mc_render_run_diff_dir */
    bool update_reference; /* write missing and failing frames into the folder reference */
    mc_frame_no offset;    /* frame k against the reference's frame k + offset */
    mc_compare_opts limits;
    const char *mask;      /* a PNG whose black or transparent pixels are ignored; NULL: none */
    const mc_compare_rect *ignore; /* num_ignore rectangles ignored */
    size_t num_ignore;
    const char *report_dir; /* the review page (report.h), written by frames; NULL: none */
    int report_max_frames;  /* its runs listed; 0: MC_REPORT_MAX_FRAMES */
    const char *junit;      /* the check as JUnit XML, written by frames; NULL: none */

    mc_render_progress_fn progress; /* NULL: none */
    void *progress_user;

    /* Called by prepare once the renderers have read the scene's base (its archives,
     * declaration files and images: mc_render_run_input) and before any output is opened, so
     * that a caller may refuse outputs that would replace one of them; a status other than
     * MC_OK ends prepare with it (and the error the hook set). NULL: none. */
    mc_render_run_hook_fn before_outputs;
    void *before_outputs_user;
} mc_render_run_desc;

/* Where a run is, or where the call that failed stopped (mc_render_run_stage), so that a
 * caller can tell its inputs' faults from the machine's: the failures of the stages that read
 * inputs (RENDERER, REFERENCE, SCENE_ID) other than MC_ERR_NOMEM and MC_ERR_GL are the
 * inputs' (a texture that cannot be read, a missing reference), whatever their code. */
typedef enum mc_run_stage {
    MC_RUN_STAGE_CREATED = 0, /* made; prepare not called */
    MC_RUN_STAGE_RENDERER,    /* the frame jobs' renderers: GL, the scene's images, materials */
    MC_RUN_STAGE_SETTINGS,    /* the settings the renderers settled, the shots */
    MC_RUN_STAGE_REPORT,      /* the review page's folder */
    MC_RUN_STAGE_REFERENCE,   /* the reference and the mask opened, the preflight */
    MC_RUN_STAGE_SCENE_ID,    /* the scene's files read again for the chunk tags */
    MC_RUN_STAGE_OUTPUT,      /* the output's folder and file, the encoder, the pipeline */
    MC_RUN_STAGE_READY,       /* prepared: frames may start */
    MC_RUN_STAGE_FRAMES,      /* frames drawn, written, checked; the outputs finished */
    MC_RUN_STAGE_REPORTS,     /* the review page and the JUnit file written */
    MC_RUN_STAGE_DONE,        /* everything written */
} mc_run_stage;

/* What the run settled on; valid from prepare on (zero before, but output_kind). */
typedef struct mc_render_run_info {
    int width, height;          /* pixels */
    mc_rate fps;
    mc_frame_no first, last;    /* the frames rendered, inclusive */
    mc_frame_no frame_count;    /* the scene's output frames at fps */
    int jobs;                   /* frame jobs */
    int sink_threads;           /* 1: frames reach the sinks in order; more: in any order */
    mc_output_kind output_kind; /* MC_OUTPUT_NONE without an output */
    bool sound_track;           /* the output got a sound track */
    size_t sound_events;        /* the soundtrack's events (0 when none was mixed) */
    mc_renderer_info gl;        /* what draws the frames (samples, GL strings) */
} mc_render_run_info;

/* Time per stage, summed (seconds, monotonic clock), for `render --stats`. */
typedef struct mc_render_run_stats {
    mc_frame_no frames;  /* frames drawn and handed to the sinks */
    double pose_s;       /* the view, posing and skinning (mc_scene_frame_info.pose_s) */
    double draw_s;       /* submitting draws */
    double end_s;        /* raster and readback */
    double encode_s;     /* the encoder, over the sink threads */
    double png_s;        /* PNG encoding and writing, over the sink threads */
    double compare_s;    /* the reference check, over the sink threads */
    double wait_s;       /* waiting for a free buffer of the pipeline */
    double wall_s;       /* the frames from the first started to the outputs finished */
    double sound_s;      /* the soundtrack: files decoded, events, the mix */
} mc_render_run_stats;

/* Checks desc and makes the run; no GL, no file. *out is NULL on failure. Errors, each
 * MC_ERR_USAGE unless said: no scene or one not resolved, jobs out of range, the frames
 * outside the scene's ("frames A-B are outside the scene's frames 0-N"), the output's name
 * (mc_output_parse), a transparent background for an output without alpha, the reference
 * options without a reference, a review page with update_reference; MC_ERR_NOMEM. */
mc_status mc_render_run_create(const mc_render_run_desc *desc, mc_render_run **out,
                               mc_error *err);

/* Everything before the first frame (see the top); the run's stage says where a failure
 * stopped. Errors: those of mc_frame_jobs_create, mc_report_open, mc_refcheck_open and
 * _preflight, mc_chunk_scene_id, mc_png_sequence_open, mc_encoder_create (and MC_ERR_IO
 * "cannot create folder 'DIR': REASON" for a video's folder), mc_pipeline_create;
 * MC_ERR_INTERRUPTED; MC_ERR_USAGE when called twice. After a failure only release may
 * follow. */
mc_status mc_render_run_prepare(mc_render_run *run, mc_error *err);

/* Draws, writes and checks every frame, finishes the outputs, then writes the review page and
 * the JUnit file. A frame that differs from the reference is not an error: the check says so
 * (mc_render_run_check). Errors: those of the frames (MC_ERR_GL), the sinks (MC_ERR_IO naming
 * the file, "output pipe closed" on a closed stdout, MC_ERR_CODEC), mc_encoder_finish,
 * mc_report_finish, mc_junit_write; MC_ERR_INTERRUPTED; MC_ERR_USAGE unless prepared. A
 * failure at stage MC_RUN_STAGE_REPORTS leaves the outputs and the check complete. */
mc_status mc_render_run_frames(mc_render_run *run, mc_error *err);

/* Frees everything; NULL is fine. An output not finished is removed (the video's temporary,
 * the review page's folder); the scene stays the caller's. */
void mc_render_run_release(mc_render_run *run);

mc_run_stage mc_render_run_stage(const mc_render_run *run);
void mc_render_run_get_info(const mc_render_run *run, mc_render_run_info *out);
void mc_render_run_get_stats(const mc_render_run *run, mc_render_run_stats *out);

/* The encoder that wrote the video ("libx264", "yuv4mpeg2"; encode.h), valid until release;
 * NULL without one or after frames failed. */
const char *mc_render_run_codec_name(const mc_render_run *run);

/* Frames handed to the frame jobs and not yet collected. After an interrupt (frames gave
 * MC_ERR_INTERRUPTED) those are inside the GL driver, which finishes the work it was given
 * before a job sees the stop flag (many jobs on few cores: seconds at 1920x1080). */
int mc_render_run_in_flight(mc_render_run *run);

/* For a program that ends at once on an interrupt with frames in flight, after frames failed
 * (which stopped the sinks and removed the video's temporary): removes the review page's
 * unfinished folder without waiting for the frame jobs. Nothing of theirs reaches a file (a
 * stopped frame is not read back). The run may then only be left to the process's exit (no
 * release: it would wait). */
void mc_render_run_abandon(mc_render_run *run);

/* The files of the scene's base that the renderers read (mc_scene_renderer_input), after
 * prepare has made them; 0 before. The strings live as long as the run; out of range: NULL. */
int mc_render_run_input_count(const mc_render_run *run);
const char *mc_render_run_input(const mc_render_run *run, int i);

/* The reference check, its rows and summary (refcheck.h: mc_refcheck_print_table, _json),
 * owned by the run until release; NULL without a reference or before prepare. */
const mc_refcheck *mc_render_run_check(const mc_render_run *run);

/* Where desc's failing frames go: desc.diff_dir; else beside the output: its name without
 * extension + ".diff" for a video file, the PNG pattern's folder + ".diff" ("render.diff"
 * for one in the current folder); without an output file (none, or "-"), the reference + ".diff"
 * (its extension dropped). Into out, cap bytes, cut to fit. For checking outputs against
 * inputs before a run is made. */
void mc_render_run_diff_dir(const mc_render_run_desc *desc, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
