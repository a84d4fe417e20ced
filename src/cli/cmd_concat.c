/* md5cine concat PARTS... -o OUT: joins chunk videos (render --frames A-B) into one by stream
 * copy, through the library's mc_concat (chunk.h): parts in any order, checked to be chunks of
 * the same scene, rate and settings that cover every frame once, before the output exists.
 *
 * Interrupts: SIGINT and SIGTERM stop the copy at the next packet; the temporary output is
 * removed and the exit status is 128 + the signal's number, as for render. */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <md5cine/chunk.h>
#include <md5cine/scene.h>
#include <md5cine/soundtrack.h>

#include "args.h"
#include "cli.h"

/* Set by the handler to the signal that asked concat to stop; read between packets. A handler
 * may store nothing but a volatile sig_atomic_t. */
static volatile sig_atomic_t g_concat_signal;

static void on_signal(int sig)
{
    g_concat_signal = sig;
}

typedef struct concat_opts {
    const char *out;
    bool quiet;
    const char *scene; /* --scene: its sound mixed over the whole timeline into the output */
    int audio_rate;    /* --audio-rate N: the track's rate; 0: 48000 */
    bool lenient;      /* --lenient: the scene's files read as render --lenient reads them */
} concat_opts;

static const mc_arg_opt concat_options[] = {
    { .name = "--output", .alias = "-o", .kind = MC_ARG_STRING,
      .offset = offsetof(concat_opts, out), .metavar = "OUT",
      .help = "the joined video (.mp4, .mkv or .mov)" },
    { .name = "--scene", .kind = MC_ARG_STRING, .offset = offsetof(concat_opts, scene),
      .metavar = "SCENE",
      .help = "the parts' scene: its sound, mixed once over the whole\n"
              "timeline, becomes the joined video's AAC track" },
    { .name = "--audio-rate", .kind = MC_ARG_INT, .offset = offsetof(concat_opts, audio_rate),
      .min = 8000, .max = 96000, .metavar = "N",
      .help = "the track's rate with --scene (default 48000)" },
    { .name = "--lenient", .kind = MC_ARG_FLAG, .offset = offsetof(concat_opts, lenient),
      .help = "with --scene: accept the harmless deviations of shipped\n"
              "game files (as the parts were rendered)" },
    { .name = "--quiet", .alias = "-q", .kind = MC_ARG_FLAG,
      .offset = offsetof(concat_opts, quiet), .help = "say nothing when it worked" },
};

static const mc_arg_spec concat_spec = {
    .command = "concat",
    .synopsis = "usage: md5cine concat PARTS... -o OUT\n"
                "  joins chunk videos of one scene (render --frames A-B) without re-encoding;\n"
                "  the parts may come in any order and must cover every frame once.\n",
    .epilog = "exit status: 0 done, 2 parts that do not join (other scene or settings, missing\n"
              "or overlapping frames, not an md5cine chunk), 3 runtime failure, 130 interrupted\n"
              "(SIGINT), 143 (SIGTERM)\n",
    .opts = concat_options,
    .nopts = MC_ARG_COUNT(concat_options),
    .min_pos = 1,
    .max_pos = -1,
    .too_few = "concat needs the parts to join",
};

/* --scene: the scene (the parts' own, by its identity) mixed over the whole timeline at the
 * parts' rate into *st; *d's audio then names the mix (none for a scene without sound). -1 or
 * the exit code. */
static int scene_sound(const concat_opts *o, const char *part, mc_scene *scene,
                       mc_soundtrack *st, mc_concat_desc *d)
{
    mc_source_cache warned = { 0 };
    mc_parse_opts popts = { .lenient = o->lenient, .warn = mc_diag_warn, .warn_user = &warned,
                            .stop = &g_concat_signal, .error = mc_diag_error,
                            .error_user = &warned };
    char id[MC_CHUNK_ID_LEN + 1];
    mc_chunk_info info;
    mc_soundtrack_desc sd = { 0 };
    mc_error e;
    mc_status s = mc_chunk_probe(part, &info, &e);

    if (s == MC_OK)
        s = mc_scene_load(o->scene, &popts, scene, &e);
    if (s == MC_OK)
        s = mc_chunk_scene_id(scene, id, &e);
    if (s == MC_OK && strcmp(id, info.scene) != 0)
        s = mc_error_set(&e, MC_ERR_MISMATCH, o->scene, 0, 0,
                         "'%s' is not the scene of the parts (its identity differs from "
                         "'%s''s)",
                         o->scene, part);
    sd.scene = scene;
    sd.fps = info.fps;
    sd.num_frames = info.frames;
    sd.opts = &popts;
    if (s == MC_OK && mc_soundtrack_scene_has_sound(scene))
        s = mc_soundtrack_make(&sd, st, &e);
    mc_source_cache_release(&warned);
    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &e);
        return s == MC_ERR_NOMEM ? mc_exit_code(s) : MC_EXIT_INPUT;
    }
    d->audio.mix = st->mix;
    d->audio.frames = st->mix ? st->frames : 0;
    d->audio.rate = o->audio_rate;
    return -1;
}

int mc_cmd_concat(int argc, char **argv)
{
    mc_scene scene = { 0 };
    mc_soundtrack st = { 0 };
    concat_opts o = { 0 };
    mc_concat_desc d = { 0 };
    mc_concat_result res;
    struct sigaction sa;
    mc_error e;
    int npos, rc = mc_args_parse(&concat_spec, argc, argv, &o, &npos);

    if (rc != -1)
        return rc;
    if (!o.out)
        return mc_usage_error("concat needs -o OUT, the joined video");
    mc_guard g = { 0 };

    for (int i = 1; i <= npos; i++)
        mc_guard_add(&g, argv[i]);
    rc = mc_guard_output(&g, "-o", o.out);
    mc_guard_release(&g);
    if (rc != -1)
        return rc;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    d.parts = (const char *const *)(argv + 1);
    d.num_parts = (size_t)npos;
    d.output = o.out;
    d.stop = &g_concat_signal;
    if (o.scene && (rc = scene_sound(&o, argv[1], &scene, &st, &d)) != -1) {
        mc_soundtrack_release(&st);
        mc_scene_release(&scene);
        return rc;
    }
    rc = mc_concat(&d, &res, &e) == MC_OK ? -1 : 0;
    mc_soundtrack_release(&st);
    mc_scene_release(&scene);
    if (rc != -1) {
        if (e.code == MC_ERR_INTERRUPTED && g_concat_signal) {
            fprintf(stderr, "md5cine: interrupted, '%s' was not written\n", o.out);
            return 128 + g_concat_signal;
        }
        mc_diag_print(stderr, "error", &e);
        fprintf(stderr, "md5cine: no output written: '%s' was not created\n", o.out);
        return mc_exit_code(e.code);
    }
    if (!o.quiet)
        mc_cli_wrote(o.out, "%lld frames from %d part%s, %zu chapter%s", (long long)res.frames,
                     npos, npos == 1 ? "" : "s", res.chapters, res.chapters == 1 ? "" : "s");
    return MC_EXIT_OK;
}
