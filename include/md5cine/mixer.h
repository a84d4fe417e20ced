/* The mix of a cut scene's sounds: Doom 3's software mixer, computed in float, sample-exact and
 * reproducible.
 *
 * The reference is the original id release's software mixer (snd_world.cpp
 * idSoundWorldLocal::MixLoop, AddChannelContribution, CalcEars; snd_emitter.cpp
 * idSoundEmitterLocal::StartSound, StopSound, CheckForCompletion and
 * idSoundChannel::GatherChannelSamples), with the engine's default settings (s_* cvars of
 * snd_system.cpp, stereo), not dhewm3's OpenAL path, which positions sources in OpenAL and
 * scales every gain by 0.333. docs/sound-mixer.md has every formula with its source, and the
 * places where md5cine differs on purpose:
 *   - a sound starts at the sample its event names, not at the engine's next 4096-sample
 *     block;
 *   - the caller chooses each event's `diversity` (from a seeded generator) where the engine
 *     draws gameLocal.random;
 *   - no portals or occlusion: the straight-line distance (as no_occlusion does), computed
 *     exactly where the engine approximates its square root (idVec3::LengthFast);
 *   - gains are computed at every output frame boundary from the listener and the emitter
 *     there and ramp linearly across the frame's samples (the engine ramps across its
 *     4096-sample block); across a cut they jump at the boundary.
 *
 * Channel rules (StartSound), for each START event in order: a shader with no entries plays
 * nothing; choice = (int)(diversity * num_entries) (0 when out of range); no_dups: when the
 * sample chosen (its leadin if it has one, else the entry) is the last sample of any of the
 * emitter's 8 slots, playing or finished but not stopped, choice = (choice + 1) % num_entries;
 * playonce: not started while the same shader plays on the emitter; the same shader never
 * starts twice at the same sample on one emitter; a channel other than ANY stops the first
 * sound playing on that channel of the emitter; then the first free slot of 8 takes it, none
 * free: dropped. A STOP event stops every sound on its channel of the emitter (ANY: all).
 * What plays: leadins[choice] if the shader has one, else entries[choice]; a looping sound then
 * repeats entries[0] until stopped (GatherChannelSamples); a sound that does not loop plays its
 * first sample only. Every sound starts at its first sample: StartSound's "adjust the start time
 * based on diversity for looping sounds" runs only for a first sample of no length
 * (`SSF_LOOPING && !LengthIn44kHzSamples()`), where it moves nothing, so it never offsets a
 * loop in the engine either. A slot is freed when the sound has been stopped or its first sample's
 * engine length has passed (CheckForCompletion: trigger + LengthIn44kHzSamples < now), that
 * length being counted in the sample's interleaved values (twice its frames for a stereo
 * sample, as the engine counts it: a stereo sound holds its slot for twice its duration).
 *
 * Gain at a moment (AddChannelContribution; dB2Scale is the engine's 0.1 dB table of 2^(dB/6),
 * 0 at -60 dB or below: mc_mix_db_scale):
 *   volume = dB2Scale(leadin_volume) while the first sample plays if leadin_volume != 0, else
 *            dB2Scale(parms.volume); times dB2Scale(class_fade_db[parms.sound_class]);
 *   unless global: d = |emitter - listener| in metres (inches * 0.0254); d >= max: 0;
 *            min < d < max: volume *= (1 - (d - min) / (max - min))^2; d <= min: spatialize
 *            = d / min;
 *   global, omnidirectional or a stereo sample: both ears 0.8 * volume; else CalcEars:
 *            v = the unit vector to the emitter in the listener's axes, bias = 1.1 + (2 - 1.1)
 *            * (1 - spatialize), left = max(0.25, (1.1 + v.left) / (1 + bias)), right =
 *            max(0.25, (1.1 - v.left) / (1 + bias)), each times volume;
 *   the speaker mask (bit 0 left, bit 1 right; 0: all) zeroes the ears it leaves out; each ear
 *            is clamped to 1 unless MC_SSF_UNCLAMPED; PRIVATE sounds are heard only on the
 *            listener's own emitter, ANTI_PRIVATE ones everywhere else.
 * A mono sample adds sample * ear to each side, a stereo one its left to the left and its right
 * to the right, at 16-bit scale; mc_audio_to_s16 (audio.h) converts the sum. */
