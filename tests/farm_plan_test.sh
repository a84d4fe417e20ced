#!/bin/bash
# md5cine plan on the demo: the chunk lists worked out by hand in tests/plan_test.c from the
# demo camera (shots 0-83, 84-167, 168-240 of 241 output frames, which `info --json` must
# agree with), the JSON form read back by python3, and the usage errors (exit 2).
set -u
S=../scenes/demo/demo.md5scene
. ./harness.sh farm_plan

capture info --json ../scenes/demo/demo.md5camera
shots=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["outputFrames"], d["shots"])' "$out")
check_eq info_agrees "241 [{'first': 0, 'last': 83}, {'first': 84, 'last': 167}, {'first': 168, 'last': 240}]" "$shots"

capture plan $S --chunks 4
check_eq chunks4 $'0 0-59 shot 1\n1 60-119 shots 1,2\n2 120-179 shots 2,3\n3 180-240 shot 3' "$out"
check_eq chunks4_exit 0 "$rc"
capture plan $S --chunks=4 --align-shots
check_eq chunks4_aligned $'0 0-83 shot 1\n1 84-167 shot 2\n2 168-240 shot 3' "$out"
capture plan $S --chunks 2 --align-shots
check_eq chunks2_aligned $'0 0-83 shot 1\n1 84-240 shots 2,3' "$out"
capture plan $S --by-shot
check_eq by_shot $'0 0-83 shot 1\n1 84-167 shot 2\n2 168-240 shot 3' "$out"
capture plan $S --chunk-frames 100
check_eq chunk_frames $'0 0-99 shots 1,2\n1 100-199 shots 2,3\n2 200-240 shot 3' "$out"
capture plan $S --chunk-frames 50 --align-shots
check_eq chunk_frames_aligned $'0 0-49 shot 1\n1 50-83 shot 1\n2 84-133 shot 2\n3 134-167 shot 2\n4 168-217 shot 3\n5 218-240 shot 3' "$out"
capture plan $S --by-shot --frames 80-90
check_eq by_shot_range $'0 80-83 shot 1\n1 84-90 shot 2' "$out"

# At 12 fps the demo is 121 frames (output k shows stored 2k shifted past the cuts: the last
# frame is the first past stored 241, k = 120), the cuts open shots at k 42 (2k >= 84) and
# k 84 (2k >= 168, with the first cut's shift 2k + 1 >= 169).
capture plan $S --by-shot --fps 12
check_eq by_shot_12fps $'0 0-41 shot 1\n1 42-83 shot 2\n2 84-120 shot 3' "$out"

# The engine clock moves the shot starts (info --clock engine says where; tests/timeline_test.c
# works its rule by hand); plan must follow the same clock as the render.
capture info --json --clock engine ../scenes/demo/demo.md5camera
shots=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(" ".join("%d-%d" % (s["first"], s["last"]) for s in d["shots"]))' "$out")
capture plan $S --by-shot --clock engine
check_eq by_shot_engine_clock "$shots" "$(cut -d' ' -f2 <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check_eq engine_clock_differs "0-84 85-168 169-240" "$shots"

# The JSON form.
capture plan $S --chunks 3 --json
got=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(d["scene"], d["outputFrames"], d["fps"], [(c["index"], c["first"], c["last"], c["shots"]) for c in d["chunks"]])' "$out")
check_eq json "$S 241 24 [(0, 0, 79, [1]), (1, 80, 159, [1, 2]), (2, 160, 240, [2, 3])]" "$got"
capture plan $S --by-shot --json --fps 29.97
got=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1]); print(d["fps"], d["fpsRational"], len(d["chunks"]))' "$out")
check_eq json_fractional_rate "29.97 30000/1001 3" "$got"

# Usage errors.
capture plan $S --chunks 242
check_eq too_many_chunks "2 md5cine: error: 242 chunks asked for, but frames 0-240 are only 241" "$rc $err"
capture plan $S
check_eq no_mode "2 md5cine: error: plan needs one of --chunks N, --chunk-frames F or --by-shot" "$rc $err"
capture plan $S --chunks 2 --by-shot
check_eq two_modes "2 md5cine: error: --chunks, --chunk-frames and --by-shot exclude each other" "$rc $err"
capture plan $S --by-shot --frames 200-300
check_eq frames_outside "2 md5cine: error: --frames 200-300 is outside the scene's frames 0-240" "$rc $err"
capture plan $S --chunks 0
check_eq zero_chunks 2 "$rc"
capture plan "$T/missing.md5scene" --by-shot
check_eq missing_scene 2 "$rc"

finish
