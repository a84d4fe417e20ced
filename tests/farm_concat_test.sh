#!/bin/bash
# Farm rendering end to end: the demo rendered small as the 4 chunks `md5cine plan --chunks 4`
# gives (0-59, 60-119, 120-179, 180-240, worked out in tests/plan_test.c), joined by
# `md5cine concat` in shuffled order, and the joined file read back with ffprobe and ffmpeg:
# 241 frames, pts k in 1/24 (so the video lasts 241/24 s exactly), keyframes at every chunk
# start and at the shot starts 84 and 168 (the demo's cuts, tests/plan_test.c), chapters
# "Shot 1-3" at 0, 3.5 and 7 s, and decoded frames identical bit for bit to the parts' own
# (ffmpeg's framemd5). The scene identity tag is recomputed in python3 from the files
# `info --json` lists. Then the refusals: a gap, an overlap, another crf, another scene, a
# video that is no chunk, a bad tag; each exit 2 with the frames or files named and no output.
set -u
. ./harness.sh farm_concat
S=../scenes/demo/demo.md5scene
SMALL=(--size 160x90 --msaa 0 --quiet)

refused() { # name expected-message-part output...: concat must exit 2, say it, write nothing
    local name=$1 want=$2 out=$T/refused.mp4
    shift 2
    "$M" concat "$@" -o "$out" 2>"$T/err"
    local rc=$?
    local left
    left=$(ls -A "$T" | grep -c 'refused')
    if [[ $rc == 2 ]] && grep -qF -- "$want" "$T/err" && [[ $left == 0 ]]; then
        ok "$name"
    else
        fail "$name" "exit $rc, left $left file(s), said: $(cat "$T/err")"
    fi
}

"$M" plan $S --chunks 4 >"$T/plan"
while read -r index frames _; do
    "$M" render $S "${SMALL[@]}" --frames "$frames" -o "$T/part$index.mp4" </dev/null ||
        fail "render of chunk $index ($frames)"
done <"$T/plan"
check_eq plan_has_4_chunks 4 "$(wc -l <"$T/plan")"

# A chunk keeps its global time: part 1 starts at frame 60, 2.5 s.
check_eq chunk_start_time "2.500000 60-119/241" "$(ffprobe -v error -select_streams v \
    -show_entries stream=start_time:format_tags=md5cine_chunk -of default=nw=1:nk=1 "$T/part1.mp4" | tr '\n' ' ' | sed 's/ $//')"

"$M" concat "$T/part2.mp4" "$T/part0.mp4" "$T/part3.mp4" "$T/part1.mp4" -o "$T/full.mp4" 2>"$T/err"
check_eq concat_exit 0 $?
check_eq concat_says "md5cine: wrote '$T/full.mp4': 241 frames from 4 parts, 3 chapters" "$(cat "$T/err")"

ffprobe -v error -select_streams v -count_frames -show_entries \
    stream=nb_read_frames,time_base,duration_ts,start_pts -of json "$T/full.mp4" >"$T/stream.json"
ffprobe -v error -select_streams v -show_entries frame=pts,key_frame -of json \
    "$T/full.mp4" >"$T/frames.json"
ffprobe -v error -show_chapters -show_entries format_tags -of json "$T/full.mp4" >"$T/fmt.json"
got=$(python3 - "$T/stream.json" "$T/frames.json" <<'PY'
import json, sys
from fractions import Fraction
s = json.load(open(sys.argv[1]))["streams"][0]
tb = Fraction(s["time_base"])
frames = json.load(open(sys.argv[2]))["frames"]
pts = [f["pts"] for f in frames]
steps = {b - a for a, b in zip(pts, pts[1:])}
step = steps.pop() if len(steps) == 1 else None
keys = sorted(p * tb * 24 for p, f in zip(pts, frames) if f["key_frame"] == 1)
need = {0, 60, 120, 180, 84, 168}
print(s["nb_read_frames"], Fraction(int(s["duration_ts"])) * tb == Fraction(241, 24),
      pts[0], step is not None and step * tb == Fraction(1, 24), need <= set(keys))
PY
)
check_eq frames_duration_pts_keyframes "241 True 0 True True" "$got"

