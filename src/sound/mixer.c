/* mc_mix_render (mixer.h): the voices mix_events.c made, mixed in float at 16-bit scale with the
 * gains of the engine's software mixer (snd_world.cpp idSoundWorldLocal::AddChannelContribution
 * and CalcEars), computed at each output frame boundary and ramped across the frame. */
#include <md5cine/mixer.h>

#include <math.h>
#include <string.h>

#include "mix_int.h"

float mc_mix_db_scale(float db)
{
    /* snd_system.cpp idSoundSystemLocal::dB2Scale, and the table its constructor fills:
     * volumesDB[i + 600] = pow(2, (i * 0.1f) * (1 / 6.0f)) for i in [-600, 600). The entry is
     * computed here the way the table's is, in float. */
    if (db == 0.0f)
        return 1.0f;
    if (db <= -60.0f)
        return 0.0f;
    if (db >= 60.0f)
        return powf(2.0f, db * (1.0f / 6.0f));
    int ival = (int)((db + 60.0f) * 10.0f);
    float pt = (float)(ival - 600) * 0.1f;

    return powf(2.0f, pt * (1.0f / 6.0f));
}

__extension__ typedef __int128 mix_i128;

int64_t mc_mix_frame_sample(mc_rate rate, int64_t k)
{
    mix_i128 n = (mix_i128)k * MC_SOUND_RATE * rate.den;
    mix_i128 q = n / rate.num;

    if (q * rate.num < n)
        q++;
    return q > INT64_MAX ? INT64_MAX : (int64_t)q;
}

/* The frame sample s belongs to: the largest k with mc_mix_frame_sample(k) <= s. */
static int64_t frame_of(mc_rate rate, int64_t s)
{
    return (int64_t)((mix_i128)s * rate.num / ((mix_i128)MC_SOUND_RATE * rate.den));
}

/* The gains of a voice at a frame boundary. */
typedef struct mix_gain {
    float ear[2]; /* left, right */
    float volume; /* before the ears: what the SND_EPSILON rule looks at */
} mix_gain;

/* CalcEars for two speakers: the unit vector to the emitter in the listener's axes (d, metres,
 * emitter minus listener), its left component biased, each ear at least s_minVolume2. */
static void calc_ears(mc_vec3 d, const mc_mat3 *axis, float spatialize, float ears[2])
{
    const float *f = axis->m[0], *l = axis->m[1], *u = axis->m[2];
    float ox = d.x * f[0] + d.y * f[1] + d.z * f[2];
    float oy = d.x * l[0] + d.y * l[1] + d.z * l[2];
    float oz = d.x * u[0] + d.y * u[1] + d.z * u[2];
    float len2 = ox * ox + oy * oy + oz * oz;
    /* idVec3::Normalize: a zero vector stays zero (the engine's InvSqrt(0) is large and
     * finite, times 0). */
    float dot = len2 > 0.0f ? oy / sqrtf(len2) : 0.0f;
    float bias = MIX_DOTBIAS2;

    /* "when we are inside the minDistance, start reducing the amount of spatialization" */
    bias += (MIX_SPATIALIZATION_DECAY - bias) * (1.0f - spatialize);
    ears[0] = (MIX_DOTBIAS2 + dot) / (1.0f + bias);
    ears[1] = (MIX_DOTBIAS2 - dot) / (1.0f + bias);
    for (int i = 0; i < 2; i++)
        if (ears[i] < MIX_MIN_VOLUME2)
            ears[i] = MIX_MIN_VOLUME2;
}

/* AddChannelContribution's gains for voice v at output frame k, whose first sample is t. */
static mix_gain voice_gain(const mc_mix *m, const mc_mix_voice *v, int64_t k, int64_t t)
{
    const mc_mix_desc *d = &m->desc;
    const mc_mix_listener *lis = &d->listener[k < d->num_frames ? k : d->num_frames - 1];
    mix_gain g;
    float vol = v->leadin_span > 0 && t - v->start < v->leadin_span ? v->leadin : v->volume;
    float spatialize = 1.0f;
    mc_vec3 rel = { 0.0f, 0.0f, 0.0f };

    if (!v->global) {
        const mc_mix_emitter *em = &d->emitters[v->emitter];
        mc_vec3 o = em->origins[k < em->num_origins ? k : em->num_origins - 1];
        const float s = MC_SOUND_DOOM_TO_METERS;

        /* snd_emitter.cpp Spatialize: realOrigin = origin * DOOM_TO_METERS, the listener's
         * position already in metres (PlaceListener); the distance is exact here where the
         * engine takes idVec3::LengthFast. */
        rel.x = o.x * s - lis->origin.x * s;
        rel.y = o.y * s - lis->origin.y * s;
        rel.z = o.z * s - lis->origin.z * s;
        float dist = sqrtf(rel.x * rel.x + rel.y * rel.y + rel.z * rel.z);

        if (dist >= v->max_d) {
            vol = 0.0f;
        } else if (dist > v->min_d) {
            float frac = 1.0f - (dist - v->min_d) / (v->max_d - v->min_d);

            frac = frac < 0.0f ? 0.0f : frac > 1.0f ? 1.0f : frac;
            frac *= frac; /* s_quadraticFalloff 1 */
            vol *= frac;
        } else if (v->min_d > 0.0f) {
            spatialize = dist / v->min_d;
        }
    }
    g.volume = vol;
    if (v->global || v->omni) {
        g.ear[0] = g.ear[1] = MIX_GLOBAL_FRACTION * vol;
    } else {
        calc_ears(rel, &lis->axis, spatialize, g.ear);
        g.ear[0] *= vol;
        g.ear[1] *= vol;
    }
    for (int i = 0; i < 2; i++) {
        if (!(v->mask & (1 << i)))
            g.ear[i] = 0.0f;
        if (v->clamp && g.ear[i] > 1.0f)
            g.ear[i] = 1.0f; /* s_clipVolumes 1 */
    }
    return g;
}

