/* Materials end to end: material resolution with its fallbacks, the declarations the engine's
 * folders hold, the image budget and lookup order, and a scene whose submesh shader names a
 * material (the TGA reader, the VFS and the image programs: material_images_test.c). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <md5cine/fileio.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mtr.h>
#include <md5cine/scene.h>
#include <md5cine/scene_materials.h>
#include <md5cine/skin.h>
#include <md5cine/vfs.h>

#include "material_fixture.h"
#include "test.h"

/* ---------------------------------------------------------------- materials */

static const char *IMP_MTR =
        "// the imp\n"
        "models/monsters/imp/imp\n"
        "{\n"
        "    qer_editorimage models/monsters/imp/imp_d\n"
        "    noShadows\n"
        "    diffusemap  models/monsters/imp/imp_d\n"
        "    bumpmap     addnormals(models/monsters/imp/imp_local, "
        "heightmap(models/monsters/imp/imp_h, 4))\n"
        "    specularmap models/monsters/imp/imp_s\n"
        "    { blend add\n map models/monsters/imp/imp_glow\n alphaTest 0.5 }\n"
        "    { if ( parm7 > 0 )\n blend add\n map models/monsters/imp/imp_fx }\n"
        "}\n";

/* The imp's maps and layers as IMP_MTR declares them over the archive of
 * resolves_a_material_from_an_archive_with_fallbacks (imp_s missing). */
static void check_imp_maps(const mc_material *m)
{
    float regs[64], parms[12] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
    mc_stage_state ss;

    EXPECT(m->diffuse.present && !m->diffuse.fell_back);
    px_is(&m->diffuse.image, 0, 0, 30, 20, 10, 255);
    EXPECT_CONTAINS(m->diffuse.sources, "pak000.pk4:models/monsters/imp/imp_d.tga");
    /* The normal map: the flat (1,0,0) local plus a heightmap of a 1x1 (flat) image. */
    EXPECT(m->normal.present && !m->normal.fell_back);
    EXPECT_EQ_STR(m->normal.program, "addnormals(models/monsters/imp/imp_local, "
                                     "heightmap(models/monsters/imp/imp_h, 4))");
    EXPECT(m->normal.image.width == 1);
    px_is(&m->normal.image, 0, 0, 128, 128, 255, 255); /* (0,0,1) + (0,0) */
    EXPECT_CONTAINS(m->normal.sources, "imp_local.tga; ");
    EXPECT_CONTAINS(m->normal.sources, "imp_h.tga");
    /* imp_s is missing: _default, and the record says so. */
    EXPECT(m->specular.present && m->specular.fell_back);
    EXPECT_EQ_STR(m->specular.sources, "_default (missing models/monsters/imp/imp_s)");
    ASSERT(m->num_layers == 2); /* the stage under "if" is kept, evaluated per frame */
    EXPECT(m->layers[0].map.fell_back);
    EXPECT_EQ_INT(m->layers[0].blend.src, MC_BLEND_ONE);
    EXPECT_EQ_INT(m->layers[0].blend.dst, MC_BLEND_ONE);
    EXPECT_NEAR(m->layers[0].alpha_test, 0.5, 0);
    EXPECT_NEAR(m->alpha_test, 0.0, 0);
    /* parm7 > 0: with Doom's default parm7 (0) the second layer is not drawn; with 1 it is */
    ASSERT(m->expr.num_regs <= 64);
    mc_material_eval(m, 0.0f, parms, regs);
    mc_material_layer_state(m, 1, regs, &ss);
    EXPECT(!ss.visible);
    mc_material_layer_state(m, 0, regs, &ss);
    EXPECT(ss.visible);
    parms[7] = 1.0f;
    mc_material_eval(m, 0.0f, parms, regs);
    mc_material_layer_state(m, 1, regs, &ss);
    EXPECT(ss.visible);
}

