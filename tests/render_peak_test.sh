#!/bin/bash
# The default render's peak follows the frame, not how much the GL driver queues: ten actors of
# a 170x170 grid (make_grid.py: 58,000 triangles and 29,241 vertices each) drawn lit, with
# stencil shadows from both lights of the default rig, at 1280x720 with 4x MSAA. That frame
# draws about 12 million indices; llvmpipe bins them in scenes and rasterises one while it
# bins the next, so without GL finishing every 2^20 indices it held several full scenes at once
# (320 to 345 MB peak here), and each actor's volume indices took 32 bits where 16 hold them.
# Bound: 300 MiB (the hardening bench's). Labelled "once" (tests/CMakeLists.txt): a sanitizer's
# own memory would swamp a bound in MiB.
set -u
. ./harness.sh render_peak

python3 make_quads.py "$T" >/dev/null
mkdir -p "$T/grid"
cp "$T/cam.md5camera" "$T/grid/"
python3 make_grid.py "$T/grid" 170 ten=10
peak ten render "$T/grid/ten.md5scene" --frames 0-0 -o "$T/ten_%d.png" --quiet
expect ten_grid_actors_render_with_shadows 0
if [ "$kib" -lt 307200 ]; then
    ok ten_grid_actors_with_shadows_stay_under_300_mib
else
    fail ten_grid_actors_with_shadows_stay_under_300_mib "peak $kib KiB"
fi
# The same frame without shadows: the bound is about the volumes, so they must have been drawn
# (the flat grids shadow nothing visible, so this is seen in memory, not in pixels): the
# shadows' share must be there, at least 16 MiB (about 50 MiB here; 130 before).
shadows=$kib
peak flat render "$T/grid/ten.md5scene" --frames 0-0 -o "$T/flat_%d.png" --quiet --shadows off
expect ten_grid_actors_render_without_shadows 0
if [ "$shadows" -gt $((kib + 16384)) ]; then
    ok the_volumes_were_drawn
else
    fail the_volumes_were_drawn "peak $shadows KiB with shadows, $kib KiB without"
fi

finish
