/* The encoder, checked by reading its files back with libavformat/libavcodec (an independent
 * path: FFmpeg's demuxers and decoders) and by known BT.709 limited-range values. */
#include <dirent.h>
#include <fcntl.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <md5cine/encode.h>

#include "test.h"

#define W       96
#define H       64
#define FPS     24
#define NFRAMES 24

static const int64_t shots[] = { 0, 10 };

/* Frame k: smooth gradients that move with k, and a blue level that jumps at the cut
 * (frame 10), so each frame differs and the cut is a real change of picture. */
static void make_frame(int k, uint8_t *rgba)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint8_t *p = rgba + ((size_t)y * W + (size_t)x) * 4u;

            p[0] = (uint8_t)(x + k * 2); /* at most 95 + 46: no wrap-around edge */
            p[1] = (uint8_t)(y * 2 + 20);
            p[2] = (uint8_t)(k < 10 ? 60 + k * 2 : 200 - k * 2);
            p[3] = 255;
        }
    }
}

static void fill_solid(uint8_t *rgba, uint8_t r, uint8_t g, uint8_t b)
{
    for (size_t i = 0; i < (size_t)W * H; i++) {
        rgba[4 * i] = r;
        rgba[4 * i + 1] = g;
        rgba[4 * i + 2] = b;
        rgba[4 * i + 3] = 255;
    }
}

static mc_encoder_desc base_desc(const char *path)
{
    mc_encoder_desc d;

    memset(&d, 0, sizeof d);
    d.path = path;
    d.width = W;
    d.height = H;
    d.fps = (mc_rate){ FPS, 1 };
    d.shot_starts = shots;
    d.shot_count = 2;
    return d;
}

/* Encodes NFRAMES synthetic frames with desc; returns the status of the first failure. */
static mc_status encode_frames(const mc_encoder_desc *d, char *codec_used, size_t cap,
                               mc_error *err)
{
    uint8_t *buf = malloc((size_t)W * H * 4u);
    mc_encoder *enc;
    mc_status s;

    if (!buf)
        return MC_ERR_NOMEM;
    s = mc_encoder_create(d, &enc, err);
    for (int k = 0; s == MC_OK && k < NFRAMES; k++) {
        make_frame(k, buf);
        s = mc_encoder_write_rgba(enc, buf, (size_t)W * 4u, err);
    }
    if (s == MC_OK)
        s = mc_encoder_finish(enc, err);
    if (s == MC_OK && codec_used)
        snprintf(codec_used, cap, "%s", mc_encoder_codec_name(enc));
    mc_encoder_release(enc);
    free(buf);
    return s;
}

static bool file_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

/* Number of entries other than . and .. in a folder. */
static int folder_entries(const char *dir)
{
    return test_count_entries(dir, "", true);
}

/* ------------------------------------------------------------------------------------- */
/* Reading a file back                                                                   */

typedef struct probe {
    int video_streams;
    enum AVCodecID codec;
    int format, width, height;
    int range, space, primaries, trc;
    double container_seconds; /* format duration */
    double stream_seconds;    /* stream duration; -1 when the container has none */
    int frames;               /* decoded */
    bool key[NFRAMES];        /* decoded frame k is a keyframe */
    bool intra[NFRAMES];      /* decoded frame k is an I picture */
    bool seen[NFRAMES];
    bool idr[NFRAMES]; /* H.264: the packet of frame k holds an IDR slice (NAL 5) */
    double min_psnr;   /* over decoded frames, RGB against the source */
    int chapters;
    double chapter_start[4];
    char chapter_title[4][32];
} probe;

/* PSNR in dB over R, G, B of two RGBA images of W x H. */
static double psnr_rgb(const uint8_t *a, const uint8_t *b)
{
    double se = 0.0;

    for (size_t i = 0; i < (size_t)W * H; i++) {
        for (int c = 0; c < 3; c++) {
            double d = (double)a[4 * i + (size_t)c] - (double)b[4 * i + (size_t)c];

            se += d * d;
        }
    }
    if (se == 0.0)
        return 99.0;
    return 10.0 * log10(255.0 * 255.0 / (se / (3.0 * W * H)));
}

