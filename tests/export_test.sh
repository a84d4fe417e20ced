#!/bin/bash
# md5cine export: OBJ counts and winding checked against the md5mesh files themselves (their
# numverts/numtris lines and first triangles), --frame/--time agreement, and errors.
set -u
. ./outcome.sh export
TMP=$T
trap 'rm -rf "$TMP"' EXIT
A=data/assets
CUBE=$A/assimp-simplecube/SimpleCube.md5mesh
DRONE=$A/redeclipse-drone/mesh.md5mesh
FORWARD=$A/redeclipse-drone/forward.md5anim
expect_eq() { # name got want
    if [ "$2" != "$3" ]; then fail "$1" "got '$2', want '$3'"; else ok "$1"; fi
}

count() { # prefix file
    grep -c "^$1 " "$2"
}

sum_field() { # keyword mesh: sum of the values after every 'keyword' line
    awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }' "$2"
}

# --- SimpleCube in its bind pose
"$MD5CINE" export "$CUBE" -o "$TMP/cube.obj"
expect_eq "cube exits 0" "$?" 0
verts=$(sum_field numverts "$CUBE")
tris=$(sum_field numtris "$CUBE")
expect_eq "cube has 24 vertices in the file" "$verts" 24
expect_eq "cube v lines" "$(count v "$TMP/cube.obj")" "$verts"
expect_eq "cube vt lines" "$(count vt "$TMP/cube.obj")" "$verts"
expect_eq "cube vn lines" "$(count vn "$TMP/cube.obj")" "$verts"
expect_eq "cube f lines" "$(count f "$TMP/cube.obj")" "$tris"
# the file's first triangle is "tri 0 2 1 0": reversed and 1-based it is 1 2 3
expect_eq "cube first tri in the file" "$(grep -m1 '^tri ' "$CUBE" | awk '{print $3, $4, $5}')" \
    "2 1 0"
expect_eq "cube first face reversed" "$(grep -m1 '^f ' "$TMP/cube.obj")" "f 1/1/1 2/2/2 3/3/3"
# vert 0 ( 0.1875 -0.25 ): OBJ's v = 1 - t = 1.25
expect_eq "cube first vt flips t" "$(grep -m1 '^vt ' "$TMP/cube.obj")" "vt 0.1875 1.25"
# the shader is "": the group is named after the submesh index
expect_eq "cube group name" "$(grep -m1 '^o ' "$TMP/cube.obj")" "o mesh0"

# --- a drone frame: two submeshes, indices of the second offset by the first's vertices
"$MD5CINE" export "$DRONE" "$FORWARD" --frame 2 -o "$TMP/drone2.obj"
expect_eq "drone exits 0" "$?" 0
expect_eq "drone v lines" "$(count v "$TMP/drone2.obj")" "$(sum_field numverts "$DRONE")"
expect_eq "drone vn lines" "$(count vn "$TMP/drone2.obj")" "$(sum_field numverts "$DRONE")"
expect_eq "drone f lines" "$(count f "$TMP/drone2.obj")" "$(sum_field numtris "$DRONE")"
info=$("$MD5CINE" info "$DRONE" | head -1 | sed -E 's/.* ([0-9]+) vertices, ([0-9]+) triangles$/\1 \2/')
expect_eq "drone counts agree with md5cine info" \
    "$(count v "$TMP/drone2.obj") $(count f "$TMP/drone2.obj")" "$info"
expect_eq "drone groups" "$(count o "$TMP/drone2.obj")" "$(grep -c '^mesh {' "$DRONE")"
first_verts=$(awk '$1 == "numverts" { print $2; exit }' "$DRONE")
# first triangle of the second mesh block, reversed, plus the first block's vertex count
want=$(awk -v base="$first_verts" '$1 == "mesh" { m++ } m == 2 && $1 == "tri" {
    a = $5 + base + 1; b = $4 + base + 1; c = $3 + base + 1
    printf "f %d/%d/%d %d/%d/%d %d/%d/%d", a, a, a, b, b, b, c, c, c; exit }' "$DRONE")
got=$(awk '$1 == "o" { o++ } o == 2 && $1 == "f" { print; exit }' "$TMP/drone2.obj")
expect_eq "drone second group's first face" "$got" "$want"

# --time S is frame S * frameRate
rate=$(awk '$1 == "frameRate" { print $2; exit }' "$FORWARD")
time=$(awk -v r="$rate" 'BEGIN { printf "%.17g", 2 / r }')
"$MD5CINE" export "$DRONE" "$FORWARD" --time "$time" -o "$TMP/drone2t.obj"
expect_eq "--time 2/rate equals --frame 2" \
    "$(grep '^v ' "$TMP/drone2t.obj" | md5sum)" "$(grep '^v ' "$TMP/drone2.obj" | md5sum)"
# the anim moves the mesh away from its bind pose
"$MD5CINE" export "$DRONE" -o "$TMP/drone_bind.obj"
if [ "$(grep '^v ' "$TMP/drone_bind.obj" | md5sum)" = "$(grep '^v ' "$TMP/drone2.obj" | md5sum)" ]
then fail "frame 2 of forward equals the bind pose"; else ok "frame 2 is posed"; fi

# --- errors
"$MD5CINE" export "$DRONE" $A/cube2-ffflag/ffflag.md5anim --frame 1 -o "$TMP/bad.obj" \
    2> "$TMP/err.txt"
expect_eq "mismatched anim exits 2" "$?" 2
if grep -q "redeclipse-drone/mesh.md5mesh:8:2: error: joint 'Waist' is missing from anim" \
    "$TMP/err.txt"; then ok "mismatch names the joint"; else
    fail "mismatch message: $(cat "$TMP/err.txt")"; fi
[ -e "$TMP/bad.obj" ] && fail "an output was left after an error" || ok "no output"
[ -z "$(ls -A "$TMP" | grep '\.tmp$')" ] || fail "a temporary file was left behind"

"$MD5CINE" export "$CUBE" 2> /dev/null
expect_eq "missing -o exits 2" "$?" 2
"$MD5CINE" export "$DRONE" "$FORWARD" --frame two -o "$TMP/x.obj" 2> /dev/null
expect_eq "bad --frame exits 2" "$?" 2
"$MD5CINE" export "$DRONE" "$FORWARD" --frame 1 --time 1 -o "$TMP/x.obj" 2> /dev/null
expect_eq "--frame with --time exits 2" "$?" 2
"$MD5CINE" export "$TMP/none.md5mesh" -o "$TMP/x.obj" 2> /dev/null
rc=$?
[ "$rc" -ne 0 ] && ok "missing mesh fails ($rc)" || fail "missing mesh exits 0"
"$MD5CINE" export "$CUBE" -o "$TMP/no/such/dir/x.obj" 2> /dev/null
expect_eq "unwritable output exits 3" "$?" 3
[ -e "$TMP/x.obj" ] && fail "output written by a failed command"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
