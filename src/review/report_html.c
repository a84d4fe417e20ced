/* The report's page (report.h): index.html with inline CSS and script, nothing from outside. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static const char css[] =
        "body{font-family:system-ui,sans-serif;margin:1.5em;background:#fafafa;color:#222}\n"
        "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 6px;"
        "vertical-align:top;text-align:left}\n"
        "tr.fail td{background:#fff}th{background:#eee}\n"
        ".th{position:relative;display:inline-block;line-height:0}\n"
        ".th img{display:block;width:min(18vw,320px);height:auto}\n"
        "td.m{min-width:19em}\n"
        ".box,.worst{position:absolute;border:2px solid #0f0;box-sizing:border-box;"
        "outline:1px solid #000;pointer-events:none}\n"
        ".worst{border:2px dashed #ff0;outline-color:#a00}\n"
        ".blockwrap{max-height:14em;overflow:auto;margin-top:.4em}"
        "table.blocks{font-size:.85em}table.blocks td{padding:1px 5px}"
        "table.blocks tr.shown td{font-weight:bold}\n"
        ".wipe{position:relative;display:inline-block;line-height:0;max-width:100%}\n"
        ".wipe img{display:block;max-width:100%;height:auto}\n"
        ".wipe img.a{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}\n"
        ".why{color:#a00;max-width:40em}.none{color:#888}\n"
        "dl{margin:0;display:grid;grid-template-columns:auto auto;column-gap:1em}"
        "dt{color:#555}dd{margin:0;font-variant-numeric:tabular-nums}\n"
        ".sum b.bad{color:#a00}.sum b.good{color:#070}.passing{max-width:60em}\n"
        "#timeline{margin:1em 0;max-width:960px}#timeline svg{display:block;width:100%;"
        "height:auto}#timeline pre{margin:.4em 0 0}\n";

/* Sets the wipe and flip controls going, and counts the images once each has loaded or
 * failed (data-images-* on <body>). */
static const char script[] =
        "(function(){\n"
        "document.querySelectorAll('.viewer').forEach(function(v){\n"
        " var a=v.querySelector('img.a'),r=v.querySelector('input'),f=v.querySelector('button'),"
        "l=v.querySelector('.shown');\n"
        " if(!a)return;\n"
        " r.addEventListener('input',function(){a.style.clipPath='inset(0 '+(100-r.value)+'% 0 0)';"
        "l.textContent='left: reference, right: new';});\n"
        " f.addEventListener('click',function(){var on=a.style.clipPath!=='inset(0px)'&&"
        "a.style.clipPath!=='inset(0)';a.style.clipPath=on?'inset(0)':'inset(0 0 0 100%)';"
        "l.textContent=on?'showing: reference':'showing: new';});\n"
        "});\n"
        "var im=document.images,n=im.length,ok=0,bad=0,b=document.body;\n"
        "function done(){if(ok+bad===n){b.setAttribute('data-images-loaded',ok);"
        "b.setAttribute('data-images-failed',bad);}}\n"
        "function one(e){if(e.type==='load')ok++;else bad++;done();}\n"
        "b.setAttribute('data-images-total',n);\n"
        "for(var i=0;i<n;i++){var m=im[i];if(m.complete){if(m.naturalWidth>0)ok++;else bad++;}"
        "else{m.addEventListener('load',one);m.addEventListener('error',one);}}\n"
        "done();\n"
        "})();\n";

/* The first frame with pictures in first..last; NULL when none. */
static const mc_rp_frame *find_frame(const mc_rp_frame *f, size_t n, mc_frame_no first,
                                     mc_frame_no last)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (f[mid].frame < first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && f[lo].frame <= last ? &f[lo] : NULL;
}

static void box_div(FILE *to, const char *cls, const mc_report_box *b, int w, int h)
{
    fprintf(to, "<div class=\"%s\" style=\"left:%.3f%%;top:%.3f%%;width:%.3f%%;height:%.3f%%\">"
                "</div>",
            cls, 100.0 * b->x0 / w, 100.0 * b->y0 / h, 100.0 * (b->x1 - b->x0 + 1) / w,
            100.0 * (b->y1 - b->y0 + 1) / h);
}

