/* md5cine compare A B: frame-by-frame comparison of two frame sources (PNG, folder, video):
 * A is the reference of a reference check (refcheck.h) that B's frames are fed to.
 *
 * With --report, SIGINT and SIGTERM are blocked for the whole check and looked for before each
 * frame: an interrupt removes the report's temporary folder, then exits 128 + its number, as
 * render does. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/compare.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>
#include <md5cine/plan.h>
#include <md5cine/refcheck.h>
#include <md5cine/report.h>
#include <md5cine/scene.h>

#include "args.h"
#include "cli.h"
#include "limit_args.h"

typedef struct compare_args {
    const char *a, *b;
    const char *diff_dir;
    const char *report_dir, *junit;
    bool json, quiet;
    mc_limit_args lim;
    long offset; /* --offset N: B's frame k is compared with A's frame k + N */
    bool has_offset;
    int64_t first, last; /* --frames A-B: only the frames k numbered A..B (B's numbers) */
    bool has_frames;
    const char *scene;   /* --scene SCENE: the reports' shots from its camera */
    int report_max_frames;
    mc_compare_opts opts;
} compare_args;

typedef struct compare_run {
    const compare_args *args;
    mc_frames_in *a, *b;
    mc_refcheck *check; /* A is the reference, B's frames are checked */
    mc_report *report;  /* --report; NULL without */
    int stop_signal;    /* SIGINT or SIGTERM taken while --report is being made; 0: none */
    int width, height;  /* the size the check is made for */
    bool bad_input;     /* a frame pair of different sizes, an unreadable reference frame */
    long size_frames;   /* pairs of different sizes (one message names the first) */
    mc_shot_range *shots; /* the reports' groups: --scene's shots, else chapters; NULL: none */
    size_t shot_count;
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

#define F(m) offsetof(compare_args, m)

static const mc_arg_opt compare_opts[] = {
    MC_LIMIT_ARG_OPTS(F(lim)),
    { .name = "--lossy", .kind = MC_ARG_FLAG, .offset = F(lim.opts.lossy),
      .help = "use the video limits for PNGs too" },
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

/* A frame in one source that the other lacks. */
static int missing_frame(long number, const char *has, const char *lacks)
{
    fprintf(stderr, "md5cine: error: frame %ld is in '%s' but not in '%s'\n", number, has, lacks);
    return MC_EXIT_INPUT;
}

static bool in_range(const compare_run *run, long k)
{
    return !run->args->has_frames || (k >= run->args->first && k <= run->args->last);
}

/* --frames A-B: B holds every frame of the range (A's are checked with B's). */
static int check_range(const compare_run *run)
{
    const char *pb = mc_frames_path(run->b);
    long expect = (long)run->args->first;

    for (size_t i = 0; i < mc_frames_count(run->b); i++) {
        long k = mc_frames_number(run->b, i);

        if (!in_range(run, k))
            continue;
        if (k != expect)
            break;
        expect++;
    }
    if (expect <= run->args->last) {
        fprintf(stderr, "md5cine: error: --frames %lld-%lld: frame %ld is not in '%s'\n",
                (long long)run->args->first, (long long)run->args->last, expect, pb);
        return MC_EXIT_INPUT;
    }
    return MC_EXIT_OK;
}

/* Both sources hold the same frame numbers (unless one is a single image), within --frames
 * when it is given. */
static int check_frame_sets(const compare_run *run)
{
    const char *pa = mc_frames_path(run->a), *pb = mc_frames_path(run->b);
    size_t na = mc_frames_count(run->a), nb = mc_frames_count(run->b), k;

    long off = run->args->offset;
    /* A chunk, B placed by --offset, or a range is checked against the frames of A it covers. */
    bool part = run->args->has_offset || mc_frames_chunk(run->b) != NULL || run->args->has_frames;

    if (mc_frames_kind_of(run->a) == MC_FRAMES_IMAGE ||
        mc_frames_kind_of(run->b) == MC_FRAMES_IMAGE)
        return MC_EXIT_OK;
    if (run->args->has_frames && check_range(run) != MC_EXIT_OK)
        return MC_EXIT_INPUT;
    for (size_t i = 0; i < na && !part; i++)
        if (!mc_frames_find(run->b, mc_frames_number(run->a, i), &k))
            return missing_frame(mc_frames_number(run->a, i), pa, pb);
    for (size_t i = 0; i < nb; i++)
        if (in_range(run, mc_frames_number(run->b, i)) &&
            !mc_frames_find(run->a, mc_frames_number(run->b, i) + off, &k))
            return missing_frame(mc_frames_number(run->b, i) + off, pb, pa);
    if (na != nb && !part) { /* only with repeated numbers, which the sources reject */
        fprintf(stderr, "md5cine: error: '%s' holds %zu frames but '%s' holds %zu\n", pa, na,
                pb, nb);
        return MC_EXIT_INPUT;
    }
    return MC_EXIT_OK;
}

/* The pairs compared: B's frame at index *ib, checked as frame *k (the number A's frame has).
 * Returns the number of pairs, or -1 after printing a missing frame. Pairs outside --frames
 * are skipped by the caller (in_range). */
static long pairs(const compare_run *run, size_t i, size_t *ib, long *k)
{
    bool a_single = mc_frames_kind_of(run->a) == MC_FRAMES_IMAGE;
    bool b_single = mc_frames_kind_of(run->b) == MC_FRAMES_IMAGE;
    size_t ia;

    if (a_single && !b_single) {
        *k = mc_frames_number(run->a, 0) - run->args->offset;
        if (!mc_frames_find(run->b, *k, ib))
            return missing_frame(*k, mc_frames_path(run->a), mc_frames_path(run->b)), -1;
        return 1;
    }
    if (b_single && !a_single) {
        *ib = 0;
        *k = mc_frames_number(run->b, 0);
        if (!mc_frames_find(run->a, *k + run->args->offset, &ia))
            return missing_frame(*k, mc_frames_path(run->b), mc_frames_path(run->a)), -1;
        return 1;
    }
    *ib = a_single ? 0 : i;
    *k = a_single ? mc_frames_number(run->a, 0) : mc_frames_number(run->b, i);
    return a_single ? 1 : (long)mc_frames_count(run->b);
}

/* The first pair inside --frames: its index for pairs(), or -1 after printing why none is. */
static long first_pair(const compare_run *run)
{
    size_t ib;
    long k, n = pairs(run, 0, &ib, &k);

    for (long i = 0; i < n; i++) {
        pairs(run, (size_t)i, &ib, &k);
        if (in_range(run, k))
            return i;
    }
    if (n >= 0)
        fprintf(stderr, "md5cine: error: --frames %lld-%lld holds no frame of '%s'\n",
                (long long)run->args->first, (long long)run->args->last,
                mc_frames_path(run->b));
    return -1;
}

/* The size the check is made for: the declared size of the first pair when both sides agree,
 * else the smaller one, so that a file declaring a huge size never sets the buffers. */
static int check_size(const compare_run *run, int *w, int *h)
{
    size_t ib, ia;
    long k, first = first_pair(run);
    int aw = 0, ah = 0;
    mc_error err;

    if (first < 0)
        return MC_EXIT_INPUT;
    pairs(run, (size_t)first, &ib, &k);
    if (mc_frames_size(run->b, ib, w, h, &err) != MC_OK)
        return input_error(&err);
    if (mc_frames_find(run->a, k + run->args->offset, &ia) &&
        mc_frames_size(run->a, ia, &aw, &ah, &err) == MC_OK && (double)aw * ah < (double)*w * *h) {
        *w = aw;
        *h = ah;
    }
    return MC_EXIT_OK;
}

static int open_check(compare_run *run)
{
    mc_refcheck_desc d;
    mc_error err;
    int rc;

    memset(&d, 0, sizeof d);
    rc = check_size(run, &d.width, &d.height);
    if (rc != MC_EXIT_OK)
        return rc;
    d.reference = run->args->a;
    d.candidate = run->args->b;
    d.opts = run->args->lim.opts;
    d.mask = run->args->lim.mask;
    d.ignore = run->args->lim.ignore.r;
    d.num_ignore = run->args->lim.ignore.n;
    d.opts.lossy = d.opts.lossy || mc_frames_kind_of(run->b) == MC_FRAMES_VIDEO;
    d.diff_dir = run->args->diff_dir;
    d.threads = 1;
    d.offset = run->args->offset;
    run->width = d.width;
    run->height = d.height;
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

/* Says why the row just recorded for frame k is bad input. */
static void report_bad_row(compare_run *run, const mc_image_view *v, const char *b_name, long k)
{
    const mc_refcheck_row *row =
            mc_refcheck_row_at(run->check, mc_refcheck_row_count(run->check) - 1);
    size_t ia = 0;

    if (!row || (row->kind != MC_REFCHECK_SIZE && row->kind != MC_REFCHECK_UNREADABLE))
        return;
    run->bad_input = true;
    mc_frames_find(run->a, k + run->args->offset, &ia);
    if (row->kind == MC_REFCHECK_SIZE && run->size_frames++ == 0)
        fprintf(stderr, "md5cine: error: frame %ld: '%s' is %dx%d but '%s' is %dx%d\n", k,
                mc_frames_file(run->a, ia), row->ref_width, row->ref_height, b_name, v->width,
                v->height);
    else if (row->kind == MC_REFCHECK_UNREADABLE)
        fprintf(stderr, "md5cine: error: frame %ld: %s\n", k, row->reasons);
}

/* Feeds B's frame at index ib to the check: decoded only when its declared size is the one
 * the check expects. */
static int check_pair(compare_run *run, size_t ib, long k)
{
    mc_image_view v = { 0, 0, 0, NULL };
    mc_frame fb;
    mc_error err;

    if (mc_frames_size(run->b, ib, &v.width, &v.height, &err) != MC_OK)
        return input_error(&err);
    if (v.width == run->width && v.height == run->height) {
        if (mc_frames_read(run->b, ib, &fb, &err) != MC_OK)
            return input_error(&err);
        v.width = fb.width;
        v.height = fb.height;
        v.stride = fb.stride;
        v.pixels = (uint8_t *)(uintptr_t)fb.rgba; /* only read; the view has no const form */
    }
    if (mc_refcheck_frame(run->check, 0, &v, k, &err) != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return err.code == MC_ERR_USAGE ? MC_EXIT_INPUT : MC_EXIT_RUNTIME;
    }
    report_bad_row(run, &v, mc_frames_file(run->b, ib), k);
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
    size_t ib;
    long k, n = pairs(run, 0, &ib, &k);

    for (long i = 0; i < n; i++) {
        int rc;

        if (run->report && (run->stop_signal = pending_stop()) != 0)
            return 128 + run->stop_signal;
        pairs(run, (size_t)i, &ib, &k);
        if (!in_range(run, k))
            continue;
        rc = check_pair(run, ib, k);
        if (rc != MC_EXIT_OK)
            return rc;
    }
    return n < 0 ? MC_EXIT_INPUT : MC_EXIT_OK;
}

/* --scene's shots: its camera's cuts at the scene's rate, or B's when B is a video, cut to B's
 * frames (within --frames). */
static mc_status scene_shots(compare_run *run, mc_error *err)
{
    mc_parse_opts po = { 0 };
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
    int rc;

    if (mc_frames_open(run->args->a, &run->a, &err) != MC_OK ||
        mc_frames_open(run->args->b, &run->b, &err) != MC_OK)
        return input_error(&err);
    rc = check_frame_sets(run);
    if (rc != MC_EXIT_OK)
        return rc;
    if ((run->args->report_dir || run->args->junit || run->args->scene) &&
        find_shots(run, &err) != MC_OK)
        return input_error(&err);
    return open_check(run);
}

/* --report and --junit after the check. */
static int write_reports(compare_run *run, double seconds)
{
    mc_report_info info = { .title = run->args->scene ? run->args->scene : run->args->a,
                            .reference = run->args->a, .candidate = run->args->b,
                            .check = run->check, .shots = run->shots,
                            .shot_count = run->shot_count };
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
        rc = compare_all(&run);
    if (run.size_frames > 1) /* one message for a size mismatch, not one per frame */
        fprintf(stderr, "md5cine: error: %ld frames in all differ in size\n", run.size_frames);
    if (rc == MC_EXIT_OK && run.report && (run.stop_signal = pending_stop()) != 0)
        rc = 128 + run.stop_signal;
    if (rc == MC_EXIT_OK && !ca.quiet) {
        if (ca.json)
            mc_refcheck_print_json(run.check, stdout);
        else
            mc_refcheck_print_table(run.check, stdout);
    }
    if (rc == MC_EXIT_OK)
        rc = write_reports(&run, mc_cli_now() - t0);
    if (rc == MC_EXIT_OK) {
        mc_refcheck_get_summary(run.check, &s);
        rc = run.bad_input ? MC_EXIT_INPUT : s.ok ? MC_EXIT_OK : MC_EXIT_DIFFERENT;
    }
    mc_refcheck_release(run.check);
    mc_report_release(run.report);
    mc_frames_release(run.a);
    mc_frames_release(run.b);
    free(run.shots);
    if (run.stop_signal)
        fputs("md5cine: interrupted; no report was written\n", stderr);
    if (ca.report_dir)
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
