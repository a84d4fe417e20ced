/* Frame jobs: several output frames of one scene rendered at once in one process, each by a
 * scene renderer (scene_renderer.h) of its own on a thread of its own. A renderer is one GL
 * context, and llvmpipe does a frame's vertex work, its clipping and binning on the thread that
 * draws; only rasterising runs on its LP_NUM_THREADS threads. With jobs, that serial part of
 * one frame overlaps the rest of others. What `md5cine render --jobs N` runs:
 *
 *     mc_frame_jobs_desc d = { .renderer = { .scene = &scene }, .jobs = 0 };
 *     mc_frame_jobs_create(&d, &j, &err);
 *     for (next = 0, done = 0; done < count; ) {
 *         while (mc_frame_jobs_in_flight(j) < mc_frame_jobs_count(j) && next < count)
 *             mc_frame_jobs_submit(j, next, &views[next % n], &err), next++;
 *         mc_frame_jobs_collect(j, &k, &info, &err);   // frames come back in order
 *         ... use frame k ...; done++;
 *     }
 *     mc_frame_jobs_release(j);
 *
 * Pixels: each frame is one renderer's mc_scene_renderer_frame, and the same k gives the same
 * pixels whichever renderer draws it, so the frames do not depend on the number of jobs.
 *
 * Memory: each job is a whole renderer -- a GL context with its framebuffers, every texture of
 * the scene decoded and uploaded again, its skinning buffers -- and a frame in flight.
 *
 * Threads: the functions other than create and release belong to one thread at a time (the
 * caller's); the workers never call back into it except through desc.renderer.warn (below). The
 * workers start with every signal but the faults' blocked, so that a program's handlers run on
 * its own threads. */
#ifndef MC_FRAME_JOBS_H
#define MC_FRAME_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/types.h>
#include <md5cine/view.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_FRAME_JOBS_MAX MC_LIMIT_FRAME_JOBS

typedef struct mc_frame_jobs mc_frame_jobs;

typedef struct mc_frame_jobs_desc {
    /* Every job's renderer is made from this desc (borrowed for create only; its scene must
     * outlive the jobs). Warnings: those of loading come once, from the first job's renderer,
     * on its thread while create waits; those of frames come from whichever worker draws, one
     * at a time, and with several jobs each distinct warning once (every job's renderer would
     * give its own). desc.stop interrupts every job's loading. */
    mc_scene_renderer_desc renderer;
    int jobs; /* 1..MC_FRAME_JOBS_MAX; 0: mc_frame_jobs_auto of the cores online */
} mc_frame_jobs_desc;

/* The automatic job count for a machine of cores cores (values < 1 count as 1): 1 up to 3
 * cores, else cores / 2, at most MC_FRAME_JOBS_MAX. Measured on 2 cores: the demo (frames 0-23,
 * 1280x720 to MP4) took 1.07 times as long with 2 jobs of 2 raster threads as with 1 job of 4
 * (median of 12 paired whole-process runs on a loaded machine; docs/speed.md): the raster
 * threads already keep both cores busy, and a second job costs its memory. Above that, half
 * the cores keeps 4 raster threads per context. */
int mc_frame_jobs_auto(int cores);

/* The automatic job count within memory: mc_frame_jobs_auto(cores), fewer while the first job's
 * `first` bytes and `per_job` bytes for each other job are more than `memory` bytes (0: memory
 * unknown, not looked at); at least 1 (a render that does not fit even then is refused by its
 * own check). *by_memory (may be NULL) tells whether memory made it fewer than the cores' count.
 * A function of its arguments only. */
int mc_frame_jobs_fit(int cores, uint64_t memory, uint64_t first, uint64_t per_job,
                      bool *by_memory);

/* The cores online (sysconf), 1..4096: what jobs = 0 hands mc_frame_jobs_auto. */
int mc_frame_jobs_cores(void);

/* Starts the jobs; each worker makes its own renderer on its own thread, so they load in
 * parallel. Returns once all are made. When any fails, every worker is joined and everything
 * freed, and the error is the failing worker's with the lowest index: what
 * mc_scene_renderer_create gives for the same desc (MC_ERR_IMAGE for a texture that does not
 * decode, MC_ERR_INTERRUPTED after desc.renderer.stop, ...). Else also MC_ERR_USAGE (jobs out
 * of range), MC_ERR_NOMEM (also: a thread could not start). *out is NULL on failure. */
mc_status mc_frame_jobs_create(const mc_frame_jobs_desc *desc, mc_frame_jobs **out,
                               mc_error *err);

/* Hands output frame k to a free worker; never blocks. At most mc_frame_jobs_count frames may
 * be in flight (submitted, not collected): one more is MC_ERR_USAGE, as is a NULL view. out
 * (the view and its pixels) must stay valid and untouched until the frame is collected; the
 * view is checked when the frame is drawn (its errors come from collect). */
mc_status mc_frame_jobs_submit(mc_frame_jobs *j, mc_frame_no k, const mc_image_view *out,
                               mc_error *err);

/* Waits for the oldest frame in flight and takes it out: *k its number, info (may be NULL)
 * what it showed, and the status mc_scene_renderer_frame gave for it (its error in err).
 * Nothing in flight is MC_ERR_USAGE with *k = -1. Once the stop flag (desc.renderer.stop) is
 * set it waits no more: MC_ERR_INTERRUPTED with *k = -1 leaves the frame in flight, its job
 * perhaps still inside the GL driver (which finishes what it was given before the job sees
 * the flag; 16 jobs on 2 cores at 1920x1080: seconds), its view still the job's; release
 * waits for it. */
mc_status mc_frame_jobs_collect(mc_frame_jobs *j, mc_frame_no *k, mc_scene_frame_info *info,
                                mc_error *err);

/* Frames submitted and not yet collected. */
int mc_frame_jobs_in_flight(mc_frame_jobs *j);

/* Number of jobs (workers), as settled at create. */
int mc_frame_jobs_count(const mc_frame_jobs *j);

/* As mc_scene_renderer_get_info of the first job's renderer (every job's is the same). */
void mc_frame_jobs_get_info(const mc_frame_jobs *j, int *width, int *height, mc_rate *fps,
                            mc_renderer_info *gl);

/* As mc_scene_renderer_frame_count. */
mc_frame_no mc_frame_jobs_frame_count(const mc_frame_jobs *j);

/* As mc_scene_renderer_input_count and mc_scene_renderer_input of the first job's renderer
 * (every job's reads the same files). */
int mc_frame_jobs_input_count(const mc_frame_jobs *j);
const char *mc_frame_jobs_input(const mc_frame_jobs *j, int i);

/* Waits for the frames being drawn (those not started are dropped, results too), ends the
 * workers, each releasing its renderer on its own thread, and frees everything; NULL is fine.
 * The views of frames in flight are not touched after it returns. */
void mc_frame_jobs_release(mc_frame_jobs *j);

#ifdef __cplusplus
}
#endif

#endif