/* Adds the samples [lo, hi) of voice v (lo >= v->start) to out (out[0] is sample lo), their
 * gains ramping from g0 at sample f0 to g1 at f1. */
static void mix_span(const mc_mix_voice *v, int64_t lo, int64_t hi, int64_t f0, int64_t f1,
                     const mix_gain *g0, const mix_gain *g1, float *out)
{
    float inv = 1.0f / (float)(f1 - f0);
    float dl = g1->ear[0] - g0->ear[0], dr = g1->ear[1] - g0->ear[1];

    while (lo < hi) {
        int64_t p = lo - v->start, n;
        const mc_audio_clip *c;

        if (p < v->first_frames) {
            c = v->first;
            n = v->first_frames - p;
        } else if (v->loop && v->loop->frames > 0) {
            c = v->loop;
            p = (p - v->first_frames) % c->frames;
            n = c->frames - p;
        } else {
            return; /* a silent first sample, nothing after it */
        }
        n = n < hi - lo ? n : hi - lo;
        const float *src = c->samples + (size_t)p * (size_t)c->channels;

        for (int64_t j = 0; j < n; j++, out += 2) {
            float t = (float)(lo + j - f0) * inv;
            float gl = g0->ear[0] + dl * t, gr = g0->ear[1] + dr * t;

            if (c->channels == 1) {
                out[0] += src[j] * gl;
                out[1] += src[j] * gr;
            } else {
                out[0] += src[2 * j] * gl;
                out[1] += src[2 * j + 1] * gr;
            }
        }
        lo += n;
    }
}

/* Adds voice v's part of [a, b) to out (out[0] is sample a), frame by frame. */
static void mix_voice(const mc_mix *m, const mc_mix_voice *v, int64_t a, int64_t b, float *out)
{
    const mc_mix_desc *d = &m->desc;
    int64_t lo = a > v->start ? a : v->start, hi = b < v->end ? b : v->end;
    int64_t k = frame_of(d->rate, lo);
    int64_t f0 = mc_mix_frame_sample(d->rate, k);
    mix_gain g0 = voice_gain(m, v, k, f0);

    while (lo < hi) {
        int64_t f1 = mc_mix_frame_sample(d->rate, k + 1);
        mix_gain g1 = voice_gain(m, v, k + 1, f1);
        int64_t seg = hi < f1 ? hi : f1;
        bool cut = d->listener[k < d->num_frames ? k : d->num_frames - 1].cut_after &&
                   k < d->num_frames - 1;
        const mix_gain *to = cut ? &g0 : &g1;

        /* The SND_EPSILON rule: silent now and at the last boundary, nothing is mixed. */
        if (g0.volume >= MIX_EPSILON || to->volume >= MIX_EPSILON)
            mix_span(v, lo, seg, f0, f1, &g0, to, out + 2 * (lo - a));
        lo = seg;
        k++;
        f0 = f1;
        g0 = g1;
    }
}

/* Visits the voices of [lo, hi) that sound in [a, b), in index order (so every sample sums its
 * voices in one order, whatever the range): the implicit tree of build_index (mix_events.c). */
static void visit(const mc_mix *m, size_t lo, size_t hi, int64_t a, int64_t b, float *out)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const mc_mix_voice *v = &m->voices[mid];

        if (m->max_end[mid] <= a)
            return;
        visit(m, lo, mid, a, b, out);
        if (v->start >= b)
            return;
        if (v->end > a)
            mix_voice(m, v, a, b, out);
        lo = mid + 1;
    }
}

void mc_mix_render(const mc_mix *mix, int64_t first, size_t count, float *out)
{
    int64_t a = first < 0 ? 0 : first;
    int64_t b;

    memset(out, 0, count * 2 * sizeof *out);
    if (first < 0 || count == 0)
        return;
    b = count > (uint64_t)(INT64_MAX - a) ? INT64_MAX : a + (int64_t)count;
    visit(mix, 0, mix->num_voices, a, b, out);
}
