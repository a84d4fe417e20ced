/* The address-space limit in messages (memlimit.h). */
#include <stdio.h>
#include <sys/resource.h>

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
