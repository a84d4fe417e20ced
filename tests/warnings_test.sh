#!/bin/bash
# Repeated warnings of one cause are grouped: a model whose meshes share a shader without an image
# (or have an empty one), or that find no material for it in the base, gets one warning at the
# first such mesh's shader, ending with the material line that fixes it, and one line for the
# others; actors of one mesh alike are one group; MD5CINE_WARNINGS=all prints every mesh's own.
# The whole of stderr is compared.
set -u
. ./harness.sh warnings
cd "$T" || exit 1

# boar.md5mesh: 13 one-triangle meshes; 2 and 7 have shader "skin/a", 5 "skin/b", the other ten
# an empty shader. Mesh i's shader line is 9 + 13 i (7 header lines, 13 per mesh), column 8.
python3 - <<'PY'
head = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes 13', 'joints {',
        '"root" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
body = []
for i in range(13):
    shader = {2: '"skin/a"', 7: '"skin/a"', 5: '"skin/b"'}.get(i, '""')
    body += ['mesh {', 'shader ' + shader, 'numverts 3', 'vert 0 ( 0 0 ) 0 1',
             'vert 1 ( 1 0 ) 1 1', 'vert 2 ( 0 1 ) 2 1', 'numtris 1', 'tri 0 0 1 2',
             'numweights 3', 'weight 0 0 1 ( 0 1 1 )', 'weight 1 0 1 ( 0 -1 1 )',
             'weight 2 0 1 ( 0 1 -1 )', '}']
open('boar.md5mesh', 'w').write('\n'.join(head + body) + '\n')
PY
printf 'MD5Version 10\ncommandline ""\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\ncamera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n' >c.md5camera
printf 'md5scene 1\ncamera "c.md5camera"\nactor "boar" {\n    mesh "boar.md5mesh"\n}\n' >b.md5scene

empty() { # MESH LINE [WHO [FIX]]: the warning of an empty shader, with the line that fixes it
    echo "boar.md5mesh:$2:8: warning: mesh $1 of ${3:-actor 'boar'} has an empty shader and no 'material' line for it: drawn without a texture; to give ${4:-it one, write material \"\" \"IMAGE\" in the actor}"
    printf '%5d | shader ""\n      |        ^\n' "$2"
}
noimage() { # SHADER FILE LINE [WHO [FIX]]: the warning of a shader without an image
    echo "boar.md5mesh:$3:8: warning: no image for shader '$1' of ${4:-actor 'boar'}: looked for '$2.tga', '.png', '.jpg' in '.'; drawn without a texture; to give ${5:-it one, write material \"$1\" \"IMAGE\" in the actor}"
    printf '%5d | shader "%s"\n      |        ^\n' "$3" "$1"
}

"$MD5CINE" info b.md5scene >/dev/null 2>grouped.err
rc=$?
{
    empty 0 9
    echo "boar.md5mesh: warning: ... and 9 more meshes of actor 'boar', which the same material line covers"
    noimage skin/a a 35
    echo "boar.md5mesh: warning: ... and 1 more mesh of actor 'boar', which the same material line covers"
    noimage skin/b b 74
} >grouped.want
if [ $rc -eq 0 ] && diff -u grouped.want grouped.err >grouped.diff; then ok grouped
else fail grouped "exit $rc; $(cat grouped.diff)"; fi

MD5CINE_WARNINGS=all "$MD5CINE" info b.md5scene >/dev/null 2>all.err
rc=$?
for i in $(seq 0 12); do
    case $i in
    2 | 7) noimage skin/a a $((9 + 13 * i)) ;;
    5) noimage skin/b b $((9 + 13 * i)) ;;
    *) empty "$i" $((9 + 13 * i)) ;;
    esac
done >all.want
if [ $rc -eq 0 ] && diff -u all.want all.err >all.diff; then ok every_one_with_MD5CINE_WARNINGS_all
else fail every_one_with_MD5CINE_WARNINGS_all "exit $rc; $(cat all.diff)"; fi

