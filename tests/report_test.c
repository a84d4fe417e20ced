/* The reports (report.h): XML escaping byte by byte, the changed region and the heat map on
 * hand-made pixel pairs, the shot groups, and a whole report made through the reference
 * checker -- its pictures, its page's rows and boxes, and the folder that is whole or absent.
 * Expected values are worked out by hand from the rules at the top of report.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>

#include <md5cine/compare.h>
#include <md5cine/fileio.h>
#include <md5cine/image.h>
#include <md5cine/refcheck.h>
#include <md5cine/report.h>

#include "test.h"

#define W 16
#define H 8

static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    mc_xml_write_escaped(f, s);
    fclose(f);
    return buf;
}

TEST(escaping_turns_markup_into_entities)
{
    char *s = escaped("a<b & \"c\" 'd'>");

    EXPECT_EQ_STR(s, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
    free(s);
    s = escaped("tab\there\nnew\rret");
    EXPECT_EQ_STR(s, "tab\there\nnew\rret");
    free(s);
}

TEST(escaping_keeps_utf8_and_numbers_other_bytes)
{
    /* U+00E9 and U+20AC (valid), 0xFF and an overlong '/' (C0 AF) as their byte values,
     * a lone continuation byte, 0x01 (not an XML character) as U+FFFD, a CESU surrogate. */
    char *s = escaped("\xc3\xa9\xe2\x82\xac|\xff|\xc0\xaf|\x80|\x01|\xed\xa0\x80");

    EXPECT_EQ_STR(s, "\xc3\xa9\xe2\x82\xac|&#xFF;|&#xC0;&#xAF;|&#x80;|&#xFFFD;|"
                     "&#xED;&#xA0;&#x80;");
    free(s);
    s = escaped("");
    EXPECT_EQ_STR(s, "");
    free(s);
}

/* w x h opaque grey v. */
static void flat(uint8_t *px, int w, int h, uint8_t v)
{
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = v;
        px[4 * i + 3] = 255;
    }
}

static void set_px(uint8_t *px, int w, int x, int y, int r, int g, int b)
{
    uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;

    p[0] = (uint8_t)r;
    p[1] = (uint8_t)g;
    p[2] = (uint8_t)b;
}

/* Gives frame k of kind kind, block PSNR block_psnr, to r as the checker would, under the
 * video limits. */
static mc_status give(mc_report *r, mc_frame_no k, mc_refcheck_kind kind, double block_psnr,
                      const uint8_t *ref, const uint8_t *cand, int w, int h, mc_error *err)
{
    mc_compare_opts l = { .lossy = true };
    mc_refcheck_row row = { 0 };

    mc_compare_effective(&l, &l);
    row.frame = k;
    row.kind = kind;
    row.r.block_psnr = block_psnr;
    row.r.psnr = block_psnr;
    row.r.fail = kind == MC_REFCHECK_FAILED ? MC_COMPARE_FAIL_BLOCK : 0;
    mc_refcheck_failure f = { &row, ref, (size_t)w * 4, cand, (size_t)w * 4, w, h, &l };

    return mc_report_frame(r, 0, &f, err);
}

