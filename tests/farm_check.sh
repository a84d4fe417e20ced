# Checks of a farm render's joined video, shared by tests/farm_*_test.sh (sourced, not run). All
# facts come from FFmpeg's command line (ffprobe, ffmpeg framemd5 and psnr) and the scene's own
# `md5cine info --json` (frame count, rate, shots); nothing is read back through md5cine's encoder.
#
#   farm_check_joined SCENE FULL SINGLE PLAN PART...
#     SCENE   the scene rendered (for outputFrames, fps and shot starts)
#     FULL    the joined video
#     SINGLE  the same scene rendered by one process with the same options
#     PLAN    `md5cine plan` text the parts were rendered from (chunk starts)
#     PART    the parts, in chunk order
#   Fails (returns 1, saying what) unless FULL has exactly outputFrames frames lasting
#   outputFrames/fps, timestamps rising by one constant step from 0, a key frame at every chunk
#   start and every shot start, one chapter per shot; its decoded frames equal the parts' decoded
#   frames in order, bit for bit; every frame is within 40 dB PSNR of SINGLE's; and, when SINGLE
#   has a sound track, FULL has exactly one, an AAC track whose packets are SINGLE's track's,
#   byte for byte (ffmpeg's md5 of the stream copied), as `md5cine concat --scene` encodes the
#   whole timeline's mix the way a one-process render does.

# frame_hashes VIDEO: the MD5 of each decoded frame, one a line (ffmpeg's framemd5, hash column)
frame_hashes() {
    ffmpeg -v error -i "$1" -map 0:v:0 -f framemd5 - | awk -F, '!/^#/ { gsub(/ /, "", $6); print $6 }'
}

# audio_packets VIDEO: the MD5 of the first audio stream's packets, copied as they are; empty
# without an audio stream
audio_packets() {
    ffmpeg -nostdin -v error -i "$1" -map 0:a:0 -c copy -f md5 - 2>/dev/null
}

# farm_check_sound FULL SINGLE: as the top says; silent when SINGLE has no track and FULL none
farm_check_sound() {
    local full=$1 single=$2 want got streams
    want=$(audio_packets "$single")
    got=$(audio_packets "$full")
    streams=$(ffprobe -v error -select_streams a -show_entries stream=codec_name -of csv=p=0 \
        "$full" | paste -sd' ')
    if [ -z "$want" ]; then
        [ -z "$streams" ] && return 0
        echo "farm_check: the joined video has sound ($streams), the one-process render none" >&2
        return 1
    fi
    if [ "$streams" != aac ]; then
        echo "farm_check: the joined video's sound tracks are '$streams', want one aac" >&2
        return 1
    fi
    if [ "$got" != "$want" ]; then
        echo "farm_check: the joined video's sound packets ($got) are not the one-process" \
            "render's ($want)" >&2
        return 1
    fi
    echo "farm_check: sound track: the one-process render's packets ($got)" >&2
}

# farm_check_collect DIR SCENE FULL SINGLE PART...: what farm_check_video reads, in DIR: the
# scene's info.json, FULL's probe.json, the decoded frames' hashes of FULL (full.md5) and of the
# parts in order (parts.md5), and FULL's PSNR against SINGLE frame by frame (psnr.txt)
farm_check_collect() {
    local tmp=$1 scene=$2 full=$3 single=$4 part
    shift 4
    "$MD5CINE" info --json "$scene" >"$tmp/info.json" || { echo "info failed" >&2; return 1; }
    ffprobe -v error -select_streams v:0 -show_entries stream=time_base,duration,nb_frames:frame=pts,key_frame \
        -show_chapters -of json "$full" >"$tmp/probe.json" || { echo "ffprobe failed on $full" >&2; return 1; }
    # Decoded frames: the hash column of framemd5 (pts differ between a part and the whole).
    frame_hashes "$full" >"$tmp/full.md5"
    : >"$tmp/parts.md5"
    for part in "$@"; do
        frame_hashes "$part" >>"$tmp/parts.md5"
    done
    ffmpeg -v error -i "$full" -i "$single" -lavfi "[0:v:0][1:v:0]psnr=stats_file=$tmp/psnr.txt" -f null - ||
        { echo "ffmpeg psnr failed" >&2; return 1; }
}

# farm_check_video DIR PLAN: the checks of the top but the sound's, on what farm_check_collect
# wrote in DIR
farm_check_video() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
from fractions import Fraction
tmp, plan = sys.argv[1], sys.argv[2]
info = json.load(open(tmp + "/info.json"))
probe = json.load(open(tmp + "/probe.json"))
n = info["outputFrames"]
fps = Fraction(str(info["fps"])) if "fpsRational" not in info else Fraction(info["fpsRational"])
bad = []
frames = probe["frames"]
if len(frames) != n:
    bad.append("%d frames decoded, outputFrames is %d" % (len(frames), n))
