#!/bin/bash
# The command line's output does not drift: the demo rendered in a few ways must give files with
# exactly the checksums in golden/cli_identity.md5. The lit frames changed when they got Doom's
# stencil shadows, when the default rig's fill stopped casting them, and when under MSAA a
# pixel's shadow came to be decided once (--shadow-samples pixel): sample/ renders the PNGs of
# png/ with --shadow-samples sample, whose sums are those png/ had before that (the unlit and
# normals renders kept their sums throughout). PNGs, y4m and JSON are hashed whole;
# an MP4 by its video bitstream (its container metadata names the GL driver, which is checked
# apart). Any change to pixels or encoder settings shows here; one that is meant must
# regenerate the list, with the reason in the commit:  MC_IDENTITY_UPDATE=1 MD5CINE=... MC_TEST_TMP=/tmp bash cli_identity_test.sh
set -u
. ./harness.sh cli_identity
S=../scenes/demo/demo.md5scene

r() { "$M" render "$S" --size 320x180 --quiet "$@" || fail "render $*" "exit $?"; }
r -o "$T/demo.mp4"
r -o "$T/png/%04d.png" --frames 0-40
r -o "$T/sample/%04d.png" --frames 0-40 --shadow-samples sample
r -o "$T/alpha/%04d.png" --frames 60-64 --background none
r -o "$T/normals.mp4" --overlay --shading normals --msaa 0 --frames 10-30
r -o "$T/unlit.y4m" --shading unlit --fov-mode doom --frames 100-110 --background 0.2,0.3,0.4
"$M" info "$S" --timeline --json >"$T/timeline.json" || fail "info"

# hash FILE: md5 of the file, or of an MP4's video packets (ffmpeg's md5 muxer over a copy)
hash() {
    case $1 in
    *.mp4) ffmpeg -nostdin -v error -i "$1" -map 0:v -c copy -f md5 - | sed 's/^MD5=//' ;;
    *) md5sum <"$1" | cut -d' ' -f1 ;;
    esac
}
(cd "$T" && find . -type f ! -name sums | LC_ALL=C sort | while read -r f; do
    echo "$(hash "$f")  $f"
done) >"$T/sums"
# The MP4 names what drew it (md5cine doctor's facts), for references made elsewhere.
comment=$(ffprobe -v error -show_entries format_tags=comment -of default=nw=1:nk=1 "$T/demo.mp4")
case $comment in
"md5cine "*"; GL "*"llvmpipe"*"Mesa "*" sample"*) ok "the MP4 names its GL: $comment" ;;
*) fail "the MP4's comment is '$comment'" ;;
esac
if [ "${MC_IDENTITY_UPDATE:-0}" = 1 ]; then
    cp "$T/sums" golden/cli_identity.md5
    echo "updated golden/cli_identity.md5 ($(wc -l <"$T/sums") files)"
    exit 0
fi
if ! diff -u golden/cli_identity.md5 "$T/sums"; then
    fail "output differs from golden/cli_identity.md5 (files above)"
fi
[ "$failed" = 0 ] && ok "$(wc -l <"$T/sums") files identical"
finish