static void boxes(FILE *to, const mc_rp_frame *f, int w, int h)
{
    if (!f->has_ref)
        return;
    if (f->box.x1 >= f->box.x0)
        box_div(to, "box", &f->box, w, h);
    if (f->worst.x1 >= f->worst.x0)
        box_div(to, "worst", &f->worst, w, h);
}

static void thumb(FILE *to, const char *name, const char *alt, const mc_rp_frame *f, int w,
                  int h)
{
    fprintf(to, "<td><div class=\"th\"><img src=\"%s_%05lld.png\" alt=\"%s %lld\">", name,
            (long long)f->frame, alt, (long long)f->frame);
    boxes(to, f, w, h);
    fputs("</div></td>", to);
}

static void fmt_db(char *buf, size_t cap, double db)
{
    if (isinf(db))
        snprintf(buf, cap, "inf");
    else
        snprintf(buf, cap, "%.2f dB", db);
}

static void region_dd(FILE *to, const char *what, const char *cls, const mc_report_box *b)
{
    fprintf(to,
            "<dt>%s</dt><dd class=\"%s\" data-box=\"%d %d %d %d\">x %d-%d, y %d-%d (%dx%d)</dd>",
            what, cls, b->x0, b->y0, b->x1, b->y1, b->x0, b->x1, b->y0, b->y1,
            b->x1 - b->x0 + 1, b->y1 - b->y0 + 1);
}

/* One metric of a failed frame: <dt>label</dt><dd class="id">value (N px)</dd>, the class its
 * id with '-' for '_'. */
static void metric_dd(FILE *to, const mc_compare_result *r, const mc_compare_metric *m)
{
    char v[96], cls[64];
    size_t count;

    mc_rp_metric_text(r, m, v, sizeof v);
    snprintf(cls, sizeof cls, "%s", m->id);
    for (char *p = cls; *p; p++)
        *p = *p == '_' ? '-' : *p;
    fprintf(to, "<dt>%s</dt><dd class=\"%s\">%s", m->label, cls, v);
    if (m->count_key) {
        memcpy(&count, (const char *)r + m->count, sizeof count);
        fprintf(to, " (%zu px)", count);
    }
    fputs("</dd>", to);
}

static void metrics(FILE *to, const mc_refcheck_row *row, const mc_rp_frame *f)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);

    fprintf(to, "<dl><dt>frame</dt><dd>%lld</dd>", (long long)row->frame);
    for (size_t i = 0; i < n && row->kind == MC_REFCHECK_FAILED; i++)
        metric_dd(to, &row->r, &m[i]);
    if (f && f->has_ref && f->failing_blocks > 0)
        fprintf(to, "<dt>blocks over a limit</dt><dd class=\"failing-blocks\">%d</dd>",
                f->failing_blocks);
    if (f && f->has_ref && f->box.x1 >= f->box.x0)
        region_dd(to, "changed region", "region", &f->box);
    if (f && f->has_ref && f->worst.x1 >= f->worst.x0)
        region_dd(to, "worst block", "worst-block", &f->worst);
    fputs("</dl><p class=\"why\">", to);
    mc_xml_write_escaped(to, row->reasons);
    fputs("</p>", to);
}

#define MAX_BLOCK_ROWS 200

/* Every frame of the run rows[a..b]: its block values. */
static void block_table(FILE *to, const mc_refcheck *check, size_t a, size_t b,
                        mc_frame_no shown)
{
    char db[32], bp[32];

    fputs("<div class=\"blockwrap\"><table class=\"blocks\"><thead><tr><th>frame</th>"
          "<th>block PSNR</th><th>block bias</th><th>PSNR</th><th>failing share</th></tr>"
          "</thead><tbody>",
          to);
    for (size_t i = a; i <= b && i - a < MAX_BLOCK_ROWS; i++) {
        const mc_refcheck_row *row = mc_refcheck_row_at(check, i);
        const mc_compare_result *r = &row->r;

        fprintf(to, "<tr%s data-frame=\"%lld\"><td>%lld</td>",
                row->frame == shown ? " class=\"shown\"" : "", (long long)row->frame,
                (long long)row->frame);
        if (row->kind != MC_REFCHECK_FAILED) {
            fputs("<td>-</td><td>-</td><td>-</td><td>-</td></tr>", to);
            continue;
        }
        fmt_db(bp, sizeof bp, r->block_psnr);
        fmt_db(db, sizeof db, r->psnr);
        fprintf(to, "<td>%s</td><td>%.2f</td><td>%s</td><td>%.4f %%</td></tr>", bp,
                r->block_bias, db, 100.0 * r->over_share);
    }
    fputs("</tbody></table></div>", to);
    if (b - a + 1 > MAX_BLOCK_ROWS)
        fprintf(to, "<p>... and %zu more frames</p>", b - a + 1 - MAX_BLOCK_ROWS);
}

