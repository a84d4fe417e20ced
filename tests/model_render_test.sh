#!/bin/bash
# `md5cine render NAME --base DIR [ANIM]`: a model declaration of the base's def/ files rendered
# without a scene file, on the turntable `render MESH` frames (src/cli/mesh_scene.h). The base:
# model "box" is data/render/box.md5mesh (0..32 x -25..25 x -25..25) with a skin and offset
# ( 0 0 4 ), and two anims of one still frame each: walk (2 frames at 24 fps: 1/24 s) first and
# idle (9 frames at frameRate 1: (9 - 1) / 1 = 8 s) second; it inherits a model the base does
# not declare (a warning, printed once). Expected by hand:
# - the default anim is idle (declared, though not first): a turn of 8 s, 192 steps at 24 fps,
#   frames 0-192; with ANIM walk the turn keeps its 4 s, frames 0-96;
# - the framing: the bounds moved by the offset, ( 0 -25 -21 ) .. ( 32 25 29 ): centre
#   ( 16 0 4 ), half diagonal 0.5 * sqrt(32^2 + 50^2 + 50^2) = 38.8072158, 2.4 of it
#   93.137318 away, 15 degrees up: radius 93.137318 * cos 15 = 89.9637408, height
#   93.137318 * sin 15 = 24.1057117; so a frame is byte-identical to the scene file that names
#   the actor `model "box"` under that turntable.
set -u
. ./harness.sh model_render

mkdir -p "$T/base/def" "$T/base/models/box" "$T/base/skins" "$T/base/materials"
cp data/render/box.md5mesh "$T/base/models/box/"
anim() { # anim FILE FRAMES RATE: the box's one joint still at the origin
    {
        printf 'MD5Version 10\ncommandline ""\n\nnumFrames %d\nnumJoints 1\n' "$2"
        printf 'frameRate %d\nnumAnimatedComponents 1\n\nhierarchy {\n\t"root"\t-1 1 0\n}\n\n' "$3"
        printf 'bounds {\n'
        for ((i = 0; i < $2; i++)); do printf '\t( 0 -25 -25 ) ( 32 25 25 )\n'; done
        printf '}\n\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n'
        for ((i = 0; i < $2; i++)); do printf '\nframe %d {\n\t0\n}\n' "$i"; done
    } >"$T/base/models/box/$1"
}
anim walk.md5anim 2 24
anim idle.md5anim 9 1
printf 'skins/box_white { box box/white }\n' >"$T/base/skins/box.skin"
printf 'box/white { diffusemap _white }\n' >"$T/base/materials/box.mtr"
cat >"$T/base/def/box.def" <<'DEF'
model box {
    inherit     crate_base
    mesh        models/box/box.md5mesh
    skin        skins/box_white
    offset      ( 0 0 4 )
    anim walk   models/box/walk.md5anim
    anim idle   models/box/idle.md5anim
}
DEF
O=(--size 96x54 --msaa 0 --quiet)

run idle_last render box --base "$T/base" "${O[@]}" --frames 192-192 -o "$T/i_%05d.png"
expect the_default_anim_is_idle_a_turn_of_8_s 0
n=$(grep -c "warning: unknown model 'crate_base' to inherit" "$T/idle_last.err")
if [ "$n" -eq 1 ]; then ok a_warning_of_the_declaration_is_printed_once
else fail a_warning_of_the_declaration_is_printed_once "$n times: $(cat "$T/idle_last.err")"; fi
run idle_past render box --base "$T/base" "${O[@]}" --frames 193-193 -o "$T/i_%05d.png"
expect the_idle_turn_ends_at_frame_192 2 "" "outside the scene's frames 0-192"
run walk_past render box --base "$T/base" walk "${O[@]}" --frames 97-97 -o "$T/w_%05d.png"
expect a_named_anim_is_played_walk_keeps_4_s 2 "" "outside the scene's frames 0-96"

# The same frames as the scene file naming the model at the camera worked out above.
cat >"$T/box.md5scene" <<'SCENE'
md5scene 1
base "base"
camera { turntable { center ( 16 0 4 ) radius 89.9637408 height 24.1057117 aim 0 seconds 8 } }
actor "box" { model "box" anim "idle" loop 1 }
SCENE
run model render box --base "$T/base" "${O[@]}" --frames 0-24 -o "$T/m_%05d.png"
run scene render "$T/box.md5scene" "${O[@]}" --frames 0-24 -o "$T/s_%05d.png"
expect the_scene_file_renders 0
same=1
for f in 00000 00012 00024; do cmp -s "$T/m_$f.png" "$T/s_$f.png" || same=0; done
colours=$(identify -format '%k' "$T/m_00012.png" 2>/dev/null)
if [ "$same" -eq 1 ] && [ "${colours:-0}" -gt 1 ]; then
    ok a_model_renders_as_the_scene_naming_it
else fail a_model_renders_as_the_scene_naming_it "same=$same, colours of frame 12: '$colours'"; fi

# A misspelt name or anim: the declaration's error with the nearest name, exit 2.
run bxo render bxo --base "$T/base" -o "$T/x_%05d.png"
want="md5cine: error: no model declaration 'bxo' in $(realpath "$T/base")/def/*.def"
expect an_unknown_model_is_an_error_with_a_hint 2 "" \
    "$want (loose files and .pk4 archives) (did you mean 'box'?)"
run idel render box --base "$T/base" idel -o "$T/x_%05d.png"
expect an_unknown_anim_is_an_error_with_a_hint 2 "" "has no anim 'idel' (2 anims declared at"
expect an_unknown_anim_hints_the_nearest 2 "" "(did you mean 'idle'?)"
run mesh_base render data/render/box.md5mesh --base "$T/base" -o "$T/x_%05d.png"
expect base_is_for_a_model_name_only 2 "" "--base DIR names the base of a model declaration"

# info NAME --base DIR shows the model's actor as info shows a scene's, and how to look at it.
run info info box --base "$T/base"
expect info_shows_the_actor 0 "  actor \"box\": $(realpath "$T/base")/models/box/box.md5mesh"
want="model \"box\" ($T/base/def/box.def:1): offset (0 0 4), skin \"skins/box_white\""
expect info_shows_the_declaration 0 "$want"
expect info_shows_the_default_anim 0 ', 2 anims: walk, idle; playing "idle"'
expect info_suggests_rendering_the_model 0 \
    "  to look at it: md5cine render box --base $T/base [ANIM] -o preview.mp4"
run info_json info box --base "$T/base" --json
expect info_json_is_the_actor_of_a_scene 0 '{"type":"model","actor":{"name":"box",'
expect info_json_plays_idle 0 '"anim":"idle","anims":[{"name":"walk","path":"models/box/walk'
run info_bxo info bxo --base "$T/base"
expect info_of_an_unknown_model_is_an_error 2 "" "(did you mean 'box'?)"

finish
