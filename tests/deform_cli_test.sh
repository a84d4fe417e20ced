#!/bin/bash
# Material deforms on the command line (docs/materials-and-shading.md, "Deforms"). Two quads facing the
# camera (tests/make_quads.py) are turned edge-on by yaw 90 and drawn unlit; the left one's
# material is `deform sprite` with a `blend add` of _white, the right one's the same stage
# without a deform. By R_AutospriteDeform the left quad (centre (0, 25, 0) in the model, (-25, 0,
# 0) in the world after yaw 90, 75 from the eye) comes back facing the camera as a square of
# half-size |(0, 15, 15)| 0.707 = 15.0, 32 * 15 / 75 = 6.4 pixels each way from the centre of a
# 64 x 64 frame; the right quad stays edge-on and unseen. info names the deform; a deform that
# does not fit a surface (a sprite on a box: 8 vertices, 12 triangles) is one warning at the
# material, and the box is drawn as it is.
set -u
. ./harness.sh deform_cli

mkdir -p "$T/base/materials"
python3 make_quads.py "$T"
cp data/render/box.md5mesh "$T/"
cat >"$T/base/materials/q.mtr" <<'MTR'
left { deform sprite { blend add map _white } }
right { { blend add map _white } }
box
{
    deform sprite
    { blend add map _white }
}
MTR
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\nactor q { mesh "quads.md5mesh" yaw 90 }\n' >"$T/quads.md5scene"

run info info "$T/quads.md5scene" --json --materials
expect info_reads_the_scene 0
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["actors"][0]
d = [t["material"].get("deform") for t in a["textures"]]
sys.exit(0 if d == ["sprite", None] else 1)' "$T/info.out" && ok info_names_the_deform ||
    fail info_names_the_deform "$(head -c 400 "$T/info.out")"

run quads render "$T/quads.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/quads%d.png"
expect renders 0
[ "$(px "$T/quads0.png" 32 32)" = "255,255,255" ] && [ "$(px "$T/quads0.png" 27 37)" = "255,255,255" ] &&
    ok the_sprite_faces_the_camera || fail the_sprite_faces_the_camera "$(px "$T/quads0.png" 32 32) $(px "$T/quads0.png" 27 37)"
[ "$(px "$T/quads0.png" 32 40)" = "0,0,0" ] && [ "$(px "$T/quads0.png" 24 32)" = "0,0,0" ] &&
    ok the_sprite_has_its_size || fail the_sprite_has_its_size "$(px "$T/quads0.png" 32 40) $(px "$T/quads0.png" 24 32)"

printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor b { mesh "box.md5mesh" }\n' >"$T/box.md5scene"
run box render "$T/box.md5scene" --size 64x64 --msaa 0 -o "$T/box%d.png"
expect a_deform_that_does_not_fit_is_a_warning 0 "" \
    "q.mtr:3:1: warning: material 'box': deform sprite not applied to mesh 0 of actor 'b': it does not have 2 triangles for every 4 vertices"

# Three meshes of one material that the deform does not fit: the first one's warning, then one
# line for the other two (docs/scene-files.md, "Textures": repeated warnings); MD5CINE_WARNINGS=all: each.
python3 - "$T/box.md5mesh" "$T/box3.md5mesh" <<'PY'
import sys
text = open(sys.argv[1]).read()
head, body = text.split("mesh {", 1)
open(sys.argv[2], "w").write(head.replace("numMeshes 1", "numMeshes 3") + ("mesh {" + body) * 3)
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor b { mesh "box3.md5mesh" }\n' >"$T/box3.md5scene"
run box3 render "$T/box3.md5scene" --size 64x64 --msaa 0 -o "$T/box3_%d.png"
printf '%s\n' "$T/base/materials/q.mtr:3:1: warning: material 'box': deform sprite not applied to mesh 0 of actor 'b': it does not have 2 triangles for every 4 vertices" \
    "$T/box3.md5mesh: warning: ... and 2 more meshes of actor 'b'" >"$T/box3.want"
[ "$rc" -eq 0 ] && grep "warning:" "$T/box3.err" | cmp -s "$T/box3.want" - && ok a_repeated_deform_warning_is_grouped ||
    fail a_repeated_deform_warning_is_grouped "exit $rc; stderr: $(cat "$T/box3.err")"
MD5CINE_WARNINGS=all run box3_all render "$T/box3.md5scene" --size 64x64 --msaa 0 -o "$T/box3a_%d.png"
for k in 0 1 2; do
    echo "$T/base/materials/q.mtr:3:1: warning: material 'box': deform sprite not applied to mesh $k of actor 'b': it does not have 2 triangles for every 4 vertices"
done >"$T/box3_all.want"
[ "$rc" -eq 0 ] && grep "warning:" "$T/box3_all.err" | cmp -s "$T/box3_all.want" - && ok every_deform_warning_with_warnings_all ||
    fail every_deform_warning_with_warnings_all "exit $rc; stderr: $(cat "$T/box3_all.err")"

finish
