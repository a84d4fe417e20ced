/* Render-like test frames for the comparison tests and benchmark: a dark gradient background,
 * a shaded ball and a shaded "limb" (a capsule) with antialiased edges, drawn analytically so
 * that a scene can be moved by exactly one pixel, recoloured, or overlaid with noise. Sizes
 * are fractions of the frame height, so one scene looks the same at any resolution. */
#ifndef MC_COMPARE_SCENE_H
#define MC_COMPARE_SCENE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct scene_desc {
    int w, h;
    float ball_x, ball_y, ball_r;       /* centre and radius, in frame heights */
    float limb_x0, limb_y0, limb_x1, limb_y1, limb_half; /* segment and half width, heights */
    float limb_dx, ball_dx;             /* extra offsets in pixels (the "moved by one pixel") */
    uint8_t limb_rgb[3], ball_rgb[3];
    int noise;                          /* every channel of every pixel += uniform -noise..noise */
    int sparse;                         /* every 997th pixel += +-sparse */
    uint32_t seed;
} scene_desc;

/* The scene the tests start from (w x h). */
static inline scene_desc scene_default(int w, int h)
{
    scene_desc d = { w, h, 0.62f, 0.45f, 0.16f, 0.20f, 0.30f, 0.42f, 0.72f, 0.025f, 0.0f, 0.0f,
                     { 90, 160, 210 }, { 200, 120, 80 }, 0, 0, 12345u };
    return d;
}

static inline float scene_clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

static inline uint32_t scene_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Distance (pixels) from p to the segment a-b and where along it (0..1). */
static inline float scene_seg_dist(float px, float py, float ax, float ay, float bx, float by)
{
    float vx = bx - ax, vy = by - ay, wx = px - ax, wy = py - ay;
    float t = scene_clamp01((wx * vx + wy * vy) / (vx * vx + vy * vy));
    float dx = wx - t * vx, dy = wy - t * vy;
    return sqrtf(dx * dx + dy * dy);
}

static inline void scene_pixel(const scene_desc *d, int x, int y, float rgb[3])
{
    float H = (float)d->h, px = (float)x + 0.5f, py = (float)y + 0.5f;
    float g = py / H;
    float bx = d->ball_x * H + d->ball_dx, by = d->ball_y * H, br = d->ball_r * H;
    float dist = sqrtf((px - bx) * (px - bx) + (py - by) * (py - by));
    float cov = scene_clamp01(br - dist + 0.5f);
    float lh = d->limb_half * H, ld;

    rgb[0] = 40.0f - 20.0f * g;
    rgb[1] = 44.0f - 22.0f * g;
    rgb[2] = 60.0f - 30.0f * g;
    if (cov > 0.0f) {
        float nx = (px - bx) / br, ny = (py - by) / br;
        float nz = sqrtf(scene_clamp01(1.0f - nx * nx - ny * ny));
        float shade = 0.2f + 0.8f * scene_clamp01(-0.4f * nx - 0.5f * ny + 0.768f * nz);
        for (int c = 0; c < 3; c++)
            rgb[c] += cov * ((float)d->ball_rgb[c] * shade - rgb[c]);
    }
    ld = scene_seg_dist(px, py, d->limb_x0 * H + d->limb_dx, d->limb_y0 * H,
                        d->limb_x1 * H + d->limb_dx, d->limb_y1 * H);
    cov = scene_clamp01(lh - ld + 0.5f);
    if (cov > 0.0f) {
        float shade = 0.3f + 0.7f * sqrtf(scene_clamp01(1.0f - (ld / lh) * (ld / lh)));
        for (int c = 0; c < 3; c++)
            rgb[c] += cov * ((float)d->limb_rgb[c] * shade - rgb[c]);
    }
}

/* Draws the scene into rgba (w * h * 4 bytes, rows top first, opaque). */
static inline void scene_draw(const scene_desc *d, uint8_t *rgba)
{
    uint32_t s = d->seed;

    for (int y = 0; y < d->h; y++) {
        for (int x = 0; x < d->w; x++) {
            uint8_t *p = rgba + ((size_t)y * (size_t)d->w + (size_t)x) * 4;
            size_t i = (size_t)y * (size_t)d->w + (size_t)x;
            float rgb[3];
            scene_pixel(d, x, y, rgb);
            for (int c = 0; c < 3; c++) {
                long v = lrintf(rgb[c]);
                if (d->noise > 0)
                    v += (long)(scene_rand(&s) % (uint32_t)(2 * d->noise + 1)) - d->noise;
                if (d->sparse > 0 && i % 997 == 0)
                    v += (scene_rand(&s) & 1u) ? d->sparse : -d->sparse;
                p[c] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
            }
            p[3] = 255;
        }
    }
}

#endif
