#!/bin/bash
# Cube maps and texgens (docs/materials-and-shading.md, "Reflections and skies"). Two quads of
# tests/make_quads.py in the plane x = 0, seen from (-100, 0, 0) along +X (64 x 64, fov 90, no
# MSAA, unlit): the left one (y 10..40) and the right one (y -40..-10), both z -15..15. The
# pixel columns 24 and 40 are y = +25 and -25 (x = 32 - 32 y / 100), rows 28 and 36 are
# z = +12.5 and -12.5 (y = 32 - 32 z / 100).
#
# Each face of the cube map env/c is 64 x 64 of one colour but for its top-right quadrant
# (columns 32..63, rows 0..31) and its bottom-left one (columns 0..31, rows 32..63), which have
# colours of their own. A direction d is read as GL (and the engine, which uploads a face's
# rows top first: Image_load.cpp, idImage::GenerateCubeImage) reads a cube map: the face of
# d's largest component, then s = (sc / |ma| + 1) / 2 and t = (tc / |ma| + 1) / 2 with
# -X: sc = z, tc = -y; +X: sc = -z, tc = -y; +Z: sc = x, tc = -y; t = 0 is row 0.
#
#   reflect (left quad): the eye's vector e = (-100, -y, -z) reflected about the normal
#     (+-1, 0, 0) is 2 (n.e) n - e = (-100, y, z): face nx; at y 25: t = 0.375 (top half),
#     z 12.5: s = 0.5625 (right half): the top-right quadrant; z -12.5: s = 0.4375: top-left,
#     the face's own colour.
#   skybox (right quad): vertex - eye = (100, y, z): face px; y -25: t = 0.625 (bottom half),
#     z 12.5: s = 0.4375: bottom-left quadrant; z -12.5: s = 0.5625: bottom-right, own colour.
#   wobbleSky 90 0 0 (right quad): the turn at tilt 90 degrees, no wobble and no rotation
#     (tr_light.cpp R_WobbleskyTexGen: axis2 = (1, 0, 0), axis1 = (0, 1, 0), axis0 = axis1 x
#     axis2 = (0, 0, -1)) takes (100, y, z) to (-z, y, 100): face pz, sc = -z, tc = -y: at
#     z 12.5, y -25: s = 0.4375, t = 0.625: bottom-left quadrant.
#   reflect with a bump map: below.
#   cameraCubeMap (skybox, right quad): face px is the `_forward` file transposed
#     (Image_files.cpp R_LoadCubeImages, R_RotatePic: px(x, y) = forward(y, x)); px's
#     bottom-left quadrant is then forward's top-right one.
set -u
. ./harness.sh cube_map

# face FILE OWN TOP_RIGHT BOTTOM_LEFT (ImageMagick colours)
face() {
    convert -size 64x64 "xc:$2" -fill "$3" -draw "rectangle 32,0 63,31" \
        -fill "$4" -draw "rectangle 0,32 31,63" "$1"
}

mkdir -p "$T/base/materials" "$T/base/env"
python3 make_quads.py "$T"
face "$T/base/env/c_px.png" "#ff0000" "#800000" "#ff8080"
face "$T/base/env/c_nx.png" "#00ff00" "#008000" "#80ff80"
face "$T/base/env/c_py.png" "#0000ff" "#000080" "#8080ff"
face "$T/base/env/c_ny.png" "#ffff00" "#808000" "#ffff80"
face "$T/base/env/c_pz.png" "#ff00ff" "#800080" "#ff80ff"
face "$T/base/env/c_nz.png" "#00ffff" "#008080" "#80ffff"
for f in forward back left right up down; do
    face "$T/base/env/k_$f.png" "#404040" "#ffffff" "#000000"
done
face "$T/base/env/k_forward.png" "#ff0000" "#00ff00" "#0000ff"
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\nactor q { mesh "quads.md5mesh" }\n' >"$T/q.md5scene"

draw() { # draw NAME MTR: renders the quads with materials MTR into $T/NAME0.png
    printf '%s\n' "$2" >"$T/base/materials/q.mtr"
    run "$1" render "$T/q.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/$1%d.png"
}
at() { # at NAME WHAT X Y WANT
    check_eq "$2" "$5" "$(px "$T/${1}0.png" "$3" "$4")"
}

draw gens 'left { { blend add cubeMap env/c texgen reflect } }
right { { blend add cubeMap env/c texgen skybox } }'
expect reflect_and_skybox_render 0
at gens reflect_reads_nx_top_right 24 28 0,128,0
at gens reflect_reads_nx_own 24 36 0,255,0
at gens skybox_reads_px_bottom_left 40 28 255,128,128
at gens skybox_reads_px_own 40 36 255,0,0
run info info "$T/q.md5scene" --json --materials
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["actors"][0]["textures"]
got = [(x["material"]["layers"][0]["map"]["program"], x["material"]["layers"][0].get("texgen"),
        x["material"]["layers"][0]["map"]["height"]) for x in t]
sys.exit(0 if got == [("cubeMap(env/c)", "reflect", 384), ("cubeMap(env/c)", "skybox", 384)]
         else print(got) or 1)' "$T/info.out" && ok info_names_cube_and_texgen ||
    fail info_names_cube_and_texgen "$(head -c 300 "$T/info.err")"

draw wobble 'left { { blend add map _black } }
right { { blend add cubeMap env/c texgen wobbleSky 90 0 0 } }'
expect wobblesky_renders 0
at wobble wobblesky_turns_the_sky_to_pz 40 28 255,128,255

draw camera 'left { { blend add map _black } }
right { { blend add cameraCubeMap env/k texgen skybox } }'
expect camera_cube_renders 0
at camera camera_faces_are_turned 40 28 0,255,0
at camera camera_face_own_colour 40 36 255,0,0

# reflect on a material with a bump map reads it (bumpyEnvironment.vfp): the left quad's s
# runs towards -y, so its tangent is (0, -1, 0), and a normal map of (255, 128, 128) turns the
# normal along it; e = (-100, -25, -12.5) at (24, 28) reflects to 2 (n.e) n - e =
# (100, -25, 12.5): face px, sc = -z: s = 0.4375, tc = -y: t = 0.625: the bottom-left quadrant
convert -size 4x4 "xc:rgb(255,128,128)" "$T/base/env/tilt.png"
draw bumpy 'left { diffusemap _black bumpmap env/tilt { blend add cubeMap env/c texgen reflect } }
right { { blend add map _black } }'
expect bumpy_reflection_renders 0
at bumpy bumpy_reflection_follows_the_bump_map 24 28 255,128,128

# a face missing: the engine's cube load fails and its default image stands in (drawn black
# without developer images), with the missing file named
rm "$T/base/env/c_py.png"
draw missing 'left { { blend add cubeMap env/c texgen reflect } }
right { { blend add map _black } }'
expect a_missing_face_is_a_warning 0 "" "env/c_py"
at missing a_missing_face_draws_black 24 28 0,0,0

# a texgen word the engine does not know: as any mistake in a material, a warning at it, the
# material drawn as the default one (the engine warns "bad texGen" and defaults it)
draw badgen 'left { { blend add cubeMap env/c texgen sphere } }
right { { blend add map _black } }'
expect an_unknown_texgen_is_a_warning 0 "" "q.mtr:1:41: warning: unknown texgen 'sphere', expected normal, reflect, skybox or wobbleSky; material 'left' is drawn as the default material"

finish
