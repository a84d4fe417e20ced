/* libFuzzer target: mc_camera_parse on arbitrary bytes. A parsed camera must be valid by
 * construction (md5camera.h), survive a round trip through text, and give a sane timeline;
 * a failure must be a sane error. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/md5camera.h>
#include <md5cine/timeline.h>

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

/* The timeline of the first output frames and the frame count stay inside the camera. */
static void check_timeline(const mc_camera *c)
{
    static const mc_rate rates[] = { { 1, 1 }, { 24, 1 }, { 30000, 1001 }, { 60, 1 }, { 1000, 1 } };

    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        int64_t count = mc_timeline_frame_count(c, rates[r], 1);
        int last_shot = 0;

        FUZZ_REQUIRE(count >= 1);
        for (int64_t k = 0; k < count && k < 4096; k++) {
            mc_timeline_sample s;

            mc_timeline_sample_frame(c, rates[r], k, &s);
            FUZZ_REQUIRE(s.stored >= 0 && s.stored < c->num_frames);
            FUZZ_REQUIRE(s.next >= s.stored && s.next <= s.stored + 1 && s.next < c->num_frames);
            FUZZ_REQUIRE(s.lerp >= 0.0f && s.lerp < 1.0f);
            FUZZ_REQUIRE(s.shot >= last_shot && s.shot <= c->num_cuts);
            FUZZ_REQUIRE(s.ended == (c->num_frames > 1 && k == count - 1));
            last_shot = s.shot;
        }
        for (int i = 0; i < c->num_cuts; i++) {
            int64_t k = mc_timeline_cut_frame(c, rates[r], i);
            mc_timeline_sample s;

            FUZZ_REQUIRE(k >= -1);
            if (k < 0 || k >= count || k >= 4096)
                continue;
            mc_timeline_sample_frame(c, rates[r], k, &s);
            FUZZ_REQUIRE(s.shot > i);
            if (k > 0) {
                mc_timeline_sample_frame(c, rates[r], k - 1, &s);
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
