#!/bin/bash
# scripts/farm/slurm-submit.sh on a real Slurm: a private single-node cluster on loopback
# (tests/slurm_cluster.sh: its own munged, slurmctld and slurmd, ports, key and folders under
# MC_TEST_TMP), the demo rendered as a 4-task array plus the join job that depends on it, and the
# joined video checked against its parts and a one-process render with FFmpeg's tools
# (tests/farm_check.sh). Then a failing task: the join job is cancelled instead of run, and the
# join run by hand refuses naming the missing frames; bad input is refused before anything is
# submitted. Every wait is bounded; the daemons are stopped by PID on every exit.
set -u
cd "$(dirname "$0")"
. ./slurm_cluster.sh
. ./farm_check.sh
SCENE=$(pwd)/../scenes/demo/demo.md5scene
FARM=$(pwd)/../scripts/farm
. ./harness.sh farm_slurm
MD5CINE=$(cd "$(dirname "$MD5CINE")" && pwd)/$(basename "$MD5CINE")
mkdir -p "$T"
trap 'slurm_cluster_stop; harness_exit' EXIT
trap 'exit 130' INT TERM
OPTS=(--size 160x90 --msaa 0)

slurm_cluster_start "$T/cluster" || { echo "FAIL: no cluster" >&2; exit 1; }
"$MD5CINE" render "$SCENE" -o "$T/single.mp4" --quiet "${OPTS[@]}" || fail "one-process render"
"$MD5CINE" plan "$SCENE" --chunks 4 >"$T/plan.txt" || fail "plan"

# state_of ID: "TASK STATE" lines of a job (every task of an array), from scontrol
state_of() {
    scontrol -o show job "$1" 2>/dev/null |
        sed -n 's/.*ArrayTaskId=\([0-9]*\).*JobState=\([A-Z_]*\).*/\1 \2/p; t; s/.*JobState=\([A-Z_]*\).*/- \1/p'
}

# 1. The demo as a 4-task array and a join job.
(cd "$T" && timeout 60 "$FARM/slurm-submit.sh" "$SCENE" -o "$T/full.mp4" --chunks 4 \
    --partition farm --md5cine "$MD5CINE" -- "${OPTS[@]}") >"$T/submit1.out" 2>"$T/submit1.err" ||
    fail "submit exited $? ($(cat "$T/submit1.err"))"
array=$(awk '$1 == "array" { print $2 }' "$T/submit1.out")
join=$(awk '$1 == "join" { print $2 }' "$T/submit1.out")
if [ -n "$array" ] && [ -n "$join" ]; then
    # The join must wait for the array: right after submission it is pending on its dependency.
    dep=$(scontrol -o show job "$join" | sed -n 's/.*Dependency=\([^ ]*\).*/\1/p')
    case $dep in afterok:"$array"*) ;; *) fail "join job dependency '$dep', want afterok:$array" ;; esac
    slurm_wait_job "$array" 240 >/dev/null || fail "array $array did not finish"
    slurm_wait_job "$join" 60 >/dev/null || fail "join $join did not finish"
    states=$(state_of "$array" | sort -n)
    [ "$(echo "$states" | grep -c ' COMPLETED$')" = 4 ] || fail "array tasks: $states"
    [ "$(echo "$states" | awk '{ print $1 }' | tr '\n' ' ')" = "0 1 2 3 " ] || fail "array task ids: $states"
    [ "$(state_of "$join")" = "- COMPLETED" ] || fail "join job: $(state_of "$join") ($(cat "$T"/full.mp4.farm/log/join-*.txt))"
    for i in 0 1 2 3; do
        log=$T/full.mp4.farm/log/render-${array}_$i.txt
        range=$(awk -v i=$i '$1 == i { print $2 }' "$T/plan.txt")
        grep -q "chunk $i frames $range " "$log" 2>/dev/null || fail "task $i did not render chunk $i ($range): $(cat "$log")"
    done
    parts=("$T/full.mp4.farm/parts"/part-0000{0,1,2,3}.mp4)
    farm_check_joined "$SCENE" "$T/full.mp4" "$T/single.mp4" "$T/plan.txt" "${parts[@]}" || fail "joined video"
else
    fail "submit printed no job ids: $(cat "$T/submit1.out")"
fi

# 2. Task 2 fails (a wrapper refuses its frames): the join is cancelled, never run, no output;
# submit --wait says so and exits 3; the join run by hand names the missing frames and exits 2.
farm_flaky_md5cine "$T/flaky-md5cine" 120-179
# --wait: returns once the join job has ended, here with exit 3 as it was cancelled.
(cd "$T" && timeout 300 "$FARM/slurm-submit.sh" "$SCENE" -o "$T/fail.mp4" --chunks 4 --wait \
    --md5cine "$T/flaky-md5cine" -- "${OPTS[@]}") >"$T/submit2.out" 2>"$T/submit2.err"
rc=$?
[ $rc -eq 3 ] || fail "submit --wait with a failing task: exit $rc, want 3 ($(cat "$T/submit2.err"))"
grep -q 'join job [0-9]*: CANCELLED' "$T/submit2.err" || fail "submit --wait does not report the cancelled join"
array=$(awk '$1 == "array" { print $2 }' "$T/submit2.out")
join=$(awk '$1 == "join" { print $2 }' "$T/submit2.out")
if [ -n "$array" ] && [ -n "$join" ]; then
    slurm_wait_job "$array" 240 >/dev/null || fail "array $array did not finish"
    slurm_wait_job "$join" 60 >/dev/null || fail "join $join was not cancelled"
    states=$(state_of "$array" | sort -n | tr '\n' ' ')
    [ "$states" = "0 COMPLETED 1 COMPLETED 2 FAILED 3 COMPLETED " ] || fail "array tasks with task 2 failing: $states"
    [ "$(state_of "$join")" = "- CANCELLED" ] || fail "join after a failed task: $(state_of "$join"), want CANCELLED"
    [ ! -e "$T/fail.mp4" ] || fail "a failed farm render left an output"
    farm_check_join_refused "join by hand" "$T/fail.mp4.farm" "$T/fail.mp4"
else
    fail "submit 2 printed no job ids: $(cat "$T/submit2.out")"
fi

# 3. Bad input is refused before anything is submitted: a chunk count the plan refuses.
before=$(squeue -h -o %i | wc -l)
timeout 60 "$FARM/slurm-submit.sh" "$SCENE" -o "$T/bad.mp4" --chunks 0 --md5cine "$MD5CINE" \
    >"$T/submit3.out" 2>"$T/submit3.err"
rc=$?
[ $rc -eq 2 ] || fail "submit with --chunks 0: exit $rc, want 2"
[ ! -s "$T/submit3.out" ] || fail "submit with --chunks 0 printed job ids: $(cat "$T/submit3.out")"
[ "$(squeue -h -o %i | wc -l)" = "$before" ] || fail "submit with --chunks 0 queued a job"

[ "$failed" -eq 0 ] || slurm_cluster_logs
finish
