/* Signal masks for the threads md5cine starts or lets a library start: a program's SIGINT and
 * SIGTERM handlers must run on its own threads, never on a GL driver's or a frame job's, while a
 * fault still reaches the thread that caused it. */
#ifndef MC_SIGNALS_H
#define MC_SIGNALS_H

#include <signal.h>

/* Blocks every signal on the calling thread but those a fault raises (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGTRAP, SIGABRT, SIGSYS), keeping the mask it had in *old; threads started meanwhile
 * inherit the blocked mask. Restore with pthread_sigmask(SIG_SETMASK, old, NULL). */
void mc_block_async_signals(sigset_t *old);

#endif
