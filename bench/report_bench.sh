#!/bin/bash
# Cost of --report and --junit on the demo's failing frames: the demo at SIZE, output frames
# FRAMES, against a reference rendered with the walker playing the idle anim instead of
# forward (every frame of shots 1 and 2 then fails). 'md5cine compare REF NEW' of the two PNG
# folders is timed without, with --junit, and with --report (best of RUNS each); the
# difference is what the report adds, also per failing frame. Prints figures only.
#
# usage: bench/report_bench.sh [MD5CINE] [SIZE] [FRAMES] [RUNS]
#   defaults: build/src/md5cine 1280x720 0-47 3
set -eu
cd "$(dirname "$0")/.."
M=${1:-build/src/md5cine}
SIZE=${2:-1280x720}
FRAMES=${3:-0-47}
RUNS=${4:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/report_bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

[ -x "$M" ] || { echo "report_bench: no binary '$M' (build md5cine first)" >&2; exit 2; }
cp -r scenes/demo "$T/demo"
"$M" render "$T/demo/demo.md5scene" --size "$SIZE" --frames "$FRAMES" -o "$T/new/%05d.png" --quiet
sed -i '0,/drone\/forward.md5anim/s//drone\/idle.md5anim/' "$T/demo/demo.md5scene"
"$M" render "$T/demo/demo.md5scene" --size "$SIZE" --frames "$FRAMES" -o "$T/ref/%05d.png" --quiet

# best ARGS...: "WALL CPU" seconds, the least of RUNS runs of 'md5cine compare REF NEW ARGS...'
# (CPU = user + system: steadier than wall time on a shared machine)
best() {
    local b="" r
    for _ in $(seq "$RUNS"); do
        rm -rf "$T/rep"
        r=$( { /usr/bin/time -f '%e %U %S' "$M" compare "$T/ref" "$T/new" --quiet "$@" \
               2>&1 >/dev/null; } | tail -n 1)
        b=$(echo "$r ${b:-}" | awk '{ w = $1; c = $2 + $3
            if ($4 != "" && $4 < w) w = $4; if ($5 != "" && $5 < c) c = $5; print w, c }')
    done
    echo "$b"
}
"$M" compare "$T/ref" "$T/new" --json >"$T/check.json" || true
fails=$(python3 -c 'import json,sys; print(sum(not r["pass"] for r in json.load(open(sys.argv[1]))["frames"]))' "$T/check.json")
read -r pw pc < <(best)
read -r jw jc < <(best --junit "$T/j.xml")
read -r rw rc < <(best --report "$T/rep")
du=$(du -sk "$T/rep" 2>/dev/null | cut -f1)
printf 'demo %s, frames %s: %s failing frames, %s cores, best of %s\n' "$SIZE" "$FRAMES" \
    "$fails" "$(nproc)" "$RUNS"
awk -v pw="$pw" -v pc="$pc" -v jw="$jw" -v jc="$jc" -v rw="$rw" -v rc="$rc" -v n="$fails" \
    -v kb="${du:-0}" 'BEGIN {
    printf "%-18s %8s %8s\n", "", "wall s", "cpu s"
    printf "%-18s %8.2f %8.2f\n", "compare", pw, pc
    printf "%-18s %8.2f %8.2f\n", "compare --junit", jw, jc
    printf "%-18s %8.2f %8.2f\n", "compare --report", rw, rc
    printf "report adds        %8.2f %8.2f  (cpu %.0f ms per failing frame)\n", rw - pw, rc - pc,
        n ? 1e3 * (rc - pc) / n : 0
    printf "junit adds         %8.2f %8.2f\n", jw - pw, jc - pc
    printf "report size        %8d KiB (%.0f KiB per failing frame)\n", kb, n ? kb / n : 0 }'
