/* The metrics table (compare.h's MC_COMPARE_METRICS) and the outputs that loop over it: the
 * checker's table and JSON rows (refcheck_int.h), the JUnit lines and the review page's values
 * (review/report_int.h). The result is made up with values chosen so that each format's rounding
 * is plain; every expected string below is written by hand from the table's documented columns
 * (decimals, scale, unit, where), not taken from the code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/compare.h>
#include <md5cine/refcheck.h>

#include "review/refcheck_int.h"
#include "review/report_int.h"
#include "test.h"

/* What each metric of the made-up result reads as, per output. */
typedef struct expected_metric {
    const char *id;
    const char *heading; /* in the table's heading */
    const char *cell;    /* its cell of the table, padded to the column's width */
    const char *json;    /* its part of the JSON row (count, value, where) */
    const char *prose;   /* its value in JUnit and on the page (mc_rp_metric_text) */
    const char *label;   /* before it in JUnit */
} expected_metric;

static const expected_metric expected[] = {
    { "max_diff", "max", "   37", "\"max_diff\": 37, \"max_at\": [5, 6], ", "37 at (5, 6)",
      "max diff" },
    { "mean_diff", "mean", "   1.235", "\"mean_diff\": 1.234568, ", "1.235", "mean diff" },
    { "psnr", "PSNR", "   41.23", "\"psnr\": 41.2346, ", "41.23 dB", "PSNR" },
    { "over_share", "%over", "   0.123", "\"over_pixels\": 12, \"over_share\": 0.00123456, ",
      "0.1235 %", "failing share" },
    { "ssim", "SSIM", " 0.98765", "\"ssim\": 0.987654, ", "0.98765", "SSIM" },
    { "block_psnr", "blk PSNR", "   23.46", "\"block_psnr\": 23.4568, \"block_at\": [16, 32], ",
      "23.46 dB at (16, 32)", "block PSNR" },
    { "block_bias", "blk bias", "    7.89", "\"block_bias\": 7.8912, \"bias_at\": [48, 0], ",
      "7.89 levels at (48, 0)", "block bias" },
};

#define NUM_EXPECTED (sizeof expected / sizeof expected[0])

static mc_refcheck_row made_up_row(void)
{
    mc_refcheck_row row = { .frame = 7, .kind = MC_REFCHECK_FAILED };

    row.r = (mc_compare_result){ .max_diff = 37,
                                 .max_x = 5,
                                 .max_y = 6,
                                 .mean_diff = 1.2345678,
                                 .psnr = 41.23456,
                                 .over_pixels = 12,
                                 .over_share = 0.00123456,
                                 .ssim = 0.9876543,
                                 .block_psnr = 23.456789,
                                 .block_x = 16,
                                 .block_y = 32,
                                 .block_bias = 7.891234,
                                 .bias_x = 48,
                                 .bias_y = 0,
                                 .compared = 1000,
                                 .fail = MC_COMPARE_FAIL_SHARE };
    snprintf(row.reasons, sizeof row.reasons, "why <not>");
    return row;
}

/* What fn writes for row: malloc'd text (the caller frees it). */
static char *written(void (*fn)(const mc_refcheck_row *, FILE *), const mc_refcheck_row *row)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    fn(row, f);
    fclose(f);
    return buf;
}

static void heading(const mc_refcheck_row *row, FILE *to)
{
    (void)row;
    mc_rc_table_heading(to);
}

static void junit_line(const mc_refcheck_row *row, FILE *to)
{
    mc_rp_junit_frame_line(to, row);
}

static const expected_metric *expected_of(const char *id)
{
    for (size_t i = 0; i < NUM_EXPECTED; i++)
        if (strcmp(expected[i].id, id) == 0)
            return &expected[i];
    return NULL;
}

/* Every row of the table is one this test knows, and each of them is in the table: a new row
 * needs its expected strings here. */
TEST(the_table_is_the_rows_written_here)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);

    EXPECT_EQ_INT((int)n, (int)NUM_EXPECTED);
    for (size_t i = 0; i < n && i < NUM_EXPECTED; i++)
        if (!EXPECT(expected_of(m[i].id) != NULL))
            fprintf(stderr, "  row '%s' has no expected strings in this test\n", m[i].id);
}

/* Each row's heading, value, JSON part and JUnit part appear, in the table's order. */
TEST(every_row_appears_in_every_output_as_the_row_says)
{
    mc_refcheck_row row = made_up_row();
    char *head = written(heading, &row), *line = written(mc_rc_table_row, &row);
    char *json = written(mc_rc_json_row, &row), *junit = written(junit_line, &row);
    const char *at_head = head, *at_line = line, *at_json = json, *at_junit = junit;
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);
    char text[128], want[160];

    ASSERT(head && line && json && junit);
    for (size_t i = 0; i < n; i++) {
        const expected_metric *e = expected_of(m[i].id);

        if (!e)
            continue;
        snprintf(want, sizeof want, " %s", e->heading);
        EXPECT_CONTAINS(at_head, want);
        at_head = strstr(at_head, want) ? strstr(at_head, want) + strlen(want) : at_head;
        snprintf(want, sizeof want, " %s", e->cell);
        EXPECT_CONTAINS(at_line, want);
        at_line = strstr(at_line, want) ? strstr(at_line, want) + strlen(want) : at_line;
        EXPECT_CONTAINS(at_json, e->json);
        at_json = strstr(at_json, e->json) ? strstr(at_json, e->json) + strlen(e->json) : at_json;
        snprintf(want, sizeof want, ", %s %s", e->label, e->prose);
        EXPECT_CONTAINS(at_junit, want);
        at_junit = strstr(at_junit, want) ? strstr(at_junit, want) + strlen(want) : at_junit;
        mc_rp_metric_text(&row.r, &m[i], text, sizeof text);
        EXPECT_EQ_STR(text, e->prose);
    }
    free(head);
    free(line);
    free(json);
    free(junit);
}

