#!/bin/bash
# The Debian packages the way a user gets them (docs/packaging.md), on a machine where
# none of md5cine's packages is installed, as root (`.ci/run` runs it first on a fresh Debian 12
# machine; it changes the system, so it is no ctest test):
#  1. The first block of docs/packaging.md, read from the page itself, runs as written in the
#     source tree, as root with no sudo (a `sudo` that fails stands on the PATH; apt answers yes):
#     scripts/package.sh builds the packages and apt-get installs them with everything they
#     depend on. scripts/deb_contents.sh finds in each .deb's file list what it must hold (the
#     module's files in python3-md5cine, the headers and md5cine.pc in libmd5cine-dev, ...).
#     Then the four packages are installed at the version the build made, and so is every
#     package they depend on.
#  2. With nothing of the source or build tree on any path (a scratch folder; `env -i`, PATH
#     /usr/bin:/bin, no PYTHONPATH, no LD_LIBRARY_PATH) the installed files are used as a user
#     uses them: /usr/bin/md5cine --version and a small render of the bundled demo (its files
#     copied into the scratch folder); the Python example and the pytest example of
#     docs/python.md, read from the page, run as written beside a copy of scenes/demo/ (they
#     make every other file they read), and the pytest example once more from nothing with
#     --md5cine-regen (python3-pytest installed through apt first when it is missing); the C
#     example of docs/library.md (its sh block: make -C examples, a reference, the check), as
#     written, and md5cine.pc's flags clean (no ${pcfiledir} path, no rpath in the program);
#     examples/ built with `make` (pkg-config) and with CMake's find_package, linked to the
#     installed libmd5cine.so.0, passing against a reference folder and failing (exit 1) on one
#     with a frame swapped.
#  3. On exit, whatever happened, the packages are purged (apt-get purge) and none is left.
# It refuses (exit 2) to run unless root, and where an md5cine is installed already (a package,
# or files under /usr/local, which would stand before /usr on every search path).
# usage: tests/package_route.sh        (from anywhere; CMAKE_BUILD_PARALLEL_LEVEL: build jobs)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
PKGS="md5cine libmd5cine0 libmd5cine-dev python3-md5cine"

if [ "$(id -u)" -ne 0 ]; then
    echo "package_route: must run as root: it installs md5cine's packages with apt-get and purges them" >&2
    exit 2
fi
# A package counts as there unless dpkg has it as not installed or as its config files only.
present() { # present PACKAGE: dpkg holds some of its files
    local st
    st=$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) || return 1
    [ -n "$st" ] && [ "$st" != not-installed ] && [ "$st" != config-files ]
}
there=""
for p in $PKGS; do
    if present "$p"; then there="$there $p"; fi
done
if [ -n "$there" ]; then
    echo "package_route: md5cine's packages are installed already:$there;" \
        "run it where they are not (apt-get purge$there)" >&2
    exit 2
fi
for f in /usr/local/bin/md5cine /usr/local/lib/pkgconfig/md5cine.pc \
    /usr/local/lib/python3/dist-packages/md5cine /usr/local/lib/cmake/md5cine; do
    if [ -e "$f" ]; then
        echo "package_route: $f is installed: an md5cine under /usr/local stands before" \
            "the packages' on the search paths; run it where there is none" >&2
        exit 2
    fi
done

export MD5CINE=/usr/bin/md5cine MC_TEST_TMP="${TMPDIR:-/tmp}"
. "$SRC/tests/harness.sh" package_route
W=$T/user # the user's folder: every step of part 2 runs there
mkdir -p "$W/home" "$W/tmp"

purge() {
    local rc=$? left="" p
    trap - EXIT INT TERM
    for p in $PKGS; do
        if present "$p"; then left="$left $p"; fi
    done
    if [ -n "$left" ]; then
        echo "package_route: purging$left" >&2
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $left >"$T/purge.log" 2>&1 ||
            { tail -20 "$T/purge.log" >&2; rc=1; }
    fi
    left=$(dpkg -l | grep md5cine || true)
    if [ -n "$left" ]; then
        echo "FAIL packages_are_purged: still there: $left"
        rc=1
    fi
    if [ "$rc" -eq 0 ]; then rm -rf "$T"; else echo "(files kept in $T)"; fi
    exit "$rc"
}
trap purge EXIT
trap 'exit 130' INT TERM

