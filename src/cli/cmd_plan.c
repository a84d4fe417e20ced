/* md5cine plan SCENE (--chunks N | --chunk-frames F | --by-shot) [--align-shots] [--json]
 *                    [--fps R] [--frames A-B] [--lenient]
 *
 * The chunks a farm renders, one per machine, from the library's plan (plan.h): the same list
 * on every machine that reads the same scene. Text: one line per chunk, "INDEX FIRST-LAST shot
 * N" (or "shots N,M"), which a shell reads with `read index frames _` and hands to
 * `render --frames "$frames"`. --json: one object (see docs/commands.md, "plan"). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/json.h>
#include <md5cine/plan.h>
#include <md5cine/scene.h>

#include "args.h"
#include "cli.h"

enum { SEEN_CHUNKS = 1u, SEEN_CHUNK_FRAMES = 2u, SEEN_BY_SHOT = 4u };

typedef struct plan_opts {
    long chunks, chunk_frames;
    bool by_shot, align_shots, json, has_frames;
    int64_t first, last;
    mc_rate fps;
    mc_clock clock;
    mc_parse_opts parse;
    unsigned seen;
} plan_opts;

static bool parse_frames(void *field, const char *s)
{
    plan_opts *o = field;

    if (!mc_arg_frame_range(s, &o->first, &o->last))
        return false;
    o->has_frames = true;
    return true;
}

#define F(m) offsetof(plan_opts, m)

static const mc_arg_opt plan_options[] = {
    { .name = "--chunks", .kind = MC_ARG_INT, .offset = F(chunks), .min = 1,
      .max = MC_LIMIT_PLAN_CHUNKS, .seen_bit = SEEN_CHUNKS, .metavar = "N",
      .help = "N chunks of near-equal length (at most one chunk per frame)" },
    { .name = "--chunk-frames", .kind = MC_ARG_INT, .offset = F(chunk_frames), .min = 1,
      .max = MC_LIMIT_SCENE_FRAMES, .seen_bit = SEEN_CHUNK_FRAMES, .metavar = "F",
      .help = "chunks of F frames, the last one shorter" },
    { .name = "--by-shot", .kind = MC_ARG_FLAG, .offset = F(by_shot), .seen_bit = SEEN_BY_SHOT,
      .help = "one chunk per shot" },
    { .name = "--align-shots", .kind = MC_ARG_FLAG, .offset = F(align_shots),
      .help = "--chunks: move each boundary to the nearest shot start\n"
              "(chunks that meet merge); --chunk-frames: restart at each\n"
              "shot start, so no chunk spans a cut" },
    { .name = "--json", .kind = MC_ARG_FLAG, .offset = F(json), .help = "one JSON object" },
    { .name = "--fps", .kind = MC_ARG_CUSTOM, .offset = F(fps), .parse = mc_arg_rate,
      .expect = MC_ARG_RATE_EXPECT, .metavar = "R",
      .help = "output frame rate, as for render (default: the scene's)" },
    { .name = "--clock", .kind = MC_ARG_CHOICE, .offset = F(clock),
      .choices = (const char *const[]){ "ideal", "engine", NULL }, .metavar = "ideal|engine",
      .help = "the clock the chunks are rendered with, as for render (ideal)" },
    { .name = "--frames", .kind = MC_ARG_CUSTOM, .parse = parse_frames,
      .expect = MC_ARG_FRAMES_EXPECT, .metavar = "A-B",
      .help = "plan output frames A to B only (default: all)" },
    { .name = "--lenient", .kind = MC_ARG_FLAG, .offset = F(parse.lenient),
      .help = "accept the harmless deviations of shipped game files" },
};

static const mc_arg_spec plan_spec = {
    .command = "plan",
    .synopsis = "usage: md5cine plan SCENE (--chunks N | --chunk-frames F | --by-shot) [options]\n"
                "  prints one line per chunk: INDEX FIRST-LAST shot N (or shots N,M), the\n"
                "  frames for 'md5cine render --frames FIRST-LAST'.\n",
    .epilog = "exit status: 0 done, 2 bad input or usage\n",
    .opts = plan_options,
    .nopts = MC_ARG_COUNT(plan_options),
    .min_pos = 1,
    .max_pos = 1,
    .too_many = " (one scene per plan)",
    .seen_offset = offsetof(plan_opts, seen),
};

static void print_rate_json(mc_rate r)
{
    if (r.den == 1)
        printf("%d", r.num);
    else
        printf("%.6g,\"fpsRational\":\"%d/%d\"", (double)r.num / r.den, r.num, r.den);
}

static void print_plan(const char *scene, const plan_opts *o, mc_rate fps, int64_t count,
                       const mc_shot_range *shots, const mc_plan *p)
{
    if (o->json) {
        printf("{\"scene\":");
        mc_json_write_cstr(stdout, scene);
        printf(",\"outputFrames\":%" PRId64 ",\"fps\":", count);
        print_rate_json(fps);
        printf(",\"chunks\":[");
    }
    for (size_t i = 0; i < p->num_chunks; i++) {
        const mc_plan_chunk *c = &p->chunks[i];

        if (o->json)
            printf("%s{\"index\":%" PRId64 ",\"first\":%" PRId64 ",\"last\":%" PRId64
                   ",\"shots\":[",
                   i ? "," : "", c->index, c->first, c->last);
        else
            printf("%" PRId64 " %" PRId64 "-%" PRId64 " shot%s ", c->index, c->first, c->last,
                   c->first_shot == c->last_shot ? "" : "s");
        for (size_t s = c->first_shot; s <= c->last_shot; s++)
            printf("%s%d", s > c->first_shot ? "," : "", shots[s].number);
        printf(o->json ? "]}" : "\n");
    }
    if (o->json)
        printf("]}\n");
}

static int check_mode(const plan_opts *o)
{
    unsigned m = o->seen & (SEEN_CHUNKS | SEEN_CHUNK_FRAMES | SEEN_BY_SHOT);

    if (m == 0)
        return mc_usage_error("plan needs one of --chunks N, --chunk-frames F or --by-shot");
    if (m & (m - 1))
        return mc_usage_error("--chunks, --chunk-frames and --by-shot exclude each other");
    if (o->align_shots && o->by_shot)
        return mc_usage_error("--align-shots goes with --chunks or --chunk-frames; --by-shot "
                              "is aligned already");
    return -1;
}

static int make_plan(const char *path, const plan_opts *o, const mc_scene *sc)
{
    mc_rate fps = mc_scene_fps(sc, o->fps);
    int64_t count = mc_scene_frame_count_clock(sc, fps, o->clock);
    size_t cap = (size_t)sc->camera.num_cuts + 1, n;
    mc_shot_range *shots = calloc(cap, sizeof *shots);
    mc_plan_desc d = { 0 };
    mc_plan p;
    mc_error e;
    int rc = MC_EXIT_OK;

    if (!shots) {
        fputs("md5cine: error: out of memory\n", stderr);
        return MC_EXIT_RUNTIME;
    }
    n = mc_plan_shots(&sc->camera, fps, o->clock, count, shots, cap);
    d.mode = o->by_shot ? MC_PLAN_BY_SHOT : o->chunks ? MC_PLAN_CHUNKS : MC_PLAN_CHUNK_FRAMES;
    d.n = o->chunks ? o->chunks : o->chunk_frames;
    d.align_shots = o->align_shots;
    d.first = o->has_frames ? o->first : 0;
    d.last = o->has_frames ? o->last : count - 1;
    d.shots = shots;
    d.num_shots = n;
    if (o->has_frames && o->last >= count) {
        rc = mc_usage_error("--frames %" PRId64 "-%" PRId64 " is outside the scene's frames "
                            "0-%" PRId64, o->first, o->last, count - 1);
    } else if (mc_plan_make(&d, &p, &e) != MC_OK) {
        if (e.code == MC_ERR_NOMEM) {
            mc_diag_print(stderr, "error", &e);
            rc = MC_EXIT_RUNTIME;
        } else {
            rc = mc_usage_error("%s", e.msg);
        }
    } else {
        print_plan(path, o, fps, count, shots, &p);
        mc_plan_release(&p);
    }
    free(shots);
    return rc;
}

int mc_cmd_plan(int argc, char **argv)
{
    plan_opts o = { .parse = { .warn = mc_diag_warn, .error = mc_diag_error } };
    mc_scene sc;
    mc_error e;
    int npos, rc = mc_args_parse(&plan_spec, argc, argv, &o, &npos);

    if (rc != -1)
        return rc;
    if ((rc = check_mode(&o)) != -1)
        return rc;
    if (mc_scene_load(argv[1], &o.parse, &sc, &e) != MC_OK) {
        mc_diag_print(stderr, "error", &e);
        return mc_input_exit_code(e.code);
    }
    rc = make_plan(argv[1], &o, &sc);
    mc_scene_release(&sc);
    return rc;
}
