#!/bin/bash
# A misspelled word is answered with the nearest one it could be, in one format everywhere:
# " (did you mean 'WORD'?)" after the message (core/nearest.h: at most 2 edits, under half the
# word). Scene keywords (top level, output, actor, light, camera-block shots and their keys),
# the options of every command and the commands, and material keywords (compared without case, as
# Doom's are). The messages are checked whole, as a user reads them. A scene of several mistakes
# reports each.
set -u
. ./harness.sh hints

# first_line_is NAME FILE WANT: the first line of FILE is exactly WANT
first_line_is() {
    local got
    got=$(head -n 1 "$2")
    if [ "$got" = "$3" ]; then ok "$1"; else fail "$1" "got '$got', want '$3'"; fi
}

# scene NAME BODY: a scene file of the header plus BODY (printf's escapes), given to 'md5cine info' (exit 2)
scene() {
    printf 'md5scene 1\ncamera "c.md5camera"\n'"$2" >"$T/$1.md5scene" # BODY has no %
    run "$1" info "$T/$1.md5scene"
    expect "$1_exits_2" 2
}

scene top 'frame 30\n'
first_line_is top "$T/top.err" \
    "$T/top.md5scene:3:1: error: unknown keyword 'frame' (did you mean 'frames'?)"
scene actor 'actor "fighter" {\n    mesh "m.md5mesh"\n    orgin ( 0 0 0 )\n}\n'
first_line_is actor "$T/actor.err" \
    "$T/actor.md5scene:5:5: error: unknown keyword 'orgin' in actor 'fighter' (did you mean 'origin'?)"
scene output 'output { widht 64 }\n'
first_line_is output "$T/output.err" \
    "$T/output.md5scene:3:10: error: unknown keyword 'widht' in 'output' (did you mean 'width'?)"
scene light 'light "key" { origin ( 0 0 0 ) radius 9 colour ( 1 1 1 ) }\n'
first_line_is light "$T/light.err" \
    "$T/light.md5scene:3:41: error: unknown keyword 'colour' in light 'key' (did you mean 'color'?)"
printf 'md5scene 1\ncamera { orbt { radius 3 } }\n' >"$T/shot.md5scene"
run shot info "$T/shot.md5scene"
expect shot_exits_2 2
first_line_is shot "$T/shot.err" \
    "$T/shot.md5scene:2:10: error: expected 'fps', 'look_at', 'orbit', 'turntable', 'keys' or '}' in camera, found 'orbt' (did you mean 'orbit'?)"
printf 'md5scene 1\ncamera { keys { kye 0 ( 0 0 0 ) ( 1 0 0 ) } }\n' >"$T/key.md5scene"
run key info "$T/key.md5scene"
expect key_exits_2 2
first_line_is key "$T/key.err" \
    "$T/key.md5scene:2:17: error: unknown keyword 'kye' in 'keys' shot (did you mean 'key'?)"
# Nothing near: the message as it was.
scene far 'actor "a" { mesh "m.md5mesh" wobble 1 }\n'
first_line_is far "$T/far.err" "$T/far.md5scene:3:30: error: unknown keyword 'wobble' in actor 'a'"

# The options of every command, and the commands.
opt() { # NAME WANT ARGS...: exit 2, the first line of stderr exactly WANT
    local name=$1 want=$2
    shift 2
    run "$name" "$@"
    expect "${name}_exits_2" 2
    first_line_is "$name" "$T/$name.err" "$want"
}
opt render "md5cine: error: unknown option '--qiet' (did you mean '--quiet'?)" \
    render s.md5scene -o x.mp4 --qiet
opt render_one_dash "md5cine: error: unknown option '-fps' (did you mean '--fps'?)" \
    render s.md5scene -o x.mp4 -fps 24
opt render_value "md5cine: error: unknown option '--sise=64x64' (did you mean '--size'?)" \
    render s.md5scene -o x.mp4 --sise=64x64
opt info "md5cine: error: unknown option '--jsno' (did you mean '--json'?)" info --jsno x
opt export "md5cine: error: unknown option '--frmae' (did you mean '--frame'?)" \
    export m.md5mesh --frmae 1 -o x.obj
