#!/bin/bash
# Submits a chunked render to Slurm: one array job with a task per chunk of `md5cine plan`, then a
# join job that runs `md5cine concat` once every task succeeded (--dependency=afterok).
#
# usage: scripts/farm/slurm-submit.sh SCENE -o OUT [options] [-- RENDER_OPTIONS...]
#   -o OUT                 the output: a video (parts are joined) or a PNG pattern (no join; the
#                          second job only checks that every frame exists)
#   --chunks N | --chunk-frames F | --by-shot
#                          how `md5cine plan` cuts the scene (default: --chunks 8)
#   -p, --partition P      the Slurm partition (default: the cluster's default)
#   --work DIR             work folder for the plan, parts and logs (default OUT.farm); it and
#                          OUT must be on storage every node sees at the same path
#   --md5cine BIN          the md5cine binary, at the same path on every node (default: md5cine
#                          on PATH here)
#   --sbatch OPT           an extra sbatch option for both jobs (repeatable:
#                          --sbatch=--time=1:00:00, --sbatch=--cpus-per-task=4)
#   --max-running K        at most K tasks of the array at once (sbatch --array=0-N%K)
#   --wait                 wait for the join job to end; exit with its status
#   -- RENDER_OPTIONS      passed to every chunk's `md5cine render` (--size, --msaa, --crf ...);
#                          the joined video carries the scene's sound (--audio off: none;
#                          --audio FILE.wav is refused: `md5cine render SCENE -o FILE.wav`)
# Prints "array JOBID" and "join JOBID" on stdout. Each task reads $SLURM_ARRAY_TASK_ID, finds
# its chunk in WORK/plan.txt and renders it to WORK/parts/ (logs: WORK/log/render-JOB_TASK.txt).
# When a task fails the join job is cancelled (--kill-on-invalid-dep=yes); run
# scripts/farm/farm-concat.sh WORK to see which frames are missing, or resubmit the failed
# indices by hand (sbatch --array=I,J ... farm-task.sh WORK).
set -u
FARM_PROG=slurm-submit
here=$(cd "$(dirname "$0")" && pwd)
. "$here/farm-lib.sh"

usage() {
    awk 'NR >= 5 && /^#/ { sub(/^# ?/, ""); print; next } NR >= 5 { exit }' "$0" >&2
    exit 2
}

scene= out= work= bin=md5cine wait=0 max_running=
plan=()
sbatch_opts=()
while [ $# -gt 0 ]; do
    case $1 in
        -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --chunks | --chunk-frames) [ $# -ge 2 ] || usage; plan=("$1" "$2"); shift 2 ;;
        --by-shot) plan=(--by-shot); shift ;;
        -p | --partition) [ $# -ge 2 ] || usage; sbatch_opts+=(--partition="$2"); shift 2 ;;
        --work) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
        --md5cine) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
        --sbatch=*) sbatch_opts+=("${1#--sbatch=}"); shift ;;
        --sbatch) [ $# -ge 2 ] || usage; sbatch_opts+=("$2"); shift 2 ;;
        --max-running) [ $# -ge 2 ] || usage; max_running=$2; shift 2 ;;
        --wait) wait=1; shift ;;
        -h | --help) usage ;;
        --) shift; break ;;
        -*) farm_err "unknown option '$1'"; usage ;;
        *) [ -z "$scene" ] || { farm_err "more than one scene: '$scene' and '$1'"; usage; }
           scene=$1; shift ;;
    esac
done
[ -n "$scene" ] && [ -n "$out" ] || usage
case $max_running in
    *[!0-9]*) farm_err "--max-running wants a number, not '$max_running'"; exit 2 ;;
esac
command -v sbatch >/dev/null || { farm_err "sbatch not found (Debian: slurm-client)"; exit 3; }
[ ${#plan[@]} -gt 0 ] || plan=(--chunks 8)
bin=$(farm_find_bin "$bin") || exit 3
[ -f "$scene" ] || { farm_err "$scene: no such scene"; exit 2; }
scene=$(farm_abs "$scene")
mkdir -p "$(dirname "$out")" || exit 3
out=$(farm_abs "$out")
[ -n "$work" ] || work=$out.farm
case $out in *%*) [ "$work" = "$out.farm" ] && work=$(dirname "$out")/.farm ;; esac
mkdir -p "$work" || exit 3
work=$(farm_abs "$work")

farm_prepare "$work" "$bin" "$scene" "$out" 0 ${#plan[@]} "${plan[@]}" "$@" || exit $?
n=$(farm_count "$work")
[ "$n" -gt 0 ] || { farm_err "the plan has no chunks"; exit 2; }

array=0-$((n - 1))
[ -z "$max_running" ] || array=$array%$max_running
task_cmd=$(printf '%q ' "$here/farm-task.sh" "$work")
join_cmd=$(printf '%q ' "$here/farm-concat.sh" "$work")

array_id=$(sbatch --parsable --job-name=md5cine-render --array="$array" \
    --output="$work/log/render-%A_%a.txt" "${sbatch_opts[@]}" --wrap "exec $task_cmd") || {
    farm_err "sbatch refused the render array"
    exit 3
}
array_id=${array_id%%;*}
join_id=$(sbatch --parsable --job-name=md5cine-join --dependency=afterok:"$array_id" \
    --kill-on-invalid-dep=yes --output="$work/log/join-%j.txt" "${sbatch_opts[@]}" \
    --wrap "exec $join_cmd") || {
    farm_err "sbatch refused the join job; cancelling array $array_id"
    scancel "$array_id" 2>/dev/null
    exit 3
}
join_id=${join_id%%;*}
echo "array $array_id"
echo "join $join_id"
echo "slurm-submit: $n chunks in array $array_id, join $join_id -> $out (work: $work)" >&2

if [ $wait = 1 ]; then
    while [ -n "$(squeue -h -j "$join_id" -o %i 2>/dev/null)" ]; do
        sleep 5
    done
    state=$(sacct -n -X -P -j "$join_id" -o State 2>/dev/null | head -n 1)
    if [ -z "$state" ]; then
        state=$(scontrol -o show job "$join_id" 2>/dev/null |
            sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    fi
    echo "slurm-submit: join job $join_id: ${state:-unknown}" >&2
    [ "$state" = COMPLETED ] || exit 3
fi
exit 0
