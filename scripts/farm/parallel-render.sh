#!/bin/bash
# Renders a scene in chunks with GNU parallel, on this machine or on --sshlogin hosts, then joins
# the parts with `md5cine concat`.
#
# usage: scripts/farm/parallel-render.sh SCENE -o OUT [options] [-- RENDER_OPTIONS...]
#   -o OUT                 the output: a video (parts are joined) or a PNG pattern (no join)
#   --chunks N | --chunk-frames F | --by-shot
#                          how `md5cine plan` cuts the scene (default: --chunks JOBS)
#   -j, --jobs J           chunks rendered at once per host (default 2)
#   -S, --sshlogin LOGIN   a host for parallel's --sshlogin (repeatable; `:` is this machine,
#                          `2/user@host` runs 2 jobs there). Hosts need md5cine, this script folder
#                          and the scene at the same absolute paths, and WORK on shared storage.
#   --work DIR             work folder for the plan and parts (default OUT.farm, removed after a
#                          successful join unless --keep)
#   --keep                 keep the work folder after a successful join
#   --resume               keep the parts already rendered in WORK (same plan) and render the rest
#   --md5cine BIN          the md5cine binary (default: md5cine on PATH)
#   -- RENDER_OPTIONS      passed to every chunk's `md5cine render` (--size, --msaa, --crf ...);
#                          they must be the same for all chunks, or concat refuses the parts;
#                          the joined video carries the scene's sound (--audio off: none;
#                          --audio FILE.wav is refused: `md5cine render SCENE -o FILE.wav`)
# Every chunk runs even when one fails; then the join runs, and refuses (exit 2, naming the frames
# that have no part) unless every chunk rendered. Exit status: 0 when OUT is complete; 2 bad
# arguments or missing parts; 3 a runtime failure; parallel's own failures (e.g. a host that cannot
# be reached) are 3.
set -u
FARM_PROG=parallel-render
here=$(cd "$(dirname "$0")" && pwd)
. "$here/farm-lib.sh"

usage() {
    awk 'NR >= 5 && /^#/ { sub(/^# ?/, ""); print; next } NR >= 5 { exit }' "$0" >&2
    exit 2
}

scene= out= work= keep=0 resume=0 jobs=2 bin=md5cine
plan=()
logins=()
while [ $# -gt 0 ]; do
    case $1 in
        -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --chunks | --chunk-frames) [ $# -ge 2 ] || usage; plan=("$1" "$2"); shift 2 ;;
        --by-shot) plan=(--by-shot); shift ;;
        -j | --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
        -S | --sshlogin) [ $# -ge 2 ] || usage; logins+=(--sshlogin "$2"); shift 2 ;;
        --work) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --resume) resume=1; keep=1; shift ;;
        --md5cine) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
        -h | --help) usage ;;
        --) shift; break ;;
        -*) farm_err "unknown option '$1'"; usage ;;
        *) [ -z "$scene" ] || { farm_err "more than one scene: '$scene' and '$1'"; usage; }
           scene=$1; shift ;;
    esac
done
[ -n "$scene" ] && [ -n "$out" ] || usage
case $jobs in
    '' | *[!0-9]* | 0) farm_err "--jobs wants a positive number, not '$jobs'"; exit 2 ;;
esac
command -v parallel >/dev/null || { farm_err "GNU parallel not found (Debian: parallel)"; exit 3; }
[ ${#plan[@]} -gt 0 ] || plan=(--chunks "$jobs")
bin=$(farm_find_bin "$bin") || exit 3
[ -f "$scene" ] || { farm_err "$scene: no such scene"; exit 2; }
scene=$(farm_abs "$scene")
mkdir -p "$(dirname "$out")" || exit 3
out=$(farm_abs "$out")
[ -n "$work" ] || work=$out.farm
case $out in *%*) [ "$work" = "$out.farm" ] && work=$(dirname "$out")/.farm ;; esac
mkdir -p "$work" || exit 3
work=$(farm_abs "$work")

farm_prepare "$work" "$bin" "$scene" "$out" "$resume" ${#plan[@]} "${plan[@]}" "$@" || exit $?
. "$work/farm.env"
n=$(farm_count "$work")
[ "$n" -gt 0 ] || { farm_err "the plan has no chunks"; exit 2; }

todo=()
while read -r index _; do
    if [ "$resume" = 1 ] && [ "$EXT" != png ] && [ -f "$(farm_part "$work" "$index")" ]; then
        continue
    fi
    todo+=("$index")
done < <(farm_chunks "$work")

failed=0
if [ ${#todo[@]} -gt 0 ]; then
    echo "parallel-render: ${#todo[@]} of $n chunks, $jobs at a time${logins:+ on ${logins[*]}}" >&2
    # --halt never: every chunk is tried, so one bad chunk costs one rerun (--resume), not all.
    # --quote: parallel runs the command through a shell (here or over ssh), so each word is
    # quoted for it and paths with spaces or shell characters stay one word.
    parallel --will-cite --quote --halt never --jobs "$jobs" "${logins[@]}" \
        --joblog "$work/log/joblog.txt" --results "$work/log/task" \
        "$here/farm-task.sh" "$work" ::: "${todo[@]}"
    failed=$?
    if [ $failed -ne 0 ]; then
        if [ $failed -le 100 ]; then
            farm_err "$failed of ${#todo[@]} chunks failed" \
                "(logs: $work/log/task, $work/log/joblog.txt)"
        else
            farm_err "GNU parallel failed (status $failed)"
        fi
    fi
fi

"$here/farm-concat.sh" "$work"
rc=$?
if [ $rc -ne 0 ]; then
    [ $failed -le 100 ] || exit 3
    exit $rc
fi
if [ $failed -ne 0 ]; then
    exit 3
fi
[ $keep = 1 ] || rm -rf "$work"
exit 0
