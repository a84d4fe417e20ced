#!/bin/bash
# scripts/farm/parallel-render.sh: the demo rendered in 4 chunks by GNU parallel (2 at a time,
# then through parallel's --sshlogin with ':' = this machine, the form remote hosts use) and joined;
# the whole checked against its parts and a one-process render with FFmpeg's tools
# (tests/farm_check.sh). Then the failures: a chunk whose render fails makes the script fail with
# exit 2 naming that chunk's frames and leaves no output; a part removed afterwards makes the join
# refuse the same way; --resume renders only the missing chunk and gives the same bytes; a PNG
# pattern needs no join and gives the one-process frames; a frame range to a video is refused;
# paths with spaces and quotes reach every chunk. The joined video's sound track is the
# one-process render's (farm_check.sh); the join drops it for chunks rendered --audio off and
# encodes it at their --audio-rate; --audio FILE.wav, which every chunk would overwrite, is
# refused.
set -u
cd "$(dirname "$0")"
. ./farm_check.sh
SCENE=../scenes/demo/demo.md5scene
FARM=../scripts/farm
. ./harness.sh farm_parallel
mkdir -p "$T"
OPTS=(--size 160x90 --msaa 0)

"$MD5CINE" render "$SCENE" -o "$T/single.mp4" --quiet "${OPTS[@]}" || fail "one-process render"
"$MD5CINE" plan "$SCENE" --chunks 4 >"$T/plan.txt" || fail "plan"

# 1. Local, 2 jobs, 4 chunks; --keep leaves the parts to check against.
if timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$T/full.mp4" --chunks 4 -j 2 --keep \
    --md5cine "$MD5CINE" -- "${OPTS[@]}" 2>"$T/run1.err"; then
    cmp -s "$T/plan.txt" "$T/full.mp4.farm/plan.txt" || fail "the work folder's plan is not md5cine plan --chunks 4"
    parts=("$T/full.mp4.farm/parts"/part-0000{0,1,2,3}.mp4)
    for p in "${parts[@]}"; do [ -f "$p" ] || fail "no part $p"; done
    farm_check_joined "$SCENE" "$T/full.mp4" "$T/single.mp4" "$T/plan.txt" "${parts[@]}" || fail "local run: joined video"
else
    fail "local run exited $? ($(tail -n 5 "$T/run1.err"))"
fi

# 2. Through --sshlogin ':' (parallel's name for this machine), 3 chunks by shot, no --keep.
if timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$T/ssh.mp4" --by-shot -j 1 -S 2/: \
    --md5cine "$MD5CINE" -- "${OPTS[@]}" 2>"$T/run2.err"; then
    [ ! -e "$T/ssh.mp4.farm" ] || fail "the work folder is left after a successful join"
    n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$T/ssh.mp4")
    [ "$n" = 241 ] || fail "--sshlogin run: $n frames, want 241"
    grep -q 'on --sshlogin 2/:' "$T/run2.err" || fail "--sshlogin run did not go through parallel's --sshlogin"
else
    fail "--sshlogin run exited $? ($(tail -n 5 "$T/run2.err"))"
fi

# 3. One chunk fails (frames 60-119 through a wrapper that refuses them): every other chunk still
# renders, the join refuses naming those frames, exit 2, no output and no temporary left.
farm_flaky_md5cine "$T/flaky-md5cine" 60-119
mkdir -p "$T/fail"
timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$T/fail/full.mp4" --chunks 4 -j 2 --keep \
    --md5cine "$T/flaky-md5cine" -- "${OPTS[@]}" 2>"$T/run3.err"
rc=$?
[ $rc -eq 2 ] || fail "a failed chunk: exit $rc, want 2"
grep -q '1 of 4 chunks failed' "$T/run3.err" || fail "a failed chunk is not reported ($(cat "$T/run3.err"))"
grep -q 'error: frames 60-119 are missing' "$T/run3.err" || fail "md5cine concat does not name the missing range 60-119"
[ ! -e "$T/fail/full.mp4" ] || fail "a failed farm render left an output"
left=$(find "$T/fail" -maxdepth 1 -name '.*tmp*' | wc -l)
[ "$left" -eq 0 ] || fail "a failed farm render left $left temporaries"
for i in 0 2 3; do
    [ -f "$T/fail/full.mp4.farm/parts/part-0000$i.mp4" ] || fail "chunk $i was not rendered beside the failed one"
done
[ ! -e "$T/fail/full.mp4.farm/parts/part-00001.mp4" ] || fail "the failed chunk left a part"

