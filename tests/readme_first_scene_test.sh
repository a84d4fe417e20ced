#!/bin/bash
# The README's "Your first scene" tells the truth:
#  1. Its scene block is scenes/demo/first.md5scene: the same words, line for line, once comments
#     and blank lines are dropped and runs of spaces are one (the README joins the floor's block
#     onto one line, so each side is read as one stream of words).
#  2. Its command block runs top to bottom, as written, from this README, in a folder holding a
#     copy of scenes/ (one bash with `set -e -o pipefail`, the md5cine under test first on the
#     PATH), and writes what it names.
#  3. The sound it describes is there: the video has an AAC track as long as its video within
#     one AAC frame (1024 samples at 48 kHz, ffprobe); the WAV is 44.1 kHz stereo 16-bit of
#     ceil(145 * 44100 / 24) = 266438 frames (145 output frames at 24 fps); and the line starts
#     where the cue says: the demo's sector_clear.ogg (22050 Hz, decoded here by ffmpeg) first
#     reaches a tenth of its peak (over its first 1.5 s) at its sample a, so the WAV (the mix at
#     44100 Hz, which plays each source sample twice) first reaches a tenth of the line's peak
#     (over 0.5-2.0 s) at sample
#     round(0.5 * 44100) + 2a = 22050 + 2a, give or take one (the camera is still then, so the
#     ears' gains are constant and scale both sides alike).
set -u
SRC=$(cd .. && pwd)
. ./harness.sh readme_first_scene

awk 'BEGIN { n = 0 }
     /^## Your first scene/ { in_fs = 1; next }
     in_fs && /^## / { exit }
     in_fs && /^```/ { if (open) { open = 0; n++ } else open = 1; next }
     in_fs && open { print > (dir "/block" n ".txt") }' dir="$T" "$SRC/README.md"
words() { sed 's|//.*||' "$1" | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//'; }
FIRST=$SRC/scenes/demo/first.md5scene
if [ -s "$T/block0.txt" ] && [ "$(words "$T/block0.txt")" = "$(words "$FIRST")" ]; then
    ok the_readme_scene_is_first_md5scene
else
    fail the_readme_scene_is_first_md5scene "the README's block and $FIRST differ"
    diff <(words "$T/block0.txt" | tr ' ' '\n') <(words "$FIRST" | tr ' ' '\n') |
        head -n 10 | sed 's/^/     | /'
fi
if grep -q '^md5cine render scenes/demo/first.md5scene -o first.wav' "$T/block1.txt" &&
    grep -q '^sound "demo_sector_clear"' "$T/block0.txt"; then
    ok the_readme_shows_the_sound
else
    fail the_readme_shows_the_sound "no sound cue in the scene block or no WAV in the commands"
fi

C=$T/clone
mkdir -p "$C" "$T/bin"
cp -r "$SRC/scenes" "$C/"
ln -s "$(readlink -f "$MD5CINE")" "$T/bin/md5cine"
(cd "$C" && PATH="$T/bin:$PATH" bash -e -o pipefail -x "$T/block1.txt") >"$T/run.log" 2>&1
rc=$?
check_status the_commands_run_top_to_bottom 0 "$T/run.log"
missing=
for o in $(grep -o -- ' -o [^ ;]*' "$T/block1.txt" | sed 's/^ -o //'); do
    [ -s "$C/$o" ] || missing="$missing $o"
done
if [ -z "$missing" ]; then ok every_output_exists; else fail every_output_exists "$missing"; fi
if grep -q '^  sound: 1 event, seed 1$' "$T/run.log"; then ok info_lists_one_sound_event
else fail info_lists_one_sound_event "$(grep 'sound:' "$T/run.log")"; fi

probe() {
    ffprobe -v error -select_streams "$1" -show_entries "stream=$2" -of csv=p=0 "$C/first.mp4"
}
a=$(probe a codec_name,sample_rate,duration)
v=$(probe v duration)
if [ "$(cut -d, -f1-2 <<<"$a")" = aac,48000 ] &&
    python3 -c "import sys; sys.exit(abs($v - ${a##*,}) > 1024 / 48000)"; then
    ok the_video_has_an_aac_track_as_long_as_its_video
else
    fail the_video_has_an_aac_track_as_long_as_its_video "audio '$a', video '$v'"
fi

ffmpeg -v error -i "$SRC/scenes/demo/sound/demo/sector_clear.ogg" -f s16le -ac 1 -ar 22050 \
    "$T/line.raw"
got=$(python3 - "$C/first.wav" "$T/line.raw" <<'PY'
import struct, sys, wave
w = wave.open(sys.argv[1], "rb")
n = w.getnframes()
fmt = (w.getframerate(), w.getnchannels(), w.getsampwidth(), n)
v = struct.unpack("<%dh" % (2 * n), w.readframes(n))
mag = [max(abs(v[2 * i]), abs(v[2 * i + 1])) for i in range(n)]
raw = open(sys.argv[2], "rb").read()
line = [abs(x) for x in struct.unpack("<%dh" % (len(raw) // 2), raw)]
# peaks over the line's first 1.5 s (the mix's 0.5-2.0 s: the still camera of shot 1)
a = next(i for i, x in enumerate(line) if x >= 0.1 * max(line[:33075]))
b = next(i for i, x in enumerate(mag) if x >= 0.1 * max(mag[22050:22050 + 66150]))
want = 22050 + 2 * a
print(*fmt, "onset ok" if abs(b - want) <= 1 else "onset %d, want %d" % (b, want))
PY
)
if [ "$got" = "44100 2 2 266438 onset ok" ]; then ok the_wav_has_the_line_at_0.5_s
else fail the_wav_has_the_line_at_0.5_s "$got"; fi

finish
