/* The review page's timeline (report.h): the frame strip of the checked frames over time, each
 * side's waveform directly under it on the same time axis with its onsets marked, and the
 * comparison's figures, as inline SVG and text (the page needs no other file for it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_int.h"

/* The time axis every row of the figure shares: timeline samples s0 .. s1 - 1 at rate over
 * MC_REPORT_WAVE_WIDTH units. */
typedef struct axis {
    int64_t s0, s1;
    int rate;
    mc_rate fps; /* the frames' rate; num 0: no strip */
} axis;

static double axis_x(const axis *ax, double sample)
{
    return (sample - (double)ax->s0) * MC_REPORT_WAVE_WIDTH / (double)(ax->s1 - ax->s0);
}

/* Timeline sample (at the axis's rate) where output frame k starts: k / fps seconds. */
static double frame_sample(const axis *ax, mc_frame_no k)
{
    return (double)k * ax->rate * ax->fps.den / ax->fps.num;
}

/* The axis: the sound's span, widened to the checked frames' time when their rate is known. */
static axis make_axis(const mc_report_info *info)
{
    const mc_audio_result *r = info->audio;
    size_t rows = mc_refcheck_row_count(info->check);
    axis ax = { r->first, r->end, r->rate, info->fps };

    if (ax.fps.num <= 0 || ax.fps.den <= 0 || rows == 0 || r->rate <= 0) {
        ax.fps = (mc_rate){ 0, 0 };
        return ax;
    }
    double f0 = floor(frame_sample(&ax, mc_refcheck_row_at(info->check, 0)->frame));
    double f1 = ceil(frame_sample(&ax, mc_refcheck_row_at(info->check, rows - 1)->frame + 1));

    ax.s0 = (int64_t)f0 < ax.s0 ? (int64_t)f0 : ax.s0;
    ax.s1 = (int64_t)f1 > ax.s1 ? (int64_t)f1 : ax.s1;
    return ax;
}

static const char *kind_fill(mc_refcheck_kind k)
{
    return k == MC_REFCHECK_PASSED ? "#3a9a3a" : k == MC_REFCHECK_FAILED ? "#d03030" : "#808080";
}

/* The frame strip: one rect per run of consecutive frames of one kind, a line at each shot's
 * first frame after the first. */
static void frame_strip(FILE *to, const mc_report_info *info, const axis *ax)
{
    enum { W = MC_REPORT_WAVE_WIDTH, H = MC_REPORT_STRIP_HEIGHT };
    size_t rows = mc_refcheck_row_count(info->check);

    fprintf(to,
            "<svg class=\"frame-strip\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n<rect width=\"%d\" height=\"%d\" "
            "fill=\"#202020\"/>\n",
            W, H, W, H, W, H);
    for (size_t i = 0, start = 0; i < rows; i++) {
        const mc_refcheck_row *a = mc_refcheck_row_at(info->check, start);
        const mc_refcheck_row *b = mc_refcheck_row_at(info->check, i);
        const mc_refcheck_row *next = i + 1 < rows ? mc_refcheck_row_at(info->check, i + 1)
                                                   : NULL;

        if (next && next->kind == a->kind && next->frame == b->frame + 1)
            continue;
        double x0 = axis_x(ax, frame_sample(ax, a->frame));
        double x1 = axis_x(ax, frame_sample(ax, b->frame + 1));

        fprintf(to,
                "<rect class=\"frames %s\" data-first=\"%lld\" data-last=\"%lld\" x=\"%.2f\" "
                "y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>frames %lld-%lld: "
                "%s</title></rect>\n",
                mc_rp_kind_name(a->kind), (long long)a->frame, (long long)b->frame, x0, x1 - x0,
                H, kind_fill(a->kind), (long long)a->frame, (long long)b->frame,
                mc_rp_kind_name(a->kind));
        start = i + 1;
    }
    for (size_t s = 1; s < info->shot_count; s++) {
        double x = axis_x(ax, frame_sample(ax, info->shots[s].first));

        fprintf(to,
                "<line class=\"cut\" data-frame=\"%lld\" x1=\"%.2f\" x2=\"%.2f\" y1=\"0\" "
                "y2=\"%d\" stroke=\"#ffffff\"/>\n",
                (long long)info->shots[s].first, x, x, H);
    }
    fputs("</svg>\n", to);
}

