/* The sound track (encode.h "Sound", chunk.h "Sound", audio_in.h), read back by the ffmpeg and
 * ffprobe programs (an independent reader and decoder) and by libavformat's demuxer.
 *
 * The mixes are silence with clicks: one sample of +30000 on the left and -30000 on the right.
 * A click at mix sample S (44100 per second) is at S / 44100 s; at an output rate R it is at
 * sample S * R / 44100 (hand-worked in each case). AAC is lossy and the resampler's filter
 * spreads a click over a few samples, but the loudest decoded sample stays on the click's
 * sample: the tolerance is 2 samples at the rate read (42 us at 48 kHz), the same for ffmpeg's
 * decode and for mc_audio_read. */
#include <dirent.h>
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/audio_in.h>
#include <md5cine/chunk.h>
#include <md5cine/encode.h>
#include <md5cine/fileio.h>
#include <md5cine/limits.h>

#include "test.h"

#define W       64
#define H       48
#define MIX_LEN (44100 * 3) /* 3 s */
#define TOL     2           /* samples: a click's decoded peak from its place */

static char dir[512];

static char *in_dir(char *buf, size_t cap, const char *leaf)
{
    snprintf(buf, cap, "%s/%s", dir, leaf);
    return buf;
}

/* MIX_LEN frames of silence with a click at each of at[0..n-1]. */
static float *click_mix(const int64_t *at, size_t n)
{
    float *m = calloc((size_t)MIX_LEN * 2, sizeof *m);

    for (size_t i = 0; m && i < n; i++) {
        m[2 * at[i]] = 30000.0f;
        m[2 * at[i] + 1] = -30000.0f;
    }
    return m;
}

static mc_audio_desc sound(const float *mix, int rate)
{
    mc_audio_desc a = { mix, MIX_LEN, rate, 0 };

    return a;
}

/* Encodes output frames first..first+n-1 at fps into path with the sound a (may be NULL)
 * and, when tags, the chunk tags of a scene of `frames` frames. */
static mc_status encode(const char *path, mc_rate fps, int64_t first, int64_t n,
                        const mc_audio_desc *a, int64_t frames, mc_error *e)
{
    mc_chunk_info info = { first, first + n - 1, frames, fps, "", "crf=18" };
    mc_chunk_tags t;
    uint8_t rgba[W * H * 4];
    mc_encoder_desc d;
    mc_encoder *enc;
    mc_status s;

    memset(info.scene, 'a', 64);
    mc_chunk_format(&info, &t);
    const char *const md[] = {
        "md5cine_chunk",    t.chunk,    "md5cine_fps", t.fps, "md5cine_scene", t.scene,
        "md5cine_settings", t.settings, NULL
    };
    d = (mc_encoder_desc){ .path = path, .width = W, .height = H, .fps = fps, .first_frame = first,
                           .metadata = frames ? md : NULL };
    if (a)
        d.audio = *a;
    s = mc_encoder_create(&d, &enc, e);
    for (int64_t k = first; s == MC_OK && k < first + n; k++) {
        for (size_t i = 0; i < sizeof rgba; i++)
            rgba[i] = (uint8_t)(i % 4 == 3 ? 255 : (i / 4 + (size_t)k * 7) % 200);
        s = mc_encoder_write_rgba(enc, rgba, W * 4, e);
    }
    if (s == MC_OK)
        s = mc_encoder_finish(enc, e);
    mc_encoder_release(enc);
    return s;
}

/* The standard output of a shell command, NUL-terminated, at most cap - 1 bytes kept; the
 * byte count read in *len (may be NULL). NULL when it does not exit 0. */
static char *run(const char *cmd, size_t *len)
{
    FILE *p = popen(cmd, "r");
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);

    while (p && buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *b = realloc(buf, cap * 2);

            if (!b)
                break;
            buf = b;
            cap *= 2;
        }
    }
    if (!p || !buf || pclose(p) != 0) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* One value ffprobe reports of the first stream of kind ('a' or 'v'): entry "stream=KEY". */
