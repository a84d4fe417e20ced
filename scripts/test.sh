#!/usr/bin/env bash
# Sets up (packages, build with warnings as errors) and runs the whole test suite twice:
# a plain build, then an AddressSanitizer + UndefinedBehaviorSanitizer build. After the plain
# suite, tests/install_check.sh installs that build to a temporary prefix and builds and runs
# examples/ against it (pkg-config and find_package) and the public headers as C++.
# usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs="$(nproc)"

cmake -S . -B build/test -DMC_BUILD_TESTS=ON -DMC_WERROR=ON >/dev/null
cmake --build build/test -j"$jobs"
ctest --test-dir build/test --output-on-failure -j"$jobs"
tests/install_check.sh build/test

if [ "${1:-}" != "--no-sanitize" ]; then
    cmake -S . -B build/asan -DMC_BUILD_TESTS=ON -DMC_WERROR=ON -DMC_SANITIZE=ON \
          -DCMAKE_BUILD_TYPE=Debug >/dev/null
    cmake --build build/asan -j"$jobs"
    ctest --test-dir build/asan --output-on-failure -j"$jobs"
fi
