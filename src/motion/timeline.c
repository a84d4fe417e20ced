#include <md5cine/timeline.h>

#include <math.h>
#include <string.h>

/* Far past the end of any camera (cameras have < 2^31 frames), yet safe to add cuts to. */
#define FAR_FRAME ((int64_t)1 << 40)

/* What the saturating arithmetic of the engine clock gives for results too large to matter:
 * far past the end of any camera, in frames, ticks or milliseconds. */
#define FAR_VALUE ((int64_t)1 << 60)

/* floor(a * b / c) for a, b >= 0 and c >= 1, FAR_VALUE when the product would not fit. */
static int64_t muldiv(int64_t a, int64_t b, int64_t c)
{
    if (b != 0 && a > FAR_VALUE / b)
        return FAR_VALUE;
    return a * b / c;
}

/* ceil(a * b / c) for a, b >= 0 and c >= 1, FAR_VALUE when the product would not fit. */
static int64_t muldiv_up(int64_t a, int64_t b, int64_t c)
{
    if (b != 0 && a > FAR_VALUE / b)
        return FAR_VALUE;
    return (a * b + c - 1) / c;
}

/* Applies the cut skipping and end rules of DESIGN.md 2.1 to raw frame f and lerp. */
static void resolve(const mc_camera *cam, int64_t f, float lerp, mc_timeline_sample *out)
{
    int n = cam->num_frames;
    int shot = 0;

    for (int i = 0; i < cam->num_cuts; i++) {
        if (f < cam->cuts[i])
            break;
        f++;
    }
    out->ended = false;
    out->lerp = 0.0f;
    if (n <= 1) {
        out->stored = 0;
        out->next = 0;
    } else if (f > n - 2) {
        out->stored = n - 1;
        out->next = n - 1;
        out->ended = true;
    } else if (lerp == 0.0f) {
        out->stored = (int)f;
        out->next = (int)f;
    } else {
        out->stored = (int)f;
        out->next = (int)f + 1;
        out->lerp = lerp;
    }
    for (int i = 0; i < cam->num_cuts && cam->cuts[i] < out->stored; i++)
        shot++;
    out->shot = shot;
}

/* A lerp strictly below 1 even where float rounding would give 1. */
static float below_one(double x)
{
    float l = (float)x;

    return l >= 1.0f ? nextafterf(1.0f, 0.0f) : l;
}

/* fps with both terms at least 1. */
static mc_rate sane_rate(mc_rate fps)
{
    if (fps.num < 1)
        fps.num = 1;
    if (fps.den < 1)
        fps.den = 1;
    return fps;
}

void mc_timeline_sample_frame(const mc_camera *cam, mc_rate fps, int64_t k, mc_timeline_sample *out)
{
    int64_t rate = cam->frame_rate > 0 ? cam->frame_rate : 1;
    int64_t f, rem, step;

    memset(out, 0, sizeof *out);
    fps = sane_rate(fps);
    if (k < 0)
        k = 0;
    out->frame = k;
    out->engine_ms = -1;
    out->time = (double)k * (double)fps.den / (double)fps.num;
    /* p = k * rate * den / num exactly: whole part f, remainder rem / num. */
    step = rate * fps.den;
    if (k > FAR_FRAME / step) {
        f = FAR_FRAME;
        rem = 0;
    } else {
        f = k * step / fps.num;
        rem = k * step % fps.num;
    }
    resolve(cam, f, rem == 0 ? 0.0f : below_one((double)rem / (double)fps.num), out);
}

void mc_timeline_sample_time(const mc_camera *cam, double t, mc_timeline_sample *out)
{
    int rate = cam->frame_rate > 0 ? cam->frame_rate : 1;
    double p = t * (double)rate, fl;

    memset(out, 0, sizeof *out);
    out->frame = -1;
    out->engine_ms = -1;
    out->time = t;
    if (!(p > 0.0)) /* negative or NaN */
        p = 0.0;
    if (p >= (double)FAR_FRAME) {
        resolve(cam, FAR_FRAME, 0.0f, out);
        return;
    }
    fl = floor(p);
    resolve(cam, (int64_t)fl, p - fl == 0.0 ? 0.0f : below_one(p - fl), out);
}

/* The first output frame k with floor(k * rate * den / num) >= raw (raw >= 0). */
static int64_t first_frame_at(int64_t raw, int64_t rate, mc_rate fps)
{
    int64_t step = rate * fps.den;

    return (raw * fps.num + step - 1) / step;
}

/* The first raw frame (floor(p)) whose cut-shifted value passes n - 2 (n >= 2). The shift j
 * only grows with raw, so one pass over frames and cuts finds it. */
static int64_t end_raw(const mc_camera *cam)
{
    int64_t raw = 0;
    int n = cam->num_frames, j = 0;

    for (;;) {
        while (j < cam->num_cuts && raw + j >= cam->cuts[j])
            j++;
        if (raw + j > n - 2)
            return raw;
        raw++;
    }
}

