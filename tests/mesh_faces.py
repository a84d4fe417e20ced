"""Boxes and walls as md5mesh files for the lighting tests (imported by the python3 of
shadows_test.sh, shadow_samples_test.sh and projected_light_test.sh, run from tests/): one joint
at the origin, each vertex its own weight of 1 at its position.
  face(verts, tris, c, u, v, hu, hv=hu)   a rectangle around c spanning +-hu along u and +-hv
                                          along v, outward normal u x v, added to verts and tris
  mesh(path, shader, faces, move)         writes the faces (argument tuples of face) to path,
                                          every vertex moved by move first
  front_camera(path)                      a one-frame md5camera at (-100, 0, 0) looking down +X,
                                          fov 90
  white_base(d)                           d/base with textures/white.tga (1x1 white) and an empty
                                          materials folder
  X, Y, Z, N(a)                           the axes and a vector's opposite"""
import os
import struct

X, Y, Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def N(a):
    return tuple(-x for x in a)


def face(verts, tris, c, u, v, hu, hv=None):
    # outward normal u x v, corners clockwise as seen from outside (the md5mesh convention)
    hv = hu if hv is None else hv
    base = len(verts)
    for su, sv in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        verts.append(tuple(c[i] + su * hu * u[i] + sv * hv * v[i] for i in range(3)))
    tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]


def mesh(path, shader, faces, move=lambda p: p):
    verts, tris = [], []
    for f in faces:
        face(verts, tris, *f)
    verts = [move(p) for p in verts]
    t = 'MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n'
    t += '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\n\tshader "%s"\n' % shader
    t += '\tnumverts %d\n' % len(verts)
    for i in range(len(verts)):
        t += '\tvert %d ( 0 0 ) %d 1\n' % (i, i)
    t += '\tnumtris %d\n' % len(tris)
    for i, tr in enumerate(tris):
        t += '\ttri %d %d %d %d\n' % ((i,) + tr)
    t += '\tnumweights %d\n' % len(verts)
    for i, p in enumerate(verts):
        t += '\tweight %d 0 1 ( %g %g %g )\n' % ((i,) + p)
    open(path, 'w').write(t + '}\n')


def front_camera(path):
    open(path, 'w').write(
        'MD5Version 10\ncommandline ""\nnumFrames 1\nframeRate 24\nnumCuts 0\ncuts {\n}\n'
        'camera {\n\t( -100 0 0 ) ( 0 0 0 ) 90\n}\n')


def white_base(d):
    os.makedirs(d + '/base/materials', exist_ok=True)
    os.makedirs(d + '/base/textures', exist_ok=True)
    open(d + '/base/textures/white.tga', 'wb').write(
        struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 1, 1, 24, 0) + bytes([255, 255, 255]))
