"""Writes the skin tests' base folder (tests/skin_test.sh, tests/skin_command_test.sh):
textures/red.tga, green.tga and blue.tga, 1x1 uncompressed 24-bit TGAs of the colour their
names say (BGR order in the file), and materials/quads.mtr, whose materials "left" (red), "right"
(blue) and "skinned/green" (green) draw them, for the two quads of make_quads.py.
usage: make_skin_base.py BASE"""
import os
import struct
import sys

base = sys.argv[1]


def tga(bgr):
    return struct.pack('<BBBHHBHHHHBB', 0, 0, 2, 0, 0, 0, 0, 0, 1, 1, 24, 0) + bytes(bgr)


os.makedirs(base + '/textures', exist_ok=True)
os.makedirs(base + '/materials', exist_ok=True)
for name, bgr in (('red', [0, 0, 255]), ('green', [0, 255, 0]), ('blue', [255, 0, 0])):
    with open('%s/textures/%s.tga' % (base, name), 'wb') as f:
        f.write(tga(bgr))
with open(base + '/materials/quads.mtr', 'w') as f:
    f.write('left { diffusemap textures/red }\nright { diffusemap textures/blue }\n'
            'skinned/green { diffusemap textures/green }\n')