/* Converts a decoded yuv420p frame back to RGBA (BT.709, limited -> full range). */
static void to_rgba(const AVFrame *f, uint8_t *rgba)
{
    const int *c709 = sws_getCoefficients(SWS_CS_ITU709);
    struct SwsContext *s =
            sws_getContext(W, H, (enum AVPixelFormat)f->format, W, H, AV_PIX_FMT_RGBA,
                           SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    uint8_t *dst[1] = { rgba };
    int dst_stride[1] = { W * 4 };

    sws_setColorspaceDetails(s, c709, 0, c709, 1, 0, 1 << 16, 1 << 16);
    sws_scale(s, (const uint8_t *const *)f->data, f->linesize, 0, H, dst, dst_stride);
    sws_freeContext(s);
}

static void note_frame(probe *pr, const AVFrame *f, AVRational tb, int64_t start)
{
    uint8_t src[W * H * 4], back[W * H * 4];
    int64_t pts = f->best_effort_timestamp - (start == AV_NOPTS_VALUE ? 0 : start);
    int64_t k = av_rescale_q(pts, tb, (AVRational){ 1, FPS });
    double p;

    pr->frames++;
    if (k < 0 || k >= NFRAMES)
        return;
    pr->seen[k] = true;
    pr->key[k] = f->key_frame != 0;
    pr->intra[k] = f->pict_type == AV_PICTURE_TYPE_I;
    make_frame((int)k, src);
    to_rgba(f, back);
    p = psnr_rgb(src, back);
    if (p < pr->min_psnr)
        pr->min_psnr = p;
}

/* Marks pr->idr for an H.264 packet in the MP4/MKV form (NAL units behind big-endian
 * lengths of (avcC byte 4 & 3) + 1 bytes) that holds a NAL unit of type 5. */
static void note_idr(const AVStream *st, const AVPacket *pkt, probe *pr)
{
    const AVCodecParameters *cp = st->codecpar;
    int64_t start = st->start_time == AV_NOPTS_VALUE ? 0 : st->start_time;
    int64_t k = av_rescale_q(pkt->pts - start, st->time_base, (AVRational){ 1, FPS });
    size_t lensize, pos = 0;

    if (cp->codec_id != AV_CODEC_ID_H264 || cp->extradata_size < 5 || cp->extradata[0] != 1 ||
        k < 0 || k >= NFRAMES)
        return;
    lensize = (size_t)(cp->extradata[4] & 3) + 1;
    while (pos + lensize < (size_t)pkt->size) {
        size_t len = 0;

        for (size_t i = 0; i < lensize; i++)
            len = len << 8 | pkt->data[pos + i];
        if ((pkt->data[pos + lensize] & 0x1f) == 5)
            pr->idr[k] = true;
        pos += lensize + len;
    }
}

static void decode_all(AVFormatContext *fc, int si, probe *pr)
{
    AVStream *st = fc->streams[si];
    const AVCodec *dec = avcodec_find_decoder(st->codecpar->codec_id);
    AVCodecContext *cc = avcodec_alloc_context3(dec);
    AVPacket *pkt = av_packet_alloc();
    AVFrame *f = av_frame_alloc();

    avcodec_parameters_to_context(cc, st->codecpar);
    avcodec_open2(cc, dec, NULL);
    pr->min_psnr = 99.0;
    for (bool more = true; more;) {
        more = av_read_frame(fc, pkt) >= 0;
        if (more && pkt->stream_index != si) {
            av_packet_unref(pkt);
            continue;
        }
        if (more)
            note_idr(st, pkt, pr);
        avcodec_send_packet(cc, more ? pkt : NULL);
        av_packet_unref(pkt);
        while (avcodec_receive_frame(cc, f) >= 0)
            note_frame(pr, f, st->time_base, st->start_time);
    }
    av_frame_free(&f);
    av_packet_free(&pkt);
    avcodec_free_context(&cc);
}

static void read_chapters(const AVFormatContext *fc, probe *pr)
{
    pr->chapters = (int)fc->nb_chapters;
    for (unsigned i = 0; i < fc->nb_chapters && i < 4; i++) {
        const AVChapter *ch = fc->chapters[i];
        const AVDictionaryEntry *t = av_dict_get(ch->metadata, "title", NULL, 0);

        pr->chapter_start[i] = (double)ch->start * av_q2d(ch->time_base);
        snprintf(pr->chapter_title[i], sizeof pr->chapter_title[i], "%s", t ? t->value : "");
    }
}

static bool probe_file(const char *path, probe *pr)
{
    AVFormatContext *fc = NULL;
    int si = -1;

    memset(pr, 0, sizeof *pr);
    if (avformat_open_input(&fc, path, NULL, NULL) < 0)
        return false;
    avformat_find_stream_info(fc, NULL);
    for (unsigned i = 0; i < fc->nb_streams; i++) {
        if (fc->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) {
            pr->video_streams++;
            si = (int)i;
        }
    }
    if (si >= 0) {
        const AVStream *st = fc->streams[si];
        const AVCodecParameters *cp = st->codecpar;

        pr->codec = cp->codec_id;
        pr->format = cp->format;
        pr->width = cp->width;
        pr->height = cp->height;
        pr->range = cp->color_range;
        pr->space = cp->color_space;
        pr->primaries = cp->color_primaries;
        pr->trc = cp->color_trc;
        pr->container_seconds = (double)fc->duration / AV_TIME_BASE;
        pr->stream_seconds = st->duration == AV_NOPTS_VALUE
                                     ? -1.0
                                     : (double)st->duration * av_q2d(st->time_base);
        read_chapters(fc, pr);
        decode_all(fc, si, pr);
    }
    avformat_close_input(&fc);
    return si >= 0;
}

/* ------------------------------------------------------------------------------------- */
/* Tests                                                                                 */

/* What every encoded file must satisfy: NFRAMES frames of W x H at FPS (1 s), BT.709 tags,
 * keyframes exactly at the shot starts 0 and 10, chapters "Shot 1" at 0 s and "Shot 2" at
 * 10/24 = 0.41667 s, and decoded pictures close to the source. */
static void check_common(const probe *pr, bool container_has_stream_duration)
{
    EXPECT_EQ_INT(pr->video_streams, 1);
    EXPECT_EQ_INT(pr->width, W);
    EXPECT_EQ_INT(pr->height, H);
    EXPECT_EQ_INT(pr->format, AV_PIX_FMT_YUV420P);
    EXPECT_EQ_INT(pr->range, AVCOL_RANGE_MPEG);
    EXPECT_EQ_INT(pr->space, AVCOL_SPC_BT709);
    EXPECT_EQ_INT(pr->primaries, AVCOL_PRI_BT709);
    EXPECT_EQ_INT(pr->trc, AVCOL_TRC_BT709);
    EXPECT_EQ_INT(pr->frames, NFRAMES);
    EXPECT_NEAR(pr->container_seconds, 1.0, 1e-3);
    if (container_has_stream_duration)
        EXPECT_NEAR(pr->stream_seconds, 1.0, 1e-3);
    for (int k = 0; k < NFRAMES; k++) {
        EXPECT(pr->seen[k]);
        if (k == 0 || k == 10) {
            EXPECT(pr->key[k]);
            EXPECT(pr->intra[k]);
        } else if (pr->key[k]) {
            test_fail(__FILE__, __LINE__, "frame %d is a keyframe but starts no shot", k);
        }
    }
    EXPECT(pr->min_psnr >= 40.0);
    EXPECT_EQ_INT(pr->chapters, 2);
    EXPECT_NEAR(pr->chapter_start[0], 0.0, 1e-3);
    EXPECT_NEAR(pr->chapter_start[1], 10.0 / 24.0, 1e-3);
    EXPECT_EQ_STR(pr->chapter_title[0], "Shot 1");
    EXPECT_EQ_STR(pr->chapter_title[1], "Shot 2");
}

/* Faststart: walking the top-level boxes (32-bit big-endian size, then the type; size 1
 * means a 64-bit size follows), 'moov' comes before 'mdat'. */
static void check_moov_first(const char *path)
{
    FILE *f = fopen(path, "rb");
    long moov = -1, mdat = -1, pos = 0;
    uint8_t h[16];

    ASSERT(f != NULL);
    while (fseek(f, pos, SEEK_SET) == 0 && fread(h, 1, 16, f) >= 8) {
        uint64_t size = (uint64_t)h[0] << 24 | (uint64_t)h[1] << 16 | (uint64_t)h[2] << 8 | h[3];

        if (size == 1) {
            size = 0;
            for (int i = 8; i < 16; i++)
                size = size << 8 | h[i];
        }
        if (memcmp(h + 4, "moov", 4) == 0)
            moov = pos;
        if (memcmp(h + 4, "mdat", 4) == 0)
            mdat = pos;
        if (size < 8)
            break;
        pos += (long)size;
    }
    fclose(f);
    EXPECT(moov > 0);
    EXPECT(mdat > 0);
    EXPECT(moov < mdat);
}

/* x264 was told forced-idr: a shot start is an IDR picture, not only an I picture. */
static void check_idr_at_shots(const probe *pr)
{
    for (int k = 0; k < NFRAMES; k++)
        EXPECT_EQ_INT(pr->idr[k], k == 0 || k == 10);
}

TEST(writes_mp4_with_shots_as_keyframes_and_chapters)
{
    char path[512], used[64];
    mc_encoder_desc d;
    mc_error err;
    probe pr;

    test_tmp_path(path, sizeof path, "shots.mp4");
    d = base_desc(path);
    ASSERT_OK(encode_frames(&d, used, sizeof used, &err), &err);
    EXPECT_EQ_STR(used, "libx264");
    ASSERT(probe_file(path, &pr));
    EXPECT_EQ_INT(pr.codec, AV_CODEC_ID_H264);
    check_common(&pr, true);
    check_idr_at_shots(&pr);
    check_moov_first(path);
    unlink(path);
}

TEST(writes_mkv_and_mov)
{
    const char *leaves[] = { "shots.mkv", "shots.mov" };

    for (int i = 0; i < 2; i++) {
        char path[512];
        mc_encoder_desc d;
        mc_error err;
        probe pr;

        test_tmp_path(path, sizeof path, leaves[i]);
        d = base_desc(path);
        ASSERT_OK(encode_frames(&d, NULL, 0, &err), &err);
        ASSERT(probe_file(path, &pr));
        EXPECT_EQ_INT(pr.codec, AV_CODEC_ID_H264);
        check_common(&pr, i == 1); /* Matroska keeps no per-stream duration */
        check_idr_at_shots(&pr);
        if (i == 1)
            check_moov_first(path);
        unlink(path);
    }
}

static bool same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    int ca, cb;

    while (same) {
        ca = fgetc(fa);
        cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

TEST(two_encodes_give_identical_bytes)
{
    const char *exts[] = { "mp4", "mkv" };

    for (int i = 0; i < 2; i++) {
        char a[512], b[512], leaf[32];
        mc_encoder_desc d;
        mc_error err;

        snprintf(leaf, sizeof leaf, "same-a.%s", exts[i]);
        test_tmp_path(a, sizeof a, leaf);
        snprintf(leaf, sizeof leaf, "same-b.%s", exts[i]);
        test_tmp_path(b, sizeof b, leaf);
        d = base_desc(a);
        ASSERT_OK(encode_frames(&d, NULL, 0, &err), &err);
        d.path = b;
        ASSERT_OK(encode_frames(&d, NULL, 0, &err), &err);
        EXPECT(same_bytes(a, b));
        unlink(a);
        unlink(b);
    }
}

/* Encodes the test frames into the scratch file leaf (its path in path[512]) asking for the
 * missing codec "no-such-encoder", then the codecs of chain (NULL: the default chain); the codec
 * used in used[64], the warnings in *log. False, failing, when the encode fails. */
static bool encode_without_the_codec(const char *leaf, const char *const *chain, char *path,
                                     char *used, test_warnings *log)
{
    mc_encoder_desc d;
    mc_error err;

    test_tmp_path(path, 512, leaf);
    d = base_desc(path);
    d.codec = "no-such-encoder";
    d.fallbacks = chain;
    d.warn = test_record_warning;
    d.warn_user = log;
    if (encode_frames(&d, used, 64, &err) == MC_OK)
        return true;
    return test_fail(__FILE__, __LINE__, "encode: %s", err.msg);
}

TEST(falls_back_along_the_chain_and_says_so)
{
    const char *const chain[] = { "no-such-encoder-2", "mpeg4", NULL };
    char path[512], used[64];
    test_warnings log = { 0 };
    probe pr;

    ASSERT(encode_without_the_codec("fallback.mp4", chain, path, used, &log));
    EXPECT_EQ_STR(used, "mpeg4");
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_CONTAINS(log.last.msg, "encoder 'no-such-encoder' is not available, using 'mpeg4'");
    ASSERT(probe_file(path, &pr));
    EXPECT_EQ_INT(pr.codec, AV_CODEC_ID_MPEG4);
    EXPECT_EQ_INT(pr.frames, NFRAMES);
    EXPECT(pr.key[0] && pr.key[10]);
    unlink(path);
}

TEST(default_chain_replaces_a_missing_encoder_with_libx264)
{
    char path[512], used[64];
    test_warnings log = { 0 };

    ASSERT(encode_without_the_codec("fallback-x264.mp4", NULL, path, used, &log));
    EXPECT_EQ_STR(used, "libx264");
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_CONTAINS(log.last.msg, "using 'libx264'");
    unlink(path);
}

/* Creating an encoder for path fails as an I/O error with no encoder; err says why. */
static void expect_create_io_error(const char *path, mc_error *err)
{
    mc_encoder_desc d = base_desc(path);
    mc_encoder *enc = NULL;

    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, err), MC_ERR_IO);
    EXPECT(enc == NULL);
}

