#!/bin/bash
# Small inputs that ask for much: archive entries checked against the budget that applies to
# them before they are inflated, a camera block held to the frames a camera file holds, and
# running out of file descriptors while opening archives (a runtime failure, exit 3).
# Peak memory is asserted with a generous bound (GNU time's %M, in KiB); time is not.
set -u
. ./harness.sh input_budgets

python3 make_quads.py "$T"
scene() { # scene NAME BASE [ACTOR LINES]: quads.md5mesh with base BASE
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\nactor q {\n    mesh "quads.md5mesh"\n%s\n}\n' "$2" "${3:-}" >"$T/$1.md5scene"
}
# peak_under NAME KIB ARGS...: peak (harness.sh), and its peak resident set must stay under KIB.
peak_under() {
    local name=$1 most=$2
    shift 2
    peak "$name" "$@"
    if [ "$kib" -lt "$most" ]; then
        ok "${name}_stays_under_${most}_kib"
    else
        fail "${name}_stays_under_${most}_kib" "peak $kib KiB"
    fi
}

# ---- 1. archive entries: declared size against the budget, inflation stops at it ----------
# One entry of 1 GiB of zeros (deflated to about 5 MB, within what deflate can give), as a
# material file (text budget: 64 MiB in all), as an image (the scene's 16 Mi pixels: at most
# 8 bytes a pixel + 1 MiB), and the same data declared as 1000 bytes (a lying size).
mkdir -p "$T/text" "$T/image" "$T/lying"
python3 - "$T" <<'PY'
import struct, sys, zipfile
t = sys.argv[1]
def big(path, name, head=b''):
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(name, 'w') as f:
            f.write(head)
            block = bytes(1 << 20)
            for _ in range(1024):
                f.write(block)
big(t + '/text/pak000.pk4', 'materials/big.mtr')
# A TGA header for 64x64 pixels, then 1 GiB more: the header alone would pass the budget.
tga = struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 64, 64, 24, 0)
big(t + '/image/pak000.pk4', 'textures/big.tga', tga)
with zipfile.ZipFile(t + '/image/pak001.pk4', 'w') as z:
    z.writestr('materials/m.mtr', 'left { diffusemap textures/big.tga }\n')
# The lying entry: the text archive with 1000 as its size in both headers.
d = bytearray(open(t + '/text/pak000.pk4', 'rb').read())
assert d[:4] == b'PK\x03\x04' and struct.unpack_from('<I', d, 22)[0] == 1 << 30
struct.pack_into('<I', d, 22, 1000)
c = d.rfind(b'PK\x01\x02')
struct.pack_into('<I', d, c + 24, 1000)
open(t + '/lying/pak000.pk4', 'wb').write(d)
PY
scene text text
peak_under text_entry 204800 info "$T/text.md5scene" --materials
expect text_entry_over_the_text_budget_is_refused_before_inflating 2 "" \
    "'$T/text/pak000.pk4:materials/big.mtr' declares 1073741824 bytes, over the limit of 67108864"
scene lying lying
peak_under lying_entry 204800 info "$T/lying.md5scene" --materials
expect lying_entry_stops_at_its_declared_size 2 "" \
    "'$T/lying/pak000.pk4:materials/big.mtr' holds more data than its declared 1000 bytes"
# 16 Mi pixels * 8 + 1 MiB = 135266304 bytes; the entry is 18 + 2^30.
scene image image
peak_under image_entry 204800 render "$T/image.md5scene" --size 32x32 --msaa 0 -o "$T/image_%d.png"
expect image_entry_over_the_image_budget_is_refused_before_inflating 2 "" \
    "'$T/image/pak000.pk4:textures/big.tga' declares 1073741842 bytes, over the limit of 135266304"
[ ! -e "$T/image_0.png" ] && ok image_entry_refusal_writes_no_frame || fail image_entry_refusal_writes_no_frame "a frame was written"