TEST(resolves_a_material_from_an_archive_with_fallbacks)
{
    char base[1024], path[1200];
    bytes mtr = text_bytes(IMP_MTR), d, local, h, s;
    const uint8_t d_px[3] = { 10, 20, 30 }, flat[3] = { 255, 128, 128 }, grey[1] = { 90 };
    const char *names[] = { "materials/imp.mtr", "models/monsters/imp/imp_d.tga",
                            "models/monsters/imp/imp_local.tga", "models/monsters/imp/imp_h.tga" };
    const bytes *data[] = { &mtr, &d, &local, &h };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;
    test_warnings log = { 0 };
    mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &log };

    tga_header(&d, 2, 1, 1, 24, 0);
    put(&d, d_px, 3);
    tga_header(&local, 2, 1, 1, 24, 0);
    put(&local, flat, 3); /* BGR: blue 255 */
    tga_header(&h, 3, 1, 1, 8, 0);
    put(&h, grey, 1);
    tga_header(&s, 3, 1, 1, 8, 0);
    put(&s, grey, 1);
    (void)s;
    fresh_base(base, sizeof base, "resolve");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 4, names, data);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
    EXPECT_EQ_INT(mc_material_set_count(set), 1);
    EXPECT_EQ_STR(mc_material_set_name(set, 0), "models/monsters/imp/imp");
    EXPECT_EQ_INT(log.count, 0); /* nothing is parsed before it is used */
    EXPECT_EQ_INT(mc_material_set_parsed(set), 0);

    EXPECT(mc_material_set_find(set, "models/monsters/imp/nothing", &st, &err) == NULL);
    EXPECT_EQ_INT(st, MC_OK);
    m = mc_material_set_find(set, "Models\\Monsters\\Imp\\Imp.tga", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    EXPECT_EQ_INT(mc_material_set_parsed(set), 1);
    EXPECT_EQ_INT(log.count, 1); /* qer_editorimage, when the material is parsed */
    EXPECT_EQ_INT(log.first[0].line, 4);
    EXPECT_EQ_INT(log.first[0].col, 5);
    snprintf(path, sizeof path, "%s/pak000.pk4:materials/imp.mtr", base);
    EXPECT_EQ_STR(log.first[0].file, path);
    EXPECT(m == mc_material_set_find(set, "models/monsters/imp/imp", &st, &err)); /* cached */
    EXPECT_EQ_STR(m->name, "models/monsters/imp/imp");
    EXPECT_EQ_STR(m->file, path);
    EXPECT_EQ_INT(m->line, 2);
    EXPECT(m->lit && m->flags == MC_MTR_NO_SHADOWS);
    check_imp_maps(m);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

TEST(later_archives_and_loose_files_override_materials)
{
    char base[1024], path[1200];
    bytes m0 = text_bytes("a { diffusemap from000 }\nb { diffusemap from000 }\n");
    bytes m1 = text_bytes("a { diffusemap from001 }\n");
    const char *n0[] = { "materials/x.mtr" }, *n1[] = { "materials/x.mtr" };
    const bytes *d0[] = { &m0 }, *d1[] = { &m1 };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;

    fresh_base(base, sizeof base, "override");
    snprintf(path, sizeof path, "%s/pak000.pk4", base);
    make_pk4(path, 1, n0, d0);
    snprintf(path, sizeof path, "%s/pak001.pk4", base);
    make_pk4(path, 1, n1, d1);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    /* pak001's materials/x.mtr replaces pak000's whole file: "b" is gone. */
    EXPECT_EQ_INT(mc_material_set_count(set), 1);
    m = mc_material_set_find(set, "a", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "from001");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);

    base_dir(base, "materials");
    base_file(base, "materials/X.MTR", "a { diffusemap loose }\n", 23);
    snprintf(path, sizeof path, "%s/materials/y.mtr", base);
    write_file(path, "a { diffusemap later_file }\nc { }\n", 34);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    EXPECT_EQ_INT(mc_material_set_count(set), 2); /* a (first file wins) and c */
    m = mc_material_set_find(set, "a", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "loose");
    m = mc_material_set_find(set, "c", &st, &err);
    ASSERT(m);
    EXPECT(!m->lit && !m->diffuse.present && m->diffuse.image.pixels == NULL);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);

    /* A parse error in a used material: one warning naming the file and the position inside
     * it, and the material becomes Doom's default one (blend blend, map _default). An unused
     * broken one (u) says nothing. */
    write_file(path, "b {\n  { blend nope }\n}\nu { { map } } }\n", 39);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    {
        test_warnings log = { 0 };
        mc_parse_opts opts = { .warn = test_record_warning, .warn_user = &log };

        ASSERT_OK(mc_material_set_load(v, &opts, &set, &err), &err);
        EXPECT_EQ_INT(log.count, 0);
        m = mc_material_set_find(set, "b", &st, &err);
        ASSERT_OK(st, &err);
        ASSERT(m);
        EXPECT_EQ_INT(log.count, 1);
        EXPECT_EQ_STR(log.first[0].file, path);
        EXPECT_AT(&log.first[0], 2, 11, "drawn as the default material");
        EXPECT(!m->lit);
        ASSERT(m->num_layers == 1);
        EXPECT_EQ_INT(m->layers[0].blend.src, MC_BLEND_SRC_ALPHA);
        EXPECT_EQ_INT(m->layers[0].blend.dst, MC_BLEND_ONE_MINUS_SRC_ALPHA);
        EXPECT_EQ_STR(m->layers[0].map.program, "_default");
        EXPECT_EQ_STR(m->file, path);
        EXPECT_EQ_INT(m->line, 1);
        EXPECT(mc_material_set_find(set, "b", &st, &err) == m); /* warned once */
        EXPECT_EQ_INT(log.count, 1);
        EXPECT_EQ_INT(mc_material_set_parsed(set), 1);
        mc_material_set_destroy(set);
    }
    mc_vfs_destroy(v);
}

