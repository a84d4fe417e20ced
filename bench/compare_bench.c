/* Figures behind the comparison defaults (include/md5cine/compare.h): the metrics of harmless
 * and of real changes to a render-like frame at several sizes, and the time one comparison
 * takes. Prints a table; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <md5cine/compare.h>

#include "../tests/compare_scene.h"

typedef struct scenario {
    const char *name;
    void (*change)(scene_desc *d);
} scenario;

static void noise2(scene_desc *d)
{
    d->noise = 2;
}

static void sparse3(scene_desc *d)
{
    d->sparse = 3;
}

static void limb_moved(scene_desc *d)
{
    d->limb_dx = 1.0f;
}

static void thin_limb_moved(scene_desc *d)
{
    d->limb_y1 = d->limb_y0 + 0.08f;
    d->limb_x1 = d->limb_x0 + 0.02f;
    d->limb_half = 0.008f;
}

static void ball_moved(scene_desc *d)
{
    d->ball_dx = 1.0f;
}

static void next_frame(scene_desc *d)
{
    d->ball_x += 0.01f;
    d->limb_x1 += 0.01f;
}

static void recoloured(scene_desc *d)
{
    d->limb_rgb[0] = 110;
    d->limb_rgb[2] = 190;
}

static const scenario scenarios[] = {
    { "noise +-2 everywhere", noise2 },  { "+-3 on every 997th pixel", sparse3 },
    { "limb moved 1 px", limb_moved },   { "thin short limb moved 1 px", thin_limb_moved },
    { "ball moved 1 px", ball_moved },   { "next animation frame", next_frame },
    { "limb recoloured (+20 R, -20 B)", recoloured },
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_size(int w, int h, uint8_t *a, uint8_t *b, mc_compare_work *work)
{
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        scene_desc da = scene_default(w, h), db = scene_default(w, h);
        mc_compare_result r;
        mc_error err;
        double t0;

        if (scenarios[i].change == thin_limb_moved) {
            thin_limb_moved(&da);
            thin_limb_moved(&db);
            db.limb_dx = 1.0f;
        } else {
            scenarios[i].change(&db);
        }
        scene_draw(&da, a);
        scene_draw(&db, b);
        t0 = now_s();
        if (mc_compare_rgba(a, (size_t)w * 4, b, (size_t)w * 4, w, h, NULL, work, &r, &err) !=
            MC_OK) {
            fprintf(stderr, "compare_bench: %s\n", err.msg);
            return;
        }
        printf("%5dx%-5d %-32s max %3d  mean %7.4f  psnr %6.2f  over %6zu (%7.4f%%)  "
               "ssim %.6f  %s  %.1f ms\n",
               w, h, scenarios[i].name, r.max_diff, r.mean_diff, r.psnr, r.over_pixels,
               100.0 * r.over_share, r.ssim, r.pass ? "pass" : "FAIL", 1e3 * (now_s() - t0));
    }
}

int main(void)
{
    static const int sizes[][2] = { { 320, 240 }, { 640, 360 }, { 1280, 720 }, { 1920, 1080 } };
    mc_compare_work work = { 0 };
    uint8_t *a = malloc((size_t)1920 * 1080 * 4), *b = malloc((size_t)1920 * 1080 * 4);

    if (!a || !b)
        return 1;
    printf("lossless defaults; columns: max channel diff, mean diff, PSNR dB, pixels over the "
           "threshold, luma SSIM, verdict, time of one comparison\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run_size(sizes[s][0], sizes[s][1], a, b, &work);
    mc_compare_work_release(&work);
    free(a);
    free(b);
    return 0;
}
