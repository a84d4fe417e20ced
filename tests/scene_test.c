/* The .md5scene parser and resolver: every keyword, every error with its exact position,
 * path resolution and the frame-count rules (the texture lookup: scene_textures_test.c).
 * Expected positions were counted by hand in the texts below (columns are 1-based bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/fileio.h>
#include <md5cine/scene.h>

#include "scene_fixture.h"
#include "test.h"

/* ---------------------------------------------------------------- parsing */

TEST(parses_every_keyword_of_a_full_scene)
{
    mc_scene s;
    mc_error err;
    const mc_scene_actor *a;

    ASSERT_OK(mc_scene_load("data/scenes/full.md5scene", NULL, &s, &err), &err);
    EXPECT_EQ_INT(s.version, 1);
    EXPECT_EQ_STR(s.camera_path, "data/scenes/cut.md5camera");
    EXPECT_EQ_INT(s.camera_line, 3);
    EXPECT_EQ_INT(s.camera_col, 8);
    EXPECT_EQ_STR(s.base_path, "data/scenes/tex");
    EXPECT_EQ_INT(s.frames, 48);
    EXPECT_EQ_INT(s.width, 640);
    EXPECT_EQ_INT(s.height, 360);
    EXPECT_EQ_INT(s.fps, 30);
    EXPECT(s.has_background);
    EXPECT_NEAR(s.background[0], 0.1, 1e-6);
    EXPECT_NEAR(s.background[1], 0.2, 1e-6);
    EXPECT_NEAR(s.background[2], 0.3, 1e-6);
    ASSERT(s.num_actors == 2);
    a = &s.actors[0];
    EXPECT_EQ_STR(a->name, "walker");
    EXPECT_EQ_STR(a->mesh_path, "data/scenes/arm.md5mesh");
    EXPECT_EQ_STR(a->anim_path, "data/scenes/arm.md5anim");
    EXPECT_EQ_VEC3(a->origin, ((mc_vec3){ 1.0f, 2.0f, 3.0f }), 0.0f);
    EXPECT_NEAR(a->yaw, 90.0, 0.0);
    EXPECT_NEAR(a->scale, 2.0, 0.0);
    EXPECT_NEAR(a->start, 0.5, 0.0);
    EXPECT(a->loop);
    EXPECT(a->in_place);
    ASSERT(a->num_materials == 1);
    EXPECT_EQ_STR(a->materials[0].shader, "skin");
    EXPECT_EQ_STR(a->materials[0].path, "data/scenes/skin.png");
    EXPECT_EQ_INT(a->materials[0].line, 12);
    EXPECT_EQ_INT(a->materials[0].col, 21);
    /* the second actor: a bare name and every default */
    a = &s.actors[1];
    EXPECT_EQ_STR(a->name, "statue");
    EXPECT(a->anim_path == NULL);
    EXPECT_NEAR(a->scale, 1.0, 0.0);
    EXPECT_NEAR(a->yaw, 0.0, 0.0);
    EXPECT(!a->loop && !a->in_place);
    EXPECT(a->joint_map == NULL);
    mc_scene_release(&s);
    EXPECT(s.actors == NULL && s.num_actors == 0);
}

/* Lights: every value as written, the default colour, file order; none means no lights. */
/* Actors that name one file share it, read once: full.md5scene's two actors name arm.md5mesh;
 * a scene of three actors of arm.md5mesh + arm.md5anim reads each once. Releasing frees each
 * once (ASan builds see a double free or a leak). */
TEST(reads_a_file_named_by_several_actors_once)
{
    char dir[512], mesh[1024], anim[1024], cam[1024], text[8192];
    mc_scene s;
    mc_error err;

    ASSERT_OK(mc_scene_load("data/scenes/full.md5scene", NULL, &s, &err), &err);
    EXPECT(!s.actors[0].mesh_shared && s.actors[1].mesh_shared);
    EXPECT(s.actors[1].mesh.meshes == s.actors[0].mesh.meshes);
    EXPECT_EQ_INT(s.actors[1].mesh.num_joints, s.actors[0].mesh.num_joints);
    EXPECT(!s.actors[1].anim_shared && s.actors[1].anim_path == NULL);
    mc_scene_release(&s);

    EXPECT(realpath("data/scenes/arm.md5mesh", mesh) != NULL);
    EXPECT(realpath("data/scenes/arm.md5anim", anim) != NULL);
    EXPECT(realpath("data/scenes/still.md5camera", cam) != NULL);
    test_tmp_path(dir, sizeof dir, "shared");
    EXPECT(mkdir(dir, 0755) == 0);
    snprintf(text, sizeof text,
             "md5scene 1\ncamera \"%s\"\n"
             "actor a { mesh \"%s\" anim \"%s\" }\n"
             "actor b { mesh \"%s\" anim \"%s\" start 1 }\n"
             "actor c { mesh \"%s\" }\n",
             cam, mesh, anim, mesh, anim, mesh);
    EXPECT(test_write_file(dir, "s.md5scene", text));
    snprintf(text, sizeof text, "%s/s.md5scene", dir);
    ASSERT_OK(mc_scene_load(text, NULL, &s, &err), &err);
    EXPECT(!s.actors[0].mesh_shared && s.actors[1].mesh_shared && s.actors[2].mesh_shared);
    EXPECT(!s.actors[0].anim_shared && s.actors[1].anim_shared && !s.actors[2].anim_shared);
    EXPECT(s.actors[2].mesh.meshes == s.actors[0].mesh.meshes);
    EXPECT(s.actors[1].anim.frames == s.actors[0].anim.frames);
    EXPECT(s.actors[1].joint_map != NULL && s.actors[1].joint_map != s.actors[0].joint_map);
    EXPECT_EQ_INT(s.actors[1].joint_map[0], s.actors[0].joint_map[0]);
    mc_scene_release(&s);
}

