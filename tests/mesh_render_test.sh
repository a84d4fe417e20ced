#!/bin/bash
# `md5cine render MESH [ANIM]`: a mesh rendered without a scene file, on a turntable framed
# around it (src/cli/mesh_scene.h). Expected values by hand from the camera block's rule
# (include/md5cine/scene.h): a shot of S seconds at 24 fps has round(S * 24) steps and lasts one
# frame more; the turn is 4 s, or the anim's (numFrames - 1) / frameRate when longer. The
# framing puts the bounds' sphere 2.4 radii away: its half angle asin(1 / 2.4) = 24.6 degrees is
# inside the half height of a 90 degree view across 160x90 (atan(90 / 160) = 29.4 degrees), so
# the model touches no edge of the picture.
set -u
. ./harness.sh mesh_render
A=data/assets/redeclipse-drone

# 4 s at 24 fps: 96 steps, frames 0-96.
run last render "$A/mesh.md5mesh" --size 160x90 --msaa 0 --frames 96-96 -o "$T/m_%05d.png"
expect the_turn_of_a_mesh_has_97_frames 0
run past render "$A/mesh.md5mesh" --size 160x90 --msaa 0 --frames 97-97 -o "$T/p_%05d.png"
expect the_turn_of_a_mesh_ends_at_frame_96 2 "" "outside the scene's frames 0-96"
run first render "$A/mesh.md5mesh" --size 160x90 --msaa 0 --frames 0-0 -o "$T/m_%05d.png"
run half render "$A/mesh.md5mesh" --size 160x90 --msaa 0 --frames 48-48 -o "$T/m_%05d.png"
expect half_a_turn_renders 0

# Framed: the model's pixels (not the background) touch no edge and fill a good part of the
# height; frame 0 and frame 96 (one whole turn) show the same picture, frame 48 another.
bbox=$(convert "$T/m_00000.png" -fuzz 2% -trim -format '%w %h %X %Y' info: 2>/dev/null)
read -r bw bh bx by <<<"$bbox"
if [ -n "${by:-}" ] && [ "${bx#+}" -gt 0 ] && [ "${by#+}" -gt 0 ] &&
    [ $((${bx#+} + bw)) -lt 160 ] && [ $((${by#+} + bh)) -lt 90 ] && [ "$bh" -ge 30 ]
then ok the_mesh_is_framed_inside_the_picture
else fail the_mesh_is_framed_inside_the_picture "bounding box of the model: '$bbox'"; fi
same=$(compare -metric AE -fuzz 2% "$T/m_00000.png" "$T/m_00096.png" null: 2>&1)
half=$(compare -metric AE -fuzz 2% "$T/m_00000.png" "$T/m_00048.png" null: 2>&1)
if [ "${same%% *}" -le 4 ] && [ "${half%% *}" -gt 100 ]; then ok one_turn_comes_back_to_the_start
else fail one_turn_comes_back_to_the_start "frame 96 differs from 0 in $same pixels, 48 $half"; fi

# An anim plays on the mesh (looping) and, when longer than 4 s, sets the turn: forward.md5anim
# at frameRate 2 lasts (12 - 1) / 2 = 5.5 s, 132 steps, frames 0-132.
sed 's/^frameRate 24/frameRate 2/' "$A/forward.md5anim" >"$T/slow.md5anim"
run anim render "$A/mesh.md5mesh" "$T/slow.md5anim" --size 32x32 --msaa 0 --frames 132-132 \
    -o "$T/a_%05d.png"
expect a_long_anim_sets_the_turn 0
run anim_past render "$A/mesh.md5mesh" "$T/slow.md5anim" --size 32x32 --msaa 0 \
    --frames 133-133 -o "$T/a_%05d.png"
expect a_long_anim_ends_the_turn 2 "" "outside the scene's frames 0-132"
run short render "$A/mesh.md5mesh" "$A/forward.md5anim" --size 32x32 --msaa 0 --frames 0-0 \
    -o "$T/s_%05d.png"
expect a_short_anim_keeps_four_seconds 0

# Errors: each file's at its own place; a second file only after a mesh.
run anim_missing render "$A/mesh.md5mesh" "$T/none.md5anim" -o "$T/x_%05d.png"
expect a_missing_anim_is_an_error 2 "" "cannot open '$T/none.md5anim'"
# the mesh with "numMeshes x": the error at the x, column 11 of that line
sed 's/^numMeshes .*/numMeshes x/' "$A/mesh.md5mesh" >"$T/bad.md5mesh"
line=$(grep -n '^numMeshes x' "$T/bad.md5mesh" | cut -d: -f1)
run bad render "$T/bad.md5mesh" -o "$T/x_%05d.png"
expect a_bad_mesh_is_an_error_at_its_place 2 "" "$T/bad.md5mesh:$line:11: error:"
printf 'md5scene 1\ncamera "c.md5camera"\n' >"$T/s.md5scene"
run two render "$T/s.md5scene" "$A/forward.md5anim" -o "$T/x_%05d.png"
expect a_second_file_only_after_a_mesh 2 "" "render takes a second file only after a mesh"

# info on a mesh says how to look at it, with this command.
run info info "$A/mesh.md5mesh"
expect info_suggests_rendering_the_mesh 0 \
    "  to look at it: md5cine render $A/mesh.md5mesh [ANIM.md5anim] -o preview.mp4"

finish
