/* Shared by the tests of the camera timeline and its chunk plans (timeline_test.c, plan_test.c):
 * a camera of frames and cuts alone. */
#ifndef MC_CAMERA_FIXTURE_H
#define MC_CAMERA_FIXTURE_H

#include <md5cine/md5camera.h>

/* A camera of `frames` stored frames at `rate`, cut after the stored frames cuts[0..num_cuts);
 * no poses (the timeline reads none). */
static inline mc_camera make_camera(int frames, int rate, int num_cuts, int *cuts)
{
    return (mc_camera){
        .num_frames = frames, .frame_rate = rate, .num_cuts = num_cuts, .cuts = cuts
    };
}

#endif
