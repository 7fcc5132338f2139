"""The talk's 30° turn on the talk's own hand: qsim's Allegro hand turns its ball about the vertical
(issue 69; examples/qsim_planning/README.md, "The talk's 30° turn on the Allegro hand").

Usage: python3 scripts/qsim_talk_turn.py QSIM_MODELS [--cli build/release/quasidyn]
       [--angle 30] [--horizon 10] [--iterations 40] [--out build/qsim_talk_turn]

Pang's 2022 talk ("Smoothed gradients enable trajectory optimization for dexterous hands",
"Turning the ball by 30 degrees: open-loop", "... open-loop with disturbance", "... closed-loop
with disturbance": "Initial position of the ball is off by 3mm") shows the Allegro hand turning
its ball by 30°, planned by the trajectory optimiser on the quasi-dynamic model and run "in Drake
with the same SDF". Here, on the simulator's allegro_hand_and_sphere.yml from its script's start
(examples/qsim_planning/side_files/allegro_hand_and_sphere_90z.yaml, the goal replaced):
  1. `quasidyn optimize SIDE --goal G --horizon T`: the ball turned by --angle about z, where it
     started (the talk states no horizon, weights or κ schedule; ours are the optimiser's
     defaults);
  2. `quasidyn track PLAN` on plants, open loop and closed loop (the stabiliser, its defaults):
     the planning model at h, without and with the ball 3 mm off along ±x and ±y (the talk's
     direction is not stated), and the second-order plant on the exact cone (anitescu-cone, the
     talk's plant is Drake's; we have none) at h/10, commands ramped, without and with the +x
     offset.
Prints per plant how far the ball turned about z [rad], its rotation about the other axes [rad],
and its position and angle error from the plan's end. Every command's output is kept in OUT/.
"""

import argparse
import json
import math
import pathlib
import sys

from qsim_task_execution import ROOT, SIDE_FILES, number
from qsim_task_execution import run_or_exit as run

SIDE = SIDE_FILES / "allegro_hand_and_sphere_90z.yaml"
START = (-0.12, 0.01, 0.07)  # [m] the ball's start (the side file's `initial:`), its q0 = identity
OFFSET = 0.003  # [m] "Initial position of the ball is off by 3mm"


def rotation_vector(q0, q1):
    """The rotation vector [rad] of q1 ⊗ q0⁻¹ (unit quaternions (w, x, y, z)), in the world."""
    w0, x0, y0, z0 = q0[0], -q0[1], -q0[2], -q0[3]
    w1, x1, y1, z1 = q1
    w = w1 * w0 - x1 * x0 - y1 * y0 - z1 * z0
    v = (w1 * x0 + x1 * w0 + y1 * z0 - z1 * y0,
         w1 * y0 - x1 * z0 + y1 * w0 + z1 * x0,
         w1 * z0 + x1 * y0 - y1 * x0 + z1 * w0)
    if w < 0:
        w, v = -w, tuple(-c for c in v)
    norm = math.sqrt(sum(c * c for c in v))
    if norm == 0.0:
        return (0.0, 0.0, 0.0)
    angle = 2.0 * math.atan2(norm, w)
    return tuple(angle * c / norm for c in v)


def turn(trajectory_file):
    """(about z, about x and y together) [rad] from the ball's q0 to the trajectory's end."""
    trajectory = json.loads(pathlib.Path(trajectory_file).read_text())
    r = rotation_vector(trajectory["q0"][3:7], trajectory["steps"][-1]["q"][3:7])
    return r[2], math.hypot(r[0], r[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", help="the simulator's models/ folder")
    parser.add_argument("--cli", default=str(ROOT / "build" / "release" / "quasidyn"))
    parser.add_argument("--angle", type=float, default=30.0, help="the turn about z [deg]")
    parser.add_argument("--horizon", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--out", default=str(ROOT / "build" / "qsim_talk_turn"))
    args = parser.parse_args()
    if not pathlib.Path(args.models).is_dir():
        sys.exit(f"qsim_talk_turn: {args.models}: not a folder")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = [args.cli, "--log-level", "error", "--package", f"quasistatic_simulator={args.models}"]
    half = math.radians(args.angle) / 2.0
    goal = list(START) + [math.cos(half), 0.0, 0.0, math.sin(half)]
    plan = out / "plan.json"
    text = run(base + ["optimize", str(SIDE), "--goal"] + [repr(g) for g in goal]
               + ["--horizon", str(args.horizon), "--iterations", str(args.iterations),
                  "--out", str(plan)], out / "plan.txt")
    about_z, tilt = turn(plan)
    cost = number(r"^cost\s+.*-> (\S+)", text)
    print(f"plan: {args.horizon} steps of h = 0.1 s toward {args.angle:g}° about z "
          f"({math.radians(args.angle):.3f} rad); {cost:.3g} "
          f"final cost; the ball turns {about_z:.3f} rad about z, {tilt:.3f} about x and y\n")
    print("| plant | ball off at start | loop | turn about z [rad] | about x and y [rad] | "
          "position error [m] | angle error [rad] |")
    print("|---|---|---|---|---|---|---|")
    plants = [("the planning model at h", [], "0 0 0")]
    for name, vector in (("+x", "1 0 0"), ("-x", "-1 0 0"), ("+y", "0 1 0"), ("-y", "0 -1 0")):
        offset = " ".join(repr(OFFSET * float(c)) for c in vector.split())
        plants.append((f"the planning model at h, 3 mm {name}", [], offset))
    second_order = ["--plant-formulation", "anitescu-cone", "--substeps", "10"]
    plants += [("anitescu-cone (second order) at h/10", second_order, "0 0 0"),
               ("anitescu-cone (second order) at h/10, 3 mm +x", second_order,
                f"{OFFSET!r} 0 0")]
    for i, (name, flags, offset) in enumerate(plants):
        for loop in ("open", "closed"):
            log = out / f"plant_{i}_{loop}"
            text = run(base + ["track", str(plan), "--plant-scene", str(SIDE), "--offset"]
                       + offset.split() + flags + (["--open-loop"] if loop == "open" else [])
                       + ["--replan", "0", "--out", f"{log}.json"], f"{log}.txt")
            about_z, tilt = turn(f"{log}.json")
            position = number(r"^position error\s+(\S+)", text)
            angle = number(r"^angle error\s+(\S+)", text)
            plant, _, where = name.partition(", 3 mm ")
            print(f"| {plant} | {where + ' 3 mm' if where else '-'} | {loop} | {about_z:.3f} | "
                  f"{tilt:.3f} | {position:.3g} | {angle:.3g} |", flush=True)


if __name__ == "__main__":
    main()
