#!/bin/bash
# The demo's render against an older build, paired: builds commit OLD of this repository from
# git history (a worktree under build/, Release, md5cine only) beside the current binary and
# renders the demo with each in turn, A B A B ..., RUNS times per row, to MP4 as a user would.
# Prints per row the median wall ms per output frame of each, the median of the pairs' ratios
# (current / old) and each one's peak memory (largest resident set, GNU time). Rows: the
# default (lit, stencil shadows, 4x MSAA, 1280x720), --shadows off, --shading unlit, --msaa 0,
# and 640x360; the old build runs each row without the options it does not know (so a build
# without --shadows draws its own default there: the cost is against what it drew). Two rows
# compare the current build with itself: automatic frame jobs, and --jobs 2, against --jobs 1
# (their "old ms" column is --jobs 1); one the demo's sound (its AAC track, mixed once) against
# --audio off (its "old ms" column). Then the
# pass profile of the current build (MD5CINE_PASS_TIMES=1, see docs/speed.md).
# Prints figures only; nothing is asserted.
#
# usage: bench/speed_bench.sh [OLD] [MD5CINE] [FRAMES] [RUNS]
#   OLD      the older commit (default 0b98668)
#   MD5CINE  the current binary (default build/release/src/md5cine)
#   FRAMES   output frame range (default 0-23)
#   RUNS     runs of each command per row (default 3)
# Run it on a quiet machine: the pairing cancels drift, not another process taking the cores.
set -eu
cd "$(dirname "$0")/.."
OLD=${1:-0b98668}
M=${2:-build/release/src/md5cine}
FRAMES=${3:-0-23}
RUNS=${4:-3}
SCENE=scenes/demo/demo.md5scene
[ -x "$M" ] || { echo "speed_bench: no binary '$M' (scripts/demo.sh builds it)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "speed_bench: needs GNU time (Debian: time)" >&2; exit 2; }
n=$(( ${FRAMES#*-} - ${FRAMES%-*} + 1 ))

src=build/speed-old-$OLD
if [ ! -x "$src/build/src/md5cine" ]; then
    echo "speed_bench: building $OLD in $src" >&2
    rm -rf "$src"
    git worktree prune
    git worktree add --detach "$src" "$OLD" >/dev/null
    cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$src/build" -j"$(nproc)" --target md5cine >/dev/null
fi
O=$src/build/src/md5cine
T=$(mktemp -d "${TMPDIR:-/tmp}/speed_bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# old_opts OPTS...: OPTS without those the old binary's render does not list
old_opts() {
    local out=() skip=0
    while [ $# -gt 0 ]; do
        if "$O" render --help 2>&1 | grep -q -- "^  $1 "; then out+=("$1" "$2"); fi
        shift 2
    done
    echo "${out[@]:-}"
}

# one BIN OPTS...: prints "ms_per_frame peak_kb" of one render
one() {
    local bin=$1 t0 t1
    shift
    t0=$(date +%s%N)
    /usr/bin/time -f %M -o "$T/rss" "$bin" render "$SCENE" -o "$T/out.mp4" --frames "$FRAMES" \
        --quiet "$@"
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 / n )) $(cat "$T/rss")"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%s frames %s, %d runs each, paired; %s cores; current %s against %s\n' "$SCENE" "$FRAMES" \
    "$RUNS" "$(nproc)" "$(git describe --always --dirty)" "$OLD"
printf '%-22s %12s %12s %8s %10s %10s\n' row "current ms" "old ms" ratio "cur MB" "old MB"
row() {
    local name=$1
    shift
    local oo a b
    oo=$(old_opts "$@")
    : >"$T/a"; : >"$T/b"; : >"$T/r"
    for _ in $(seq "$RUNS"); do
        # shellcheck disable=SC2086
        b=$(one "$O" $oo)
        a=$(one "$M" "$@")
        echo "$a" >>"$T/a"
        echo "$b" >>"$T/b"
        awk -v a="${a% *}" -v b="${b% *}" 'BEGIN { printf "%.4f\n", a / b }' >>"$T/r"
    done
    report "$name"
}
# report NAME: the row's line from $T/a, $T/b and $T/r
report() {
    printf '%-22s %12.1f %12.1f %8.2f %10.0f %10.0f\n' "$1" \
        "$(cut -d' ' -f1 "$T/a" | median | awk '{ print $1 / 1000 }')" \
        "$(cut -d' ' -f1 "$T/b" | median | awk '{ print $1 / 1000 }')" \
        "$(median <"$T/r")" \
        "$(cut -d' ' -f2 "$T/a" | median | awk '{ print $1 / 1024 }')" \
        "$(cut -d' ' -f2 "$T/b" | median | awk '{ print $1 / 1024 }')"
}
row "default 1280x720"  --size 1280x720
row "--shadows off"     --size 1280x720 --shadows off
row "--shading unlit"   --size 1280x720 --shading unlit
row "--msaa 0"          --size 1280x720 --msaa 0
row "default 640x360"   --size 640x360
row "--msaa 0 640x360"  --size 640x360 --msaa 0
# Frame jobs (render --jobs): the current build's automatic count against one job, both the
# current build (the "old ms" column is --jobs 1 here).
jobs_row() {
    local name=$1 jobs=$2 a b
    : >"$T/a"; : >"$T/b"; : >"$T/r"
    for _ in $(seq "$RUNS"); do
        b=$(one "$M" --size 1280x720 --jobs 1)
        # shellcheck disable=SC2086
        a=$(one "$M" --size 1280x720 ${jobs:+--jobs $jobs})
        echo "$a" >>"$T/a"
        echo "$b" >>"$T/b"
        awk -v a="${a% *}" -v b="${b% *}" 'BEGIN { printf "%.4f\n", a / b }' >>"$T/r"
    done
    report "$name"
}
jobs_row "jobs auto vs 1" ""
jobs_row "--jobs 2 vs 1"  2
# The scene's sound (docs/soundtrack.md): the default render with its track against --audio off,
# both the current build (the "old ms" column is --audio off here).
sound_row() {
    local a b
    : >"$T/a"; : >"$T/b"; : >"$T/r"
    for _ in $(seq "$RUNS"); do
        b=$(one "$M" --size 1280x720 --audio off)
        a=$(one "$M" --size 1280x720)
        echo "$a" >>"$T/a"
        echo "$b" >>"$T/b"
        awk -v a="${a% *}" -v b="${b% *}" 'BEGIN { printf "%.4f\n", a / b }' >>"$T/r"
    done
    report "sound vs --audio off"
}
sound_row
echo
echo "pass profile of the current build, default 1280x720:"
MD5CINE_PASS_TIMES=1 "$M" render "$SCENE" -o "$T/out.mp4" --frames "$FRAMES" --quiet --size 1280x720
