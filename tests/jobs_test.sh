#!/bin/bash
# render --jobs N draws N frames at once, each with a GL context of its own, and must give what
# one job gives: the same pixels on every backend (the demo's PNGs and MP4 against
# golden/cli_identity.md5, which one renderer made), the same frame order through the encoder,
# the progress lines and the reference check, and the same interrupt behaviour.
set -u
. ./harness.sh jobs
: "${MC_TEST_BACKENDS:?MC_TEST_BACKENDS must list the GL backends built}"
D=data/render
S=../scenes/demo/demo.md5scene


# sums DIR: "md5  ./png/NAME" for each file of DIR, as golden/cli_identity.md5 lists them
sums() { (cd "$1" && md5sum -- * | sed 's|  |  ./png/|'); }
# golden A B: the golden lines of ./png/A.png .. ./png/B.png
golden() { awk -v a="$1" -v b="$2" '$2 ~ /^\.\/png\// { n = substr($2, 7, 4) + 0; if (n >= a && n <= b) print }' \
    golden/cli_identity.md5; }

# ---- pixels: every backend, several job counts, against one renderer's golden frames ------
for gl in $MC_TEST_BACKENDS; do
    for j in 1 2 4; do
        last=f$gl$j
        frames=0-40
        [ "$j" = 1 ] && frames=0-12
        MD5CINE_GL=$gl "$M" render "$S" --size 320x180 --quiet -o "$T/$gl$j/%04d.png" \
            --frames "$frames" --jobs "$j" >"$T/$last.out" 2>"$T/$last.err"
        rc=$?
        expect "${gl}_jobs_${j}_renders" 0
        if diff <(golden "${frames%-*}" "${frames#*-}") <(sums "$T/$gl$j") >"$T/$last.diff"; then
            ok "${gl}_jobs_${j}_frames_${frames}_match_the_golden_pngs"
        else
            fail "${gl}_jobs_${j}_frames_${frames}_match_the_golden_pngs" "$(head -n 4 "$T/$last.diff")"
        fi
    done
done

# The whole demo to MP4 with 3 jobs: the golden's video bitstream, so every frame reached the
# encoder in order, and the cut (output frames 83/84) still opens a keyframe where it did.
run mp4 render "$S" --size 320x180 --quiet -o "$T/demo.mp4" --jobs 3
expect demo_mp4_with_3_jobs_renders 0
want=$(awk '$2 == "./demo.mp4" { print $1 }' golden/cli_identity.md5)
got=$(ffmpeg -nostdin -v error -i "$T/demo.mp4" -map 0:v -c copy -f md5 - | sed 's/^MD5=//')
check "demo_mp4_with_3_jobs_is_the_golden_bitstream" [ -n "$want" -a "$want" = "$got" ]

# A range across both cuts of boxes.md5scene (cuts.md5camera: output frames 0..5 show the red,
# red, blue, blue, green, green box): frames 1-4 with 3 jobs are 1 job's files, named by number.
run cut1 render "$D/boxes.md5scene" -o "$T/cut1/%02d.png" --frames 1-4 --jobs 1 --quiet
run cut3 render "$D/boxes.md5scene" -o "$T/cut3/%02d.png" --frames 1-4 --jobs 3 --quiet
expect cut_crossing_range_with_3_jobs_renders 0
check "cut_crossing_range_writes_frames_1_to_4" [ "$(ls "$T/cut3" | tr '\n' ' ')" = "01.png 02.png 03.png 04.png " ]
check "cut_crossing_range_is_the_same_with_1_and_3_jobs" diff -r "$T/cut1" "$T/cut3"

# --jobs auto names the default: the documented rule (1 job on up to 3 cores, else half the
# cores, at most 16, never more than the 4 frames) on the cores online, as doctor says it and
# as --stats counts the jobs; the frames are 1 job's.
cores=$(getconf _NPROCESSORS_ONLN)
want=$(( cores <= 3 ? 1 : cores / 2 > 16 ? 16 : cores / 2 ))
run doctor doctor
check "doctor_says_what_jobs_auto_picks" grep -q "^jobs    $want frames\{0,1\} at a time by default on $cores cores\{0,1\} (render --jobs auto" "$T/doctor.out"
[ "$want" -gt 4 ] && want=4
run cutauto render "$D/boxes.md5scene" -o "$T/cutauto/%02d.png" --frames 1-4 --jobs auto --stats --quiet
expect jobs_auto_renders 0
check "jobs_auto_draws_the_documented_count" grep -q "^stats: 4 frames, .* $want jobs\{0,1\}," "$T/cutauto.err"
check "jobs_auto_is_the_same_as_1_job" diff -r "$T/cut1" "$T/cutauto"
run badjobs render "$D/boxes.md5scene" -o "$T/bad/%02d.png" --jobs many
check "jobs_other_words_are_a_usage_error" [ "$rc" = 2 ]
check "jobs_usage_error_names_auto" grep -q -- "--jobs.*'auto'" "$T/badjobs.err"

