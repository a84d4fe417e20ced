#!/bin/bash
# The declaration files of a base (docs/hardening.md): at most MC_LIMIT_DECL_FILES (65536) in
# all, the one past it named (in sorted order, materials/m65536.mtr of a .pk4 holding m00000 ..
# m65536) with exit 2 before any is read; 65536 of them load. What each costs in memory:
# decl_files_peak_test.sh.
set -u
. ./harness.sh decl_files

python3 make_quads.py "$T"
# base N: folder T/bN with a .pk4 of N files materials/mNNNNN.mtr, each `mNNNNN { }`, and a
# scene T/bN.md5scene over it.
base() {
    mkdir -p "$T/b$1"
    python3 - "$T/b$1/pak000.pk4" "$1" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
    for i in range(int(sys.argv[2])):
        z.writestr('materials/m%05d.mtr' % i, 'm%05d { }\n' % i)
PY
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "b%s"\nactor q { mesh "quads.md5mesh" }\n' \
        "$1" >"$T/b$1.md5scene"
}

base 65537
run over info "$T/b65537.md5scene" --materials
expect one_file_past_the_limit_is_refused 2 "" \
    "b65537/pak000.pk4:materials/m65536.mtr: error: the base holds more than 65536 declaration files (materials/*.mtr and the other declaration folders)"
rm -rf "$T/b65537"
base 65536
run at info "$T/b65536.md5scene" --materials
expect the_limit_itself_loads 0 "materials: 65536 declared"
rm -rf "$T/b65536"

finish