TEST(missing_folder_is_an_io_error_naming_the_file)
{
    char dir[512], path[600];
    mc_error err;

    test_tmp_path(dir, sizeof dir, "no-such-folder");
    snprintf(path, sizeof path, "%s/out.mp4", dir);
    expect_create_io_error(path, &err);
    EXPECT_CONTAINS(err.msg, path);
    EXPECT(!file_exists(path));
    EXPECT(!file_exists(dir));
}

TEST(a_file_in_place_of_the_folder_is_an_io_error)
{
    char notdir[512], path[600];
    mc_error err;

    test_tmp_path(notdir, sizeof notdir, "plain-file");
    ASSERT(test_touch(notdir));
    snprintf(path, sizeof path, "%s/out.mkv", notdir);
    expect_create_io_error(path, &err);
    EXPECT_CONTAINS(err.msg, "cannot write");
    unlink(notdir);
}

TEST(destroy_without_finish_leaves_no_file)
{
    char dir[512], path[600];
    uint8_t *buf = malloc((size_t)W * H * 4u);
    mc_encoder_desc d;
    mc_encoder *enc;
    mc_error err;

    ASSERT(buf != NULL);
    test_tmp_path(dir, sizeof dir, "interrupted");
    ASSERT(mkdir(dir, 0755) == 0);
    snprintf(path, sizeof path, "%s/out.mp4", dir);
    d = base_desc(path);
    ASSERT_OK(mc_encoder_create(&d, &enc, &err), &err);
    for (int k = 0; k < 5; k++) {
        make_frame(k, buf);
        EXPECT_OK(mc_encoder_write_rgba(enc, buf, (size_t)W * 4u, &err), &err);
    }
    EXPECT_EQ_INT(folder_entries(dir), 1); /* the temporary file, while encoding */
    mc_encoder_release(enc);
    EXPECT_EQ_INT(folder_entries(dir), 0);
    EXPECT(!file_exists(path));
    rmdir(dir);
    free(buf);
}

