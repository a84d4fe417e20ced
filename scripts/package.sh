#!/usr/bin/env bash
# Builds md5cine's Debian packages (docs/packaging.md): installs what building them needs
# (scripts/deps.sh --package), makes a Release build for the prefix /usr in BUILD (the library,
# the command, the Python module; no tests) and runs `cpack -G DEB` there, which writes
# BUILD/md5cine_*.deb, libmd5cine0_*.deb, libmd5cine-dev_*.deb and python3-md5cine_*.deb.
# Packages of an earlier run in BUILD are removed first, so BUILD/*.deb is this version's four.
# CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs (default: one per core).
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
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
cmake --build "$build" -j "${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
echo "md5cine: the packages, for \`apt-get install ./$build/*.deb\`:" >&2
ls "$build"/*.deb
