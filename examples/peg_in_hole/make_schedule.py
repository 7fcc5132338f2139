#!/usr/bin/env python3
"""Writes scene.yaml of the peg-in-hole example (Halm & Posa 2018, §6.2, Fig. 4 bottom).

The command is hand-designed as a plan of a grasp frame G = (x, y, θ) (where the peg should be)
and the two fingers' positions in G; knots every 0.1 s of the fingers' world poses follow from
it. Under halm-posa with tracking_gain k_p the fingers follow their knots with the schedule's
velocity fed forward and k_p times the tracking error fed back (stepping/halm_posa_model.h), as
the command u = 5 K (q_des - q_M) of the authors' polygonalPegInHole.m does (not stated in the
paper). Phases:

  0   - 1   s  fingers descend beside the peg (at 1.5 m from its axis, 1.5 m above its centre)
  1   - 1.5 s  they close to 0.85 m: commanded 0.15 m inside the peg's faces, a squeeze
  1.5 - 3.5 s  carry and turn the peg from 60 deg to -26 deg (tilted) above the slot
  3.5 - 4   s  lower it: its bottom-right corner enters the slot and its right face catches
               the slot's right corner (the jam: the tilted peg is wider than the slot)
  4   - 5.5 s  reorient about that corner to upright, 0.04 m to the right (the fingers' lag)
  5.5 - 7   s  insert 1.7 m
  7   - 7.5 s  release
  7.5 - 8.5 s  finger 2 moves over the peg, finger 1 aside
  8.5 - 9   s  finger 2 lowers its bottom vertex onto the peg's top
  9   - 12  s  and pushes the peg down to the slot's bottom region (peg top 0.1 m below the rim)

Usage: make_schedule.py [OUT]   (default: scene.yaml beside this script)
"""
import math
import os
import sys

SQUEEZE = 0.85       # commanded finger distance from the peg's axis while grasping [m]
TILT = -0.45         # the peg's tilt for the first insertion attempt [rad]
APPROACH_X = 1.3     # the peg centre's x for the first attempt [m]
CORNER = (1.01, 0.0)  # the slot's right corner [m]
PUSH = 0.05          # pressure into the corner while reorienting [m]
SHIFT_X = 0.04       # x correction at the end of the reorientation (tuned) [m]
TILT_END = 0.015     # commanded θ at its end (tuned against the grasp's lag) [rad]
KNOT_STEP = 0.1      # [s]


def rotate(t, v):
    c, s = math.cos(t), math.sin(t)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1])


def plan():
    """Keyframes (t, G_x, G_y, G_θ, finger 1 in G (x, y), finger 2 in G (x, y))."""
    keys = [[0.0, -2, 7, math.pi / 3, -1.5, 5, 1.5, 5],
            [1.0, -2, 7, math.pi / 3, -1.5, 1.5, 1.5, 1.5],
            [1.5, -2, 7, math.pi / 3, -SQUEEZE, 1.5, SQUEEZE, 1.5],
            [3.5, APPROACH_X, 3.6, TILT, -SQUEEZE, 1.5, SQUEEZE, 1.5],
            [4.0, APPROACH_X, 2.8, TILT, -SQUEEZE, 1.5, SQUEEZE, 1.5]]
    for i in range(1, 7):  # rotate about the corner: G = corner - R(θ) (1, -3)
        f = i / 6
        theta = TILT * (1 - f) + TILT_END * f
        r = rotate(theta, (1.0, -3.0))
        keys.append([4.0 + 1.5 * f, CORNER[0] - r[0] + (SHIFT_X - 0.01) * f,
                     CORNER[1] - r[1] - PUSH, theta, -SQUEEZE, 1.5, SQUEEZE, 1.5])
    x, theta = keys[-1][1], keys[-1][3]
    top = 3 + math.sqrt(2)  # finger 2's bottom vertex on the peg's top
    keys += [[7.0, x, 1.2, theta, -SQUEEZE, 1.5, SQUEEZE, 1.5],
             [7.5, x, 1.2, theta, -1.7, 1.5, 1.7, 1.5],
             [8.5, x, 1.2, theta, -3.0, 1.5, 0.5, top + 0.3],
             [9.0, x, 1.2, theta, -3.0, 1.5, 0.5, top - 0.1],
             [12.0, x, -2.85, theta, -3.0, 1.5 + 1.2 + 2.85, 0.5, top - 0.1]]
    return keys


