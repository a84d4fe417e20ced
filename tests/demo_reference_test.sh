#!/usr/bin/env bash
# md5cine in a user's test suite, on the bundled demo (at 320x180 to stay quick):
# - render --reference passes against its own fresh references, and fails, naming the frames,
#   when one actor's anim is swapped (the walker plays idle instead of forward: it is on screen
#   in shots 1 and 2, output frames 0-167, and out of the frame in shot 3, 168-240);
# - the MP4 of the demo compared with its own PNG render passes at the video defaults, and a
#   swapped frame in the PNG folder fails, named.
set -u
. ./harness.sh demo_reference

cp -r ../scenes/demo "$T/demo"
scene="$T/demo/demo.md5scene"
# Shadows off: the walker's shadow reaches into shot 3's picture, which would make every frame
# differ below; this test is about the reference check, not the look.
size=(--size 320x180 --shadows off)

"$M" render "$scene" "${size[@]}" --reference "$T/ref" --update-reference --quiet \
    >"$T/update.txt" 2>&1
[ $? -eq 0 ] && ok update_reference_exits_0 || fail update_reference_exits_0
n=$(ls "$T/ref" | grep -c '^[0-9]*\.png$')
[ "$n" -eq 241 ] && ok update_reference_writes_241_frames ||
    fail update_reference_writes_241_frames "(got $n)"

"$M" render "$scene" "${size[@]}" --reference "$T/ref" --quiet >"$T/same.txt" 2>&1
[ $? -eq 0 ] && ok render_matches_its_own_references || fail render_matches_its_own_references
grep -q "241 matched" "$T/same.txt" && ok all_241_frames_match ||
    fail all_241_frames_match "$(tail -1 "$T/same.txt")"

# The walker plays its model declaration's anim "walk" (def/demo.def); give it "idle".
sed -i 's/anim "walk"/anim "idle"/' "$scene"
grep -q 'anim "walk"' "$scene" && fail swap_edit_applied || ok swap_edit_applied
"$M" render "$scene" "${size[@]}" --reference "$T/ref" --diff "$T/diff" --quiet --verbose \
    >"$T/swapped.txt" 2>&1
[ $? -eq 1 ] && ok swapped_anim_exits_1 || fail swapped_anim_exits_1
# Frames 0 and 167 show the walker (shots 1 and 2); 240 does not (shot 3). --verbose lists
# every failing frame (without it, the first 10 and a count).
grep -Eq '^ +0 ' "$T/swapped.txt" && ok frame_0_is_named || fail frame_0_is_named
grep -Eq '^ +167 ' "$T/swapped.txt" && ok frame_167_is_named || fail frame_167_is_named
grep -Eq '^ +240 ' "$T/swapped.txt" && fail frame_240_is_not_named || ok frame_240_is_not_named
grep -q "73 matched, 168 differ" "$T/swapped.txt" && ok shots_1_and_2_differ_shot_3_matches ||
    fail shots_1_and_2_differ_shot_3_matches "$(grep matched "$T/swapped.txt")"
[ -f "$T/diff/diff_00000.png" ] && ok difference_picture_written ||
    fail difference_picture_written

# Video against PNGs: the lossy defaults apply because one side is a video.
cp ../scenes/demo/demo.md5scene "$scene"
"$M" render "$scene" "${size[@]}" -o "$T/png/%05d.png" --quiet && ok png_render ||
    fail png_render
"$M" render "$scene" "${size[@]}" -o "$T/demo.mp4" --quiet && ok mp4_render || fail mp4_render
"$M" compare "$T/png" "$T/demo.mp4" >"$T/video.txt" 2>&1
[ $? -eq 0 ] && ok mp4_matches_its_png_render ||
    fail mp4_matches_its_png_render "$(tail -1 "$T/video.txt")"
cp "$T/png/00100.png" "$T/png/00050.png"
"$M" compare "$T/png" "$T/demo.mp4" >"$T/video_swap.txt" 2>&1
[ $? -eq 1 ] && ok swapped_png_frame_exits_1 || fail swapped_png_frame_exits_1
grep -Eq '^ +50 ' "$T/video_swap.txt" && ok swapped_frame_50_is_named ||
    fail swapped_frame_50_is_named
grep -q "241 frames checked, 240 matched, 1 differ" "$T/video_swap.txt" &&
    ok only_frame_50_differs ||
    fail only_frame_50_differs "$(tail -1 "$T/video_swap.txt")"

finish