# ---- 2. a camera block makes at most what a camera file of 1 GiB holds (2^23 frames) ---------
# limits.h: 2^30 bytes / 128 bytes a written frame = 8388608. At 1000 fps a shot of S seconds
# makes round(S * 1000) + 1 frames: 3600 s 3600001, 1188.605 s 1188606. Four shots of 3600 s
# (a 303-byte block asking for 14400004 frames, 461 MB of them) are refused at the third, which
# takes the total to 10800003, before any frame exists; 3600 + 3600 + 1188.605 s make exactly
# 8388608 (2 * 3600001 + 1188606) and load; 1188.606 s makes one more and is refused.
block() { # block NAME SECONDS...: a camera block of look_at shots at 1000 fps
    local name=$1
    shift
    {
        printf 'md5scene 1\ncamera {\n    fps 1000\n'
        for s in "$@"; do
            printf '    look_at { position ( 100 0 0 ) target ( 0 0 0 ) seconds %s }\n' "$s"
        done
        printf '}\n'
    } >"$T/$name.md5scene"
}
block frames 3600 3600 3600 3600
peak_under block_frames 204800 info "$T/frames.md5scene"
expect camera_block_past_a_camera_files_frames_is_refused_at_its_shot 2 "" \
    "$T/frames.md5scene:6:5: error: camera block makes more than 8388608 frames (what a camera file of at most 1073741824 bytes holds): 10800003 with this shot's 3600001 at 1000 fps"
run block_frames_camera camera "$T/frames.md5scene" -o "$T/frames.md5camera"
expect camera_command_refuses_the_same_block 2 "" "$T/frames.md5scene:6:5: error: camera block makes more"
[ ! -e "$T/frames.md5camera" ] && ok refused_block_writes_no_camera_file ||
    fail refused_block_writes_no_camera_file "$T/frames.md5camera exists"
block at_bound 3600 3600 1188.605
run at_bound info "$T/at_bound.md5scene"
expect a_block_of_exactly_8388608_frames_loads 0 "camera block (8388608 frames at 1000 fps, 2 cuts)"
block over_bound 3600 3600 1188.606
run over_bound info "$T/over_bound.md5scene"
expect one_frame_more_is_refused_at_the_third_shot 2 "" \
    "$T/over_bound.md5scene:6:5: error: camera block makes more than 8388608 frames (what a camera file of at most 1073741824 bytes holds): 8388609 with this shot's 1188607 at 1000 fps"

# ---- 3. too many open files while opening archives: exit 3, not 2 -------------------------
# 40 archives stay open while the base is indexed; with 12 or 16 descriptors one of them
# cannot be opened.
mkdir -p "$T/many"
python3 - "$T/many" <<'PY'
import sys, zipfile
for i in range(40):
    with zipfile.ZipFile('%s/pak%03d.pk4' % (sys.argv[1], i), 'w') as z:
        z.writestr('materials/m%d.mtr' % i, 'm%d { }\n' % i)
PY
scene many many
run many_ok info "$T/many.md5scene" --materials
expect forty_archives_load_with_enough_descriptors 0
for n in 12 16; do
    last=emfile$n
    bash -c 'ulimit -n '"$n"'; exec "$0" "$@"' "$MD5CINE" info "$T/many.md5scene" --materials \
        >"$T/emfile$n.out" 2>"$T/emfile$n.err"
    rc=$?
    expect "too_many_open_files_at_an_archive_with_${n}_descriptors_exits_3" 3 "" \
        "Too many open files"
    grep -q "cannot open archive '$T/many/pak0" "$T/emfile$n.err" &&
        ok "the_message_names_the_archive_with_${n}_descriptors" ||
        fail "the_message_names_the_archive_with_${n}_descriptors" "$(cat "$T/emfile$n.err")"
done

# ---- 4. actors of one mesh share it: read once per scene ----------------------------------
# A 301x301-vertex grid (make_grid.py: some 11 MB of text, about 5 MB parsed); ten actors of it
# must cost about what one does (each read on its own: some 48 MB more).
mkdir -p "$T/grid"
cp "$T/cam.md5camera" "$T/grid/"
python3 make_grid.py "$T/grid" 300 s1=1 s10=10
peak grid1 info "$T/grid/s1.md5scene"
expect a_scene_of_1_grid_actors_loads 0
one=$kib
peak grid10 info "$T/grid/s10.md5scene"
expect a_scene_of_10_grid_actors_loads 0
ten=$kib
if [ "$ten" -lt $((one + 16384)) ]; then
    ok ten_actors_of_one_mesh_cost_about_what_one_does
else
    fail ten_actors_of_one_mesh_cost_about_what_one_does "one: $one KiB, ten: $ten KiB"
fi

finish
