/* Sound files in and the mix out (audio.h). WAV inputs are built byte by byte here; Ogg Vorbis
 * inputs are encoded by FFmpeg (libvorbis), and oggdec (libvorbisfile, the engine's own Vorbis
 * library) is the independent reference for what stb_vorbis decodes. The WAV the writer makes
 * is read back by Python's wave module. Expected values are worked by hand from the engine's
 * code: snd_cache.cpp idSoundSample::Load (what it accepts), Simd_Generic.cpp
 * UpSamplePCMTo44kHz / UpSampleOGGTo44kHz (repetition, * 32768) and MixedSoundToSamples
 * (clip, truncate). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <md5cine/audio.h>
#include <md5cine/fileio.h>

#include "test.h"

/* ---- WAV files built here ---- */

typedef struct wav_spec {
    unsigned tag, channels, bits;
    uint32_t rate;
    uint32_t fmt_size;  /* 0: 16 */
    uint32_t riff_size; /* 0: the right one */
    int64_t data_size;  /* -1: the samples' bytes */
    const int16_t *samples;
    size_t n;         /* values (frames * channels) */
    bool list_before; /* a LIST chunk of odd size (3 bytes + a pad byte) before fmt */
    bool no_data;     /* no data chunk at all */
    size_t cut;       /* > 0: keep only the first cut bytes */
} wav_spec;

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void le16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* Writes the file s describes into out (large enough); returns its length. */
static size_t make_wav(uint8_t *out, const wav_spec *s)
{
    size_t o = 12;
    uint32_t fmt = s->fmt_size ? s->fmt_size : 16;

    memcpy(out, "RIFF", 4);
    memcpy(out + 8, "WAVE", 4);
    if (s->list_before) {
        memcpy(out + o, "LIST\3\0\0\0abc\0", 12);
        o += 12;
    }
    memcpy(out + o, "fmt ", 4);
    le32(out + o + 4, fmt);
    memset(out + o + 8, 0, fmt < 64 ? fmt : 16);
    le16(out + o + 8, s->tag);
    le16(out + o + 10, s->channels);
    le32(out + o + 12, s->rate);
    le32(out + o + 16, s->rate * s->channels * s->bits / 8);
    le16(out + o + 20, s->channels * s->bits / 8);
    le16(out + o + 22, s->bits);
    o += 8 + (fmt < 64 ? fmt : 16);
    if (!s->no_data) {
        memcpy(out + o, "data", 4);
        le32(out + o + 4, s->data_size >= 0 ? (uint32_t)s->data_size : (uint32_t)(s->n * 2));
        o += 8;
        for (size_t i = 0; i < s->n; i++, o += 2)
            le16(out + o, (uint16_t)s->samples[i]);
    }
    le32(out + 4, s->riff_size ? s->riff_size : (uint32_t)(o - 8));
    return s->cut ? s->cut : o;
}

static const int16_t five[] = { 0, 32767, -32768, 1, -1 };

