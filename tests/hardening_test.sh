#!/bin/bash
# 'md5cine render' and 'compare' against hostile or careless use: names FFmpeg would read as
# protocols, sizes over the video limit, long names, renders killed or run twice, closed
# pipes, interrupts while loading, control bytes in error excerpts, FIFOs named as videos,
# report folders that are links or hold a user's files, leftovers of killed runs, running out
# of file descriptors.
#
# The scenes are those of data/render/ (see render_cli_test.sh): boxes.md5scene renders
# 6 frames of 64x64, long.md5scene 100000 frames of 320x240 (long enough to interrupt).
# Expected values come from the contracts in include/md5cine/ (fileio.h, limits.h) and from
# ffprobe.
set -u
. ./harness.sh hardening
D=$PWD/data/render

# expect NAME RC WANT [TEXT-IN-FILE FILE]
expect() {
    local name=$1 rc=$2 want=$3 text=${4:-} file=${5:-}
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit $rc, expected $want${file:+; stderr: $(head -c 400 "$file")}"
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$file"; then
        fail "$name" "'$file' lacks '$text': $(head -c 400 "$file")"
    else
        ok "$name"
    fi
}
no_tmp_files() { [ -z "$(find "$1" -name '.*.tmp' 2>/dev/null)" ]; }
frames_of() {
    ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames \
        -of csv=p=0 "$1" 2>/dev/null
}
# wait_for FILE: until FILE is not empty (a render's first progress line), at most 30 s
wait_for() { for _ in $(seq 1 600); do [ -s "$1" ] && return 0; sleep 0.05; done; return 1; }

# ---- 1. local names are files, never FFmpeg protocols ------------------------------------
mkdir -p "$T/proto"
(cd "$T/proto" && "$M" render "$D/boxes.md5scene" -o 'a:b.mp4' --quiet 2>../proto.err)
expect "a_colon_before_any_slash_is_a_file_name" $? 0 "" "$T/proto.err"
check "a:b.mp4_holds_the_6_frames" [ "$(frames_of "$T/proto/a:b.mp4")" = 6 ]
check "a:b.mp4_leaves_no_temporary" no_tmp_files "$T/proto"
(cd "$T/proto" && "$M" render "$D/boxes.md5scene" -o 'c:d.y4m' --quiet 2>../proto_y4m.err)
expect "a_colon_name_works_for_y4m_too" $? 0 "" "$T/proto_y4m.err"
(cd "$T/proto" && cp 'a:b.mp4' 'c:d.mp4' &&
    "$M" compare 'a:b.mp4' 'c:d.mp4' >../cmp.out 2>../cmp.err)
expect "compare_reads_videos_named_with_a_colon" $? 0 "" "$T/cmp.err"
# The grey drone: saturated colour edges do not survive 4:2:0 at 64x64 (render_cli_test.sh).
(cd "$T/proto" && "$M" render "$D/drone_grey.md5scene" -o 'g:h.mp4' --quiet &&
    "$M" render "$D/drone_grey.md5scene" --reference 'g:h.mp4' --quiet >../ref.out 2>../ref.err)
expect "a_reference_video_named_with_a_colon_is_read" $? 0 "12 matched" "$T/ref.out"
# A name FFmpeg cannot write (a folder where the file should be) fails and leaves nothing.
mkdir -p "$T/proto/dir.mp4"
(cd "$T/proto" && "$M" render "$D/boxes.md5scene" -o 'dir.mp4' --quiet 2>../dir.err)
expect "an_output_that_cannot_be_created_is_a_runtime_error" $? 3 "" "$T/dir.err"
check "a_failed_output_leaves_no_temporary" no_tmp_files "$T/proto"

# ---- 2. one size limit, said before anything is written ----------------------------------
mkdir -p "$T/size"
"$M" render "$D/boxes.md5scene" -o "$T/size/o.mp4" --size 16384x16384 2>"$T/size.err"
expect "a_16384x16384_video_is_too_large" $? 2 "too large" "$T/size.err"
check "a_too_large_video_leaves_nothing" [ -z "$(ls -A "$T/size")" ]
# H.264 level 6.2 allows 139264 macroblocks: 8192x4352 is exactly that, 8208x4352 is over.
"$M" render "$D/boxes.md5scene" -o "$T/size/o.mp4" --size 8208x4352 2>"$T/size2.err"
expect "one_macroblock_column_over_level_6.2_is_too_large" $? 2 "139264" "$T/size2.err"