static bool probe(const char *path, char kind, const char *key, char *out, size_t cap)
{
    char cmd[1024], *text;

    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -select_streams %c:0 -show_entries stream=%s "
             "-of default=nw=1:nk=1 '%s'",
             kind, key, path);
    text = run(cmd, NULL);
    if (!text)
        return false;
    text[strcspn(text, "\n")] = '\0';
    snprintf(out, cap, "%s", text);
    free(text);
    return true;
}

static double probe_num(const char *path, char kind, const char *key)
{
    char v[64];

    return probe(path, kind, key, v, sizeof v) ? strtod(v, NULL) : -1e9;
}

/* The sound decoded by the ffmpeg program: float stereo at the track's own rate, from the
 * track's first decoded sample. *frames is the count; NULL on failure. */
static float *ffmpeg_decode(const char *path, int64_t *frames)
{
    char cmd[1024];
    size_t len = 0;
    char *raw;

    snprintf(cmd, sizeof cmd, "ffmpeg -v error -i '%s' -map 0:a:0 -ac 2 -f f32le -", path);
    raw = run(cmd, &len);
    *frames = (int64_t)(len / 8);
    return (float *)raw;
}

/* The frame of the loudest left sample of s[from..to). */
static int64_t loudest(const float *s, int64_t from, int64_t to)
{
    int64_t best = from;

    for (int64_t i = from; i < to; i++)
        if (fabsf(s[2 * i]) > fabsf(s[2 * best]))
            best = i;
    return best;
}

/* The audio packets of a file in order (data, pts, duration), hashed into one FNV-1a value,
 * their count in *count (-1 when it cannot be read). */
static uint64_t audio_packets(const char *path, int64_t *count)
{
    AVFormatContext *fmt = NULL;
    AVPacket *pkt = av_packet_alloc();
    uint64_t h = 1469598103934665603u;

    *count = -1;
    if (!pkt || avformat_open_input(&fmt, path, NULL, NULL) < 0) {
        av_packet_free(&pkt);
        return 0;
    }
    *count = 0;
    while (av_read_frame(fmt, pkt) >= 0) {
        if (fmt->streams[pkt->stream_index]->codecpar->codec_type == AVMEDIA_TYPE_AUDIO) {
            int64_t v[2] = { pkt->pts, pkt->duration };

            for (int i = 0; i < pkt->size; i++)
                h = (h ^ pkt->data[i]) * 1099511628211u;
            for (size_t i = 0; i < sizeof v; i++)
                h = (h ^ ((const uint8_t *)v)[i]) * 1099511628211u;
            (*count)++;
        }
        av_packet_unref(pkt);
    }
    avformat_close_input(&fmt);
    av_packet_free(&pkt);
    return h;
}

/* A file's bytes hashed (FNV-1a); 0 when it cannot be read. */
static uint64_t file_hash(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint64_t h = 1469598103934665603u;
    int c;

    if (!f)
        return 0;
    while ((c = getc(f)) != EOF)
        h = (h ^ (uint64_t)c) * 1099511628211u;
    fclose(f);
    return h;
}

/* Files in the folder whose name contains part (temporaries included). */
static int files_named(const char *part)
{
    int n = test_count_entries(dir, part, true);

    return n < 0 ? 0 : n;
}

/* ------------------------------------------------------------------------------------- */
/* Encoding                                                                              */

/* Clicks at mix samples 13230 (0.3 s) and 70001 (1.587324 s), 72 frames at 24 fps (3 s). At
 * 48 kHz they are at samples 13230 * 48000 / 44100 = 14400 and 70001 * 160 / 147 = 76191.56;
 * at 44.1 kHz at 13230 and 70001. The stream is AAC-LC stereo at the rate asked. */
