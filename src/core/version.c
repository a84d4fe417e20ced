#include <md5cine/version.h>

const char *mc_version(void)
{
    return MC_VERSION_STRING;
}
