/* mc_concat (chunk.h) on chunks made here with the encoder: two chunks of a 10-frame "scene" at
 * 24 fps (frames 0-3 and 4-9, shots starting at 0 and 6) joined and read back with
 * libavformat (an independent reader): 10 packets, pts 0..9 frames, keyframes at 0, 4 and 6,
 * two chapters at frames 0 and 6. Then the refusals the library names (gap, another rate,
 * another scene), and an interrupt: each leaves no file in the folder. */
#include <dirent.h>
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/chunk.h>
#include <md5cine/encode.h>
#include <md5cine/fileio.h>

#include "test.h"

#define W 64
#define H 48
#define SCENE_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SCENE_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static char dir[512];

/* Writes chunk first..last of 10 frames to path, with its tags. */
static bool make_chunk(const char *path, int64_t first, int64_t last, mc_rate fps,
                       const char *scene)
{
    static const int64_t shot_frames[] = { 0, 6 };
    int64_t starts[2];
    int numbers[2];
    size_t n = 0;
    uint8_t rgba[W * H * 4];
    mc_chunk_info info = { first, last, 10, fps, "", "crf=18" };
    mc_chunk_tags t;
    mc_encoder_desc d;
    mc_encoder *enc;
    mc_error e;

    snprintf(info.scene, sizeof info.scene, "%s", scene);
    mc_chunk_format(&info, &t);
    const char *const md[] = { "md5cine_chunk", t.chunk, "md5cine_fps",      t.fps,
                               "md5cine_scene", t.scene, "md5cine_settings", t.settings,
                               NULL };
    for (int i = 0; i < 2; i++) /* the shots seen in the chunk, from its first frame */
        if (shot_frames[i] <= last && (i == 1 || shot_frames[1] > first)) {
            starts[n] = (shot_frames[i] > first ? shot_frames[i] : first) - first;
            numbers[n++] = i + 1;
        }
    d = (mc_encoder_desc){ .path = path, .width = W, .height = H, .fps = fps, .first_frame = first,
                           .shot_starts = starts, .shot_numbers = numbers, .shot_count = n,
                           .metadata = md };
    if (mc_encoder_create(&d, &enc, &e) != MC_OK)
        return test_fail(__FILE__, __LINE__, "encoder: %s", e.msg);
    for (int64_t k = first; k <= last; k++) {
        for (size_t i = 0; i < sizeof rgba; i++)
            rgba[i] = (uint8_t)(i % 4 == 3 ? 255 : (i / 4 + (size_t)k * 7) % 200);
        if (mc_encoder_write_rgba(enc, rgba, W * 4, &e) != MC_OK)
            return test_fail(__FILE__, __LINE__, "write: %s", e.msg);
    }
    if (mc_encoder_finish(enc, &e) != MC_OK)
        return test_fail(__FILE__, __LINE__, "finish: %s", e.msg);
    mc_encoder_release(enc);
    return true;
}

static char *in_dir(char *buf, size_t cap, const char *leaf)
{
    snprintf(buf, cap, "%s/%s", dir, leaf);
    return buf;
}

/* Files in the folder whose name contains part (temporaries included). */
static int files_named(const char *part)
{
    int n = test_count_entries(dir, part, true);

    return n < 0 ? 0 : n;
}

static mc_status join(const char *a, const char *b, const char *out, volatile sig_atomic_t *stop,
                      mc_error *e)
{
    char pa[600], pb[600], po[600];
    const char *parts[] = { in_dir(pa, sizeof pa, a), in_dir(pb, sizeof pb, b) };
    mc_concat_desc d = { parts, 2, in_dir(po, sizeof po, out), stop };

    return mc_concat(&d, NULL, e);
}