TEST(parses_lights_and_ambient)
{
    static const char text[] =
            "md5scene 1\ncamera \"c\"\n"
            "light \"key\" { origin ( -200 150 300 ) color ( 1 0.5 2 ) radius 900 }\n"
            "light \"fill\" {\n  radius 50.5\n  origin ( 1 2 3 )\n}\n"
            "ambient ( 0.1 0.2 0.3 )\n"
            "light \"box\" { origin ( 0 0 0 ) light_radius ( 10 20 30 ) noShadows 1 }\n"
            "light \"spot\" { origin ( 0 0 100 ) target ( 0 0 -100 ) right ( 50 0 0 ) "
            "up ( 0 50 0 ) end ( 0 0 -90 ) }\n"
            "light \"spot2\" { origin ( 0 0 100 ) target ( 0 0 -100 ) right ( 50 0 0 ) "
            "up ( 0 50 0 ) start ( 0 0 -10 ) }\n";
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text(text, "l.md5scene", &s, &err), &err);
    ASSERT(s.num_lights == 5);
    EXPECT_EQ_VEC3(s.lights[2].box, ((mc_vec3){ 10, 20, 30 }), 0.0f);
    EXPECT(s.lights[2].no_shadows && !s.lights[2].projected && !s.lights[0].no_shadows);
    EXPECT(s.lights[3].projected);
    EXPECT_EQ_VEC3(s.lights[3].target, ((mc_vec3){ 0, 0, -100 }), 0.0f);
    EXPECT_EQ_VEC3(s.lights[3].right, ((mc_vec3){ 50, 0, 0 }), 0.0f);
    EXPECT_EQ_VEC3(s.lights[3].up, ((mc_vec3){ 0, 50, 0 }), 0.0f);
    EXPECT_EQ_VEC3(s.lights[3].end, ((mc_vec3){ 0, 0, -90 }), 0.0f);
    EXPECT_EQ_VEC3(s.lights[3].start, ((mc_vec3){ 0, 0, 0 }), 0.0f);
    /* Light.cpp: without light_end the falloff ends at the target, whatever the start */
    EXPECT_EQ_VEC3(s.lights[4].start, ((mc_vec3){ 0, 0, -10 }), 0.0f);
    EXPECT_EQ_VEC3(s.lights[4].end, ((mc_vec3){ 0, 0, -100 }), 0.0f);
    EXPECT_EQ_STR(s.lights[0].name, "key");
    EXPECT_EQ_INT(s.lights[0].line, 3);
    EXPECT_EQ_INT(s.lights[0].col, 7);
    EXPECT_EQ_VEC3(s.lights[0].origin, ((mc_vec3){ -200, 150, 300 }), 0.0f);
    EXPECT_NEAR(s.lights[0].color[0], 1.0, 0.0);
    EXPECT_NEAR(s.lights[0].color[1], 0.5, 0.0);
    EXPECT_NEAR(s.lights[0].color[2], 2.0, 0.0);
    EXPECT_NEAR(s.lights[0].radius, 900.0, 0.0);
    EXPECT_EQ_STR(s.lights[1].name, "fill");
    EXPECT_EQ_VEC3(s.lights[1].origin, ((mc_vec3){ 1, 2, 3 }), 0.0f);
    EXPECT_NEAR(s.lights[1].color[1], 1.0, 0.0); /* default white */
    EXPECT_NEAR(s.lights[1].radius, 50.5, 0.0);
    EXPECT(s.has_ambient);
    EXPECT_NEAR(s.ambient[2], 0.3, 1e-7);
    mc_scene_release(&s);
    ASSERT_OK(parse_text("md5scene 1\ncamera \"c\"\n", "l.md5scene", &s, &err), &err);
    EXPECT(s.num_lights == 0 && s.lights == NULL && !s.has_ambient);
    mc_scene_release(&s);
}

TEST(leaves_optional_settings_unset)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text("md5scene 1 camera \"c.md5camera\"", "x.md5scene", &s, &err), &err);
    EXPECT(s.base_path == NULL);
    EXPECT_EQ_INT(s.frames, 0);
    EXPECT_EQ_INT(s.width, 0);
    EXPECT_EQ_INT(s.height, 0);
    EXPECT_EQ_INT(s.fps, 0);
    EXPECT(!s.has_background);
    EXPECT_EQ_INT(s.num_actors, 0);
    EXPECT(!s.resolved);
    mc_scene_release(&s);
}

/* Doom's entity defaults are parm0..3 = 1 (_color, shaderParm3) and 0 for the others
 * (Entity.cpp, ParseSpawnArgsToRenderEntity); `parm N VALUE` sets one. */
TEST(reads_shader_parms_with_dooms_defaults)
{
    mc_scene s;
    mc_error err;
    const float want[12] = { 0.25f, 1, 1, 1, 0.5f, 0, 0, 0, 0, 0, 0, -3 };

    ASSERT_OK(parse_text("md5scene 1 camera \"c.md5camera\"\n"
                         "actor \"a\" { mesh \"m\" parm 4 0.5 parm 0 0.25 parm 11 -3 }\n"
                         "actor \"b\" { mesh \"m\" }\n",
                         "x.md5scene", &s, &err),
              &err);
    ASSERT(s.num_actors == 2);
    for (int i = 0; i < 12; i++) {
        EXPECT_NEAR(s.actors[0].parms[i], want[i], 0);
        EXPECT_NEAR(s.actors[1].parms[i], i < 4 ? 1.0 : 0.0, 0);
    }
    mc_scene_release(&s);
}

