/* The PNG sequence (png_sequence.h) and the reading of an output name (output.h): patterns and
 * their errors as a golden table, file names and folders written out by hand, straight alpha
 * worked out by hand from c = rgb * 255 / a, and frames written and read back. */
#include <md5cine/image.h>
#include <md5cine/output.h>
#include <md5cine/png_sequence.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

static const struct {
    const char *pattern;
    const char *frame_17; /* NULL: refused with msg */
    const char *msg;
} patterns[] = {
    { "frames/%05d.png", "frames/00017.png", NULL },
    { "%d.png", "17.png", NULL },
    { "a/b/x%3d.png", "a/b/x 17.png", NULL },
    { "%1d.png", "17.png", NULL },
    { "100%%/%02d%%.png", "100%/17%.png", NULL },
    { "f%020d.png", "f00000000000000000017.png", NULL },
    { "frames.png", NULL, "PNG output 'frames.png' needs a frame number such as '%05d'" },
    { "%d/%d.png", NULL, "PNG output '%d/%d.png' has two frame numbers" },
    { "%05x.png", NULL, "PNG output '%05x.png' may only use '%d' with a width, as in '%05d'" },
    { "%021d.png", NULL, "PNG output '%021d.png' may only use '%d' with a width, as in '%05d'" },
    { "%-5d.png", NULL, "PNG output '%-5d.png' may only use '%d' with a width, as in '%05d'" },
    { "%s.png", NULL, "PNG output '%s.png' may only use '%d' with a width, as in '%05d'" },
    { "x%", NULL, "PNG output 'x%' may only use '%d' with a width, as in '%05d'" },
};

TEST(patterns_name_frames_or_say_what_is_wrong)
{
    for (size_t i = 0; i < TEST_COUNT(patterns); i++) {
        mc_png_pattern p;
        mc_error err;
        char name[256];
        mc_status st = mc_png_pattern_parse(patterns[i].pattern, &p, &err);

        if (patterns[i].frame_17) {
            EXPECT_EQ_INT(st, MC_OK);
            EXPECT(mc_png_pattern_format(&p, 17, name, sizeof name));
            EXPECT_EQ_STR(name, patterns[i].frame_17);
        } else {
            EXPECT_EQ_INT(st, MC_ERR_USAGE);
            EXPECT_EQ_STR(err.msg, patterns[i].msg);
            EXPECT_EQ_STR(err.file, patterns[i].pattern);
        }
    }
}

TEST(names_and_folders_follow_the_pattern)
{
    mc_png_pattern p;
    mc_error err;
    char out[64], dir[64];

    ASSERT_OK(mc_png_pattern_parse("out/f%04d.png", &p, &err), &err);
    EXPECT(mc_png_pattern_format(&p, 0, out, sizeof out));
    EXPECT_EQ_STR(out, "out/f0000.png");
    EXPECT(mc_png_pattern_format(&p, 123456, out, sizeof out));
    EXPECT_EQ_STR(out, "out/f123456.png");
    EXPECT(mc_png_pattern_format(&p, -3, out, sizeof out));
    EXPECT_EQ_STR(out, "out/f00-3.png");
    /* "out/f0007.png" is 13 bytes and its NUL. */
    EXPECT(mc_png_pattern_format(&p, 7, out, 14));
    EXPECT(!mc_png_pattern_format(&p, 7, out, 13));
    mc_png_pattern_dir(&p, dir, sizeof dir);
    EXPECT_EQ_STR(dir, "out/");
    ASSERT_OK(mc_png_pattern_parse("%d.png", &p, &err), &err);
    mc_png_pattern_dir(&p, dir, sizeof dir);
    EXPECT_EQ_STR(dir, "");
}

/* The suffix holds 255 bytes and its NUL (png_sequence.h: suffix[256]): "%d" and 255 'x' is
 * a pattern, one 'x' more is too long. */
TEST(a_suffix_past_its_room_is_too_long)
{
    char s[2 + 256 + 1], msg[sizeof s + 64], name[300];
    mc_png_pattern p;
    mc_error err;

    memcpy(s, "%d", 2);
    memset(s + 2, 'x', 255);
    s[2 + 255] = '\0';
    ASSERT_OK(mc_png_pattern_parse(s, &p, &err), &err);
    EXPECT_EQ_INT((long long)strlen(p.suffix), 255);
    EXPECT(mc_png_pattern_format(&p, 5, name, sizeof name));
    EXPECT_EQ_INT((long long)strlen(name), 256);
    s[2 + 255] = 'x';
    s[2 + 256] = '\0';
    EXPECT_EQ_INT(mc_png_pattern_parse(s, &p, &err), MC_ERR_USAGE);
    snprintf(msg, sizeof msg, "PNG output '%s' is too long", s);
    EXPECT_EQ_STR(err.msg, msg);
    EXPECT_EQ_STR(p.suffix, "");
}

TEST(straight_alpha_is_rgb_times_255_over_alpha)
{
    /* (64 * 255 + 64) / 128 = 128, (32 * 255 + 64) / 128 = 64, (1 * 255 + 64) / 128 = 2;
     * 200 * 255 / 100 is over 255: 255; alpha 0: all zero; alpha 255: unchanged. */
    const uint8_t in[16] = { 64, 32, 1, 128, 200, 50, 0, 100, 9, 9, 9, 0, 10, 20, 30, 255 };
    const uint8_t want[16] = { 128, 64, 2, 128, 255, 128, 0, 100, 0, 0, 0, 0, 10, 20, 30, 255 };
    uint8_t out[16];

    mc_png_unpremultiply(in, 4, out);
    EXPECT(memcmp(out, want, sizeof want) == 0);
    memcpy(out, in, sizeof in); /* in place */
    mc_png_unpremultiply(out, 4, out);
    EXPECT(memcmp(out, want, sizeof want) == 0);
}

