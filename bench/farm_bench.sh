#!/bin/bash
# Farm rendering on this machine: the demo rendered by one process against the same render cut in
# 2 chunks run at once by scripts/farm/parallel-render.sh (GNU parallel), with the same settings;
# wall time, the ratio and the CPU use (bash's `time`: user+sys over wall). Then what a scheduler
# adds: the join alone (md5cine concat of the parts), and on a private one-node Slurm
# (tests/slurm_cluster.sh) the turnaround of an empty 4-task array (sbatch to the last task
# leaving the queue) and of scripts/farm/slurm-submit.sh on the demo in 4 chunks (sbatch to the
# join job's end) beside the same 4 chunks through GNU parallel. Prints figures only.
#
# usage: bench/farm_bench.sh [MD5CINE] [SIZE]
#   MD5CINE  the binary (default build/src/md5cine)
#   SIZE     output size (default 1280x720; the other settings are render's defaults)
# Slurm needs root (SlurmUser is the caller, slurmd runs the tasks as it) and the packages of
# scripts/deps.sh --test; without slurmctld the Slurm rows are left out. Run it on a quiet machine.
set -u
cd "$(dirname "$0")/.."
M=${1:-build/src/md5cine}
SIZE=${2:-1280x720}
SCENE=$(pwd)/scenes/demo/demo.md5scene
FARM=$(pwd)/scripts/farm
T=$(mktemp -d "${TMPDIR:-/tmp}/farm_bench.XXXXXX")
[ -x "$M" ] || { echo "farm_bench: no binary '$M' (build md5cine first)" >&2; exit 2; }
M=$(cd "$(dirname "$M")" && pwd)/$(basename "$M")
SLURM_CLUSTER_LIFETIME=${SLURM_CLUSTER_LIFETIME:-3600}
. tests/slurm_cluster.sh
trap 'slurm_cluster_stop; rm -rf "$T"' EXIT
TIMEFORMAT='%R %P'

# timed LABEL CMD...: runs CMD, prints "LABEL wall cpu%"; sets WALL
timed() {
    local label=$1 t
    shift
    if ! t=$( { time "$@" >/dev/null 2>"$T/err.txt"; } 2>&1 ); then
        echo "farm_bench: $label failed: $(tail -n 3 "$T/err.txt")" >&2
        exit 3
    fi
    WALL=${t% *}
    printf '%-46s %8.2f s %6s %%\n' "$label" "$WALL" "${t#* }"
}

frames=$("$M" plan "$SCENE" --chunks 1 | awk '{ print $2 }')
printf '%s, frames %s, %s, %s cores\n' "demo" "$frames" "$SIZE" "$(nproc)"
printf '%-46s %10s  %s\n' "" wall "cpu (100 % = one core)"
timed "one process" "$M" render "$SCENE" -o "$T/one.mp4" --size "$SIZE" --quiet
one=$WALL
timed "GNU parallel, 2 chunks at once" "$FARM/parallel-render.sh" "$SCENE" -o "$T/par.mp4" \
    --chunks 2 -j 2 --keep --md5cine "$M" -- --size "$SIZE"
par=$WALL
timed "  the same, LP_NUM_THREADS=1 per chunk" env LP_NUM_THREADS=1 "$FARM/parallel-render.sh" \
    "$SCENE" -o "$T/par1.mp4" --chunks 2 -j 2 --md5cine "$M" -- --size "$SIZE"
par1=$WALL
rm -f "$T/par.mp4"
timed "  its join alone (farm-concat.sh, stream copy)" "$FARM/farm-concat.sh" "$T/par.mp4.farm"
awk -v a="$one" -v b="$par" -v c="$par1" 'BEGIN {
    printf "one process / 2-way parallel: %.2fx (%.2fx with LP_NUM_THREADS=1)\n", a / b, a / c }'

command -v slurmctld >/dev/null || { echo "(no slurmctld: Slurm rows left out)"; exit 0; }
slurm_cluster_start "$T/cluster" >/dev/null || exit 3

# turnaround ID START: seconds from START (date +%s.%N) until job ID has left the queue
turnaround() {
    local id=$1 start=$2 limit=$((SECONDS + 600))
    while [ -n "$(squeue -h -j "$id" -o %i 2>/dev/null)" ]; do
        [ $SECONDS -lt $limit ] || { echo "farm_bench: job $id still queued after 600 s" >&2; exit 3; }
        sleep 0.05
    done
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}

start=$(date +%s.%N)
id=$(sbatch --parsable --array=0-3 -o /dev/null --wrap true)
empty=$(turnaround "$id" "$start")
printf '%-46s %8.2f s\n' "Slurm: empty 4-task array, sbatch to done" "$empty"

timed "GNU parallel, 4 chunks, 2 at once" "$FARM/parallel-render.sh" "$SCENE" -o "$T/par4.mp4" \
    --chunks 4 -j 2 --md5cine "$M" -- --size "$SIZE"
par4=$WALL
start=$(date +%s.%N)
ids=$("$FARM/slurm-submit.sh" "$SCENE" -o "$T/slurm.mp4" --chunks 4 --md5cine "$M" -- --size "$SIZE" 2>/dev/null)
join=$(echo "$ids" | awk '$1 == "join" { print $2 }')
[ -n "$join" ] || { echo "farm_bench: slurm-submit failed" >&2; exit 3; }
sl=$(turnaround "$join" "$start")
[ -f "$T/slurm.mp4" ] || { echo "farm_bench: the Slurm render wrote no video" >&2; exit 3; }
printf '%-46s %8.2f s\n' "Slurm: 4 chunks + join, submit to joined" "$sl"
awk -v a="$sl" -v b="$par4" 'BEGIN { printf "Slurm overhead over GNU parallel (same 4 chunks, 2 CPUs): %.2f s\n", a - b }'
