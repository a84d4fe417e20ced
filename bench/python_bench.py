#!/usr/bin/env python3
"""Frames per second through the Python module against `md5cine render` to PNG, on the same
frames of the same scene at the same size. Prints figures; asserts nothing.

usage: PYTHONPATH=build/python python3 bench/python_bench.py [--md5cine build/src/md5cine]
           [--scene scenes/demo/demo.md5scene] [--size 640x360] [--frames 0-119] [--backend B]

Module: Scene load + renderer create once (setup), then every frame into one reused numpy
array (per frame). Command: the whole `md5cine render --frames A-B -o DIR/%05d.png --quiet` run
(PNG encoding included), and one run of a single frame, whose time is taken as its setup; the
command's per-frame figure is (whole - setup) / (frames - 1)."""

import argparse
import os
import subprocess
import tempfile
import time

import numpy as np

import md5cine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--md5cine", default="build/src/md5cine")
    ap.add_argument("--scene", default="scenes/demo/demo.md5scene")
    ap.add_argument("--size", default="640x360")
    ap.add_argument("--frames", default="0-119")
    ap.add_argument("--backend", default="auto")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    first, last = (int(v) for v in a.frames.split("-"))
    n = last - first + 1
    env = dict(os.environ)
    if a.backend != "auto":
        env["MD5CINE_GL"] = a.backend

    t0 = time.perf_counter()
    scene = md5cine.Scene(a.scene)
    r = scene.renderer(width=w, height=h, backend=a.backend)
    setup = time.perf_counter() - t0
    buf = np.empty((h, w, 4), dtype=np.uint8)
    r.render(first, buf)  # warm: shaders compiled, textures touched
    t0 = time.perf_counter()
    for k in range(first, last + 1):
        r.render(k, buf)
    mod = time.perf_counter() - t0
    backend = r.backend
    r.close()
    scene.close()

    with tempfile.TemporaryDirectory() as d:
        def cli(frames):
            t = time.perf_counter()
            subprocess.run([a.md5cine, "render", a.scene, "--size", a.size, "--frames", frames,
                            "--quiet", "-o", os.path.join(d, "%05d.png")], check=True, env=env)
            return time.perf_counter() - t
        one = cli("%d-%d" % (first, first))
        whole = cli("%d-%d" % (first, last))

    per_cli = (whole - one) / max(n - 1, 1)
    print("python_bench: %s, %dx%d, frames %d-%d (%d), backend %s"
          % (a.scene, w, h, first, last, n, backend))
    print("  module   setup %.3f s  frames %.3f s  %.1f fps  %.2f ms/frame"
          % (setup, mod, n / mod, 1000 * mod / n))
    print("  command  setup %.3f s  whole %.3f s  %.1f fps end to end  %.2f ms/frame after setup"
          % (one, whole, n / whole, 1000 * per_cli))
    print("  module / command time per frame: %.2f" % ((mod / n) / per_cli))


if __name__ == "__main__":
    main()