# ---- order of what the frames go through ----------------------------------------------------
run json render "$D/long.md5scene" -o "$T/json.mp4" --frames 1-40 --jobs 4 --progress json
expect progress_json_with_4_jobs_renders 0
# (progress lines are spaced in time: some frames may have none, but each says done = frame)
in_order() {
    grep -o '"frame":[0-9]*,"done":[0-9]*' "$T/json.out" | tr -c '0-9\n' ' ' | awk '
        { if ($1 != $2 || $1 <= prev) bad = 1; prev = $1 } END { exit bad || prev != 40 || NR < 3 }'
}
check "progress_json_lines_come_in_frame_order" in_order

run ref_new render "$D/drone.md5scene" --reference "$T/ref" --update-reference --quiet --jobs 1
expect reference_written_with_1_job 0
run ref_same render "$D/drone.md5scene" --reference "$T/ref" --quiet --jobs 4
expect reference_check_passes_with_4_jobs 0
run ref_fail1 render "$D/drone_idle.md5scene" --reference "$T/ref" --diff "$T/rd" --quiet --jobs 1
expect reference_check_fails_with_1_job 1
run ref_fail4 render "$D/drone_idle.md5scene" --reference "$T/ref" --diff "$T/rd" --quiet --jobs 4
expect reference_check_fails_with_4_jobs 1
check "failing_reference_check_reports_the_same_with_1_and_4_jobs" \
    cmp -s "$T/ref_fail1.out" "$T/ref_fail4.out"

# ---- the job count ----------------------------------------------------------------------
run stats render "$D/boxes.md5scene" -o "$T/stats/%05d.png" --jobs 3 --stats --quiet
expect stats_name_the_job_count 0 "" "3 jobs"
run capped render "$D/boxes.md5scene" -o "$T/capped/%05d.png" --frames 2-3 --jobs 8 --stats --quiet
expect jobs_are_capped_at_the_frames_rendered 0 "" "2 jobs"
for bad in 0 -2 abc 17 2x ""; do
    run "bad$bad" render "$D/boxes.md5scene" -o "$T/bad.mp4" --jobs "$bad"
    expect "jobs_${bad:-empty}_is_a_usage_error" 2 "" "bad --jobs '$bad': expected 1..16"
done
check "bad_jobs_leave_no_output" [ ! -e "$T/bad.mp4" ]

# ---- interrupts with frames in flight -------------------------------------------------------
for sig in INT TERM; do
    mkdir -p "$T/int$sig"
    interrupt "int$sig" "$sig" '"done":' render "$D/long.md5scene" -o "$T/int$sig/long.mp4" \
        --progress json --jobs 4
    want=$((128 + $(kill -l "$sig")))
    expect "sig${sig}_with_4_jobs_exits_$want" "$want" "" "removed partial output"
    check "sig${sig}_with_4_jobs_leaves_no_output_and_no_temporary_file" [ -z "$(ls -A "$T/int$sig")" ]
done

# SIGTERM with 16 jobs at 1920x1080, their frames still inside the GL driver (16 contexts on
# one set of raster threads): the process ends without waiting for them, 143, and leaves neither
# the video nor its temporary. (How soon: bench/hardening_bench.sh prints it.)
mkdir -p "$T/int16"
"$M" render ../scenes/demo/demo.md5scene --size 1920x1080 --jobs 16 -o "$T/int16/demo.mp4" \
    --progress json >"$T/int16.out" 2>"$T/int16.err" &
pid=$!
for _ in $(seq 1 1200); do grep -q '"done":' "$T/int16.out" 2>/dev/null && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
rc=$?
last=int16
expect sigTERM_with_16_jobs_at_1080p_exits_143 143 "" "removed partial output '$T/int16/demo.mp4'"
check "sigTERM_with_16_jobs_leaves_no_output_and_no_temporary_file" [ -z "$(ls -A "$T/int16")" ]

# The jobs' threads, like the GL driver's, block SIGINT and SIGTERM (bits 2 and 15 of /proc's
# SigBlk mask): only the main thread runs the handler.
"$M" render "$D/long.md5scene" -o "$T/masks.mp4" --progress json --jobs 3 >"$T/masks.out" 2>"$T/masks.err" &
pid=$!
for _ in $(seq 1 600); do grep -q '"done":' "$T/masks.out" 2>/dev/null && break; sleep 0.05; done
others=0
open=0
for st in /proc/"$pid"/task/*/status; do
    tid=${st%/status}
    [ "${tid##*/}" = "$pid" ] && continue
    others=$((others + 1))
    blk=$(awk '/^SigBlk:/ { print $2 }' "$st")
    [ $((0x$blk & 0x4002)) = $((0x4002)) ] || open=$((open + 1))
done
kill -INT "$pid"
wait "$pid"
check "threads_but_the_main_one_block_sigint_and_sigterm_with_3_jobs" [ "$others" -gt 3 -a "$open" = 0 ]

finish
