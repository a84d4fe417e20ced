"""Writes one small hostile input of tests/hostile_inputs_test.sh and bench/hardening_bench.sh
into a folder: a scene DIR/a.md5scene (on the quads and camera of make_quads.py, written beside
it) with what it needs, or for 'compare' two files.

    python3 make_hostile.py CASE DIR

far       an actor whose mesh reaches x = 1e30 beside one at the origin, no scene lights
inherit   4096 actors of a model declaration that inherits a model nobody declares
compare   a.png and b.png: bytes that are no image (neither can be read)
subs      10 actors of one mesh of 20,000 submeshes of one triangle (4.3 MB)
image     one 8192 x 8192 TGA (run-length, 2 MB) named by a material of the scene's base
tables    1,900 tables of 65,536 zeros (249 MB of text) in a 268 KB pk4, one material naming one
many      2,500 small quads at three depths before a backdrop (2,501 submeshes: past the 2048 items
          whose shadow volumes are scissored each), 2 frames, a light of the scene's own
escape    model declarations in a pk4 naming files outside the base: by '..', by an absolute
          path, through a link to a file outside and through a link to a folder outside (one
          scene each, mesh_up.md5scene ... anim_dirlink.md5scene), the files outside an MD5
          header and the line 'outside-secret' (quoted by an error if read); and ok.md5scene, a model whose mesh is a link to a file
          inside the base
chain     a 16-deep inherit chain of model declarations in a pk4, each of the same 4,095 anims of
          long names (16 MB of text, 200 KB deflated); a.md5scene: 20 actors of the chain's first
          model playing its last anim, one.md5scene: one actor
limits    the model declarations' limits, each scene past one: deep.md5scene (17 models, each
          inheriting the next), anims.md5scene (a model of 2,048 anims inheriting 2,049 others),
          scene.md5scene (65 models of 4,096 anims with the one they share), decls.md5scene
          (65,537 model declarations); and under.md5scene (16 deep, 4,096 anims: at each limit)
"""
import os
import struct
import subprocess
import sys
import zipfile

case, d = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(d, exist_ok=True)
subprocess.run([sys.executable, os.path.join(here, 'make_quads.py'), d], check=True)


def write(name, text, mode='w'):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


# One frame of the quads' one joint, still.
IDLE = ('MD5Version 10\ncommandline ""\nnumFrames 1\nnumJoints 1\nframeRate 24\n'
        'numAnimatedComponents 0\nhierarchy {\n\t"origin" -1 0 0\n}\nbounds {\n'
        '\t( -1 -40 -15 ) ( 1 40 15 )\n}\nbaseframe {\n\t( 0 0 0 ) ( 0 0 0 )\n}\n'
        'frame 0 {\n}\n')


def scene(actors, base=None):
    write('a.md5scene', 'md5scene 1\ncamera "cam.md5camera"\n' +
          ('base "%s"\n' % base if base else '') + actors)


if case == 'far':
    quads = open(os.path.join(d, 'quads.md5mesh')).read()
    write('far.md5mesh', quads.replace('weight 0 0 1 ( 0 40 15 )', 'weight 0 0 1 ( 1e30 40 15 )'))
    scene('actor near { mesh "quads.md5mesh" }\nactor far {\n    mesh "far.md5mesh"\n}\n')
elif case == 'inherit':
    write('base/models/quads.md5mesh', open(os.path.join(d, 'quads.md5mesh')).read())
    write('base/def/m.def', 'model m {\n    inherit nosuch\n    mesh models/quads.md5mesh\n}\n')
    scene(''.join('actor a%d { model "m" }\n' % i for i in range(4096)), 'base')
elif case == 'compare':
    write('a.png', 'not an image\n')
    write('b.png', 'no image either\n')
