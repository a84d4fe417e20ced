#!/bin/bash
# Stencil shadows (docs/materials-and-shading.md, "Shadows"): a box actor between a light and a floor actor. The floor
# is stood up to face the camera, so that its picture is a linear map of the plane: the floor
# is the square x = 0, y and z in -80..80, facing -X; the camera (made here as make_quads.py
# makes it) sits at (-100, 0, 0) looking along +X with a 90 degree fov, so at 256x256 a point
# (0, y, z) is drawn at column 128 - 1.28 y, row 128 - 1.28 z (pixel i covers i..i+1). The box
# spans x -45..-35, y -5..5, z -5..5; the light is a point light at L = (-80, 30, 0) of radius
# 1000 and colour 0.3 (lit floor below 255, so that a changed lit pixel shows), with ambient
# 0.1.
#
# The shadow by hand: a box corner c projects from L onto x = 0 at L + t (c - L), t = 80 /
# (c.x + 80): for c.x = -45, t = 16/7: y = 30 - 16/7 (30 - c.y) = -27.142857 (c.y = 5) or -50
# (c.y = -5), z = +-11.428571; for c.x = -35, t = 16/9: y = -14.444444 or -32.222222, z =
# +-8.888889. Their convex hull (the corners at y = -32.2 fall inside) in pixels:
#   (192, 113.371429) (162.742857, 113.371429) (146.488889, 116.622222)
#   (146.488889, 139.377778) (162.742857, 142.628571) (192, 142.628571).
# The box itself is drawn at columns 116..140 (its face x = -45 at distance 55: 128 -+ 128 *
# 5 / 55), clear of the shadow. In the shadow the floor (white) shows only the ambient light,
# 1 * 0.1 * 2 (r_lightScale) = 0.2 -> 51.
set -u
. ./harness.sh shadows

python3 - "$T" <<'PY'
import struct, sys
d = sys.argv[1]

from mesh_faces import N, X, Y, Z, front_camera, mesh, white_base
# the floor: normal -X = Z x Y
mesh(d + '/floor.md5mesh', 'floor', [((0, 0, 0), Z, Y, 80)])
# the box: six faces of half-size 5 around (-40, 0, 0), each its own 4 corners (24 vertices)
c = (-40, 0, 0)
box = []
for n, u, v in ((X, Y, Z), (N(X), Z, Y), (Y, Z, X), (N(Y), X, Z), (Z, X, Y), (N(Z), Y, X)):
    box.append((tuple(c[i] + 5 * n[i] for i in range(3)), u, v, 5))
mesh(d + '/box.md5mesh', 'box', box)
# the two as one mesh of one surface (shader "floor"): the box then shadows its own mesh
mesh(d + '/both.md5mesh', 'floor', [((0, 0, 0), Z, Y, 80)] + box)
front_camera(d + '/cam.md5camera')
white_base(d)
PY

