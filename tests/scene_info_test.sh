#!/bin/bash
# 'md5cine info' on scene files: the summary, --json, the shots of the bundled demo, and errors
# at the offending token: exit 2 for bad data, 3 for a file that cannot be read.
set -u
. ./harness.sh scene_info

# full.md5scene: cut.md5camera (10 frames, cut at 4) at the output block's 30 fps.
# 30 fps over a 24 fps camera: output k shows stored floor(k * 24 / 30) (+1 after the cut);
# k = 5 maps to p = 4 -> stored 5, the second shot; k = 10 maps to p = 8 -> f = 9 > 8: ended.
# So 11 output frames, shots 0-4 and 5-10.
run summary info data/scenes/full.md5scene
expect summarises_a_scene 0 "full.md5scene: md5scene, 2 actors, camera data/scenes/cut.md5camera (10 frames at 24 fps, 1 cut); 11 output frames at 30 fps"
expect lists_each_actor_with_its_texture 0 'mesh 0: shader "skin" -> data/scenes/skin.png'
expect shows_the_bind_pose_actor 0 'actor "statue": data/scenes/arm.md5mesh (2 joints), bind pose'
expect lists_the_shots 0 "shot 2: output frames 5-10"

run json info --json data/scenes/full.md5scene
expect writes_json 0 '"type":"md5scene","camera":"data/scenes/cut.md5camera","cameraFrames":10,"frameRate":24,"cuts":1,"fps":30,"outputFrames":11'
expect writes_json_shots 0 '"shots":[{"first":0,"last":4},{"first":5,"last":10}]'
if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/json.out" 2>/dev/null; then
    fail json_parses "not valid JSON: $(head -c 300 "$T/json.out")"
else
    ok json_parses
fi

# --fps overrides the scene's rate: 24 fps gives DESIGN.md 2.1's 9 frames
run fps info --fps 24 data/scenes/full.md5scene
expect takes_the_fps_option 0 "9 output frames at 24 fps"

# The demo: 243 stored frames, cuts 84 and 169 -> output 0-83, 84-167, 168-240
run demo info ../scenes/demo/demo.md5scene
expect reads_the_demo 0 "7 actors"
# Shots are numbered from 1 for people, as in the overlay and the MP4 chapters ("Shot 3").
expect demo_has_three_shots 0 "shot 3: output frames 168-240"

run mismatch info data/scenes/mismatch.md5scene
expect names_the_mismatched_joint_in_the_anim 2 "" "data/scenes/arm_badparent.md5anim:12:2: error: joint 'arm'"

printf 'md5scene 1\ncamera "still.md5camera"\nactor a {\n    mesh "gone.md5mesh"\n}\n' >"$T/missing.md5scene"
cp data/scenes/still.md5camera "$T/"
run missing info "$T/missing.md5scene"
expect points_at_a_missing_mesh 2 "" "missing.md5scene:4:10: error: cannot load mesh"

printf 'md5scene 1\ncamera "still.md5camera"\nactor a {\n    mesh "../data/scenes/arm.md5mesh"\n    scale 0\n}\n' >"$T/scale.md5scene"
run scale info "$T/scale.md5scene"
expect rejects_a_zero_scale 2 "" "scale.md5scene:5:11: error: invalid 'scale' 0"

