"""Does a plan on the reference simulator's files carry over to smaller time steps and other
contact models? (issue 69; docs/qsim-files.md, "The talk's tasks on qsim's robots")

Usage: python3 scripts/qsim_step_convergence.py QSIM_MODELS [--cli build/release/quasidyn]
       [--out build/qsim_convergence] [--horizon 20] [--iterations 40] [--h 0.1]
       [--optimize-args="OPTIONS"] [--no-gravity]

QSIM_MODELS is the simulator's models/ folder (the package quasistatic_simulator). For the Allegro
hand's 90° turn and the two iiwa arms' 90° box turn (side files in
examples/qsim_planning/side_files/):
  1. `quasidyn convert SIDE`, and copies with the object mass scale s that the file's
     `unactuated_mass_scale` c_u gives at h, s = h² min_j K_j / (c_u λ_max(M_u)) (the simulator's
     rule, formulations/quasi_dynamic/object_mass_scale.h), on the pyramid QP (qp, the file's
     forward mode) and on the exact cone (socp), and with s/N for h/N: the objects' step
     q⁺ − q = h² τ_u / (s M_u) (docs/formulations.md, the shared objective) moves them at
     h τ_u / (s M_u) per second, the same at every h when s ∝ h (the file's rule, s ∝ h²,
     makes them N times faster at h/N);
  2. on each, `quasidyn optimize SCENE --horizon T --h H`: a plan without regrasps from q0
     toward the side file's goal, at the files' h = 0.1 s (`--h`: another, s from the rule at it);
  3. `quasidyn track PLAN` on plants: the planner's model at h (a check: it reproduces the plan),
     the same model at h/2 and h/10 (s/2, s/10, commands ramped), for qp the file's own rule at
     h/10 (s/100), the other friction model at h, and the second-order exact-cone plant
     (anitescu-cone) at h/10, ramped, closed loop (the stabiliser).
With --no-gravity every scene (planner and plants) has its gravity set to zero, the file's own
rule row is left out. Prints, per task and planning model, how far the plan turns the object and, per plant, the
object's position and angle error from the plan's end. Every command's output is kept in OUT/TASK/.
"""

import argparse
import json
import math
import pathlib
import re
import shlex
import sys

from qsim_task_execution import ROOT, SIDE_FILES, number
from qsim_task_execution import run_or_exit as run

# Per task: the file's c_u, the robots' smallest K [N·m/rad] and λ_max(M_u) of its object
# [kg or kg·m²], all read from the simulator's files (q_sys/*.yml: unactuated_mass_scale, Kp;
# the object's SDF <inertial>: the largest of its mass and principal moments).
TASKS = {
    # allegro_hand_and_sphere.yml: c_u 5, Kp 100; sphere_r0.06m.sdf: mass 1.0, I 0.001
    "allegro_hand_and_sphere_90z": (5.0, 100.0, 1.0),
    # iiwa_bimanual_box.yml: c_u 5, Kp down to 200; box_uhaul_extra_large.sdf: mass 1.0, I 0.042
    "iiwa_bimanual_box_90z": (5.0, 200.0, 1.0),
}
H = 0.1  # [s] the side files' planning time step (the files have no h: quasidyn's default)


def turned(plan_file):
    """The angle [rad] between the object's orientation at q0 and at the plan's end."""
    plan = json.loads(pathlib.Path(plan_file).read_text())
    a, b = plan["q0"][3:7], plan["steps"][-1]["q"][3:7]
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2.0 * math.acos(min(1.0, dot))


