/* See ffmpeg_log.h. */
#include "video/ffmpeg_log.h"

#include <libavutil/log.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local const mc_ffmpeg_log_scope *current; /* this thread's innermost scope */
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void route(void *avcl, int level, const char *fmt, va_list args)
{
    const mc_ffmpeg_log_scope *sc = current;
    char line[1024];
    int prefix = 1;

    if (!sc) {
        av_log_default_callback(avcl, level, fmt, args);
        return;
    }
    if (!sc->fn || level > AV_LOG_WARNING)
        return;
    av_log_format_line2(avcl, level, fmt, args, line, (int)sizeof line, &prefix);
    sc->fn(sc->user, level <= AV_LOG_ERROR ? MC_LOG_ERROR : MC_LOG_WARNING, line);
}

static void install(void)
{
    av_log_set_callback(route);
}

void mc_ffmpeg_log_enter(mc_ffmpeg_log_scope *sc, mc_log_fn fn, void *user)
{
    pthread_once(&installed, install);
    sc->fn = fn;
    sc->user = user;
    sc->outer = current;
    current = sc;
}

void mc_ffmpeg_log_leave(mc_ffmpeg_log_scope *sc)
{
    current = sc->outer;
}
