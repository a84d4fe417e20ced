#!/bin/bash
# A projected light (docs/materials-and-shading.md, "Shading and lights"; tr_lightrun.cpp R_SetLightProject) on a flat
# white wall, its pixels worked out by hand.
#
# The wall is the square x = 0, y and z in -80..80, facing -X; the camera sits at (-100, 0, 0)
# looking along +X with a 90 degree fov, so at 256x256 the centre of pixel (c, r) shows the wall
# point y = (128 - (c + 0.5)) / 1.28, z = (128 - (r + 0.5)) / 1.28 (as in shadows_test.sh).
#
# The light: origin (-50, 0, 0), target (50 0 0), right (0 -25 0), up (0 0 25), start (0 0 0),
# end (100 0 0), colour 0.3, no shader (md5cine's built-in images), ambient 0.1.
# R_SetLightProject (with origin 0, then moved by the origin): right = (0 -1 0) rLen 25, up =
# (0 0 1) uLen 25, normal = up x right = (1 0 0), dist = target . normal = 50; right *= 0.5 *
# 50 / 25 = (0 -1 0), up *= -0.5 * 50 / 25 = (0 0 -1); planes q = (1 0 0 0), s = (0 -1 0 0),
# t = (0 0 -1 0); the target (50 0 0 1) gives s = 0, q = 50, so ofs = 0.5 - 0 / 50 = 0.5 and
# s = (0.5 -1 0 0), t likewise (0.5 0 -1 0). Falloff: (end - start) / |end - start|^2 = (1/100
# 0 0), offset -start . n = 0. On the wall (relative x = 50):
#   s = 0.5 - y / 50, t = 0.5 - z / 50, f = 50 / 100 = 0.5.
# In texels of the 64x64 built-in projection image: 64 s = 32 - 1.28 y = 32 - (127.5 - c) =
# c - 95.5, the centre of texel c - 96; rows likewise: texel r - 96. So the light covers
# columns and rows 96..159, and each pixel samples one texel at its centre (no blending).
#
# The built-in images: ramp(i) = 1 - |2 (i + 0.5) / 64 - 1|; ramp(31) = ramp(32) = 63/64,
# ramp(16) = 33/64. Projection texel (i, j) = byte(255 ramp(i) ramp(j) + 0.5):
#   (31, 31): 255 * 3969/4096 = 247.09 -> 247;  (16, 31): 255 * 2079/4096 = 129.43 -> 129;
#   (16, 16): 255 * 1089/4096 = 67.80 -> 68.
# Falloff at f = 0.5: halfway between texels 31 and 32, both byte(255 * 63/64 + 0.5) = 251.
#
# A pixel: ambient 2 * 0.1 = 0.2 -> 51, plus the pass (n . L) * P * F * D * (2 * 0.3), D = 1
# (white), n = (-1 0 0), L = normalize((-50 0 0) - (0 y z)), so n . L = 50 / sqrt(2500 + y^2 +
# z^2); no specular map, no specular:
#   (127, 127): y = z = 0.390625: n.L = 50 / sqrt(2500.305176) = 0.999939;
#               0.6 * 0.999939 * 247/255 * 251/255 = 0.572025 -> 145.87 -> 146; 51 + 146 = 197
#   (112, 127): y = 12.109375, z = 0.390625: n.L = 50 / sqrt(2646.789551) = 0.971874;
#               0.6 * 0.971874 * 129/255 * 251/255 = 0.290365 -> 74.04 -> 74; 51 + 74 = 125
#   (112, 112): y = z = 12.109375: n.L = 50 / sqrt(2793.273926) = 0.946047;
#               0.6 * 0.946047 * 68/255 * 251/255 = 0.148993 -> 37.99 -> 38; 51 + 38 = 89
#   (60, 127), (95, 127), (160, 127), (127, 60): outside s or t 0..1 (the projection image is
#               zero there): the ambient 51 alone.
#
# The shadow: a box of half-size 2 around (-30, 5, 5) casts from the light's origin onto the
# wall at (0, t y, t z), t = 50 / (x + 50): 50/18 for its face x = -32 (y, z 3..7 -> 8.33..19.44),
# 50/22 for x = -28 (6.82..15.91). The point y = z = 12.109375 (pixel (112, 112)) lies in it, and
# the camera sees the wall there (the box covers y, z up to 7 * 100 / 68 = 10.29 of the wall's
# picture): with shadows it keeps the ambient 51, without them 89 as above.
set -u
. ./harness.sh projected_light

