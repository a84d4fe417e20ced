#!/bin/bash
# The `skin` frame command (docs/sound-declarations.md, "Frame commands"): from the moment it
# fires, the actor draws with the skin it names; `skin none` draws it with no skin at all, its
# own included (Anim_Blend.cpp idAnim::CallFrameCommands FC_SKIN -> idEntity::SetSkin). The two
# quads of skin_test.sh (left red, right blue; tests/make_quads.py) as a model declaration whose
# anim holds one pose for 5 frames at frameRate 10, rendered unlit at 20 fps, 64x64. Three
# looks, each an independent render with the skin written in the scene: P (plain, no skin),
# G (skins/quads_green: left green, right not drawn), W (skins/quads_wild: both green). Every
# frame of a render must equal one of them byte for byte, in the order worked by hand from
# "frame N fires at start + (N - 1 + c * (5 - 1)) / 10 s" and output frame k at k / 20 s:
#   held,  frame 3 skin G:               fires at 0.2 s = frame 4              PPPPGGGGG
#   loop,  frame 2 G, frame 4 none,      G at 0.1 + 0.4c, none at 0.3 + 0.4c
#          actor's own skin W:           frames 2-5 G, 6-9 P, 10-13 G again    WWGGGGPPPPGGGGPP
#   held,  the same anim:                no fire after its last frame (0.4 s)  WWGGGGPPPPPPPPPP
#   held,  frame 3 G, start 0.5:         fires at 0.5 + 0.2 = 0.7 s = frame 14 PPPPPPPPPPPPPPGG
set -u
. ./harness.sh skin_command

mkdir -p "$T/base/materials" "$T/base/skins" "$T/base/textures" "$T/base/def" \
    "$T/base/models/quads"
python3 make_quads.py "$T"
mv "$T/quads.md5mesh" "$T/base/models/quads/"
python3 make_skin_base.py "$T/base"
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
# one joint, 5 frames at 10 fps, no animated component: the bind pose throughout
frames = ''.join('frame %d {\n}\n' % i for i in range(5))
open('%s/base/models/quads/still.md5anim' % t, 'w').write(
    'MD5Version 10\ncommandline ""\nnumFrames 5\nnumJoints 1\nframeRate 10\n'
    'numAnimatedComponents 0\nhierarchy {\n\t"origin" -1 0 0\n}\nbounds {\n' +
    '\t( -1 -40 -15 ) ( 1 40 15 )\n' * 5 + '}\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n' + frames)
PY
cat >"$T/base/skins/quads.skin" <<'SKIN'
skins/quads_green { left skinned/green right textures/common/nodraw }
skins/quads_wild { * skinned/green }
skins/quads_broken { left }
SKIN
cat >"$T/base/def/quads.def" <<'DEF'
model quads {
    mesh models/quads/quads.md5mesh
    anim plain models/quads/still.md5anim
    anim once models/quads/still.md5anim {
        frame 3 skin skins/quads_green
    }
    anim flip models/quads/still.md5anim {
        frame 2 skin skins/quads_green
        frame 4 skin none
    }
}
model unknown {
    inherit quads
    anim bad models/quads/still.md5anim {
        frame 2     skin skins/nowhere
    }
}
model broken {
    inherit quads
    anim bad models/quads/still.md5anim {
        frame 2 skin skins/quads_broken
    }
}
DEF
scene() { # scene NAME ANIM FRAMES ACTOR_LINES...
    local name=$1 anim=$2 frames=$3
    shift 3
    {
        printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nframes %s\n' "$frames"
        printf 'output { fps 20 background ( 0 0 0 ) }\nactor q {\n    model "quads"\n'
        printf '    anim "%s"\n' "$anim"
        printf '    %s\n' "$@"
        printf '}\n'
    } >"$T/$name.md5scene"
}
render() { # render NAME: frames NAME0.png ... at 64x64, unlit, no MSAA
    run "$1" render "$T/$1.md5scene" --size 64x64 --msaa 0 --shading unlit -o "$T/$1%d.png"
}
# looks NAME COUNT: one letter per frame, the reference it equals byte for byte (? for none)
looks() {
    local s="" k l
    for ((k = 0; k < $2; k++)); do
        l="?"
        for ref in P G W; do
            cmp -s "$T/$1$k.png" "$T/ref$ref.png" && l=$ref && break
        done
        s="$s$l"
    done
    echo "$s"
}
check_looks() { # check TEST NAME COUNT WANT
    local got
    got=$(looks "$2" "$3")
    if [ "$rc" -eq 0 ] && [ "$got" = "$4" ]; then ok "$1"
    else fail "$1" "rc $rc, looks $got, want $4; $(head -c 300 "$T/$2.err")"; fi
}

