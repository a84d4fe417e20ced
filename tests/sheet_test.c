/* Contact sheets (sheet.c): picks, layout, time codes and cell drawing. Expected values are
 * worked out by hand in the comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/md5camera.h>
#include <md5cine/sheet.h>
#include <md5cine/timeline.h>

#include "test.h"

static mc_sheet_layout layout_of(int fw, int fh, int cw, int ch, int cols, size_t cells)
{
    mc_sheet_layout_desc d = { fw, fh, cw, ch, cols, cells };
    mc_sheet_layout l;
    mc_error err;

    EXPECT_EQ_INT(mc_sheet_layout_make(&d, &l, &err), MC_OK);
    return l;
}

TEST(default_cells_are_320_wide_in_four_columns)
{
    /* 6 cells of a 1280x720 source: 320 x 180 (720 * 320 / 1280), 4 columns, 2 rows;
     * width 4 * (320 + 4) + 4 = 1300, height 2 * (180 + 14 + 4) + 4 = 400. */
    mc_sheet_layout l = layout_of(1280, 720, 0, 0, 0, 6);
    int x, y;

    EXPECT_EQ_INT(l.cell_width, 320);
    EXPECT_EQ_INT(l.cell_height, 180);
    EXPECT_EQ_INT(l.columns, 4);
    EXPECT_EQ_INT(l.rows, 2);
    EXPECT_EQ_INT(l.width, 1300);
    EXPECT_EQ_INT(l.height, 400);
    mc_sheet_cell_origin(&l, 0, &x, &y);
    EXPECT_EQ_INT(x, 4);
    EXPECT_EQ_INT(y, 4);
    mc_sheet_cell_origin(&l, 3, &x, &y); /* column 3: 4 + 3 * 324 */
    EXPECT_EQ_INT(x, 976);
    EXPECT_EQ_INT(y, 4);
    mc_sheet_cell_origin(&l, 5, &x, &y); /* row 1, column 1: (4 + 324, 4 + 198) */
    EXPECT_EQ_INT(x, 328);
    EXPECT_EQ_INT(y, 202);
}

TEST(columns_alone_divide_1280_and_fewer_cells_use_fewer_columns)
{
    /* 8 columns: 160 wide, 90 high; 3 cells fit in one row of 3 */
    mc_sheet_layout l = layout_of(1280, 720, 0, 0, 8, 20);
    mc_sheet_layout m = layout_of(1280, 720, 0, 0, 0, 3);

    EXPECT_EQ_INT(l.cell_width, 160);
    EXPECT_EQ_INT(l.cell_height, 90);
    EXPECT_EQ_INT(l.rows, 3);
    EXPECT_EQ_INT(m.columns, 3);
    EXPECT_EQ_INT(m.rows, 1);
    EXPECT_EQ_INT(m.width, 3 * 324 + 4);
}

TEST(cell_height_keeps_the_aspect_rounded)
{
    /* 640x481: 320 * 481 / 640 = 240.5, rounded to 241; a given size is kept */
    mc_sheet_layout l = layout_of(640, 481, 0, 0, 0, 1);
    mc_sheet_layout g = layout_of(640, 481, 100, 30, 2, 5);

    EXPECT_EQ_INT(l.cell_height, 241);
    EXPECT_EQ_INT(g.cell_width, 100);
    EXPECT_EQ_INT(g.cell_height, 30);
    EXPECT_EQ_INT(g.rows, 3);
    EXPECT_EQ_INT(g.height, 3 * (30 + 14 + 4) + 4);
}

TEST(rejects_bad_layouts)
{
    static const mc_sheet_layout_desc bad[] = {
        { 0, 720, 0, 0, 0, 4 },       /* empty frame */
        { 1280, 720, 0, 0, 0, 0 },    /* no cells */
        { 1280, 720, 0, 0, 0, 1025 }, /* too many */
        { 1280, 720, 100, 0, 0, 4 },  /* one side */
        { 1280, 720, 5000, 10, 0, 4 },
        { 1280, 720, 0, 0, 1, 1024 }, /* 1024 rows of 198: over 16384 */
    };
    for (size_t i = 0; i < TEST_COUNT(bad); i++) {
        mc_sheet_layout l;
        mc_error err;
        EXPECT_EQ_INT(mc_sheet_layout_make(&bad[i], &l, &err), MC_ERR_USAGE);
        EXPECT_EQ_INT(l.width, 0);
    }
}

