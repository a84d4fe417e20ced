/* The sound comparison (audio_compare.h) on tracks that sox and ffmpeg make, read back with
 * mc_audio_read at 44100 Hz. Every expected value is worked by hand from what sox writes:
 *
 *   a sine of amplitude A (16-bit steps) over whole periods has RMS A / sqrt 2, so sox's
 *   full-scale sine (peak 32767) is 20 log10(32767 / 32768 / sqrt 2) = -3.0106 dBFS, and
 *   `vol 0.5` (peak 16384) 20 log10(0.5 / sqrt 2) = -9.0309 dBFS;
 *   the difference of a sine at vol 0.5 and one at vol 0.25 is a sine at 0.25: -15.0515 dBFS;
 *   a 10 ms, 1000 Hz burst at vol 0.5 padded by P samples starts at sample P with sin(0) = 0;
 *   its samples rise 2326, 4606, 6792, 8840 (sox's own, 16384 sin(2 pi 1000 n / 44100)), and
 *   8840 is the first over half its peak (8192): the onset is sample P + 4;
 *   a one-sample click (`synth 1s square`) at sample P is its own onset, P;
 *   the same sound 441 samples later is 441 / 44100 s = 10 ms later.
 * Each bad or missing input is a test of its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/audio_compare.h>
#include <md5cine/audio_in.h>
#include <md5cine/fileio.h>

#include "test.h"

static char dir[512];

static bool run(const char *cmd)
{
    int rc = system(cmd);

    return rc == 0 ? true : test_fail(__FILE__, __LINE__, "'%s' exited with %d", cmd, rc);
}

/* dir/leaf made by sox from the effects given (2 channels, 16 bits, 44100 Hz, no dither). */
static bool sox(char *path, size_t cap, const char *leaf, const char *effects)
{
    char cmd[2048];

    snprintf(path, cap, "%s/%s", dir, leaf);
    snprintf(cmd, sizeof cmd, "sox -D -r 44100 -c 2 -n -b 16 '%s' %s", path, effects);
    return run(cmd);
}

static bool read_track(const char *path, mc_audio_track *t)
{
    mc_error e;
    mc_status st = mc_audio_read(path, 44100, t, &e);

    return st == MC_OK ? true : test_fail(__FILE__, __LINE__, "%s", e.msg);
}

/* Compares the files a and b with the default limits into r. */
static bool compare_files(const char *a, const char *b, mc_audio_result *r)
{
    mc_audio_track ta = { 0 }, tb = { 0 };
    mc_error e;
    bool ok = read_track(a, &ta) && read_track(b, &tb);

    if (ok && mc_audio_compare(&ta, &tb, NULL, r, &e) != MC_OK)
        ok = test_fail(__FILE__, __LINE__, "%s", e.msg);
    mc_audio_track_release(&ta);
    mc_audio_track_release(&tb);
    return ok;
}

TEST(a_full_scale_sine_is_minus_3_01_dbfs)
{
    char full[600], half[600], quarter[600];
    mc_audio_result r;

    ASSERT(sox(full, sizeof full, "full.wav", "synth 1 sine 1000"));
    ASSERT(sox(half, sizeof half, "half.wav", "synth 1 sine 1000 vol 0.5"));
    ASSERT(sox(quarter, sizeof quarter, "quarter.wav", "synth 1 sine 1000 vol 0.25"));
    ASSERT(compare_files(full, half, &r));
    EXPECT_NEAR(r.rms_a_db, -3.0106, 0.002);
    EXPECT_NEAR(r.rms_b_db, -9.0309, 0.002);
    EXPECT(!r.pass); /* the difference, a sine at 0.5 (-9.03 dBFS), is over -30 */
    EXPECT(r.fail & MC_AUDIO_FAIL_RMS);
    EXPECT_CONTAINS(r.reasons, "RMS difference -9.03 dBFS > -30.00 dBFS");
    mc_audio_result_release(&r);
    ASSERT(compare_files(half, quarter, &r));
    EXPECT_NEAR(r.rms_diff_db, -15.0515, 0.002);
    EXPECT_EQ_INT((int)r.count_a, 1); /* a steady tone starts once, at its first samples */
    EXPECT_EQ_INT((int)r.pair_count, 1);
    mc_audio_result_release(&r);
}

TEST(the_same_track_has_a_silent_difference)
{
    char half[600];
    mc_audio_result r;
    char buf[32];

    ASSERT(sox(half, sizeof half, "same.wav", "synth 1 sine 1000 vol 0.5"));
    ASSERT(compare_files(half, half, &r));
    EXPECT(isinf(r.rms_diff_db) && r.rms_diff_db < 0.0);
    mc_audio_format_db(r.rms_diff_db, buf, sizeof buf);
    EXPECT_EQ_STR(buf, "silent");
    EXPECT(r.pass);
    EXPECT_EQ_STR(r.reasons, "");
    EXPECT_NEAR(r.worst_offset_ms, 0.0, 1e-9);
    mc_audio_result_release(&r);
}

