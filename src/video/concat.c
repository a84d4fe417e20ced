/* Joining chunk videos by stream copy (chunk.h). Two passes over the parts: the first reads
 * each one's tags, codec parameters and chapters and checks that they fit together, before any
 * output exists; the second copies the packets, one part open at a time. */
#include "video/chunk_internal.h"
#include "video/encode_audio.h"
#include "video/ffmpeg_log.h"
#include <md5cine/chunk.h>

#include <md5cine/fileio.h>
#include <md5cine/output_kinds.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

typedef struct chapter {
    int64_t start; /* output frame */
    char title[64];
} chapter;

typedef struct part {
    const char *path;
    mc_chunk_info info;
    AVCodecParameters *par;
    char comment[1024];
    chapter *chapters;
    size_t num_chapters;
    int64_t delay; /* frames its decode order runs ahead of presentation, at most */
} part;

typedef struct concat {
    const mc_concat_desc *d;
    part *parts;
    size_t n;
    chapter *chapters; /* of the output */
    size_t num_chapters;
    mc_outfile out;
    bool out_begun;
    AVFormatContext *oc;
    AVStream *st;
    AVPacket *pkt;
    mc_aac_track *aac;  /* the sound track encoded from desc->audio, or NULL */
    int64_t delay;      /* the largest part delay: dts = decode index - delay */
    int64_t next_index; /* decode index of the next packet written */
    mc_concat_result res;
} concat;

static mc_status av_fail(mc_error *err, mc_status code, const char *path, const char *what,
                         int rc)
{
    char text[128];

    av_strerror(rc, text, sizeof text);
    return mc_error_set(err, code, path, 0, 0, "%s '%s': %s", what, path, text);
}

static int video_stream(const AVFormatContext *fmt)
{
    for (unsigned i = 0; i < fmt->nb_streams; i++)
        if (fmt->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)
            return (int)i;
    return -1;
}

/* The frame of timestamp ts (in tb) at fps, when ts is that frame's time in tb: exactly in an
 * MP4 or MOV (whose track timescale is a multiple of the rate), rounded to tb in a Matroska
 * file (milliseconds). */
static bool to_frame(int64_t ts, AVRational tb, mc_rate fps, int64_t *out)
{
    AVRational ftb = { fps.den, fps.num };
    int64_t f;

    if (ts == AV_NOPTS_VALUE || tb.num <= 0 || tb.den <= 0)
        return false;
    f = av_rescale_q_rnd(ts, tb, ftb, AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX);
    if (f < 0 || f > ((int64_t)1 << 40) ||
        av_rescale_q_rnd(f, ftb, tb, AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX) != ts)
        return false;
    *out = f;
    return true;
}

