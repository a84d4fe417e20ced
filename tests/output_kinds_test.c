/* The table of output kinds (output_kinds.h): names against the kinds written out by hand,
 * the lists the messages are made of, each row's muxer against the one libavformat itself picks
 * for the extension (av_guess_format, an independent reading), and the encoder taking its
 * container from a kind rather than the name. */
#include <libavformat/avformat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/encode.h>
#include <md5cine/output_kinds.h>

#include "test.h"

TEST(names_are_the_kinds_their_endings_say)
{
    static const struct {
        const char *name;
        mc_output_kind want;
    } cases[] = {
        { "a.mp4", MC_OUTPUT_MP4 },       { "A.MP4", MC_OUTPUT_MP4 },
        { "d.mkv/x.MoV", MC_OUTPUT_MOV }, { "x.mkv", MC_OUTPUT_MKV },
        { "x.y4m", MC_OUTPUT_Y4M },       { "-", MC_OUTPUT_Y4M },
        { "f/%05d.png", MC_OUTPUT_PNG },  { "s.WAV", MC_OUTPUT_WAV },
        { "out/.mp4", MC_OUTPUT_MP4 },    { ".mp4", MC_OUTPUT_NONE },
        { "x.avi", MC_OUTPUT_NONE },      { "x.webm", MC_OUTPUT_NONE },
        { "mp4", MC_OUTPUT_NONE },        { "x.mp4 ", MC_OUTPUT_NONE },
        { "x.mp4/", MC_OUTPUT_NONE },     { "", MC_OUTPUT_NONE },
        { "--", MC_OUTPUT_NONE },
    };

    for (size_t i = 0; i < TEST_COUNT(cases); i++)
        if (mc_output_kind_of(cases[i].name) != cases[i].want)
            test_fail(__FILE__, __LINE__, "'%s' is kind %d, expected %d", cases[i].name,
                      (int)mc_output_kind_of(cases[i].name), (int)cases[i].want);
    EXPECT_EQ_INT(mc_output_kind_of(NULL), MC_OUTPUT_NONE);
}

TEST(each_row_is_its_kind_and_its_example_names_it)
{
    size_t n;
    const mc_output_kind_info *rows = mc_output_kinds(&n);

    EXPECT_EQ_INT(n, 6);
    EXPECT(mc_output_kind_get(MC_OUTPUT_NONE) == NULL);
    EXPECT(mc_output_kind_get((mc_output_kind)99) == NULL);
    for (size_t i = 0; i < n; i++) {
        EXPECT(mc_output_kind_get(rows[i].kind) == &rows[i]);
        EXPECT_EQ_INT(mc_output_kind_of(rows[i].example), rows[i].kind);
    }
    EXPECT_EQ_STR(mc_output_kind_get(MC_OUTPUT_MKV)->name, "mkv");
    EXPECT_EQ_STR(mc_output_kind_get(MC_OUTPUT_Y4M)->title, "yuv4mpeg2");
}

/* What the render run and the sinks decide by: written out per kind. */
TEST(props_say_what_each_kind_holds)
{
    const unsigned av = MC_OUTPUT_FRAMES | MC_OUTPUT_ENCODED | MC_OUTPUT_SOUND;

    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_MP4)->props, av);
    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_MKV)->props, av);
    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_MOV)->props, av);
    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_Y4M)->props, MC_OUTPUT_FRAMES | MC_OUTPUT_STDOUT);
    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_PNG)->props,
                  MC_OUTPUT_FRAMES | MC_OUTPUT_PATTERN | MC_OUTPUT_ALPHA | MC_OUTPUT_PARALLEL);
    EXPECT_EQ_INT(mc_output_kind_get(MC_OUTPUT_WAV)->props, MC_OUTPUT_SOUND);
    EXPECT_EQ_INT(mc_output_kind_with(MC_OUTPUT_STDOUT)->kind, MC_OUTPUT_Y4M);
    EXPECT_EQ_INT(mc_output_kind_with(MC_OUTPUT_PATTERN)->kind, MC_OUTPUT_PNG);
    EXPECT_EQ_INT(mc_output_kind_with(MC_OUTPUT_SOUND)->kind, MC_OUTPUT_MP4);
    EXPECT(mc_output_kind_with(1u << 20) == NULL);
}