# 4. A part lost after rendering: the join (farm-concat.sh, which runs md5cine concat) refuses.
if [ -d "$T/full.mp4.farm" ]; then
    cp "$T/full.mp4" "$T/full-first.mp4"
    rm -f "$T/full.mp4" "$T/full.mp4.farm/parts/part-00002.mp4"
    farm_check_join_refused "join with a part removed" "$T/full.mp4.farm" "$T/full.mp4"

    # 5. --resume renders only that chunk again; the same frames and settings give the same bytes.
    timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$T/full.mp4" --chunks 4 -j 2 --resume \
        --md5cine "$MD5CINE" -- "${OPTS[@]}" 2>"$T/run5.err" || fail "--resume exited $?"
    grep -q '1 of 4 chunks' "$T/run5.err" || fail "--resume did not render exactly the missing chunk"
    cmp -s "$T/full.mp4" "$T/full-first.mp4" || fail "--resume gave other bytes than the first run"

    # 5b. The join follows the chunks' sound options (farm.env's RENDER_OPTS): with --audio off
    # the joined video has no sound track; with --audio-rate 44100 its track is at 44100 Hz.
    for opt in "--audio off" "--audio-rate 44100"; do
        w=$T/sound.farm
        rm -rf "$w" "$T/sound.mp4"
        cp -r "$T/full.mp4.farm" "$w"
        sed -i "s|^OUT=.*|OUT=$T/sound.mp4|; s|^RENDER_OPTS=( \(.*\) )$|RENDER_OPTS=( \1 $opt )|" \
            "$w/farm.env"
        grep -q "^RENDER_OPTS=(.* $opt )$" "$w/farm.env" || fail "cannot set $opt in farm.env"
        "$FARM/farm-concat.sh" "$w" 2>"$T/run5b.err" || fail "join with $opt: exit $?"
        rate=$(ffprobe -v error -select_streams a -show_entries stream=sample_rate -of csv=p=0 \
            "$T/sound.mp4")
        want=; [ "$opt" = "--audio off" ] || want=44100
        [ "$rate" = "$want" ] || fail "join with $opt: sound track '$rate', want '$want'"
    done
fi

# 6. A PNG pattern: chunks write their frames straight into it, nothing is joined; each frame has
# the same pixels as the one-process PNG render (ImageMagick's count of differing pixels).
"$MD5CINE" render "$SCENE" -o "$T/png1/%05d.png" --quiet --frames 80-100 "${OPTS[@]}" || fail "PNG render"
timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$T/png4/%05d.png" --chunks 3 -j 2 \
    --md5cine "$MD5CINE" -- --frames 80-100 "${OPTS[@]}" 2>"$T/run6.err" || fail "PNG farm exited $?"
[ "$(ls "$T/png4" | wc -l)" = 21 ] || fail "PNG farm wrote $(ls "$T/png4" | wc -l) files, want 21 (80..100)"
for f in 00080 00086 00087 00093 00094 00100; do
    ae=$(compare -metric AE "$T/png1/$f.png" "$T/png4/$f.png" null: 2>&1)
    [ "$ae" = 0 ] || fail "PNG frame $f differs from the one-process render in $ae pixels"
done

# 7. A frame range to a video is refused before anything renders: concat joins whole scenes.
"$FARM/parallel-render.sh" "$SCENE" -o "$T/range.mp4" --chunks 2 --md5cine "$MD5CINE" -- \
    --frames 10-49 "${OPTS[@]}" 2>"$T/run7.err"
rc=$?
[ $rc -eq 2 ] || fail "--frames to a video: exit $rc, want 2"
grep -q -- '--frames: a joined video holds the whole scene' "$T/run7.err" || fail "--frames to a video: $(cat "$T/run7.err")"
[ ! -e "$T/range.mp4.farm/parts/part-00000.mp4" ] || fail "--frames to a video rendered a part"

# 7b. --audio FILE.wav is refused before anything renders: every chunk would write over it.
"$FARM/parallel-render.sh" "$SCENE" -o "$T/wav.mp4" --chunks 2 --md5cine "$MD5CINE" -- \
    --audio "$T/x.wav" "${OPTS[@]}" 2>"$T/run7b.err"
rc=$?
[ $rc -eq 2 ] || fail "--audio FILE.wav: exit $rc, want 2"
grep -q -- "--audio $T/x.wav: each chunk would write its own piece over it" "$T/run7b.err" ||
    fail "--audio FILE.wav: $(cat "$T/run7b.err")"
[ ! -e "$T/wav.mp4.farm/parts/part-00000.mp4" ] || fail "--audio FILE.wav rendered a part"

# 8. Paths with spaces and shell characters: GNU parallel runs its command through a shell, so
# the work folder must reach farm-task.sh as one word; 4 frames (80..83) in 2 chunks.
sp="$T/with space & 'quote'"
timeout 300 "$FARM/parallel-render.sh" "$SCENE" -o "$sp/%05d.png" --chunks 2 -j 2 \
    --md5cine "$MD5CINE" -- --frames 80-83 "${OPTS[@]}" 2>"$T/run8.err" || fail "spaced path: exit $? ($(tail -n 3 "$T/run8.err"))"
[ "$(ls "$sp" | tr '\n' ' ')" = "00080.png 00081.png 00082.png 00083.png " ] || fail "spaced path wrote: $(ls "$sp" | tr '\n' ' ')"

finish
