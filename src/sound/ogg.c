/* The Ogg Vorbis reader of audio.h (mc_ogg_decode) through stb_vorbis, compiled here as
 * file-local code (as src/image/image.c compiles stb_image).
 *
 * The engine decodes Vorbis with libvorbisfile (snd_decoder.cpp idSampleDecoderLocal::DecodeOGG,
 * ov_read_float) and scales its samples by 32768 (UpSampleOGGTo44kHz); stb_vorbis is another
 * decoder of the same format, so a sample may differ from libvorbis's in its last bits (the
 * tests compare with libvorbisfile's: within its rounding to 16 bits).
 *
 * Memory is bounded: every allocation stb_vorbis makes (its setup: codebooks, floors, residues,
 * MDCT tables; and the setup's temporaries) goes through ogg_malloc, which refuses to hold more
 * than MC_LIMIT_OGG_DECODER_BYTES for one decode and frees what is left held when it ends, and the
 * samples go into a clip whose size the stream's declared length fixes before decoding starts. (Its
 * per-packet temporaries are on the stack, alloca'd, at most 16 channels of half a block: 256 KiB.)
 * stb_vorbis's own fixed-buffer mode (stb_vorbis_alloc) is not used: there a size read from the
 * stream as a negative int, such as a vendor string's length, moves its allocation pointer
 * backwards and the string is written before the buffer (found by fuzzing fuzz_ogg), where malloc
 * refuses such a size. stb_vorbis keeps one process-wide table, its CRC table, which each open
 * rewrites with the same constants. */
#include <md5cine/audio.h>

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clip.h"

/* The C library headers stb_vorbis includes, included first so that the renaming below does
 * not reach them. */
#include <alloca.h>
#include <assert.h>
#include <math.h>
#include <stdio.h>

/* stb is third-party code: our warning set is for our code, so it is off around its source. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
/* stb_vorbis has no "static" option: its API is declared `extern` and defined without a
 * storage class, so declaring it static instead gives every function internal linkage (a
 * definition after a static declaration keeps it, C11 6.2.2p5). Nothing of stb_vorbis leaves
 * this file. */
/* Every block stb_vorbis holds during a decode, counted and linked, so that those its error paths
 * forget (a failed setup returns without freeing its temporaries) are freed when the decode
 * ends. Blocks come zeroed, so that the arrays its cleanup walks after a failed setup (comment
 * strings, residue class data) hold NULL where they were never filled, not garbage it would
 * free. */
typedef struct ogg_block {
    _Alignas(16) size_t n;
    struct ogg_block *prev, *next;
} ogg_block;

/* The decode running on this thread: its blocks, the bytes they take and may take. */
typedef struct ogg_heap {
    ogg_block *head;
    size_t used, cap;
} ogg_heap;
static _Thread_local ogg_heap *heap;

static void *ogg_malloc(size_t n)
{
    ogg_block *b;

    if (!heap || n > heap->cap || heap->cap - n < heap->used + sizeof *b)
        return NULL;
    b = calloc(1, sizeof *b + n);
    if (!b)
        return NULL;
    b->n = n;
    b->next = heap->head;
    if (heap->head)
        heap->head->prev = b;
    heap->head = b;
    heap->used += sizeof *b + n;
    return b + 1;
}

static void ogg_free(void *p)
{
    ogg_block *b = p;

    if (!b)
        return;
    b--;
    if (b->prev)
        b->prev->next = b->next;
    else
        heap->head = b->next;
    if (b->next)
        b->next->prev = b->prev;
    heap->used -= sizeof *b + b->n;
    free(b);
}

/* Frees what the decode left held. */
static void ogg_free_all(ogg_heap *h)
{
    while (h->head) {
        ogg_block *next = h->head->next;

        free(h->head);
        h->head = next;
    }
    h->used = 0;
}

