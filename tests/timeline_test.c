/* The camera timeline (DESIGN.md 2.1). Every expected row below is worked out by hand from
 *
 *   p = k * frameRate / fps;  f = floor(p);  lerp = p - f
 *   for each cut c in increasing order: if f < c stop, else f += 1
 *   N == 1: stored 0;  f > N - 2: ended, stored N - 1;  lerp == 0: stored f;  else f -> f + 1
 *   shot = number of cuts c with c < stored
 *
 * The cameras are built in memory (no parser involved); only num_frames, frame_rate and the
 * cuts matter to the timeline. */
#include <md5cine/timeline.h>

#include "camera_fixture.h"
#include "test.h"

#define R(n) ((mc_rate){ (n), 1 })

typedef struct row {
    int stored, next;
    double lerp;
    int shot;
    bool ended;
} row;

static void check_rows(const mc_camera *cam, int fps, const row *rows, int n, int line)
{
    for (int k = 0; k < n; k++) {
        mc_timeline_sample s;

        mc_timeline_sample_frame(cam, R(fps), k, &s);
        if (s.frame != k || s.stored != rows[k].stored || s.next != rows[k].next ||
            s.shot != rows[k].shot || s.ended != rows[k].ended ||
            fabs((double)s.lerp - rows[k].lerp) > 1e-6)
            test_fail(__FILE__, line,
                      "frame %d: got stored %d next %d lerp %g shot %d ended %d, expected %d %d "
                      "%g %d %d",
                      k, s.stored, s.next, (double)s.lerp, s.shot, s.ended, rows[k].stored,
                      rows[k].next, rows[k].lerp, rows[k].shot, rows[k].ended);
        EXPECT_NEAR(s.time, (double)k / fps, 1e-12);
    }
}

TEST(design_example_skips_stored_frame_four)
{
    /* N 10, cut {4}, 24 fps at 24: p = k. k 0-3 show 0-3 (shot 0); k 4: f 4 >= 4 -> 5, shot 1
     * (4 < 5); k 5-7 show 6-8; k 8: f 8 -> 9 > N - 2 = 8: ended, stored 9. So 9 output frames
     * showing 0 1 2 3 5 6 7 8 9, shot boundary between outputs 3 and 4. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    static const row rows[] = {
        { 0, 0, 0, 0, false }, { 1, 1, 0, 0, false }, { 2, 2, 0, 0, false },
        { 3, 3, 0, 0, false }, { 5, 5, 0, 1, false }, { 6, 6, 0, 1, false },
        { 7, 7, 0, 1, false }, { 8, 8, 0, 1, false }, { 9, 9, 0, 1, true },
    };

    check_rows(&cam, 24, rows, 9, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(24), 1), 9);
}

TEST(several_cuts_each_open_a_shot)
{
    /* N 10, cuts {2 5 7}, 30 fps at 30: p = k.
     * k 0: 0. k 1: 1. k 2: 2 >= 2 -> 3; 3 < 5 stop: 3 (shot 1: cut 2 < 3).
     * k 3: 3 -> 4; 4 < 5: 4 (shot 1). k 4: 4 -> 5 -> 6; 6 < 7: 6 (shot 2: cuts 2, 5).
     * k 5: 5 -> 6 -> 7 -> 8: 8 (shot 3). k 6: 6 -> 9 > 8: ended, stored 9 (shot 3).
     * K = 7. */
    int cuts[] = { 2, 5, 7 };
    mc_camera cam = make_camera(10, 30, 3, cuts);
    static const row rows[] = {
        { 0, 0, 0, 0, false }, { 1, 1, 0, 0, false }, { 3, 3, 0, 1, false },
        { 4, 4, 0, 1, false }, { 6, 6, 0, 2, false }, { 8, 8, 0, 3, false },
        { 9, 9, 0, 3, true },
    };

    check_rows(&cam, 30, rows, 7, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(30), 1), 7);
}

