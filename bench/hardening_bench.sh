#!/bin/bash
# Peak memory, time and CPU time (user + system) of the small hostile inputs that once cost gigabytes or hung (the cases of
# tests/hostile_inputs_test.sh and a few larger ones), one line each: exit code, wall seconds,
# maximum resident set size. Under default limits none should pass 300 MB, and every case
# that asks for a gigabyte should be refused (exit 2) early. A case still running after 120 s
# is stopped (SIGTERM, SIGKILL 5 s later: exit 124, or 137 when killed). Needs GNU time
# (Debian package `time`) for /usr/bin/time -v, and bc. The last rows: SIGTERM at --jobs 1 and 16,
# three times each (the seconds vary with the machine's load).
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
    /usr/bin/time -v -o "$T/time" timeout --foreground -k 5 120 "$@" >/dev/null 2>"$T/err"
    local rc=$?
    awk -v n="$name" -v rc="$rc" -F': ' '
        /Elapsed \(wall clock\)/ { wall = $2 }
        /User time/ { cpu += $2 }
        /System time/ { cpu += $2 }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%-46s exit %3d  wall %8s  cpu %7.2f s  peak %8.1f MB\n", n, rc, wall, cpu, rss / 1024 }' "$T/time"
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

# ---- Memory that follows the data: every row here should stay under 300 MB ------------------

# Zip bombs: a 1 GiB .mtr of zeros deflated into a 1 MB pk4, once with its true size declared
# and once declaring 1 KiB; and an 8192x8192 TGA header followed by 1 GiB of data, deflated.
for kind in honest lying; do
    base_scene "$T/zb_$kind"
    python3 - "$T/zb_$kind/base/pak000.pk4" "$kind" <<'PY'
import struct, sys, zipfile
p, kind = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(p, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    with z.open('materials/m.mtr', 'w', force_zip64=True) as f:
        for _ in range(1024):
            f.write(bytes(1 << 20))
if kind == 'lying':  # 1 KiB: the local header's zip64 field, the central header's own
    d = bytearray(open(p, 'rb').read())
    x = d.find(b'\x01\x00\x10\x00', 30)  # the local zip64 extra: id 1, 16 bytes
    struct.pack_into('<Q', d, x + 4, 1024)
    struct.pack_into('<I', d, d.rfind(b'PK\x01\x02') + 24, 1024)
    open(p, 'wb').write(d)
PY
    measure "1 GiB .mtr in a $(du -k "$T/zb_$kind/base/pak000.pk4" | cut -f1) KB pk4 ($kind)" \
        "$M" render "$T/zb_$kind/a.md5scene" --size 32x32 -o "$T/zb_$kind/f%d.png"
done
base_scene "$T/tga1g"
python3 - "$T/tga1g/base/pak000.pk4" <<'PY'
import struct, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('materials/m.mtr', 'left { diffusemap textures/big }\n')
    with z.open('textures/big.tga', 'w', force_zip64=True) as f:
        f.write(struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 8192, 8192, 24, 0))
        for _ in range(1024):
            f.write(bytes(1 << 20))
PY
measure "8192^2 TGA + 1 GiB in a $(du -k "$T/tga1g/base/pak000.pk4" | cut -f1) KB pk4" \
    "$M" render "$T/tga1g/a.md5scene" --size 32x32 -o "$T/tga1g/f%d.png"

# Tables: a .mtr of 10,000 tables of 1,000 values (30 MB of text in a 105 KB pk4), which each
# of the scene's two materials names.
base_scene "$T/tables"
python3 - "$T/tables/base/pak000.pk4" <<'PY'
import sys, zipfile
vals = ', '.join('%d' % (i % 7) for i in range(1000))
text = ''.join('table t%d { { %s } }\n' % (i, vals) for i in range(10000))
text += 'left { { blend add map _white rgb t0[time] } }\nright { { blend add map _white rgb t9999[time] } }\n'
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('materials/m.mtr', text)
PY
measure "2 materials naming 10000 tables ($(du -k "$T/tables/base/pak000.pk4" | cut -f1) KB pk4)" \
    "$M" render "$T/tables/a.md5scene" --size 32x32 -o "$T/tables/f%d.png"

