#!/usr/bin/env bash
# Checks the four Debian packages in DIR (what scripts/package.sh writes) against what each must
# hold, read from the .deb itself with `dpkg-deb -c` (its file list), and prints one line a
# package: "ok   PACKAGE: N files" or "FAIL PACKAGE: no file matches REGEX ...".
#   md5cine           /usr/bin/md5cine and its man page
#   libmd5cine0       the shared library libmd5cine.so.0
#   libmd5cine-dev    the headers (md5cine.h, version.h), libmd5cine.a, the libmd5cine.so link,
#                     md5cine.pc and the CMake package files
#   python3-md5cine   the module md5cine (the files python/CMakeLists.txt installs) and its
#                     distribution's entry points (pytest finds the plugin through them)
# Exit 0 when every package is there and holds its files, 1 otherwise (2: usage).
# usage: scripts/deb_contents.sh DIR
set -uo pipefail
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: scripts/deb_contents.sh DIR   (the folder of the .deb files)" >&2
    exit 2
fi
dir=$1
py='^\./usr/lib/python3/dist-packages/md5cine'
declare -A must=(
    [md5cine]='^\./usr/bin/md5cine$ ^\./usr/share/man/man1/md5cine\.1(\.gz)?$'
    [libmd5cine0]='^\./usr/lib/(.*/)?libmd5cine\.so\.0$'
    [libmd5cine-dev]='/include/md5cine/md5cine\.h$ /include/md5cine/version\.h$ /libmd5cine\.a$
        /libmd5cine\.so$ /pkgconfig/md5cine\.pc$ /cmake/md5cine/md5cineConfig\.cmake$
        /cmake/md5cine/md5cineTargets\.cmake$'
    [python3-md5cine]="$py/__init__\\.py\$ $py/testing\\.py\$ $py/pytest_plugin\\.py\$
        $py/_abi\\.py\$ $py/_structs\\.py\$ $py/_config\\.py\$
        $py-[0-9.]*\\.dist-info/entry_points\\.txt\$"
)
bad=0
for p in md5cine libmd5cine0 libmd5cine-dev python3-md5cine; do
    debs=("$dir/${p}_"*.deb)
    if [ ! -f "${debs[0]}" ] || [ ${#debs[@]} -ne 1 ]; then
        echo "FAIL $p: $(ls "$dir/${p}_"*.deb 2>/dev/null | wc -l) files ${p}_*.deb in $dir, not one"
        bad=1
        continue
    fi
    files=$(dpkg-deb -c "${debs[0]}" | awk '$1 !~ /^d/ { print $6 }')
    lacking=""
    for re in ${must[$p]}; do
        grep -Eq "$re" <<<"$files" || lacking="$lacking $re"
    done
    if [ -n "$lacking" ]; then
        echo "FAIL $p: $(basename "${debs[0]}") ($(grep -c . <<<"$files") files) has no file matching$lacking"
        bad=1
    else
        echo "ok   $p: $(grep -c . <<<"$files") files"
    fi
done
exit $bad