TEST(a_cut_at_the_last_frame_only_ends_the_camera)
{
    /* N 5, cut {4}, 24 at 24: k 0-3 show 0-3; k 4: 4 >= 4 -> 5 > 3: ended, stored 4. Shot of
     * stored 4: cut 4 is not below 4, so shot 0 throughout. K = 5. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(5, 24, 1, cuts);
    static const row rows[] = {
        { 0, 0, 0, 0, false }, { 1, 1, 0, 0, false }, { 2, 2, 0, 0, false },
        { 3, 3, 0, 0, false }, { 4, 4, 0, 0, true },
    };

    check_rows(&cam, 24, rows, 5, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(24), 1), 5);
}

TEST(a_one_frame_camera_never_ends)
{
    /* N 1: every output frame shows stored 0; the length comes from the caller. */
    mc_camera cam = make_camera(1, 24, 0, NULL);
    static const row rows[] = {
        { 0, 0, 0, 0, false }, { 0, 0, 0, 0, false }, { 0, 0, 0, 0, false },
    };
    mc_timeline_sample s;

    check_rows(&cam, 24, rows, 3, __LINE__);
    mc_timeline_sample_frame(&cam, R(24), 1000000, &s);
    EXPECT_EQ_INT(s.stored, 0);
    EXPECT(!s.ended);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(24), 48), 48);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(24), 1), 1);
}

TEST(sixty_fps_camera_at_sixty)
{
    /* N 7, 60 at 60: k 0-5 show 0-5; k 6: 6 > 5: ended, stored 6. K = 7. */
    mc_camera cam = make_camera(7, 60, 0, NULL);
    static const row rows[] = {
        { 0, 0, 0, 0, false }, { 1, 1, 0, 0, false }, { 2, 2, 0, 0, false },
        { 3, 3, 0, 0, false }, { 4, 4, 0, 0, false }, { 5, 5, 0, 0, false },
        { 6, 6, 0, 0, true },
    };

    check_rows(&cam, 60, rows, 7, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(60), 1), 7);
}

TEST(camera_at_24_sampled_at_30)
{
    /* N 10, cut {4}, rate 24, fps 30: p = 0.8 k.
     * k 0: 0. k 1: 0.8 -> 0->1 lerp .8. k 2: 1.6 -> 1->2 .6. k 3: 2.4 -> 2->3 .4.
     * k 4: 3.2 -> 3->4 .2 (3 < 4, still shot 0: moving towards the old camera's pose at the cut).
     * k 5: 4.0 -> 4 >= 4 -> 5, lerp 0: 5 (shot 1). k 6: 4.8 -> 5->6 .8. k 7: 5.6 -> 6->7 .6.
     * k 8: 6.4 -> 7->8 .4. k 9: 7.2 -> 8->9 .2 (8 is not > 8). k 10: 8.0 -> 9: ended.
     * K: the first raw f whose shifted value passes 8 is 8; first k with 0.8 k >= 8 is 10:
     * K = 11. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    static const row rows[] = {
        { 0, 0, 0, 0, false },   { 0, 1, 0.8, 0, false }, { 1, 2, 0.6, 0, false },
        { 2, 3, 0.4, 0, false }, { 3, 4, 0.2, 0, false }, { 5, 5, 0, 1, false },
        { 5, 6, 0.8, 1, false }, { 6, 7, 0.6, 1, false }, { 7, 8, 0.4, 1, false },
        { 8, 9, 0.2, 1, false }, { 9, 9, 0, 1, true },
    };

    check_rows(&cam, 30, rows, 11, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(30), 1), 11);
}

TEST(camera_at_24_sampled_at_60)
{
    /* Same camera at fps 60: p = 0.4 k. k 9: 3.6 -> 3->4 lerp .6 (shot 0); k 10: 4.0 -> 5,
     * lerp 0 (shot 1); k 19: 7.6 -> 7 -> 8->9 lerp .6; k 20: 8.0 -> 9: ended.
     * K = ceil(8 * 60 / 24) + 1 = 21. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    mc_timeline_sample s;

    mc_timeline_sample_frame(&cam, R(60), 9, &s);
    EXPECT(s.stored == 3 && s.next == 4 && s.shot == 0);
    EXPECT_NEAR(s.lerp, 0.6, 1e-6);
    mc_timeline_sample_frame(&cam, R(60), 10, &s);
    EXPECT(s.stored == 5 && s.next == 5 && s.shot == 1 && s.lerp == 0.0f);
    mc_timeline_sample_frame(&cam, R(60), 19, &s);
    EXPECT(s.stored == 8 && s.next == 9 && !s.ended);
    EXPECT_NEAR(s.lerp, 0.6, 1e-6);
    mc_timeline_sample_frame(&cam, R(60), 20, &s);
    EXPECT(s.stored == 9 && s.ended);
    EXPECT_EQ_INT(mc_timeline_frame_count(&cam, R(60), 1), 21);
}

TEST(a_whole_stored_frame_is_never_missed_by_rounding)
{
    /* 25 fps camera at 25: in doubles (29 / 25.0) * 25 = 28.999999999999996, which floors to
     * 28. The integer mapping gives exactly stored 29 with lerp 0. */
    mc_camera cam = make_camera(40, 25, 0, NULL);
    mc_timeline_sample s;

    mc_timeline_sample_frame(&cam, R(25), 29, &s);
    EXPECT_EQ_INT(s.stored, 29);
    EXPECT_EQ_INT(s.next, 29);
    EXPECT(s.lerp == 0.0f);
}

