#!/bin/bash
# 'md5cine compare' from the command line: folders, single PNGs and videos, exit codes 0/1/2,
# the table, --json, --diff, bad inputs. Frames are drawn with ImageMagick (a ball moving 8
# pixels per frame and a thick line), videos made with the ffmpeg command line.
set -u
. ./harness.sh compare

# frame OUT BALL_X [SIZE]: one render-like frame
frame() {
    local x=$2 size=${3:-160x120}
    convert -size "$size" gradient:'#28304a-#10141c' -fill '#c87850' \
        -draw "circle $x,50 $((x + 24)),50" -fill '#5aa0d2' -stroke '#5aa0d2' -strokewidth 6 \
        -draw "line 30,30 70,100" -depth 8 "PNG24:$1"
}

mkdir -p "$T/ref"
for i in 0 1 2 3; do
    frame "$T/ref/$(printf %05d $i).png" $((50 + 8 * i)) || { echo "FAIL cannot draw frames"; exit 1; }
done
cp -r "$T/ref" "$T/same"
cp -r "$T/ref" "$T/moved"
frame "$T/moved/00002.png" 67 # frame 2 has its ball at 66: moved by one pixel

run identical_folders_match compare "$T/ref" "$T/same"
expect identical_folders_match 0 "4 frames checked, 4 matched, 0 differ, 0 missing"

run moved_ball_differs compare "$T/ref" "$T/moved"
expect moved_ball_differs 1 "4 frames checked, 3 matched, 1 differ, 0 missing"
check_only_row table_lists_only_the_failing_frame "$T/moved_ball_differs.out" '^ +2 ' '^ +[013] '

run loose_limits_pass compare "$T/ref" "$T/moved" --max-failing-share 100% --min-ssim 0
expect loose_limits_pass 0 "4 frames checked, 4 matched"

run max_diff_limit_fails compare "$T/ref" "$T/moved" --max-failing-share 1 --max-diff 30
expect max_diff_limit_fails 1 "max diff"

run quiet_prints_nothing compare "$T/ref" "$T/moved" --quiet
if [ "$rc" -eq 1 ] && [ ! -s "$T/quiet_prints_nothing.out" ]; then ok quiet_prints_nothing
else fail quiet_prints_nothing "exit $rc, output $(cat "$T/quiet_prints_nothing.out")"; fi

# JSON: one object with limits, every frame and a summary.
run json_output compare "$T/ref" "$T/moved" --json
expect json_output 1 '"summary": {"checked": 4, "passed": 3, "failed": 1, "missing": 0, "unreadable": 0, "written": 0, "pass": false}'
j="$T/json_output.out"
if [ "$(head -c 1 "$j")" = "{" ] && [ "$(grep -c '"frame": ' "$j")" -eq 4 ] &&
    grep -qF '"mode": "lossless"' "$j" && grep -qF '"frame": 2, "pass": false' "$j" &&
    grep -qF '"frame": 0, "pass": true, "max_diff": 0' "$j" && grep -qF '"psnr": null' "$j"; then
    ok json_has_limits_frames_and_summary
else
    fail json_has_limits_frames_and_summary "$(cat "$j")"
fi

# PSNR agrees with FFmpeg's psnr filter on the same pair (its "average" is over R, G and B).
run psnr_pair compare "$T/ref/00002.png" "$T/moved/00002.png" --json
ours=$(sed -n 's/.*"psnr": \([0-9.]*\).*/\1/p' "$T/psnr_pair.out")
theirs=$(ffmpeg -v info -i "$T/ref/00002.png" -i "$T/moved/00002.png" \
    -lavfi '[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr' -f null - 2>&1 |
    sed -n 's/.*PSNR r:.* average:\([0-9.]*\).*/\1/p')
if [ -n "$ours" ] && [ -n "$theirs" ] && awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !((a - b) ^ 2 < 1e-4) }'; then
    ok psnr_agrees_with_ffmpeg
else
    fail psnr_agrees_with_ffmpeg "ours '$ours', ffmpeg '$theirs'"
fi

# --diff writes the candidate frame and its difference picture for each failing frame, and only
# those (the naming render --reference uses).
run diff_images compare "$T/ref" "$T/moved" --diff "$T/diffs"
if [ "$rc" -eq 1 ] && [ "$(ls "$T/diffs" | tr '\n' ' ')" = "diff_00002.png frame_00002.png " ] &&
    cmp -s <(convert "$T/diffs/frame_00002.png" rgb:-) <(convert "$T/moved/00002.png" rgb:-) &&
    [ "$(identify -format '%wx%h' "$T/diffs/diff_00002.png")" = "160x120" ]; then
    ok diff_writes_failing_frames
else
    fail diff_writes_failing_frames "exit $rc, files: $(ls "$T/diffs" 2>&1)"
fi

# --diff creates missing parent folders, as render --diff does.
run diff_deep compare "$T/ref" "$T/moved" --diff "$T/deep/er/diffs"
if [ "$rc" -eq 1 ] && [ -f "$T/deep/er/diffs/diff_00002.png" ]; then
    ok diff_creates_parent_folders
else
    fail diff_creates_parent_folders "exit $rc: $(cat "$T/diff_deep.err")"