TEST(change_box_covers_the_pixels_over_the_threshold)
{
    uint8_t a[W * H * 4], b[W * H * 4];
    mc_report_box box;

    flat(a, W, H, 100);
    flat(b, W, H, 100);
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 4, NULL, &box);
    EXPECT(box.x1 < box.x0); /* identical: empty */
    set_px(b, W, 11, 6, 103, 100, 100); /* 3 levels: under the threshold */
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 4, NULL, &box);
    EXPECT_EQ_INT(box.x0, 11); /* nothing over: every differing pixel */
    EXPECT_EQ_INT(box.y0, 6);
    EXPECT_EQ_INT(box.x1, 11);
    EXPECT_EQ_INT(box.y1, 6);
    set_px(b, W, 2, 1, 100, 110, 100); /* over: 10 levels in green */
    set_px(b, W, 5, 3, 50, 100, 100);  /* over: 50 levels darker in red */
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 4, NULL, &box);
    EXPECT_EQ_INT(box.x0, 2);
    EXPECT_EQ_INT(box.y0, 1);
    EXPECT_EQ_INT(box.x1, 5);
    EXPECT_EQ_INT(box.y1, 3);
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 60, NULL, &box); /* all under 60: all that differ */
    EXPECT_EQ_INT(box.x0, 2);
    EXPECT_EQ_INT(box.y1, 6);
    EXPECT_EQ_INT(box.x1, 11);
    /* Masked out (5, 3): only (2, 1) is over the threshold, and the box is that pixel. */
    uint8_t mask[W * H];
    memset(mask, 1, sizeof mask);
    mask[3 * W + 5] = 0;
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 4, mask, &box);
    EXPECT_EQ_INT(box.x0, 2);
    EXPECT_EQ_INT(box.y0, 1);
    EXPECT_EQ_INT(box.x1, 2);
    EXPECT_EQ_INT(box.y1, 1);
    /* Masking (2, 1) too leaves (11, 6), 3 levels: under the threshold, the box of what differs. */
    mask[1 * W + 2] = 0;
    mc_report_change_box(a, W * 4, b, W * 4, W, H, 4, mask, &box);
    EXPECT_EQ_INT(box.x0, 11);
    EXPECT_EQ_INT(box.y0, 6);
    EXPECT_EQ_INT(box.x1, 11);
    EXPECT_EQ_INT(box.y1, 6);
}

TEST(heat_map_is_red_brighter_blue_darker_magenta_hue)
{
    /* 6 x 2 frames into a 3 x 1 map: each map pixel covers a 2 x 2 block. Reference grey 100:
     * Y = 100, grey = 96 + 50 = 146. Block 0: one pixel 64 brighter -> red at weight 1.
     * Block 1: one pixel 32 darker -> weight 0.5: 146 / 2 = 73, 73 + 255 / 2 = 200.5 -> 201.
     * Block 2: one pixel (110, 90, 100), sum unchanged, m = 10 > 4 -> magenta at 0.5. */
    uint8_t a[6 * 2 * 4], b[6 * 2 * 4], out[3 * 4];
    mc_compare_opts l;

    mc_compare_effective(NULL, &l); /* lossless: no block limit, threshold 4 */
    flat(a, 6, 2, 100);
    flat(b, 6, 2, 100);
    set_px(b, 6, 1, 1, 164, 164, 164);
    set_px(b, 6, 2, 0, 68, 68, 68);
    set_px(b, 6, 5, 1, 110, 90, 100);
    mc_report_heat_map(a, 6 * 4, b, 6 * 4, 6, 2, &l, NULL, NULL, out, 3, 1);
    EXPECT_EQ_INT(out[0], 255);
    EXPECT_EQ_INT(out[1], 0);
    EXPECT_EQ_INT(out[2], 0);
    EXPECT_EQ_INT(out[4], 73);
    EXPECT_EQ_INT(out[5], 73);
    EXPECT_EQ_INT(out[6], 201);
    EXPECT_EQ_INT(out[8], 201);
    EXPECT_EQ_INT(out[9], 73);
    EXPECT_EQ_INT(out[10], 201);
    EXPECT_EQ_INT(out[11], 255);
    /* A 2-level change (under the threshold, under 0.5 weight): 2 / 64 of blue over 146. */
    flat(b, 6, 2, 100);
    set_px(b, 6, 0, 0, 98, 98, 98);
    mc_report_heat_map(a, 6 * 4, b, 6 * 4, 6, 2, &l, NULL, NULL, out, 3, 1);
    EXPECT_EQ_INT(out[0], 141);  /* 146 * 62 / 64 = 141.44 */
    EXPECT_EQ_INT(out[2], 149);  /* 141.44 + 255 * 2 / 64 = 149.4 */
    EXPECT_EQ_INT(out[4], 146);  /* unchanged block: the grey */
    /* The changed pixel masked out: its block is the plain grey of the reference. */
    uint8_t mask[6 * 2];
    memset(mask, 1, sizeof mask);
    mask[0] = 0;
    mc_report_heat_map(a, 6 * 4, b, 6 * 4, 6, 2, &l, mask, NULL, out, 3, 1);
    EXPECT_EQ_INT(out[0], 146);
    EXPECT_EQ_INT(out[2], 146);
}

