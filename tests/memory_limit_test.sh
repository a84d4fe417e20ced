#!/bin/bash
# 'md5cine render' (and 'sheet') under an address-space limit (`ulimit -v`): ten actors of a 4 MB mesh (a
# 170x170-quad grid, 57,800 triangles) under limits from 300 MB to 1.5 GB, with each GL backend.
# Each run must exit 0, or 3 with a message that says memory ran out; never a signal (the GL
# driver once segfaulted or aborted inside llvmpipe and LLVM at most of these limits). The
# largest limit is what the render needs with room to spare (about 0.8 GB of address space:
# docs/hardening.md, "Memory"), so it must render.
set -u
. ./harness.sh memory_limit

python3 make_quads.py "$T"
python3 make_grid.py "$T" ten=10
size=$(stat -c %s "$T/grid.md5mesh")
if [ "$size" -gt 3500000 ] && [ "$size" -lt 4500000 ]; then
    ok the_mesh_is_about_4_MB
else
    fail the_mesh_is_about_4_MB "$size bytes"
fi

# limited NAME MB ARGS...: md5cine under `ulimit -v` of MB megabytes
limited() {
    local name=$1 mb=$2
    shift 2
    last=$name
    bash -c 'ulimit -v '$((mb * 1024))' && exec "$0" "$@"' "$MD5CINE" "$@" \
        >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

declare -A code
for gl in ${MC_TEST_BACKENDS:-egl osmesa}; do
    for mb in 300 450 600 750 900 1500; do
        limited "$gl$mb" "$mb" render "$T/ten.md5scene" --gl "$gl" -o "$T/$gl$mb.mp4"
        code[$gl$mb]=$rc
        name=${gl}_under_${mb}_MB_exits_0_or_3_saying_memory_ran_out
        if [ "$rc" -eq 0 ]; then
            ok "$name"
        elif [ "$rc" -eq 3 ] && grep -q "out of memory" "$T/$gl$mb.err"; then
            ok "$name"
        else
            fail "$name" "exit $rc: $(tail -n 3 "$T/$gl$mb.err")"
        fi
    done
    # 300 MB is less than the GL driver alone needs: refused before it is loaded.
    rc=${code[${gl}300]} last=${gl}300
    expect "${gl}_under_300_MB_is_refused_before_drawing" 3 "" \
        "md5cine: error: out of memory: the address-space limit (ulimit -v) of 300 MiB leaves"
    rc=${code[${gl}1500]} last=${gl}1500
    expect "${gl}_under_1.5_GB_renders" 0
    [ -s "$T/${gl}1500.mp4" ] && ok "${gl}_under_1.5_GB_writes_the_video" ||
        fail "${gl}_under_1.5_GB_writes_the_video"
done

# A contact sheet of the scene draws it the same way.
limited sheet600 600 sheet "$T/ten.md5scene" -o "$T/sheet.png"
if [ "$rc" -eq 0 ] || { [ "$rc" -eq 3 ] && grep -q "out of memory" "$T/sheet600.err"; }; then
    ok sheet_under_600_MB_exits_0_or_3_saying_memory_ran_out
else
    fail sheet_under_600_MB_exits_0_or_3_saying_memory_ran_out "exit $rc: $(tail -n 3 "$T/sheet600.err")"
fi

finish
