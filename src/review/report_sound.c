/* The review page's sound section (report.h): the comparison's figures and a waveform of each
 * side with its onsets marked, as inline SVG (the page needs no other file for it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_int.h"

/* Whether onset n of one side is marked bad: unpaired, or in a pair over the onset limit. */
static bool bad_onset(const mc_audio_result *r, int64_t n, bool side_a)
{
    for (size_t i = 0; i < r->pair_count; i++) {
        if ((side_a ? r->pairs[i].a : r->pairs[i].b) == n)
            return fabs(r->pairs[i].offset_ms) > r->limits.max_onset_ms;
    }
    return true;
}

static void waveform(FILE *to, const mc_audio_result *r, const mc_audio_track *t, bool side_a)
{
    enum { W = MC_REPORT_WAVE_WIDTH, H = MC_REPORT_WAVE_HEIGHT };
    float mn[W], mx[W];
    const int64_t *on = side_a ? r->onsets_a : r->onsets_b;
    size_t count = side_a ? r->count_a : r->count_b;
    double len = (double)(r->end - r->first);

    mc_audio_envelope(t, r->first, r->end, mn, mx, W);
    fprintf(to,
            "<p class=\"wave-label\">%s</p>\n<svg class=\"waveform\" data-side=\"%s\" "
            "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n<rect width=\"%d\" height=\"%d\" "
            "fill=\"#202020\"/>\n<path class=\"envelope\" stroke=\"#7fd17f\" d=\"",
            side_a ? "A (reference)" : "B (candidate)", side_a ? "a" : "b", W, H, W, H, W, H);
    for (int x = 0; x < W; x++) {
        double hi = isnan(mx[x]) ? 0.0 : (double)mx[x], lo = isnan(mn[x]) ? 0.0 : (double)mn[x];
        double y0 = H * 0.5 * (1.0 - hi), y1 = H * 0.5 * (1.0 - lo);

        if (y1 - y0 < 1.0) /* silence still shows as the centre line */
            y1 = y0 + 1.0;
        fprintf(to, "M%d.5 %.1fV%.1f", x, y0, y1);
    }
    fputs("\"/>\n", to);
    for (size_t i = 0; i < count && len > 0; i++) {
        double x = (double)(on[i] - r->first) * W / len;
        bool bad = bad_onset(r, on[i], side_a);

        fprintf(to,
                "<line class=\"onset%s\" data-ms=\"%.2f\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" "
                "y2=\"%d\" stroke=\"%s\"/>\n",
                bad ? " bad" : "", (double)on[i] * 1000.0 / r->rate, x, x, H,
                bad ? "#ff4040" : "#ffd040");
    }
    fputs("</svg>\n", to);
}

void mc_rp_write_sound(FILE *to, const mc_report_info *info)
{
    const mc_audio_result *r = info->audio;
    char *text = NULL;
    size_t len = 0;
    FILE *mem;

    if (!r)
        return;
    fprintf(to, "<h2 id=\"sound-title\">Sound</h2>\n<section id=\"sound\" class=\"%s\">\n",
            r->pass ? "pass" : "fail");
    mem = open_memstream(&text, &len);
    if (mem) {
        mc_audio_print_text(r, 20, mem);
        fclose(mem);
        fputs("<pre class=\"sound-text\">", to);
        mc_xml_write_escaped(to, text);
        fputs("</pre>\n", to);
    }
    free(text);
    if (r->end > r->first && info->audio_a && r->has_a)
        waveform(to, r, info->audio_a, true);
    if (r->end > r->first && info->audio_b && r->has_b)
        waveform(to, r, info->audio_b, false);
    fputs("</section>\n", to);
}
