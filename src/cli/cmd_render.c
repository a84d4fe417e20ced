#include "cli.h"

int mc_cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return mc_usage_error("'render' is not available in this build");
}
