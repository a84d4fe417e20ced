#!/bin/bash
# Model declarations (scene.h, docs/scene-files.md, "Models by name"): an actor's `model "NAME"` names a
# `model NAME { ... }` of the base's def/ files, and `anim "walk"` one of its anims. The
# declaration below inherits drone_base (offset ( 0 0 1 ), anim idle) and adds the Red Eclipse
# drone's mesh, a skin and anim walk with frame commands and a flag. Expected from the files as
# written: info --json names the declaration's file and line, its mesh, skin, offset and both
# anims (the inherited one first), plays walk's file and lists walk's flag and commands (a
# command the engine does not know kept with the rest of its line, and one warning for it). A
# frame of it is pixel-identical to the same scene written with files: the mesh and anim under
# base, the skin line, and in origin what the declaration does to joint 0 in model space, before
# yaw 180 and scale 18: its offset (0 0 1), and the engine's rebasing of the anim's root
# (idMD5Anim::LoadAnim: forward.md5anim's base frame root ( -0.094203 -0.013319 1.996149 ) taken
# off every frame), (0 0 1) - base = (0.094203 0.013319 -0.996149), turned 180 degrees about +Z
# (-0.094203 -0.013319 -0.996149) and times 18: ( -1.695654 -0.239742 -17.930682 ). One light
# in the scene, as the default rig is placed from the bind pose, which the rebasing leaves.
# Without that origin the frames differ (the offset is applied).
set -u
. ./harness.sh model_decl

mkdir -p "$T/base/def" "$T/base/models/drone" "$T/base/skins" "$T/base/materials"
cp data/assets/redeclipse-drone/mesh.md5mesh data/assets/redeclipse-drone/forward.md5anim \
   data/assets/redeclipse-drone/idle.md5anim "$T/base/models/drone/"
cp data/render/checker.png data/render/still.md5camera "$T/"
printf 'skins/drone_red { * drone/red }\n' >"$T/base/skins/drone.skin"
printf 'drone/red { diffusemap _white }\n' >"$T/base/materials/drone.mtr"
cat >"$T/base/def/a_other.def" <<'DEF'
// entity declarations are skipped unparsed, whatever they hold
entityDef monster_drone {
    "model"     "drone"
    "skin"      "skins/other"   // an entity's own keys: not read
}
DEF
cat >"$T/base/def/monsters.def" <<'DEF'
model drone_base {
    offset      ( 0 0 1 )
    anim idle   models/drone/idle.md5anim
}

model drone {
    inherit     drone_base
    mesh        models/drone/mesh.md5mesh
    skin        skins/drone_red
    channel torso ( *Waist -Thigh.Right )
    anim walk   models/drone/forward.md5anim, models/drone/forward.md5anim {
        frame 3     sound_body snd_footstep
        frame 9     sound_body snd_footstep
        frame 9     attach sword hand_r; $y
        prevent_idle_override
    }
}

model broken {
    mesh        models/drone/mesh.md5mesh
    wobble      1
}
DEF

actor() { # actor FILE BODY
    printf 'md5scene 1\ncamera "still.md5camera"\nbase "base"\noutput { width 96 height 96 background ( 0.1 0.1 0.15 ) }\nactor "d" {\n%s\n    yaw 180\n    scale 18\n    material "" "checker.png"\n}\nlight "key" { origin ( -150 -100 120 ) radius 1000 }\n' "$2" >"$T/$1"
}
actor named.md5scene '    model "drone"
    anim "walk"'
actor files.md5scene '    mesh "base/models/drone/mesh.md5mesh"
    anim "base/models/drone/forward.md5anim"
    skin "skins/drone_red"
    origin ( -1.695654 -0.239742 -17.930682 )'
actor no_offset.md5scene '    mesh "base/models/drone/mesh.md5mesh"
    anim "base/models/drone/forward.md5anim"
    skin "skins/drone_red"'

run info info "$T/named.md5scene" --json
expect info_reads_the_scene 0 "" \
    "monsters.def:14:21: warning: unknown frame command 'attach' skipped (1 time in the scene)"
