#!/bin/bash
# The ambient folded into the light group (src/gpu/interaction.c): where the lights without
# shadows share a pass, the first pass draws an item's depth in black (dhewm3 draw_common.cpp
# RB_T_FillDepthBuffer, "others just draw black") and the group's pass adds the scene's ambient
# with the lights, at every fragment that matches the depth, as Doom adds each light, its
# ambient lights included (draw_arb2.cpp RB_ARB2_CreateDrawInteractions: GLS_SRCBLEND_ONE |
# GLS_DSTBLEND_ONE at the first pass's depth). MD5CINE_NO_AMBIENT_FOLD=1 draws the ambient in
# the first pass, as before the fold.
#
# The scene: the two quads of tests/make_quads.py, grey 200, lit by two lights without shadows
# straight in front of them, ambient 0.05. Their light material's images are white, 64x64, so
# that P = F = 1 where the quads are (s = 0.5 + 0.5 * 5000 / 6000 = 0.92 there, inside the last
# texel's centre at 0.99: the projection is zero outside its image, and a 1x1 image would blend
# that black border in).
# Worked by hand at the left quad's centre (0, 25, 0), pixel (96, 128) at 256x256:
#   ambient  = D * 2 * 0.05 = 200/255 * 0.1           -> 20.0 levels
#   light a  = n.L * D * 2 * 0.125 = 50.0 n.L, the light at (-5000, 25, 0): n.L > 0.99999 -> 50
#   light b  = n.L * D * 2 * 0.0625 = 25.0 n.L                                          -> 25
# One quad: 20 + 50 + 25 = 95, folded or not. The same quads twice, at the same depth (two
# actors of one mesh): every light is added at both fragments, 20 + 2 * 75 = 170 with the
# ambient in the first pass (whose last fragment wins); folded, the ambient is added at both as
# the lights are, 2 * 20 + 2 * 75 = 190, Doom's sum for an ambient light over the scene.
set -u
. ./harness.sh ambient_fold

mkdir -p "$T/base/materials" "$T/base/textures"
python3 make_quads.py "$T"
python3 - "$T/base/textures" <<'PY'
import struct, sys
d = sys.argv[1]
def tga(side, bgr):
    head = struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, side, side, 24, 0)
    return head + bytes(bgr) * side * side
open(d + '/grey.tga', 'wb').write(tga(1, [200, 200, 200]))
open(d + '/white.tga', 'wb').write(tga(64, [255, 255, 255]))
PY
cat >"$T/base/materials/m.mtr" <<'MTR'
left { diffusemap textures/grey }
right { diffusemap textures/grey }
lights/flat { lightFalloffImage textures/white { map textures/white colored } }
MTR
scene() { # scene NAME ACTORS
    {
        printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\n'
        printf 'output { background ( 0 0 0 ) }\nambient ( 0.05 0.05 0.05 )\n'
        for i in $(seq "$2"); do printf 'actor q%d { mesh "quads.md5mesh" }\n' "$i"; done
        printf 'light a { origin ( -5000 25 0 ) color ( 0.125 0.125 0.125 ) radius 6000'
        printf ' noShadows 1 shader "lights/flat" }\n'
        printf 'light b { origin ( -5000 25 0 ) color ( 0.0625 0.0625 0.0625 ) radius 6000'
        printf ' noShadows 1 shader "lights/flat" }\n'
    } >"$T/$1.md5scene"
}
scene once 1
scene twice 2

# pixel NAME SCENE WANT FOLDED [options]: the left quad's centre, and how many items the
# profile says the group's passes added the ambient of (FOLDED a frame)
pixel() {
    local name=$1 scene=$2 want=$3 folded=$4 got line
    shift 4
    MD5CINE_PASS_TIMES=1 run "$name" render "$T/$scene.md5scene" --size 256x256 \
        -o "$T/$name%d.png" "$@"
    [ "$rc" -eq 0 ] || { fail "$name" "exit $rc: $(cat "$T/$name.err")"; return; }
    got=$(px "$T/${name}0.png" 96 128)
    line=$(grep 'light group:' "$T/$name.err")
    if [ "$got" != "$want" ]; then
        fail "$name" "pixel (96, 128) is $got, expected $want"
    elif [ "$(echo "$line" | awk '{print $(NF - 1)}')" != "$folded" ]; then
        fail "$name" "expected the ambient of $folded items in the group: '$line'"
    else
        ok "$name"
    fi
}

for msaa in 4 0; do
    pixel "once_msaa$msaa" once 95,95,95 2 --msaa "$msaa"
    pixel "twice_msaa$msaa" twice 190,190,190 4 --msaa "$msaa"
    MD5CINE_NO_AMBIENT_FOLD=1 pixel "once_unfolded_msaa$msaa" once 95,95,95 0 --msaa "$msaa"
    MD5CINE_NO_AMBIENT_FOLD=1 pixel "twice_unfolded_msaa$msaa" twice 170,170,170 0 \
        --msaa "$msaa"
done
# one light: no group, so the ambient stays in the first pass
sed -i '/^light b/,$d' "$T/once.md5scene"
pixel one_light_no_group once 70,70,70 0

# Two small lights over the upper middle of the left quad, drawn at 1024x1024: their boxes
# (y 25 +- 5, z 12 +- 2), as md5cine widens them for the images' filtering (y 15..35, z 8..16),
# hold the quad's rows 435.2..471.0 and columns 332.8..435.2, widened by 2 pixels and out to
# whole 64-pixel tiles: rows 384..512 and columns 320..448, while the quad spans rows
# 435.2..588.8 and columns 307.2..460.8. The group's pass, scissored to that reach, would not
# draw the whole quad, so its ambient stays in the first pass: no item is folded (the right
# quad is out of both lights' reach, in no group pass), and at z = -10 (row 563, column 384)
# the quad shows the ambient alone, 20.
{
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\n'
    printf 'output { background ( 0 0 0 ) }\nambient ( 0.05 0.05 0.05 )\n'
    printf 'actor q { mesh "quads.md5mesh" }\n'
    printf 'light a { origin ( -40 25 12 ) light_radius ( 45 5 2 ) noShadows 1 }\n'
    printf 'light b { origin ( -40 25 12 ) light_radius ( 45 5 2 ) noShadows 1 }\n'
} >"$T/part.md5scene"
MD5CINE_PASS_TIMES=1 run part render "$T/part.md5scene" --size 1024x1024 -o "$T/part%d.png"
line=$(grep 'light group:' "$T/part.err")
check_eq partly_reached_item_keeps_its_ambient 20,20,20 "$(px "$T/part0.png" 384 563)"
check_eq partly_reached_item_is_not_folded "1 0" "$(echo "$line" | awk '{print $3, $(NF - 1)}')"

finish
