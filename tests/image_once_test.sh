#!/bin/bash
# Each distinct image of a scene is read, counted against the image budget (--image-pixels) and
# uploaded once, however many materials name it; the scene's own texture images (the implicit
# rule: a shader's image next to the mesh) come under the same budget. Images are run-length
# TGAs of one colour, a few KB however many pixels they declare.
set -u
. ./harness.sh image_once

# tga PATH W H: a W x H 24-bit run-length TGA of one colour.
tga() {
    python3 - "$@" <<'PY'
import struct, sys
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
packets = (w * h + 127) // 128
with open(path, 'wb') as f:
    f.write(struct.pack('<BBBHHBHHHHBB', 0, 0, 10, 0, 0, 0, 0, 0, w, h, 24, 0))
    f.write(bytes([0xFF, 50, 100, 200]) * packets)
PY
}
# strips FOLDER N: FOLDER/strips.md5mesh, N quads side by side facing the camera, shaders m0 ..
# m<N-1>, and FOLDER/cam.md5camera looking at them.
strips() {
    python3 - "$1" "$2" <<'PY'
import sys
folder, n = sys.argv[1], int(sys.argv[2])
text = 'MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes %d\njoints {\n' % n
text += '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n'
for i in range(n):
    y0, y1 = -40 + 80.0 * i / n, -40 + 80.0 * (i + 1) / n
    v = [(0, y1, 15), (0, y0, 15), (0, y0, -15), (0, y1, -15)]
    st = [(0, 0), (1, 0), (1, 1), (0, 1)]
    text += 'mesh {\n\tshader "m%d"\n\tnumverts 4\n' % i
    for k in range(4):
        text += '\tvert %d ( %g %g ) %d 1\n' % (k, st[k][0], st[k][1], k)
    text += '\tnumtris 2\n\ttri 0 0 1 2\n\ttri 1 0 2 3\n\tnumweights 4\n'
    for k, p in enumerate(v):
        text += '\tweight %d 0 1 ( %g %g %g )\n' % (k, p[0], p[1], p[2])
    text += '}\n'
open(folder + '/strips.md5mesh', 'w').write(text)
open(folder + '/cam.md5camera', 'w').write(
    'MD5Version 10\ncommandline ""\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\n'
    'camera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n')
PY
}
# shared FOLDER N IMAGE: N materials m0 .. m<N-1>, each with IMAGE as diffuse map, in
# FOLDER/base/materials/m.mtr, and FOLDER/a.md5scene drawing them.
shared() {
    mkdir -p "$T/$1/base/materials"
    strips "$T/$1" "$2"
    for ((i = 0; i < $2; i++)); do
        printf 'm%d { diffusemap %s }\n' "$i" "$3"
    done >"$T/$1/base/materials/m.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "strips.md5mesh" }\n' >"$T/$1/a.md5scene"
}

# ---- 1. 17 materials naming one 512x512 image (256 Ki pixels): 4.25 Mi pixels if counted per
#         material, past a budget of 1 Mi pixels; counted once, a quarter of it.
shared one 17 textures/a
mkdir -p "$T/one/base/textures"
tga "$T/one/base/textures/a.tga" 512 512
run seventeen render "$T/one/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/one/f%d.png"
expect seventeen_materials_of_one_image_fit_a_budget_of_four_copies 0
[ -f "$T/one/f0.png" ] && ok the_frame_is_written || fail the_frame_is_written "$(ls "$T/one")"
run seventeen_info info "$T/one/a.md5scene" --materials
expect info_reads_the_seventeen_materials_too 0 "m16"

# The same image under zeroclamp is another image (its border is changed), under plain repeat
# the same one: with 512x1024 (512 Ki pixels), plain, zeroclamp and plain again are two images,
# 1 Mi pixels; a third form (clamp) is past the budget.
shared forms 3 textures/a
mkdir -p "$T/forms/base/textures"
tga "$T/forms/base/textures/a.tga" 512 1024
printf 'm0 { diffusemap textures/a }\nm1 { { blend diffusemap map textures/a zeroclamp } }\nm2 { diffusemap textures/a }\n' >"$T/forms/base/materials/m.mtr"
run forms render "$T/forms/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/forms/f%d.png"
expect an_image_under_two_clamp_modes_is_two_images_within_budget 0
printf 'm0 { diffusemap textures/a }\nm1 { { blend diffusemap map textures/a zeroclamp } }\nm2 { { blend diffusemap map textures/a clamp } }\n' >"$T/forms/base/materials/m.mtr"
run forms3 render "$T/forms/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/forms/g%d.png"
expect a_third_clamp_mode_is_a_third_image_past_the_budget 2 "" \
    "$T/forms/base/textures/a.tga: error: 512x1024 pixels take the scene past 1048576 pixels of images in all"

