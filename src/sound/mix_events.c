/* mc_mix_prepare (mixer.h): the events checked, the engine's channel rules applied to them in
 * order (snd_emitter.cpp idSoundEmitterLocal::StartSound, StopSound, CheckForCompletion), the
 * sounds that play indexed by time for mc_mix_render. */
#include <md5cine/mixer.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mix_int.h"

static const char *const outcome_words[] = {
#define MC_X_WORD(name, word) word,
    MC_MIX_OUTCOMES(MC_X_WORD)
#undef MC_X_WORD
};

const char *mc_mix_outcome_word(mc_mix_outcome o)
{
    size_t i = (size_t)o;

    return i < sizeof outcome_words / sizeof outcome_words[0] ? outcome_words[i] : "";
}

/* One of an emitter's 8 channels (idSoundChannel): what the rules look at. */
typedef struct mix_slot {
    bool active;                 /* triggerState */
    bool has_sample;             /* sample is set (cleared by a stop, kept when a sound ends) */
    const mc_audio_clip *sample; /* leadinSample: what no_dups compares */
    const mc_mix_shader *shader;
    mc_sound_channel channel;
    int64_t start;
    int64_t busy_end; /* trigger44kHzTime + LengthIn44kHzSamples; INT64_MAX for a loop */
    size_t voice, event;
} mix_slot;

/* ---- checks ---- */

static mc_status check_clip(const mc_audio_clip *c, size_t i, const char *what, int k,
                            mc_error *err)
{
    if (!c)
        return MC_OK;
    if ((c->channels != 1 && c->channels != 2) || c->frames < 0 || (c->frames > 0 && !c->samples))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "event %zu: the clip of its shader's %s %d is not a decoded clip "
                            "(%d channels, %lld frames)",
                            i, what, k, c->channels, (long long)c->frames);
    return MC_OK;
}

static mc_status check_start(const mc_mix_event *e, size_t i, mc_error *err)
{
    const mc_mix_shader *sh = e->shader;
    const mc_sound_parms *p = &e->parms;
    mc_status s = MC_OK;

    if (!sh)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "event %zu starts no shader", i);
    if (sh->num_entries < 0 || sh->num_entries > MC_SOUND_MAX_ENTRIES || sh->num_leadins < 0 ||
        sh->num_leadins > MC_SOUND_MAX_ENTRIES)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "event %zu: its shader has %d entries and %d leadins (0 to %d each)", i,
                            sh->num_entries, sh->num_leadins, MC_SOUND_MAX_ENTRIES);
    for (int k = 0; k < sh->num_entries && s == MC_OK; k++)
        s = check_clip(sh->entries[k], i, "entry", k, err);
    for (int k = 0; k < sh->num_leadins && s == MC_OK; k++)
        s = check_clip(sh->leadins[k], i, "leadin", k, err);
    if (s != MC_OK)
        return s;
    if (p->sound_class < 0 || p->sound_class >= MC_SOUND_CLASSES)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "event %zu: sound class %d out of range (0 to %d)", i, p->sound_class,
                            MC_SOUND_CLASSES - 1);
    if (!isfinite(p->min_distance) || !isfinite(p->max_distance) || !isfinite(p->volume) ||
        !isfinite(sh->leadin_volume) || !isfinite(e->diversity))
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "event %zu: a distance, volume or diversity is not a number", i);
    return MC_OK;
}

static mc_status check_event(const mc_mix_desc *d, size_t i, mc_error *err)
{
    const mc_mix_event *e = &d->events[i];

    if (e->start < 0 || (i > 0 && e->start < d->events[i - 1].start))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "event %zu starts at sample %lld, %s: events must be sorted by "
                            "start",
                            i, (long long)e->start,
                            e->start < 0 ? "before the scene" : "before the event before it");
    if (e->emitter < 0 || e->emitter >= d->num_emitters)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "event %zu: emitter %d out of range (%d emitters)", i, e->emitter,
                            d->num_emitters);
    if ((int)e->channel < 0 || e->channel >= MC_SND_CHANNEL_COUNT)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "event %zu: channel %d out of range (0 to %d)", i, (int)e->channel,
                            MC_SND_CHANNEL_COUNT - 1);
    if (e->kind == MC_MIX_STOP)
        return MC_OK;
    if (e->kind != MC_MIX_START)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0, "event %zu: unknown kind %d", i,
                            (int)e->kind);
    return check_start(e, i, err);
}