TEST(sampling_a_time_between_frames_interpolates)
{
    /* t = 1/48 s at 24 fps: p = 0.5 -> 0->1 lerp 0.5. t = 4.5/24: p = 4.5 -> 4 >= 4 -> 5->6,
     * lerp 0.5, shot 1. A negative time holds frame 0. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    mc_timeline_sample s;

    mc_timeline_sample_time(&cam, 1.0 / 48.0, &s);
    EXPECT(s.frame == -1 && s.stored == 0 && s.next == 1);
    EXPECT_NEAR(s.lerp, 0.5, 1e-6);
    mc_timeline_sample_time(&cam, 4.5 / 24.0, &s);
    EXPECT(s.stored == 5 && s.next == 6 && s.shot == 1);
    EXPECT_NEAR(s.lerp, 0.5, 1e-6);
    mc_timeline_sample_time(&cam, -1.0, &s);
    EXPECT(s.stored == 0 && s.next == 0 && s.lerp == 0.0f);
    mc_timeline_sample_time(&cam, 1e30, &s);
    EXPECT(s.stored == 9 && s.ended);
}

TEST(huge_frame_numbers_do_not_overflow)
{
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    mc_timeline_sample s;

    mc_timeline_sample_frame(&cam, R(1), INT64_MAX, &s);
    EXPECT(s.stored == 9 && s.ended);
}

TEST(cut_frames_are_the_first_frames_of_their_shots)
{
    /* cut {4} at 24/24: shot 1 starts at output 4 (design example); at 30: raw 4 is reached
     * at k = ceil(4 * 30 / 24) = 5; at 60: k = ceil(4 * 60 / 24) = 10 (see the tables above). */
    int one[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, one);
    /* cuts {2 5 7} at 30/30: cut i is passed once raw >= c_i - i: 2, 4, 5 (table above: shot 1
     * from output 2, shot 2 from 4, shot 3 from 5). At 10 fps (p = 3k): ceil(2/3) = 1,
     * ceil(4/3) = 2, ceil(5/3) = 2: cuts 5 and 7 are both passed at output 2. */
    int three[] = { 2, 5, 7 };
    mc_camera cams = make_camera(10, 30, 3, three);
    /* A cut at the last stored frame (N 5, cut 4) opens no shot. */
    mc_camera last = make_camera(5, 24, 1, one);

    EXPECT_EQ_INT(mc_timeline_cut_frame(&cam, R(24), 0), 4);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cam, R(30), 0), 5);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cam, R(60), 0), 10);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(30), 0), 2);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(30), 1), 4);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(30), 2), 5);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(10), 0), 1);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(10), 1), 2);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(10), 2), 2);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&last, R(24), 0), -1);
    EXPECT_EQ_INT(mc_timeline_cut_frame(&cams, R(30), 3), -1);
}

/* ---- the engine clock ----------------------------------------------------------------------
 * Output frame k at fps samples game time ms = 16 * floor(k * 1000 / (16 * fps)); a camera at
 * 60 fps shows f = ms / 16 with lerp 0, any other rate p = ms * frameRate, f = p / 1000,
 * lerp = (p % 1000) / 1000; then the cut and end rules above. The ms column of each table is
 * that floor worked out by hand. */

typedef struct engine_row {
    int64_t ms;
    int stored, next;
    double lerp;
    int shot;
    bool ended;
} engine_row;