# ---- 2. two different 1024x768 images (768 Ki pixels each) are still past 1 Mi pixels
shared two 2 textures/a
mkdir -p "$T/two/base/textures"
printf 'm0 { diffusemap textures/a }\nm1 { diffusemap textures/b }\n' >"$T/two/base/materials/m.mtr"
tga "$T/two/base/textures/a.tga" 1024 768
tga "$T/two/base/textures/b.tga" 1024 768
run two render "$T/two/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/two/f%d.png"
expect two_different_images_past_the_budget_are_refused 2 "" \
    "$T/two/base/textures/b.tga: error: 1024x768 pixels take the scene past 1048576 pixels of images in all"
[ ! -e "$T/two/f0.png" ] && ok no_frame_is_written || fail no_frame_is_written

# ---- 3. an implicit texture (the shader's image next to the mesh) is under the budget: one of
#         2048x1024 (2 Mi pixels) alone is past 1 Mi; one of 1024x768 fits alone, but not with
#         a material's image of as many pixels.
mkdir -p "$T/imp"
strips "$T/imp" 1
tga "$T/imp/m0.tga" 2048 1024
printf 'md5scene 1\ncamera "cam.md5camera"\nactor q { mesh "strips.md5mesh" }\n' >"$T/imp/a.md5scene"
run implicit render "$T/imp/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/imp/f%d.png"
expect an_implicit_texture_past_the_budget_is_refused 2 "" \
    "$T/imp/m0.tga: error: 2048x1024 pixels take the scene past 1048576 pixels of images in all"
tga "$T/imp/m0.tga" 1024 768
run implicit_fits render "$T/imp/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/imp/f%d.png"
expect an_implicit_texture_within_the_budget_renders 0
mkdir -p "$T/mix/base/materials" "$T/mix/base/textures"
strips "$T/mix" 2
tga "$T/mix/m0.tga" 1024 768
tga "$T/mix/base/textures/b.tga" 1024 768
printf 'm1 { diffusemap textures/b }\n' >"$T/mix/base/materials/m.mtr"
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "strips.md5mesh" }\n' >"$T/mix/a.md5scene"
run mix render "$T/mix/a.md5scene" --size 64x64 --msaa 0 --image-pixels 1 -o "$T/mix/f%d.png"
expect an_implicit_texture_and_a_material_share_the_budget 2 "" \
    "$T/mix/base/textures/b.tga: error: 1024x768 pixels take the scene past 1048576 pixels of images in all"

# ---- 4. memory: one 2048x2048 image (16 MiB of RGBA) named by 17 materials costs about what
#         it costs named by one; read, kept or uploaded per material it would add over 250 MiB.
shared big1 1 textures/a
shared big17 17 textures/a
mkdir -p "$T/big1/base/textures" "$T/big17/base/textures"
tga "$T/big1/base/textures/a.tga" 2048 2048
cp "$T/big1/base/textures/a.tga" "$T/big17/base/textures/a.tga"
peak big1 render "$T/big1/a.md5scene" --size 64x64 --msaa 0 -o "$T/big1/f%d.png"
expect one_material_of_a_2048_image_renders 0
one=$kib
rc1=$rc
peak big17 render "$T/big17/a.md5scene" --size 64x64 --msaa 0 -o "$T/big17/f%d.png"
expect seventeen_materials_of_a_2048_image_render_within_the_default_budget 0
[ "$rc1" -eq 0 ] && [ "$rc" -eq 0 ] && [ "$kib" -lt $((one + 16384)) ] && ok seventeen_materials_cost_less_than_one_more_copy ||
    fail seventeen_materials_cost_less_than_one_more_copy "one: $one KiB, seventeen: $kib KiB"

finish
