#!/bin/bash
# One exit-code policy (docs/commands.md, "What every command shares"): a missing input file is bad input, exit 2, in every
# subcommand, and the message names the file. Nothing is written for a render that cannot start.
set -u
. ./harness.sh missing_inputs
MESH=data/render/box.md5mesh
ANIM=data/scenes/arm.md5anim
SCENE=../scenes/demo/demo.md5scene

# expect_missing NAME MISSING-PATH ARGS...: md5cine ARGS exits 2 and names MISSING-PATH
expect_missing() {
    local name=$1 missing=$2
    shift 2
    "$M" "$@" >"$T/$name.out" 2>"$T/$name.err"
    local rc=$?
    if [ $rc = 2 ] && grep -qF "$missing" "$T/$name.err"; then
        ok "$name"
    else
        fail "$name" "exit $rc, stderr: $(cat "$T/$name.err")"
    fi
}

expect_missing render_scene "$T/none.md5scene" render "$T/none.md5scene" -o "$T/a.mp4"
expect_missing render_reference "$T/noref" render "$SCENE" --frames 0 --size 64x36 --reference "$T/noref"
expect_missing info_mesh "$T/none.md5mesh" info "$T/none.md5mesh"
expect_missing info_anim "$T/none.md5anim" info "$T/none.md5anim"
expect_missing info_camera "$T/none.md5camera" info "$T/none.md5camera"
expect_missing info_scene "$T/none.md5scene" info "$T/none.md5scene"
expect_missing export_mesh "$T/none.md5mesh" export "$T/none.md5mesh" "$ANIM" --frame 0 -o "$T/a.obj"
expect_missing export_anim "$T/none.md5anim" export "$MESH" "$T/none.md5anim" --frame 0 -o "$T/b.obj"
expect_missing compare_a "$T/none_a.png" compare "$T/none_a.png" ../tests/golden/render_overlay.png
expect_missing compare_b "$T/none_b.png" compare ../tests/golden/render_overlay.png "$T/none_b.png"
expect_missing compare_folder "$T/nodir" compare "$T/nodir" ../tests/golden
for f in a.mp4 a.obj b.obj; do
    [ -e "$T/$f" ] && fail "$f was written"
done
[ -n "$(ls -A "$T" | grep -v '\.out$\|\.err$')" ] && fail "left" "$(ls -A "$T")"
finish
