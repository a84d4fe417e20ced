/* md5cine compare A B: frame-by-frame comparison of two frame sources (PNG, folder, video):
 * A is the reference of a reference check (refcheck.h) that B's frames are fed to.
 *
 * With --report, SIGINT and SIGTERM are blocked for the whole check and looked for before each
 * frame: an interrupt removes the report's temporary folder, then exits 128 + its number, as
 * render does.
 *
 * Sound: when A and B are both videos, their sound tracks are read at MC_SOUND_RATE and
 * compared too (audio_compare.h) -- a line after the frames' table, an "audio" member in the
 * JSON, a test case in JUnit, a section in the report; a failing sound fails the comparison as
 * a failing frame does. Neither having a track skips it without a word; sources that are not
 * both videos have no sound to compare. */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/audio_compare.h>
#include <md5cine/audio_in.h>
#include <md5cine/compare.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>
#include <md5cine/plan.h>
#include <md5cine/refcheck.h>
#include <md5cine/refpair.h>
#include <md5cine/report.h>
#include <md5cine/scene.h>
#include <md5cine/types.h>

#include "args.h"
#include "cli.h"
#include "limit_args.h"

typedef struct compare_args {
    const char *a, *b;
    const char *diff_dir;
    const char *report_dir, *junit;
    bool json, quiet, verbose;
    mc_limit_args lim;
    long offset; /* --offset N: B's frame k is compared with A's frame k + N */
    bool has_offset;
    int64_t first, last; /* --frames A-B: only the frames k numbered A..B (B's numbers) */
    bool has_frames;
    const char *scene;   /* --scene SCENE: the reports' shots from its camera */
    int report_max_frames;
    mc_compare_opts opts;
    mc_audio_opts audio; /* --audio-max-onset-ms, --audio-max-rms-db */
} compare_args;

typedef struct compare_run {
    const compare_args *args;
    mc_refpair *pair;   /* B's frames paired with A's */
    mc_frames_in *a, *b; /* the pair's sources */
    mc_refcheck *check; /* A is the reference, B's frames are checked */
    mc_report *report;  /* --report; NULL without */
    int stop_signal;    /* SIGINT or SIGTERM taken while --report is being made; 0: none */
    bool bad_input;     /* a frame pair of different sizes, an unreadable reference frame */
    long size_frames;   /* pairs of different sizes (one message names the first) */
    mc_shot_range *shots; /* the reports' groups: --scene's shots, else chapters; NULL: none */
    size_t shot_count;
    mc_audio_track sound_a, sound_b; /* A's and B's sound (both videos) */
    mc_audio_result sound;           /* their comparison, when has_sound */
    bool has_sound;
} compare_run;

static bool parse_offset(void *field, const char *s)
{
    compare_args *ca = field;

    if (!mc_arg_long(s, -MC_LIMIT_REFERENCE_FRAMES, MC_LIMIT_REFERENCE_FRAMES, &ca->offset))
        return false;
    ca->has_offset = true;
    return true;
}

static bool parse_frames(void *field, const char *s)
{
    compare_args *ca = field;

    if (!mc_arg_frame_range(s, &ca->first, &ca->last))
        return false;
    ca->has_frames = true;
    return true;
}

/* --audio-max-onset-ms MS: 0..10000 or off. */
static bool parse_onset(void *field, const char *s)
{
    mc_audio_opts *o = field;

    if (strcmp(s, "off") == 0)
        o->max_onset_ms = INFINITY;
    else if (!mc_arg_double(s, 0.0, 10000.0, false, &o->max_onset_ms))
        return false;
    o->set |= MC_AUDIO_SET_MAX_ONSET;
    return true;
}

/* --audio-max-rms-db DB: -200..0 (0 is off) or off. */
static bool parse_rms(void *field, const char *s)
{
    mc_audio_opts *o = field;

    if (strcmp(s, "off") == 0)
        o->max_rms_db = 0.0;
    else if (!mc_arg_double(s, -200.0, 0.0, false, &o->max_rms_db))
        return false;
    o->set |= MC_AUDIO_SET_MAX_RMS;
    return true;
}

#define F(m) offsetof(compare_args, m)

