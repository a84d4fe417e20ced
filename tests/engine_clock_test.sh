#!/bin/bash
# --clock engine on info and render: Doom 3's 16 ms game ticks. Every expected value is worked
# out by hand: output frame k at fps shows game time ms = 16 * floor(k * 1000 / (16 * fps)); a
# 24 fps camera is at p = ms * 24, stored frame p / 1000 with lerp (p % 1000) / 1000, shifted
# past each cut c <= f; a 60 fps camera shows stored frame ms / 16, never interpolated.
# Runs in tests/ with MD5CINE set to the binary.
set -u
. ./harness.sh engine_clock

camera() { # frames rate cuts... : a camera moving 1 unit along +X per stored frame
    local n=$1 rate=$2
    shift 2
    printf 'MD5Version 10\ncommandline ""\nnumFrames %d\nframeRate %d\nnumCuts %d\ncuts {\n' \
        "$n" "$rate" $#
    for c in "$@"; do printf '\t%d\n' "$c"; done
    printf '}\ncamera {\n'
    for ((i = 0; i < n; i++)); do printf '\t( %d 0 10 ) ( 0 0 0 ) 90\n' $((i - 200)); done
    printf '}\n'
}

# 10 frames at 24 fps, cut at 4, played at 24 fps. ticks floor(k * 125 / 48): 0 2 5 7 10 13
# 15 18 20 23, so ms 0 32 80 112 160 208 240 288 320 368 and p = ms * 24: 0 768 1920 2688 3840
# 4992 5760 6912 7680 8832. From f 4 (k 5) on the cut moves f to f + 1 (shot 2); k 9 has f 8
# -> 9 > N - 2: the camera has ended there, so 10 output frames, the second shot from k 5.
camera 10 24 4 >"$T/cut.md5camera"
capture info --json --timeline --clock engine "$T/cut.md5camera"
check_eq cut_camera_timeline_json '{"type":"md5camera","frames":10,"frameRate":24,"cuts":[4],"fps":24,"clock":"engine","outputFrames":10,"shots":[{"first":0,"last":4},{"first":5,"last":9}],"timeline":[{"frame":0,"time":0,"ms":0,"stored":0,"next":0,"lerp":0,"shot":0},{"frame":1,"time":0.0416667,"ms":32,"stored":0,"next":1,"lerp":0.768,"shot":0},{"frame":2,"time":0.0833333,"ms":80,"stored":1,"next":2,"lerp":0.92,"shot":0},{"frame":3,"time":0.125,"ms":112,"stored":2,"next":3,"lerp":0.688,"shot":0},{"frame":4,"time":0.166667,"ms":160,"stored":3,"next":4,"lerp":0.84,"shot":0},{"frame":5,"time":0.208333,"ms":208,"stored":5,"next":6,"lerp":0.992,"shot":1},{"frame":6,"time":0.25,"ms":240,"stored":6,"next":7,"lerp":0.76,"shot":1},{"frame":7,"time":0.291667,"ms":288,"stored":7,"next":8,"lerp":0.912,"shot":1},{"frame":8,"time":0.333333,"ms":320,"stored":8,"next":9,"lerp":0.68,"shot":1},{"frame":9,"time":0.375,"ms":368,"stored":9,"next":9,"lerp":0,"shot":1}]}' "$out"
check_eq cut_camera_exit 0 "$rc"

# Without --clock (and with --clock ideal) nothing changes: the ideal clock's shots 0-3 and 4-8.
capture info --json "$T/cut.md5camera"
check_eq ideal_is_the_default '{"type":"md5camera","frames":10,"frameRate":24,"cuts":[4],"fps":24,"outputFrames":9,"shots":[{"first":0,"last":3},{"first":4,"last":8}]}' "$out"
capture info --json --clock ideal "$T/cut.md5camera"
check_eq ideal_by_name '{"type":"md5camera","frames":10,"frameRate":24,"cuts":[4],"fps":24,"outputFrames":9,"shots":[{"first":0,"last":3},{"first":4,"last":8}]}' "$out"

# The text form adds an ms column.
capture info --timeline --clock engine "$T/cut.md5camera"
check_eq text_names_the_clock "$T/cut.md5camera: md5camera, 10 frames at 24 fps, 1 cut; 10 output frames at 24 fps on the engine clock" "$(sed -n 1p <<<"$out")"
check_eq text_row_has_ms "  5      0.208333   208      5      6    0.992     2" "$(grep '^  5 ' <<<"$out")"

# 30 frames at 60 fps, played at 60: ticks floor(k * 25 / 24) are k up to k 23, then 25 at
# k 24: stored frame 24 is never shown. k 28 reaches tick 29 > N - 2 = 28: 29 output frames.
camera 30 60 >"$T/fps60.md5camera"
capture info --json --timeline --clock engine "$T/fps60.md5camera"
pick() { # JSON, then a Python expression over the object o
    python3 -c 'import json,sys; o=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}
check_eq fps60_frames 29 "$(pick "$out" 'o["outputFrames"]')"
check_eq fps60_stored_23_to_25 "23 25 26" "$(pick "$out" '" ".join(str(o["timeline"][k]["stored"]) for k in (23, 24, 25))')"
check_eq fps60_ms "368 400 416" "$(pick "$out" '" ".join(str(o["timeline"][k]["ms"]) for k in (23, 24, 25))')"
check_eq fps60_never_interpolates "True" "$(pick "$out" 'all(e["lerp"] == 0 and e["next"] == e["stored"] for e in o["timeline"])')"
# At 62.5 output fps every output frame is one tick: stored k at 16 k ms, 30 output frames.
capture info --json --timeline --clock engine --fps 62.5 "$T/fps60.md5camera"
check_eq fps62_5_one_frame_per_tick "True 30" "$(pick "$out" 'str(all(e["stored"] == e["frame"] and e["ms"] == 16 * e["frame"] for e in o["timeline"])) + " " + str(o["outputFrames"])')"

# A scene: 10 frames at 24 fps without cuts lasts 10 output frames on the ideal clock and 11
# on the engine clock (k 9: ms 368, p 8832, f 8, the last pair; k 10: ms 416, f 9, ended).
camera 10 24 >"$T/plain.md5camera"
printf 'md5scene 1\ncamera "plain.md5camera"\n' >"$T/plain.md5scene"
capture info --json --clock engine "$T/plain.md5scene"
check_eq scene_frames_engine 11 "$(pick "$out" 'o["outputFrames"]')"
check_eq scene_json_clock engine "$(pick "$out" 'o["clock"]')"
capture info --json "$T/plain.md5scene"
check_eq scene_frames_ideal 10 "$(pick "$out" 'o["outputFrames"]')"

# render follows: frame 10 exists on the engine clock only.
capture render "$T/plain.md5scene" --clock engine --frames 10 --size 64x64 -q -o "$T/e/%05d.png"
check_eq render_engine_last_frame "0 yes" "$rc $([[ -s $T/e/00010.png ]] && echo yes)"
capture render "$T/plain.md5scene" --frames 10 --size 64x64 -q -o "$T/i/%05d.png"
check_eq render_ideal_has_no_frame_10 "2 md5cine: error: --frames 10-10 is outside the scene's frames 0-9" "$rc $err"

# A bad clock name is a usage error.
capture info --clock wall "$T/cut.md5camera"
check_eq bad_clock "2 md5cine: error: bad --clock 'wall': expected ideal or engine" "$rc $err"
capture render "$T/plain.md5scene" --clock=tick -o "$T/x.mp4"
check_eq bad_clock_render "2 md5cine: error: bad --clock 'tick': expected ideal or engine" "$rc $err"

finish
