#!/bin/bash
# md5cine export: OBJ counts and winding checked against the md5mesh files themselves (their
# numverts/numtris lines and first triangles), --frame/--time agreement, and errors.
set -u
. ./harness.sh export
A=data/assets
CUBE=$A/assimp-simplecube/SimpleCube.md5mesh
DRONE=$A/redeclipse-drone/mesh.md5mesh
FORWARD=$A/redeclipse-drone/forward.md5anim
count() { # prefix file
    grep -c "^$1 " "$2"
}

sum_field() { # keyword mesh: sum of the values after every 'keyword' line
    awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }' "$2"
}

# --- SimpleCube in its bind pose
"$MD5CINE" export "$CUBE" -o "$T/cube.obj"
check_eq "cube exits 0" 0 "$?"
verts=$(sum_field numverts "$CUBE")
tris=$(sum_field numtris "$CUBE")
check_eq "cube has 24 vertices in the file" 24 "$verts"
check_eq "cube v lines" "$verts" "$(count v "$T/cube.obj")"
check_eq "cube vt lines" "$verts" "$(count vt "$T/cube.obj")"
check_eq "cube vn lines" "$verts" "$(count vn "$T/cube.obj")"
check_eq "cube f lines" "$tris" "$(count f "$T/cube.obj")"
# the file's first triangle is "tri 0 2 1 0": reversed and 1-based it is 1 2 3
check_eq "cube first tri in the file" "2 1 0" \
    "$(grep -m1 '^tri ' "$CUBE" | awk '{print $3, $4, $5}')"
check_eq "cube first face reversed" "f 1/1/1 2/2/2 3/3/3" "$(grep -m1 '^f ' "$T/cube.obj")"
# vert 0 ( 0.1875 -0.25 ): OBJ's v = 1 - t = 1.25
check_eq "cube first vt flips t" "vt 0.1875 1.25" "$(grep -m1 '^vt ' "$T/cube.obj")"
# the shader is "": the group is named after the submesh index
check_eq "cube group name" "o mesh0" "$(grep -m1 '^o ' "$T/cube.obj")"

# --- a drone frame: two submeshes, indices of the second offset by the first's vertices
"$MD5CINE" export "$DRONE" "$FORWARD" --frame 2 -o "$T/drone2.obj"
check_eq "drone exits 0" 0 "$?"
check_eq "drone v lines" "$(sum_field numverts "$DRONE")" "$(count v "$T/drone2.obj")"
check_eq "drone vn lines" "$(sum_field numverts "$DRONE")" "$(count vn "$T/drone2.obj")"
check_eq "drone f lines" "$(sum_field numtris "$DRONE")" "$(count f "$T/drone2.obj")"
info=$("$MD5CINE" info "$DRONE" | head -1 | sed -E 's/.* ([0-9]+) vertices, ([0-9]+) triangles$/\1 \2/')
check_eq "drone counts agree with md5cine info" "$info" \
    "$(count v "$T/drone2.obj") $(count f "$T/drone2.obj")"
check_eq "drone groups" "$(grep -c '^mesh {' "$DRONE")" "$(count o "$T/drone2.obj")"
first_verts=$(awk '$1 == "numverts" { print $2; exit }' "$DRONE")
# first triangle of the second mesh block, reversed, plus the first block's vertex count
want=$(awk -v base="$first_verts" '$1 == "mesh" { m++ } m == 2 && $1 == "tri" {
    a = $5 + base + 1; b = $4 + base + 1; c = $3 + base + 1
    printf "f %d/%d/%d %d/%d/%d %d/%d/%d", a, a, a, b, b, b, c, c, c; exit }' "$DRONE")
got=$(awk '$1 == "o" { o++ } o == 2 && $1 == "f" { print; exit }' "$T/drone2.obj")
check_eq "drone second group's first face" "$want" "$got"

# --time S is frame S * frameRate
rate=$(awk '$1 == "frameRate" { print $2; exit }' "$FORWARD")
time=$(awk -v r="$rate" 'BEGIN { printf "%.17g", 2 / r }')
"$MD5CINE" export "$DRONE" "$FORWARD" --time "$time" -o "$T/drone2t.obj"
check_eq "--time 2/rate equals --frame 2" "$(grep '^v ' "$T/drone2.obj" | md5sum)" \
    "$(grep '^v ' "$T/drone2t.obj" | md5sum)"
# the anim moves the mesh away from its bind pose
"$MD5CINE" export "$DRONE" -o "$T/drone_bind.obj"
if [ "$(grep '^v ' "$T/drone_bind.obj" | md5sum)" = "$(grep '^v ' "$T/drone2.obj" | md5sum)" ]
then fail "frame 2 of forward equals the bind pose"; else ok "frame 2 is posed"; fi

# --- errors
"$MD5CINE" export "$DRONE" $A/cube2-ffflag/ffflag.md5anim --frame 1 -o "$T/bad.obj" \
    2> "$T/err.txt"
check_eq "mismatched anim exits 2" 2 "$?"
if grep -q "redeclipse-drone/mesh.md5mesh:8:2: error: joint 'Waist' is missing from anim" \
    "$T/err.txt"; then ok "mismatch names the joint"; else
    fail "mismatch message: $(cat "$T/err.txt")"; fi
[ -e "$T/bad.obj" ] && fail "an output was left after an error" || ok "no output"
[ -z "$(ls -A "$T" | grep '\.tmp$')" ] || fail "a temporary file was left behind"

"$MD5CINE" export "$CUBE" 2> /dev/null
check_eq "missing -o exits 2" 2 "$?"
"$MD5CINE" export "$DRONE" "$FORWARD" --frame two -o "$T/x.obj" 2> /dev/null
check_eq "bad --frame exits 2" 2 "$?"
"$MD5CINE" export "$DRONE" "$FORWARD" --frame 1 --time 1 -o "$T/x.obj" 2> /dev/null
check_eq "--frame with --time exits 2" 2 "$?"
"$MD5CINE" export "$T/none.md5mesh" -o "$T/x.obj" 2> /dev/null
rc=$?
[ "$rc" -ne 0 ] && ok "missing mesh fails ($rc)" || fail "missing mesh exits 0"
"$MD5CINE" export "$CUBE" -o "$T/no/such/dir/x.obj" 2> /dev/null
check_eq "unwritable output exits 3" 3 "$?"
[ -e "$T/x.obj" ] && fail "output written by a failed command"

finish