# Actors that share a mesh without the same images are told once, the first one's warnings naming
# the others: boar and pig (actors 1 and 3) alike, sow (2) gives skin/a an image, so its own
# warnings leave skin/a out. Five actors alike name three and count the others.
convert -size 1x1 xc:red sow.png
printf 'md5scene 1\ncamera "c.md5camera"\nactor "boar" { mesh "boar.md5mesh" }\nactor "sow" { mesh "boar.md5mesh" material "skin/a" "sow.png" }\nactor "pig" { mesh "boar.md5mesh" }\n' >shared.md5scene
"$MD5CINE" info shared.md5scene >/dev/null 2>shared.err
rc=$?
two="actors 'boar' and 'pig'" each='them one, write material "" "IMAGE" in each actor'
{
    empty 0 9 "$two" "$each"
    echo "boar.md5mesh: warning: ... and 9 more meshes of $two, which the same material line covers"
    noimage skin/a a 35 "$two" 'them one, write material "skin/a" "IMAGE" in each actor'
    echo "boar.md5mesh: warning: ... and 1 more mesh of $two, which the same material line covers"
    noimage skin/b b 74 "$two" 'them one, write material "skin/b" "IMAGE" in each actor'
    empty 0 9 "actor 'sow'"
    echo "boar.md5mesh: warning: ... and 9 more meshes of actor 'sow', which the same material line covers"
    noimage skin/b b 74 "actor 'sow'"
} >shared.want
if [ $rc -eq 0 ] && diff -u shared.want shared.err >shared.diff; then ok actors_sharing_a_mesh_are_one_group
else fail actors_sharing_a_mesh_are_one_group "exit $rc; $(cat shared.diff)"; fi
{
    printf 'md5scene 1\ncamera "c.md5camera"\n'
    for i in 1 2 3 4 5; do printf 'actor "b%d" { mesh "boar.md5mesh" }\n' "$i"; done
} >five.md5scene
"$MD5CINE" info five.md5scene >/dev/null 2>five.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c warning: five.err)" -eq 5 ] &&
    [ "$(grep -c "of actors 'b1', 'b2', 'b3' and 2 more" five.err)" -eq 5 ]
then ok five_actors_of_a_mesh_name_three_and_count_two
else fail five_actors_of_a_mesh_name_three_and_count_two "exit $rc; $(cat five.err)"; fi
MD5CINE_WARNINGS=all "$MD5CINE" info five.md5scene >/dev/null 2>five_all.err
if [ "$(grep -c ': warning: ' five_all.err)" -eq 65 ] && ! grep -q "actors '" five_all.err
then ok each_actor_of_a_mesh_with_MD5CINE_WARNINGS_all
else fail each_actor_of_a_mesh_with_MD5CINE_WARNINGS_all "$(grep -c warning five_all.err) warnings"; fi

# With a base that may declare materials (a materials/ folder, here empty), a named shader is
# looked up there: those that find neither a material nor an image are grouped the same way.
mkdir -p base/materials
printf 'md5scene 1\ncamera "c.md5camera"\nbase "base"\nactor "boar" {\n    mesh "boar.md5mesh"\n}\n' >m.md5scene
nomaterial() { # SHADER LINE
    echo "boar.md5mesh:$2:8: warning: no material and no image for shader '$1' of actor 'boar' in 'base'; not drawn (Doom's implicit material of a missing image is invisible; developer images draw its box); to draw it, write material \"$1\" \"IMAGE\" in the actor"
    printf '%5d | shader "%s"\n      |        ^\n' "$2" "$1"
}
"$MD5CINE" info m.md5scene --materials >/dev/null 2>base.err
rc=$?
{
    empty 0 9
    echo "boar.md5mesh: warning: ... and 9 more meshes of actor 'boar', which the same material line covers"
    nomaterial skin/a 35
    echo "boar.md5mesh: warning: ... and 1 more mesh of actor 'boar', which the same material line covers"
    nomaterial skin/b 74
} >base.want
if [ $rc -eq 0 ] && diff -u base.want base.err >base.diff; then ok grouped_with_a_base
else fail grouped_with_a_base "exit $rc; $(cat base.diff)"; fi
MD5CINE_WARNINGS=all "$MD5CINE" info m.md5scene --materials >/dev/null 2>base_all.err
if [ "$(grep -c ": warning: no material and no image for shader 'skin/a'" base_all.err)" -eq 2 ] &&
    ! grep -q 'more mesh' base_all.err; then ok every_one_with_a_base
else fail every_one_with_a_base "$(cat base_all.err)"; fi

