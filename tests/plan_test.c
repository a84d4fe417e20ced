/* Chunk plans (plan.h). Every expected table is worked out by hand from the rules in plan.h
 * and the timeline of DESIGN.md 2.1. The demo camera (scenes/demo/demo.md5camera: 243 stored
 * frames at 24 fps, cuts 84 and 169) at 24 fps: output k shows stored k until the first cut
 * (k 0-83), then k + 1 (k 84-167, stored 85-168), then k + 2 (k 168-239, stored 170-241); at
 * k 240 stored frame 242 > N - 2 has ended, so there are 241 output frames and the shots are
 * 0-83, 84-167 and 168-240 (84, 84 and 73 frames). */
#include <md5cine/plan.h>
#include <md5cine/timeline.h>

#include "camera_fixture.h"
#include "test.h"

#define R(n) ((mc_rate){ (n), 1 })

typedef struct want {
    int64_t first, last;
    size_t first_shot, last_shot;
} want;

static const mc_shot_range demo_shots[] = { { 1, 0, 83 }, { 2, 84, 167 }, { 3, 168, 240 } };

static void check_plan(const mc_plan_desc *d, const want *w, size_t n, int line)
{
    mc_plan p;
    mc_error e;

    if (mc_plan_make(d, &p, &e) != MC_OK) {
        test_fail(__FILE__, line, "plan failed: %s", e.msg);
        return;
    }
    if (p.num_chunks != n)
        test_fail(__FILE__, line, "got %zu chunks, expected %zu", p.num_chunks, n);
    for (size_t i = 0; i < n && i < p.num_chunks; i++) {
        const mc_plan_chunk *c = &p.chunks[i];

        if (c->index != (int64_t)i || c->first != w[i].first || c->last != w[i].last ||
            c->first_shot != w[i].first_shot || c->last_shot != w[i].last_shot)
            test_fail(__FILE__, line,
                      "chunk %zu: got #%lld %lld-%lld shots %zu-%zu, expected %lld-%lld shots "
                      "%zu-%zu",
                      i, (long long)c->index, (long long)c->first, (long long)c->last,
                      c->first_shot, c->last_shot, (long long)w[i].first, (long long)w[i].last,
                      w[i].first_shot, w[i].last_shot);
    }
    mc_plan_release(&p);
}

static mc_plan_desc demo_desc(mc_plan_mode mode, int64_t n, bool align)
{
    mc_plan_desc d = { mode, n, align, 0, 240, demo_shots, 3 };

    return d;
}

TEST(demo_shots_come_from_the_camera)
{
    int cuts[] = { 84, 169 };
    mc_camera cam = make_camera(243, 24, 2, cuts);
    mc_shot_range s[4];
    int64_t count = mc_timeline_frame_count(&cam, R(24), 1);

    EXPECT_EQ_INT(count, 241);
    ASSERT(mc_plan_shots(&cam, R(24), MC_CLOCK_IDEAL, count, s, 4) == 3);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ_INT(s[i].first, demo_shots[i].first);
        EXPECT_EQ_INT(s[i].last, demo_shots[i].last);
        EXPECT_EQ_INT(s[i].number, demo_shots[i].number);
    }
}

TEST(cuts_passed_in_one_output_frame_make_one_shot)
{
    /* 10 frames at 24, cuts 4 and 5, sampled at 12 fps: p = 2k. k 0: stored 0; k 1: 2;
     * k 2: f 4 passes cut 4 (5) and cut 5 (6): stored 6, two cuts below it, shot number 3;
     * k 3: f 6 -> 8; k 4: f 8 -> 10 > 8, ended. 5 frames, shots 0-1 (1) and 2-4 (3). */
    int cuts[] = { 4, 5 };
    mc_camera cam = make_camera(10, 24, 2, cuts);
    mc_shot_range s[3];
    int64_t count = mc_timeline_frame_count(&cam, R(12), 1);

    EXPECT_EQ_INT(count, 5);
    ASSERT(mc_plan_shots(&cam, R(12), MC_CLOCK_IDEAL, count, s, 3) == 2);
    EXPECT_EQ_INT(s[0].first, 0);
    EXPECT_EQ_INT(s[0].last, 1);
    EXPECT_EQ_INT(s[0].number, 1);
    EXPECT_EQ_INT(s[1].first, 2);
    EXPECT_EQ_INT(s[1].last, 4);
    EXPECT_EQ_INT(s[1].number, 3);
}

