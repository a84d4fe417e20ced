#!/bin/bash
# Joins the parts of a farm render into its output with `md5cine concat` (stream copy).
#
# usage: scripts/farm/farm-concat.sh WORK
# Every chunk of WORK/plan.txt whose part is missing is named with its frame range; the parts that
# exist are handed to `md5cine concat`, which refuses (exit 2, naming the frames that are missing)
# unless they join into the whole scene, so no output is written from an incomplete set. concat
# gets the scene (--scene SCENE), so the joined video carries the scene's sound mixed once over
# the whole timeline, the track a one-process render has (none with the render option
# --audio off; the rate of --audio-rate N; --lenient passed on). For a PNG pattern there is
# nothing to join: it only checks that every chunk's frames exist.
# Exit status: 0 joined, 2 parts missing or refused by concat, 3 runtime failure.
set -u
FARM_PROG=farm-concat
. "$(dirname "$0")/farm-lib.sh"

[ $# -eq 1 ] || { echo "usage: farm-concat.sh WORK" >&2; exit 2; }
work=$1
farm_check_work "$work" || exit 2
. "$work/farm.env"

missing=0
parts=()
rate=() # concat's options that go with --scene
while read -r index range; do
    if [ "$EXT" = png ]; then
        first=${range%-*}
        last=${range#*-}
        for ((f = first; f <= last; f++)); do
            # shellcheck disable=SC2059 # OUT is the render's printf-style frame pattern
            if [ ! -f "$(printf "$OUT" "$f")" ]; then
                farm_err "chunk $index (frames $range): frame $f missing"
                missing=1
                break
            fi
        done
        continue
    fi
    part=$(farm_part "$work" "$index")
    if [ -f "$part" ]; then
        parts+=("$part")
    else
        farm_err "chunk $index (frames $range) has no part: $part"
        missing=1
    fi
done < <(farm_chunks "$work")

if [ "$EXT" = png ]; then
    [ $missing -eq 0 ] || exit 2
    echo "farm-concat: all frames of $(farm_count "$work") chunks are in $OUT" >&2
    exit 0
fi
if [ ${#parts[@]} -eq 0 ]; then
    farm_err "no part was rendered; nothing written to $OUT"
    exit 2
fi
# The sound: the scene's, unless the chunks were rendered without (--audio off), at their rate,
# the scene read as leniently as they read it.
sound=(--scene "$SCENE")
set -- "${RENDER_OPTS[@]}"
while [ $# -gt 0 ]; do
    case $1 in
        --audio) [ "${2:-}" = off ] && sound=(); shift ;;
        --audio=off) sound=() ;;
        --audio-rate) [ $# -ge 2 ] && rate=("$1" "$2") && shift ;;
        --audio-rate=*) rate=("$1") ;;
        --lenient) rate+=("$1") ;;
    esac
    shift
done
[ ${#sound[@]} -eq 0 ] || sound+=("${rate[@]}")
"$MD5CINE" concat "${parts[@]}" "${sound[@]}" -o "$OUT"
rc=$?
if [ $rc -eq 0 ] && [ $missing -ne 0 ]; then
    # The parts present joined on their own (the missing ones were at an end): still incomplete.
    rm -f "$OUT"
    farm_err "$OUT removed: parts are missing"
    exit 2
fi
exit $rc
