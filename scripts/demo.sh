#!/usr/bin/env bash
# Sets up (the runtime packages, a build without tests) and renders the bundled demo to an MP4.
# usage: scripts/demo.sh [OUT.mp4] [extra render options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target md5cine
out="${1:-demo.mp4}"
shift || true
build/release/src/md5cine render scenes/demo/demo.md5scene -o "$out" "$@"
