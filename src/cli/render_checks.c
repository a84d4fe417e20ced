/* md5cine render: what the command checks before the run writes anything -- outputs against
 * inputs (outguard.c), the address space against the estimates (address_space.c) -- and the
 * frame jobs it asks for, with llvmpipe's threads for them (a process-wide setting). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/frame_jobs.h>

#include "cli.h"
#include "render_cli.h"

/* The PNG files of the pattern's folder that a frame would replace (of --frames, else of any
 * number: the scene's length is known only once its renderer is made): each checked. */
static int check_png_names(const mc_render_opts *o, const mc_guard *g)
{
    const mc_png_pattern *p = &o->target.pattern;
    char dir[MC_PATH_CAP], path[MC_PATH_CAP], want[MC_PATH_CAP];
    const char *base = strrchr(p->prefix, '/');
    size_t nbase;
    DIR *d;
    struct dirent *de;
    int rc = -1;

    base = base ? base + 1 : p->prefix;
    nbase = strlen(base);
    mc_png_pattern_dir(p, dir, sizeof dir);
    d = opendir(dir[0] ? dir : ".");
    if (!d)
        return -1; /* no folder yet: nothing in it to replace */
    while (rc == -1 && (de = readdir(d)) != NULL) {
        const char *num = de->d_name + nbase;
        char *end;
        long long k;

        if (strncmp(de->d_name, base, nbase) != 0 || *num < '0' || *num > '9')
            continue;
        errno = 0;
        k = strtoll(num, &end, 10);
        if (errno || strcmp(end, p->suffix) != 0 ||
            (o->has_frames && (k < o->first || k > o->last)))
            continue;
        if (strlen(dir) + strlen(de->d_name) >= sizeof path)
            continue; /* longer than any name the pattern makes */
        memcpy(path, dir, strlen(dir) + 1);
        strcat(path, de->d_name);
        if (mc_png_pattern_format(p, k, want, sizeof want) && strcmp(want, path) == 0)
            rc = mc_guard_output(g, "-o", path);
    }
    closedir(d);
    return rc;
}

/* No output replaces a file the scene read, the reference or the mask, and none lies inside a
 * reference folder: checked before anything is written, once the scene is loaded and again
 * once the renderers have read the base's declarations and their images (run). */
int mc_render_check_outputs(const mc_render_opts *o, const mc_scene *s,
                            const mc_render_run_desc *d, const mc_render_run *run)
{
    char diff[MC_PATH_CAP], dir[MC_PATH_CAP];
    mc_guard g = { 0 };
    int rc = -1;

    mc_guard_add_scene(&g, s);
    for (int i = 0; run && i < mc_render_run_input_count(run); i++)
        mc_guard_add(&g, mc_render_run_input(run, i));
    mc_guard_add(&g, o->reference);
    mc_guard_add(&g, o->lim.mask);
    if (o->out_kind == MC_OUT_VIDEO) {
        rc = mc_guard_output(&g, "-o", o->out);
    } else if (o->out_kind == MC_OUT_PNG) {
        mc_png_pattern_dir(&o->target.pattern, dir, sizeof dir);
        rc = mc_guard_output(&g, "-o", dir[0] ? dir : ".");
        if (rc == -1)
            rc = check_png_names(o, &g);
    }
    if (rc == -1 && o->reference) {
        mc_render_run_diff_dir(d, diff, sizeof diff);
        rc = mc_guard_output(&g, "--diff", diff);
    }
    if (rc == -1)
        rc = mc_guard_output(&g, "--report", o->report_dir);
    if (rc == -1)
        rc = mc_guard_output(&g, "--junit", o->junit);
    mc_guard_release(&g);
    return rc;
}

/* llvmpipe rasterizes on LP_NUM_THREADS threads (Mesa's default: one per core), which share the
 * cores with the encoder's threads and the PNG writers. Twice as many raster threads as cores
 * keeps the cores busier: the demo at 720p to MP4 on 2 cores takes about 5 % less wall time
 * with 4 than with 2 (6 and 8 are no better), with identical pixels (llvmpipe's output does not
 * depend on its thread count). The frame jobs' contexts share one display, so one screen and
 * its one set of raster threads: the count is the process's, whatever the job count (it was
 * once divided among the jobs, which left 16 jobs on 2 cores one raster thread for all their
 * frames, and a SIGTERM waiting 7-24 s for the frames queued on it). Set before the first
 * context, which reads it, and before any thread starts; the caller keeps a value the user
 * set. */
