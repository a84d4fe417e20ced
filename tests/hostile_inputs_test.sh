#!/bin/bash
# Small hostile inputs that once cost gigabytes or hung: images read strictly wherever they come
# from, one image budget for a scene, zip entries checked before they are inflated, lazy
# materials, and special files refused before anything reads them. Every case must end with
# exit 2 and a message naming the file (the time and memory each takes are printed by
# bench/hardening_bench.sh, not asserted here).
set -u
. ./harness.sh hostile_inputs

python3 make_quads.py "$T"
mkdir -p "$T/base/materials"
scene() { # scene NAME [ACTOR LINES]
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q {\n    mesh "quads.md5mesh"\n%s\n}\n' "${2:-}" >"$T/$1.md5scene"
}
render() { run "$1" render "$T/$1.md5scene" --size 32x32 --msaa 0 -o "$T/$1_%d.png"; }

# 1. TGA files named by a scene's material line go through the strict reader.
python3 - "$T" <<'PY'
import struct, sys
t = sys.argv[1]
def hdr(w, h, typ=2, bpp=24, desc=0, idlen=0):
    return struct.pack('<BBBHHBHHHHBB', idlen, 0, typ, 0, 0, 0, 0, 0, w, h, bpp, desc)
files = {
    'huge.tga': hdr(16384, 16384) + bytes(100),                 # 118 bytes, 16384x16384
    'short.tga': hdr(4, 4)[:17],                                # 17 bytes
    'rle_past.tga': hdr(2, 1, 10) + bytes([0x82, 1, 2, 3]),     # a run of 3 in a 2-pixel image
    'bpp16.tga': hdr(1, 1, 2, 16) + bytes(2),
    'rtl.tga': hdr(1, 1, 2, 24, 0x10) + bytes(3),               # right to left
    'idlen.tga': hdr(1, 1, 2, 24, 0, 200) + bytes(3),           # ID field past the end
}
for name, data in files.items():
    open(t + '/' + name, 'wb').write(data)
# 118 bytes of TGA or PNM under a .png name, for compare.
open(t + '/tga.png', 'wb').write(files['huge.tga'])
open(t + '/pnm.png', 'wb').write(b'P6\n16384 16384\n255\n' + bytes(100))
PY
# (The scene's images come under its image budget: the huge one is past the default one before
# it is read, and reaches the reader under the largest.)
for img in huge short rle_past bpp16 rtl idlen; do
    scene "tga_$img" "    material \"left\" \"$img.tga\""
    run "tga_$img" render "$T/tga_$img.md5scene" --size 32x32 --msaa 0 --image-pixels 65536 \
        -o "$T/tga_${img}_%d.png"
    expect "scene_tga_${img}_is_refused" 2 "" "cannot read '$T/$img.tga'"
done
render tga_huge
expect scene_tga_huge_is_past_the_image_budget 2 "" \
    "$T/tga_huge.md5scene:6:21: error: 16384x16384 pixels take the scene past 16777216 pixels of images in all"
run compare_tga compare "$T/tga.png" "$T/tga.png"
expect compare_refuses_tga_bytes_named_png 2 "" "not a PNG or JPEG image"
run compare_pnm compare "$T/pnm.png" "$T/pnm.png"
expect compare_refuses_pnm_bytes 2 "" "not a PNG or JPEG image"

# 2. One budget for the scene's images: three materials, each a 16384x16384 run-length TGA of
#    10 MB that deflates to a few KB. The first header is already past 16 Mi pixels.
mkdir -p "$T/budget/base"
python3 make_quads.py "$T/budget"
python3 - "$T/budget/base" <<'PY'
import struct, sys, zipfile
base = sys.argv[1]
w = h = 16384
packets = (w * h + 127) // 128
rle = struct.pack('<BBBHHBHHHHBB', 0, 0, 10, 0, 0, 0, 0, 0, w, h, 24, 0) + bytes([0xFF, 9, 9, 9]) * packets
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/m.mtr', 'left { diffusemap textures/a }\nright { diffusemap textures/b }\n'
               'other { diffusemap textures/c }\n')
    for n in 'abc':
        z.writestr('textures/%s.tga' % n, rle)
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "quads.md5mesh" }\n' >"$T/budget/a.md5scene"
run budget render "$T/budget/a.md5scene" --size 32x32 --msaa 0 -o "$T/budget/f%d.png"
expect image_budget_is_per_scene 2 "" \
    "$T/budget/base/pak000.pk4:textures/a.tga: error: 16384x16384 pixels take the scene past 16777216 pixels"
