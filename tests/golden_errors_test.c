/* One row per validation rule of the three MD5 formats, of the token reader and of the game's
 * declarations md5cine reads for sound (sound shaders, entityDefs, a model's frame commands):
 * the input, the status, the line and column of the offending token (counted by hand in the
 * input, 1-based, columns in bytes) and a part of the message.
 *
 * The inputs are built from small valid templates (checked to parse in
 * valid_templates_parse) with one line changed, so the bad token's line is the template line
 * that was replaced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/entitydef.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5camera.h>
#include <md5cine/md5mesh.h>
#include <md5cine/scene.h>
#include <md5cine/sndshd.h>

#include "formats/modeldef.h"
#include "test.h"

/* SNDSHD and ENTITYDEF: the first declaration of the input, indexed as a sound/ or def/ file;
 * MODELDEF: its first model declaration. */
/* SCENE: a scene file, parsed only (no file it names is read). */
typedef enum fmt { MESH, ANIM, CAMERA, SNDSHD, ENTITYDEF, MODELDEF, SCENE } fmt;

typedef struct golden {
    const char *name;
    fmt format;
    const char *input;
    size_t len; /* 0: strlen(input) */
    mc_status code;
    int line, col;
    const char *msg;
} golden;

/* Lines 1-2. */
#define H "MD5Version 10\ncommandline \"\"\n"

/* md5mesh template: lines 3-7 joints, 8-9 mesh and shader, 10-11 verts, 12-13 tris,
 * 14-16 weights and the closing brace. */
#define M_JOINTS H "numJoints 1\nnumMeshes 1\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
#define M_SHADER "mesh {\nshader \"s\"\n"
#define M_VERTS "numverts 1\nvert 0 ( 0 0 ) 0 1\n"
#define M_TRIS "numtris 1\ntri 0 0 0 0\n"
#define M_WEIGHTS "numweights 1\nweight 0 0 1 ( 0 0 0 )\n}\n"
#define M_OK M_JOINTS M_SHADER M_VERTS M_TRIS M_WEIGHTS
/* Lines 1-5; a joint line of the row's own follows on line 6. */
#define M_ONE_JOINT H "numJoints 1\nnumMeshes 0\njoints {\n"
/* Lines 1-5 for two joints: joint lines 6 and 7 follow. */
#define M_TWO_JOINTS H "numJoints 2\nnumMeshes 0\njoints {\n"

/* md5anim template: 3-6 counts, 7-9 hierarchy, 10-12 bounds, 13-15 baseframe, 16-18 frame 0. */
#define A_COUNTS H "numFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 6\n"
#define A_HIER "hierarchy {\n\"a\" -1 63 0\n}\n"
#define A_BOUNDS "bounds {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
#define A_BASE "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\n"
#define A_FRAME "frame 0 {\n0 0 0 0 0 0\n}\n"
#define A_OK A_COUNTS A_HIER A_BOUNDS A_BASE A_FRAME
/* Two joints, 12 components: lines 3-6, then "hierarchy {" on 7 and joint lines 8 and 9. */
#define A_TWO H "numFrames 1\nnumJoints 2\nframeRate 24\nnumAnimatedComponents 12\nhierarchy {\n"

/* md5camera template: 3-5 counts, 6-8 cuts, 9-13 frames. */
#define C_COUNTS H "numFrames 3\nframeRate 24\nnumCuts 1\n"
#define C_CUTS "cuts {\n1\n}\n"
#define C_FRAMES                                                                           \
    "camera {\n( 0 0 0 ) ( 0 0 0 ) 90\n( 0 0 0 ) ( 0 0 0 ) 90\n( 0 0 0 ) ( 0 0 0 ) 90\n}\n"
#define C_OK C_COUNTS C_CUTS C_FRAMES

/* Lines 1-2 of a model declaration whose anim w's block the row's line 3 continues. */
#define MD_ANIM "model a {\n anim w x.md5anim {\n"

/* Lines 1-2 of a scene file; line 3 is the row's. */
#define SC_HEAD "md5scene 1\ncamera \"c\"\n"

/* A comment line that keeps the counts' checks against the bytes left in the file quiet where a
 * row ends early on purpose. */
#define PAD "// ..............................................................................\n"