TEST(lists_join_the_extensions_as_the_messages_say)
{
    char buf[128];

    EXPECT_EQ_INT(mc_output_kinds_list(MC_OUTPUT_ENCODED, 0, ", ", " or ", buf, sizeof buf), 18);
    EXPECT_EQ_STR(buf, ".mp4, .mkv or .mov");
    mc_output_kinds_list(MC_OUTPUT_FRAMES, MC_OUTPUT_PATTERN, ", ", ", ", buf, sizeof buf);
    EXPECT_EQ_STR(buf, ".mp4, .mkv, .mov, .y4m");
    mc_output_kinds_list(MC_OUTPUT_FRAMES, MC_OUTPUT_ENCODED | MC_OUTPUT_PATTERN, " ", " ", buf,
                         sizeof buf);
    EXPECT_EQ_STR(buf, ".y4m");
    mc_output_kinds_list(MC_OUTPUT_SOUND, MC_OUTPUT_FRAMES, " ", " ", buf, sizeof buf);
    EXPECT_EQ_STR(buf, ".wav");
    EXPECT_EQ_INT(mc_output_kinds_list(1u << 20, 0, " ", " ", buf, sizeof buf), 0);
    EXPECT_EQ_STR(buf, "");
    /* Cut to fit, the whole length returned, as snprintf. */
    EXPECT_EQ_INT(mc_output_kinds_list(MC_OUTPUT_ENCODED, 0, ", ", " or ", buf, 7), 18);
    EXPECT_EQ_STR(buf, ".mp4, ");
    EXPECT_EQ_INT(mc_output_kinds_list(MC_OUTPUT_ENCODED, 0, ", ", " or ", NULL, 0), 18);
}

/* libavformat's own choice for "x<ext>" is the row's muxer, and it knows every extension. */
TEST(muxers_are_the_ones_libavformat_picks_for_the_extensions)
{
    size_t n;
    const mc_output_kind_info *rows = mc_output_kinds(&n);

    for (size_t i = 0; i < n; i++) {
        char name[32];
        const AVOutputFormat *f;

        snprintf(name, sizeof name, "x%s", rows[i].exts);
        f = av_guess_format(NULL, name, NULL);
        if (!f) {
            test_fail(__FILE__, __LINE__, "libavformat knows no format for '%s'", name);
            continue;
        }
        if (rows[i].muxer)
            EXPECT_EQ_STR(f->name, rows[i].muxer);
    }
    EXPECT_EQ_STR(av_guess_format(NULL, "x.y4m", NULL)->name, "yuv4mpegpipe");
    EXPECT_EQ_STR(av_guess_format(NULL, "x.wav", NULL)->name, "wav");
}

/* Writes two grey frames to path with kind; the status of the first failure. */
static mc_status encode_two(const char *path, mc_output_kind kind, mc_error *err)
{
    enum { W = 64, H = 48 };
    uint8_t *rgba = calloc((size_t)W * H, 4);
    mc_encoder_desc d = { .path = path, .kind = kind, .width = W, .height = H,
                          .fps = { 24, 1 }, .codec = "mpeg4" };
    mc_encoder *enc = NULL;
    mc_status st = rgba ? mc_encoder_create(&d, &enc, err) : MC_ERR_NOMEM;

    for (int k = 0; st == MC_OK && k < 2; k++) {
        memset(rgba, 100 + 50 * k, (size_t)W * H * 4);
        st = mc_encoder_write_rgba(enc, rgba, W * 4, err);
    }
    if (st == MC_OK)
        st = mc_encoder_finish(enc, err);
    mc_encoder_release(enc);
    free(rgba);
    return st;
}

TEST(the_encoder_takes_its_container_from_a_kind)
{
    char path[4096];
    AVFormatContext *fc = NULL;
    mc_error err;

    test_tmp_path(path, sizeof path, "clip.bin");
    ASSERT(encode_two(path, MC_OUTPUT_MKV, &err) == MC_OK);
    ASSERT(avformat_open_input(&fc, path, NULL, NULL) == 0);
    EXPECT_CONTAINS(fc->iformat->name, "matroska");
    avformat_close_input(&fc);
    remove(path);

    EXPECT_EQ_INT(encode_two(path, MC_OUTPUT_NONE, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "cannot tell the video format of '");
    EXPECT_CONTAINS(err.msg, "clip.bin': use .mp4, .mkv, .mov, .y4m or '-'");
    EXPECT_EQ_INT(encode_two(path, MC_OUTPUT_PNG, &err), MC_ERR_USAGE);
    EXPECT_EQ_INT(encode_two(path, MC_OUTPUT_WAV, &err), MC_ERR_USAGE);
    /* Standard output takes the stream that can go there, whatever the kind asked. */
    EXPECT_EQ_INT(encode_two("-", MC_OUTPUT_MP4, &err), MC_ERR_USAGE);
}