static mc_status check_desc(const mc_mix_desc *d, mc_error *err)
{
    /* At most one frame a sample, so that every frame holds at least one sample. */
    if (d->rate.num < 1 || d->rate.den < 1 ||
        (int64_t)d->rate.num > (int64_t)MC_SOUND_RATE * d->rate.den)
        return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                            "frame rate %d/%d out of range (above 0, at most %d)", d->rate.num,
                            d->rate.den, MC_SOUND_RATE);
    if (d->num_frames < 1 || !d->listener)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "the mix needs the listener of at least one frame");
    if (d->num_emitters < 0 || (d->num_emitters > 0 && !d->emitters) ||
        (d->num_events > 0 && !d->events))
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no emitters or events given");
    for (int c = 0; c < MC_SOUND_CLASSES; c++)
        if (!isfinite(d->class_fade_db[c]))
            return mc_error_set(err, MC_ERR_RANGE, NULL, 0, 0,
                                "the fade of sound class %d is not a number", c);
    for (int k = 0; k < d->num_emitters; k++) {
        const mc_mix_emitter *em = &d->emitters[k];

        if (em->num_origins < 0 || (em->num_origins > 0) != (em->origins != NULL))
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "emitter %d: %lld origins at %s", k,
                                (long long)em->num_origins, em->origins ? "an address" : "NULL");
    }
    for (size_t i = 0; i < d->num_events; i++) {
        mc_status s = check_event(d, i, err);

        if (s != MC_OK)
            return s;
    }
    return MC_OK;
}

/* ---- the rules ---- */

/* CheckForCompletion: a sound that does not loop stops once trigger + its length < now. */
static void expire(mix_slot *slots, int64_t now)
{
    for (int k = 0; k < MC_SOUND_EMITTER_SLOTS; k++)
        if (slots[k].active && slots[k].busy_end < now)
            slots[k].active = false;
}

/* The sound on slot s stops at now, stopped by event by. */
static void stop_slot(mc_mix *m, mix_slot *s, int64_t now, size_t by)
{
    mc_mix_voice *v = &m->voices[s->voice];

    s->active = false;
    if (v->end > now)
        v->end = now;
    m->records[s->event].ended_by = (int64_t)by;
}

/* StopSound: every sound on the channel (ANY: every sound); their samples forgotten. */
static void apply_stop(mc_mix *m, mix_slot *slots, size_t i)
{
    const mc_mix_event *e = &m->desc.events[i];
    mc_mix_record *r = &m->records[i];

    r->outcome = MC_MIX_STOPPED;
    for (int k = 0; k < MC_SOUND_EMITTER_SLOTS; k++) {
        if (!slots[k].active ||
            (e->channel != MC_SND_CHANNEL_ANY && slots[k].channel != e->channel))
            continue;
        stop_slot(m, &slots[k], e->start, i);
        slots[k].has_sample = false;
        slots[k].shader = NULL;
        r->stopped++;
    }
}

/* StartSound's choice: diversity * entries, then no_dups. */
static int choose(const mc_mix_event *e, const mix_slot *slots)
{
    const mc_mix_shader *sh = e->shader;
    float x = e->diversity * (float)sh->num_entries;
    int choice = x >= 0.0f && x < (float)sh->num_entries ? (int)x : 0;

    if (choice >= sh->num_entries)
        choice = 0;
    if (e->parms.flags & MC_SSF_NO_DUPS) {
        const mc_audio_clip *sample =
                choice < sh->num_leadins ? sh->leadins[choice] : sh->entries[choice];

        for (int k = 0; k < MC_SOUND_EMITTER_SLOTS; k++)
            if (slots[k].has_sample && slots[k].sample == sample) {
                choice = (choice + 1) % sh->num_entries;
                break;
            }
    }
    return choice;
}