TEST(resolves_paths_against_the_scene_folder)
{
    mc_scene s;
    mc_error err;
    const char *text = "md5scene 1\n"
                       "camera \"cams\\intro.md5camera\"\n"
                       "base \"/abs/textures\"\n"
                       "actor \"a\" { mesh \"m/x.md5mesh\" anim \"../y.md5anim\" }\n";

    ASSERT_OK(parse_text(text, "some/dir/s.md5scene", &s, &err), &err);
    EXPECT_EQ_STR(s.dir, "some/dir/");
    EXPECT_EQ_STR(s.camera_path, "some/dir/cams/intro.md5camera"); /* '\' read as '/' */
    EXPECT_EQ_STR(s.base_path, "/abs/textures");                   /* absolute: unchanged */
    ASSERT(s.num_actors == 1);
    EXPECT_EQ_STR(s.actors[0].mesh_path, "some/dir/m/x.md5mesh");
    EXPECT_EQ_STR(s.actors[0].anim_path, "some/dir/../y.md5anim");
    mc_scene_release(&s);

    ASSERT_OK(parse_text(text, "s.md5scene", &s, &err), &err);
    EXPECT_EQ_STR(s.dir, "");
    EXPECT_EQ_STR(s.camera_path, "cams/intro.md5camera");
    mc_scene_release(&s);
}

TEST(accepts_an_empty_shader_name_in_a_material)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text("md5scene 1 camera \"c\" actor \"a\" { mesh \"m\" "
                         "material \"\" \"skin.jpg\" material \"x\" \"y.png\" }",
                         "d/s.md5scene", &s, &err),
              &err);
    ASSERT(s.num_actors == 1 && s.actors[0].num_materials == 2);
    EXPECT_EQ_STR(s.actors[0].materials[0].shader, "");
    EXPECT_EQ_STR(s.actors[0].materials[0].path, "d/skin.jpg");
    EXPECT_EQ_STR(s.actors[0].materials[1].shader, "x");
    mc_scene_release(&s);
}

TEST(keeps_many_actors_in_order)
{
    char text[8192];
    size_t n;
    mc_scene s;
    mc_error err;

    n = (size_t)snprintf(text, sizeof text, "md5scene 1 camera \"c\"\n");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "actor a%d { mesh \"m%d\" yaw %d }\n", i,
                              i, i);
    ASSERT_OK(parse_text(text, "s.md5scene", &s, &err), &err);
    ASSERT(s.num_actors == 40);
    EXPECT_EQ_STR(s.actors[0].name, "a0");
    EXPECT_EQ_STR(s.actors[39].name, "a39");
    EXPECT_EQ_STR(s.actors[39].mesh_path, "m39");
    EXPECT_NEAR(s.actors[17].yaw, 17.0, 0.0);
    EXPECT_EQ_INT(s.actors[39].line, 41);
    mc_scene_release(&s);
}

/* ---------------------------------------------------------------- parse errors */

typedef struct error_case {
    const char *text;
    mc_status code;
    int line, col;
    const char *msg; /* expected exactly, or as a part when prefixed by '~' */
} error_case;

#define HEAD "md5scene 1\ncamera \"c\"\n"

