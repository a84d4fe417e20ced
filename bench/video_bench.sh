#!/usr/bin/env bash
# Video output benchmark: md5cine's overlapped render + encode against FFmpeg's command line
# encoding the same frames with the same settings. Prints figures; asserts nothing.
#
#   bash bench/video_bench.sh [MD5CINE]      (default: build/src/md5cine)
#
# Environment: SIZES (default "1280x720 1920x1080"), FRAMES (an md5cine --frames range,
# default: the whole scene), SCENE (default scenes/demo/demo.md5scene), CRF (18),
# PRESET (veryfast), BENCH_TMP (scratch folder; default a new folder under /tmp, removed at
# the end). The raw RGBA dump needs width*height*4 bytes per frame (2 GB for 241 frames at
# 1080p).
#
# For each size it times:
#   md5cine -> MP4         render and encode overlapped (the frame pipeline)
#   md5cine -> PNG         render and write PNGs (no video)
#   ffmpeg PNG -> MP4      FFmpeg encoding those PNGs with the same codec settings
#   PNG route total        the two above one after the other
#   ffmpeg raw -> MP4      FFmpeg encoding the same frames from raw RGBA (encode cost alone)
# "cores busy" is (user + sys CPU time) / (wall time x cores), from /usr/bin/time.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/src/md5cine}
scene=${SCENE:-$root/scenes/demo/demo.md5scene}
sizes=${SIZES:-"1280x720 1920x1080"}
crf=${CRF:-18}
preset=${PRESET:-veryfast}
cores=$(nproc)
frames_opt=()
[ -n "${FRAMES:-}" ] && frames_opt=(--frames "$FRAMES")

for tool in "$bin" ffmpeg ffprobe /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "video_bench: '$tool' not found" >&2; exit 2; }
done
if [ -n "${BENCH_TMP:-}" ]; then
    tmp=$BENCH_TMP
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d /tmp/md5cine-video-bench.XXXXXX)
    trap 'rm -rf "$tmp"' EXIT
fi

# timed LABEL CMD...: runs CMD, sets wall/cpu from /usr/bin/time; stops on failure.
timed() {
    local label=$1
    shift
    if ! /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "video_bench: '$label' failed:" >&2
        cat "$tmp/err" >&2
        exit 3
    fi
    read -r wall user sys <"$tmp/time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# row SIZE LABEL FRAMES WALL CPU [NOTE]
row() {
    awk -v size="$1" -v label="$2" -v n="$3" -v wall="$4" -v cpu="$5" -v cores="$cores" \
        -v note="${6:-}" 'BEGIN {
        printf "%-9s  %-22s %8.2f %8.1f %8.2f %7.0f%%  %s\n", size, label, wall,
               (wall > 0 ? n / wall : 0), cpu, (wall > 0 ? 100 * cpu / (wall * cores) : 0), note
    }'
}

ffmpeg_x264=(-c:v libx264 -preset "$preset" -crf "$crf" -threads 2 -pix_fmt yuv420p
             -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv
             -movflags +faststart)
# BT.709 limited range like md5cine (FFmpeg's own default conversion would be BT.601).
to709=(-vf "scale=out_color_matrix=bt709:out_range=tv")

echo "md5cine: $bin"
echo "scene: $scene ${FRAMES:+(frames $FRAMES)}; libx264 preset $preset crf $crf, 2 threads; $cores cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-9s  %-22s %8s %8s %8s %8s  %s\n" size path "wall s" fps "cpu s" "cores" "note"

for size in $sizes; do
    w=${size%x*}
    h=${size#*x}
    mp4=$tmp/md5cine-$size.mp4
    png=$tmp/png-$size
    rm -rf "$png" && mkdir -p "$png"

    timed "md5cine mp4 $size" "$bin" render "$scene" -o "$mp4" --size "$size" --crf "$crf" \
        --preset "$preset" --quiet --stats "${frames_opt[@]}"
    n=$(ffprobe -v error -count_packets -select_streams v:0 \
        -show_entries stream=nb_read_packets -of csv=p=0 "$mp4")
    fps=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 \
          "$mp4")
    enc_ms=$(awk '/encode \(sink thread\)/ { print $(NF-1) " ms/frame in the encoder" }' \
             "$tmp/err")
    row "$size" "md5cine -> MP4" "$n" "$wall" "$cpu" "$enc_ms"
    md5_wall=$wall

    timed "md5cine png $size" "$bin" render "$scene" -o "$png/%05d.png" --size "$size" \
        --quiet "${frames_opt[@]}"
    row "$size" "md5cine -> PNG" "$n" "$wall" "$cpu"
    png_wall=$wall png_cpu=$cpu

    first=$(ls "$png" | head -n 1)
    first=${first%.png}
    timed "ffmpeg png $size" ffmpeg -v error -y -framerate "$fps" -start_number "$((10#$first))" \
        -i "$png/%05d.png" "${to709[@]}" "${ffmpeg_x264[@]}" "$tmp/ffmpeg-png-$size.mp4"
    row "$size" "ffmpeg PNG -> MP4" "$n" "$wall" "$cpu"
    total_wall=$(awk -v a="$png_wall" -v b="$wall" 'BEGIN { print a + b }')
    total_cpu=$(awk -v a="$png_cpu" -v b="$cpu" 'BEGIN { print a + b }')
    row "$size" "PNG route total" "$n" "$total_wall" "$total_cpu" \
        "$(awk -v a="$total_wall" -v b="$md5_wall" 'BEGIN { printf "%.2fx the MP4 path", a / b }')"

    # Decode the PNGs once into raw RGBA, then time the encode alone.
    ffmpeg -v error -y -framerate "$fps" -start_number "$((10#$first))" -i "$png/%05d.png" \
        -f rawvideo -pix_fmt rgba "$tmp/frames-$size.rgb"
    timed "ffmpeg raw $size" ffmpeg -v error -y -f rawvideo -pix_fmt rgba -s "${w}x${h}" \
        -framerate "$fps" -i "$tmp/frames-$size.rgb" "${to709[@]}" "${ffmpeg_x264[@]}" \
        "$tmp/ffmpeg-raw-$size.mp4"
    row "$size" "ffmpeg raw -> MP4" "$n" "$wall" "$cpu" "encode alone"
    rm -f "$tmp/frames-$size.rgb"
    rm -rf "$png"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