opt compare "md5cine: error: unknown option '--treshold' (did you mean '--threshold'?)" \
    compare a b --treshold 3
opt sheet "md5cine: error: unknown option '--colums' (did you mean '--columns'?)" \
    sheet s.md5scene -o x.png --colums 3
opt plan "md5cine: error: unknown option '--chuncks' (did you mean '--chunks'?)" \
    plan s.md5scene --chuncks 3
opt concat "md5cine: error: unknown option '--ouput' (did you mean '--output'?)" \
    concat a.mp4 --ouput x.mp4
opt camera "md5cine: error: unknown option '--quite' (did you mean '--quiet'?)" \
    camera s.md5scene -o x.md5camera --quite
opt doctor "md5cine: error: unknown option '--jsn' (did you mean '--json'?)" doctor --jsn
opt far_option "md5cine: error: unknown option '--no-such-option' (see 'md5cine compare --help')" \
    compare a b --no-such-option
opt command "md5cine: error: unknown command 'rendr' (did you mean 'render'?)" rendr x

# Material keywords: a body's and a stage's, without case as Doom reads them.
printf 'm\n{\n    DifuseMap x\n    { blnd add map y }\n    qer_editorimage z\n}\n' >"$T/m.mtr"
run mtr info "$T/m.mtr"
expect mtr_exits_0 0
grep 'warning' "$T/mtr.err" >"$T/mtr.warnings"
if diff -u - "$T/mtr.warnings" >"$T/mtr.diff" <<EOF2; then ok mtr; else fail mtr "$(cat "$T/mtr.diff")"; fi
$T/m.mtr:3:5: warning: unknown keyword 'DifuseMap' skipped (did you mean 'diffusemap'?)
$T/m.mtr:4:7: warning: unknown keyword 'blnd' skipped (did you mean 'blend'?)
$T/m.mtr:5:5: warning: unknown keyword 'qer_editorimage' skipped
EOF2

# Several mistakes in one scene: each at its place in one run, as a compiler reports them (the
# parser skips each bad statement and reads on), exit 2; every command that reads a scene
# (compare with --scene).
printf 'md5scene 1\ncamera "c.md5camera"\nframe 30\nactor "a" {\n    orgin ( 0 0 0 )\n    mesh "m.md5mesh"\n}\nactor "b" { mesh "m.md5mesh" origin ( 1 2 ) }\nambient ( 1 1 1 )\noutput { widht 64 }\n' >"$T/several.md5scene"
cat >"$T/several.want" <<EOF2
$T/several.md5scene:3:1: error: unknown keyword 'frame' (did you mean 'frames'?)
$T/several.md5scene:5:5: error: unknown keyword 'orgin' in actor 'a' (did you mean 'origin'?)
$T/several.md5scene:8:43: error: 'origin' takes three numbers ( x y z ), found ')'
$T/several.md5scene:10:10: error: unknown keyword 'widht' in 'output' (did you mean 'width'?)
EOF2
for cmd in info render plan sheet camera compare; do
    case $cmd in
    camera) run "several_$cmd" "$cmd" "$T/several.md5scene" -o "$T/several.md5camera" ;;
    compare) run "several_$cmd" "$cmd" data/render/red.png data/render/red.png \
        --scene "$T/several.md5scene" ;;
    info) run "several_$cmd" "$cmd" "$T/several.md5scene" ;;
    plan) run "several_$cmd" "$cmd" "$T/several.md5scene" --chunks 2 ;;
    render) run "several_$cmd" "$cmd" "$T/several.md5scene" -o "$T/several_%05d.png" ;;
    sheet) run "several_$cmd" "$cmd" "$T/several.md5scene" -o "$T/several_$cmd.png" ;;
    esac
    expect "several_${cmd}_exits_2" 2
    grep ': error: ' "$T/several_$cmd.err" >"$T/several_$cmd.errors"
    if diff -u "$T/several.want" "$T/several_$cmd.errors" >"$T/several_$cmd.diff"
    then ok "several_mistakes_each_at_its_place_$cmd"
    else fail "several_mistakes_each_at_its_place_$cmd" "$(cat "$T/several_$cmd.diff")"; fi
done

finish