# Large tables: 1000 of 65536 zeros (125 MiB of text, 65 M values), as the material_budgets
# test's signal case once was; past the 64 MiB of declaration text, refused (exit 2) on the
# entry's declared size before it is inflated (under a larger text budget, at the 257th table:
# the 16 Mi values one file's tables may hold).
base_scene "$T/bigtables"
python3 - "$T/bigtables/base/pak000.pk4" <<'PY'
import sys, zipfile
row = ','.join(['0'] * 65536)
text = ''.join('table t%d { { %s } }\n' % (i, row) for i in range(1000))
text += 'left { { blend add map _white rgb t0[time] } }\nright { { blend add map _white rgb t999[time] } }\n'
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('materials/m.mtr', text)
PY
measure "1000 tables of 65536 values ($(du -k "$T/bigtables/base/pak000.pk4" | cut -f1) KB pk4)" \
    "$M" render "$T/bigtables/a.md5scene" --size 32x32 --msaa 0 -o "$T/bigtables/f%d.png"

# A 4 MB mesh (a 170x170-quad grid) in 10 actors (render) and in 200 (info).
mkdir -p "$T/grid"
python3 make_quads.py "$T/grid"
python3 make_grid.py "$T/grid" a10=10 a200=200
measure "10 actors of a $(du -k "$T/grid/grid.md5mesh" | cut -f1) KB mesh (render)" \
    "$M" render "$T/grid/a10.md5scene" -o "$T/grid/a10.mp4"
measure "200 actors of it (info)" "$M" info "$T/grid/a200.md5scene"

