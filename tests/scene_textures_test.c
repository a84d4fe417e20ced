/* The scene's images: a mesh shader's material line, or Doom's implicit lookup (the shader's
 * name as a .tga, then .png, then .jpg, next to the mesh before the scene's base folder), with
 * the warnings of a shader that finds nothing and of a material no submesh uses. The files are
 * made here, one folder per case, so each lookup has exactly the candidates it names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/scene.h>

#include "scene_fixture.h"
#include "test.h"

TEST(uses_the_material_line_for_a_matching_shader)
{
    mc_scene s;
    mc_error err;
    test_warnings log = { 0 };
    mc_parse_opts opts = { false, test_record_warning, &log };

    ASSERT_OK(mc_scene_load("data/scenes/full.md5scene", &opts, &s, &err), &err);
    ASSERT(s.resolved);
    ASSERT(s.actors[0].textures != NULL);
    EXPECT_EQ_STR(s.actors[0].textures[0], "data/scenes/skin.png");
    EXPECT(s.actors[0].materials[0].used);
    /* statue has no material line: the implicit rule finds skin.png next to the mesh */
    EXPECT_EQ_STR(s.actors[1].textures[0], "data/scenes/skin.png");
    EXPECT_EQ_INT(log.count, 0);
    /* joints matched by name: origin -> 0, arm -> 1 */
    ASSERT(s.actors[0].joint_map != NULL);
    EXPECT_EQ_INT(s.actors[0].joint_map[0], 0);
    EXPECT_EQ_INT(s.actors[0].joint_map[1], 1);
    mc_scene_release(&s);
}

TEST(matches_shader_names_ignoring_case_and_slash_direction)
{
    char dir[400], scene[512], expect[512];
    mc_scene s;
    mc_error err;

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-case"));
    ASSERT(touch(dir, "t.jpg"));
    snprintf(scene, sizeof scene, "%s/s.md5scene", dir);
    ASSERT(write_text(scene, "md5scene 1 camera \"still.md5camera\"\n"
                             "actor a { mesh \"arm.md5mesh\" material \"SKIN\" \"t.jpg\" }\n"));
    ASSERT_OK(mc_scene_load(scene, NULL, &s, &err), &err);
    snprintf(expect, sizeof expect, "%s/t.jpg", dir);
    EXPECT_EQ_STR(s.actors[0].textures[0], expect);
    mc_scene_release(&s);
}