static const golden table[] = {
    /* ---- token reader (through the md5mesh joint line 6: "a" -1 ( x ...; the first vector
     * value is at column 10) ---- */
    { "lex_nan_is_not_a_number", MESH, M_ONE_JOINT "\"a\" -1 ( nan 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_SYNTAX, 6, 10, "expected number, found 'nan'" },
    { "lex_inf_is_not_a_number", MESH, M_ONE_JOINT "\"a\" -1 ( inf 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_SYNTAX, 6, 10, "expected number, found 'inf'" },
    { "lex_rejects_1_#INF", MESH, M_ONE_JOINT "\"a\" -1 ( 1.#INF 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_SYNTAX, 6, 10, "malformed number '1.#INF'" },
    { "lex_rejects_two_dots", MESH, M_ONE_JOINT "\"a\" -1 ( 1.2.3 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_SYNTAX, 6, 10, "malformed number '1.2.3'" },
    { "lex_rejects_a_suffix", MESH, M_ONE_JOINT "\"a\" -1 ( 1.5f 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_SYNTAX, 6, 10, "malformed number '1.5f'" },
    { "lex_rejects_a_double_overflow", MESH, M_ONE_JOINT "\"a\" -1 ( 1e999 0 0 ) ( 0 0 0 )\n}\n",
      0, MC_ERR_RANGE, 6, 10, "number '1e999' is out of range" },
    { "lex_rejects_a_float_overflow", MESH, M_ONE_JOINT "\"a\" -1 ( 1e39 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 6, 10, "number '1e39' is out of range" },
    /* parent at column 5 */
    { "lex_rejects_an_int_overflow", MESH,
      M_ONE_JOINT "\"a\" 2147483648 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0, MC_ERR_RANGE, 6, 5,
      "integer '2147483648' is out of range" },
    { "lex_rejects_a_fraction_where_an_integer_is_read", MESH,
      M_ONE_JOINT "\"a\" -1.5 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0, MC_ERR_SYNTAX, 6, 5,
      "expected integer, found '-1.5'" },
    { "lex_rejects_a_newline_inside_a_string", MESH, M_ONE_JOINT "\"a\nb\" -1\n", 0,
      MC_ERR_SYNTAX, 6, 1, "newline inside string" },
    { "lex_rejects_a_missing_closing_quote", MESH, M_ONE_JOINT "  \"abc", 0, MC_ERR_SYNTAX, 6, 3,
      "missing closing quote" },
    { "lex_rejects_an_unterminated_comment", MESH, M_ONE_JOINT "\"a\" /* -1\n\n", 0,
      MC_ERR_SYNTAX, 6, 5, "unterminated comment" },
    { "lex_rejects_a_high_byte_outside_strings", MESH, M_ONE_JOINT "caf\xE9 -1", 0,
      MC_ERR_SYNTAX, 6, 4, "unexpected byte 0xe9" },
    { "lex_rejects_a_control_byte", MESH, M_ONE_JOINT "\"a\" \x07", 0, MC_ERR_SYNTAX, 6, 5,
      "unexpected byte 0x07" },
    /* 5 header lines (H is 28 bytes + "numJoints 1\nnumMeshes 0\njoints {\n" 33 bytes = 61),
     * then "\"a\" " and a NUL byte at column 5 of line 6; len = 61 + 4 + 1 + 2. */
    { "lex_rejects_a_nul_byte", MESH, M_ONE_JOINT "\"a\" \0 1", 68, MC_ERR_SYNTAX, 6, 5,
      "NUL" },
    { "lex_rejects_an_unknown_character", MESH, M_ONE_JOINT "\"a\" -1 [", 0, MC_ERR_SYNTAX, 6, 8,
      "unexpected character '['" },

    /* ---- header (all three formats share it) ---- */
    { "header_needs_md5version", MESH, "\n  numJoints 1", 0, MC_ERR_SYNTAX, 2, 3,
      "expected 'MD5Version', found 'numJoints'" },
    /* a first word no MD5 file starts with: named with no position, none of its text quoted */
    { "header_names_a_foreign_file_without_quoting_it", CAMERA, "root:x:0:0:root:/root\n", 0,
      MC_ERR_SYNTAX, 0, 0,
      "not an MD5 file: it does not start with 'MD5Version' (its text is not shown)" },
    { "header_rejects_a_missing_version_strictly", ANIM, "commandline \"\"\n", 0, MC_ERR_SYNTAX,
      1, 1, "expected 'MD5Version', found 'commandline'" },
    { "header_needs_version_10", CAMERA, "MD5Version 11\n", 0, MC_ERR_RANGE, 1, 12,
      "unsupported 'MD5Version' 11, expected 10" },
    { "header_needs_commandline", MESH, "MD5Version 10\nnumJoints 1\n", 0, MC_ERR_SYNTAX, 2, 1,
      "expected 'commandline', found 'numJoints'" },
    { "header_commandline_needs_a_value", CAMERA, "MD5Version 10\ncommandline {", 0,
      MC_ERR_SYNTAX, 2, 13, "expected a string, found '{'" },
    { "empty_file", MESH, "", 0, MC_ERR_SYNTAX, 1, 1, "found end of file" },

    /* ---- md5mesh ---- */
    { "mesh_num_joints_not_negative", MESH, H "numJoints -1\n", 0, MC_ERR_RANGE, 3, 11,
      "invalid 'numJoints' -1, expected at least 0" },
    { "mesh_num_joints_fits_the_file", MESH, H "numJoints 10000\nnumMeshes 0\n", 0,
      MC_ERR_LIMIT, 3, 11, "'numJoints' 10000 needs at least" },
    { "mesh_num_meshes_not_negative", MESH, H "numJoints 0\nnumMeshes -2\n", 0, MC_ERR_RANGE, 4,
      11, "invalid 'numMeshes' -2" },
    { "mesh_parent_not_below_minus_one", MESH, M_ONE_JOINT "\"a\" -2 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 6, 5, "invalid parent -2 for joint 0 'a'" },
    { "mesh_parent_not_itself", MESH, M_ONE_JOINT "\"a\" 0 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 6, 5, "invalid parent 0 for joint 0 'a'" },
    { "mesh_parent_comes_earlier", MESH,
      M_TWO_JOINTS "\"a\" 1 ( 0 0 0 ) ( 0 0 0 )\n\"b\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 6, 5, "invalid parent 1 for joint 0 'a'" },
    { "mesh_fewer_joints_than_declared", MESH,
      M_TWO_JOINTS "\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n", 0, MC_ERR_SYNTAX, 7, 1,
      "expected a string, found '}'" },
    { "mesh_fewer_meshes_than_declared", MESH,
      H "numJoints 0\nnumMeshes 2\njoints { }\n" M_SHADER "numverts 0 numtris 0 numweights 0 }\n",
      0, MC_ERR_SYNTAX, 9, 1, "expected 'mesh', found end of file" },
    { "mesh_shader_keyword", MESH, M_JOINTS "mesh {\nshade \"s\"\n", 0, MC_ERR_SYNTAX, 9, 1,
      "expected 'shader', found 'shade'" },
    { "mesh_numverts_not_negative", MESH, M_JOINTS M_SHADER "numverts -1\n", 0, MC_ERR_RANGE, 10,
      10, "invalid 'numverts' -1" },
    { "mesh_numverts_fits_the_file", MESH, M_JOINTS M_SHADER "numverts 100000\n" M_TRIS M_WEIGHTS,
      0, MC_ERR_LIMIT, 10, 10, "'numverts' 100000 needs at least" },
    { "mesh_numverts_under_the_limit", MESH, M_JOINTS M_SHADER "numverts 1073741824\n", 0,
      MC_ERR_LIMIT, 10, 10, "over the limit" },
    { "mesh_vert_numbers_in_order", MESH,
      M_JOINTS M_SHADER "numverts 1\nvert 1 ( 0 0 ) 0 1\n" M_TRIS M_WEIGHTS, 0, MC_ERR_RANGE, 11,
      6, "'vert' number 1 is out of order, expected 0" },
    /* "vert 0 ( 0 0 ) " is 15 bytes: the first weight at column 16, the count at 18 */
    { "mesh_vert_first_weight_not_negative", MESH,
      M_JOINTS M_SHADER "numverts 1\nvert 0 ( 0 0 ) -1 1\n" M_TRIS M_WEIGHTS, 0, MC_ERR_RANGE,
      11, 16, "vertex 0 has a negative first weight -1" },
    { "mesh_vert_has_a_weight", MESH,
      M_JOINTS M_SHADER "numverts 1\nvert 0 ( 0 0 ) 0 0\n" M_TRIS M_WEIGHTS, 0, MC_ERR_RANGE, 11,
      18, "vertex 0 has 0 weights, expected at least 1" },
    { "mesh_vert_weights_inside_numweights", MESH,
      M_JOINTS M_SHADER "numverts 1\nvert 0 ( 0 0 ) 0 2\n" M_TRIS M_WEIGHTS, 0, MC_ERR_RANGE, 11,
      16, "vertex 0 uses weights 0 to 1 but the mesh has 1 weights" },
    { "mesh_numtris_not_negative", MESH, M_JOINTS M_SHADER M_VERTS "numtris -3\n", 0,
      MC_ERR_RANGE, 12, 9, "invalid 'numtris' -3" },
    { "mesh_tri_numbers_in_order", MESH,
      M_JOINTS M_SHADER M_VERTS "numtris 1\ntri 5 0 0 0\n" M_WEIGHTS, 0, MC_ERR_RANGE, 13, 5,
      "'tri' number 5 is out of order, expected 0" },
    { "mesh_tri_index_below_numverts", MESH,
      M_JOINTS M_SHADER M_VERTS "numtris 1\ntri 0 0 0 1\n" M_WEIGHTS, 0, MC_ERR_RANGE, 13, 11,
      "triangle 0 uses vertex 1 but the mesh has 1 vertices" },
    { "mesh_tri_index_not_negative", MESH,
      M_JOINTS M_SHADER M_VERTS "numtris 1\ntri 0 0 -1 0\n" M_WEIGHTS, 0, MC_ERR_RANGE, 13, 9,
      "triangle 0 uses vertex -1" },
    { "mesh_numweights_not_negative", MESH, M_JOINTS M_SHADER M_VERTS M_TRIS "numweights -1\n", 0,
      MC_ERR_RANGE, 14, 12, "invalid 'numweights' -1" },
    { "mesh_weight_numbers_in_order", MESH,
      M_JOINTS M_SHADER M_VERTS M_TRIS "numweights 1\nweight 2 0 1 ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 15, 8, "'weight' number 2 is out of order, expected 0" },
    { "mesh_weight_joint_in_range", MESH,
      M_JOINTS M_SHADER M_VERTS M_TRIS "numweights 1\nweight 0 1 1 ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 15, 10, "weight 0 uses joint 1 but the mesh has 1 joint" },
    { "mesh_weight_joint_not_negative", MESH,
      M_JOINTS M_SHADER M_VERTS M_TRIS "numweights 1\nweight 0 -1 1 ( 0 0 0 )\n}\n", 0,
      MC_ERR_RANGE, 15, 10, "weight 0 uses joint -1" },
    { "mesh_weights_on_a_mesh_without_joints", MESH,
      H "numJoints 0\nnumMeshes 1\njoints {\n}\n" M_SHADER M_VERTS M_TRIS M_WEIGHTS, 0,
      MC_ERR_RANGE, 14, 10, "weight 0 uses joint 0 but the mesh has 0 joints" },
    { "mesh_block_closes", MESH,
      M_JOINTS M_SHADER M_VERTS M_TRIS "numweights 1\nweight 0 0 1 ( 0 0 0 )\nweight\n", 0,
      MC_ERR_SYNTAX, 16, 1, "expected '}', found 'weight'" },
    { "mesh_nothing_after_the_data", MESH, M_OK "junk", 0, MC_ERR_SYNTAX, 17, 1,
      "unexpected 'junk' after the end of the file's data" },

    /* ---- md5anim ---- */
    { "anim_num_frames_at_least_one", ANIM, H "numFrames 0\n", 0, MC_ERR_RANGE, 3, 11,
      "invalid 'numFrames' 0, expected at least 1" },
    { "anim_num_frames_fits_the_file", ANIM, H "numFrames 500000\nnumJoints 1\n", 0,
      MC_ERR_LIMIT, 3, 11, "'numFrames' 500000 needs at least" },
    { "anim_num_joints_at_least_one", ANIM, H "numFrames 1\nnumJoints 0\n", 0, MC_ERR_RANGE, 4,
      11, "invalid 'numJoints' 0, expected at least 1" },
    { "anim_frame_rate_at_least_one", ANIM, H "numFrames 1\nnumJoints 1\nframeRate 0\n" PAD, 0,
      MC_ERR_RANGE, 5, 11, "invalid 'frameRate' 0, expected at least 1" },
    { "anim_frame_rate_is_an_integer", ANIM, H "numFrames 1\nnumJoints 1\nframeRate 29.97\n" PAD, 0,
      MC_ERR_SYNTAX, 5, 11, "expected integer, found '29.97'" },
    { "anim_components_not_negative", ANIM,
      H "numFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents -1\n" PAD, 0, MC_ERR_RANGE, 6,
      23, "invalid 'numAnimatedComponents' -1, expected 0 to 6" },
    { "anim_components_at_most_six_per_joint", ANIM,
      H "numFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 7\n" PAD, 0, MC_ERR_RANGE, 6,
      23, "invalid 'numAnimatedComponents' 7, expected 0 to 6" },
    { "anim_frames_of_components_fit_the_file", ANIM,
      H "numFrames 50\nnumJoints 10\nframeRate 24\nnumAnimatedComponents 60\n"
        "hierarchy { } ........................................................................"
        "............................................................................ ........."
        "........................................................................... .........."
        "...........................................................................  .........."
        ".................................................................. ..................."
        "............................................................................ ........"
        ".......................................................................... ..........."
        "...........................................................................  .........",
      0, MC_ERR_LIMIT, 6, 23, "50 frames of 60 values need at least 6000 bytes" },
    { "anim_parent_comes_earlier", ANIM, A_TWO "\"a\" -1 63 0\n\"b\" 1 63 6\n}\n", 0, MC_ERR_RANGE,
      9, 5, "invalid parent 1 for joint 1 'b'" },
    { "anim_first_joint_is_the_root", ANIM, A_COUNTS "hierarchy {\n\"a\" 0 63 0\n}\n", 0,
      MC_ERR_RANGE, 8, 5, "invalid parent 0 for joint 0 'a'" },
    { "anim_parent_not_below_minus_one", ANIM, A_COUNTS "hierarchy {\n\"a\" -7 63 0\n}\n", 0,
      MC_ERR_RANGE, 8, 5, "invalid parent -7" },
    { "anim_only_one_root", ANIM, A_TWO "\"a\" -1 63 0\n\"b\" -1 63 6\n}\n", 0, MC_ERR_RANGE, 9, 5,
      "joint 1 'b' is a second root" },
    { "anim_flags_six_bits", ANIM, A_COUNTS "hierarchy {\n\"a\" -1 64 0\n}\n", 0, MC_ERR_RANGE, 8,
      8, "invalid flags 64 for joint 'a', expected 0 to 63" },
    { "anim_flags_not_negative", ANIM, A_COUNTS "hierarchy {\n\"a\" -1 -1 0\n}\n", 0,
      MC_ERR_RANGE, 8, 8, "invalid flags -1" },
    { "anim_first_not_negative", ANIM, A_COUNTS "hierarchy {\n\"a\" -1 63 -1\n}\n", 0,
      MC_ERR_RANGE, 8, 11, "joint 'a' reads values -1 to 4" },
    { "anim_first_plus_flags_inside_components", ANIM,
      A_TWO "\"a\" -1 63 0\n\"b\" 0 7 10\n}\n", 0, MC_ERR_RANGE, 9, 9,
      "joint 'b' reads values 10 to 12 but frames have 12" },
    /* "a" -1 7 2147483647: three values from the largest int (found by fuzzing: the message
     * once overflowed int) */
    { "anim_first_near_int_max", ANIM, A_COUNTS "hierarchy {\n\"a\" -1 7 2147483647\n}\n", 0,
      MC_ERR_RANGE, 8, 10, "joint 'a' reads values 2147483647 to 2147483649 but frames have 6" },
    { "anim_bounds_not_fewer_than_frames", ANIM,
      A_COUNTS A_HIER "bounds {\n}\n" A_BASE A_FRAME, 0, MC_ERR_RANGE, 11, 1,
      "'bounds' has 0 entries but 'numFrames' is 1" },
    { "anim_bounds_not_more_than_frames", ANIM,
      A_COUNTS A_HIER "bounds {\n( 0 0 0 ) ( 0 0 0 )\n  ( 0 0 0 ) ( 0 0 0 )\n}\n" A_BASE A_FRAME,
      0, MC_ERR_RANGE, 12, 3, "'bounds' has 2 entries but 'numFrames' is 1" },
    { "anim_baseframe_has_every_joint", ANIM, A_COUNTS A_HIER A_BOUNDS "baseframe {\n}\n", 0,
      MC_ERR_SYNTAX, 14, 1, "expected '(', found '}'" },
    { "anim_frame_numbers_in_order", ANIM,
      A_COUNTS A_HIER A_BOUNDS A_BASE "frame 1 {\n0 0 0 0 0 0\n}\n", 0, MC_ERR_RANGE, 16, 7,
      "'frame' number 1 is out of order, expected 0" },
    { "anim_frame_not_fewer_values", ANIM,
      A_COUNTS A_HIER A_BOUNDS A_BASE "frame 0 {\n0 0 0 0 0\n}\n", 0, MC_ERR_RANGE, 18, 1,
      "frame 0 has 5 values, expected 6" },
    { "anim_frame_not_more_values", ANIM,
      A_COUNTS A_HIER A_BOUNDS A_BASE "frame 0 {\n0 0 0 0 0 0 7 8\n}\n", 0, MC_ERR_RANGE, 17, 13,
      "frame 0 has 8 values, expected 6" },
    { "anim_frame_values_are_numbers", ANIM,
      A_COUNTS A_HIER A_BOUNDS A_BASE "frame 0 {\n0 0 nan 0 0 0\n}\n", 0, MC_ERR_SYNTAX, 17, 5,
      "expected number, found 'nan'" },
    { "anim_every_frame_present", ANIM, A_COUNTS A_HIER A_BOUNDS A_BASE, 0, MC_ERR_SYNTAX, 16, 1,
      "expected 'frame', found end of file" },
    { "anim_nothing_after_the_data", ANIM, A_OK "frame 1 { }", 0, MC_ERR_SYNTAX, 19, 1,
      "unexpected 'frame' after the end of the file's data" },

    /* ---- md5camera ---- */
    { "camera_num_frames_at_least_one", CAMERA, H "numFrames 0\n", 0, MC_ERR_RANGE, 3, 11,
      "invalid 'numFrames' 0, expected at least 1" },
    { "camera_num_frames_fits_the_file", CAMERA, H "numFrames 1000\nframeRate 24\n", 0,
      MC_ERR_LIMIT, 3, 11, "'numFrames' 1000 needs at least" },
    { "camera_frame_rate_at_least_one", CAMERA, H "numFrames 3\nframeRate 0\n" PAD, 0, MC_ERR_RANGE,
      4, 11, "invalid 'frameRate' 0, expected 1 to 1000" },
    { "camera_frame_rate_at_most_1000", CAMERA, H "numFrames 3\nframeRate 1001\n" PAD, 0,
      MC_ERR_RANGE, 4, 11, "invalid 'frameRate' 1001, expected 1 to 1000" },
    { "camera_frame_rate_1000_is_accepted_up_to_the_cuts", CAMERA,
      H "numFrames 3\nframeRate 1000\nnumCuts -1\n" PAD, 0, MC_ERR_RANGE, 5, 9,
      "invalid 'numCuts' -1" },
    { "camera_frame_rate_not_negative", CAMERA, H "numFrames 3\nframeRate -24\n" PAD, 0,
      MC_ERR_RANGE, 4, 11, "invalid 'frameRate' -24" },
    { "camera_frame_rate_is_an_integer", CAMERA, H "numFrames 3\nframeRate 29.97\n" PAD, 0,
      MC_ERR_SYNTAX, 4, 11, "expected integer, found '29.97'" },
    { "camera_num_cuts_not_negative", CAMERA, H "numFrames 3\nframeRate 24\nnumCuts -1\n" PAD, 0,
      MC_ERR_RANGE, 5, 9, "invalid 'numCuts' -1" },
    { "camera_num_cuts_at_most_num_frames", CAMERA,
      H "numFrames 3\nframeRate 24\nnumCuts 4\ncuts { 1 2 3 4 } camera { ( 0 0 0 ) ( 0 0 0 ) 90"
        " ( 0 0 0 ) ( 0 0 0 ) 90 ( 0 0 0 ) ( 0 0 0 ) 90 }\n",
      0, MC_ERR_RANGE, 5, 9, "invalid 'numCuts' 4, expected at most 'numFrames' (3)" },
    { "camera_cut_at_least_one", CAMERA, C_COUNTS "cuts {\n0\n}\n" C_FRAMES, 0, MC_ERR_RANGE, 7, 1,
      "cut 0 is out of range: cuts are 1 to 2" },
    { "camera_cut_below_num_frames", CAMERA, C_COUNTS "cuts {\n3\n}\n" C_FRAMES, 0, MC_ERR_RANGE,
      7, 1, "cut 3 is out of range: cuts are 1 to 2" },
    { "camera_no_cut_in_a_one_frame_camera", CAMERA,
      H "numFrames 1\nframeRate 24\nnumCuts 1\ncuts {\n1\n}\ncamera { ( 0 0 0 ) ( 0 0 0 ) 90 }",
      0, MC_ERR_RANGE, 7, 1, "a camera with one frame has no cuts" },
    { "camera_cuts_strictly_increasing", CAMERA,
      H "numFrames 3\nframeRate 24\nnumCuts 2\ncuts {\n1\n1\n}\n" C_FRAMES, 0, MC_ERR_RANGE, 8,
      1, "cut 1 does not come after the cut before it (1)" },
    { "camera_cuts_not_decreasing", CAMERA,
      H "numFrames 4\nframeRate 24\nnumCuts 2\ncuts {\n2 1\n}\n" C_FRAMES, 0, MC_ERR_RANGE, 7, 3,
      "cut 1 does not come after the cut before it (2)" },
    { "camera_cuts_closed", CAMERA, C_COUNTS "cuts {\n1 2\n}\n" C_FRAMES, 0, MC_ERR_SYNTAX, 7, 3,
      "expected '}', found '2'" },
    { "camera_fov_above_zero", CAMERA,
      C_COUNTS C_CUTS "camera {\n( 0 0 0 ) ( 0 0 0 ) 0\n", 0, MC_ERR_RANGE, 10, 21,
      "field of view 0 of camera frame 0 is out of range" },
    { "camera_fov_below_180", CAMERA,
      C_COUNTS C_CUTS "camera {\n( 0 0 0 ) ( 0 0 0 ) 90\n( 0 0 0 ) ( 0 0 0 ) 180\n", 0,
      MC_ERR_RANGE, 11, 21, "field of view 180 of camera frame 1 is out of range" },
    { "camera_every_frame_present", CAMERA,
      C_COUNTS C_CUTS "camera {\n( 0 0 0 ) ( 0 0 0 ) 90\n}\n", 0, MC_ERR_SYNTAX, 11, 1,
      "expected '(', found '}'" },
    { "camera_nothing_after_the_data", CAMERA, C_OK "\n\n  }", 0, MC_ERR_SYNTAX, 16, 3,
      "unexpected '}' after the end of the file's data" },

    /* ---- sound shaders (idSoundShader::ParseShader) ---- */
    { "sndshd_sound_class_0_to_3", SNDSHD, "x {\n soundClass 4\n}", 0, MC_ERR_RANGE, 2, 13,
      "soundClass 4 is out of range 0 to 3" },
    { "sndshd_volume_needs_a_number", SNDSHD, "x {\n volume loud\n}", 0, MC_ERR_SYNTAX, 2, 9,
      "expected number, found 'loud'" },
    { "sndshd_reverb_needs_a_comma", SNDSHD, "x {\n reverb 0.5 0.25\n}", 0, MC_ERR_SYNTAX, 2,
      13, "expected ',' between reverb's values, found '0.25'" },
    { "sndshd_min_samples_is_whole", SNDSHD, "x {\n minSamples 2.5\n}", 0, MC_ERR_SYNTAX, 2,
      13, "expected integer, found '2.5'" },
    { "sndshd_leadin_needs_a_file", SNDSHD, "x {\n leadin }", 0, MC_ERR_SYNTAX, 2, 9,
      "expected a name after 'leadin', found '}'" },
    { "sndshd_alt_sound_needs_a_name", SNDSHD, "x {\n altSound\n}", 0, MC_ERR_SYNTAX, 3, 1,
      "expected a name after 'altSound', found '}'" },
    { "sndshd_needs_its_closing_brace", SNDSHD, "x { a.wav", 0, MC_ERR_SYNTAX, 1, 3,
      "sound shader 'x' has no closing '}' for this '{'" },
    { "sndshd_reads_tokens_as_a_material", SNDSHD, "x {\n sound/foo-bar.wav\n}", 0,
      MC_ERR_SYNTAX, 2, 11, "unexpected character '-'" },

    /* ---- entityDefs (idDeclEntityDef::Parse) ---- */
    { "entitydef_keys_are_quoted", ENTITYDEF, "entityDef a {\n key \"v\"\n}", 0, MC_ERR_SYNTAX,
      2, 2, "expected a quoted key in entityDef 'a', found 'key'" },
    { "entitydef_key_needs_a_value", ENTITYDEF, "entityDef a {\n \"k\"\n}", 0, MC_ERR_SYNTAX, 2,
      2, "key '\"k\"' of entityDef 'a' has no value" },
    { "entitydef_a_value_is_no_brace", ENTITYDEF, "entityDef a {\n \"k\" {\n}", 0,
      MC_ERR_SYNTAX, 2, 2, "key '\"k\"' of entityDef 'a' has no value" },
    { "entitydef_value_string_closed_on_its_line", ENTITYDEF, "entityDef a {\n \"k\" \"v\n}", 0,
      MC_ERR_SYNTAX, 2, 6, "string cut by the end of its line in entityDef 'a'" },
    { "entitydef_key_string_closed_on_its_line", ENTITYDEF, "entityDef a {\n \"k\n}", 0,
      MC_ERR_SYNTAX, 2, 2, "string cut by the end of its line in entityDef 'a'" },

    /* ---- frame commands of a model's anim (ParseAnim, idAnim::AddFrameCommand); line 3 is
     * the command's ---- */
    { "modeldef_frame_needs_its_number", MODELDEF, MD_ANIM " frame\n 1 footstep }\n}", 0,
      MC_ERR_SYNTAX, 3, 2, "missing frame number after 'frame'" },
    { "modeldef_frame_number_is_whole", MODELDEF, MD_ANIM " frame 1.5 footstep }\n}", 0,
      MC_ERR_SYNTAX, 3, 8, "expected a whole frame number after 'frame', found '1.5'" },
    { "modeldef_frame_counts_from_1", MODELDEF, MD_ANIM " frame 0 footstep }\n}", 0,
      MC_ERR_RANGE, 3, 8, "frame 0 out of range: frames count from 1" },
    { "modeldef_frame_not_negative", MODELDEF, MD_ANIM " frame -2 footstep }\n}", 0,
      MC_ERR_RANGE, 3, 8, "frame -2 out of range" },
    { "modeldef_frame_not_a_minus", MODELDEF, MD_ANIM " frame - footstep }\n}", 0,
      MC_ERR_SYNTAX, 3, 8, "expected a whole frame number after 'frame', found '-'" },
    { "modeldef_frame_needs_a_command_on_its_line", MODELDEF, MD_ANIM " frame 3\n footstep }\n}",
      0, MC_ERR_SYNTAX, 3, 8, "expected a command after 'frame 3', found the end of the line" },
    { "modeldef_frame_command_is_no_brace", MODELDEF, MD_ANIM " frame 3 }\n}", 0,
      MC_ERR_SYNTAX, 3, 10, "expected a command after 'frame 3', found '}'" },
    { "modeldef_command_needs_its_argument_on_its_line", MODELDEF,
      MD_ANIM " frame 3 sound_body\n snd_x }\n}", 0, MC_ERR_SYNTAX, 3, 10,
      "'sound_body' needs 1 argument on its line, found the end of the line" },
    { "modeldef_command_argument_is_no_brace", MODELDEF,
      MD_ANIM " frame 3 fire_missile_at_target j }\n}", 0, MC_ERR_SYNTAX, 3, 35,
      "'fire_missile_at_target' needs 2 arguments on its line, found '}'" },
    { "modeldef_frame_block_holds_no_punctuation", MODELDEF, MD_ANIM " ( }\n}", 0,
      MC_ERR_SYNTAX, 3, 2, "unexpected '(' in the frame commands of anim 'w'" },
    { "scene_sound_needs_at", SCENE, SC_HEAD "sound \"x\" { channel voice }", 0, MC_ERR_SYNTAX,
      3, 7, "sound 'x' has no 'at'" },
    { "scene_sound_channel_is_the_engines", SCENE, SC_HEAD "sound \"x\" { at 1 channel mouth }",
      0, MC_ERR_SYNTAX, 3, 26, "unknown channel 'mouth'" },
    { "scene_sound_actor_is_in_the_scene", SCENE, SC_HEAD "sound \"x\" { at 1 actor \"a\" }", 0,
      MC_ERR_SYNTAX, 3, 24, "sound 'x': no actor 'a' in the scene" },
    { "scene_sound_actor_near_name_is_hinted", SCENE,
      SC_HEAD "actor \"walker\" { mesh \"m\" }\nsound \"x\" { at 1 actor \"walkr\" }", 0,
      MC_ERR_SYNTAX, 4, 24, "sound 'x': no actor 'walkr' in the scene (did you mean 'walker'?)" },
    /* a triple's count: at the ')' that comes early, the number that comes late, or where
     * the '(' belongs */
    { "scene_origin_takes_three_numbers", SCENE,
      SC_HEAD "actor \"a\" { mesh \"m\" origin ( 1 2 ) }", 0, MC_ERR_SYNTAX, 3, 35,
      "'origin' takes three numbers ( x y z ), found ')'" },
    { "scene_origin_takes_no_fourth_number", SCENE,
      SC_HEAD "actor \"a\" { mesh \"m\" origin ( 1 2 3 4 ) }", 0, MC_ERR_SYNTAX, 3, 37,
      "'origin' takes three numbers ( x y z ), found '4'" },
    { "scene_origin_is_in_parentheses", SCENE, SC_HEAD "actor \"a\" { mesh \"m\" origin 1 2 3 }", 0,
      MC_ERR_SYNTAX, 3, 29, "'origin' takes three numbers ( x y z ), found '1'" },
    { "scene_background_takes_three_numbers", SCENE, SC_HEAD "output { background ( 1 1 ) }", 0,
      MC_ERR_SYNTAX, 3, 27, "'background' takes three numbers ( r g b ), found ')'" },
    { "scene_sound_at_not_negative", SCENE, SC_HEAD "sound \"x\" { at -2 }", 0, MC_ERR_RANGE, 3,
      16, "invalid 'at' -2, expected 0 to 1e+06" },
    { "scene_seed_in_range", SCENE, SC_HEAD "seed -5", 0, MC_ERR_RANGE, 3, 6,
      "invalid 'seed'" },
    { "scene_rebase_root_is_a_flag", SCENE, SC_HEAD "actor \"a\" { mesh \"m\" rebase_root 2 }",
      0, MC_ERR_RANGE, 3, 34, "invalid 'rebase_root' 2, expected 0 to 1" },
    { "scene_actor_key_once", SCENE,
      SC_HEAD "actor \"a\" { mesh \"m\" key \"k\" \"1\" key \"K\" \"2\" }", 0, MC_ERR_SYNTAX,
      3, 38, "duplicate key 'k' (first given at line 3)" },
    /* an anim line holds at most ANIM_MaxSyncedAnims (Anim.h) files, each an .md5anim */
    { "modeldef_at_most_3_synced_files", MODELDEF,
      "model a {\n anim w a.md5anim, b.md5anim, c.md5anim, d.md5anim\n}", 0, MC_ERR_LIMIT, 2,
      42, "more than 3 synced files for anim 'w'" },
    { "modeldef_synced_file_is_an_md5anim", MODELDEF, "model a {\n anim w a.md5anim, b.md5\n}",
      0, MC_ERR_SYNTAX, 2, 20, "expected a .md5anim file for anim 'w', found 'b.md5'" },
    /* a declaration's files are game paths inside the base: no '..', no absolute path (the
     * engine's file system refuses them: FileSystem.cpp, idFileSystemLocal::OpenFileReadFlags) */
    { "modeldef_mesh_does_not_leave_the_base", MODELDEF, "model a {\n mesh ../x.md5mesh\n}", 0,
      MC_ERR_SYNTAX, 2, 7, "mesh '../x.md5mesh' leaves the base" },
    { "modeldef_anim_file_is_not_absolute", MODELDEF, "model a {\n anim w /x.md5anim\n}", 0,
      MC_ERR_SYNTAX, 2, 9, "anim file '/x.md5anim' leaves the base" },
    /* a duplicate found after a remove line came first */
    { "modeldef_duplicate_after_a_remove", MODELDEF,
      "model a {\n remove p\n anim w x.md5anim\n anim w y.md5anim\n}", 0, MC_ERR_SYNTAX, 4, 7,
      "duplicate anim 'w' (first given at line 3)" },
    { "modeldef_synced_file_does_not_leave_the_base", MODELDEF,
      "model a {\n anim w a.md5anim, \"m/../../y.md5anim\"\n}", 0, MC_ERR_SYNTAX, 2, 20,
      "anim file 'm/../../y.md5anim' leaves the base" },
};

/* The first declaration of type `type` (indexed as a file of a folder of that type) parsed by
 * SNDSHD's or ENTITYDEF's parser. */
static mc_status parse_decl(fmt f, const char *text, size_t len, mc_error *err)
{
    const char *type = f == SNDSHD ? "sound" : "entityDef";
    mc_mtr_index idx;
    mc_status s = mc_decl_index_text(text, len, "g", type, type, NULL, &idx, err);

    if (s == MC_OK && idx.num_spans == 0)
        s = mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "nothing indexed");
    if (s == MC_OK && f == SNDSHD) {
        mc_sndshd sh;

        s = mc_sndshd_parse_span(text, len, "g", &idx.spans[0], NULL, &sh, err);
        mc_sndshd_release(&sh);
    } else if (s == MC_OK) {
        mc_entitydef d;

        s = mc_entitydef_parse_span(text, len, "g", &idx.spans[0], NULL, &d, err);
        mc_entitydef_release(&d);
    }
    mc_mtr_index_release(&idx);
    return s;
}

static mc_status parse(fmt f, const char *text, size_t len, mc_error *err)
{
    mc_status s = MC_OK;

    switch (f) {
    case MESH: {
        mc_mesh m;
        s = mc_mesh_parse(text, len, "g", NULL, &m, err);
        mc_mesh_release(&m);
        break;
    }
    case ANIM: {
        mc_anim a;
        s = mc_anim_parse(text, len, "g", NULL, &a, err);
        mc_anim_release(&a);
        break;
    }
    case CAMERA: {
        mc_camera c;
        s = mc_camera_parse(text, len, "g", NULL, &c, err);
        mc_camera_release(&c);
        break;
    }
    case SCENE: {
        mc_scene sc;
        s = mc_scene_parse(text, len, "g", NULL, &sc, err);
        mc_scene_release(&sc);
        break;
    }
    case SNDSHD:
    case ENTITYDEF:
        s = parse_decl(f, text, len, err);
        break;
    case MODELDEF: {
        mc_arena a = { 0 };
        mc_modeldef m;
        bool found;

        s = mc_modeldef_find(text, len, "g", NULL, &a, &m, &found, err);
        if (s == MC_OK && !found)
            s = mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no model declaration");
        mc_arena_release(&a);
        break;
    }
    }
    return s;
}

TEST(valid_templates_parse)
{
    mc_error err;

    EXPECT_OK(parse(MESH, M_OK, strlen(M_OK), &err), &err);
    EXPECT_OK(parse(ANIM, A_OK, strlen(A_OK), &err), &err);
    EXPECT_OK(parse(CAMERA, C_OK, strlen(C_OK), &err), &err);
    static const struct {
        fmt f;
        const char *text;
    } decls[] = {
        { SNDSHD, "x {\n soundClass 3 volume -2 reverb 1, 2\n}" },
        { ENTITYDEF, "entityDef a {\n \"k\" \"v\"\n}" },
        { MODELDEF, MD_ANIM " frame 3 fire_missile_at_target j t }\n}" },
    };

    for (size_t i = 0; i < TEST_COUNT(decls); i++)
        EXPECT_OK(parse(decls[i].f, decls[i].text, strlen(decls[i].text), &err), &err);
}

TEST(every_rule_reports_its_golden_error)
{
    for (size_t i = 0; i < TEST_COUNT(table); i++) {
        const golden *g = &table[i];
        mc_error err;
        size_t len = g->len ? g->len : strlen(g->input);
        mc_status s = parse(g->format, g->input, len, &err);

        if (s != g->code || err.line != g->line || err.col != g->col ||
            !strstr(err.msg, g->msg) || strcmp(err.file, "g") != 0)
            test_fail(__FILE__, __LINE__, "%s: got %s %d:%d \"%s\", expected %s %d:%d \"%s\"",
                      g->name, mc_status_name(s), err.line, err.col, err.msg,
                      mc_status_name(g->code), g->line, g->col, g->msg);
    }
}

/* Rows too long to write out: a model declaration of n anim lines " anim wK x.md5anim" (K from
 * 0, line K + 2) and then the line `last`. */
static char *many_anims(int n, const char *last)
{
    size_t cap = (size_t)n * 32 + 64;
    char *text = malloc(cap);
    size_t len = 0;

    if (!text)
        return NULL;
    len += (size_t)snprintf(text, cap, "model a {\n");
    for (int k = 0; k < n; k++)
        len += (size_t)snprintf(text + len, cap - len, " anim w%d x.md5anim\n", k);
    snprintf(text + len, cap - len, "%s\n}\n", last);
    return text;
}

/* The limits of limits.h that a declaration alone can pass: the anim and remove lines of one
 * model declaration (MC_LIMIT_MODELDEF_ANIMS, 4096: the 4097th at line 4098), and a duplicate
 * found among many (the parser's index of names). */
TEST(limits_report_their_golden_errors)
{
    static const struct {
        const char *name;
        int n;
        const char *last;
        mc_status code;
        int line, col;
        const char *msg;
    } rows[] = {
        { "modeldef_at_most_4096_anims", 4096, " anim more x.md5anim", MC_ERR_LIMIT, 4098, 7,
          "more than 4096 anims in model 'a'" },
        { "modeldef_at_most_4096_removes", 4096, " remove w3", MC_ERR_LIMIT, 4098, 9,
          "more than 4096 anims in model 'a'" },
        { "modeldef_duplicate_among_4000", 4000, " anim w17 y.md5anim", MC_ERR_SYNTAX, 4002, 7,
          "duplicate anim 'w17' (first given at line 19)" },
    };

    for (size_t i = 0; i < TEST_COUNT(rows); i++) {
        char *text = many_anims(rows[i].n, rows[i].last);
        mc_error err;
        mc_status s;

        ASSERT(text != NULL);
        s = parse(MODELDEF, text, strlen(text), &err);
        if (s != rows[i].code || err.line != rows[i].line || err.col != rows[i].col ||
            !strstr(err.msg, rows[i].msg))
            test_fail(__FILE__, __LINE__, "%s: got %s %d:%d \"%s\", expected %s %d:%d \"%s\"",
                      rows[i].name, mc_status_name(s), err.line, err.col, err.msg,
                      mc_status_name(rows[i].code), rows[i].line, rows[i].col, rows[i].msg);
        free(text);
    }
}
