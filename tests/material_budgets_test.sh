#!/bin/bash
# Materials whose cost follows the data: the tables of a declaration file read once and shared
# by every material that names them (not copied per material or per reference), the values one
# file's tables may hold (MC_LIMIT_MTR_TABLE_VALUES, 16 Mi) refused at the table that passes
# them, a stop signal that reaches table and expression reading, and a table that does not
# parse reported with its own error. Peak memory is asserted with a generous bound (GNU time's %M, in KiB); no time a
# signal takes to act is asserted (the machine may be busy).
set -u
. ./harness.sh material_budgets

python3 make_quads.py "$T"
# tables FOLDER NTABLES NMAT [VALUE]: FOLDER/pak000.pk4 with one materials/t.mtr of NTABLES
# tables of 65536 zeros each, written VALUE (default 0: 128 KiB of text, 256 KiB of values
# apiece) and the materials left and
# right (NMAT of them; the others are declared but unused): 16 stages, each colour the sum of
# 30 lookups, 1920 references spread over the tables. A scene FOLDER.md5scene draws both quads.
tables() {
    mkdir -p "$T/$1"
    python3 - "$T/$1" "$2" "$3" "${4:-0}" <<'PY'
import sys, zipfile
d, ntab, nmat, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
row = ','.join([value] * 65536)
parts = ['table t%d { { %s } }\n' % (i, row) for i in range(ntab)]
def sum30(j):
    return '+'.join('t%d[time]' % ((j * 30 + k) % ntab) for k in range(30))
body = ' '.join('{ blend add map _white red %s green %s blue %s alpha %s }'
                % (sum30(4 * j), sum30(4 * j + 1), sum30(4 * j + 2), sum30(4 * j + 3))
                for j in range(16))
for i, n in enumerate(['left', 'right']):
    parts.append('%s { %s }\n' % (n, body if i < nmat else '{ blend add map _white }'))
with zipfile.ZipFile(d + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr('materials/t.mtr', ''.join(parts))
PY
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\nactor q {\n    mesh "quads.md5mesh"\n}\n' "$1" >"$T/$1.md5scene"
}

# ---- 1. tables are read once per file and shared -----------------------------------------
# 200 tables: 25 MiB of text, 50 MiB of values. Read once, the values cost 50 MiB however many
# materials and references name them; copied per reference (1920 of them, 256 KiB each) or per
# material they cost hundreds.
tables one 200 1
tables two 200 2
peak one_material render "$T/one.md5scene" --size 32x32 --msaa 0 -o "$T/one_%d.png"
expect one_material_naming_200_tables_renders 0
one=$kib
peak two_materials render "$T/two.md5scene" --size 32x32 --msaa 0 -o "$T/two_%d.png"
expect two_materials_naming_the_same_tables_render 0
two=$kib
# text (25 MiB) + values (50 MiB) + the renderer (about 70 MiB): under 200 MiB.
[ "$one" -lt 204800 ] && ok one_material_stays_under_200_mib ||
    fail one_material_stays_under_200_mib "peak $one KiB"
[ "$two" -lt $((one + 16384)) ] && ok a_second_material_costs_no_more_tables ||
    fail a_second_material_costs_no_more_tables "one: $one KiB, two: $two KiB"
peak two_info info "$T/two.md5scene" --materials
expect info_reads_the_same_materials 0
# info: text + values, no renderer
[ "$kib" -lt 131072 ] && ok info_stays_under_128_mib || fail info_stays_under_128_mib "peak $kib KiB"

# ---- 2. the values of one file's tables have a budget -----------------------------------
# 16 Mi values: 256 tables of 65536 fit, the 257th (line 257, its name at column 7) passes it.
# Refused there (exit 2), not drawn as a default material, before the rest is read.
tables over 257 2
peak over_budget render "$T/over.md5scene" --size 32x32 --msaa 0 -o "$T/over_%d.png"
expect tables_past_the_budget_are_refused 2 "" \
    "over/pak000.pk4:materials/t.mtr:257:7: error: the tables of one material file hold more than 16777216 values (table 't256')"
ls "$T"/over_*.png >/dev/null 2>&1 && fail no_frame_is_written_past_the_budget ||
    ok no_frame_is_written_past_the_budget

# ---- 3. a stop signal reaches table and expression reading -------------------------------
# 250 tables of values written 0.0 (63 MiB of text, 16 M values: within both budgets):
# reading them takes seconds. SIGTERM while loading must end the
# render with 143 and "interrupted" and no frame written. The signal is sent once md5cine catches
# SIGTERM (its handler shows in /proc/PID/status SigCgt), at three moments of the loading; no
# wall-clock limit is asserted.
tables big 250 2 0.0
python3 - "$MD5CINE" "$T" >"$T/signal.out" 2>&1 <<'PY'
import glob, signal, subprocess, sys, time
md5cine, t = sys.argv[1], sys.argv[2]

def catches_sigterm(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('SigCgt:'):
                    return int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)) != 0
    except OSError:
        pass
    return False

