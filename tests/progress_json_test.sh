#!/bin/bash
# --progress json names output frames by their number: rendering frames 2-4 of the boxes scene
# (6 frames) gives lines whose "frame" runs up to 4 (the last output frame) while "done" counts
# 1..3 of "total" 3; the first line after the backend line is frame 2, done 1.
. ./harness.sh progress_json
S=data/render/boxes.md5scene

capture render "$S" -o "$T/f/%05d.png" --frames 2-4 --progress json
check_eq exits_0 0 "$rc"
lines=$(grep '^{"frame"' <<<"$out")
check_eq first_line_is_output_frame_2 '{"frame":2,"done":1,"total":3,' "$(head -1 <<<"$lines" | cut -d, -f1-3),"
check_eq last_line_is_output_frame_4 '{"frame":4,"done":3,"total":3,' "$(tail -1 <<<"$lines" | cut -d, -f1-3),"
# every line: frame = 2 + done - 1, done rising
check_eq frame_is_first_plus_done_minus_1 ok "$(python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{\"frame\"")]
ok = rows and all(r["frame"] == 2 + r["done"] - 1 for r in rows) and \
    [r["done"] for r in rows] == sorted(r["done"] for r in rows)
print("ok" if ok else rows)' <<<"$out")"
# the PNGs carry the same numbers
check_eq pngs_are_00002_to_00004 "00002.png 00003.png 00004.png" "$(ls "$T/f" | tr '\n' ' ' | sed 's/ $//')"

finish