static int files_in(const char *dir)
{
    return test_count_entries(dir, "", false);
}

/* Two writers (two threads' worth) write frames 3 and 4 of a sequence into a folder the open
 * made; each reads back with straight alpha and only the frames' files are left. */
TEST(writers_write_whole_frames_with_straight_alpha)
{
    char dir[4096], pat[4200], path[4300];
    mc_png_pattern p;
    mc_png_writer w[2] = { 0 };
    uint8_t px[2 * 2 * 4] = { 64, 32, 1, 128, 0, 0, 0, 0, 255, 0, 0, 255, 10, 10, 10, 10 };
    mc_image img = { 0 };
    mc_error err;

    test_tmp_path(dir, sizeof dir, "pngseq");
    snprintf(pat, sizeof pat, "%s/sub/%%03d.png", dir);
    ASSERT_OK(mc_png_pattern_parse(pat, &p, &err), &err);
    ASSERT_OK(mc_png_sequence_open(&p, pat, 3, &err), &err);
    snprintf(path, sizeof path, "%s/sub", dir);
    EXPECT_EQ_INT(files_in(path), 0); /* the probe left nothing */
    ASSERT_OK(mc_png_writer_init(&w[0], 2, 2, true, &err), &err);
    ASSERT_OK(mc_png_writer_init(&w[1], 2, 2, true, &err), &err);
    ASSERT_OK(mc_png_writer_write(&w[0], &p, px, 3, &err), &err);
    ASSERT_OK(mc_png_writer_write(&w[1], &p, px, 4, &err), &err);
    EXPECT_EQ_INT(files_in(path), 2);
    snprintf(path, sizeof path, "%s/sub/004.png", dir);
    EXPECT_EQ_STR(w[1].path, path);
    ASSERT_OK(mc_image_load(path, &img, &err), &err);
    ASSERT(img.width == 2 && img.height == 2);
    EXPECT(img.pixels[0] == 128 && img.pixels[1] == 64 && img.pixels[2] == 2 &&
           img.pixels[3] == 128);
    EXPECT(img.pixels[4] == 0 && img.pixels[7] == 0);
    EXPECT(img.pixels[12] == 255 && img.pixels[15] == 10);
    mc_image_release(&img);
    mc_png_writer_release(&w[0]);
    mc_png_writer_release(&w[1]);
    mc_png_writer_release(NULL);
    EXPECT(w[0].straight == NULL);
}

TEST(a_folder_that_cannot_be_made_is_an_io_error)
{
    char file[4096], pat[4200];
    mc_png_pattern p;
    mc_error err;

    test_tmp_path(file, sizeof file, "pngseq_file");
    ASSERT(test_touch(file));
    snprintf(pat, sizeof pat, "%s/f/%%05d.png", file);
    ASSERT_OK(mc_png_pattern_parse(pat, &p, &err), &err);
    EXPECT_EQ_INT(mc_png_sequence_open(&p, pat, 0, &err), MC_ERR_IO);
    EXPECT_CONTAINS(err.msg, "cannot create folder '");
    EXPECT_CONTAINS(err.msg, "pngseq_file/f/': Not a directory");
}

TEST(output_names_are_read_by_the_table)
{
    mc_output_target t;
    mc_error err;

    ASSERT_OK(mc_output_parse("a/%04d.png", MC_OUTPUT_NONE, &t, &err), &err);
    EXPECT_EQ_INT(t.kind->kind, MC_OUTPUT_PNG);
    EXPECT_EQ_STR(t.pattern.prefix, "a/");
    ASSERT_OK(mc_output_parse("-", MC_OUTPUT_NONE, &t, &err), &err);
    EXPECT_EQ_INT(t.kind->kind, MC_OUTPUT_Y4M);
    ASSERT_OK(mc_output_parse("clip.bin", MC_OUTPUT_MOV, &t, &err), &err);
    EXPECT_EQ_INT(t.kind->kind, MC_OUTPUT_MOV);
    ASSERT_OK(mc_output_parse(NULL, MC_OUTPUT_NONE, &t, &err), &err);
    EXPECT(t.kind == NULL && t.path == NULL);
    EXPECT_EQ_INT(mc_output_parse("x.txt", MC_OUTPUT_NONE, &t, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "cannot tell the format of output 'x.txt': use .mp4, .mkv, .mov, "
                           ".y4m, a PNG pattern such as 'frames/%05d.png', or '-'");
    EXPECT_EQ_INT(mc_output_parse("s.wav", MC_OUTPUT_NONE, &t, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "output 's.wav' holds sound only (WAV): a render's output takes its "
                           "frames, a video or a PNG pattern");
    EXPECT_EQ_INT(mc_output_parse("-", MC_OUTPUT_MP4, &t, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "output '-' is standard output, which takes yuv4mpeg2 only");
    EXPECT_EQ_INT(mc_output_parse("x.png", MC_OUTPUT_NONE, &t, &err), MC_ERR_USAGE);
    EXPECT_EQ_STR(err.msg, "PNG output 'x.png' needs a frame number such as '%05d'");
}