#ifndef MC_MIXER_H
#define MC_MIXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/audio.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The end of a sound that is never stopped (a loop nobody stops): later than any sample. */
#define MC_MIX_FOREVER INT64_MAX

/* A sound shader as the mixer plays it: its files decoded, its own settings (the parms are
 * the event's, since an entity's overrides and the caller's flags change them). The shader's
 * address is its identity (playonce, the same-start rule): one mc_mix_shader per shader. */
typedef struct mc_mix_shader {
    /* Entries in file order; NULL: a file that could not be had, played as silence of no
     * length (the engine plays its default beep). */
    const mc_audio_clip *entries[MC_SOUND_MAX_ENTRIES];
    int num_entries; /* 0..MC_SOUND_MAX_ENTRIES; 0: the shader plays nothing */
    /* leadins[i] plays before entries[i] for i < num_leadins, in the order of the shader's
     * `leadin` lines (the engine pairs the i-th leadin with the i-th entry); NULL as above. */
    const mc_audio_clip *leadins[MC_SOUND_MAX_ENTRIES];
    int num_leadins;     /* 0..MC_SOUND_MAX_ENTRIES */
    float leadin_volume; /* dB while the first sample plays; 0: parms.volume (leadinVolume) */
    int speaker_mask;    /* 1 << 0 left, 1 << 1 right, higher bits other speakers; 0: all */
} mc_mix_shader;

/* Where a sound comes from: an entity's emitter, or the world (global sounds, music). */
typedef struct mc_mix_emitter {
    /* World position per output frame (inches); frame k uses origins[min(k, num_origins - 1)],
     * so one origin is a fixed emitter. NULL (num_origins 0): no position, every sound on it is
     * heard as MC_SSF_GLOBAL. */
    const mc_vec3 *origins;
    int64_t num_origins;
    /* The listener's own entity (the engine's listenerId == listenerPrivateId): its sounds are
     * not spatialized, PRIVATE ones are heard and ANTI_PRIVATE ones are not. Actors are not. */
    bool listener_own;
} mc_mix_emitter;

/* The listener (the camera) at an output frame. */
typedef struct mc_mix_listener {
    mc_vec3 origin; /* world, inches */
    mc_mat3 axis;   /* rows forward, left, up (md5cine's view axis, mc_view.axis) */
    bool cut_after; /* a cut between this frame and the next: the gains of this frame's samples
                     * stay at this frame's and jump to the next frame's at its first sample */
} mc_mix_listener;

typedef enum mc_mix_event_kind {
    MC_MIX_START = 0, /* start a shader on a channel of an emitter */
    MC_MIX_STOP = 1,  /* stop the channel (the engine's startSoundShader ""; ANY stops all) */
} mc_mix_event_kind;

typedef struct mc_mix_event {
    int64_t start; /* sample of the mix (MC_SOUND_RATE) it happens at, >= 0 */
    mc_mix_event_kind kind;
    int emitter; /* index into mc_mix_desc.emitters */
    mc_sound_channel channel;
    const mc_mix_shader *shader; /* START: what plays (not NULL); STOP: ignored */
    mc_sound_parms parms;        /* START: the shader's parms after the entity's overrides,
                                  * with the caller's flags OR-ed (MC_SSF_GLOBAL for
                                  * sound_global) */
    float diversity;             /* START: [0, 1), from the caller's seeded generator */
} mc_mix_event;

/* What became of an event (an X-macro list: name, JSON word). */
#define MC_MIX_OUTCOMES(X)                                                             \
    X(MC_MIX_PLAYED, "played")         /* took a slot and started */                   \
    X(MC_MIX_DROPPED, "dropped")       /* all 8 slots of the emitter busy */           \
    X(MC_MIX_PLAYONCE, "playonce")     /* playonce: the shader plays on the emitter */ \
    X(MC_MIX_SAME_START, "same_start") /* the shader started at this sample already */ \
    X(MC_MIX_NO_ENTRIES, "no_entries") /* the shader has no files */                   \
    X(MC_MIX_STOPPED, "stop")          /* a STOP event */

