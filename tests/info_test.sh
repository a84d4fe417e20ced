#!/bin/bash
# md5cine info: exact JSON for real files (counts as written in the files' header lines and in
# their SOURCE.md), the camera timeline worked out by hand in tests/timeline_test.c, exit codes,
# and the caret under an error. Runs in tests/ with MD5CINE set to the binary.
set -u
A=data/assets
. ./harness.sh info

# The drone mesh: numJoints 27; its mesh blocks say numverts 836 / numtris 1237 /
# numweights 1104 and 603 / 689 / 835, both with shader "".
capture info --json $A/redeclipse-drone/mesh.md5mesh
check_eq mesh_json '{"type":"md5mesh","joints":27,"meshes":[{"shader":"","verts":836,"tris":1237,"weights":1104},{"shader":"","verts":603,"tris":689,"weights":835}]}' "$out"
check_eq mesh_json_exit 0 "$rc"

# A shader with a raw Latin-1 0xE9 byte: written as the code point U+00E9.
capture info --json $A/redeclipse-quirks/cartridge/mesh.md5mesh
check_eq latin1_shader_json '{"type":"md5mesh","joints":1,"meshes":[{"shader":"01 - Par d\u00e9faut","verts":36,"tris":32,"weights":18}]}' "$out"

# Backslashes in a shader path are escaped.
capture info --json $A/redeclipse-props/luckystrike-banner01/banner.md5mesh
check_eq backslash_shader_json '{"type":"md5mesh","joints":7,"meshes":[{"shader":"C:\\Users\\Remi\\Documents\\Remi\\models\\banner\\bake.tga","verts":122,"tris":142,"weights":122}]}' "$out"

# A tab and a backslash inside a shader string: escaped as \u0009 and \\; a valid UTF-8
# character (U+00E9 as C3 A9) passes through unchanged.
printf 'MD5Version 10\ncommandline ""\nnumJoints 0\nnumMeshes 2\njoints {\n}\nmesh {\nshader "a\tb\\c"\nnumverts 0\nnumtris 0\nnumweights 0\n}\nmesh {\nshader "caf\xc3\xa9"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n' >"$T/escape.md5mesh"
capture info --json "$T/escape.md5mesh"
e_acute=$(printf '\xc3\xa9')
check_eq json_escapes '{"type":"md5mesh","joints":0,"meshes":[{"shader":"a\u0009b\\c","verts":0,"tris":0,"weights":0},{"shader":"caf'"$e_acute"'","verts":0,"tris":0,"weights":0}]}' "$out"

# Not UTF-8: a surrogate (ED A0 80) and an overlong form (E0 80 80) byte by byte; U+10FFFF
# (F4 8F BF BF) is valid and passes through.
printf 'MD5Version 10\ncommandline ""\nnumJoints 0\nnumMeshes 1\njoints {\n}\nmesh {\nshader "\xed\xa0\x80|\xe0\x80\x80|\xf4\x8f\xbf\xbf"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n' >"$T/utf8.md5mesh"
capture info --json "$T/utf8.md5mesh"
max_char=$(printf '\xf4\x8f\xbf\xbf')
check_eq json_invalid_utf8 '{"type":"md5mesh","joints":0,"meshes":[{"shader":"\u00ed\u00a0\u0080|\u00e0\u0080\u0080|'"$max_char"'","verts":0,"tris":0,"weights":0}]}' "$out"

# Bytes F5 to FF never start a UTF-8 character, even when continuation bytes follow:
# F8 80 80 and FF BF BF are written byte by byte.
printf 'MD5Version 10\ncommandline ""\nnumJoints 0\nnumMeshes 1\njoints {\n}\nmesh {\nshader "\xf8\x80\x80|\xff\xbf\xbf"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n' >"$T/lead.md5mesh"
capture info --json "$T/lead.md5mesh"
check_eq json_invalid_lead_byte '{"type":"md5mesh","joints":0,"meshes":[{"shader":"\u00f8\u0080\u0080|\u00ff\u00bf\u00bf","verts":0,"tris":0,"weights":0}]}' "$out"

# Anims: ffflag 19 joints, 120 frames at 30, 57 components (SOURCE.md); door1 open 1/12/24/6.
capture info --json $A/cube2-ffflag/ffflag.md5anim $A/redeclipse-props/luckystrike-door1/open.md5anim
check_eq two_anims_one_line_each '{"type":"md5anim","joints":19,"frames":120,"frameRate":30,"components":57}
{"type":"md5anim","joints":1,"frames":12,"frameRate":24,"components":6}' "$out"

# DESIGN.md's example: 10 frames, cut 4, 24 fps -> 9 output frames, stored 0 1 2 3 5 6 7 8 9,
# shots 0-3 and 4-8.
capture info --json --timeline data/camera/cut4.md5camera
check_eq camera_timeline_json '{"type":"md5camera","frames":10,"frameRate":24,"cuts":[4],"fps":24,"outputFrames":9,"shots":[{"first":0,"last":3},{"first":4,"last":8}],"timeline":[{"frame":0,"time":0,"stored":0,"next":0,"lerp":0,"shot":0},{"frame":1,"time":0.0416667,"stored":1,"next":1,"lerp":0,"shot":0},{"frame":2,"time":0.0833333,"stored":2,"next":2,"lerp":0,"shot":0},{"frame":3,"time":0.125,"stored":3,"next":3,"lerp":0,"shot":0},{"frame":4,"time":0.166667,"stored":5,"next":5,"lerp":0,"shot":1},{"frame":5,"time":0.208333,"stored":6,"next":6,"lerp":0,"shot":1},{"frame":6,"time":0.25,"stored":7,"next":7,"lerp":0,"shot":1},{"frame":7,"time":0.291667,"stored":8,"next":8,"lerp":0,"shot":1},{"frame":8,"time":0.333333,"stored":9,"next":9,"lerp":0,"shot":1}]}' "$out"