static void check_engine_rows(const mc_camera *cam, mc_rate fps, const engine_row *rows, int n,
                              int line)
{
    for (int k = 0; k < n; k++) {
        mc_timeline_sample s;
        const engine_row *r = &rows[k];

        mc_timeline_sample_frame_clock(cam, fps, MC_CLOCK_ENGINE, k, &s);
        if (s.frame != k || s.engine_ms != r->ms || s.stored != r->stored || s.next != r->next ||
            s.shot != r->shot || s.ended != r->ended || fabs((double)s.lerp - r->lerp) > 1e-6)
            test_fail(__FILE__, line,
                      "frame %d: got ms %lld stored %d next %d lerp %g shot %d ended %d, "
                      "expected %lld %d %d %g %d %d",
                      k, (long long)s.engine_ms, s.stored, s.next, (double)s.lerp, s.shot,
                      s.ended, (long long)r->ms, r->stored, r->next, r->lerp, r->shot, r->ended);
        EXPECT_NEAR(s.time, (double)k * fps.den / fps.num, 1e-12);
        EXPECT_EQ_INT(mc_timeline_engine_ms(fps, k), r->ms);
    }
}

TEST(engine_clock_24_fps_camera_at_24)
{
    /* ticks = floor(k * 1000 / 384) = floor(k * 125 / 48): 0 2 5 7 10 13 15 18 20 23 26;
     * p = ms * 24: 0 768 1920 2688 3840 4992 5760 6912 7680 8832 9984. N 10: f 8 is the last
     * pair 8 -> 9; f 9 (k 10) has ended, so 11 output frames (the ideal clock gives 10). */
    mc_camera cam = make_camera(10, 24, 0, NULL);
    static const engine_row rows[] = {
        { 0, 0, 0, 0, 0, false },        { 32, 0, 1, 0.768, 0, false },
        { 80, 1, 2, 0.920, 0, false },   { 112, 2, 3, 0.688, 0, false },
        { 160, 3, 4, 0.840, 0, false },  { 208, 4, 5, 0.992, 0, false },
        { 240, 5, 6, 0.760, 0, false },  { 288, 6, 7, 0.912, 0, false },
        { 320, 7, 8, 0.680, 0, false },  { 368, 8, 9, 0.832, 0, false },
        { 416, 9, 9, 0, 0, true },
    };

    check_engine_rows(&cam, R(24), rows, 11, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, R(24), MC_CLOCK_ENGINE, 1), 11);
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, R(24), MC_CLOCK_IDEAL, 1), 10);
}

TEST(engine_clock_30_fps_camera_at_30)
{
    /* ticks = floor(k * 1000 / 480) = floor(k * 25 / 12): 0 2 4 6 8 10 12; p = ms * 30:
     * 0 960 1920 2880 3840 4800 5760. N 6: f 4 -> 5 at k 5, f 5 ends at k 6. */
    mc_camera cam = make_camera(6, 30, 0, NULL);
    static const engine_row rows[] = {
        { 0, 0, 0, 0, 0, false },       { 32, 0, 1, 0.960, 0, false },
        { 64, 1, 2, 0.920, 0, false },  { 96, 2, 3, 0.880, 0, false },
        { 128, 3, 4, 0.840, 0, false }, { 160, 4, 5, 0.800, 0, false },
        { 192, 5, 5, 0, 0, true },
    };

    check_engine_rows(&cam, R(30), rows, 7, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, R(30), MC_CLOCK_ENGINE, 1), 7);
}

TEST(engine_clock_60_fps_camera_steps_one_frame_per_tick)
{
    /* At 60 output fps: ticks = floor(k * 1000 / 960) = floor(k * 25 / 24), which is k up to
     * k 23, then 25 at k 24 (stored 24 is never shown: the game's 62.5 ticks a second outrun 60),
     * 26 at k 25, 28 at k 27 and 29 at k 28, past N - 2 = 28: 29 output frames, not 30. Never
     * interpolated. */
    mc_camera cam = make_camera(30, 60, 0, NULL);
    static const struct {
        int k;
        int64_t ms;
        int stored;
        bool ended;
    } rows[] = {
        { 0, 0, 0, false },     { 1, 16, 1, false },    { 2, 32, 2, false },
        { 3, 48, 3, false },    { 23, 368, 23, false }, { 24, 400, 25, false },
        { 25, 416, 26, false }, { 27, 448, 28, false }, { 28, 464, 29, true },
    };

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mc_timeline_sample s;

        mc_timeline_sample_frame_clock(&cam, R(60), MC_CLOCK_ENGINE, rows[i].k, &s);
        EXPECT_EQ_INT(s.engine_ms, rows[i].ms);
        EXPECT_EQ_INT(s.stored, rows[i].stored);
        EXPECT_EQ_INT(s.next, rows[i].stored);
        EXPECT(s.lerp == 0.0f);
        EXPECT(s.ended == rows[i].ended);
    }
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, R(60), MC_CLOCK_ENGINE, 1), 29);
    /* At 62.5 = 125/2 output fps every output frame is one tick: ms = 16 k, stored k; stored
     * 28 at k 28 is the last pair's start, k 29 ends. */
    for (int k = 0; k < 30; k++) {
        mc_timeline_sample s;

        mc_timeline_sample_frame_clock(&cam, (mc_rate){ 125, 2 }, MC_CLOCK_ENGINE, k, &s);
        EXPECT_EQ_INT(s.engine_ms, 16 * k);
        EXPECT_EQ_INT(s.stored, k);
    }
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, (mc_rate){ 125, 2 }, MC_CLOCK_ENGINE, 1), 30);
}

