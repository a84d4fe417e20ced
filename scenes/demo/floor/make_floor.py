#!/usr/bin/env python3
"""Writes floor.md5mesh, the floor of the bundled demo scene: a flat grid of quads at z = 0.

Usage: python3 make_floor.py [OUT]   (default: floor.md5mesh next to this script)

One joint at the origin with the identity orientation (stored as ( 0 0 0 ); the reader
rebuilds w = sqrt(1 - x^2 - y^2 - z^2) = 1), one weight per vertex on that joint with bias 1
and offset = the vertex position, so the bind pose is the grid itself. Triangles are clockwise
seen from above (looking down -Z), which is the front side in the MD5 convention. Texture
coordinates run past [0, 1] so the tileable texture repeats every TILE units (the renderer
samples with GL_REPEAT).
"""
import os
import sys

SIZE = 2400.0          # edge of the square floor, units (inches)
CELLS = 24             # quads per edge
CENTER = (100.0, 0.0)  # under the actors, reaching past the wall of doors at x = 150
TILE = 96.0            # units per texture repeat (the texture holds 2 x 2 slabs)
SHADER = "floor"


def grid():
    """Vertices (x, y, s, t) and triangles (indices) of the floor."""
    verts = []
    n = CELLS + 1
    x0 = CENTER[0] - SIZE / 2.0
    y0 = CENTER[1] - SIZE / 2.0
    step = SIZE / CELLS
    for j in range(n):
        for i in range(n):
            x = x0 + i * step
            y = y0 + j * step
            verts.append((x, y, x / TILE, -y / TILE))
    tris = []
    for j in range(CELLS):
        for i in range(CELLS):
            a = j * n + i          # (x0, y0)
            b = a + 1              # (x1, y0)
            d = a + n              # (x0, y1)
            c = d + 1              # (x1, y1)
            # seen from above with +X right and +Y up, a -> d -> c and a -> c -> b turn clockwise
            tris.append((a, d, c))
            tris.append((a, c, b))
    return verts, tris


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "floor.md5mesh")
    verts, tris = grid()
    lines = [
        "MD5Version 10",
        'commandline "scenes/demo/floor/make_floor.py"',
        "",
        "numJoints 1",
        "numMeshes 1",
        "",
        "joints {",
        '\t"origin"\t-1 ( 0 0 0 ) ( 0 0 0 )',
        "}",
        "",
        "mesh {",
        '\tshader "%s"' % SHADER,
        "",
        "\tnumverts %d" % len(verts),
    ]
    for k, (_, _, s, t) in enumerate(verts):
        lines.append("\tvert %d ( %.6f %.6f ) %d 1" % (k, s, t, k))
    lines += ["", "\tnumtris %d" % len(tris)]
    for k, (a, b, c) in enumerate(tris):
        lines.append("\ttri %d %d %d %d" % (k, a, b, c))
    lines += ["", "\tnumweights %d" % len(verts)]
    for k, (x, y, _, _) in enumerate(verts):
        lines.append("\tweight %d 0 1 ( %.4f %.4f 0 )" % (k, x, y))
    lines.append("}")
    with open(out_path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
