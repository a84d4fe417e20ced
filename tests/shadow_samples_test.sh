#!/bin/bash
# Shadows decided once per pixel under MSAA (--shadow-samples pixel, the default; render.h
# mc_shadow_samples) against the 4-sample result (--shadow-samples sample): a thin caster, a
# pole, between a light and a lit wall, its silhouette over its own shadow.
#
# Geometry (the camera of shadows_test.sh: at (-100, 0, 0) looking along +X, fov 90, 256x256, so
# a point (x, y, z) is drawn at column 128 - 128 y / (x + 100), row 128 - 128 z / (x + 100);
# pixel i covers i..i+1): the wall is the square x = 0, y and z in -80..80, facing the camera,
# white; the pole is the box x -41..-39, y -1..1, z -30..10 turned by 4 degrees about the X
# axis through its centre (-40, 0, -10), so that the edges of its shadow cross the pixels at
# every fraction; the light a point light at L = (-70, 0, 40), radius 1000, colour 0.3,
# ambient 0.1. The pole's shadow on the wall is the convex hull of its corners c projected from
# L onto x = 0, L + t (c - L) with t = 70 / (c.x + 70): a stripe about 4.8 units (6 pixels)
# wide from z = -30 down past the wall's edge. The pole's front (x = -41, lit) covers about
# columns 124..131 and rows 106..193 on screen, over the stripe's top, so that the pole's
# silhouette crosses its own shadow there; below row 193 the stripe's two edges are open.
# Both hulls are computed below from the corners.
#
# What must hold (a pixel's distance is to the nearest of the shadow's, the pole's and the
# wall's hull edges: the shadow's edge or a silhouette):
# - the two renders differ only within 1 pixel of the shadow's edge or the pole's silhouette
#   (no light leaking through, no shadow bleeding, beyond the one pixel the mask spans);
# - per pixel, a wall pixel more than 1 pixel from the pole's silhouette is either lit as
#   without shadows or shadowed (the ambient 51): never in between; per sample, some are;
# - more than 1 pixel inside the shadow and off the pole, both renders show the ambient (51);
# - the shadow's area, the sum over the pixels of how much of the light is taken from them
#   against --shadows off, is the hand-computed area of the stripe on the wall less the pole,
#   within a quarter pixel of its perimeter for each render (a shadow grown or shrunk by half
#   a pixel all round would be off by half);
# - without MSAA the option changes nothing (the same bytes).
set -u
. ./harness.sh shadow_samples

python3 - "$T" <<'PY'
import math, os, struct, sys
d = sys.argv[1]

from mesh_faces import N, X, Y, Z, front_camera, mesh, white_base
TILT = math.radians(4.0)

def turn(p):  # about the X axis through the pole's centre (-40, 0, -10)
    y, z = p[1], p[2] + 10
    return (p[0], y * math.cos(TILT) - z * math.sin(TILT),
            y * math.sin(TILT) + z * math.cos(TILT) - 10)
mesh(d + '/wall.md5mesh', 'white', [((0, 0, 0), Z, Y, 80, 80)])
# the pole: centre (-40, 0, -10), half-sizes 1, 1, 20; each face (normal n, axes u, v with
# u x v = n) with its two half-sizes
c, h = (-40, 0, -10), {0: 1, 1: 1, 2: 20}
axis = lambda a: [i for i in range(3) if a[i]][0]
pole = []
for n, u, v in ((X, Y, Z), (N(X), Z, Y), (Y, Z, X), (N(Y), X, Z), (Z, X, Y), (N(Z), Y, X)):
    k = axis(n)
    pole.append((tuple(c[i] + h[k] * n[i] for i in range(3)), u, v, h[axis(u)], h[axis(v)]))
mesh(d + '/pole.md5mesh', 'white', pole, turn)
front_camera(d + '/cam.md5camera')
white_base(d)
open(d + '/base/materials/m.mtr', 'w').write('white { diffusemap textures/white }\n')
open(d + '/pole.md5scene', 'w').write(
    'md5scene 1\ncamera "cam.md5camera"\nbase "base"\noutput { background ( 0 0 0 ) }\n'
    'actor wall { mesh "wall.md5mesh" }\nactor pole { mesh "pole.md5mesh" }\n'
    'light key { origin ( -70 0 40 ) color ( 0.3 0.3 0.3 ) radius 1000 }\n'
    'ambient ( 0.1 0.1 0.1 )\n')
