/* md5cine compare A B: frame-by-frame comparison of two frame sources (PNG, folder, video). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/compare.h>
#include <md5cine/frames_in.h>
#include <md5cine/image.h>

#include "cli.h"

typedef struct compare_args {
    const char *a, *b;
    const char *diff_dir;
    bool json, quiet;
    mc_compare_opts opts;
} compare_args;

/* One compared pair, kept for the report. */
typedef struct pair_row {
    long number;
    mc_compare_result r;
} pair_row;

typedef struct compare_run {
    const compare_args *args;
    mc_frames_in *a, *b;
    mc_compare_opts lim; /* the limits in force */
    mc_compare_work work;
    uint8_t *diff;       /* diff image buffer */
    size_t diff_cap;
    pair_row *rows;
    size_t nrows, ndiffer;
} compare_run;

static const char usage_text[] =
    "usage: md5cine compare A B [options]\n"
    "  A is the reference, B the candidate; each a PNG, a folder of numbered PNGs or a video\n"
    "  (.mp4 .mkv .mov .webm .avi .y4m). Frames are matched by number.\n"
    "  --threshold N          a pixel differs when a channel differs by more than N (default 4)\n"
    "  --max-failing-share P  fail when more than P of the pixels differ: a fraction, or a\n"
    "                         percentage such as 0.05% (default 0.0001 = 0.01%; off for video)\n"
    "  --max-diff N           fail when any channel differs by more than N (default off)\n"
    "  --min-ssim S           fail when luma SSIM < S (default 0.95)\n"
    "  --min-psnr D           fail when PSNR < D dB (default off; 35 for video)\n"
    "  --lossy                use the video limits for PNGs too\n"
    "  --diff DIR             write DIR/diff_<frame>.png for every frame that differs\n"
    "  --json                 print one JSON object instead of the table\n"
    "  --quiet                print nothing but errors\n"
    "exit status: 0 all frames match, 1 some differ, 2 bad input or usage,\n"
    "3 runtime failure (a diff image cannot be written, out of memory)\n";

static bool parse_double(const char *s, double lo, double hi, bool percent_ok, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno != 0)
        return false;
    if (percent_ok && *end == '%') {
        v /= 100.0;
        end++;
    }
    if (*end != '\0' || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static bool parse_level(const char *s, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < 0 || v > 255)
        return false;
    *out = (int)v;
    return true;
}

/* Options that take a value; returns MC_EXIT_OK or the exit code of a usage error. */
static int parse_valued(compare_args *ca, const char *opt, const char *val)
{
    mc_compare_opts *o = &ca->opts;

    if (strcmp(opt, "--threshold") == 0 && parse_level(val, &o->threshold))
        o->set |= MC_COMPARE_SET_THRESHOLD;
    else if (strcmp(opt, "--max-diff") == 0 && parse_level(val, &o->max_diff_limit))
        o->set |= MC_COMPARE_SET_MAX_DIFF;
    else if (strcmp(opt, "--max-failing-share") == 0 &&
             parse_double(val, 0.0, 1.0, true, &o->max_failing_share))
        o->set |= MC_COMPARE_SET_MAX_FAILING_SHARE;
    else if (strcmp(opt, "--min-ssim") == 0 && parse_double(val, -1.0, 1.0, false, &o->min_ssim))
        o->set |= MC_COMPARE_SET_MIN_SSIM;
    else if (strcmp(opt, "--min-psnr") == 0 &&
             parse_double(val, 0.0, 1000.0, false, &o->min_psnr))
        o->set |= MC_COMPARE_SET_MIN_PSNR;
    else if (strcmp(opt, "--diff") == 0)
        ca->diff_dir = val;
    else
        return mc_usage_error("invalid value '%s' for '%s'", val, opt);
    return MC_EXIT_OK;
}

static bool takes_value(const char *opt)
{
    static const char *const names[] = { "--threshold", "--max-diff", "--max-failing-share",
                                         "--min-ssim",  "--min-psnr", "--diff" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(opt, names[i]) == 0)
            return true;
    return false;
}

/* Returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, compare_args *ca)
{
    int npos = 0;

    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(usage_text, stdout);
            return MC_EXIT_OK;
        } else if (strcmp(s, "--json") == 0) {
            ca->json = true;
        } else if (strcmp(s, "--quiet") == 0) {
            ca->quiet = true;
        } else if (strcmp(s, "--lossy") == 0) {
            ca->opts.lossy = true;
        } else if (takes_value(s)) {
            int rc;
            if (i + 1 >= argc)
                return mc_usage_error("'%s' needs a value", s);
            rc = parse_valued(ca, s, argv[++i]);
            if (rc != MC_EXIT_OK)
                return rc;
        } else if (s[0] == '-' && s[1] != '\0') {
            return mc_usage_error("unknown option '%s' (see 'md5cine compare --help')", s);
        } else if (npos < 2) {
            *(npos++ == 0 ? &ca->a : &ca->b) = s;
        } else {
            return mc_usage_error("unexpected argument '%s': compare takes two sources", s);
        }
    }
    if (npos < 2)
        return mc_usage_error("compare needs two sources: md5cine compare A B");
    return -1;
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

/* Both sources hold the same frame numbers (unless one is a single image). */
static int check_frame_sets(const compare_run *run)
{
    const char *pa = mc_frames_path(run->a), *pb = mc_frames_path(run->b);
    size_t na = mc_frames_count(run->a), nb = mc_frames_count(run->b), k;

    if (mc_frames_kind_of(run->a) == MC_FRAMES_IMAGE ||
        mc_frames_kind_of(run->b) == MC_FRAMES_IMAGE)
        return MC_EXIT_OK;
    for (size_t i = 0; i < na; i++)
        if (!mc_frames_find(run->b, mc_frames_number(run->a, i), &k))
            return missing_frame(mc_frames_number(run->a, i), pa, pb);
    for (size_t i = 0; i < nb; i++)
        if (!mc_frames_find(run->a, mc_frames_number(run->b, i), &k))
            return missing_frame(mc_frames_number(run->b, i), pb, pa);
    if (na != nb) { /* only with repeated numbers, which the sources reject */
        fprintf(stderr, "md5cine: error: '%s' holds %zu frames but '%s' holds %zu\n", pa, na,
                pb, nb);
        return MC_EXIT_INPUT;
    }
    return MC_EXIT_OK;
}

static int write_diff(compare_run *run, const mc_frame *fa, const mc_frame *fb)
{
    size_t need = (size_t)fa->width * (size_t)fa->height * 4;
    char path[4096];
    mc_error err;

    if (need > run->diff_cap) {
        uint8_t *p = realloc(run->diff, need);
        if (!p) {
            fprintf(stderr, "md5cine: error: out of memory for a diff image\n");
            return MC_EXIT_RUNTIME;
        }
        run->diff = p;
        run->diff_cap = need;
    }
    mc_compare_diff_image(fa->rgba, fa->stride, fb->rgba, fb->stride, fa->width, fa->height,
                          &run->lim, run->diff, (size_t)fa->width * 4);
    snprintf(path, sizeof path, "%s/diff_%05ld.png", run->args->diff_dir, fa->number);
    if (mc_png_write(path, run->diff, fa->width, fa->height, (size_t)fa->width * 4, 0, &err) !=
        MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return MC_EXIT_RUNTIME;
    }
    return MC_EXIT_OK;
}

/* Reads, checks sizes, compares and (when asked) writes the diff of one pair. */
static int compare_pair(compare_run *run, size_t ia, size_t ib)
{
    mc_frame fa, fb;
    mc_error err;
    pair_row *row = &run->rows[run->nrows];

    if (mc_frames_read(run->a, ia, &fa, &err) != MC_OK ||
        mc_frames_read(run->b, ib, &fb, &err) != MC_OK)
        return input_error(&err);
    if (fa.width != fb.width || fa.height != fb.height) {
        fprintf(stderr, "md5cine: error: frame %ld: '%s' is %dx%d but '%s' is %dx%d\n",
                fa.number, fa.name, fa.width, fa.height, fb.name, fb.width, fb.height);
        return MC_EXIT_INPUT;
    }
    if (mc_compare_rgba(fa.rgba, fa.stride, fb.rgba, fb.stride, fa.width, fa.height, &run->lim,
                        &run->work, &row->r, &err) != MC_OK)
        return input_error(&err);
    row->number = fa.number;
    run->nrows++;
    if (row->r.pass)
        return MC_EXIT_OK;
    run->ndiffer++;
    return run->args->diff_dir ? write_diff(run, &fa, &fb) : MC_EXIT_OK;
}

static int compare_all(compare_run *run)
{
    bool a_single = mc_frames_kind_of(run->a) == MC_FRAMES_IMAGE;
    bool b_single = mc_frames_kind_of(run->b) == MC_FRAMES_IMAGE;
    size_t n = mc_frames_count(run->a), k;

    run->rows = calloc(n, sizeof *run->rows);
    if (!run->rows) {
        fprintf(stderr, "md5cine: error: out of memory\n");
        return MC_EXIT_RUNTIME;
    }
    if (a_single && b_single)
        return compare_pair(run, 0, 0);
    if (a_single || b_single) {
        mc_frames_in *one = a_single ? run->a : run->b, *many = a_single ? run->b : run->a;
        long num = mc_frames_number(one, 0);
        if (!mc_frames_find(many, num, &k))
            return missing_frame(num, mc_frames_path(one), mc_frames_path(many));
        return a_single ? compare_pair(run, 0, k) : compare_pair(run, k, 0);
    }
    for (size_t i = 0; i < n; i++) {
        int rc;
        mc_frames_find(run->b, mc_frames_number(run->a, i), &k);
        rc = compare_pair(run, i, k);
        if (rc != MC_EXIT_OK)
            return rc;
    }
    return MC_EXIT_OK;
}

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void print_json_frame(const compare_run *run, const pair_row *row)
{
    char reasons[512];

    mc_compare_reasons(&row->r, &run->lim, reasons, sizeof reasons);
    printf("{\"frame\": %ld, \"pass\": %s, \"max_diff\": %d, \"max_at\": [%d, %d], "
           "\"mean_diff\": %.6f, ",
           row->number, row->r.pass ? "true" : "false", row->r.max_diff, row->r.max_x,
           row->r.max_y, row->r.mean_diff);
    if (isinf(row->r.psnr))
        printf("\"psnr\": null, ");
    else
        printf("\"psnr\": %.4f, ", row->r.psnr);
    printf("\"over_pixels\": %zu, \"over_share\": %.8f, \"ssim\": %.6f, \"reasons\": ",
           row->r.over_pixels, row->r.over_share, row->r.ssim);
    print_json_string(reasons);
    putchar('}');
}