got=$(python3 - "$T/fmt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print([(c["tags"]["title"], c["start_time"]) for c in d["chapters"]], d["format"]["tags"]["md5cine_chunk"])
PY
)
check_eq chapters_and_tag "[('Shot 1', '0.000000'), ('Shot 2', '3.500000'), ('Shot 3', '7.000000')] 0-240/241" "$got"

# Decoded frames: the joined file's are the parts' own, in order.
for i in 0 1 2 3; do
    ffmpeg -v error -i "$T/part$i.mp4" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6
done >"$T/parts.md5"
ffmpeg -v error -i "$T/full.mp4" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6 >"$T/full.md5"
check_eq framemd5_count 241 "$(wc -l <"$T/full.md5")"
if cmp -s "$T/parts.md5" "$T/full.md5"; then ok "framemd5 of the join = the parts'"; else
    fail "framemd5 of the join differs from the parts'"; fi

# The scene identity: SHA-256 over the SHA-256 digests of the files, in info --json's order.
"$M" info $S --json >"$T/info.json"
want=$(python3 - "$T/info.json" $S <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
files = [sys.argv[2], d["camera"]]
for a in d["actors"]:
    files.append(a["mesh"])
    if a["anim"]:
        files.append(a["anim"])
    files += [t["image"] for t in a["textures"] if t["image"]]
print(hashlib.sha256(b"".join(hashlib.sha256(open(f, "rb").read()).digest() for f in files)).hexdigest())
PY
)
check_eq scene_identity "$want" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["format"]["tags"]["md5cine_scene"])' "$T/fmt.json")"

# A chunk lines up with the whole by its first frame: compare and render --reference.
# The parts joined with the scene's sound (concat --scene), against a chunk with its own: the
# chunk's AAC is encoded apart from the whole's, so its onsets are listed, not judged
# (docs/review-and-ci.md, "Comparing sound"); the RMS of the difference is.
"$M" concat --scene $S "$T/part2.mp4" "$T/part0.mp4" "$T/part3.mp4" "$T/part1.mp4" \
    -o "$T/full_sound.mp4" 2>/dev/null
"$M" compare "$T/full_sound.mp4" "$T/part2.mp4" --audio-max-onset-ms off >"$T/out"
check_eq compare_chunk "0 reference '$T/full_sound.mp4': 60 frames checked, 60 matched, 0 differ, 0 missing (video: lossy limits)" "$? $(head -1 "$T/out")"
check_eq compare_chunk_sound_close yes \
    "$(grep -q "^sound: RMS difference -[3-9][0-9]\." "$T/out" && echo yes || grep '^sound' "$T/out")"
"$M" compare "$T/full.mp4" "$T/part2.mp4" --offset -60 >"$T/out"
check_eq compare_offset_misaligned 1 $?
# At 160x90 the codec's loss on the lit demo's frames 219-220 is 34.9 dB, at the 35 dB video
# default; 33 dB keeps the check about alignment (one frame off, 10 of 61 frames fail even so).
"$M" render $S "${SMALL[@]}" --frames 180-240 --reference "$T/full.mp4" --min-psnr 33 >"$T/out"
check_eq render_reference_chunk "0 reference '$T/full.mp4': 61 frames checked, 61 matched, 0 differ, 0 missing (video: lossy limits)" "$? $(tail -1 "$T/out")"

# Refusals.
refused gap "frames 120-179 are missing" "$T/part0.mp4" "$T/part1.mp4" "$T/part3.mp4"
refused end_missing "frames 180-240 are missing" "$T/part1.mp4" "$T/part0.mp4" "$T/part2.mp4"
refused start_missing "frames 0-59 are missing" "$T/part1.mp4" "$T/part2.mp4" "$T/part3.mp4"
"$M" render $S "${SMALL[@]}" --frames 100-130 -o "$T/extra.mp4"
refused overlap "frames 100-119 are in both '$T/part1.mp4' and '$T/extra.mp4'" \
    "$T/part0.mp4" "$T/part1.mp4" "$T/extra.mp4" "$T/part2.mp4" "$T/part3.mp4"
