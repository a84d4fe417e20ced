#!/usr/bin/env bash
# The Debian packages and the docs' examples on fresh Debian 12 systems, as a new user meets
# them (docs/packaging.md, "Fresh roots"); slow (a system built twice, md5cine built once), so
# no part of CI. As root, with debootstrap (Debian package debootstrap) and Debian's mirror:
#  1. debootstrap makes a minimal Debian 12 root (WORK/build), the source tree is copied into
#     it (git's tracked and untracked files, no build folders) and the block of
#     docs/packaging.md runs there as written, as root: scripts/package.sh installs what the
#     build needs, builds the four packages and apt-get installs them; scripts/deb_contents.sh
#     checks each package's files.
#  2. A second fresh root (WORK/use) gets the four .deb files and nothing else of the source
#     but scenes/ and examples/ (what the examples name), installs the packages with the
#     block's `apt-get install` line, and runs there, as written, each in a folder of its own:
#     the Python example of docs/python.md, its pytest example (the test file and the sh block:
#     python3-pytest installed, the reference rendered, pytest), and the C example of
#     docs/library.md (its sh block: build-essential and pkg-config installed, make -C examples,
#     the reference, the check).
# apt answers yes in both roots (no terminal). Each step's output is in WORK/logs/STEP.log; the
# summary ("ok STEP (N s)" / "FAIL STEP", then "N passed, N failed") goes to stdout and to
# WORK/logs/summary.txt. The roots are removed at the end unless --keep.
# usage: scripts/fresh_root_check.sh [--keep] [WORK]   (default WORK: /var/tmp/md5cine-roots)
#        MIRROR=URL (default http://deb.debian.org/debian)
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
keep=0
if [ "${1:-}" = --keep ]; then keep=1; shift; fi
case "${1:-}" in -*) echo "usage: scripts/fresh_root_check.sh [--keep] [WORK]" >&2; exit 2 ;; esac
WORK=${1:-/var/tmp/md5cine-roots}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
if [ "$(id -u)" -ne 0 ]; then
    echo "fresh_root_check: must run as root (debootstrap, chroot, mount)" >&2
    exit 2
fi
if ! command -v debootstrap >/dev/null; then
    echo "fresh_root_check: needs debootstrap (apt-get install debootstrap)" >&2
    exit 2
fi
B=$WORK/build U=$WORK/use L=$WORK/logs
rm -rf "$WORK" && mkdir -p "$L"
passed=0 failed=0
say() { echo "$*" | tee -a "$L/summary.txt"; }
mounts=()
cleanup() {
    local m
    for ((m = ${#mounts[@]} - 1; m >= 0; m--)); do umount -l "${mounts[m]}" 2>/dev/null; done
    if [ "$keep" -eq 0 ]; then rm -rf "$B" "$U"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
step() { # step NAME CMD...: CMD's output in $L/NAME.log, a summary line
    local name=$1 start rc
    shift
    start=$(date +%s)
    "$@" >"$L/$name.log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
        say "ok   $name ($(($(date +%s) - start)) s)"
    else
        failed=$((failed + 1))
        say "FAIL $name (exit $rc, $(($(date +%s) - start)) s): the last lines of $L/$name.log:"
        tail -n 12 "$L/$name.log" | sed 's/^/     | /' | tee -a "$L/summary.txt"
    fi
    return "$rc"
}
has() { # has NAME TEXT: step NAME's log holds TEXT
    if grep -qF -- "$2" "$L/$1.log"; then
        passed=$((passed + 1)); say "ok   $1 prints '$2'"
    else
        failed=$((failed + 1)); say "FAIL $1 prints '$2'"
    fi
}
finish() { say "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
root() { # root DIR: a fresh Debian 12, its /proc /sys /dev mounted, apt answering yes
    debootstrap --variant=minbase bookworm "$1" "$MIRROR" || return 1
    printf 'APT::Get::Assume-Yes "true";\nAPT::Install-Recommends "false";\n' \
        >"$1/etc/apt/apt.conf.d/90yes"
    cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null
    local m
    for m in proc sys dev dev/pts; do
        mount --bind "/$m" "$1/$m" && mounts+=("$1/$m") || return 1
    done
}
in_root() { # in_root DIR FOLDER SCRIPT: SCRIPT (a file in DIR) in FOLDER inside DIR, as root
    chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
        bash -c 'cd "$1" && bash -e -o pipefail -x "$2"' _ "$2" "$3"
}
block() { # block FILE HEADING LANG [after-c]: the first ```LANG block after HEADING in FILE
    awk -v h="$2" -v lang="$3" -v c="${4:-}" '
        index($0, h) == 1 { in_s = 1; next }
        in_s && c != "" && /^```c$/ { after_c = 1; next }
        in_s && (c == "" || after_c) && $0 == "```" lang { in_block = 1; next }
        in_block && /^```$/ { exit }
        in_block { print }' "$SRC/$1"
}

# ---- 1. build the packages in a fresh root
step debootstrap_build_root root "$B" || finish
mkdir -p "$B/src"
(cd "$SRC" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
    xargs -0 cp --parents -t "$B/src" 2>/dev/null)
block docs/packaging.md '# Debian packages' sh >"$B/packaging_block.sh"
step packaging_block_as_root in_root "$B" /src /packaging_block.sh || finish
step each_package_holds_its_files sh -c "cd '$B/src' && scripts/deb_contents.sh build/package"
step no_sudo_was_needed sh -c "! chroot '$B' sh -c 'command -v sudo'"

# ---- 2. install them in a second fresh root and run the examples there as written
step debootstrap_use_root root "$U" || finish
mkdir -p "$U/debs" "$U/home/py/scenes" "$U/home/pytest/scenes" "$U/home/c"
cp "$B"/src/build/package/*.deb "$U/debs/"
grep 'apt-get install' "$B/packaging_block.sh" | sed 's|\./build/package/|/debs/|' >"$U/install.sh"
step install_the_packages in_root "$U" / /install.sh || finish
step dpkg_lists_the_four in_root "$U" / /dev/stdin <<<'dpkg -l md5cine libmd5cine0 libmd5cine-dev python3-md5cine | grep "^ii" | wc -l | grep -qx 4'
for d in py pytest; do cp -r "$SRC/scenes/demo" "$U/home/$d/scenes/"; done
cp -r "$SRC/scenes" "$SRC/examples" "$U/home/c/"
rm -f "$U/home/c/examples/regression"
block docs/python.md '# Python' python >"$U/home/py/example.py"
step python_example in_root "$U" /home/py /dev/stdin <<<'python3 example.py'
has python_example "24 241 [(1, 0, 83)"
has python_example "True True True 12"
has python_example "broken.md5scene:3:5: error: unknown keyword 'colour'"
block docs/python.md '## The pytest helper' python >"$U/home/pytest/test_cutscenes.py"
block docs/python.md '## The pytest helper' sh >"$U/home/pytest/block.sh"
step pytest_example in_root "$U" /home/pytest block.sh
has pytest_example "2 passed"
block docs/library.md '## What the library gives' sh after-c >"$U/home/c/block.sh"
step c_example in_root "$U" /home/c block.sh
has c_example "frames checked"
step c_example_has_no_rpath sh -c "readelf -d '$U/home/c/examples/regression' >'$L/dynamic.txt' &&
    ! grep -E 'RPATH|RUNPATH' '$L/dynamic.txt'"
finish
