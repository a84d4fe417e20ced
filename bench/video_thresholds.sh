#!/usr/bin/env bash
# The figures behind the video limits of "Comparing frames": the demo rendered unchanged and
# with three small changes, each compared with the unchanged render's own MP4 (crf 18).
# usage: bench/video_thresholds.sh MD5CINE [WxH ...]   (default sizes: 1280x720 640x360)
# Needs convert (ImageMagick) and python3. Prints, per size and variant, the frames whose
# pixels changed (lossless comparison with the unchanged PNGs) and, over those frames (every
# frame for "unchanged"), the range of each metric against the MP4, and how many of them fail
# under the default video limits.
set -euo pipefail
bin=$(realpath "$1"); shift
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1280x720 640x360)
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

cp -r "$root/scenes/demo" "$work/demo"
d=$work/demo
# (a) the walker one unit (inch) to the side; (b) the walker idling instead of walking;
# (c) the guard's skin 20 levels redder.
sed 's/origin ( 30 -45 0 )/origin ( 31 -45 0 )/' "$d/demo.md5scene" > "$d/shift.md5scene"
sed 's|anim "drone/forward.md5anim"|anim "drone/idle.md5anim"|' "$d/demo.md5scene" > "$d/anim.md5scene"
convert "$d/drone/skin.jpg" -channel R -evaluate add 7.843% +channel -quality 95 "$d/drone/red.png"
python3 - "$d/demo.md5scene" "$d/recolour.md5scene" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = s.index('actor "guard"')
b = s.index('material "" "drone/skin.jpg"', a)
s = s[:b] + 'material "" "drone/red.png"' + s[b + len('material "" "drone/skin.jpg"'):]
open(sys.argv[2], 'w').write(s)
PY
for f in shift anim recolour; do cmp -s "$d/demo.md5scene" "$d/$f.md5scene" && { echo "$f: no change made" >&2; exit 1; }; done

for size in "${sizes[@]}"; do
    "$bin" render "$d/demo.md5scene" --size "$size" -q -o "$work/ref.mp4"
    for v in demo shift anim recolour; do
        "$bin" render "$d/$v.md5scene" --size "$size" -q -o "$work/out_$v/%05d.png"
        # every limit off: the metrics only
        "$bin" compare "$work/ref.mp4" "$work/out_$v" --json --threshold 16 --max-failing-share off \
            --min-ssim off --min-psnr off --min-block-psnr off --max-block-bias off > "$work/$v.video.json" || true
        if [ "$v" != demo ]; then
            "$bin" compare "$work/out_demo" "$work/out_$v" --json --threshold 0 > "$work/$v.png.json" || true
        fi
        # the defaults: exit 0 pass, 1 fail
        "$bin" compare "$work/ref.mp4" "$work/out_$v" --json > "$work/$v.default.json" || true
    done
    python3 - "$work" "$size" <<'PY'
import json, sys
work, size = sys.argv[1], sys.argv[2]
print(f"\n{size}: each variant against the unchanged render's MP4 (crf 18)")
print(f"{'variant':9} {'changed':>7} {'PSNR dB':>13} {'SSIM':>15} {'block PSNR dB':>13} "
      f"{'block bias':>11} {'% px > 16':>12} {'fail (defaults)':>16}")
grid = []
for v in ["demo", "shift", "anim", "recolour"]:
    rows = json.load(open(f"{work}/{v}.video.json"))["frames"]
    dflt = {r["frame"]: r["pass"] for r in json.load(open(f"{work}/{v}.default.json"))["frames"]}
    if v == "demo":
        changed = [r["frame"] for r in rows]
    else:
        lossless = json.load(open(f"{work}/{v}.png.json"))["frames"]
        changed = [r["frame"] for r in lossless if r["max_diff"] > 0]
    sel = [r for r in rows if r["frame"] in set(changed)]
    def rng(key, scale=1.0, fmt="{:.2f}"):
        vals = [scale * (r[key] if r[key] is not None else float("inf")) for r in sel]
        return (fmt.format(min(vals)) + "-" + fmt.format(max(vals))) if vals else "-"
    fails = sum(1 for f in changed if not dflt.get(f, True))
    name = "unchanged" if v == "demo" else v
    print(f"{name:9} {len(changed):>7} {rng('psnr'):>13} {rng('ssim', fmt='{:.4f}'):>15} "
          f"{rng('block_psnr'):>13} {rng('block_bias'):>11} {rng('over_share', 100.0, '{:.3f}'):>12} "
          f"{fails:>9} of {len(changed):<4}")
    grid.append((name, sel))
print("frames failing one limit alone (of the frames above):")
print(f"{'variant':9} " + " ".join(f"{'blk<' + str(t):>7}" for t in (20, 22, 24)) + " " +
      " ".join(f"{'bias>' + str(t):>7}" for t in (6, 7, 8, 9)) + " " +
      " ".join(f"{'psnr<' + str(t):>8}" for t in (35, 38)))
for name, sel in grid:
    bp = [r["block_psnr"] if r["block_psnr"] is not None else 1e9 for r in sel]
    bb = [r["block_bias"] or 0.0 for r in sel]
    ps = [r["psnr"] if r["psnr"] is not None else 1e9 for r in sel]
    print(f"{name:9} " + " ".join(f"{sum(v < t for v in bp):>7}" for t in (20, 22, 24)) + " " +
          " ".join(f"{sum(v > t for v in bb):>7}" for t in (6, 7, 8, 9)) + " " +
          " ".join(f"{sum(v < t for v in ps):>8}" for t in (35, 38)))
PY
    rm -rf "$work"/out_* "$work"/*.json
done