# scene NAME BOX_MATERIAL LIGHT_EXTRA: writes $T/NAME.md5scene and its materials
scene() {
    mkdir -p "$T/$1/materials"
    cp -r "$T/base/textures" "$T/$1/"
    printf 'floor { diffusemap textures/white }\nbox { %s diffusemap textures/white }\n' "$2" \
        >"$T/$1/materials/m.mtr"
    printf 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\noutput { background ( 0 0 0 ) }
actor floor { mesh "floor.md5mesh" }
actor box { mesh "box.md5mesh" }
light key { origin ( -80 30 0 ) color ( 0.3 0.3 0.3 ) radius 1000 %s }
ambient ( 0.1 0.1 0.1 )\n' "$1" "$3" >"$T/$1.md5scene"
}
render() { # render NAME SCENE [options] -> $T/NAME0.png
    local name=$1 sc=$2
    shift 2
    run "$name" render "$T/$sc.md5scene" --size 256x256 --msaa 0 -o "$T/${name}%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
scene plain "" ""
sed 's/^actor floor { mesh "floor.md5mesh" }$/actor both { mesh "both.md5mesh" }/; /^actor box /d' \
    "$T/plain.md5scene" >"$T/self.md5scene"
scene noshadows_mat "noShadows" ""
scene noshadows_light "" "noShadows 1"
render on plain
render off plain --shadows off
render mat noshadows_mat
render light noshadows_light
render self self
# the same one mesh, its material noSelfShadow: the box no longer shadows the floor
scene selfns "" ""
printf 'floor { noSelfShadow diffusemap textures/white }\n' >"$T/selfns/materials/m.mtr"
sed 's/^base .*/base "selfns"/' "$T/self.md5scene" >"$T/selfns.md5scene"
render selfns selfns

# check_shadow ON OFF: the pixels that differ lie within 1 px of the hand-made polygon, every pixel
# more than 1 px inside it differs and shows the ambient floor (51); everything else is equal.
check_shadow() {
    python3 - "$T/$1" "$T/$2" <<'PY'
import subprocess, sys

def load(path):
    ppm = subprocess.run(['convert', path, '-depth', '8', 'ppm:-'], capture_output=True,
                         check=True).stdout
    head = ppm.split(b'\n', 3)
    w, h = map(int, head[1].split())
    return w, h, head[3]

w, h, on = load(sys.argv[1])
_, _, off = load(sys.argv[2])
poly = [(192, 113.371429), (162.742857, 113.371429), (146.488889, 116.622222),
        (146.488889, 139.377778), (162.742857, 142.628571), (192, 142.628571)]

def dist(x, y):
    # the largest signed distance to the polygon's edge lines (negative inside; convex)
    best = -1e9
    for i in range(len(poly)):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % len(poly)]
        ex, ey = bx - ax, by - ay
        l = (ex * ex + ey * ey) ** 0.5
        # the polygon runs counter-clockwise on screen (rows down): outward normal (-ey, ex) / l
        best = max(best, ((x - ax) * -ey + (y - ay) * ex) / l)
    return best

stray, missing, wrong, inside = 0, 0, 0, 0
for r in range(h):
    for c in range(w):
        k = (r * w + c) * 3
        differs = on[k:k + 3] != off[k:k + 3]
        d = dist(c + 0.5, r + 0.5)
        if differs and d > 1.0:
            stray += 1
        if d <= -1.0:
            inside += 1
            if not differs:
                missing += 1
            elif tuple(on[k:k + 3]) != (51, 51, 51):
                wrong += 1
print('%d inside, %d stray, %d missing, %d not ambient' % (inside, stray, missing, wrong))
sys.exit(0 if inside > 500 and stray == 0 and missing == 0 and wrong == 0 else 1)
PY
}
if out=$(check_shadow on0.png off0.png); then
    ok "the_shadow_is_the_projected_box_within_1px ($out)"
else
    fail the_shadow_is_the_projected_box_within_1px "$out"
fi
for v in mat light; do
    if cmp -s "$T/${v}0.png" "$T/off0.png"; then
        ok "no_shadows_${v}_casts_none"
    else
        fail "no_shadows_${v}_casts_none" "differs from the render without shadows"
    fi
done
if ! cmp -s "$T/on0.png" "$T/off0.png"; then ok shadows_are_on_by_default; else fail shadows_are_on_by_default "no difference"; fi
# One mesh holding both the box and the floor shadows itself just as the two actors do (the
# box's faces then take the floor's material: white, as the box's).
if out=$(check_shadow self0.png off0.png); then
    ok "a_mesh_shadows_itself ($out)"
else
    fail a_mesh_shadows_itself "$out"
fi

