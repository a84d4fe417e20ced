#include "cli.h"

int mc_cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return mc_usage_error("'info' is not available in this build");
}
