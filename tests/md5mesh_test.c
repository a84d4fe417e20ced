/* md5mesh parsing: inline fixtures with values read off the text, every shared asset against
 * the counts in its SOURCE.md, the crafted invalid files at the position of the bad token, and
 * the shipped quirks in strict and lenient mode. */
#include <md5cine/md5mesh.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#define A "data/assets/"

/* Two joints, one mesh with three vertices, one triangle and three weights. */
static const char small_mesh[] =
    "MD5Version 10\n"
    "commandline \"x\"\n"
    "numJoints 2\n"
    "numMeshes 1\n"
    "joints {\n"
    "\t\"origin\" -1 ( 0 0 0 ) ( 0 0 0 )\n"
    "\t\"arm\" 0 ( 1 2 3 ) ( 0.6 0 0 ) // origin\n"
    "}\n"
    "mesh {\n"
    "\tname \"body\"\n"
    "\tshader \"models/a\\b.tga\"\n"
    "\tnumverts 3\n"
    "\tvert 0 ( 0 0 ) 0 1\n"
    "\tvert 1 ( 1 0 ) 1 1\n"
    "\tvert 2 ( 0.5 -1 ) 1 2\n"
    "\tnumtris 1\n"
    "\ttri 0 0 2 1\n"
    "\tnumweights 3\n"
    "\tweight 0 0 1 ( 1 2 3 )\n"
    "\tweight 1 1 0.25 ( -1 -.5 5. )\n"
    "\tweight 2 0 0.75 ( 0 0 1e-05 )\n"
    "}\n";

TEST(parses_a_small_mesh)
{
    mc_mesh m;
    mc_error err;

    ASSERT_OK(mc_mesh_parse(small_mesh, strlen(small_mesh), "small.md5mesh", NULL, &m, &err),
              &err);
    EXPECT_EQ_STR(m.name, "small.md5mesh");
    EXPECT_EQ_INT(m.num_joints, 2);
    EXPECT_EQ_STR(m.joints[1].name, "arm");
    EXPECT_EQ_INT(m.joints[0].parent, -1);
    EXPECT_EQ_INT(m.joints[1].parent, 0);
    EXPECT_EQ_INT(m.joints[1].line, 7);
    EXPECT_EQ_INT(m.joints[1].col, 2);
    EXPECT_EQ_VEC3(m.joints[1].pos, ((mc_vec3){ 1, 2, 3 }), 0.0f);
    /* w = sqrt(|1 - 0.36|) = 0.8; the root's (0 0 0) gives w = 1. */
    EXPECT_NEAR(m.joints[1].rot.x, 0.6, 1e-7);
    EXPECT_NEAR(m.joints[1].rot.w, 0.8, 1e-6);
    EXPECT_NEAR(m.joints[0].rot.w, 1.0, 0.0);
    ASSERT(m.num_meshes == 1);
    EXPECT_EQ_STR(m.meshes[0].name, "body");
    EXPECT_EQ_STR(m.meshes[0].shader, "models/a\\b.tga");
    EXPECT_EQ_INT(m.meshes[0].shader_line, 11);
    EXPECT_EQ_INT(m.meshes[0].shader_col, 9);
    EXPECT_EQ_INT(m.meshes[0].num_verts, 3);
    EXPECT_NEAR(m.meshes[0].verts[2].st.y, -1.0, 0.0);
    EXPECT_EQ_INT(m.meshes[0].verts[2].first_weight, 1);
    EXPECT_EQ_INT(m.meshes[0].verts[2].num_weights, 2);
    EXPECT_EQ_INT(m.meshes[0].tris[0].v[1], 2);
    EXPECT_EQ_INT(m.meshes[0].weights[1].joint, 1);
    EXPECT_NEAR(m.meshes[0].weights[1].bias, 0.25, 0.0);
    EXPECT_EQ_VEC3(m.meshes[0].weights[1].pos, ((mc_vec3){ -1, -0.5f, 5 }), 0.0f);
    EXPECT_NEAR(m.meshes[0].weights[2].pos.z, 1e-5, 1e-12);
    mc_mesh_release(&m);
    EXPECT(m.joints == NULL && m.num_meshes == 0);
}