# The references: the same model, its anim without commands, the skin given in the scene.
scene plainref plain 1
scene greenref plain 1 'skin "skins/quads_green"'
scene wildref plain 1 'skin "skins/quads_wild"'
for r in plain green wild; do
    render ${r}ref
    expect "renders_the_${r}_reference" 0
done
cp "$T/plainref0.png" "$T/refP.png"
cp "$T/greenref0.png" "$T/refG.png"
cp "$T/wildref0.png" "$T/refW.png"
if cmp -s "$T/refP.png" "$T/refG.png" || cmp -s "$T/refP.png" "$T/refW.png" ||
    cmp -s "$T/refG.png" "$T/refW.png"; then
    fail the_three_looks_differ
else
    ok the_three_looks_differ
fi

scene once once 9
render once
check_looks the_skin_applies_from_the_frame_its_command_fires once 9 PPPPGGGGG
if grep -q 'skipped' "$T/once.err"; then
    fail a_skin_command_is_not_warned_as_skipped "$(cat "$T/once.err")"
else ok a_skin_command_is_not_warned_as_skipped; fi

scene loop flip 16 'skin "skins/quads_wild"' 'loop 1'
render loop
check_looks a_loop_fires_again_and_none_removes_every_skin loop 16 WWGGGGPPPPGGGGPP

scene held flip 16 'skin "skins/quads_wild"'
render held
check_looks a_held_pose_fires_nothing_more held 16 WWGGGGPPPPPPPPPP

scene late once 16 'start 0.5'
render late
check_looks the_firing_time_counts_from_the_anims_start late 16 PPPPPPPPPPPPPPGG

# info lists the skin commands with their anim time, (N - 1) / 10 and the 0.4 s cycle, ...
run info_text info "$T/loop.md5scene"
expect info_gives_when_a_skin_command_fires 0 \
    "      frame 2: skin skins/quads_green (at 0.1 s of the anim, then every 0.4 s)"
run info_held info "$T/held.md5scene"
expect info_gives_no_cycle_for_a_held_anim 0 "      frame 4: skin none (at 0.3 s of the anim)"
# ... and the changes of skin: the text under the timeline, and the JSON's "skins".
run info_loop info "$T/loop.md5scene" --timeline
# columns: frame (6), time (10), actor (12), command (13), skin
expect info_lists_the_first_change 0 \
    '  2      0.100000   q            skin@2        skins/quads_green'
expect info_lists_skin_none 0 '  6      0.300000   q            skin@4        none'
expect info_lists_the_change_of_the_next_cycle 0 \
    '  10     0.500000   q            skin@2        skins/quads_green'
run info_json info "$T/held.md5scene" --timeline --json
if python3 - "$T/info_json.out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["skins"]
want = [{"frame": 2, "time": 0.1, "actor": "q", "animFrame": 2, "skin": "skins/quads_green"},
        {"frame": 6, "time": 0.3, "actor": "q", "animFrame": 4, "skin": None}]
sys.exit(0 if s == want else 1)
PY
then ok info_json_lists_the_skin_changes
else fail info_json_lists_the_skin_changes "$(cat "$T/info_json.out")"; fi

# A skin no declaration has: an error at the command's argument in the .def file, as an actor's
# own; one that fails to parse: a warning there, and the command draws no skin.
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { model "unknown" anim "bad" }\n' \
    >"$T/unknown.md5scene"
run unknown render "$T/unknown.md5scene" --size 64x64 --msaa 0 -o "$T/unknown%d.png"
expect an_unknown_skin_is_an_error_at_its_def_token 2 "" \
    "quads.def:15:26: error: no skin 'skins/nowhere' in the base folder"
cat >"$T/broken.md5scene" <<'SCENE'
md5scene 1
camera "cam.md5camera"
base "base"
frames 4
output { fps 20 background ( 0 0 0 ) }
actor q { model "broken" anim "bad" skin "skins/quads_wild" }
SCENE
render broken
expect a_broken_skin_warns 0 "" \
    "quads.skin:3:22: warning: a skin line needs two names: material and replacement; skin \
'skins/quads_broken' of frame 2 of anim 'bad' is not applied"
check_looks a_broken_skin_command_draws_no_skin broken 4 WWPP

finish
