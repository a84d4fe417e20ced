/* Video output: RGBA frames in, an MP4/MKV/MOV file (libavformat + libavcodec) or a
 * yuv4mpeg2 stream out.
 *
 * Containers are the rows of the table of output kinds (output_kinds.h) that hold frames in one
 * file: desc.kind, or the kind the output name means (case-insensitive): ".mp4", ".mkv", ".mov"
 * (encoded), ".y4m" (uncompressed yuv4mpeg2 file) and "-" (yuv4mpeg2 on stdout, for piping
 * into another encoder). Anything else is MC_ERR_USAGE.
 *
 * Defaults (a zero field in mc_encoder_desc):
 *   codec    "libx264"; when the asked encoder is not in this libavcodec, the chain
 *            libx264 -> mpeg4 (or desc.fallbacks) is tried, the desc's warn callback is told
 *            "encoder 'X' is not available, using 'Y'" and mc_encoder_codec_name() says
 *            which one is used. Nothing is substituted silently. An encoder that exists but
 *            fails to open is an error.
 *   crf      MC_ENCODER_DEFAULT_CRF (18: review quality). For encoders without CRF (mpeg4)
 *            the value maps to a fixed quantiser: qscale = max(1, crf / 6).
 *   preset   MC_ENCODER_DEFAULT_PRESET ("veryfast"; x264 only). Measured on 120 demo frames
 *            at 1280x720, crf 18, CPU time per frame including the conversion: veryfast
 *            11 ms at 1.3 Mb/s; medium 26 ms for 4% fewer bits; faster 20 ms; superfast
 *            8 ms at 2.1x the bits; ultrafast 4 ms at 3.2x the bits.
 *   threads  MC_ENCODER_DEFAULT_THREADS (2). A fixed count, never "auto": x264's thread count
 *            changes its bitstream, so a fixed count makes the bytes the same on every machine.
 *            1, 2 and 3 threads cost the same CPU time (11-12 ms/frame above); two let the
 *            encoder use the second core while the renderer waits.
 *   gop      a keyframe at every shot start (an IDR frame for x264) and at least every
 *            10 seconds; x264 may add keyframes at scene changes inside a shot.
 *
 * Pixels: RGBA (alpha ignored) is converted to yuv420p with BT.709 coefficients, full-range
 * RGB to limited ("TV") range YUV, and the stream is tagged bt709 primaries / transfer /
 * matrix and tv range, so players show the colours that were rendered.
 *
 * Sizes: width and height must be even (4:2:0 chroma; x264 rejects odd sizes). An odd size
 * is rejected by mc_encoder_create with MC_ERR_USAGE; it is not padded, so the output
 * always has exactly the size asked for. Limits: 16..16384 pixels each way and at most
 * MC_LIMIT_VIDEO_MAX_MACROBLOCKS 16x16 blocks (limits.h: H.264 level 6.2, 8192x4352), else
 * MC_ERR_LIMIT "too large", checked before any file is created.
 *
 * Timing: the time base is den/num for a rate num/den; frame k (the k-th frame written, from
 * 0) has pts desc.first_frame + k and lasts one frame, so a file of N frames lasts exactly
 * N * den / num seconds. A chunk of a longer render (first_frame > 0) keeps its frames' times
 * in the whole: MP4 and MOV then start with an empty edit of first_frame frames (in a movie
 * timescale that is a multiple of num, so that it is exact), so readers
 * see the first frame at first_frame * den / num seconds, and chunks join by stream copy.
 *
 * Shots: desc.shot_starts lists the output frame indices where shots begin. Each gets a
 * keyframe, and the file (MP4, MKV, MOV) gets one chapter per shot titled "Shot N", running
 * from its start to the next shot's start (the last one to the end). Starts count frames
 * written (0 is the first), chapters are at their times (first_frame added). N is
 * desc.shot_numbers[i] when given, else i + 1. When the list is empty or does not start at 0,
 * frames before the first start are not in any chapter.
 *
 * Metadata: MP4 and MOV are written with "+use_metadata_tags", so every key is kept under
 * its own name (ffprobe's format tags), not only the iTunes set.
 *
 * Files: MP4 and MOV are written with "+faststart" (the index at the front, for streaming
 * and quick opening in review tools). Output goes to a temporary name in the target folder
 * (mc_outfile) and is renamed into place by mc_encoder_finish; a failure, or destroying an
 * encoder that was not finished, removes it, so no half-written video is ever left. A stream
 * on stdout cannot be taken back: there the reader sees a stream that ends early.
 *
 * Sound (desc.audio; docs/audio-track.md): with desc.audio.mix set, an MP4, MKV or MOV gets a
 * second stream, AAC-LC stereo from libavcodec's own "aac" encoder at desc.audio.bitrate
 * (0: MC_ENCODER_DEFAULT_AUDIO_BITRATE, 192 kb/s) and desc.audio.rate (0:
 * MC_ENCODER_DEFAULT_AUDIO_RATE, 48000 Hz, resampled from the mix's MC_SOUND_RATE with
 * libswresample; 44100 keeps the mix's rate; any rate the AAC encoder takes, 8000..96000).
 * The mix is the whole scene's, from time 0, whatever part of it the file holds: a file of
 * output frames F..F+N-1 carries the sound of F * den / num .. (F + N) * den / num seconds, at
 * output samples round(F * den * rate / num) .. round((F + N) * den * rate / num), so the
 * track is as long as the video (the last AAC frame is cut to fit). Mix samples past its end
 * are silence. Packets are written as the frames are, interleaved by time. The encoder's
 * priming (1024 samples) is cut by the edit list in MP4 and MOV, so a reader decodes the mix's
 * first sample at the first frame's time; in a chunk (first_frame > 0) the sound starts at
 * the chunk's first frame like the picture (an empty edit before it, the priming trimmed: the
 * edit list FFmpeg 5.1's muxer writes is rewritten in place after its trailer), and a chunk
 * that starts less than 1024 output samples after time 0 carries the sound from time 0 (the
 * muxer writes a single edit there, which cannot also delay the track). Matroska has no edit
 * list: there the priming packet keeps its time, 1024 samples before the track's first sample
 * (negative, -21 ms at 48 kHz, in a file from time 0), so the mix still decodes at its times,
 * to Matroska's millisecond. A yuv4mpeg2 output cannot hold sound: audio given with ".y4m" or
 * "-" is MC_ERR_USAGE. Without desc.audio.mix the output is exactly what it is without sound,
 * byte for byte.
 *
 * Reproducibility: the same frames and desc give the same bytes on every run and machine
 * with the same FFmpeg/x264 build. No creation time is written, the muxer and encoder run in
 * bit-exact mode (no "Lavf..."/"Lavc..." version strings, fixed MKV UIDs), and the thread
 * count is fixed. x264's AVX-512 routines are left out (they read memory they never wrote,
 * so the bytes changed with the heap's history); AVX-512 and AVX2 machines then agree. x264
 * still stores its version and settings (threads included) in an SEI message, so another
 * x264 build or thread count gives other bytes, and so may a CPU without AVX2. */