/* The whole lines, as they read today. */
TEST(the_lines_read_whole)
{
    mc_refcheck_row row = made_up_row();
    char *head = written(heading, &row), *line = written(mc_rc_table_row, &row);
    char *json = written(mc_rc_json_row, &row), *junit = written(junit_line, &row);

    ASSERT(head && line && json && junit);
    EXPECT_EQ_STR(head, "  frame   max     mean     PSNR    %over     SSIM blk PSNR blk bias  "
                        "reasons\n");
    EXPECT_EQ_STR(line, "      7    37    1.235    41.23    0.123  0.98765    23.46     7.89  "
                        "why <not>\n");
    EXPECT_EQ_STR(json, "{\"frame\": 7, \"pass\": false, \"max_diff\": 37, \"max_at\": [5, 6], "
                        "\"mean_diff\": 1.234568, \"psnr\": 41.2346, \"over_pixels\": 12, "
                        "\"over_share\": 0.00123456, \"ssim\": 0.987654, \"block_psnr\": "
                        "23.4568, \"block_at\": [16, 32], \"block_bias\": 7.8912, \"bias_at\": "
                        "[48, 0], \"reasons\": \"why <not>\", \"kind\": \"failed\", "
                        "\"written\": null}");
    EXPECT_EQ_STR(junit, "frame 7: failed, max diff 37 at (5, 6), mean diff 1.235, PSNR 41.23 "
                         "dB, failing share 0.1235 %, SSIM 0.98765, block PSNR 23.46 dB at (16, "
                         "32), block bias 7.89 levels at (48, 0): why &lt;not&gt;\n");
    free(head);
    free(line);
    free(json);
    free(junit);
}

/* Identical pixels: PSNR and block PSNR are infinite, null in JSON (the block's place too) and
 * "inf" elsewhere, without their unit. */
TEST(an_infinite_value_is_null_in_json_and_inf_elsewhere)
{
    mc_refcheck_row row = { .frame = 3, .kind = MC_REFCHECK_FAILED };
    char *line, *json, *junit;

    row.r = (mc_compare_result){ .psnr = INFINITY, .ssim = 1.0, .block_psnr = INFINITY };
    line = written(mc_rc_table_row, &row);
    json = written(mc_rc_json_row, &row);
    junit = written(junit_line, &row);
    ASSERT(line && json && junit);
    EXPECT_EQ_STR(line, "      3     0    0.000      inf    0.000  1.00000      inf     0.00  \n");
    EXPECT_CONTAINS(json, "\"mean_diff\": 0.000000, \"psnr\": null, \"over_pixels\": 0, ");
    EXPECT_CONTAINS(json, "\"block_psnr\": null, \"block_at\": null, \"block_bias\": 0.0000, "
                          "\"bias_at\": [0, 0], ");
    EXPECT_CONTAINS(junit, ", PSNR inf, failing share 0.0000 %, SSIM 1.00000, block PSNR inf at "
                           "(0, 0), block bias 0.00 levels at (0, 0): \n");
    free(line);
    free(json);
    free(junit);
}

/* A frame that was not measured (missing here): every metric, count and place is null in JSON;
 * the table and JUnit show none. */
TEST(a_frame_not_measured_shows_no_value)
{
    mc_refcheck_row row = made_up_row();
    char *line, *json, *junit;

    row.kind = MC_REFCHECK_MISSING;
    line = written(mc_rc_table_row, &row);
    json = written(mc_rc_json_row, &row);
    junit = written(junit_line, &row);
    ASSERT(line && json && junit);
    EXPECT_EQ_STR(line, "      7  why <not>\n");
    EXPECT_EQ_STR(json, "{\"frame\": 7, \"pass\": false, \"max_diff\": null, \"max_at\": null, "
                        "\"mean_diff\": null, \"psnr\": null, \"over_pixels\": null, "
                        "\"over_share\": null, \"ssim\": null, \"block_psnr\": null, "
                        "\"block_at\": null, \"block_bias\": null, \"bias_at\": null, "
                        "\"reasons\": \"why <not>\", \"kind\": \"missing\", \"written\": null}");
    EXPECT_EQ_STR(junit, "frame 7: missing: why &lt;not&gt;\n");
    free(line);
    free(json);
    free(junit);
}
