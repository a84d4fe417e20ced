#!/bin/bash
# The default video limits tell codec noise from change: the demo at 640x360, 6 fps (61
# frames), rendered unchanged against its own crf 18 MP4 passes every frame; a one-unit move of
# one actor, another anim for it, and a 20-level recolour of another actor's skin each fail
# (exit 1). bench/video_thresholds.sh measures the margins at 24 fps, 640x360 and 1280x720.
set -u
. ./harness.sh vthresh

cp -r ../scenes/demo "$T/demo"
d=$T/demo
sed 's/origin ( 30 -45 0 )/origin ( 31 -45 0 )/' "$d/demo.md5scene" > "$d/shift.md5scene"
sed 's|anim "walk"|anim "idle"|' "$d/demo.md5scene" > "$d/anim.md5scene" # the walker's model declaration's anims
convert "$d/drone/skin.jpg" -channel R -evaluate add 7.843% +channel "$d/drone/red.png"
python3 - "$d/demo.md5scene" "$d/recolour.md5scene" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = s.index('actor "guard"')
old = 'material "" "drone/skin.jpg"'
b = s.index(old, a)
open(sys.argv[2], 'w').write(s[:b] + 'material "" "drone/red.png"' + s[b + len(old):])
PY
for v in shift anim recolour; do
    if cmp -s "$d/demo.md5scene" "$d/$v.md5scene"; then fail "${v}_scene_made" "no change"; fi
done

# Shadows off: the walker's shadow reaches into shot 3's picture, and this test is about the
# limits, not the look (shot 3 below must not show the walker at all).
opts=(--size 640x360 --fps 6 -q --shadows off)
"$MD5CINE" render "$d/demo.md5scene" "${opts[@]}" -o "$T/ref.mp4" || fail reference "render failed"

# check_variant VARIANT WANT: render VARIANT against the MP4 with the default limits
check_variant() {
    local v=$1 want=$2 rc
    "$MD5CINE" render "$d/$v.md5scene" "${opts[@]}" --reference "$T/ref.mp4" --json \
        > "$T/$v.json" 2> "$T/$v.err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok "${v}_exits_$want"; else
        fail "${v}_exits_$want" "exit $rc; $(head -c 300 "$T/$v.err")"; fi
}
check_variant demo 0
check_variant shift 1
check_variant anim 1
check_variant recolour 1

# Shot 3 (frames 42-60 at 6 fps) does not show the walker: a change to it fails no frame there.
# Every failing row names a block limit, the limits the video defaults add.
python3 - "$T" <<'PY' || failed=$((failed + 1))
import json, sys
t = sys.argv[1]
bad = 0
for v in ("shift", "anim"):
    rows = json.load(open(f"{t}/{v}.json"))["frames"]
    late = [r["frame"] for r in rows if r["frame"] >= 42 and not r["pass"]]
    if late:
        print(f"FAIL {v}_passes_shot_3: frames {late} fail"); bad += 1
    else:
        print(f"ok   {v}_passes_shot_3")
for v in ("shift", "anim", "recolour"):
    j = json.load(open(f"{t}/{v}.json"))
    fails = [r for r in j["frames"] if not r["pass"]]
    if not fails or not all("block" in r["reasons"] for r in fails):
        print(f"FAIL {v}_fails_on_a_block_limit"); bad += 1
    else:
        print(f"ok   {v}_fails_on_a_block_limit ({len(fails)} of {len(j['frames'])} frames)")
    if j["limits"]["min_block_psnr"] != 22 or j["limits"]["max_block_bias"] != 9:
        print(f"FAIL {v}_limits: {j['limits']}"); bad += 1
# the recolour is visible in every frame (the guard is in every shot): every frame fails
rec = json.load(open(f"{t}/recolour.json"))["frames"]
if all(not r["pass"] for r in rec):
    print("ok   recolour_fails_every_frame")
else:
    print("FAIL recolour_fails_every_frame"); bad += 1
sys.exit(1 if bad else 0)
PY

finish
