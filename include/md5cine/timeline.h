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
 * the stored frame it shows. */
#ifndef MC_TIMELINE_H
#define MC_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/md5camera.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_timeline_sample {
    int64_t frame; /* output frame index k (-1 for a sample taken at an arbitrary time) */
    double time;   /* seconds: k / fps */
    int stored;    /* stored camera frame shown (or interpolated from) */
    int next;      /* stored frame interpolated towards; == stored when lerp == 0 */
    float lerp;    /* in [0, 1) */
    int shot;      /* 0-based: number of cuts c with c < stored */
    bool ended;    /* the camera has ended at this time (f > N - 2) */
} mc_timeline_sample;

/* Samples output frame k (k >= 0) at fps.num / fps.den output frames per second. */
void mc_timeline_sample_frame(const mc_camera *cam, mc_rate fps, int64_t k, mc_timeline_sample *out);

/* Samples an arbitrary time t >= 0 in seconds (for sub-frame queries such as motion blur). */
void mc_timeline_sample_time(const mc_camera *cam, double t, mc_timeline_sample *out);

/* The first output frame (at fps) that counts cut i (0 <= i < num_cuts) in its shot: the first
 * frame of the shot that cut i opens, found without sampling every frame. Output frames before it
 * have shot <= i, from it on shot > i. -1 when the cut is at the last stored frame, which opens no
 * shot. Several cuts can share a first frame when fps is lower than the camera's rate. The caller
 * compares the result with mc_timeline_frame_count. */
int64_t mc_timeline_cut_frame(const mc_camera *cam, mc_rate fps, int i);

/* Number of output frames K: frames 0 .. K-1, where K - 1 is the first frame that has ended.
 * A one-frame camera never ends: then the result is single_frame_length (which the caller
 * takes from the scene's frames setting or the longest actor animation). */
int64_t mc_timeline_frame_count(const mc_camera *cam, mc_rate fps, int64_t single_frame_length);

#ifdef __cplusplus
}
#endif

#endif
