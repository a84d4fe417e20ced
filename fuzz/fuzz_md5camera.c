/* libFuzzer target: mc_camera_parse on arbitrary bytes. A parsed camera must be valid by
 * construction (md5camera.h), survive a round trip through text, and give a sane timeline and
 * a sane view at every sampled frame (view.h: finite matrices whenever the camera's values
 * cannot overflow a float); a failure must be a sane error. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/md5camera.h>
#include <md5cine/timeline.h>
#include <md5cine/view.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_camera(const mc_camera *c)
{
    FUZZ_REQUIRE(c->num_frames >= 1 && c->frame_rate >= 1);
    FUZZ_REQUIRE(c->num_cuts >= 0 && c->num_cuts <= c->num_frames);
    for (int i = 0; i < c->num_cuts; i++) {
        FUZZ_REQUIRE(c->cuts[i] >= 1 && c->cuts[i] <= c->num_frames - 1);
        FUZZ_REQUIRE(i == 0 || c->cuts[i] > c->cuts[i - 1]);
    }
    for (int i = 0; i < c->num_frames; i++)
        FUZZ_REQUIRE(c->frames[i].fov > 0.0f && c->frames[i].fov < 180.0f);
}

/* Whether the view of any moment must be finite: rotations and positions small enough that
 * the products in the axis and view matrix stay in float range, and a field of view wide
 * enough that 1 / tan(fov / 2) does (fov is in (0, 180) by construction). */
static int camera_small(const mc_camera *c)
{
    for (int i = 0; i < c->num_frames; i++) {
        const mc_camera_frame *f = &c->frames[i];

        if (fabsf(f->rot.x) > 1e6f || fabsf(f->rot.y) > 1e6f || fabsf(f->rot.z) > 1e6f ||
            fabsf(f->pos.x) > 1e15f || fabsf(f->pos.y) > 1e15f || fabsf(f->pos.z) > 1e15f ||
            f->fov < 1e-3f)
            return 0;
    }
    return 1;
}

static int finite_mat4(const mc_mat4 *m)
{
    for (int i = 0; i < 16; i++)
        if (!isfinite(m->m[i]))
            return 0;
    return 1;
}

/* The view of sample s at output frame k: the same as mc_view_at_frame's, the fov between the
 * two stored frames' and both output fovs in (0, 180], finite matrices for a small camera, and
 * Doom's projection layout (view.h). The output size and fov mode vary with k. */
static void check_view(const mc_camera *c, mc_rate fps, int64_t k, const mc_timeline_sample *s,
                       int small)
{
    static const int sizes[][2] = { { 1280, 720 }, { 16, 16384 }, { 640, 480 }, { 16384, 16 } };
    const int *wh = sizes[k % 4];
    mc_fov_mode mode = (k / 4) % 2 ? MC_FOV_DOOM : MC_FOV_HORIZONTAL;
    mc_view v, w;
    mc_timeline_sample again;

    mc_view_from_sample(c, s, wh[0], wh[1], mode, &v);
    mc_view_at_frame(c, fps, k, wh[0], wh[1], mode, &w, &again);
    FUZZ_REQUIRE(s->stored == again.stored && s->next == again.next &&
                 fuzz_same_float(s->lerp, again.lerp) && s->shot == again.shot);
    FUZZ_REQUIRE(memcmp(&v, &w, sizeof v) == 0);
    float lo = fminf(c->frames[s->stored].fov, c->frames[s->next].fov);
    float hi = fmaxf(c->frames[s->stored].fov, c->frames[s->next].fov);
    FUZZ_REQUIRE(v.fov >= lo * (1.0f - 1e-6f) && v.fov <= hi * (1.0f + 1e-6f));
    FUZZ_REQUIRE(v.fov_x > 0.0f && v.fov_x <= 180.0f && v.fov_y > 0.0f && v.fov_y <= 180.0f);
    FUZZ_REQUIRE(v.proj.m[10] == -0.999f && v.proj.m[11] == -1.0f &&
                 v.proj.m[14] == -2.0f * MC_VIEW_ZNEAR);
    for (int i = 0; i < 16; i++)
        FUZZ_REQUIRE(i == 0 || i == 5 || i == 10 || i == 11 || i == 14 || v.proj.m[i] == 0.0f);
    if (!small)
        return;
    FUZZ_REQUIRE(isfinite(v.origin.x) && isfinite(v.origin.y) && isfinite(v.origin.z));
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)
            FUZZ_REQUIRE(isfinite(v.axis.m[r][col]));
    FUZZ_REQUIRE(finite_mat4(&v.view) && finite_mat4(&v.proj));
    FUZZ_REQUIRE(v.proj.m[0] > 0.0f && v.proj.m[5] > 0.0f);
}

