#!/bin/bash
# Materials from the command line: 'md5cine info FILE.mtr' (text and --json), and
# 'md5cine info SCENE --materials' on a base folder whose .pk4 archives are built here with
# Python's zipfile: which archive wins, which image each map got, which fell back to _default;
# errors at the offending token (exit 2) and one warning per unknown keyword.
set -u
. ./harness.sh materials_info

cat >"$T/imp.mtr" <<'MTR'
models/monsters/imp/imp
{
    qer_editorimage models/monsters/imp/imp_d
    diffusemap  models/monsters/imp/imp_d
    bumpmap     addnormals(models/monsters/imp/imp_local, heightmap(models/monsters/imp/imp_h, 4))
    specularmap models/monsters/imp/imp_s
    { blend add map models/monsters/imp/glow qer_editorimage x }
    twoSided
}
MTR

run mtr_text info "$T/imp.mtr"
expect mtr_text 0 "stage 2: bump map addnormals(models/monsters/imp/imp_local, heightmap(models/monsters/imp/imp_h, 4))" \
    "imp.mtr:3:5: warning: unknown keyword 'qer_editorimage' skipped"
if [ "$(grep -c "warning" "$T/mtr_text.err")" -eq 1 ]; then ok mtr_one_warning_per_keyword
else fail mtr_one_warning_per_keyword "$(cat "$T/mtr_text.err")"; fi

run mtr_json info --json "$T/imp.mtr"
if python3 - "$T/mtr_json.out" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
m = d["materials"][0]
assert d["type"] == "mtr" and m["name"] == "models/monsters/imp/imp" and m["line"] == 1
assert m["twoSided"] is True and m["alphaTest"] is None
k = [s["kind"] for s in m["stages"]]
assert k == ["diffuse", "bump", "specular", "color"], k
assert m["stages"][3]["blend"] == ["GL_ONE", "GL_ONE"]
assert m["stages"][3]["map"] == "models/monsters/imp/glow"
assert m["stages"][1]["map"].startswith("addnormals(")
PY
then ok mtr_json; else fail mtr_json "$(cat "$T/mtr_json.out")"; fi

printf 'a {\n  { blend GL_ONE GL_ZERO }\n}\n' >"$T/bad.mtr"
run mtr_error info "$T/bad.mtr"
expect mtr_error 2 "" "bad.mtr:2:18: error: expected ',', found 'GL_ZERO'"

# A base folder: pak000 holds the material and the diffuse image; pak001 overrides the diffuse
# image with a 2x1 one; the specular map is missing; a loose materials file adds another.
mkdir -p "$T/scene/base/materials"
python3 - "$T/scene/base" "$T/imp.mtr" <<'PY'
import struct, sys, zipfile
base, mtr = sys.argv[1], sys.argv[2]
def tga(w, h, bgr):
    return struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes(bgr) * (w * h)
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/imp.mtr', open(mtr).read().replace('models/monsters/imp/imp\n', 'skin\n', 1))
    z.writestr('models/monsters/imp/imp_d.tga', tga(1, 1, [1, 2, 3]))
    z.writestr('models/monsters/imp/imp_local.tga', tga(1, 1, [255, 128, 128]))
    z.writestr('models/monsters/imp/imp_h.tga', tga(1, 1, [9, 9, 9]))
with zipfile.ZipFile(base + '/pak001.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('Models/Monsters/Imp/IMP_D.TGA', tga(2, 1, [4, 5, 6]))
PY
cat >"$T/scene/a.md5scene" <<EOF2
md5scene 1
camera "$PWD/data/scenes/still.md5camera"
base "base"
actor a { mesh "$PWD/data/scenes/arm.md5mesh" }
EOF2

run scene_text info --materials "$T/scene/a.md5scene"
expect scene_text 0 "diffuse: models/monsters/imp/imp_d <- $T/scene/base/pak001.pk4:Models/Monsters/Imp/IMP_D.TGA (2x1)"
expect scene_text 0 "specular: models/monsters/imp/imp_s <- _default (missing models/monsters/imp/imp_s) (16x16) FALLBACK"

run scene_json info --materials --json "$T/scene/a.md5scene"
if python3 - "$T/scene_json.out" "$T/scene/base" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
base = sys.argv[2]
t = d["actors"][0]["textures"][0]
m = t["material"]
assert t["shader"] == "skin" and m["name"] == "skin", t
assert m["file"] == base + "/pak000.pk4:materials/imp.mtr", m["file"]
assert m["twoSided"] is True and m["lit"] is True
assert m["diffuse"]["width"] == 2 and m["diffuse"]["fallback"] is False
assert m["normal"]["sources"] == base + "/pak000.pk4:models/monsters/imp/imp_local.tga; " + \
    base + "/pak000.pk4:models/monsters/imp/imp_h.tga", m["normal"]["sources"]
assert m["specular"]["fallback"] is True
assert m["layers"][0]["blend"] == ["GL_ONE", "GL_ONE"] and m["layers"][0]["map"]["fallback"]
PY
then ok scene_json; else fail scene_json "$(head -c 600 "$T/scene_json.out")"; fi

# Without --materials the scene report is unchanged: no "material" key.
run scene_plain info --json "$T/scene/a.md5scene"
if [ "$rc" -eq 0 ] && ! grep -q '"material"' "$T/scene_plain.out"; then ok scene_plain
else fail scene_plain "$(head -c 300 "$T/scene_plain.out")"; fi

# A shader no declaration names and no image matches: the warning comes from the material pass
# (a base with archives may declare it), positioned at the shader in the mesh file.
mkdir -p "$T/scene2/base"
cp "$T/scene/base/pak001.pk4" "$T/scene2/base/"
sed 's/shader "skin"/shader "models\/none"/' data/scenes/arm.md5mesh >"$T/scene2/none.md5mesh"
sed "s|$PWD/data/scenes/arm.md5mesh|none.md5mesh|" "$T/scene/a.md5scene" >"$T/scene2/a.md5scene"
run scene_nomat info --materials "$T/scene2/a.md5scene"
expect scene_nomat 0 "" "none.md5mesh:13:9: warning: no material and no image for shader 'models/none' of actor 'a'"
if [ "$(grep -c "warning" "$T/scene_nomat.err")" -eq 1 ]; then ok scene_nomat_one_warning
else fail scene_nomat_one_warning "$(cat "$T/scene_nomat.err")"; fi

# A damaged archive is bad input (exit 2) naming it.
printf 'junk' >"$T/scene/base/pak002.pk4"
run scene_badzip info --materials "$T/scene/a.md5scene"
expect scene_badzip 2 "" "cannot open archive '$T/scene/base/pak002.pk4'"

finish
