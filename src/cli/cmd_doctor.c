/* md5cine doctor [--json]: what this machine renders with. Each GL backend built in is started
 * once, as a render would start it (4x MSAA asked for), and reported: the backend, where its
 * context lives (EGL: surfaceless or a device), GL vendor, renderer and version, the Mesa
 * version and the samples the driver gave. Pixels differ between Mesa versions, so a reference
 * made elsewhere should be compared with these facts at hand (render writes them into MP4
 * metadata too). MD5CINE_GL and LP_NUM_THREADS apply as in render. Then the frame jobs a
 * render starts by default (`jobs`). Exit 0 when some backend works (the first such is what
 * render uses by default), 3 when none does. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <md5cine/frame_jobs.h>
#include <md5cine/render.h>

#include <md5cine/json.h>

#include "args.h"
#include "cli.h"
#include "render_cli.h"

static const struct {
    mc_gl_backend kind;
    const char *name;
} backends[] = { { MC_GL_EGL, "egl" }, { MC_GL_OSMESA, "osmesa" } };

void mc_print_gl_json(FILE *to, const mc_renderer_info *info)
{
    fprintf(to, "\"backend\":");
    mc_json_write_cstr(to, info->backend);
    fprintf(to, ",\"device\":");
    mc_json_write_cstr(to, info->gl_device);
    fprintf(to, ",\"vendor\":");
    mc_json_write_cstr(to, info->gl_vendor);
    fprintf(to, ",\"renderer\":");
    mc_json_write_cstr(to, info->gl_renderer);
    fprintf(to, ",\"version\":");
    mc_json_write_cstr(to, info->gl_version);
    fprintf(to, ",\"mesa\":");
    mc_json_write_cstr(to, info->mesa_version);
    fprintf(to, ",\"samples\":%d", info->samples);
}

static void print_one(const char *name, const mc_renderer_info *info, const mc_error *err,
                      bool json, bool first)
{
    if (json) {
        if (!info) {
            printf("%s{\"backend\":", first ? "" : ",");
            mc_json_write_cstr(stdout, name);
            printf(",\"ok\":false,\"error\":");
            mc_json_write_cstr(stdout, err->msg);
            printf("}");
            return;
        }
        printf("%s{\"ok\":true,", first ? "" : ",");
        mc_print_gl_json(stdout, info);
        printf("}");
        return;
    }
    if (!info) {
        printf("%-7s unavailable: %s\n", name, err->msg);
        return;
    }
    printf("%-7s %s\n", name, info->gl_device);
    printf("        vendor   %s\n        renderer %s\n        version  %s\n", info->gl_vendor,
           info->gl_renderer, info->gl_version);
    printf("        mesa     %s\n        samples  %d (4 asked for)\n",
           info->mesa_version[0] ? info->mesa_version : "-", info->samples);
}

typedef struct doctor_args {
    bool json;
} doctor_args;

static const mc_arg_opt doctor_opts[] = {
    { .name = "--json", .kind = MC_ARG_FLAG, .offset = offsetof(doctor_args, json),
      .help = "one JSON object: {\"backends\":[...]}" },
};

static const mc_arg_spec doctor_spec = {
    .command = "doctor",
    .synopsis = "usage: md5cine doctor [--json]\n"
                "  the GL backends this build has, and what each gives on this machine\n",
    .opts = doctor_opts,
    .nopts = MC_ARG_COUNT(doctor_opts),
};

/* The cores online and the frame jobs `render` starts on them unless --jobs says otherwise, and
 * why: the cores' count (mc_frame_jobs_auto), fewer where the memory available does not hold
 * them (mc_frame_jobs_fit, with the estimates of a 1280x720 render of an empty scene at 4
 * samples: a scene's meshes and lights and a larger size need more, and a render counts its
 * own; it also takes no more jobs than frames); in JSON the end of the object. */
static void print_jobs(bool json)
{
    const mc_scene empty = { 0 };
    const char *how = "";
    mc_address_need need;
    unsigned long long mem = mc_cli_memory_for_jobs(&how), first;
    bool by_memory;
    int n = mc_frame_jobs_cores(), cores_jobs = mc_frame_jobs_auto(n), jobs;

    mc_cli_render_need(&empty, 1280, 720, 4, &need);
    first = need.gl + need.output + need.frame;
    jobs = mc_frame_jobs_fit(n, mem, first, need.job, &by_memory);
    if (json) {
        printf("],\"cores\":%d,\"jobs\":%d,\"jobs_for_cores\":%d,\"memory_available\":%llu,"
               "\"first_job_bytes\":%llu,\"job_bytes\":%llu}\n",
               n, jobs, cores_jobs, mem, first, need.job);
        return;
    }
    printf("jobs    %d frame%s at a time by default on %d core%s (render --jobs auto; "
           "--jobs N)\n",
           jobs, jobs == 1 ? "" : "s", n, n == 1 ? "" : "s");
    printf("        why: %d for %d core%s (1 up to 3 cores, else half, at most %d)", cores_jobs, n,
           n == 1 ? "" : "s", MC_FRAME_JOBS_MAX);
    if (mem)
        printf("; %llu MiB available (%s), a 1280x720 render about %llu MiB and %llu MiB for "
               "each more job: %s\n",
               mem >> 20, how, (first + (1ull << 20) - 1) >> 20,
               (need.job + (1ull << 20) - 1) >> 20, by_memory ? "memory holds fewer" : "memory holds them");
    else
        printf("; the memory available is unknown\n");
}

int mc_cmd_doctor(int argc, char **argv)
{
    doctor_args a = { 0 };
    bool any = false;
    int npos;
    int rc = mc_args_parse(&doctor_spec, argc, argv, &a, &npos);
    const bool json = a.json;

    if (rc != -1)
        return rc;
    if (json)
        printf("{\"backends\":[");
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
        mc_renderer_desc d = { .width = 16, .height = 16, .msaa = MC_MSAA_DEFAULT,
                               .backend = backends[b].kind };
        mc_renderer_info info;
        mc_renderer *r = NULL;
        mc_error err;

        if (mc_renderer_create(&d, &r, &err) != MC_OK) {
            print_one(backends[b].name, NULL, &err, json, b == 0);
            continue;
        }
        mc_renderer_get_info(r, &info);
        print_one(backends[b].name, &info, NULL, json, b == 0);
        mc_renderer_release(r);
        any = true;
    }
    print_jobs(json);
    return any ? MC_EXIT_OK : MC_EXIT_RUNTIME;
}
