/* Reading a video's sound back: its audio track (the first one libavformat ranks best: AAC as
 * md5cine writes it, or anything this libavcodec decodes) decoded and resampled with
 * libswresample to float stereo at the rate asked, on the 16-bit scale of md5cine's mix
 * (full scale +-32767.0: the decoded value times 32768, as encode.h divides it), so that two
 * videos' sound, or a video's and its mix, can be compared sample by sample.
 *
 * Timing: samples[0] is at timeline sample `first` (at the rate asked), the time the reader
 * gives the track's first decoded sample rounded: 0 for a render from time 0, a chunk's first
 * frame's time for a chunk (MP4 and MOV trim the encoder's priming with their edit list). In a
 * Matroska file md5cine's priming packet is decoded too, from 1024 samples (at the track's rate)
 * before 0, so `first` is negative there; its time is in milliseconds, so it may be off by up to
 * half a millisecond. The samples then follow one another as decoded; the last AAC frame is
 * decoded whole, up to 1023 samples (at the track's rate) past the track's end. A track of one
 * channel is spread to both with libswresample's mix (-3 dB each); more than two are mixed down
 * by its rules.
 *
 * Memory: at most MC_LIMIT_AUDIO_SECONDS seconds are read (limits.h); a longer track is
 * MC_ERR_LIMIT, refused by the duration its file states before anything is decoded, or once it
 * decodes to more when the file states none (the samples grow by doubling, at most to the
 * limit). */
#ifndef MC_AUDIO_IN_H
#define MC_AUDIO_IN_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_audio_track {
    bool has_audio;  /* false: the file has no audio track (then frames is 0) */
    float *samples;  /* frames * 2, left and right interleaved, 16-bit scale; malloc'd,
                        NULL when frames is 0; freed by mc_audio_track_release */
    int64_t frames;  /* sample frames (left/right pairs) */
    int rate;        /* samples per second, as asked */
    int64_t first;   /* timeline sample (at rate, from time 0) of samples[0] */
    int source_rate; /* the track's own samples per second and channels */
    int source_channels;
    char codec[32]; /* its decoder ("aac"); "" without a track */
} mc_audio_track;

/* Reads the sound of the video at path (a local regular file) at rate samples per second
 * (8000..96000; MC_SOUND_RATE, 44100, to compare with a mix) into *out, which the caller
 * releases with mc_audio_track_release; on failure *out holds nothing (released already,
 * releasing it again is harmless). A file without an audio
 * track is MC_OK with out->has_audio false. Errors, naming the path: MC_ERR_USAGE (rate),
 * MC_ERR_IO (missing, unreadable), MC_ERR_IMAGE (not a video FFmpeg reads, no decoder for its
 * sound, a packet that fails to decode), MC_ERR_LIMIT (longer than MC_LIMIT_AUDIO_SECONDS),
 * MC_ERR_NOMEM. FFmpeg's messages during the call are dropped. */
mc_status mc_audio_read(const char *path, int rate, mc_audio_track *out, mc_error *err);

/* Frees clip's samples and zeroes it; NULL is fine. */
void mc_audio_track_release(mc_audio_track *clip);

#ifdef __cplusplus
}
#endif

#endif
