#!/bin/bash
# The light group (src/gpu/render_int.h): the lights that cast no shadows in a frame draw their
# interactions in one pass, each light's share stored and added as its own pass would have
# done, and that changes no pixel: frames drawn with it are byte-identical to frames drawn with
# every light in a pass of its own (MD5CINE_NO_LIGHT_GROUP=1; the ambient in the first pass in
# both, MD5CINE_NO_AMBIENT_FOLD=1: its fold into the group is ambient_fold_test's), and the
# pass profile (MD5CINE_PASS_TIMES=1) shows that the group was drawn. Cases: the demo's default rig with
# `--shadows off` (two lights), with MSAA and without; four scene lights of the demo with
# `--shadows off`, two of them small (the items out of a light's reach, the scissors), one
# a box; and a mixed rig with shadows on: two lights with shadows, five with `noShadows 1`
# (four in the group, the fifth in a pass of its own), among them a projected light and a light
# material whose falloff image is clamped to its edge. Where two of the demo's surfaces meet
# at the same depth (along the flag), both get each light, as in their own passes.
set -u
. ./harness.sh light_group

cp -r ../scenes/demo "$T/demo"
cp -r ../scenes/demo "$T/mixed"
# the demo with four lights of its own (data/scenes/demo_lights.txt)
cat data/scenes/demo_lights.txt >>"$T/demo/demo.md5scene"
cat >>"$T/mixed/demo.md5scene" <<'SCENE'
light "key" { origin ( -40 -160 160 ) color ( 0.7 0.7 0.8 ) radius 700 }
light "inside" { origin ( 30 -45 30 ) color ( 0.6 0.5 0.4 ) radius 600 noShadows 1 }
light "small" { origin ( 55 40 60 ) color ( 0.9 0.6 0.3 ) radius 70 noShadows 1 }
light "door" { origin ( 120 -20 64 ) color ( 0.3 0.6 0.9 ) light_radius ( 40 90 50 ) }
light "spot" { origin ( -60 0 120 ) target ( 200 0 -120 ) right ( 0 -80 0 ) up ( 0 0 80 )
               color ( 0.5 0.4 0.3 ) noShadows 1 }
light "ramp" { origin ( 0 100 90 ) color ( 0.4 0.4 0.4 ) radius 400 noShadows 1
               shader "lights/test_ramp" }
light "fifth" { origin ( 90 -120 50 ) color ( 0.2 0.3 0.2 ) radius 300 noShadows 1 }
SCENE
cat >>"$T/mixed/materials/demo.mtr" <<'MTR'

lights/test_ramp
{
    lightFalloffImage floor/floor.png
    {
        map drone/skin.jpg
    }
}
MTR

# same NAME SCENE GROUPED [options]: identical PNGs with and without the group, and the
# profile's light group line: GROUPED lights in each of its passes
same() {
    local name=$1 scene=$2 grouped=$3
    shift 3
    MD5CINE_NO_AMBIENT_FOLD=1 MD5CINE_PASS_TIMES=1 run "$name" render "$scene" --quiet \
        -o "$T/$name.a/%04d.png" "$@"
    [ "$rc" = 0 ] || { fail "$name" "render exit $rc: $(head -c 300 "$T/$name.err")"; return; }
    MD5CINE_NO_LIGHT_GROUP=1 MD5CINE_PASS_TIMES=1 run "$name.b" render "$scene" --quiet \
        -o "$T/$name.b/%04d.png" "$@"
    [ "$rc" = 0 ] || { fail "$name" "render without the group exit $rc"; return; }
    n=$(ls "$T/$name.a" | wc -l)
    line=$(grep 'light group:' "$T/$name.err")
    passes=$(echo "$line" | awk '{print $3}')
    lights=$(echo "$line" | awk '{print $9}')
    if [ "$n" -lt 2 ]; then
        fail "$name" "only $n frames"
    elif [ -z "$passes" ] || [ "$passes" -lt "$n" ] || [ "$lights" -ne $((passes * grouped)) ]; then
        fail "$name" "expected a group of $grouped lights in each of $n frames: '$line'"
    elif ! grep -q 'light group: 0 passes' "$T/$name.b.err"; then
        fail "$name" "MD5CINE_NO_LIGHT_GROUP=1 still drew a group: $(grep 'light group' "$T/$name.b.err")"
    elif diff -r "$T/$name.a" "$T/$name.b" >/dev/null; then
        ok "$name ($n frames identical, $passes group passes of $grouped lights)"
    else
        fail "$name" "frames differ: $(diff -rq "$T/$name.a" "$T/$name.b" | head -3)"
    fi
}

same rig ../scenes/demo/demo.md5scene 2 --size 320x180 --frames 0-30 --shadows off
same rig_large ../scenes/demo/demo.md5scene 2 --size 640x360 --frames 150-155 --msaa 0 \
    --shadows off
same lights "$T/demo/demo.md5scene" 4 --size 320x180 --frames 60-90 --shadows off
same mixed "$T/mixed/demo.md5scene" 4 --size 320x180 --frames 100-115

finish
