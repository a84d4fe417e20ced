/* md5cine info --timeline: where the actors' `skin` frame commands change the skin drawn, one
 * line or object each: output frame, time, actor, the command (its anim frame) and the skin
 * (none: no skin at all). The actor's own skin, before any command fires, is in its lines. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <md5cine/json.h>
#include <md5cine/timeline.h>

#include "info_skins.h"

/* The skin actor a draws with command c in effect (-1: its own); NULL for none. */
static const char *skin_of(const mc_scene_actor *a, int c)
{
    const char *name;

    if (c < 0)
        return a->skin;
    name = a->frame_commands[c].args[0].text;
    return strcmp(name, "none") == 0 ? NULL : name;
}

static bool same(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

static void print_change(const mc_scene_actor *a, int c, int64_t k, double t, bool json,
                         bool first)
{
    const char *skin = skin_of(a, c);
    char cmd[32];

    if (json) {
        printf("%s{\"frame\":%" PRId64 ",\"time\":%.6g,\"actor\":", first ? "" : ",", k, t);
        mc_json_write_cstr(stdout, a->name);
        printf(",\"animFrame\":%d,\"skin\":", a->frame_commands[c].frame);
        mc_json_write_cstr(stdout, skin);
        printf("}");
        return;
    }
    snprintf(cmd, sizeof cmd, "skin@%d", a->frame_commands[c].frame);
    printf("  %-6" PRId64 " %-10.6f %-12s %-13s %s\n", k, t, a->name, cmd, skin ? skin : "none");
}

/* Prints the changes (when print) and returns how many there are. */
static int64_t changes(const mc_scene *sc, mc_rate fps, mc_clock clock, int64_t count, bool json,
                       bool print)
{
    int64_t n = 0;

    for (int i = 0; i < sc->num_actors; i++) {
        const mc_scene_actor *a = &sc->actors[i];
        const char *drawn = a->skin;

        if (!mc_scene_actor_has_skin_commands(a))
            continue;
        for (int64_t k = 0; k < count; k++) {
            mc_timeline_sample s;
            int c;

            mc_timeline_sample_frame_clock(&sc->camera, fps, clock, k, &s);
            c = mc_scene_actor_skin_at(a, &s);
            if (same(skin_of(a, c), drawn))
                continue;
            drawn = skin_of(a, c);
            if (print)
                print_change(a, c, k, s.time, json, n == 0);
            n++;
        }
    }
    return n;
}

void mc_info_print_skins(const mc_scene *sc, mc_rate fps, mc_clock clock, int64_t count,
                         bool json)
{
    bool any = false;
    int64_t n;

    for (int i = 0; i < sc->num_actors && !any; i++)
        any = mc_scene_actor_has_skin_commands(&sc->actors[i]);
    if (!any)
        return;
    if (json) {
        printf(",\"skins\":[");
        changes(sc, fps, clock, count, true, true);
        printf("]");
        return;
    }
    n = changes(sc, fps, clock, count, false, false);
    printf("  skins: %" PRId64 " change%s by skin frame commands\n", n, n == 1 ? "" : "s");
    if (n > 0) {
        printf("  frame  time       actor        command       skin\n");
        changes(sc, fps, clock, count, false, true);
    }
}
