/* The WAV reader of audio.h (mc_wav_decode): RIFF/WAVE, 16-bit PCM, as the engine reads it
 * (snd_wavefile.cpp idWaveFile::Open, ReadMMIO, ResetFile; snd_cache.cpp
 * idSoundSample::Load), with its chunks walked by their sizes and checked against the bytes
 * present.
 *
 * The engine finds the fmt chunk by reading 8-byte headers one after the other without skipping
 * bodies, and the data chunk by scanning the bytes after offset 16 for "data"; both find the
 * chunks of a well-formed file, which a walk by size finds too, and the walk never takes a
 * "data" inside another chunk's body for the data chunk. */
#include <md5cine/audio.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "clip.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned le16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* A chunk id for a message: printable ASCII kept, any other byte as \xNN. */
static const char *fourcc_text(const uint8_t *id, char out[17])
{
    char *o = out;

    for (int i = 0; i < 4; i++) {
        if (id[i] >= 0x20 && id[i] < 0x7F && id[i] != '\'' && id[i] != '\\')
            *o++ = (char)id[i];
        else
            o += snprintf(o, 5, "\\x%02X", id[i]);
    }
    *o = '\0';
    return out;
}

/* Format tags seen in the wild, for the message that refuses them. */
static const char *tag_name(unsigned tag)
{
    switch (tag) {
    case 2:
        return " (Microsoft ADPCM)";
    case 3:
        return " (IEEE float)";
    case 6:
        return " (A-law)";
    case 7:
        return " (mu-law)";
    case 0x11:
        return " (IMA ADPCM)";
    case 0x55:
        return " (MP3)";
    case 0xFFFE:
        return " (extensible)";
    default:
        return "";
    }
}

typedef struct wav_format {
    unsigned channels, bits;
    uint32_t rate;
} wav_format;

/* The fmt chunk's first 16 bytes, checked as idSoundSample::Load and ReadMMIO check them. */
static mc_status read_fmt(const uint8_t *body, uint32_t size, const char *name, wav_format *f,
                          mc_error *err)
{
    unsigned tag;

    if (size < 16)
        return clip_fail(err, MC_ERR_SYNTAX, name,
                         "its 'fmt ' chunk has %u bytes, fewer than the 16 of PCM", size);
    tag = le16(body);
    f->channels = le16(body + 2);
    f->rate = le32(body + 4);
    f->bits = le16(body + 14);
    if (tag != 1)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported WAV format tag %u%s (the engine plays PCM, tag 1)", tag,
                         tag_name(tag));
    if (f->channels != 1 && f->channels != 2)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported channel count %u (the engine plays mono or stereo)",
                         f->channels);
    if (f->bits != 16)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported %u-bit samples (the engine plays 16-bit)", f->bits);
    if (f->rate > 44100)
        return clip_fail(err, MC_ERR_RANGE, name,
                         "unsupported sample rate %lu Hz (the engine plays 11025, 22050 or "
                         "44100)",
                         (unsigned long)f->rate);
    return clip_check_format((int)f->rate, (int)f->channels, name, err);
}

mc_status mc_wav_decode(const void *data, size_t len, const char *name, size_t budget,
                        mc_audio_clip *clip, mc_error *err)
{
    const uint8_t *p = data;
    const uint8_t *samples = NULL;
    size_t off = 12, data_bytes = 0;
    bool have_fmt = false;
    wav_format f = { 0, 0, 0 };
    mc_status s;

    memset(clip, 0, sizeof *clip);
    if (len < 12 || memcmp(p, "RIFF", 4) != 0 || memcmp(p + 8, "WAVE", 4) != 0)
        return clip_fail(err, MC_ERR_SYNTAX, name, "not a WAV file (no RIFF/WAVE header)");
    /* A chunk: 4-byte id, 32-bit little-endian size, the body, a pad byte after an odd size
     * (which a file's last chunk may lack). Fewer than 8 bytes after the last one are left. */
    while (off <= len && len - off >= 8) {
        const uint8_t *id = p + off;
        uint32_t size = le32(p + off + 4);
        size_t body = off + 8;
        char idt[17];

        if (size > len - body)
            return clip_fail(err, MC_ERR_SYNTAX, name,
                             "its '%s' chunk at byte %zu declares %lu bytes, only %zu follow "
                             "(a truncated file, or a wrong size)",
                             fourcc_text(id, idt), off, (unsigned long)size, len - body);
        if (!have_fmt && memcmp(id, "fmt ", 4) == 0) {
            s = read_fmt(p + body, size, name, &f, err);
            if (s != MC_OK)
                return s;
            have_fmt = true;
        } else if (!samples && memcmp(id, "data", 4) == 0) {
            samples = p + body;
            data_bytes = size;
        }
        off = body + size + (size & 1u);
    }
    if (!have_fmt)
        return clip_fail(err, MC_ERR_SYNTAX, name, "no 'fmt ' chunk");
    if (!samples)
        return clip_fail(err, MC_ERR_SYNTAX, name, "no 'data' chunk");
    /* 2 bytes a sample; a part of a frame at the end is dropped (the engine reads cksize / 2
     * samples and plays whole frames). */
    int64_t frames = (int64_t)(data_bytes / (2u * f.channels));

    s = clip_alloc(clip, frames, (int)f.rate, (int)f.channels, budget, name, err);
    if (s != MC_OK)
        return s;
    clip_put_pcm16(clip, 0, samples, frames);
    return MC_OK;
}