static bool exists(const char *dir, const char *name)
{
    char p[4400];
    struct stat sb;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &sb) == 0;
}

/* Entries in dir's parent whose name starts with ".<base>." (temporary folders). */
static int leftovers(const char *dir)
{
    char parent[4096], prefix[300];
    const char *slash = strrchr(dir, '/');
    DIR *d;
    struct dirent *e;
    int n = 0;

    snprintf(parent, sizeof parent, "%.*s", (int)(slash - dir), dir);
    snprintf(prefix, sizeof prefix, ".%s.", slash + 1);
    d = opendir(parent);
    while (d && (e = readdir(d)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

static char *read_text(const char *dir, const char *name)
{
    char p[4300], *buf = NULL;
    size_t len;
    mc_error err;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (mc_read_file(p, &buf, &len, &err) != MC_OK)
        return NULL;
    return buf;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Reference frames 0..3 grey 40; the candidate's frame 1 has a 3 x 2 block of 200 at (4, 2)
 * (box 4,2-6,3), frame 3 one pixel 5 levels up at (15, 7), frame 4 has no reference. */
TEST(a_report_through_the_checker_has_one_row_per_failing_frame)
{
    char ref[4096], rep[4096], p[4300];
    uint8_t px[W * H * 4];
    mc_refcheck_desc d = { 0 };
    mc_report_desc rd = { 0 };
    mc_refcheck *c = NULL;
    mc_report *r = NULL;
    mc_shot_range shots[1] = { { 1, 0, 1 } };
    mc_report_info info = { 0 };
    mc_error err;
    char *html;

    test_tmp_path(ref, sizeof ref, "report_ref");
    test_tmp_path(rep, sizeof rep, "report_out");
    mc_mkdirs(ref);
    flat(px, W, H, 40);
    for (int k = 0; k < 4; k++) {
        snprintf(p, sizeof p, "%s/%05d.png", ref, k);
        ASSERT_OK(mc_png_write(p, px, W, H, W * 4, 0, &err), &err);
    }
    rd.dir = rep;
    rd.width = W;
    rd.height = H;
    rd.thumb_width = 8;
    ASSERT_OK(mc_report_open(&rd, &r, &err), &err);
    EXPECT(!exists(rep, "."));
    EXPECT_EQ_INT(leftovers(rep), 1);
    d.reference = ref;
    d.width = W;
    d.height = H;
    mc_report_attach(r, &d);
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    for (int k = 0; k < 5; k++) {
        mc_image_view v = { W, H, W * 4, px };

        flat(px, W, H, 40);
        if (k == 1)
            for (int y = 2; y <= 3; y++)
                for (int x = 4; x <= 6; x++)
                    set_px(px, W, x, y, 200, 200, 200);
        if (k == 3)
            set_px(px, W, 15, 7, 45, 45, 45);
        EXPECT_OK(mc_refcheck_frame(c, 0, &v, k, &err), &err);
    }
    info.title = "t<1>.md5scene";
    info.check = c;
    info.shots = shots;
    info.shot_count = 1;
    ASSERT_OK(mc_report_finish(r, &info, &err), &err);
    EXPECT_EQ_INT(leftovers(rep), 0);
    /* frames 1 and 3 fail (1: 6 pixels over 0.01 %; 3: one pixel of 128 is 0.78 % but is
     * 5 > 4 levels), 4 is missing; 0 and 2 pass. */
    EXPECT(exists(rep, "ref_00001.png") && exists(rep, "new_00001.png"));
    EXPECT(exists(rep, "tref_00001.png") && exists(rep, "heat_00001.png"));
    EXPECT(exists(rep, "tnew_00004.png") && !exists(rep, "ref_00004.png"));
    EXPECT(!exists(rep, "new_00000.png") && !exists(rep, "new_00002.png"));
    html = read_text(rep, "index.html");
    ASSERT(html);
    EXPECT_EQ_INT(count_of(html, "<tr class=\"fail\""), 3);
    EXPECT_CONTAINS(html, "data-box=\"4 2 6 3\"");
    EXPECT_CONTAINS(html, "data-box=\"15 7 15 7\"");
    EXPECT_CONTAINS(html, "<title>md5cine: t&lt;1&gt;.md5scene</title>");
    /* shot 1 is frames 0-1 (one failed), the rest fall outside: 2 (passed), 3, 4 failed. */
    EXPECT_CONTAINS(html, "<tr data-shot=\"1\" data-failed=\"1\">");
    EXPECT_CONTAINS(html, "<tr data-shot=\"0\" data-failed=\"2\">");
    EXPECT(strstr(html, "data-frame=\"4\"") < strstr(html, "id=\"passing-frames\""));
    free(html);
    mc_refcheck_release(c);
    mc_report_release(r);
    EXPECT(exists(rep, "index.html")); /* release after finish keeps it */
}

TEST(a_report_released_unfinished_leaves_nothing)
{
    char rep[4096];
    uint8_t px[W * H * 4];
    mc_report_desc rd = { 0 };
    mc_report *r = NULL;
    mc_error err;

    test_tmp_path(rep, sizeof rep, "report_unfinished");
    flat(px, W, H, 9);
    rd.dir = rep;
    rd.width = W;
    rd.height = H;
    ASSERT_OK(mc_report_open(&rd, &r, &err), &err);
    EXPECT_OK(give(r, 7, MC_REFCHECK_FAILED, 30.0, px, px, W, H, &err), &err);
    EXPECT_EQ_INT(leftovers(rep), 1);
    mc_report_release(r);
    EXPECT_EQ_INT(leftovers(rep), 0);
    EXPECT(!exists(rep, "."));
}

TEST(a_folder_that_is_not_a_report_is_refused)
{
    char rep[4096], p[4300];
    mc_report_desc rd = { 0 };
    mc_report *r = NULL;
    mc_error err;
    FILE *f;

    test_tmp_path(rep, sizeof rep, "report_user_folder");
    mc_mkdirs(rep);
    snprintf(p, sizeof p, "%s/notes.txt", rep);
    f = fopen(p, "w");
    ASSERT(f);
    fputs("mine\n", f);
    fclose(f);
    rd.dir = rep;
    rd.width = W;
    rd.height = H;
    EXPECT_EQ_INT(mc_report_open(&rd, &r, &err), MC_ERR_USAGE);
    EXPECT(r == NULL);
    EXPECT_CONTAINS(err.msg, "holds 'notes.txt', which no md5cine report writes");
    EXPECT(exists(rep, "notes.txt"));
    EXPECT_EQ_INT(leftovers(rep), 0);

    /* A user's web folder: an index.html of its own and a picture, no subfolder. Refused too,
     * and both files stay. */
    test_tmp_path(rep, sizeof rep, "report_user_site");
    mc_mkdirs(rep);
    snprintf(p, sizeof p, "%s/index.html", rep);
    f = fopen(p, "w");
    ASSERT(f);
    fputs("<!DOCTYPE html>\n<html><head><title>my site</title></head></html>\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/photo.png", rep);
    f = fopen(p, "w");
    ASSERT(f);
    fputs("not really a png\n", f);
    fclose(f);
    rd.dir = rep;
    EXPECT_EQ_INT(mc_report_open(&rd, &r, &err), MC_ERR_USAGE);
    EXPECT(r == NULL);
    EXPECT_CONTAINS(err.msg, "which no md5cine report writes");
    EXPECT(exists(rep, "index.html"));
    EXPECT(exists(rep, "photo.png"));
    EXPECT_EQ_INT(leftovers(rep), 0);
}

/* Reference frames 0..3 grey 40, 00002.png replaced by bytes that are no PNG; the candidate's
 * frame 0 is grey 90. Shot 1 is frames 0-1 (frame 0 fails), shot 2 frames 2-3 (frame 2 is
 * unreadable): one failure, one error. */
TEST(junit_counts_failures_and_errors_per_shot)
{
    char ref[4096], out[4096], p[4300];
    uint8_t px[W * H * 4];
    mc_refcheck_desc d = { 0 };
    mc_refcheck *c = NULL;
    mc_shot_range shots[2] = { { 1, 0, 1 }, { 2, 2, 3 } };
    mc_report_info info = { 0 };
    mc_error err;
    char *xml;
    FILE *f;

    test_tmp_path(ref, sizeof ref, "junit_ref.v1");
    test_tmp_path(out, sizeof out, "junit_out");
    mc_mkdirs(ref);
    flat(px, W, H, 40);
    for (int k = 0; k < 4; k++) {
        snprintf(p, sizeof p, "%s/%05d.png", ref, k);
        ASSERT_OK(mc_png_write(p, px, W, H, W * 4, 0, &err), &err);
    }
    snprintf(p, sizeof p, "%s/00002.png", ref);
    f = fopen(p, "wb");
    ASSERT(f);
    fputs("not a png", f);
    fclose(f);
    d.reference = ref;
    d.width = W;
    d.height = H;
    ASSERT_OK(mc_refcheck_open(&d, &c, &err), &err);
    for (int k = 0; k < 4; k++) {
        mc_image_view v = { W, H, W * 4, px };

        flat(px, W, H, k == 0 ? 90 : 40);
        EXPECT_OK(mc_refcheck_frame(c, 0, &v, k, &err), &err);
    }
    snprintf(p, sizeof p, "%s/", ref); /* a trailing slash: the folder's own name */
    info.title = p;
    info.check = c;
    info.shots = shots;
    info.shot_count = 2;
    snprintf(out + strlen(out), sizeof out - strlen(out), "/sub/j.xml");
    ASSERT_OK(mc_junit_write(out, &info, 1.5, &err), &err);
    {
        size_t len;

        ASSERT_OK(mc_read_file(out, &xml, &len, &err), &err);
    }
    snprintf(p, sizeof p,
             "<testcase name=\"shot 1 (frames 0-1)\" classname=\"md5cine.%ld-junit_ref\"",
             (long)getpid());
    EXPECT_CONTAINS(xml, p);
    EXPECT_CONTAINS(xml, "<testsuites name=\"md5cine\" tests=\"2\" failures=\"1\" "
                         "errors=\"1\" time=\"1.500\">");
    EXPECT_CONTAINS(xml, "<failure message=\"1 of 2 frames differ\" type=\"failed\">frame 0: "
                         "failed, max diff 50 at (0, 0), mean diff 50.000");
    EXPECT_CONTAINS(xml, "<error message=\"1 of 2 frames differ\" type=\"unreadable\">frame 2:");
    EXPECT_EQ_INT(count_of(xml, "<testcase "), 2);
    free(xml);
    mc_refcheck_release(c);
}

/* A report of 4 x 2 frames in the temporary folder leaf: its folder, its temporary folder
 * "<parent>/.<name>.<pid>.tmp" (report.h), its description and a flat picture of 9. */
typedef struct small_report {
    char rep[4096], tmp[4300];
    uint8_t px[4 * 2 * 4];
    mc_report_desc rd;
} small_report;

static void small_report_init(small_report *s, const char *leaf)
{
    const char *slash;

    test_tmp_path(s->rep, sizeof s->rep, leaf);
    slash = strrchr(s->rep, '/');
    snprintf(s->tmp, sizeof s->tmp, "%.*s/.%s.%ld.tmp", (int)(slash - s->rep), s->rep, slash + 1,
             (long)getpid());
    flat(s->px, 4, 2, 9);
    s->rd = (mc_report_desc){ .dir = s->rep, .width = 4, .height = 2 };
}

/* Failing frames 0, 2, 4, .. (each a run of its own) given to a report that lists 3 runs:
 * the first 3 get pictures, the rest none. */
TEST(pictures_stop_at_max_frames_runs)
{
    small_report s;
    mc_report *r = NULL;
    mc_error err;

    small_report_init(&s, "report_limit");
    s.rd.max_frames = 3;
    ASSERT_OK(mc_report_open(&s.rd, &r, &err), &err);
    for (int k = 0; k <= 10; k += 2)
        EXPECT_OK(give(r, k, MC_REFCHECK_MISSING, 0.0, NULL, s.px, 4, 2, &err), &err);
    EXPECT(exists(s.tmp, "new_00004.png") && exists(s.tmp, "tnew_00004.png"));
    EXPECT(!exists(s.tmp, "new_00006.png") && !exists(s.tmp, "tnew_00006.png"));
    EXPECT(!exists(s.tmp, "new_00010.png"));
    s.rd.max_frames = MC_REFCHECK_MAX_LISTED + 1;
    mc_report *r2 = NULL;
    EXPECT_EQ_INT(mc_report_open(&s.rd, &r2, &err), MC_ERR_USAGE);
    mc_report_release(r);
    EXPECT(!exists(s.tmp, "."));
}

/* Failing frames 5, 6, 7, 8 in one run, given out of order (7, 5, 8, 6) with block PSNRs
 * 30, 25, 28, 20 dB and the video limits: the folder holds the pictures of each run's worst
 * frame so far only -- 7; 7 and 5 (not neighbours: two runs); 5 and 8 (28 < 30 in run 7-8);
 * then 6 alone (20 dB, and it joins 5 and 7-8 into one run). */
TEST(a_run_keeps_the_pictures_of_its_worst_frame)
{
    small_report s;
    mc_report *r = NULL;
    mc_error err;

    small_report_init(&s, "report_runs");
    ASSERT_OK(mc_report_open(&s.rd, &r, &err), &err);
    EXPECT_OK(give(r, 7, MC_REFCHECK_FAILED, 30.0, s.px, s.px, 4, 2, &err), &err);
    EXPECT(exists(s.tmp, "new_00007.png") && exists(s.tmp, "heat_00007.png"));
    EXPECT_OK(give(r, 5, MC_REFCHECK_FAILED, 25.0, s.px, s.px, 4, 2, &err), &err);
    /* 5 and 7 are not neighbours yet: two runs, two sets of pictures. */
    EXPECT(exists(s.tmp, "new_00005.png") && exists(s.tmp, "new_00007.png"));
    EXPECT_OK(give(r, 8, MC_REFCHECK_FAILED, 28.0, s.px, s.px, 4, 2, &err), &err);
    EXPECT(exists(s.tmp, "new_00008.png") && !exists(s.tmp, "new_00007.png"));
    EXPECT(exists(s.tmp, "new_00005.png"));
    EXPECT_OK(give(r, 6, MC_REFCHECK_FAILED, 20.0, s.px, s.px, 4, 2, &err), &err);
    EXPECT(exists(s.tmp, "new_00006.png") && exists(s.tmp, "ref_00006.png"));
    EXPECT(!exists(s.tmp, "new_00005.png") && !exists(s.tmp, "new_00008.png"));
    EXPECT(!exists(s.tmp, "ref_00005.png") && !exists(s.tmp, "heat_00008.png"));
    mc_report_release(r);
}

/* mc_compare_blocks on a 20 x 18 pair (2 x 2 blocks, the last column 4 wide and the last row
 * 2 high): one pixel of block 0 is 16 brighter in R only: MSE = 16^2 / (256 * 3), PSNR =
 * 10 log10(255^2 * 768 / 256) = 52.902 dB; R's mean moves by 16 / 256 = 0.0625, the mean of
 * the three channels by 16 / 768. Block 3 is 2 x 4 = 8 pixels, under a quarter of 256: no bias
 * even when all of it is 10 darker, PSNR 10 log10(255^2 / 100) = 28.131 dB. The lowest PSNR
 * and largest bias agree with mc_compare_rgba's block_psnr and block_bias. */
TEST(block_values_are_those_of_block_psnr_and_bias)
{
    enum { BW = 20, BH = 18 };
    uint8_t a[BW * BH * 4], b[BW * BH * 4];
    mc_compare_block blocks[4];
    mc_compare_opts l;
    mc_compare_result res;
    mc_error err;

    flat(a, BW, BH, 100);
    flat(b, BW, BH, 100);
    b[(3 * BW + 5) * 4] = 116;
    for (int y = 16; y < 18; y++)
        for (int x = 16; x < 20; x++)
            set_px(b, BW, x, y, 90, 90, 90);
    mc_compare_blocks(a, BW * 4, b, BW * 4, BW, BH, NULL, blocks);
    EXPECT(fabs(blocks[0].psnr - 52.902) < 0.001);
    EXPECT(fabs(blocks[0].bias - 0.0625) < 1e-12);
    EXPECT(fabs(blocks[0].mean - 16.0 / 768.0) < 1e-12);
    EXPECT_EQ_INT(blocks[0].compared, 256);
    EXPECT(isinf(blocks[1].psnr) && isinf(blocks[2].psnr));
    EXPECT(fabs(blocks[3].psnr - 28.131) < 0.001);
    EXPECT(blocks[3].bias == 0.0);
    EXPECT_EQ_INT(blocks[3].compared, 8);
    mc_compare_effective(NULL, &l);
    ASSERT_OK(mc_compare_rgba(a, BW * 4, b, BW * 4, BW, BH, &l, NULL, &res, &err), &err);
    EXPECT(res.block_psnr == blocks[3].psnr);
    EXPECT(res.block_bias == blocks[0].bias);
}

/* A 64 x 32 pair under the video limits: +-6 noise in a checkerboard everywhere (every block
 * 10 log10(255^2 / 36) = 32.6 dB, bias 0: within 22 dB and 9 levels, but every pixel over the
 * 4-level threshold) and block (32, 16) 40 levels brighter (MSE (34^2 + 46^2) / 2, 16.0 dB <
 * 22; bias 40 > 9). The region is that block only, where the pixel box is the whole frame;
 * the worst block is it; the heat map is red there (weight 1/2 + (40 - 9) / 16, capped at 1)
 * and the grey of the reference elsewhere (96 + 100 / 2 = 146). */
TEST(region_and_heat_map_follow_the_blocks_under_video_limits)
{
    enum { BW = 64, BH = 32 };
    uint8_t a[BW * BH * 4], b[BW * BH * 4], heat[BW * BH * 4];
    mc_compare_block blocks[4 * 2];
    mc_compare_opts l = { .lossy = true };
    mc_compare_result res;
    mc_refcheck_row row = { 0 };
    mc_report_box box, worst;
    mc_error err;
    int failing;

    mc_compare_effective(&l, &l);
    flat(a, BW, BH, 100);
    for (int y = 0; y < BH; y++)
        for (int x = 0; x < BW; x++) {
            uint8_t v = (uint8_t)((x + y) % 2 ? 106 : 94);

            if (x >= 32 && x < 48 && y >= 16)
                v = (uint8_t)(v + 40);
            set_px(b, BW, x, y, v, v, v);
        }
    ASSERT_OK(mc_compare_rgba(a, BW * 4, b, BW * 4, BW, BH, &l, NULL, &res, &err), &err);
    EXPECT(!res.pass);
    row.kind = MC_REFCHECK_FAILED;
    row.r = res;
    mc_refcheck_failure f = { &row, a, BW * 4, b, BW * 4, BW, BH, &l };
    mc_compare_blocks(a, BW * 4, b, BW * 4, BW, BH, NULL, blocks);
    mc_report_region(&f, blocks, &box, &worst, &failing);
    EXPECT_EQ_INT(failing, 1);
    EXPECT_EQ_INT(box.x0, 32);
    EXPECT_EQ_INT(box.y0, 16);
    EXPECT_EQ_INT(box.x1, 47);
    EXPECT_EQ_INT(box.y1, 31);
    EXPECT_EQ_INT(worst.x0, 32);
    EXPECT_EQ_INT(worst.y0, 16);
    EXPECT(fabs(blocks[4 + 2].psnr - 10.0 * log10(65025.0 / ((34.0 * 34 + 46.0 * 46) / 2))) <
           1e-9);
    EXPECT(fabs(blocks[0].psnr - 10.0 * log10(65025.0 / 36.0)) < 1e-9);
    /* The pixel box of the same pair covers the whole frame: the noise is over 4 everywhere. */
    mc_report_change_box(a, BW * 4, b, BW * 4, BW, BH, 4, NULL, &box);
    EXPECT(box.x0 == 0 && box.y0 == 0 && box.x1 == BW - 1 && box.y1 == BH - 1);
    mc_report_heat_map(a, BW * 4, b, BW * 4, BW, BH, &l, NULL, blocks, heat, BW, BH);
    {
        const uint8_t *in = heat + (20 * BW + 40) * 4, *out = heat + (4 * BW + 4) * 4;

        EXPECT_EQ_INT(in[0], 255);
        EXPECT_EQ_INT(in[1], 0);
        EXPECT_EQ_INT(in[2], 0);
        EXPECT_EQ_INT(out[0], 146);
        EXPECT_EQ_INT(out[2], 146);
    }
}