run budget_more render "$T/budget/a.md5scene" --size 32x32 --msaa 0 --image-pixels 1 -o "$T/budget/g%d.png"
expect image_budget_is_settable 2 "" "take the scene past 1048576 pixels"

# 3. Materials nobody uses cost their index entry only: 852 KB of empty stages in a .pk4.
mkdir -p "$T/stages/base"
python3 make_quads.py "$T/stages"
python3 - "$T/stages/base" <<'PY'
import sys, zipfile
base = sys.argv[1]
text = 'unused { ' + '{ } ' * 213000 + '}\nleft { diffusemap _white }\n'
with zipfile.ZipFile(base + '/pak000.pk4', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/m.mtr', text)
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "quads.md5mesh" }\n' >"$T/stages/a.md5scene"
run stages info --json "$T/stages/a.md5scene"
expect unused_stages_are_not_parsed 0 '"materialsDeclared":2,"materialsParsed":0'

# 7. A zip entry declaring far more than its compressed bytes can give is refused before it is
#    inflated; a folder named x.pk4 is no archive.
mkdir -p "$T/bomb/base"
python3 make_quads.py "$T/bomb"
python3 - "$T/bomb/base/pak000.pk4" <<'PY'
import struct, sys, zipfile
path = sys.argv[1]
with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('materials/m.mtr', 'left { diffusemap _white }\n' * 40)
data = bytearray(open(path, 'rb').read())
# Declare 1 GiB uncompressed in the local header (offset 22) and the central directory (24).
struct.pack_into('<I', data, 22, 1 << 30)
cd = data.rfind(b'PK\x01\x02')
struct.pack_into('<I', data, cd + 24, 1 << 30)
open(path, 'wb').write(data)
PY
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "quads.md5mesh" }\n' >"$T/bomb/a.md5scene"
run bomb render "$T/bomb/a.md5scene" --size 32x32 --msaa 0 -o "$T/bomb/f%d.png"
expect zip_bomb_refused_before_inflating 2 "" "more than its compression can give"
mkdir -p "$T/folder/base/x.pk4"
python3 make_quads.py "$T/folder"
printf 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor q { mesh "quads.md5mesh" }\n' >"$T/folder/a.md5scene"
run folder render "$T/folder/a.md5scene" --size 32x32 --msaa 0 -o "$T/folder/f%d.png"
expect a_folder_named_pk4_is_not_an_archive 2 "" "cannot open archive '$T/folder/base/x.pk4': not a file"

# 4. A FIFO named as a video is refused before anything opens it (timeout: a hang fails).
mkfifo "$T/fifo.mp4"
for cmd in compare sheet concat reference; do
    case $cmd in
    compare) timeout 20 "$MD5CINE" compare "$T/fifo.mp4" "$T/fifo.mp4" >"$T/f.out" 2>"$T/f.err" ;;
    sheet) timeout 20 "$MD5CINE" sheet "$T/fifo.mp4" -o "$T/s.png" >"$T/f.out" 2>"$T/f.err" ;;
    concat) timeout 20 "$MD5CINE" concat "$T/fifo.mp4" -o "$T/c.mp4" >"$T/f.out" 2>"$T/f.err" ;;
    reference)
        scene plain
        timeout 20 "$MD5CINE" render "$T/plain.md5scene" --size 32x32 -o "$T/r.mp4" \
            --reference "$T/fifo.mp4" >"$T/f.out" 2>"$T/f.err" ;;
    esac
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "not a regular file" "$T/f.err"; then ok "fifo_refused_by_$cmd"
    else fail "fifo_refused_by_$cmd" "exit $rc: $(head -c 300 "$T/f.err")"; fi
done