/* Doom's declaration manager reads the .mtr files of materials/, .skin of skins/, .sndshd of
 * sound/, .def of def/, .fx of fx/, .prt of particles/, .af of af/ and .pda of newpdas/, in
 * that order (DeclManager.cpp,
 * Game_local.cpp RegisterDeclFolder), each file's untyped declarations of the folder's type; a
 * type word declares any type anywhere, one namespace per type, the first declaration of a
 * name winning. Tables are found in that namespace too (Material.cpp, FindType(DECL_TABLE)). */
TEST(declarations_are_found_in_every_folder_the_engine_reads)
{
    static const struct {
        const char *dir, *file, *text;
    } files[] = {
        /* a material in a .def file, typed; the entityDef around it is not one */
        { "def", "a.def",
          "entityDef monster { \"model\" \"x\" }\nmaterial models/from_def { diffusemap one }\n"
          "skin skins/from_def { a b }\n" },
        /* untyped in fx/ is an fx, not a material */
        { "fx", "b.fx",
          "models/not_a_material { diffusemap two }\n"
          "material models/from_fx { diffusemap three }\n" },
        /* the first declaration wins: materials/ is read before def/, skins/ before newpdas/ */
        { "materials", "z.mtr",
          "models/dup { diffusemap from_materials }\n"
          "models/uses_table { { blend add map _white red far[0] } }\n" },
        { "particles", "c.prt",
          "material models/dup { diffusemap from_particles }\n"
          "table far { { 0.25, 0.75 } }\n" },
        { "af", "d.af", "table far { { 0.5 } }\nmaterial models/from_af { diffusemap four }\n" },
        { "newpdas", "e.pda", "skin skins/from_pda { c d }\n" },
        { "skins", "s.skin", "skins/plain { e f }\n" },
        { "sound", "s.sndshd", "material models/from_sound { diffusemap five }\n" },
    };
    char base[1024], path[1300];
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    const mc_skinfile *sk;
    mc_status st;
    mc_error err;

    fresh_base(base, sizeof base, "decl_folders");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", base, files[i].dir);
        mkdir_p(path);
        snprintf(path, sizeof path, "%s/%s/%s", base, files[i].dir, files[i].file);
        write_file(path, files[i].text, strlen(files[i].text));
    }
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    /* from_def, from_fx, dup, uses_table, from_af, from_sound: 6 materials */
    EXPECT_EQ_INT(mc_material_set_count(set), 6);
    EXPECT_EQ_INT(mc_material_set_parsed(set), 0); /* none parsed until asked for */
    m = mc_material_set_find(set, "models/from_def", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "one");
    m = mc_material_set_find(set, "models/from_fx", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "three");
    m = mc_material_set_find(set, "models/from_sound", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "five");
    EXPECT(mc_material_set_find(set, "models/not_a_material", &st, &err) == NULL);
    ASSERT_OK(st, &err);
    m = mc_material_set_find(set, "models/dup", &st, &err);
    ASSERT(m);
    EXPECT_EQ_STR(m->diffuse.program, "from_materials");
    /* the table of another file: particles/ comes before af/, so far is { 0.25, 0.75 } */
    m = mc_material_set_find(set, "models/uses_table", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    ASSERT(m->expr.num_tables == 1);
    EXPECT_EQ_INT(m->expr.tables[0].num_values, 2);
    EXPECT(m->expr.tables[0].values[0] == 0.25f && m->expr.tables[0].values[1] == 0.75f);
    sk = mc_material_set_skin(set, "skins/from_def", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "a"), "b");
    sk = mc_material_set_skin(set, "skins/from_pda", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "c"), "d");
    sk = mc_material_set_skin(set, "skins/plain", &st, &err);
    ASSERT(sk);
    EXPECT_EQ_STR(mc_skinfile_remap(sk, "e"), "f");
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}