static const error_case parse_errors[] = {
    { HEAD "foo 1\n", MC_ERR_SYNTAX, 3, 1, "unknown keyword 'foo'" },
    { HEAD "actor \"a\" {\n    mesh \"m\"\n    spin 3\n}\n", MC_ERR_SYNTAX, 5, 5,
      "unknown keyword 'spin' in actor 'a' (did you mean 'skin'?)" },
    /* hints: the nearest keyword of the block within 2 edits and under half the word */
    { HEAD "frame 3\n", MC_ERR_SYNTAX, 3, 1, "unknown keyword 'frame' (did you mean 'frames'?)" },
    /* fram: 2 edits from frames, not under half of 4 */
    { HEAD "fram 3\n", MC_ERR_SYNTAX, 3, 1, "unknown keyword 'fram'" },
    { HEAD "actor \"fighter\" {\n    mesh \"m\"\n    orgin ( 0 0 0 )\n}\n", MC_ERR_SYNTAX, 5, 5,
      "unknown keyword 'orgin' in actor 'fighter' (did you mean 'origin'?)" },
    { HEAD "actor \"a\" { mesh \"m\" materal \"x\" \"y\" }\n", MC_ERR_SYNTAX, 3, 22,
      "unknown keyword 'materal' in actor 'a' (did you mean 'material'?)" },
    { HEAD "output { widht 640 }\n", MC_ERR_SYNTAX, 3, 10,
      "unknown keyword 'widht' in 'output' (did you mean 'width'?)" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 noshadows 1 }\n", MC_ERR_SYNTAX, 3, 39,
      "unknown keyword 'noshadows' in light 'k' (did you mean 'noShadows'?)" },
    { HEAD "output { width 640 depth 3 }\n", MC_ERR_SYNTAX, 3, 20,
      "unknown keyword 'depth' in 'output'" },
    { HEAD "camera \"d\"\n", MC_ERR_SYNTAX, 3, 1, "duplicate 'camera' (first given at line 2)" },
    { HEAD "actor \"a\" { mesh \"m\" yaw 1 yaw 2 }\n", MC_ERR_SYNTAX, 3, 28,
      "duplicate 'yaw' (first given at line 3)" },
    { HEAD "actor \"a\" { mesh \"m\" }\nactor a { mesh \"n\" }\n", MC_ERR_SYNTAX, 4, 7,
      "duplicate actor 'a' (first given at line 3)" },
    { HEAD "actor \"a\" { mesh \"m\"\n material \"s\" \"x.png\"\n material \"s\" \"y.png\" }\n",
      MC_ERR_SYNTAX, 5, 11, "duplicate material for shader 's' (first given at line 4)" },
    /* shader names match ignoring case and slash direction, so these name one shader */
    { HEAD "actor \"a\" { mesh \"m\"\n material \"m/s\" \"x.png\"\n material \"M\\S\" \"y.png\" }\n",
      MC_ERR_SYNTAX, 5, 11, "duplicate material for shader 'M\\S' (first given at line 4)" },
    { "md5scene 1\nframes 10\n", MC_ERR_SYNTAX, 1, 1, "scene has no 'camera'" },
    { "camera \"c\"\n", MC_ERR_SYNTAX, 1, 1, "~expected 'md5scene'" },
    { "md5scene 2\ncamera \"c\"\n", MC_ERR_RANGE, 1, 10,
      "unsupported 'md5scene' version 2, expected 1" },
    { HEAD "actor \"a\" { anim \"x\" }\n", MC_ERR_SYNTAX, 3, 7, "actor 'a' has no 'mesh'" },
    { HEAD "frames 1.5\n", MC_ERR_SYNTAX, 3, 8, "~expected integer" },
    { HEAD "frames 0\n", MC_ERR_RANGE, 3, 8, "invalid 'frames' 0, expected 1 to 10000000" },
    { HEAD "actor \"a\" { mesh \"m\" yaw ninety }\n", MC_ERR_SYNTAX, 3, 26, "~expected number" },
    { HEAD "actor \"a\" { mesh \"m\" scale 0 }\n", MC_ERR_RANGE, 3, 28,
      "invalid 'scale' 0, expected a number above 0" },
    { HEAD "actor \"a\" { mesh \"m\" scale -2 }\n", MC_ERR_RANGE, 3, 28,
      "invalid 'scale' -2, expected a number above 0" },
    { HEAD "actor \"a\" { mesh \"m\" parm 12 1 }\n", MC_ERR_RANGE, 3, 27,
      "invalid 'parm' 12, expected 0 to 11" },
    { HEAD "actor \"a\" { mesh \"m\" parm -1 1 }\n", MC_ERR_RANGE, 3, 27,
      "invalid 'parm' -1, expected 0 to 11" },
    { HEAD "actor \"a\" { mesh \"m\" parm 1 x }\n", MC_ERR_SYNTAX, 3, 29, "~expected number" },
    { HEAD "actor \"a\" { mesh \"m\" parm 1.5 0 }\n", MC_ERR_SYNTAX, 3, 27,
      "~expected integer" },
    { HEAD "actor \"a\" { mesh \"m\" parm 4 1 parm 4 2 }\n", MC_ERR_SYNTAX, 3, 36,
      "duplicate 'parm 4' (first given at line 3)" },
    { HEAD "actor \"a\" { mesh \"m\" loop 2 }\n", MC_ERR_RANGE, 3, 27,
      "invalid 'loop' 2, expected 0 to 1" },
    { HEAD "actor \"a\" { mesh \"m\" in_place -1 }\n", MC_ERR_RANGE, 3, 31,
      "invalid 'in_place' -1, expected 0 to 1" },
    { HEAD "actor \"a\" { mesh \"m\" skin \"\" }\n", MC_ERR_SYNTAX, 3, 27,
      "invalid skin name, expected 1 to 256 bytes" },
    { HEAD "actor \"a\" { mesh \"m\" skin \"s\" skin \"t\" }\n", MC_ERR_SYNTAX, 3, 31, "~skin" },
    { HEAD "output { width 15 }\n", MC_ERR_RANGE, 3, 16,
      "invalid 'width' 15, expected 16 to 16384" },
    { HEAD "output { height 16385 }\n", MC_ERR_RANGE, 3, 17,
      "invalid 'height' 16385, expected 16 to 16384" },
    { HEAD "output { fps 0 }\n", MC_ERR_RANGE, 3, 14, "invalid 'fps' 0, expected 1 to 1000" },
    /* at the component itself: col 25 is the '1' of 1.5 */
    { HEAD "output { background ( 0 1.5 0 ) }\n", MC_ERR_RANGE, 3, 25,
      "invalid 'background' component 1.5, expected 0 to 1" },
    { HEAD "actor \"a\" { mesh \"m\"\n", MC_ERR_SYNTAX, 4, 1,
      "expected a keyword or '}' in actor 'a', found end of file" },
    { HEAD "actor \"a\" mesh \"m\"\n", MC_ERR_SYNTAX, 3, 11, "expected '{', found 'mesh'" },
    { HEAD "actor \"a\" { mesh \"\" }\n", MC_ERR_SYNTAX, 3, 18, "empty path" },
    { HEAD "( 1 2 3 )\n", MC_ERR_SYNTAX, 3, 1, "expected a keyword, found '('" },
    { HEAD "\"camera\" \"x\"\n", MC_ERR_SYNTAX, 3, 1, "expected a keyword, found 'camera'" },
    /* lights */
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 0 }\n", MC_ERR_RANGE, 3, 37,
      "invalid 'radius' 0, expected above 0 and at most 1e+06" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius -5 }\n", MC_ERR_RANGE, 3, 37,
      "invalid 'radius' -5, expected above 0 and at most 1e+06" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 2e6 }\n", MC_ERR_RANGE, 3, 37,
      "invalid 'radius' 2e+06, expected above 0 and at most 1e+06" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 color ( 1 -1 1 ) }\n", MC_ERR_RANGE, 3, 49,
      "invalid 'color' component -1, expected 0 to 100" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 color ( 1 1 101 ) }\n", MC_ERR_RANGE, 3, 51,
      "invalid 'color' component 101, expected 0 to 100" },
    /* beyond what the renderer accepts (col 24 is the '-' of -1e31) */
    { HEAD "light \"k\" { origin ( 0 -1e31 0 ) radius 9 }\n", MC_ERR_RANGE, 3, 24,
      "invalid 'origin' component -1e+31, expected -1e+30 to 1e+30" },
    { HEAD "light \"k\" { origin ( 0 0 ) radius 9 }\n", MC_ERR_SYNTAX, 3, 26,
      "'origin' takes three numbers ( x y z ), found ')'" },
    { HEAD "light \"k\" { radius 9 }\n", MC_ERR_SYNTAX, 3, 7, "light 'k' has no 'origin'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) }\n", MC_ERR_SYNTAX, 3, 7,
      "light 'k' has no 'radius' or 'light_radius'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 light_radius ( 1 2 3 ) }\n", MC_ERR_SYNTAX, 3,
      7, "light 'k' has both 'radius' and 'light_radius'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) light_radius ( 1 0 3 ) }\n", MC_ERR_RANGE, 3, 47,
      "~invalid 'light_radius' component 0" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) target ( 0 0 -100 ) right ( 50 0 0 ) }\n", MC_ERR_SYNTAX,
      3, 7, "projected light 'k' needs 'target', 'right' and 'up'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) target ( 0 0 -1 ) right ( 1 0 0 ) up ( 2 0 0 ) }\n",
      MC_ERR_RANGE, 3, 7, "~'right' and 'up' must span a plane" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) target ( 0 0 -1 ) right ( 1 0 0 ) up ( 0 1 0 ) "
           "start ( 0 0 -1 ) }\n",
      MC_ERR_RANGE, 3, 7, "projected light 'k': 'start' and 'end' are the same point" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 end ( 0 0 1 ) }\n", MC_ERR_SYNTAX, 3, 7,
      "light 'k': 'start' and 'end' need 'target', 'right' and 'up'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 noShadows 2 }\n", MC_ERR_RANGE, 3, 49,
      "'noShadows' is 0 or 1, not 2" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 radius 8 }\n", MC_ERR_SYNTAX, 3, 39,
      "duplicate 'radius' (first given at line 3)" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 spot 1 }\n", MC_ERR_SYNTAX, 3, 39,
      "unknown keyword 'spot' in light 'k'" },
    { HEAD "light \"k\" { origin ( 0 0 0 ) radius 9 }\nlight \"k\" { }\n", MC_ERR_SYNTAX, 4, 7,
      "duplicate light 'k' (first given at line 3)" },
    { HEAD "light \"k\" origin\n", MC_ERR_SYNTAX, 3, 11, "expected '{', found 'origin'" },
    { HEAD "light \"k\" { 5 }\n", MC_ERR_SYNTAX, 3, 13,
      "expected a keyword or '}' in light 'k', found '5'" },
    { HEAD "light { }\n", MC_ERR_SYNTAX, 3, 7, "expected a string, found '{'" },
    { HEAD "ambient ( 0 0 1.5 )\n", MC_ERR_RANGE, 3, 15,
      "invalid 'ambient' component 1.5, expected 0 to 1" },
    { HEAD "ambient ( 0 0 0 )\nambient ( 0 0 0 )\n", MC_ERR_SYNTAX, 4, 1,
      "duplicate 'ambient' (first given at line 3)" },
    { HEAD "light \"a\" { origin ( 0 0 0 ) radius 1 }\nlight \"b\" { origin ( 0 0 0 ) radius 1 }\n"
           "light \"c\" { origin ( 0 0 0 ) radius 1 }\nlight \"d\" { origin ( 0 0 0 ) radius 1 }\n"
           "light \"e\" { origin ( 0 0 0 ) radius 1 }\nlight \"f\" { origin ( 0 0 0 ) radius 1 }\n"
           "light \"g\" { origin ( 0 0 0 ) radius 1 }\nlight \"h\" { origin ( 0 0 0 ) radius 1 }\n"
           "light \"i\" { origin ( 0 0 0 ) radius 1 }\n",
      MC_ERR_LIMIT, 11, 1, "more than 8 lights" },
};

