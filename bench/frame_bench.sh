#!/bin/bash
# Per-stage cost of 'md5cine render' on the demo scene: 1280x720 and 1920x1080, MSAA off and 4x,
# to PNGs and to MP4 (libx264 veryfast crf 18, the defaults), from the figures of --stats. Then,
# beside them, the time FFmpeg's command line needs to encode the same PNG frames with the same
# settings. Then the look's rows: stencil shadows and unlit stages on and off, with the cost
# ratio to neither (ROWS=look: those only). Prints figures only; nothing is asserted.
#
# usage: bench/frame_bench.sh [MD5CINE] [FRAMES]
#   MD5CINE  the binary (default build/src/md5cine)
#   FRAMES   output frame range (default 0-95: 4 s of the demo, all three shots are later)
#   ROWS=look in the environment prints the look's rows only
# Run it on a quiet machine: every other process competes with llvmpipe and x264 for the cores.
set -eu
cd "$(dirname "$0")/.."
M=${1:-build/src/md5cine}
FRAMES=${2:-0-95}
SCENE=scenes/demo/demo.md5scene
T=$(mktemp -d "${TMPDIR:-/tmp}/frame_bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

[ -x "$M" ] || { echo "frame_bench: no binary '$M' (build md5cine first)" >&2; exit 2; }
[ -f "$SCENE" ] || { echo "frame_bench: no demo scene '$SCENE'" >&2; exit 2; }
n=$(( ${FRAMES#*-} - ${FRAMES%-*} + 1 ))

# stat FILE LABEL: the ms/frame figure of a --stats line (0 when absent)
stat() { awk -v l="$2" 'index($0, l) { for (i = 1; i <= NF; i++) if ($(i + 1) == "ms/frame") { print $i; exit } }
    END { }' "$1" | head -n 1; }

printf '%s, frames %s (%d), %s\n' "$SCENE" "$FRAMES" "$n" "$(nproc) cores"
all=yes
[ "${ROWS:-all}" = look ] && all=no
[ $all = yes ] && printf '%-9s %-4s %-4s %9s %9s %9s %9s %9s %9s %7s\n' size msaa out skin draw \
    readback sink wait total fps
for size in 1280x720 1920x1080; do
    [ $all = yes ] || break
    for msaa in 0 4; do
        for out in png mp4; do
            if [ "$out" = png ]; then dst="$T/png_${size}_$msaa/%05d.png"; else dst="$T/$size.mp4"; fi
            "$M" render "$SCENE" -o "$dst" --size "$size" --msaa "$msaa" --frames "$FRAMES" \
                --stats --quiet 2>"$T/stats.txt"
            sink_label="encode"
            [ "$out" = png ] && sink_label="png write"
            total=$(stat "$T/stats.txt" "end to end")
            fps=$(awk '/end to end/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "fps") print $i }' \
                "$T/stats.txt")
            printf '%-9s %-4s %-4s %9s %9s %9s %9s %9s %9s %7s\n' "$size" "$msaa" "$out" \
                "$(stat "$T/stats.txt" skinning)" "$(stat "$T/stats.txt" drawing)" \
                "$(stat "$T/stats.txt" readback)" "$(stat "$T/stats.txt" "$sink_label")" \
                "$(stat "$T/stats.txt" waiting)" "$total" "$fps"
        done
    done
done
if [ $all = yes ]; then
    echo "(ms/frame; sink = PNG writing summed over 2 threads, or encoding on the sink thread;"
    echo " readback includes llvmpipe's rasterisation, which GL defers until the pixels are read;"
    echo " wait = render loop blocked on a full queue; total = wall time / frames)"
fi

# The look's cost: the demo at 1280x720, 4x MSAA, lit, to PNGs, with Doom's stencil shadows
# (docs/materials-and-shading.md, "Shadows") and unlit stages each on and off; the best of two runs of each and the
# ratio to the row with neither. The demo has no unlit stage, so the stage rows draw a copy
# whose floor and flag materials each add a `blend add` stage (the floor's scrolling): two
# more passes over most of the picture.
echo
echo "look: 1280x720, 4x MSAA, lit, PNG, frames $FRAMES (best of 2 runs, ms/frame end to end)"
cp -r "$(dirname "$SCENE")" "$T/staged"
sed -i '/material "floor" "floor\/floor.png"/d' "$T/staged/demo.md5scene"
cat >"$T/staged/materials/demo.mtr" <<'MTR'
floor {
    diffusemap floor/floor.png
    { blend add map floor/floor.png rgb 0.25 scroll time * 0.1, 0 }
}
"01 - Default" {
    twoSided
    alphaTest 0.5
    diffusemap flag/ffflag_cc.png
    { blend add map flag/ffflag_cc.png rgb 0.2 }
}
MTR
look_row() { # look_row LABEL SCENE OPTIONS...: prints the row, sets $best
    local label=$1 sc=$2 t run
    shift 2
    best=
    for run in 1 2; do
        "$M" render "$sc" -o "$T/look/%05d.png" --size 1280x720 --msaa 4 --frames "$FRAMES" \
            --stats --quiet "$@" 2>"$T/stats.txt"
        t=$(stat "$T/stats.txt" "end to end")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t
            cp "$T/stats.txt" "$T/best.txt"
        fi
    done
    printf '%-20s %9s ms/frame  (draw %s, readback %s)' "$label" "$best" \
        "$(stat "$T/best.txt" drawing)" "$(stat "$T/best.txt" readback)"
}
ratio() { awk -v a="$1" -v b="$base" 'BEGIN { printf "  x%.2f\n", a / b }'; }
look_row "lit" "$SCENE" --shadows off
base=$best
echo
look_row "shadows on" "$SCENE"
ratio "$best"
look_row "stages on" "$T/staged/demo.md5scene" --shadows off
ratio "$best"
look_row "shadows and stages" "$T/staged/demo.md5scene"
ratio "$best"

if [ $all = yes ] && command -v ffmpeg >/dev/null; then
    echo
    echo "ffmpeg's command line encoding the same PNG frames (libx264 veryfast crf 18, yuv420p bt709):"
    for size in 1280x720 1920x1080; do
        start=$(date +%s.%N)
        ffmpeg -v error -y -framerate 24 -start_number "${FRAMES%-*}" -i "$T/png_${size}_4/%05d.png" \
            -c:v libx264 -preset veryfast -crf 18 -threads 2 -pix_fmt yuv420p -colorspace bt709 \
            -color_primaries bt709 -color_trc bt709 -color_range tv "$T/ff_$size.mp4"
        end=$(date +%s.%N)
        awk -v s="$start" -v e="$end" -v n="$n" -v z="$size" \
            'BEGIN { printf "%-9s %9.2f ms/frame (PNG decoding included) %7.2f fps\n", z, 1000 * (e - s) / n, n / (e - s) }'
    done
fi
