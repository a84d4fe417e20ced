#!/usr/bin/env bash
# The installed package, used the way a C or C++ program uses it. Not a ctest test (it installs
# the build and builds programs against it); scripts/test.sh runs it after the suite.
# usage: tests/install_check.sh BUILD_DIR
#
# 1. `cmake --install BUILD_DIR --prefix TMP` lays out bin/, lib/ (libmd5cine.a, libmd5cine.so
#    with its SONAME), include/md5cine/, pkg-config and CMake package files and the man page.
# 2. The version is one: mc_version() in the library, MC_VERSION_STRING in the installed
#    version.h, pkg-config --modversion, the .so's file name, `md5cine --version`, the man page.
# 3. Every public header compiles on its own as C++11 with -Wall -Wextra -Werror -pedantic, and a
#    C++ program calling the library through md5cine.h links (extern "C").
# 4. examples/regression.c builds against the prefix four ways: pkg-config (shared, static) and
#    find_package (md5cine::md5cine, md5cine::md5cine_static). Each build renders the demo at a
#    small size against a reference folder rendered by the installed md5cine (exit 0) and against
#    that folder with a rectangle drawn into one frame by ImageMagick (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="$(cd "${1:?usage: tests/install_check.sh BUILD_DIR}" && pwd)"
T="$build/install-check"
rm -rf "$T"
mkdir -p "$T"
prefix="$T/prefix"
failures=0

check() { # check NAME COMMAND...: runs COMMAND, reports NAME
    local name="$1"
    shift
    if "$@" >"$T/$name.log" 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name (exit $?)"
        sed 's/^/     | /' "$T/$name.log" | tail -n 30
        failures=$((failures + 1))
    fi
}

exits_with() { # exits_with CODE COMMAND...: COMMAND's exit status is CODE
    local want="$1" rc=0
    shift
    "$@" || rc=$?
    [ "$rc" -eq "$want" ] || { echo "exit status $rc, expected $want"; return 1; }
}

cmake --install "$build" --prefix "$prefix" >"$T/install.log"
lib="$prefix/lib"
[ -d "$lib" ] || lib="$(dirname "$(find "$prefix" -name libmd5cine.a | head -n 1)")"
export PKG_CONFIG_PATH="$lib/pkgconfig"

