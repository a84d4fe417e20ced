/* chunk: videos rendered as parts of one scene on several machines (`render --frames A-B`),
 * the tags that say which part a file is, and joining the parts into one file by stream copy.
 *
 * A chunk is an ordinary render of output frames first..last: frame k has pts k in the time
 * base den/num of the rate num/den (encode.h), so a chunk keeps its frames' times in the whole
 * scene (in MP4 and MOV an empty edit holds the time before its first frame), starts with an
 * IDR frame and has one at every shot start. Every MP4, MKV and MOV render carries four
 * format tags, a full render being the chunk 0..K-1:
 *
 *   md5cine_chunk     "FIRST-LAST/FRAMES"  the part's output frames, inclusive, and the
 *                                          scene's output frame count: "60-119/241"
 *   md5cine_fps       "NUM/DEN"            the output rate: "24/1", "30000/1001"
 *   md5cine_scene     64 hex digits        the scene's identity (scene.h, mc_chunk_scene_id)
 *   md5cine_settings  "key=value ..."      what changes pixels and bits besides the scene:
 *                                          size, samples, shading, fov mode, background,
 *                                          overlay, clock, codec, crf, preset (as the caller
 *                                          words it)
 *
 * mc_chunk_parse reads them strictly: decimal numbers without sign or leading zeros (at most
 * 15 digits), 0 <= FIRST <= LAST < FRAMES, a rate within 1..1000 fps, exactly 64 lower-case
 * hex digits, settings of 1..255 printable ASCII bytes. Anything else is MC_ERR_SYNTAX naming
 * the file, the tag and what was expected.
 *
 * Scene identity: SHA-256 over the SHA-256 digests (32 bytes each, concatenated) of the scene
 * file, its camera, then for each actor in order its mesh, its anim (when it has one) and the
 * texture image of each submesh that has one (in submesh order, a file used twice counted
 * twice): the order `md5cine info SCENE --json` lists them. File contents only, no paths, so a
 * copy of the scene in another folder (another machine) has the same identity, and a change
 * to any byte of any file it names gives another.
 *
 * Joining (mc_concat): parts in any order are sorted by their first frame; they must share
 * FRAMES, the rate, the scene identity, the settings and the codec's parameters (extradata),
 * and cover frames 0..FRAMES-1 exactly once, else MC_ERR_MISMATCH naming the parts and the
 * frames ("frames 120-179 are missing", "frames 100-119 are in both 'a.mp4' and 'b.mp4'").
 * A file without the tags is MC_ERR_SYNTAX ("is not an md5cine chunk"). Packets are copied as
 * they are (no decoding), their presentation timestamps rescaled to den/num (a timestamp that
 * is not a whole frame is an error: exact in MP4/MOV, rounded in Matroska's milliseconds); each
 * part must hold each of its frames once, checked before the output is created. Decode
 * timestamps are rebuilt: a packet's place in decode order over the whole file less the
 * largest reordering delay of any part, so they rise by one frame a packet and never pass a
 * packet's presentation time. Every frame lasts one tick, so the file lasts exactly
 * FRAMES * den / num seconds. Chapters: each part's chapters (titles "Shot N") cut to the
 * part, a chapter continuing across parts joined into one. The output carries the tags of the
 * chunk 0..FRAMES-1 and the first part's comment; it is written under a temporary name and
 * renamed when complete (fileio.h), never left half-written.
 *
 * Sound: only the parts' video streams are copied; a part's own sound track is dropped, since
 * chunk boundaries would cut AAC frames (and their priming) in the middle. With desc.audio.mix
 * (the mix of the whole timeline, from time 0) the joined file gets one AAC track encoded from
 * it as mc_encoder does for a single render of all FRAMES frames (encode.h "Sound"), so with the
 * same mix, rate and bitrate its packets are those of the single render's track, byte for byte.
 * The mix is read until mc_concat returns. Errors as encode.h's for the audio fields. */
#ifndef MC_CHUNK_H
#define MC_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>

#include <md5cine/chunk_tags.h>
#include <md5cine/encode.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the tags of the video at path (a local file). Errors: MC_ERR_IMAGE (not a video
 * this build reads), as mc_chunk_parse. */
mc_status mc_chunk_probe(const char *path, mc_chunk_info *out, mc_error *err);

typedef struct mc_concat_desc {
    const char *const *parts; /* num_parts paths of chunk videos, any order */
    size_t num_parts;
    const char *output; /* .mp4, .mkv or .mov: an encoded kind of output_kinds.h */
    volatile sig_atomic_t *stop; /* when set (by a signal handler), MC_ERR_INTERRUPTED; may be
                                    NULL */
    /* The sound of the whole timeline (mix from time 0, as encode.h's mc_audio_desc), encoded
     * once into the joined file; zero: the joined file has no sound track */
    mc_audio_desc audio;
} mc_concat_desc;

typedef struct mc_concat_result {
    int64_t frames;     /* frames written */
    mc_rate fps;
    size_t chapters;    /* chapters written */
    int64_t keyframes;  /* keyframe packets written */
} mc_concat_result;

/* Joins the parts into desc->output (see above). result may be NULL. Errors: MC_ERR_SYNTAX
 * and MC_ERR_MISMATCH (parts, see above), MC_ERR_IMAGE (a part that cannot be read),
 * MC_ERR_USAGE (no part, an output name without a video extension), MC_ERR_IO (the output
 * cannot be written), MC_ERR_CODEC, MC_ERR_NOMEM, MC_ERR_INTERRUPTED; no output is left
 * behind on any of them. */
mc_status mc_concat(const mc_concat_desc *desc, mc_concat_result *result, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
