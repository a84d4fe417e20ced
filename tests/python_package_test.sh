#!/bin/bash
# The Debian packages: `cpack -G DEB` in the build folder (MC_BUILD_DIR) makes md5cine,
# libmd5cine0, libmd5cine-dev and python3-md5cine with the files and dependencies each needs;
# unpacked with `dpkg -x` into a fresh root (nothing is installed into the running system), the
# root builds examples/ through pkg-config and find_package, runs the example and the command
# against a reference, and imports the Python module, which finds the root's library by its own
# place. Runs in tests/.
set -u
: "${MC_BUILD_DIR:?MC_BUILD_DIR must name the build folder}" "${MC_PYTHON3:?MC_PYTHON3 must name python3}"
T="${MC_TEST_TMP:-/tmp}/python_package.$$"
rm -rf "$T" && mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
failures=0
check() { # check NAME COMMAND...: runs COMMAND, its output in $T/NAME.log
    local name=$1
    shift
    if "$@" >"$T/$name.log" 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        sed 's/^/    /' "$T/$name.log" | tail -30
        failures=$((failures + 1))
    fi
}
exits_with() { # exits_with CODE COMMAND...
    local want=$1 rc
    shift
    "$@"
    rc=$?
    echo "exit $rc (want $want)"
    [ "$rc" -eq "$want" ]
}
# A sanitized library needs its runtime in every program that loads it.
san_ld=""
san_env=()
if [ -n "${MC_PY_PRELOAD:-}" ]; then
    san_ld="-fsanitize=address,undefined"
    san_env=(LD_PRELOAD="$MC_PY_PRELOAD" ASAN_OPTIONS=detect_leaks=0)
fi

check cpack_makes_the_packages sh -c "cd '$MC_BUILD_DIR' && cpack -G DEB -B '$T/pkg'"
deb() { ls "$T/pkg/$1"_*.deb 2>/dev/null | head -1; }
for p in md5cine libmd5cine0 libmd5cine-dev python3-md5cine; do
    check "package_${p}_exists" test -f "$(deb $p)"
done

# Each package holds its own files and no other's.
holds() { # holds PACKAGE REGEX... : every regex matches a file of PACKAGE
    local list
    list=$(dpkg-deb -c "$(deb "$1")" | awk '{print $6}')
    echo "$list"
    shift
    for re in "$@"; do
        grep -Eq "$re" <<<"$list" || { echo "no file matches $re"; return 1; }
    done
}
lacks() { # lacks PACKAGE REGEX: no file of PACKAGE matches
    ! dpkg-deb -c "$(deb "$1")" | awk '{print $6}' | grep -E "$2"
}
check md5cine_holds_command_and_man_page holds md5cine '^\./usr/bin/md5cine$' \
    '^\./usr/share/man/man1/md5cine\.1'
check md5cine_holds_no_library lacks md5cine 'libmd5cine|include/'
check libmd5cine0_holds_the_shared_library holds libmd5cine0 '/libmd5cine\.so\.0$'
check libmd5cine0_holds_no_dev_files lacks libmd5cine0 '\.a$|\.h$|\.pc$|/libmd5cine\.so$|bin/'
check libmd5cine_dev_holds_dev_files holds libmd5cine-dev '/include/md5cine/md5cine\.h$' \
    '/include/md5cine/version\.h$' '/libmd5cine\.a$' '/libmd5cine\.so$' '/md5cine\.pc$' \
    '/cmake/md5cine/md5cineConfig\.cmake$' '/cmake/md5cine/md5cineTargets\.cmake$'
check python3_md5cine_holds_the_module holds python3-md5cine \
    '^\./usr/lib/python3/dist-packages/md5cine/__init__\.py$' '/md5cine/testing\.py$' \
    '/md5cine/_abi\.py$' '/md5cine/_structs\.py$' '/md5cine/_config\.py$' \
    '/md5cine/pytest_plugin\.py$' '/md5cine/_render\.py$' '/md5cine/_audio\.py$' \
    '/md5cine/_sound\.py$' '/md5cine/_check\.py$' \
    '/md5cine-[0-9.]*\.dist-info/entry_points\.txt$'