TEST(reports_each_parse_error_at_its_token)
{
    for (size_t i = 0; i < TEST_COUNT(parse_errors); i++) {
        const error_case *c = &parse_errors[i];
        mc_scene s;
        mc_error err;
        mc_status st = parse_text(c->text, "bad.md5scene", &s, &err);

        if (st == MC_OK) {
            test_fail(__FILE__, __LINE__, "case %zu parsed: %s", i, c->text);
            mc_scene_release(&s);
            continue;
        }
        if (st != c->code || err.line != c->line || err.col != c->col ||
            strcmp(err.file, "bad.md5scene") != 0)
            test_fail(__FILE__, __LINE__, "case %zu: expected %s at %d:%d, got %s at %s:%d:%d: %s",
                      i, mc_status_name(c->code), c->line, c->col, mc_status_name(st), err.file,
                      err.line, err.col, err.msg);
        if (c->msg[0] == '~')
            EXPECT_CONTAINS(err.msg, c->msg + 1);
        else
            EXPECT_EQ_STR(err.msg, c->msg);
        /* a failed parse leaves nothing to release */
        EXPECT(s.actors == NULL && s.arena.head == NULL);
    }
}

TEST(rejects_text_after_a_lexical_error)
{
    mc_scene s;
    mc_error err;

    EXPECT(parse_text(HEAD "frames 1.2.3\n", "bad.md5scene", &s, &err) != MC_OK);
    EXPECT_EQ_INT(err.line, 3);
    EXPECT_EQ_INT(err.col, 8);
    EXPECT(parse_text(HEAD "/* open comment\n", "bad.md5scene", &s, &err) != MC_OK);
    EXPECT_EQ_INT(err.line, 3);
    EXPECT_EQ_INT(err.col, 1);
}

/* The errors a parse goes on after, as an mc_warn_fn records them (test_warnings). */
static mc_status parse_all(const char *text, test_warnings *log, mc_scene *s, mc_error *err)
{
    mc_parse_opts opts = { .error = test_record_warning, .error_user = log };

    return mc_scene_parse(text, strlen(text), "bad.md5scene", &opts, s, err);
}

/* With an error callback the parser skips each bad statement and reads on: every error but the
 * last through the callback, in the file's order, the last returned; an actor whose block
 * failed adds no error of its own (no "has no 'mesh'"), and the statements between the errors
 * are read (the duplicate 'frames' of line 9 is found). Positions counted by hand. */
TEST(goes_on_after_errors_when_asked)
{
    test_warnings log = { 0 };
    mc_scene s;
    mc_error err;

    EXPECT_EQ_INT(parse_all(HEAD "frame 30\n"                         /* 3 */
                                 "actor \"a\" {\n    orgin ( 0 0 0 )\n" /* 4, 5 */
                                 "    mesh \"m\"\n}\n"                  /* 6, 7 */
                                 "frames 10\nframes 20\n"                /* 8, 9 */
                                 "output { widht 64 }\n",                /* 10 */
                            &log, &s, &err),
                  MC_ERR_SYNTAX);
    ASSERT(log.count == 3);
    EXPECT_EQ_INT(log.first[0].line, 3);
    EXPECT_EQ_INT(log.first[0].col, 1);
    EXPECT_EQ_STR(log.first[0].msg, "unknown keyword 'frame' (did you mean 'frames'?)");
    EXPECT_AT(&log.first[1], 5, 5, "unknown keyword 'orgin' in actor 'a'");
    EXPECT_AT(&log.first[2], 9, 1, "duplicate 'frames' (first given at line 8)");
    /* the fourth, the last, is returned */
    EXPECT_AT(&err, 10, 10, "unknown keyword 'widht' in 'output'");
    EXPECT(s.actors == NULL);
}