fi

# A single PNG is matched with the frame of the same number in a folder.
run png_against_folder compare "$T/moved/00002.png" "$T/ref"
expect png_against_folder 1 "1 frame checked, 0 matched, 1 differ"
run other_png_against_folder compare "$T/moved/00001.png" "$T/ref"
expect other_png_against_folder 0 "1 frame checked, 1 matched"
run png_against_png compare "$T/ref/00001.png" "$T/moved/00001.png"
expect png_against_png 0 "1 frame checked, 1 matched"

# Bad input: exit 2, naming what is wrong.
run missing_folder compare "$T/ref" "$T/nowhere"
expect missing_folder 2 "" "$T/nowhere"
# An I/O error names the path once: "md5cine: error: cannot open '<path>': <reason>", not
# "<path>: error: cannot open '<path>': ...".
if [ "$(grep -o -F -- "$T/nowhere" "$T/missing_folder.err" | wc -l)" -eq 1 ] &&
    grep -qF -- "md5cine: error: cannot open '$T/nowhere': " "$T/missing_folder.err"; then
    ok missing_folder_is_named_once
else
    fail missing_folder_is_named_once "$(cat "$T/missing_folder.err")"
fi

# --frames A-B: only those frames, which both sides must hold.
run frames_before_the_change compare "$T/ref" "$T/moved" --frames 0-1
expect frames_before_the_change 0 "2 frames checked, 2 matched, 0 differ"
run frames_with_the_change compare "$T/ref" "$T/moved" --frames 1-3
expect frames_with_the_change 1 "3 frames checked, 2 matched, 1 differ"
run frames_past_the_end compare "$T/ref" "$T/moved" --frames 2-9
expect frames_past_the_end 2 "" "--frames 2-9: frame 4 is not in '$T/moved'"
run frames_backwards compare "$T/ref" "$T/moved" --frames 3-1
expect frames_backwards 2 "" "bad --frames '3-1'"

mkdir -p "$T/short" && cp "$T/ref/00000.png" "$T/ref/00001.png" "$T/ref/00002.png" "$T/short/"
run missing_frame compare "$T/ref" "$T/short"
expect missing_frame 2 "" "frame 3 is in '$T/ref' but not in '$T/short'"
cp -r "$T/ref" "$T/extra" && cp "$T/ref/00000.png" "$T/extra/00009.png"
run extra_frame compare "$T/ref" "$T/extra"
expect extra_frame 2 "" "frame 9 is in '$T/extra' but not in '$T/ref'"

cp -r "$T/ref" "$T/big" && frame "$T/big/00001.png" 58 162x120
run sizes_differ compare "$T/ref" "$T/big"
expect sizes_differ 2 "" "frame 1: '$T/ref/00001.png' is 160x120 but '$T/big/00001.png' is 162x120"

cp -r "$T/ref" "$T/cut" && head -c 100 "$T/ref/00003.png" >"$T/cut/00003.png"
run truncated_png compare "$T/ref" "$T/cut"
expect truncated_png 2 "" "$T/cut/00003.png"

mkdir -p "$T/empty"
run empty_folder compare "$T/empty" "$T/ref"
expect empty_folder 2 "" "folder '$T/empty' holds no numbered PNG"

run unknown_option compare "$T/ref" "$T/same" --frobnicate
expect unknown_option 2 "" "unknown option '--frobnicate'"
run bad_threshold compare "$T/ref" "$T/same" --threshold 300
expect bad_threshold 2 "" "bad --threshold '300': expected 0..255"
run one_source compare "$T/ref"
expect one_source 2 "" "compare needs two sources"

# Video: the frames encoded the way md5cine encodes (x264 crf 18, 4:2:0, BT.709 limited, tagged).
ffmpeg -v error -y -framerate 24 -i "$T/ref/%05d.png" -c:v libx264 -crf 18 -pix_fmt yuv420p \
    -vf scale=out_color_matrix=bt709:out_range=tv -colorspace bt709 -color_primaries bt709 \
    -color_trc bt709 -color_range tv "$T/ref.mp4" || { echo "FAIL cannot encode the video"; exit 1; }
run folder_vs_video compare "$T/ref" "$T/ref.mp4" --json
expect folder_vs_video 0 '"summary": {"checked": 4, "passed": 4, "failed": 0, "missing": 0' ""
if grep -qF '"mode": "lossy"' "$T/folder_vs_video.out"; then ok video_uses_lossy_limits
else fail video_uses_lossy_limits "$(head -c 300 "$T/folder_vs_video.out")"; fi

cp -r "$T/ref" "$T/swapped" && cp "$T/ref/00001.png" "$T/swapped/00002.png"
run swapped_vs_video compare "$T/swapped" "$T/ref.mp4"
expect swapped_vs_video 1 "4 frames checked, 3 matched, 1 differ"
check_only_row swapped_frame_named "$T/swapped_vs_video.out" '^ +2 .*psnr' '^ +[013] '

run video_vs_short_folder compare "$T/ref.mp4" "$T/short"
expect video_vs_short_folder 2 "" "frame 3 is in '$T/ref.mp4' but not in '$T/short'"

finish
