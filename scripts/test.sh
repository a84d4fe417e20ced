#!/usr/bin/env bash
# Sets up (packages, build with warnings as errors) and runs the whole test suite twice:
# a plain build, then an AddressSanitizer + UndefinedBehaviorSanitizer build.
# usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test
jobs="$(nproc)"

cmake -S . -B build/test -DMC_WERROR=ON >/dev/null
cmake --build build/test -j"$jobs"
ctest --test-dir build/test --output-on-failure -j"$jobs"

if [ "${1:-}" != "--no-sanitize" ]; then
    cmake -S . -B build/asan -DMC_WERROR=ON -DMC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
    cmake --build build/asan -j"$jobs"
    ctest --test-dir build/asan --output-on-failure -j"$jobs"
fi