st = probe["streams"][0]
tb = Fraction(st["time_base"])
if int(st.get("nb_frames", -1)) != n:
    bad.append("nb_frames %s, want %d" % (st.get("nb_frames"), n))
want = float(n / fps)
if abs(float(st["duration"]) - want) > 0.5 / 1000:
    bad.append("duration %s s, want %d/%s = %.6f s" % (st["duration"], n, fps, want))
pts = [int(f["pts"]) for f in frames]
step = Fraction(1) / fps / tb
if pts and pts[0] != 0:
    bad.append("first pts %d, want 0" % pts[0])
steps = {b - a for a, b in zip(pts, pts[1:])}
if steps != {step}:
    bad.append("pts steps %s, want only %s (1/fps in time base %s)" % (sorted(steps)[:5], step, tb))
keys = {i for i, f in enumerate(frames) if int(f["key_frame"]) == 1}
starts = set()
for line in open(plan):
    w = line.split()
    if len(w) >= 2 and w[0].isdigit():
        starts.add(int(w[1].split("-")[0]))
shots = {s["first"] for s in info["shots"]}
for s in sorted(starts | shots):
    if s not in keys:
        bad.append("frame %d (a %s start) is not a key frame; key frames: %s"
                   % (s, "chunk" if s in starts else "shot", sorted(keys)))
if len(probe.get("chapters", [])) != len(info["shots"]):
    bad.append("%d chapters, want %d (one per shot)" % (len(probe.get("chapters", [])), len(info["shots"])))
full = open(tmp + "/full.md5").read().split()
parts = open(tmp + "/parts.md5").read().split()
if full != parts:
    diff = next((i for i, (a, b) in enumerate(zip(full, parts)) if a != b), min(len(full), len(parts)))
    bad.append("decoded frames differ from the parts' from frame %d (%d vs %d frames)" % (diff, len(full), len(parts)))
worst = None
count = 0
for line in open(tmp + "/psnr.txt"):
    kv = dict(x.split(":", 1) for x in line.split() if ":" in x)
    v = kv.get("psnr_avg", "inf")
    v = float("inf") if v == "inf" else float(v)
    count += 1
    if worst is None or v < worst[1]:
        worst = (int(kv["n"]) - 1, v)
if count != n:
    bad.append("psnr compared %d frames, want %d" % (count, n))
if worst and worst[1] < 40:
    bad.append("frame %d is %.2f dB from the one-process render (< 40 dB)" % worst)
for b in bad:
    print("farm_check: " + b, file=sys.stderr)
print("farm_check: %d frames, %d chunk starts, %d shots, worst PSNR %s dB"
      % (len(frames), len(starts), len(shots), worst[1] if worst else "-"), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

farm_check_joined() {
    local scene=$1 full=$2 single=$3 plan=$4 tmp rc=0
    shift 4
    tmp=$(mktemp -d "${MC_TEST_TMP:-/tmp}/farm_check.XXXXXX") || return 1
    farm_check_collect "$tmp" "$scene" "$full" "$single" "$@" && farm_check_video "$tmp" "$plan" ||
        rc=1
    rm -rf "$tmp"
    farm_check_sound "$full" "$single" || rc=1
    return $rc
}

# farm_flaky_md5cine FILE FRAMES: writes FILE, an md5cine (MD5CINE's) that refuses, exit 3, to
# render the frames FRAMES (one --frames value) and renders any other
farm_flaky_md5cine() {
    cat >"$1" <<EOF
#!/bin/sh
for a; do
    if [ "\$a" = $2 ]; then echo "flaky-md5cine: refusing frames $2" >&2; exit 3; fi
done
exec "$(cd "$(dirname "$MD5CINE")" && pwd)/$(basename "$MD5CINE")" "\$@"
EOF
    chmod +x "$1"
}

# farm_check_join_refused WHAT FARM OUT: the join of the farm folder FARM ($FARM/farm-concat.sh)
# exits 2 naming frames 120-179 as missing, and writes no OUT
farm_check_join_refused() {
    local what=$1 farm=$2 out=$3 rc
    "$FARM/farm-concat.sh" "$farm" 2>"$T/$what.err"
    rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, want 2"
    grep -q 'error: frames 120-179 are missing' "$T/$what.err" ||
        fail "md5cine concat does not name 120-179 ($what): $(cat "$T/$what.err")"
    [ ! -e "$out" ] || fail "$what wrote an output"
}
