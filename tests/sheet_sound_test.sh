#!/bin/bash
# 'md5cine sheet' of a video with sound draws its waveform under the cells, with the onset
# marked; a video without sound gets no band.
#
# The video: 2 s of 64x48 grey at 24 fps (48 frames) whose sound (sox, AAC in MP4) is 1 s of
# silence, then 1 s of a 440 Hz sine at vol 0.5 (peak 16384, half scale). Worked by hand:
#   picks: 48 frames, no chapters: every ceil(48 / 24) = 2nd, 24 cells, 4 columns x 6 rows of
#   320x240 (64x48 scaled to 320 wide); sheet 4 * 324 + 4 = 1300 wide, cells 6 * (240 + 14 + 4)
#   + 4 = 1552 high; the band (48 rows) from row 1552, then 4 rows: 1604 high.
#   band columns: 1300 - 8 = 1292, x 4..1295, spanning samples 0 .. 48 / 24 * 44100 = 88200,
#   column i from sample 88200 i / 1292: the sine starts at sample 44100 = column 646, x 650.
#   Silent columns (x 4..649) draw nothing. A loud column covers 68 samples, more than half of
#   the sine's 100-sample period, so it crosses zero: the band's centre rows (23, 24) are drawn
#   in every one of them; the sine's peaks (+-0.5) give rows round(23.5 * 0.5) = 12 and
#   round(23.5 * 1.5) = 35 as the highest and lowest drawn, none outside 12..35.
#   The onset: the first sample over half the peak, sin(2 pi 440 n / 44100) >= 0.5 at n = 9,
#   sample 44109, column 44109 * 1292 / 88200 = 646: x 650 is the onset colour on all 48 rows.
set -u
. ./harness.sh sheet_sound

sox -D -r 44100 -c 2 -n -b 16 "$T/half.wav" synth 1 sine 440 vol 0.5 pad 44100s 0s &&
    ffmpeg -loglevel error -y -f lavfi -i color=c=gray:s=64x48:r=24:d=2 -i "$T/half.wav" \
        -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$T/sound.mp4" &&
    ffmpeg -loglevel error -y -f lavfi -i color=c=gray:s=64x48:r=24:d=2 -c:v libx264 \
        -pix_fmt yuv420p "$T/silent.mp4" || { echo "FAIL cannot make the videos"; exit 1; }

run sheet_with_sound sheet "$T/sound.mp4" -o "$T/sound.png"
expect sheet_with_sound 0 "" "24 frames, 4 x 6 cells of 320x240, 1300x1604"

run sheet_without_sound sheet "$T/silent.mp4" -o "$T/silent.png"
expect sheet_without_sound 0 "" "24 frames, 4 x 6 cells of 320x240, 1300x1552"

if [ -f "$T/sound.png" ] && convert "$T/sound.png" -depth 8 "rgb:$T/sound.rgb" &&
    python3 - "$T/sound.rgb" <<'EOF'; then
import sys
W, H, Y0, BAND = 1300, 1604, 1552, 48
raw = open(sys.argv[1], "rb").read()
assert len(raw) == W * H * 3, len(raw)
bg = (24, 24, 24)
def px(x, y):
    i = (y * W + x) * 3
    return tuple(raw[i:i + 3])
drawn = lambda x: [y - Y0 for y in range(Y0, Y0 + BAND) if px(x, y) != bg]
silent = [x for x in range(4, 650) if drawn(x)]
assert not silent, f"drawn in the silent half at x {silent[:5]}"
assert all(px(650, y) == (255, 208, 64) for y in range(Y0, Y0 + BAND)), "no onset line at x 650"
rows = set()
for x in range(651, 1296):
    d = drawn(x)
    assert 23 in d and 24 in d, f"x {x}: centre not drawn: {d}"
    assert all(px(x, Y0 + r) == (127, 209, 127) for r in d), f"x {x}: not the wave colour"
    rows.update(d)
assert min(rows) == 12 and max(rows) == 35, (min(rows), max(rows))
assert all(px(x, y) == bg for x in range(W) for y in range(H - 4, H)), "the bottom gap"
EOF
    ok waveform_is_drawn_where_the_sound_is_loud_only
else
    fail waveform_is_drawn_where_the_sound_is_loud_only
fi

finish