# noSelfShadow (Material.h MF_NOSELFSHADOW; Interaction.cpp puts such a surface's interactions
# in localInteractions and its shadows in localShadows, drawn after them): one mesh of one
# surface shadows itself without the keyword and not with it. The floor pixel (170, 127) is in
# the box's shadow polygon above; its centre is the floor point y = (128 - 170.5) / 1.28 =
# -33.203125, z = (128 - 127.5) / 1.28 = 0.390625. Lit by the point light (R_DeriveLightData:
# s = 0.5 + 0.5 (x - ox) / 1000 = 0.54, t = 0.5 + 0.5 (y - 30) / 1000 = 0.468398, f = 0.5 +
# 0.5 z / 1000 = 0.500195):
#   projection image (64x64, texel (i, j) = byte(255 ramp(i) ramp(j) + 0.5), ramp(i) = 1 -
#   |2 (i + 0.5) / 64 - 1|) at texel coordinates 64 s - 0.5 = 34.06, 64 t - 0.5 = 29.4775:
#   texels (34, 29) 217, (35, 29) 209, (34, 30) 224, (35, 30) 216, bilinear
#   0.94 * 0.5225 * 217 + 0.06 * 0.5225 * 209 + 0.94 * 0.4775 * 224 + 0.06 * 0.4775 * 216
#   = 219.86; falloff at 64 f - 0.5 = 31.5125: texels 31 and 32, both 251;
#   n . L = 80 / sqrt(80^2 + 63.203125^2 + 0.390625^2) = 0.784661;
#   pass = 0.784661 * 219.86/255 * 251/255 * 2 * 0.3 = 0.399556 -> 101.89 -> 102;
# so 51 (ambient) + 102 = 153 lit, and the ambient 51 alone in the shadow.
px() { convert "$1" -depth 8 -crop "1x1+$2+$3" -format '%[fx:int(255*r+0.5)]' info: 2>&1; }
for v in off:153 self:51 selfns:153 on:51; do
    got=$(px "$T/${v%%:*}0.png" 170 127)
    if [ "${got:-x}" -ge $((${v#*:} - 1)) ] 2>/dev/null && [ "$got" -le $((${v#*:} + 1)) ]; then
        ok "pixel_170_127_of_${v%%:*}_is_${v#*:} ($got)"
    else
        fail "pixel_170_127_of_${v%%:*}_is_${v#*:}" "got '$got'"
    fi
done
if cmp -s "$T/selfns0.png" "$T/off0.png"; then
    ok no_self_shadow_mesh_has_no_shadow_of_its_own
else
    fail no_self_shadow_mesh_has_no_shadow_of_its_own "differs from the render without shadows"
fi

# A deformed box (docs/materials-and-shading.md, "Deforms"): `deform move 20` draws the box 20
# further along +X for the view (x -25..-15), and its light interaction and shadow from the
# undeformed box, as Doom does (tr_light.cpp R_AddDrawSurf deforms the view's surface only; a
# light's interactions and shadows come from the model's own). So:
# (a) the shadow is the undeformed box's: the frame equals `on` (the box without a deform) at
#     every column from 141 on, where neither box is drawn. Had the deformed box cast it, its
#     corners (x -25 and -15, t = 80/55 and 80/65) would put it at y -20.909..-0.769 on row 128,
#     columns 128.98..154.76: pixel (141, 128) (y -10.55) would be shadowed and (175, 128) (y
#     -37.11, inside the polygon above, past column 154.76) lit; so (175, 128) shows the ambient
#     51 and (141, 128) the lit floor, as the floor alone (`nobox`) shows it there;
# (b) the view shows the deformed outline: its face x = -25 is 75 from the eye, 128 +- 128 * 5 /
#     75 = 119.47..136.53, so columns 118 and 137 of row 128 (the undeformed box's in `on`, which
#     spans 116.36..139.64) show the floor, as `nobox` does; inside it (128, 128) the box has the
#     ambient 51 alone: the undeformed box's interaction (its face at x = -45) does not meet the
#     deformed depth (GL_EQUAL, RB_ARB2_CreateDrawInteractions), so the light adds nothing.
scene deform "deform move 20" ""
render deform deform
sed '/^actor box /d' "$T/plain.md5scene" >"$T/nobox.md5scene"
render nobox nobox
python3 - "$T/deform0.png" "$T/on0.png" <<'PY' && ok deformed_box_shadows_as_the_undeformed_box ||
import subprocess, sys
def load(path):
    ppm = subprocess.run(['convert', path, '-depth', '8', 'ppm:-'], capture_output=True,
                         check=True).stdout
    head = ppm.split(b'\n', 3)
    return int(head[1].split()[0]), head[3]
w, a = load(sys.argv[1])
_, b = load(sys.argv[2])
rows = [(a[r * w * 3 + 141 * 3:(r + 1) * w * 3], b[r * w * 3 + 141 * 3:(r + 1) * w * 3])
        for r in range(len(a) // (w * 3))]
sys.exit(0 if all(x == y for x, y in rows) else 1)
PY
    fail deformed_box_shadows_as_the_undeformed_box "columns 141.. differ from the undeformed box's"
for v in deform:175:51 deform:128:51 deform:141:nobox deform:118:nobox deform:137:nobox; do
    IFS=: read -r f c want <<<"$v"
    got=$(px "$T/${f}0.png" "$c" 128)
    [ "$want" = nobox ] && want=$(px "$T/nobox0.png" "$c" 128)
    if [ "$got" = "$want" ]; then
        ok "deform_pixel_${c}_128_is_${want} ($got)"
    else
        fail "deform_pixel_${c}_128_is_${want}" "got '$got'"
    fi
done
[ "$(px "$T/on0.png" 118 128)" != "$(px "$T/nobox0.png" 118 128)" ] && ok undeformed_box_covers_column_118 ||
    fail undeformed_box_covers_column_118 "the box without a deform does not reach column 118"

# The default rig (a scene without lights): its key casts shadows and its fill does not, as
# Doom's level designers light fills (noShadows). The same scene with the two lights written
# out as `info --json` gives them (its floats round-trip) draws the same bytes with
# `noShadows 1` on the fill, and other bytes when the fill casts too (the box's second shadow).
sed '/^light key /d' "$T/plain.md5scene" >"$T/rig.md5scene"
run rig_json info --json "$T/rig.md5scene"
python3 - "$T/rig_json.out" "$T/plain.md5scene" "$T" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
base = [l for l in open(sys.argv[2]) if not l.startswith('light key ')]
for name, fill_casts in (('rig_out', False), ('rig_fill_casts', True)):
    lines = list(base)
    for g in d['lights']:
        extra = ' noShadows 1' if g['noShadows'] and not fill_casts else ''
        lines.append('light %s { origin ( %s ) color ( %s ) radius %s%s }\n' % (
            g['name'], ' '.join(repr(x) for x in g['origin']),
            ' '.join(repr(x) for x in g['color']), repr(g['radius']), extra))
    open('%s/%s.md5scene' % (sys.argv[3], name), 'w').write(''.join(lines))
PY
grep -q '^light fill .* noShadows 1 }$' "$T/rig_out.md5scene" && ok rig_fill_is_listed_without_shadows ||
    fail rig_fill_is_listed_without_shadows "$(cat "$T/rig_json.out")"
grep -q '^light key .* noShadows' "$T/rig_out.md5scene" && fail rig_key_is_listed_with_shadows ||
    ok rig_key_is_listed_with_shadows
render rig rig
render rig_out rig_out
render rig_fill_casts rig_fill_casts
if cmp -s "$T/rig0.png" "$T/rig_out0.png"; then
    ok rig_draws_as_its_lights_written_out_with_a_shadowless_fill
else
    fail rig_draws_as_its_lights_written_out_with_a_shadowless_fill "the frames differ"
fi
if ! cmp -s "$T/rig0.png" "$T/rig_fill_casts0.png"; then
    ok rig_fill_would_cast_a_visible_shadow
else
    fail rig_fill_would_cast_a_visible_shadow "no difference"
fi

# EGL and OSMesa give the same bytes, with MSAA too.
backends_agree egl_and_osmesa_draw_the_same_shadow "$T/plain.md5scene" --size 256x256

finish