#ifndef MC_ENCODE_H
#define MC_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/limits.h>
#include <md5cine/output_kinds.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_ENCODER_DEFAULT_CODEC   "libx264"
#define MC_ENCODER_DEFAULT_CRF     18
#define MC_ENCODER_DEFAULT_PRESET  "veryfast"
#define MC_ENCODER_DEFAULT_THREADS 2
#define MC_ENCODER_DEFAULT_AUDIO_RATE    48000  /* Hz: the video norm */
#define MC_ENCODER_DEFAULT_AUDIO_BITRATE 192000 /* bits per second, stereo */
#define MC_ENCODER_MIN_SIZE        MC_LIMIT_RENDER_MIN_SIDE
#define MC_ENCODER_MAX_SIZE        MC_LIMIT_RENDER_MAX_SIDE

typedef struct mc_encoder mc_encoder;

/* A sound track to encode (above; shared with mc_concat_desc, chunk.h). Zero: no track. */
typedef struct mc_audio_desc {
    /* frames * 2 floats, left and right interleaved, MC_SOUND_RATE (44100) samples per second,
     * on the 16-bit scale (full scale +-32767.0; divided by 32768 for the encoder, as 16-bit
     * PCM reads), sample 0 at time 0 of output frame 0; every value finite (checked at create:
     * MC_ERR_USAGE naming the sample). Owned by the caller and not copied: it is read until the
     * encoder is finished or released. NULL: no sound track */
    const float *mix;
    int64_t frames; /* sample frames (left/right pairs) in mix, >= 0 */
    int rate;       /* the track's samples per second; 0 -> MC_ENCODER_DEFAULT_AUDIO_RATE */
    int bitrate;    /* bits per second, 16000..512000; 0 -> MC_ENCODER_DEFAULT_AUDIO_BITRATE */
} mc_audio_desc;

