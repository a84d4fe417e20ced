#!/bin/sh
# Writes the demo's sounds into sound/demo/ (run from anywhere): two footsteps, the door's slide
# and the standing drone's line, made with sox and espeak-ng and encoded with oggenc (Debian
# packages sox, espeak-ng, vorbis-tools). Random generators are seeded (sox -R), so a run writes
# the same samples again. The sound shaders in demo.sndshd name them as .wav, as the game's own
# shaders do: the engine, and md5cine, look for the .ogg of a name first.
set -eu
cd "$(dirname "$0")/demo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A footstep: a short low thump (a 70 Hz sine falling to 45 Hz) under a scuff of brown noise,
# 22050 Hz mono as the game's own footsteps are; the second is a little brighter and shorter.
step() { # NAME PITCH_HZ NOISE_LOWPASS_HZ LENGTH_S
    sox -R -n -r 22050 -c 1 -b 16 "$tmp/thump.wav" synth "$4" sine "$2-45" fade q 0.003 "$4" 0.09
    sox -R -n -r 22050 -c 1 -b 16 "$tmp/scuff.wav" synth "$4" brownnoise lowpass "$3" \
        fade q 0.002 "$4" 0.1 vol 0.5
    sox -R -m "$tmp/thump.wav" "$tmp/scuff.wav" "$tmp/$1.wav" norm -3
    oggenc -Q -q 4 -o "$1.ogg" "$tmp/$1.wav"
}
step step1 70 900 0.16
step step2 80 1300 0.13

# The middle door's slide: 0.7 s of low rumble with a servo whine rising under it, 44100 Hz mono.
sox -R -n -r 44100 -c 1 -b 16 "$tmp/rumble.wav" synth 0.7 brownnoise lowpass 500 tremolo 18 40 \
    fade q 0.05 0.7 0.2
sox -R -n -r 44100 -c 1 -b 16 "$tmp/whine.wav" synth 0.7 sine 220-330 vol 0.15 fade q 0.08 0.7 0.25
sox -R -m "$tmp/rumble.wav" "$tmp/whine.wav" "$tmp/door_slide.wav" norm -2
oggenc -Q -q 4 -o door_slide.ogg "$tmp/door_slide.wav"

# The standing drone's line, spoken by espeak-ng (22050 Hz mono), a touch of radio band-pass.
espeak-ng -v en-us -s 150 -w "$tmp/line_raw.wav" "Sector clear. Opening the middle door."
sox -R "$tmp/line_raw.wav" -b 16 "$tmp/sector_clear.wav" highpass 300 lowpass 3400 norm -3
oggenc -Q -q 4 -o sector_clear.ogg "$tmp/sector_clear.wav"