# scripts/deb_contents.sh (what scripts/package.sh and tests/package_route.sh check the packages
# with) passes these four, and fails a python3-md5cine without files, as cpack made it when
# python3 was missing, naming it and what it lacks.
check deb_contents_passes_the_packages "$MC_SOURCE_DIR/scripts/deb_contents.sh" "$T/pkg"
empty_python() {
    mkdir -p "$T/empty/DEBIAN" "$T/bad"
    printf 'Package: python3-md5cine\nVersion: 0\nArchitecture: all\nMaintainer: x <x@x>\nDescription: x\n' \
        >"$T/empty/DEBIAN/control"
    dpkg-deb --build "$T/empty" "$T/bad/python3-md5cine_0_all.deb" >/dev/null || return 1
    cp "$(deb md5cine)" "$(deb libmd5cine0)" "$(deb libmd5cine-dev)" "$T/bad/"
    "$MC_SOURCE_DIR/scripts/deb_contents.sh" "$T/bad" | tee "$T/bad.out"
    [ "${PIPESTATUS[0]}" -eq 1 ] && grep -q '^FAIL python3-md5cine: .*__init__' "$T/bad.out" &&
        [ "$(grep -c '^ok ' "$T/bad.out")" -eq 3 ]
}
check deb_contents_fails_an_empty_python_package empty_python
check python3_md5cine_suggests_pytest sh -c "dpkg-deb -f '$(deb python3-md5cine)' Suggests | grep -qx python3-pytest"

# Dependencies: ours exact, and every other one a package of this (Debian) system.
depends() { dpkg-deb -f "$(deb "$1")" Depends; }
has_dep() { # has_dep PACKAGE DEP
    depends "$1" | tr ',' '\n' | sed 's/^ *//' | grep -Fx -- "$2"
}
check dev_depends_on_exact_library has_dep libmd5cine-dev "libmd5cine0 (= $(dpkg-deb -f "$(deb libmd5cine0)" Version))"
check python_depends_on_numpy has_dep python3-md5cine python3-numpy
check python_depends_on_exact_library has_dep python3-md5cine "libmd5cine0 (= $(dpkg-deb -f "$(deb libmd5cine0)" Version))"
deps_installed() { # every dependency of PACKAGE but ours is an installed package here
    local d name
    depends "$1" | tr ',' '\n' | while read -r d; do
        name=${d%% *}
        [ -z "$name" ] && continue
        case "$name" in libmd5cine*) continue ;; esac
        dpkg-query -W -f='${Status}\n' "$name" | grep -q 'install ok installed' ||
            { echo "dependency $name is not an installed package"; exit 1; }
        echo "$name installed"
    done
}
for p in md5cine libmd5cine0 libmd5cine-dev python3-md5cine; do
    check "${p}_dependencies_exist" deps_installed "$p"
done
check library_depends_on_ffmpeg has_dep libmd5cine0 "$(depends libmd5cine0 | tr ',' '\n' |
    sed 's/^ *//' | grep '^libavcodec')"
check library_depends_on_gl_runtime has_dep libmd5cine0 libosmesa6
shlibs() { dpkg-deb -I "$(deb libmd5cine0)" shlibs | tee /dev/stderr | grep -q '^libmd5cine 0 libmd5cine0'; }
check library_has_a_shlibs_file shlibs

# A fresh root holding the four packages.
root="$T/root"
for p in md5cine libmd5cine0 libmd5cine-dev python3-md5cine; do
    check "dpkg_x_$p" dpkg -x "$(deb $p)" "$root"
done
pc=$(find "$root" -name md5cine.pc | head -1)
lib=$(dirname "$(find "$root" -name 'libmd5cine.so.0' | head -1)")
pydir="$root/usr/lib/python3/dist-packages"

W=48 H=27
scene="$MC_SOURCE_DIR/scenes/demo/demo.md5scene"
check packaged_command_renders env "${san_env[@]}" "$root/usr/bin/md5cine" render "$scene" \
    --size ${W}x$H --quiet -o "$T/ref/%05d.png"
cp -r "$T/ref" "$T/changed"
convert "$T/ref/00100.png" -fill '#ff00ff' -draw 'rectangle 10,5 30,20' "$T/changed/00100.png"