for delay in (0.0, 0.5, 1.0):
    p = subprocess.Popen([md5cine, 'render', t + '/big.md5scene', '--size', '32x32', '--msaa', '0',
                          '-o', t + '/big_%d.png'], stderr=subprocess.PIPE)
    while p.poll() is None and not catches_sigterm(p.pid):
        time.sleep(0.01)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    err = p.communicate()[1].decode()
    print('after %.1f s: exit %d: %s' % (delay, p.returncode, err.strip()))
    if p.returncode != 143 or 'md5cine: interrupted' not in err or glob.glob(t + '/big_*.png'):
        sys.exit(1)
sys.exit(0)
PY
case $? in
0) ok sigterm_while_reading_tables_exits_143 ;;
*) fail sigterm_while_reading_tables_exits_143 "$(cat "$T/signal.out")" ;;
esac

# ---- 4. a table that does not parse: its own error, at its position ----------------------
mkdir -p "$T/bad/materials"
printf 'table good { { 0, 1 } }\ntable bad { { 0, 1, x } }\nleft { { blend add map _white red bad[time] } }\nright { { blend add map _white red good[time] } }\n' \
    >"$T/bad/materials/t.mtr"
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "bad"\nactor q {\n    mesh "quads.md5mesh"\n}\n' >"$T/bad.md5scene"
run bad_table info "$T/bad.md5scene" --materials
expect a_material_naming_a_broken_table_is_drawn_as_the_default 0 "" \
    "$T/bad/materials/t.mtr:2:21: warning: expected a number in table 'bad', found 'x'; material 'left' is drawn as the default material"
grep -q "unknown table" "$T/bad_table.err" && fail the_broken_table_is_not_called_unknown "$(cat "$T/bad_table.err")" ||
    ok the_broken_table_is_not_called_unknown
run bad_table_strict info "$T/bad.md5scene" --materials --strict
expect strict_reports_the_broken_table_at_its_value 2 "" \
    "$T/bad/materials/t.mtr:2:21: error: expected a number in table 'bad', found 'x'"

# ---- 5. a table after a broken one: reading goes on at the next declaration --------------
# As Doom's DeclManager skips a declaration's braced section and reads on: 'later' (after the
# broken 'bad') gives 'right' its stage, whose colour is later[time] (info shows the layer of
# _white, not the default's); 'worse', broken too, is named with its own error.
mkdir -p "$T/after/materials"
printf 'table bad { { 0, 1, x } }
table later { { 0.25, 0.75 } }
table worse { snap }
right { { blend add map _white red later[time] } }
left { { blend add map _white red worse[time] } }
' \
    >"$T/after/materials/t.mtr"
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "after"\nactor q {\n    mesh "quads.md5mesh"\n}\n' >"$T/after.md5scene"
run after_table info "$T/after.md5scene" --materials
expect a_table_after_a_broken_one_is_found 0 "_white <- _white" \
    "$T/after/materials/t.mtr:3:7: warning: table 'worse' has no values; material 'left' is drawn as the default material"
grep -q "unknown table" "$T/after_table.err" && fail a_table_after_a_broken_one_is_not_unknown "$(cat "$T/after_table.err")" ||
    ok a_table_after_a_broken_one_is_not_unknown
[ "$(grep -c warning "$T/after_table.err")" = 1 ] && ok only_the_material_naming_a_broken_table_warns ||
    fail only_the_material_naming_a_broken_table_warns "$(cat "$T/after_table.err")"

finish
