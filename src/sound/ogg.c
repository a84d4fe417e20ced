/* The Ogg Vorbis reader of audio.h (mc_ogg_decode) through stb_vorbis, compiled here as
 * file-local code (as src/image/image.c compiles stb_image).
 *
 * The engine decodes Vorbis with libvorbisfile (snd_decoder.cpp idSampleDecoderLocal::DecodeOGG,
 * ov_read_float) and scales its samples by 32768 (UpSampleOGGTo44kHz); stb_vorbis is another
 * decoder of the same format, so a sample may differ from libvorbis's in its last bits (the
 * tests compare with FFmpeg's decoder within a small tolerance).
 *
 * Memory is bounded: every allocation stb_vorbis makes, setup and per-packet temporaries, comes
 * from one buffer of MC_LIMIT_OGG_DECODER_BYTES (stb_vorbis_alloc), and the samples from a clip
 * whose size the stream's declared length fixes before decoding starts. stb_vorbis keeps one
 * process-wide table, its CRC table, which each open rewrites with the same constants. */
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
#define STB_VORBIS_NO_STDIO
#define STB_VORBIS_NO_PUSHDATA_API
#define STB_VORBIS_NO_INTEGER_CONVERSION
#ifdef __clang__
#pragma clang diagnostic ignored "-Wkeyword-macro"
#endif
#define extern static
#include <stb_vorbis.h>
#undef extern
#pragma GCC diagnostic pop

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

mc_status mc_ogg_decode(const void *data, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err)
{
    const unsigned char *p = data;
    stb_vorbis_alloc mem;
    stb_vorbis *v;
    int e = 0;
    mc_status s;

    memset(clip, 0, sizeof *clip);
    if (len < 4 || memcmp(p, "OggS", 4) != 0)
        return clip_fail(err, MC_ERR_SYNTAX, name, "not an Ogg file (no OggS page)");
    if (len > INT_MAX)
        return clip_fail(err, MC_ERR_LIMIT, name, "%zu bytes, more than %d", len, INT_MAX);
    mem.alloc_buffer = malloc(MC_LIMIT_OGG_DECODER_BYTES);
    mem.alloc_buffer_length_in_bytes = (int)MC_LIMIT_OGG_DECODER_BYTES;
    if (!mem.alloc_buffer)
        return mc_error_set(err, MC_ERR_NOMEM, clip_name(name), 0, 0,
                            "out of memory for the Vorbis decoder of '%s'", clip_name(name));
    v = stb_vorbis_open_memory(p, (int)len, &e, &mem);
    if (!v) {
        free(mem.alloc_buffer);
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
    free(mem.alloc_buffer);
    if (s != MC_OK)
        mc_audio_clip_release(clip);
    return s;
}
