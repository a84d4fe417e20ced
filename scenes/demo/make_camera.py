#!/usr/bin/env python3
"""Writes demo.md5camera, the camera of the bundled demo scene: three shots joined by cuts.

Usage: python3 make_camera.py [OUT]   (default: demo.md5camera next to this script)

Each shot is a move of a camera position and a look-at target over a number of frames at
24 fps, eased in and out. Orientation follows Doom 3's convention (world +Z up, +X forward,
+Y left): the view axis rows are forward = normalize(target - pos), left = normalize(up_world x
forward), up = forward x left; that matrix M is written as the quaternion whose ToMat3 is M
(the inverse of idQuat::ToMat3), with the sign chosen so that w >= 0, and only x y z stored.

Cuts follow idCameraAnim: a cut value c means stored frames c and c + 1 are the same instant,
seen by the old and the new shot. So a shot of n intervals stores n + 1 frames and the shots
are simply written one after the other; the cut value is the index of each shot's last frame.
"""
import math
import os
import sys

FRAME_RATE = 24


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def normalize(a):
    n = math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
    return (a[0] / n, a[1] / n, a[2] / n)


def lerp(a, b, t):
    return tuple(x + (y - x) * t for x, y in zip(a, b))


def ease(t):
    """Smoothstep: starts and ends at rest."""
    return t * t * (3.0 - 2.0 * t)


def look_at_quat(pos, target):
    """Doom quaternion (x, y, z, w >= 0) whose ToMat3 has rows forward, left, up."""
    fwd = normalize(sub(target, pos))
    left = normalize(cross((0.0, 0.0, 1.0), fwd))
    up = cross(fwd, left)
    m = (fwd, left, up)  # m[r][c]
    # ToMat3: m01 = 2(xy - wz), m10 = 2(xy + wz), ... so the usual trace-based inverse applies.
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0.0:
        s = 0.5 / math.sqrt(trace + 1.0)
        w = 0.25 / s
        x = (m[2][1] - m[1][2]) * s
        y = (m[0][2] - m[2][0]) * s
        z = (m[1][0] - m[0][1]) * s
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2])
        w = (m[2][1] - m[1][2]) / s
        x = 0.25 * s
        y = (m[0][1] + m[1][0]) / s
        z = (m[0][2] + m[2][0]) / s
    elif m[1][1] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2])
        w = (m[0][2] - m[2][0]) / s
        x = (m[0][1] + m[1][0]) / s
        y = 0.25 * s
        z = (m[1][2] + m[2][1]) / s
    else:
        s = 2.0 * math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1])
        w = (m[1][0] - m[0][1]) / s
        x = (m[0][2] + m[2][0]) / s
        y = (m[1][2] + m[2][1]) / s
        z = 0.25 * s
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    return (x, y, z, w)


def to_mat3(q):
    """idQuat::ToMat3, for the self-check below."""
    x, y, z, w = q
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def dolly(frames, pos0, pos1, tgt0, tgt1, fov0, fov1):
    """Straight move of position and target; fov zooms along."""
    out = []
    for i in range(frames + 1):
        t = ease(i / frames)
        out.append((lerp(pos0, pos1, t), lerp(tgt0, tgt1, t), fov0 + (fov1 - fov0) * t))
    return out


def orbit(frames, center, radius0, radius1, angle0, angle1, height0, height1, aim_z, fov):
    """Circles center (angles in degrees, counter-clockwise seen from above), looking at
    center raised to aim_z."""
    out = []
    for i in range(frames + 1):
        t = ease(i / frames)
        a = math.radians(angle0 + (angle1 - angle0) * t)
        r = radius0 + (radius1 - radius0) * t
        pos = (center[0] + r * math.cos(a), center[1] + r * math.sin(a),
               height0 + (height1 - height0) * t)
        out.append((pos, (center[0], center[1], aim_z), fov))
    return out


# The staging (see demo.md5scene): actor origin and yaw. The doors stand across x = 150 (their
# fronts at x = 145), 160 wide each, from y = -240 to 240; the floor is at z = 0. The drones are
# about 67 units tall, the flag 117.
STAGE = {
    "walker": ((30.0, -45.0, 0.0), 160.0),
    "guard": ((55.0, 40.0, 0.0), 200.0),
    "flag": ((128.0, 118.0, 0.0), 90.0),
}