TEST(reads_exactly_len_bytes)
{
    /* The text followed by a stray token that lies past len: not read. */
    char *buf = malloc(sizeof small_mesh + 8);
    mc_mesh m;
    mc_error err;

    ASSERT(buf);
    memcpy(buf, small_mesh, sizeof small_mesh - 1);
    memcpy(buf + sizeof small_mesh - 1, "garbage", 7);
    EXPECT_OK(mc_mesh_parse(buf, sizeof small_mesh - 1, "b", NULL, &m, &err), &err);
    mc_mesh_release(&m);
    EXPECT(mc_mesh_parse(buf, sizeof small_mesh + 6, "b", NULL, &m, &err) == MC_ERR_SYNTAX);
    EXPECT_CONTAINS(err.msg, "unexpected 'garbage' after the end of the file's data");
    free(buf);
}

TEST(a_failed_parse_leaves_nothing_to_release)
{
    mc_mesh m;
    mc_error err;

    EXPECT(mc_mesh_parse("MD5Version 9", 12, "v", NULL, &m, &err) == MC_ERR_RANGE);
    EXPECT(m.joints == NULL && m.meshes == NULL && m.arena.head == NULL);
    /* err may be NULL */
    EXPECT(mc_mesh_parse("x", 1, "v", NULL, &m, NULL) == MC_ERR_SYNTAX);
}

TEST(a_mesh_may_have_no_joints_and_no_meshes)
{
    const char *t = "MD5Version 10 commandline \"\" numJoints 0 numMeshes 0 joints { }";
    mc_mesh m;
    mc_error err;

    ASSERT_OK(mc_mesh_parse(t, strlen(t), "z", NULL, &m, &err), &err);
    EXPECT_EQ_INT(m.num_joints, 0);
    mc_mesh_release(&m);
}

/* Counts from the SOURCE.md table of each folder (verts and tris summed over the meshes). */
typedef struct asset_counts {
    const char *path;
    int joints, meshes, verts, tris;
    const char *shader0; /* shader of the first mesh with vertices */
} asset_counts;

static const asset_counts valid_meshes[] = {
    { A "assimp-boarman/BoarMan.md5mesh", 1, 14, 1552, 2812, "" },
    { A "assimp-simplecube/SimpleCube.md5mesh", 3, 1, 24, 12, "" },
    { A "cube2-ffflag/ffflag.md5mesh", 19, 1, 172, 236, "01 - Default" },
    { A "redeclipse-drone/mesh.md5mesh", 27, 2, 1439, 1926, "" },
    { A "redeclipse-props/jojo-teamalpha/mesh.md5mesh", 1, 1, 4, 2, "01 - Default" },
    { A "redeclipse-props/luckystrike-banner01/banner.md5mesh", 7, 1, 122, 142,
      "C:\\Users\\Remi\\Documents\\Remi\\models\\banner\\bake.tga" },
    { A "redeclipse-props/luckystrike-door1/mesh.md5mesh", 1, 1, 36, 12,
      "C:\\Users\\Remi\\Documents\\My Games\\SVN\\redeclipse\\data\\models\\luckystrike\\door1"
      "\\skin.png" },
    { A "redeclipse-quirks/cartridge/mesh.md5mesh", 1, 1, 36, 32, "01 - Par d\xE9" "faut" },
    { A "redeclipse-quirks/plasma/plasma.md5mesh", 8, 1, 1898, 2396, "default" },
};