# 6. --report never follows a link and replaces only a folder of its own making.
mkdir -p "$T/rep/ref" "$T/rep/new" "$T/rep/target"
convert -size 16x16 xc:red "$T/rep/ref/00000.png"
convert -size 16x16 xc:blue "$T/rep/new/00000.png"
for i in 1 2 3; do echo "keep $i" >"$T/rep/target/user$i.txt"; done
ln -s target "$T/rep/link"
(cd "$T/rep" && "$MD5CINE" compare ref new --report link >"$T/rep.out" 2>"$T/rep.err")
rc=$?
if [ "$rc" -eq 2 ] && [ -L "$T/rep/link" ] && [ "$(ls "$T/rep/target" | wc -l)" -eq 3 ] &&
   [ -z "$(ls -A "$T/rep" | grep '\.old$\|\.tmp$')" ] && grep -q "symbolic link" "$T/rep.err"; then
    ok report_never_writes_through_a_link
else
    fail report_never_writes_through_a_link "exit $rc; $(ls -A "$T/rep" "$T/rep/target" | tr '\n' ' '); $(cat "$T/rep.err")"
fi
(cd "$T/rep" && "$MD5CINE" compare ref new --report mine >/dev/null 2>&1)
echo "my notes" >"$T/rep/mine/notes.txt"
(cd "$T/rep" && "$MD5CINE" compare ref new --report mine >"$T/rep2.out" 2>"$T/rep2.err")
rc=$?
if [ "$rc" -eq 2 ] && [ -f "$T/rep/mine/notes.txt" ] && grep -q "holds 'notes.txt'" "$T/rep2.err"; then
    ok report_keeps_a_folder_holding_a_stranger
else
    fail report_keeps_a_folder_holding_a_stranger "exit $rc: $(cat "$T/rep2.err")"
fi
rm "$T/rep/mine/notes.txt"
(cd "$T/rep" && "$MD5CINE" compare ref new --report mine >/dev/null 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ -f "$T/rep/mine/index.html" ] && ok report_replaces_its_own_folder ||
    fail report_replaces_its_own_folder "exit $rc"

# 8. Round 4, made by make_hostile.py (its cases say what each input is).
# A mesh reaching x = 1e30 and no scene lights: the default rig cannot be placed around the
# actors; the error says so at the actor that is the cause (line 4: "actor far {", its name at
# column 7), not about a light the scene never declared.
python3 make_hostile.py far "$T/far" >/dev/null
for cmd in render info; do
    case $cmd in
    render) run far_$cmd render "$T/far/a.md5scene" --size 32x32 --msaa 0 -o "$T/far/f%d.png" ;;
    info) run far_$cmd info "$T/far/a.md5scene" ;;
    esac
    expect "${cmd}_names_the_actor_the_default_lights_cannot_be_placed_around" 2 "" \
        "$T/far/a.md5scene:4:7: error: the default lights (the scene has no 'light') cannot be placed around the actors: actor 'far' spans (0 -40 -15) to (1e+30 40 15)"
done
grep -q "bad origin" "$T/far_render.err" && fail the_rig_error_is_not_about_light_0 "$(cat "$T/far_render.err")" ||
    ok the_rig_error_is_not_about_light_0
[ -z "$(ls "$T/far" | grep '^f[0-9]')" ] && ok the_rig_error_writes_no_frame || fail the_rig_error_writes_no_frame

# 4096 actors of a model that inherits an unknown one: one warning at the inherit, one line
# for the 4095 other actors.
python3 make_hostile.py inherit "$T/inherit" >/dev/null
run inherit info "$T/inherit/a.md5scene"
expect an_unknown_inherit_warns_once_for_all_actors 0 "" \
    "$T/inherit/base/def/m.def:2:13: warning: unknown model 'nosuch' to inherit"
[ "$(grep -c warning "$T/inherit.err")" = 2 ] && grep -qF \
    "$T/inherit/base/def/m.def: warning: ... and 4095 more actors of model 'm' (line 2) like this" \
    "$T/inherit.err" && ok the_other_actors_are_one_line ||
    fail the_other_actors_are_one_line "$(head -c 600 "$T/inherit.err")"

