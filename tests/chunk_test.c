/* The chunk tags (chunk.h): a golden table of every rule of mc_chunk_parse (input, message),
 * a round trip through mc_chunk_format, and the scene identity of a scene built on disk,
 * checked against digests worked out independently (python3's hashlib, see below). */
#include <md5cine/chunk.h>
#include <md5cine/fileio.h>
#include <md5cine/scene.h>

#include <stdio.h>
#include <stdlib.h>

#include "test.h"

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

typedef struct golden {
    const char *chunk, *fps, *scene, *settings;
    const char *msg; /* NULL: parses */
} golden;

static const golden goldens[] = {
    { "60-119/241", "24/1", H64, "crf=18", NULL },
    { "0-0/1", "1000/1", H64, "a", NULL },
    { "0-300/301", "30000/1001", H64, "size=160x90 crf=18", NULL },
    { NULL, "24/1", H64, "a", "'p.mp4' is not an md5cine chunk (no md5cine_chunk tag)" },
    { "60-119/41", "24/1", H64, "a",
      "'p.mp4' has a bad md5cine_chunk tag '60-119/41': expected FIRST-LAST/FRAMES with FIRST "
      "<= LAST < FRAMES" },
    { "119-60/241", "24/1", H64, "a", "'p.mp4' has a bad md5cine_chunk tag '119-60/241': "
      "expected FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" },
    { "060-119/241", "24/1", H64, "a", "'p.mp4' has a bad md5cine_chunk tag '060-119/241': "
      "expected FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" },
    { "+60-119/241", "24/1", H64, "a", "'p.mp4' has a bad md5cine_chunk tag '+60-119/241': "
      "expected FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" },
    { "60-119/241 ", "24/1", H64, "a", "'p.mp4' has a bad md5cine_chunk tag '60-119/241 ': "
      "expected FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" },
    { "0-1/1000000000000000", "24/1", H64, "a",
      "'p.mp4' has a bad md5cine_chunk tag '0-1/1000000000000000': expected FIRST-LAST/FRAMES "
      "with FIRST <= LAST < FRAMES" },
    { "60-119", "24/1", H64, "a", "'p.mp4' has a bad md5cine_chunk tag '60-119': expected "
      "FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" },
    { "60-119/241", NULL, H64, "a", "'p.mp4' has a bad md5cine_fps tag '': expected NUM/DEN "
      "within 1..1000 frames per second" },
    { "60-119/241", "24", H64, "a", "'p.mp4' has a bad md5cine_fps tag '24': expected NUM/DEN "
      "within 1..1000 frames per second" },
    { "60-119/241", "1001/1", H64, "a", "'p.mp4' has a bad md5cine_fps tag '1001/1': expected "
      "NUM/DEN within 1..1000 frames per second" },
    { "60-119/241", "1/2", H64, "a", "'p.mp4' has a bad md5cine_fps tag '1/2': expected "
      "NUM/DEN within 1..1000 frames per second" },
    { "60-119/241", "24/0", H64, "a", "'p.mp4' has a bad md5cine_fps tag '24/0': expected "
      "NUM/DEN within 1..1000 frames per second" },
    { "60-119/241", "24/1", "0123", "a", "'p.mp4' has a bad md5cine_scene tag '0123': expected "
      "64 lower-case hex digits" },
    { "60-119/241", "24/1", "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
      "a", "'p.mp4' has a bad md5cine_scene tag '0123456789ABCDEF0123456789abcdef0123456789abcdef"
      "0123456789abcdef': expected 64 lower-case hex digits" },
    { "60-119/241", "24/1", H64, "", "'p.mp4' has a bad md5cine_settings tag '': expected "
      "1..255 printable ASCII bytes" },
    { "60-119/241", "24/1", H64, "crf=18\n", "'p.mp4' has a bad md5cine_settings tag "
      "'crf=18\n': expected 1..255 printable ASCII bytes" },
};

TEST(every_tag_rule_has_its_message)
{
    for (size_t i = 0; i < TEST_COUNT(goldens); i++) {
        const golden *g = &goldens[i];
        mc_chunk_info info;
        mc_error e;
        mc_status st = mc_chunk_parse("p.mp4", g->chunk, g->fps, g->scene, g->settings, &info, &e);

        if (!g->msg) {
            if (st != MC_OK)
                test_fail(__FILE__, __LINE__, "case %zu: %s", i, e.msg);
            continue;
        }
        if (st != MC_ERR_SYNTAX || strcmp(e.msg, g->msg) != 0 || strcmp(e.file, "p.mp4") != 0)
            test_fail(__FILE__, __LINE__, "case %zu: got %d '%s', expected '%s'", i, (int)st,
                      st == MC_OK ? "" : e.msg, g->msg);
    }
}