static mc_status read_chapters(part *p, const AVFormatContext *fmt, mc_error *err)
{
    p->chapters = calloc(fmt->nb_chapters + 1u, sizeof *p->chapters);
    if (!p->chapters)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (unsigned i = 0; i < fmt->nb_chapters; i++) {
        const AVChapter *c = fmt->chapters[i];
        const AVDictionaryEntry *t = av_dict_get(c->metadata, "title", NULL, 0);
        int64_t k = av_rescale_q_rnd(c->start, c->time_base,
                                     (AVRational){ p->info.fps.den, p->info.fps.num },
                                     AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX);
        chapter *ch = &p->chapters[p->num_chapters];

        if (k > p->info.last)
            continue;
        ch->start = k < p->info.first ? p->info.first : k;
        snprintf(ch->title, sizeof ch->title, "%s", t ? t->value : "");
        p->num_chapters++;
    }
    return MC_OK;
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

/* Pass one over a part's packets: each of its frames once, at whole-frame timestamps, and how
 * far its decode order runs ahead (the largest j - (pts_j - first) over the packets in decode
 * order j), which the joined file's decode timestamps must allow for. The frames seen are kept
 * in a list as long as the packets the file holds, not as long as its tag claims, so a forged
 * tag cannot ask for any memory; sorted, it shows a frame given twice. */
static mc_status scan_packets(part *p, AVFormatContext *fmt, int s, AVPacket *pkt,
                              volatile sig_atomic_t *stop, mc_error *err)
{
    int64_t len = p->info.last - p->info.first + 1, j = 0, *seen = NULL;
    AVRational tb = fmt->streams[s]->time_base;
    size_t cap = 0;
    mc_status st = MC_OK;
    int r;

    while (st == MC_OK && (r = av_read_frame(fmt, pkt)) >= 0) {
        int64_t k = 0;

        if (stop && *stop)
            st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
        else if (pkt->stream_index == s) {
            if (!to_frame(pkt->pts, tb, p->info.fps, &k) || k < p->info.first ||
                k > p->info.last)
                st = mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                                  "'%s': a packet's timestamp (%" PRId64 " in %d/%d) is not one "
                                  "of its frames %" PRId64 "-%" PRId64 " once",
                                  p->path, pkt->pts, tb.num, tb.den, p->info.first,
                                  p->info.last);
            else if (j - (k - p->info.first) > p->delay)
                p->delay = j - (k - p->info.first);
            if (st == MC_OK && j < len) {
                if ((size_t)j == cap) {
                    size_t ncap = cap ? cap * 2 : 256;
                    int64_t *q = realloc(seen, ncap * sizeof *q);

                    if (!q)
                        st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
                    else {
                        seen = q;
                        cap = ncap;
                    }
                }
                if (st == MC_OK)
                    seen[j] = k;
            }
            j++;
        }
        av_packet_unref(pkt);
    }
    if (st == MC_OK && r != AVERROR_EOF)
        st = av_fail(err, MC_ERR_IMAGE, p->path, "cannot read video", r);
    if (st == MC_OK && j == len) {
        qsort(seen, (size_t)len, sizeof *seen, by_value);
        for (int64_t i = 1; i < len && st == MC_OK; i++)
            if (seen[i] == seen[i - 1])
                st = mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                                  "'%s': a packet's timestamp (%" PRId64 " in %d/%d) is not one "
                                  "of its frames %" PRId64 "-%" PRId64 " once",
                                  p->path,
                                  av_rescale_q(seen[i], (AVRational){ p->info.fps.den,
                                                                      p->info.fps.num }, tb),
                                  tb.num, tb.den, p->info.first, p->info.last);
    }
    if (st == MC_OK && j != len)
        st = mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                          "'%s' holds %" PRId64 " frames, its tag says %" PRId64 " (%" PRId64
                          "-%" PRId64 ")",
                          p->path, j, len, p->info.first, p->info.last);
    free(seen);
    return st;
}

