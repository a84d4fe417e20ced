/* Reading frames to compare: one PNG, a folder of numbered PNGs, or a video.
 *
 * The kind of a path is decided by stat and extension: a folder is a PNG sequence; a file
 * ending in .mp4, .mkv, .mov, .webm, .avi or .y4m (any case) is a video; any other file is read
 * as one image (PNG, or anything stb_image reads).
 *
 * Frame numbers: in a folder, every file ending in .png (any case) whose name contains a run of
 * decimal digits takes the number of the last such run ("00017.png", "shot_a.00017.png" -> 17);
 * other files are ignored, two files with the same number are an error. A video's frames are
 * numbered 0..n-1 in presentation order, or from FIRST on for a chunk (a video whose
 * md5cine_chunk tag says FIRST-LAST/FRAMES, chunk.h), so that a chunk lines up with the frames
 * of the whole scene; a chunk's tags are parsed strictly (a bad one is MC_ERR_SYNTAX). A single image has the number in its name, or 0
 * when its name has none.
 *
 * Pixels: 8-bit RGBA, top row first, opaque unless the PNG has alpha. A video is decoded with
 * libavcodec and converted with libswscale using the stream's colour tags (matrix BT.709,
 * BT.601 or others swscale knows; limited or full range); untagged streams are read as BT.709
 * limited range, which is what md5cine's encoder writes and tags. */
#ifndef MC_FRAMES_IN_H
#define MC_FRAMES_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/chunk.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mc_frames_kind {
    MC_FRAMES_IMAGE,  /* one image file */
    MC_FRAMES_FOLDER, /* a folder of numbered PNGs */
    MC_FRAMES_VIDEO,  /* a video file: lossy, compare with the lossy defaults */
} mc_frames_kind;

/* An open source. Opaque: it owns decoders and the pixels of the current frame. */
typedef struct mc_frames_in mc_frames_in;

/* One frame, valid until the next mc_frames_read on the same source or its close. */
typedef struct mc_frame {
    long number;         /* frame number (see above) */
    int width, height;   /* pixels */
    size_t stride;       /* bytes between rows, >= 4 * width */
    const uint8_t *rgba; /* owned by the source */
    const char *name;    /* the PNG's path, or the video's path; owned by the source */
} mc_frame;

/* Opens path. For a folder the names are listed and sorted by number (no image is read yet);
 * for a video the packets are counted (demuxing without decoding), so mc_frames_count is exact
 * for streams with one frame per packet (H.264, HEVC, VP9, raw video).
 * Errors, each naming the path: MC_ERR_IO (missing, unreadable, a folder with no numbered
 * PNG, two PNGs with the same number), MC_ERR_IMAGE (a video with no video stream or a codec
 * that cannot be opened), MC_ERR_LIMIT (over 10 million frames), MC_ERR_NOMEM.
 * On failure *out is NULL. */
mc_status mc_frames_open(const char *path, mc_frames_in **out, mc_error *err);

/* Closes the source and frees everything it owns. NULL is allowed. */
void mc_frames_release(mc_frames_in *src);

mc_frames_kind mc_frames_kind_of(const mc_frames_in *src);

/* The path given to mc_frames_open; owned by the source. */
const char *mc_frames_path(const mc_frames_in *src);

/* Number of frames (>= 1 after a successful open). */
size_t mc_frames_count(const mc_frames_in *src);

/* Frames the source's own index lists: for a video whose container gives a frame count above
 * mc_frames_count (an MP4 cut short keeps its index while its packets stop early), that
 * count; else mc_frames_count. Frames count .. listed - 1 exist but cannot be read. */
size_t mc_frames_listed(const mc_frames_in *src);

/* The chunk tags of a video that has them, else NULL. Valid until release. */
const mc_chunk_info *mc_frames_chunk(const mc_frames_in *src);

/* The number of the frame at index (0..count-1), in increasing order. -1 when out of range. */
long mc_frames_number(const mc_frames_in *src, size_t index);

/* Index of the frame numbered number, or false when there is none. */
bool mc_frames_find(const mc_frames_in *src, long number, size_t *index);

/* The file that holds the frame at index: the PNG's path for an image or a folder, the
 * video's path for a video; owned by the source. NULL when index is out of range. Several
 * threads may call it at once. */
const char *mc_frames_file(const mc_frames_in *src, size_t index);

/* The size of the frame at index without decoding its pixels: an image's or folder PNG's
 * declared size (the file is read, its header checked as mc_image_probe does), a video's
 * stream size. For an image or a folder it touches nothing in src, so several threads may
 * call it at once. Errors: MC_ERR_IO (cannot read), MC_ERR_IMAGE (no image header, a side
 * over MC_IMAGE_MAX_SIDE: "too large"), MC_ERR_USAGE (index out of range); *w, *h are 0. */
mc_status mc_frames_size(const mc_frames_in *src, size_t index, int *w, int *h, mc_error *err);

/* Reads the frame at index into *out. Images and folders read in any order; a video reads
 * forward only (an index below the last one read is MC_ERR_USAGE; skipping ahead decodes and
 * drops the frames between). Errors name the file: MC_ERR_IO (cannot read),
 * MC_ERR_IMAGE (not a decodable image, truncated, a video that ends early or fails to decode),
 * MC_ERR_USAGE (index out of range), MC_ERR_NOMEM. */
mc_status mc_frames_read(mc_frames_in *src, size_t index, mc_frame *out, mc_error *err);

/* A video's frame rate: the stream's average rate, else its base rate; { 0, 0 } when it has
 * neither, and for images and folders. (A video's chapters: mc_report_chapters, below.) */
mc_rate mc_frames_rate(const mc_frames_in *src);

/* The shots of a video from its chapters: chapter i becomes shot N (its title "Shot N", else
 * i + 1) over the frames it covers, frame = round(time * the stream's frame rate). *out is
 * malloc'd, *count 0 (and *out NULL) when the file has no chapters or is not a video. Errors:
 * MC_ERR_NOMEM only (a file that cannot be opened has no chapters here). */
mc_status mc_report_chapters(const char *path, mc_shot_range **out, size_t *count,
                             mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