static void viewer(FILE *to, const mc_rp_frame *f, int w, int h)
{
    long long k = (long long)f->frame;

    fprintf(to, "<details class=\"viewer\"><summary>full size: wipe or flip</summary>"
                "<div class=\"wipe\"><img class=\"b\" src=\"new_%05lld.png\" alt=\"new %lld\" "
                "width=\"%d\" height=\"%d\"><img class=\"a\" src=\"ref_%05lld.png\" "
                "alt=\"reference %lld\" width=\"%d\" height=\"%d\">",
            k, k, w, h, k, k, w, h);
    boxes(to, f, w, h);
    fputs("</div><br><input type=\"range\" min=\"0\" max=\"100\" value=\"50\" "
          "aria-label=\"wipe\"> <button type=\"button\">flip</button> <span class=\"shown\">"
          "left: reference, right: new</span></details>",
          to);
}

/* One run, rows[a..b]: the frame shown is the one with pictures, else the worst (w). */
static void failing_row(FILE *to, const mc_refcheck *check, size_t a, size_t b, size_t w,
                        const mc_shot_range *g, const mc_rp_frame *f, int width, int height)
{
    const mc_refcheck_row *first = mc_refcheck_row_at(check, a);
    const mc_refcheck_row *last = mc_refcheck_row_at(check, b);
    const mc_refcheck_row *row = mc_refcheck_row_at(check, w);

    for (size_t i = a; f && i <= b; i++)
        if (mc_refcheck_row_at(check, i)->frame == f->frame)
            row = mc_refcheck_row_at(check, i);
    fprintf(to,
            "<tr class=\"fail\" data-frame=\"%lld\" data-first=\"%lld\" data-last=\"%lld\" "
            "data-frames=\"%zu\" data-kind=\"%s\"><td>",
            (long long)row->frame, (long long)first->frame, (long long)last->frame, b - a + 1,
            mc_rp_kind_name(row->kind));
    if (a == b)
        fprintf(to, "%lld", (long long)row->frame);
    else
        fprintf(to, "%lld-%lld<br>(%zu frames)<br>worst: %lld", (long long)first->frame,
                (long long)last->frame, b - a + 1, (long long)row->frame);
    fputs("</td><td>", to);
    if (g && g->number > 0)
        fprintf(to, "%d", g->number);
    else
        fputs("-", to);
    fprintf(to, "</td><td>%s</td>", mc_rp_kind_name(row->kind));
    if (f && f->has_ref)
        thumb(to, "tref", "reference", f, width, height);
    else
        fputs("<td class=\"none\">no reference picture</td>", to);
    if (f)
        thumb(to, "tnew", "new", f, width, height);
    else
        fputs("<td class=\"none\">no picture</td>", to);
    if (f && f->has_ref)
        thumb(to, "heat", "heat map", f, width, height);
    else
        fputs("<td class=\"none\">-</td>", to);
    fputs("<td class=\"m\">", to);
    metrics(to, row, f);
    block_table(to, check, a, b, row->frame);
    fputs("</td></tr>\n", to);
    if (f && f->has_ref) { /* the full-size viewer spans the table below its row */
        fputs("<tr class=\"more\"><td colspan=\"7\">", to);
        viewer(to, f, width, height);
        fputs("</td></tr>\n", to);
    }
}