TEST(demo_picks_each_shots_first_and_last_frame)
{
    /* scenes/demo/demo.md5camera: 243 stored frames at 24 fps, cuts 84 and 169. Output k
     * shows stored k up to 83; from 84 stored k + 1 (the first cut passed), from 168 stored
     * k + 2 (k + 1 >= 169 passes the second). The end: k + 2 > 241 at k = 240, so K = 241
     * and the shots are 0-83, 84-167, 168-240 (as `md5cine info --json` lists them). */
    mc_camera cam;
    mc_error err;
    const int64_t starts[] = { 84, 168 };
    const int64_t want[] = { 0, 83, 84, 167, 168, 240 };
    int64_t got[16];
    size_t n;

    ASSERT(mc_camera_load("../scenes/demo/demo.md5camera", NULL, &cam, &err) == MC_OK);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, (mc_rate){ 24, 1 }, 1), 241);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cam, (mc_rate){ 24, 1 }, 0), 84);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cam, (mc_rate){ 24, 1 }, 1), 168);
    mc_camera_release(&cam);
    n = mc_sheet_pick_shots(241, starts, 2, got, 16);
    ASSERT(n == 6);
    for (size_t i = 0; i < n; i++)
        EXPECT_EQ_INT(got[i], want[i]);
}

TEST(shot_picks_skip_repeats_and_short_shots)
{
    /* shots 0-0, 1-1, 2-9: 0, 1, 2, 9 (a one-frame shot's first and last are one frame) */
    const int64_t starts[] = { 1, 2, 2, 15 };
    int64_t got[8];
    size_t n = mc_sheet_pick_shots(10, starts, 4, got, 8);

    ASSERT(n == 4);
    EXPECT_EQ_INT(got[0], 0);
    EXPECT_EQ_INT(got[1], 1);
    EXPECT_EQ_INT(got[2], 2);
    EXPECT_EQ_INT(got[3], 9);
    EXPECT_EQ_INT(mc_sheet_pick_shots(10, starts, 4, got, 2), 4); /* counted past cap */
    EXPECT_EQ_INT(mc_sheet_pick_shots(1, NULL, 0, got, 8), 1);
}

TEST(every_n_and_its_default_give_12_to_24_cells)
{
    int64_t got[64];

    /* 241 frames: ceil(241 / 24) = 11; 0, 11, ..., 231: 22 frames */
    EXPECT_EQ_INT(mc_sheet_default_every(241), 11);
    EXPECT_EQ_INT(mc_sheet_pick_every(241, 11, got, 64), 22);
    EXPECT_EQ_INT(got[21], 231);
    /* 24 frames: every 1, 24 cells; 25: every 2, 13 cells; 1: every 1 */
    EXPECT_EQ_INT(mc_sheet_default_every(24), 1);
    EXPECT_EQ_INT(mc_sheet_default_every(25), 2);
    EXPECT_EQ_INT(mc_sheet_pick_every(25, 2, got, 64), 13);
    EXPECT_EQ_INT(mc_sheet_default_every(1), 1);
    EXPECT_EQ_INT(mc_sheet_pick_every(10, 0, got, 64), 10);
}

TEST(time_code_counts_frames_within_the_second)
{
    char tc[32];

    mc_sheet_timecode(84, (mc_rate){ 24, 1 }, tc, sizeof tc); /* 3.5 s: frame 12 of second 3 */
    EXPECT_EQ_STR(tc, "00:00:03:12");
    mc_sheet_timecode(24 * 3725 + 5, (mc_rate){ 24, 1 }, tc, sizeof tc); /* 1 h 2 min 5 s */
    EXPECT_EQ_STR(tc, "01:02:05:05");
    /* 29.97: frame 29 is at 0.9676 s; frame 30 at 1.001 s is the first of second 1 */
    mc_sheet_timecode(29, (mc_rate){ 30000, 1001 }, tc, sizeof tc);
    EXPECT_EQ_STR(tc, "00:00:00:29");
    mc_sheet_timecode(30, (mc_rate){ 30000, 1001 }, tc, sizeof tc);
    EXPECT_EQ_STR(tc, "00:00:01:00");
}

