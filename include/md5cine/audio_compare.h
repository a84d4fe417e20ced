/* Sound comparison: two sound tracks (audio_in.h, read at one rate) compared as a reviewer
 * listens to them -- how loud their difference is, and whether each sound starts when it did.
 *
 * Timeline: both tracks are laid on one timeline by their `first` sample; where one track has
 * no sample (before its first, after its last) it counts as silence. Both channels count.
 *
 * RMS (dBFS, relative to full scale 32768, the scale of audio_in.h): 20 log10(rms / 32768),
 * rms the root mean square over every sample of both channels, so a full-scale sine is
 * 20 log10(1 / sqrt 2) = -3.01 dBFS and a square wave of half scale -6.02 dBFS. A track (or a
 * difference) that is exactly zero has no level: -INFINITY, printed "silent" (JSON null).
 * rms_diff_db is the RMS of (B - A) over the union of both tracks' spans. A sample that is not
 * a number (a damaged decode) makes the levels NaN, which fails the RMS limit, and starts no
 * onset.
 *
 * Onsets (where a sound event starts), from an energy envelope:
 *   window  MC_AUDIO_WINDOW_MS (5 ms: 220 samples at 44.1 kHz, 240 at 48 kHz), back to back,
 *           the first starting at the timeline's first sample; a window's energy is the mean of
 *           (L^2 + R^2) / 2 over it, in dBFS (10 log10(E / 32768^2)). The hop is the window: a
 *           5 ms grid is fine enough to find the start of a footstep, and the start is then
 *           refined to the sample (below), so overlapping windows would buy nothing.
 *   rise    a window starts an onset when its energy is at least MC_AUDIO_FLOOR_DB (-60 dBFS:
 *           the level at which Doom's mixer takes a sound as silent, snd_system.cpp,
 *           idSoundSystemLocal::dB2Scale, so quieter is no event the engine plays) and
 *           at least MC_AUDIO_RISE_DB (10 dB) above the quieter of the two windows before it
 *           (windows before the timeline are silent). Ten dB is three times the rise a
 *           steady tone shows when it starts mid-window (3 dB), and over AAC's pre-echo, which
 *           stays 20 dB or more under a transient; comparing with two windows back catches a
 *           sound that starts at a window's last samples.
 *   sample  the onset is the first sample, from two windows before the rising one to two
 *           after it, whose larger channel magnitude reaches half the largest over those five
 *           windows: a click's own sample, a tone's first quarter-period.
 *   hold    no new onset starts within MC_AUDIO_HOLD_MS (50 ms) of the last one: a sound's
 *           own flutter is one event; footsteps and syllables are further apart.
 * Pairs: every onset of A is paired with an onset of B at most MC_AUDIO_PAIR_MS (200 ms) away,
 * nearest pairs first (ties: the earlier), each onset in at most one pair; offset_ms is B's
 * time minus A's. Onsets left without a pair are listed apart.
 *
 * Limits (mc_audio_opts; a zeroed struct means the defaults): the tracks pass when both have a
 * track or neither has, rms_diff_db <= max_rms_db (default MC_AUDIO_DEFAULT_RMS_DB, -30 dBFS),
 * every pair's |offset_ms| <= max_onset_ms (default MC_AUDIO_DEFAULT_ONSET_MS, 10 ms: under
 * one frame at every rate up to 100 fps, and far over the 2 samples by which AAC and
 * resampling move a click), and no onset is unpaired. */
#ifndef MC_AUDIO_COMPARE_H
#define MC_AUDIO_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <md5cine/audio_in.h>
#include <md5cine/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_AUDIO_WINDOW_MS         5.0
#define MC_AUDIO_FLOOR_DB          (-60.0)
#define MC_AUDIO_RISE_DB           10.0
#define MC_AUDIO_HOLD_MS           50.0
#define MC_AUDIO_PAIR_MS           200.0
#define MC_AUDIO_DEFAULT_ONSET_MS  10.0
#define MC_AUDIO_DEFAULT_RMS_DB    (-30.0)

/* Bits of mc_audio_opts.set: the fields given; unset fields take their defaults. */
enum {
    MC_AUDIO_SET_MAX_ONSET = 1u << 0,
    MC_AUDIO_SET_MAX_RMS = 1u << 1,
};

typedef struct mc_audio_opts {
    unsigned set;        /* MC_AUDIO_SET_* bits */
    double max_onset_ms; /* fail when a pair's |offset| > this, ms (>= 0; INFINITY = off) */
    double max_rms_db;   /* fail when the difference's RMS > this, dBFS (<= 0; 0 = off) */
} mc_audio_opts;

