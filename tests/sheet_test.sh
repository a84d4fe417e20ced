#!/bin/bash
# 'md5cine sheet' from the command line: the demo's sheet (cells equal to the frames rendered
# alone, labels drawn, the shots' first and last frames, its sound's waveform under them with its
# events marked), a video's chapters (a chunk's too), a folder with --every, and bad input.
# Pixels are read with ImageMagick, sizes with identify.
set -u
. ./harness.sh sheet
# pixels NAME IMAGE WxH+X+Y: ImageMagick's count of differing pixels between a crop and FILE
differing() { compare -metric AE "$1" "$2" null: 2>&1 | cut -d' ' -f1; }
crop() { convert "$1" -crop "$2" +repage "$3"; }

scene=../scenes/demo/demo.md5scene
# The demo's shots (md5cine info): 0-83, 84-167, 168-240; picks 0 83 84 167 168 240.
shots=$("$MD5CINE" info ../scenes/demo/demo.md5camera --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["shots"]
print(" ".join("%d %d" % (x["first"], x["last"]) for x in s))')
check_eq info_lists_the_shots "0 83 84 167 168 240" "$shots"

# 320x180 frames make 320x180 cells (the default width): each cell is its frame unchanged. The
# demo has sound: under the cells (2 rows of 180 + 14 + 4, and 4: 400 rows) its waveform band's
# 48 rows (MC_SHEET_WAVE_HEIGHT) and a 4-row gap, 452 rows in all.
run demo sheet "$scene" --render-size 320x180 -o "$T/demo.png"
expect demo_sheet_is_written 0 "" "6 frames, 4 x 2 cells of 320x180, 1300x452"
check_eq demo_sheet_size 1300x452 "$(identify -format %wx%h "$T/demo.png" 2>&1)"
# Its sound events are marked in the band (rows 400-447), whole-height lines in the onset colour
# (255, 208, 64), at column floor(sample * 1292 / 442837) of the 1292 from x = 4 (241 frames at
# 24 fps: samples 0 .. 241 * 44100 / 24 = 442837): the first footstep (frame 4 of the walk,
# sample round(3 / 24 * 44100) = 5513) at x = 4 + 16 = 20, the guard's line (4.0 s, sample
# 176400) at x = 4 + 514 = 518, the door (7.5 s, sample 330750) at x = 4 + 964 = 968.
for x in 20 518 968; do
    crop "$T/demo.png" "1x48+$x+400" "$T/mark$x.png"
    check_eq "demo_sheet_marks_the_event_at_x_$x" "255 255 208 64" \
        "$(convert "$T/mark$x.png" -format \
            '%[fx:minima.r*255] %[fx:maxima.r*255] %[fx:minima.g*255] %[fx:maxima.b*255]' info:)"
done
i=0
for k in $shots; do
    x=$((4 + (i % 4) * 324)) y=$((4 + (i / 4) * 198))
    "$MD5CINE" render "$scene" --size 320x180 --frames "$k-$k" -q -o "$T/f/%05d.png"
    crop "$T/demo.png" "320x180+$x+$y" "$T/cell$i.png"
    check_eq "cell_${i}_is_frame_$k" 0 "$(differing "$T/f/$(printf %05d "$k").png" "$T/cell$i.png")"
    # the label strip: black with white letters
    crop "$T/demo.png" "320x14+$x+$((y + 180))" "$T/label$i.png"
    check_eq "cell_${i}_label_is_white_on_black" "0 255" \
        "$(convert "$T/label$i.png" -format '%[fx:minima.r*255] %[fx:maxima.r*255]' info:)"
    i=$((i + 1))
done
check_eq six_cells_checked 6 "$i"
check_eq labels_differ y "$([ "$(differing "$T/label0.png" "$T/label1.png")" -gt 0 ] && echo y)"
check_eq cells_differ y "$([ "$(differing "$T/cell1.png" "$T/cell2.png")" -gt 1000 ] && echo y)"
# the two cells past the sixth are background (24, 24, 24)
crop "$T/demo.png" "320x194+652+202" "$T/empty.png"
check_eq empty_cells_are_background "24 24" \
    "$(convert "$T/empty.png" -format '%[fx:minima.r*255] %[fx:maxima.r*255]' info:)"

# a video: its chapters are the shots; a smaller cell is the box mean of the frame
"$MD5CINE" render "$scene" --size 160x90 -q -o "$T/demo.mp4"
run video sheet "$T/demo.mp4" --size 80x45 --columns 3 -o "$T/video.png"
expect video_sheet_picks_the_chapters 0 "" "6 frames, 3 x 2 cells of 80x45"
# the demo has sound: the waveform band's 48 rows (MC_SHEET_WAVE_HEIGHT) and a 4-pixel gap below
check_eq video_sheet_size "$((3 * 84 + 4))x$((2 * 63 + 4 + 48 + 4))" \
    "$(identify -format %wx%h "$T/video.png")"
# a chunk video (frames 100-240) keeps the scene's frame numbers and chapters "Shot 2" (from its
# first frame) and "Shot 3" at 168: picks 100, 167, 168, 240, and the labels of 167 and 168 are
# those of the demo sheet's cells 3 and 4 (frame, time code and shot number alike)
"$MD5CINE" render "$scene" --size 320x180 --frames 100-240 -q -o "$T/chunk.mp4"
run chunk sheet "$T/chunk.mp4" -o "$T/chunk.png"
expect chunk_sheet_picks_its_shots 0 "" "4 frames, 4 x 1 cells of 320x180"
crop "$T/chunk.png" "320x14+328+184" "$T/clabel1.png"
crop "$T/chunk.png" "320x14+652+184" "$T/clabel2.png"
check_eq chunk_label_of_167 0 "$(differing "$T/label3.png" "$T/clabel1.png")"
check_eq chunk_label_of_168 0 "$(differing "$T/label4.png" "$T/clabel2.png")"
run video_every sheet "$T/demo.mp4" --every 60 -o "$T/every.png"
expect every_60_gives_5_cells 0 "" "5 frames, 4 x 2 cells of 320x180"

# a folder without shots: ceil(41 / 24) = 2, frames 0 2 .. 40: 21 cells
"$MD5CINE" render "$scene" --size 64x36 --fps 4 -q -o "$T/seq/%05d.png"
run folder sheet "$T/seq" -o "$T/folder.png"
expect folder_sheet_takes_every_second_frame 0 "" "21 frames, 4 x 6 cells of 320x180"
run folder_cols sheet "$T/seq" --every 10 --columns 5 -o "$T/folder5.png"
expect folder_every_10_in_5_columns 0 "" "5 frames, 5 x 1 cells of 256x144"

# bad input: exit 2 and nothing written; a folder that cannot be written: exit 3
run no_out sheet "$scene"
expect needs_an_output 2 '' "sheet needs -o"
run not_png sheet "$scene" -o "$T/x.jpg"
expect output_must_be_png 2 '' "must end in .png"
run missing sheet "$T/nothing.md5scene" -o "$T/x.png"
expect missing_scene_is_bad_input 2 '' "nothing.md5scene"
run missing_dir sheet "$T/nothing" -o "$T/x.png"
expect missing_folder_is_bad_input 2 '' "nothing"
run every0 sheet "$T/seq" --every 0 -o "$T/x.png"
expect every_0_is_a_usage_error 2 '' "bad --every '0'"
run badsize sheet "$T/seq" --size 0x10 -o "$T/x.png"
expect cell_size_0_is_a_usage_error 2 '' "bad --size '0x10'"
run toomany sheet "$T/seq" --every 1 --size 4000x4000 -o "$T/x.png"
expect too_large_a_sheet_is_bad_input 2 '' "more than 16384 per side"
check_eq nothing_written_on_bad_input 0 "$(ls "$T"/x.* 2>/dev/null | wc -l)"
run nodir sheet "$T/seq" -o "$T/no/such/dir/s.png"
expect unwritable_output_is_a_runtime_failure 3 '' "s.png"
check_eq no_temporary_left 0 "$(ls -a "$T" | grep -c '\.tmp$')"

finish