TEST(cell_is_the_box_mean_of_the_frame_with_a_label_strip)
{
    /* a 4x2 frame into 2x1 cells: each cell pixel is the rounded mean of a 2x2 block */
    uint8_t px[4 * 2 * 4] = { 0 };
    mc_image_view f = { 4, 2, 16, px };
    mc_sheet_layout l = layout_of(4, 2, 2, 1, 1, 1);
    size_t stride = (size_t)l.width * 4;
    uint8_t *sheet = malloc(stride * (size_t)l.height);
    const uint8_t *c;

    ASSERT(sheet != NULL);
    for (int i = 0; i < 8; i++) {
        px[4 * i] = (uint8_t)(10 * i); /* red: 0 10 20 30 / 40 50 60 70 */
        px[4 * i + 1] = 200;
        px[4 * i + 2] = (uint8_t)(i == 0 ? 1 : 0);
        px[4 * i + 3] = 255;
    }
    mc_sheet_clear(&l, sheet, stride);
    EXPECT_EQ_INT(sheet[0], 24);
    mc_sheet_draw_cell(&l, sheet, stride, 0, &f, "frame 1");
    c = sheet + 4 * stride + 16; /* cell origin (4, 4) */
    EXPECT_EQ_INT(c[0], 25);     /* (0 + 10 + 40 + 50) / 4 */
    EXPECT_EQ_INT(c[1], 200);
    EXPECT_EQ_INT(c[2], 0);      /* 1 / 4 rounds to 0 */
    EXPECT_EQ_INT(c[4], 45);     /* (20 + 30 + 60 + 70) / 4 */
    EXPECT_EQ_INT(c[7], 255);
    free(sheet);
}

TEST(label_is_white_on_black_and_cut_at_the_cell_edge)
{
    /* "frame 1" is about 30 font pixels wide: a 20-pixel cell cuts it */
    uint8_t px[40 * 20 * 4];
    mc_image_view f = { 40, 20, 160, px };
    mc_sheet_layout l = layout_of(40, 20, 20, 10, 2, 2);
    size_t stride = (size_t)l.width * 4;
    uint8_t *sheet = malloc(stride * (size_t)l.height);
    int white = 0;

    ASSERT(sheet != NULL);
    memset(px, 128, sizeof px);
    mc_sheet_clear(&l, sheet, stride);
    mc_sheet_draw_cell(&l, sheet, stride, 0, &f, "frame 1");
    for (int y = 4 + 10; y < 4 + 10 + MC_SHEET_LABEL_HEIGHT; y++) {
        for (int x = 4; x < 24; x++) {
            const uint8_t *p = sheet + (size_t)y * stride + 4 * (size_t)x;
            EXPECT(p[0] == 0 || p[0] == 255);
            white += p[0] == 255;
        }
        EXPECT_EQ_INT(sheet[(size_t)y * stride + 4 * 24], 24); /* the gap stays */
        EXPECT_EQ_INT(sheet[(size_t)y * stride + 4 * 28], 24); /* cell 1 is not drawn */
    }
    EXPECT(white > 10);
    EXPECT_EQ_INT(sheet[4 * stride + 16], 128);
    free(sheet);
}

/* Pixel (x, y) of an RGBA sheet w wide is (r, g, b). */
static bool pixel_is(const uint8_t *s, int w, int x, int y, int r, int g, int b)
{
    const uint8_t *p = s + ((size_t)y * (size_t)w + (size_t)x) * 4;

    return p[0] == r && p[1] == g && p[2] == b;
}