/* In a child process limited to 2048-byte files (RLIMIT_FSIZE, with SIGXFSZ ignored, so a
 * write past the limit fails with EFBIG as a full disk fails with ENOSPC), encodes into an
 * empty folder. Exit status: 0 as expected, 1 not MC_ERR_IO, 2 message without the file
 * name, 3 something left in the folder. */
static int encode_past_size_limit(const char *dir, const char *leaf)
{
    struct rlimit rl = { 2048, 2048 };
    char path[600];
    mc_encoder_desc d;
    mc_error err;
    mc_status s;

    snprintf(path, sizeof path, "%s/%s", dir, leaf);
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 4;
    d = base_desc(path);
    s = encode_frames(&d, NULL, 0, &err);
    if (s != MC_ERR_IO) {
        fprintf(stderr, "got %s: %s\n", mc_status_name(s), err.msg);
        return 1;
    }
    if (!strstr(err.msg, path))
        return 2;
    return folder_entries(dir) == 0 ? 0 : 3;
}

TEST(a_full_disk_is_an_io_error_and_leaves_nothing)
{
    const char *leaves[] = { "full.mp4", "full.y4m" };

    for (int i = 0; i < 2; i++) {
        char dir[512];
        int status = -1;
        pid_t pid;

        test_tmp_path(dir, sizeof dir, leaves[i]);
        ASSERT(mkdir(dir, 0755) == 0);
        fflush(NULL);
        pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0)
            _exit(encode_past_size_limit(dir, leaves[i]));
        ASSERT(waitpid(pid, &status, 0) == pid);
        EXPECT(WIFEXITED(status));
        EXPECT_EQ_INT(WEXITSTATUS(status), 0);
        EXPECT_EQ_INT(folder_entries(dir), 0);
        rmdir(dir);
    }
}