refused same_twice "frames 60-119 are in both" "$T/part0.mp4" "$T/part1.mp4" "$T/part1.mp4" \
    "$T/part2.mp4" "$T/part3.mp4"
"$M" render $S "${SMALL[@]}" --frames 60-119 --crf 30 -o "$T/crf30.mp4"
refused other_crf "'$T/crf30.mp4' was rendered with other settings than '$T/part0.mp4': crf=30 where the first part has crf=18" \
    "$T/part0.mp4" "$T/crf30.mp4" "$T/part2.mp4" "$T/part3.mp4"

# The scene copied elsewhere is the same scene; a changed byte in it is another.
cp -r ../scenes/demo "$T/copy"
"$M" render "$T/copy/demo.md5scene" "${SMALL[@]}" --frames 60-119 -o "$T/copy1.mp4"
"$M" concat "$T/part0.mp4" "$T/copy1.mp4" "$T/part2.mp4" "$T/part3.mp4" -o "$T/mixed.mp4" -q
check_eq copied_scene_joins 0 $?
printf '// changed\n' >>"$T/copy/demo.md5scene"
"$M" render "$T/copy/demo.md5scene" "${SMALL[@]}" --frames 60-119 -o "$T/other.mp4"
refused other_scene "'$T/other.mp4' is a chunk of another scene than '$T/part0.mp4'" \
    "$T/part0.mp4" "$T/other.mp4" "$T/part2.mp4" "$T/part3.mp4"

ffmpeg -v error -f lavfi -i testsrc=size=160x90:rate=24 -frames:v 10 -c:v libx264 "$T/plain.mp4"
refused not_a_chunk "'$T/plain.mp4' is not an md5cine chunk (no md5cine_chunk tag)" \
    "$T/part0.mp4" "$T/plain.mp4"
ffmpeg -v error -i "$T/part1.mp4" -map 0:v -c copy -map_metadata 0 -metadata md5cine_chunk=60-119/41 \
    -movflags use_metadata_tags "$T/badtag.mp4"
refused bad_tag "'$T/badtag.mp4' has a bad md5cine_chunk tag '60-119/41': expected FIRST-LAST/FRAMES with FIRST <= LAST < FRAMES" \
    "$T/part0.mp4" "$T/badtag.mp4"
# A tag that claims far more frames than the part holds (here 10^14 - 1) is refused for the
# frames it lacks, as bad input, not taken as a size to allocate.
ffmpeg -v error -i "$T/part0.mp4" -map 0:v -c copy -map_metadata 0 \
    -metadata md5cine_chunk=0-99999999999998/99999999999999 -movflags use_metadata_tags "$T/huge.mp4"
refused huge_tag "'$T/huge.mp4' holds 60 frames, its tag says 99999999999999 (0-99999999999998)" \
    "$T/huge.mp4"
"$M" compare "$T/full.mp4" "$T/badtag.mp4" >/dev/null 2>"$T/err"
check_eq compare_bad_tag "2 yes" "$? $(grep -qF "bad md5cine_chunk tag" "$T/err" && echo yes)"
refused not_a_video "cannot open video" "$T/part0.mp4" "$T/plan"
"$M" concat "$T/part0.mp4" -o "$T/refused.txt" 2>"$T/err"
check_eq bad_output_name "2 md5cine: error: '$T/refused.txt': the joined video must be .mp4, .mkv or .mov" "$? $(head -1 "$T/err")"

# Short chunks (1 and 2 frames, where x264 reorders less or not at all) between long ones,
# and a chunk starting at 119 (4.958333 s, not a whole millisecond: the MP4's edit list must
# hold it exactly).
for r in 60-118 119-119 120-121 122-179; do
    "$M" render $S "${SMALL[@]}" --frames $r -o "$T/short$r.mp4"
