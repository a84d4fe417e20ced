#!/bin/bash
# Every command that writes a file says so with the same line on stderr,
#   md5cine: wrote 'PATH': DETAILS
# (render to standard output: "md5cine: wrote stdout: DETAILS"), one line per file it wrote,
# and nothing under --quiet. The scene: the three boxes of data/render (6 frames, 64x64).
. ./harness.sh success_line
S=data/render/boxes.md5scene

# The lines of stderr that announce a written file, and whether each names an existing file.
wrote_lines() { grep -E "^md5cine: wrote " <<<"$err"; }
says_wrote() { # name path [file]: exactly one line for path, details after ': ', file exists
    local lines
    lines=$(grep -cE "^md5cine: wrote '$(sed 's/[][\.*^$]/\\&/g' <<<"$2")': .+$" <<<"$err")
    check_eq "$1_says_wrote" "1 $(wc -l < <(wrote_lines)) yes" "$lines $(wc -l < <(wrote_lines)) $([ -e "${3:-$2}" ] && echo yes)"
}

capture render "$S" -o "$T/a.mp4" --frames 0-3
says_wrote render_video "$T/a.mp4"
capture render "$S" -o "$T/b.mp4" --frames 4-5
says_wrote render_chunk "$T/b.mp4"
capture render "$S" -o "$T/png/%05d.png"
says_wrote render_png "$T/png/%05d.png" "$T/png/00005.png"
check_eq render_png_details "md5cine: wrote '$T/png/%05d.png': 6 frames (0-5), 64x64, 24 fps" "$err"
capture render "$S" -o - --frames 0-0
check_eq render_stdout "md5cine: wrote stdout: 1 frames (0-0), 64x64, 24 fps, yuv4mpeg2" "$(wrote_lines)"
capture export data/render/box.md5mesh -o "$T/box.obj"
says_wrote export "$T/box.obj"
capture sheet "$S" -o "$T/sheet.png"
says_wrote sheet "$T/sheet.png"
check_eq sheet_keeps_stdout_empty "" "$out"
capture concat "$T/a.mp4" "$T/b.mp4" -o "$T/joined.mp4"
says_wrote concat "$T/joined.mp4"
cat >"$T/cam.md5scene" <<'SCENE'
md5scene 1
camera { look_at { position ( -100 0 0 ) target ( 0 0 0 ) seconds 0.25 } }
SCENE
capture camera "$T/cam.md5scene" -o "$T/cam.md5camera"
says_wrote camera "$T/cam.md5camera"

# compare and render --reference: the review page and the JUnit file, one line each.
capture compare "$T/png" "$T/png" --report "$T/rep" --junit "$T/junit.xml"
check_eq compare_reports_two_lines 2 "$(wrote_lines | wc -l)"
check_eq compare_report_line "md5cine: wrote '$T/rep/index.html': review page, 6 frames checked, 0 not passed" \
    "$(wrote_lines | head -1)"
check_eq compare_junit_line "md5cine: wrote '$T/junit.xml': JUnit XML, 6 frames checked, 0 not passed" \
    "$(wrote_lines | tail -1)"
capture render "$S" -o "$T/c.mp4" --reference "$T/png" --report "$T/rep2" --junit "$T/j2.xml"
check_eq render_reference_three_lines 3 "$(wrote_lines | wc -l)"
check_eq render_reference_report "md5cine: wrote '$T/rep2/index.html': review page, 6 frames checked, 0 not passed" \
    "$(wrote_lines | grep rep2)"

# --quiet: nothing at all on stderr when it worked.
capture render "$S" -o "$T/q.mp4" --frames 0-0 --quiet
check_eq render_quiet "0 " "$rc $err"
capture export data/render/box.md5mesh -o "$T/q.obj" --quiet
check_eq export_quiet "0 " "$rc $err"
capture sheet "$S" -o "$T/q.png" --quiet
check_eq sheet_quiet "0 " "$rc $err"
capture concat "$T/a.mp4" "$T/b.mp4" -o "$T/q2.mp4" --quiet
check_eq concat_quiet "0 " "$rc $err"
capture camera "$T/cam.md5scene" -o "$T/q.md5camera" --quiet
check_eq camera_quiet "0 " "$rc $err"
capture compare "$T/png" "$T/png" --report "$T/rq" --junit "$T/jq.xml" --quiet
check_eq compare_quiet "0 " "$rc $err"

finish