TEST(scene_submeshes_take_declared_materials)
{
    char base[1100], dir[1024], path[1400], cwd[512], scene[4096];
    mc_scene s;
    mc_scene_materials sm;
    mc_error err;

    ASSERT(getcwd(cwd, sizeof cwd));
    fresh_base(dir, sizeof dir, "scene_mat");
    snprintf(base, sizeof base, "%s/base", dir);
    base_dir(base, "materials");
    base_file(base, "materials/skin.mtr", "skin { diffusemap _white twoSided noSelfShadow }\n", 49);
    snprintf(path, sizeof path, "%s/a.md5scene", dir);
    snprintf(scene, sizeof scene,
             "md5scene 1\ncamera \"%s/data/scenes/still.md5camera\"\nbase \"base\"\n"
             "actor a { mesh \"%s/data/scenes/arm.md5mesh\" }\n"
             "actor b { mesh \"%s/data/scenes/arm.md5mesh\"\n"
             "  material \"SKIN\" \"%s/data/scenes/skin.png\" }\n",
             cwd, cwd, cwd, cwd);
    write_file(path, scene, strlen(scene));
    ASSERT_OK(mc_scene_load(path, NULL, &s, &err), &err);
    ASSERT_OK(mc_scene_materials_load(&s, NULL, &sm, &err), &err);
    EXPECT_EQ_INT(sm.num_actors, 2);
    ASSERT(sm.submesh[0][0]);
    EXPECT_EQ_STR(sm.submesh[0][0]->name, "skin");
    EXPECT(sm.submesh[0][0]->flags == (MC_MTR_TWO_SIDED | MC_MTR_NO_SELF_SHADOW));
    EXPECT(sm.submesh[1][0] == NULL); /* the explicit material line wins */
    EXPECT_CONTAINS(s.actors[1].textures[0], "skin.png");
    mc_scene_materials_release(&sm);
    mc_scene_release(&s);
}

