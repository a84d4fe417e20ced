#!/bin/bash
# Outputs never replace the files a scene's base folder was read from (docs/hardening.md): the
# images its materials name, loose or in a .pk4, the declaration files and the archives count as
# inputs as the scene's own files do, by file identity, for render (PNG frames, a video) and
# sheet. A base whose materials/m.mtr gives the quad "left" the image textures/00001.png and the
# quad "right" an image inside pak000.pk4: `render -o base/textures/%05d.png` (frame 1 would be
# the image) and `sheet -o base/textures/00001.png` are refused (exit 2, the message naming the
# output and the input) and the image is byte for byte what it was; so are outputs that are
# symbolic links to the archive and to the declaration file. The same commands still write what
# the render did not read: frame 0 into that folder, and a texture no material names.
set -u
. ./harness.sh declared_inputs

D=$(pwd)/data
python3 make_quads.py "$T"
mkdir -p "$T/base/materials" "$T/base/textures"
printf 'left { diffusemap textures/00001 }\nright { diffusemap textures/packed }\n' \
    >"$T/base/materials/m.mtr"
cp data/render/red.png "$T/base/textures/00001.png"
cp data/render/red.png "$T/base/textures/00002.png" # no material names it
python3 - "$T/base/pak000.pk4" data/render/red.png <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.write(sys.argv[2], 'textures/packed.png')
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nframes 3\nactor q { mesh "quads.md5mesh" }\n' \
    >"$T/a.md5scene"
ln -s base/pak000.pk4 "$T/pk4_link.png"
ln -s base/materials/m.mtr "$T/mtr_link.mp4"
sums() { (cd "$T/base" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum); }
sums >"$T/before"

cd "$T" || exit 1
# refused NAME WANT_IN_STDERR ARGS...: exit 2, the message, and the base unchanged.
refused() {
    local name=$1 msg=$2
    shift 2
    run "$name" "$@"
    expect "$name" 2 "" "$msg"
    sums | cmp -s - "$T/before" && ok "${name}_leaves_the_base_alone" ||
        fail "${name}_leaves_the_base_alone" "changed: $(sums | diff - "$T/before" | head -c 300)"
}

refused render_frames_onto_a_material_image \
    "error: -o 'base/textures/00001.png' is the input 'base/textures/00001.png'; refusing to replace an input" \
    render a.md5scene --size 32x32 -o base/textures/%05d.png
refused render_two_jobs_onto_a_material_image \
    "error: -o 'base/textures/00001.png' is the input 'base/textures/00001.png'" \
    render a.md5scene --size 32x32 --jobs 2 --frames 1-2 -o base/textures/%05d.png
refused sheet_onto_a_material_image \
    "error: -o 'base/textures/00001.png' is the input 'base/textures/00001.png'; refusing to replace an input" \
    sheet a.md5scene --size 32x32 -o base/textures/00001.png
refused sheet_onto_the_archive_through_a_link \
    "error: -o 'pk4_link.png' is the input 'base/pak000.pk4'" \
    sheet a.md5scene --size 32x32 -o pk4_link.png
refused render_video_onto_the_declaration_file_through_a_link \
    "error: -o 'mtr_link.mp4' is the input 'base/materials/m.mtr'" \
    render a.md5scene --size 32x32 -o mtr_link.mp4
[ -L pk4_link.png ] && [ -L mtr_link.mp4 ] && ok the_links_stay_links ||
    fail the_links_stay_links "$(ls -l pk4_link.png mtr_link.mp4 2>&1)"

# What the render did not read may be written, in the same folder.
run render_frame_zero_beside_the_image render a.md5scene --size 32x32 --frames 0-0 \
    -o base/textures/%05d.png --quiet
expect render_frame_zero_beside_the_image 0
[ -s base/textures/00000.png ] && ok frame_zero_written || fail frame_zero_written "$(ls base/textures)"
run render_onto_an_unread_texture render a.md5scene --size 32x32 --frames 2-2 \
    -o base/textures/%05d.png --quiet
expect render_onto_an_unread_texture 0
cmp -s base/textures/00002.png "$D/render/red.png" &&
    fail an_unread_texture_is_replaced "frame 2 is still red.png" || ok an_unread_texture_is_replaced
cmp -s base/textures/00001.png "$D/render/red.png" && ok the_used_image_is_unchanged ||
    fail the_used_image_is_unchanged

finish