TEST(the_engine_clock_moves_the_shot_start)
{
    /* 10 frames at 24 with cut 2, sampled at 24 fps on the engine clock:
     * ms = 16 * floor(k * 1000 / 384), p = ms * 24, f = p / 1000. k 2: ms 80, f 1 (shot 1);
     * k 3: ms 112, f 2, past the cut: shot 2 starts at 3 (the ideal clock: at 2). The end:
     * f + 1 > 8 needs ms >= 336; k 8 gives 320, k 9 gives 368: 10 frames (the ideal clock 9). */
    int cuts[] = { 2 };
    mc_camera cam = make_camera(10, 24, 1, cuts);
    mc_shot_range s[2];
    int64_t count = mc_timeline_frame_count_clock(&cam, R(24), MC_CLOCK_ENGINE, 1);

    EXPECT_EQ_INT(count, 10);
    ASSERT(mc_plan_shots(&cam, R(24), MC_CLOCK_ENGINE, count, s, 2) == 2);
    EXPECT_EQ_INT(s[0].last, 2);
    EXPECT_EQ_INT(s[1].first, 3);
    EXPECT_EQ_INT(s[1].last, 9);
    EXPECT_EQ_INT(s[1].number, 2);
    ASSERT(mc_plan_shots(&cam, R(24), MC_CLOCK_IDEAL, 9, s, 2) == 2);
    EXPECT_EQ_INT(s[1].first, 2);
}

TEST(four_chunks_of_the_demo_split_evenly)
{
    /* 241 / 4: starts floor(i * 241 / 4) = 0, 60, 120, 180. */
    static const want w[] = { { 0, 59, 0, 0 }, { 60, 119, 0, 1 }, { 120, 179, 1, 2 },
                              { 180, 240, 2, 2 } };
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNKS, 4, false);

    check_plan(&d, w, 4, __LINE__);
}

TEST(aligned_chunks_snap_to_the_nearest_shot_start)
{
    /* 4 chunks: 60 -> 84 (24 away; 168 is 108), 120 -> 84 (36 against 48), 180 -> 168;
     * 60 and 120 both land on 84 and merge: 3 chunks, one per shot. 2 chunks: 120 -> 84. */
    static const want w4[] = { { 0, 83, 0, 0 }, { 84, 167, 1, 1 }, { 168, 240, 2, 2 } };
    static const want w2[] = { { 0, 83, 0, 0 }, { 84, 240, 1, 2 } };
    mc_plan_desc d4 = demo_desc(MC_PLAN_CHUNKS, 4, true);
    mc_plan_desc d2 = demo_desc(MC_PLAN_CHUNKS, 2, true);

    check_plan(&d4, w4, 3, __LINE__);
    check_plan(&d2, w2, 2, __LINE__);
}

TEST(a_tie_snaps_to_the_earlier_start)
{
    /* Shots start at 0, 4, 8 in 0-11; 2 chunks put the boundary at 6, 2 from 4 and from 8. */
    static const mc_shot_range shots[] = { { 1, 0, 3 }, { 2, 4, 7 }, { 3, 8, 11 } };
    static const want w[] = { { 0, 3, 0, 0 }, { 4, 11, 1, 2 } };
    mc_plan_desc d = { MC_PLAN_CHUNKS, 2, true, 0, 11, shots, 3 };

    check_plan(&d, w, 2, __LINE__);
}

TEST(fixed_length_chunks_end_short)
{
    static const want w[] = { { 0, 99, 0, 1 }, { 100, 199, 1, 2 }, { 200, 240, 2, 2 } };
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNK_FRAMES, 100, false);

    check_plan(&d, w, 3, __LINE__);
}