/* A material reads at most MC_LIMIT_MATERIAL_PIXELS in all, checked against each image's header
 * before it is decoded: big.tga is an 18-byte header declaring 16384 x 16384 (exactly the
 * limit) with no pixels. Alone it is within the budget and fails as a truncated image; after
 * the 2 x 2 small.tga (4 pixels) it is over the budget, an MC_ERR_LIMIT at its name in the .mtr
 * (line 1, column 27 of "m { diffusemap add(small, big) }"), and nothing is allocated for it. */
TEST(a_material_s_images_have_a_pixel_budget)
{
    static const uint8_t red[16] = { 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255 };
    const test_image small = { "small.tga", 2, 2, red };
    static const char *const texts[2] = { "m { diffusemap add(small, big) }",
                                           "m { diffusemap big }" };
    char base[1024], path[1400];
    mc_vfs *v = vfs_with("budget", 1, &small); /* only to write small.tga into the base */
    mc_error verr;
    bytes o;

    mc_vfs_destroy(v);
    test_tmp_path(base, sizeof base, "budget"); /* vfs_with's base */
    tga_header(&o, 2, 16384, 16384, 32, 0x28);
    snprintf(path, sizeof path, "%s/big.tga", base);
    write_file(path, o.b, o.n);
    v = NULL;
    EXPECT_OK(mc_vfs_open(base, &v, &verr), &verr); /* loose files are listed at open */
    if (!v)
        return;
    for (int i = 0; i < 2; i++) {
        mc_mtr_file f;
        mc_material mat;
        mc_error err;
        mc_status st = mc_mtr_parse(texts[i], strlen(texts[i]), "p.mtr", NULL, &f, &err);

        EXPECT_OK(st, &err);
        if (st != MC_OK)
            continue;
        st = mc_material_resolve(&f.decls[0], "p.mtr", v, &mat, &err);
        if (i == 0) {
            /* The error names the image file itself, without a position (a binary file). */
            EXPECT_EQ_INT(st, MC_ERR_LIMIT);
            EXPECT_EQ_STR(err.file, path);
            EXPECT_AT(&err, 0, 0, "16384x16384 pixels take its material past 268435456 pixels");
        } else {
            EXPECT_EQ_INT(st, MC_ERR_IMAGE);
        }
        if (st == MC_OK)
            mc_material_release(&mat);
        mc_mtr_release(&f);
    }
    mc_vfs_destroy(v);
}


/* Doom looks for dds/NAME.dds before NAME.tga (Image_load.cpp, ImageProgramStringToCompressed-
 * FileName): a '.' in a folder name becomes '_'. The red TGA loses to the green DDS; a name with
 * no DDS still finds its TGA. */
