#!/bin/bash
# A mesh's shader names a file of the base only (docs/hardening.md, "Names from declarations stay
# inside the base"): the implicit image rule looks for <stem>.tga/.png/.jpg under `base` by the
# shader's whole path, and a stem that is absolute, a drive's, or with a '..' part, or a file
# that is a link leaving the base, is no image of it (the engine's file system refuses such
# names, idFileSystemLocal::OpenFileReadFlags). Four meshes of one file, each with its shader:
#   0 "models/ok"         base/models/ok.png, inside: its image
#   1 "../secret"         secret.png beside the base folder: none
#   2 "models/link"       base/models/link.png, a link to secret.png: none
#   3 "<T>/abs/secret"    an absolute path to a PNG outside: none
# The mesh lies outside the base (mesh/), so the rule's other place, the mesh's folder, holds
# nothing of these names. Expected: info --json names the image of mesh 0 only.
set -u
. ./harness.sh shader_escape

mkdir -p "$T/base/models" "$T/mesh" "$T/abs"
cp data/render/checker.png "$T/base/models/ok.png"
cp "$T/base/models/ok.png" "$T/secret.png"
cp "$T/base/models/ok.png" "$T/abs/secret.png"
ln -s "$T/secret.png" "$T/base/models/link.png"
python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
shaders = ["models/ok", "../secret", "models/link", d + "/abs/secret"]
t = 'MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes %d\njoints {\n' % len(shaders)
t += '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n'
for s in shaders:
    t += 'mesh {\n\tshader "%s"\n\tnumverts 3\n' % s
    for i in range(3):
        t += '\tvert %d ( 0 0 ) %d 1\n' % (i, i)
    t += '\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 3\n'
    for i, p in enumerate([(0, 0, 0), (0, 10, 0), (0, 0, 10)]):
        t += '\tweight %d 0 1 ( %d %d %d )\n' % ((i,) + p)
    t += '}\n'
open(d + "/mesh/m.md5mesh", "w").write(t)
open(d + "/s.md5scene", "w").write(
    'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor "a" { mesh "mesh/m.md5mesh" }\n')
PY
cp data/camera/single.md5camera "$T/cam.md5camera"

run info info "$T/s.md5scene" --json
expect info_reads_the_scene 0
python3 - "$T" "$T/info.out" >"$T/images.txt" <<'PY' && ok only_the_base_files_image_is_found || fail only_the_base_files_image_is_found "$(cat "$T/images.txt" "$T/info.err")"
import json, sys
d, out = sys.argv[1], sys.argv[2]
got = [t["image"] for t in json.load(open(out))["actors"][0]["textures"]]
want = [d + "/base/models/ok.png", None, None, None]
if got != want:
    print("images %s, expected %s" % (got, want))
    sys.exit(1)
PY

finish