# Lights. lit.md5scene names two; info lists them as written and the ambient (0 0 0 unless
# given). rig.md5scene has none: info shows the default rig (scene_renderer.h), worked by hand
# below. Its mesh is one triangle (0 0 0), (120 0 0), (120 0 160) placed at origin (10 0 0): the
# box is (10 0 0)..(130 0 160), so c = (70 0 80), r = |(120 0 160)| / 2 = 100. The camera's only
# frame has quaternion (0 0 sin 45), whose Doom ToMat3 row 0 is (1 - 2z^2, 2(xy - wz), 2(xz + wy))
# = (0 -1 0) (the reference's conjugate rule: it looks down -Y), so forward f = (0 -1 0), left
# l = up x f = (1 0 0). Key: c + 200 * normalize(-f + 0.7 l + 0.9 u) = c + 200 * (0.7 1 0.9) /
# sqrt(2.3); fill: c + 200 * normalize(-f - l + 0.3 u) = c + 200 * (-1 1 0.3) / sqrt(2.09);
# boxes of half-size 6r = 600, colours 0.8 and 0.25, ambient 0.1 (before the light scale's 2).
cat >"$T/tri.md5mesh" <<'MESH'
MD5Version 10
commandline ""
numJoints 1
numMeshes 1
joints {
	"root" -1 ( 0 0 0 ) ( 0 0 0 )
}
mesh {
	shader "tri"
	numverts 3
	vert 0 ( 0 0 ) 0 1
	vert 1 ( 1 0 ) 1 1
	vert 2 ( 1 1 ) 2 1
	numtris 1
	tri 0 0 1 2
	numweights 3
	weight 0 0 1 ( 0 0 0 )
	weight 1 0 1 ( 120 0 0 )
	weight 2 0 1 ( 120 0 160 )
}
MESH
cat >"$T/turned.md5camera" <<'CAM'
MD5Version 10
commandline ""
numFrames 1
frameRate 24
numCuts 0
cuts {
}
camera {
	( -300 0 10 ) ( 0 0 0.70710678 ) 90
}
CAM
printf 'md5scene 1\ncamera "turned.md5camera"\nactor a {\n    mesh "tri.md5mesh"\n    origin ( 10 0 0 )\n}\n' >"$T/rig.md5scene"
printf 'md5scene 1\ncamera "turned.md5camera"\nactor a {\n    mesh "tri.md5mesh"\n}\nlight "sun" { origin ( -200 150 300 ) color ( 1 0.5 0.25 ) radius 900 }\nlight lamp { origin ( 5 -6 7 ) radius 20 shader "lights/lamp" noShadows 1 }\nambient ( 0.1 0.2 0.3 )\n' >"$T/lit.md5scene"
printf 'md5scene 1\ncamera "turned.md5camera"\nactor a {\n    mesh "tri.md5mesh"\n}\nlight "sun" { origin ( 1 2 3 ) radius 9 }\n' >"$T/noamb.md5scene"

printf 'md5scene 1\ncamera "turned.md5camera"\nactor a {\n    mesh "tri.md5mesh"\n}\nlight "l" { origin ( 0.1 -1e-05 123456 ) color ( 0.95 0.3 100 ) radius 1e6 }\n' >"$T/written.md5scene"
run written_json info --json "$T/written.md5scene"
expect prints_light_values_as_written 0 '"origin":[0.1,-1e-05,123456],"color":[0.95,0.3,100],"radius":1000000'