#define STB_VORBIS_NO_STDIO
#define STB_VORBIS_NO_PUSHDATA_API
#define STB_VORBIS_NO_INTEGER_CONVERSION
/* lookup1_values (the codebook setup) casts floor(pow(r + 1, dimensions)) to int, which a
 * stream's dimensions can put far past INT_MAX: undefined in C (found by fuzzing fuzz_ogg). Its
 * floor() is the only one in stb_vorbis; held within int's range, every value that fits is
 * unchanged and one past it still compares as more than any entry count, as the
 * specification's arithmetic has it. */
static double ogg_floor(double x)
{
    return x >= 2147483647.0 ? 2147483647.0 : x <= -2147483648.0 ? -2147483648.0 : floor(x);
}
#define floor(x)  ogg_floor(x)
#define malloc(n) ogg_malloc(n)
#define free(p)   ogg_free(p)
#ifdef __clang__
#pragma clang diagnostic ignored "-Wkeyword-macro"
#endif
#define extern static
#include <stb_vorbis.h>
#undef extern
#undef floor
#undef malloc
#undef free
#pragma GCC diagnostic pop

/* stb_vorbis_open_memory, with one fix: when the comment header declares more comments than
 * the decoder's memory holds, start_decoder fails with the count set and no list, and
 * vorbis_deinit then reads the missing list's entries (a NULL dereference, found by fuzzing
 * fuzz_ogg). The count is cleared before the cleanup where the list is missing. */
static stb_vorbis *ogg_open(const unsigned char *data, int len, int *error)
{
    stb_vorbis *f, p;

    vorbis_init(&p, NULL);
    p.stream = (uint8 *)(uintptr_t)data; /* stb_vorbis only reads the stream */
    p.stream_end = p.stream + len;
    p.stream_start = p.stream;
    p.stream_len = (uint32)len;
    p.push_mode = FALSE;
    if (start_decoder(&p)) {
        f = vorbis_alloc(&p);
        if (f) {
            *f = p;
            vorbis_pump_first_frame(f);
            *error = VORBIS__no_error;
            return f;
        }
    }
    *error = (int)p.error;
    if (!p.comment_list)
        p.comment_list_length = 0;
    vorbis_deinit(&p);
    return NULL;
}

/* ---- the comment header, checked before stb_vorbis reads it ----
 *
 * start_decoder reads the comment header's counts as ints and allocates from them unchecked:
 * sizeof(char *) * count passed to setup_malloc's int parameter wraps for a count of 2^28 or
 * more (a small list is then written far past its end: found by fuzzing fuzz_ogg), and a
 * length of INT_MAX overflows len + 1. So the header is read here first, the way start_decoder
 * reaches it (the second packet, right after the first page's one 30-byte segment), and a
 * length the packet cannot hold refuses the stream. A well-formed header always holds its
 * lengths; anything this walk cannot follow, stb_vorbis refuses itself before the counts. */
typedef struct ogg_walk {
    const uint8_t *p;
    size_t len, at;     /* the file; the next byte stb_vorbis reads */
    const uint8_t *seg; /* the current page's lacing values */
    int nseg, next;
    int left;  /* bytes left of the current segment */
    bool last; /* the packet's last segment has begun */
} ogg_walk;

/* A page header at w->at as start_page reads it; false where stb_vorbis would stop. */
static bool walk_page(ogg_walk *w, int *flags)
{
    const uint8_t *h = w->p + w->at;

    if (w->len - w->at < 27 || memcmp(h, "OggS", 4) != 0 || h[4] != 0 ||
        w->len - w->at - 27 < h[26])
        return false;
    *flags = h[5];
    w->nseg = h[26];
    w->seg = h + 27;
    w->next = 0;
    w->at += 27 + (size_t)h[26];
    return w->nseg > 0;
}