TEST(reports_the_duplicate_between_errors)
{
    test_warnings log = { 0 };
    mc_scene s;
    mc_error err;

    EXPECT_EQ_INT(parse_all(HEAD "frame 30\nframes 10\nframes 20\n", &log, &s, &err),
                  MC_ERR_SYNTAX);
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_AT(&err, 5, 1, "duplicate 'frames' (first given at line 4)");
}

/* At most MC_LIMIT_SCENE_ERRORS (20) errors: 25 bad lines (a bad value, then 24 duplicates)
 * give 19 through the callback and the 20th returned (line 22, the 20th bad line); a lexical
 * error stops the parse where it is. */
TEST(stops_after_the_error_limit_and_at_a_lexical_error)
{
    char text[1024];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    test_warnings log = { 0 }, lex = { 0 };
    mc_scene s;
    mc_error err;

    for (int i = 0; i < 25; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "frames x%d\n", i);
    EXPECT_EQ_INT(parse_all(text, &log, &s, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(log.count, 19);
    EXPECT_EQ_INT(log.last.line, 21);
    EXPECT_EQ_INT(err.line, 22);
    EXPECT_EQ_INT(err.col, 1);

    EXPECT_EQ_INT(parse_all(HEAD "frame 1\nyaw \"open\nframe 2\n", &lex, &s, &err),
                  MC_ERR_SYNTAX);
    /* line 3's statement is skipped up to the next top-level keyword: the open string of line
     * 4 ends the parse there */
    EXPECT_EQ_INT(lex.count, 1);
    EXPECT_EQ_INT(lex.last.line, 3);
    EXPECT_AT(&err, 4, 5, "newline inside string");
}

/* ---------------------------------------------------------------- resolve errors */

TEST(reports_a_missing_mesh_at_its_path_token)
{
    const char *text = "md5scene 1\ncamera \"still.md5camera\"\n"
                       "actor \"a\" {\n    mesh  \"nope.md5mesh\"\n}\n";
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text(text, "data/scenes/inline.md5scene", &s, &err), &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_IO);
    EXPECT_EQ_STR(err.file, "data/scenes/inline.md5scene");
    EXPECT_AT(&err, 4, 11, "cannot load mesh");
    EXPECT_CONTAINS(err.msg, "data/scenes/nope.md5mesh");
    EXPECT(!s.resolved);
    mc_scene_release(&s);
}

TEST(reports_a_missing_camera_and_anim_at_their_path_tokens)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text("md5scene 1\n  camera \"none.md5camera\"\n", "data/scenes/i.md5scene", &s,
                         &err),
              &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_IO);
    EXPECT_AT(&err, 2, 10, "cannot load camera");
    mc_scene_release(&s);

    ASSERT_OK(parse_text("md5scene 1 camera \"still.md5camera\"\n"
                         "actor x { mesh \"arm.md5mesh\" anim \"none.md5anim\" }\n",
                         "data/scenes/i.md5scene", &s, &err),
              &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_IO);
    EXPECT_AT(&err, 2, 35, "cannot load anim");
    mc_scene_release(&s);
}

/* A missing file whose folder holds an entry of a near name (data/scenes/ holds arm.md5anim,
 * arm_badparent.md5anim and skin.png) gets "did you mean" with that name, at the path's token;
 * a far name gets the files of its extension there, and nothing when there are none. */
TEST(hints_a_near_name_for_a_missing_file)
{
    static const struct {
        const char *actor;
        int col;
        const char *hint;
    } rows[] = {
        { "actor x { mesh \"arm.md5mesh\" anim \"arm.md5anm\" }\n", 35,
          "cannot open 'data/scenes/arm.md5anm': No such file or directory (did you mean "
          "'arm.md5anim'?)" },
        { "actor x { mesh \"arm.md5mesh\" anim \"Arm.md5anim\" }\n", 35,
          "(did you mean 'arm.md5anim'?)" },
        { "actor x { mesh \"arm.md5mesh\" material \"s\" \"skin.pgn\" }\n", 43,
          "cannot read image 'data/scenes/skin.pgn' for shader 's' (did you mean 'skin.png'?)" },
        /* no near name: the files of its kind, sorted */
        { "actor x { mesh \"arm.md5mesh\" anim \"walk.md5anim\" }\n", 35,
          "No such file or directory (its folder holds 'arm.md5anim', "
          "'arm_badparent.md5anim')" },
        { "actor x { mesh \"arm.md5mesh\" material \"s\" \"nothing.tif\" }\n", 43, NULL },
    };
    char text[256];
    mc_scene s;
    mc_error err;

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(text, sizeof text, "md5scene 1 camera \"still.md5camera\"\n%s", rows[i].actor);
        ASSERT_OK(parse_text(text, "data/scenes/i.md5scene", &s, &err), &err);
        EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_IO);
        EXPECT_EQ_INT(err.line, 2);
        EXPECT_EQ_INT(err.col, rows[i].col);
        if (rows[i].hint)
            EXPECT_CONTAINS(err.msg, rows[i].hint);
        else
            EXPECT(strstr(err.msg, "did you mean") == NULL && strchr(err.msg, '(') == NULL);
        if (rows[i].hint && !strstr(rows[i].hint, "did you mean"))
            EXPECT(strstr(err.msg, "did you mean") == NULL);
        mc_scene_release(&s);
    }
}