TEST(clicks_decode_at_their_times)
{
    static const int64_t at[] = { 13230, 70001 };
    static const struct {
        int rate, asked;
        const char *name;
        double c0, c1; /* the clicks at the rate */
    } rows[] = { { 48000, 0, "c48.mp4", 14400, 76191.56 },
                 { 44100, 44100, "c44.mp4", 13230, 70001 } };
    float *mix = click_mix(at, 2);
    char p[600], v[64];
    mc_error e;

    ASSERT(mix);
    for (size_t r = 0; r < TEST_COUNT(rows); r++) {
        mc_audio_desc a = sound(mix, rows[r].asked);
        mc_audio_track clip;
        int64_t n = 0;
        float *dec;

        in_dir(p, sizeof p, rows[r].name);
        EXPECT_OK(encode(p, (mc_rate){ 24, 1 }, 0, 72, &a, 0, &e), &e);
        EXPECT(probe(p, 'a', "codec_name", v, sizeof v) && strcmp(v, "aac") == 0);
        EXPECT(probe(p, 'a', "profile", v, sizeof v) && strcmp(v, "LC") == 0);
        EXPECT(probe(p, 'a', "channel_layout", v, sizeof v) && strcmp(v, "stereo") == 0);
        EXPECT_EQ_INT(probe_num(p, 'a', "channels"), 2);
        EXPECT_EQ_INT(probe_num(p, 'a', "sample_rate"), rows[r].rate);
        EXPECT_NEAR(probe_num(p, 'a', "start_time"), 0.0, 1e-9);
        dec = ffmpeg_decode(p, &n);
        ASSERT(dec && n > rows[r].rate * 2);
        EXPECT_NEAR(loudest(dec, 0, rows[r].rate), rows[r].c0, TOL);
        EXPECT_NEAR(loudest(dec, rows[r].rate, n), rows[r].c1, TOL);
        free(dec);
        /* the library's reader, back at the mix's rate: the clicks on their mix samples */
        EXPECT_OK(mc_audio_read(p, 44100, &clip, &e), &e);
        EXPECT(clip.has_audio);
        EXPECT_EQ_INT(clip.first, 0);
        EXPECT_EQ_INT(clip.source_rate, rows[r].rate);
        EXPECT_EQ_INT(clip.source_channels, 2);
        EXPECT_EQ_STR(clip.codec, "aac");
        if (clip.frames > 2 * 44100) {
            EXPECT_NEAR(loudest(clip.samples, 0, 44100), 13230, TOL);
            EXPECT_NEAR(loudest(clip.samples, 44100, clip.frames), 70001, TOL);
            /* and the right channel holds the negative click, at about full height */
            EXPECT(clip.samples[2 * 13230 + 1] < -15000.0f);
        } else {
            test_fail(__FILE__, __LINE__, "%lld frames read", (long long)clip.frames);
        }
        mc_audio_track_release(&clip);
    }
    free(mix);
}

/* N frames at num/den last N * den / num s: 48 frames at 24 fps 2 s, 30 at 30000/1001 fps
 * 1.001 s, which are 96000 and 48048 samples at 48 kHz, 88200 and 44144.1 at 44.1 kHz. The
 * sound track's duration (ffprobe) is the video's within one AAC frame (1024 samples), and the
 * ffmpeg program decodes at least those samples and less than one frame more. */
TEST(the_track_lasts_as_long_as_the_video)
{
    static const struct {
        mc_rate fps;
        int64_t frames;
        int rate;
        double samples;
    } rows[] = { { { 24, 1 }, 48, 48000, 96000 },
                 { { 24, 1 }, 48, 44100, 88200 },
                 { { 30000, 1001 }, 30, 48000, 48048 },
                 { { 30000, 1001 }, 30, 44100, 44144.1 } };
    static const int64_t at[] = { 100 };
    float *mix = click_mix(at, 1);
    char p[600];
    mc_error e;

    ASSERT(mix);
    for (size_t r = 0; r < TEST_COUNT(rows); r++) {
        mc_audio_desc a = sound(mix, rows[r].rate);
        double video;
        int64_t n = 0;
        float *dec;

        in_dir(p, sizeof p, "len.mp4");
        remove(p);
        EXPECT_OK(encode(p, rows[r].fps, 0, rows[r].frames, &a, 0, &e), &e);
        video = probe_num(p, 'v', "duration");
        EXPECT_NEAR(video, (double)rows[r].frames * rows[r].fps.den / rows[r].fps.num, 1e-6);
        EXPECT_NEAR(probe_num(p, 'a', "duration"), video, 1024.0 / rows[r].rate);
        dec = ffmpeg_decode(p, &n);
        EXPECT(n >= (int64_t)rows[r].samples && n < rows[r].samples + 1024);
        free(dec);
    }
    free(mix);
}

