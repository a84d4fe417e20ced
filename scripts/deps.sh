#!/usr/bin/env bash
# Installs the Debian packages md5cine needs, skipping those already installed.
# usage: scripts/deps.sh [--test] [--package]
#   without options: what building and running md5cine and its library needs (cmake -S . -B build)
#   --test: plus what -DMC_BUILD_TESTS=ON requires (its configure step names a missing one)
#   --package: plus what the four Debian packages need to be built (docs/packaging.md)
# Runs apt-get directly as root, through sudo otherwise.
set -euo pipefail

# build-essential also brings g++, make and binutils: tests/install_check.sh compiles the public
# headers as C++ and builds examples/ with make, and reads the shared library with readelf/nm.
packages=(build-essential cmake pkg-config libosmesa6-dev libegl-dev libegl-mesa0 libgl1-mesa-dri
          libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
          libstb-dev zlib1g-dev libzip-dev)
# libzip-dev: the .pk4 (zip) archives of a scene's base folder. libswresample-dev: the sound
# track's resampling (libavcodec-dev already depends on it; named because md5cine includes it).
test=0
package=0
for arg in "$@"; do
    case $arg in
    --test) test=1 ;;
    --package) package=1 ;;
    *)
        echo "usage: scripts/deps.sh [--test] [--package]" >&2
        exit 2
        ;;
    esac
done
# file and dpkg-dev: cpack's DEB generator reads each installed file's type with file(1) and
# the shared libraries a binary needs with dpkg-shlibdeps (dpkg-dev), for the Depends lines.
# python3: the Python module's mirrors are written with it at build time (python3-md5cine has
# no files without it; a build with -DMC_PACKAGES=ON stops there).
if [ $package -eq 1 ]; then
    packages+=(file dpkg-dev python3)
fi
if [ $test -eq 1 ]; then
    # assimp: the independent implementation the pose tests agree with; ffmpeg: the command line
    # (ffmpeg, ffprobe) the video tests cross-check with; imagemagick (convert, identify) and
    # python3: pixel and JSON checks in the command-line tests and tests/install_check.sh; file:
    # reads a crafted PNG's header independently; chromium: opens the --report HTML page
    # headless (DOM dump, screenshot); libxml2-utils (xmllint): validates --junit against the
    # schema in tests/data/junit/;
    # clang + its runtime: the libFuzzer targets (-DMC_FUZZ=ON);
    # slurmctld, slurmd, slurm-client, munge: tests/farm_slurm_test.sh starts a private one-node
    # Slurm to run scripts/farm/slurm-submit.sh; parallel: GNU parallel for
    # scripts/farm/parallel-render.sh; python3-yaml: reads the Kubernetes manifests in a test;
    # time: GNU time (/usr/bin/time -v), the peak memory bench/hardening_bench.sh prints;
    # python3-numpy, python3-pytest: the Python module's tests (tests/python_*); dpkg-dev (with
    # file, above): tests/python_package_test.sh builds the Debian packages with cpack;
    # groff-base: tests/options_test.sh renders the man page with groff, warnings as errors.
    # vorbis-tools: oggdec decodes Ogg Vorbis with libvorbisfile, the library the engine plays
    # Vorbis with, the reference tests/audio_test.c holds stb_vorbis's samples and lengths to
    # (FFmpeg's Ogg reader drops the first 128 frames of a stream, so it cannot be); sox:
    # tests/audio_compare_test.c makes its tones and clicks with it.
    packages+=(libassimp-dev ffmpeg imagemagick python3 file chromium libxml2-utils clang
               libclang-rt-14-dev slurmctld slurmd slurm-client munge parallel python3-yaml
               time python3-numpy python3-pytest dpkg-dev groff-base vorbis-tools
               sox)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null; then
    sudo=(sudo)
else
    echo "md5cine: need root or sudo to install: ${missing[*]}" >&2
    exit 1
fi
echo "md5cine: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