/* An orbit around an actor the scene lacks names the actor of a near name. */
TEST(hints_a_near_actor_name_for_an_orbit)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text("md5scene 1\ncamera { orbit { around \"walkr\" radius 100 seconds 2 } }\n"
                         "actor walker { mesh \"arm.md5mesh\" }\n",
                         "data/scenes/i.md5scene", &s, &err),
              &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_INT(err.line, 2);
    EXPECT_EQ_INT(err.col, 25);
    EXPECT_EQ_STR(err.msg, "orbit around 'walkr': no actor of that name (did you mean 'walker'?)");
    mc_scene_release(&s);
}

TEST(reports_an_error_inside_a_named_file_at_that_files_position)
{
    char dir[400], mesh[512], scene[512];
    mc_scene s;
    mc_error err;

    ASSERT(make_scene_dir(dir, sizeof dir, "scene-broken"));
    snprintf(mesh, sizeof mesh, "%s/broken.md5mesh", dir);
    snprintf(scene, sizeof scene, "%s/s.md5scene", dir);
    /* the count on line 4, column 11, is not a number */
    ASSERT(write_text(mesh, "MD5Version 10\ncommandline \"\"\n\nnumJoints x\n"));
    ASSERT(write_text(scene, "md5scene 1 camera \"still.md5camera\"\n"
                             "actor ok { mesh \"arm.md5mesh\" }\n"
                             "actor bad { mesh \"broken.md5mesh\" }\n"));
    EXPECT(mc_scene_load(scene, NULL, &s, &err) != MC_OK);
    EXPECT_EQ_STR(err.file, mesh);
    EXPECT_EQ_INT(err.line, 4);
    EXPECT_EQ_INT(err.col, 11);
    EXPECT(s.actors == NULL); /* a failed load leaves nothing to release */
}

TEST(names_the_joint_when_mesh_and_anim_disagree)
{
    mc_scene s;
    mc_error err;

    EXPECT_EQ_INT(mc_scene_load("data/scenes/mismatch.md5scene", NULL, &s, &err), MC_ERR_MISMATCH);
    /* arm_badparent.md5anim line 12: <tab>"arm" 1 0 0 -- parent 'hand', the mesh says 'origin' */
    EXPECT_EQ_STR(err.file, "data/scenes/arm_badparent.md5anim");
    EXPECT_AT(&err, 12, 2, "'arm'");
    /* and the actor with the scene line of its anim: mismatch.md5scene line 5 */
    EXPECT_CONTAINS(err.msg, ", in actor 'a' (data/scenes/mismatch.md5scene:5)");
}

TEST(reports_a_missing_material_file_at_the_material_line)
{
    const char *text = "md5scene 1 camera \"still.md5camera\"\n"
                       "actor a {\n"
                       "    mesh \"arm.md5mesh\"\n"
                       "    material \"skin\" \"skin.png\"\n"
                       "    material \"other\" \"missing.tga\"\n"
                       "}\n";
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text(text, "data/scenes/m.md5scene", &s, &err), &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_IO);
    EXPECT_EQ_STR(err.file, "data/scenes/m.md5scene");
    EXPECT_AT(&err, 5, 22, "data/scenes/missing.tga");
    mc_scene_release(&s);
}

TEST(fails_at_once_on_a_bad_file_of_a_later_actor)
{
    mc_scene s;
    mc_error err;

    /* actor 3's anim does not fit its mesh: the whole load fails before any frame */
    EXPECT_EQ_INT(mc_scene_load("data/scenes/third_bad.md5scene", NULL, &s, &err), MC_ERR_MISMATCH);
    EXPECT_EQ_STR(err.file, "data/scenes/arm_badparent.md5anim");
}

TEST(passes_lenient_reading_to_every_named_file)
{
    char dir[400], scene[512], mesh[512];
    mc_scene s;
    mc_error err;
    test_warnings log = { 0 };
    mc_parse_opts lenient = { true, test_record_warning, &log };

    /* arm.md5mesh without its MD5Version line: an error in strict mode, a warning with
     * lenient; either way reported in the mesh file at line 1, column 1 */
    ASSERT(make_scene_dir(dir, sizeof dir, "scene-lenient"));
    ASSERT(touch(dir, "skin.png"));
    ASSERT(edit_fixture(dir, "arm.md5mesh", "MD5Version 10\n", ""));
    snprintf(scene, sizeof scene, "%s/s.md5scene", dir);
    snprintf(mesh, sizeof mesh, "%s/arm.md5mesh", dir);
    ASSERT(write_text(scene,
                      "md5scene 1 camera \"still.md5camera\" actor a { mesh \"arm.md5mesh\" }"));
    EXPECT_EQ_INT(mc_scene_load(scene, NULL, &s, &err), MC_ERR_SYNTAX);
    EXPECT_EQ_STR(err.file, mesh);
    EXPECT_EQ_INT(err.line, 1);
    EXPECT_EQ_INT(err.col, 1);
    ASSERT_OK(mc_scene_load(scene, &lenient, &s, &err), &err);
    EXPECT_EQ_INT(log.count, 1);
    EXPECT_EQ_STR(log.last.file, mesh);
    EXPECT_EQ_INT(log.last.line, 1);
    mc_scene_release(&s);
}

TEST(rejects_more_actors_than_the_limit)
{
    size_t cap = 64 + (size_t)(MC_SCENE_MAX_ACTORS + 1) * 32, n;
    char *text = malloc(cap);
    mc_scene s;
    mc_error err;

    ASSERT(text != NULL);
    n = (size_t)snprintf(text, cap, "md5scene 1 camera \"c\"\n");
    for (int i = 0; i <= MC_SCENE_MAX_ACTORS; i++)
        n += (size_t)snprintf(text + n, cap - n, "actor a%d { mesh \"m\" }\n", i);
    /* actor number MC_SCENE_MAX_ACTORS + 1 is on line MC_SCENE_MAX_ACTORS + 2 */
    EXPECT_EQ_INT(parse_text(text, "big.md5scene", &s, &err), MC_ERR_LIMIT);
    EXPECT_EQ_INT(err.line, MC_SCENE_MAX_ACTORS + 2);
    EXPECT_EQ_INT(err.col, 1);
    free(text);
}

