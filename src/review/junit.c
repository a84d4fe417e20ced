/* The JUnit XML form of a reference check (report.h): one test case per shot. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/fileio.h>

#include "report_int.h"

/* CLASS of classname="md5cine.CLASS": title's base name without extension, anything outside
 * [A-Za-z0-9_-] as '_' (a '.' would make a package level in the readers' trees). */
static void class_name(const char *title, char *buf, size_t cap)
{
    char tmp[4096];
    size_t n;
    char *base, *dot;

    snprintf(tmp, sizeof tmp, "%s", title);
    n = strlen(tmp);
    while (n > 1 && tmp[n - 1] == '/') /* "ref/": the folder's own name */
        tmp[--n] = '\0';
    base = strrchr(tmp, '/');
    base = base && base[1] ? base + 1 : tmp;
    dot = strrchr(base, '.');
    if (dot && dot > base)
        *dot = '\0';
    n = strlen(base);
    if (n >= cap)
        n = cap - 1; /* cut to the buffer */
    memcpy(buf, base, n);
    buf[n] = '\0';
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            *p = '_';
    if (buf[0] == '\0')
        snprintf(buf, cap, "check");
}

typedef struct group_count {
    size_t frames, bad;
    bool kinds[5]; /* mc_refcheck_kind present among the bad frames */
} group_count;

static void count_group(const mc_report_info *info, const size_t *rg, size_t g, group_count *c)
{
    size_t rows = mc_refcheck_row_count(info->check);

    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < rows; i++) {
        const mc_refcheck_row *row = mc_refcheck_row_at(info->check, i);

        if (rg[i] != g)
            continue;
        c->frames++;
        if (row->kind != MC_REFCHECK_PASSED && (unsigned)row->kind < 5) {
            c->bad++;
            c->kinds[row->kind] = true;
        }
    }
}

void mc_rp_junit_frame_line(FILE *to, const mc_refcheck_row *row)
{
    size_t n;
    const mc_compare_metric *m = mc_compare_metrics(&n);
    char v[96];

    fprintf(to, "frame %lld: %s", (long long)row->frame, mc_rp_kind_name(row->kind));
    for (size_t i = 0; i < n && row->kind == MC_REFCHECK_FAILED; i++) {
        mc_rp_metric_text(&row->r, &m[i], v, sizeof v);
        fprintf(to, ", %s %s", m[i].label, v);
    }
    fputs(": ", to);
    mc_xml_write_escaped(to, row->reasons);
    fputc('\n', to);
}

static void testcase(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                     const size_t *rg, size_t g, const char *cls)
{
    size_t rows = mc_refcheck_row_count(info->check);
    const char *element;
    group_count c;
    char name[96];
    bool first = true;

    count_group(info, rg, g, &c);
    mc_rp_group_name(&groups[g], info->shot_count > 0, name, sizeof name);
    fprintf(to, "    <testcase name=\"%s\" classname=\"md5cine.%s\"", name, cls);
    if (c.bad == 0) {
        fputs("/>\n", to);
        return;
    }
    element = c.kinds[MC_REFCHECK_UNREADABLE] ? "error" : "failure";
    fprintf(to, ">\n      <%s message=\"%zu of %zu frames differ\" type=\"", element, c.bad,
            c.frames);
    for (int k = 1; k < 5; k++) {
        if (!c.kinds[k])
            continue;
        fprintf(to, "%s%s", first ? "" : "+", mc_rp_kind_name((mc_refcheck_kind)k));
        first = false;
    }
    fputs("\">", to);
    for (size_t i = 0; i < rows; i++) {
        const mc_refcheck_row *row = mc_refcheck_row_at(info->check, i);

        if (row->kind != MC_REFCHECK_PASSED && rg[i] == g)
            mc_rp_junit_frame_line(to, row);
    }
    fprintf(to, "</%s>\n    </testcase>\n", element);
}

/* The sound's test case (report.h), when the check compared sound. */
static void sound_testcase(FILE *to, const mc_audio_result *r, const char *cls)
{
    fprintf(to, "    <testcase name=\"sound\" classname=\"md5cine.%s\"", cls);
    if (r->pass) {
        fputs("/>\n", to);
        return;
    }
    fputs(">\n      <failure message=\"sound differs\" type=\"sound\">", to);
    mc_xml_write_escaped(to, r->reasons);
    fputs("\n</failure>\n    </testcase>\n", to);
}

static void write_suite(FILE *to, const mc_report_info *info, const mc_shot_range *groups,
                        size_t n, const size_t *rg, double seconds)
{
    size_t failures = info->audio && !info->audio->pass, errors = 0;
    size_t tests = n + (info->audio != NULL);
    char cls[128];

    class_name(info->title ? info->title : "check", cls, sizeof cls);
    for (size_t g = 0; g < n; g++) {
        group_count c;

        count_group(info, rg, g, &c);
        errors += c.bad > 0 && c.kinds[MC_REFCHECK_UNREADABLE];
        failures += c.bad > 0 && !c.kinds[MC_REFCHECK_UNREADABLE];
    }
    seconds = seconds >= 0 && isfinite(seconds) ? seconds : 0;
    fprintf(to,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"md5cine\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
            "time=\"%.3f\">\n  <testsuite name=\"",
            tests, failures, errors, seconds);
    mc_xml_write_escaped(to, info->title ? info->title : "check");
    fprintf(to, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"%.3f\">\n",
            tests, failures, errors, seconds);
    fputs("    <properties>\n", to);
    if (info->reference) {
        fputs("      <property name=\"reference\" value=\"", to);
        mc_xml_write_escaped(to, info->reference);
        fputs("\"/>\n", to);
    }
    if (info->candidate) {
        fputs("      <property name=\"candidate\" value=\"", to);
        mc_xml_write_escaped(to, info->candidate);
        fputs("\"/>\n", to);
    }
    fputs("    </properties>\n", to);
    for (size_t g = 0; g < n; g++)
        testcase(to, info, groups, rg, g, cls);
    if (info->audio)
        sound_testcase(to, info->audio, cls);
    fputs("  </testsuite>\n</testsuites>\n", to);
}

/* Creates the folder path is in (mkdir -p). */
static bool make_parent(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');

    if (!slash || slash == path)
        return true;
    if ((size_t)(slash - path) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return false;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    return mc_mkdirs(dir);
}

mc_status mc_junit_write(const char *path, const mc_report_info *info, double seconds,
                         mc_error *err)
{
    mc_shot_range *groups;
    size_t n, *rg;
    mc_outfile out;
    mc_status st;

    if (!path || !info || !info->check)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "bad JUnit call");
    if (!make_parent(path))
        return mc_error_set(err, MC_ERR_IO, path, 0, 0, "cannot create its folder: %s",
                            strerror(errno));
    st = mc_report_groups(info, &groups, &n, err);
    if (st != MC_OK)
        return st;
    rg = mc_rp_row_groups(info, groups, n);
    mc_outfile_sweep(path); /* temporaries of killed runs */
    st = rg ? mc_outfile_begin(&out, path, MC_OUTFILE_STREAM, err)
            : mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (st == MC_OK) {
        write_suite(out.fp, info, groups, n, rg, seconds);
        st = mc_outfile_commit(&out, err);
    }
    free(groups);
    free(rg);
    return st;
}
