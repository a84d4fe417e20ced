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

# best LABEL ARGS...: the least wall time of RUNS runs of 'md5cine compare REF NEW ARGS...'
best() {
    local label=$1 b=
    shift
    for _ in $(seq "$RUNS"); do
        rm -rf "$T/rep"
        local t0 t1
        t0=$(date +%s.%N)
        "$M" compare "$T/ref" "$T/new" --quiet "$@" || [ $? -eq 1 ]
        t1=$(date +%s.%N)
        b=$(echo "$t0 $t1 ${b:-}" | awk '{ d = $2 - $1; if ($3 == "" || d < $3) d = d; else d = $3; print d }')
    done
    echo "$b"
}
"$M" compare "$T/ref" "$T/new" --json >"$T/check.json" || true
fails=$(python3 -c 'import json,sys; print(sum(not r["pass"] for r in json.load(open(sys.argv[1]))["frames"]))' "$T/check.json")
plain=$(best plain)
junit=$(best junit --junit "$T/j.xml")
report=$(best report --report "$T/rep")
du=$(du -sk "$T/rep" 2>/dev/null | cut -f1)
printf 'demo %s, frames %s: %s failing frames, %s cores, best of %s\n' "$SIZE" "$FRAMES" \
    "$fails" "$(nproc)" "$RUNS"
printf '%-22s %8.3f s\n' "compare" "$plain" "compare --junit" "$junit" "compare --report" "$report"
awk -v p="$plain" -v r="$report" -v j="$junit" -v n="$fails" -v kb="${du:-0}" 'BEGIN {
    printf "%-22s %8.3f s  (%.1f ms per failing frame)\n", "report adds", r - p, n ? 1e3 * (r - p) / n : 0
    printf "%-22s %8.3f s\n", "junit adds", j - p
    printf "%-22s %8d KiB\n", "report size", kb }'
