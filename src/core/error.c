#include <md5cine/error.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_text[] = {
#define MC_X_TEXT(name, text) text,
    MC_STATUS_LIST(MC_X_TEXT)
#undef MC_X_TEXT
};

static const char *const status_names[] = {
#define MC_X_NAME(name, text) #name,
    MC_STATUS_LIST(MC_X_NAME)
#undef MC_X_NAME
};

#define STATUS_COUNT (sizeof(status_text) / sizeof(status_text[0]))

const char *mc_status_str(mc_status s)
{
    return (unsigned)s < STATUS_COUNT ? status_text[s] : "unknown status";
}

const char *mc_status_name(mc_status s)
{
    return (unsigned)s < STATUS_COUNT ? status_names[s] : "MC_ERR_UNKNOWN";
}

mc_status mc_error_set(mc_error *err, mc_status code, const char *file, int line, int col,
                       const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    err->source[0] = '\0';
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}