python3 - "$T" <<'PY'
import os, struct, sys
d = sys.argv[1]

from mesh_faces import N, X, Y, Z, front_camera, mesh, white_base
mesh(d + '/wall.md5mesh', 'wall', [((0, 0, 0), Z, Y, 80)])
c = (-30, 5, 5)
mesh(d + '/box.md5mesh', 'wall',
     [(tuple(c[i] + 2 * n[i] for i in range(3)), u, v, 2) for n, u, v in
      ((X, Y, Z), (N(X), Z, Y), (Y, Z, X), (N(Y), X, Z), (Z, X, Y), (N(Z), Y, X))])
front_camera(d + '/cam.md5camera')
white_base(d)
open(d + '/base/materials/m.mtr', 'w').write('wall { diffusemap textures/white }\n')
light = ('light spot { origin ( -50 0 0 ) color ( 0.3 0.3 0.3 ) target ( 50 0 0 )\n'
         '    right ( 0 -25 0 ) up ( 0 0 25 ) start ( 0 0 0 ) end ( 100 0 0 ) }\n')
head = ('md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\n'
        'ambient ( 0.1 0.1 0.1 )\nactor wall { mesh "wall.md5mesh" }\n')
open(d + '/wall.md5scene', 'w').write(head + light)
open(d + '/box.md5scene', 'w').write(head + 'actor box { mesh "box.md5mesh" }\n' + light)
PY

render() { # render NAME SCENE [options] -> $T/NAME0.png
    local name=$1 sc=$2
    shift 2
    run "$name" render "$T/$sc.md5scene" --size 256x256 --msaa 0 -o "$T/${name}%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
# grey FILE C R WANT NAME: pixel (C, R) is (WANT, WANT, WANT), give or take 1
grey() {
    local got
    got=$(convert "$1" -depth 8 -crop "1x1+$2+$3" -format '%[fx:int(255*r+0.5)] %[fx:int(255*g+0.5)] %[fx:int(255*b+0.5)]' info: 2>&1)
    if python3 -c 'import sys; g = list(map(int, sys.argv[1].split())); w = int(sys.argv[2]); sys.exit(0 if len(g) == 3 and all(abs(v - w) <= 1 for v in g) else 1)' "$got" "$4" 2>/dev/null; then
        ok "$5 ($got)"
    else
        fail "$5" "pixel ($2, $3) is '$got', expected $4"
    fi
}

render wall wall
grey "$T/wall0.png" 127 127 197 the_centre_takes_the_middle_texel
grey "$T/wall0.png" 112 127 125 texel_16_31_at_column_112
grey "$T/wall0.png" 112 112 89 texel_16_16_at_column_and_row_112
grey "$T/wall0.png" 60 127 51 far_left_of_the_frustum_is_ambient
grey "$T/wall0.png" 95 127 51 the_column_left_of_the_frustum_is_ambient
grey "$T/wall0.png" 160 127 51 the_column_right_of_the_frustum_is_ambient
grey "$T/wall0.png" 127 60 51 above_the_frustum_is_ambient

render box box
render box_off box --shadows off
grey "$T/box0.png" 112 112 51 the_box_shadows_the_wall
grey "$T/box_off0.png" 112 112 89 without_shadows_the_wall_is_lit
grey "$T/box0.png" 127 127 197 outside_the_shadow_the_wall_is_lit
# the light's reach and volume scissors change no pixel (docs/materials-and-shading.md, "Shadows")
MD5CINE_NO_SCISSOR=1 render box_all box
if cmp -s "$T/box0.png" "$T/box_all0.png"; then
    ok the_scissored_frame_equals_the_unscissored_one
else
    fail the_scissored_frame_equals_the_unscissored_one "the frames differ"
fi

finish
