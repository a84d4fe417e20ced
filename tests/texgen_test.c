/* Cube maps and texgens below the renderer (material.h, material_eval.h): the stage keywords as
 * parsed, a camera cube map's faces turned as Image_files.cpp R_LoadCubeImages turns them
 * (worked by hand from R_RotatePic, R_HorizontalFlip and R_VerticalFlip), and texgen
 * wobbleSky's turn (tr_light.cpp R_WobbleskyTexGen) at hand-worked moments. The pixels a
 * renderer draws with them are checked by tests/cube_map_test.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/mtr_expr.h>
#include <md5cine/vfs.h>

#include "material_fixture.h"
#include "test.h"

static mc_status parse(const char *text, mc_mtr_file *f, mc_error *err)
{
    return mc_mtr_parse(text, strlen(text), "t.mtr", NULL, f, err);
}

TEST(stage_keywords_are_read)
{
    mc_mtr_file f;
    mc_error err;
    float regs[256];

    ASSERT_OK(parse("m { { blend add cubeMap env/sky texgen wobbleSky 10 20 * 2 30 } }\n"
                    "n { { blend add map x cameraCubeMap env/cam texgen reflect } }\n"
                    "o { { map x texgen normal } { map y texgen skybox } }",
                    &f, &err),
              &err);
    ASSERT(f.num_decls == 3);
    EXPECT_EQ_INT(f.decls[0].stages[0].cube, MC_CUBE_NATIVE);
    EXPECT_EQ_STR(f.decls[0].stages[0].map->name, "env/sky");
    EXPECT_EQ_INT(f.decls[0].stages[0].texgen, MC_TEXGEN_WOBBLESKY);
    ASSERT(f.decls[0].expr.num_regs <= 256);
    mc_expr_eval(&f.decls[0].expr, 0.0f, NULL, regs);
    EXPECT_NEAR(regs[f.decls[0].stages[0].expr.wobble[0]], 10.0, 0.0);
    EXPECT_NEAR(regs[f.decls[0].stages[0].expr.wobble[1]], 40.0, 0.0);
    EXPECT_NEAR(regs[f.decls[0].stages[0].expr.wobble[2]], 30.0, 0.0);
    /* a cube map replaces the map before it, as a second map does */
    EXPECT_EQ_INT(f.decls[1].stages[0].cube, MC_CUBE_CAMERA);
    EXPECT_EQ_STR(f.decls[1].stages[0].map->name, "env/cam");
    EXPECT_EQ_INT(f.decls[1].stages[0].texgen, MC_TEXGEN_REFLECT);
    EXPECT_EQ_INT(f.decls[2].stages[0].texgen, MC_TEXGEN_NORMAL);
    EXPECT_EQ_INT(f.decls[2].stages[0].cube, MC_CUBE_NONE);
    EXPECT_EQ_INT(f.decls[2].stages[1].texgen, MC_TEXGEN_SKYBOX);
    mc_mtr_release(&f);

    EXPECT_EQ_INT(parse("m { { cubeMap add(a, b) } }", &f, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.line, 1);
    EXPECT_EQ_INT(err.col, 7);
    EXPECT_CONTAINS(err.msg, "cubeMap takes an image name");
    EXPECT_EQ_INT(parse("m {\n { texgen sphere } }", &f, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.line, 2);
    EXPECT_EQ_INT(err.col, 11);
    EXPECT_CONTAINS(err.msg, "unknown texgen 'sphere', expected normal, reflect, skybox or "
                             "wobbleSky");
}

/* Face f of a 2 x 2 camera file: texel k (0 top-left, 1 top-right, 2 bottom-left, 3
 * bottom-right) has red 10 (4 f + k) + 10. */
static int red(int f, int k)
{
    return 10 * (4 * f + k) + 10;
}

/* A base holding the six cube faces "<prefix>_<sides[i]>.tga", each 2 x 2 but face short_face
 * (-1: none) 2 x 1, face i's pixels at px + i * stride. */
static mc_vfs *faces_vfs(const char *leaf, const char *prefix, const char *const sides[6],
                         const uint8_t *px, size_t stride, int short_face)
{
    char names[6][32];
    test_image ims[6];

    for (int i = 0; i < 6; i++) {
        snprintf(names[i], sizeof names[i], "%s_%s.tga", prefix, sides[i]);
        ims[i] = (test_image){ names[i], 2, i == short_face ? 1 : 2, px + (size_t)i * stride };
    }
    return vfs_with(leaf, 6, ims);
}

TEST(camera_faces_are_turned_as_the_engine_turns_them)
{
    static const char *const sides[6] = { "forward", "back", "left", "right", "up", "down" };
    /* native face i's texels (0..3 as above) come from these texels of camera file i:
     * forward, up, down: transposed, (x, y) <- (y, x): 0 1 2 3 <- 0 2 1 3;
     * back: transposed, then flipped both ways: (x, y) <- (1 - y, 1 - x): 3 1 2 0;
     * left: flipped vertically, (x, y) <- (x, 1 - y): 2 3 0 1;
     * right: flipped horizontally, (x, y) <- (1 - x, y): 1 0 3 2 */
    static const int from[6][4] = { { 0, 2, 1, 3 }, { 3, 1, 2, 0 }, { 2, 3, 0, 1 },
                                    { 1, 0, 3, 2 }, { 0, 2, 1, 3 }, { 0, 2, 1, 3 } };
    uint8_t px[6][16];
    mc_mtr_file f;
    mc_material m;
    mc_error err;
    mc_vfs *v;

    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++) {
            px[i][4 * k] = (uint8_t)red(i, k);
            px[i][4 * k + 1] = px[i][4 * k + 2] = 0;
            px[i][4 * k + 3] = 255;
        }
    v = faces_vfs("texgen_camera", "k", sides, px[0], sizeof px[0], -1);
    ASSERT_OK(parse("m { { blend add cameraCubeMap k texgen skybox } }", &f, &err), &err);
    ASSERT_OK(mc_material_resolve(&f.decls[0], "t.mtr", v, &m, &err), &err);
    ASSERT(m.num_layers == 1);
    EXPECT_EQ_INT(m.layers[0].map.cube, MC_CUBE_CAMERA);
    EXPECT_EQ_INT(m.layers[0].texgen, MC_TEXGEN_SKYBOX);
    EXPECT(!m.layers[0].map.fell_back);
    EXPECT_EQ_STR(m.layers[0].map.program, "cameraCubeMap(k)");
    ASSERT(m.layers[0].map.image.width == 2 && m.layers[0].map.image.height == 12);
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 4; k++)
            if (!px_is(&m.layers[0].map.image, k % 2, 2 * i + k / 2, red(i, from[i][k]), 0, 0,
                       255))
                fprintf(stderr, "  face %d texel %d\n", i, k);
    mc_material_release(&m);
    mc_mtr_release(&f);
    mc_vfs_destroy(v);
}