/* Frames 24..47 at 24 fps, a chunk starting at 1.0 s: its sound starts there too, the click of
 * mix sample 48510 (1.1 s) decodes 0.1 s in (4800 samples at 48 kHz, 4410 at 44.1 kHz), and
 * the click at 4410 (0.1 s, before the chunk) is not in it. In MP4 and MOV the edit list cuts
 * the priming: ffprobe says 1.000000 for both streams. In Matroska the priming packet is at
 * (48000 - 1024) / 48000 = 0.978667 s, stored in milliseconds: 0.979 s. */
TEST(a_chunk_starts_its_sound_at_its_first_frame)
{
    static const int64_t at[] = { 4410, 48510 };
    static const char *const names[] = { "ch.mp4", "ch.mov", "ch.mkv" };
    float *mix = click_mix(at, 2);
    char p[600];
    mc_error e;

    ASSERT(mix);
    for (size_t i = 0; i < TEST_COUNT(names); i++) {
        mc_audio_desc a = sound(mix, 0);
        bool mkv = strstr(names[i], ".mkv") != NULL;
        double start;
        int64_t n = 0;
        float *dec;

        in_dir(p, sizeof p, names[i]);
        ASSERT_OK(encode(p, (mc_rate){ 24, 1 }, 24, 24, &a, 0, &e), &e);
        EXPECT_NEAR(probe_num(p, 'v', "start_time"), 1.0, 1e-9);
        start = probe_num(p, 'a', "start_time");
        EXPECT_NEAR(start, mkv ? 0.979 : 1.0, 1e-9);
        dec = ffmpeg_decode(p, &n);
        ASSERT(dec && n > 40000);
        /* the click's time: the track's start plus its place in the decoded samples */
        EXPECT_NEAR(start + (double)loudest(dec, 0, n) / 48000.0, 1.1,
                    (mkv ? 0.0005 : 0.0) + TOL / 48000.0);
        EXPECT(fabsf(dec[2 * loudest(dec, 0, n)]) > 0.5f);
        free(dec);
    }
    /* the library's reader on the MP4: the track's first sample is the timeline's 44100 */
    {
        mc_audio_track clip;

        EXPECT_OK(mc_audio_read(in_dir(p, sizeof p, "ch.mp4"), 44100, &clip, &e), &e);
        EXPECT_EQ_INT(clip.first, 44100);
        if (clip.frames > 10000)
            EXPECT_NEAR(loudest(clip.samples, 0, clip.frames), 4410, TOL);
        mc_audio_track_release(&clip);
    }
    free(mix);
}

/* Frames 30.. at 30000/1001 fps start at 30 * 1001 / 30000 = 1.001 s, sample 48048 at 48 kHz:
 * an exact empty edit (the movie timescale is 30000) and the sound from there. Frame 1 at 60 fps
 * starts at 1/60 s, sample 800 at 48 kHz, less than one AAC frame in: that chunk's sound starts
 * at time 0, and a click at mix sample 441 (0.01 s) decodes at 0.01 s, 480 at 48 kHz. */
