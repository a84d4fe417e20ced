#!/bin/bash
# Materials read the engine's way, on a base folder whose .pk4 archives are built here with
# Python's zipfile: a .mtr that ends in a NUL byte (Doom's lexer stops there), a used material
# with two 'map' lines in one stage (the second wins), an unused material with a syntax error
# (never parsed: no warning, exit 0), a used material with an error (one positioned warning
# with its archived source line, Doom's default material, exit 0; --strict makes it exit 2),
# the first declaration of a name winning across files and archives, and a counter of parsed
# declarations that equals the number the scene uses.
set -u
. ./outcome.sh materials_engine

mkdir -p "$T/base/materials" "$T/base2"
python3 - "$T/base" <<'PY'
import struct, sys, zipfile
base = sys.argv[1]
def tga(w, h, bgr):
    return struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes(bgr) * (w * h)
# a.mtr (pak000): "skin" with two maps in a stage, then an unused broken material, then a NUL
# and bytes Doom never reads.
a = (b"skin\n{\n    { blend diffusemap\n      map textures/first\n      map textures/second }\n}\n"
     b"unused/broken\n{\n    { blend nope }\n    map ( ( (\n}\n"
     b"dup { diffusemap textures/first }\n"
     b"\0 this is past the end { { {\n")
# b.mtr (pak000): a used material with an error on line 3, column 11.
b = b"// used, broken\nbroken\n{\n  { blend GL_ONE GL_ZERO map textures/first }\n}\n"
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/a.mtr', a)
    z.writestr('materials/b.mtr', b)
    z.writestr('textures/first.tga', tga(1, 1, [10, 20, 30]))
    z.writestr('textures/second.tga', tga(1, 1, [40, 50, 60]))
PY
# A loose materials file later in name order declares "dup" again: the first (a.mtr) wins.
printf 'dup { diffusemap textures/second }\n' >"$T/base/materials/c.mtr"

mesh() { sed "s|shader \"skin\"|shader \"$1\"|" data/scenes/arm.md5mesh >"$T/$2"; }
mesh skin skin.md5mesh
mesh broken broken.md5mesh
mesh dup dup.md5mesh
printf 'md5scene 1\ncamera "%s/data/scenes/still.md5camera"\nbase "base"\nactor a { mesh "skin.md5mesh" }\n' \
    "$PWD" >"$T/good.md5scene"
printf 'md5scene 1\ncamera "%s/data/scenes/still.md5camera"\nbase "base"\nactor a { mesh "skin.md5mesh" }\nactor b { mesh "broken.md5mesh" }\nactor c { mesh "dup.md5mesh" }\n' \
    "$PWD" >"$T/broken.md5scene"

# The NUL-terminated file, two maps, the unused broken material: no warning at all.
run good_text info --materials "$T/good.md5scene"
expect good_text 0 "diffuse: textures/second <- $T/base/pak000.pk4:textures/second.tga (1x1)"
if [ ! -s "$T/good_text.err" ]; then ok good_no_warning
else fail good_no_warning "$(cat "$T/good_text.err")"; fi

# The counter: one declaration used, one parsed (of the 4 names indexed).
run good_json info --materials --json "$T/good.md5scene"
if python3 - "$T/good_json.out" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["materials"] == {"declared": 4, "parsed": 1}, d["materials"]
m = d["actors"][0]["textures"][0]["material"]
assert m["diffuse"]["program"] == "textures/second", m
assert m["diffuse"]["color"] == [1, 1, 1, 1] and m["diffuse"]["wrap"] == "repeat", m
PY
then ok parsed_counter; else fail parsed_counter "$(head -c 600 "$T/good_json.out")"; fi

# Without --materials: the index only (nothing parsed), and which declaration a shader takes.
run plain_text info "$T/broken.md5scene"
expect plain_text 0 "shader \"broken\" -> material $T/base/pak000.pk4:materials/b.mtr:2" ""
expect plain_counter 0 "materials: 4 declared in" ""
if grep -q "4 declared in .*, 0 parsed" "$T/plain_text.out"; then ok plain_parses_nothing
else fail plain_parses_nothing "$(cat "$T/plain_text.out")"; fi

# A used broken material: one warning at its position with the archived source line, the
# default material, exit 0; the first "dup" (a.mtr) wins over the loose c.mtr.
run broken_text info --materials "$T/broken.md5scene"
expect broken_text 0 "mesh 0: shader \"broken\" (material broken, $T/base/pak000.pk4:materials/b.mtr:2)" \
    "$T/base/pak000.pk4:materials/b.mtr:4:18: warning: expected ',', found 'GL_ZERO'; material 'broken' drawn as Doom's default"
if [ "$(grep -c "warning" "$T/broken_text.err")" -eq 1 ]; then ok broken_one_warning
else fail broken_one_warning "$(cat "$T/broken_text.err")"; fi
if grep -qF '    4 |   { blend GL_ONE GL_ZERO map textures/first }' "$T/broken_text.err"; then
    ok broken_source_line
else fail broken_source_line "$(cat "$T/broken_text.err")"; fi
if grep -qF "diffuse: textures/first <- $T/base/pak000.pk4:textures/first.tga" "$T/broken_text.out" &&
    grep -qF "mesh 0: shader \"dup\" (material dup, $T/base/pak000.pk4:materials/a.mtr:12)" "$T/broken_text.out"; then
    ok first_declaration_wins
else fail first_declaration_wins "$(cat "$T/broken_text.out")"; fi

run broken_strict info --materials --strict "$T/broken.md5scene"
expect broken_strict 2 "" "$T/base/pak000.pk4:materials/b.mtr:4:18: error: expected ',', found 'GL_ZERO'"

# A later archive's materials/a.mtr replaces pak000's whole file: "skin" now comes from pak001.
python3 - "$T/base" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + '/pak001.pk4', 'w') as z:
    z.writestr('materials/a.mtr', b"skin { diffusemap textures/first }\n")
PY
run override info --materials "$T/good.md5scene"
expect override 0 "(material skin, $T/base/pak001.pk4:materials/a.mtr:1)"

# A shader with neither a declaration nor an image: black, or Doom's box with --missing box.
mesh nothing nothing.md5mesh
printf 'md5scene 1\ncamera "%s/data/scenes/still.md5camera"\nbase "base"\nactor a { mesh "nothing.md5mesh" }\n' \
    "$PWD" >"$T/missing.md5scene"
run missing_black info --materials "$T/missing.md5scene"
expect missing_black 0 "diffuse: _default <- black (missing material) (16x16) FALLBACK" "drawn black"
run missing_box info --materials --missing box "$T/missing.md5scene"
expect missing_box 0 "diffuse: _default <- _default (missing material) (16x16) FALLBACK" "drawn as Doom's default box"

# The scene renders with the broken used material (one warning) and the unused one (none).
run render_broken render "$T/broken.md5scene" -o "$T/frames/%05d.png" --size 32x24 --quiet
expect render_broken 0 "" "warning: expected ',', found 'GL_ZERO'"
if [ "$(grep -c "warning" "$T/render_broken.err")" -eq 1 ] && [ -s "$T/frames/00000.png" ]; then
    ok render_one_warning
else fail render_one_warning "$(cat "$T/render_broken.err")"; fi
run render_strict render "$T/broken.md5scene" -o "$T/frames2/%05d.png" --size 32x24 --quiet --strict
expect render_strict 2 "" "error: expected ',', found 'GL_ZERO'"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