static void print_json(const compare_run *run)
{
    const mc_compare_opts *l = &run->lim;

    printf("{\"a\": ");
    print_json_string(run->args->a);
    printf(", \"b\": ");
    print_json_string(run->args->b);
    printf(", \"limits\": {\"mode\": \"%s\", \"threshold\": %d, \"max_failing_share\": %g, "
           "\"max_diff\": %d, \"min_ssim\": %g, \"min_psnr\": %g},\n \"frames\": [",
           l->lossy ? "lossy" : "lossless", l->threshold, l->max_failing_share,
           l->max_diff_limit, l->min_ssim, l->min_psnr);
    for (size_t i = 0; i < run->nrows; i++) {
        printf(i ? ",\n  " : "\n  ");
        print_json_frame(run, &run->rows[i]);
    }
    printf("],\n \"summary\": {\"compared\": %zu, \"differ\": %zu, \"pass\": %s}}\n", run->nrows,
           run->ndiffer, run->ndiffer ? "false" : "true");
}

static void print_table(const compare_run *run)
{
    char reasons[512], psnr[32];
    bool header = false;

    for (size_t i = 0; i < run->nrows; i++) {
        const pair_row *row = &run->rows[i];
        if (row->r.pass)
            continue;
        if (!header)
            printf("%7s %5s %8s %8s %8s %8s  %s\n", "frame", "max", "mean", "PSNR", "%over",
                   "SSIM", "reasons");
        header = true;
        mc_compare_reasons(&row->r, &run->lim, reasons, sizeof reasons);
        snprintf(psnr, sizeof psnr, isinf(row->r.psnr) ? "inf" : "%.2f", row->r.psnr);
        printf("%7ld %5d %8.3f %8s %8.3f %8.5f  %s\n", row->number, row->r.max_diff,
               row->r.mean_diff, psnr, 100.0 * row->r.over_share, row->r.ssim, reasons);
    }
    if (run->ndiffer)
        printf("compared %zu frame%s: %zu differ\n", run->nrows, run->nrows == 1 ? "" : "s",
               run->ndiffer);
    else
        printf("all %zu frame%s match\n", run->nrows, run->nrows == 1 ? "" : "s");
}

static int open_sources(compare_run *run)
{
    mc_error err;

    if (mc_frames_open(run->args->a, &run->a, &err) != MC_OK ||
        mc_frames_open(run->args->b, &run->b, &err) != MC_OK)
        return input_error(&err);
    run->lim = run->args->opts;
    run->lim.lossy = run->lim.lossy || mc_frames_kind_of(run->a) == MC_FRAMES_VIDEO ||
                     mc_frames_kind_of(run->b) == MC_FRAMES_VIDEO;
    mc_compare_effective(&run->lim, &run->lim);
    if (run->args->diff_dir && !mc_cli_mkdirs(run->args->diff_dir)) {
        fprintf(stderr, "md5cine: error: cannot create folder '%s': %s\n", run->args->diff_dir,
                strerror(errno));
        return MC_EXIT_RUNTIME;
    }
    return check_frame_sets(run);
}

int mc_cmd_compare(int argc, char **argv)
{
    compare_args ca = { 0 };
    compare_run run = { 0 };
    int rc = parse_args(argc, argv, &ca);

    if (rc >= 0)
        return rc;
    run.args = &ca;
    rc = open_sources(&run);
    if (rc == MC_EXIT_OK)
        rc = compare_all(&run);
    if (rc == MC_EXIT_OK && !ca.quiet) {
        if (ca.json)
            print_json(&run);
        else
            print_table(&run);
    }
    if (rc == MC_EXIT_OK && run.ndiffer)
        rc = MC_EXIT_DIFFERENT;
    free(run.rows);
    free(run.diff);
    mc_compare_work_release(&run.work);
    mc_frames_release(run.a);
    mc_frames_release(run.b);
    return rc;
}