# 8,000 submeshes of one triangle, none with an image: a warning each.
mkdir -p "$T/subs"
python3 make_quads.py "$T/subs"
python3 - "$T/subs" <<'PY'
import sys
d, n = sys.argv[1], 8000
out = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes %d' % n, 'joints {',
       '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
for m in range(n):
    y, z = m % 100 - 50, m // 100 - 40
    out += ['mesh {', '\tshader "s%d"' % m, '\tnumverts 3', '\tvert 0 ( 0 0 ) 0 1',
            '\tvert 1 ( 1 0 ) 1 1', '\tvert 2 ( 0 1 ) 2 1', '\tnumtris 1', '\ttri 0 0 1 2',
            '\tnumweights 3', '\tweight 0 0 1 ( 0 %d %d )' % (y, z),
            '\tweight 1 0 1 ( 0 %d %d )' % (y - 1, z), '\tweight 2 0 1 ( 0 %d %d )' % (y, z + 1), '}']
open(d + '/subs.md5mesh', 'w').write('\n'.join(out) + '\n')
open(d + '/a.md5scene', 'w').write('md5scene 1\ncamera "cam.md5camera"\nactor a { mesh "subs.md5mesh" }\n')
PY
measure "8000 untextured submeshes (render)" \
    "$M" render "$T/subs/a.md5scene" --size 64x64 -o "$T/subs/f%d.png"

# One 2048x2048 image (16 MiB as RGBA) named by 17 materials: 272 MiB if counted each time.
mkdir -p "$T/shared/base/materials"
python3 make_quads.py "$T/shared"
python3 - "$T/shared" <<'PY'
import struct, sys
d, n, w = sys.argv[1], 17, 2048
rle = struct.pack('<BBBHHBHHHHBB', 0, 0, 10, 0, 0, 0, 0, 0, w, w, 24, 0) + bytes([0xFF, 40, 90, 200]) * (w * w // 128)
open(d + '/base/shared.tga', 'wb').write(rle)
open(d + '/base/materials/m.mtr', 'w').write(''.join('m%d { diffusemap shared }\n' % i for i in range(n)))
out = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes %d' % n, 'joints {',
       '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
for m in range(n):
    y = 2 * m - n
    out += ['mesh {', '\tshader "m%d"' % m, '\tnumverts 3', '\tvert 0 ( 0 0 ) 0 1',
            '\tvert 1 ( 1 0 ) 1 1', '\tvert 2 ( 0 1 ) 2 1', '\tnumtris 1', '\ttri 0 0 1 2',
            '\tnumweights 3', '\tweight 0 0 1 ( 0 %d 0 )' % y, '\tweight 1 0 1 ( 0 %d 0 )' % (y - 1),
            '\tweight 2 0 1 ( 0 %d 1 )' % y, '}']
open(d + '/m.md5mesh', 'w').write('\n'.join(out) + '\n')
open(d + '/a.md5scene', 'w').write('md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor a { mesh "m.md5mesh" }\n')
PY
measure "2048^2 image shared by 17 materials" \
    "$M" render "$T/shared/a.md5scene" --size 64x64 -o "$T/shared/f%d.png"

# A 366-byte camera block: 4 orbits of 3600 s at 1000 fps, 14.4 M frames.
python3 make_quads.py "$T"
python3 - "$T/frames.md5scene" <<'PY'
import sys
s = 'md5scene 1\ncamera {\n    fps 1000\n'
s += '    orbit { radius 100 seconds 3600 }\n' * 4
s += '}\nactor q { mesh "quads.md5mesh" }\n'
open(sys.argv[1], 'w').write(s)
PY
measure "$(stat -c %s "$T/frames.md5scene")-byte camera block, 14.4M frames (info)" \
    "$M" info "$T/frames.md5scene"

# 50,000 near-empty declaration files (`m00000 { }`) in a pk4: the set's cost per file.
base_scene "$T/decls"
python3 - "$T/decls/base" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + '/pak000.pk4', 'w', zipfile.ZIP_STORED) as z:
    for i in range(50000):
        z.writestr('materials/m%05d.mtr' % i, 'm%05d { }\n' % i)
PY
measure "50000 .mtr files in a $(du -k "$T/decls/base/pak000.pk4" | cut -f1) KB pk4" \
    "$M" render "$T/decls/a.md5scene" --size 32x32 -o "$T/decls/f%d.png"

# ---- Crafted inputs (make_hostile.py): each under 300 MB, or refused before ------------------
for c in subs image tables; do
    python3 make_hostile.py "$c" "$T/h_$c" >/dev/null
    measure "crafted: $c (make_hostile.py)" "$M" render "$T/h_$c/a.md5scene" --size 64x64 \
        -o "$T/h_$c/f%d.png"
done
measure "crafted: image under --image-pixels 64" "$M" render "$T/h_image/a.md5scene" \
    --size 64x64 --image-pixels 64 -o "$T/h_image/g%d.png"

# A 16-deep inherit chain of model declarations, each of the same 4,095 long anim names (a 200 KB
# pk4 of 16 MB of text): resolving the model for one actor and for 20 (info).
python3 make_hostile.py chain "$T/chain" >/dev/null
measure "16-deep chain of 4095 anims, 1 actor (info)" "$M" info "$T/chain/one.md5scene"
measure "16-deep chain of 4095 anims, 20 actors (info)" "$M" info "$T/chain/a.md5scene"

# ---- SIGTERM while frames are drawn: the demo at 1920x1080 to MP4, the signal 1 s after the
# first frame is done; the seconds from the signal to the process's end, its exit code and peak.
sigterm() { # sigterm JOBS
    local d=$T/sig$1
    mkdir -p "$d"
    /usr/bin/time -v -o "$d/time" "$M" render ../scenes/demo/demo.md5scene --size 1920x1080 \
        --jobs "$1" -o "$d/demo.mp4" --progress json >"$d/out" 2>"$d/err" &
    local tpid=$! pid t0 t1 rc
    for _ in $(seq 1 2400); do grep -q '"done":' "$d/out" 2>/dev/null && break; sleep 0.05; done
    sleep 1
    pid=$(pgrep -P "$tpid")
    t0=$(date +%s.%N)
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
    t1=$(date +%s.%N)
    wait "$tpid"
    rc=$?
    awk -v n="SIGTERM, demo 1920x1080, --jobs $1" -v rc="$rc" -v s="$(echo "$t1 - $t0" | bc)" \
        -v left="$(ls -A "$d" | grep -vc '^\(time\|out\|err\)$')" -F': ' '
        /Maximum resident set size/ { rss = $2 }
        END { printf "%-46s exit %3d  stop %6.2f s  peak %8.1f MB  files left %d\n", n, rc, s, rss / 1024, left }' "$d/time"
}
for j in 1 16 1 16 1 16; do sigterm "$j"; done