# Crafted inputs that once peaked far past 300 MB are refused before they cost it (their peaks:
# bench/hardening_bench.sh). 10 actors of a mesh of 20,000 submeshes: 20,000 draws for the first
# actor (line 3, its name at column 7), past the 8192 of limits.h, before any GL context.
python3 make_hostile.py subs "$T/subs" >/dev/null
run subs render "$T/subs/a.md5scene" --size 32x32 --msaa 0 -o "$T/subs/f%d.png"
expect submeshes_past_the_draw_limit_are_refused 2 "" \
    "$T/subs/a.md5scene:3:7: error: actor 'a0' takes the submeshes drawn in a frame to 20000, past 8192 for all actors together (its mesh has 20000)"
[ -z "$(ls "$T/subs" | grep '^f[0-9]')" ] && ok the_draw_limit_writes_no_frame || fail the_draw_limit_writes_no_frame
# One 8192 x 8192 image: 64 Mi pixels, past the 16 Mi (16777216) of the default image budget.
python3 make_hostile.py image "$T/image" >/dev/null
run image render "$T/image/a.md5scene" --size 32x32 --msaa 0 -o "$T/image/f%d.png"
expect an_8192_image_is_past_the_default_budget 2 "" \
    "$T/image/base/textures/big.tga: error: 8192x8192 pixels take the scene past 16777216 pixels of images in all"
# 1,900 tables of 65,536 zeros: 249,073,737 bytes of text (each row 65,536 '0's and 65,535
# commas, in 'table tN { { ... } }' lines, and the material's line: counted in Python, not by
# md5cine), past the 64 MiB (67108864) of declaration text, refused on the entry's declared size.
python3 make_hostile.py tables "$T/tables" >/dev/null
run tables render "$T/tables/a.md5scene" --size 32x32 --msaa 0 -o "$T/tables/f%d.png"
expect table_text_past_the_budget_is_refused_before_inflating 2 "" \
    "'$T/tables/base/pak000.pk4:materials/m.mtr' declares 249073737 bytes, over the limit of 67108864"

# Model declarations in a pk4 naming files outside the base: by '..' and by an absolute path
# (refused at the name, as the engine's file system refuses them), and through a link to a file
# or a folder outside the base (not in the base: the walk indexes a link to a file only when the
# file is inside, and follows no link to a folder). Each for a mesh and for an anim, in `info`
# (which loads both files); nothing outside is read, so its line 'outside-secret' is quoted
# nowhere. Lines and columns counted in the def that make_hostile.py writes: each model four
# lines on, its file's name after 'mesh ' (column 10) or 'anim idle ' (column 15).
python3 make_hostile.py escape "$T/esc" >/dev/null
E=$T/esc/base/pak000.pk4:def/escape.def
line=5
for way in up abs link dirlink; do
    case $way in
    up) mesh=../outside.md5mesh anim=../outside.md5anim ;;
    abs) mesh=$T/esc/outside.md5mesh anim=$T/esc/outside.md5anim ;;
    link) mesh=models/link.md5mesh anim=models/link.md5anim ;;
    dirlink) mesh=linked/outside.md5mesh anim=linked/outside.md5anim ;;
    esac
    case $way in
    up | abs)
        mesh_err="$E:$((line + 1)):10: error: mesh '$mesh' leaves the base: a declaration names game paths inside it (no '..', '::' or absolute path)"
        anim_err="$E:$((line + 5)):15: error: anim file '$anim' leaves the base: a declaration names game paths inside it (no '..', '::' or absolute path)" ;;
    *)
        mesh_err="$E:$((line + 1)):10: error: mesh '$mesh' of model 'mesh_$way' is not in '$T/esc/base' (loose files and .pk4 archives)"
        anim_err="$E:$((line + 5)):15: error: file '$anim' of anim 'idle' of model 'anim_$way' is not in '$T/esc/base' (loose files and .pk4 archives)" ;;
    esac
    for kind in mesh anim; do
        run "esc_${kind}_$way" info "$T/esc/${kind}_$way.md5scene"
        if [ "$kind" = mesh ]; then err=$mesh_err; else err=$anim_err; fi
        expect "a_${kind}_named_${way}_out_of_the_base_is_refused_at_its_name" 2 "" "$err"
        grep -q outside-secret "$T/esc_${kind}_$way.err" &&
            fail "nothing_outside_is_quoted_${kind}_$way" "$(head -c 600 "$T/esc_${kind}_$way.err")" ||
            ok "nothing_outside_is_quoted_${kind}_$way"
    done
    line=$((line + 7))