TEST(chunk_starts_off_the_whole_second)
{
    static const int64_t at[] = { 441, 48554 };
    float *mix = click_mix(at, 2);
    mc_audio_desc a = sound(mix, 0);
    char p[600];
    int64_t n = 0;
    float *dec;
    mc_error e;

    ASSERT(mix);
    ASSERT_OK(encode(in_dir(p, sizeof p, "ntsc.mp4"), (mc_rate){ 30000, 1001 }, 30, 30, &a, 0, &e),
              &e);
    EXPECT_NEAR(probe_num(p, 'v', "start_time"), 1.001, 1e-9);
    EXPECT_NEAR(probe_num(p, 'a', "start_time"), 1.001, 1e-9);
    /* the click at mix sample 48554 (1.100998 s) is output sample 48554 * 160 / 147 =
     * 52847.89, 4799.89 after the track's first (48048) */
    dec = ffmpeg_decode(p, &n);
    ASSERT(dec && n > 6000);
    EXPECT_NEAR(loudest(dec, 0, n), 4799.89, TOL);
    free(dec);
    ASSERT_OK(encode(in_dir(p, sizeof p, "near0.mp4"), (mc_rate){ 60, 1 }, 1, 30, &a, 0, &e), &e);
    EXPECT_NEAR(probe_num(p, 'v', "start_time"), 1.0 / 60.0, 1e-6);
    EXPECT_NEAR(probe_num(p, 'a', "start_time"), 0.0, 1e-9);
    dec = ffmpeg_decode(p, &n);
    ASSERT(dec && n > 2000);
    EXPECT_NEAR(loudest(dec, 0, n), 480, TOL);
    free(dec);
    free(mix);
}

/* Two encodes of one mix give the same file and the same sound packets; a click moved by one
 * sample gives other packets (so the comparison can fail). */
TEST(the_same_mix_gives_the_same_packets)
{
    static const int64_t at[] = { 13230, 70001 }, moved[] = { 13230, 70002 };
    float *mix = click_mix(at, 2), *other = click_mix(moved, 2);
    mc_audio_desc a = sound(mix, 0), b = sound(other, 0);
    int64_t n1, n2, n3;
    uint64_t h1, h2, h3;
    char p1[600], p2[600], p3[600];
    mc_error e;

    ASSERT(mix && other);
    EXPECT_OK(encode(in_dir(p1, sizeof p1, "same1.mp4"), (mc_rate){ 24, 1 }, 0, 48, &a, 0, &e), &e);
    EXPECT_OK(encode(in_dir(p2, sizeof p2, "same2.mp4"), (mc_rate){ 24, 1 }, 0, 48, &a, 0, &e), &e);
    EXPECT_OK(encode(in_dir(p3, sizeof p3, "other.mp4"), (mc_rate){ 24, 1 }, 0, 48, &b, 0, &e), &e);
    h1 = audio_packets(p1, &n1);
    h2 = audio_packets(p2, &n2);
    h3 = audio_packets(p3, &n3);
    /* 2 s at 48 kHz: 96000 samples and the priming, 97024 = 94.75 frames of 1024: 95 packets */
    EXPECT_EQ_INT(n1, 95);
    EXPECT_EQ_INT(n2, 95);
    EXPECT(h1 == h2);
    EXPECT(h1 != h3);
    EXPECT(file_hash(p1) == file_hash(p2) && file_hash(p1) != 0);
    free(mix);
    free(other);
}

/* Without a mix nothing changes: a desc whose audio rate and bitrate are set but whose mix is
 * NULL gives the bytes of one with no audio fields (tests/cli_identity holds those against
 * the golden files); with a mix, the video stream's packets are the same as without. */
