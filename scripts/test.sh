#!/usr/bin/env bash
# Sets up (packages, build with warnings as errors) and runs the whole test suite: the plain
# build once per GL backend (MD5CINE_GL=egl, then osmesa), a build without OSMesa
# (-DMC_OSMESA=OFF, EGL only; a Release build, so -O3's warnings are errors too; its fast tests
# and the backend test), then an
# AddressSanitizer + UndefinedBehaviorSanitizer build (the tests labelled "once", whose outcome
# no backend or build flag changes, with the first pass only: tests/CMakeLists.txt).
# After the plain suite, tests/install_check.sh installs that build to a temporary prefix and builds and runs
# examples/ against it (pkg-config and find_package) and the public headers as C++.
# --quick: one Release build (-Werror, both backends built in) and every ctest test once, through
# EGL; what a change is checked with before the whole run.
# usage: scripts/test.sh [--quick | --no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
"" | --quick | --no-sanitize) ;;
*)
    echo "usage: scripts/test.sh [--quick | --no-sanitize]" >&2
    exit 2
    ;;
esac
scripts/deps.sh --test
jobs="$(nproc)"

if [ "${1:-}" = "--quick" ]; then
    echo "md5cine: the suite on a Release build through egl" >&2
    cmake -S . -B build/quick -DMC_BUILD_TESTS=ON -DMC_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
          >/dev/null
    cmake --build build/quick -j"$jobs"
    MD5CINE_GL=egl ctest --test-dir build/quick --output-on-failure -j"$jobs"
    exit 0
fi

cmake -S . -B build/test -DMC_BUILD_TESTS=ON -DMC_WERROR=ON >/dev/null
cmake --build build/test -j"$jobs"
echo "md5cine: the suite through egl" >&2
MD5CINE_GL=egl ctest --test-dir build/test --output-on-failure -j"$jobs"
# the passes below leave out the tests labelled "once" (tests/CMakeLists.txt): what they check
# is the same whatever the backend or the build
echo "md5cine: the suite through osmesa" >&2
MD5CINE_GL=osmesa ctest --test-dir build/test --output-on-failure -j"$jobs" -LE 'once|nogl'
tests/install_check.sh build/test

echo "md5cine: the suite on a Release build without OSMesa" >&2
cmake -S . -B build/no-osmesa -DMC_BUILD_TESTS=ON -DMC_WERROR=ON -DMC_OSMESA=OFF \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/no-osmesa -j"$jobs"
# The tests labelled "fast" (most of the suite; the long renders ran through EGL above, with the
# same code) and the backend test, which checks what a build without OSMesa says and does: the
# whole run stays under CI's 45 minutes.
ctest --test-dir build/no-osmesa --output-on-failure -j"$jobs" -L fast -LE once
ctest --test-dir build/no-osmesa --output-on-failure -R '^cli_gl_backends$'

if [ "${1:-}" != "--no-sanitize" ]; then
    cmake -S . -B build/asan -DMC_BUILD_TESTS=ON -DMC_WERROR=ON -DMC_SANITIZE=ON \
          -DCMAKE_BUILD_TYPE=Debug >/dev/null
    cmake --build build/asan -j"$jobs"
    ctest --test-dir build/asan --output-on-failure -j"$jobs" -LE once
fi