/* The packet's next byte (next_segment, get8_packet_raw); -1 at its end or the file's. */
static int walk_byte(ogg_walk *w)
{
    int flags;

    while (w->left == 0) {
        if (w->last)
            return -1;
        if (w->next == w->nseg && (!walk_page(w, &flags) || !(flags & 1)))
            return -1;
        w->left = w->seg[w->next++];
        w->last = w->left < 255;
    }
    if (w->at >= w->len)
        return -1;
    w->left--;
    return w->p[w->at++];
}

/* A 32-bit little-endian count from the packet, as get32_packet reads it; -1: cut short. */
static int64_t walk_u32(ogg_walk *w)
{
    uint32_t v = 0;

    for (int i = 0; i < 4; i++) {
        int b = walk_byte(w);

        if (b < 0)
            return -1;
        v |= (uint32_t)b << (8 * i);
    }
    return v;
}

/* Skips n bytes of the packet; false when it ends first. */
static bool walk_skip(ogg_walk *w, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (walk_byte(w) < 0)
            return false;
    return true;
}

static bool comment_header_holds_its_lengths(const uint8_t *p, size_t len)
{
    ogg_walk w = { .p = p, .len = len };
    uint8_t head[7];
    int flags;
    int64_t vendor, count;

    if (!walk_page(&w, &flags) || w.nseg != 1 || w.seg[0] != 30 || len - w.at < 30)
        return true; /* not the first page start_decoder takes: it refuses the stream */
    w.at += 30;
    if (!walk_page(&w, &flags))
        return true;
    for (int i = 0; i < 7; i++) {
        int b = walk_byte(&w);

        if (b < 0)
            return true;
        head[i] = (uint8_t)b;
    }
    if (memcmp(head, "\3vorbis", 7) != 0)
        return true; /* not a comment header: refused before its counts are read */
    vendor = walk_u32(&w);
    if (vendor < 0 || vendor >= INT_MAX || !walk_skip(&w, vendor))
        return false;
    count = walk_u32(&w);
    if (count < 0)
        return false;
    if (count > INT_MAX)
        return true; /* a negative int: start_decoder reads no comment */
    for (int64_t i = 0; i < count; i++) {
        int64_t n = walk_u32(&w);

        if (n < 0 || n >= INT_MAX || !walk_skip(&w, n))
            return false;
    }
    return true;
}

/* stb_vorbis's reason for refusing a stream, in words. */
static const char *vorbis_reason(int e)
{
    switch (e) {
    case VORBIS_outofmem:
        return "more decoder memory than the stream may have";
    case VORBIS_feature_not_supported:
        return "a Vorbis feature the decoder does not support (floor type 0)";
    case VORBIS_too_many_channels:
        return "too many channels";
    case VORBIS_unexpected_eof:
        return "the stream ends early (a truncated file?)";
    case VORBIS_invalid_setup:
    case VORBIS_invalid_stream:
        return "a damaged Vorbis header";
    case VORBIS_missing_capture_pattern:
    case VORBIS_invalid_stream_structure_version:
    case VORBIS_continued_packet_flag_invalid:
    case VORBIS_incorrect_stream_serial_number:
    case VORBIS_invalid_first_page:
        return "a damaged Ogg page";
    case VORBIS_bad_packet_type:
        return "not a Vorbis stream";
    case VORBIS_cant_find_last_page:
        return "no last page (a truncated file?)";
    case VORBIS_ogg_skeleton_not_supported:
        return "an Ogg Skeleton stream first (not supported)";
    default:
        return "a damaged stream";
    }
}

/* Whether the page stb_vorbis took for the last one (after stb_vorbis_stream_length_in_samples)
 * is flagged as the end of the stream (header type bit 4); a truncated file's is not. */
static bool last_page_is_final(const stb_vorbis *v, const unsigned char *p, size_t len)
{
    size_t at = v->p_last.page_start;

    return at < len && len - at > 5 && (p[at + 5] & 4) != 0;
}

