#!/bin/bash
# 'md5cine compare' of two videos with sound: the sound's line, the JSON's "audio" member, the
# JUnit test case, the report's frame strip and waveforms, the limits and exit codes, a track
# against none, two videos without sound (nothing added), a damaged sound track.
#
# The sound (sox): one second of silence with a 10 ms, 1000 Hz burst at vol 0.5 from sample
# 22050 (a.mp4) or 22491 (b.mp4: 441 samples, 10 ms, later), muxed by ffmpeg with a grey
# picture into MP4 (AAC). Hand-worked: the burst's first sample over half its peak is the 4th
# (sin(2 pi 1000 * 4 / 44100) = 0.54), so A's onset is 22054 / 44100 s = 500.09 ms and B's
# 510.09 ms; AAC moves a transient by at most 2 samples at each end (audio_track_test), so
# the offset is 10 ms within 4 samples, 0.091 ms. The bursts do not overlap: the difference
# holds both, 2 x 441 samples of a sine of RMS 0.5 / sqrt 2 in 44100, -9.03 + 10 log10(0.02) =
# -26.02 dBFS, over the default -30 dBFS (AAC adds its noise: within 0.2 dB).
set -u
. ./harness.sh compare_audio

# video OUT [WAV]: one second of 64x48 grey at 24 fps, with WAV's sound when given
video() {
    local out=$1 wav=${2:-}
    ffmpeg -loglevel error -y -f lavfi -i color=c=gray:s=64x48:r=24:d=1 ${wav:+-i "$wav"} \
        -c:v libx264 -pix_fmt yuv420p ${wav:+-c:a aac -shortest} "$out"
}

sox -D -r 44100 -c 2 -n -b 16 "$T/a.wav" synth 0.01 sine 1000 vol 0.5 pad 22050s 21609s &&
    sox -D -r 44100 -c 2 -n -b 16 "$T/b.wav" synth 0.01 sine 1000 vol 0.5 pad 22491s 21168s &&
    video "$T/a.mp4" "$T/a.wav" && video "$T/b.mp4" "$T/b.wav" && video "$T/silent.mp4" &&
    cp "$T/silent.mp4" "$T/silent2.mp4" || { echo "FAIL cannot make the videos"; exit 1; }

run same_sound_matches compare "$T/a.mp4" "$T/a.mp4"
expect same_sound_matches 0 "sound: RMS difference silent (A -29."

run shifted_sound_differs compare "$T/a.mp4" "$T/b.mp4"
expect shifted_sound_differs 1 "sound: differs: RMS difference -26."
if grep -qF "largest offset +10.0" "$T/shifted_sound_differs.out" &&
    ! grep -qF "onset offset" "$T/shifted_sound_differs.out"; then
    ok the_offset_is_10_ms_within_its_limit
else
    fail the_offset_is_10_ms_within_its_limit "$(cat "$T/shifted_sound_differs.out")"
fi

run onset_limit_fails compare "$T/a.mp4" "$T/b.mp4" --audio-max-rms-db off \
    --audio-max-onset-ms 5
expect onset_limit_fails 1 "sound: differs: onset offset +10.0"
if grep -qE '^  onset A +500\.[01][0-9] ms  B +510\.[01][0-9] ms  offset \+10\.0[0-9] ms$' \
    "$T/onset_limit_fails.out"; then
    ok the_failing_pair_is_a_row
else
    fail the_failing_pair_is_a_row "$(cat "$T/onset_limit_fails.out")"
fi

run loose_limits_pass compare "$T/a.mp4" "$T/b.mp4" --audio-max-rms-db off
expect loose_limits_pass 0 "1 onsets in A, 1 in B, 1 paired"

run rms_limit_option compare "$T/a.mp4" "$T/b.mp4" --audio-max-rms-db -20
expect rms_limit_option 0 "RMS difference -26."

run bad_limit_is_usage compare "$T/a.mp4" "$T/b.mp4" --audio-max-rms-db 3
expect bad_limit_is_usage 2 "" "--audio-max-rms-db"

run json_has_audio compare "$T/a.mp4" "$T/b.mp4" --json
if [ "$rc" -eq 1 ] && python3 - "$T/json_has_audio.out" <<'EOF'; then
import json, math, sys
d = json.load(open(sys.argv[1]))
a = d["audio"]
assert a["has_a"] and a["has_b"] and a["rate"] == 44100, a
assert abs(a["onsets_a_ms"][0] - 500.0907) < 0.091, a["onsets_a_ms"]
assert abs(a["pairs"][0]["offset_ms"] - 10.0) < 0.091, a["pairs"]
assert abs(a["rms_diff_db"] - -26.02) < 0.2, a["rms_diff_db"]
assert a["pass"] is False and a["limits"] == {"max_onset_ms": 10, "max_rms_db": -30}, a
assert d["summary"]["pass"] is True
EOF
    ok json_has_the_audio_member
else
    fail json_has_the_audio_member "exit $rc: $(head -c 600 "$T/json_has_audio.out")"
fi

run limits_off_are_null compare "$T/a.mp4" "$T/b.mp4" --audio-max-onset-ms off \
    --audio-max-rms-db off --json
