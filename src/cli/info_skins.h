/* md5cine info --timeline's changes of skin (info_skins.c), private to the command line. */
#ifndef MC_CLI_INFO_SKINS_H
#define MC_CLI_INFO_SKINS_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/scene.h>

/* Every output frame (count of them at fps, on clock) at which an actor's skin changes because
 * a `skin` frame command fired (scene.h mc_scene_actor_skin_at, as the renderer draws it), as
 * lines of text or as the JSON member ,"skins":[...]; nothing when no actor plays a skin
 * command. */
void mc_info_print_skins(const mc_scene *sc, mc_rate fps, mc_clock clock, int64_t count,
                         bool json);

#endif
