"""Writes a test scene's geometry into a folder: quads.md5mesh, two quads facing the camera in
the plane x = 0 (shaders "left", y 10..40, and "right", y -40..-10; z -15..15; the left quad's s
runs 0..S_MAX, default 1), and cam.md5camera at (-100, 0, 0) looking along +X with a 90 degree
fov (screen left is +Y, up is +Z; at an output W pixels wide the screen x of (0, y, z) is
W/2 - (W/2) * y / 100). Triangles are clockwise as seen, the md5mesh convention.
usage: make_quads.py FOLDER [S_MAX]"""
import sys

folder = sys.argv[1]
s_max = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0


def quad(shader, y0, y1, s1):
    v = [(0, y1, 15), (0, y0, 15), (0, y0, -15), (0, y1, -15)]
    st = [(0, 0), (s1, 0), (s1, 1), (0, 1)]
    text = 'mesh {\n\tshader "%s"\n\tnumverts 4\n' % shader
    for i in range(4):
        text += '\tvert %d ( %g %g ) %d 1\n' % (i, st[i][0], st[i][1], i)
    text += '\tnumtris 2\n\ttri 0 0 1 2\n\ttri 1 0 2 3\n\tnumweights 4\n'
    for i, p in enumerate(v):
        text += '\tweight %d 0 1 ( %g %g %g )\n' % (i, p[0], p[1], p[2])
    return text + '}\n'


with open(folder + '/quads.md5mesh', 'w') as f:
    f.write('MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 2\njoints {\n'
            '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n' + quad('left', 10, 40, s_max) +
            quad('right', -40, -10, 1))
with open(folder + '/cam.md5camera', 'w') as f:
    f.write('MD5Version 10\ncommandline ""\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\n'
            'camera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n')
