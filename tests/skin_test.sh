#!/bin/bash
# Skins (skin.h): an actor line `skin "NAME"` applies a skin declaration of the base's skins/
# folder. A mesh of two quads facing the camera, shaders "left" (red) and "right" (blue), drawn
# unlit: with the skin, left becomes green and right is mapped to textures/common/nodraw, so
# the background shows there. Pixels checked at each quad's centre.
set -u
. ./harness.sh skin

mkdir -p "$T/base/materials" "$T/base/skins" "$T/base/textures"
# Two quads facing the camera (tests/make_quads.py): at 64x64 the quads' centres (y = +-25)
# fall at x = 24 and x = 40, row 32.
python3 make_quads.py "$T"
python3 make_skin_base.py "$T/base"
cat >"$T/base/skins/quads.skin" <<'SKIN'
// the first declaration of a name wins; "model" pairs are read and ignored
skin skins/quads_green
{
    model   quads.md5mesh
    left    skinned/green
    "right" textures/common/nodraw
}
skins/quads_green { * textures/blue }
SKIN
scene() { # scene NAME [SKIN LINE]
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\nactor q {\n    mesh "quads.md5mesh"\n%s\n}\n' "${2:-}" >"$T/$1.md5scene"
}

scene plain
run plain render "$T/plain.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/plain%d.png"
expect renders_without_a_skin 0
[ "$(px "$T/plain0.png" 24 32)" = "255,0,0" ] && ok left_is_red || fail left_is_red "$(px "$T/plain0.png" 24 32)"
[ "$(px "$T/plain0.png" 40 32)" = "0,0,255" ] && ok right_is_blue || fail right_is_blue "$(px "$T/plain0.png" 40 32)"

scene skinned '    skin "skins/quads_green"'
run skinned render "$T/skinned.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/skinned%d.png"
expect renders_with_the_skin 0
[ "$(px "$T/skinned0.png" 24 32)" = "0,255,0" ] && ok skin_replaces_a_material ||
    fail skin_replaces_a_material "$(px "$T/skinned0.png" 24 32)"
[ "$(px "$T/skinned0.png" 40 32)" = "0,0,0" ] && ok nodraw_hides_a_surface ||
    fail nodraw_hides_a_surface "$(px "$T/skinned0.png" 40 32)"

scene wild '    skin "SKINS\QUADS_WILD"'
printf 'skins/quads_wild { * skinned/green }\n' >"$T/base/skins/wild.skin"
run wild render "$T/wild.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/wild%d.png"
if [ "$rc" -eq 0 ] && [ "$(px "$T/wild0.png" 24 32)" = "0,255,0" ] &&
   [ "$(px "$T/wild0.png" 40 32)" = "0,255,0" ]; then ok a_wildcard_maps_every_surface
else fail a_wildcard_maps_every_surface "rc $rc $(cat "$T/wild.err")"; fi

scene missing '    skin "skins/none"'
run missing render "$T/missing.md5scene" --size 64x64 --msaa 0 -o "$T/missing%d.png"
expect an_unknown_skin_is_an_error_at_its_line 2 "" \
    "missing.md5scene:7:10: error: no skin 'skins/none' in the base folder"

# a misspelled skin: the declared name nearest it (compared as Doom compares them, without case)
scene near '    skin "Skins/Quads_Wlid"'
run near render "$T/near.md5scene" --size 64x64 --msaa 0 -o "$T/near%d.png"
expect an_unknown_skin_near_a_declared_one_is_hinted 2 "" \
    "(skins/*.skin) (did you mean 'skins/quads_wild'?)"

printf 'skins/broken { left }\n' >"$T/base/skins/broken.skin"
scene broken '    skin "skins/broken"'
run broken render "$T/broken.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/broken%d.png"
expect a_broken_skin_warns_and_is_not_applied 0 "" \
    "broken.skin:1:16: warning: a skin line needs two names"

finish