/* ---------------------------------------------------------------- timing, placement */

TEST(takes_the_length_of_a_one_frame_camera_from_frames_or_the_longest_anim)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(parse_text("md5scene 1 camera \"still.md5camera\" frames 50\n"
                         "actor a { mesh \"arm.md5mesh\" anim \"arm.md5anim\" }\n",
                         "data/scenes/t.md5scene", &s, &err),
              &err);
    ASSERT_OK(mc_scene_resolve(&s, NULL, &err), &err);
    EXPECT_EQ_INT(mc_scene_frame_count(&s, R(24)), 50);
    mc_scene_release(&s);

    /* arm.md5anim: 3 frames at 24 fps, start 0.5 -> ends at 0.5 + 2/24 s.
     * At 24 fps that is output frame 12 + 2 = 14, so 15 frames (0..14);
     * at 30 fps 15 + 2.5 = 17.5 -> last whole frame 17, so 18 frames. */
    ASSERT_OK(parse_text("md5scene 1 camera \"still.md5camera\"\n"
                         "actor a { mesh \"arm.md5mesh\" anim \"arm.md5anim\" start 0.5 }\n"
                         "actor b { mesh \"arm.md5mesh\" anim \"arm.md5anim\" loop 1 }\n"
                         "actor c { mesh \"arm.md5mesh\" }\n",
                         "data/scenes/t.md5scene", &s, &err),
              &err);
    ASSERT_OK(mc_scene_resolve(&s, NULL, &err), &err);
    EXPECT_EQ_INT(mc_scene_single_frame_length(&s, R(24)), 15);
    EXPECT_EQ_INT(mc_scene_frame_count(&s, R(24)), 15);
    EXPECT_EQ_INT(mc_scene_frame_count(&s, R(30)), 18);
    mc_scene_release(&s);

    /* no anim at all: a single frame */
    ASSERT_OK(parse_text("md5scene 1 camera \"still.md5camera\" actor c { mesh \"arm.md5mesh\" }",
                         "data/scenes/t.md5scene", &s, &err),
              &err);
    ASSERT_OK(mc_scene_resolve(&s, NULL, &err), &err);
    EXPECT_EQ_INT(mc_scene_frame_count(&s, R(24)), 1);
    mc_scene_release(&s);
}

TEST(lets_a_moving_camera_decide_the_length)
{
    mc_scene s;
    mc_error err;

    /* full.md5scene: cut.md5camera has 10 frames and a cut at 4 (DESIGN.md 2.1's example:
     * 9 output frames at 24 fps); its frames 48 does not apply to a moving camera */
    ASSERT_OK(mc_scene_load("data/scenes/full.md5scene", NULL, &s, &err), &err);
    EXPECT_EQ_INT(mc_scene_frame_count(&s, R(24)), 9);
    EXPECT_EQ_INT(mc_scene_fps(&s, R(0)).num, 30);  /* the output block's fps */
    EXPECT_EQ_INT(mc_scene_fps(&s, R(12)).num, 12); /* a command-line rate wins */
    s.fps = 0;
    EXPECT_EQ_INT(mc_scene_fps(&s, R(0)).num, 24); /* else the camera's frame rate */
    mc_scene_release(&s);
}

TEST(places_an_actor_by_origin_yaw_and_scale)
{
    mc_scene_actor a;
    mc_mat4 m;
    const float p[3] = { 1.0f, 0.0f, 0.5f };
    float w[3];

    memset(&a, 0, sizeof a);
    a.origin = (mc_vec3){ 1.0f, 2.0f, 3.0f };
    a.yaw = 90.0f;
    a.scale = 2.0f;
    a.start = 1.5f;
    mc_scene_actor_matrix(&a, &m);
    for (int r = 0; r < 3; r++)
        w[r] = m.m[r] * p[0] + m.m[4 + r] * p[1] + m.m[8 + r] * p[2] + m.m[12 + r];
    /* yaw 90 turns +X into +Y: (1 0 0.5) -> scale 2 -> (0 2 1) + origin = (1 4 4) */
    EXPECT_NEAR(w[0], 1.0, 1e-5);
    EXPECT_NEAR(w[1], 4.0, 1e-5);
    EXPECT_NEAR(w[2], 4.0, 1e-5);
    EXPECT_NEAR(m.m[15], 1.0, 0.0);
    EXPECT_NEAR(mc_scene_actor_time(&a, 2.0), 0.5, 1e-12);
    EXPECT_NEAR(mc_scene_actor_time(&a, 0.0), -1.5, 1e-12);
    /* the engine clock: start 1.5 s is 1500 ms */
    EXPECT_EQ_INT(mc_scene_actor_ms(&a, 2000), 500);
    EXPECT_EQ_INT(mc_scene_actor_ms(&a, 0), -1500);
}

TEST(refuses_to_resolve_twice)
{
    mc_scene s;
    mc_error err;

    ASSERT_OK(mc_scene_load("data/scenes/full.md5scene", NULL, &s, &err), &err);
    EXPECT_EQ_INT(mc_scene_resolve(&s, NULL, &err), MC_ERR_USAGE);
    EXPECT(s.resolved); /* still usable */
    mc_scene_release(&s);
    mc_scene_release(&s); /* a zeroed scene is fine */
}

/* Shader names as the scene compares them: case and the slash's direction do not count, every
 * other byte does. */
TEST(shader_names_compare_without_case_and_slash_direction)
{
    EXPECT(mc_scene_shader_equal("Models\\Drone\\Skin", "models/drone/skin"));
    EXPECT(mc_scene_shader_equal("", ""));
    EXPECT(mc_scene_shader_equal("01 - Default", "01 - DEFAULT"));
    EXPECT(!mc_scene_shader_equal("models/drone/skin", "models/drone/skin2"));
    EXPECT(!mc_scene_shader_equal("skin", ""));
    EXPECT(!mc_scene_shader_equal("a_b", "a-b"));
    EXPECT(!mc_scene_shader_equal("x/y", "x.y"));
}