static void failing_table(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                          size_t ngroups, const size_t *rg, const mc_rp_frame *frames,
                          size_t nframes, int w, int h, size_t max_runs)
{
    const mc_refcheck *check = info->check;
    size_t rows = mc_refcheck_row_count(check), listed = 0, runs = 0, bad = 0, left_frames = 0;
    mc_compare_opts l;
    bool by_block;

    mc_refcheck_get_limits(check, &l);
    by_block = mc_rp_block_mode(&l);
    for (size_t i = 0; i < rows; i++)
        bad += mc_refcheck_row_at(check, i)->kind != MC_REFCHECK_PASSED;
    fprintf(to, "<h2 id=\"failing-frames\">Failing frames (%zu)</h2>\n", bad);
    if (bad == 0) {
        fputs("<p>Every frame passed.</p>\n", to);
        return;
    }
    if (by_block)
        fputs("<p>One row per run of consecutive failing frames, showing its worst frame (the "
              "lowest block PSNR). Heat map: the 16x16 blocks over a block limit (block PSNR "
              "or block bias), red where the new frame is brighter, blue where darker, "
              "magenta where only the hue changed, fuller the further over the limit; "
              "green boxes: the region of those blocks; dashed yellow: the worst block.</p>\n",
              to);
    else
        fputs("<p>One row per run of consecutive failing frames, showing its worst frame (the "
              "largest failing share). Heat map: red where the new frame is brighter, blue "
              "where darker, magenta where only the hue changed, in proportion to the largest "
              "channel difference (full colour at 64 levels); green boxes: the changed region; "
              "dashed yellow: the worst block.</p>\n",
              to);
    fputs("<table id=\"failing\"><thead><tr><th>frames</th><th>shot</th><th>kind</th>"
          "<th>reference</th><th>new</th><th>heat map</th><th>metrics</th></tr></thead>"
          "<tbody>\n",
          to);
    for (size_t i = 0; i < rows; i++) {
        const mc_refcheck_row *row = mc_refcheck_row_at(check, i);
        size_t j = i, worst = i;
        double wb;

        if (row->kind == MC_REFCHECK_PASSED)
            continue;
        wb = mc_rp_badness(row, by_block);
        while (j + 1 < rows) {
            const mc_refcheck_row *next = mc_refcheck_row_at(check, j + 1);

            if (next->kind != row->kind || next->frame != mc_refcheck_row_at(check, j)->frame + 1 ||
                rg[j + 1] != rg[i])
                break;
            j++;
            if (mc_rp_badness(next, by_block) > wb) {
                wb = mc_rp_badness(next, by_block);
                worst = j;
            }
        }
        runs++;
        if (listed < max_runs) {
            failing_row(to, check, i, j, worst, rg[i] < ngroups ? &groups[rg[i]] : NULL,
                        find_frame(frames, nframes, row->frame,
                                   mc_refcheck_row_at(check, j)->frame),
                        w, h);
            listed++;
        } else {
            left_frames += j - i + 1;
        }
        i = j;
    }
    fputs("</tbody></table>\n", to);
    if (listed < runs)
        fprintf(to, "<p class=\"left-out\" data-runs=\"%zu\" data-frames=\"%zu\">%zu more "
                    "run%s (%zu frame%s) not listed: the page lists %zu "
                    "(--report-max-frames).</p>\n",
                runs - listed, left_frames, runs - listed, runs - listed == 1 ? "" : "s",
                left_frames, left_frames == 1 ? "" : "s", max_runs);
}

static void shot_table(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                       size_t ngroups, const size_t *rg)
{
    size_t rows = mc_refcheck_row_count(info->check);

    fputs("<h2 id=\"shots\">Shots</h2>\n<table id=\"shot-summary\"><thead><tr><th>shot</th>"
          "<th>frames</th><th>checked</th><th>passed</th><th>failed</th><th>worst PSNR</th>"
          "<th>worst SSIM</th></tr></thead><tbody>\n",
          to);
    for (size_t g = 0; g < ngroups; g++) {
        size_t n = 0, passed = 0, measured = 0;
        double psnr = INFINITY, ssim = INFINITY;
        char name[96];

        for (size_t i = 0; i < rows; i++) {
            const mc_refcheck_row *row = mc_refcheck_row_at(info->check, i);

            if (rg[i] != g)
                continue;
            n++;
            passed += row->kind == MC_REFCHECK_PASSED;
            if (row->kind == MC_REFCHECK_PASSED || row->kind == MC_REFCHECK_FAILED) {
                measured++;
                psnr = row->r.psnr < psnr ? row->r.psnr : psnr;
                ssim = row->r.ssim < ssim ? row->r.ssim : ssim;
            }
        }
        mc_rp_group_name(&groups[g], info->shot_count > 0, name, sizeof name);
        fprintf(to, "<tr data-shot=\"%d\" data-failed=\"%zu\"><td>%s</td><td>", groups[g].number,
                n - passed, name);
        if (groups[g].number > 0)
            fprintf(to, "%lld-%lld", (long long)groups[g].first, (long long)groups[g].last);
        else
            fputs("-", to);
        fprintf(to, "</td><td>%zu</td><td>%zu</td><td>%zu</td>", n, passed, n - passed);
        if (measured == 0)
            fputs("<td>-</td>", to);
        else if (isinf(psnr))
            fputs("<td>inf (identical)</td>", to);
        else
            fprintf(to, "<td>%.2f dB</td>", psnr);
        if (measured == 0)
            fputs("<td>-</td></tr>\n", to);
        else
            fprintf(to, "<td>%.5f</td></tr>\n", ssim);
    }
    fputs("</tbody></table>\n", to);
}