TEST(loads_every_valid_asset_with_its_documented_counts)
{
    for (size_t i = 0; i < TEST_COUNT(valid_meshes); i++) {
        const asset_counts *c = &valid_meshes[i];
        mc_mesh m;
        mc_error err;
        int verts = 0, tris = 0;
        const char *shader = NULL;

        EXPECT_OK(mc_mesh_load(c->path, NULL, &m, &err), &err);
        if (err.code != MC_OK)
            continue;
        EXPECT_EQ_INT(m.num_joints, c->joints);
        EXPECT_EQ_INT(m.num_meshes, c->meshes);
        for (int k = 0; k < m.num_meshes; k++) {
            verts += m.meshes[k].num_verts;
            tris += m.meshes[k].num_tris;
            if (!shader && m.meshes[k].num_verts > 0)
                shader = m.meshes[k].shader;
        }
        EXPECT_EQ_INT(verts, c->verts);
        EXPECT_EQ_INT(tris, c->tris);
        EXPECT_EQ_STR(shader, c->shader0);
        mc_mesh_release(&m);
    }
}

TEST(reads_simplecube_values_as_written)
{
    mc_mesh m;
    mc_error err;
    const mc_submesh *s;

    ASSERT_OK(mc_mesh_load(A "assimp-simplecube/SimpleCube.md5mesh", NULL, &m, &err), &err);
    /* "joint1" 1 ( 0.0249728262 0.0000019062 31.9803333282 ) ( -0.7071067691 0.0000000527
     * 0.0000000105 ): w = sqrt(|1 - 0.7071067691^2|) = 0.70710679 (to 1e-7). */
    EXPECT_EQ_STR(m.joints[2].name, "joint1");
    EXPECT_EQ_INT(m.joints[2].parent, 1);
    EXPECT_EQ_VEC3(m.joints[2].pos, ((mc_vec3){ 0.0249728262f, 0.0000019062f, 31.9803333282f }),
                   1e-6f);
    EXPECT_NEAR(m.joints[2].rot.w, 0.70710679, 2e-7);
    s = &m.meshes[0];
    /* vert 23 ( 0.3125 -0.5 ) 10 2; tri 11 22 20 23; weight 15 2 0.5 ( 31.9750270844
     * 0.0196647644 -32 ) */
    EXPECT_NEAR(s->verts[23].st.x, 0.3125, 0.0);
    EXPECT_EQ_INT(s->verts[23].first_weight, 10);
    EXPECT_EQ_INT(s->tris[11].v[0], 22);
    EXPECT_EQ_INT(s->tris[11].v[2], 23);
    EXPECT_EQ_INT(s->weights[15].joint, 2);
    EXPECT_EQ_VEC3(s->weights[15].pos, ((mc_vec3){ 31.9750270844f, 0.0196647644f, -32.0f }),
                   1e-6f);
    mc_mesh_release(&m);
}

TEST(rejects_each_invalid_asset_at_the_bad_token)
{
    /* Positions read off the files: e.g. InvalidBoneIndex line 23 is "weight 0 999 1.0 ( 0 0 0 )",
     * the joint 999 at column 10. */
    static const test_error_case cases[] = {
        { A "assimp-invalid/InvalidBoneIndex.md5mesh", MC_ERR_RANGE, 23, 10,
          "weight 0 uses joint 999 but the mesh has 1 joint" },
        { A "assimp-invalid/OverflowingTriangleIndex.md5mesh", MC_ERR_RANGE, 18, 5,
          "integer '4294967295' is out of range" },
        { A "assimp-invalid/OverflowingVertexIndex.md5mesh", MC_ERR_RANGE, 15, 6,
          "integer '4294967295' is out of range" },
        { A "assimp-invalid/OverflowingWeightIndex.md5mesh", MC_ERR_RANGE, 21, 8,
          "integer '4294967295' is out of range" },
        { A "assimp-invalid/empty.md5mesh", MC_ERR_SYNTAX, 1, 1,
          "expected 'MD5Version', found end of file" },
        /* Strict mode: the quirks. zapper starts with commandline; grenade has no commandline
         * line, so line 3 ("numJoints 2") is where one was expected. */
        { A "redeclipse-quirks/zapper/mesh.md5mesh", MC_ERR_SYNTAX, 1, 1,
          "expected 'MD5Version', found 'commandline'" },
        { A "redeclipse-quirks/grenade/grenade.md5mesh", MC_ERR_SYNTAX, 3, 1,
          "expected 'commandline', found 'numJoints'" },
    };
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        mc_mesh m;
        mc_error err;
        mc_status s = mc_mesh_load(cases[i].input, NULL, &m, &err);

        EXPECT_ERROR_IS(&cases[i], s, &err, i);
        EXPECT_EQ_STR(err.file, cases[i].input);
    }
}

