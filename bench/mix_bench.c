/* Mixer speed (mixer.h): what mc_mix_prepare (the channel rules) and mc_mix_render (the samples)
 * cost for a demo-like scene of 10 s, and for 10^4 and 10^5 events (their ratio shows whether
 * the cost grows with the events or faster).
 *
 * The demo-like load, 24 fps: six actors walking past a moving camera with two cuts, each with
 * footsteps every 0.5 s (BODY, two 0.3 s entries at 22050 Hz, no_dups), a 2.5 s voice line
 * every 3 s (VOICE, 22050 Hz) and a 0.4 s weapon shot (ANY, 44100 Hz) every 1.7 s; on the world,
 * a 5 s stereo ambience looping and 10 s of stereo music (global). The many-event load: 10^N
 * events over 10^N / 40 s, on 200 emitters (20 moving, 180 fixed), one-shots of 0.2 to 1 s,
 * every 50th a loop that a STOP ends 5 s later.
 *
 * Times are the process's CPU time (one thread), which other work on a shared machine does not
 * inflate as it does wall time.
 *
 * usage: mix_bench      Figures only: nothing is asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <md5cine/mixer.h>

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

/* A clip of noise: seconds long at rate (as decoded: repeated to 44.1 kHz), channels. */
static mc_audio_clip noise(double seconds, int rate, int channels, uint32_t seed)
{
    mc_audio_clip c = { 0 };
    int rep = MC_SOUND_RATE / rate;

    c.frames = (int64_t)(seconds * rate) * rep;
    c.channels = channels;
    c.source_rate = rate;
    c.bytes = (size_t)c.frames * (size_t)channels * sizeof(float);
    c.samples = malloc(c.bytes);
    for (int64_t i = 0; c.samples && i < c.frames * channels; i++)
        c.samples[i] = (float)((int)(lcg(&seed) % 20001) - 10000);
    return c;
}

static int by_start(const void *a, const void *b)
{
    const mc_mix_event *x = a, *y = b;

    return (x->start > y->start) - (x->start < y->start);
}

static mc_mix_event start_event(int64_t at, int emitter, mc_sound_channel ch,
                                const mc_mix_shader *sh, int flags, float div)
{
    mc_mix_event e = {
        .start = at, .emitter = emitter, .channel = ch, .shader = sh, .diversity = div
    };

    e.parms = (mc_sound_parms){ .min_distance = 1, .max_distance = 15, .flags = flags };
    return e;
}

/* Sorts events (d's) by start, prepares d, renders [0, samples) whole and in chunks of `chunk`,
 * prints the figures. */
static void run(const char *label, mc_mix_desc *d, mc_mix_event *events, int64_t samples,
                size_t chunk)
{
    mc_mix m;
    mc_error err;
    size_t n = (size_t)(samples < (int64_t)MC_SOUND_RATE * 10 ? samples : MC_SOUND_RATE * 10);
    float *out = malloc(n * 2 * sizeof *out);
    double t0;

    qsort(events, d->num_events, sizeof *events, by_start);
    t0 = now_s();
    if (!out || mc_mix_prepare(d, &m, &err) != MC_OK) {
        fprintf(stderr, "mix_bench: %s\n", out ? err.msg : "out of memory");
        exit(1);
    }
    double prep = now_s() - t0;

    memset(out, 0, n * 2 * sizeof *out); /* its pages touched before anything is timed */
    size_t played = 0;

    for (size_t i = 0; i < d->num_events; i++)
        played += m.records[i].outcome == MC_MIX_PLAYED;
    double t1 = now_s();

    for (int64_t a = 0; a < samples; a += (int64_t)n)
        mc_mix_render(&m, a, (size_t)(samples - a < (int64_t)n ? samples - a : (int64_t)n), out);
    double whole = now_s() - t1;

    t1 = now_s();
    for (int64_t a = 0; a < samples; a += (int64_t)chunk)
        mc_mix_render(&m, a, (size_t)(samples - a < (int64_t)chunk ? samples - a : (int64_t)chunk),
                      out);
    double chunked = now_s() - t1;
    double secs = (double)samples / MC_SOUND_RATE;

    printf("%-24s %7zu events (%6zu played) %8.1f s of sound: prepare %8.2f ms (%5.0f ns/event)"
           "  mix %8.1f ms (%6.0fx real time)  in %zu-sample pieces %8.1f ms\n",
           label, d->num_events, played, secs, prep * 1e3, prep / (double)d->num_events * 1e9,
           whole * 1e3, secs / whole, chunk, chunked * 1e3);
    mc_mix_release(&m);
    free(out);
}

