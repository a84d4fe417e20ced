/* libFuzzer target: mc_anim_parse on arbitrary bytes. A parsed anim must be valid by
 * construction (md5anim.h: decoding any frame stays inside it) and survive a round trip through
 * text; a failure must be a sane error. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/md5anim.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int popcount6(int flags)
{
    int n = 0;

    for (int b = 0; b < 6; b++)
        n += (flags >> b) & 1;
    return n;
}

static void check_anim(const mc_anim *a, bool lenient)
{
    FUZZ_REQUIRE(a->num_frames >= 1 && a->num_joints >= 1 && a->frame_rate >= 1);
    FUZZ_REQUIRE(a->num_components >= 0 && a->num_components <= 6 * a->num_joints);
    FUZZ_REQUIRE(a->num_bounds >= 0 && a->num_bounds <= a->num_frames);
    FUZZ_REQUIRE(lenient || a->num_bounds == a->num_frames);
    FUZZ_REQUIRE(a->joints[0].parent == -1);
    for (int i = 0; i < a->num_joints; i++) {
        const mc_anim_joint *j = &a->joints[i];

        FUZZ_REQUIRE(j->parent < i && (j->parent >= 0 || (j->parent == -1 && (i == 0 || lenient))));
        FUZZ_REQUIRE(j->flags >= 0 && j->flags <= 63 && j->first >= 0);
        FUZZ_REQUIRE(j->first + popcount6(j->flags) <= a->num_components);
    }
    if (a->num_components > 0)
        FUZZ_REQUIRE(a->frames != NULL);
}

static void write_anim(FILE *f, const mc_anim *a)
{
    fprintf(f, "MD5Version 10\ncommandline \"\"\nnumFrames %d\nnumJoints %d\nframeRate %d\n"
               "numAnimatedComponents %d\nhierarchy {\n",
            a->num_frames, a->num_joints, a->frame_rate, a->num_components);
    for (int i = 0; i < a->num_joints; i++)
        fprintf(f, "\"%s\" %d %d %d\n", a->joints[i].name, a->joints[i].parent, a->joints[i].flags,
                a->joints[i].first);
    fprintf(f, "}\nbounds {\n");
    for (int i = 0; i < a->num_bounds; i++) {
        const mc_bounds *b = &a->bounds[i];

        fprintf(f, "( %.9g %.9g %.9g ) ( %.9g %.9g %.9g )\n", (double)b->min.x, (double)b->min.y,
                (double)b->min.z, (double)b->max.x, (double)b->max.y, (double)b->max.z);
    }
    fprintf(f, "}\nbaseframe {\n");
    for (int i = 0; i < a->num_joints; i++)
        fprintf(f, "( %.9g %.9g %.9g ) ( %.9g %.9g %.9g )\n", (double)a->base_pos[i].x,
                (double)a->base_pos[i].y, (double)a->base_pos[i].z, (double)a->base_rot[i].x,
                (double)a->base_rot[i].y, (double)a->base_rot[i].z);
    fprintf(f, "}\n");
    for (int k = 0; k < a->num_frames; k++) {
        fprintf(f, "frame %d {\n", k);
        for (int i = 0; i < a->num_components; i++)
            fprintf(f, " %.9g", (double)a->frames[(size_t)k * (size_t)a->num_components + (size_t)i]);
        fprintf(f, "\n}\n");
    }
}

static void check_same(const mc_anim *a, const mc_anim *b)
{
    size_t values = (size_t)a->num_frames * (size_t)a->num_components;

    FUZZ_REQUIRE(a->num_frames == b->num_frames && a->num_joints == b->num_joints &&
                 a->frame_rate == b->frame_rate && a->num_components == b->num_components &&
                 a->num_bounds == b->num_bounds);
    for (int i = 0; i < a->num_joints; i++)
        FUZZ_REQUIRE(strcmp(a->joints[i].name, b->joints[i].name) == 0 &&
                     a->joints[i].parent == b->joints[i].parent &&
                     a->joints[i].flags == b->joints[i].flags &&
                     a->joints[i].first == b->joints[i].first);
    if (a->num_bounds > 0)
        FUZZ_REQUIRE(memcmp(a->bounds, b->bounds, (size_t)a->num_bounds * sizeof *a->bounds) == 0);
    FUZZ_REQUIRE(memcmp(a->base_pos, b->base_pos, (size_t)a->num_joints * sizeof *a->base_pos) == 0);
    FUZZ_REQUIRE(memcmp(a->base_rot, b->base_rot, (size_t)a->num_joints * sizeof *a->base_rot) == 0);
    if (values > 0)
        FUZZ_REQUIRE(memcmp(a->frames, b->frames, values * sizeof *a->frames) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    mc_anim a, again;
    mc_error err;
    mc_status s = mc_anim_parse((const char *)data, size, "fuzz.md5anim", &opts, &a, &err);
    fuzz_text t;

    if (s != MC_OK) {
        fuzz_check_error(s, &err, "fuzz.md5anim", data, size);
        FUZZ_REQUIRE(a.joints == NULL && a.frames == NULL && a.arena.head == NULL);
        return 0;
    }
    check_anim(&a, opts.lenient);
    fuzz_text_open(&t);
    write_anim(t.f, &a);
    fuzz_text_close(&t);
    /* Written back, a lenient anim keeps its extra roots and may keep fewer bounds. */
    s = mc_anim_parse(t.buf, t.len, "again", &opts, &again, &err);
    if (s != MC_OK)
        fprintf(stderr, "round trip: %d:%d: %s\n", err.line, err.col, err.msg);
    FUZZ_REQUIRE(s == MC_OK);
    check_same(&a, &again);
    mc_anim_release(&again);
    mc_anim_release(&a);
    free(t.buf);
    return 0;
}