TEST(rejects_odd_sizes_and_writes_nothing)
{
    char path[512];
    mc_encoder_desc d;
    mc_encoder *enc = NULL;
    mc_error err;

    test_tmp_path(path, sizeof path, "odd.mp4");
    d = base_desc(path);
    d.width = 95;
    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "video size 95x64 is odd");
    EXPECT_CONTAINS(err.msg, "try 96x64");
    EXPECT(enc == NULL);
    EXPECT(!file_exists(path));
}

/* limits.h: H.264 level 6.2 allows 139264 macroblocks. 8192x4352 is 512 * 272 = 139264 and
 * opens with libx264; 8208x4352 (513 columns) and 16384x16384 (which libavutil refuses to
 * allocate) are "too large" before any file exists. */
TEST(a_video_over_the_largest_h264_level_is_too_large)
{
    static const int sizes[][2] = { { 8208, 4352 }, { 16384, 16384 } };
    char path[512];
    mc_encoder_desc d;
    mc_encoder *enc = NULL;
    mc_error err;

    test_tmp_path(path, sizeof path, "huge.mp4");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        d = base_desc(path);
        d.width = sizes[i][0];
        d.height = sizes[i][1];
        EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_LIMIT);
        EXPECT_CONTAINS(err.msg, "too large");
        EXPECT(enc == NULL);
        EXPECT(!file_exists(path));
    }
    d = base_desc(path);
    d.width = 8192;
    d.height = 4352;
    ASSERT_OK(mc_encoder_create(&d, &enc, &err), &err);
    mc_encoder_release(enc);
    EXPECT(!file_exists(path));
}

