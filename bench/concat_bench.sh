#!/usr/bin/env bash
# Farm rendering benchmark: the scene rendered whole, then as the chunks of `md5cine plan
# --chunks N` one after the other (as N machines would render them at once), and the chunks
# joined with `md5cine concat`. Prints figures; asserts nothing.
#
#   bash bench/concat_bench.sh [MD5CINE]      (default: build/src/md5cine)
#
# Environment: CHUNKS (default 4), SIZE (default 1280x720), SCENE (default
# scenes/demo/demo.md5scene), BENCH_TMP (scratch folder; default a new folder under /tmp,
# removed at the end). Concat runs 3 times; its wall time, CPU time and peak memory come from
# /usr/bin/time.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/src/md5cine}
scene=${SCENE:-$root/scenes/demo/demo.md5scene}
chunks=${CHUNKS:-4}
size=${SIZE:-1280x720}
tmp=${BENCH_TMP:-$(mktemp -d /tmp/concat_bench.XXXXXX)}
[ -n "${BENCH_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

t0=$(now)
"$bin" render "$scene" --size "$size" -o "$tmp/whole.mp4" --quiet
printf '%-36s %s s, %s bytes\n' "whole render ($size):" "$(secs "$t0" "$(now)")" \
    "$(stat -c %s "$tmp/whole.mp4")"
"$bin" plan "$scene" --chunks "$chunks" >"$tmp/plan"
total=0
while read -r i frames _; do
    t0=$(now)
    "$bin" render "$scene" --size "$size" --frames "$frames" -o "$tmp/part$i.mp4" --quiet </dev/null
    s=$(secs "$t0" "$(now)")
    total=$(awk -v a="$total" -v b="$s" 'BEGIN { print a + b }')
    printf '%-36s %s s, %s bytes\n' "chunk $i (frames $frames):" "$s" "$(stat -c %s "$tmp/part$i.mp4")"
done <"$tmp/plan"
printf '%-36s %s s (the longest chunk is the farm'"'"'s wall time)\n' "chunks one after the other:" "$total"
for run in 1 2 3; do
    /usr/bin/time -f "$(printf '%-36s' "concat run $run:") %e s wall, %U s user, %S s sys, %M KB peak" \
        "$bin" concat "$tmp"/part*.mp4 -o "$tmp/joined.mp4" --quiet
done
printf '%-36s %s bytes\n' "joined:" "$(stat -c %s "$tmp/joined.mp4")"