/* Resolves scene text in dir and returns the texture of actor 0's submesh 0 (copied). */
static bool texture_of(const char *dir, const char *text, char *out, size_t cap, test_warnings *log)
{
    char scene[512];
    mc_scene s;
    mc_error err;
    mc_parse_opts opts = { false, test_record_warning, log };
    bool ok;

    snprintf(scene, sizeof scene, "%s/s.md5scene", dir);
    if (!write_text(scene, text))
        return false;
    if (mc_scene_load(scene, &opts, &s, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
        return false;
    }
    ok = s.num_actors == 1 && s.actors[0].mesh.num_meshes == 1;
    snprintf(out, cap, "%s", ok && s.actors[0].textures[0] ? s.actors[0].textures[0] : "(none)");
    mc_scene_release(&s);
    return ok;
}

TEST(looks_for_tga_then_png_then_jpg_next_to_the_mesh_before_base)
{
    const char *text = "md5scene 1 camera \"still.md5camera\" base \"tex\"\n"
                       "actor a { mesh \"arm.md5mesh\" }\n";
    char dir[400], sub[512], got[512], want[600];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-order"));
    snprintf(sub, sizeof sub, "%s/tex", dir);
    mkdir(sub, 0755);

    ASSERT(touch(dir, "tex/skin.tga"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/tex/skin.tga", dir); /* only under base */
    EXPECT_EQ_STR(got, want);

    ASSERT(touch(dir, "skin.jpg"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.jpg", dir); /* next to the mesh wins over base */
    EXPECT_EQ_STR(got, want);

    ASSERT(touch(dir, "skin.png"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.png", dir); /* .png before .jpg */
    EXPECT_EQ_STR(got, want);

    ASSERT(touch(dir, "skin.tga"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.tga", dir); /* .tga before .png */
    EXPECT_EQ_STR(got, want);
    EXPECT_EQ_INT(log.count, 0);
}

TEST(skips_a_folder_named_like_an_image)
{
    char dir[400], sub[512], got[512], want[600];
    test_warnings log = { 0 };
    mc_scene s;
    mc_error err;

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-folder"));
    snprintf(sub, sizeof sub, "%s/skin.tga", dir);
    mkdir(sub, 0755);
    ASSERT(touch(dir, "skin.png"));
    ASSERT(texture_of(dir, "md5scene 1 camera \"still.md5camera\" actor a { mesh \"arm.md5mesh\" }",
                      got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.png", dir);
    EXPECT_EQ_STR(got, want);

    /* a material line naming a folder is an error at its path token (line 2, column 46) */
    snprintf(sub, sizeof sub, "%s/s.md5scene", dir);
    ASSERT(write_text(sub, "md5scene 1 camera \"still.md5camera\"\n"
                           "actor a { mesh \"arm.md5mesh\" material \"skin\" \"skin.tga\" }\n"));
    EXPECT_EQ_INT(mc_scene_load(sub, NULL, &s, &err), MC_ERR_IO);
    EXPECT_EQ_INT(err.line, 2);
    EXPECT_EQ_INT(err.col, 46);
}

TEST(strips_the_shader_extension_for_the_implicit_lookup)
{
    const char *text = "md5scene 1 camera \"still.md5camera\" base \"tex\" "
                       "actor a { mesh \"arm.md5mesh\" }";
    char dir[400], got[512], want[600];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-ext"));
    /* the same mesh with shader "models\skin.bmp": '\' -> '/', ".bmp" dropped; under base the
     * whole path counts: tex/models/skin.png */
    ASSERT(edit_fixture(dir, "arm.md5mesh", "\"skin\"", "\"models\\skin.bmp\""));
    snprintf(want, sizeof want, "%s/tex", dir);
    mkdir(want, 0755);
    snprintf(want, sizeof want, "%s/tex/models", dir);
    mkdir(want, 0755);
    ASSERT(touch(dir, "tex/models/skin.png"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/tex/models/skin.png", dir);
    EXPECT_EQ_STR(got, want);
    /* next to the mesh only the file name counts, and it wins over base */
    ASSERT(touch(dir, "skin.jpg"));
    ASSERT(texture_of(dir, text, got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.jpg", dir);
    EXPECT_EQ_STR(got, want);
}

TEST(finds_an_artists_absolute_path_shader_next_to_the_mesh)
{
    char dir[400], got[512], want[600];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-abs"));
    /* as in Red Eclipse's files: "C:\Users\Art\door1\skin.png" names skin.png beside the mesh */
    ASSERT(edit_fixture(dir, "arm.md5mesh", "\"skin\"", "\"C:\\Users\\Art\\door1\\skin.png\""));
    ASSERT(touch(dir, "skin.png"));
    ASSERT(texture_of(dir, "md5scene 1 camera \"still.md5camera\" actor a { mesh \"arm.md5mesh\" }",
                      got, sizeof got, &log));
    snprintf(want, sizeof want, "%s/skin.png", dir);
    EXPECT_EQ_STR(got, want);
    EXPECT_EQ_INT(log.count, 0);
}

TEST(warns_about_an_empty_shader_without_a_material)
{
    char dir[400], got[512];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-empty"));
    ASSERT(touch(dir, ".tga")); /* an empty shader is never looked up as a file */
    ASSERT(edit_fixture(dir, "arm.md5mesh", "\"skin\"", "\"\""));
    ASSERT(texture_of(dir, "md5scene 1 camera \"still.md5camera\" actor a { mesh \"arm.md5mesh\" }",
                      got, sizeof got, &log));
    EXPECT_EQ_STR(got, "(none)");
    ASSERT(log.count == 1);
    EXPECT_AT(&log.last, 13, 9, "empty shader");
    EXPECT_CONTAINS(log.last.msg, "actor 'a'");

    /* with material "" the empty shader gets that image, silently */
    ASSERT(touch(dir, "s.png"));
    ASSERT(texture_of(dir,
                      "md5scene 1 camera \"still.md5camera\"\n"
                      "actor a { mesh \"arm.md5mesh\" material \"\" \"s.png\" }",
                      got, sizeof got, &log));
    EXPECT_CONTAINS(got, "/s.png");
    EXPECT_EQ_INT(log.count, 1);
}

TEST(warns_naming_the_shader_when_no_image_is_found)
{
    char dir[400], got[512], mesh[512], places[1024];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-none"));
    ASSERT(texture_of(dir,
                      "md5scene 1 camera \"still.md5camera\" base \"tex\"\n"
                      "actor a { mesh \"arm.md5mesh\" }\n",
                      got, sizeof got, &log));
    EXPECT_EQ_STR(got, "(none)");
    ASSERT(log.count == 1);
    /* positioned at the shader in the mesh file: line 13 is <tab>shader "skin" */
    snprintf(mesh, sizeof mesh, "%s/arm.md5mesh", dir);
    EXPECT_EQ_STR(log.last.file, mesh);
    EXPECT_AT(&log.last, 13, 9, "no image for shader 'skin'");
    EXPECT_CONTAINS(log.last.msg, "skin.tga");
    /* the places looked at are the mesh's folder and base, not the mesh file itself */
    snprintf(places, sizeof places, "in '%s' and in '%s/tex'", dir, dir);
    EXPECT_CONTAINS(log.last.msg, places);
}

TEST(warns_about_a_material_no_submesh_uses)
{
    char dir[400], got[512];
    test_warnings log = { 0 };

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-unused"));
    ASSERT(touch(dir, "skin.png"));
    ASSERT(touch(dir, "x.png"));
    ASSERT(texture_of(dir,
                      "md5scene 1 camera \"still.md5camera\"\n"
                      "actor a { mesh \"arm.md5mesh\" material \"skni\" \"x.png\" }\n",
                      got, sizeof got, &log));
    ASSERT(log.count == 1);
    EXPECT_AT(&log.last, 2, 46, "'skni'");
}
