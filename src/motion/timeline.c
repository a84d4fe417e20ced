#include <md5cine/timeline.h>

#include <math.h>
#include <string.h>

/* Far past the end of any camera (cameras have < 2^31 frames), yet safe to add cuts to. */
#define FAR_FRAME ((int64_t)1 << 40)

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

int64_t mc_timeline_frame_count(const mc_camera *cam, mc_rate fps, int64_t single_frame_length)
{
    int64_t rate = cam->frame_rate > 0 ? cam->frame_rate : 1;
    int64_t raw = 0;
    int n = cam->num_frames, j = 0;

    if (n <= 1)
        return single_frame_length;
    fps = sane_rate(fps);
    /* The first raw frame (floor(p)) whose cut-shifted value passes n - 2. The shift j only
     * grows with raw, so one pass over frames and cuts finds it. */
    for (;;) {
        while (j < cam->num_cuts && raw + j >= cam->cuts[j])
            j++;
        if (raw + j > n - 2)
            break;
        raw++;
    }
    return first_frame_at(raw, rate, fps) + 1;
}

int64_t mc_timeline_cut_frame(const mc_camera *cam, mc_rate fps, int i)
{
    int64_t rate = cam->frame_rate > 0 ? cam->frame_rate : 1;
    int64_t raw;

    if (i < 0 || i >= cam->num_cuts || cam->cuts[i] >= cam->num_frames - 1)
        return -1;
    fps = sane_rate(fps);
    /* Cut i is passed (and counted) once the raw frame floor(p) reaches cuts[i] - i: the cuts
     * before it have each shifted the frame by one. */
    raw = (int64_t)cam->cuts[i] - i;
    if (raw < 0)
        raw = 0;
    return first_frame_at(raw, rate, fps);
}