TEST(a_long_settings_value_is_refused)
{
    char s[300];
    mc_chunk_info info;
    mc_error e;

    memset(s, 'a', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    EXPECT_EQ_INT(mc_chunk_parse("p.mp4", "0-0/1", "24/1", H64, s, &info, &e), MC_ERR_SYNTAX);
    s[255] = '\0'; /* 255 bytes fit */
    EXPECT_EQ_INT(mc_chunk_parse("p.mp4", "0-0/1", "24/1", H64, s, &info, &e), MC_OK);
}

TEST(parsed_values_and_the_round_trip)
{
    mc_chunk_info info, back;
    mc_chunk_tags t;
    mc_error e;

    ASSERT_OK(mc_chunk_parse("p.mp4", "120-179/241", "30000/1001", H64, "crf=18", &info, &e), &e);
    EXPECT_EQ_INT(info.first, 120);
    EXPECT_EQ_INT(info.last, 179);
    EXPECT_EQ_INT(info.frames, 241);
    EXPECT_EQ_INT(info.fps.num, 30000);
    EXPECT_EQ_INT(info.fps.den, 1001);
    mc_chunk_format(&info, &t);
    EXPECT_EQ_STR(t.chunk, "120-179/241");
    EXPECT_EQ_STR(t.fps, "30000/1001");
    ASSERT_OK(mc_chunk_parse("p.mp4", t.chunk, t.fps, t.scene, t.settings, &back, &e), &e);
    EXPECT(memcmp(&info, &back, sizeof info) == 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");

    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A scene of one camera and one actor with a mesh and no anim or texture: the identity is
 * SHA-256(sha256(scene) || sha256(camera) || sha256(mesh)). The expected value was computed
 * with python3:
 *   h = lambda b: hashlib.sha256(b).digest()
 *   hashlib.sha256(h(SCENE) + h(CAMERA) + h(MESH)).hexdigest() */
#define SCENE "md5scene 1\ncamera \"c.md5camera\"\nactor \"a\" { mesh \"m.md5mesh\" }\n"
#define CAMERA "MD5Version 10\ncommandline \"\"\nnumFrames 2\nframeRate 24\nnumCuts 0\n" \
               "cuts {\n}\ncamera {\n( 0 0 0 ) ( 0 0 0 ) 90\n( 1 0 0 ) ( 0 0 0 ) 90\n}\n"
#define MESH "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\njoints {\n" \
             "\"root\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\nshader \"\"\nnumverts 3\n" \
             "vert 0 ( 0 0 ) 0 1\nvert 1 ( 1 0 ) 1 1\nvert 2 ( 0 1 ) 2 1\nnumtris 1\n" \
             "tri 0 0 1 2\nnumweights 3\nweight 0 0 1 ( 0 0 0 )\nweight 1 0 1 ( 1 0 0 )\n" \
             "weight 2 0 1 ( 0 1 0 )\n}\n"

TEST(the_scene_identity_hashes_every_file)
{
    char dir[512], path[600], id[MC_CHUNK_ID_LEN + 1], id2[MC_CHUNK_ID_LEN + 1];
    mc_scene sc;
    mc_error e;

    test_tmp_path(dir, sizeof dir, "chunk_scene");
    ASSERT(mc_mkdirs(dir));
    snprintf(path, sizeof path, "%s/c.md5camera", dir);
    write_file(path, CAMERA);
    snprintf(path, sizeof path, "%s/m.md5mesh", dir);
    write_file(path, MESH);
    snprintf(path, sizeof path, "%s/s.md5scene", dir);
    write_file(path, SCENE);
    ASSERT_OK(mc_scene_load(path, NULL, &sc, &e), &e);
    ASSERT_OK(mc_chunk_scene_id(&sc, id, &e), &e);
    mc_scene_release(&sc);
    EXPECT_EQ_STR(id, "371384c6ae63c4cf39482f55bf85c17fa299f656ce98ccbb6196ce9171c50cea");
    /* One byte more in the mesh: another identity. */
    snprintf(path, sizeof path, "%s/m.md5mesh", dir);
    write_file(path, MESH "\n");
    snprintf(path, sizeof path, "%s/s.md5scene", dir);
    ASSERT_OK(mc_scene_load(path, NULL, &sc, &e), &e);
    ASSERT_OK(mc_chunk_scene_id(&sc, id2, &e), &e);
    mc_scene_release(&sc);
    EXPECT(strcmp(id, id2) != 0);
}
