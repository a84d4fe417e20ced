#!/bin/bash
# What a failing reference check prints (compare and render --reference), in this order: the
# summary line, the limits, a table of the first 10 frames that did not pass (every one with
# --verbose), "... and N more" with the hint, and one line naming the pictures written and
# their folder, with one '/' however the folder was written (diffs/, diffs//). No line per file.
# Frames are made by ImageMagick: 30 grey reference frames, and candidates of which frames 5-29
# are red (25 failing, the first 5 passing), so every count below is known by construction.
set -u
. ./harness.sh check_summary

mkdir -p "$T/ref" "$T/new"
convert -size 32x24 xc:'#808080' -depth 8 "PNG24:$T/grey.png" &&
    convert -size 32x24 xc:'#c03020' -depth 8 "PNG24:$T/red.png" ||
    { echo "FAIL cannot draw frames"; exit 1; }
for i in $(seq 0 29); do
    n=$(printf %05d "$i")
    cp "$T/grey.png" "$T/ref/$n.png"
    if [ "$i" -lt 5 ]; then cp "$T/grey.png" "$T/new/$n.png"; else cp "$T/red.png" "$T/new/$n.png"; fi
done

# rows FILE: the frame numbers of the table's rows (lines that start with a number)
rows() { awk '$1 ~ /^[0-9]+$/ { print $1 }' "$1" | paste -sd' '; }
line() { sed -n "$2p" "$1"; }

# ---- compare: the summary first, then 10 rows, the rest counted -------------------------
run short compare "$T/ref/" "$T/new/" --diff "$T/diffs/"
expect compare_exits_1 1
summary="reference '$T/ref/': 30 frames checked, 5 matched, 25 differ, 0 missing"
if [ "$(line "$T/short.out" 1)" = "$summary" ]; then ok summary_is_the_first_line
else fail summary_is_the_first_line "$(line "$T/short.out" 1)"; fi
case $(line "$T/short.out" 2) in
"limits (lossless: threshold 4,"*) ok limits_are_the_second_line ;;
*) fail limits_are_the_second_line "$(line "$T/short.out" 2)" ;;
esac
if [ "$(rows "$T/short.out")" = "5 6 7 8 9 10 11 12 13 14" ]; then ok the_first_10_failing_frames_are_listed
else fail the_first_10_failing_frames_are_listed "rows: $(rows "$T/short.out")"; fi
if grep -qxF '... and 15 more (--verbose lists them all)' "$T/short.out"; then ok the_other_15_are_counted
else fail the_other_15_are_counted "$(cat "$T/short.out")"; fi
written="wrote 25 failing frames (frame_NNNNN.png) and 25 difference pictures (diff_NNNNN.png) to '$T/diffs/'"
if [ "$(tail -n 1 "$T/short.out")" = "$written" ]; then ok the_pictures_are_named_once_with_their_folder
else fail the_pictures_are_named_once_with_their_folder "$(tail -n 1 "$T/short.out")"; fi
# summary, limits, heading, 10 rows, "... and", the pictures: 15 lines in all
check_lines() { # NAME FILE WANT
    if [ "$(wc -l <"$2")" -eq "$3" ]; then ok "$1"; else fail "$1" "$(wc -l <"$2") lines, want $3"; fi
}
check_lines fifteen_lines_in_all "$T/short.out" 15
if grep -q '//' "$T/short.out"; then fail no_double_slash "$(grep '//' "$T/short.out")"; else ok no_double_slash; fi
# the files are there, named as the line says: 25 of each, frames 5-29
n_frame=$(ls "$T/diffs" | grep -c '^frame_000[0-9][0-9]\.png$')
n_diff=$(ls "$T/diffs" | grep -c '^diff_000[0-9][0-9]\.png$')
if [ "$n_frame" = 25 ] && [ "$n_diff" = 25 ] && [ -f "$T/diffs/diff_00005.png" ] &&
    [ -f "$T/diffs/frame_00029.png" ] && [ ! -e "$T/diffs/diff_00004.png" ]; then
    ok the_files_match_the_line
else
    fail the_files_match_the_line "$n_frame frames, $n_diff diffs: $(ls "$T/diffs" | head -3)"
fi