python3 - "$T/info.out" <<'PY' && ok info_shows_what_the_model_resolved_to || fail info_shows_what_the_model_resolved_to "$(cat "$T/info.py")"
import json, sys
a = json.load(open(sys.argv[1]))["actors"][0]
m = a["model"]
want = {
    "name": "drone", "line": 6, "skin": "skins/drone_red", "offset": [0, 0, 1], "anim": "walk",
    "anims": [{"name": "idle", "path": "models/drone/idle.md5anim"},
              {"name": "walk", "path": "models/drone/forward.md5anim"}],
}
bad = [k for k in want if m.get(k) != want[k]]
bad += [] if m["file"].endswith("base/def/monsters.def") else ["file " + m["file"]]
bad += [] if a["mesh"].endswith("base/models/drone/mesh.md5mesh") else ["mesh " + a["mesh"]]
bad += [] if a["anim"].endswith("base/models/drone/forward.md5anim") else ["anim " + a["anim"]]
bad += [] if a["skin"] == "skins/drone_red" else ["skin"]
bad += [] if m["animFlags"] == ["prevent_idle_override"] else ["animFlags"]
step = {"command": "sound_body", "args": ["snd_footstep"], "acted": True, "col": 9}
if m["frameCommands"] != [dict(step, frame=3, line=12), dict(step, frame=9, line=13),
                          {"frame": 9, "command": "attach", "args": ["sword", "hand_r;", "$y"],
                           "acted": False, "line": 14, "col": 9}]:
    bad += ["frameCommands %s" % m["frameCommands"]]
if bad:
    open(sys.argv[1].replace(".out", ".py"), "w").write("%s: %s" % (bad, m))
    sys.exit(1)
PY

run named render "$T/named.md5scene" --frames 5-5 --msaa 0 -o "$T/named%d.png"
expect renders_by_name 0
run files render "$T/files.md5scene" --frames 5-5 --msaa 0 -o "$T/files%d.png"
expect renders_by_file 0
run no_offset render "$T/no_offset.md5scene" --frames 5-5 --msaa 0 -o "$T/no_offset%d.png"
expect renders_without_offset 0
check_same_picture a_named_model_draws_the_same_pixels_as_its_files "$T/named5.png" "$T/files5.png"
cmp -s "$T/named5.png" "$T/no_offset5.png" && fail the_offset_moves_the_model "same pixels" ||
    ok the_offset_moves_the_model

# `rebase_root` chooses the rule whatever the actor's kind. The declaration's offset (0 0 1) in
# model space, turned 180 degrees about +Z and times 18, is ( 0 0 18 ) in the world: the files
# with `rebase_root 1` at that origin are the named model, and the named model with
# `rebase_root 0` is the files (root as written) at that origin.
actor files_rebased.md5scene '    mesh "base/models/drone/mesh.md5mesh"
    anim "base/models/drone/forward.md5anim"
    skin "skins/drone_red"
    rebase_root 1
    origin ( 0 0 18 )'
actor named_kept.md5scene '    model "drone"
    anim "walk"
    rebase_root 0'
actor files_kept.md5scene '    mesh "base/models/drone/mesh.md5mesh"
    anim "base/models/drone/forward.md5anim"
    skin "skins/drone_red"
    origin ( 0 0 18 )'
for f in files_rebased named_kept files_kept; do
    run "$f" render "$T/$f.md5scene" --frames 5-5 --msaa 0 -o "$T/$f%d.png"
    expect "renders_$f" 0
done
cmp -s "$T/named5.png" "$T/files_rebased5.png" && ok rebase_root_1_places_files_as_the_engine ||
    fail rebase_root_1_places_files_as_the_engine "$(compare -metric AE "$T/named5.png" "$T/files_rebased5.png" null: 2>&1)"
cmp -s "$T/named_kept5.png" "$T/files_kept5.png" && ok rebase_root_0_keeps_a_models_root ||
    fail rebase_root_0_keeps_a_models_root "$(compare -metric AE "$T/named_kept5.png" "$T/files_kept5.png" null: 2>&1)"
cmp -s "$T/named5.png" "$T/named_kept5.png" && fail the_rebasing_moves_the_model "same pixels" ||
    ok the_rebasing_moves_the_model
rebased=""
for f in named files named_kept files_rebased; do
    run "info_$f" info "$T/$f.md5scene" --json
    rebased="$rebased $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["actors"][0]["rebaseRoot"])' "$T/info_$f.out")"
