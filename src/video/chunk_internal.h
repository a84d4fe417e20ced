/* Shared by chunk.c and concat.c: opening a local video and reading its chunk tags. */
#ifndef MC_VIDEO_CHUNK_INTERNAL_H
#define MC_VIDEO_CHUNK_INTERNAL_H

#include <md5cine/chunk.h>

#include <libavformat/avformat.h>

/* avformat_open_input on "file:PATH" with only the file protocol allowed; FFmpeg's code. */
int mc_chunk_open_input(const char *path, AVFormatContext **fmt);

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
