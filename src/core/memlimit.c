/* The address-space limit in messages, and the memory available (memlimit.h). */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "memlimit.h"

bool mc_memory_limited(unsigned long long *bytes)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return false;
    if (bytes)
        *bytes = (unsigned long long)rl.rlim_cur;
    return true;
}

const char *mc_memory_limit_note(char *buf, size_t cap)
{
    unsigned long long bytes;

    if (cap == 0)
        return "";
    buf[0] = '\0';
    if (mc_memory_limited(&bytes))
        snprintf(buf, cap, "; memory ran out? (ulimit -v allows %llu MiB)", bytes >> 20);
    return buf;
}

/* A number alone on the first line of the file at path; false for "max" or anything else. */
static bool read_number(const char *path, unsigned long long *n)
{
    FILE *f = fopen(path, "r");
    char tail[8] = "";
    int got;

    if (!f)
        return false;
    got = fscanf(f, "%llu%7[^0-9]", n, tail);
    fclose(f);
    return got >= 1 && (tail[0] == '\0' || tail[0] == '\n');
}

/* What the process's cgroup (v2: the "0::PATH" line of /proc/self/cgroup) leaves under its
 * memory.max; false when it has no limit or it cannot be read. */
static bool cgroup_left(unsigned long long *left)
{
    char line[4096], path[4200];
    unsigned long long max, cur;
    bool found = false;
    FILE *f = fopen("/proc/self/cgroup", "r");

    if (!f)
        return false;
    while (!found && fgets(line, sizeof line, f))
        found = strncmp(line, "0::", 3) == 0;
    fclose(f);
    if (!found)
        return false;
    line[strcspn(line, "\n")] = '\0';
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max",
             strcmp(line + 3, "/") ? line + 3 : "");
    if (!read_number(path, &max))
        return false;
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.current",
             strcmp(line + 3, "/") ? line + 3 : "");
    if (!read_number(path, &cur))
        cur = 0;
    *left = cur < max ? max - cur : 0;
    return true;
}

unsigned long long mc_memory_available(const char **how)
{
    unsigned long long bytes = 0, left;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    char line[256];
    const char *said = "";
    FILE *f = fopen("/proc/meminfo", "r");

    while (f && !bytes && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &bytes) == 1)
            said = "MemAvailable";
    if (f)
        fclose(f);
    bytes *= 1024;
    if (!bytes && pages > 0 && page > 0) {
        bytes = (unsigned long long)pages * (unsigned long long)page;
        said = "the physical memory";
    }
    if (cgroup_left(&left) && (!bytes || left < bytes)) {
        bytes = left;
        said = "the cgroup's memory.max";
    }
    if (how)
        *how = said;
    return bytes;
}
