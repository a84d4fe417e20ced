#!/bin/bash
# A PNG frame whose write fails says why, wherever the write fails: under a file size limit of
# 1 KiB (ulimit -f, SIGXFSZ ignored: the write fails with EFBIG as a full disk fails with ENOSPC,
# tests/png_full_disk_test.sh), a 640x480 frame of the quads (about 22 KiB of PNG: more than
# stdio buffers, so the write of its data fails, not the flush at the end) fails (exit 3)
# with "cannot write 'DIR/00000.png': File too large", and neither the frame nor its temporary is
# left. A sheet (the same PNG writer) says the same.
set -u
. ./harness.sh png_write_limit
python3 make_quads.py "$T"
printf 'md5scene 1\ncamera "cam.md5camera"\nactor q { mesh "quads.md5mesh" }\n' >"$T/a.md5scene"
mkdir "$T/out"
limited() { # limited NAME ARGS...: run under a 1 KiB file size limit, SIGXFSZ ignored
    last=$1
    shift
    (trap '' XFSZ; ulimit -f 1; exec "$MD5CINE" "$@") >"$T/$last.out" 2>"$T/$last.err"
    rc=$?
}
limited frame render "$T/a.md5scene" --size 640x480 --frames 0-0 -o "$T/out/%05d.png"
expect a_frame_past_the_limit_says_why 3 "" "cannot write '$T/out/00000.png': File too large"
limited sheet sheet "$T/a.md5scene" --size 640x480 -o "$T/out/sheet.png"
expect a_sheet_past_the_limit_says_why 3 "" "cannot write '$T/out/sheet.png': File too large"
[ -z "$(ls -A "$T/out")" ] && ok nothing_is_left || fail nothing_is_left "$(ls -A "$T/out")"
# The same frame without the limit is over 8 KiB: over the limit and over the buffer.
run unlimited render "$T/a.md5scene" --size 640x480 --frames 0-0 -o "$T/out/%05d.png" --quiet
expect the_frame_renders_without_the_limit 0
size=$(stat -c %s "$T/out/00000.png" 2>/dev/null || echo 0)
[ "$size" -gt 8192 ] && ok the_frame_is_over_limit_and_buffer || fail the_frame_is_over_limit_and_buffer "$size bytes"

finish