def finger_knots():
    keys = plan()
    knots = ([], [])
    for k in range(int(round(keys[-1][0] / KNOT_STEP)) + 1):
        t = k * KNOT_STEP
        i = max(j for j in range(len(keys) - 1) if keys[j][0] <= t + 1e-9)
        i = min(i, len(keys) - 2)
        a, b = keys[i], keys[i + 1]
        f = min(1.0, (t - a[0]) / (b[0] - a[0]))
        x, y, th, x1, y1, x2, y2 = (a[j] + (b[j] - a[j]) * f for j in range(1, 8))
        for finger, (fx, fy), angle in ((0, (x1, y1), 3 * math.pi / 4), (1, (x2, y2), -math.pi / 4)):
            p = rotate(th, (fx, fy))
            knots[finger].append((t, (x + p[0], y + p[1], th + angle)))
    return knots


FINGER = """  - name: {name}                 # a triangular finger: prismatic x, y, then revolute θ
    bodies:
      - {{name: carriage, mass: 0.1, inertia: {{principal: [1.0e-3, 1.0e-3, 1.0e-3]}}}}
      - {{name: slider, mass: 0.1, inertia: {{principal: [1.0e-3, 1.0e-3, 1.0e-3]}}}}
      - name: finger
        mass: 0.1
        inertia: {{principal: [1.0e-3, 1.0e-3, 1.0e-3]}}
        shapes: [{{type: convex, vertices: [[1, -1, 0], [1, 1, 0], [-1, 1, 0]], friction: 1.0}}]
    joints:
      - {{name: x, type: prismatic, parent: world, child: carriage, axis: [1, 0, 0]}}
      - {{name: y, type: prismatic, parent: carriage, child: slider, axis: [0, 1, 0]}}
      - {{name: theta, type: revolute, parent: slider, child: finger, axis: [0, 0, 1]}}
    stiffness: 100              # unused by halm-posa
    initial: [{x:.9g}, {y:.9g}, {t:.9g}]
    commands:
"""

HEADER = """# Halm & Posa 2018, §6.2 (Fig. 4, bottom): a thin rectangular peg (2 m x 6 m) is grasped by
# two triangular 3-DOF fingers, catches the corner of a slot with 1 % clearance (2.02 m wide) in
# a first, tilted insertion attempt, is reoriented about that corner and inserted, then pushed
# down from above. The paper states B = I6 (m/(s N) for x, y; rad/(s N m) for θ), c = 0.01,
# h = 0.05 s and the 1 % clearance; A = I3, μ = 1, the 2 m x 6 m peg and 12 s are not in its text
# but in the authors' MATLAB library (polygonalPegInHole.m, github.com/mshalm/quasistaticGrasping,
# the paper's footnote 1). The x-y plane is the table seen from above.
# GENERATED by make_schedule.py (the command's plan and its phases are documented there); the
# fingers track their knots with tracking_gain = 5 1/s, the form of polygonalPegInHole.m's
# u = 5 K (q_des - q_M) (not stated in the paper).
name: peg_in_hole
dimension: 2
gravity: [0, 0, 0]
time_step: 0.05
contact_tolerance: 0.8          # the fingers start 0.77 m from the peg: contacts from the start
formulation: {type: halm-posa, c: 0.01, B: 1, tracking_gain: 5}

environment:                    # the slot: x in [-1.01, 1.01], y < 0
  - {name: slot_left, type: box, size: [18, 10, 1], pose: {x: -10.01, y: -5}, friction: 1.0}
  - {name: slot_right, type: box, size: [18, 10, 1], pose: {x: 10.01, y: -5}, friction: 1.0}

objects:
  - name: peg
    joint: planar
    body:
      mass: 1.0                 # unused by halm-posa
      inertia: from_shapes
      shapes: [{name: body, type: box, size: [2, 6, 1], friction: 1.0}]
    limit_surface: {principal: [1, 1, 1]}   # A = I3 (the paper's)
    initial: [-2, 7, 1.047197551]

robots:
"""


def scene_text():
    text = HEADER
    for name, knots in zip(("finger1", "finger2"), finger_knots()):
        x, y, t = knots[0][1]
        text += FINGER.format(name=name, x=x, y=y, t=t)
        for time, (kx, ky, kt) in knots:
            text += f"      - {{t: {time:.6g}, q: [{kx:.9g}, {ky:.9g}, {kt:.9g}]}}\n"
    return text


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "scene.yaml")
    with open(out, "w") as f:
        f.write(scene_text())
