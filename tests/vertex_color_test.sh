#!/bin/bash
# A stage's vertexColor and inverseVertexColor (docs/materials-and-shading.md, "Vertex colours";
# Material.cpp idMaterial::ParseStage; draw_common.cpp RB_STD_T_RenderShaderPasses). An MD5
# mesh's vertex colour is 0 0 0 0 (Model_md5.cpp clears its vertices with idDrawVert::Clear),
# so with the stage colour 0.4:
#   vertexColor, blend add            0.4 * 0 = 0             -> 0
#   inverseVertexColor, blend add     0.4 * (1 - 0) = 0.4     -> 102
#   inverseVertexColor, blend blend   alpha 1 * 0 = 0: nothing over the black background -> 0
#   no keyword, blend add             0.4                     -> 102
# on the two quads of make_quads.py at 64 x 64, unlit: the left quad's centre (0, 25, 0) at
# pixel (24, 32), the right one's (0, -25, 0) at (40, 32).
# A lit stage: the interaction (and md5cine's ambient) times the vertex colour
# (draw_arb2.cpp RB_ARB2_DrawInteraction): vertexColor on a diffusemap stage draws it black,
# inverseVertexColor as without the keyword.
# A flare (tr_deform.cpp R_FlareDeform) gives its vertices the grey min(255, int(8 * 256 * dir .
# n)), dir the unit vector from the quad's centre to the eye, n its normal: a quad through the
# origin seen from (-100, 0, 0) with n = (-0.1, -sqrt(0.99), 0) has dir . n = 0.1, grey
# int(204.8) = 204 = 0.8 * 255, so with the stage colour 1 (blend add): vertexColor 0.8 -> 204,
# inverseVertexColor 1 - 0.8 = 0.2 -> 51. That quad is seen at columns 125.74 .. 129.67 of
# 256 (its ends (-14.92, 1.5) and (14.92, -1.5) at 128 - 128 y / (100 + x)), so pixel
# (127, 128) is on it.
set -u
. ./outcome.sh vertex_color

px() { # px PNG X Y -> "r,g,b"
    convert "$1" -format "%[fx:int(255*p{$2,$3}.r+0.5)],%[fx:int(255*p{$2,$3}.g+0.5)],%[fx:int(255*p{$2,$3}.b+0.5)]" info:
}
is() { # is NAME PNG X Y WANT
    local got
    got=$(px "$2" "$3" "$4")
    [ "$got" = "$5" ] && ok "$1 ($got)" || fail "$1" "pixel ($3, $4) is $got, want $5"
}
# quads NAME LEFT_STAGE RIGHT_STAGE [options]: renders the two quads with those materials
quads() {
    local name=$1 left=$2 right=$3
    shift 3
    mkdir -p "$T/$name/materials"
    printf 'left { %s }\nright { %s }\n' "$left" "$right" >"$T/$name/materials/q.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\noutput { background ( 0 0 0 ) }
actor q { mesh "quads.md5mesh" }\n' "$name" >"$T/$name.md5scene"
    run "$name" render "$T/$name.md5scene" --size 64x64 --msaa 0 -o "$T/$name%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
python3 make_quads.py "$T"

quads add "{ blend add map _white rgb 0.4 vertexColor }" \
    "{ blend add map _white rgb 0.4 inverseVertexColor }" --shading unlit
is vertex_color_on_md5_is_black "$T/add0.png" 24 32 0,0,0
is inverse_vertex_color_on_md5_keeps_the_stage "$T/add0.png" 40 32 102,102,102
quads blend "{ blend blend map _white rgb 0.4 inverseVertexColor }" \
    "{ blend add map _white rgb 0.4 }" --shading unlit
is inverse_vertex_color_alpha_is_the_vertex_alpha "$T/blend0.png" 24 32 0,0,0
is no_keyword_draws_the_stage "$T/blend0.png" 40 32 102,102,102

quads lit "{ blend diffusemap map _white vertexColor }" \
    "{ blend diffusemap map _white inverseVertexColor }"
quads lit_plain "diffusemap _white" "diffusemap _white"
is lit_vertex_color_on_md5_is_black "$T/lit0.png" 24 32 0,0,0
want=$(px "$T/lit_plain0.png" 40 32)
[ "$want" != 0,0,0 ] && is lit_inverse_vertex_color_as_without_it "$T/lit0.png" 40 32 "$want" ||
    fail lit_inverse_vertex_color_as_without_it "the plain lit quad is black"

# the flare: one quad through the origin, normal (-0.1, -sqrt(0.99), 0) towards the eye
python3 - "$T/flare.md5mesh" <<'PY'
import math, sys
n = (-0.1, -math.sqrt(0.99), 0.0)
t = (math.sqrt(0.99), -0.1, 0.0)  # in the plane, horizontal
v = [tuple(15 * a * t[i] + (15 * b if i == 2 else 0) for i in range(3))
     for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
def sub(a, b): return tuple(a[i] - b[i] for i in range(3))
def cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
# idPlane::FromPoints(v0, v1, v2): normal (v0 - v1) x (v2 - v1); turn the quad to face the eye
c = cross(sub(v[0], v[1]), sub(v[2], v[1]))
if sum(c[i] * n[i] for i in range(3)) < 0:
    v = v[::-1]
text = ('MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n'
        '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader "flare"\n\tnumverts 4\n')
for i in range(4):
    text += '\tvert %d ( 0 0 ) %d 1\n' % (i, i)
text += '\tnumtris 2\n\ttri 0 0 1 2\n\ttri 1 0 2 3\n\tnumweights 4\n'
for i, p in enumerate(v):
    text += '\tweight %d 0 1 ( %.6f %.6f %.6f )\n' % ((i,) + p)
open(sys.argv[1], 'w').write(text + '}\n')
PY
for k in vertexColor:204 inverseVertexColor:51; do
    mkdir -p "$T/fl_${k%%:*}/materials"
    printf 'flare { deform flare 2 { blend add map _white %s } }\n' "${k%%:*}" \
        >"$T/fl_${k%%:*}/materials/f.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "fl_%s"\noutput { background ( 0 0 0 ) }
actor f { mesh "flare.md5mesh" }\n' "${k%%:*}" >"$T/fl_${k%%:*}.md5scene"
    run "fl_${k%%:*}" render "$T/fl_${k%%:*}.md5scene" --size 256x256 --msaa 0 --shading unlit \
        -o "$T/fl_${k%%:*}%d.png"
    [ "$rc" -eq 0 ] || fail "fl_${k%%:*}" "exit $rc: $(cat "$T/fl_${k%%:*}.err")"
    w=${k#*:}
    is "flare_${k%%:*}_is_$w" "$T/fl_${k%%:*}0.png" 127 128 "$w,$w,$w"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