TEST(a_burst_moved_441_samples_is_10_ms_late)
{
    char a[600], b[600];
    mc_audio_result r;

    ASSERT(sox(a, sizeof a, "burst_a.wav", "synth 0.01 sine 1000 vol 0.5 pad 22050s 21609s"));
    ASSERT(sox(b, sizeof b, "burst_b.wav", "synth 0.01 sine 1000 vol 0.5 pad 22491s 21168s"));
    ASSERT(compare_files(a, b, &r));
    ASSERT(r.count_a == 1 && r.count_b == 1 && r.pair_count == 1);
    EXPECT_EQ_INT((int)r.onsets_a[0], 22054);
    EXPECT_EQ_INT((int)r.onsets_b[0], 22495);
    EXPECT_NEAR(r.pairs[0].offset_ms, 10.0, 1e-9);
    EXPECT_NEAR(r.worst_offset_ms, 10.0, 1e-9);
    /* 10 ms is within the default onset limit (<= 10 ms), but the two bursts do not overlap:
     * the difference is both, 2 x 441 samples of a sine at vol 0.5 (10 whole periods each) in
     * 44100, -9.0309 + 10 log10(882 / 44100) = -26.0206 dBFS, over -30. */
    EXPECT_NEAR(r.rms_diff_db, -26.0206, 0.002);
    EXPECT_EQ_INT((int)r.fail, MC_AUDIO_FAIL_RMS);
    mc_audio_result_release(&r);
}

/* dir/leaf: the files in1 and in2 mixed at their own levels (sox -m -v 1). */
static bool sox_mix(char *path, size_t cap, const char *leaf, const char *in1, const char *in2)
{
    char cmd[2048];

    snprintf(path, cap, "%s/%s", dir, leaf);
    snprintf(cmd, sizeof cmd, "sox -D -m -v 1 '%s' -v 1 '%s' -b 16 '%s'", in1, in2, path);
    return run(cmd);
}

/* A second of silence with a one-sample click of 16384 at sample at. */
static bool click(char *path, size_t cap, const char *leaf, int at)
{
    char fx[200];

    snprintf(fx, sizeof fx, "synth 1s square 100 vol 0.5 pad %ds %ds", at, 44099 - at);
    return sox(path, cap, leaf, fx);
}

/* Clicks at samples 11025 and 33075 (A); B's second is 441 samples (10 ms) late. The
 * difference is four samples of 16384 (two clicks, two channels) in 2 x 44100: RMS
 * 16384 sqrt(4 / 88200) = 110.33, 20 log10(110.33 / 32768) = -49.455 dBFS. */
TEST(clicks_are_found_on_their_samples)
{
    char c1[600], c2[600], c3[600], a[600], b[600];
    mc_audio_track ta = { 0 }, tb = { 0 };
    mc_audio_opts o = { MC_AUDIO_SET_MAX_ONSET, 5.0, 0.0 };
    mc_audio_result r;
    mc_error e;

    ASSERT(click(c1, sizeof c1, "c11025.wav", 11025) && click(c2, sizeof c2, "c33075.wav", 33075));
    ASSERT(click(c3, sizeof c3, "c33516.wav", 33516));
    ASSERT(sox_mix(a, sizeof a, "clicks_a.wav", c1, c2) && read_track(a, &ta));
    ASSERT(sox_mix(b, sizeof b, "clicks_b.wav", c1, c3) && read_track(b, &tb));
    ASSERT_OK(mc_audio_compare(&ta, &tb, &o, &r, &e), &e);
    ASSERT(r.count_a == 2 && r.count_b == 2 && r.pair_count == 2);
    EXPECT_EQ_INT((int)r.onsets_a[0], 11025);
    EXPECT_EQ_INT((int)r.onsets_a[1], 33075);
    EXPECT_EQ_INT((int)r.onsets_b[1], 33516);
    EXPECT_NEAR(r.pairs[0].offset_ms, 0.0, 1e-9);
    EXPECT_NEAR(r.pairs[1].offset_ms, 10.0, 1e-9);
    EXPECT_NEAR(r.rms_diff_db, -49.455, 0.002);
    EXPECT_EQ_INT((int)r.fail, MC_AUDIO_FAIL_ONSET); /* -49.5 dBFS is under -30 */
    EXPECT_EQ_STR(r.reasons, "onset offset +10.00 ms > 5.00 ms");
    mc_audio_result_release(&r);
    mc_audio_track_release(&tb);
    /* B without its second click: A's is unpaired. */
    ASSERT(read_track(c1, &tb));
    ASSERT_OK(mc_audio_compare(&ta, &tb, NULL, &r, &e), &e);
    EXPECT_EQ_INT((int)r.pair_count, 1);
    ASSERT(r.unpaired_count_a == 1 && r.unpaired_count_b == 0);
    EXPECT_EQ_INT((int)r.unpaired_a[0], 33075);
    EXPECT_EQ_INT((int)r.fail, MC_AUDIO_FAIL_UNPAIRED);
    EXPECT_EQ_STR(r.reasons, "1 onsets of A and 0 of B unpaired");
    mc_audio_result_release(&r);
    mc_audio_track_release(&ta);
    mc_audio_track_release(&tb);
}

/* Silence has no level and no onset; a track against none is a difference; no track on
 * either side passes. */
