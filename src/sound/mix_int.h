/* The mixer's private parts: a sound that plays (a voice), made by mix_events.c from the events
 * and the channel rules, rendered by mixer.c. */
#ifndef MC_SOUND_MIX_INT_H
#define MC_SOUND_MIX_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/mixer.h>

/* The engine's stereo settings, the defaults of its s_* cvars (snd_system.cpp). */
#define MIX_DOTBIAS2             1.1f  /* s_dotbias2 */
#define MIX_SPATIALIZATION_DECAY 2.0f  /* s_spatializationDecay */
#define MIX_MIN_VOLUME2          0.25f /* s_minVolume2 */
#define MIX_GLOBAL_FRACTION      0.8f  /* s_globalFraction */
/* snd_local.h SND_EPSILON: a volume below it "will always multiply to zero"; a channel whose
 * volume is below it now and was at its last block is not mixed (AddChannelContribution). */
#define MIX_EPSILON (1.0f / 32768.0f)

typedef struct mc_mix_voice {
    int64_t start;              /* first sample */
    int64_t end;                /* first sample not heard (MC_MIX_FOREVER: a loop never stopped) */
    const mc_audio_clip *first; /* the leadin or the chosen entry; NULL: silent, no length */
    const mc_audio_clip *loop;  /* entries[0] of a looping sound, else NULL */
    int64_t first_frames;       /* first's frames, 0 for NULL */
    int64_t engine_len;         /* the engine's length of first: frames * channels */
    int64_t leadin_span;        /* samples from start in which leadin applies; 0: never */
    float volume;               /* dB2Scale(parms.volume) * the class fade; 0 when not heard */
    float leadin;               /* dB2Scale(leadin_volume) * the class fade */
    float min_d, max_d;         /* metres */
    size_t event;               /* the event that started it */
    int emitter;
    int mask;    /* speaker mask, 0 made 0xFF (all) */
    bool global; /* no distance, no panning */
    bool omni;   /* distance, no panning (also every stereo sample) */
    bool clamp;  /* each ear at most 1 (not MC_SSF_UNCLAMPED) */
} mc_mix_voice;

#endif