/* The passing frames of each group as ranges of consecutive numbers. */
static void passing_list(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                         size_t ngroups, const size_t *rg, size_t passed)
{
    size_t rows = mc_refcheck_row_count(info->check);

    fprintf(to, "<h2 id=\"passing-frames\">Passing frames (%zu)</h2>\n<div class=\"passing\">",
            passed);
    for (size_t g = 0; g < ngroups; g++) {
        mc_frame_no start = 0, prev = 0;
        bool open = false, any = false;
        char name[96];

        mc_rp_group_name(&groups[g], info->shot_count > 0, name, sizeof name);
        for (size_t i = 0; i <= rows; i++) {
            const mc_refcheck_row *row = i < rows ? mc_refcheck_row_at(info->check, i) : NULL;
            bool take = row && row->kind == MC_REFCHECK_PASSED && rg[i] == g;

            if (open && (!take || row->frame != prev + 1)) {
                fprintf(to, start == prev ? "%s<span class=\"pass\">%lld" : "%s<span "
                        "class=\"pass\">%lld-%lld", any ? ", " : "", (long long)start,
                        (long long)prev);
                fputs("</span>", to);
                any = true;
                open = false;
            }
            if (take && !open) {
                if (!any)
                    fprintf(to, "<p>%s: ", name);
                start = row->frame;
                open = true;
            }
            if (take)
                prev = row->frame;
        }
        if (any)
            fputs("</p>\n", to);
    }
    fputs("</div>\n", to);
}

void mc_rp_write_html(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                      size_t ngroups, const size_t *rg, const mc_rp_frame *frames,
                      size_t nframes, int width, int height, size_t max_runs)
{
    mc_refcheck_summary s;
    mc_compare_opts l;
    char limits[320];

    mc_refcheck_get_summary(info->check, &s);
    mc_refcheck_get_limits(info->check, &l);
    mc_refcheck_format_limits(&l, limits, sizeof limits);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          MC_REPORT_GENERATOR "\n"
          "<meta name=\"viewport\" content=\"width=device-width\">\n<title>md5cine: ",
          to);
    mc_xml_write_escaped(to, info->title);
    fprintf(to, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>Reference check: ", css);
    mc_xml_write_escaped(to, info->title);
    fputs("</h1>\n<p class=\"sum\">", to);
    if (info->reference) {
        fputs("reference <code>", to);
        mc_xml_write_escaped(to, info->reference);
        fputs("</code>", to);
    }
    if (info->candidate) {
        fputs(", candidate <code>", to);
        mc_xml_write_escaped(to, info->candidate);
        fputs("</code>", to);
    }
    fprintf(to,
            "<br>%dx%d, %lld frames checked: <b class=\"%s\">%lld passed</b>, <b "
            "class=\"%s\">%lld failed</b>, %lld missing, %lld unreadable<br>"
            "<span class=\"limits\">limits (",
            width, height, (long long)s.checked, s.ok ? "good" : "bad", (long long)s.passed,
            s.failed ? "bad" : "good", (long long)s.failed, (long long)s.missing,
            (long long)s.unreadable);
    mc_xml_write_escaped(to, limits);
    fputs(")</span></p>\n", to);
    mc_rp_write_timeline(to, info);
    failing_table(to, info, groups, ngroups, rg, frames, nframes, width, height, max_runs);
    shot_table(to, info, groups, ngroups, rg);
    passing_list(to, info, groups, ngroups, rg, (size_t)s.passed);
    fprintf(to, "<script>\n%s</script>\n</body></html>\n", script);
}
