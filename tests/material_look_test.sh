#!/bin/bash
# What a material's stage keywords do to pixels, drawn unlit (--shading unlit: the diffuse map
# times its stage colour) on the two quads of tests/make_quads.py, against values worked out by
# hand: a stage colour, maskColor, clamp against repeat, a specular-only material's black
# diffuse, a missing image or material (black, or Doom's developer box), and vertex colours.
set -u
. ./harness.sh material_look

is() { # is NAME PNG X Y WANT
    local got
    got=$(px "$2" "$3" "$4")
    if [ "$got" = "$5" ]; then ok "$1"; else fail "$1" "pixel ($3, $4) is $got, expected $5"; fi
}

# The left quad's s runs 0..2, so its right half samples beyond the image's edge.
mkdir -p "$T/base/materials" "$T/base/textures"
python3 make_quads.py "$T" 2
python3 - "$T/base/textures" <<'PY'
import struct, sys
d = sys.argv[1]
def tga(w, h, bgr):
    return struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes(bgr)
open(d + '/grey.tga', 'wb').write(tga(1, 1, [200, 200, 200]))
open(d + '/blue.tga', 'wb').write(tga(1, 1, [255, 0, 0]))
open(d + '/redblue.tga', 'wb').write(tga(2, 1, [0, 0, 255, 255, 0, 0]))  # red, blue
PY
render() { # render NAME MTR [options]: the scene at 256x256, unlit, into $T/NAME0.png
    local name=$1 mtr=$2
    shift 2
    printf '%s\n' "$mtr" >"$T/base/materials/m.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\nactor q { mesh "quads.md5mesh" }\n%s' "${EXTRA:-}" >"$T/$name.md5scene"
    run "$name" render "$T/$name.md5scene" --size 256x256 --msaa 0 --shading unlit \
        -o "$T/${name}%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
# Screen x at 256 wide: 128 - 1.28 y. The right quad's centre (y = -25): x = 160, row 128.
# On the left quad (y 40 -> 10 across, s 0 -> 2): pixel 82 (centre 82.5, y = 35.5) has
# s = (40 - 35.5) / 30 * 2 = 0.30; pixel 100 (y = 21.48) has s = 1.23.

# A stage colour multiplies the map: grey 200 * (0.5, 0.25, 1) = (100, 50, 200).
render colour 'left { { blend diffusemap map textures/grey red 0.5 green 0.25 blue 1 } }
right { { blend diffusemap map textures/grey colored rgb 0.5 } }'
is stage_colour_multiplies_the_map "$T/colour0.png" 82 128 "100,50,200"
is rgb_sets_three_channels "$T/colour0.png" 160 128 "100,100,100"

# maskColor: the stage writes no colour; the background (black) stays.
render mask 'left { { blend add map textures/blue maskColor } }
right { { blend add map textures/blue } }'
is mask_color_writes_no_colour "$T/mask0.png" 82 128 "0,0,0"
is without_the_mask_the_stage_shows "$T/mask0.png" 160 128 "0,0,255"

# Repeat against clamp at s = 1.23: repeat reads s = 0.23, the red texel (texel u = 2 s - 0.5
# = -0.03: 97 % red, 3 % blue, filtered); clamp reads past the edge, the blue texel alone.
render repeat 'left { diffusemap textures/redblue }
right { diffusemap textures/blue }'
got=$(px "$T/repeat0.png" 100 128)
IFS=, read -r r g b <<<"$got"
if [ "$r" -ge 240 ] && [ "$b" -le 15 ]; then ok repeat_wraps_around; else fail repeat_wraps_around "$got"; fi
render clamp 'left { { blend diffusemap map textures/redblue clamp } }
right { diffusemap textures/blue }'
is clamp_holds_the_edge_texel "$T/clamp0.png" 100 128 "0,0,255"
render clamp_all 'left { clamp diffusemap textures/redblue }
right { diffusemap textures/blue }'
is a_material_clamp_applies_to_its_stages "$T/clamp_all0.png" 100 128 "0,0,255"

# A specular-only material: Doom's black diffuse (RB_SubmittInteraction), not white.
render spec 'left { specularmap textures/grey }
right { diffusemap textures/grey }'
is specular_only_is_black "$T/spec0.png" 82 128 "0,0,0"
is diffuse_is_drawn "$T/spec0.png" 160 128 "200,200,200"

# A missing image and a missing material on black: black outside developer mode (the diffuse
# map is _default, black; the shader without material or image is not drawn: the background);
# with --developer-images the _default box, whose inside texels are (32, 32, 32).
render missing 'left { diffusemap textures/not_here }'
is missing_image_is_black "$T/missing0.png" 82 128 "0,0,0"
is missing_material_shows_the_background "$T/missing0.png" 160 128 "0,0,0"
render developer 'left { diffusemap textures/not_here }' --developer-images
is developer_box_for_a_missing_image "$T/developer0.png" 82 128 "32,32,32"
is developer_box_for_a_missing_material "$T/developer0.png" 160 128 "32,32,32"

# Doom draws what is absent as nothing, not black: an undeclared shader gets the implicit
# material `blend blend colored map NAME clamp` (Material.cpp idMaterial::SetDefaultText), a
# declaration that fails to parse the default `{ blend blend map _default }`
# (idMaterial::DefaultDefinition), and outside developer mode `_default` is (0, 0, 0, 0)
# (Image_init.cpp idImage::MakeDefault). So on a background of green 0.4 (0.4 * 255 = 102):
# blend blend gives src * 0 + dst * (1 - 0) = dst, the background. A missing map in a lit
# (opaque) stage stays black: depth and colour are drawn, the colour 0.
green() { # green NAME MTR [options]: as render, the background (0, 0.4, 0), lit
    local name=$1 mtr=$2
    shift 2
    printf '%s\n' "$mtr" >"$T/base/materials/m.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0.4 0 ) }\nactor q { mesh "quads.md5mesh" }\nlight k { origin ( -100 0 0 ) radius 1000 }\nambient ( 0.1 0.1 0.1 )\n' >"$T/$name.md5scene"
    run "$name" render "$T/$name.md5scene" --size 256x256 --msaa 0 -o "$T/${name}%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
green absent 'left { diffusemap textures/not_here }'
is missing_diffuse_map_is_black "$T/absent0.png" 82 128 "0,0,0"
is undeclared_shader_without_image_is_invisible "$T/absent0.png" 160 128 "0,102,0"
if grep -qF "no material and no image for shader 'right' of actor 'q'" "$T/absent.err" &&
    grep -qF "not drawn" "$T/absent.err"; then
    ok the_warning_says_it_is_not_drawn
else
    fail the_warning_says_it_is_not_drawn "$(cat "$T/absent.err")"
fi
green broken 'left { { blend blend map textures/not_here } }
right { { blend blend map } }'
is blended_missing_image_is_invisible "$T/broken0.png" 82 128 "0,102,0"
is default_material_is_invisible "$T/broken0.png" 160 128 "0,102,0"
# with developer images the box is opaque (alpha 255): its inside, 32, blended over everything
green broken_dev 'left { { blend blend map textures/not_here } }
right { { blend blend map } }' --developer-images
is developer_box_blended_for_a_missing_image "$T/broken_dev0.png" 82 128 "32,32,32"
is developer_box_for_the_default_material "$T/broken_dev0.png" 160 128 "32,32,32"

# Values that are not finite at render time (material_eval.h): Doom hands them to GL. A texture
# matrix of 1 / 0 samples nothing, so the stage is skipped (the right quad adds no blue: black);
# an alpha test of -1 / 0 keeps every fragment (GL_GREATER against -inf), 0 / 0 (NaN) none.
# One warning for the material, at its line, and the render carries on (exit 0).
EXTRA='frames 3' render nonfinite 'left { { blend add map textures/blue alphaTest -1 / 0 } }
right { { blend add map textures/blue scroll 1 / 0, 0 } { blend add map textures/grey alphaTest 0 / 0 } }'
is inf_matrix_skips_the_stage "$T/nonfinite0.png" 160 128 "0,0,0"
is minus_inf_alpha_test_keeps_all "$T/nonfinite0.png" 82 128 "0,0,255"
is nan_alpha_test_keeps_none "$T/nonfinite2.png" 160 128 "0,0,0"
n=$(grep -c "warning: material 'right': a stage's texture matrix or alpha test is not a finite number at 0.000 s" "$T/nonfinite.err")
l=$(grep -c "m.mtr:2:1: warning" "$T/nonfinite.err")
if [ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && [ "$l" -eq 1 ] && ! grep -q "'left'" "$T/nonfinite.err"; then
    ok nonfinite_warns_once_at_the_material
else
    fail nonfinite_warns_once_at_the_material "exit $rc: $(cat "$T/nonfinite.err")"
fi

# A stage's vertexColor and inverseVertexColor (Material.cpp idMaterial::ParseStage;
# draw_common.cpp RB_STD_T_RenderShaderPasses). An MD5 mesh's vertex colour is 0 0 0 0
# (Model_md5.cpp clears its vertices with idDrawVert::Clear), so with the stage colour 0.4
# (0.4 * 255 = 102): vertexColor, blend add: 0.4 * 0 -> 0; inverseVertexColor, blend add:
# 0.4 * (1 - 0) -> 102; inverseVertexColor, blend blend: alpha 1 * 0 = 0, nothing over the
# black background -> 0; no keyword, blend add -> 102.
render vc 'left { { blend add map _white rgb 0.4 vertexColor } }
right { { blend add map _white rgb 0.4 inverseVertexColor } }'
is vertex_color_on_md5_is_black "$T/vc0.png" 82 128 "0,0,0"
is inverse_vertex_color_on_md5_keeps_the_stage "$T/vc0.png" 160 128 "102,102,102"
render vc_blend 'left { { blend blend map _white rgb 0.4 inverseVertexColor } }
right { { blend add map _white rgb 0.4 } }'
is inverse_vertex_color_alpha_is_the_vertex_alpha "$T/vc_blend0.png" 82 128 "0,0,0"
is no_vertex_color_draws_the_stage "$T/vc_blend0.png" 160 128 "102,102,102"
# A lit stage's keyword multiplies the interaction (draw_arb2.cpp RB_ARB2_DrawInteraction):
# vertexColor draws it black, inverseVertexColor as without it.
green vc_lit 'left { { blend diffusemap map textures/grey vertexColor } }
right { { blend diffusemap map textures/grey inverseVertexColor } }'
green vc_lit_plain 'right { diffusemap textures/grey }'
is lit_vertex_color_on_md5_is_black "$T/vc_lit0.png" 82 128 "0,0,0"
is lit_inverse_vertex_color_as_without_it "$T/vc_lit0.png" 160 128 "$(px "$T/vc_lit_plain0.png" 160 128)"
# A flare (tr_deform.cpp R_FlareDeform) gives its vertices the grey min(255, int(8 * 256 *
# dir . n)), dir the unit vector from the quad's centre to the eye, n its normal: a quad through
# the origin seen from (-100, 0, 0) with n = (-0.1, -sqrt(0.99), 0) has dir . n = 0.1, grey
# int(204.8) = 204 = 0.8 * 255; with the stage colour 1 (blend add) vertexColor gives 204,
# inverseVertexColor 1 - 0.8 = 0.2 -> 51. The quad is seen at columns 125.74 .. 129.67 (its ends
# (-14.92, 1.5) and (14.92, -1.5) at 128 - 128 y / (100 + x)): pixel (127, 128) is on it.
python3 - "$T/flare.md5mesh" <<'PY'
import math, sys
n = (-0.1, -math.sqrt(0.99), 0.0)
t = (math.sqrt(0.99), -0.1, 0.0)  # in the plane, horizontal
v = [tuple(15 * a * t[i] + (15 * b if i == 2 else 0) for i in range(3))
     for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
def sub(a, b): return tuple(a[i] - b[i] for i in range(3))
c = sub(v[0], v[1]), sub(v[2], v[1])
c = (c[0][1] * c[1][2] - c[0][2] * c[1][1], c[0][2] * c[1][0] - c[0][0] * c[1][2],
     c[0][0] * c[1][1] - c[0][1] * c[1][0])
# idPlane::FromPoints(v0, v1, v2): normal (v0 - v1) x (v2 - v1); the quad faces the eye
if sum(c[i] * n[i] for i in range(3)) < 0:
    v = v[::-1]
text = ('MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n'
        '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader "flare"\n\tnumverts 4\n')
text += ''.join('\tvert %d ( 0 0 ) %d 1\n' % (i, i) for i in range(4))
text += '\tnumtris 2\n\ttri 0 0 1 2\n\ttri 1 0 2 3\n\tnumweights 4\n'
text += ''.join('\tweight %d 0 1 ( %.6f %.6f %.6f )\n' % ((i,) + p) for i, p in enumerate(v))
open(sys.argv[1], 'w').write(text + '}\n')
PY
for k in vertexColor:204 inverseVertexColor:51; do
    EXTRA='actor f { mesh "flare.md5mesh" }
' render "flare_${k%%:*}" "flare { deform flare 2 { blend add map _white ${k%%:*} } }
left { } right { }"
    is "flare_${k%%:*}_is_${k#*:}" "$T/flare_${k%%:*}0.png" 127 128 "${k#*:},${k#*:},${k#*:}"
done

# info --materials shows what the renderer was given.
printf 'left { { blend diffusemap map textures/grey red 0.5 zeroclamp } { blend add map textures/blue maskColor maskDepth } }\n' >"$T/base/materials/m.mtr"
run info_json info --materials --json "$T/missing.md5scene"
if python3 - "$T/info_json.out" <<'PY'
import json, sys
m = json.loads(open(sys.argv[1]).read())["actors"][0]["textures"][0]["material"]
assert m["diffuse"]["color"] == [0.5, 1, 1, 1] and m["diffuse"]["wrap"] == "zeroclamp", m
assert m["layers"][0]["mask"] == ["color", "depth"] and m["layers"][0]["map"]["wrap"] == "repeat", m
assert "vertexColor" not in m and "vertexColor" not in m["layers"][0], m
PY
then ok info_shows_colours_wraps_and_masks; else fail info_shows_colours_wraps_and_masks "$(cat "$T/info_json.out" "$T/info_json.err")"; fi
printf 'left { { blend diffusemap map textures/grey } { blend add map textures/blue inverseVertexColor } { blend specularmap map textures/grey vertexColor } }\n' >"$T/base/materials/m.mtr"
run info_vc info --materials --json "$T/missing.md5scene"
if python3 - "$T/info_vc.out" <<'PY'
import json, sys
m = json.loads(open(sys.argv[1]).read())["actors"][0]["textures"][0]["material"]
assert m["vertexColor"] == "vertexColor" and m["layers"][0]["vertexColor"] == "inverseVertexColor", m
PY
then ok info_shows_vertex_colours; else fail info_shows_vertex_colours "$(cat "$T/info_vc.out" "$T/info_vc.err")"; fi

finish
