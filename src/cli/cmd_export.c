#include "cli.h"

int mc_cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return mc_usage_error("'export' is not available in this build");
}