PY

render() { # render NAME [options] -> $T/NAME0.png
    local name=$1
    shift
    run "$name" render "$T/pole.md5scene" --size 256x256 -o "$T/${name}%d.png" "$@"
    [ "$rc" -eq 0 ] || fail "$name" "exit $rc: $(cat "$T/$name.err")"
}
render pixel
render sample --shadow-samples sample
render explicit --shadow-samples pixel
render off --shadows off
render pixel0 --msaa 0
render sample0 --msaa 0 --shadow-samples sample

cmp -s "$T/pixel0.png" "$T/explicit0.png" && ok pixel_is_the_default ||
    fail pixel_is_the_default "the default render differs from --shadow-samples pixel"
cmp -s "$T/pixel0.png" "$T/sample0.png" && fail the_two_differ_with_msaa "the same bytes" ||
    ok the_two_differ_with_msaa
cmp -s "$T/pixel00.png" "$T/sample00.png" && ok without_msaa_the_option_changes_nothing ||
    fail without_msaa_the_option_changes_nothing "the --msaa 0 renders differ"

python3 - "$T" <<'PY' >"$T/check.out"
import math, subprocess, sys
d = sys.argv[1]

def load(name):
    ppm = subprocess.run(['convert', '%s/%s0.png' % (d, name), '-depth', '8', 'ppm:-'],
                         capture_output=True, check=True).stdout
    head = ppm.split(b'\n', 3)
    w, h = map(int, head[1].split())
    return w, h, head[3]

w, h, pixel = load('pixel')
_, _, sample = load('sample')
_, _, off = load('off')

