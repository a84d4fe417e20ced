#!/bin/bash
# 'md5cine camera' and the scene's camera block end to end. The scene: the red box of
# data/render (front face y, z in -25..25 at x = 0), seen by a look_at from ( -100 0 0 ) at the
# origin for 0.25 s (6 steps at 24 fps), then a cut to an orbit of radius 100 at height 0 from
# angle 180 (the same eye) turning 90 degrees in 0.25 s. The box is in the middle of every
# frame of the first shot, so the centre pixel is red there. The written .md5camera, rendered
# by a second scene that names it, must give the same pixels as the block itself.
set -u
. ./harness.sh camera_cli
D=$PWD/data/render

rgb() {
    convert "$1" -format "%[fx:int(255*p{$2,$3}.r+0.5)],%[fx:int(255*p{$2,$3}.g+0.5)],%[fx:int(255*p{$2,$3}.b+0.5)]" info:
}

actor="actor \"red\" { mesh \"$D/box.md5mesh\" material \"box\" \"$D/red.png\" }"
cat >"$T/block.md5scene" <<SCENE
md5scene 1
camera {
    fps 24
    look_at { position ( -100 0 0 ) target ( 0 0 0 ) seconds 0.25 fov 90 }
    orbit { around "red" radius 100 height 0 start 180 degrees 90 seconds 0.25 }
}
output { width 64 height 64 background ( 0 0 0 ) }
$actor
SCENE

"$M" camera "$T/block.md5scene" -o "$T/cam.md5camera" 2>"$T/camera.err"
check writes_the_camera_of_a_block [ $? = 0 -a -s "$T/cam.md5camera" ]
check says_what_it_wrote grep -q "wrote '$T/cam.md5camera': 14 camera frames at 24 fps, 1 cut" "$T/camera.err"
check the_file_has_the_cut_after_the_first_shot grep -qx "numCuts 1" "$T/cam.md5camera"
"$M" info "$T/cam.md5camera" >"$T/info.out" 2>&1
check md5cine_reads_the_written_file_back [ $? = 0 ]

cat >"$T/file.md5scene" <<SCENE
md5scene 1
camera "cam.md5camera"
output { width 64 height 64 background ( 0 0 0 ) }
$actor
SCENE

"$M" render "$T/block.md5scene" -o "$T/a/%03d.png" --shading unlit --quiet 2>"$T/a.err"
check renders_a_scene_with_a_camera_block [ $? = 0 -a -f "$T/a/000.png" ]
"$M" render "$T/file.md5scene" -o "$T/b/%03d.png" --shading unlit --quiet 2>"$T/b.err"
check renders_the_written_camera_file [ $? = 0 -a -f "$T/b/000.png" ]
check both_have_13_frames [ "$(ls "$T/a" | wc -l)" = 13 -a "$(ls "$T/b" | wc -l)" = 13 ]
check the_box_is_in_the_middle_of_the_first_shot [ "$(rgb "$T/a/003.png" 32 32)" = 255,0,0 ]
same=1
for f in "$T"/a/*.png; do
    cmp -s "$f" "$T/b/$(basename "$f")" || same=0
done
check the_file_and_the_block_give_the_same_pixels [ $same = 1 ]

"$M" camera "$D/boxes.md5scene" -o "$T/no.md5camera" 2>"$T/no.err"
rc=$?
check refuses_a_scene_that_names_a_camera_file [ $rc = 2 -a ! -e "$T/no.md5camera" ]

# The README's "Your first scene": the walkthrough's scene renders (two frames, one per shot,
# small), and the drone in the middle of the first shot is not the background colour.
W=$PWD/../scenes/demo/first.md5scene
"$M" render "$W" -o "$T/first/%03d.png" --size 160x90 --frames 0-0 --quiet 2>"$T/first.err"
check renders_the_first_scene_walkthrough [ $? = 0 -a -f "$T/first/000.png" ]
check the_first_scene_shows_the_drone [ "$(rgb "$T/first/000.png" 80 40)" != 15,18,26 ]
"$M" camera "$W" -o "$T/first.md5camera" --quiet
check writes_the_first_scenes_camera [ $? = 0 -a -s "$T/first.md5camera" ]

finish
