#!/bin/bash
# Peak memory and time of the small hostile inputs that once cost gigabytes or hung (the cases of
# tests/hostile_inputs_test.sh and a few larger ones), one line each: exit code, wall seconds,
# maximum resident set size. Needs GNU time (Debian package `time`) for /usr/bin/time -v.
# usage: bench/hardening_bench.sh BUILD/src/md5cine
set -u
M=$(readlink -f "${1:?usage: bench/hardening_bench.sh MD5CINE}")
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cd "$(dirname "$0")/../tests" || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

measure() { # measure NAME CMD...: one line of figures
    local name=$1
    shift
    /usr/bin/time -v -o "$T/time" timeout 120 "$@" >/dev/null 2>"$T/err"
    local rc=$?
    awk -v n="$name" -v rc="$rc" -F': ' '
        /Elapsed \(wall clock\)/ { wall = $2 }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%-34s exit %d  wall %8s  peak %8.1f MB\n", n, rc, wall, rss / 1024 }' "$T/time"
}
base_scene() { # base_scene DIR: the quads and a scene on DIR/base
    mkdir -p "$1/base"
    python3 make_quads.py "$1"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "quads.md5mesh" }\n' >"$1/a.md5scene"
}

# A 118-byte TGA declaring 16384x16384 as a scene's material image.
python3 make_quads.py "$T"
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<BBBHHBHHHHBB',0,0,2,0,0,0,0,0,16384,16384,24,0)+bytes(100))" "$T/huge.tga"
printf 'md5scene 1\ncamera "cam.md5camera"\nactor q {\n    mesh "quads.md5mesh"\n    material "left" "huge.tga"\n}\n' >"$T/huge.md5scene"
measure "tga 118 B as 16384^2 (scene)" "$M" render "$T/huge.md5scene" --size 32x32 -o "$T/h%d.png"
cp "$T/huge.tga" "$T/tga.png"
measure "compare: TGA bytes named .png" "$M" compare "$T/tga.png" "$T/tga.png"

# Three materials, each a 16384x16384 run-length TGA deflated into a 12 KB .pk4.
base_scene "$T/budget"
python3 - "$T/budget/base" <<'PY'
import struct, sys, zipfile
w = h = 16384
rle = struct.pack('<BBBHHBHHHHBB', 0, 0, 10, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes([0xFF, 9, 9, 9]) * ((w * h + 127) // 128)
with zipfile.ZipFile(sys.argv[1] + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('materials/m.mtr', 'left { diffusemap a }\nright { diffusemap b }\nother { diffusemap c }\n')
    for n in 'abc':
        z.writestr(n + '.tga', rle)
PY
measure "3 x 16384^2 RLE TGA in $(du -k "$T/budget/base/pak000.pk4" | cut -f1) KB pk4" \
    "$M" render "$T/budget/a.md5scene" --size 32x32 -o "$T/budget/f%d.png"

# An 852 KB .pk4 of empty stages, and a .mtr of 65,536 names.
base_scene "$T/stages"
python3 - "$T/stages/base" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + '/pak000.pk4', 'w', zipfile.ZIP_STORED) as z:
    z.writestr('materials/m.mtr', 'unused { ' + '{ } ' * 213000 + '}\nleft { diffusemap _white }\n')
PY
measure "852 KB pk4 of empty stages" "$M" render "$T/stages/a.md5scene" --size 32x32 -o "$T/stages/f%d.png"
python3 -c "import sys; open(sys.argv[1],'w').write(''.join('m%05d { }\n' % i for i in range(65536)))" "$T/names.mtr"
measure "640 KB .mtr, 65536 names (strict)" "$M" info "$T/names.mtr"

# A 1 MB .pk4 whose entry declares 1 GiB.
base_scene "$T/bomb"
python3 - "$T/bomb/base/pak000.pk4" <<'PY'
import os, struct, sys, zipfile
p = sys.argv[1]
with zipfile.ZipFile(p, 'w', zipfile.ZIP_STORED) as z:
    z.writestr('materials/m.mtr', os.urandom(1 << 20))
d = bytearray(open(p, 'rb').read())
struct.pack_into('<I', d, 22, 1 << 30)
struct.pack_into('<I', d, d.rfind(b'PK\x01\x02') + 24, 1 << 30)
open(p, 'wb').write(d)
PY
measure "1 MB pk4 declaring 1 GiB" "$M" render "$T/bomb/a.md5scene" --size 32x32 -o "$T/bomb/f%d.png"

# A FIFO named as a video.
mkfifo "$T/fifo.mp4"
measure "compare on a FIFO" "$M" compare "$T/fifo.mp4" "$T/fifo.mp4"
measure "concat of a FIFO" "$M" concat "$T/fifo.mp4" -o "$T/c.mp4"