done
check_eq short_chunk_start "$(python3 -c 'print(119 * 512)')" "$(ffprobe -v error -select_streams v \
    -show_entries packet=pts -of csv=p=0 "$T/short119-119.mp4")"
"$M" concat "$T/part0.mp4" "$T/short60-118.mp4" "$T/short119-119.mp4" "$T/short120-121.mp4" \
    "$T/short122-179.mp4" "$T/part3.mp4" -o "$T/short.mp4" -q
check_eq short_concat_exit 0 $?
for f in part0 short60-118 short119-119 short120-121 short122-179 part3; do
    ffmpeg -v error -i "$T/$f.mp4" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6
done >"$T/short_parts.md5"
ffmpeg -v error -i "$T/short.mp4" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6 >"$T/short.md5"
ffprobe -v error -select_streams v -show_entries frame=pts -of json "$T/short.mp4" >"$T/short.frames"
got=$(python3 -c '
import json, sys
pts = [f["pts"] for f in json.load(open(sys.argv[1]))["frames"]]
print(len(pts), pts == [k * 512 for k in range(241)])' "$T/short.frames")
check_eq short_frames_pts "241 True" "$got"
if cmp -s "$T/short_parts.md5" "$T/short.md5"; then ok "framemd5 with short chunks"; else
    fail "framemd5 with short chunks"; fi

# MKV parts (timestamps in milliseconds, tags in upper case) joined into an MP4.
"$M" render $S "${SMALL[@]}" --frames 0-119 -o "$T/k0.mkv"
"$M" render $S "${SMALL[@]}" --frames 120-240 -o "$T/k1.mkv"
"$M" concat "$T/k1.mkv" "$T/k0.mkv" -o "$T/fromkmv.mp4" -q
check_eq mkv_parts "0 241 123392" "$? $(ffprobe -v error -select_streams v -count_frames -show_entries \
    stream=nb_read_frames,duration_ts -of csv=p=0 "$T/fromkmv.mp4" | tr , ' ' | awk '{print $2, $1}')"

# MKV output from MP4 parts, and a fractional rate (29.97: 301 frames, 2 chunks).
"$M" concat "$T/part3.mp4" "$T/part1.mp4" "$T/part0.mp4" "$T/part2.mp4" -o "$T/full.mkv" -q
check_eq mkv_frames "0 241" "$? $(ffprobe -v error -select_streams v -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$T/full.mkv")"
"$M" plan $S --chunks 2 --fps 29.97 >"$T/plan30"
check_eq plan_2997 $'0 0-149 shots 1,2\n1 150-300 shots 2,3' "$(cat "$T/plan30")"
while read -r index frames _; do
    "$M" render $S "${SMALL[@]}" --fps 29.97 --frames "$frames" -o "$T/ntsc$index.mp4" </dev/null
done <"$T/plan30"
"$M" concat "$T/ntsc1.mp4" "$T/ntsc0.mp4" -o "$T/ntsc.mp4" -q
ffprobe -v error -select_streams v -count_frames -show_entries \
    stream=nb_read_frames,time_base,duration_ts -of json "$T/ntsc.mp4" >"$T/ntsc.json"
ffprobe -v error -select_streams v -show_entries frame=pts -of json "$T/ntsc.mp4" >"$T/ntsc.frames"
got=$(python3 - "$T/ntsc.json" "$T/ntsc.frames" <<'PY'
import json, sys
from fractions import Fraction
s = json.load(open(sys.argv[1]))["streams"][0]
tb = Fraction(s["time_base"])
pts = [f["pts"] for f in json.load(open(sys.argv[2]))["frames"]]
print(s["nb_read_frames"], Fraction(int(s["duration_ts"])) * tb == Fraction(301 * 1001, 30000),
      all(Fraction(p) * tb == Fraction(k * 1001, 30000) for k, p in enumerate(pts)))
PY
)
check_eq ntsc_exact_times "301 True True" "$got"

finish