/* Whether onset n of one side is marked bad: unpaired, or in a pair over the onset limit. */
static bool bad_onset(const mc_audio_result *r, int64_t n, bool side_a)
{
    for (size_t i = 0; i < r->pair_count; i++) {
        if ((side_a ? r->pairs[i].a : r->pairs[i].b) == n)
            return fabs(r->pairs[i].offset_ms) > r->limits.max_onset_ms;
    }
    return true;
}

static void waveform(FILE *to, const mc_audio_result *r, const mc_audio_track *t, bool side_a,
                     const axis *ax)
{
    enum { W = MC_REPORT_WAVE_WIDTH, H = MC_REPORT_WAVE_HEIGHT };
    float mn[W], mx[W];
    const int64_t *on = side_a ? r->onsets_a : r->onsets_b;
    size_t count = side_a ? r->count_a : r->count_b;

    mc_audio_envelope(t, ax->s0, ax->s1, mn, mx, W);
    fprintf(to,
            "<svg class=\"waveform\" data-side=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" "
            "height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            "<rect width=\"%d\" height=\"%d\" fill=\"#202020\"/>\n<path class=\"envelope\" "
            "stroke=\"#7fd17f\" d=\"",
            side_a ? "a" : "b", W, H, W, H, W, H);
    for (int x = 0; x < W; x++) {
        double hi = isnan(mx[x]) ? 0.0 : (double)mx[x], lo = isnan(mn[x]) ? 0.0 : (double)mn[x];
        double y0 = H * 0.5 * (1.0 - hi), y1 = H * 0.5 * (1.0 - lo);

        if (y1 - y0 < 1.0) /* silence still shows as the centre line */
            y1 = y0 + 1.0;
        fprintf(to, "M%d.5 %.1fV%.1f", x, y0, y1);
    }
    fprintf(to, "\"/>\n<text class=\"wave-label\" x=\"4\" y=\"12\" fill=\"#c0c0c0\" "
                "font-size=\"11\">%s</text>\n",
            side_a ? "A (reference)" : "B (candidate)");
    for (size_t i = 0; i < count; i++) {
        double x = axis_x(ax, (double)on[i]);
        bool bad = bad_onset(r, on[i], side_a);

        fprintf(to,
                "<line class=\"onset%s\" data-ms=\"%.2f\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" "
                "y2=\"%d\" stroke=\"%s\"/>\n",
                bad ? " bad" : "", (double)on[i] * 1000.0 / r->rate, x, x, H,
                bad ? "#ff4040" : "#ffd040");
    }
    fputs("</svg>\n", to);
}

void mc_rp_write_timeline(FILE *to, const mc_report_info *info)
{
    const mc_audio_result *r = info->audio;
    char *text = NULL;
    size_t len = 0;
    FILE *mem;

    if (!r)
        return;
    axis ax = make_axis(info);

    fprintf(to, "<figure id=\"timeline\" class=\"%s\">\n", r->pass ? "pass" : "fail");
    if (ax.s1 > ax.s0) {
        if (ax.fps.num > 0)
            frame_strip(to, info, &ax);
        if (info->audio_a && r->has_a)
            waveform(to, r, info->audio_a, true, &ax);
        if (info->audio_b && r->has_b)
            waveform(to, r, info->audio_b, false, &ax);
    }
    mem = open_memstream(&text, &len);
    if (mem) {
        mc_audio_print_text(r, 20, mem);
        fclose(mem);
        fputs("<figcaption><pre class=\"sound-text\">", to);
        mc_xml_write_escaped(to, text);
        fputs("</pre></figcaption>\n", to);
    }
    free(text);
    fputs("</figure>\n", to);
}
