#!/bin/bash
# The demo's render against an older build, paired: builds commit OLD of this repository from
# git history (a worktree under build/, Release, md5cine only) beside the current binary and
# renders the demo with each in turn, A B A B ..., RUNS times per row, to MP4 as a user would.
# Prints per row the median wall ms per output frame of each, the median of the pairs' ratios
# (current / old) and each one's peak memory (largest resident set, GNU time). Rows: the
# default (lit, stencil shadows, 4x MSAA, 1280x720), --shadows off, --shading unlit, --msaa 0,
# and 640x360; the old build runs each row without the options it does not know (so a build
# without --shadows draws its own default there: the cost is against what it drew). The
# "levers" rows draw the current build's default look as it was before the round that made
# it cheaper, and with each of its levers alone: the rig's fill casting shadows (the demo with
# its two lights written out, the fill without noShadows, beside the demo while the bench
# runs) and --shadow-samples sample, against the same old render; the "no fold" rows draw the
# default and --shadows off with the ambient in the first pass (MD5CINE_NO_AMBIENT_FOLD=1).
# Rows that compare the current build with itself (their "old ms" column is the second
# command): automatic frame jobs and --jobs 2 against --jobs 1, and LP_NUM_THREADS=1 --jobs 2
# against --jobs 1 with two raster threads (LP_NUM_THREADS=2), on all cores and on one
# (taskset -c 0). Then the pass
# profile of the current build (MD5CINE_PASS_TIMES=1, see docs/speed-round2.md). One row
# is the demo's sound (its AAC track, mixed once) against --audio off (its "old ms" column).
# Prints figures only; nothing is asserted.
#
# usage: bench/speed_bench.sh [OLD] [MD5CINE] [FRAMES] [RUNS] [ROWS]
#   OLD      the older commit (default 0b98668)
#   MD5CINE  the current binary (default build/release/src/md5cine)
#   FRAMES   output frame range (default 0-23)
#   RUNS     runs of each command per row (default 3)
#   ROWS     an extended regular expression: only the rows whose names match (default all)
# Run it on a quiet machine: the pairing cancels drift, not another process taking the cores.
set -eu
cd "$(dirname "$0")/.."
OLD=${1:-0b98668}
M=${2:-build/release/src/md5cine}
FRAMES=${3:-0-23}
RUNS=${4:-3}
ROWS=${5:-.}
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
# The demo with the rig's lights written out and the fill casting shadows, as the default rig
# drew before its fill went shadowless (shadows_test checks that the lights written out draw
# the rig); beside the demo, so its relative paths hold.
#
# The old build renders the demo with its actors' model declarations written out as the
# files they name and without its sound statements (it reads neither): the same pictures, the
# walker placed within a few pixels of where its model puts it.
FILL=scenes/demo/.speed_bench_fill_casts.$$.md5scene
OLD_SCENE=scenes/demo/.speed_bench_by_hand.$$.md5scene
trap 'rm -rf "$T" "$FILL" "$OLD_SCENE"' EXIT
"$M" info "$SCENE" --json >"$T/rig.json"
python3 - "$T/rig.json" "$SCENE" "$OLD_SCENE" <<'PY'
import json, os, re, sys
d = json.load(open(sys.argv[1]))
top = os.path.dirname(sys.argv[2])
named = {a['name']: a for a in d['actors'] if a.get('model')}
out, actor = [], None
for l in open(sys.argv[2]):
    m = re.match(r'\s*actor\s+"([^"]*)"', l)
    if m:
        actor = named.get(m.group(1))
    key = re.match(r'(\s*)(model|anim)\s+"', l)
    if actor and key:
        word = 'mesh' if key.group(2) == 'model' else 'anim'
        l = '%s%s "%s"\n' % (key.group(1), word, os.path.relpath(actor[word], top))
    if not re.match(r'sound\s', l):
        out.append(l)