/* Reasons the tracks failed (mc_audio_result.fail). */
enum {
    MC_AUDIO_FAIL_TRACK = 1u << 0,    /* one side has a sound track, the other none */
    MC_AUDIO_FAIL_RMS = 1u << 1,      /* rms_diff_db > max_rms_db */
    MC_AUDIO_FAIL_ONSET = 1u << 2,    /* a pair's |offset_ms| > max_onset_ms */
    MC_AUDIO_FAIL_UNPAIRED = 1u << 3, /* an onset of one side has no pair on the other */
};

typedef struct mc_audio_pair {
    int64_t a, b;     /* onset samples on the timeline (at rate) */
    double offset_ms; /* (b - a) * 1000 / rate */
} mc_audio_pair;

typedef struct mc_audio_result {
    bool has_a, has_b;    /* each side has a sound track */
    int rate;             /* samples per second of both */
    int64_t first, end;   /* the timeline span compared: samples first .. end - 1 */
    double rms_a_db, rms_b_db, rms_diff_db; /* dBFS; -INFINITY: silent (see the top) */
    int64_t *onsets_a, *onsets_b; /* timeline samples, increasing; malloc'd (or NULL) */
    size_t count_a, count_b;
    mc_audio_pair *pairs; /* in A's order; malloc'd (or NULL) */
    size_t pair_count;
    int64_t *unpaired_a, *unpaired_b; /* onsets without a pair, increasing; malloc'd */
    size_t unpaired_count_a, unpaired_count_b;
    double worst_offset_ms; /* the pair's offset with the largest magnitude; 0 without pairs */
    mc_audio_opts limits;   /* the limits in force (defaults filled in, every bit set) */
    unsigned fail;          /* MC_AUDIO_FAIL_* bits */
    bool pass;              /* fail == 0 */
    char reasons[256];      /* why it failed, "" when it passed */
} mc_audio_result;

/* opts with every unset field at its default; the out's set has every bit. */
void mc_audio_effective(const mc_audio_opts *opts, mc_audio_opts *out);

/* The onsets of t (see the top) as timeline samples into *out (malloc'd; NULL when none; the
 * caller frees it) and their count into *count. Errors: MC_ERR_USAGE (rate out of
 * 8000..96000 with samples), MC_ERR_NOMEM. */
mc_status mc_audio_onsets(const mc_audio_track *t, int64_t **out, size_t *count, mc_error *err);

/* Compares b against a (both at one rate; a track without sound has has_audio false) with
 * opts (NULL: the defaults) into *out, which the caller releases with mc_audio_result_release.
 * Errors: MC_ERR_USAGE (rates that differ, a limit out of range), MC_ERR_NOMEM; on failure *out
 * holds nothing to free. */
mc_status mc_audio_compare(const mc_audio_track *a, const mc_audio_track *b,
                           const mc_audio_opts *opts, mc_audio_result *out, mc_error *err);

void mc_audio_result_release(mc_audio_result *r);

/* The waveform of t over timeline samples first .. end - 1 in n columns: column i covers
 * samples first + (end - first) * i / n up to the next column's, and min[i] / max[i] are the
 * smallest and largest sample of either channel there, divided by 32768 (so -1..1; 0 and 0
 * where the track has no sample). end > first, n >= 1. */
void mc_audio_envelope(const mc_audio_track *t, int64_t first, int64_t end, float *min,
                       float *max, size_t n);

/* A dB value as the reports write it: "-12.34 dBFS", or "silent" for -INFINITY. */
void mc_audio_format_db(double db, char *buf, size_t cap);

/* The result as `md5cine compare` prints it after the frames: the line "sound: RMS difference
 * D (A a, B b), N onsets in A, M in B, P paired, largest offset O ms" and, when it failed,
 * "sound: differs: REASONS" and up to max_rows rows of the pairs over the onset limit and the
 * unpaired onsets ("  onset A 1234.56 ms  B 1244.56 ms  offset +10.00 ms"). */
void mc_audio_print_text(const mc_audio_result *r, size_t max_rows, FILE *to);

/* The result as one JSON object (the "audio" member of compare's --json): has_a, has_b, rate,
 * rms_a_db, rms_b_db, rms_diff_db (null when silent), onsets_a_ms, onsets_b_ms, pairs (each
 * {"a_ms", "b_ms", "offset_ms"}), unpaired_a_ms, unpaired_b_ms, worst_offset_ms, limits
 * {"max_onset_ms" (null when off: infinite), "max_rms_db" (0 when off)}, pass, reasons. */
void mc_audio_print_json(const mc_audio_result *r, FILE *to);

#ifdef __cplusplus
}
#endif

#endif