# ---------------------------------------------------------------------------- layout
layout() {
    local f
    for f in bin/md5cine include/md5cine/md5cine.h include/md5cine/version.h \
             share/man/man1/md5cine.1; do
        [ -f "$prefix/$f" ] || { echo "missing $f"; return 1; }
    done
    for f in libmd5cine.a pkgconfig/md5cine.pc cmake/md5cine/md5cineConfig.cmake \
             cmake/md5cine/md5cineConfigVersion.cmake cmake/md5cine/md5cineTargets.cmake; do
        [ -f "$lib/$f" ] || { echo "missing lib/$f"; return 1; }
    done
    # Every header the source tree and the build publish is installed.
    for f in "$root"/include/md5cine/*.h; do
        cmp "$f" "$prefix/include/md5cine/$(basename "$f")" || return 1
    done
}
check installs_binary_libraries_headers_and_package_files layout

# md5cine.h includes every other installed header.
umbrella() {
    local h ok=0
    for h in "$prefix"/include/md5cine/*.h; do
        h="$(basename "$h")"
        [ "$h" = md5cine.h ] && continue
        grep -qx "#include <md5cine/$h>" "$prefix/include/md5cine/md5cine.h" ||
            { echo "md5cine.h does not include $h"; ok=1; }
    done
    return $ok
}
check umbrella_header_includes_every_header umbrella

# libmd5cine.so -> libmd5cine.so.N (the SONAME) -> libmd5cine.so.MAJOR.MINOR.PATCH
header_version="$(sed -n 's/^#define MC_VERSION_STRING "\(.*\)"$/\1/p' \
                  "$prefix/include/md5cine/version.h")"
soname() {
    local so
    so="$(readelf -d "$lib/libmd5cine.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
    echo "SONAME $so, headers $header_version"
    [[ "$so" =~ ^libmd5cine\.so\.[0-9]+$ ]] || return 1
    [ "$(readlink "$lib/libmd5cine.so")" = "$so" ] || return 1
    [ "$(readlink "$lib/$so")" = "libmd5cine.so.$header_version" ] || return 1
    [ -f "$lib/libmd5cine.so.$header_version" ] && [ ! -L "$lib/libmd5cine.so.$header_version" ]
}
check shared_library_has_soversion soname

# Only the mc_ API is exported from the shared library.
exports() {
    local other
    other="$(nm -D --defined-only "$lib/libmd5cine.so" | awk '$2 ~ /[TDRB]/ && $3 !~ /^mc_/')"
    [ -z "$other" ] || { echo "exported besides mc_*: $other"; return 1; }
    nm -D --defined-only "$lib/libmd5cine.so" | grep ' T mc_version$'
}
check shared_library_exports_only_mc_symbols exports

# ---------------------------------------------------------------------------- version
cat >"$T/version.c" <<'EOF'
#include <md5cine/version.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    char macros[64];
    snprintf(macros, sizeof macros, "%d.%d.%d", MC_VERSION_MAJOR, MC_VERSION_MINOR,
             MC_VERSION_PATCH);
    printf("%s\n", mc_version());
    return strcmp(mc_version(), MC_VERSION_STRING) != 0 || strcmp(macros, MC_VERSION_STRING) != 0;
}
EOF
version() {
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -o "$T/version" "$T/version.c" \
        $(pkg-config --cflags --libs md5cine) -Wl,-rpath,"$lib"
    local lib_version cli_version man_version
    lib_version="$("$T/version")"
    cli_version="$("$prefix/bin/md5cine" --version)"
    man_version="$(sed -n 's/^\.TH MD5CINE 1 "[^"]*" "md5cine \([^"]*\)".*/\1/p' \
                   "$prefix/share/man/man1/md5cine.1")"
    echo "mc_version() $lib_version, version.h $header_version," \
         "pkg-config $(pkg-config --modversion md5cine), md5cine --version '$cli_version'," \
         "man page $man_version"
    [ "$lib_version" = "$header_version" ] &&
        [ "$(pkg-config --modversion md5cine)" = "$header_version" ] &&
        [ "$cli_version" = "md5cine $header_version" ] &&
        [ "$man_version" = "$header_version" ]
}
check mc_version_matches_installed_version_h version