open(sys.argv[3], 'w').write(''.join(out))
PY
python3 - "$T/rig.json" "$SCENE" "$FILL" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lines = [l for l in open(sys.argv[2])]
for g in d['lights']:
    lines.append('light %s { origin ( %s ) color ( %s ) radius %s }\n' % (
        g['name'], ' '.join(repr(x) for x in g['origin']),
        ' '.join(repr(x) for x in g['color']), repr(g['radius'])))
open(sys.argv[3], 'w').write(''.join(lines))
PY

# old_opts OPTS...: OPTS without those the old binary's render does not list
old_opts() {
    local out=() skip=0
    while [ $# -gt 0 ]; do
        if "$O" render --help 2>&1 | grep -q -- "^  $1 "; then out+=("$1" "$2"); fi
        shift 2
    done
    echo "${out[@]:-}"
}

# one BIN OPTS...: prints "ms_per_frame peak_kb" of one render of $CUR_SCENE (the current
# build; default the demo) or the demo by hand (the old build); BIN may be
# "env ... taskset ... md5cine"
one() {
    local bin=$1 t0 t1 scene=$OLD_SCENE
    shift
    [ "${bin##* }" = "$M" ] && scene=${CUR_SCENE:-$SCENE}
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    /usr/bin/time -f %M -o "$T/rss" $bin render "$scene" -o "$T/out.mp4" --frames "$FRAMES" \
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
    [[ $name =~ $ROWS ]] || return 0
    oo=$(old_opts "$@")
    : >"$T/a"; : >"$T/b"; : >"$T/r"
    for _ in $(seq "$RUNS"); do
        # shellcheck disable=SC2086
        b=$(one "$O" $oo)
        a=$(one "${CUR_ENV:+env $CUR_ENV }$M" "$@")
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
CUR_SCENE=$FILL row "levers: neither" --size 1280x720 --shadow-samples sample
CUR_SCENE=$FILL row "levers: per pixel" --size 1280x720
row "levers: fill no shad." --size 1280x720 --shadow-samples sample
CUR_ENV=MD5CINE_NO_AMBIENT_FOLD=1 row "levers: 1+2, no fold" --size 1280x720
row "--shadows off"     --size 1280x720 --shadows off
CUR_ENV=MD5CINE_NO_AMBIENT_FOLD=1 row "shadows off, no fold" --size 1280x720 --shadows off
row "--shading unlit"   --size 1280x720 --shading unlit
row "--msaa 0"          --size 1280x720 --msaa 0
row "default 640x360"   --size 640x360
row "--msaa 0 640x360"  --size 640x360 --msaa 0
# Frame jobs (render --jobs): the current build against itself (the "old ms" column is the
# second command). self_row NAME CMD_A OPTS_A -- CMD_B OPTS_B, a CMD being the binary with
# what goes before it (env, taskset).
self_row() {
    local name=$1 ca=$2 cb a b
    shift 2
    local oa=() ob=()
    while [ "$1" != -- ]; do oa+=("$1"); shift; done
    shift
    cb=$1
    shift
    ob=("$@")
    [[ $name =~ $ROWS ]] || return 0
    : >"$T/a"; : >"$T/b"; : >"$T/r"
    for _ in $(seq "$RUNS"); do
        b=$(one "$cb" --size 1280x720 "${ob[@]}")
        a=$(one "$ca" --size 1280x720 "${oa[@]}")
        echo "$a" >>"$T/a"
        echo "$b" >>"$T/b"
        awk -v a="${a% *}" -v b="${b% *}" 'BEGIN { printf "%.4f\n", a / b }' >>"$T/r"
    done
    report "$name"
}
self_row "jobs auto vs 1"       "$M" --jobs auto -- "$M" --jobs 1
self_row "--jobs 2 vs 1"        "$M" --jobs 2 -- "$M" --jobs 1
self_row "LP1 jobs 2 vs LP2 1"  "env LP_NUM_THREADS=1 $M" --jobs 2 -- "env LP_NUM_THREADS=2 $M" --jobs 1
self_row "1 core: same"         "env LP_NUM_THREADS=1 taskset -c 0 $M" --jobs 2 -- \
    "env LP_NUM_THREADS=2 taskset -c 0 $M" --jobs 1
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
