"""Writes DIR/grid.md5mesh, an N x N-quad grid of one joint (N = 170: 58,000 triangles, about
4 MB), and DIR/grid.tga, its 2x2 texture; then a scene DIR/NAME.md5scene of K actors of it in a
row, for each NAME=K given (on the camera of make_quads.py, written beside it).

    python3 make_grid.py DIR [N] NAME=K...
"""
import sys

d, rest = sys.argv[1], sys.argv[2:]
n = int(rest.pop(0)) if rest and rest[0].isdigit() else 170
v = (n + 1) * (n + 1)
out = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes 1', 'joints {',
       '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )', '}', 'mesh {', '\tshader "grid"', '\tnumverts %d' % v]
out += ['\tvert %d ( %g %g ) %d 1' % (i, (i % (n + 1)) / n, (i // (n + 1)) / n, i) for i in range(v)]
out.append('\tnumtris %d' % (2 * n * n))
for y in range(n):
    for x in range(n):
        a, t = y * (n + 1) + x, 2 * (y * n + x)
        out += ['\ttri %d %d %d %d' % (t, a, a + n + 1, a + 1),
                '\ttri %d %d %d %d' % (t + 1, a + 1, a + n + 1, a + n + 2)]
out.append('\tnumweights %d' % v)
out += ['\tweight %d 0 1 ( 0 %g %g )' % (i, (i % (n + 1)) * 60.0 / n - 30, (i // (n + 1)) * 60.0 / n - 30)
        for i in range(v)]
open(d + '/grid.md5mesh', 'w').write('\n'.join(out) + '\n}\n')
open(d + '/grid.tga', 'wb').write(bytes([0, 0, 2] + [0] * 9 + [2, 0, 2, 0, 24, 0]) + bytes([90, 160, 220]) * 4)
for arg in rest:
    name, k = arg.split('=')
    with open('%s/%s.md5scene' % (d, name), 'w') as f:
        f.write('md5scene 1\ncamera "cam.md5camera"\n')
        for i in range(int(k)):
            f.write('actor a%d { mesh "grid.md5mesh" origin ( %d 0 0 ) }\n' % (i, 5 * i))