TEST(without_a_mix_the_file_is_unchanged)
{
    static const char *const ext[] = { "mp4", "mkv", "mov" };
    static const int64_t at[] = { 5000 };
    float *mix = click_mix(at, 1);
    mc_audio_desc none = { NULL, 0, 44100, 128000 }, a = sound(mix, 0);
    char p1[600], p2[600], p3[600], leaf[32], cmd[1400];
    mc_error e;

    ASSERT(mix);
    for (size_t i = 0; i < TEST_COUNT(ext); i++) {
        char *v1, *v3;

        snprintf(leaf, sizeof leaf, "plain.%s", ext[i]);
        EXPECT_OK(encode(in_dir(p1, sizeof p1, leaf), (mc_rate){ 24, 1 }, 0, 24, NULL, 0, &e), &e);
        snprintf(leaf, sizeof leaf, "nomix.%s", ext[i]);
        EXPECT_OK(encode(in_dir(p2, sizeof p2, leaf), (mc_rate){ 24, 1 }, 0, 24, &none, 0, &e), &e);
        snprintf(leaf, sizeof leaf, "mix.%s", ext[i]);
        EXPECT_OK(encode(in_dir(p3, sizeof p3, leaf), (mc_rate){ 24, 1 }, 0, 24, &a, 0, &e), &e);
        EXPECT(file_hash(p1) == file_hash(p2) && file_hash(p1) != 0);
        EXPECT(file_hash(p1) != file_hash(p3));
        /* ffmpeg's md5 muxer over the video packets, copied as they are */
        snprintf(cmd, sizeof cmd, "ffmpeg -v error -i '%s' -map 0:v -c copy -f md5 -", p1);
        v1 = run(cmd, NULL);
        snprintf(cmd, sizeof cmd, "ffmpeg -v error -i '%s' -map 0:v -c copy -f md5 -", p3);
        v3 = run(cmd, NULL);
        EXPECT(v1 && v3 && strncmp(v1, "MD5=", 4) == 0);
        if (v1 && v3)
            EXPECT_EQ_STR(v1, v3);
        free(v1);
        free(v3);
    }
    free(mix);
}

static mc_status join(const char *const *leaves, size_t n, const char *out, const mc_audio_desc *a,
                      mc_error *e)
{
    char paths[4][600], po[600];
    const char *parts[4];
    mc_concat_desc d = { parts, n, in_dir(po, sizeof po, out), NULL, { NULL, 0, 0, 0 } };

    for (size_t i = 0; i < n; i++)
        parts[i] = in_dir(paths[i], sizeof paths[i], leaves[i]);
    if (a)
        d.audio = *a;
    return mc_concat(&d, NULL, e);
}

/* Chunks 0-19 and 20-47 (each with its own sound track, which the join drops) joined with the
 * whole mix: the joined file's sound packets are the single render's (frames 0-47, the same
 * mix), in MP4 and in Matroska; joined without a mix it has no sound track. */
TEST(the_joined_file_carries_the_single_render_sound)
{
    static const char *const ext[] = { "mp4", "mkv" };
    static const int64_t at[] = { 13230, 70001 };
    float *mix = click_mix(at, 2);
    mc_audio_desc a = sound(mix, 0);
    char p[600], leaf[3][32], single[600], joined[600], v[64];
    mc_error e;

    ASSERT(mix);
    for (size_t i = 0; i < TEST_COUNT(ext); i++) {
        const char *const parts[] = { leaf[1], leaf[0] };
        int64_t n1 = 0, n2 = 0;
        uint64_t h1, h2;

        snprintf(leaf[0], sizeof leaf[0], "part0.%s", ext[i]);
        snprintf(leaf[1], sizeof leaf[1], "part1.%s", ext[i]);
        snprintf(leaf[2], sizeof leaf[2], "single.%s", ext[i]);
        ASSERT_OK(encode(in_dir(p, sizeof p, leaf[0]), (mc_rate){ 24, 1 }, 0, 20, &a, 48, &e), &e);
        ASSERT_OK(encode(in_dir(p, sizeof p, leaf[1]), (mc_rate){ 24, 1 }, 20, 28, &a, 48, &e), &e);
        ASSERT_OK(encode(in_dir(single, sizeof single, leaf[2]), (mc_rate){ 24, 1 }, 0, 48, &a, 48,
                         &e),
                  &e);
        snprintf(leaf[2], sizeof leaf[2], "joined.%s", ext[i]);
        ASSERT_OK(join(parts, 2, leaf[2], &a, &e), &e);
        h1 = audio_packets(single, &n1);
        h2 = audio_packets(in_dir(joined, sizeof joined, leaf[2]), &n2);
        EXPECT_EQ_INT(n1, 95);
        EXPECT_EQ_INT(n2, n1);
        EXPECT(h1 == h2);
        EXPECT_NEAR(probe_num(joined, 'a', "start_time"), ext[i][1] == 'k' ? -0.021 : 0.0, 1e-9);
        snprintf(leaf[2], sizeof leaf[2], "silent.%s", ext[i]);
        ASSERT_OK(join(parts, 2, leaf[2], NULL, &e), &e);
        EXPECT(!probe(in_dir(p, sizeof p, leaf[2]), 'a', "codec_name", v, sizeof v) ||
               v[0] == '\0');
    }
    free(mix);
}

