#!/bin/bash
# The scene's sound in the outputs of `md5cine render`: an AAC track as long as the video (within
# one AAC frame of 1024 samples, read by ffprobe), at 48 kHz or --audio-rate; none with --audio
# off or for a scene without sound; --audio FILE.wav and -o FILE.wav write the mix, whose click
# lands on its sample: a cue at 0.5 s on round(0.5 * 44100) = 22050, worth 16384 * 2^(1/6) (the
# shader's default volume, 1 dB) * 0.8 (a global sound's s_globalFraction) = 14712.3, truncated
# to 14712 (idSIMD_Generic::MixedSoundToSamples). concat --scene joins chunks with the single
# render's track, and reads a scene that needs it with --lenient.
set -u
. ./harness.sh soundtrack_render
audio_streams() { ffprobe -v error -select_streams a -show_entries stream=index -of csv=p=0 "$1" | wc -l; }

S=../scenes/demo/demo.md5scene
"$M" render "$S" --size 160x90 --msaa 0 --frames 0-47 --quiet -o "$T/demo.mp4" --audio "$T/demo.wav"
check_eq demo_render 0 $?
check_eq demo_has_a_track 1 "$(audio_streams "$T/demo.mp4")"
check_eq track_rate 48000 "$(ffprobe -v error -select_streams a -show_entries stream=sample_rate -of csv=p=0 "$T/demo.mp4")"
v=$(ffprobe -v error -select_streams v -show_entries stream=duration -of csv=p=0 "$T/demo.mp4")
a=$(ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 "$T/demo.mp4")
check_eq track_as_long_as_video yes "$(python3 -c "print('yes' if abs($v - $a) <= 1024 / 48000 else 'no: $v $a')")"
# the WAV of frames 0-47 at 24 fps: 2 s, 88200 frames of 16-bit stereo at 44.1 kHz
check_eq wav_format "s16 44100 2 88200" "$(ffprobe -v error -show_entries stream=sample_rate,channels,sample_fmt,duration_ts -of csv=p=0 "$T/demo.wav" | tr , ' ' | awk '{print $1, $2, $3, $4}' | sed 's/pcm_//')"

"$M" render "$S" --size 160x90 --msaa 0 --frames 0-23 --quiet -o "$T/native.mp4" --audio-rate 44100
check_eq native_rate 44100 "$(ffprobe -v error -select_streams a -show_entries stream=sample_rate -of csv=p=0 "$T/native.mp4")"
"$M" render "$S" --size 160x90 --msaa 0 --frames 0-23 --quiet -o "$T/off.mp4" --audio off
check_eq audio_off_no_track 0 "$(audio_streams "$T/off.mp4")"
"$M" render data/render/boxes.md5scene --size 160x90 --msaa 0 --frames 0-5 --quiet -o "$T/silent.mp4"
check_eq silent_scene_no_track 0 "$(audio_streams "$T/silent.mp4")"

# farm: two chunks joined with --scene carry the single render's track, packet for packet
for part in 0-120 121-240 all; do
    f=(--frames "$part"); [ "$part" = all ] && f=()
    "$M" render "$S" --size 160x90 --msaa 0 --quiet "${f[@]}" -o "$T/chunk_$part.mp4" </dev/null
done
"$M" concat "$T/chunk_121-240.mp4" "$T/chunk_0-120.mp4" --scene "$S" -o "$T/joined.mp4" --quiet
check_eq concat_scene_exit 0 $?
apkts() { ffmpeg -nostdin -v error -i "$1" -map 0:a -c copy -f md5 - 2>&1; }
check_eq concat_track_is_the_single_renders "$(apkts "$T/chunk_all.mp4")" "$(apkts "$T/joined.mp4")"
"$M" concat "$T/chunk_0-120.mp4" "$T/chunk_121-240.mp4" --scene data/render/boxes.md5scene \
    -o "$T/wrong.mp4" 2>"$T/err"
check_eq concat_other_scene_exit 2 $?
check_eq concat_other_scene_says 1 "$(grep -c "is not the scene of the parts" "$T/err")"

