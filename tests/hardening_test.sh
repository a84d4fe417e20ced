#!/bin/bash
# 'md5cine render' and 'compare' against hostile or careless use: names FFmpeg would read as
# protocols, sizes over the video limit, long names, renders killed or run twice, closed
# pipes, interrupts while loading, control bytes in error excerpts.
#
# The scenes are those of data/render/ (see render_cli_test.sh): boxes.md5scene renders
# 6 frames of 64x64, long.md5scene 100000 frames of 320x240 (long enough to interrupt).
# Expected values come from the contracts in include/md5cine/ (fileio.h, limits.h) and from
# ffprobe.
set -u
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
T=$(mktemp -d "$MC_TEST_TMP/hardening.XXXXXX")
D=$PWD/data/render
M=$MD5CINE
failed=0
passed=0

ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
check() {
    local name=$1
    shift
    if "$@"; then ok "$name"; else fail "$name" "'$*' is false"; fi
}
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
# 12 actors, each loading a 16 MB anim (one joint, 640000 frames): seconds of parsing.
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
        echo "actor \"a$i\" { mesh \"$D/box.md5mesh\" anim \"$T/big.md5anim\" material \"box\" \"$D/red.png\" }"
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
