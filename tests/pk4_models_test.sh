#!/bin/bash
# Model declarations inside .pk4 archives (docs/scene-files.md, "Models by name"): the base's def/*.def files
# and the mesh and anims a declaration names are read as the engine's file system reads them,
# loose files first, then the archives by name in descending order. A base whose only file is
# pak000.pk4 (def/x.def, the Red Eclipse drone's mesh and walk anim) names them by their place
# in the archive in `info`, and renders a frame byte-identical to the same files extracted as
# loose files; so does a model whose mesh's material (materials/drone.mtr) and image are in the
# archive too. An archive pak001.pk4 holding its own def/x.def overrides pak000's, and a loose
# def/x.def overrides both. Errors in an
# archived def file and an archived mesh are at their place: base/pak000.pk4:def/x.def:LINE:COL,
# positions counted by hand in the text written below.
set -u
. ./harness.sh pk4_models

A=data/assets/redeclipse-drone
mkdir -p "$T/x/def" "$T/x/models/drone" "$T/x/materials" "$T/pk/base" "$T/loose/base" \
    "$T/ovr/base"
cp data/render/checker.png data/render/still.md5camera "$T/"
cp "$A/mesh.md5mesh" "$A/forward.md5anim" "$A/idle.md5anim" "$T/x/models/drone/"
# the mesh with vertex 1 numbered 5: line 44 is "<TAB>vert 1 ( ...", the number at column 7
sed '44s/^\tvert 1 /\tvert 5 /' "$A/mesh.md5mesh" >"$T/x/models/drone/bad.md5mesh"
# the mesh with a declared material, whose image is a 4x4 TGA of four colours
sed 's/^\tshader ""/\tshader "models\/drone\/skin"/' "$A/mesh.md5mesh" \
    >"$T/x/models/drone/painted.md5mesh"