# --verbose: every failing frame, nothing left to count
run verbose compare "$T/ref" "$T/new" --diff "$T/diffs2//" --verbose
expect compare_verbose_exits_1 1
if [ "$(rows "$T/verbose.out")" = "$(seq 5 29 | paste -sd' ')" ]; then ok verbose_lists_all_25
else fail verbose_lists_all_25 "rows: $(rows "$T/verbose.out")"; fi
if grep -q '^\.\.\. and' "$T/verbose.out"; then fail verbose_leaves_none_out; else ok verbose_leaves_none_out; fi
# diffs2// is the folder diffs2: one slash in the line
if [ "$(tail -n 1 "$T/verbose.out")" = "wrote 25 failing frames (frame_NNNNN.png) and 25 difference pictures (diff_NNNNN.png) to '$T/diffs2/'" ]; then
    ok trailing_slashes_are_one_slash
else
    fail trailing_slashes_are_one_slash "$(tail -n 1 "$T/verbose.out")"
fi
check_lines verbose_is_summary_limits_heading_rows_and_files "$T/verbose.out" 29

# A passing check: the summary alone.
run pass compare "$T/ref" "$T/ref" --diff "$T/none"
expect compare_pass_exits_0 0
check_lines a_passing_check_is_one_line "$T/pass.out" 1
if [ ! -e "$T/none" ]; then ok a_passing_check_writes_no_folder; else fail a_passing_check_writes_no_folder; fi

# Without --diff: no pictures line.
run nodiff compare "$T/ref" "$T/new"
check_lines without_diff_no_pictures_line "$T/nodiff.out" 14

# ---- render --reference: the same printing -------------------------------------------------
# boxes.md5scene at 60 fps has 14 frames; against grey frames of its size every one fails.
mkdir -p "$T/rref"
for i in $(seq 0 13); do
    convert -size 32x32 xc:'#808080' -depth 8 "PNG24:$T/rref/$(printf %05d "$i").png"
done
run render render data/render/boxes.md5scene --size 32x32 --fps 60 --msaa 0 --quiet \
    --reference "$T/rref/" --diff "$T/rdiff/"
expect render_reference_exits_1 1
if [ "$(line "$T/render.out" 1)" = "reference '$T/rref/': 14 frames checked, 0 matched, 14 differ, 0 missing" ] &&
    [ "$(rows "$T/render.out")" = "0 1 2 3 4 5 6 7 8 9" ] &&
    grep -qxF '... and 4 more (--verbose lists them all)' "$T/render.out" &&
    [ "$(tail -n 1 "$T/render.out")" = "wrote 14 failing frames (frame_NNNNN.png) and 14 difference pictures (diff_NNNNN.png) to '$T/rdiff/'" ]; then
    ok render_reference_prints_the_summary_first
else
    fail render_reference_prints_the_summary_first "$(cat "$T/render.out")"
fi
run render_v render data/render/boxes.md5scene --size 32x32 --fps 60 --msaa 0 --quiet \
    --reference "$T/rref" --diff "$T/rdiff2" --verbose
if [ "$(rows "$T/render_v.out")" = "$(seq 0 13 | paste -sd' ')" ]; then ok render_verbose_lists_all_14
else fail render_verbose_lists_all_14 "rows: $(rows "$T/render_v.out")"; fi
run render_nv render data/render/boxes.md5scene --size 32x32 -o "$T/x.mp4" --verbose
expect render_verbose_needs_a_reference 2 "" "--verbose needs --reference REF"

# ---- one slash in the other paths a check names -----------------------------------------------
run rep compare "$T/ref" "$T/new" --report "$T/rep/"
if grep -qxF "md5cine: wrote '$T/rep/index.html': review page, 30 frames checked, 25 not passed" "$T/rep.err"; then
    ok the_report_page_is_named_with_one_slash
else
    fail the_report_page_is_named_with_one_slash "$(cat "$T/rep.err")"
fi
mkdir -p "$T/upd"
run upd render data/render/boxes.md5scene --size 32x32 --fps 60 --msaa 0 --frames 0-1 --quiet \
    --reference "$T/upd/" --update-reference --json
if [ "$(grep -o '"written": "[^"]*"' "$T/upd.out" | paste -sd' ')" = "\"written\": \"$T/upd/00000.png\" \"written\": \"$T/upd/00001.png\"" ]; then
    ok update_names_the_frames_with_one_slash
else
    fail update_names_the_frames_with_one_slash "$(grep -o '"written": "[^"]*"' "$T/upd.out")"
fi

finish
