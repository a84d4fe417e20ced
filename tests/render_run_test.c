/* The render run (render_run.h) on tests/data/render/boxes.md5scene: 6 output frames of 64x64
 * at 24 fps in three shots starting at frames 0, 2 and 4 (cuts.md5camera, as render_cli_test.sh
 * reads them). What the run says it did against what libavformat reads back; its desc's checks
 * as a golden table; the diff folder's defaults written out by hand; a stop and a missing
 * reference, each with nothing left behind and the stage that failed. */
#include <libavformat/avformat.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/render_run.h>
#include <md5cine/scene.h>

#include "test.h"

#define SCENE "data/render/boxes.md5scene"

static mc_scene scene;

static mc_render_run_desc base_desc(const char *output)
{
    mc_render_run_desc d = { .renderer = { .scene = &scene, .msaa = MC_MSAA_DEFAULT },
                             .output = output, .jobs = 1 };

    return d;
}

static int entries(const char *dir)
{
    return test_count_entries(dir, "", true);
}

TEST(diff_folders_default_beside_the_output)
{
    static const struct {
        const char *output, *reference, *diff_dir, *want;
    } cases[] = {
        { "out/clip.mp4", "ref", NULL, "out/clip.diff" },
        { "f/%05d.png", "ref", NULL, "f.diff" },
        { "a/b//%05d.png", "ref", NULL, "a/b.diff" },
        { "%05d.png", "ref", NULL, "render.diff" },
        { "-", "ref/", NULL, "ref.diff" },
        { NULL, "refs/r.mp4", NULL, "refs/r.diff" },
        { "x.mp4", "ref", "mine", "mine" },
        { "x.txt", "ref", NULL, "ref.diff" }, /* a name no kind has: as none */
    };

    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        mc_render_run_desc d = base_desc(cases[i].output);
        char out[256];

        d.reference = cases[i].reference;
        d.diff_dir = cases[i].diff_dir;
        mc_render_run_diff_dir(&d, out, sizeof out);
        EXPECT_EQ_STR(out, cases[i].want);
    }
}

TEST(create_refuses_what_cannot_be_rendered)
{
    static const struct {
        const char *output;
        int jobs, first, last, bg_none;
        const char *junit;
        const char *msg;
    } cases[] = {
        { "x.mp4", 17, 0, 0, 0, NULL, "jobs 17 is outside 0..16" },
        { "x.mp4", 0, 3, 6, 0, NULL, "frames 3-6 are outside the scene's frames 0-5" },
        { "x.mp4", 0, 4, 3, 0, NULL, "frames 4-3 are outside the scene's frames 0-5" },
        { "x.wav", 0, 0, 0, 0, NULL, "output 'x.wav' holds sound only (WAV)" },
        { "x.png", 0, 0, 0, 0, NULL, "PNG output 'x.png' needs a frame number" },
        { "x.mp4", 0, 0, 0, 1, NULL, "a transparent background needs an output that keeps "
                                     "alpha (a PNG pattern): 'x.mp4' has none" },
        { "x.mp4", 0, 0, 0, 0, "j.xml", "the reference check's settings need a reference" },
    };
    mc_render_run *run = (mc_render_run *)&scene; /* must come back NULL */
    mc_scene unresolved = { 0 };
    mc_error err;

    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        mc_render_run_desc d = base_desc(cases[i].output);

        d.jobs = cases[i].jobs;
        d.has_frames = cases[i].last > 0;
        d.first = cases[i].first;
        d.last = cases[i].last;
        d.renderer.background_mode = cases[i].bg_none ? MC_BACKGROUND_NONE : MC_BACKGROUND_SCENE;
        d.junit = cases[i].junit;
        EXPECT_EQ_INT(mc_render_run_create(&d, &run, &err), MC_ERR_USAGE);
        EXPECT_CONTAINS(err.msg, cases[i].msg);
        EXPECT(run == NULL);
    }
    mc_render_run_desc d = base_desc("x.mp4");
    d.renderer.scene = &unresolved;
    EXPECT_EQ_INT(mc_render_run_create(&d, &run, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "needs a loaded scene");
}

typedef struct seen {
    int calls;
    int64_t done[8], total[8];
    mc_frame_no frame[8];
    volatile sig_atomic_t *stop; /* set once done reaches stop_at */
    int64_t stop_at;
} seen;

static void on_progress(void *user, int64_t done, int64_t total, mc_frame_no frame)
{
    seen *s = user;

    if (s->calls < 8) {
        s->done[s->calls] = done;
        s->total[s->calls] = total;
        s->frame[s->calls] = frame;
    }
    s->calls++;
    if (s->stop && done == s->stop_at)
        *s->stop = 1;
}

/* The format's tag key as libavformat reads it from path; "" when absent. */
static void read_tag(const char *path, const char *key, char *out, size_t cap, int *frames)
{
    AVFormatContext *fc = NULL;
    const AVDictionaryEntry *e;

    out[0] = '\0';
    *frames = -1;
    if (avformat_open_input(&fc, path, NULL, NULL) < 0)
        return;
    avformat_find_stream_info(fc, NULL);
    e = av_dict_get(fc->metadata, key, NULL, 0);
    snprintf(out, cap, "%s", e ? e->value : "");
    *frames = (int)fc->streams[0]->nb_frames;
    avformat_close_input(&fc);
}

