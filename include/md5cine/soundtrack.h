/* soundtrack: a resolved scene's sound, as Doom 3 plays a cinematic -- the frame commands of
 * the actors' model declarations, the scene's cues, mixed by the engine's mixer (mixer.h) with
 * the camera as the listener.
 *
 * Events:
 *   - a frame command `frame N COMMAND` of an actor's played anim (framecmd.h) fires at scene
 *     time start + (N - 1) / frameRate (scene.h, mc_scene_command_offset, the rule the skins
 *     drawn follow too), and for a looping anim again every (numFrames - 1) /
 *     frameRate seconds (game/anim/Anim_Blend.cpp idAnimBlend::CallFrameCommands walks the frames
 *     passed since the last tick, wrapping from the last frame to the first: the last frame's
 *     commands and the first frame's of the next cycle fire at the same moment, in that order);
 *     never before the anim starts nor after a held anim's last frame. Times are the ideal clock's
 *     (timeline.h), the sample round(t * 44100);
 *   - sound commands name a sound shader, or a `snd_*` key of the actor's entity: the scene's
 *     `key` lines, then the entityDef named like the actor's model (entitydef.h); footstep,
 *     leftfoot and rightfoot play the key snd_footstep on BODY (game/Actor.cpp, game/Misc.cpp
 *     idAnimated::Event_Footstep); a key the entity lacks plays nothing (StartSound fails);
 *   - the scene's `sound` cues (scene.h): global ones on the world's emitter, an actor's on its
 *     emitter and channel, an `origin` one on an emitter of its own.
 * Each sound starts with its shader's parameters, then the entity's s_* keys
 * (mc_entitydef_sound_parms, mc_sndshd_override_parms), the command's flags (sound_global) and a
 * cue's `volume`. Which file plays is the mixer's choice from a diversity drawn, event by event
 * in time order, from a generator seeded with the scene's seed (an entity's s_diversity >= 0
 * replaces it, as idEntity::StartSoundShader does).
 *
 * Emitters are where the actors are at each output frame: the actor's placement of its anim's
 * root joint (joint 0's translation, none when in_place). The listener is the camera's view
 * (view.h) at each output frame, with a cut between two frames of different shots.
 *
 * Files: each shader's files are read through the scene's base (vfs.h), NAME.ogg first, then
 * the name as written (snd_wavefile.cpp idWaveFile::Open), each decoded once per soundtrack. A
 * file no place holds is one warning per shader and file (through opts->warn), and silence --
 * with strict, an error at the first command or cue that plays it. A file that cannot be
 * decoded is an error naming it. */
#ifndef MC_SOUNDTRACK_H
#define MC_SOUNDTRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/mixer.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mc_scene;
struct mc_vfs;
struct mc_material_set;

typedef struct mc_soundtrack_desc {
    const struct mc_scene *scene;    /* resolved */
    mc_rate fps;                     /* output frame rate (>= 1) */
    int64_t num_frames;              /* output frames (>= 1): the track lasts as long */
    /* The scene's base as the renderer holds it (scene_materials.h mc_scene_materials's vfs
     * and set); both NULL: the soundtrack opens the scene's base itself (none when it names
     * none). */
    struct mc_vfs *vfs;
    struct mc_material_set *set;
    const mc_parse_opts *opts; /* warnings, stop flag; may be NULL */
    bool strict;               /* a missing sound file is an error */
} mc_soundtrack_desc;

/* What fires, in time order. */
typedef struct mc_soundtrack_event {
    int64_t frame;         /* the output frame it falls in */
    double time;           /* scene seconds */
    int64_t sample;        /* of the mix: round(time * 44100) */
    int actor;             /* index of the scene's actor, -1 for a global or positioned cue */
    const char *actor_name; /* its name (the scene's), NULL with actor -1 */
    const char *command;   /* the frame command's word ("rightfoot"), or "cue" */
    int anim_frame;        /* the command's frame N; 0 for a cue */
    int channel;           /* mc_sound_channel */
    const char *shader;    /* the sound shader's name as looked up */
    const char *file;      /* the file that played (the base's path: the .ogg when that is
                              what was found), NULL when none did */
    float volume;          /* dB it starts with (after the entity's and the cue's) */
    bool cut;              /* it stopped another sound on its channel */
    mc_mix_outcome outcome;
    const char *place;     /* where it comes from: the .def file or the scene file */
    int line, col;         /* there */
} mc_soundtrack_event;

struct mc_soundtrack_data;

typedef struct mc_soundtrack {
    size_t num_events;
    mc_soundtrack_event *events;
    int64_t frames; /* samples per channel of the mix: mc_mix_frame_sample(fps, num_frames) */
    float *mix;     /* 2 * frames floats (left, right) at 44.1 kHz, 16-bit scale; NULL when
                       num_events is 0 */
    int missing_files; /* files no place held (each warned once) */
    unsigned seed;     /* the scene's seed the choices came from */
    struct mc_soundtrack_data *data; /* private */
} mc_soundtrack;

/* Makes the soundtrack of desc's scene. A scene with no sound at all (no cue, no audible frame
 * command) gives num_events 0 and no mix. Errors: MC_ERR_USAGE (a bad desc), a base that cannot
 * be opened (as mc_vfs_open), a sound shader that fails to parse with strict game data, a file
 * that cannot be decoded (audio.h), a missing file with strict (MC_ERR_IO at the command or cue),
 * MC_ERR_LIMIT past MC_LIMIT_AUDIO_DECODED_BYTES, MC_ERR_NOMEM, MC_ERR_INTERRUPTED. On failure
 * *out is zeroed. */
mc_status mc_soundtrack_make(const mc_soundtrack_desc *desc, mc_soundtrack *out, mc_error *err);

/* Whether the scene has anything that could sound: a cue, or a sound or footstep frame command
 * in an actor's played anim. Needs a resolved scene. */
bool mc_soundtrack_scene_has_sound(const struct mc_scene *scene);

/* Frees everything and zeroes *st; accepts a zeroed struct. */
void mc_soundtrack_release(mc_soundtrack *st);

#ifdef __cplusplus
}
#endif

#endif