TEST(engine_clock_skips_the_cut_pair)
{
    /* N 10, cut {4}, 24 fps at 24: the raw f and lerp of engine_clock_24_fps_camera_at_24;
     * f >= 4 moves to f + 1. k 4: f 3 -> 4 (still shot 0: 4 is not below 4); k 5: f 4 -> 5,
     * shot 1; k 8: f 7 -> 8, the last pair; k 9: f 8 -> 9 > 8: ended. 10 output frames. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    static const engine_row rows[] = {
        { 0, 0, 0, 0, 0, false },       { 32, 0, 1, 0.768, 0, false },
        { 80, 1, 2, 0.920, 0, false },  { 112, 2, 3, 0.688, 0, false },
        { 160, 3, 4, 0.840, 0, false }, { 208, 5, 6, 0.992, 1, false },
        { 240, 6, 7, 0.760, 1, false }, { 288, 7, 8, 0.912, 1, false },
        { 320, 8, 9, 0.680, 1, false }, { 368, 9, 9, 0, 1, true },
    };

    check_engine_rows(&cam, R(24), rows, 10, __LINE__);
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&cam, R(24), MC_CLOCK_ENGINE, 1), 10);
    /* The first frame of shot 1 is k 5 (the ideal clock: k 4). */
    EXPECT_EQ_INT(mc_timeline_cut_frame_clock(&cam, R(24), MC_CLOCK_ENGINE, 0), 5);
    EXPECT_EQ_INT(mc_timeline_cut_frame_clock(&cam, R(24), MC_CLOCK_IDEAL, 0), 4);
}

TEST(engine_clock_sampled_by_milliseconds)
{
    /* 24 fps, N 10, cut {4}: 1000 ms -> p 24000, f 24 -> 25 > 8: ended; 41 ms -> p 984, f 0,
     * lerp .984; 167 ms -> p 4008, f 4 -> 5, lerp .008; -16 counts as 0. A one-frame camera
     * never ends. */
    int cuts[] = { 4 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    mc_camera one = make_camera(1, 24, 0, NULL);
    mc_timeline_sample s;

    mc_timeline_sample_ms(&cam, 1000, &s);
    EXPECT(s.ended);
    EXPECT_EQ_INT(s.stored, 9);
    mc_timeline_sample_ms(&cam, 41, &s);
    EXPECT_EQ_INT(s.stored, 0);
    EXPECT_EQ_INT(s.next, 1);
    EXPECT_NEAR(s.lerp, 0.984, 1e-6);
    mc_timeline_sample_ms(&cam, 167, &s);
    EXPECT_EQ_INT(s.stored, 5);
    EXPECT_EQ_INT(s.next, 6);
    EXPECT_NEAR(s.lerp, 0.008, 1e-6);
    EXPECT_EQ_INT(s.shot, 1);
    mc_timeline_sample_ms(&cam, -16, &s);
    EXPECT_EQ_INT(s.engine_ms, 0);
    EXPECT_EQ_INT(s.stored, 0);
    mc_timeline_sample_ms(&one, 1000000, &s);
    EXPECT_EQ_INT(s.stored, 0);
    EXPECT(!s.ended);
    EXPECT_EQ_INT(mc_timeline_frame_count_clock(&one, R(24), MC_CLOCK_ENGINE, 48), 48);
    mc_timeline_sample_frame_clock(&cam, R(24), MC_CLOCK_ENGINE, INT64_MAX, &s);
    EXPECT(s.ended);
    mc_timeline_sample_frame_clock(&cam, R(24), MC_CLOCK_IDEAL, 3, &s);
    EXPECT_EQ_INT(s.engine_ms, -1);
}