# many.md5mesh: 8000 one-triangle meshes, mesh i with its own shader "s/mNNNNN" (i in five
# digits) and no image: ten warnings (meshes 0-9, shader line 9 + 13 i, column 8), then one line
# for the 7990 meshes and shaders left. Printed each with a source line, they cost some 20 s of
# CPU (every warning read the mesh file up to its line).
python3 - <<'PY'
n = 8000
head = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes %d' % n, 'joints {',
        '"root" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
body = []
for i in range(n):
    body += ['mesh {', 'shader "s/m%05d"' % i, 'numverts 3', 'vert 0 ( 0 0 ) 0 1',
             'vert 1 ( 1 0 ) 1 1', 'vert 2 ( 0 1 ) 2 1', 'numtris 1', 'tri 0 0 1 2',
             'numweights 3', 'weight 0 0 1 ( 0 1 1 )', 'weight 1 0 1 ( 0 -1 1 )',
             'weight 2 0 1 ( 0 1 -1 )', '}']
open('many.md5mesh', 'w').write('\n'.join(head + body) + '\n')
PY
printf 'md5scene 1\ncamera "c.md5camera"\nactor "herd" {\n    mesh "many.md5mesh"\n}\n' >many.md5scene
"$MD5CINE" info many.md5scene >/dev/null 2>many.err
rc=$?
for i in $(seq 0 9); do
    m=$(printf 'm%05d' "$i")
    echo "many.md5mesh:$((9 + 13 * i)):8: warning: no image for shader 's/$m' of actor 'herd': looked for '$m.tga', '.png', '.jpg' in '.'; drawn without a texture; to give it one, write material \"s/$m\" \"IMAGE\" in the actor"
    printf '%5d | shader "s/%s"\n      |        ^\n' $((9 + 13 * i)) "$m"
done >many.want
echo "many.md5mesh: warning: ... and 7990 more meshes of actor 'herd' like this, 7990 other shaders (MD5CINE_WARNINGS=all prints each)" >>many.want
if [ $rc -eq 0 ] && diff -u many.want many.err >many.diff; then ok eight_thousand_shaders_give_ten_warnings_and_a_count
else fail eight_thousand_shaders_give_ten_warnings_and_a_count "exit $rc; $(head -c 2000 many.diff)"; fi
printf 'md5scene 1\ncamera "c.md5camera"\nbase "base"\nactor "herd" {\n    mesh "many.md5mesh"\n}\n' >many_base.md5scene
"$MD5CINE" info many_base.md5scene --materials >/dev/null 2>many_base.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c ': warning: no material and no image' many_base.err)" -eq 10 ] &&
    [ "$(tail -n 1 many_base.err)" = "many.md5mesh: warning: ... and 7990 more meshes of actor 'herd' like this, 7990 other shaders (MD5CINE_WARNINGS=all prints each)" ]
then ok eight_thousand_shaders_without_materials_give_ten_warnings_and_a_count
else fail eight_thousand_shaders_without_materials_give_ten_warnings_and_a_count "exit $rc; $(tail -n 4 many_base.err)"; fi
MD5CINE_WARNINGS=all "$MD5CINE" info many.md5scene >/dev/null 2>many_all.err
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c ': warning: no image for shader' many_all.err)" -eq 8000 ] &&
    ! grep -q 'more mesh' many_all.err &&
    [ "$(grep -c '^ 7809 | shader "s/m00600"$' many_all.err)" -eq 1 ]
then ok every_one_of_eight_thousand_with_MD5CINE_WARNINGS_all
else fail every_one_of_eight_thousand_with_MD5CINE_WARNINGS_all "exit $rc; $(tail -n 4 many_all.err)"; fi

# The same meshes with a base declaring each shader a material whose deform sprite does not fit
# a one-triangle mesh (3 vertices, not a multiple of 4; dbase/materials/d.mtr, material i on line i + 1, column 1): ten warnings
# at the materials, then the count (the renderer gives them: 'render', one frame).
mkdir -p dbase/materials
for i in $(seq 0 7999); do printf 's/m%05d { deform sprite { blend add map _white } }\n' "$i"; done >dbase/materials/d.mtr
printf 'md5scene 1\ncamera "c.md5camera"\nbase "dbase"\nactor "herd" {\n    mesh "many.md5mesh"\n}\n' >many_deform.md5scene
"$MD5CINE" render many_deform.md5scene --size 32x32 --msaa 0 --frames 0-0 -o "deform_%d.png" --quiet 2>many_deform.err
rc=$?
for i in $(seq 0 9); do
    printf "dbase/materials/d.mtr:%d:1: warning: material 's/m%05d': deform sprite not applied to mesh %d of actor 'herd': its vertex count is not a multiple of 4\n" $((i + 1)) "$i" "$i"
