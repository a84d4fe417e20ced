/* plan: splitting a scene's output frames into chunks that separate machines render and
 * `md5cine concat` joins again. Pure integer arithmetic on the camera timeline (timeline.h),
 * so every machine that reads the same scene at the same rate gets the same chunks.
 *
 * Shots: mc_plan_shots lists the runs of output frames that show one shot, as `md5cine info`
 * prints them: a shot starts at frame 0 and at the first output frame of each cut inside the
 * output; cuts passed within one output frame open a single run; a shot's number is its
 * 1-based shot (the MP4 chapter "Shot N"), so numbers can skip when cuts merge.
 *
 * Chunks cover the range first..last (inclusive output frames) in order, without gaps or
 * overlaps; chunk i is numbered i from 0. With L = last - first + 1 frames:
 *   MC_PLAN_CHUNKS, n = N (1 <= N <= L; N > L is MC_ERR_RANGE, never clamped: asking for more
 *     machines than frames is a mistake worth hearing about): chunk i starts at
 *     first + floor(i * L / N), so sizes differ by at most one and the longer ones come last.
 *     With align_shots every inner boundary moves to the nearest shot start inside the range
 *     (the earlier one on a tie); boundaries that land on the same start merge, so there are
 *     at most N chunks, and one when the range holds no shot start.
 *   MC_PLAN_CHUNK_FRAMES, n = F (>= 1): chunks of F frames, the last one shorter. With
 *     align_shots the count restarts at every shot start, so no chunk spans a cut.
 *   MC_PLAN_BY_SHOT: one chunk per shot (cut to the range); n is unused.
 * More than MC_LIMIT_PLAN_CHUNKS chunks is MC_ERR_LIMIT. */
#ifndef MC_PLAN_H
#define MC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>
#include <md5cine/md5camera.h>
#include <md5cine/timeline.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mc_plan_mode {
    MC_PLAN_CHUNKS,       /* n near-equal chunks */
    MC_PLAN_CHUNK_FRAMES, /* chunks of n frames */
    MC_PLAN_BY_SHOT,      /* one chunk per shot */
} mc_plan_mode;

typedef struct mc_plan_desc {
    mc_plan_mode mode;
    int64_t n;              /* the chunk count or the chunk length; see above */
    bool align_shots;       /* boundaries at shot starts (MC_PLAN_CHUNKS, MC_PLAN_CHUNK_FRAMES) */
    int64_t first, last;    /* output frames to cover, inclusive; 0 <= first <= last */
    const mc_shot_range *shots; /* the scene's shots (mc_plan_shots), in order, covering at
                                 least first..last */
    size_t num_shots;
} mc_plan_desc;

typedef struct mc_plan_chunk {
    int64_t index;           /* 0, 1, ... */
    int64_t first, last;     /* output frames, inclusive */
    size_t first_shot, last_shot; /* indices into desc.shots of the shots it shows */
} mc_plan_chunk;

typedef struct mc_plan {
    mc_plan_chunk *chunks; /* malloc'ed; mc_plan_release frees it */
    size_t num_chunks;
} mc_plan;

/* Writes the shots of output frames 0..count-1 (count >= 1) at fps on clock (timeline.h)
 * into out (cap entries;
 * cam->num_cuts + 1 always suffice) and returns how many there are (may exceed cap: then
 * only cap are written). */
size_t mc_plan_shots(const mc_camera *cam, mc_rate fps, mc_clock clock, int64_t count,
                     mc_shot_range *out, size_t cap);

/* Splits desc's range into chunks (see above). On success fills *out (end it with
 * mc_plan_release). Errors: MC_ERR_USAGE (a range that is empty or not covered by the shots,
 * n < 1), MC_ERR_RANGE (more chunks than frames), MC_ERR_LIMIT, MC_ERR_NOMEM; *out is then
 * zeroed. */
mc_status mc_plan_make(const mc_plan_desc *desc, mc_plan *out, mc_error *err);

/* Frees the chunks; *plan is zeroed. Accepts a zeroed struct. */
void mc_plan_release(mc_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
