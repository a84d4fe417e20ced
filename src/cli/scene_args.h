/* The options of drawing a scene that `md5cine render` and `md5cine sheet` share, defined once:
 * one struct, and MC_SCENE_ARG_OPTS(base) expanding into the rows of a command's option table
 * (base: the struct's offset in the command's destination), as limit_args.h does for the
 * comparison limits. Each command adds its own options (-o, --size, ...) to its table. */
#ifndef MC_CLI_SCENE_ARGS_H
#define MC_CLI_SCENE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/render.h>
#include <md5cine/scene_renderer.h>

#include "args.h"
#include "progress.h"

typedef struct mc_scene_args {
    mc_rate fps;               /* --fps; { 0, 0 }: the scene's, else the camera's */
    int msaa;                  /* --msaa 0 or 4 (0 is off in the library too) */
    mc_shading shading;        /* --shading lit|unlit|normals */
    int no_shadows;            /* --shadows on|off: 0 on, 1 off */
    mc_gl_backend gl;          /* --gl auto|egl|osmesa */
    bool lenient;              /* --lenient */
    mc_progress_mode progress; /* --quiet: MC_PROGRESS_QUIET (render's --progress sets it too) */
} mc_scene_args;

/* --msaa: 0 or 4, into an int. */
bool mc_arg_msaa(void *field, const char *value);
/* --quiet: MC_PROGRESS_QUIET into an mc_progress_mode (value is NULL: a flag). */
bool mc_arg_quiet(void *field, const char *value);

#define MC_SCENE_OFF(base, m) ((base) + offsetof(mc_scene_args, m))

#define MC_SCENE_ARG_OPTS(base)                                                                 \
    { .name = "--fps", .kind = MC_ARG_CUSTOM, .offset = MC_SCENE_OFF(base, fps),                \
      .parse = mc_arg_rate, .expect = MC_ARG_RATE_EXPECT, .metavar = "N",                       \
      .help = "output frame rate (default: the scene's, else the camera's)" },                  \
    { .name = "--msaa", .kind = MC_ARG_CUSTOM, .offset = MC_SCENE_OFF(base, msaa),              \
      .parse = mc_arg_msaa, .expect = "0 or 4", .metavar = "0|4",                               \
      .help = "antialiasing samples (default 4)" },                                             \
    { .name = "--shading", .kind = MC_ARG_CHOICE, .offset = MC_SCENE_OFF(base, shading),        \
      .choices = (const char *const[]){ "lit", "unlit", "normals", NULL },                      \
      .metavar = "lit|unlit|normals", .help = "(default lit)" },                                \
    { .name = "--shadows", .kind = MC_ARG_CHOICE, .offset = MC_SCENE_OFF(base, no_shadows),     \
      .choices = (const char *const[]){ "on", "off", NULL }, .metavar = "on|off",               \
      .help = "Doom's stencil shadows of every actor from each light (default on)" },           \
    { .name = "--gl", .kind = MC_ARG_CHOICE, .offset = MC_SCENE_OFF(base, gl),                  \
      .choices = (const char *const[]){ "auto", "egl", "osmesa", NULL },                        \
      .metavar = "auto|egl|osmesa",                                                             \
      .help = "GL backend (auto: EGL, then OSMesa; MD5CINE_GL sets the default)" },             \
    { .name = "--lenient", .kind = MC_ARG_FLAG, .offset = MC_SCENE_OFF(base, lenient),          \
      .help = "accept the harmless deviations of shipped game files" },                         \
    { .name = "--quiet", .alias = "-q", .kind = MC_ARG_FLAG,                                    \
      .offset = MC_SCENE_OFF(base, progress), .parse = mc_arg_quiet,                            \
      .help = "no progress and no line saying what was written (warnings and\n"                 \
              "errors are still printed)" }

#endif