TEST(dds_images_come_before_tga)
{
    char base[1024];
    bytes red, dds;
    static const uint8_t bgr_red[3] = { 0, 0, 255 };
    uint8_t hd[128] = { 'D', 'D', 'S', ' ', 124 };
    static const uint8_t green_bgra[4] = { 0, 255, 0, 255 };
    mc_vfs *v;
    mc_material_set *set;
    const mc_material *m;
    mc_status st;
    mc_error err;

    hd[8] = 0x07; hd[9] = 0x10;   /* flags */
    hd[12] = 1;                   /* height */
    hd[16] = 1;                   /* width */
    hd[76] = 32;                  /* pixel format size */
    hd[80] = 0x41;                /* RGB | ALPHAPIXELS */
    hd[88] = 32;                  /* bits */
    hd[94] = 0xFF;                /* R mask 0x00FF0000 */
    hd[97] = 0xFF;                /* G mask 0x0000FF00 */
    hd[100] = 0xFF;               /* B mask 0x000000FF */
    hd[107] = 0xFF;               /* A mask 0xFF000000 */
    dds.n = 0;
    put(&dds, hd, 128);
    put(&dds, green_bgra, 4);
    tga_header(&red, 2, 1, 1, 24, 0);
    put(&red, bgr_red, 3);
    fresh_base(base, sizeof base, "dds");
    base_dir(base, "materials");
    base_dir(base, "dds/textures/v1_5");
    base_dir(base, "textures/v1.5");
    base_file(base, "materials/m.mtr", "m { diffusemap textures/v1.5/x }\nn { diffusemap textures/v1.5/y.tga }\n", 70);
    base_file(base, "textures/v1.5/x.tga", red.b, red.n);
    base_file(base, "textures/v1.5/y.tga", red.b, red.n);
    base_file(base, "dds/textures/v1_5/x.dds", dds.b, dds.n);
    ASSERT_OK(mc_vfs_open(base, &v, &err), &err);
    ASSERT_OK(mc_material_set_load(v, NULL, &set, &err), &err);
    m = mc_material_set_find(set, "m", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    px_is(&m->diffuse.image, 0, 0, 0, 255, 0, 255);
    EXPECT_CONTAINS(m->diffuse.sources, "dds/textures/v1_5/x.dds");
    m = mc_material_set_find(set, "n", &st, &err);
    ASSERT_OK(st, &err);
    ASSERT(m);
    px_is(&m->diffuse.image, 0, 0, 255, 0, 0, 255);
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
}


/* Doom rounds a loaded image's sides down to powers of two before any program runs
 * (Image_files.cpp, R_LoadImage; Image_process.cpp, R_ResampleTexture). 3x1 with red
 * 10, 50, 200 -> 2x1: fracstep = 3 * 65536 / 2 = 98304; p1 = texels 0 (24576 >> 16) and 1
 * (122880 >> 16), p2 = texels 1 (73728 >> 16) and 2 (172032 >> 16); one row, so both rows are
 * row 0: out0 = (10 + 50 + 10 + 50) >> 2 = 30, out1 = (50 + 200 + 50 + 200) >> 2 = 125.
 * A 5x3 image becomes 4x2; a 4x4 one stays as it is. */
TEST(images_are_rounded_down_to_powers_of_two)
{
    static const uint8_t r3[] = { 10, 0, 0, 255, 50, 0, 0, 255, 200, 0, 0, 255 };
    static uint8_t r53[5 * 3 * 4];
    const test_image ims[] = { { "r3.tga", 3, 1, r3 }, { "r53.tga", 5, 3, r53 } };
    mc_vfs *v = vfs_with("pow2", 2, ims);
    mc_image im;
    bool fb;

    ASSERT(v);
    ASSERT(run_prog(v, "r3", &im, &fb, NULL) == MC_OK);
    EXPECT(im.width == 2 && im.height == 1);
    px_is(&im, 0, 0, 30, 0, 0, 255);
    px_is(&im, 1, 0, 125, 0, 0, 255);
    mc_image_release(&im);
    ASSERT(run_prog(v, "r53", &im, &fb, NULL) == MC_OK);
    EXPECT(im.width == 4 && im.height == 2);
    mc_image_release(&im);
    mc_vfs_destroy(v);
}


/* zeroclamp and alphazeroclamp set the outermost texels (Image_load.cpp, GenerateImage with
 * R_SetBorderTexels): of a 4x4 grey (90) image, the 12 border texels become (0, 0, 0, 255) or
 * (255, 255, 255, 0) and the 4 inside ones stay; clamp changes no texel. Stage colours land on
 * the maps: red .3 green .3 blue .3 on the specular stage. */
TEST(clamps_set_border_texels_and_colours_reach_maps)
{
    static uint8_t grey[4 * 4 * 4];
    const test_image ims[] = { { "g.tga", 4, 4, grey } };
    static const char text[] =
            "m { { blend diffusemap map g zeroclamp } { blend specularmap map g red .3 green .3 "
            "blue .3 clamp } { blend add map g alphazeroclamp maskDepth maskAlpha } }";
    mc_vfs *v;
    mc_mtr_file f;
    mc_material m;
    mc_error err;

    for (size_t i = 0; i < sizeof grey; i++)
        grey[i] = i % 4 == 3 ? 255 : 90;
    v = vfs_with("zeroclamp", 1, ims);
    ASSERT(v);
    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "z.mtr", NULL, &f, &err), &err);
    ASSERT_OK(mc_material_resolve(&f.decls[0], "z.mtr", v, &m, &err), &err);
    EXPECT_EQ_INT(m.diffuse.wrap, MC_WRAP_ZERO_CLAMP);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            bool border = x == 0 || y == 0 || x == 3 || y == 3;

            px_is(&m.diffuse.image, x, y, border ? 0 : 90, border ? 0 : 90, border ? 0 : 90, 255);
            px_is(&m.specular.image, x, y, 90, 90, 90, 255);
            if (border)
                px_is(&m.layers[0].map.image, x, y, 255, 255, 255, 0);
        }
    EXPECT_EQ_INT(m.specular.wrap, MC_WRAP_CLAMP);
    EXPECT_NEAR(m.specular.color[0], 0.3, 1e-6);
    EXPECT_NEAR(m.specular.color[2], 0.3, 1e-6);
    EXPECT_NEAR(m.diffuse.color[1], 1.0, 0);
    ASSERT(m.num_layers == 1);
    EXPECT_EQ_INT(m.layers[0].map.wrap, MC_WRAP_ALPHA_ZERO_CLAMP);
    EXPECT(m.layers[0].mask_depth && m.layers[0].mask_alpha && !m.layers[0].mask_red);
    mc_material_release(&m);
    mc_mtr_release(&f);
    mc_vfs_destroy(v);
}