/* Decodes every packet of v into clip (allocated for total source frames). */
static mc_status decode_all(stb_vorbis *v, mc_audio_clip *clip, int64_t total, const char *name,
                            const unsigned char *p, size_t len, mc_error *err)
{
    int64_t got = 0;

    for (;;) {
        float **planes = NULL;
        int channels = 0;
        int n = stb_vorbis_get_frame_float(v, &channels, &planes);

        if (n <= 0)
            break;
        if (n > total - got)
            return clip_fail(err, MC_ERR_SYNTAX, name,
                             "the stream holds more than the %lld samples its last page "
                             "declares%s",
                             (long long)total,
                             last_page_is_final(v, p, len)
                                     ? ""
                                     : " (that page does not end the stream: a truncated file?)");
        clip_put_planar(clip, got, planes, n);
        got += n;
    }
    int e = stb_vorbis_get_error(v);

    if (e != VORBIS__no_error && e != VORBIS_need_more_data)
        return clip_fail(err, MC_ERR_SYNTAX, name, "%s after %lld of %lld samples",
                         vorbis_reason(e), (long long)got, (long long)total);
    /* A stream that ends before its declared length keeps the length, silent at the end: the
     * engine's length is ov_pcm_total too, and its decoder fills what it cannot read with
     * zeros (idSampleDecoderLocal::Decode). */
    return MC_OK;
}

/* Opens the stream with the decoder's memory held to MC_LIMIT_OGG_DECODER_BYTES, checks what
 * the engine plays, decodes it into clip. */
static mc_status decode(const unsigned char *p, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err)
{
    int e = 0;
    stb_vorbis *v = ogg_open(p, (int)len, &e);
    mc_status s;

    if (!v) {
        if (e == VORBIS_outofmem)
            return clip_fail(err, MC_ERR_LIMIT, name,
                             "the Vorbis stream needs more than the %d KiB of decoder memory "
                             "md5cine gives it",
                             (int)(MC_LIMIT_OGG_DECODER_BYTES >> 10));
        return clip_fail(err, e == VORBIS_feature_not_supported ? MC_ERR_RANGE : MC_ERR_SYNTAX,
                         name, "%s", vorbis_reason(e));
    }
    stb_vorbis_info info = stb_vorbis_get_info(v);
    unsigned total = 0;

    s = info.sample_rate > INT_MAX
                ? clip_check_format(0, info.channels, name, err)
                : clip_check_format((int)info.sample_rate, info.channels, name, err);
    if (s == MC_OK) {
        /* The last page's granule position (0: none found; saturated past 2^32 - 2). */
        total = stb_vorbis_stream_length_in_samples(v);
        if (total == 0)
            s = clip_fail(err, MC_ERR_SYNTAX, name, "%s",
                          "no length: no last page with a sample count (a truncated file?)");
    }
    if (s == MC_OK)
        s = clip_alloc(clip, (int64_t)total, (int)info.sample_rate, info.channels, budget, name,
                       err);
    if (s == MC_OK)
        s = decode_all(v, clip, (int64_t)total, name, p, len, err);
    stb_vorbis_close(v);
    return s;
}

mc_status mc_ogg_decode(const void *data, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err)
{
    const unsigned char *p = data;
    ogg_heap h = { NULL, 0, MC_LIMIT_OGG_DECODER_BYTES };
    mc_status s;

    memset(clip, 0, sizeof *clip);
    if (len < 4 || memcmp(p, "OggS", 4) != 0)
        return clip_fail(err, MC_ERR_SYNTAX, name, "not an Ogg file (no OggS page)");
    if (len > INT_MAX)
        return clip_fail(err, MC_ERR_LIMIT, name, "%zu bytes, more than %d", len, INT_MAX);
    if (!comment_header_holds_its_lengths(p, len))
        return clip_fail(err, MC_ERR_SYNTAX, name,
                         "a damaged Vorbis comment header (a length past its end)");
    heap = &h;
    s = decode(p, len, name, budget, clip, err);
    heap = NULL;
    ogg_free_all(&h);
    if (s != MC_OK)
        mc_audio_clip_release(clip);
    return s;
}
