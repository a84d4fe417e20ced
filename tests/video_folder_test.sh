#!/bin/bash
# -o dir/x.mp4 makes the missing folders, as a PNG pattern's are; a folder that cannot be made
# (a file stands in its way) is a runtime error (3) naming it, and nothing is written.
set -u
. ./harness.sh video_folder
"$M" render data/render/boxes.md5scene -o "$T/a/b/c/boxes.mp4" --quiet
rc=$?
n=$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames \
    -of csv=p=0 "$T/a/b/c/boxes.mp4" 2>/dev/null)
if [ $rc = 0 ] && [ "$n" = 6 ]; then ok "nested folders made, 6 frames"; else
    fail "exit $rc, frames '$n'"; fi
touch "$T/file"
"$M" render data/render/boxes.md5scene -o "$T/file/sub/boxes.mp4" --quiet 2>"$T/err"
rc=$?
if [ $rc = 3 ] && grep -q "cannot create folder '$T/file/sub'" "$T/err"; then
    ok "a file in the way: exit 3 naming the folder"
else
    fail "blocked folder" "exit $rc, $(cat "$T/err")"
fi
finish
