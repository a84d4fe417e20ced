/* md5cine info --timeline's sound events (info_sound.c), private to the command line. */
#ifndef MC_CLI_INFO_SOUND_H
#define MC_CLI_INFO_SOUND_H

#include <stdbool.h>

#include <md5cine/scene.h>
#include <md5cine/soundtrack.h>

/* Every event of st (a soundtrack of sc) as lines of text, or as the JSON member
 * ,"sound":{"seed":N,"events":[...]} (nothing without a soundtrack: st NULL). */
void mc_info_print_sound(const mc_soundtrack *st, const mc_scene *sc, bool json);

#endif