# Bounding boxes in actor space (after the actor's scale), measured with `md5cine export` over
# the anims' frames: the walk's stride reaches 26 units forward and back, the flag's cloth waves
# 15 units out of its plane.
BOXES = {
    "walker": ((-25.7, -13.5, 0.0), (22.7, 13.5, 66.2)),
    "guard": ((-7.9, -14.9, 0.0), (5.9, 13.9, 67.4)),
    "flag": ((-32.1, -14.6, 0.8), (32.0, 6.3, 117.2)),
}

SHOTS = [
    # 1. establishing: a slow sideways dolly that closes in on the whole group (3.5 s)
    dolly(84, (-250.0, -110.0, 88.0), (-185.0, 40.0, 72.0),
          (60.0, 20.0, 50.0), (60.0, 15.0, 46.0), 60.0, 58.0),
    # 2. orbit around the walking drone from its side round to its front, full figure (3.5 s)
    orbit(84, (30.0, -45.0), 190.0, 180.0, 220.0, 180.0, 62.0, 44.0, 34.0, 56.0),
    # 3. low push-in on the standing drone and the flag; the middle door opens behind them at
    #    7.5 s (3 s)
    dolly(72, (-160.0, 75.0, 30.0), (-115.0, 85.0, 34.0),
          (70.0, 82.0, 44.0), (70.0, 72.0, 42.0), 60.0, 60.0),
]

# What must stay wholly in frame (feet included) in each shot.
SUBJECTS = [("walker", "guard", "flag"), ("walker",), ("guard",)]
ASPECT = 16.0 / 9.0  # the demo's output; the file's fov is the horizontal one


def box_corners(name):
    (ox, oy, oz), yaw = STAGE[name]
    lo, hi = BOXES[name]
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    return [(ox + c * x - s * y, oy + s * x + c * y, oz + z)
            for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]


def check_framing(shot_index, pos, target, fov):
    """Asserts that the shot's subjects project inside the picture (with a small margin)."""
    fwd = normalize(sub(target, pos))
    left = normalize(cross((0.0, 0.0, 1.0), fwd))
    up = cross(fwd, left)
    tx = math.tan(math.radians(fov) / 2.0)
    ty = tx / ASPECT
    for name in SUBJECTS[shot_index]:
        for p in box_corners(name):
            d = sub(p, pos)
            depth = sum(a * b for a, b in zip(d, fwd))
            x = sum(a * b for a, b in zip(d, left)) / (depth * tx)
            y = sum(a * b for a, b in zip(d, up)) / (depth * ty)
            assert depth > 0.0 and abs(x) < 0.97 and abs(y) < 0.97, \
                "shot %d: %s leaves the frame" % (shot_index + 1, name)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "demo.md5camera")
    frames, cuts = [], []
    for index, shot in enumerate(SHOTS):
        if frames:
            cuts.append(len(frames) - 1)
        for pos, tgt, fov in shot:
            check_framing(index, pos, tgt, fov)
            q = look_at_quat(pos, tgt)
            fwd = to_mat3(q)[0]
            want = normalize(sub(tgt, pos))
            assert max(abs(a - b) for a, b in zip(fwd, want)) < 1e-9, "quaternion self-check"
            frames.append((pos, q, fov))
    lines = [
        "MD5Version 10",
        'commandline "scenes/demo/make_camera.py"',
        "",
        "numFrames %d" % len(frames),
        "frameRate %d" % FRAME_RATE,
        "numCuts %d" % len(cuts),
        "",
        "cuts {",
    ]
    lines += ["\t%d" % c for c in cuts]
    lines += ["}", "", "camera {"]
    for pos, q, fov in frames:
        lines.append("\t( %.4f %.4f %.4f ) ( %.7f %.7f %.7f ) %.3f"
                     % (pos[0], pos[1], pos[2], q[0], q[1], q[2], fov))
    lines.append("}")
    with open(out_path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
