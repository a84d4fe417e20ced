/* md5cine info --timeline: the scene's sound events (soundtrack.h), one line or object each:
 * output frame, time, actor, command or cue, channel, shader, the file chosen, its volume,
 * whether it cut another sound, and what became of it. */
#include <inttypes.h>
#include <stdio.h>

#include <md5cine/json.h>
#include <md5cine/mixer.h>

#include "info_sound.h"

static const char *actor_name(const mc_scene *sc, const mc_soundtrack_event *e)
{
    return e->actor >= 0 && e->actor < sc->num_actors ? sc->actors[e->actor].name : NULL;
}

static void print_json(const mc_soundtrack *st, const mc_scene *sc)
{
    printf(",\"sound\":{\"seed\":%u,\"events\":[", sc->seed);
    for (size_t i = 0; i < st->num_events; i++) {
        const mc_soundtrack_event *e = &st->events[i];

        printf("%s{\"frame\":%" PRId64 ",\"time\":%.6f,\"sample\":%" PRId64 ",\"actor\":",
               i ? "," : "", e->frame, e->time, e->sample);
        mc_json_write_cstr(stdout, actor_name(sc, e));
        printf(",\"command\":");
        mc_json_write_cstr(stdout, e->command);
        printf(",\"animFrame\":%d,\"channel\":", e->anim_frame);
        mc_json_write_cstr(stdout, mc_scene_channel_word(e->channel));
        printf(",\"shader\":");
        mc_json_write_cstr(stdout, e->shader);
        printf(",\"file\":");
        mc_json_write_cstr(stdout, e->file);
        printf(",\"volume\":");
        mc_json_write_float(stdout, e->volume);
        printf(",\"cut\":%s,\"outcome\":\"%s\"}", e->cut ? "true" : "false",
               mc_mix_outcome_word(e->outcome));
    }
    printf("]}");
}

static void print_text(const mc_soundtrack *st, const mc_scene *sc)
{
    printf("  sound: %zu event%s, seed %u\n", st->num_events, st->num_events == 1 ? "" : "s",
           sc->seed);
    if (!st->num_events)
        return;
    printf("  frame  time       actor        command       channel  shader               "
           "file                          volume  cut\n");
    for (size_t i = 0; i < st->num_events; i++) {
        const mc_soundtrack_event *e = &st->events[i];
        const char *actor = actor_name(sc, e);
        char cmd[48];

        if (e->anim_frame > 0)
            snprintf(cmd, sizeof cmd, "%s@%d", e->command, e->anim_frame);
        else
            snprintf(cmd, sizeof cmd, "%s", e->command);
        printf("  %-6" PRId64 " %-10.6f %-12s %-13s %-8s %-20s %-29s %-7g %s%s%s\n", e->frame,
               e->time, actor ? actor : "-", cmd, mc_scene_channel_word(e->channel), e->shader,
               e->file ? e->file : "-", (double)e->volume, e->cut ? "cut" : "-",
               e->outcome == MC_MIX_PLAYED ? "" : " ",
               e->outcome == MC_MIX_PLAYED ? "" : mc_mix_outcome_word(e->outcome));
    }
}

void mc_info_print_sound(const mc_soundtrack *st, const mc_scene *sc, bool json)
{
    if (!st)
        return;
    if (json)
        print_json(st, sc);
    else
        print_text(st, sc);
}
