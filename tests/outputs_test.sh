#!/bin/bash
# Outputs never replace inputs: every command refuses (exit 2, a message naming both paths)
# an output that is one of its inputs, by file identity (other spellings, symbolic and hard
# links), or that lies inside an input folder of frames, before it writes anything. Each case
# checks that the input is byte for byte what it was and that nothing new appeared.
set -u
. ./harness.sh outputs

S=$T/s
mkdir -p "$S/ref" "$S/new"
cp data/scenes/arm.md5mesh data/scenes/arm.md5anim data/scenes/cut.md5camera "$S/"
cp data/scenes/skin.png "$S/tex0.png"
cp data/render/red.png "$S/ref/00000.png"
cp data/render/red.png "$S/ref/00001.png"
cp data/render/red.png "$S/new/00000.png"
cp data/render/red.png "$S/new/00001.png"
printf 'md5scene 1\ncamera "cut.md5camera"\nactor a {\n    mesh "arm.md5mesh"\n    anim "arm.md5anim"\n    material "skin" "tex0.png"\n}\n' >"$S/s.md5scene"
printf 'md5scene 1\ncamera { look_at { position ( 100 0 0 ) target ( 0 0 0 ) seconds 1 } }\n' >"$S/c.md5scene"
printf 'not a video' >"$S/p1.mp4"
printf 'not a video either' >"$S/p2.mp4"
ln -s arm.md5mesh "$S/mesh_link.mp4"     # a video name that is the mesh
ln "$S/cut.md5camera" "$S/cam_hard.mkv"  # a hard link: another name, the same file
ln -s ref "$S/ref_link"                  # the reference folder under another name
ln -s arm.md5mesh "$S/mesh_link.obj"
ln -s c.md5scene "$S/c_link.md5camera"
(cd "$S" && find . | LC_ALL=C sort | xargs -d '\n' sha256sum 2>/dev/null) >"$T/before"

# refused NAME WANT_IN_STDERR ARGS...: exit 2, the message, and not one file changed or added.
refused() {
    local name=$1 msg=$2
    shift 2
    run "$name" "$@"
    expect "$name" 2 "" "$msg"
    if ! (cd "$S" && find . | LC_ALL=C sort | xargs -d '\n' sha256sum 2>/dev/null) | cmp -s - "$T/before"; then
        fail "${name}_left_files_alone" "the folder changed: $(cd "$S" && find . -newer "$T/before")"
    fi
}

cd "$S" || exit 1
# camera: the scene itself, as ./ and as dir/../ spellings and through a symbolic link.
refused camera_onto_its_scene "-o 'c.md5scene' is the input 'c.md5scene'" camera c.md5scene -o c.md5scene
refused camera_onto_dot_slash_scene "is the input 'c.md5scene'" camera c.md5scene -o ./c.md5scene
refused camera_onto_dotdot_scene "is the input" camera "$S/c.md5scene" -o "$S/ref/../c.md5scene"
refused camera_onto_link_to_scene "-o 'c_link.md5camera' is the input 'c.md5scene'" camera c.md5scene -o c_link.md5camera
# render: onto the scene, the camera (hard link), the mesh (symbolic link), a texture (the PNG
# pattern's frame 0 is the texture's name).
refused render_onto_mesh_link "-o 'mesh_link.mp4' is the input 'arm.md5mesh'" render s.md5scene -o mesh_link.mp4
refused render_onto_camera_hard_link "-o 'cam_hard.mkv' is the input 'cut.md5camera'" render s.md5scene -o cam_hard.mkv
refused render_png_onto_texture "-o 'tex0.png' is the input" render s.md5scene -o 'tex%d.png'
refused render_png_range_onto_texture "is the input" render s.md5scene --frames 0-3 -o "$S/tex%d.png"
# render with a reference folder: frames, --diff, --junit and --report inside it.
refused render_frames_into_reference "-o 'ref/' lies inside the input folder 'ref'" render s.md5scene --reference ref -o 'ref/%05d.png'
refused render_diff_into_reference "--diff 'ref_link/d' lies inside the input folder 'ref'" render s.md5scene --reference ref --diff ref_link/d
refused render_junit_onto_reference_frame "--junit 'ref/00001.png' lies inside the input folder 'ref'" render s.md5scene --reference ref --junit ref/00001.png
refused render_report_is_reference "--report './ref' lies inside the input folder 'ref'" render s.md5scene --reference ref --report ./ref
refused render_junit_onto_reference_file "--junit 'ref/../ref/00000.png' is the input 'ref/00000.png'" render s.md5scene --reference ref/00000.png --junit ref/../ref/00000.png
# sheet onto a frame of its source folder, through the folder's link.
refused sheet_onto_source_frame "-o 'ref_link/00000.png' lies inside the input folder 'ref'" sheet ref -o ref_link/00000.png
refused sheet_onto_scene_texture "-o 'tex0.png' is the input" sheet s.md5scene -o tex0.png
# compare: --junit onto a frame, --diff into either folder, --report replacing it.
refused compare_junit_onto_frame "--junit 'ref/00000.png' lies inside the input folder 'ref'" compare ref new --junit ref/00000.png
refused compare_diff_into_candidate "--diff 'new/d' lies inside the input folder 'new'" compare ref new --diff new/d
refused compare_diff_into_reference_spelled "lies inside the input folder 'ref'" compare ref new --diff new/../ref_link/x/y
refused compare_report_is_candidate "--report 'new/' lies inside the input folder 'new'" compare ref new --report new/
refused compare_junit_onto_image "--junit 'ref/00000.png' is the input 'ref/00000.png'" compare ref/00000.png new/00000.png --junit ref/00000.png
# concat onto one of its parts; export onto its mesh through a link.
refused concat_onto_part "-o './p2.mp4' is the input 'p2.mp4'" concat p1.mp4 p2.mp4 -o ./p2.mp4
refused export_onto_mesh_link "-o 'mesh_link.obj' is the input 'arm.md5mesh'" export arm.md5mesh arm.md5anim --frame 0 -o mesh_link.obj
refused export_onto_its_anim "-o '$S/arm.md5anim' is the input 'arm.md5anim'" export arm.md5mesh arm.md5anim --frame 0 -o "$S/arm.md5anim"

# The same commands write what is not an input: the checks refuse nothing else.
run camera_elsewhere camera c.md5scene -o "$T/c.md5camera" --quiet
expect camera_writes_a_new_file 0
run compare_diff_beside compare ref new --diff "$T/d" --junit "$T/j.xml" --quiet
expect compare_writes_beside_its_folders 0
run export_elsewhere export arm.md5mesh -o "$T/arm.obj" --quiet
expect export_writes_a_new_file 0
[ -s "$T/c.md5camera" ] && [ -s "$T/j.xml" ] && [ -s "$T/arm.obj" ] && ok outputs_beside_inputs_exist ||
    fail outputs_beside_inputs_exist "missing: $(ls "$T")"

finish
