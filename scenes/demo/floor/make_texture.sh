#!/usr/bin/env bash
# Writes floor.png, the floor texture of the bundled demo scene: 256 x 256, tileable, 2 x 2
# concrete slabs (broad mottling plus fine grain in dark to mid warm grey, each slab a slightly
# different tone) with darker joints on the tile's edges and middle. Needs ImageMagick 6
# (`convert`); the fixed seeds make it repeatable.
# usage: scenes/demo/floor/make_texture.sh [OUT.png]   (default: floor.png next to this script)
set -euo pipefail
out="${1:-$(dirname "$0")/floor.png}"
convert \
    \( -size 256x256 xc:gray50 -seed 7 +noise Random -colorspace Gray \
       -virtual-pixel tile -blur 0x10 -auto-level \) \
    \( -size 256x256 xc:gray50 -seed 8 +noise Random -colorspace Gray \
       -virtual-pixel tile -blur 0x0.8 -auto-level \) \
    -compose blend -define compose:args=55 -composite \
    -colorspace sRGB +level-colors 'rgb(54,52,49)','rgb(94,91,86)' \
    -fill 'rgba(0,0,0,0.07)' -draw 'rectangle 128,0 255,127' \
    -fill 'rgba(255,255,255,0.04)' -draw 'rectangle 0,128 127,255' \
    -fill 'rgb(34,33,31)' \
    -draw 'rectangle 0,0 0,255' -draw 'rectangle 255,0 255,255' -draw 'rectangle 127,0 128,255' \
    -draw 'rectangle 0,0 255,0' -draw 'rectangle 0,255 255,255' -draw 'rectangle 0,127 255,128' \
    -type TrueColor -depth 8 -strip -define png:exclude-chunks=date,time "$out"