done
[ "$rebased" = " True False False True" ] && ok info_says_whether_the_root_is_rebased ||
    fail info_says_whether_the_root_is_rebased "$rebased"

# Errors at their positions: an unknown model or anim at the scene's token, a bad declaration
# at its own line in the def file.
actor unknown.md5scene '    model "nosuch"'
run unknown info "$T/unknown.md5scene"
expect an_unknown_model_is_an_error_at_its_token 2 "" \
    "unknown.md5scene:6:11: error: no model declaration 'nosuch'"
actor nearmodel.md5scene '    model "Dron"'
run nearmodel info "$T/nearmodel.md5scene"
expect a_near_model_name_is_hinted 2 "" \
    "nearmodel.md5scene:6:11: error: no model declaration 'Dron' in"
expect a_near_model_name_is_hinted_by_name 2 "" "(did you mean 'drone'?)"
actor noanim.md5scene '    model "drone"
    anim "run"'
run noanim info "$T/noanim.md5scene"
expect an_unknown_anim_is_an_error_at_its_token 2 "" \
    "noanim.md5scene:7:10: error: model 'drone' has no anim 'run'"
actor nearanim.md5scene '    model "drone"
    anim "wlak"'
run nearanim info "$T/nearanim.md5scene"
expect a_near_anim_name_is_hinted 2 "" \
    "nearanim.md5scene:7:10: error: model 'drone' has no anim 'wlak' (2 anims declared at"
expect a_near_anim_name_is_hinted_by_name 2 "" "(did you mean 'walk'?)"
actor broken.md5scene '    model "broken"'
run broken info "$T/broken.md5scene"
expect a_bad_declaration_is_an_error_in_the_def_file 2 "" \
    "monsters.def:21:5: error: unknown keyword 'wobble' in model 'broken'"
actor both.md5scene '    model "drone"
    mesh "base/models/drone/mesh.md5mesh"'
run both info "$T/both.md5scene"
expect mesh_and_model_together_is_an_error 2 "" "both.md5scene:6:11: error: actor 'd' has both 'mesh'"
printf 'md5scene 1\ncamera "still.md5camera"\nactor "d" { model "drone" }\n' >"$T/nobase.md5scene"
run nobase info "$T/nobase.md5scene"
expect a_model_needs_a_base 2 "" "nobase.md5scene:3:19: error: actor 'd' names model 'drone', but the scene has no 'base'"

# Files a declaration names that the base does not hold: the engine makes the whole model its
# default (idDeclModelDef::Parse "Model '%s' defaulted", ParseAnim "Couldn't load anim", for any
# anim and any of its synced files, played or not, and for a model inheriting one that
# defaulted). md5cine refuses them, at the file's token in the .def.
cat >"$T/base/def/y_missing.def" <<'DEF'
model nomesh {
    mesh models/drone/gone.md5mesh
}
model noanimfile {
    inherit drone
    anim run models/drone/run.md5anim
}
model nosynced {
    inherit drone
    anim walk models/drone/forward.md5anim, models/drone/gone.md5anim
}
model heir {
    inherit noanimfile
    remove run
}
DEF
actor nomesh.md5scene '    model "nomesh"'
run nomesh info "$T/nomesh.md5scene"
expect a_missing_mesh_is_an_error_at_its_def_line 2 "" \
    "y_missing.def:2:10: error: mesh 'models/drone/gone.md5mesh' of model 'nomesh' is not in '"
actor noanimfile.md5scene '    model "noanimfile"
    anim "walk"'
run noanimfile info "$T/noanimfile.md5scene"
expect a_missing_anim_file_is_an_error_even_unplayed 2 "" \
    "y_missing.def:6:14: error: file 'models/drone/run.md5anim' of anim 'run' of model \
'noanimfile' is not in '"
actor nosynced.md5scene '    model "nosynced"
    anim "walk"'
run nosynced info "$T/nosynced.md5scene"
expect a_missing_synced_file_is_an_error 2 "" \
    "y_missing.def:10:45: error: file 'models/drone/gone.md5anim' of anim 'walk' of model \
'nosynced'"
actor heir.md5scene '    model "heir"'
run heir info "$T/heir.md5scene"
expect a_removed_missing_anim_still_defaults_the_inherited_model 2 "" \
    "y_missing.def:6:14: error: file 'models/drone/run.md5anim' of anim 'run' of model 'noanimfile'"

