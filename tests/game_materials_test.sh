#!/bin/bash
# A base folder as shipped games have them, read the engine's way: .mtr files in .pk4 archives
# (built here with Python's zipfile) are indexed, and only the declarations a scene uses are
# parsed. A file ending in a NUL byte, a stage with two map lines, a broken material no actor
# uses (no word about it), a broken material an actor uses (one positioned warning, the default
# material, exit 0), and which declaration wins among loose files and archives.
set -u
. ./harness.sh game_materials

scene() { # scene FOLDER: a scene whose one actor's shader is "skin" (arm.md5mesh)
    mkdir -p "$1/base/materials"
    cat >"$1/a.md5scene" <<EOF2
md5scene 1
camera "$PWD/data/scenes/still.md5camera"
base "base"
actor a { mesh "$PWD/data/scenes/arm.md5mesh" }
EOF2
}

# 1. The used material "skin" has two map lines (the second wins: a red image); an unused one
#    has a syntax error; the file ends in a NUL byte and junk after it.
scene "$T/one"
python3 - "$T/one/base" <<'PY'
import struct, sys, zipfile
base = sys.argv[1]
def tga(w, h, bgr):
    return struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes(bgr) * (w * h)
mtr = (b"unused/broken\n{\n    { blend add map ) }\n}\n"
       b"skin\n{\n    {\n        blend diffusemap\n        map textures/green\n"
       b"        map textures/red\n    }\n}\n\x00{ junk after the NUL")
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/patd.mtr', mtr)
    z.writestr('textures/green.tga', tga(1, 1, [0, 255, 0]))
    z.writestr('textures/red.tga', tga(1, 1, [0, 0, 255]))
PY
run nul_json info --json "$T/one/a.md5scene"
expect reads_a_file_ending_in_nul 0 '"materialsDeclared":2,"materialsParsed":0'
run nul_text info "$T/one/a.md5scene"
expect names_the_declared_material 0 \
    "mesh 0: shader \"skin\" -> material declared at $T/one/base/pak000.pk4:materials/patd.mtr:5"
run nul_mat info --materials --json "$T/one/a.md5scene"
if [ "$rc" -eq 0 ] && [ ! -s "$T/nul_mat.err" ] && python3 - "$T/nul_mat.out" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
m = d["actors"][0]["textures"][0]["material"]
assert d["materialsDeclared"] == 2 and d["materialsParsed"] == 1, d
assert m["name"] == "skin" and m["diffuse"]["program"] == "textures/red", m
PY
then ok second_map_wins_and_only_the_used_material_is_parsed
else fail second_map_wins_and_only_the_used_material_is_parsed "$(cat "$T/nul_mat.err" "$T/nul_mat.out")"; fi
run nul_render render "$T/one/a.md5scene" --size 32x32 --msaa 0 -o "$T/one/f%d.png"
if [ "$rc" -eq 0 ] && ! grep -q "warning" "$T/nul_render.err" && [ -s "$T/one/f0.png" ]; then
    ok renders_without_a_word_about_the_unused_broken_material
else
    fail renders_without_a_word_about_the_unused_broken_material "rc $rc: $(cat "$T/nul_render.err")"
fi

# 2. The used material itself is broken: one warning at the offending token (line 3, column 21:
#    the ')' after map), the default material, exit 0.
scene "$T/two"
printf 'skin\n{\n    { blend add map ) }\n}\n' >"$T/two/base/materials/m.mtr"
run broken_render render "$T/two/a.md5scene" --size 32x32 --msaa 0 -o "$T/two/f%d.png"
expect broken_used_material_renders 0 "" \
    "$T/two/base/materials/m.mtr:3:21: warning: expected an image name, found ')'"
if [ "$(grep -c warning "$T/broken_render.err")" -eq 1 ] &&
   grep -q "material 'skin' is drawn as the default material" "$T/broken_render.err"; then
    ok broken_used_material_warns_once
else
    fail broken_used_material_warns_once "$(cat "$T/broken_render.err")"
fi
run broken_info info --materials --json "$T/two/a.md5scene"
if python3 - "$T/broken_info.out" <<'PY'
import json, sys
m = json.loads(open(sys.argv[1]).read())["actors"][0]["textures"][0]["material"]
assert m["lit"] is False and m["layers"][0]["blend"] == ["GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA"], m
assert m["layers"][0]["map"]["program"] == "_default", m
PY
then ok broken_used_material_is_the_default_material; else fail broken_used_material_is_the_default_material "$(cat "$T/broken_info.out")"; fi
run strict_mtr info "$T/two/base/materials/m.mtr"
expect info_on_the_file_still_validates_strictly 2 "" "m.mtr:3:21: error: expected an image name, found ')'"

