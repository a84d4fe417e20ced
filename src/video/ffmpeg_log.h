/* FFmpeg's messages, routed to the md5cine object whose call made them.
 *
 * av_log is process-wide, and md5cine never changes its level. Instead the first encoder or
 * reader installs (once) a callback that sends a message made on a thread while that thread is
 * inside an md5cine call to that object's mc_log_fn (or drops it when the object has none), and
 * every other message to FFmpeg's own default printer, so the rest of a program that uses
 * FFmpeg sees its messages as before. Encoder and reader wrap each FFmpeg-calling entry point:
 *
 *     mc_ffmpeg_log_scope sc;
 *     mc_ffmpeg_log_enter(&sc, fn, user);  ...FFmpeg calls...  mc_ffmpeg_log_leave(&sc); */
#ifndef MC_VIDEO_FFMPEG_LOG_H
#define MC_VIDEO_FFMPEG_LOG_H

#include <md5cine/error.h>

typedef struct mc_ffmpeg_log_scope {
    mc_log_fn fn;
    void *user;
    const struct mc_ffmpeg_log_scope *outer; /* the scope this one is nested in, or NULL */
} mc_ffmpeg_log_scope;

void mc_ffmpeg_log_enter(mc_ffmpeg_log_scope *sc, mc_log_fn fn, void *user);
void mc_ffmpeg_log_leave(mc_ffmpeg_log_scope *sc);

#endif