if [ "$rc" -eq 0 ] && python3 - "$T/limits_off_are_null.out" <<'EOF'; then
import json, sys
a = json.load(open(sys.argv[1]))["audio"]
assert a["limits"] == {"max_onset_ms": None, "max_rms_db": 0} and a["pass"] is True, a
EOF
    ok limits_turned_off_pass_and_read_null
else
    fail limits_turned_off_pass_and_read_null \
        "exit $rc: $(head -c 600 "$T/limits_off_are_null.out")"
fi

run track_against_none compare "$T/a.mp4" "$T/silent.mp4"
expect track_against_none 1 "B has no sound track"
run none_against_track compare "$T/silent.mp4" "$T/a.mp4"
expect none_against_track 1 "A has no sound track"

run two_silent_videos compare "$T/silent.mp4" "$T/silent2.mp4"
expect two_silent_videos 0 "24 frames checked, 24 matched"
run two_silent_videos_json compare "$T/silent.mp4" "$T/silent2.mp4" --json
if ! grep -q "sound" "$T/two_silent_videos.out" &&
    ! grep -q '"audio"' "$T/two_silent_videos_json.out"; then
    ok silent_videos_add_nothing
else
    fail silent_videos_add_nothing "$(cat "$T/two_silent_videos.out")"
fi

run junit_has_sound compare "$T/a.mp4" "$T/b.mp4" --junit "$T/j.xml"
if [ "$rc" -eq 1 ] && xmllint --noout --schema data/junit/junit.xsd "$T/j.xml" 2>/dev/null &&
    grep -qF '<testcase name="sound"' "$T/j.xml" &&
    grep -qF '<failure message="sound differs" type="sound">RMS difference -26.' "$T/j.xml" &&
    grep -qF 'tests="2" failures="1"' "$T/j.xml"; then
    ok junit_has_a_failing_sound_case
else
    fail junit_has_a_failing_sound_case "exit $rc: $(cat "$T/j.xml" 2>/dev/null | head -c 800)"
fi

# The page: a timeline figure before the frames' tables, the frame strip directly over a
# waveform per side, each with one onset line, all on one time axis. Frames 0-23 at 24 fps are
# one run of passed frames from 0 to 1 s; the onsets at 500.09 ms (A) and 510.09 ms (B) lie at
# 0.50009 and 0.51009 of that run's width (the axis runs on past 1 s for the AAC tail, so the
# run ends short of 960), in frame 12 of the strip.
run report_has_waveforms compare "$T/a.mp4" "$T/b.mp4" --report "$T/rep" \
    --audio-max-rms-db off --audio-max-onset-ms 5
if [ "$rc" -eq 1 ] && python3 - "$T/rep/index.html" <<'EOF'; then
import re, sys
page = open(sys.argv[1]).read()
fig = re.search(r'<figure id="timeline" class="fail">\n(.*?)</figure>', page, re.S)
assert fig and page.index('id="timeline"') < page.index('id="shots"'), "no figure before shots"
body = fig.group(1)
order = re.findall(r'^<(svg class="[a-z-]+"(?: data-side="[ab]")?|figcaption)', body, re.M)
assert order == ['svg class="frame-strip"', 'svg class="waveform" data-side="a"',
                 'svg class="waveform" data-side="b"', 'figcaption'], order
assert body.count('</svg>\n<svg class="waveform"') == 2, "a waveform not directly under"
run = re.findall(r'<rect class="frames passed" data-first="0" data-last="23" x="0.00" y="0" '
                 r'width="([0-9.]+)"', body)
assert len(run) == 1 and 900 < float(run[0]) <= 960, run
onsets = [float(x) for x in re.findall(r'<line class="onset bad" data-ms="[0-9.]+" '
                                       r'x1="([0-9.]+)"', body)]
w = float(run[0])
assert len(onsets) == 2 and abs(onsets[0] / w - 0.50009) < 0.0002 and \
    abs(onsets[1] / w - 0.51009) < 0.0002, (onsets, w)
assert int(onsets[1] / w * 24) == 12
assert "sound: differs: onset offset +10.00 ms &gt; 5.00 ms" in body
EOF
    ok report_draws_the_waveforms_under_the_frame_strip
else
    fail report_draws_the_waveforms_under_the_frame_strip \
        "exit $rc: $(sed -n '/<figure/,/<.figure>/p' "$T/rep/index.html" | grep -v '^<path' |
            head -20)"
fi

# A sound track whose packets are damaged (every audio packet's bytes overwritten with 0xff, at
# the places ffprobe lists): an error naming the file, exit 2, never a crash.
cp "$T/a.mp4" "$T/bad.mp4"
python3 - "$T/bad.mp4" <<'EOF' || { echo "FAIL cannot damage the sound"; exit 1; }
import json, subprocess, sys
out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
                      "packet=size,pos", "-of", "json", sys.argv[1]], capture_output=True,
                     text=True, check=True).stdout
with open(sys.argv[1], "r+b") as f:
    for p in json.loads(out)["packets"]:
        f.seek(int(p["pos"]))
        f.write(b"\xff" * int(p["size"]))
EOF
run damaged_sound_is_an_error compare "$T/a.mp4" "$T/bad.mp4"
expect damaged_sound_is_an_error 2 "" "cannot decode the sound of '$T/bad.mp4'"

finish
