/* Rendering under an address-space limit (`ulimit -v`, RLIMIT_AS): md5cine checks that the
 * render fits before the GL driver may find out that it does not. Mesa's llvmpipe and LLVM do
 * not all survive a failed allocation (a NULL dereferenced, std::bad_alloc thrown through C,
 * "LLVM ERROR: Unable to allocate section memory"), so running out inside them is a signal,
 * not an error md5cine could report. The estimates below are upper bounds measured on llvmpipe
 * (Mesa 22.3, LLVM 15, x264) with margin; docs/hardening.md, "Memory", states what they
 * promise.
 *
 * Nothing here is library code: only the command line decides to refuse a render, and only it
 * sets malloc's process-wide arena count. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "core/memlimit.h"
#include "render_cli.h"

#define MIB (1024ull * 1024ull)

/* The limit and the address space in use now (VmSize), in bytes. False when there is no limit
 * or the space in use cannot be read (then nothing is checked). */
static bool address_space(unsigned long long *limit, unsigned long long *used)
{
    unsigned long long pages = 0;
    long page = sysconf(_SC_PAGESIZE);
    FILE *f;
    int n;

    if (!mc_memory_limited(limit) || page <= 0)
        return false;
    f = fopen("/proc/self/statm", "r");
    if (!f)
        return false;
    n = fscanf(f, "%llu", &pages);
    fclose(f);
    if (n != 1)
        return false;
    *used = pages * (unsigned long long)page;
    return true;
}

void mc_cli_address_space_setup(void)
{
    /* glibc reserves 64 MiB of address space for each thread's malloc arena (8 per core):
     * under a limit that reserve, not memory, is what runs out first (10 threads of llvmpipe
     * and the encoder took 640 MiB of a 1.5 GiB limit). One arena costs no address space. */
    if (mc_memory_limited(NULL))
        mallopt(M_ARENA_MAX, 1);
}

/* llvmpipe's threads (LP_NUM_THREADS, set by render before the context exists). */
static unsigned long long raster_threads(void)
{
    const char *s = getenv("LP_NUM_THREADS");
    long n = s ? strtol(s, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 32 ? 32 : (unsigned long long)n;
}

/* Each thread's stack is RLIMIT_STACK (glibc's default for a thread), 8 MiB if unlimited. */
static unsigned long long thread_stack(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur < 8 * MIB)
        return 8 * MIB;
    return (unsigned long long)rl.rlim_cur;
}

void mc_cli_render_need(const mc_scene *s, int width, int height, int samples,
                        mc_address_need *need)
{
    unsigned long long px = (unsigned long long)width * (unsigned long long)height;
    unsigned long long tris = 0, draws = 0;
    unsigned long long lights = s->num_lights > 0 ? (unsigned long long)s->num_lights : 2;

    if (samples < 1)
        samples = 1;
    for (int a = 0; a < s->num_actors; a++) {
        const mc_mesh *m = &s->actors[a].mesh;

        for (int i = 0; i < m->num_meshes; i++)
            tris += (unsigned long long)m->meshes[i].num_tris;
        draws += (unsigned long long)m->num_meshes;
    }
    /* The driver: libLLVM, the DRI driver and what they link (measured 275-311 MiB with 4
     * raster threads), the raster threads' stacks, colour and depth-stencil buffers (resolved
     * and multisampled) and the skinning buffers. */
    need->gl = 256 * MIB + raster_threads() * thread_stack() +
               px * (unsigned long long)samples * 16 + px * 16;
    /* The encoder and the pipeline: 8 threads' stacks (x264's 2 frame threads and what it
     * starts with them, the pipeline's and the sinks': 9 beside llvmpipe's, the main one
     * included) and frames (measured 38 MiB at 320x240, 73 MiB at 1280x720, 122 MiB at
     * 1920x1080). */
    need->output = 32 * MIB + px * 48 + 8 * thread_stack();
    /* One frame: what llvmpipe bins and the buffers it copies while the frame is in flight,
     * mostly the shadow volumes of every light (measured 41-716 MiB: 72k-2.2M triangles,
     * 1-8 lights; 1000 submeshes cost 16 KiB a draw). */
    need->frame = 32 * MIB + lights * 16 * MIB + tris * (128 + 96 * lights) +
                  draws * (1 + lights) * 16 * 1024 + px * (unsigned long long)samples * 8;
    /* Another frame job: its context (what the driver takes beyond the libraries it loads
     * once), its worker's stack and the frame it draws. */
    need->job = need->gl - 256 * MIB + thread_stack() + need->frame;
}

bool mc_cli_address_fits(unsigned long long need)
{
    unsigned long long limit, used;

    return !address_space(&limit, &used) || (used < limit && limit - used >= need);
}

unsigned long long mc_cli_memory_for_jobs(const char **how)
{
    unsigned long long limit, used, bytes = mc_memory_available(how);

    if (address_space(&limit, &used)) {
        unsigned long long left = used < limit ? limit - used : 1; /* 1: fits no second job */

        if (!bytes || left < bytes) {
            bytes = left;
            if (how)
                *how = "the address-space limit (ulimit -v)";
        }
    }
    return bytes;
}

int mc_cli_address_check(const char *what, unsigned long long need)
{
    unsigned long long limit = 0, used = 0;

    if (mc_cli_address_fits(need) || !address_space(&limit, &used))
        return -1;
    fprintf(stderr,
            "md5cine: error: out of memory: the address-space limit (ulimit -v) of %llu MiB "
            "leaves %llu MiB, and %s needs about %llu MiB\n",
            limit / MIB, used < limit ? (limit - used) / MIB : 0, what, (need + MIB - 1) / MIB);
    return MC_EXIT_RUNTIME;
}