TEST(renders_a_chunk_and_says_what_it_wrote)
{
    char dir[4096], path[4200], tag[128];
    mc_render_run_desc d;
    mc_render_run *run = NULL;
    mc_render_run_info info;
    mc_render_run_stats st;
    seen s = { 0 };
    mc_error err;
    int frames;

    test_tmp_path(dir, sizeof dir, "run_video");
    snprintf(path, sizeof path, "%s/sub/boxes.mp4", dir);
    d = base_desc(path);
    d.has_frames = true;
    d.first = 1;
    d.last = 4;
    d.progress = on_progress;
    d.progress_user = &s;
    ASSERT_OK(mc_render_run_create(&d, &run, &err), &err);
    EXPECT_EQ_INT(mc_render_run_stage(run), MC_RUN_STAGE_CREATED);
    mc_render_run_get_info(run, &info);
    EXPECT_EQ_INT(info.output_kind, MC_OUTPUT_MP4);
    ASSERT_OK(mc_render_run_prepare(run, &err), &err);
    EXPECT_EQ_INT(mc_render_run_stage(run), MC_RUN_STAGE_READY);
    EXPECT_EQ_INT(mc_render_run_prepare(run, &err), MC_ERR_USAGE);
    mc_render_run_get_info(run, &info);
    EXPECT(info.width == 64 && info.height == 64 && info.fps.num == 24 && info.fps.den == 1);
    EXPECT(info.first == 1 && info.last == 4 && info.frame_count == 6);
    EXPECT(info.jobs == 1 && info.sink_threads == 1 && info.gl.samples == 4);
    EXPECT(mc_render_run_check(run) == NULL);
    ASSERT_OK(mc_render_run_frames(run, &err), &err);
    EXPECT_EQ_INT(mc_render_run_stage(run), MC_RUN_STAGE_DONE);
    EXPECT_EQ_STR(mc_render_run_codec_name(run), "libx264");
    mc_render_run_get_stats(run, &st);
    EXPECT_EQ_INT(st.frames, 4);
    EXPECT(st.wall_s > 0 && st.end_s > 0 && st.encode_s > 0 && st.png_s == 0);
    EXPECT_EQ_INT(s.calls, 4);
    for (int i = 0; i < 4 && i < s.calls; i++)
        EXPECT(s.done[i] == i + 1 && s.total[i] == 4 && s.frame[i] == 1 + i);
    mc_render_run_release(run);
    /* The chunk 1-4 of the scene's 6 frames, as chunk.h tags it; 4 frames. */
    read_tag(path, "md5cine_chunk", tag, sizeof tag, &frames);
    EXPECT_EQ_STR(tag, "1-4/6");
    EXPECT_EQ_INT(frames, 4);
    read_tag(path, "md5cine_fps", tag, sizeof tag, &frames);
    EXPECT_EQ_STR(tag, "24/1");
    snprintf(path, sizeof path, "%s/sub", dir);
    EXPECT_EQ_INT(entries(path), 1);
}

TEST(a_stop_ends_the_frames_and_leaves_no_video)
{
    volatile sig_atomic_t stop = 0;
    char dir[4096], path[4200];
    mc_render_run_desc d;
    mc_render_run *run = NULL;
    seen s = { .stop = &stop, .stop_at = 2 };
    mc_error err;

    test_tmp_path(dir, sizeof dir, "run_stop");
    snprintf(path, sizeof path, "%s/boxes.mkv", dir);
    d = base_desc(path);
    d.renderer.stop = &stop;
    d.progress = on_progress;
    d.progress_user = &s;
    ASSERT_OK(mc_render_run_create(&d, &run, &err), &err);
    ASSERT_OK(mc_render_run_prepare(run, &err), &err);
    EXPECT_EQ_INT(entries(dir), 1); /* the temporary */
    EXPECT_EQ_INT(mc_render_run_frames(run, &err), MC_ERR_INTERRUPTED);
    EXPECT_EQ_STR(err.msg, "interrupted");
    EXPECT_EQ_INT(mc_render_run_stage(run), MC_RUN_STAGE_FRAMES);
    EXPECT_EQ_INT(s.calls, 2);
    EXPECT(mc_render_run_codec_name(run) == NULL);
    EXPECT_EQ_INT(entries(dir), 0); /* gone before release */
    mc_render_run_release(run);
}

TEST(a_missing_reference_stops_before_any_output)
{
    char dir[4096], pat[4200];
    mc_render_run_desc d;
    mc_render_run *run = NULL;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "run_noref");
    snprintf(pat, sizeof pat, "%s/frames/%%05d.png", dir);
    d = base_desc(pat);
    d.reference = "data/no-such-reference";
    ASSERT_OK(mc_render_run_create(&d, &run, &err), &err);
    EXPECT(mc_render_run_prepare(run, &err) != MC_OK);
    EXPECT_CONTAINS(err.msg, "no-such-reference");
    EXPECT_EQ_INT(mc_render_run_stage(run), MC_RUN_STAGE_REFERENCE);
    EXPECT_EQ_INT(mc_render_run_frames(run, &err), MC_ERR_USAGE);
    mc_render_run_release(run);
    EXPECT_EQ_INT(entries(dir), -1); /* not even the PNG folder */
}

int main(int argc, char **argv)
{
    mc_error err;
    int rc;

    if (mc_scene_load(SCENE, NULL, &scene, &err) != MC_OK) {
        fprintf(stderr, "%s: %s\n", SCENE, err.msg);
        return 1;
    }
    rc = test_main(argc, argv);
    mc_scene_release(&scene);
    return rc;
}