# ---- 3. a camera's frameRate is held to 1..1000 at its token -----------------------------
sed 's/^frameRate 24/frameRate 1001/' "$D/cuts.md5camera" >"$T/fast.md5camera"
sed "s|\"cuts.md5camera\"|\"$T/fast.md5camera\"|; s|\"box.md5mesh\"|\"$D/box.md5mesh\"|; \
     s|\"\([a-z]*\).png\"|\"$D/\1.png\"|" "$D/boxes.md5scene" >"$T/fast.md5scene"
line=$(grep -n '^frameRate' "$T/fast.md5camera" | cut -d: -f1)
"$M" render "$T/fast.md5scene" -o "$T/fast/%05d.png" 2>"$T/fast.err"
expect "a_camera_frame_rate_over_1000_is_refused_at_its_token" $? 2 \
    "fast.md5camera:$line:11: error: invalid 'frameRate' 1001, expected 1 to 1000" "$T/fast.err"
check "a_refused_frame_rate_writes_no_png" [ ! -e "$T/fast" ]

# ---- 6. temporaries are short: any name a file system takes can be written ---------------
mkdir -p "$T/long"
n236=$(printf 'n%.0s' $(seq 1 236))
"$M" render "$D/boxes.md5scene" -o "$T/long/$n236.mp4" --quiet 2>"$T/long.err"
expect "a_240_character_output_name_is_written" $? 0 "" "$T/long.err"
check "the_240_character_video_exists" [ -s "$T/long/$n236.mp4" ]
n251=$(printf 'm%.0s' $(seq 1 251))
"$M" render "$D/boxes.md5scene" -o "$T/long/$n251.y4m" --quiet 2>"$T/long2.err"
expect "a_255_character_output_name_is_written" $? 0 "" "$T/long2.err"
"$M" render "$D/boxes.md5scene" -o "$T/long/f$n236/%05d.png" --frames 0-0 --quiet \
    2>"$T/long3.err"
expect "png_frames_in_a_folder_with_a_long_name_are_written" $? 0 "" "$T/long3.err"
check "long_names_leave_no_temporary" no_tmp_files "$T/long"

# ---- 7a. a render killed by SIGKILL: the next render to that output removes its temporary --
mkdir -p "$T/kill"
"$M" render "$D/long.md5scene" -o "$T/kill/out.mp4" --progress json >"$T/kill.out" 2>&1 &
pid=$!
wait_for "$T/kill.out"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "sigkill_leaves_a_temporary_carrying_the_pid" [ -e "$T/kill/.out.mp4.$pid.tmp" ]
# A temporary of this output whose process is alive but holds no lock (this shell) is not
# touched, nor is a killed render's temporary of another output.
: >"$T/kill/.out.mp4.$$.tmp"
cp "$T/kill/.out.mp4.$pid.tmp" "$T/kill/.other.mp4.$pid.tmp"
"$M" render "$D/boxes.md5scene" -o "$T/kill/out.mp4" --quiet 2>"$T/kill2.err"
expect "the_next_render_to_that_output_succeeds" $? 0 "" "$T/kill2.err"
check "the_killed_renders_temporary_is_removed" [ ! -e "$T/kill/.out.mp4.$pid.tmp" ]
check "a_live_processes_temporary_is_kept" [ -e "$T/kill/.out.mp4.$$.tmp" ]
check "another_outputs_temporary_is_kept" [ -e "$T/kill/.other.mp4.$pid.tmp" ]
check "the_new_output_has_6_frames" [ "$(frames_of "$T/kill/out.mp4")" = 6 ]
rm -f "$T/kill/.out.mp4.$$.tmp" "$T/kill/.other.mp4.$pid.tmp"

# ---- 7d. two renders to the same output: the second refuses ------------------------------
mkdir -p "$T/twice"
"$M" render "$D/long.md5scene" -o "$T/twice/out.mp4" --progress json >"$T/twice1.out" 2>&1 &
pid=$!
wait_for "$T/twice1.out"
"$M" render "$D/boxes.md5scene" -o "$T/twice/out.mp4" 2>"$T/twice2.err"
expect "a_second_render_to_the_same_output_is_refused" $? 3 \
    "is being written by another process ($pid" "$T/twice2.err"
check "the_refused_render_leaves_the_first_ones_temporary" [ -e "$T/twice/.out.mp4.$pid.tmp" ]
check "the_refused_render_leaves_only_that_temporary" \
    [ "$(ls -A "$T/twice")" = ".out.mp4.$pid.tmp" ]