/* The timeline of the first output frames and the frame count stay inside the camera, on
 * both clocks; the engine clock samples whole ticks. */
static void check_timeline(const mc_camera *c)
{
    static const mc_rate rates[] = { { 1, 1 }, { 24, 1 }, { 30000, 1001 }, { 60, 1 }, { 1000, 1 } };
    static const mc_clock clocks[] = { MC_CLOCK_IDEAL, MC_CLOCK_ENGINE };
    int small = camera_small(c);

    for (size_t r = 0; r < sizeof rates / sizeof rates[0] * 2; r++) {
        mc_rate fps = rates[r / 2];
        mc_clock clock = clocks[r % 2];
        int64_t count = mc_timeline_frame_count_clock(c, fps, clock, 1);
        int last_shot = 0;

        FUZZ_REQUIRE(count >= 1);
        for (int64_t k = 0; k < count && k < 4096; k++) {
            mc_timeline_sample s;

            mc_timeline_sample_frame_clock(c, fps, clock, k, &s);
            FUZZ_REQUIRE(s.stored >= 0 && s.stored < c->num_frames);
            FUZZ_REQUIRE(s.next >= s.stored && s.next <= s.stored + 1 && s.next < c->num_frames);
            FUZZ_REQUIRE(s.lerp >= 0.0f && s.lerp < 1.0f);
            FUZZ_REQUIRE(s.shot >= last_shot && s.shot <= c->num_cuts);
            FUZZ_REQUIRE(s.ended == (c->num_frames > 1 && k == count - 1));
            if (clock == MC_CLOCK_IDEAL)
                check_view(c, fps, k, &s, small);
            else
                FUZZ_REQUIRE(s.engine_ms >= 0 && s.engine_ms % MC_ENGINE_TICK_MS == 0);
            last_shot = s.shot;
        }
        for (int i = 0; i < c->num_cuts; i++) {
            int64_t k = mc_timeline_cut_frame_clock(c, fps, clock, i);
            mc_timeline_sample s;

            FUZZ_REQUIRE(k >= -1);
            if (k < 0 || k >= count || k >= 4096)
                continue;
            mc_timeline_sample_frame_clock(c, fps, clock, k, &s);
            FUZZ_REQUIRE(s.shot > i);
            if (k > 0) {
                mc_timeline_sample_frame_clock(c, fps, clock, k - 1, &s);
                FUZZ_REQUIRE(s.shot <= i);
            }
        }
    }
}

static void write_camera(FILE *f, const mc_camera *c)
{
    fprintf(f, "MD5Version 10\ncommandline \"\"\nnumFrames %d\nframeRate %d\nnumCuts %d\ncuts {\n",
            c->num_frames, c->frame_rate, c->num_cuts);
    for (int i = 0; i < c->num_cuts; i++)
        fprintf(f, "%d\n", c->cuts[i]);
    fprintf(f, "}\ncamera {\n");
    for (int i = 0; i < c->num_frames; i++) {
        const mc_camera_frame *fr = &c->frames[i];

        fprintf(f, "( %.9g %.9g %.9g ) ( %.9g %.9g %.9g ) %.9g\n", (double)fr->pos.x,
                (double)fr->pos.y, (double)fr->pos.z, (double)fr->rot.x, (double)fr->rot.y,
                (double)fr->rot.z, (double)fr->fov);
    }
    fprintf(f, "}\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    mc_camera c, again;
    mc_error err;
    mc_status s = mc_camera_parse((const char *)data, size, "fuzz.md5camera", &opts, &c, &err);
    fuzz_text t;

    if (s != MC_OK) {
        fuzz_check_error(s, &err, "fuzz.md5camera", data, size);
        FUZZ_REQUIRE(c.frames == NULL && c.arena.head == NULL);
        return 0;
    }
    check_camera(&c);
    check_timeline(&c);
    fuzz_text_open(&t);
    write_camera(t.f, &c);
    fuzz_text_close(&t);
    s = mc_camera_parse(t.buf, t.len, "again", NULL, &again, &err);
    if (s != MC_OK)
        fprintf(stderr, "round trip: %d:%d: %s\n", err.line, err.col, err.msg);
    FUZZ_REQUIRE(s == MC_OK);
    FUZZ_REQUIRE(c.num_frames == again.num_frames && c.frame_rate == again.frame_rate &&
                 c.num_cuts == again.num_cuts);
    if (c.num_cuts > 0)
        FUZZ_REQUIRE(memcmp(c.cuts, again.cuts, (size_t)c.num_cuts * sizeof *c.cuts) == 0);
    FUZZ_REQUIRE(memcmp(c.frames, again.frames, (size_t)c.num_frames * sizeof *c.frames) == 0);
    mc_camera_release(&again);
    mc_camera_release(&c);
    free(t.buf);
    return 0;
}