done
run esc_render render "$T/esc/mesh_abs.md5scene" --size 32x32 --msaa 0 -o "$T/esc/f%d.png"
expect render_refuses_an_absolute_mesh_too 2 "" "$E:13:10: error: mesh '$T/esc/outside.md5mesh' leaves the base"
# A link to a file inside the base still counts: the model of ok renders its two quads.
run esc_ok info "$T/esc/ok.md5scene"
expect a_link_to_a_file_inside_the_base_is_read 0 "actor \"a\": $T/esc/base/models/inside.md5mesh (1 joint), $T/esc/base/models/idle.md5anim (1 frames at 24 fps, root rebased)"

# Model declarations' limits (limits.h), each an error at the token that passes it (positions
# counted in the files make_hostile.py writes: 5 lines a model, 'inherit ' and 'anim ' after 4
# spaces). m0 ... m16: m15's inherit (line 77, column 13) would be the 17th level.
python3 make_hostile.py limits "$T/lim" >/dev/null
run lim_deep info "$T/lim/deep.md5scene"
expect inherit_past_16_deep_is_refused_at_the_inherit 2 "" \
    "$T/lim/deep/def/x.def:77:13: error: model 'm0' inherits more than 16 deep"
# 2,049 anims inherited and 2,048 of its own: its 2,048th (line 3 + 2048) is the 4,097th.
run lim_anims info "$T/lim/anims.md5scene"
expect anims_past_4096_with_those_inherited_are_refused_at_the_anim 2 "" \
    "$T/lim/anims/def/x.def:2051:10: error: model 'top' has more than 4096 anims with those it inherits"
# 65 models of 4,096 anims (4,095 shared and their own): the 65th (actor a64, line 68, its model
# at column 19) takes the scene to 65 x 4096 = 266240 past 262144 (64 x 4096).
run lim_scene info "$T/lim/scene.md5scene"
expect the_scenes_model_anims_are_bounded 2 "" \
    "$T/lim/scene.md5scene:68:19: error: model 't64' takes the anims of the scene's models to 266240, past 262144 in all (it has 4096)"
run lim_decls info "$T/lim/decls.md5scene"
expect model_declarations_past_65536_are_refused_at_the_name 2 "" \
    "$T/lim/decls/def/x.def:65537:7: error: more than 65536 model declarations in the base's def files"
# At the limits: 16 deep and 4,096 anims in all.
run lim_under info "$T/lim/under.md5scene"
expect sixteen_deep_and_4096_anims_are_read 0 ", 4096 anims: j0_, j1_,"

# A 16-deep chain of the same 4,095 long anim names, 20 actors: each resolves to the 4,095 anims
# and plays the last (its CPU time is bench/hardening_bench.sh's; here what it gives).
python3 make_hostile.py chain "$T/chain" >/dev/null
run chain info "$T/chain/a.md5scene"
expect twenty_actors_of_a_deep_chain_resolve 0 ", 4095 anims: anim_with_a_long_name_"
[ "$(grep -c '4095 anims: ' "$T/chain.out")" = 20 ] && [ "$(grep -c 'playing "anim_with_a_long_name_x*_4094_end"' "$T/chain.out")" = 20 ] &&
    ok every_actor_of_the_chain_plays_the_last_anim ||
    fail every_actor_of_the_chain_plays_the_last_anim "$(grep -c playing "$T/chain.out") playing"

# compare of two files neither of which is an image names A, the first operand.
python3 make_hostile.py compare "$T/cmp" >/dev/null
run cmp_ab compare "$T/cmp/a.png" "$T/cmp/b.png"
expect compare_of_two_unreadable_files_names_a_first 2 "" "cannot read '$T/cmp/a.png'"
grep -q "b.png" "$T/cmp_ab.err" && fail compare_names_only_a "$(cat "$T/cmp_ab.err")" ||
    ok compare_names_only_a
run cmp_ba compare "$T/cmp/b.png" "$T/cmp/a.png"
expect compare_swapped_names_b_first 2 "" "cannot read '$T/cmp/b.png'"

finish