TEST(decodes_16bit_mono_44100_as_its_samples)
{
    uint8_t buf[256];
    wav_spec s = {
        .tag = 1, .channels = 1, .bits = 16, .rate = 44100, .data_size = -1, .samples = five, .n = 5
    };
    size_t len = make_wav(buf, &s);
    mc_audio_clip c;
    mc_error err;

    ASSERT_OK(mc_wav_decode(buf, len, "five.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 5);
    EXPECT_EQ_INT(c.channels, 1);
    EXPECT_EQ_INT(c.source_rate, 44100);
    EXPECT_EQ_INT(c.bytes, 20); /* 5 floats */
    for (int i = 0; i < 5; i++)
        EXPECT(c.samples[i] == (float)five[i]);
    mc_audio_clip_release(&c);
    EXPECT(c.samples == NULL && c.frames == 0);
}

/* UpSamplePCMTo44kHz: a 22050 Hz sample is written twice, an 11025 Hz one four times. */
TEST(repeats_22050_samples_twice)
{
    const int16_t v[] = { 100, -200, 300 };
    uint8_t buf[256];
    wav_spec s = {
        .tag = 1, .channels = 1, .bits = 16, .rate = 22050, .data_size = -1, .samples = v, .n = 3
    };
    size_t len = make_wav(buf, &s);
    const float want[] = { 100, 100, -200, -200, 300, 300 };
    mc_audio_clip c;
    mc_error err;

    ASSERT_OK(mc_wav_decode(buf, len, "a.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 6);
    EXPECT_EQ_INT(c.source_rate, 22050);
    for (int i = 0; i < 6; i++)
        EXPECT(c.samples[i] == want[i]);
    mc_audio_clip_release(&c);
}

TEST(repeats_11025_stereo_frames_four_times)
{
    const int16_t v[] = { 1, 2, 3, 4 }; /* frames (1, 2) and (3, 4) */
    uint8_t buf[256];
    wav_spec s = {
        .tag = 1, .channels = 2, .bits = 16, .rate = 11025, .data_size = -1, .samples = v, .n = 4
    };
    size_t len = make_wav(buf, &s);
    mc_audio_clip c;
    mc_error err;

    ASSERT_OK(mc_wav_decode(buf, len, "a.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 8);
    EXPECT_EQ_INT(c.channels, 2);
    EXPECT_EQ_INT(c.bytes, 64); /* 8 frames * 2 channels * 4 bytes */
    for (int f = 0; f < 8; f++) {
        EXPECT(c.samples[2 * f] == (f < 4 ? 1.0f : 3.0f));
        EXPECT(c.samples[2 * f + 1] == (f < 4 ? 2.0f : 4.0f));
    }
    mc_audio_clip_release(&c);
}

/* The RIFF size is not read (the engine does not), nor the fmt's extra bytes; unknown chunks of
 * odd size and their pad byte are skipped; half a frame at the end is dropped. */
TEST(keeps_the_engines_tolerances)
{
    const int16_t v[] = { 7, 8, 9, 10, 11 }; /* stereo: frames (7, 8), (9, 10), then half */
    uint8_t buf[256];
    wav_spec s = { .tag = 1,
                   .channels = 2,
                   .bits = 16,
                   .rate = 44100,
                   .data_size = -1,
                   .samples = v,
                   .n = 5,
                   .fmt_size = 18,
                   .list_before = true,
                   .riff_size = 0xFFFFFFFFu };
    size_t len = make_wav(buf, &s);
    mc_audio_clip c;
    mc_error err;

    ASSERT_OK(mc_wav_decode(buf, len, "tolerant.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 2);
    EXPECT(c.samples[0] == 7.0f && c.samples[3] == 10.0f);
    mc_audio_clip_release(&c);
    s.riff_size = 4; /* far too small: not read either */
    len = make_wav(buf, &s);
    ASSERT_OK(mc_wav_decode(buf, len, "tolerant.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 2);
    mc_audio_clip_release(&c);
}

/* Every refusal: the status and the whole message (which names the file). */
typedef struct bad_wav {
    const char *name;
    wav_spec spec;
    mc_status code;
    const char *msg;
} bad_wav;

static const int16_t ten[10] = { 0 };

static const bad_wav bad_wavs[] = {
    { "rate_48000",
      { 1, 1, 16, 48000, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_RANGE,
      "cannot read 'x.wav': unsupported sample rate 48000 Hz (the engine plays 11025, 22050 or "
      "44100)" },
    { "rate_8000",
      { 1, 1, 16, 8000, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_RANGE,
      "cannot read 'x.wav': unsupported sample rate 8000 Hz (the engine plays 11025, 22050 or "
      "44100)" },
    { "bits_8",
      { 1, 1, 8, 22050, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_RANGE,
      "cannot read 'x.wav': unsupported 8-bit samples (the engine plays 16-bit)" },
    { "float_tag",
      { 3, 1, 32, 44100, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_RANGE,
      "cannot read 'x.wav': unsupported WAV format tag 3 (IEEE float) (the engine plays PCM, "
      "tag 1)" },
    { "three_channels",
      { 1, 3, 16, 44100, .data_size = -1, .samples = ten, .n = 9 },
      MC_ERR_RANGE,
      "cannot read 'x.wav': unsupported channel count 3 (the engine plays mono or stereo)" },
    { "short_fmt",
      { 1, 1, 16, 44100, .fmt_size = 14, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': its 'fmt ' chunk has 14 bytes, fewer than the 16 of PCM" },
    /* header 12 + fmt 24: the data chunk's header is at byte 36, its 20 bytes follow */
    { "data_lies",
      { 1, 1, 16, 44100, .data_size = 1000, .samples = ten, .n = 10 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': its 'data' chunk at byte 36 declares 1000 bytes, only 20 follow (a "
      "truncated file, or a wrong size)" },
    { "truncated",
      { 1, 1, 16, 44100, .data_size = -1, .samples = ten, .n = 10, .cut = 50 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': its 'data' chunk at byte 36 declares 20 bytes, only 6 follow (a "
      "truncated file, or a wrong size)" },
    { "streamed_size",
      { 1, 1, 16, 44100, .data_size = 0xFFFFFFFF, .samples = ten, .n = 10 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': its 'data' chunk at byte 36 declares 4294967295 bytes, only 20 "
      "follow (a truncated file, or a wrong size)" },
    { "fmt_lies",
      { 1, 1, 16, 44100, .fmt_size = 0x7FFFFFFF, .data_size = -1, .samples = ten, .n = 10 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': its 'fmt ' chunk at byte 12 declares 2147483647 bytes, only 44 "
      "follow (a truncated file, or a wrong size)" },
    { "no_data",
      { 1, 1, 16, 44100, .no_data = true },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': no 'data' chunk" },
    { "cut_in_header",
      { 1, 1, 16, 44100, .data_size = -1, .samples = ten, .n = 10, .cut = 11 },
      MC_ERR_SYNTAX,
      "cannot read 'x.wav': not a WAV file (no RIFF/WAVE header)" },
};

TEST(refuses_bad_wav_files_naming_them)
{
    for (size_t i = 0; i < TEST_COUNT(bad_wavs); i++) {
        uint8_t buf[512];
        size_t len = make_wav(buf, &bad_wavs[i].spec);
        mc_audio_clip c = { .frames = 99 };
        mc_error err;
        mc_status s = mc_audio_decode(buf, len, "x.wav", 1 << 20, &c, &err);

        if (s != bad_wavs[i].code)
            test_fail(__FILE__, __LINE__, "%s: status %s", bad_wavs[i].name, mc_status_name(s));
        EXPECT_EQ_STR(err.msg, bad_wavs[i].msg);
        EXPECT_EQ_STR(err.file, "x.wav");
        EXPECT(err.line == 0 && c.samples == NULL && c.frames == 0);
    }
}

TEST(refuses_what_is_no_sound)
{
    const uint8_t png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    const uint8_t no_fmt[] = "RIFF\x14\0\0\0WAVEdata\x02\0\0\0\0\0";
    mc_audio_clip c;
    mc_error err;

    EXPECT_EQ_INT(mc_audio_decode("hello", 5, "a.wav", 1 << 20, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'a.wav': not a WAV or Ogg Vorbis file");
    EXPECT_EQ_INT(mc_audio_decode(png, sizeof png - 1, "b.ogg", 1 << 20, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'b.ogg': not a WAV or Ogg Vorbis file");
    EXPECT_EQ_INT(mc_audio_decode("", 0, NULL, 1 << 20, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read '<memory>': an empty file is not a sound");
    EXPECT_EQ_INT(mc_wav_decode(no_fmt, sizeof no_fmt - 1, "c.wav", 1 << 20, &c, &err),
                  MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'c.wav': no 'fmt ' chunk");
    EXPECT_EQ_INT(
            mc_ogg_decode("OggSxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 35, "d.ogg", 1 << 20, &c, &err),
            MC_ERR_SYNTAX);
    EXPECT_CONTAINS(err.msg, "cannot read 'd.ogg': ");
    EXPECT_EQ_INT(mc_ogg_decode("RIFF", 4, "e.ogg", 1 << 20, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'e.ogg': not an Ogg file (no OggS page)");
}

/* 100 frames of 22050 Hz mono become 200 frames of floats: 800 bytes. */
TEST(refuses_a_clip_over_the_budget_before_decoding)
{
    int16_t v[100] = { 0 };
    uint8_t buf[512];
    wav_spec s = {
        .tag = 1, .channels = 1, .bits = 16, .rate = 22050, .data_size = -1, .samples = v, .n = 100
    };
    size_t len = make_wav(buf, &s);
    mc_audio_clip c;
    mc_error err;

    EXPECT_EQ_INT(mc_audio_decode(buf, len, "big.wav", 799, &c, &err), MC_ERR_LIMIT);
    EXPECT_EQ_STR(err.msg, "cannot read 'big.wav': decodes to 800 bytes, more than the 799 "
                           "bytes left of the audio budget");
    ASSERT_OK(mc_audio_decode(buf, len, "big.wav", 800, &c, &err), &err);
    EXPECT_EQ_INT(c.bytes, 800);
    mc_audio_clip_release(&c);
}

/* ---- the mix out ---- */

/* MixedSoundToSamples: <= -32768 and >= 32767 clip, anything else truncates toward zero. */
TEST(converts_floats_as_the_engine)
{
    const float in[] = { 0.9f,      -1.7f,     32766.9f, 32767.0f, 40000.0f, -32767.5f,
                         -32768.0f, -50000.0f, NAN,      819.175f, -0.5f };
    const int16_t want[] = { 0, -1, 32766, 32767, 32767, -32767, -32768, -32768, 0, 819, 0 };
    int16_t out[TEST_COUNT(in)];

    mc_audio_to_s16(in, TEST_COUNT(in), out);
    for (size_t i = 0; i < TEST_COUNT(in); i++)
        EXPECT_EQ_INT(out[i], want[i]);
}

/* The 44 bytes, field by field, for 3 frames: data 12 bytes, RIFF 36 + 12 = 48. */
TEST(writes_the_wav_header_fields)
{
    const uint8_t want[44] = { 'R',  'I',  'F',  'F', 48,  0,   0,   0,   'W', 'A', 'V', 'E',
                               'f',  'm',  't',  ' ', 16,  0,   0,   0,   1,   0,   2,   0,
                               0x44, 0xAC, 0,    0, /* 44100 */
                               0x10, 0xB1, 0x02, 0, /* 176400 */
                               4,    0,    16,   0,   'd', 'a', 't', 'a', 12,  0,   0,   0 };
    uint8_t h[MC_WAV_HEADER_BYTES];

    mc_wav_header(h, 3);
    EXPECT(memcmp(h, want, 44) == 0);
    EXPECT_EQ_INT(MC_WAV_MAX_FRAMES, 1073741814);
}

static const float mix5[10] = { 0.9f,   -0.9f, 1000.5f, -1000.5f,  40000,
                                -40000, 12.0f, 13.0f,   -32768.0f, 32767.0f };
static const int16_t mix5_s16[10] = { 0, 0, 1000, -1000, 32767, -32768, 12, 13, -32768, 32767 };

static bool run(const char *cmd)
{
    int rc = system(cmd);

    return rc == 0 ? true : test_fail(__FILE__, __LINE__, "'%s' exited with %d", cmd, rc);
}

/* The file and the memory bytes agree; Python's wave module reads the header's fields and the
 * frames back; no temporary is left beside the file. */
TEST(writes_a_wav_that_python_reads)
{
    char path[600], py[600], cmd[2048], dir[512];
    uint8_t *mem;
    size_t len;
    mc_error err;
    FILE *f;

    test_tmp_path(dir, sizeof dir, "wavout");
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/mix.wav", dir);
    snprintf(py, sizeof py, "%s/read.txt", dir);
    ASSERT_OK(mc_wav_write(path, mix5, 5, &err), &err);
    ASSERT_OK(mc_wav_write_memory(mix5, 5, &mem, &len, &err), &err);
    EXPECT_EQ_INT(len, 44 + 20);
    f = fopen(path, "rb");
    ASSERT(f);
    uint8_t file[128];
    size_t got = fread(file, 1, sizeof file, f);

    fclose(f);
    EXPECT_EQ_INT(got, len);
    EXPECT(memcmp(file, mem, len) == 0);
    for (int i = 0; i < 10; i++)
        EXPECT_EQ_INT((int16_t)(uint16_t)(mem[44 + 2 * i] | mem[45 + 2 * i] << 8), mix5_s16[i]);
    free(mem);
    snprintf(cmd, sizeof cmd,
             "python3 -c \"import wave, struct, sys; w = wave.open(sys.argv[1]); "
             "print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes(), "
             "w.getcomptype(), *struct.unpack('<10h', w.readframes(5)))\" '%s' > '%s'",
             path, py);
    ASSERT(run(cmd));
    f = fopen(py, "r");
    ASSERT(f);
    char line[256] = "";

    EXPECT(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    EXPECT_EQ_STR(line, "2 2 44100 5 NONE 0 0 1000 -1000 32767 -32768 12 13 -32768 32767\n");
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep tmp)\"", dir);
    EXPECT(run(cmd));
}

/* A WAV the writer made reads back through the decoder as its shorts. */
TEST(reads_back_what_it_writes)
{
    uint8_t *mem;
    size_t len;
    mc_audio_clip c;
    mc_error err;

    ASSERT_OK(mc_wav_write_memory(mix5, 5, &mem, &len, &err), &err);
    ASSERT_OK(mc_audio_decode(mem, len, "back.wav", 1 << 20, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 5);
    EXPECT_EQ_INT(c.channels, 2);
    for (int i = 0; i < 10; i++)
        EXPECT(c.samples[i] == (float)mix5_s16[i]);
    mc_audio_clip_release(&c);
    free(mem);
}

TEST(refuses_an_unwritable_wav_and_too_many_frames)
{
    uint8_t *mem = (uint8_t *)1;
    size_t len = 1;
    mc_error err;

    EXPECT_EQ_INT(mc_wav_write("/nonexistent-folder/x.wav", mix5, 5, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "/nonexistent-folder/x.wav");
    EXPECT_EQ_INT(mc_wav_write_memory(mix5, MC_WAV_MAX_FRAMES + 1, &mem, &len, &err), MC_ERR_LIMIT);
    EXPECT(mem == NULL && len == 0);
    EXPECT_CONTAINS(err.msg, "1073741815 frames are more than a WAV file holds");
}

/* ---- Ogg Vorbis, encoded by FFmpeg's libvorbis ---- */

/* FFmpeg writes path: seconds of a 440 Hz sine on the left (or only) channel, 660 Hz at half
 * the level on the right, at rate, channels, through libvorbis. */
static bool encode_ogg(const char *path, int rate, int channels, double seconds)
{
    char cmd[1024];

    snprintf(cmd, sizeof cmd,
             "ffmpeg -v error -y -f lavfi -i 'aevalsrc=0.5*sin(440*2*PI*t)%s:s=%d:d=%g' "
             "-c:a libvorbis -q:a 3 '%s'",
             channels == 1   ? ""
             : channels == 2 ? "|0.25*sin(660*2*PI*t)"
                             : "|0|0:c=3.0",
             rate, seconds, path);
    return run(cmd);
}

/* libvorbisfile's decode of path (oggdec, the library the engine decodes Vorbis with:
 * ov_read's 16-bit samples, v * 32768 rounded and clipped), interleaved; *n values. (FFmpeg's
 * Ogg reader is no reference here: it drops the first 128 frames of such a stream.) */
static int16_t *oggdec_decode(const char *path, size_t *n)
{
    char raw[600], cmd[1400];
    char *buf = NULL;
    size_t len = 0;
    mc_error err;

    snprintf(raw, sizeof raw, "%s.raw", path);
    snprintf(cmd, sizeof cmd, "oggdec -Q -R -b 16 -e 0 -s 1 -o '%s' '%s'", raw, path);
    if (!run(cmd) || mc_read_file(raw, &buf, &len, &err) != MC_OK)
        return NULL;
    *n = len / 2;
    for (size_t i = 0; i < *n; i++) { /* little-endian bytes to shorts */
        uint8_t *p = (uint8_t *)buf + 2 * i;
        int16_t v = (int16_t)(uint16_t)(p[0] | p[1] << 8);

        memcpy(p, &v, 2);
    }
    return (int16_t *)(void *)buf;
}

static uint8_t *read_bytes(const char *path, size_t *len)
{
    char *buf = NULL;
    mc_error err;

    if (mc_read_file(path, &buf, len, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s", err.msg);
        return NULL;
    }
    return (uint8_t *)buf;
}

/* stb_vorbis and libvorbisfile decode the same stream to the same frames and the same values
 * (within the half step libvorbisfile's rounding to 16 bits takes); the clip repeats each frame
 * 44100 / rate times and scales it by 32768 (UpSampleOGGTo44kHz). The length is the stream's:
 * 0.5 s is 22050 frames at 44100 Hz, 11025 at 22050 Hz, and 5513 at 11025 Hz (5512.5 rounded
 * up by the encoder), which repeated 4 times make 22052. */
TEST(decodes_vorbis_as_libvorbisfile_does)
{
    static const int forms[][2] = { { 44100, 2 }, { 22050, 1 }, { 11025, 2 } };

    for (size_t f = 0; f < TEST_COUNT(forms); f++) {
        int rate = forms[f][0], ch = forms[f][1], rep = 44100 / rate;
        char path[512], leaf[64];
        size_t len, n = 0;
        mc_audio_clip c;
        mc_error err;
        double worst = 0;

        snprintf(leaf, sizeof leaf, "sine_%d_%d.ogg", rate, ch);
        test_tmp_path(path, sizeof path, leaf);
        ASSERT(encode_ogg(path, rate, ch, 0.5));
        uint8_t *data = read_bytes(path, &len);
        int16_t *ref = oggdec_decode(path, &n);

        ASSERT(data && ref);
        ASSERT_OK(mc_audio_decode(data, len, leaf, 1 << 24, &c, &err), &err);
        EXPECT_EQ_INT(c.source_rate, rate);
        EXPECT_EQ_INT(c.channels, ch);
        EXPECT_EQ_INT(c.frames, (int64_t)(n / (size_t)ch) * rep);
        EXPECT_EQ_INT(c.frames, rate == 11025 ? 22052 : 22050);
        for (int64_t i = 0; i < c.frames && (size_t)(i / rep) * (size_t)ch < n; i++)
            for (int k = 0; k < ch; k++) {
                double d = fabs((double)c.samples[i * ch + k] -
                                (double)ref[(size_t)(i / rep) * (size_t)ch + (size_t)k]);

                worst = d > worst ? d : worst;
            }
        EXPECT_NEAR(worst, 0.0, 0.6); /* 0.5 of rounding, 0.003 measured besides */
        EXPECT(c.samples[(size_t)(rep * 100) * (size_t)ch] ==
               c.samples[(size_t)(rep * 100 + rep - 1) * (size_t)ch]);
        mc_audio_clip_release(&c);
        free(data);
        free(ref);
    }
}

TEST(refuses_vorbis_the_engine_does_not_play)
{
    char path[512];
    size_t len;
    mc_audio_clip c;
    mc_error err;

    test_tmp_path(path, sizeof path, "r48000.ogg");
    ASSERT(encode_ogg(path, 48000, 1, 0.2));
    uint8_t *data = read_bytes(path, &len);

    ASSERT(data);
    EXPECT_EQ_INT(mc_audio_decode(data, len, "r48000.ogg", 1 << 24, &c, &err), MC_ERR_RANGE);
    EXPECT_EQ_STR(err.msg, "cannot read 'r48000.ogg': unsupported sample rate 48000 Hz (the "
                           "engine plays 11025, 22050 or 44100)");
    free(data);
    test_tmp_path(path, sizeof path, "three.ogg");
    ASSERT(encode_ogg(path, 44100, 3, 0.2));
    data = read_bytes(path, &len);
    ASSERT(data);
    EXPECT_EQ_INT(mc_audio_decode(data, len, "three.ogg", 1 << 24, &c, &err), MC_ERR_RANGE);
    EXPECT_EQ_STR(err.msg, "cannot read 'three.ogg': unsupported channel count 3 (the engine "
                           "plays mono or stereo)");
    free(data);
}

/* The Ogg page checksum (CRC-32, polynomial 0x04C11DB7, no reflection, initial value 0), over
 * the page with its checksum field zeroed: RFC 3533 section 6. */
static uint32_t ogg_crc(const uint8_t *p, size_t n)
{
    uint32_t crc = 0;

    for (size_t i = 0; i < n; i++) {
        crc ^= (uint32_t)p[i] << 24;
        for (int b = 0; b < 8; b++)
            crc = crc & 0x80000000u ? crc << 1 ^ 0x04C11DB7u : crc << 1;
    }
    return crc;
}

/* Sets the granule position (the sample count) of the last page of an Ogg file and fixes its
 * checksum, as a file that lies about its length would have it. */
static bool set_last_granule(uint8_t *d, size_t len, uint64_t granule)
{
    size_t at = len - 4;

    while (at > 0 && memcmp(d + at, "OggS", 4) != 0)
        at--;
    if (memcmp(d + at, "OggS", 4) != 0 || len - at < 27)
        return false;
    size_t size = 27 + (size_t)d[at + 26];

    for (size_t i = 0; i < d[at + 26]; i++)
        size += d[at + 27 + i];
    if (at + size != len)
        return false;
    for (size_t i = 0; i < 8; i++)
        d[at + 6 + i] = (uint8_t)(granule >> (8 * i));
    memset(d + at + 22, 0, 4);
    le32(d + at + 22, ogg_crc(d + at, size));
    return true;
}

/* A 1 KB file whose last page says 2^28 frames of 44100 Hz stereo (2 GiB of floats) is refused
 * for its declared size before anything is decoded; one that declares fewer samples than it
 * holds stops at the first one past them; a truncated file is refused. */
TEST(holds_vorbis_to_its_declared_length_and_the_budget)
{
    char path[512];
    size_t len;
    mc_audio_clip c;
    mc_error err;

    test_tmp_path(path, sizeof path, "lie.ogg");
    ASSERT(encode_ogg(path, 44100, 2, 0.3));
    uint8_t *data = read_bytes(path, &len);

    ASSERT(data);
    ASSERT_OK(mc_audio_decode(data, len, "lie.ogg", 1 << 24, &c, &err), &err);
    EXPECT_EQ_INT(c.frames, 13230); /* 0.3 s */
    mc_audio_clip_release(&c);
    ASSERT(set_last_granule(data, len, (uint64_t)1 << 28));
    EXPECT_EQ_INT(mc_audio_decode(data, len, "lie.ogg", MC_LIMIT_AUDIO_DECODED_BYTES, &c, &err),
                  MC_ERR_LIMIT);
    EXPECT_EQ_STR(err.msg, "cannot read 'lie.ogg': decodes to 2147483648 bytes, more than the "
                           "1073741824 bytes left of the audio budget");
    EXPECT(c.samples == NULL);
    ASSERT(set_last_granule(data, len, 1000));
    EXPECT_EQ_INT(mc_audio_decode(data, len, "lie.ogg", 1 << 24, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'lie.ogg': the stream holds more than the 1000 samples "
                           "its last page declares");
    ASSERT(set_last_granule(data, len, 13230));
    for (int pct = 10; pct < 100; pct += 20) {
        mc_status s = mc_audio_decode(data, len * (size_t)pct / 100, "cut.ogg", 1 << 24, &c, &err);

        if (s != MC_ERR_SYNTAX)
            test_fail(__FILE__, __LINE__, "cut at %d%%: %s", pct, mc_status_name(s));
        EXPECT_CONTAINS(err.msg, "cannot read 'cut.ogg': ");
        EXPECT(c.samples == NULL);
    }
    free(data);
}

/* A comment header whose comment count (0x20000001) its packet cannot hold: stb_vorbis would
 * allocate 8 * count bytes through an int (8 bytes after the wrap) and write past them, so the
 * stream is refused first. The packet is the second, on the page at byte 58 (the first page is
 * 27 + 1 header bytes and the 30-byte identification header): "\3vorbis", the vendor string's
 * length and the string, then the count. */
TEST(refuses_a_comment_header_that_overruns_its_packet)
{
    char path[512];
    size_t len;
    mc_audio_clip c;
    mc_error err;

    test_tmp_path(path, sizeof path, "comments.ogg");
    ASSERT(encode_ogg(path, 22050, 1, 0.1));
    uint8_t *d = read_bytes(path, &len);

    ASSERT(d && len > 200 && memcmp(d + 58, "OggS", 4) == 0);
    size_t body = 58 + 27 + d[58 + 26];

    ASSERT(memcmp(d + body, "\3vorbis", 7) == 0);
    size_t vendor = d[body + 7] | (size_t)d[body + 8] << 8;
    size_t at = body + 11 + vendor;

    le32(d + at, 0x20000001u);
    EXPECT_EQ_INT(mc_audio_decode(d, len, "comments.ogg", 1 << 24, &c, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.msg, "cannot read 'comments.ogg': a damaged Vorbis comment header (a "
                           "length past its end)");
    le32(d + at, 0);
    ASSERT_OK(mc_audio_decode(d, len, "comments.ogg", 1 << 24, &c, &err), &err);
    mc_audio_clip_release(&c);
    free(d);
}
