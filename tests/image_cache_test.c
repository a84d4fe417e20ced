/* A material set's images are read once: the maps of every material naming one image program
 * under one clamp mode share its pixels and count once against the set's pixel budget, a
 * clamp mode that changes the border makes another image, and a texture file read outside a
 * base (mc_image_file_load) comes under the same kind of budget. Images are TGA files written
 * byte by byte; expected pixels and counts are worked out by hand in the comments. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <md5cine/material.h>
#include <md5cine/vfs.h>

#include "material_fixture.h"
#include "test.h"

/* Writes dir/name as a w x h 24-bit TGA (type 2, bottom-up) of one colour, BGR b g r. */
static bool write_tga(const char *dir, const char *name, int w, int h, const uint8_t bgr[3])
{
    uint8_t hd[18] = { 0 };
    char path[1200];
    FILE *f;
    bool ok;

    hd[2] = 2;
    hd[12] = (uint8_t)w;
    hd[14] = (uint8_t)h;
    hd[16] = 24;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return false;
    f = fopen(path, "wb");
    if (!f)
        return false;
    ok = fwrite(hd, 1, sizeof hd, f) == sizeof hd;
    for (int i = 0; i < w * h && ok; i++)
        ok = fwrite(bgr, 1, 3, f) == 3;
    return fclose(f) == 0 && ok;
}

/* A base folder NAME under the test's scratch folder: materials/m.mtr holding mtr, and an empty
 * textures/ whose path goes to textures. False when m.mtr could not be written. */
static bool make_base(char *base, size_t cap, const char *name, const char *mtr, char *textures,
                      size_t tcap)
{
    test_tmp_path(base, cap, name);
    mkdir(base, 0755);
    snprintf(textures, tcap, "%s/materials", base);
    mkdir(textures, 0755);
    if (!test_write_file(textures, "m.mtr", mtr))
        return false;
    snprintf(textures, tcap, "%s/textures", base);
    mkdir(textures, 0755);
    return true;
}

/* Four materials over two 4x4 images (16 pixels each) under a budget of 40 pixels: a and b
 * name x plainly (one image, 16), c names x under zeroclamp (another image, 32), d names y
 * (48: past 40). Counted per material, c would already be past (16 + 16 + 16 = 48). */
TEST(maps_of_one_image_share_pixels_and_count_once)
{
    static const uint8_t bgr[3] = { 30, 20, 10 };
    char base[1024], dir[1100];
    const mc_material *a, *b, *c, *d;
    mc_parse_opts opts = { .image_pixels = 40 };
    mc_material_set *set;
    mc_vfs *v;
    mc_status st;
    mc_error err;

    ASSERT(make_base(base, sizeof base, "imgcache",
                     "a { diffusemap textures/x }\n"
                     "b { { blend add map textures/x } }\n"
                     "c { { blend add map textures/x zeroclamp } }\n"
                     "d { diffusemap textures/y }\n",
                     dir, sizeof dir));
    ASSERT(write_tga(dir, "x.tga", 4, 4, bgr));
    ASSERT(write_tga(dir, "y.tga", 4, 4, bgr));
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    a = mc_material_set_find(set, "a", &st, &err);
    ASSERT_OK(st, &err);
    b = mc_material_set_find(set, "b", &st, &err);
    ASSERT_OK(st, &err);
    c = mc_material_set_find(set, "c", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(a && b && c && b->num_layers == 1 && c->num_layers == 1);
    EXPECT(a->diffuse.shared && b->layers[0].map.shared && c->layers[0].map.shared);
    EXPECT(a->diffuse.image.pixels == b->layers[0].map.image.pixels);
    EXPECT(a->diffuse.image.pixels != c->layers[0].map.image.pixels);
    EXPECT_CONTAINS(b->layers[0].map.sources, "textures/x.tga");
    /* plain: every texel the file's (r 10, g 20, b 30); zeroclamp: its ring opaque black */
    px_is(&a->diffuse.image, 0, 0, 10, 20, 30, 255);
    px_is(&a->diffuse.image, 1, 1, 10, 20, 30, 255);
    px_is(&c->layers[0].map.image, 0, 0, 0, 0, 0, 255);
    px_is(&c->layers[0].map.image, 1, 1, 10, 20, 30, 255);
    d = mc_material_set_find(set, "d", &st, &err);
    EXPECT(!d);
    EXPECT_EQ_INT(st, MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "4x4 pixels take the scene past 40 pixels of images in all");
    EXPECT_CONTAINS(err.file, "textures/y.tga");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

/* Pixels already spent (a scene's own textures) come off the set's budget: 30 of 40 spent
 * leave 10, short of x's 16. */
TEST(pixels_spent_before_come_off_the_set_s_budget)
{
    static const uint8_t bgr[3] = { 1, 2, 3 };
    char base[1024], dir[1100];
    mc_parse_opts opts = { .image_pixels = 40, .image_pixels_used = 30 };
    mc_material_set *set;
    mc_vfs *v;
    mc_status st;
    mc_error err;

    ASSERT(make_base(base, sizeof base, "imgspent", "a { diffusemap textures/x }\n", dir,
                     sizeof dir));
    ASSERT(write_tga(dir, "x.tga", 4, 4, bgr));
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    EXPECT(!mc_material_set_find(set, "a", &st, &err));
    EXPECT_EQ_INT(st, MC_ERR_LIMIT);
    EXPECT_CONTAINS(err.msg, "4x4 pixels take the scene past 40 pixels of images in all");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

/* A file read outside a base: its header checked against what is left, its pixels counted,
 * and not resampled (a 3x3 image stays 3x3; a material's would be 2x2). */
TEST(a_texture_file_comes_under_the_budget)
{
    static const uint8_t bgr[3] = { 7, 8, 9 };
    char dir[1024], path[1100];
    unsigned long long used = 0;
    mc_image img;
    mc_error err;

    test_tmp_path(dir, sizeof dir, "imgfile");
    mkdir(dir, 0755);
    ASSERT(write_tga(dir, "t.tga", 3, 3, bgr));
    snprintf(path, sizeof path, "%s/t.tga", dir);
    ASSERT_OK(mc_image_file_load(path, 12, &used, &img, &err), &err);
    EXPECT_EQ_INT(img.width, 3);
    EXPECT_EQ_INT(img.height, 3);
    EXPECT_EQ_INT(used, 9);
    px_is(&img, 2, 2, 9, 8, 7, 255);
    mc_image_release(&img);
    /* 9 more would make 18, past 12 */
    EXPECT_EQ_INT(mc_image_file_load(path, 12, &used, &img, &err), MC_ERR_LIMIT);
    EXPECT_EQ_STR(err.file, path);
    EXPECT_CONTAINS(err.msg, "3x3 pixels take the scene past 12 pixels of images in all");
    EXPECT_EQ_INT(used, 9);
    EXPECT(img.pixels == NULL);
}
