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

#endif