done >many_deform.want
echo "many.md5mesh: warning: ... and 7990 more meshes of actor 'herd' like this, 7990 other shaders (MD5CINE_WARNINGS=all prints each)" >>many_deform.want
if [ $rc -eq 0 ] && grep 'warning:' many_deform.err | diff -u many_deform.want - >many_deform.diff
then ok eight_thousand_unfit_deforms_give_ten_warnings_and_a_count
else fail eight_thousand_unfit_deforms_give_ten_warnings_and_a_count "exit $rc; $(head -c 2000 many_deform.diff)"; fi

# The used materials of a base repeat one warning (each parsed on its own says it at its
# place): kbase/materials/k.mtr declares skin/a, skin/b and skin/c with 'sort', which md5cine
# skips (mtr.c). The first is given at its place (line 1, column 10), the two others are one
# line at the end, at the file; MD5CINE_WARNINGS=all gives all three (lines 1, 2, 4).
mkdir -p kbase/materials
printf 'skin/a { sort decal diffusemap _white }\nskin/b { sort decal diffusemap _white }\nskin/c {\n    sort decal\n    diffusemap _white }\n' >kbase/materials/k.mtr
python3 - <<'PY'
head = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes 3', 'joints {',
        '"root" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
body = []
for sh in ['skin/a', 'skin/b', 'skin/c']:
    body += ['mesh {', 'shader "%s"' % sh, 'numverts 3', 'vert 0 ( 0 0 ) 0 1',
             'vert 1 ( 1 0 ) 1 1', 'vert 2 ( 0 1 ) 2 1', 'numtris 1', 'tri 0 0 1 2',
             'numweights 3', 'weight 0 0 1 ( 0 1 1 )', 'weight 1 0 1 ( 0 -1 1 )',
             'weight 2 0 1 ( 0 1 -1 )', '}']
open('abc.md5mesh', 'w').write('\n'.join(head + body) + '\n')
PY
printf 'md5scene 1\ncamera "c.md5camera"\nbase "kbase"\nactor "abc" {\n    mesh "abc.md5mesh"\n}\n' >k.md5scene
"$MD5CINE" info k.md5scene --materials >/dev/null 2>k.err
rc=$?
{
    echo "kbase/materials/k.mtr:1:10: warning: keyword 'sort' skipped"
    printf '    1 | skin/a { sort decal diffusemap _white }\n      |          ^\n'
    echo "kbase/materials/k.mtr: warning: ... and 2 more like this: keyword 'sort' skipped (MD5CINE_WARNINGS=all prints each)"
} >k.want
if [ $rc -eq 0 ] && diff -u k.want k.err >k.diff; then ok materials_repeating_a_warning_give_one_and_a_count
else fail materials_repeating_a_warning_give_one_and_a_count "exit $rc; $(cat k.diff)"; fi
MD5CINE_WARNINGS=all "$MD5CINE" info k.md5scene --materials >/dev/null 2>k_all.err
if [ "$(grep -c "warning: keyword 'sort' skipped" k_all.err)" -eq 3 ] &&
    grep -q '^kbase/materials/k.mtr:4:5: warning' k_all.err && ! grep -q 'more like' k_all.err
then ok materials_repeating_a_warning_each_with_MD5CINE_WARNINGS_all
else fail materials_repeating_a_warning_each_with_MD5CINE_WARNINGS_all "$(cat k_all.err)"; fi

# SIGTERM (SIGINT) while the warnings print: stderr is a pipe of which only the first line is read before
# the signal is sent, so the render is at most a pipe's worth (64 KiB, about 200 warnings) past
# its first warning when the signal comes, whatever the speed of either side; it stops printing
# them and exits 143 (130) with no frame written, not after all 8000.
mkfifo term.fifo
for sig in TERM:143 INT:130; do
    name=${sig%%:*} want=${sig##*:}
    MD5CINE_WARNINGS=all "$MD5CINE" render many.md5scene --size 32x32 --msaa 0 \
        -o "$name/%d.png" 2>term.fifo &
    pid=$!
    exec 3<term.fifo
    IFS= read -r first <&3
    kill -"$name" "$pid"
    cat <&3 >"$name.err"
    exec 3<&-
    wait "$pid"
    rc=$?
    n=$(grep -c ': warning: no image for shader' "$name.err")
    if [ $rc -eq "$want" ] && [ "$n" -lt 7999 ] && grep -q '^md5cine: interrupted' "$name.err" &&
        [ ! -e "$name" ]; then ok "sig${name}_stops_the_warnings_and_exits_$want"
    else fail "sig${name}_stops_the_warnings_and_exits_$want" "exit $rc, $n more warnings; first '$first'; $(tail -n 3 "$name.err")"; fi
done

finish