/* Pass one for one part: tags, codec parameters, comment, chapters, packets. */
static mc_status probe_part(part *p, AVPacket *pkt, volatile sig_atomic_t *stop, mc_error *err)
{
    AVFormatContext *fmt;
    const AVDictionaryEntry *c;
    mc_status st = mc_chunk_open_input(p->path, stop, &fmt, err);
    int s;

    if (st != MC_OK)
        return st;
    st = mc_chunk_probe_fmt(p->path, fmt, &p->info, err);
    s = video_stream(fmt);
    if (st == MC_OK && s < 0)
        st = mc_error_set(err, MC_ERR_IMAGE, p->path, 0, 0, "'%s' has no video stream",
                          p->path);
    if (st == MC_OK) {
        p->par = avcodec_parameters_alloc();
        if (!p->par || avcodec_parameters_copy(p->par, fmt->streams[s]->codecpar) < 0)
            st = mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (st == MC_OK && (c = av_dict_get(fmt->metadata, "comment", NULL, 0)))
        snprintf(p->comment, sizeof p->comment, "%s", c->value);
    if (st == MC_OK)
        st = read_chapters(p, fmt, err);
    if (st == MC_OK)
        st = scan_packets(p, fmt, s, pkt, stop, err);
    avformat_close_input(&fmt);
    return st;
}

static int by_first(const void *a, const void *b)
{
    const part *x = a, *y = b;

    if (x->info.first != y->info.first)
        return x->info.first < y->info.first ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* The first "key=value" word of settings a that differs from b, into out. */
static void first_difference(const char *a, const char *b, char *out, size_t cap)
{
    while (*a || *b) {
        size_t la = strcspn(a, " "), lb = strcspn(b, " ");

        if (la != lb || memcmp(a, b, la) != 0) {
            snprintf(out, cap, "%.*s where the first part has %.*s", (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] == ' ');
        b += lb + (b[lb] == ' ');
    }
    snprintf(out, cap, "other settings");
}

static mc_status check_same(const part *p0, const part *p, mc_error *err)
{
    const mc_chunk_info *a = &p0->info, *b = &p->info;
    char why[600];

    if (strcmp(a->scene, b->scene) != 0)
        return mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                            "'%s' is a chunk of another scene than '%s' (scene %.12s, not "
                            "%.12s)",
                            p->path, p0->path, b->scene, a->scene);
    if (a->frames != b->frames || a->fps.num != b->fps.num || a->fps.den != b->fps.den)
        return mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                            "'%s' is a chunk of %" PRId64 " frames at %d/%d fps, '%s' of %" PRId64
                            " at %d/%d",
                            p->path, b->frames, b->fps.num, b->fps.den, p0->path, a->frames,
                            a->fps.num, a->fps.den);
    if (strcmp(a->settings, b->settings) != 0) {
        first_difference(b->settings, a->settings, why, sizeof why);
        return mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                            "'%s' was rendered with other settings than '%s': %s", p->path,
                            p0->path, why);
    }
    if (p0->par->codec_id != p->par->codec_id || p0->par->width != p->par->width ||
        p0->par->height != p->par->height || p0->par->format != p->par->format ||
        p0->par->extradata_size != p->par->extradata_size ||
        (p->par->extradata_size > 0 &&
         memcmp(p0->par->extradata, p->par->extradata, (size_t)p->par->extradata_size) != 0))
        return mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                            "'%s' was encoded with other codec parameters than '%s'", p->path,
                            p0->path);
    return MC_OK;
}

/* The parts, sorted, cover 0..frames-1 once each. */
static mc_status check_cover(const concat *c, mc_error *err)
{
    int64_t next = 0, frames = c->parts[0].info.frames;

    for (size_t i = 0; i < c->n; i++) {
        const part *p = &c->parts[i];

        if (p->info.first > next)
            return mc_error_set(err, MC_ERR_MISMATCH, NULL, 0, 0,
                                "frames %" PRId64 "-%" PRId64 " are missing (no part between "
                                "%s%s%s and '%s')",
                                next, p->info.first - 1, i ? "'" : "",
                                i ? c->parts[i - 1].path : "the start", i ? "'" : "", p->path);
        if (p->info.first < next)
            return mc_error_set(err, MC_ERR_MISMATCH, NULL, 0, 0,
                                "frames %" PRId64 "-%" PRId64 " are in both '%s' and '%s'",
                                p->info.first,
                                p->info.last < next - 1 ? p->info.last : next - 1,
                                c->parts[i - 1].path, p->path);
        next = p->info.last + 1;
    }
    if (next < frames)
        return mc_error_set(err, MC_ERR_MISMATCH, NULL, 0, 0,
                            "frames %" PRId64 "-%" PRId64 " are missing (after '%s'; the scene "
                            "has %" PRId64 ")",
                            next, frames - 1, c->parts[c->n - 1].path, frames);
    return MC_OK;
}

/* The output's chapters: every part's, a chapter continuing from the part before (the same
 * title) joined to it. */