typedef enum mc_mix_outcome {
#define MC_X_ENUM(name, word) name,
    MC_MIX_OUTCOMES(MC_X_ENUM)
#undef MC_X_ENUM
} mc_mix_outcome;

/* The JSON word of an outcome ("played", ...); "" for a value out of range. */
const char *mc_mix_outcome_word(mc_mix_outcome o);

/* One per event, for the review tools. */
typedef struct mc_mix_record {
    mc_mix_outcome outcome;
    int choice;       /* the entry chosen (after no_dups), also for a sound refused or dropped;
                       * -1 for a STOP event or a shader with no entries */
    bool leadin;      /* leadins[choice] played first */
    int slot;         /* the emitter's slot 0..7 it played on; -1 when none */
    int64_t cut;      /* index of the event whose sound it stopped (the channel rule); -1 */
    int64_t ended_by; /* index of the event that stopped it (a cut or a STOP); -1: none */
    int64_t end;      /* first sample at which it is no longer heard: its natural end, or when
                       * it was stopped; MC_MIX_FOREVER for a loop never stopped; for a STOP
                       * event or a sound that did not play, its start */
    int stopped;      /* STOP: how many sounds it stopped; 0 otherwise */
} mc_mix_record;

/* A scene's sound: what the caller owns and the mixer reads (it keeps the pointers: the
 * arrays, shaders and clips must outlive the mc_mix). */
typedef struct mc_mix_desc {
    mc_rate rate;       /* output frame rate: frame k begins at sample ceil(k * 44100 / rate) */
    int64_t num_frames; /* >= 1: listener[] holds this many; later frames hold the last */
    const mc_mix_listener *listener;
    const mc_mix_emitter *emitters;
    int num_emitters;
    const mc_mix_event *events; /* sorted by start (events at one sample keep their order) */
    size_t num_events;
    float class_fade_db[MC_SOUND_CLASSES]; /* dB per sound class (the engine's
                                            * FadeSoundClasses); 0: none */
} mc_mix_desc;

struct mc_mix_voice;

/* A prepared mix: the channel rules applied to every event (the records), the sounds that play
 * indexed by time. mc_mix_render reads it only, so threads may render ranges at once. */
typedef struct mc_mix {
    mc_mix_desc desc;            /* a copy; the arrays it points to stay the caller's */
    mc_mix_record *records;      /* desc.num_events */
    struct mc_mix_voice *voices; /* the sounds that play, by start (private) */
    size_t num_voices;
    int64_t *max_end; /* the voices' time index (private) */
} mc_mix;

/* Checks desc (every index, count, flag and clip in range; events sorted; rate >= 1/1; each
 * error names the event or emitter: MC_ERR_USAGE, MC_ERR_RANGE) and applies the channel rules
 * to every event in order, in O(events) time. On failure *mix is zeroed. Errors also:
 * MC_ERR_NOMEM. */
mc_status mc_mix_prepare(const mc_mix_desc *desc, mc_mix *mix, mc_error *err);

/* Mixes the samples [first, first + count) of the scene (first >= 0) into out, 2 * count
 * floats (left, right), overwriting them. A sample has the same value whatever range it is
 * mixed in: rendering a scene in pieces gives the whole mix's samples. Costs the samples of the
 * sounds heard in the range plus O(log sounds) to find them. */
void mc_mix_render(const mc_mix *mix, int64_t first, size_t count, float *out);

/* Frees what mc_mix_prepare allocated and zeroes *mix; NULL and a zeroed mix are fine. */
void mc_mix_release(mc_mix *mix);

/* The engine's dB to gain (snd_system.cpp idSoundSystemLocal::dB2Scale): 1 at 0 dB, 0 at or
 * below -60 dB, 2^(db/6) at or above 60 dB, else the table of 0.1 dB steps the engine fills
 * with 2^(i/10/6), at index (int)((db + 60) * 10) (so -3.05 dB plays as -3.1 dB). */
float mc_mix_db_scale(float db);

/* The first sample of output frame k at rate: ceil(k * 44100 * rate.den / rate.num), exact. */
int64_t mc_mix_frame_sample(mc_rate rate, int64_t k);

#ifdef __cplusplus
}
#endif

#endif