static const mc_arg_opt compare_opts[] = {
    MC_LIMIT_ARG_OPTS(F(lim)),
    { .name = "--lossy", .kind = MC_ARG_FLAG, .offset = F(lim.opts.lossy),
      .help = "use the video limits for PNGs too" },
    { .name = "--audio-max-onset-ms", .kind = MC_ARG_CUSTOM, .parse = parse_onset,
      .offset = F(audio), .expect = "0..10000 ms or off", .metavar = "MS",
      .help = "videos' sound: fail when a sound starts more than MS\n"
              "milliseconds apart in A and B (default 10)" },
    { .name = "--audio-max-rms-db", .kind = MC_ARG_CUSTOM, .parse = parse_rms,
      .offset = F(audio), .expect = "-200..0 dBFS or off", .metavar = "DB",
      .help = "videos' sound: fail when the RMS of B - A is over DB dBFS\n"
              "(default -30)" },
    { .name = "--diff", .kind = MC_ARG_STRING, .offset = F(diff_dir), .metavar = "DIR",
      .help = "write DIR/diff_<frame>.png for every frame that differs" },
    { .name = "--offset", .kind = MC_ARG_CUSTOM, .parse = parse_offset,
      .expect = "a whole number of frames", .metavar = "N",
      .help = "compare B's frame k with A's frame k + N (default 0: by\n"
              "number; a chunk video's frames are numbered from its first)" },
    { .name = "--frames", .kind = MC_ARG_CUSTOM, .parse = parse_frames,
      .expect = MC_ARG_FRAMES_EXPECT, .metavar = "A-B",
      .help = "compare frames A to B only (inclusive, by B's numbers);\n"
              "both sides must hold every one of them" },
    { .name = "--scene", .kind = MC_ARG_STRING, .offset = F(scene), .metavar = "SCENE",
      .help = "group --report and --junit by SCENE's shots (its camera's\n"
              "cuts at its rate, or B's when B is a video)" },
    { .name = "--json", .kind = MC_ARG_FLAG, .offset = F(json),
      .help = "print one JSON object instead of the table" },
    { .name = "--report", .kind = MC_ARG_STRING, .offset = F(report_dir), .metavar = "DIR",
      .help = "write an HTML review page into folder DIR (DIR/index.html\n"
              "and its pictures)" },
    { .name = "--report-max-frames", .kind = MC_ARG_INT, .offset = F(report_max_frames),
      .min = 1, .max = MC_REFCHECK_MAX_LISTED, .metavar = "N",
      .help = "the --report page lists at most N runs of failing frames\n"
              "(default 100) and says how many it left out" },
    { .name = "--junit", .kind = MC_ARG_STRING, .offset = F(junit), .metavar = "FILE",
      .help = "write the result as JUnit XML to FILE (one test case per\n"
              "shot: --scene's, B's or A's chapters, else one for all)" },
    { .name = "--verbose", .kind = MC_ARG_FLAG, .offset = F(verbose),
      .help = "list every frame that did not pass (default: the first 10)" },
    { .name = "--quiet", .alias = "-q", .kind = MC_ARG_FLAG, .offset = F(quiet),
      .help = "print nothing but errors" },
};

static const mc_arg_spec compare_spec = {
    .command = "compare",
    .synopsis =
        "usage: md5cine compare A B [options]\n"
        "  A is the reference, B the candidate; each a PNG, a folder of numbered PNGs or a video\n"
        "  (.mp4 .mkv .mov .webm .avi .y4m). Frames are matched by number; a chunk video's\n"
        "  frames are numbered from its first output frame.\n",
    .epilog = "exit status: 0 all frames match, 1 some differ, 2 bad input or usage,\n"
              "3 runtime failure (a diff image cannot be written, out of memory)\n",
    .opts = compare_opts,
    .nopts = MC_ARG_COUNT(compare_opts),
    .min_pos = 2,
    .max_pos = 2,
    .too_few = "compare needs two sources: md5cine compare A B",
    .too_many = ": compare takes two sources",
    .seen_offset = offsetof(compare_args, lim.opts.set),
};