/* vertexColor and inverseVertexColor in a stage (Material.cpp, idMaterial::ParseStage): each
 * unlit layer keeps its own; the interaction takes the later of its diffuse and specular stages'
 * (tr_render.cpp RB_CreateSingleDrawInteractions sets inter.vertexColor at each). In the body
 * the word is skipped. */
TEST(vertex_color_keywords_reach_layers_and_the_interaction)
{
    static uint8_t grey[4 * 4 * 4];
    const test_image ims[] = { { "g.tga", 4, 4, grey } };
    static const char text[] =
            "a { { blend diffusemap map g vertexColor } { blend specularmap map g "
            "inverseVertexColor } { blend add map g inverseVertexColor } { blend add map g } "
            "vertexColor }\n"
            "b { { blend specularmap map g } { blend diffusemap map g vertexColor } }\n"
            "c { { blend add map g vertexColor } }\n";
    static const mc_vertex_color lit[3] = { MC_VERTEX_COLOR_INVERSE, MC_VERTEX_COLOR_MODULATE,
                                            MC_VERTEX_COLOR_IGNORE };
    mc_vfs *v = vfs_with("vertexcolor", 1, ims);
    mc_mtr_file f;
    mc_error err;

    ASSERT(v);
    ASSERT_OK(mc_mtr_parse(text, sizeof text - 1, "v.mtr", NULL, &f, &err), &err);
    ASSERT(f.num_decls == 3);
    for (int i = 0; i < 3; i++) {
        mc_material m;

        ASSERT_OK(mc_material_resolve(&f.decls[i], "v.mtr", v, &m, &err), &err);
        EXPECT_EQ_INT(m.lit_vertex_color, lit[i]);
        if (i == 0) {
            ASSERT(m.num_layers == 2);
            EXPECT_EQ_INT(m.layers[0].vertex_color, MC_VERTEX_COLOR_INVERSE);
            EXPECT_EQ_INT(m.layers[1].vertex_color, MC_VERTEX_COLOR_IGNORE);
        } else if (i == 2) {
            ASSERT(m.num_layers == 1);
            EXPECT_EQ_INT(m.layers[0].vertex_color, MC_VERTEX_COLOR_MODULATE);
        }
        mc_material_release(&m);
    }
    mc_mtr_release(&f);
    mc_vfs_destroy(v);
}
