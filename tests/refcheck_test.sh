#!/bin/bash
# The reference checker from the command line: what 'render --reference' and 'compare' share.
# - fail fast: render --reference against a reference that lacks frames of the render (a video
#   cut to 5 frames) or whose frames have another size exits 2 before any frame is rendered:
#   no output file, no progress line, one message naming both counts or both sizes;
# - a truncated reference video (its index lists the frames, its data stops early) keeps the
#   render's output, lists the frames it could not give as unreadable with the reason, and
#   exits 1;
# - a PNG that declares a size other than the other side's is refused from its header, without
#   decoding, naming the file; one over the 16384-pixel limit is "too large";
# - a PNG cut after its header is refused with the reason;
# - render --reference --json prints the same JSON form as compare --json.
# Crafted PNGs are written byte by byte here; their CRCs were computed with zlib's crc32
# (independently of md5cine, which does not check them).
set -u
. ./harness.sh refcheck
D=data/render

# The drone walk: 12 frames of 128x128 (drone_grey: grey, so that 4:2:0 video keeps it).
run png render "$D/drone_grey.md5scene" -o "$T/png/%05d.png" --quiet
run mp4 render "$D/drone_grey.md5scene" -o "$T/grey.mp4" --quiet
[ -f "$T/grey.mp4" ] && [ "$(ls "$T/png" | wc -l)" = 12 ] || { echo "FAIL cannot render"; exit 1; }

# ---- a truncated reference video --------------------------------------------------------
# The MP4 cut with ffmpeg to its first 5 frames (stream copy: the same packets), then the
# same file cut short by bytes: both give fewer frames than the render has.
ffmpeg -v error -y -i "$T/grey.mp4" -frames:v 5 -c copy "$T/five.mp4" ||
    { echo "FAIL cannot cut the video"; exit 1; }
n=$(ffprobe -v error -count_packets -select_streams v -show_entries stream=nb_read_packets \
    -of csv=p=0 "$T/five.mp4")
check "the_cut_video_has_5_frames" [ "$n" = 5 ]
run short_video render "$D/drone_grey.md5scene" -o "$T/short_out.mp4" --reference "$T/five.mp4" \
    --progress json
expect short_reference_video_exits_2_before_rendering 2 "" \
    "$T/five.mp4: error: holds 5 frames (0-4) but frames 0-11 are checked: 7 of them are not in it, the first frame 5"
check "short_reference_video_makes_no_output" [ ! -e "$T/short_out.mp4" ]
check "short_reference_video_prints_no_progress" [ ! -s "$T/short_video.out" ]
check "short_reference_video_is_one_message" [ "$(wc -l <"$T/short_video.err")" = 1 ]
# --frames inside what the reference holds: checked, and passes.
run short_range render "$D/drone_grey.md5scene" --frames 0-2 --reference "$T/five.mp4" --quiet
expect a_range_the_short_video_holds_passes 0 "3 matched"