cp -r "$MC_SOURCE_DIR/examples" "$T/src"
# The packaged md5cine.pc names the prefix /usr as it is (clean flags there); unpacked elsewhere
# its prefix is given to pkg-config.
check pc_names_usr grep -qx 'prefix=/usr' "$pc"
check example_builds_with_pkg_config env PKG_CONFIG_PATH="$(dirname "$pc")" \
    make -C "$T/src" PKG_CONFIG="pkg-config --define-variable=prefix=$root/usr" \
    CFLAGS="-O2 -Wall -Wextra -Werror" LDFLAGS="-Wl,-rpath,$lib $san_ld" regression
check example_builds_with_find_package sh -c "
    cmake -S '$T/src' -B '$T/cm' -DCMAKE_PREFIX_PATH='$root/usr' -DCMAKE_C_FLAGS='-Werror' \
        -DCMAKE_EXE_LINKER_FLAGS='$san_ld' -DCMAKE_BUILD_RPATH='$lib' && cmake --build '$T/cm'"
uses_root_library() { ldd "$1"; ldd "$1" | grep -q "libmd5cine\.so\.0 => $lib/libmd5cine\.so\.0"; }
for exe in "$T/src/regression" "$T/cm/regression"; do
    n=$(basename "$(dirname "$exe")")
    [ -x "$exe" ] || continue
    check "example_${n}_uses_the_packaged_library" uses_root_library "$exe"
    check "example_${n}_passes_against_reference" exits_with 0 env "${san_env[@]}" "$exe" \
        "$scene" "$T/ref" $W $H
    check "example_${n}_fails_on_changed_reference" exits_with 1 env "${san_env[@]}" "$exe" \
        "$scene" "$T/changed" $W $H
done

# The module: imported from the root alone, it loads the root's library and renders frame 100
# exactly as the packaged command wrote it.
cat >"$T/imp.py" <<PY
import os, subprocess, sys
import numpy as np
import md5cine
assert md5cine.library_path == os.path.realpath("$lib/libmd5cine.so.0") or \
    os.path.realpath(md5cine.library_path) == os.path.realpath("$lib/libmd5cine.so.0"), md5cine.library_path
assert md5cine.__file__.startswith("$pydir/md5cine/"), md5cine.__file__
with md5cine.Scene("$scene") as s, s.renderer(width=$W, height=$H) as r:
    got = r.frame(100)
raw = subprocess.run(["convert", "$T/ref/00100.png", "-depth", "8", "rgba:-"],
                     capture_output=True, check=True).stdout
want = np.frombuffer(raw, dtype=np.uint8).reshape($H, $W, 4)
assert np.array_equal(got, want), "frame 100 differs"
from md5cine.testing import assert_frames_match
assert_frames_match("$scene", "$T/ref", frames=[0, 100], width=$W, height=$H, out_dir="$T/o1")
try:
    assert_frames_match("$scene", "$T/changed", frames=[100], width=$W, height=$H, out_dir="$T/o2")
    sys.exit("no failure on the changed reference")
except AssertionError as e:
    assert "$T/o2/report/index.html" in str(e), str(e)
print("imported from", md5cine.__file__, "library", md5cine.library_path)
PY
check module_imports_from_the_root env -u MD5CINE_LIBRARY PYTHONPATH="$pydir" "${san_env[@]}" \
    "$MC_PYTHON3" "$T/imp.py"

# pytest finds the fixture through the installed entry point, with no other setup.
mkdir -p "$T/suite"
cat >"$T/suite/test_pkg.py" <<PY
def test_frames(md5cine_frames):
    md5cine_frames("$scene", "$T/ref", frames=[0, 100], width=$W, height=$H)
PY
check pytest_fixture_from_the_root env -u MD5CINE_LIBRARY PYTHONPATH="$pydir" "${san_env[@]}" \
    "$MC_PYTHON3" -m pytest -q -p no:cacheprovider --basetemp="$T/pt" "$T/suite/test_pkg.py"

if [ "$failures" -ne 0 ]; then
    echo "python_package_test: $failures check(s) failed"
    trap - EXIT
    echo "(files kept in $T)"
    exit 1
fi
echo "python_package_test: all checks passed"