/* Why the sound of e does not start (playonce, the same start), or MC_MIX_PLAYED. */
static mc_mix_outcome refused(const mc_mix_event *e, const mix_slot *slots)
{
    for (int k = 0; k < MC_SOUND_EMITTER_SLOTS; k++)
        if (slots[k].active && slots[k].shader == e->shader && (e->parms.flags & MC_SSF_PLAY_ONCE))
            return MC_MIX_PLAYONCE;
    for (int k = 0; k < MC_SOUND_EMITTER_SLOTS; k++)
        if (slots[k].active && slots[k].shader == e->shader && slots[k].start == e->start)
            return MC_MIX_SAME_START;
    return MC_MIX_PLAYED;
}

/* The voice of event e playing sample first (choice), with the settings that do not change. */
static mc_mix_voice make_voice(const mc_mix_desc *d, const mc_mix_event *e,
                               const mc_audio_clip *first)
{
    const mc_mix_shader *sh = e->shader;
    const mc_mix_emitter *em = &d->emitters[e->emitter];
    int flags = e->parms.flags;
    float fade = mc_mix_db_scale(d->class_fade_db[e->parms.sound_class]);
    mc_mix_voice v;
    const mc_audio_clip *shape;

    memset(&v, 0, sizeof v);
    v.start = e->start;
    v.first = first;
    v.first_frames = first ? first->frames : 0;
    v.loop = (flags & MC_SSF_LOOPING) ? sh->entries[0] : NULL;
    v.end = v.loop ? MC_MIX_FOREVER : v.start + v.first_frames;
    /* idSoundSample::LengthIn44kHzSamples counts interleaved values: frames * channels. The
     * slot is busy that long (CheckForCompletion), and leadinVolume applies while now -
     * trigger is below it (AddChannelContribution). */
    v.engine_len = first ? first->frames * first->channels : 0;
    if (sh->leadin_volume != 0.0f)
        v.leadin_span = v.engine_len;
    v.volume = mc_mix_db_scale(e->parms.volume) * fade;
    v.leadin = mc_mix_db_scale(sh->leadin_volume) * fade;
    if (((flags & MC_SSF_PRIVATE) && !em->listener_own) ||
        ((flags & MC_SSF_ANTI_PRIVATE) && em->listener_own))
        v.volume = v.leadin = 0.0f;
    v.min_d = e->parms.min_distance;
    v.max_d = e->parms.max_distance;
    v.emitter = e->emitter;
    v.mask = sh->speaker_mask ? sh->speaker_mask : 0xFF;
    v.global = (flags & MC_SSF_GLOBAL) || !em->origins || em->listener_own;
    /* "stereo samples are always omni": the first sample's channels decide. */
    shape = first ? first : v.loop;
    v.omni = (flags & MC_SSF_OMNIDIRECTIONAL) || (shape && shape->channels == 2);
    v.clamp = !(flags & MC_SSF_UNCLAMPED);
    return v;
}