printf 'models/drone/skin { diffusemap models/drone/skin.tga }\n' >"$T/x/materials/drone.mtr"
python3 - "$T/x/models/drone/skin.tga" <<'PY'
import struct, sys
px = [(200, 40, 40), (40, 200, 40), (40, 40, 200), (220, 220, 60)]
body = b''.join(bytes(reversed(px[(x // 2) + 2 * (y // 2)])) for y in range(4) for x in range(4))
open(sys.argv[1], 'wb').write(struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 4, 4, 24, 0x20) + body)
PY
cat >"$T/x/def/x.def" <<'DEF'
entityDef monster_drone {
    "model"     "drone"
}

model drone {
    mesh        models/drone/mesh.md5mesh
    anim idle   models/drone/idle.md5anim
    anim walk   models/drone/forward.md5anim
}

model broken {
    mesh        models/drone/mesh.md5mesh
    wobble      1
}

model badmesh {
    mesh        models/drone/bad.md5mesh
}

model painted {
    mesh        models/drone/painted.md5mesh
    anim walk   models/drone/forward.md5anim
}
DEF
# the archive, written by Python's zipfile (deflated); the same files loose in another base
python3 - "$T/x" "$T/pk/base/pak000.pk4" <<'PY' || fail pk4_written
import os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in ["def/x.def", "models/drone/mesh.md5mesh", "models/drone/idle.md5anim",
                 "models/drone/forward.md5anim", "models/drone/bad.md5mesh",
                 "models/drone/painted.md5mesh", "models/drone/skin.tga", "materials/drone.mtr"]:
        z.write(os.path.join(src, name), name)
PY
cp -r "$T/x/def" "$T/x/models" "$T/x/materials" "$T/loose/base/"
cp "$T/pk/base/pak000.pk4" "$T/ovr/base/"
printf 'model drone {\n    mesh models/drone/mesh.md5mesh\n    offset ( 0 0 5 )\n}\n' >"$T/x/ovr.def"
python3 - "$T/x/ovr.def" "$T/ovr/base/pak001.pk4" <<'PY' || fail pk4_written
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[1], "def/x.def")
PY

# a loose def/x.def beside the archives replaces both archives' (loose files come first)
mkdir -p "$T/lz/base/def"
cp "$T/ovr/base/pak000.pk4" "$T/ovr/base/pak001.pk4" "$T/lz/base/"
printf 'model drone {\n    mesh models/drone/mesh.md5mesh\n    offset ( 0 0 7 )\n}\n' >"$T/lz/base/def/x.def"

scene() { # scene FOLDER NAME MODEL [ANIM]
    local anim=
    [ -n "${4:-}" ] && anim="    anim \"$4\""
    printf 'md5scene 1\ncamera "../still.md5camera"\nbase "base"\noutput { width 96 height 96 background ( 0.1 0.1 0.15 ) }\nactor "d" {\n    model "%s"\n%s\n    yaw 180\n    scale 18\n    material "" "../checker.png"\n}\n' \
        "$3" "$anim" >"$T/$1/$2.md5scene"
}
scene pk walk drone walk
scene loose walk drone walk
scene pk painted painted walk
scene loose painted painted walk
scene ovr walk drone
scene lz walk drone

run info info "$T/pk/walk.md5scene" --json
expect info_reads_a_model_from_an_archive 0
python3 - "$T/info.out" "$T/pk/base/pak000.pk4" <<'PY' && ok info_names_the_places_in_the_archive || fail info_names_the_places_in_the_archive "$(cat "$T/info.py")"
import json, sys
a = json.load(open(sys.argv[1]))["actors"][0]
pk = sys.argv[2]
m = a["model"]
got = [m["file"], m["line"], a["mesh"], a["anim"], m["anim"], [x["name"] for x in m["anims"]]]
want = [pk + ":def/x.def", 5, pk + ":models/drone/mesh.md5mesh",
        pk + ":models/drone/forward.md5anim", "walk", ["idle", "walk"]]
if got != want:
    open(sys.argv[1].replace(".out", ".py"), "w").write("got %s, want %s" % (got, want))
    sys.exit(1)
PY
run info_text info "$T/pk/walk.md5scene"
expect info_text_names_the_archived_declaration 0 \
    "model \"drone\" ($T/pk/base/pak000.pk4:def/x.def:5)"

run pk render "$T/pk/walk.md5scene" --frames 5-5 --msaa 0 -o "$T/pk%d.png"
expect renders_a_model_from_an_archive 0
run loose render "$T/loose/walk.md5scene" --frames 5-5 --msaa 0 -o "$T/loose%d.png"
expect renders_the_same_model_from_loose_files 0
check_same_picture an_archived_model_draws_the_same_pixels_as_its_loose_files "$T/pk5.png" "$T/loose5.png"
# the same with the material and its image inside the archive too (read by the materials)
run pk_painted render "$T/pk/painted.md5scene" --frames 5-5 --msaa 0 -o "$T/pkp%d.png"
expect renders_a_painted_model_from_an_archive 0
run loose_painted render "$T/loose/painted.md5scene" --frames 5-5 --msaa 0 -o "$T/loosep%d.png"
expect renders_the_painted_model_from_loose_files 0
check_same_picture an_archived_material_draws_the_same_pixels_as_its_loose_files \
    "$T/pkp5.png" "$T/loosep5.png"
if cmp -s "$T/pkp5.png" "$T/pk5.png"; then
    fail an_archived_material_is_drawn "the painted frame is the unpainted one"
else
    ok an_archived_material_is_drawn
fi

# a video's chunk tags hold the scene's identity: a hash of every file it reads, archived ones too
run video render "$T/pk/walk.md5scene" --size 64x64 --frames 0-3 -o "$T/pk.mp4"
expect renders_an_archived_model_to_video 0

# outputs never replace inputs: the archive a model's files came from is an input
cp "$T/pk/base/pak000.pk4" "$T/pak000.copy"
run guard render "$T/pk/walk.md5scene" --frames 5-5 --msaa 0 -o "$T/g%d.png" \
    --reference "$T/pk5.png" --junit "$T/pk/base/pak000.pk4"
expect an_archive_read_is_not_replaced 2 "" \
    "--junit '$T/pk/base/pak000.pk4' is the input '$T/pk/base/pak000.pk4:models/drone/mesh.md5mesh'; refusing to replace an input"
cmp -s "$T/pk/base/pak000.pk4" "$T/pak000.copy" && ok the_archive_is_untouched ||
    fail the_archive_is_untouched "pak000.pk4 changed"

# pak001.pk4's def/x.def replaces pak000's whole file (the mesh still comes from pak000)
run ovr info "$T/ovr/walk.md5scene" --json
expect info_reads_the_overriding_archive 0
python3 - "$T/ovr.out" "$T/ovr/base" <<'PY' && ok a_later_archive_overrides_an_earlier_one || fail a_later_archive_overrides_an_earlier_one "$(cat "$T/ovr.py")"
import json, sys
a = json.load(open(sys.argv[1]))["actors"][0]
b = sys.argv[2]
got = [a["model"]["file"], a["model"]["offset"], a["mesh"], a["model"]["anims"]]
want = [b + "/pak001.pk4:def/x.def", [0, 0, 5], b + "/pak000.pk4:models/drone/mesh.md5mesh", []]
if got != want:
    open(sys.argv[1].replace(".out", ".py"), "w").write("got %s, want %s" % (got, want))
    sys.exit(1)
PY
run lz info "$T/lz/walk.md5scene" --json
expect info_reads_the_loose_declaration 0
python3 - "$T/lz.out" "$T/lz/base" <<'PY' && ok a_loose_file_overrides_the_archives || fail a_loose_file_overrides_the_archives "$(cat "$T/lz.py")"
import json, sys
a = json.load(open(sys.argv[1]))["actors"][0]
b = sys.argv[2]
got = [a["model"]["file"], a["model"]["offset"], a["mesh"]]
want = [b + "/def/x.def", [0, 0, 7], b + "/pak000.pk4:models/drone/mesh.md5mesh"]
if got != want:
    open(sys.argv[1].replace(".out", ".py"), "w").write("got %s, want %s" % (got, want))
    sys.exit(1)
PY

# Errors inside the archive, at their place there; the CLI shows the archived source line.
scene pk broken broken
run broken info "$T/pk/broken.md5scene"
expect a_bad_declaration_in_an_archive_is_an_error_at_its_place 2 "" \
    "$T/pk/base/pak000.pk4:def/x.def:13:5: error: unknown keyword 'wobble' in model 'broken'"
grep -qF "    wobble      1" "$T/broken.err" && ok the_archived_def_line_is_shown ||
    fail the_archived_def_line_is_shown "$(head -c 300 "$T/broken.err")"
scene pk badmesh badmesh
run badmesh info "$T/pk/badmesh.md5scene"
expect a_bad_mesh_in_an_archive_is_an_error_at_its_place 2 "" \
    "$T/pk/base/pak000.pk4:models/drone/bad.md5mesh:44:7: error: 'vert' number 5 is out of order, expected 1"
scene pk nosuch nosuch
run nosuch info "$T/pk/nosuch.md5scene"
expect an_unknown_model_is_an_error_at_its_token 2 "" \
    "nosuch.md5scene:6:11: error: no model declaration 'nosuch' in $T/pk/base/def/*.def"
# an archive that is no zip: an error at the actor's model, naming the archive
mkdir -p "$T/junk/base"
echo "not a zip" >"$T/junk/base/pak000.pk4"
scene junk walk drone walk
run junk info "$T/junk/walk.md5scene"
expect a_damaged_archive_is_an_error_at_the_model 2 "" \
    "walk.md5scene:6:11: error: cannot load model 'drone': cannot open archive '$T/junk/base/pak000.pk4'"

# Budgets, as for materials: a def entry declaring 65 MiB of text (zeros, deflated) is refused
# on its declared size, before it is inflated (64 MiB of declaration text in all: 67108864
# bytes; 65 MiB is 68157440); a mesh entry holding more than its declared 1000 bytes stops
# there.
mkdir -p "$T/big/base" "$T/lie/base"
python3 - "$T" "$T/x/models/drone/mesh.md5mesh" <<'PY' || fail budget_archives_written
import shutil, struct, sys, zipfile
t, mesh = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(t + '/big/base/pak000.pk4', 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    with z.open('def/big.def', 'w') as f:
        for _ in range(65):
            f.write(bytes(1 << 20))
shutil.copy(t + '/pk/base/pak000.pk4', t + '/big/base/pak001.pk4')
with zipfile.ZipFile(t + '/lie/base/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.write(t + '/x/def/x.def', 'def/x.def')
    for anim in ('idle', 'forward'):  # the declaration's anims: a missing one is refused first
        z.write(t + '/x/models/drone/%s.md5anim' % anim, 'models/drone/%s.md5anim' % anim)
    z.write(mesh, 'models/drone/mesh.md5mesh')  # last: its central header is the last one
d = bytearray(open(t + '/lie/base/pak000.pk4', 'rb').read())
name = b'models/drone/mesh.md5mesh'
local = d.find(name) - 30  # the local header before the entry's name
assert d[local:local + 4] == b'PK\x03\x04'
struct.pack_into('<I', d, local + 22, 1000)
central = d.rfind(b'PK\x01\x02')
assert d[central + 46:central + 46 + len(name)] == name
struct.pack_into('<I', d, central + 24, 1000)
open(t + '/lie/base/pak000.pk4', 'wb').write(d)
PY
scene big walk drone walk
run big info "$T/big/walk.md5scene"
expect a_def_entry_over_the_text_budget_is_refused 2 "" \
    "walk.md5scene:6:11: error: cannot load model: '$T/big/base/pak000.pk4:def/big.def' declares 68157440 bytes, over the limit of 67108864"
scene lie walk drone
run lie info "$T/lie/walk.md5scene"
expect a_mesh_entry_stops_at_its_declared_size 2 "" \
    "'$T/lie/base/pak000.pk4:models/drone/mesh.md5mesh' holds more data than its declared 1000 bytes"

# A shader that no material declares, whose image is only inside an archive: the engine's
# implicit material (Material.cpp, idMaterial::SetDefaultText: one stage `blend blend`,
# `colored`, `map NAME`, `clamp`) draws the image found through the file system, archives
# included. The image is a 2x2 TGA all (200, 40, 40), opaque: blend blend gives the texel
# itself (src alpha 1), colored multiplies by the entity colour (1 1 1 1), and the stage is not
# lit. So every pixel is the background (0.1 0.1 0.15 -> 26 26 38) or (200, 40, 40), and the
# drone covers some of them. The mesh is a file beside the scene, with no image beside it.
mkdir -p "$T/imp/base"
cp "$T/x/models/drone/painted.md5mesh" "$T/imp/"
python3 - "$T/imp/base/pak000.pk4" <<'PY' || fail implicit_archive_written
import struct, sys, zipfile
tga = struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 2, 2, 24, 0x20) + bytes([40, 40, 200]) * 4
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('models/drone/skin.tga', tga)
PY
printf 'md5scene 1\ncamera "../still.md5camera"\nbase "base"\noutput { width 96 height 96 background ( 0.1 0.1 0.15 ) }\nactor "d" {\n    mesh "painted.md5mesh"\n    anim "../x/models/drone/forward.md5anim"\n    yaw 180\n    scale 18\n    material "" "../checker.png"\n}\n' >"$T/imp/implicit.md5scene"
run implicit render "$T/imp/implicit.md5scene" --frames 5-5 --msaa 0 -o "$T/imp/f%d.png"
expect an_archived_implicit_image_renders 0
python3 - "$T/imp/f5.png" <<'PY' && ok the_implicit_material_draws_its_archived_image_unlit ||
import collections, subprocess, sys
raw = subprocess.run(['convert', sys.argv[1], '-depth', '8', 'rgb:-'], capture_output=True).stdout
n = collections.Counter(raw[i:i + 3] for i in range(0, len(raw), 3))
red, bg = bytes([200, 40, 40]), bytes([26, 26, 38])
print(dict((tuple(k), v) for k, v in n.most_common(4)), file=sys.stderr)
sys.exit(0 if set(n) == {red, bg} and n[red] > 50 else 1)
PY
    fail the_implicit_material_draws_its_archived_image_unlit "$(cat "$T/implicit.err")"

finish