TEST(a_face_of_another_size_defaults_the_cube)
{
    static const uint8_t one[16] = { 9, 9, 9, 255, 9, 9, 9, 255, 9, 9, 9, 255, 9, 9, 9, 255 };
    static const char *const sides[6] = { "px", "nx", "py", "ny", "pz", "nz" };
    mc_mtr_file f;
    mc_material m;
    mc_error err;
    mc_vfs *v = faces_vfs("texgen_sizes", "c", sides, one, 0, 3); /* ny: 2 x 1 */

    ASSERT_OK(parse("m { { blend add cubeMap c texgen reflect } }", &f, &err), &err);
    ASSERT_OK(mc_material_resolve(&f.decls[0], "t.mtr", v, &m, &err), &err);
    EXPECT(m.layers[0].map.fell_back);
    /* six of _default's 16 x 16 faces, its white ring at (0, 0) */
    ASSERT(m.layers[0].map.image.width == 16 && m.layers[0].map.image.height == 96);
    px_is(&m.layers[0].map.image, 0, 48, 255, 255, 255, 255);
    px_is(&m.layers[0].map.image, 5, 53, 32, 32, 32, 255);
    EXPECT_CONTAINS(m.layers[0].map.sources, "c_ny is 2x1: a cube map's faces are square");
    mc_material_release(&m);
    mc_mtr_release(&f);
    mc_vfs_destroy(v);
}

static void rows_near(float got[3][3], const float want[9], double eps)
{
    for (int i = 0; i < 9; i++)
        EXPECT_NEAR(got[i / 3][i % 3], want[i], eps);
}

TEST(wobblesky_turns_as_the_engine_does)
{
    float rows[3][3];

    /* no tilt, no wobble, 30 turns a minute: pi radians at 1 s: x -> -x, y -> -y */
    mc_wobblesky_turn(0.0f, 0.0f, 30.0f, 1.0f, rows);
    rows_near(rows, (const float[9]){ -1, 0, 0, 0, -1, 0, 0, 0, 1 }, 1e-6);
    /* 15 turns a minute: a quarter turn at 1 s: rows (c, s, 0), (-s, c, 0), c = 0, s = 1 */
    mc_wobblesky_turn(0.0f, 0.0f, 15.0f, 1.0f, rows);
    rows_near(rows, (const float[9]){ 0, 1, 0, -1, 0, 0, 0, 0, 1 }, 1e-6);
    /* tilt 90 at a = 0: axis2 = (sin 90, 0, cos 90) = (1, 0, 0), axis1 = (0, 1, 0), axis0 =
     * axis1 x axis2 = (0, 0, -1) */
    mc_wobblesky_turn(90.0f, 0.0f, 0.0f, 0.0f, rows);
    rows_near(rows, (const float[9]){ 0, 0, -1, 0, 1, 0, 1, 0, 0 }, 1e-6);
    /* tilt 30, wobble 60 turns a minute at 0.25 s: a = pi / 2, s = sin a sin 30 = 0.5, c = 0;
     * axis2 = (0, 0.5, 0.8660254); axis1 = (0, sqrt(1 - 0.0625), -0.25) less its part along
     * axis2 (0.2676166), normalised: (0, 0.8660254, -0.5); axis0 = axis1 x axis2 = (1, 0, 0) */
    mc_wobblesky_turn(30.0f, 60.0f, 0.0f, 0.25f, rows);
    rows_near(rows,
              (const float[9]){ 1, 0, 0, 0, 0.8660254f, -0.5f, 0, 0.5f, 0.8660254f },
              2e-6);
}
