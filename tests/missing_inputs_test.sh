#!/bin/bash
# One exit-code policy (docs/commands.md, "What every command shares"): a missing input file is bad input, exit 2, in every
# subcommand, and the message names the file. Nothing is written for a render that cannot start.
set -u
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
T=$(mktemp -d "$MC_TEST_TMP/missing_inputs.XXXXXX")
M=$MD5CINE
MESH=data/render/box.md5mesh
ANIM=data/scenes/arm.md5anim
SCENE=../scenes/demo/demo.md5scene
failed=0

# expect NAME MISSING-PATH ARGS...: md5cine ARGS exits 2 and names MISSING-PATH
expect() {
    local name=$1 missing=$2
    shift 2
    "$M" "$@" >"$T/$name.out" 2>"$T/$name.err"
    local rc=$?
    if [ $rc = 2 ] && grep -qF "$missing" "$T/$name.err"; then
        echo "ok   $name"
    else
        echo "FAIL $name: exit $rc, stderr: $(cat "$T/$name.err")"
        failed=1
    fi
}

expect render_scene "$T/none.md5scene" render "$T/none.md5scene" -o "$T/a.mp4"
expect render_reference "$T/noref" render "$SCENE" --frames 0 --size 64x36 --reference "$T/noref"
expect info_mesh "$T/none.md5mesh" info "$T/none.md5mesh"
expect info_anim "$T/none.md5anim" info "$T/none.md5anim"
expect info_camera "$T/none.md5camera" info "$T/none.md5camera"
expect info_scene "$T/none.md5scene" info "$T/none.md5scene"
expect export_mesh "$T/none.md5mesh" export "$T/none.md5mesh" "$ANIM" --frame 0 -o "$T/a.obj"
expect export_anim "$T/none.md5anim" export "$MESH" "$T/none.md5anim" --frame 0 -o "$T/b.obj"
expect compare_a "$T/none_a.png" compare "$T/none_a.png" ../tests/golden/render_overlay.png
expect compare_b "$T/none_b.png" compare ../tests/golden/render_overlay.png "$T/none_b.png"
expect compare_folder "$T/nodir" compare "$T/nodir" ../tests/golden
for f in a.mp4 a.obj b.obj; do
    [ -e "$T/$f" ] && { echo "FAIL $f was written"; failed=1; }
done
[ -n "$(ls -A "$T" | grep -v '\.out$\|\.err$')" ] && { echo "FAIL left: $(ls -A "$T")"; failed=1; }
[ "$failed" = 0 ] && rm -rf "$T"
exit "$failed"