TEST(two_chunks_join_into_one_video)
{
    char p[600];
    AVFormatContext *fmt = NULL;
    AVPacket *pkt = av_packet_alloc();
    int64_t pts[10], n = 0, keys[10], nk = 0;
    mc_error e;

    ASSERT(pkt);
    ASSERT(make_chunk(in_dir(p, sizeof p, "a.mp4"), 0, 3, (mc_rate){ 24, 1 }, SCENE_A));
    ASSERT(make_chunk(in_dir(p, sizeof p, "b.mp4"), 4, 9, (mc_rate){ 24, 1 }, SCENE_A));
    ASSERT_OK(join("b.mp4", "a.mp4", "ab.mp4", NULL, &e), &e);
    ASSERT(avformat_open_input(&fmt, in_dir(p, sizeof p, "ab.mp4"), NULL, NULL) == 0);
    while (av_read_frame(fmt, pkt) >= 0) {
        AVRational tb = fmt->streams[pkt->stream_index]->time_base;

        if (fmt->streams[pkt->stream_index]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
            n < 10) {
            /* frames: pts * tb * 24, exact in the track's timescale */
            pts[n] = pkt->pts * tb.num * 24 / tb.den;
            if (pkt->flags & AV_PKT_FLAG_KEY)
                keys[nk++] = pts[n];
            n++;
        }
        av_packet_unref(pkt);
    }
    EXPECT_EQ_INT(n, 10);
    for (int64_t i = 0, seen = 0; i < 10; i++, seen = 0) {
        for (int64_t j = 0; j < n; j++)
            seen += pts[j] == i;
        EXPECT_EQ_INT(seen, 1);
    }
    ASSERT(nk >= 3);
    EXPECT_EQ_INT(keys[0], 0);
    EXPECT(keys[1] == 4 || keys[2] == 4);
    EXPECT(keys[1] == 6 || keys[2] == 6);
    ASSERT(fmt->nb_chapters == 2);
    EXPECT_EQ_INT(av_rescale_q(fmt->chapters[1]->start, fmt->chapters[1]->time_base,
                               (AVRational){ 1, 24 }), 6);
    EXPECT_EQ_STR(av_dict_get(fmt->chapters[1]->metadata, "title", NULL, 0)->value, "Shot 2");
    EXPECT_EQ_STR(av_dict_get(fmt->metadata, "md5cine_chunk", NULL, 0)->value, "0-9/10");
    avformat_close_input(&fmt);
    av_packet_free(&pkt);
}

TEST(refusals_name_the_problem_and_leave_nothing)
{
    char p[600];
    mc_error e;

    ASSERT(make_chunk(in_dir(p, sizeof p, "a.mp4"), 0, 3, (mc_rate){ 24, 1 }, SCENE_A));
    ASSERT(make_chunk(in_dir(p, sizeof p, "c.mp4"), 6, 9, (mc_rate){ 24, 1 }, SCENE_A));
    ASSERT(make_chunk(in_dir(p, sizeof p, "r.mp4"), 4, 9, (mc_rate){ 25, 1 }, SCENE_A));
    ASSERT(make_chunk(in_dir(p, sizeof p, "s.mp4"), 4, 9, (mc_rate){ 24, 1 }, SCENE_B));
    EXPECT_EQ_INT(join("a.mp4", "c.mp4", "bad.mp4", NULL, &e), MC_ERR_MISMATCH);
    EXPECT_CONTAINS(e.msg, "frames 4-5 are missing");
    EXPECT_EQ_INT(join("a.mp4", "r.mp4", "bad.mp4", NULL, &e), MC_ERR_MISMATCH);
    EXPECT_CONTAINS(e.msg, "r.mp4' is a chunk of 10 frames at 25/1 fps");
    EXPECT_EQ_INT(join("a.mp4", "s.mp4", "bad.mp4", NULL, &e), MC_ERR_MISMATCH);
    EXPECT_CONTAINS(e.msg, "s.mp4' is a chunk of another scene");
    EXPECT_EQ_INT(files_named("bad"), 0);
}

TEST(an_interrupt_leaves_no_output)
{
    char p[600];
    volatile sig_atomic_t stop = 1;
    mc_error e;

    ASSERT(make_chunk(in_dir(p, sizeof p, "a.mp4"), 0, 3, (mc_rate){ 24, 1 }, SCENE_A));
    ASSERT(make_chunk(in_dir(p, sizeof p, "b.mp4"), 4, 9, (mc_rate){ 24, 1 }, SCENE_A));
    EXPECT_EQ_INT(join("a.mp4", "b.mp4", "stopped.mp4", &stop, &e), MC_ERR_INTERRUPTED);
    EXPECT_EQ_INT(files_named("stopped"), 0);
}

int main(int argc, char **argv)
{
    test_tmp_path(dir, sizeof dir, "concat");
    if (!mc_mkdirs(dir))
        return 1;
    return test_main(argc, argv);
}
