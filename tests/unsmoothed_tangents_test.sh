#!/bin/bash
# unsmoothedTangents in a render (docs/materials-and-shading.md, "Shading and lights"; tr_trisurf.cpp R_BuildDominantTris,
# R_DeriveUnsmoothedTangents): each vertex takes its normal from its largest triangle.
#
# A "tent" of two triangles sharing the edge v1 (0 40 0) - v2 (0 -40 0):
#   T1 (v0 v2 v1), v0 = (0 0 60), in the plane x = 0: (c - a) x (b - a) = (0 40 -60) x
#      (0 -40 -60) = (-4800 0 0), area 4800, normal (-1 0 0), facing the camera;
#   T2 (v3 v1 v2), v3 = (-20 0 -30): (20 -40 30) x (20 40 30) = (-2400 0 1600),
#      area 2884.4, normal (-0.832 0 0.555), 33.7 degrees from T1's (below the 60 degree
#      crease, so the smoothed normals of v1 and v2 mix the two).
# With unsmoothedTangents v1 and v2 take T1 (4800 > 2884.4), so all of T1's corners have the
# normal (-1 0 0), and --shading normals shows n * 0.5 + 0.5 = (0, 0.5, 0.5) -> (0, 127.5,
# 127.5), 127 or 128, everywhere on T1. Without it, v1 and v2 lean towards +Z and T1's pixels
# show a blue above 128.
#
# The camera sits at (-100 0 0) looking along +X with a 90 degree fov; at 256x256 the point
# (0, y, z) is drawn at column 128 - 1.28 y, row 128 - 1.28 z: pixel (127, 76) is the point
# y = 0.39, z = 40.23 of T1 (which spans |y| <= 40 (60 - z) / 60 = 13.2 there); (120, 100) is
# y = 5.86, z = 21.48 (|y| <= 25.7), (130, 60) is y = -1.95, z = 52.73 (|y| <= 4.8).
set -u
. ./harness.sh unsmoothed_tangents

mkdir -p "$T/base/materials" "$T/base/textures"
cat >"$T/tent.md5mesh" <<'EOF'
MD5Version 10
commandline ""
numJoints 1
numMeshes 1
joints {
	"origin" -1 ( 0 0 0 ) ( 0 0 0 )
}
mesh {
	shader "tent"
	numverts 4
	vert 0 ( 0.5 0 ) 0 1
	vert 1 ( 1 1 ) 1 1
	vert 2 ( 0 1 ) 2 1
	vert 3 ( 0.5 0.5 ) 3 1
	numtris 2
	tri 0 0 2 1
	tri 1 3 1 2
	numweights 4
	weight 0 0 1 ( 0 0 60 )
	weight 1 0 1 ( 0 40 0 )
	weight 2 0 1 ( 0 -40 0 )
	weight 3 0 1 ( -20 0 -30 )
}
EOF
printf 'MD5Version 10\ncommandline ""\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\ncamera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n' >"$T/cam.md5camera"
for v in plain unsmoothed; do
    kw=
    [ "$v" = unsmoothed ] && kw=unsmoothedTangents
    mkdir -p "$T/$v/materials"
    printf 'tent { %s diffusemap _white }\n' "$kw" >"$T/$v/materials/m.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\nactor tent { mesh "tent.md5mesh" }\n' \
        "$v" >"$T/$v.md5scene"
    run "$v" render "$T/$v.md5scene" --size 256x256 --msaa 0 --shading normals -o "$T/$v%d.png"
    [ "$rc" -eq 0 ] || fail "$v" "exit $rc: $(cat "$T/$v.err")"
done

px() { convert "$1" -depth 8 -crop "1x1+$2+$3" -format '%[fx:int(255*r+0.5)] %[fx:int(255*g+0.5)] %[fx:int(255*b+0.5)]' info: 2>&1; }
for p in "127 76" "120 100" "130 60"; do
    got=$(px "$T/unsmoothed0.png" $p)
    read -r r g b <<<"$got"
    if [ "${r:-x}" = 0 ] && [ "$g" -ge 127 ] && [ "$g" -le 128 ] && [ "$b" -ge 127 ] &&
        [ "$b" -le 128 ]; then
        ok "unsmoothed_t1_pixel_${p/ /_}_is_minus_x ($got)"
    else
        fail "unsmoothed_t1_pixel_${p/ /_}_is_minus_x" "got '$got', expected 0 127..128 127..128"
    fi
    got=$(px "$T/plain0.png" $p)
    read -r r g b <<<"$got"
    if [ "${b:-0}" -gt 130 ] 2>/dev/null; then
        ok "smoothed_t1_pixel_${p/ /_}_leans_up ($got)"
    else
        fail "smoothed_t1_pixel_${p/ /_}_leans_up" "got '$got', expected a blue above 130"
    fi
done

finish