TEST(waveform_band_lies_under_the_cells)
{
    /* 2 cells of 10x10 in 2 columns: width 2 * 14 + 4 = 32, cells' height 10 + 14 + 4 + 4 =
     * 32; a band of 9 rows from row 32, columns 4..27 (24), then 4: height 32 + 9 + 4 = 45. */
    mc_sheet_layout_desc d = { 10, 10, 10, 10, 2, 2, 9 };
    mc_sheet_layout l;
    mc_error err;

    ASSERT_OK(mc_sheet_layout_make(&d, &l, &err), &err);
    EXPECT_EQ_INT(l.width, 32);
    EXPECT_EQ_INT(l.height, 45);
    EXPECT_EQ_INT(l.wave_y, 32);
    EXPECT_EQ_INT(l.wave_height, 9);
    EXPECT_EQ_INT(l.wave_width, 24);
    d.wave_height = 1025;
    EXPECT_EQ_INT(mc_sheet_layout_make(&d, &l, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "waveform of 1025 rows, expected 0..1024");
}

TEST(waveform_columns_run_from_max_to_min)
{
    /* The band above: half = (9 - 1) / 2 = 4. Column 0 (x 4): -0.5..0.5 draws rows
     * round(4 * 0.5) = 2 to round(4 * 1.5) = 6 of the band (y 34..38); column 1: 0..1 draws
     * rows 0..4 (y 32..36); column 2: +-0.1 stays within half a pixel (4 * 0.1 < 0.5): nothing;
     * column 3: -3 clips to -1, rows 4..8. A mark at column 5 fills its 9 rows. */
    mc_sheet_layout_desc d = { 10, 10, 10, 10, 2, 2, 9 };
    mc_sheet_layout l;
    float mn[24] = { -0.5f, 0.0f, -0.1f, -3.0f }, mx[24] = { 0.5f, 1.0f, 0.1f, 0.0f };
    const int marks[2] = { 5, 24 }; /* 24 is outside the band: skipped */
    uint8_t *s;
    mc_error err;
    int count = 0;

    ASSERT_OK(mc_sheet_layout_make(&d, &l, &err), &err);
    s = malloc((size_t)l.width * (size_t)l.height * 4);
    ASSERT(s);
    mc_sheet_clear(&l, s, (size_t)l.width * 4);
    mc_sheet_draw_wave(&l, s, (size_t)l.width * 4, mn, mx, 24, marks, 2);
    for (int y = 32; y < 41; y++) {
        EXPECT(pixel_is(s, l.width, 4, y, (y >= 34 && y <= 38) ? 127 : 24,
                        (y >= 34 && y <= 38) ? 209 : 24, (y >= 34 && y <= 38) ? 127 : 24));
        EXPECT(pixel_is(s, l.width, 5, y, y <= 36 ? 127 : 24, y <= 36 ? 209 : 24,
                        y <= 36 ? 127 : 24));
        EXPECT(pixel_is(s, l.width, 6, y, 24, 24, 24));
        EXPECT(pixel_is(s, l.width, 7, y, y >= 36 ? 127 : 24, y >= 36 ? 209 : 24,
                        y >= 36 ? 127 : 24));
        EXPECT(pixel_is(s, l.width, 9, y, 255, 208, 64));
    }
    for (int y = 0; y < l.height; y++)
        for (int x = 0; x < l.width; x++)
            count += !pixel_is(s, l.width, x, y, 24, 24, 24);
    EXPECT_EQ_INT(count, 5 + 5 + 5 + 9); /* nothing else was drawn */
    mc_sheet_clear(&l, s, (size_t)l.width * 4);
    mc_sheet_draw_wave(&l, s, (size_t)l.width * 4, mn, mx, 23, NULL, 0); /* wrong n: nothing */
    EXPECT(pixel_is(s, l.width, 4, 36, 24, 24, 24));
    /* NaN (a damaged decode) is silence: nothing drawn, nothing written outside the band. */
    mn[0] = mx[0] = NAN;
    mn[1] = NAN;
    mx[1] = 0.5f; /* rows round(4 * 0.5) = 2 .. round(4 * 1) = 4: y 34..36 */
    mc_sheet_clear(&l, s, (size_t)l.width * 4);
    mc_sheet_draw_wave(&l, s, (size_t)l.width * 4, mn, mx, 24, NULL, 0);
    count = 0;
    for (int y = 0; y < l.height; y++)
        for (int x = 0; x < l.width; x++)
            count += !pixel_is(s, l.width, x, y, 24, 24, 24);
    EXPECT_EQ_INT(count, 3 + 5); /* columns 1 and 3 */
    EXPECT(pixel_is(s, l.width, 4, 36, 24, 24, 24));
    EXPECT(pixel_is(s, l.width, 5, 34, 127, 209, 127));
    EXPECT(pixel_is(s, l.width, 5, 36, 127, 209, 127));
    free(s);
}
