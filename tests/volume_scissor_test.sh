#!/bin/bash
# The shadow volumes' scissor (src/gpu/shadow_volume.h, "Where a volume can count") and the
# lights' reach (render_int.h, gpu_light_reach) change no pixel: frames drawn with it are byte-identical to frames drawn with every volume over the
# whole frame and every light's pass over every item (MD5CINE_NO_SCISSOR=1). Three cases: the
# demo with its default rig (lights far off, every caster's pyramid well formed), with MSAA and
# without, and the demo with a light inside the walker's box (no pyramid: every drawn box
# counts whole), a low light beside the actors (long shadows across the floor onto the doors)
# and two small lights (a light's reach: the items out of them unlit, the passes scissored).
set -u
. ./harness.sh volume_scissor

cp -r ../scenes/demo "$T/demo"
# the demo with four lights of its own (data/scenes/demo_lights.txt)
cat data/scenes/demo_lights.txt >>"$T/demo/demo.md5scene"

same() { # same NAME SCENE [options]: with and without the scissor, identical PNGs
    local name=$1 scene=$2
    shift 2
    run "$name" render "$scene" --quiet -o "$T/$name.a/%04d.png" "$@"
    [ "$rc" = 0 ] || { fail "$name" "render exit $rc: $(head -c 300 "$T/$name.err")"; return; }
    MD5CINE_NO_SCISSOR=1 run "$name" render "$scene" --quiet -o "$T/$name.b/%04d.png" "$@"
    [ "$rc" = 0 ] || { fail "$name" "render without the scissor exit $rc"; return; }
    n=$(ls "$T/$name.a" | wc -l)
    if [ "$n" -lt 2 ]; then
        fail "$name" "only $n frames"
    elif diff -r "$T/$name.a" "$T/$name.b" >/dev/null; then
        ok "$name ($n frames identical)"
    else
        fail "$name" "frames differ: $(diff -rq "$T/$name.a" "$T/$name.b" | head -3)"
    fi
}

same demo ../scenes/demo/demo.md5scene --size 320x180 --frames 0-120
same demo_large ../scenes/demo/demo.md5scene --size 640x360 --frames 150-170 --msaa 0
same lights "$T/demo/demo.md5scene" --size 320x180 --frames 60-180
# Past 2048 items each caster's volume takes the light's reach instead of its own rectangle
# (shadow.c, SCISSOR_PAIRS_MAX): 2,501 quads whose shadows fall on one another and a backdrop.
python3 make_hostile.py many "$T/many" >/dev/null
same many "$T/many/a.md5scene" --size 320x180

finish