static mc_status merge_chapters(concat *c, mc_error *err)
{
    size_t total = 0;

    for (size_t i = 0; i < c->n; i++)
        total += c->parts[i].num_chapters;
    c->chapters = calloc(total + 1, sizeof *c->chapters);
    if (!c->chapters)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < c->parts[i].num_chapters; j++) {
            const chapter *ch = &c->parts[i].chapters[j];
            chapter *prev = c->num_chapters ? &c->chapters[c->num_chapters - 1] : NULL;

            if (prev && (strcmp(prev->title, ch->title) == 0 || prev->start >= ch->start))
                continue;
            c->chapters[c->num_chapters++] = *ch;
        }
    return MC_OK;
}

/* The muxer of an encoded kind of the table (output_kinds.h) the name means; NULL for any
 * other name. */
static const char *muxer_for(const char *path)
{
    const mc_output_kind_info *row = mc_output_kind_get(mc_output_kind_of(path));

    return row && (row->props & MC_OUTPUT_ENCODED) ? row->muxer : NULL;
}

static mc_status add_output_chapters(concat *c, mc_rate fps, int64_t frames, mc_error *err)
{
    for (size_t i = 0; i < c->num_chapters; i++) {
        AVChapter **list = av_realloc_array(c->oc->chapters, c->oc->nb_chapters + 1u,
                                            sizeof *list);
        AVChapter *ch;

        if (!list)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        c->oc->chapters = list;
        ch = av_mallocz(sizeof *ch);
        if (!ch)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
        list[c->oc->nb_chapters++] = ch;
        ch->id = (int64_t)i + 1;
        ch->time_base = (AVRational){ fps.den, fps.num };
        ch->start = c->chapters[i].start;
        ch->end = i + 1 < c->num_chapters ? c->chapters[i + 1].start : frames;
        if (av_dict_set(&ch->metadata, "title", c->chapters[i].title, 0) < 0)
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    c->res.chapters = c->num_chapters;
    return MC_OK;
}

static mc_status open_output(concat *c, const char *muxer, mc_error *err)
{
    const part *p0 = &c->parts[0];
    mc_chunk_info whole = p0->info;
    AVDictionary *opts = NULL;
    mc_chunk_tags t;
    char url[sizeof c->out.tmp + 8];
    mc_status st;
    int r;

    st = mc_outfile_begin(&c->out, c->d->output, MC_OUTFILE_EXCLUSIVE, err);
    if (st != MC_OK)
        return st;
    c->out_begun = true;
    snprintf(url, sizeof url, "file:%s", c->out.tmp);
    if (avformat_alloc_output_context2(&c->oc, NULL, muxer, url) < 0 || !c->oc)
        return mc_error_set(err, MC_ERR_CODEC, NULL, 0, 0, "muxer '%s' is not available", muxer);
    c->oc->protocol_whitelist = av_strdup("file");
    c->st = avformat_new_stream(c->oc, NULL);
    if (!c->oc->protocol_whitelist || !c->st ||
        avcodec_parameters_copy(c->st->codecpar, p0->par) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    c->oc->flags |= AVFMT_FLAG_BITEXACT;
    c->st->codecpar->codec_tag = 0;
    c->st->time_base = (AVRational){ whole.fps.den, whole.fps.num };
    c->st->avg_frame_rate = (AVRational){ whole.fps.num, whole.fps.den };
    whole.first = 0;
    whole.last = whole.frames - 1;
    mc_chunk_format(&whole, &t);
    if ((p0->comment[0] && av_dict_set(&c->oc->metadata, "comment", p0->comment, 0) < 0) ||
        av_dict_set(&c->oc->metadata, "md5cine_chunk", t.chunk, 0) < 0 ||
        av_dict_set(&c->oc->metadata, "md5cine_fps", t.fps, 0) < 0 ||
        av_dict_set(&c->oc->metadata, "md5cine_scene", t.scene, 0) < 0 ||
        av_dict_set(&c->oc->metadata, "md5cine_settings", t.settings, 0) < 0)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    st = add_output_chapters(c, whole.fps, whole.frames, err);
    if (st == MC_OK && c->d->audio.mix)
        st = mc_aac_open(c->oc, &c->d->audio, whole.fps, 0, c->d->output, &c->aac, err);
    if (st != MC_OK)
        return st;
    av_dict_set(&opts, "protocol_whitelist", "file", 0);
    r = avio_open2(&c->oc->pb, url, AVIO_FLAG_WRITE, NULL, &opts);
    av_dict_free(&opts);
    if (r < 0)
        return av_fail(err, MC_ERR_IO, c->d->output, "cannot write", r);
    if (strcmp(muxer, "matroska") != 0) {
        av_dict_set(&opts, "movflags", "+faststart+use_metadata_tags", 0);
        av_dict_set_int(&opts, "movie_timescale", mc_mov_timescale(whole.fps), 0);
    }
    r = avformat_write_header(c->oc, &opts);
    av_dict_free(&opts);
    if (r < 0)
        return av_fail(err, MC_ERR_CODEC, c->d->output, "cannot start", r);
    return MC_OK;
}

/* Writes the packet in c->pkt, frame pts: its decode timestamp is its place in decode order
 * less the largest delay, so decode timestamps rise by one frame a packet over the whole file
 * and never pass a packet's presentation time. */
static mc_status write_packet(concat *c, const part *p, int64_t pts, mc_error *err)
{
    AVRational fr = { p->info.fps.den, p->info.fps.num };
    int r;

    c->pkt->pts = av_rescale_q(pts, fr, c->st->time_base);
    c->pkt->dts = av_rescale_q(c->next_index - c->delay, fr, c->st->time_base);
    c->pkt->duration = av_rescale_q(1, fr, c->st->time_base);
    c->pkt->stream_index = c->st->index;
    c->pkt->pos = -1;
    c->next_index++;
    if (c->pkt->flags & AV_PKT_FLAG_KEY)
        c->res.keyframes++;
    r = av_interleaved_write_frame(c->oc, c->pkt);
    if (r < 0 || c->oc->pb->error < 0)
        return av_fail(err, MC_ERR_IO, c->d->output, "cannot write", r < 0 ? r : c->oc->pb->error);
    c->res.frames++;
    /* the sound as far as the video's decode order has gone, interleaved by time */
    return c->aac ? mc_aac_write_until(c->aac, c->oc, c->next_index - c->delay, err) : MC_OK;
}

/* Pass two for one part: its packets, copied (pass one checked them; a part changed since is
 * caught by the same checks). */
static mc_status copy_part(concat *c, const part *p, mc_error *err)
{
    int64_t got = 0, len = p->info.last - p->info.first + 1;
    AVFormatContext *fmt = NULL;
    mc_status st = mc_chunk_open_input(p->path, c->d->stop, &fmt, err);
    int r, s;

    if (st != MC_OK)
        return st;
    s = video_stream(fmt);
    while (st == MC_OK && s >= 0) {
        int64_t pts;

        if (c->d->stop && *c->d->stop) {
            st = mc_error_set(err, MC_ERR_INTERRUPTED, NULL, 0, 0, "interrupted");
            break;
        }
        r = av_read_frame(fmt, c->pkt);
        if (r == AVERROR_EOF)
            break;
        if (r < 0) {
            st = av_fail(err, MC_ERR_IMAGE, p->path, "cannot read video", r);
            break;
        }
        if (c->pkt->stream_index == s) {
            if (got == len ||
                !to_frame(c->pkt->pts, fmt->streams[s]->time_base, p->info.fps, &pts) ||
                pts < p->info.first || pts > p->info.last)
                st = mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                                  "'%s' changed while it was being joined", p->path);
            else
                st = write_packet(c, p, pts, err);
            got++;
        }
        av_packet_unref(c->pkt);
    }
    if (st == MC_OK && (s < 0 || got != len))
        st = mc_error_set(err, MC_ERR_MISMATCH, p->path, 0, 0,
                          "'%s' changed while it was being joined", p->path);
    avformat_close_input(&fmt);
    return st;
}

static mc_status finish(concat *c, mc_error *err)
{
    mc_status st = c->aac ? mc_aac_finish(c->aac, c->oc, c->parts[0].info.frames, err) : MC_OK;
    int r = st == MC_OK ? av_write_trailer(c->oc) : 0;

    if (st != MC_OK)
        return st;
    if (r < 0)
        return av_fail(err, MC_ERR_IO, c->d->output, "cannot write", r);
    r = avio_closep(&c->oc->pb);
    if (r < 0)
        return av_fail(err, MC_ERR_IO, c->d->output, "cannot write", r);
    c->out_begun = false;
    return mc_outfile_commit(&c->out, err);
}

static mc_status run(concat *c, mc_error *err)
{
    const char *muxer = muxer_for(c->d->output);
    mc_status st = MC_OK;

    if (c->d->num_parts == 0)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no part to join");
    if (!muxer) {
        char list[64];

        mc_output_kinds_list(MC_OUTPUT_ENCODED, 0, ", ", " or ", list, sizeof list);
        return mc_error_set(err, MC_ERR_USAGE, c->d->output, 0, 0,
                            "'%s': the joined video must be %s", c->d->output, list);
    }
    st = mc_aac_check(&c->d->audio, c->d->output, err);
    if (st != MC_OK)
        return st;
    c->n = c->d->num_parts;
    c->parts = calloc(c->n, sizeof *c->parts);
    c->pkt = av_packet_alloc();
    if (!c->parts || !c->pkt)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < c->n && st == MC_OK; i++) {
        c->parts[i].path = c->d->parts[i];
        st = probe_part(&c->parts[i], c->pkt, c->d->stop, err);
        if (st == MC_OK && c->parts[i].delay > c->delay)
            c->delay = c->parts[i].delay;
    }
    if (st != MC_OK)
        return st;
    qsort(c->parts, c->n, sizeof *c->parts, by_first);
    for (size_t i = 1; i < c->n && st == MC_OK; i++)
        st = check_same(&c->parts[0], &c->parts[i], err);
    if (st == MC_OK)
        st = check_cover(c, err);
    if (st == MC_OK)
        st = merge_chapters(c, err);
    if (st == MC_OK)
        st = open_output(c, muxer, err);
    for (size_t i = 0; i < c->n && st == MC_OK; i++)
        st = copy_part(c, &c->parts[i], err);
    if (st == MC_OK)
        st = finish(c, err);
    c->res.fps = c->parts[0].info.fps;
    return st;
}

static void release(concat *c)
{
    if (c->oc) {
        if (c->oc->pb)
            avio_closep(&c->oc->pb);
        avformat_free_context(c->oc);
    }
    if (c->out_begun)
        mc_outfile_abort(&c->out);
    av_packet_free(&c->pkt);
    mc_aac_close(c->aac);
    for (size_t i = 0; c->parts && i < c->n; i++) {
        avcodec_parameters_free(&c->parts[i].par);
        free(c->parts[i].chapters);
    }
    free(c->parts);
    free(c->chapters);
}

mc_status mc_concat(const mc_concat_desc *desc, mc_concat_result *result, mc_error *err)
{
    mc_ffmpeg_log_scope sc;
    concat c;
    mc_status st;

    memset(&c, 0, sizeof c);
    c.d = desc;
    mc_ffmpeg_log_enter(&sc, NULL, NULL);
    st = run(&c, err);
    release(&c);
    mc_ffmpeg_log_leave(&sc);
    if (result)
        *result = c.res;
    return st;
}