static void default_raster_threads(void)
{
    long cores = mc_frame_jobs_cores();
    char n[24];

    cores = cores > 8 ? 8 : cores; /* llvmpipe takes at most 16 */
    snprintf(n, sizeof n, "%ld", cores * 2);
    setenv("LP_NUM_THREADS", n, 1);
}

/* What rendering with jobs frame jobs needs (before the GL context: the driver, the outputs
 * and each job's frame). */
static unsigned long long jobs_need(const mc_address_need *need, int jobs)
{
    return need->gl + need->output + need->frame + (unsigned long long)(jobs - 1) * need->job;
}

/* Half of side s for --quality draft: an even number, at least the smallest side. */
static int draft_side(int s)
{
    int half = s / 2 / 2 * 2;

    return half < MC_LIMIT_RENDER_MIN_SIDE ? MC_LIMIT_RENDER_MIN_SIDE : half;
}

void mc_render_asked_size(const mc_render_opts *o, const mc_scene *s, int *w, int *h)
{
    *w = o->width ? o->width : s->width ? s->width : 1280;
    *h = o->height ? o->height : s->height ? s->height : 720;
    if (o->quality == MC_QUALITY_DRAFT && !o->width) {
        *w = draft_side(*w);
        *h = draft_side(*h);
    }
}

/* The number of frame jobs: --jobs, or mc_frame_jobs_auto of the cores shrunk to what fits
 * under an address-space limit; never more than the frames to render. Then llvmpipe's threads
 * for that many contexts. Before any thread starts (setenv). */
int mc_render_settle_jobs(const mc_render_opts *o, const mc_scene *s)
{
    int64_t frames = mc_scene_frame_count_clock(s, mc_scene_fps(s, o->view.fps), o->clock);
    int jobs = o->jobs ? o->jobs : mc_frame_jobs_auto(mc_frame_jobs_cores());
    bool user_threads = getenv("LP_NUM_THREADS") != NULL;

    if (o->has_frames && o->first <= o->last && o->last < frames)
        frames = o->last - o->first + 1;
    if (frames >= 1 && jobs > frames)
        jobs = (int)frames;
    if (!user_threads)
        default_raster_threads(); /* the estimate below counts these threads */
    if (!o->jobs) { /* within the memory available (physical, cgroup, ulimit -v) */
        mc_address_need need;
        int w, h, fit;

        mc_render_asked_size(o, s, &w, &h);
        mc_cli_render_need(s, w, h, o->view.msaa, &need);
        fit = mc_frame_jobs_fit(mc_frame_jobs_cores(), mc_cli_memory_for_jobs(NULL),
                                jobs_need(&need, 1), need.job, NULL);
        if (fit < jobs)
            jobs = fit;
    }
    return jobs;
}

/* Under `ulimit -v`: refuses a render whose estimate does not fit before the GL context is made
 * (run NULL: the driver, the outputs and one frame) or, once they exist, before the first
 * frame (run given). The size is the one asked for until the renderer settles it. */
int mc_render_check_address(const mc_render_opts *o, const mc_scene *s, int jobs,
                            const mc_render_run *run)
{
    mc_address_need need;
    char what[64];
    int w, h;

    if (run) {
        mc_render_run_info ri;

        mc_render_run_get_info(run, &ri);
        mc_cli_render_need(s, ri.width, ri.height, ri.gl.samples, &need);
        snprintf(what, sizeof what, ri.jobs == 1 ? "drawing a frame" : "drawing %d frames",
                 ri.jobs);
        return mc_cli_address_check(what, need.frame * (unsigned long long)ri.jobs);
    }
    mc_render_asked_size(o, s, &w, &h);
    mc_cli_render_need(s, w, h, o->view.msaa, &need);
    snprintf(what, sizeof what,
             jobs == 1 ? "rendering this scene" : "rendering this scene with %d jobs", jobs);
    return mc_cli_address_check(what, jobs_need(&need, jobs));
}

