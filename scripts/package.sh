#!/usr/bin/env bash
# Builds md5cine's Debian packages (docs/packaging.md): installs what building them needs
# (scripts/deps.sh --package: the build packages and python3, which the Python module is written
# with), makes a Release build for the prefix /usr in BUILD (the library, the command, the
# Python module; no tests) with -DMC_PACKAGES=ON, whose configure step stops, saying why, where
# a package's files could not be built, and runs `cpack -G DEB` there, which writes
# BUILD/md5cine_*.deb, libmd5cine0_*.deb, libmd5cine-dev_*.deb and python3-md5cine_*.deb.
# Then scripts/deb_contents.sh reads each package's file list: a package without the files it
# must hold is removed, with the others, and the script fails naming what is missing, so BUILD
# never holds an empty package. Packages of an earlier run in BUILD are removed first, so
# BUILD/*.deb is this version's four. CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs
# (default: one per core).
# usage: scripts/package.sh [BUILD]          (default build/package)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
-*)
    echo "usage: scripts/package.sh [BUILD]" >&2
    exit 2
    ;;
esac
build=${1:-build/package}
scripts/deps.sh --package
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DMC_PACKAGES=ON
cmake --build "$build" -j "${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB) >"$build/cpack.log" 2>&1 ||
    { cat "$build/cpack.log" >&2; echo "md5cine: cpack -G DEB failed (above)" >&2; exit 1; }
if ! scripts/deb_contents.sh "$build" >&2; then
    rm -f "$build"/*.deb
    echo "md5cine: a package lacks files it must hold (above); none is left in $build" \
        "(cpack's log: $build/cpack.log)" >&2
    exit 1
fi
echo "md5cine: the packages, for \`apt-get install ./$build/*.deb\`:" >&2
ls "$build"/*.deb