TEST(rejects_unknown_extension_and_unordered_shots)
{
    static const int64_t bad_shots[] = { 0, 10, 10 };
    mc_encoder_desc d;
    mc_encoder *enc = NULL;
    mc_error err;

    d = base_desc("out.avi");
    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "cannot tell the video format of 'out.avi'");
    d = base_desc("out.mp4");
    d.shot_starts = bad_shots;
    d.shot_count = 3;
    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_USAGE);
    EXPECT_CONTAINS(err.msg, "shot start 10 (shot 3)");
    EXPECT(!file_exists("out.mp4"));
}

/* ------------------------------------------------------------------------------------- */
/* yuv4mpeg2                                                                             */

#define Y4M_HEADER      "YUV4MPEG2 W96 H64 F24:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n"
#define Y4M_FRAME_BYTES (6 + W * H * 3 / 2) /* "FRAME\n" + Y + U/4 + V/4 */

/* Writes three frames: red, grey 128, and white-over-black given bottom row first. */
static mc_status write_y4m_frames(const char *path, mc_error *err)
{
    uint8_t *buf = malloc((size_t)W * H * 4u);
    mc_encoder_desc d = base_desc(path);
    mc_encoder *enc;
    mc_status s;

    if (!buf)
        return MC_ERR_NOMEM;
    d.bottom_up = true;
    s = mc_encoder_create(&d, &enc, err);
    if (s == MC_OK) {
        fill_solid(buf, 255, 0, 0);
        s = mc_encoder_write_rgba(enc, buf, (size_t)W * 4u, err);
    }
    if (s == MC_OK) {
        fill_solid(buf, 128, 128, 128);
        s = mc_encoder_write_rgba(enc, buf, (size_t)W * 4u, err);
    }
    if (s == MC_OK) {
        /* Buffer rows 0..31 black, 32..63 white; bottom-up, so the picture's top is white. */
        fill_solid(buf, 0, 0, 0);
        memset(buf + (size_t)W * 4u * (H / 2), 255, (size_t)W * 4u * (H / 2));
        s = mc_encoder_write_rgba(enc, buf, (size_t)W * 4u, err);
    }
    if (s == MC_OK)
        s = mc_encoder_finish(enc, err);
    mc_encoder_release(enc);
    free(buf);
    return s;
}