int64_t mc_timeline_frame_count(const mc_camera *cam, mc_rate fps, int64_t single_frame_length)
{
    return mc_timeline_frame_count_clock(cam, fps, MC_CLOCK_IDEAL, single_frame_length);
}

int64_t mc_timeline_cut_frame(const mc_camera *cam, mc_rate fps, int i)
{
    return mc_timeline_cut_frame_clock(cam, fps, MC_CLOCK_IDEAL, i);
}

/* ---- the engine clock ------------------------------------------------------------------- */

int64_t mc_timeline_engine_ms(mc_rate fps, int64_t k)
{
    fps = sane_rate(fps);
    if (k < 0)
        k = 0;
    /* The tick count at real time k * den / num seconds, then its game time. */
    int64_t ticks = muldiv(k, 1000 * (int64_t)fps.den, MC_ENGINE_TICK_MS * (int64_t)fps.num);

    return ticks >= FAR_VALUE / MC_ENGINE_TICK_MS ? FAR_VALUE : MC_ENGINE_TICK_MS * ticks;
}

void mc_timeline_sample_ms(const mc_camera *cam, int64_t ms, mc_timeline_sample *out)
{
    int64_t rate = cam->frame_rate > 0 ? cam->frame_rate : 1;
    int64_t f, p;
    float lerp = 0.0f;

    memset(out, 0, sizeof *out);
    if (ms < 0)
        ms = 0;
    out->frame = -1;
    out->time = (double)ms / 1000.0;
    out->engine_ms = ms;
    if (rate == 60) {
        /* USERCMD_HZ: one stored frame per game tick, never interpolated. */
        f = ms / MC_ENGINE_TICK_MS;
    } else {
        p = muldiv(ms, rate, 1);
        f = p / 1000;
        lerp = (float)(p % 1000) * 0.001f;
    }
    resolve(cam, f < FAR_FRAME ? f : FAR_FRAME, lerp, out);
}

void mc_timeline_sample_frame_clock(const mc_camera *cam, mc_rate fps, mc_clock clock, int64_t k,
                                    mc_timeline_sample *out)
{
    if (clock != MC_CLOCK_ENGINE) {
        mc_timeline_sample_frame(cam, fps, k, out);
        return;
    }
    fps = sane_rate(fps);
    if (k < 0)
        k = 0;
    mc_timeline_sample_ms(cam, mc_timeline_engine_ms(fps, k), out);
    out->frame = k;
    out->time = (double)k * (double)fps.den / (double)fps.num;
}

/* The first output frame (engine clock) whose raw frame -- before the cuts shift it -- is at
 * least raw. */
static int64_t engine_first_frame_at(int64_t raw, int64_t rate, mc_rate fps)
{
    int64_t tick;

    /* The first tick whose game time reaches raw: ms / 16 >= raw at 60 fps, else
     * ms * rate / 1000 >= raw. */
    if (rate == 60)
        tick = raw;
    else
        tick = muldiv_up(raw, 1000, MC_ENGINE_TICK_MS * rate);
    /* The first output frame k with floor(k * 1000 * den / (16 * num)) >= tick. */
    return muldiv_up(tick, MC_ENGINE_TICK_MS * (int64_t)fps.num, 1000 * (int64_t)fps.den);
}

/* The first output frame, by clock, whose raw frame is at least raw. */
static int64_t clock_first_frame_at(const mc_camera *cam, mc_rate fps, mc_clock clock,
                                    int64_t raw)
{
    int64_t rate = cam->frame_rate > 0 ? cam->frame_rate : 1;

    fps = sane_rate(fps);
    return clock == MC_CLOCK_ENGINE ? engine_first_frame_at(raw, rate, fps)
                                    : first_frame_at(raw, rate, fps);
}

int64_t mc_timeline_frame_count_clock(const mc_camera *cam, mc_rate fps, mc_clock clock,
                                      int64_t single_frame_length)
{
    if (cam->num_frames <= 1)
        return single_frame_length;
    return clock_first_frame_at(cam, fps, clock, end_raw(cam)) + 1;
}

int64_t mc_timeline_cut_frame_clock(const mc_camera *cam, mc_rate fps, mc_clock clock, int i)
{
    int64_t raw;

    if (i < 0 || i >= cam->num_cuts || cam->cuts[i] >= cam->num_frames - 1)
        return -1;
    /* Cut i is passed (and counted) once the raw frame floor(p) reaches cuts[i] - i: the cuts
     * before it have each shifted the frame by one. */
    raw = (int64_t)cam->cuts[i] - i;
    if (raw < 0)
        raw = 0;
    return clock_first_frame_at(cam, fps, clock, raw);
}