/* No output replaces a file compared or lies in a folder of frames compared. */
static int check_outputs(const compare_args *ca)
{
    mc_guard g = { 0 };
    int rc;

    mc_guard_add(&g, ca->a);
    mc_guard_add(&g, ca->b);
    mc_guard_add(&g, ca->lim.mask);
    mc_guard_add(&g, ca->scene);
    rc = mc_guard_output(&g, "--diff", ca->diff_dir);
    if (rc == -1)
        rc = mc_guard_output(&g, "--report", ca->report_dir);
    if (rc == -1)
        rc = mc_guard_output(&g, "--junit", ca->junit);
    mc_guard_release(&g);
    return rc;
}

/* Returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, compare_args *ca)
{
    int npos;
    int rc = mc_args_parse(&compare_spec, argc, argv, ca, &npos);

    if (rc != -1)
        return rc;
    ca->a = argv[1];
    ca->b = argv[2];
    if (ca->report_max_frames && !ca->report_dir)
        return mc_usage_error("--report-max-frames needs --report DIR");
    return check_outputs(ca);
}

/* Every failure of the frame sources is bad input, except running out of memory. */
static int input_error(const mc_error *e)
{
    mc_diag_print(stderr, "error", e);
    return e->code == MC_ERR_NOMEM ? MC_EXIT_RUNTIME : MC_EXIT_INPUT;
}

static int open_check(compare_run *run)
{
    mc_refcheck_desc d;
    mc_error err;

    memset(&d, 0, sizeof d);
    d.opts = run->args->lim.opts;
    mc_refpair_fill_desc(run->pair, &d);
    d.mask = run->args->lim.mask;
    d.ignore = run->args->lim.ignore.r;
    d.num_ignore = run->args->lim.ignore.n;
    d.diff_dir = run->args->diff_dir;
    d.threads = 1;
    if (run->args->report_dir) {
        mc_report_desc rd = { .dir = run->args->report_dir, .width = d.width,
                              .height = d.height, .threads = 1,
                              .max_frames = run->args->report_max_frames,
                              .shots = run->shots, .shot_count = run->shot_count };

        if (mc_report_open(&rd, &run->report, &err) != MC_OK) {
            mc_diag_print(stderr, "error", &err);
            return mc_exit_code(err.code);
        }
        mc_report_attach(run->report, &d);
    }
    if (mc_refcheck_open(&d, &run->check, &err) != MC_OK)
        return input_error(&err);
    return MC_EXIT_OK;
}

/* Says why the row just recorded for B's frame f is bad input. */
static void report_bad_row(compare_run *run, const mc_refpair_frame *f)
{
    const mc_refcheck_row *row =
            mc_refcheck_row_at(run->check, mc_refcheck_row_count(run->check) - 1);

    if (!row || (row->kind != MC_REFCHECK_SIZE && row->kind != MC_REFCHECK_UNREADABLE))
        return;
    run->bad_input = true;
    if (row->kind == MC_REFCHECK_SIZE && run->size_frames++ == 0)
        fprintf(stderr, "md5cine: error: frame %lld: '%s' is %dx%d but '%s' is %dx%d\n",
                (long long)f->k, mc_refpair_reference_file(run->pair, f->k), row->ref_width,
                row->ref_height, f->file, f->view.width, f->view.height);
    else if (row->kind == MC_REFCHECK_UNREADABLE)
        fprintf(stderr, "md5cine: error: frame %lld: %s\n", (long long)f->k, row->reasons);
}

/* Feeds pair i to the check (refpair.h decides which frames pair). */
static int check_pair(compare_run *run, size_t i)
{
    mc_refpair_frame f;
    mc_error err;

    if (mc_refpair_read(run->pair, i, &f, &err) != MC_OK)
        return input_error(&err);
    if (mc_refcheck_frame(run->check, 0, &f.view, f.k, &err) != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return err.code == MC_ERR_USAGE ? MC_EXIT_INPUT : MC_EXIT_RUNTIME;
    }
    report_bad_row(run, &f);
    return MC_EXIT_OK;
}

/* Takes a pending SIGINT or SIGTERM (blocked while a report is made); its number, or 0. */
static int pending_stop(void)
{
    const struct timespec now = { 0, 0 };
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = sigtimedwait(&set, NULL, &now);

    return sig > 0 ? sig : 0;
}