# a base of one shader playing a click: one sample of 16384, then silence
mkdir -p "$T/base/sound"
python3 - "$T/base/sound/click.wav" <<'PY'
import struct, sys, wave
w = wave.open(sys.argv[1], "wb")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(44100)
w.writeframes(struct.pack("<100h", 16384, *([0] * 99)))
w.close()
PY
echo 'click { sound/click.wav }' >"$T/base/sound/click.sndshd"
cat >"$T/click.md5scene" <<'SC'
md5scene 1
base "base"
camera { look_at { position ( 0 0 0 ) target ( 100 0 0 ) seconds 1 } }
sound "click" { at 0.5 }
SC
"$M" render "$T/click.md5scene" -o "$T/click.wav" >/dev/null
check_eq sound_only_exit 0 $?
check_eq click_sample "22050 14712 14712 25" "$(python3 - "$T/click.wav" <<'PY'
import struct, sys, wave
w = wave.open(sys.argv[1], "rb")
n = w.getnframes()
v = struct.unpack("<%dh" % (2 * n), w.readframes(n))
first = next(i for i in range(n) if v[2 * i] or v[2 * i + 1])
# 25 frames at 24 fps (1 s of 24 steps and the end pose): ceil(25 * 44100 / 24) samples
print(first, v[2 * first], v[2 * first + 1], round(n * 24 / 44100))
PY
)"
# info --timeline lists it: frame floor(22050 * 24 / 44100) = 12, the shader's volume 1 dB
check_eq info_json "12 0.5 22050 None cue 0 any click click.wav 1 False played" "$("$M" info "$T/click.md5scene" --timeline --json | python3 -c '
import json, sys
e = json.load(sys.stdin)["sound"]["events"]
assert len(e) == 1, e
e = e[0]
print(e["frame"], e["time"], e["sample"], e["actor"], e["command"], e["animFrame"], e["channel"],
      e["shader"], e["file"].split("/")[-1], e["volume"], e["cut"], e["outcome"])')"
check_eq info_text "12 0.500000 - cue any click sound/click.wav 1 -" "$("$M" info "$T/click.md5scene" --timeline | grep -A1 '  frame  time       actor' | tail -1 | tr -s ' ' | sed 's/^ //')"
"$M" render "$T/click.md5scene" -o "$T/click.wav" --audio off >/dev/null 2>&1
check_eq sound_only_with_audio_off 0 $?
sed -i 's/sound "click"/sound "none"/' "$T/click.md5scene"
"$M" render "$T/click.md5scene" -o "$T/none.wav" 2>"$T/err" >/dev/null
check_eq missing_file_warns 0 $?
check_eq missing_file_message 1 "$(grep -c "sound shader 'none': no sound file 'none.wav'" "$T/err")"
"$M" render "$T/click.md5scene" -o "$T/strict.wav" --strict 2>"$T/err" >/dev/null
check_eq missing_file_strict_exit 2 $?
check_eq missing_file_strict_place 1 "$(grep -c "click.md5scene:4:7: error: sound shader 'none'" "$T/err")"
check_eq strict_writes_nothing no "$([ -e "$T/strict.wav" ] && echo yes || echo no)"

# concat --scene --lenient: a scene whose files load only with --lenient (a mesh without its
# commandline, an anim with two roots) and a click cue; its chunks rendered with --lenient join with its
# sound only when concat reads it as leniently (without: exit 2 at the mesh's missing
# commandline, nothing written).
Q=$PWD/data/assets/redeclipse-quirks/grenade
cat >"$T/quirk.md5scene" <<SC
md5scene 1
base "base"
camera { look_at { position ( -60 0 0 ) target ( 0 0 0 ) seconds 1 } }
actor "g" { mesh "$Q/grenade.md5mesh" anim "$Q/grenade-idle.md5anim" }
sound "click" { at 0.5 }
SC
for part in 0-11 12-24; do
    "$M" render "$T/quirk.md5scene" --lenient --size 32x32 --msaa 0 --frames "$part" --quiet \
        -o "$T/quirk_$part.mp4" </dev/null 2>/dev/null
done
"$M" concat "$T/quirk_0-11.mp4" "$T/quirk_12-24.mp4" --scene "$T/quirk.md5scene" \
    -o "$T/quirk_strict.mp4" 2>"$T/err"
check_eq concat_strict_scene_exit "2 no" "$? $([ -e "$T/quirk_strict.mp4" ] && echo yes || echo no)"
check_eq concat_strict_scene_names_the_mesh 1 \
    "$(grep -c "grenade.md5mesh:3:1: error: expected .commandline." "$T/err")"
"$M" concat "$T/quirk_0-11.mp4" "$T/quirk_12-24.mp4" --scene "$T/quirk.md5scene" --lenient \
    -o "$T/quirk.mp4" --quiet 2>/dev/null
check_eq concat_lenient_scene_exit 0 $?
check_eq concat_lenient_scene_has_the_track 1 "$(audio_streams "$T/quirk.mp4")"

finish