static void apply_start(mc_mix *m, mix_slot *slots, size_t i)
{
    const mc_mix_event *e = &m->desc.events[i];
    const mc_mix_shader *sh = e->shader;
    mc_mix_record *r = &m->records[i];
    int k;

    if (sh->num_entries == 0) {
        r->outcome = MC_MIX_NO_ENTRIES;
        return;
    }
    r->choice = choose(e, slots);
    r->outcome = refused(e, slots);
    if (r->outcome != MC_MIX_PLAYED)
        return;
    if (e->channel != MC_SND_CHANNEL_ANY)
        for (k = 0; k < MC_SOUND_EMITTER_SLOTS; k++)
            if (slots[k].active && slots[k].shader && slots[k].channel == e->channel) {
                r->cut = (int64_t)slots[k].event;
                stop_slot(m, &slots[k], e->start, i);
                break;
            }
    for (k = 0; k < MC_SOUND_EMITTER_SLOTS && slots[k].active; k++)
        ;
    if (k == MC_SOUND_EMITTER_SLOTS) {
        r->outcome = MC_MIX_DROPPED;
        return;
    }
    r->leadin = r->choice < sh->num_leadins;
    r->slot = k;
    const mc_audio_clip *first = r->leadin ? sh->leadins[r->choice] : sh->entries[r->choice];
    mc_mix_voice *v = &m->voices[m->num_voices];

    *v = make_voice(&m->desc, e, first);
    slots[k] = (mix_slot){ .active = true,
                           .has_sample = true,
                           .sample = first,
                           .shader = sh,
                           .channel = e->channel,
                           .start = e->start,
                           .voice = m->num_voices,
                           .event = i };
    v->event = i;
    slots[k].busy_end = v->loop ? INT64_MAX : e->start + v->engine_len;
    m->num_voices++;
}

/* max_end[mid] of the implicit tree over voices [lo, hi) (mid = lo + (hi - lo) / 2): the
 * latest end of the voices in [lo, hi). Returns it (INT64_MIN for an empty range). */
static int64_t build_index(mc_mix *m, size_t lo, size_t hi)
{
    if (lo >= hi)
        return INT64_MIN;
    size_t mid = lo + (hi - lo) / 2;
    int64_t e = m->voices[mid].end;
    int64_t l = build_index(m, lo, mid), r = build_index(m, mid + 1, hi);

    e = l > e ? l : e;
    e = r > e ? r : e;
    m->max_end[mid] = e;
    return e;
}

mc_status mc_mix_prepare(const mc_mix_desc *desc, mc_mix *mix, mc_error *err)
{
    mix_slot *slots;
    size_t n = desc->num_events;
    mc_status s;

    memset(mix, 0, sizeof *mix);
    s = check_desc(desc, err);
    if (s != MC_OK)
        return s;
    mix->desc = *desc;
    mix->records = calloc(n ? n : 1, sizeof *mix->records);
    mix->voices = calloc(n ? n : 1, sizeof *mix->voices);
    mix->max_end = calloc(n ? n : 1, sizeof *mix->max_end);
    slots = calloc((size_t)desc->num_emitters * MC_SOUND_EMITTER_SLOTS + 1, sizeof *slots);
    if (!mix->records || !mix->voices || !mix->max_end || !slots) {
        free(slots);
        mc_mix_release(mix);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for %zu sound events", n);
    }
    for (size_t i = 0; i < n; i++) {
        const mc_mix_event *e = &desc->events[i];
        mix_slot *es = slots + (size_t)e->emitter * MC_SOUND_EMITTER_SLOTS;
        mc_mix_record *r = &mix->records[i];

        *r = (mc_mix_record){ .choice = -1, .slot = -1, .cut = -1, .ended_by = -1 };
        expire(es, e->start);
        if (e->kind == MC_MIX_STOP)
            apply_stop(mix, es, i);
        else
            apply_start(mix, es, i);
    }
    /* The records' ends, now that every cut and stop is known. */
    for (size_t i = 0; i < n; i++)
        mix->records[i].end = desc->events[i].start;
    for (size_t k = 0; k < mix->num_voices; k++)
        mix->records[mix->voices[k].event].end = mix->voices[k].end;
    free(slots);
    build_index(mix, 0, mix->num_voices);
    return MC_OK;
}

void mc_mix_release(mc_mix *mix)
{
    if (!mix)
        return;
    free(mix->records);
    free(mix->voices);
    free(mix->max_end);
    memset(mix, 0, sizeof *mix);
}