"$M" render "$D/boxes.md5scene" -o "$T/twice/other.mp4" --quiet 2>"$T/twice3.err"
expect "another_output_in_the_same_folder_is_not_blocked" $? 0 "" "$T/twice3.err"
kill -INT "$pid"
wait "$pid"
expect "the_first_render_still_stops_on_sigint" $? 130
check "and_removes_its_temporary" [ ! -e "$T/twice/.out.mp4.$pid.tmp" ]

# ---- 7b. a closed output pipe is an error with a message, not a silent SIGPIPE -----------
"$M" render "$D/long.md5scene" -o - 2>"$T/pipe.err" | head -c 1000 >/dev/null
rc=${PIPESTATUS[0]}
expect "a_closed_output_pipe_exits_3" "$rc" 3 "output pipe closed" "$T/pipe.err"

# ---- 7c. an interrupt while loading is acted on before the next file ---------------------
# 12 actors, each loading a 16 MB anim (one joint, 640000 frames): seconds of parsing. Each
# actor names its own copy, since actors that name one file share it and read it once.
python3 - "$T/big.md5anim" <<'EOF'
import sys
n = 640000
with open(sys.argv[1], "w") as f:
    f.write("MD5Version 10\ncommandline \"\"\n")
    f.write(f"numFrames {n}\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 6\n")
    f.write("hierarchy {\n\"root\" -1 63 0\n}\nbounds {\n")
    f.write("( 0 0 0 ) ( 0 0 0 )\n" * n)
    f.write("}\nbaseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\n")
    f.write("".join(f"frame {i} {{\n0 0 0 0 0 0\n}}\n" for i in range(n)))
EOF
{
    echo 'md5scene 1'
    echo "camera \"$D/still.md5camera\""
    echo 'frames 1'
    for i in $(seq 1 12); do
        cp "$T/big.md5anim" "$T/big$i.md5anim"
        echo "actor \"a$i\" { mesh \"$D/box.md5mesh\" anim \"$T/big$i.md5anim\" material \"box\" \"$D/red.png\" }"
    done
} >"$T/slow.md5scene"
t0=$(date +%s.%N)
"$M" info "$T/slow.md5scene" >/dev/null 2>&1
full=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
t0=$(date +%s.%N)
"$M" render "$T/slow.md5scene" -o "$T/slow.mp4" 2>"$T/slow.err" &
pid=$!
# Signal once the render has read the first anim (16 MB through read(2), counted in
# /proc/PID/io), whatever the load of the machine: a fixed sleep could land before the handler
# exists or after the whole load is done.
for _ in $(seq 1 3000); do
    read_bytes=$(awk '/^rchar:/ { print $2 }' /proc/"$pid"/io 2>/dev/null || echo 0)
    [ "${read_bytes:-0}" -gt 16000000 ] && break
    sleep 0.01
done
kill -TERM "$pid"
wait "$pid"
rc=$?
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
expect "sigterm_while_loading_exits_143" "$rc" 143 "interrupted" "$T/slow.err"
echo "     (loading the whole scene took ${full} s; the interrupted render ${took} s)"
check "sigterm_while_loading_stops_in_under_a_third_of_the_load" \
    awk -v a="$took" -v b="$full" 'BEGIN { exit !(a * 3 < b) }'
nothing_slow() { [ ! -e "$T/slow.mp4" ] && no_tmp_files "$T"; }
check "an_interrupted_load_writes_nothing" nothing_slow

# ---- 8a. control bytes from input files are escaped in errors ----------------------------
printf 'md5scene 1\ncamera "a\001b" bogus // \033[2J\a\177\n' >"$T/ctl.md5scene"
"$M" render "$T/ctl.md5scene" -o "$T/ctl.mp4" 2>"$T/ctl.err"
expect "an_unknown_keyword_after_control_bytes_exits_2" $? 2
# The hand-written golden text: each control byte as \xNN, the caret under 'bogus' (column
# 14 of the line, shifted right by the three extra characters of the escaped \001).
{
    echo "$T/ctl.md5scene:2:14: error: unknown keyword 'bogus'"
    echo '    2 | camera "a\x01b" bogus // \x1B[2J\x07\x7F'
    echo '      |                 ^'
} >"$T/ctl.want"
check "control_bytes_in_the_excerpt_are_escaped_and_the_caret_lines_up" \
    cmp -s "$T/ctl.err" "$T/ctl.want"
check "no_raw_escape_byte_reaches_the_terminal" [ -z "$(tr -d -c '\001\033\007\177' <"$T/ctl.err")" ]

