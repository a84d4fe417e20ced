#!/bin/bash
# PNG frames on a full disk say why (docs/hardening.md): a render into a tmpfs of 256 KiB filled
# to the last byte fails (exit 3) with "cannot write 'DIR/00000.png': No space left on device",
# the reason the video path gives for the same disk, and leaves no frame and no temporary there.
# The tmpfs is mounted in a private mount namespace (unshare -m), which needs CAP_SYS_ADMIN
# (root has it; an unprivileged container or user has not): a probe does the same first, and
# where it fails the test is skipped (exit 77, SKIP_RETURN_CODE in tests/CMakeLists.txt) with
# the reason. tests/png_write_limit_test.sh makes the same write fail without the capability.
set -u
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
if ! why=$(unshare -m bash -c 'd=$(mktemp -d) && mount -t tmpfs -o size=256k tmpfs "$d" && umount "$d" && rmdir "$d"' 2>&1); then
    echo "SKIP: no tmpfs in a private mount namespace here (it needs CAP_SYS_ADMIN):" \
        "$(echo "$why" | tr '\n' ' ' | sed 's/ *$//')"
    exit 77
fi
. ./harness.sh png_full_disk
python3 make_quads.py "$T"
printf 'md5scene 1\ncamera "cam.md5camera"\nactor q { mesh "quads.md5mesh" }\n' >"$T/a.md5scene"
mkdir "$T/full"
# In the namespace: mount, fill to the last byte, render a 640x480 frame (about 22 KiB of
# PNG, more than stdio buffers: the write of its data fails) and a video, list what is left.
unshare -m bash -c '
    mount -t tmpfs -o size=256k tmpfs "$1" || exit 9
    head -c 1M /dev/zero >"$1/fill" 2>/dev/null
    "$2" render "$3" --size 640x480 --frames 0-0 -o "$1/%05d.png" >"$4/png.out" 2>"$4/png.err"
    echo $? >"$4/png.rc"
    "$2" render "$3" --size 64x64 --frames 0-0 -o "$1/v.mp4" >"$4/mp4.out" 2>"$4/mp4.err"
    echo $? >"$4/mp4.rc"
    ls -A "$1" >"$4/left"
    umount "$1"' bash "$T/full" "$MD5CINE" "$T/a.md5scene" "$T"
rc=$(cat "$T/png.rc" 2>/dev/null || echo none)
last=png
expect png_frame_on_a_full_disk_fails_with_the_reason 3 "" \
    "cannot write '$T/full/00000.png': No space left on device"
rc=$(cat "$T/mp4.rc" 2>/dev/null || echo none)
last=mp4
expect the_video_on_the_same_disk_says_the_same 3 "" "No space left on device"
[ "$(cat "$T/left")" = fill ] && ok nothing_but_the_filler_is_left ||
    fail nothing_but_the_filler_is_left "left: $(tr '\n' ' ' <"$T/left")"

finish