/* Expected values, BT.709 limited range by hand: Y = 16 + 219 * (0.2126 R + 0.7152 G +
 * 0.0722 B) / 255, Cb = 128 + 224 * (B' - Y') / 1.8556, Cr = 128 + 224 * (R' - Y') / 1.5748.
 * Red: Y = 16 + 219 * 0.2126 = 62.6, Cb = 128 - 224 * 0.2126 / 1.8556 = 102.3, Cr = 240.
 * (BT.601 would give Y 81.) Grey 128: Y = 16 + 219 * 128 / 255 = 125.9, Cb = Cr = 128.
 * White 235, black 16. */
static void check_y4m_bytes(const uint8_t *data, size_t len)
{
    size_t hl = strlen(Y4M_HEADER), ysize = (size_t)W * H, csize = ysize / 4;
    const uint8_t *f0 = data + hl + 6, *f1 = f0 + Y4M_FRAME_BYTES, *f2 = f1 + Y4M_FRAME_BYTES;

    ASSERT(len == hl + 3 * (size_t)Y4M_FRAME_BYTES);
    EXPECT(memcmp(data, Y4M_HEADER, hl) == 0);
    for (int i = 0; i < 3; i++)
        EXPECT(memcmp(data + hl + (size_t)i * Y4M_FRAME_BYTES, "FRAME\n", 6) == 0);
    EXPECT_NEAR(f0[0], 63, 1);
    EXPECT_NEAR(f0[ysize], 102, 1);
    EXPECT_NEAR(f0[ysize + csize], 240, 1);
    EXPECT_NEAR(f1[ysize / 2], 126, 1);
    EXPECT_NEAR(f1[ysize + 5], 128, 1);
    EXPECT_NEAR(f2[0], 235, 1);        /* top row: white */
    EXPECT_NEAR(f2[ysize - 1], 16, 1); /* bottom row: black */
}