elif case == 'subs':
    n = 20000
    out = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes %d' % n, 'joints {',
           '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
    for m in range(n):
        y, z = m % 100 - 50, m // 100 - 100
        out += ['mesh {', '\tshader "s%d"' % m, '\tnumverts 3', '\tvert 0 ( 0 0 ) 0 1',
                '\tvert 1 ( 1 0 ) 1 1', '\tvert 2 ( 0 1 ) 2 1', '\tnumtris 1', '\ttri 0 0 1 2',
                '\tnumweights 3', '\tweight 0 0 1 ( 0 %d %d )' % (y, z),
                '\tweight 1 0 1 ( 0 %d %d )' % (y - 1, z),
                '\tweight 2 0 1 ( 0 %d %d )' % (y, z + 1), '}']
    write('subs.md5mesh', '\n'.join(out) + '\n')
    scene(''.join('actor a%d { mesh "subs.md5mesh" origin ( %d 0 0 ) }\n' % (i, 10 * i)
                  for i in range(10)))
elif case == 'image':
    w = 8192
    rle = struct.pack('<BBBHHBHHHHBB', 0, 0, 10, 0, 0, 0, 0, 0, w, w, 24, 0)
    write('base/textures/big.tga', rle + bytes([0xFF, 40, 90, 200]) * (w * w // 128), 'wb')
    write('base/materials/m.mtr', 'left { diffusemap textures/big }\n')
    scene('actor q { mesh "quads.md5mesh" }\n', 'base')
elif case == 'tables':
    os.makedirs(os.path.join(d, 'base'), exist_ok=True)
    row = ','.join(['0'] * 65536)
    with zipfile.ZipFile(os.path.join(d, 'base', 'pak000.pk4'), 'w', zipfile.ZIP_DEFLATED,
                         compresslevel=9) as z:
        with z.open('materials/m.mtr', 'w', force_zip64=True) as f:
            for i in range(1900):
                f.write(('table t%d { { %s } }\n' % (i, row)).encode())
            f.write(b'left { { blend add map _white rgb t0[time] } }\n')
    scene('actor q { mesh "quads.md5mesh" }\n', 'base')
elif case == 'many':
    def quad(m, x, y, z, s):
        v = [(x, y + s, z + s), (x, y, z + s), (x, y, z), (x, y + s, z)]
        out = ['mesh {', '\tshader "q%d"' % m, '\tnumverts 4']
        out += ['\tvert %d ( 0 0 ) %d 1' % (i, i) for i in range(4)]
        out += ['\tnumtris 2', '\ttri 0 0 1 2', '\ttri 1 0 2 3', '\tnumweights 4']
        out += ['\tweight %d 0 1 ( %g %g %g )' % ((i,) + p) for i, p in enumerate(v)]
        return out + ['}']
    n = 2500
    out = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes %d' % (n + 1),
           'joints {', '\t"origin" -1 ( 0 0 0 ) ( 0 0 0 )', '}']
    out += quad(n, 40, -120, -70, 240)
    for m in range(n):
        out += quad(m, -20 + 10 * (m % 3), (m % 50) * 3.2 - 80, (m // 50) * 2.4 - 60, 1.6)
    write('many.md5mesh', '\n'.join(out) + '\n')
    scene('frames 2\nactor a { mesh "many.md5mesh" }\n'
          'light "side" { origin ( -60 90 50 ) color ( 0.8 0.8 0.8 ) radius 400 }\n')
elif case == 'escape':
    secret = 'MD5Version 10\noutside-secret: the rest of no md5 file\n'
    for name in ('outside.md5mesh', 'outside.md5anim', 'elsewhere/outside.md5mesh',
                 'elsewhere/outside.md5anim'):
        write(name, secret)
    write('base/models/quads.md5mesh', open(os.path.join(d, 'quads.md5mesh')).read())
    write('base/models/idle.md5anim', IDLE)
    for link, target in (('base/models/link.md5mesh', '../../outside.md5mesh'),
                         ('base/models/link.md5anim', '../../outside.md5anim'),
                         ('base/models/inside.md5mesh', 'quads.md5mesh'),
                         ('base/linked', '../elsewhere')):
        os.symlink(target, os.path.join(d, link))
    outside = os.path.abspath(os.path.join(d, 'outside'))
    ways = (('up', '../outside'), ('abs', outside), ('link', 'models/link'),
            ('dirlink', 'linked/outside'))
    text = 'model ok {\n    mesh models/inside.md5mesh\n    anim idle models/idle.md5anim\n}\n'
    for way, path in ways:
        text += 'model mesh_%s {\n    mesh "%s.md5mesh"\n}\n' % (way, path)
        text += ('model anim_%s {\n    mesh models/quads.md5mesh\n    anim idle "%s.md5anim"\n'
                 '}\n' % (way, path))
    with zipfile.ZipFile(os.path.join(d, 'base/pak000.pk4'), 'w') as z:
        z.writestr('def/escape.def', text)
    for name in ['ok'] + ['%s_%s' % (kind, way) for way, _ in ways for kind in ('mesh', 'anim')]:
        write(name + '.md5scene', 'md5scene 1\ncamera "cam.md5camera"\nbase "base"\n'
              'actor a {\n    model "%s"\n    anim "idle"\n}\n' % name
              if not name.startswith('mesh') else
              'md5scene 1\ncamera "cam.md5camera"\nbase "base"\nactor a { model "%s" }\n' % name)
elif case == 'chain':
    write('base/models/quads.md5mesh', open(os.path.join(d, 'quads.md5mesh')).read())
    write('base/models/a.md5anim', IDLE)
    names = ['anim_with_a_long_name_' + 'x' * 200 + '_%04d_end' % i for i in range(4095)]
    text = ''
    for m in range(16):
        text += 'model m%d {\n' % m + ('    inherit m%d\n' % (m + 1) if m < 15 else '')
        text += '    mesh models/quads.md5mesh\n'
        text += ''.join('    anim %s models/a.md5anim\n' % n for n in names) + '}\n'
    with zipfile.ZipFile(os.path.join(d, 'base/pak000.pk4'), 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('def/chain.def', text)
    actor = 'actor a%d {\n    model "m0"\n    anim "' + names[-1] + '"\n}\n'
    scene(''.join(actor % i for i in range(20)), 'base')
    os.rename(os.path.join(d, 'a.md5scene'), os.path.join(d, 'all.md5scene'))
    scene(actor % 0, 'base')
    os.rename(os.path.join(d, 'a.md5scene'), os.path.join(d, 'one.md5scene'))
    os.rename(os.path.join(d, 'all.md5scene'), os.path.join(d, 'a.md5scene'))
elif case == 'limits':
    def base_with(folder, text):
        write(folder + '/models/quads.md5mesh', open(os.path.join(d, 'quads.md5mesh')).read())
        write(folder + '/models/a.md5anim', IDLE)
        write(folder + '/def/x.def', text)

    def model(name, anims, inherit=None):
        return ('model %s {\n' % name + ('    inherit %s\n' % inherit if inherit else '') +
                '    mesh models/quads.md5mesh\n' +
                ''.join('    anim %s models/a.md5anim\n' % a for a in anims) + '}\n')

    def scene_on(name, folder, models):
        write(name + '.md5scene', 'md5scene 1\ncamera "cam.md5camera"\nbase "%s"\n' % folder +
              ''.join('actor a%d { model "%s" }\n' % (i, m) for i, m in enumerate(models)))

    # m0 inherits m1 ... m16: m15's inherit (line 6 of its 5-line block) is the 17th level.
    base_with('deep', ''.join(model('m%d' % i, ['idle'], 'm%d' % (i + 1)) for i in range(16)) +
              model('m16', ['idle']))
    scene_on('deep', 'deep', ['m0'])
    # 16 levels and 4,096 anims in all: within the limits.
    base_with('under', ''.join(model('m%d' % i, ['i%d_' % i], 'm%d' % (i + 1)) for i in range(15))
              + model('m15', ['j%d_' % k for k in range(4096 - 15)]))
    scene_on('under', 'under', ['m0'])
    base_with('anims', model('top', ['t%d_' % k for k in range(2048)], 'low') +
              model('low', ['l%d_' % k for k in range(2049)]))
    scene_on('anims', 'anims', ['top'])
    base_with('scene', model('big', ['b%d_' % k for k in range(4095)]) +
              ''.join(model('t%d' % i, ['own'], 'big') for i in range(65)))
    scene_on('scene', 'scene', ['t%d' % i for i in range(65)])
    base_with('decls', ''.join('model m%d { }\n' % i for i in range(65537)))
    scene_on('decls', 'decls', ['m0'])
else:
    sys.exit('make_hostile.py: unknown case ' + case)