# An error in an archived .mtr prints its source line, read from the archive.
mkdir -p "$T/arch/base"
python3 - "$T/arch/base" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + '/pak000.pk4', 'w') as z:
    z.writestr('materials/m.mtr', 'skin\n{\n    { blend add map ) }\n}\n')
PY
scene "$T/arch"
run arch render "$T/arch/a.md5scene" --size 16x16 --msaa 0 -o "$T/arch/f%d.png"
expect archived_mtr_error_shows_its_line 0 "" "    3 |     { blend add map ) }"

# 3. Which declaration of one name wins. Files are read in sorted name order and the first
#    declaration of a name wins (DeclManager.cpp, idDeclFile::LoadAndParse); for one file name
#    the loose file beats the archives and pak001 beats pak000 (vfs.h).
#    a.mtr (pak000, replaced whole by pak001's a.mtr) / b.mtr (loose) / c.mtr (pak000).
scene "$T/three"
python3 - "$T/three/base" <<'PY'
import sys, zipfile
base = sys.argv[1]
with zipfile.ZipFile(base + '/pak000.pk4', 'w') as z:
    z.writestr('materials/a.mtr', 'skin { diffusemap from_pak000_a }\n')
    z.writestr('materials/c.mtr', 'skin { diffusemap from_pak000_c }\nonly_c { }\n')
with zipfile.ZipFile(base + '/pak001.pk4', 'w') as z:
    z.writestr('materials/a.mtr', 'other { diffusemap from_pak001_a }\n')
open(base + '/materials/b.mtr', 'w').write('skin { diffusemap from_loose_b }\n')
PY
run order info --materials --json "$T/three/a.md5scene"
if python3 - "$T/order.out" "$T/three/base" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
m = d["actors"][0]["textures"][0]["material"]
assert m["file"] == sys.argv[2] + "/materials/b.mtr", m["file"]
assert m["diffuse"]["program"] == "from_loose_b", m
assert d["materialsDeclared"] == 3, d   # other, only_c, skin
PY
then ok first_file_in_order_wins; else fail first_file_in_order_wins "$(cat "$T/order.out" "$T/order.err")"; fi
rm "$T/three/base/materials/b.mtr"
run order2 info --materials --json "$T/three/a.md5scene"
if python3 - "$T/order2.out" "$T/three/base" <<'PY'
import json, sys
m = json.loads(open(sys.argv[1]).read())["actors"][0]["textures"][0]["material"]
assert m["file"] == sys.argv[2] + "/pak000.pk4:materials/c.mtr", m["file"]
PY
then ok a_replaced_file_drops_its_declarations; else fail a_replaced_file_drops_its_declarations "$(cat "$T/order2.out")"; fi

# 4. A base of 1,000 materials in 50 files: the scene uses one, one is parsed.
scene "$T/four"
python3 - "$T/four/base" <<'PY'
import sys, zipfile
base = sys.argv[1]
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    for f in range(50):
        text = ''.join('models/m%02d_%02d { diffusemap x%d { blend add map y } }\n' % (f, i, i)
                       for i in range(20))
        if f == 49:
            text = text.replace('models/m49_19', 'skin')
        z.writestr('materials/f%02d.mtr' % f, text)
PY
run many info --materials --json "$T/four/a.md5scene"
expect parses_only_what_the_scene_uses 0 '"materialsDeclared":1000,"materialsParsed":1'

# A broken used material inside a .pk4: the warning shows its source line, read back from the
# archive; --strict makes it an error (exit 2) for info and render alike, and leaves an unused
# broken material alone.
scene "$T/arch"
python3 - "$T/arch/base" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + '/pak000.pk4', 'w') as z:
    z.writestr('materials/m.mtr', b"// broken\nskin\n{\n  { blend GL_ONE GL_ZERO map x }\n}\n")
PY
run arch_info info --materials "$T/arch/a.md5scene"
expect archived_error_warns 0 "" "$T/arch/base/pak000.pk4:materials/m.mtr:4:18: warning: expected ',', found 'GL_ZERO'"
if grep -qF '    4 |   { blend GL_ONE GL_ZERO map x }' "$T/arch_info.err"; then
    ok archived_error_shows_its_source_line
else fail archived_error_shows_its_source_line "$(cat "$T/arch_info.err")"; fi
run arch_strict info --materials --strict "$T/arch/a.md5scene"
expect strict_info_refuses_a_broken_used_material 2 "" \
    "$T/arch/base/pak000.pk4:materials/m.mtr:4:18: error: expected ',', found 'GL_ZERO'"
run arch_strict_render render "$T/arch/a.md5scene" --strict --size 32x32 --msaa 0 -o "$T/arch/f%d.png"
expect strict_render_refuses_a_broken_used_material 2 "" "error: expected ',', found 'GL_ZERO'"
run arch_unused_strict info --materials --strict "$T/one/a.md5scene"
expect strict_ignores_an_unused_broken_material 0

finish