# ---- a reference of another size: the same, before the first frame ----------------------
run small_png render "$D/drone_grey.md5scene" --size 64x48 -o "$T/small/%05d.png" --quiet
run small_mp4 render "$D/drone_grey.md5scene" --size 64x48 -o "$T/small.mp4" --quiet
for ref in small small.mp4; do
    n=${ref//./_}
    run "wrong_$n" render "$D/drone_grey.md5scene" -o "$T/wrong_$n/%05d.png" \
        --reference "$T/$ref" --report "$T/wrong_rep_$n" --progress json
    expect "wrong_size_${n}_exits_2" 2 "" "reference frame 0 is 64x48 but the frames checked are 128x128"
    check "wrong_size_${n}_renders_no_frame" [ ! -e "$T/wrong_$n" ]
    check "wrong_size_${n}_makes_no_report" [ ! -e "$T/wrong_rep_$n" ]
    check "wrong_size_${n}_prints_no_progress" [ ! -s "$T/wrong_$n.out" ]
    check "wrong_size_${n}_is_one_message" [ "$(wc -l <"$T/wrong_$n.err")" = 1 ]
done
check "wrong_size_names_the_reference_file" grep -qF "$T/small/00000.png: error:" "$T/wrong_small.err"
# compare says a size mismatch once too, not once per frame.
run cmp_sizes compare "$T/small" "$T/png"
expect compare_size_mismatch_exits_2 2 "" "frame 0: '$T/small/00000.png' is 64x48 but"
check "compare_size_mismatch_is_said_once" [ "$(grep -c "' is 64x48 but" "$T/cmp_sizes.err")" = 1 ]
check "compare_counts_the_frames_of_another_size" grep -qF "12 frames in all differ in size" \
    "$T/cmp_sizes.err"

head -c $(($(stat -c %s "$T/grey.mp4") * 8 / 10)) "$T/grey.mp4" >"$T/cut.mp4"
run cut_video render "$D/drone_grey.md5scene" -o "$T/cut_out/%05d.png" --reference "$T/cut.mp4" \
    --diff "$T/cut_diff" --quiet
expect truncated_reference_video_exits_1 1 "unreadable"
check "truncated_reference_video_keeps_every_output_frame" [ "$(ls "$T/cut_out" | wc -l)" = 12 ]
# The frames the video could not give are rows with the reason; frame 11 is past any cut.
if grep -qE '^ +11  .*cut\.mp4' "$T/cut_video.out"; then
    ok unreadable_frames_are_listed_with_the_reason
else
    fail unreadable_frames_are_listed_with_the_reason "$(cat "$T/cut_video.out")"
fi
check "an_unreadable_frame_is_kept_in_the_diff_folder" [ -f "$T/cut_diff/frame_00011.png" ]
# The frames before the cut still compare and match.
if grep -qE ' [1-9][0-9]* matched' "$T/cut_video.out"; then ok frames_before_the_cut_match
else fail frames_before_the_cut_match "$(tail -2 "$T/cut_video.out")"; fi

# ---- a damaged PNG in a reference folder ----------------------------------------------
cp -r "$T/png" "$T/damaged"
head -c 33 "$T/png/00004.png" >"$T/damaged/00004.png" # signature + IHDR, nothing else
run damaged render "$D/drone_grey.md5scene" --reference "$T/damaged" --diff "$T/dmg_diff" --quiet
expect damaged_reference_png_exits_1 1 "unreadable"
check_only_row damaged_png_is_the_only_row_and_says_why "$T/damaged.out" \
    '^ +4  .*truncated image data' '^ +[0-35-9] '

# compare names the reason too (it said "cannot read '...': " and nothing more).
run header_only compare "$T/png/00004.png" "$T/damaged/00004.png"
expect header_only_png_as_candidate_says_why 2 "" "'$T/damaged/00004.png': truncated image data"
run header_only_ref compare "$T/damaged/00004.png" "$T/png/00004.png"
expect header_only_png_as_reference_says_why 2 "" "'$T/damaged/00004.png': truncated image data"

# ---- PNGs whose header declares a huge size --------------------------------------------
# png FILE IHDR-DATA-HEX CRC-HEX: signature, IHDR, IEND; no image data.
png() {
    local hex="89504e470d0a1a0a0000000d49484452$2$3""0000000049454e44ae426082"
    printf '%s' "$hex" | sed 's/../\\x&/g' | xargs -0 printf '%b' >"$1"
}
png "$T/bomb.png" 00004000000040000806000000 a9c81084 # 16384 x 16384 RGBA
png "$T/huge.png" 00004e2000004e200806000000 e3704639 # 20000 x 20000 RGBA
check "crafted_png_is_what_file_reads" \
    [ "$(file -b "$T/bomb.png")" = "PNG image data, 16384 x 16384, 8-bit/color RGBA, non-interlaced" ]
run bomb_candidate compare "$T/png/00000.png" "$T/bomb.png"
expect declared_size_against_the_reference_is_refused 2 "" \
    "frame 0: '$T/png/00000.png' is 128x128 but '$T/bomb.png' is 16384x16384"
run bomb_reference compare "$T/bomb.png" "$T/png/00000.png"
expect declared_size_of_the_reference_is_refused 2 "" \
    "frame 0: '$T/bomb.png' is 16384x16384 but '$T/png/00000.png' is 128x128"
run huge compare "$T/huge.png" "$T/huge.png"
expect over_the_limit_is_too_large_naming_the_file 2 "" "'$T/huge.png': too large"
mkdir -p "$T/bombref" && cp "$T/png/"0000[0-2].png "$T/bombref/" && cp "$T/bomb.png" "$T/bombref/00001.png"
run bomb_render render "$D/drone_grey.md5scene" --reference "$T/bombref" --frames 0-2 --quiet
expect render_refuses_the_declared_size 2 "size 128x128, reference 16384x16384"

# ---- render --reference --json: compare's JSON form ------------------------------------
run rjson render "$D/drone_grey.md5scene" --reference "$T/png" --json --quiet
expect render_json_exits_0 0 '"summary": {"checked": 12, "passed": 12, "failed": 0, "missing": 0, "unreadable": 0, "written": 0, "pass": true}'
run cjson compare "$T/png" "$T/png" --json
expect compare_json_exits_0 0 '"summary": {"checked": 12, "passed": 12'
# Same form: the same keys in the same order, frame by frame.
keys() { grep -o '"[a-z_]*":' "$1" | tr -d '\n'; }
check "render_and_compare_print_the_same_json_form" [ "$(keys "$T/rjson.out")" = "$(keys "$T/cjson.out")" ]
check "render_json_has_one_object_per_frame" [ "$(grep -c '"frame": ' "$T/rjson.out")" = 12 ]

finish