#define DEMO_FRAMES 240 /* 10 s at 24 fps */

static void demo(void)
{
    static mc_mix_listener lis[DEMO_FRAMES];
    static mc_vec3 pos[6][DEMO_FRAMES];
    static mc_mix_event ev[1024];
    mc_mix_emitter em[7] = { { 0 } };
    mc_audio_clip step[2] = { noise(0.3, 22050, 1, 1), noise(0.3, 22050, 1, 2) };
    mc_audio_clip voice = noise(2.5, 22050, 1, 3), shot = noise(0.4, 44100, 1, 4);
    mc_audio_clip amb = noise(5, 44100, 2, 5), music = noise(10, 44100, 2, 6);
    mc_mix_shader sh_step = { .entries = { &step[0], &step[1] }, .num_entries = 2 };
    mc_mix_shader sh_voice = { .entries = { &voice }, .num_entries = 1 };
    mc_mix_shader sh_shot = { .entries = { &shot }, .num_entries = 1 };
    mc_mix_shader sh_amb = { .entries = { &amb }, .num_entries = 1 };
    mc_mix_shader sh_music = { .entries = { &music }, .num_entries = 1 };
    mc_mix_desc d = { .rate = { 24, 1 },
                      .num_frames = DEMO_FRAMES,
                      .listener = lis,
                      .emitters = em,
                      .num_emitters = 7,
                      .events = ev };
    uint32_t x = 7;
    size_t n = 0;

    for (int k = 0; k < DEMO_FRAMES; k++) {
        float c = k < 80 ? 0.0f : k < 160 ? 200.0f : -150.0f; /* cuts at 80 and 160 */

        lis[k].origin = (mc_vec3){ c + (float)k, -300.0f, 64.0f };
        lis[k].axis = (mc_mat3){ { { 0, 1, 0 }, { -1, 0, 0 }, { 0, 0, 1 } } };
        lis[k].cut_after = k == 79 || k == 159;
        for (int a = 0; a < 6; a++)
            pos[a][k] = (mc_vec3){ (float)(a * 90 - 270 + k * 4), (float)(a * 40), 60.0f };
    }
    for (int a = 0; a < 6; a++) {
        em[a + 1].origins = pos[a];
        em[a + 1].num_origins = DEMO_FRAMES;
        for (int64_t t = 0; t < 10 * MC_SOUND_RATE; t += MC_SOUND_RATE / 2)
            ev[n++] = start_event(t + a * 997, a + 1, MC_SND_CHANNEL_BODY, &sh_step, MC_SSF_NO_DUPS,
                                  (float)(lcg(&x) % 1000) / 1000.0f);
        for (int64_t t = 0; t < 10 * MC_SOUND_RATE; t += 3 * MC_SOUND_RATE)
            ev[n++] = start_event(t + a * 5000, a + 1, MC_SND_CHANNEL_VOICE, &sh_voice, 0, 0);
        for (int64_t t = 0; t < 10 * MC_SOUND_RATE; t += MC_SOUND_RATE * 17 / 10)
            ev[n++] = start_event(t + a * 3001, a + 1, MC_SND_CHANNEL_ANY, &sh_shot, 0, 0);
    }
    ev[n++] = start_event(0, 0, MC_SND_CHANNEL_AMBIENT, &sh_amb, MC_SSF_LOOPING, 0);
    ev[n++] = start_event(0, 0, MC_SND_CHANNEL_ANY, &sh_music, MC_SSF_GLOBAL, 0);
    d.num_events = n;
    run("demo-like, 10 s", &d, ev, 10 * MC_SOUND_RATE, 1838);
    for (int i = 0; i < 2; i++)
        mc_audio_clip_release(&step[i]);
    mc_audio_clip_release(&voice);
    mc_audio_clip_release(&shot);
    mc_audio_clip_release(&amb);
    mc_audio_clip_release(&music);
}