/* Sound the output cannot hold and settings the encoder cannot use are refused before any file
 * is made, each message naming the value. */
TEST(bad_sound_settings_are_refused)
{
    static const int64_t at[] = { 10 };
    float *mix = click_mix(at, 1);
    mc_audio_desc a = sound(mix, 0);
    char p[600];
    mc_error e;

    ASSERT(mix);
    EXPECT_EQ_INT(encode(in_dir(p, sizeof p, "refused.y4m"), (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e),
                  MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "cannot hold sound");
    EXPECT_EQ_INT(encode("-", (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e), MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "'<stdout>' cannot hold sound");
    a.rate = 45000;
    EXPECT_EQ_INT(encode(in_dir(p, sizeof p, "refused.mp4"), (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e),
                  MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "audio rate 45000 Hz is not one the AAC encoder takes");
    EXPECT_CONTAINS(e.msg, "44100");
    a.rate = 0;
    a.bitrate = 8000;
    EXPECT_EQ_INT(encode(p, (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e), MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "audio bitrate 8000 is not within 16000..512000");
    a.bitrate = 0;
    a.frames = -1;
    EXPECT_EQ_INT(encode(p, (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e), MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "has -1 frames");
    a.frames = MIX_LEN;
    mix[2 * 44100 + 1] = NAN; /* right, at 1.0 s */
    EXPECT_EQ_INT(encode(p, (mc_rate){ 24, 1 }, 0, 2, &a, 0, &e), MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "right sample 44100 (1.000000 s) is not a finite number");
    EXPECT_EQ_INT(files_named("refused"), 0);
    free(mix);
}

/* ------------------------------------------------------------------------------------- */
/* Reading                                                                               */

/* At the track's own rate (no resampling) the reader gives what the ffmpeg program decodes,
 * times 32768: the same samples, as many. */
TEST(the_reader_decodes_what_ffmpeg_decodes)
{
    static const int64_t at[] = { 13230, 70001 };
    float *mix = click_mix(at, 2), *dec;
    mc_audio_desc a = sound(mix, 0);
    mc_audio_track clip;
    double worst = 0.0;
    int64_t n = 0;
    char p[600];
    mc_error e;

    ASSERT(mix);
    ASSERT_OK(encode(in_dir(p, sizeof p, "read.mkv"), (mc_rate){ 24, 1 }, 0, 48, &a, 0, &e), &e);
    dec = ffmpeg_decode(p, &n);
    ASSERT(dec);
    EXPECT_OK(mc_audio_read(p, 48000, &clip, &e), &e);
    EXPECT_EQ_INT(clip.frames, n);
    /* Matroska keeps the priming packet, at -21 ms (1024 / 48000 s in milliseconds) */
    EXPECT_EQ_INT(clip.first, -1008);
    for (int64_t i = 0; i < 2 * n && i < 2 * clip.frames; i++)
        worst = fmax(worst, fabs((double)clip.samples[i] - (double)dec[i] * 32768.0));
    EXPECT_NEAR(worst, 0.0, 1e-3);
    mc_audio_track_release(&clip);
    free(dec);
    free(mix);
}

/* A video without sound is no error; bad rates, missing and foreign files are. */
TEST(the_reader_reports_what_it_cannot_read)
{
    mc_audio_track clip;
    char p[600];
    mc_error e;

    ASSERT_OK(encode(in_dir(p, sizeof p, "mute.mp4"), (mc_rate){ 24, 1 }, 0, 4, NULL, 0, &e), &e);
    EXPECT_OK(mc_audio_read(p, 44100, &clip, &e), &e);
    EXPECT(!clip.has_audio);
    EXPECT_EQ_INT(clip.frames, 0);
    EXPECT(clip.samples == NULL);
    EXPECT_EQ_STR(clip.codec, "");
    mc_audio_track_release(&clip);
    EXPECT_EQ_INT(mc_audio_read(p, 7999, &clip, &e), MC_ERR_USAGE);
    EXPECT_CONTAINS(e.msg, "sound rate 7999 Hz is not within 8000..96000");
    EXPECT_EQ_INT(mc_audio_read(in_dir(p, sizeof p, "absent.mp4"), 44100, &clip, &e), MC_ERR_IO);
    EXPECT_CONTAINS(e.msg, "absent.mp4");
    mc_audio_track_release(&clip);
    in_dir(p, sizeof p, "text.mp4");
    ASSERT(test_write_file(dir, "text.mp4", "not a video\n"));
    EXPECT_EQ_INT(mc_audio_read(p, 44100, &clip, &e), MC_ERR_IMAGE);
    EXPECT_CONTAINS(e.msg, "text.mp4");
    mc_audio_track_release(&clip);
    EXPECT_EQ_INT(mc_audio_read(dir, 44100, &clip, &e), MC_ERR_IMAGE);
    EXPECT_CONTAINS(e.msg, "not a regular file");
    mc_audio_track_release(&clip);
}

/* A track longer than MC_LIMIT_AUDIO_SECONDS (1800 s) is refused: by the duration its container
 * states before anything is decoded, and by what it decodes to when the file states none (FLAC
 * written to a pipe has no sample count). The sound: 1801 s of 8 kHz mono silence made by the
 * ffmpeg program, FLAC-compressed to a few hundred kilobytes. */
TEST(a_track_past_the_limit_is_refused)
{
    char p[600], q[600], cmd[2400], *out;
    mc_audio_track clip;
    mc_error e;

    in_dir(p, sizeof p, "long.mkv");
    in_dir(q, sizeof q, "long_piped.flac");
    snprintf(cmd, sizeof cmd,
             "ffmpeg -v error -y -f lavfi -i anullsrc=r=8000:cl=mono -t %d -c:a flac '%s' && "
             "ffmpeg -v error -f lavfi -i anullsrc=r=8000:cl=mono -t %d -c:a flac -f flac - "
             "> '%s' && ffprobe -v error -show_entries format=duration -of csv=p=0 '%s'",
             MC_LIMIT_AUDIO_SECONDS + 1, p, MC_LIMIT_AUDIO_SECONDS + 1, q, q);
    out = run(cmd, NULL);
    ASSERT(out);
    EXPECT_EQ_STR(out, "N/A\n"); /* the piped file states no duration */
    free(out);
    EXPECT_EQ_INT(mc_audio_read(p, 8000, &clip, &e), MC_ERR_LIMIT);
    EXPECT_CONTAINS(e.msg, "lasts 1801 seconds, longer than 1800");
    EXPECT(clip.samples == NULL);
    mc_audio_track_release(&clip);
    EXPECT_EQ_INT(mc_audio_read(q, 8000, &clip, &e), MC_ERR_LIMIT);
    EXPECT_CONTAINS(e.msg, "longer than 1800 seconds");
    mc_audio_track_release(&clip);
}

int main(int argc, char **argv)
{
    test_tmp_path(dir, sizeof dir, "audio_track");
    if (!mc_mkdirs(dir))
        return 1;
    return test_main(argc, argv);
}