# ---- 1. the commands of docs/packaging.md
awk '/^# Debian packages/ { in_s = 1; next }
     in_s && /^```sh$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/docs/packaging.md" >"$T/readme_block.sh"
if grep -q '^scripts/package.sh' "$T/readme_block.sh" &&
    grep -q 'apt-get install .*\.deb' "$T/readme_block.sh"; then
    ok the_readme_block_is_found
else
    fail the_readme_block_is_found "$T/readme_block.sh: $(cat "$T/readme_block.sh")"
fi
# As root the block calls no sudo (one that fails stands first on the PATH, as on a fresh
# Debian where there is none); apt takes yes for an answer.
printf 'APT::Get::Assume-Yes "true";\n' >"$T/apt.conf"
mkdir -p "$T/nosudo"
printf '#!/bin/sh\necho "sudo $*: called as root" >&2\nexit 1\n' >"$T/nosudo/sudo"
chmod +x "$T/nosudo/sudo"
start=$(date +%s)
if (cd "$SRC" && PATH="$T/nosudo:$PATH" APT_CONFIG="$T/apt.conf" \
    DEBIAN_FRONTEND=noninteractive bash -e -o pipefail -x "$T/readme_block.sh") \
    >"$T/readme_block.log" 2>&1; then
    ok "the_readme_block_runs ($(($(date +%s) - start)) s)"
else
    fail the_readme_block_runs "the last lines:"
    tail -n 25 "$T/readme_block.log" | sed 's/^/     | /'
fi
debs=$(grep -o '\./[^ ]*\.deb' "$T/readme_block.sh" | head -1)
if (cd "$SRC" && scripts/deb_contents.sh "$(dirname "$debs")") >"$T/deb_contents.log" 2>&1; then
    ok "each_package_holds_its_files ($(tr '\n' ';' <"$T/deb_contents.log"))"
else
    fail each_package_holds_its_files "$(cat "$T/deb_contents.log")"
fi
if dpkg-deb -f "$SRC/$(dirname "$debs")"/python3-md5cine_*.deb Suggests | grep -qw python3-pytest; then
    ok python3_md5cine_suggests_python3_pytest
else
    fail python3_md5cine_suggests_python3_pytest
fi
version=$(cd "$SRC" && for d in $debs; do dpkg-deb -f "$d" Version; done | sort -u)
missing=""
for p in $PKGS; do
    [ "$(dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null)" = "install ok installed $version" ] ||
        missing="$missing $p"
done
if [ -n "$version" ] && [ -z "$missing" ]; then
    ok "the_four_packages_are_installed ($version)"
else
    fail the_four_packages_are_installed "version '$version' of $debs; not installed:$missing"
fi
if [ "$failed" -ne 0 ]; then
    echo "$passed passed, $failed failed: nothing installed to check"
    exit 1
fi
# Every dependency apt had to bring is installed (python3, python3-numpy among them).
unmet=""
for p in $PKGS; do
    for d in $(dpkg-query -W -f='${Depends}' "$p" | tr ',' '\n' | sed 's/^ *//; s/ .*//'); do
        [ "$(dpkg-query -W -f='${Status}' "$d" 2>/dev/null)" = "install ok installed" ] ||
            unmet="$unmet $p->$d"
    done
done
if [ -z "$unmet" ]; then ok every_dependency_is_installed; else fail every_dependency_is_installed "$unmet"; fi
for d in python3 python3-numpy; do
    if dpkg-query -W -f='${Depends}' python3-md5cine | tr ',' '\n' | sed 's/^ *//; s/ .*//' |
        grep -qx "$d"; then
        ok "python3_md5cine_depends_on_$d"
    else
        fail "python3_md5cine_depends_on_$d"
    fi
done

# ---- 2. as a user, with only what the packages installed
# user NAME CMD...: CMD in the user's folder, in an environment of nothing but a minimal PATH,
# HOME and TMPDIR; its output in $T/NAME.log and its status in $rc
user() {
    local name=$1
    shift
    rc=0
    (cd "$W" && env -i PATH=/usr/bin:/bin HOME="$W/home" TMPDIR="$W/tmp" LANG=C.UTF-8 "$@") \
        >"$T/$name.log" 2>&1 || rc=$?
}
# step NAME WANT CMD...: a user step that must exit WANT
step() {
    local name=$1 want=$2
    shift 2
    user "$name" "$@"
    check_status "$name" "$want" "$T/$name.log"
}
has() { # has NAME TEXT: step NAME's output holds TEXT
    if grep -qF -- "$2" "$T/$1.log"; then ok "$1 prints $2"; else fail "$1 prints $2" "$(head -c 400 "$T/$1.log")"; fi
}
libfile=$(dpkg -L libmd5cine0 | grep '/libmd5cine\.so\.0$')

step md5cine_is_the_installed_one 0 sh -c 'command -v md5cine'
has md5cine_is_the_installed_one /usr/bin/md5cine
step md5cine_version 0 md5cine --version
has md5cine_version "$version"
# The demo's files, as a user has them in a clone (scenes/ is data; nothing built).
mkdir -p "$W/scenes" "$W/cuts"
cp -r "$SRC/scenes/demo" "$W/scenes/"
step small_render_of_the_demo 0 md5cine render scenes/demo/demo.md5scene --size 64x36 \
    --frames 0-3 --quiet -o tiny/%05d.png
n=$(ls "$W"/tiny/0000[0-3].png 2>/dev/null | wc -l)
if [ "$n" -eq 4 ]; then ok small_render_wrote_4_frames; else fail small_render_wrote_4_frames "$n files"; fi

# The Python page's example: the first ```python block of docs/python.md, run beside the demo's
# files; it makes golden/, out/, the videos and broken.md5scene itself.
awk '/^# Python/ { in_s = 1; next }
     in_s && /^```python$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/docs/python.md" >"$W/example.py"
step readme_python_example 0 python3 example.py
has readme_python_example "24 241 [(1, 0, 83)"
has readme_python_example "broken.md5scene:3:5: error: unknown keyword 'colour'"
has readme_python_example "True True True 12"
if grep -q '^True 24 *$' "$T/readme_python_example.log"; then
    ok readme_python_example_check_passes
else
    fail readme_python_example_check_passes "$(head -c 600 "$T/readme_python_example.log")"
fi
# The module and the library the example used are the packages' own.
step module_is_the_installed_one 0 python3 -c '
import sys, md5cine
print(md5cine.__file__, md5cine.library_path, sys.path)
assert md5cine.__file__ == "/usr/lib/python3/dist-packages/md5cine/__init__.py", md5cine.__file__
assert not any(p.startswith("'"$SRC"'") for p in sys.path)'
has module_is_the_installed_one "$(basename "$libfile")"
user module_library python3 -c 'import os, md5cine; print(os.path.realpath(md5cine.library_path))'
if [ "$(cat "$T/module_library.log")" = "$(realpath "$libfile")" ]; then
    ok module_loads_the_packaged_library
else
    fail module_loads_the_packaged_library "$(cat "$T/module_library.log") is not $libfile"
fi

# The pytest example of docs/python.md: its test file and the sh block after it (the reference,
# then pytest), as written; then the same test file from nothing with --md5cine-regen.
if ! dpkg-query -W -f='${Status}' python3-pytest 2>/dev/null | grep -q 'install ok installed'; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-pytest \
        >"$T/pytest_install.log" 2>&1 || { fail python3_pytest_installs "$(tail -5 "$T/pytest_install.log")"; }
fi
mkdir -p "$W/pt/scenes" "$W/regen/scenes"
awk '/^## The pytest helper/ { in_s = 1; next }
     in_s && /^```python$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/docs/python.md" >"$W/pt/test_cutscenes.py"
