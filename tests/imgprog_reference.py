#!/usr/bin/env python3
"""An independent reading of the image-program rules of include/md5cine/material.h (Doom 3's
Image_program.cpp), in plain Python: prints the expected pixels that tests/material_images_test.c
checks. Float arithmetic follows Doom: 32-bit floats where Doom stores floats, its fast inverse
square root (bit trick plus one Newton step) where Doom calls RSqrt/NormalizeFast/LengthFast."""
import math
import struct


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def rsqrt(x):
    x = f32(x)
    i = struct.unpack('i', struct.pack('f', x))[0]
    i = 0x5f3759df - (i >> 1)
    r = struct.unpack('f', struct.pack('i', i))[0]
    y = f32(x * 0.5)
    return f32(r * f32(1.5 - f32(f32(r * r) * y)))


def norm_fast(v):
    s = f32(f32(f32(v[0] * v[0]) + f32(v[1] * v[1])) + f32(v[2] * v[2]))
    inv = rsqrt(s)
    return [f32(c * inv) for c in v]


def byte(v):
    return int(f32(f32(v * 127.0) + 128.0))


def heightmap(grey, w, h, scale):
    """grey: rows top first of (r, g, b) triples."""
    s = f32(scale / 256.0)
    d = [[(p[0] + p[1] + p[2]) // 3 for p in row] for row in grey]
    out = []
    for y in range(h):
        row = []
        for x in range(w):
            d1, d2 = d[y][x], d[y][(x + 1) % w]
            d3, d4 = d[(y + 1) % h][x], d[(y + 1) % h][(x + 1) % w]
            n1 = norm_fast([f32(-(d2 - d1) * s), f32(-(d3 - d1) * s), 1.0])
            n2 = norm_fast([f32(-(d4 - d3) * s), f32((d1 - d3) * s), 1.0])
            n = norm_fast([f32(n1[i] + n2[i]) for i in range(3)])
            row.append((byte(n[0]), byte(n[1]), byte(n[2]), 255))
        out.append(row)
    return out


def addnormals(a, b):
    out = []
    for ra, rb in zip(a, b):
        row = []
        for p, q in zip(ra, rb):
            n = [f32((p[i] - 128) / 127.0) for i in range(3)]
            sq = f32(f32(f32(n[0] * n[0]) + f32(n[1] * n[1])) + f32(n[2] * n[2]))
            if f32(sq * rsqrt(sq)) < 1.0:
                z2 = f32(f32(1.0 - f32(n[0] * n[0])) - f32(n[1] * n[1]))
                n[2] = f32(math.sqrt(z2)) if z2 > 0 else 0.0
            n[0] = f32(n[0] + f32((q[0] - 128) / 127.0))
            n[1] = f32(n[1] + f32((q[1] - 128) / 127.0))
            l = math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2)
            n = [c / l for c in n]
            row.append((byte(n[0]), byte(n[1]), byte(n[2]), 255))
        out.append(row)
    return out


if __name__ == '__main__':
    flat = [[(200, 200, 200)] * 4 for _ in range(4)]
    print('flat heightmap, scale 4:', heightmap(flat, 4, 4, 4)[0][0])
    bump = [[(0, 0, 0)] * 4 for _ in range(4)]
    bump[1][1] = (255, 255, 255)
    hm = heightmap(bump, 4, 4, 4)
    for row in hm:
        print(row)
    a = [[(128, 128, 255, 255), (255, 128, 128, 255)], [(128, 128, 128, 255), (10, 200, 240, 255)]]
    b = [[(200, 128, 128, 255), (128, 128, 128, 255)], [(128, 255, 128, 255), (128, 60, 128, 255)]]
    print('addnormals:', addnormals(a, b))