typedef struct mc_encoder_desc {
    const char *path;   /* output file (extension picks the container) or "-" for stdout */
    mc_output_kind kind; /* MC_OUTPUT_NONE (0): the kind path names; else MC_OUTPUT_MP4, _MKV,
                            _MOV or _Y4M whatever the name ("-" only with _Y4M) */
    int width, height;  /* pixels, even, MC_ENCODER_MIN_SIZE..MC_ENCODER_MAX_SIZE */
    mc_rate fps;        /* frames per second num/den, 1..1000 (30000/1001 for 29.97) */
    int64_t first_frame; /* >= 0: the output frame number (pts) of the first frame written */
    const char *codec;  /* libavcodec encoder name; NULL -> MC_ENCODER_DEFAULT_CODEC */
    int crf;            /* 1..51 quality (lower is better); 0 -> MC_ENCODER_DEFAULT_CRF */
    const char *preset; /* x264 preset; NULL -> MC_ENCODER_DEFAULT_PRESET */
    int threads;        /* encoder threads, 1..16; 0 -> MC_ENCODER_DEFAULT_THREADS */
    bool bottom_up;     /* frames arrive bottom row first (glReadPixels order) */
    /* FFmpeg's warnings and errors made inside this encoder's calls, one line each; NULL
     * drops them. md5cine never changes FFmpeg's process-wide log level: messages made
     * outside md5cine's calls still reach FFmpeg's default printer (src/video/ffmpeg_log.h) */
    mc_log_fn ffmpeg_log;
    void *ffmpeg_log_user;
    /* NULL-terminated encoder names tried in order when codec is missing;
     * NULL -> {"libx264", "mpeg4", NULL} */
    const char *const *fallbacks;
    /* shot_count strictly increasing output frame indices where shots start; may be NULL */
    const int64_t *shot_starts;
    /* the shots' chapter numbers, shot_count of them; NULL -> 1, 2, ... */
    const int *shot_numbers;
    size_t shot_count;
    /* NULL-terminated key, value, key, value... written as container metadata (MP4, MKV, MOV;
     * ignored for y4m), e.g. { "comment", "rendered with ...", NULL }; may be NULL */
    const char *const *metadata;
    mc_warn_fn warn; /* told about encoder substitutions; may be NULL (then dropped) */
    void *warn_user;
    mc_audio_desc audio; /* the sound track (MP4, MKV, MOV); zero: none */
} mc_encoder_desc;

/* Opens the output (under its temporary name) and the encoder. *out is NULL on failure.
 * The desc, its path and its arrays are copied (the caller keeps ownership; nothing in desc
 * but desc.audio.mix is used after create returns). Errors: MC_ERR_USAGE (bad size, fps, crf,
 * threads, extension, shot list, audio rate or bitrate, audio for yuv4mpeg2; the message
 * names the value), MC_ERR_IO (the folder cannot be
 * written; names the file), MC_ERR_CODEC (no usable encoder, or the encoder refused the
 * settings), MC_ERR_NOMEM. */
mc_status mc_encoder_create(const mc_encoder_desc *desc, mc_encoder **out, mc_error *err);

/* Converts and encodes one frame: width * height RGBA pixels, rows `stride` bytes apart
 * (stride >= width * 4), top row first unless desc.bottom_up, and the sound up to the frame's
 * end. The pixels are not kept after the call returns. md5cine allocates nothing per frame
 * (FFmpeg allocates each compressed packet). Errors: MC_ERR_CODEC, MC_ERR_IO (naming the
 * file, e.g. a full disk), MC_ERR_USAGE (after finish or a failure). After an error the
 * encoder only accepts mc_encoder_release. */
mc_status mc_encoder_write_rgba(mc_encoder *enc, const uint8_t *rgba, size_t stride, mc_error *err);

/* Flushes the encoder, writes the trailer (chapters, faststart index) and renames the file
 * into place. Errors as for write; on failure the temporary file is removed. Calling it a
 * second time is MC_ERR_USAGE. */
mc_status mc_encoder_finish(mc_encoder *enc, mc_error *err);

/* Frees everything; NULL is fine. Without a successful finish the output is removed. */
void mc_encoder_release(mc_encoder *enc);

/* The libavcodec encoder actually used ("libx264", "mpeg4"), or "yuv4mpeg2" for the raw
 * stream. Valid until destroy; never NULL. */
const char *mc_encoder_codec_name(const mc_encoder *enc);

/* Frames written so far. */
int64_t mc_encoder_frame_count(const mc_encoder *enc);

#ifdef __cplusplus
}
#endif

#endif
