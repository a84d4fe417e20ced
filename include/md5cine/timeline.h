/* The camera timeline: output frame k -> time, stored camera frames, lerp and shot, exactly as
 * Doom 3's idCameraAnim plays a camera (DESIGN.md 2.1):
 *
 *   p = t * frameRate; f = floor(p); lerp = p - f
 *   for each cut c in increasing order: if f < c stop, else f += 1
 *   N == 1: stored 0; f > N - 2: ended, stored N - 1; lerp == 0: stored f; else f -> f + 1
 *
 * For output frames p is computed with integers (k * frameRate * den / num as a fraction,
 * for an output rate num / den) so a whole
 * stored frame is never missed by rounding. The shot of a sample is the number of cuts below
 * the stored frame it shows.
 *
 * Two clocks say which time output frame k samples:
 *   MC_CLOCK_IDEAL (the default): t = k / fps exactly, as above.
 *   MC_CLOCK_ENGINE: the game's own clock. Doom 3 runs the game in ticks of 16 ms of real time
 *     (USERCMD_MSEC) and keeps game time in integer milliseconds; a camera or anim started at
 *     game time 0 is evaluated at the game time of the last tick, so output frame k shows
 *         ms = 16 * floor(k * 1000 * den / (16 * num))    (the last tick at or before k / fps)
 *     (at --fps 62.5 every output frame is one tick: ms = 16 * k). idCameraAnim::GetViewParms
 *     turns ms into a stored frame with integers: a 60 fps camera (USERCMD_HZ) shows
 *     f = ms / 16 with lerp 0 (one stored frame per tick, never interpolated); any other rate
 *     has p = ms * frameRate, f = p / 1000, lerp = (p % 1000) * 0.001. The cut skipping, the
 *     end rule and the shot are those above; the scene ends at the first output frame that has
 *     ended, as with the ideal clock. */
#ifndef MC_TIMELINE_H
#define MC_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/md5camera.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which time an output frame samples (see above). */
typedef enum mc_clock {
    MC_CLOCK_IDEAL = 0, /* t = k / fps as an exact fraction */
    MC_CLOCK_ENGINE,    /* Doom 3's 16 ms game ticks and integer milliseconds */
} mc_clock;

/* Length of one game tick of the engine clock, in milliseconds. */
#define MC_ENGINE_TICK_MS 16

typedef struct mc_timeline_sample {
    int64_t frame; /* output frame index k (-1 for a sample taken at an arbitrary time) */
    double time;   /* seconds: k / fps (real time of the output frame, with either clock) */
    int64_t engine_ms; /* engine clock: the game time sampled, in ms; -1 with the ideal clock */
    int stored;    /* stored camera frame shown (or interpolated from) */
    int next;      /* stored frame interpolated towards; == stored when lerp == 0 */
    float lerp;    /* in [0, 1) */
    int shot;      /* 0-based: number of cuts c with c < stored */
    bool ended;    /* the camera has ended at this time (f > N - 2) */
} mc_timeline_sample;

/* Samples output frame k (k >= 0) at fps.num / fps.den output frames per second. */
void mc_timeline_sample_frame(const mc_camera *cam, mc_rate fps, int64_t k, mc_timeline_sample *out);

/* The same with either clock: MC_CLOCK_IDEAL is mc_timeline_sample_frame. */
void mc_timeline_sample_frame_clock(const mc_camera *cam, mc_rate fps, mc_clock clock, int64_t k,
                                    mc_timeline_sample *out);

/* The engine clock's game time of output frame k (>= 0) at fps, in ms: a multiple of 16. */
int64_t mc_timeline_engine_ms(mc_rate fps, int64_t k);

/* Samples game time ms (>= 0; negative counts as 0) by idCameraAnim's integer rule (above).
 * out->frame is -1 and out->time is ms / 1000. */
void mc_timeline_sample_ms(const mc_camera *cam, int64_t ms, mc_timeline_sample *out);

/* Samples an arbitrary time t >= 0 in seconds (for sub-frame queries such as motion blur). */
void mc_timeline_sample_time(const mc_camera *cam, double t, mc_timeline_sample *out);

/* The first output frame (at fps) that counts cut i (0 <= i < num_cuts) in its shot: the first
 * frame of the shot that cut i opens, found without sampling every frame. Output frames before it
 * have shot <= i, from it on shot > i. -1 when the cut is at the last stored frame, which opens no
 * shot. Several cuts can share a first frame when fps is lower than the camera's rate. The caller
 * compares the result with mc_timeline_frame_count. */
int64_t mc_timeline_cut_frame(const mc_camera *cam, mc_rate fps, int i);

/* mc_timeline_cut_frame with either clock. */
int64_t mc_timeline_cut_frame_clock(const mc_camera *cam, mc_rate fps, mc_clock clock, int i);

/* Number of output frames K: frames 0 .. K-1, where K - 1 is the first frame that has ended.
 * A one-frame camera never ends: then the result is single_frame_length (which the caller
 * takes from the scene's frames setting or the longest actor animation). */
int64_t mc_timeline_frame_count(const mc_camera *cam, mc_rate fps, int64_t single_frame_length);

/* mc_timeline_frame_count with either clock. */
int64_t mc_timeline_frame_count_clock(const mc_camera *cam, mc_rate fps, mc_clock clock,
                                      int64_t single_frame_length);

#ifdef __cplusplus
}
#endif

#endif