awk '/^## The pytest helper/ { in_s = 1; next }
     in_s && /^```sh$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/docs/python.md" >"$W/pytest_block.sh"
cp -r "$W/scenes/demo" "$W/pt/scenes/" && cp -r "$W/scenes/demo" "$W/regen/scenes/"
cp "$W/pt/test_cutscenes.py" "$W/regen/"
step readme_pytest_example 0 sh -c 'cd pt && bash -e -o pipefail ../pytest_block.sh'
has readme_pytest_example "2 passed"
step pytest_regen_writes_the_references 1 sh -c \
    'cd regen && pytest -q -p no:cacheprovider --md5cine-regen test_cutscenes.py'
has pytest_regen_writes_the_references "1 failed, 1 passed"
has pytest_regen_writes_the_references "wrote 12 of 12 reference frames into golden/intro"
step pytest_after_regen_passes 0 sh -c 'cd regen && pytest -q -p no:cacheprovider test_cutscenes.py'
has pytest_after_regen_passes "2 passed"

# The C example of docs/library.md: the sh block after its ```c block, as written, in a folder
# holding examples/ and the demo (md5cine.pc's flags for /usr: nothing to add, no rpath).
mkdir -p "$W/c/scenes"
cp -r "$SRC/examples" "$W/c/examples" && cp -r "$W/scenes/demo" "$W/c/scenes/"
rm -f "$W/c/examples/regression"
awk '/^```c$/ { after_c = 1; next }
     after_c && /^```sh$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/docs/library.md" >"$W/c_block.sh"
step readme_c_example 0 sh -c 'cd c && bash -e -o pipefail ../c_block.sh'
# pkg-config ends each list with a space: trimmed, the libraries for /usr are -lmd5cine alone
# (the flags: FFmpeg's own -I/usr/include/<multiarch>, of md5cine.pc's Requires.private)
step pkg_config_flags 0 sh -c 'echo "[$(pkg-config --cflags md5cine | sed "s/ *\$//")]" \
    "[$(pkg-config --libs md5cine | sed "s/ *\$//")]"'
has pkg_config_flags "] [-lmd5cine]"
if grep -Eq 'pkgconfig|-I/usr/include( |\])' "$T/pkg_config_flags.log"; then
    fail pkg_config_flags_are_clean "$(cat "$T/pkg_config_flags.log")"
else
    ok pkg_config_flags_are_clean
fi
step regression_has_no_rpath 0 sh -c 'readelf -d c/examples/regression'
if grep -Eq 'RPATH|RUNPATH' "$T/regression_has_no_rpath.log"; then
    fail regression_has_no_rpath "$(grep -E 'RPATH|RUNPATH' "$T/regression_has_no_rpath.log")"
fi

# examples/, built against the -dev package as docs/library.md's "Install" says for /usr.
cp -r "$SRC/examples" "$W/examples"
rm -f "$W/examples/regression"
step example_builds_with_make 0 make -C examples CFLAGS="-O2 -Wall -Wextra -Werror"
step example_builds_with_find_package 0 sh -c \
    'cmake -S examples -B build-examples -DCMAKE_C_FLAGS=-Werror && cmake --build build-examples'
step example_reference 0 md5cine render scenes/demo/demo.md5scene --size 64x36 --quiet \
    -o ref/%05d.png
# the changed reference: frame 100 (second shot) swapped for frame 0 (first shot)
cp -r "$W/ref" "$W/changed"
cp "$W/ref/00000.png" "$W/changed/00100.png"
for exe in examples/regression build-examples/regression; do
    n=${exe%%/*}
    user "ldd_$n" ldd "$exe"
    if grep -q "libmd5cine\.so\.0 => " "$T/ldd_$n.log" &&
        [ "$(realpath "$(grep -o 'libmd5cine\.so\.0 => [^ ]*' "$T/ldd_$n.log" | sed 's/.* => //')")" = \
            "$(realpath "$libfile")" ]; then
        ok "${n}_regression_uses_the_packaged_library"
    else
        fail "${n}_regression_uses_the_packaged_library" "$(cat "$T/ldd_$n.log")"
    fi
    step "${n}_regression_passes" 0 "$exe" scenes/demo/demo.md5scene ref 64 36
    step "${n}_regression_fails_on_a_changed_frame" 1 "$exe" scenes/demo/demo.md5scene changed 64 36
done

finish