def hull(points):  # convex hull, counter-clockwise on screen (rows down): Andrew's monotone chain
    pts = sorted(set(points))
    cross = lambda o, a, b: (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lo, hi = [], []
    for p in pts:
        while len(lo) >= 2 and cross(lo[-2], lo[-1], p) <= 0:
            lo.pop()
        lo.append(p)
    for p in reversed(pts):
        while len(hi) >= 2 and cross(hi[-2], hi[-1], p) <= 0:
            hi.pop()
        hi.append(p)
    return lo[:-1] + hi[:-1]

def screen(p):  # (x, y, z) -> (column, row)
    return (128 - 128 * p[1] / (p[0] + 100), 128 - 128 * p[2] / (p[0] + 100))

def clip(poly, a, b):  # the part of poly on the left of a->b (Sutherland-Hodgman)
    side = lambda p: (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    out = []
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        if side(p) >= 0:
            out.append(p)
        if (side(p) >= 0) != (side(q) >= 0):
            t = side(p) / (side(p) - side(q))
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out

def area(poly):
    return abs(sum(poly[i][0] * poly[(i + 1) % len(poly)][1] -
                   poly[(i + 1) % len(poly)][0] * poly[i][1] for i in range(len(poly)))) / 2

def intersect(a, b):
    for i in range(len(b)):
        a = clip(a, b[i], b[(i + 1) % len(b)]) if a else a
    return a

def perimeter(poly):
    return sum(((poly[i][0] - poly[i - 1][0]) ** 2 + (poly[i][1] - poly[i - 1][1]) ** 2) ** 0.5
               for i in range(len(poly)))

L = (-70.0, 0.0, 40.0)
TILT = math.radians(4.0)
corners = [(x, (y * math.cos(TILT) - (z + 10) * math.sin(TILT)),
            (y * math.sin(TILT) + (z + 10) * math.cos(TILT) - 10))
           for x in (-41, -39) for y in (-1, 1) for z in (-30, 10)]
proj = []
for q in corners:
    t = 70.0 / (q[0] + 70.0)
    proj.append((0.0, L[1] + t * (q[1] - L[1]), L[2] + t * (q[2] - L[2])))
wall = hull([screen((0, y, z)) for y in (-80, 80) for z in (-80, 80)])
shadow = intersect(hull([screen(p) for p in proj]), wall)
pole = hull([screen(q) for q in corners])

def dist(poly, x, y):  # signed distance to a convex polygon's edge lines (negative inside)
    best = -1e9
    for i in range(len(poly)):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % len(poly)]
        ex, ey = bx - ax, by - ay
        l = (ex * ex + ey * ey) ** 0.5
        best = max(best, ((x - ax) * ey - (y - ay) * ex) / l)
    return best

AMBIENT = 51  # white * 0.1 * 2 (r_lightScale)
# the area is summed over the rows above the one the wall's bottom edge (row 230.4) crosses
BOTTOM = 229
stray = inside_bad = between = between_sample = 0
dark = {'pixel': 0.0, 'sample': 0.0}
for r in range(h):
    for c in range(w):
        k = (r * w + c) * 3
        x, y = c + 0.5, r + 0.5
        ds, dp, dw = dist(shadow, x, y), dist(pole, x, y), dist(wall, x, y)
        near = abs(ds) <= 1.0 or abs(dp) <= 1.0 or abs(dw) <= 1.0
        if pixel[k:k + 3] != sample[k:k + 3] and not near:
            stray += 1
        if ds < -1.0 and dp > 1.0 and (pixel[k] != AMBIENT or sample[k] != AMBIENT):
            inside_bad += 1
        lit = off[k]
        for name, img in (('pixel', pixel), ('sample', sample)):
            if lit > AMBIENT and r < BOTTOM:
                dark[name] += (lit - img[k]) / (lit - AMBIENT)
        if dp > 1.0 and dw < -1.0 and lit > AMBIENT:
            between += pixel[k] not in (lit, AMBIENT)
            between_sample += sample[k] not in (lit, AMBIENT)
# the stripe on the wall less the pole's front over it (its other faces are hidden or behind)
above = intersect(shadow, hull([(0, 0), (0, BOTTOM), (256, BOTTOM), (256, 0)]))
want = area(above) - area(intersect(above, pole))
tol = 0.25 * perimeter(shadow)
print('%d stray, %d inside not ambient, %d pixels between lit and shadow per pixel (%d per '
      'sample); area %.1f per pixel, %.1f per sample, %.1f by hand (+-%.1f)' %
      (stray, inside_bad, between, between_sample, dark['pixel'], dark['sample'], want, tol))
print('stray=%d inside=%d between=%d between_sample=%d' % (stray, inside_bad, between,
                                                          between_sample))
print('area_pixel=%d area_sample=%d' % (abs(dark['pixel'] - want) <= tol,
                                         abs(dark['sample'] - want) <= tol))
PY
summary=$(head -1 "$T/check.out")
grep -q '^stray=0 ' "$T/check.out" && ok "differences_only_within_1px_of_shadow_edge_or_silhouette ($summary)" ||
    fail differences_only_within_1px_of_shadow_edge_or_silhouette "$summary"
grep -q ' inside=0 ' "$T/check.out" && ok shadow_inside_is_the_ambient_in_both ||
    fail shadow_inside_is_the_ambient_in_both "$summary"
grep -q ' between=0 ' "$T/check.out" && ok per_pixel_a_wall_pixel_is_lit_or_shadowed ||
    fail per_pixel_a_wall_pixel_is_lit_or_shadowed "$summary"
grep -q ' between_sample=0$' "$T/check.out" && fail per_sample_edges_are_antialiased "$summary" ||
    ok per_sample_edges_are_antialiased
grep -q '^area_pixel=1 ' "$T/check.out" && ok shadow_area_per_pixel_is_the_hand_area ||
    fail shadow_area_per_pixel_is_the_hand_area "$summary"
grep -q ' area_sample=1$' "$T/check.out" && ok shadow_area_per_sample_is_the_hand_area ||
    fail shadow_area_per_sample_is_the_hand_area "$summary"

# EGL and OSMesa give the same bytes for the mask.
backends_agree egl_and_osmesa_draw_the_same_mask "$T/pole.md5scene" --size 256x256

finish