static int compare_all(compare_run *run)
{
    for (size_t i = 0; i < mc_refpair_count(run->pair); i++) {
        int rc;

        if (run->report && (run->stop_signal = pending_stop()) != 0)
            return 128 + run->stop_signal;
        rc = check_pair(run, i);
        if (rc != MC_EXIT_OK)
            return rc;
    }
    return MC_EXIT_OK;
}

/* --scene's shots: its camera's cuts at the scene's rate, or B's when B is a video, cut to B's
 * frames (within --frames). */
static mc_status scene_shots(compare_run *run, mc_error *err)
{
    mc_parse_opts po = { .error = mc_diag_error }; /* each mistake of the scene, at its place */
    mc_scene sc;
    mc_rate fps = mc_frames_kind_of(run->b) == MC_FRAMES_VIDEO ? mc_frames_rate(run->b)
                                                                : (mc_rate){ 0, 0 };
    mc_shot_range *ps = NULL;
    size_t n;
    int64_t count;
    mc_status st = mc_scene_load(run->args->scene, &po, &sc, err);

    if (st != MC_OK)
        return st;
    fps = mc_scene_fps(&sc, fps);
    count = mc_scene_frame_count_clock(&sc, fps, MC_CLOCK_IDEAL);
    n = (size_t)sc.camera.num_cuts + 1;
    ps = calloc(n, sizeof *ps);
    run->shots = calloc(n, sizeof *run->shots);
    if (!ps || !run->shots) {
        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    } else {
        /* Cut to the frames compared, as render cuts them to its range. */
        long lo = mc_frames_number(run->b, 0);
        long hi = mc_frames_number(run->b, mc_frames_count(run->b) - 1);

        if (run->args->has_frames) {
            lo = lo > run->args->first ? lo : (long)run->args->first;
            hi = hi < run->args->last ? hi : (long)run->args->last;
        }
        n = mc_plan_shots(&sc.camera, fps, MC_CLOCK_IDEAL, count > 0 ? count : 1, ps, n);
        for (size_t i = 0; i < n; i++) {
            if (ps[i].last < lo || ps[i].first > hi)
                continue;
            run->shots[run->shot_count++] =
                    (mc_shot_range){ ps[i].number, ps[i].first > lo ? ps[i].first : lo,
                                     ps[i].last < hi ? ps[i].last : hi };
        }
    }
    free(ps);
    mc_scene_release(&sc);
    return st;
}

/* The shots of the reports: --scene's, else B's chapters, else A's, else none (one group). */
static mc_status find_shots(compare_run *run, mc_error *err)
{
    mc_status st = MC_OK;

    if (run->args->scene)
        return scene_shots(run, err);
    if (mc_frames_kind_of(run->b) == MC_FRAMES_VIDEO)
        st = mc_report_chapters(run->args->b, &run->shots, &run->shot_count, err);
    if (st == MC_OK && run->shot_count == 0 && mc_frames_kind_of(run->a) == MC_FRAMES_VIDEO)
        st = mc_report_chapters(run->args->a, &run->shots, &run->shot_count, err);
    return st;
}

static int open_sources(compare_run *run)
{
    mc_error err;
    mc_refpair_desc pd = { .reference = run->args->a, .candidate = run->args->b,
                           .offset = run->args->offset, .placed = run->args->has_offset,
                           .has_range = run->args->has_frames, .first = run->args->first,
                           .last = run->args->last };

    if (mc_refpair_open(&pd, &run->pair, &err) != MC_OK)
        return input_error(&err);
    run->a = mc_refpair_reference(run->pair);
    run->b = mc_refpair_candidate(run->pair);
    if ((run->args->report_dir || run->args->junit || run->args->scene) &&
        find_shots(run, &err) != MC_OK)
        return input_error(&err);
    return open_check(run);
}

/* A's and B's sound, when both are videos (see the top), compared into run->sound. */
static int compare_sound(compare_run *run)
{
    mc_error err;

    if (mc_frames_kind_of(run->a) != MC_FRAMES_VIDEO ||
        mc_frames_kind_of(run->b) != MC_FRAMES_VIDEO)
        return MC_EXIT_OK;
    if (mc_audio_read(run->args->a, MC_SOUND_RATE, &run->sound_a, &err) != MC_OK ||
        mc_audio_read(run->args->b, MC_SOUND_RATE, &run->sound_b, &err) != MC_OK)
        return input_error(&err);
    if (!run->sound_a.has_audio && !run->sound_b.has_audio)
        return MC_EXIT_OK;
    if (mc_audio_compare(&run->sound_a, &run->sound_b, &run->args->audio, &run->sound, &err) !=
        MC_OK)
        return input_error(&err);
    run->has_sound = true;
    return MC_EXIT_OK;
}