TEST(silence_and_missing_tracks)
{
    char z[600];
    mc_audio_track t = { 0 }, none = { 0 };
    mc_audio_result r;
    mc_error e;

    ASSERT(sox(z, sizeof z, "silence.wav", "trim 0 1"));
    ASSERT(read_track(z, &t));
    ASSERT(t.has_audio && t.frames >= 44100);
    ASSERT_OK(mc_audio_compare(&t, &t, NULL, &r, &e), &e);
    EXPECT(isinf(r.rms_a_db) && isinf(r.rms_diff_db));
    EXPECT(r.count_a == 0 && r.pass);
    mc_audio_result_release(&r);
    none.rate = 44100;
    ASSERT_OK(mc_audio_compare(&none, &t, NULL, &r, &e), &e);
    EXPECT_EQ_INT((int)r.fail, MC_AUDIO_FAIL_TRACK);
    EXPECT_EQ_STR(r.reasons, "A has no sound track");
    mc_audio_result_release(&r);
    ASSERT_OK(mc_audio_compare(&none, &none, NULL, &r, &e), &e);
    EXPECT(r.pass && !r.has_a && !r.has_b);
    mc_audio_result_release(&r);
    mc_audio_track_release(&t);
}

/* The bursts above in MP4s (AAC at 48 kHz, read back at 44.1): AAC and two resamplings move
 * a transient by at most 2 samples (audio_track_test), so the offset is 10 ms within
 * 4 / 44100 s = 0.091 ms. */
TEST(mp4_bursts_keep_their_offset)
{
    char cmd[2048], a[600], b[600], va[600], vb[600];
    mc_audio_result r;

    ASSERT(sox(a, sizeof a, "mp4_a.wav", "synth 0.01 sine 1000 vol 0.5 pad 22050s 21609s"));
    ASSERT(sox(b, sizeof b, "mp4_b.wav", "synth 0.01 sine 1000 vol 0.5 pad 22491s 21168s"));
    snprintf(va, sizeof va, "%s/a.mp4", dir);
    snprintf(vb, sizeof vb, "%s/b.mp4", dir);
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd,
                 "ffmpeg -loglevel error -y -f lavfi -i color=c=gray:s=64x48:r=24:d=1 -i '%s' "
                 "-c:v libx264 -pix_fmt yuv420p -c:a aac -ar 48000 -shortest '%s'",
                 i ? b : a, i ? vb : va);
        ASSERT(run(cmd));
    }
    ASSERT(compare_files(va, vb, &r));
    ASSERT(r.pair_count == 1 && r.count_a == 1 && r.count_b == 1);
    EXPECT_NEAR(r.pairs[0].offset_ms, 10.0, 0.091);
    EXPECT_NEAR((double)r.onsets_a[0], 22054.0, 4.0);
    mc_audio_result_release(&r);
    ASSERT(compare_files(va, va, &r));
    EXPECT(isinf(r.rms_diff_db) && r.pass);
    mc_audio_result_release(&r);
}

/* A file whose sound cannot be read is an error naming it, and nothing to compare. */
TEST(a_corrupt_track_is_an_error)
{
    char p[600];
    mc_audio_track t = { 0 };
    mc_error e;
    FILE *f;

    snprintf(p, sizeof p, "%s/corrupt.wav", dir);
    f = fopen(p, "wb");
    ASSERT(f);
    fputs("RIFF\xff\xff\xff\x7fWAVEfmt \x10\0\0\0\x07\0\x09\0garbage", f);
    fclose(f);
    EXPECT(mc_audio_read(p, 44100, &t, &e) != MC_OK);
    EXPECT_CONTAINS(e.msg, "corrupt.wav");
    EXPECT(t.samples == NULL);
    mc_audio_track_release(&t);
}

/* Samples that are not numbers: the levels are NaN, which fails the RMS limit (and prints as
 * such), no onset starts, and the waveform holds NaN that the sheet draws as silence
 * (sheet_test). */
TEST(nan_samples_fail_the_rms_limit)
{
    float s[2 * 4410];
    mc_audio_track t = { true, s, 4410, 44100, 0, 44100, 2, "pcm" }, z = t;
    float zs[2 * 4410] = { 0 };
    mc_audio_result r;
    mc_error e;

    for (int i = 0; i < 2 * 4410; i++)
        s[i] = i % 7 == 0 ? NAN : 1000.0f;
    z.samples = zs;
    ASSERT_OK(mc_audio_compare(&z, &t, NULL, &r, &e), &e);
    EXPECT(isnan(r.rms_b_db) && isnan(r.rms_diff_db));
    EXPECT_EQ_INT((int)r.count_b, 0);
    EXPECT_EQ_INT((int)r.fail, MC_AUDIO_FAIL_RMS);
    EXPECT_CONTAINS(r.reasons, "RMS difference nan dBFS > -30.00 dBFS");
    mc_audio_result_release(&r);
}

int main(int argc, char **argv)
{
    test_tmp_path(dir, sizeof dir, "audio_compare");
    if (!mc_mkdirs(dir))
        return 1;
    return test_main(argc, argv);
}