def scene_with(folder, scene, rule, formulation, scale, name):
    """The converted scene on `formulation` with object_mass_scale `scale` (for the file's rule)."""
    path = folder / f"scene_{formulation}_{name}.yaml"
    path.write_text(scene.replace(
        rule, f"formulation:\n  type: {formulation}\n  object_mass_scale: {scale!r}\n"))
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", help="the simulator's models/ folder")
    parser.add_argument("--cli", default=str(ROOT / "build" / "release" / "quasidyn"))
    parser.add_argument("--out", default=str(ROOT / "build" / "qsim_convergence"))
    parser.add_argument("--horizon", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--h", type=float, default=H,
                        help="the plans' time step [s] (default the side files' 0.1)")
    parser.add_argument("--optimize-args", default="",
                        help="more options of `quasidyn optimize`, one string (e.g. "
                             "--optimize-args=\"--rate-weight 10\")")
    parser.add_argument("--no-gravity", action="store_true",
                        help="every scene with gravity 0 (is the object held by friction what "
                             "the plant does not repeat?)")
    args = parser.parse_args()
    if not args.h > 0:
        sys.exit(f"qsim_step_convergence: --h must be > 0 (got {args.h})")
    if not pathlib.Path(args.models).is_dir():
        sys.exit(f"qsim_step_convergence: {args.models}: not a folder")
    base = [args.cli, "--log-level", "error", "--package", f"quasistatic_simulator={args.models}"]
    print("| task | planned on: turns [rad] | plant | position error [m] | angle error [rad] |")
    print("|---|---|---|---|---|")
    for task, (c_u, k_min, lambda_max) in TASKS.items():
        folder = pathlib.Path(args.out) / task
        folder.mkdir(parents=True, exist_ok=True)
        side = str(SIDE_FILES / f"{task}.yaml")
        run(base + ["convert", side, "--out", str(folder / "scene.yaml")], folder / "convert.txt")
        scene = (folder / "scene.yaml").read_text()
        if args.no_gravity:
            scene, replaced = re.subn(r"^gravity: \[.*\]$", "gravity: [0, 0, 0]", scene,
                                      flags=re.M)
            if replaced != 1:
                sys.exit(f"qsim_step_convergence: {folder / 'scene.yaml'}: no 'gravity:' line")
        rule = f"formulation:\n  type: qp\n  unactuated_mass_scale: {c_u:g}\n"
        if rule not in scene:
            sys.exit(f"qsim_step_convergence: {folder / 'scene.yaml'}: no '{rule}'")
        s = args.h * args.h * k_min / (c_u * lambda_max)
        for formulation, other in (("qp", "socp"), ("socp", "qp")):
            held = scene_with(folder, scene, rule, formulation, s, "h")
            plan = folder / f"plan_{formulation}.json"
            run(base + ["optimize", str(held), "--horizon", str(args.horizon), "--iterations",
                        str(args.iterations), "--h", repr(args.h), "--out", str(plan)]
                + shlex.split(args.optimize_args),
                folder / f"plan_{formulation}.txt")
            # First the model at h; for qp the side file's own (the file's rule at h), which
            # reproduces the plan only if s is the file's.
            # The side file is the scene with the file's gravity: --no-gravity uses `held`.
            own = held if args.no_gravity else side
            plants = [(f"{formulation} at h (the planner's model)",
                       own if formulation == "qp" else held, [formulation, "--substeps", "1"])]
            for n in (2, 10):
                plants.append((f"{formulation} at h/{n}, s/{n}, ramped",
                               scene_with(folder, scene, rule, formulation, s / n, f"h{n}"),
                               [formulation, "--substeps", str(n), "--ramp"]))
            if formulation == "qp" and not args.no_gravity:
                plants.append(("qp at h/10, the file's rule (s/100), ramped", side,
                               ["qp", "--substeps", "10", "--ramp"]))
            plants += [
                (f"{other} at h", held, [other, "--substeps", "1"]),
                ("anitescu-cone (second order) at h/10, ramped, closed loop", own,
                 ["anitescu-cone", "--substeps", "10", "--ramp"]),
            ]
            angle = turned(plan)
            for i, (name, plant_scene, flags) in enumerate(plants):
                log = folder / f"plant_{formulation}_{i}"
                text = run(base + ["track", str(plan), "--plant-scene", str(plant_scene),
                                   "--plant-formulation"] + flags
                           + ["--replan", "0", "--out", f"{log}.json"], f"{log}.txt")
                position = number(r"^position error\s+(\S+)", text)
                error = number(r"^angle error\s+(\S+)", text)
                if i == 0 and not (position <= 1e-9 and error <= 1e-9):
                    sys.exit(f"qsim_step_convergence: {task}: the planner's model at h does not "
                             f"reproduce the plan ({position} m, {error} rad): s = {s} is not "
                             "the file's")
                print(f"| {task} | {formulation}: {angle:.3f} | {name} | {position:.3g} | "
                      f"{error:.3g} |", flush=True)


if __name__ == "__main__":
    main()
