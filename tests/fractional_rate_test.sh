#!/bin/bash
# Fractional output rates (man/md5cine.1, render --fps): 29.97 is 30000/1001. Expected values by hand:
# cuts.md5camera has 8 stored frames at 24 fps and cuts at 2 and 5 (data/render). At 30000/1001
# output frame k shows p = k * 24 * 1001 / 30000 = 0.8008 k; each cut at or below the frame
# skips one stored frame (DESIGN.md 2.1), and p past 6 (= N - 2) ends the camera:
#   k   p        f  after cuts  stored lerp
#   1   0.8008   0  0           0      0.8008
#   3   2.4024   2  3           3      0.4024
#   5   4.0040   4  6           6      0.004
#   7   5.6056   5  7 (> 6)     7      0 (ended: 8 frames)
# A video at that rate has r_frame_rate 30000/1001 and lasts frames * 1001 / 30000 seconds.
set -u
. ./harness.sh fractional_rate
D=data/render

for rate in 29.97 30000/1001 60000/2002; do
    "$M" info "$D/cuts.md5camera" --fps "$rate" --json --timeline >"$T/info.json" ||
        fail "info --fps $rate: exit $?"
    if python3 - "$T/info.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fpsRational"] == "30000/1001" and abs(d["fps"] - 29.97) < 1e-9, d
assert d["outputFrames"] == 8, d["outputFrames"]
t = {s["frame"]: s for s in d["timeline"]}
for k, stored, lerp in ((1, 0, 0.8008), (3, 3, 0.4024), (5, 6, 0.004), (7, 7, 0.0)):
    assert t[k]["stored"] == stored, (k, t[k])
    assert abs(t[k]["lerp"] - lerp) < 1e-6, (k, t[k])
    assert abs(t[k]["time"] - k * 1001 / 30000) < 1e-6, (k, t[k])
PY
        ok "info --fps $rate: timeline as worked by hand"
    else
        fail "info --fps $rate: $(head -c 300 "$T/info.json")"
    fi
done

"$M" render "$D/boxes.md5scene" --fps 29.97 -o "$T/boxes.mp4" --quiet || fail "render mp4: exit $?"
probe=$(ffprobe -v error -count_frames -select_streams v -show_entries \
    stream=r_frame_rate,nb_read_frames:format=duration -of default=nw=1 "$T/boxes.mp4")
grep -qx "r_frame_rate=30000/1001" <<<"$probe" && grep -qx "nb_read_frames=8" <<<"$probe" &&
    python3 -c "import sys; d=float(sys.argv[1]); sys.exit(abs(d - 8 * 1001 / 30000) > 1e-3)" \
        "$(sed -n 's/^duration=//p' <<<"$probe")" &&
    ok "an MP4 at 29.97: 30000/1001, 8 frames, 8 * 1001 / 30000 s" || fail "mp4: $probe"

"$M" render "$D/boxes.md5scene" --fps 24000/1001 -o "$T/boxes.y4m" --quiet || fail "render y4m: exit $?"
head -c 80 "$T/boxes.y4m" | head -n 1 | grep -q " F24000:1001 " &&
    ok "a y4m at 24000/1001 says so in its header" || fail "y4m header: $(head -c 60 "$T/boxes.y4m")"

for bad in 0 0.5 1001 1000.001 1/0 abc 30000/ 12.1234567; do
    "$M" render "$D/boxes.md5scene" --fps "$bad" -o "$T/bad.mp4" 2>"$T/bad.err"
    rc=$?
    [ $rc = 2 ] && grep -q "bad --fps" "$T/bad.err" || fail "--fps $bad: exit $rc"
    "$M" info "$D/cuts.md5camera" --fps "$bad" >/dev/null 2>&1
    rc=$?
    [ $rc = 2 ] || fail "info --fps $bad: exit $rc"
done
[ ! -e "$T/bad.mp4" ] && ok "bad rates are exit 2 and write nothing" || fail "bad.mp4 written"
finish