# ---- 9a. a FIFO or device named as a video is refused, never waited on (timeout guards) ---
# Without the check FFmpeg's file protocol waits forever for a writer; the guard turns such a
# hang into exit 124 (a failure) instead of a stuck suite.
mkdir -p "$T/fifo"
"$M" render "$D/boxes.md5scene" -o "$T/fifo/ok.mp4" --quiet 2>/dev/null
mkfifo "$T/fifo/f.mp4"
timeout -k 5 20 "$M" compare "$T/fifo/f.mp4" "$T/fifo/ok.mp4" >/dev/null 2>"$T/fifo/cmp.err"
expect "compare_refuses_a_fifo_named_as_a_video" $? 2 "not a regular file" "$T/fifo/cmp.err"
timeout -k 5 20 "$M" compare /dev/zero "$T/fifo/ok.mp4" >/dev/null 2>"$T/fifo/dev.err"
expect "compare_refuses_a_device_named_as_a_video" $? 2 "not a regular file" "$T/fifo/dev.err"
timeout -k 5 20 "$M" sheet "$T/fifo/f.mp4" -o "$T/fifo/s.png" >/dev/null 2>"$T/fifo/sheet.err"
expect "sheet_refuses_a_fifo_named_as_a_video" $? 2 "not a regular file" "$T/fifo/sheet.err"
timeout -k 5 20 "$M" concat "$T/fifo/f.mp4" -o "$T/fifo/c.mp4" >/dev/null 2>"$T/fifo/concat.err"
expect "concat_refuses_a_fifo_named_as_a_part" $? 2 "not a regular file" "$T/fifo/concat.err"
check "concat_of_a_fifo_writes_nothing" [ ! -e "$T/fifo/c.mp4" ]
timeout -k 5 20 "$M" render "$D/boxes.md5scene" --reference "$T/fifo/f.mp4" >/dev/null \
    2>"$T/fifo/ref.err"
expect "render_refuses_a_fifo_named_as_its_reference" $? 2 "not a regular file" \
    "$T/fifo/ref.err"
check "fifo_leaves_no_temporary" no_tmp_files "$T/fifo"

# ---- 9b. --report never follows a link, never removes a file it did not write -------------
# Two single-frame PNGs that differ, so that compare writes a report.
mkdir -p "$T/rep"
cp "$D/red.png" "$T/rep/a.png"
cp "$D/green.png" "$T/rep/b.png"
mkdir "$T/rep/target"
for i in 1 2 3; do echo "mine $i" >"$T/rep/target/note$i.txt"; done
ln -s target "$T/rep/link"
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --report "$T/rep/link" >/dev/null \
    2>"$T/rep/link.err"
expect "a_report_through_a_symbolic_link_is_refused" $? 2 "symbolic link" "$T/rep/link.err"
check "the_links_target_keeps_its_3_files" [ "$(cat "$T/rep/target"/note*.txt | wc -l)" = 3 ]
check "the_link_stays_a_link" [ -L "$T/rep/link" ]
check "no_old_folder_is_left_beside_the_link" \
    [ -z "$(find "$T/rep" -maxdepth 1 -name '.link.*')" ]
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --report "$T/rep/r" >/dev/null 2>&1
check "a_report_is_written_for_two_different_pictures" [ -f "$T/rep/r/index.html" ]
echo keep >"$T/rep/r/notes.txt"
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --report "$T/rep/r" >/dev/null \
    2>"$T/rep/stranger.err"
expect "a_report_folder_holding_a_users_file_is_refused" $? 2 "'notes.txt'" "$T/rep/stranger.err"
check "the_users_file_in_the_report_folder_is_kept" [ "$(cat "$T/rep/r/notes.txt")" = keep ]
rm "$T/rep/r/notes.txt"
ln -s ../target/note1.txt "$T/rep/r/heat_00001.png"
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --report "$T/rep/r" >/dev/null \
    2>"$T/rep/inlink.err"
expect "a_link_inside_a_report_folder_is_a_stranger" $? 2 "heat_00001.png" "$T/rep/inlink.err"
check "the_file_the_inner_link_names_is_kept" [ -f "$T/rep/target/note1.txt" ]
rm "$T/rep/r/heat_00001.png"
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --report "$T/rep/r" >/dev/null 2>&1
expect "an_earlier_report_alone_is_still_replaced" $? 1