TEST(aligned_fixed_length_chunks_restart_at_each_shot)
{
    static const want w[] = { { 0, 49, 0, 0 },    { 50, 83, 0, 0 },   { 84, 133, 1, 1 },
                              { 134, 167, 1, 1 }, { 168, 217, 2, 2 }, { 218, 240, 2, 2 } };
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNK_FRAMES, 50, true);

    check_plan(&d, w, 6, __LINE__);
}

TEST(by_shot_cuts_the_shots_to_the_range)
{
    static const want all[] = { { 0, 83, 0, 0 }, { 84, 167, 1, 1 }, { 168, 240, 2, 2 } };
    static const want part[] = { { 80, 83, 0, 0 }, { 84, 90, 1, 1 } };
    mc_plan_desc d = demo_desc(MC_PLAN_BY_SHOT, 0, false);

    check_plan(&d, all, 3, __LINE__);
    d.first = 80;
    d.last = 90;
    check_plan(&d, part, 2, __LINE__);
    d.first = 100; /* inside one shot: one chunk */
    d.last = 120;
    check_plan(&d, (const want[]){ { 100, 120, 1, 1 } }, 1, __LINE__);
}

TEST(as_many_chunks_as_frames_is_one_frame_each)
{
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNKS, 241, false);
    mc_plan p;
    mc_error e;

    ASSERT_OK(mc_plan_make(&d, &p, &e), &e);
    ASSERT(p.num_chunks == 241);
    for (size_t i = 0; i < 241; i++) {
        EXPECT_EQ_INT(p.chunks[i].first, (int64_t)i);
        EXPECT_EQ_INT(p.chunks[i].last, (int64_t)i);
    }
    EXPECT_EQ_INT(p.chunks[84].first_shot, 1);
    EXPECT_EQ_INT(p.chunks[83].first_shot, 0);
    mc_plan_release(&p);
}

TEST(more_chunks_than_frames_is_an_error)
{
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNKS, 242, false);
    mc_plan p;
    mc_error e;

    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_RANGE);
    EXPECT_EQ_STR(e.msg, "242 chunks asked for, but frames 0-240 are only 241");
    EXPECT(p.chunks == NULL && p.num_chunks == 0);
}

TEST(a_one_frame_scene_is_one_chunk)
{
    static const mc_shot_range one[] = { { 1, 0, 0 } };
    static const want w[] = { { 0, 0, 0, 0 } };
    mc_plan_desc d = { MC_PLAN_CHUNKS, 1, true, 0, 0, one, 1 };
    mc_plan p;
    mc_error e;

    check_plan(&d, w, 1, __LINE__);
    d.mode = MC_PLAN_BY_SHOT;
    check_plan(&d, w, 1, __LINE__);
    d.mode = MC_PLAN_CHUNK_FRAMES;
    d.n = 5;
    check_plan(&d, w, 1, __LINE__);
    d.mode = MC_PLAN_CHUNKS;
    d.n = 2;
    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_RANGE);
}

TEST(bad_descriptions_are_refused)
{
    mc_plan_desc d = demo_desc(MC_PLAN_CHUNKS, 0, false);
    mc_plan p;
    mc_error e;

    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_USAGE);
    d.n = 2;
    d.last = 241; /* past the last shot */
    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_USAGE);
    d.first = 10;
    d.last = 9;
    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_USAGE);
}

TEST(too_many_chunks_hit_the_limit)
{
    static const mc_shot_range big[] = { { 1, 0, 2 * (int64_t)MC_LIMIT_PLAN_CHUNKS } };
    mc_plan_desc d = { MC_PLAN_CHUNK_FRAMES, 1, false, 0, 2 * (int64_t)MC_LIMIT_PLAN_CHUNKS,
                       big, 1 };
    mc_plan p;
    mc_error e;

    EXPECT_EQ_INT(mc_plan_make(&d, &p, &e), MC_ERR_LIMIT);
    d.n = 3; /* 666667 chunks fit */
    ASSERT_OK(mc_plan_make(&d, &p, &e), &e);
    EXPECT_EQ_INT(p.num_chunks, 666667);
    EXPECT_EQ_INT(p.chunks[666666].first, 1999998);
    EXPECT_EQ_INT(p.chunks[666666].last, 2000000);
    mc_plan_release(&p);
}
