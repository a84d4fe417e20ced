#!/bin/bash
# The GL backends (docs/rendering.md, "GL backends"): the demo through EGL and through OSMesa gives the same
# bytes, with and without MSAA; EGL with no working platform is exit 3 naming what was tried,
# and the automatic choice then falls back to OSMesa. MD5CINE_GL picks the backend of a run.
# MC_TEST_BACKENDS names the backends of this build ("egl osmesa"; a -DMC_OSMESA=OFF build has
# only egl, and then OSMesa asked for is exit 3 saying the build lacks it).
set -u
: "${MC_TEST_BACKENDS:?MC_TEST_BACKENDS must list the GL backends built}"
has() { case " $MC_TEST_BACKENDS " in *" $1 "*) return 0 ;; esac; return 1; }
. ./harness.sh gl_backends
S=../scenes/demo/demo.md5scene

for msaa in 4 0; do
    for gl in $MC_TEST_BACKENDS; do
        MD5CINE_GL=$gl "$M" render "$S" --size 320x180 --msaa $msaa --frames 40-52 --quiet \
            -o "$T/$gl$msaa/%03d.png" || fail "render via $gl msaa $msaa: exit $?"
        (cd "$T/$gl$msaa" && md5sum ./*.png) >"$T/$gl$msaa.sums"
    done
    [ "$(wc -l <"$T/$gl$msaa.sums")" = 13 ] || fail "$gl msaa $msaa: not 13 frames"
    if ! has egl || ! has osmesa; then
        continue
    fi
    if [ -s "$T/egl$msaa.sums" ] && cmp -s "$T/egl$msaa.sums" "$T/osmesa$msaa.sums"; then
        ok "egl and osmesa give identical frames at msaa $msaa"
    else
        fail "egl and osmesa differ at msaa $msaa"
    fi
done
for gl in egl osmesa; do
    has $gl && continue
    MD5CINE_GL=$gl "$M" render "$S" --size 64x36 --frames 0 -o "$T/no$gl/%d.png" 2>"$T/no$gl.err"
    rc=$?
    [ $rc = 3 ] && grep -q "this build has no" "$T/no$gl.err" && ok "a build without $gl says so" ||
        fail "$gl absent: exit $rc, $(cat "$T/no$gl.err")"
done

# glvnd finds no EGL vendor library: no platform, no device.
if has egl; then
export __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json
MD5CINE_GL=egl "$M" render "$S" --size 64x36 --frames 0 -o "$T/none/%d.png" 2>"$T/none.err"
rc=$?
if [ $rc = 3 ] && grep -q "surfaceless" "$T/none.err" && grep -q "EGL" "$T/none.err" &&
    [ ! -e "$T/none/0.png" ]; then
    ok "no EGL platform: exit 3 naming what was tried"
else
    fail "no EGL platform: exit $rc, $(cat "$T/none.err")"
fi
env -u MD5CINE_GL "$M" render "$S" --size 64x36 --frames 0 -o "$T/auto/%d.png" 2>"$T/auto.err"
rc=$?
if ! has osmesa; then
    [ $rc = 3 ] && grep -q "surfaceless" "$T/auto.err" && ok "auto without EGL or OSMesa: exit 3" ||
        fail "auto without EGL or OSMesa: exit $rc, $(cat "$T/auto.err")"
elif [ $rc = 0 ] && [ -s "$T/auto/0.png" ]; then
    ok "automatic choice falls back to OSMesa without EGL"
else
    fail "auto without EGL: exit $rc, $(cat "$T/auto.err")"
fi
unset __EGL_VENDOR_LIBRARY_FILENAMES
fi

MD5CINE_GL=vulkan "$M" render "$S" --size 64x36 --frames 0 -o "$T/v/%d.png" 2>"$T/v.err"
rc=$?
[ $rc = 2 ] && grep -q "MD5CINE_GL='vulkan'" "$T/v.err" && ok "unknown MD5CINE_GL is exit 2" ||
    fail "unknown MD5CINE_GL: exit $rc, $(cat "$T/v.err")"

# --gl picks a backend by name and --progress json's first line names it; a device that does
# not exist is exit 3 naming it.
for gl in $MC_TEST_BACKENDS; do
    first=$("$M" render data/render/boxes.md5scene -o "$T/pick$gl.mp4" --gl=$gl --progress json |
        head -n 1)
    grep -q "\"gl\":{\"backend\":\"$gl\"" <<<"$first" && grep -q '"mesa":"' <<<"$first" &&
        ok "--gl=$gl: the progress stream opens with $gl's facts" || fail "--gl $gl: '$first'"
done
if has egl; then
    "$M" render data/render/boxes.md5scene -o "$T/dev.mp4" --gl egl --gl-device 9 2>"$T/dev.err"
    rc=$?
    [ $rc = 3 ] && grep -q "EGL device 9 does not exist" "$T/dev.err" && [ ! -e "$T/dev.mp4" ] &&
        ok "--gl-device 9: exit 3 naming the device" || fail "--gl-device 9: exit $rc"
fi
"$M" render data/render/boxes.md5scene -o "$T/x.mp4" --gl vulkan 2>/dev/null
[ $? = 2 ] && ok "--gl vulkan is a usage error" || fail "--gl vulkan"

# No GL library is linked: each backend opens its own at run time, so one binary starts where
# either is missing (and libGL/libOpenGL never meet OSMesa).
needed=$(readelf -d "$M" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
if grep -qiE 'osmesa|libegl|libgl|libopengl' <<<"$needed"; then
    fail "the binary links a GL library: $(tr '\n' ' ' <<<"$needed")"
else
    ok "no GL library among the binary's NEEDED entries"
fi

# doctor: every backend of the build starts and names Mesa's version as Debian's package has it,
# and the frame jobs a render starts by default: 1 on up to 3 cores, else half the cores, at
# most 16 (docs/speed.md), for the cores online as getconf counts them.
mesa=$(dpkg-query -W -f='${Version}' libgl1-mesa-dri 2>/dev/null | sed 's/-.*//')
cores=$(getconf _NPROCESSORS_ONLN)
"$M" doctor --json >"$T/doctor.json" 2>"$T/doctor.err"
rc=$?
if [ $rc = 0 ] && python3 - "$T/doctor.json" "$cores" "$mesa" $MC_TEST_BACKENDS <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
cores = int(sys.argv[2])
assert d["cores"] == cores, (d["cores"], cores)
assert d["jobs"] == (1 if cores <= 3 else min(16, cores // 2)), d
want, built = sys.argv[3], sys.argv[4:]
got = {b["backend"]: b for b in d["backends"]}
for name in built:
    b = got[name]
    assert b["ok"], b
    assert "llvmpipe" in b["renderer"], b
    assert b["mesa"] == want, (b["mesa"], want)
    assert b["samples"] == 4, b
for name, b in got.items():
    if name not in built:
        assert not b["ok"] and "this build has no" in b["error"], b
PY
    ok "doctor names each backend, llvmpipe and Mesa $mesa, and the default jobs on $cores cores"
else
    fail "doctor: exit $rc, $(cat "$T/doctor.json" "$T/doctor.err")"
fi
if has egl; then
    __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json "$M" doctor >"$T/doctor2.out" 2>&1
    rc=$?
    want=0
    has osmesa || want=3
    [ $rc = $want ] && grep -q "^egl .*unavailable: .*surfaceless" "$T/doctor2.out" &&
        ok "doctor without an EGL platform: egl unavailable, exit $want" ||
        fail "doctor without EGL: exit $rc, $(cat "$T/doctor2.out")"
fi

finish