# Inheritance: a cycle is an error at the inherit that closes it; an unknown model to inherit is
# a warning at its name (the engine's too), and the rest of the declaration is used.
cat >"$T/base/def/z_more.def" <<'DEF'
model c1 { inherit c2 mesh models/drone/mesh.md5mesh }
model c2 {
    inherit c1
}
model orphan {
    inherit nowhere
    mesh models/drone/mesh.md5mesh
}
model late {
    inherit drone
    anim walk models/drone/forward.md5anim {
        frame 13 footstep
    }
}
model quiet {
    inherit drone
    anim walk models/drone/forward.md5anim
}
DEF
actor cycle.md5scene '    model "c1"'
run cycle info "$T/cycle.md5scene"
expect an_inheritance_cycle_is_an_error 2 "" \
    "z_more.def:3:13: error: model 'c1' inherits itself (through 'c1')"
actor orphan.md5scene '    model "orphan"'
run orphan info "$T/orphan.md5scene"
expect an_unknown_model_to_inherit_is_a_warning 0 "model \"orphan\"" \
    "z_more.def:6:13: warning: unknown model 'nowhere' to inherit"

# Frame commands: a frame past the anim's 12 is an error at its `frame` in the def file (the
# engine makes the whole model its default); an anim declared again drops the inherited one's
# commands (idAnim::SetAnim), so "quiet" plays walk with none and no warning.
actor late.md5scene '    model "late"
    anim "walk"'
run late info "$T/late.md5scene"
expect a_frame_past_the_anim_is_an_error 2 "" "z_more.def:12:9: error: frame 13 out of range: \
anim 'walk' (models/drone/forward.md5anim) has 12 frames"
actor quiet.md5scene '    model "quiet"
    anim "walk"'
run quiet info "$T/quiet.md5scene"
expect an_anim_declared_again_has_its_own_commands 0 "model \"quiet\""
if grep -q 'frame command\|walk' "$T/quiet.err" || grep -q 'frame [0-9]*:' "$T/quiet.out"; then
    fail an_anim_declared_again_lists_no_inherited_command "$(cat "$T/quiet.err" "$T/quiet.out")"
else
    ok an_anim_declared_again_lists_no_inherited_command
fi
run text info "$T/named.md5scene"
expect info_lists_the_commands_as_text 0 \
    "      frame 9: attach sword hand_r; \$y (skipped)"
expect info_text_shows_the_model_skin 0 '    skin "skins/drone_red" (the model'"'"'s)'
run text_files info "$T/files.md5scene"
expect info_text_shows_the_actor_skin 0 '    skin "skins/drone_red"'


# Skipped commands are one warning per name for the whole scene, at the first one, with the
# count: two actors play 'attach' once each (2), 'call' twice in one anim (2), 'fx' once (1).
cat >"$T/base/def/z_twice.def" <<'DEF'
model twice {
    inherit drone
    anim walk models/drone/forward.md5anim {
        frame 2 call a
        frame 4 attach x
        frame 5 call b
        frame 6 fx y
    }
}
DEF
printf 'md5scene 1\ncamera "still.md5camera"\nbase "base"\nactor "d" { model "drone" anim "walk" }
actor "e" { model "twice" anim "walk" }\n' >"$T/twice.md5scene"
run twice info "$T/twice.md5scene"
expect skipped_commands_are_counted_in_one_warning 0 "" \
    "monsters.def:14:21: warning: unknown frame command 'attach' skipped (2 times in the scene)"
want="z_twice.def:4:17: warning: frame command 'call' skipped: md5cine acts only on sound, \
footstep and skin commands (2 times in the scene)"
if [ "$(grep -c 'skipped' "$T/twice.err")" = 3 ] && grep -qF "$want" "$T/twice.err" &&
    grep -qF "z_twice.def:7:17: warning: frame command 'fx' skipped: md5cine acts only on sound, \
footstep and skin commands (1 time in the scene)" "$T/twice.err"; then
    ok one_warning_per_skipped_name
else
    fail one_warning_per_skipped_name "$(cat "$T/twice.err")"
fi

finish
