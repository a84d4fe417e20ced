#!/bin/bash
# Renders one chunk of a farm render prepared by slurm-submit.sh or parallel-render.sh.
#
# usage: scripts/farm/farm-task.sh WORK [INDEX]
#   WORK   the work folder (farm.env, plan.txt, parts/)
#   INDEX  the chunk, counted from 0 as `md5cine plan` numbers them; default: the scheduler's task
#          index, $SLURM_ARRAY_TASK_ID (Slurm arrays) or $JOB_COMPLETION_INDEX (Kubernetes
#          Indexed Jobs)
# The chunk's video is rendered to WORK/parts/part-IIIII.EXT (md5cine writes it under a temporary
# name and renames it when complete, so a part that exists is whole); for a PNG pattern the frames
# go straight to the pattern. Exit status: md5cine's (2 bad input, 3 runtime failure), 2 when the
# index is not in the plan.
set -u
FARM_PROG=farm-task
. "$(dirname "$0")/farm-lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: farm-task.sh WORK [INDEX]" >&2; exit 2; }
work=$1
index=${2:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-}}}
case $index in
    '' | *[!0-9]*)
        farm_err "no chunk index (give INDEX, or run as a Slurm array task or an Indexed Job)"
        exit 2
        ;;
esac
farm_check_work "$work" || exit 2
. "$work/farm.env"

range=$(farm_chunks "$work" | awk -v i="$index" '$1 == i + 0 { print $2 }')
if [ -z "$range" ]; then
    farm_err "chunk $index is not in $work/plan.txt ($(farm_count "$work") chunks)"
    exit 2
fi

if [ "$EXT" = png ]; then
    dst=$OUT
else
    dst=$(farm_part "$work" "$index")
fi
echo "farm-task: chunk $index frames $range -> $dst" >&2
exec "$MD5CINE" render "$SCENE" --frames "$range" -o "$dst" --quiet "${RENDER_OPTS[@]}"
