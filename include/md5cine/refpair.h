/* Checking one frame source against another: source B (the candidate) against reference A,
 * both a PNG, a folder of numbered PNGs or a video (frames_in.h). The one rule that pairs their
 * frames, for `md5cine compare A B` and the Python module alike: B's frame numbered k is
 * checked as frame k against A's frame k + offset -- the checker (refcheck.h) applies the
 * offset, with the same desc.offset that `render --reference --offset` gives it, so that it is
 * applied in one place.
 *
 * Which frames pair:
 *   - two sequences (folders, videos): every frame of B (within the range, when one is given)
 *     needs A's frame k + offset; unless B is placed (an offset was given, B is a chunk of a
 *     video, or a range is given), every frame of A needs B's frame of the same number too;
 *   - one image against a sequence: the image is paired with the sequence's frame of its
 *     number (an image A numbered n: B's frame n - offset; an image B numbered k: A's k + offset);
 *   - two images: one pair, checked as A's number.
 * The check's size is the first pair's declared size when both agree, else the smaller one, so
 * that a file declaring a huge size never sets the buffers.
 *
 * Use: mc_refpair_open, then mc_refpair_fill_desc into the desc of mc_refcheck_open, then
 * mc_refpair_read and mc_refcheck_frame for each pair 0 .. count - 1 (or mc_refpair_check_all
 * for both). */
#ifndef MC_REFPAIR_H
#define MC_REFPAIR_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/error.h>
#include <md5cine/frames_in.h>
#include <md5cine/refcheck.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_refpair mc_refpair;

typedef struct mc_refpair_desc {
    const char *reference; /* A */
    const char *candidate; /* B */
    mc_frame_no offset;    /* B's frame k is checked against A's frame k + offset */
    bool placed;           /* B covers part of A (an offset was given): A's frames that B
                              lacks are not an error */
    bool has_range;        /* check only B's frames numbered first..last, every one of which
                              B must hold */
    mc_frame_no first, last;
} mc_refpair_desc;

/* One frame of B as mc_refpair_read gives it. */
typedef struct mc_refpair_frame {
    mc_frame_no k;        /* the number it is checked as (mc_refcheck_frame's k) */
    const char *file;     /* the file that holds it (B's); owned by the pair */
    mc_image_view view;   /* its pixels when its declared size is the check's, else only its
                             size with pixels NULL (the check then records a SIZE row);
                             valid until the next read */
} mc_refpair_frame;

/* Opens both sources and pairs their frames. Errors, each one message naming the sources as
 * given: those of mc_frames_open and mc_frames_size; MC_ERR_RANGE for a frame that one
 * source holds and the other lacks ("frame 3 is in 'a' but not in 'b'"), a range B does not
 * hold ("--frames 2-9: frame 4 is not in 'b'") or that holds none of its frames; MC_ERR_USAGE
 * for a NULL path. *out is NULL on failure. */
mc_status mc_refpair_open(const mc_refpair_desc *desc, mc_refpair **out, mc_error *err);

/* Closes both sources. NULL is allowed. */
void mc_refpair_release(mc_refpair *p);

/* Sets what the pairing decides in a checker's desc: reference, candidate, width, height,
 * offset, and opts.lossy when B is a video. The other fields are left as they are. */
void mc_refpair_fill_desc(const mc_refpair *p, mc_refcheck_desc *d);

/* Pairs to check. */
size_t mc_refpair_count(const mc_refpair *p);

/* The sources: reference A and candidate B (for their chapters, their kind); owned by the
 * pair. */
mc_frames_in *mc_refpair_reference(const mc_refpair *p);
mc_frames_in *mc_refpair_candidate(const mc_refpair *p);

/* Reads pair i's frame of B (0 .. count - 1; in increasing order when B is a video), decoded
 * only when its declared size is the check's. Errors: those of mc_frames_size and
 * mc_frames_read, MC_ERR_USAGE for i out of range. */
mc_status mc_refpair_read(mc_refpair *p, size_t i, mc_refpair_frame *out, mc_error *err);

/* A's file that B's frame k is checked against (k + offset); an image A's file for any k;
 * NULL when A has no such frame. Owned by the pair. */
const char *mc_refpair_reference_file(const mc_refpair *p, mc_frame_no k);

/* Reads and checks every pair with c (opened with mc_refpair_fill_desc's values, one thread).
 * Stops at the first error: mc_refpair_read's or mc_refcheck_frame's. Frames that fail are not
 * errors: mc_refcheck_get_summary tells. */
mc_status mc_refpair_check_all(mc_refpair *p, mc_refcheck *c, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
