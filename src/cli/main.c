#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/nearest.h"
#include "render_cli.h"

#ifndef MC_VERSION
#define MC_VERSION "0.1.0"
#endif

#ifdef __SANITIZE_ADDRESS__
/* AddressSanitizer's defaults for the command in an ASan build (MC_SANITIZE), read before
 * ASAN_OPTIONS, which still overrides them. GCC 12's LeakSanitizer takes a dynamic TLS block
 * that begins 16 bytes into a page for an old glibc's (2.19 to 2.24), whose header before it
 * held its start and size; glibc 2.36 allocates such a block with malloc, ASan's, so what it
 * reads there is another chunk's bytes, and the leak check at exit scans from near address 0
 * and crashes ("Tracer caught signal 11", its log: "DTLS 26 at 0x000000000d75-..."). Whether
 * a block lands there depends on the heap when the GL driver's libraries first touch their
 * thread-locals, so any change to what is allocated before (the length of a file name was
 * enough) could make a render fail at exit. Without intercepting __tls_get_addr dynamic TLS is
 * not scanned (it is the GL driver's, whose leaks tests/lsan.supp suppresses); the leak check
 * runs whole. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
#endif

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis; /* after "md5cine " */
    const char *what;     /* one line */
} subcommand;

static const subcommand subcommands[] = {
    { "render", mc_cmd_render, "render SCENE -o OUT [options]", "render a cut scene to video or PNGs" },
    { "info", mc_cmd_info, "info FILE... [--json] [options]", "describe MD5, scene, .mtr files" },
    { "export", mc_cmd_export, "export MESH [ANIM] -o OBJ [options]",
      "one skinned pose as Wavefront OBJ" },
    { "sheet", mc_cmd_sheet, "sheet SOURCE -o PNG [options]",
      "contact sheet of a scene or video" },
    { "compare", mc_cmd_compare, "compare A B [options]", "compare frames, folders, videos" },
    { "plan", mc_cmd_plan, "plan SCENE --chunks N [options]", "chunks of a scene for a farm" },
    { "concat", mc_cmd_concat, "concat PARTS... -o OUT", "join chunk videos (stream copy)" },
    { "camera", mc_cmd_camera, "camera SCENE -o OUT.md5camera",
      "write a scene's camera block as .md5camera" },
    { "doctor", mc_cmd_doctor, "doctor [--json]", "the GL backends this machine has" },
};

/* Synopses are padded to one column; a longer one puts its line below. */
#define SYNOPSIS_COLUMN 34

static void usage(FILE *to)
{
    fprintf(to, "usage: md5cine <command> [options]\n\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
        const subcommand *c = &subcommands[i];

        if (strlen(c->synopsis) < SYNOPSIS_COLUMN)
            fprintf(to, "  md5cine %-*s %s\n", SYNOPSIS_COLUMN, c->synopsis, c->what);
        else
            fprintf(to, "  md5cine %s\n  %*s%s\n", c->synopsis, SYNOPSIS_COLUMN + 9, "", c->what);
    }
    fprintf(to, "  md5cine %-*s %s\n", SYNOPSIS_COLUMN, "--version", "print the version (md5cine "
                MC_VERSION ")");
    fprintf(to, "  md5cine %-*s %s\n", SYNOPSIS_COLUMN, "--help", "this list");
    fprintf(to, "\n'md5cine <command> --help' shows a command's options.\n"
                "Exit status: 0 done, 1 comparison differences, 2 bad input or usage,\n"
                "3 runtime failure (GL, encoder, I/O), 130 interrupted (143 on SIGTERM).\n");
}

int main(int argc, char **argv)
{
    mc_cli_address_space_setup(); /* before any thread */
    if (argc < 2) {
        usage(stderr);
        return MC_EXIT_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return MC_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("md5cine %s\n", MC_VERSION);
        return MC_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    {
        const char *names[sizeof subcommands / sizeof subcommands[0]];
        char hint[80];

        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
            names[i] = subcommands[i].name;
        fprintf(stderr, "md5cine: error: unknown command '%s'%s\n\n", argv[1],
                mc_nearest_hint(hint, sizeof hint, argv[1], strlen(argv[1]), names,
                                sizeof names / sizeof names[0]));
    }
    usage(stderr);
    return MC_EXIT_INPUT;
}
