#!/bin/bash
# The pictures of the manual, made again from the bundled demo with the md5cine given (default:
# build/release/src/md5cine) and the ffmpeg command (Debian package ffmpeg).
#   docs/images/shadow-samples.png: the demo's frame 60 at 640x360, the same 64x48 crop at
#   (254, 234) enlarged 4 times without smoothing: left the default `--shadow-samples pixel`
#   (a pixel's shadow decided once, its edge in steps, as Doom 3 draws it), right
#   `--shadow-samples sample` (decided per MSAA sample, its edge antialiased).
# usage: scripts/doc_images.sh [MD5CINE]
set -euo pipefail
cd "$(dirname "$0")/.."
md5cine="${1:-build/release/src/md5cine}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for s in pixel sample; do
    "$md5cine" render scenes/demo/demo.md5scene --frames 60 --size 640x360 --audio off \
        --shadow-samples "$s" -o "$tmp/$s-%02d.png" >/dev/null
done
crop="crop=64:48:254:234,scale=256:192:flags=neighbor"
ffmpeg -loglevel error -y -i "$tmp/pixel-60.png" -i "$tmp/sample-60.png" -filter_complex \
    "[0]$crop,pad=260:192:0:0:white[a];[1]$crop[b];[a][b]hstack" -frames:v 1 \
    docs/images/shadow-samples.png
echo "wrote docs/images/shadow-samples.png"