TEST(lenient_loads_the_quirks_and_names_each_deviation)
{
    test_warnings log = { 0 };
    mc_parse_opts opts = { .lenient = true, .warn = test_record_warning, .warn_user = &log };
    mc_mesh m;
    mc_error err;

    ASSERT_OK(mc_mesh_load(A "redeclipse-quirks/zapper/mesh.md5mesh", &opts, &m, &err), &err);
    /* SOURCE.md: joints 6, verts 1929, tris 2271, shader "default" */
    EXPECT_EQ_INT(m.num_joints, 6);
    EXPECT_EQ_INT(m.meshes[0].num_verts, 1929);
    EXPECT_EQ_INT(m.meshes[0].num_tris, 2271);
    EXPECT_EQ_STR(m.meshes[0].shader, "default");
    mc_mesh_release(&m);
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_CONTAINS(log.first[0].msg, "missing 'MD5Version'");
    EXPECT_EQ_INT(log.first[0].line, 1);
    EXPECT_EQ_INT(log.first[0].col, 1);

    log.count = 0;
    ASSERT_OK(mc_mesh_load(A "redeclipse-quirks/grenade/grenade.md5mesh", &opts, &m, &err), &err);
    /* SOURCE.md: joints 2, verts 487, tris 620, shader "grenade" */
    EXPECT_EQ_INT(m.num_joints, 2);
    EXPECT_EQ_INT(m.meshes[0].num_verts, 487);
    EXPECT_EQ_INT(m.meshes[0].num_tris, 620);
    mc_mesh_release(&m);
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_CONTAINS(log.first[0].msg, "missing 'commandline'");
    EXPECT_EQ_INT(log.first[0].line, 3);
}

TEST(lenient_still_rejects_real_errors)
{
    mc_parse_opts opts = { .lenient = true };
    mc_mesh m;
    mc_error err;

    EXPECT(mc_mesh_load(A "assimp-invalid/InvalidBoneIndex.md5mesh", &opts, &m, &err) ==
           MC_ERR_RANGE);
}

TEST(a_valid_crlf_file_gives_no_warning)
{
    test_warnings log = { 0 };
    mc_parse_opts opts = { .lenient = true, .warn = test_record_warning, .warn_user = &log };
    mc_mesh m;
    mc_error err;

    ASSERT_OK(mc_mesh_load(A "cube2-ffflag/ffflag.md5mesh", &opts, &m, &err), &err);
    EXPECT_EQ_INT(log.count, 0);
    /* CRLF file: the joint "Bone013" is on line 10 after a tab: column 2. */
    EXPECT_EQ_STR(m.joints[1].name, "Bone013");
    EXPECT_EQ_INT(m.joints[1].col, 2);
    mc_mesh_release(&m);
}

TEST(a_missing_file_is_an_io_error_without_position)
{
    mc_mesh m;
    mc_error err;

    EXPECT(mc_mesh_load("data/no-such-file.md5mesh", NULL, &m, &err) == MC_ERR_IO);
    EXPECT_EQ_INT(err.line, 0);
}

/* Opening a FIFO for reading normally waits for a writer; the loader must refuse it at once.
 * The alarm ends the test (a failure) if it would wait. */
TEST(a_fifo_is_refused_without_waiting_for_a_writer)
{
    char path[512];
    mc_mesh m;
    mc_error err;

    test_tmp_path(path, sizeof path, "fifo.md5mesh");
    unlink(path);
    ASSERT(mkfifo(path, 0600) == 0);
    alarm(20);
    EXPECT(mc_mesh_load(path, NULL, &m, &err) == MC_ERR_IO);
    alarm(0);
    EXPECT_EQ_INT(err.line, 0);
    EXPECT_CONTAINS(err.msg, "is not a regular file");
    EXPECT(m.joints == NULL);
    unlink(path);
}