run lit info "$T/lit.md5scene"
expect lists_the_scene_lights 0 "  2 lights, ambient (0.1 0.2 0.3)"
expect lists_a_light_with_its_colour 0 '    light "sun": origin (-200 150 300) color (1 0.5 0.25) radius 900'
expect lists_a_light_with_the_default_colour 0 '    light "lamp": origin (5 -6 7) color (1 1 1) radius 20 shader "lights/lamp" noShadows 1'
run lit_json info --json "$T/lit.md5scene"
expect lists_the_scene_lights_in_json 0 '"lights":[{"name":"sun","origin":[-200,150,300],"color":[1,0.5,0.25],"radius":900,"lightRadius":null,"projection":null,"shader":null,"noShadows":false},{"name":"lamp","origin":[5,-6,7],"color":[1,1,1],"radius":20,"lightRadius":null,"projection":null,"shader":"lights/lamp","noShadows":true}],"defaultLights":false,"ambient":[0.1,0.2,0.3]'
# A projected light shows its frustum as the scene gives it, start and end filled in as Doom's
# idLight::Spawn defaults them (the origin, 0 0 0, and the target); a box light its half-sizes.
printf 'md5scene 1\ncamera "turned.md5camera"\nactor a {\n    mesh "tri.md5mesh"\n}\nlight "spot" { origin ( 0 0 100 ) target ( 0 0 -100 ) right ( 50 0 0 ) up ( 0 50 0 ) }\nlight "cone" { origin ( 1 2 3 ) target ( 0 0 -9 ) right ( 4 0 0 ) up ( 0 5 0 ) start ( 0 0 -1 ) end ( 0 0 -7 ) }\nlight "box" { origin ( 0 0 0 ) light_radius ( 10 20 30 ) }\n' >"$T/proj.md5scene"
run proj info "$T/proj.md5scene"
expect shows_a_projected_light_frustum 0 '    light "spot": origin (0 0 100) color (1 1 1) projected: target (0 0 -100) right (50 0 0) up (0 50 0) start (0 0 0) end (0 0 -100)'
expect shows_a_projected_light_start_and_end 0 '    light "cone": origin (1 2 3) color (1 1 1) projected: target (0 0 -9) right (4 0 0) up (0 5 0) start (0 0 -1) end (0 0 -7)'
expect shows_a_box_light 0 '    light "box": origin (0 0 0) color (1 1 1) light_radius (10 20 30)'
run proj_json info --json "$T/proj.md5scene"
expect shows_a_projected_light_in_json 0 '"radius":0,"lightRadius":null,"projection":{"target":[0,0,-100],"right":[50,0,0],"up":[0,50,0],"start":[0,0,0],"end":[0,0,-100]},"shader":null,"noShadows":false}'
expect shows_a_box_light_in_json 0 '"radius":0,"lightRadius":[10,20,30],"projection":null'
run noamb_json info --json "$T/noamb.md5scene"
expect gives_lights_a_black_ambient 0 '"defaultLights":false,"ambient":[0,0,0]'
run rig info "$T/rig.md5scene"
expect says_the_default_rig_is_used 0 "  no lights: the default rig, ambient (0.1 0.1 0.1)"
run rig_json info --json "$T/rig.md5scene"
if python3 - "$T/rig_json.out" <<'PY'
import json, math, sys
d = json.loads(open(sys.argv[1]).read())
c = (70.0, 0.0, 80.0)
def at(v):
    n = math.sqrt(sum(x * x for x in v))
    return [c[i] + 200.0 * v[i] / n for i in range(3)]
# the fill casts no shadows (Doom's shadowless fill lights), the key does
want = [("key", at((0.7, 1.0, 0.9)), 0.8, False), ("fill", at((-1.0, 1.0, 0.3)), 0.25, True)]
assert d["defaultLights"] is True, d
assert [round(x, 6) for x in d["ambient"]] == [0.1] * 3, d["ambient"]
assert len(d["lights"]) == 2, d["lights"]
for (name, origin, colour, no_shadows), got in zip(want, d["lights"]):
    assert got["name"] == name, got
    assert all(abs(a - b) < 1e-3 for a, b in zip(got["origin"], origin)), (got, origin)
    assert all(abs(x - colour) < 1e-6 for x in got["color"]), got
    assert abs(got["radius"] - 600.0) < 1e-3, got
    assert got["noShadows"] is no_shadows, got
PY
then
    ok places_the_default_rig_from_the_bind_pose
else
    fail places_the_default_rig_from_the_bind_pose "$(head -c 600 "$T/rig_json.out")"
fi

# The same numbering in the MP4's chapters: "Shot N" starting where info says shot N starts.
"$MD5CINE" render ../scenes/demo/demo.md5scene --size 64x36 --msaa 0 --quiet -o "$T/demo.mp4"
chapters=$(ffprobe -v error -show_chapters -of csv=p=0 "$T/demo.mp4" |
    awk -F, '{ printf "%s@%.3f ", $NF, $4 }')
info_shots=$(sed -n 's/^  shot \([0-9]*\): output frames \([0-9]*\)-.*/\1 \2/p' "$T/demo.out" |
    awk '{ printf "Shot %s@%.3f ", $1, $2 / 24 }')
if [ -n "$chapters" ] && [ "$chapters" = "$info_shots" ]; then
    echo "ok   chapters_match_info_shots ($chapters)"
    passed=$((passed + 1))
else
    echo "FAIL chapters_match_info_shots: chapters '$chapters', info '$info_shots'"
    failed=$((failed + 1))
fi

finish