# The same camera sampled at 30 fps: 11 output frames, the cut is crossed at output 5.
capture info --json --fps 30 data/camera/cut4.md5camera
check_eq camera_fps30_json '{"type":"md5camera","frames":10,"frameRate":24,"cuts":[4],"fps":30,"outputFrames":11,"shots":[{"first":0,"last":4},{"first":5,"last":10}]}' "$out"

# Cuts 2 5 7 at 30: output frames show 0 1 | 3 4 | 6 | 8 9 (timeline_test.c).
capture info --json data/camera/cuts_2_5_7.md5camera
check_eq camera_cuts_json '{"type":"md5camera","frames":10,"frameRate":30,"cuts":[2,5,7],"fps":30,"outputFrames":7,"shots":[{"first":0,"last":1},{"first":2,"last":3},{"first":4,"last":4},{"first":5,"last":6}]}' "$out"

# A one-frame camera reports one output frame.
capture info --json data/camera/single.md5camera
check_eq single_frame_camera '{"type":"md5camera","frames":1,"frameRate":24,"cuts":[],"fps":24,"outputFrames":1,"shots":[{"first":0,"last":0}]}' "$out"

# Human output names the file and the counts.
capture info $A/cube2-ffflag/ffflag.md5mesh
check_eq human_mesh_summary "$A/cube2-ffflag/ffflag.md5mesh: md5mesh, 19 joints, 1 mesh, 172 vertices, 236 triangles" "$(head -n 1 <<<"$out")"

# An invalid file: exit 2, error line with the position, the source line and a caret under
# column 10 of line 23 ("weight 0 999 1.0 ( 0 0 0 )").
capture info $A/assimp-invalid/InvalidBoneIndex.md5mesh
check_eq invalid_exit 2 "$rc"
check_eq invalid_caret "$A/assimp-invalid/InvalidBoneIndex.md5mesh:23:10: error: weight 0 uses joint 999 but the mesh has 1 joint
   23 | weight 0 999 1.0 ( 0 0 0 )
      |          ^" "$err"
check_eq invalid_no_stdout "" "$out"

# A quirk: strict fails (exit 2), --lenient loads it and warns at each deviation.
capture info --json $A/redeclipse-quirks/grenade/grenade-idle.md5anim
check_eq quirk_strict_exit 2 "$rc"
capture info --json --lenient $A/redeclipse-quirks/grenade/grenade-idle.md5anim
check_eq quirk_lenient_exit 0 "$rc"
check_eq quirk_lenient_json '{"type":"md5anim","joints":2,"frames":1,"frameRate":24,"components":12}' "$out"
check_eq quirk_lenient_warnings "$A/redeclipse-quirks/grenade/grenade-idle.md5anim:11:8: warning: joint 1 'top' is a second root (parent -1)
$A/redeclipse-quirks/grenade/grenade-idle.md5anim:16:2: warning: 'bounds' has 10 entries but 'numFrames' is 1" "$(grep warning: <<<"$err")"

# One bad file among good ones: the good ones are still reported, the status is 2.
capture info --json $A/assimp-invalid/empty.md5mesh $A/redeclipse-props/luckystrike-door1/open.md5anim
check_eq mixed_exit 2 "$rc"
check_eq mixed_good_line '{"type":"md5anim","joints":1,"frames":12,"frameRate":24,"components":6}' "$out"

# door1 open: 12 frames at 24 fps last 11 intervals = 0.458 s.
capture info $A/redeclipse-props/luckystrike-door1/open.md5anim
check_eq human_anim_summary "$A/redeclipse-props/luckystrike-door1/open.md5anim: md5anim, 1 joint, 12 frames at 24 fps (0.458 s), 6 animated components" "$out"

# Usage errors: exit 2.
capture info
check_eq no_file_exit 2 "$rc"
capture info $A/assimp-boarman/SOURCE.md
check_eq unknown_type_exit 2 "$rc"
check_eq unknown_type_message "md5cine: error: '$A/assimp-boarman/SOURCE.md': unknown file type (expected .md5mesh, .md5anim, .md5camera, .md5scene or .mtr)" "$err"
capture info --fps 0 data/camera/cut4.md5camera
check_eq bad_fps_exit 2 "$rc"
capture info --bogus data/camera/cut4.md5camera
check_eq unknown_option_exit 2 "$rc"

# A file that cannot be read is bad input like any other: exit 2, naming the file.
capture info data/no-such-file.md5camera
check_eq missing_file_exit 2 "$rc"
check_eq missing_file_names_it "data/no-such-file.md5camera" "$(grep -o 'data/no-such-file.md5camera' <<<"$err" | head -n 1)"

finish
