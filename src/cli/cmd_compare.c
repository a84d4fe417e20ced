#include "cli.h"

int mc_cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return mc_usage_error("'compare' is not available in this build");
}
