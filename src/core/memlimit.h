/* What a failure outside md5cine's own allocations says when the process has an address-space
 * limit (`ulimit -v`, RLIMIT_AS): a library that cannot map its code, a driver that cannot make
 * a context, an encoder that will not open. Such failures come back as the library's own error
 * (dlopen's "failed to map segment", EGL_NOT_INITIALIZED, "Generic error in an external
 * library"), never as ENOMEM; with a limit set, running out of memory is the likely cause, and
 * the message says so instead of suggesting a package or a setting. */
#ifndef MC_MEMLIMIT_H
#define MC_MEMLIMIT_H

#include <stdbool.h>
#include <stddef.h>

/* true when an address-space limit is set; *bytes (may be NULL) its size. */
bool mc_memory_limited(unsigned long long *bytes);

/* The memory this process may still take, in bytes (0 when none of these can be read), and
 * *how (may be NULL) what says so: the kernel's estimate of what can be taken without swapping
 * ("MemAvailable" of /proc/meminfo; the physical memory, _SC_PHYS_PAGES, where there is no such
 * line), or what the process's cgroup leaves under its limit ("memory.max" less "memory.current"
 * of cgroup v2) when that is less. */
unsigned long long mc_memory_available(const char **how);

/* buf holding "; memory ran out? (ulimit -v allows N MiB)" with a limit set, "" otherwise. */
const char *mc_memory_limit_note(char *buf, size_t cap);

#endif
