#!/bin/bash
# The command line's output does not drift: the demo rendered in a few ways must give files with
# exactly the checksums in golden/cli_identity.md5, which were made by md5cine 0.1.0 before the
# renderer moved from the command line into the library. Any change to pixels, encoder settings
# or container metadata shows here; one that is meant must regenerate the list, with the reason
# in the commit:  MC_IDENTITY_UPDATE=1 MD5CINE=... MC_TEST_TMP=/tmp bash cli_identity_test.sh
set -u
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
T=$(mktemp -d "$MC_TEST_TMP/cli_identity.XXXXXX")
S=../scenes/demo/demo.md5scene
M=$MD5CINE
failed=0

r() { "$M" render "$S" --size 320x180 --quiet "$@" || { echo "FAIL render $*: exit $?"; failed=1; }; }
r -o "$T/demo.mp4"
r -o "$T/png/%04d.png" --frames 0-40
r -o "$T/alpha/%04d.png" --frames 60-64 --background none
r -o "$T/normals.mp4" --overlay --shading normals --msaa 0 --frames 10-30
r -o "$T/unlit.y4m" --shading unlit --fov-mode doom --frames 100-110 --background 0.2,0.3,0.4
"$M" info "$S" --timeline --json >"$T/timeline.json" || { echo "FAIL info"; failed=1; }

(cd "$T" && find . -type f ! -name sums | LC_ALL=C sort | xargs md5sum) >"$T/sums"
if [ "${MC_IDENTITY_UPDATE:-0}" = 1 ]; then
    cp "$T/sums" golden/cli_identity.md5
    echo "updated golden/cli_identity.md5 ($(wc -l <"$T/sums") files)"
    exit 0
fi
if ! diff -u golden/cli_identity.md5 "$T/sums"; then
    echo "FAIL output differs from golden/cli_identity.md5 (files above)"
    failed=1
fi
[ "$failed" = 0 ] && echo "ok   $(wc -l <"$T/sums") files identical" && rm -rf "$T"
exit "$failed"
