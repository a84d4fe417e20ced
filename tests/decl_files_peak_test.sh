#!/bin/bash
# What a base's declaration files cost in memory (docs/hardening.md): each a few hundred bytes
# beside its text, so `info --materials` of a scene over 50,000 near-empty .mtr files (6 MB of
# .pk4) peaks under 256 MiB (it peaked at 808 MB when each file's index took three 64 KiB arena
# blocks; bench/hardening_bench.sh measures the render). A peak in MiB: labelled `once`, since a
# sanitizer's own memory would swamp it (decl_files_test.sh holds the count's limit in every
# pass).
set -u
. ./harness.sh decl_files_peak

python3 make_quads.py "$T"
mkdir -p "$T/b"
python3 - "$T/b/pak000.pk4" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
    for i in range(50000):
        z.writestr('materials/m%05d.mtr' % i, 'm%05d { }\n' % i)
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "b"\nactor q { mesh "quads.md5mesh" }\n' \
    >"$T/b.md5scene"

peak many info "$T/b.md5scene" --materials
expect fifty_thousand_files_load 0 "materials: 50000 declared"
[ "$kib" -lt 262144 ] && ok fifty_thousand_files_stay_under_256_mib ||
    fail fifty_thousand_files_stay_under_256_mib "peak $kib KiB"

finish