# ---------------------------------------------------------------------------- C++
cxx_headers() {
    local h ok=0
    for h in "$prefix"/include/md5cine/*.h; do
        printf '#include <md5cine/%s>\n' "$(basename "$h")" >"$T/one.cpp"
        g++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$prefix/include" -fsyntax-only \
            "$T/one.cpp" || { echo "$(basename "$h") does not compile as C++"; ok=1; }
    done
    return $ok
}
check every_public_header_compiles_as_cxx11 cxx_headers

cat >"$T/all.cpp" <<'EOF'
#include <md5cine/md5cine.h>

#include <cstdio>
#include <cstring>

int main()
{
    mc_error err = mc_error();
    mc_error_set(&err, MC_ERR_IO, "x.md5mesh", 3, 4, "%s", "unreadable");
    std::printf("%s %s %s\n", mc_version(), mc_status_name(err.code), err.msg);
    return std::strcmp(mc_version(), MC_VERSION_STRING) != 0 || err.line != 3;
}
EOF
cxx_links() {
    # shellcheck disable=SC2046
    g++ -std=c++11 -Wall -Wextra -Werror -pedantic -o "$T/all" "$T/all.cpp" \
        $(pkg-config --cflags --libs md5cine) -Wl,-rpath,"$lib" && "$T/all"
}
check cxx_program_links_the_c_library cxx_links

# ---------------------------------------------------------------------------- examples
W=160 H=90
scene="$root/scenes/demo/demo.md5scene"
check md5cine_renders_the_reference "$prefix/bin/md5cine" render "$scene" --size ${W}x$H \
    --quiet -o "$T/ref/%05d.png"
cp -r "$T/ref" "$T/changed"
convert "$T/ref/00007.png" -fill '#ff00ff' -draw 'rectangle 40,20 80,60' "$T/changed/00007.png"

cp -r "$root/examples" "$T/src"
# pkg-config: the Makefile, shared and static.
check example_builds_with_pkg_config \
    make -C "$T/src" CFLAGS="-O2 -Wall -Wextra -Werror" LDFLAGS="-Wl,-rpath,$lib" regression
mv "$T/src/regression" "$T/regression_pc" 2>/dev/null || true
check example_builds_with_pkg_config_static make -C "$T/src" STATIC=1 regression
mv "$T/src/regression" "$T/regression_pc_static" 2>/dev/null || true
# The line of docs/library.md ("Install"), as written: PREFIX alone, no PKG_CONFIG_PATH in the environment; the
# program runs without LD_LIBRARY_PATH (the Makefile's rpath) and uses the prefix's library.
check example_builds_with_the_readmes_make_line \
    env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH make -C "$T/src" PREFIX="$prefix" regression
check example_of_the_readme_runs_without_ld_library_path sh -c "
    env -u LD_LIBRARY_PATH '$T/src/regression' 2>&1 | grep -q 'usage: regression' &&
    ldd '$T/src/regression' | grep -q 'libmd5cine\.so\.[0-9]* => $lib/libmd5cine\.so'"
rm -f "$T/src/regression"
# find_package: examples/CMakeLists.txt, md5cine::md5cine and md5cine::md5cine_static.
check example_builds_with_find_package sh -c "
    cmake -S '$T/src' -B '$T/cm' -DCMAKE_PREFIX_PATH='$prefix' -DCMAKE_C_FLAGS='-Werror' &&
    cmake --build '$T/cm' && cp '$T/cm/regression' '$T/regression_cmake'"
check example_builds_with_find_package_static sh -c "
    cmake -S '$T/src' -B '$T/cms' -DCMAKE_PREFIX_PATH='$prefix' -DMD5CINE_STATIC=ON &&
    cmake --build '$T/cms' && cp '$T/cms/regression' '$T/regression_cmake_static'"

linked_to() { # linked_to BIN shared|static: BIN uses the prefix's libmd5cine.so, or none
    local deps
    deps="$(ldd "$1")"
    echo "$deps"
    if [ "$2" = shared ]; then
        grep -q "libmd5cine\.so\.[0-9]* => $lib/libmd5cine\.so\.[0-9]" <<<"$deps"
    else
        ! grep -q libmd5cine <<<"$deps"
    fi
}
for b in pc:shared pc_static:static cmake:shared cmake_static:static; do
    exe="$T/regression_${b%%:*}"
    [ -x "$exe" ] || continue
    check "example_${b%%:*}_links_${b#*:}" linked_to "$exe" "${b#*:}"
    check "example_${b%%:*}_passes_against_reference" exits_with 0 "$exe" "$scene" "$T/ref" $W $H
    check "example_${b%%:*}_fails_on_changed_reference" exits_with 1 "$exe" "$scene" "$T/changed" \
        $W $H
done
if [ -x "$T/regression_pc" ]; then
    rm -rf "$T/missing" && cp -r "$T/ref" "$T/missing" && rm "$T/missing/00011.png"
    check example_fails_on_missing_reference_frame exits_with 1 "$T/regression_pc" "$scene" \
        "$T/missing" $W $H
    check example_reports_bad_scene_as_error exits_with 2 "$T/regression_pc" \
        "$T/no_such.md5scene" "$T/ref" $W $H
fi

if [ "$failures" -ne 0 ]; then
    echo "install_check: $failures check(s) failed (logs in $T)"
    exit 1
fi
echo "install_check: all checks passed"
