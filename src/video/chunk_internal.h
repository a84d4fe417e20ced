/* Shared by chunk.c and concat.c: opening a local video and reading its chunk tags. */
#ifndef MC_VIDEO_CHUNK_INTERNAL_H
#define MC_VIDEO_CHUNK_INTERNAL_H

#include <md5cine/chunk.h>

#include <libavformat/avformat.h>

#include <signal.h>

/* MC_ERR_IMAGE "cannot open 'PATH': not a regular file" unless path names a regular file (through
 * links); MC_ERR_IO when it cannot be looked at. Called before FFmpeg opens a video, whose
 * file protocol would wait forever on a FIFO for a writer, or read a device without end. */
mc_status mc_video_check_regular(const char *path, mc_error *err);

/* FFmpeg's interrupt callback over a stop flag (opaque: the flag, or NULL for none): set in
 * AVFormatContext.interrupt_callback, every blocking FFmpeg read gives up once it is set. */
int mc_video_stop_cb(void *opaque);

/* avformat_open_input on "file:PATH" with only the file protocol allowed, after
 * mc_video_check_regular. stop (may be NULL) becomes the context's interrupt callback, so a
 * signal interrupts the open and every later read. On failure *fmt is NULL and err says why:
 * MC_ERR_NOMEM, MC_ERR_INTERRUPTED, else MC_ERR_IMAGE "cannot open video". */
mc_status mc_chunk_open_input(const char *path, volatile sig_atomic_t *stop,
                              AVFormatContext **fmt, mc_error *err);

/* mc_chunk_parse on the format tags of an open file. */
mc_status mc_chunk_probe_fmt(const char *path, const AVFormatContext *fmt, mc_chunk_info *out,
                             mc_error *err);

/* The MP4/MOV movie timescale for a rate num/den: num doubled until it reaches 10000, the
 * video track's own timescale. The movie timescale measures the edit list, so with it a chunk's
 * start (k * den / num seconds) is a whole number of ticks; FFmpeg's default, 1000, would round
 * the start of frame 119 at 24 fps (4958.33 ms) and shift the chunk's timestamps. */
static inline int mc_mov_timescale(mc_rate fps)
{
    int t = fps.num > 0 ? fps.num : 1;

    while (t < 10000)
        t *= 2;
    return t;
}

#endif