/* The table or the JSON object, with the sound's line or member when it was compared. */
static void print_result(const compare_run *run)
{
    const compare_args *ca = run->args;

    if (ca->json) {
        mc_refcheck_print_json_members(run->check, stdout);
        if (run->has_sound) {
            fputs(",\n \"audio\": ", stdout);
            mc_audio_print_json(&run->sound, stdout);
        }
        fputs("}\n", stdout);
        return;
    }
    mc_cli_print_check(run->check, ca->verbose, stdout);
    if (run->has_sound)
        mc_audio_print_text(&run->sound, ca->verbose ? SIZE_MAX : MC_REFCHECK_TABLE_ROWS,
                            stdout);
}

/* --report and --junit after the check. */
static int write_reports(compare_run *run, double seconds)
{
    mc_report_info info = { .title = run->args->scene ? run->args->scene : run->args->a,
                            .reference = run->args->a, .candidate = run->args->b,
                            .check = run->check, .shots = run->shots,
                            .shot_count = run->shot_count,
                            .audio = run->has_sound ? &run->sound : NULL,
                            .audio_a = &run->sound_a, .audio_b = &run->sound_b,
                            .fps = run->has_sound ? mc_frames_rate(run->b)
                                                  : (mc_rate){ 0, 0 } };
    mc_error err;
    mc_status st = MC_OK;

    if (!run->report && !run->args->junit)
        return MC_EXIT_OK;
    if (run->report)
        st = mc_report_finish(run->report, &info, &err);
    if (st == MC_OK && run->args->junit)
        st = mc_junit_write(run->args->junit, &info, seconds, &err);
    if (st != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return MC_EXIT_RUNTIME;
    }
    if (!run->args->quiet)
        mc_cli_wrote_reports(run->report ? run->args->report_dir : NULL, run->args->junit,
                             run->check);
    return MC_EXIT_OK;
}

int mc_cmd_compare(int argc, char **argv)
{
    compare_args ca = { 0 };
    compare_run run = { 0 };
    mc_refcheck_summary s;
    sigset_t block, old;
    double t0 = mc_cli_now();
    int rc = parse_args(argc, argv, &ca);

    if (rc >= 0)
        return rc;
    run.args = &ca;
    if (ca.report_dir) { /* see the top: the temporary folder must not outlive an interrupt */
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, &old);
    }
    rc = open_sources(&run);
    if (rc == MC_EXIT_OK)
        rc = compare_sound(&run);
    if (rc == MC_EXIT_OK)
        rc = compare_all(&run);
    if (run.size_frames > 1) /* one message for a size mismatch, not one per frame */
        fprintf(stderr, "md5cine: error: %ld frames in all differ in size\n", run.size_frames);
    if (rc == MC_EXIT_OK && run.report && (run.stop_signal = pending_stop()) != 0)
        rc = 128 + run.stop_signal;
    if (rc == MC_EXIT_OK && !ca.quiet)
        print_result(&run);
    if (rc == MC_EXIT_OK)
        rc = write_reports(&run, mc_cli_now() - t0);
    if (rc == MC_EXIT_OK) {
        mc_refcheck_get_summary(run.check, &s);
        rc = run.bad_input                          ? MC_EXIT_INPUT
             : s.ok && (!run.has_sound || run.sound.pass) ? MC_EXIT_OK
                                                         : MC_EXIT_DIFFERENT;
    }
    mc_refcheck_release(run.check);
    mc_report_release(run.report);
    mc_refpair_release(run.pair);
    mc_audio_result_release(&run.sound);
    mc_audio_track_release(&run.sound_a);
    mc_audio_track_release(&run.sound_b);
    free(run.shots);
    if (run.stop_signal)
        fputs("md5cine: interrupted; no report was written\n", stderr);
    if (ca.report_dir)
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
