/* The AAC track of a video (encode.h "Sound"), shared by the encoder (encode.c) and the joiner
 * of chunks (concat.c): the mix resampled with libswresample, encoded by libavcodec's "aac" in
 * frames of 1024 samples and written into the caller's muxer, interleaved with its video.
 *
 * Times are output frames of the whole scene (first_frame counted), as the video's pts. */
#ifndef MC_VIDEO_ENCODE_AUDIO_H
#define MC_VIDEO_ENCODE_AUDIO_H

#include <libavformat/avformat.h>

#include <md5cine/encode.h>

typedef struct mc_aac_track mc_aac_track;

/* Checks a->rate, a->bitrate, a->frames and that every mix value is finite (nothing to check
 * when a->mix is NULL). Errors: MC_ERR_USAGE naming path and the value, MC_ERR_CODEC (this
 * libavcodec has no "aac" encoder). */
mc_status mc_aac_check(const mc_audio_desc *a, const char *path, mc_error *err);

/* Adds the track to oc, which must not have written its header yet, as its next stream, and
 * opens the encoder and the resampler. The track starts at output frame first_frame (at time
 * 0 when that is less than one AAC frame from 0). a (checked by mc_aac_check) and its mix stay
 * the caller's and must outlive the track; path (the output's name, for messages) too.
 * Errors: MC_ERR_CODEC, MC_ERR_NOMEM; *out is NULL on failure. */
mc_status mc_aac_open(AVFormatContext *oc, const mc_audio_desc *a, mc_rate fps, int64_t first_frame,
                      const char *path, mc_aac_track **out, mc_error *err);

/* Encodes and writes the whole AAC frames of the track that end by the start of output frame
 * `frame`. Errors: MC_ERR_CODEC, MC_ERR_IO (naming the file), MC_ERR_NOMEM. */
mc_status mc_aac_write_until(mc_aac_track *t, AVFormatContext *oc, int64_t frame, mc_error *err);

/* Writes the rest of the track, to the start of output frame end_frame (the last AAC frame
 * cut to fit), and flushes the encoder. Errors as mc_aac_write_until. */
mc_status mc_aac_finish(mc_aac_track *t, AVFormatContext *oc, int64_t end_frame, mc_error *err);

/* For an MP4 or MOV whose track starts after time 0, after the trailer is written and the file
 * closed: rewrites the track's edit list in file (same size, in place) from what FFmpeg 5.1's
 * muxer writes for a track starting later (an empty edit to the priming packet's time, then
 * the media from its start, priming included) to an empty edit to the track's start, the same
 * as the video's, then the media from after the priming, as long as the video (frames
 * first_frame..end_frame-1). Nothing to do for other tracks. Errors: MC_ERR_IO (naming path),
 * MC_ERR_CODEC (the file's edit list is not the one expected). */
mc_status mc_aac_fix_edit_list(const mc_aac_track *t, const char *file, int64_t end_frame,
                               mc_error *err);

/* Frees everything; NULL is fine. */
void mc_aac_close(mc_aac_track *t);

#endif