# ---- 9c. temporaries of killed runs are swept for PNG frames, sheets, JUnit and reports ----
# A process id that is surely gone: a shell that has exited. Its temporaries stand for those
# of a run killed by SIGKILL (which cannot unlock or remove them); one of this live shell is
# kept.
dead=$(sh -c 'echo $$')
mkdir -p "$T/sweep/png"
: >"$T/sweep/png/.00003.png.$dead.tmp"
: >"$T/sweep/png/.00003.png.$$.tmp"
timeout -k 5 60 "$M" render "$D/boxes.md5scene" -o "$T/sweep/png/%05d.png" --quiet 2>"$T/sweep/png.err"
expect "a_png_render_succeeds_beside_leftovers" $? 0 "" "$T/sweep/png.err"
check "a_killed_png_renders_temporary_is_removed" [ ! -e "$T/sweep/png/.00003.png.$dead.tmp" ]
check "a_live_processes_png_temporary_is_kept" [ -e "$T/sweep/png/.00003.png.$$.tmp" ]
: >"$T/sweep/.s.png.$dead.tmp"
timeout -k 5 60 "$M" sheet "$T/fifo/ok.mp4" -o "$T/sweep/s.png" >/dev/null 2>"$T/sweep/sheet.err"
expect "a_sheet_succeeds_beside_a_leftover" $? 0 "" "$T/sweep/sheet.err"
check "a_killed_sheets_temporary_is_removed" [ ! -e "$T/sweep/.s.png.$dead.tmp" ]
: >"$T/sweep/.j.xml.$dead-1.tmp"
mkdir "$T/sweep/.rep.$dead.tmp" "$T/sweep/.rep.$dead.old"
: >"$T/sweep/.rep.$dead.tmp/new_00000.png"
timeout -k 5 60 "$M" compare "$T/rep/a.png" "$T/rep/b.png" --junit "$T/sweep/j.xml" \
    --report "$T/sweep/rep" >/dev/null 2>"$T/sweep/cmp.err"
expect "a_compare_with_junit_and_report_runs_beside_leftovers" $? 1 "" "$T/sweep/cmp.err"
check "a_killed_junit_temporary_is_removed" [ ! -e "$T/sweep/.j.xml.$dead-1.tmp" ]
check "a_killed_reports_temporary_folder_is_removed" [ ! -e "$T/sweep/.rep.$dead.tmp" ]
check "a_killed_reports_old_folder_is_removed" [ ! -e "$T/sweep/.rep.$dead.old" ]

# ---- 9d. too many open files is a runtime failure (exit 3), not bad input -----------------
# With 4 or 5 descriptors md5cine starts but cannot open both videos; whichever open fails,
# the message says so and the exit is 3.
emfile=0
for n in 4 5 6; do
    bash -c 'ulimit -n '"$n"'; exec "$0" "$@"' "$M" compare "$T/fifo/ok.mp4" "$T/fifo/ok.mp4" \
        >/dev/null 2>"$T/emfile$n.err"
    rc=$?
    if grep -q "Too many open files" "$T/emfile$n.err"; then
        emfile=$((emfile + 1))
        expect "too_many_open_files_with_${n}_descriptors_exits_3" "$rc" 3
    fi
done
check "some_descriptor_limit_gives_too_many_open_files" [ "$emfile" -gt 0 ]

# ---- 9e. C1 control bytes are escaped like C0 -------------------------------------------
# A stray 0x9B (CSI of an 8-bit terminal) and the UTF-8 encoded C1 control U+009B (C2 9B)
# are escaped; valid UTF-8 (e, acute: C3 A9) and a stray Latin-1 0xE9 pass through.
printf 'md5scene 1\ncamera "\351\303\251\233\302\233" bogus\n' >"$T/c1.md5scene"
"$M" render "$T/c1.md5scene" -o "$T/c1.mp4" 2>"$T/c1.err"
expect "an_unknown_keyword_after_c1_bytes_exits_2" $? 2
# By hand: the line is 'camera "' (8 bytes), 6 bytes, '" ' then bogus at byte column 17; the
# caret line has one space per shown byte and four per escaped byte: 8 + 1 + 2 + 4 + 8 + 1 +
# 1 = 25 spaces.
{
    echo "$T/c1.md5scene:2:17: error: unknown keyword 'bogus'"
    printf '    2 | camera "\351\303\251\\x9B\\xC2\\x9B" bogus\n'
    printf '      | %25s^\n' ''
} >"$T/c1.want"
check "c1_bytes_in_the_excerpt_are_escaped_and_the_caret_lines_up" cmp -s "$T/c1.err" "$T/c1.want"
check "no_raw_c1_byte_reaches_the_terminal" \
    [ -z "$(LC_ALL=C tr -d -c '\233' <"$T/c1.err")" ]

finish