#define MANY_EMITTERS 200
#define MANY_FRAMES   100000 /* listener frames at 24 fps: 69 min */

static void many(size_t count)
{
    static mc_mix_listener lis[MANY_FRAMES];
    static mc_vec3 moving[20][2048], fixed[MANY_EMITTERS];
    mc_mix_emitter em[MANY_EMITTERS + 1] = { { 0 } };
    mc_audio_clip clips[8];
    mc_mix_shader sh[8];
    mc_mix_event *ev = malloc((count + count / 50 + 1) * sizeof *ev);
    int64_t span = (int64_t)count * MC_SOUND_RATE / 40;
    mc_mix_desc d = { .rate = { 24, 1 },
                      .num_frames = MANY_FRAMES,
                      .listener = lis,
                      .emitters = em,
                      .num_emitters = MANY_EMITTERS + 1,
                      .events = ev };
    uint32_t x = 99;
    size_t n = 0;
    char label[64];

    for (int k = 0; k < MANY_FRAMES; k++) {
        lis[k].origin = (mc_vec3){ (float)(k % 2000), 0, 64 };
        lis[k].axis = (mc_mat3){ { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
    }
    for (int e = 0; e < MANY_EMITTERS; e++) {
        fixed[e] = (mc_vec3){ (float)(lcg(&x) % 4000), (float)(lcg(&x) % 800) - 400, 40 };
        em[e + 1].origins = e < 20 ? moving[e] : &fixed[e];
        em[e + 1].num_origins = e < 20 ? 2048 : 1;
        for (int k = 0; e < 20 && k < 2048; k++)
            moving[e][k] = (mc_vec3){ (float)(k * 2), (float)(e * 30 - 300), 40 };
    }
    for (int i = 0; i < 8; i++) {
        clips[i] = noise(0.2 + 0.1 * i, i % 2 ? 22050 : 44100, i == 7 ? 2 : 1, (uint32_t)i);
        sh[i] = (mc_mix_shader){ .entries = { &clips[i], &clips[(i + 1) % 8] }, .num_entries = 2 };
    }
    for (size_t i = 0; i < count; i++) {
        int64_t at = (int64_t)(lcg(&x) % (uint32_t)span);
        int e = (int)(lcg(&x) % (MANY_EMITTERS + 1));
        bool loop = i % 50 == 0;

        ev[n++] = start_event(at, e, (mc_sound_channel)(lcg(&x) % 8), &sh[lcg(&x) % 8],
                              loop ? MC_SSF_LOOPING : 0, (float)(lcg(&x) % 1000) / 1000.0f);
        if (loop) {
            ev[n] = ev[n - 1];
            ev[n].kind = MC_MIX_STOP;
            ev[n++].start = at + 5 * MC_SOUND_RATE;
        }
    }
    d.num_events = n;
    snprintf(label, sizeof label, "%zu events", count);
    run(label, &d, ev, span + 5 * MC_SOUND_RATE, 1838);
    for (int i = 0; i < 8; i++)
        mc_audio_clip_release(&clips[i]);
    free(ev);
}

int main(void)
{
    demo();
    many(10000);
    many(100000);
    return 0;
}