static void check_y4m_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 2 * (strlen(Y4M_HEADER) + 3 * (size_t)Y4M_FRAME_BYTES);
    uint8_t *data = malloc(cap);
    size_t len;

    ASSERT(f != NULL && data != NULL);
    len = fread(data, 1, cap, f);
    fclose(f);
    check_y4m_bytes(data, len);
    free(data);
}

/* FFmpeg's yuv4mpeg demuxer reads the stream as 3 frames of 96x64 yuv420p, limited range. */
static void check_y4m_with_ffmpeg(const char *path)
{
    AVFormatContext *fc = NULL;
    AVPacket *pkt = av_packet_alloc();
    int packets = 0;

    ASSERT(pkt != NULL);
    ASSERT(avformat_open_input(&fc, path, NULL, NULL) == 0);
    EXPECT_EQ_STR(fc->iformat->name, "yuv4mpegpipe");
    EXPECT_EQ_INT(fc->nb_streams, 1);
    EXPECT_EQ_INT(fc->streams[0]->codecpar->width, W);
    EXPECT_EQ_INT(fc->streams[0]->codecpar->height, H);
    EXPECT_EQ_INT(fc->streams[0]->codecpar->format, AV_PIX_FMT_YUV420P);
    EXPECT_EQ_INT(fc->streams[0]->codecpar->color_range, AVCOL_RANGE_MPEG);
    EXPECT_EQ_INT(fc->streams[0]->avg_frame_rate.num, FPS);
    while (av_read_frame(fc, pkt) >= 0) {
        packets++;
        av_packet_unref(pkt);
    }
    EXPECT_EQ_INT(packets, 3);
    av_packet_free(&pkt);
    avformat_close_input(&fc);
}

TEST(writes_y4m_file_with_bt709_limited_values)
{
    char path[512];
    mc_error err;

    test_tmp_path(path, sizeof path, "frames.y4m");
    ASSERT_OK(write_y4m_frames(path, &err), &err);
    check_y4m_file(path);
    check_y4m_with_ffmpeg(path);
    unlink(path);
}

TEST(dash_writes_y4m_to_stdout)
{
    char path[512];
    mc_error err;
    mc_status s;
    int fd, saved;

    test_tmp_path(path, sizeof path, "stdout.y4m");
    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT(saved >= 0 && fd >= 0);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    s = write_y4m_frames("-", &err);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    ASSERT_OK(s, &err);
    check_y4m_file(path);
    unlink(path);
}

/* Collects the FFmpeg lines an encoder reports. */
typedef struct log_lines {
    int count, errors;
    char text[2048];
} log_lines;

static void collect_line(void *user, int level, const char *line)
{
    log_lines *l = user;
    size_t n = strlen(l->text);

    l->count++;
    l->errors += level == MC_LOG_ERROR;
    snprintf(l->text + n, sizeof l->text - n, "%s", line);
}

/* x264 refuses an unknown preset with an error through av_log: the line reaches the encoder's
 * callback, the create fails, and FFmpeg's process-wide level is what it was (md5cine never
 * sets it). Without a callback the same failure reports nothing and still fails. */
TEST(ffmpeg_messages_reach_the_encoders_callback)
{
    char path[4096];
    mc_encoder_desc d;
    mc_encoder *enc = NULL;
    log_lines lines = { 0 };
    mc_error err;
    int level = av_log_get_level();

    test_tmp_path(path, sizeof path, "log.mp4");
    d = base_desc(path);
    d.preset = "no-such-preset";
    d.ffmpeg_log = collect_line;
    d.ffmpeg_log_user = &lines;
    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_CODEC);
    EXPECT(enc == NULL);
    EXPECT(lines.errors >= 1);
    EXPECT_CONTAINS(lines.text, "no-such-preset");
    EXPECT_EQ_INT(av_log_get_level(), level);
    d.ffmpeg_log = NULL;
    memset(&lines, 0, sizeof lines);
    EXPECT_EQ_INT(mc_encoder_create(&d, &enc, &err), MC_ERR_CODEC);
    EXPECT_EQ_INT(lines.count, 0);
    EXPECT(access(path, F_OK) != 0);
}
