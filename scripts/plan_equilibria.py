"""Which configurations of a plan does a plant hold still? (issue 69;
examples/qsim_planning/README.md, "Which of a plan's configurations the plant holds")

Usage: PYTHONPATH=build/release/python /usr/bin/python3 scripts/plan_equilibria.py PLAN SCENE
       [--package NAME=DIR ...] [--plant-formulation anitescu-cone] [--substeps 10]
       [--hold 0.5] [--moved 0.02] [--quiet]

PLAN is a plan or trajectory file (.json or .npz: `quasidyn plan --out`, `optimize --out`);
SCENE the plant's scene (a scene, a file of the reference quasistatic simulator or a side file).
For each step k of the plan, the plant starts at rest at the plan's configuration q_{k+1} with
its robots commanded u_k (the plan's command of that step) and is stepped with u_k held for
`hold` seconds at h/substeps (h: the plan's time step). The objects' drift is how far their
positions moved [m] (x, y, z of a floating object; x, y of a planar one; every coordinate of
another): a configuration the plant holds moves less than `moved`. A quasi-dynamic planner's
step has no velocity to carry, so a configuration from which the object slowly falls or rolls
looks nearly still to it; the same hold on the scene's own formulation at h (hold/h steps: the
planner's model when the plan was made on this scene) is printed beside it, what the planner
could have seen.

Prints one row per step (k, edge, plant drift, model drift) and a summary: the configurations
the plant holds, and those it does not while the model holds them (model drift < `moved`): the
planner took them for rest states and the plant loses the object there. (The others the model
moves too: a command held into an object pushes it on in both, as a plan that pushes means to.)
"""

import argparse
import json
import math
import pathlib
import sys

import numpy as np

try:
    import quasidyn
except ImportError:
    sys.exit("plan_equilibria: cannot import quasidyn (run with "
             "PYTHONPATH=build/release/python after scripts/build.sh release)")


def position_indices(scene):
    """The q indices of the objects' positions (see the module's docstring)."""
    indices = []
    for name in scene.object_names:
        block = scene.q_slice(name)
        width = block.stop - block.start
        take = 3 if width == 7 else 2 if width == 3 else width
        indices.extend(range(block.start, block.start + take))
    return indices


def run_from_rest(stepper, q, commands, nv):
    """q after one step per command of `commands`, from rest; None when a step fails."""
    v = np.zeros(nv) if stepper.has_velocity else None
    for u in commands:
        result = stepper.step(q, u, v=v) if v is not None else stepper.step(q, u)
        if not result.ok:
            return None
        q = result.q_next
        if v is not None:
            v = result.v_next
    return q


def step_edges(plan_file, steps):
    """The plan file's edge kind per step ('extend', 'regrasp'), or '-' for a trajectory."""
    if str(plan_file).endswith(".json"):
        data = json.loads(pathlib.Path(plan_file).read_text())
        edges = data.get("plan", {}).get("path", {}).get("step_edges")
        if edges and len(edges) == steps:
            return edges
    return ["-"] * steps


def plan_and_plant_parser(description, scene_help):
    """The arguments both plan scripts take: PLAN SCENE [--package NAME=DIR ...]
    [--plant-formulation F] [--substeps N] [--quiet]."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("plan", help="a plan or trajectory file (.json or .npz)")
    parser.add_argument("scene", help=scene_help)
    parser.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                        help="a package://NAME folder of the model files (repeatable)")
    parser.add_argument("--plant-formulation", default="anitescu-cone")
    parser.add_argument("--substeps", type=int, default=10, help="N: plant steps per step of h")
    parser.add_argument("--quiet", action="store_true", help="the summary only")
    return parser


def packages_of(entries, program):
    """{NAME: DIR} of the --package NAME=DIR entries; exits naming `program` on a malformed one."""
    packages = {}
    for entry in entries:
        if "=" not in entry:
            sys.exit(f"{program}: --package {entry}: expected NAME=DIR")
        name, folder = entry.split("=", 1)
        packages[name] = folder
    return packages


def main():
    parser = plan_and_plant_parser(__doc__.split("\n")[0], "the plant's scene")
    parser.add_argument("--hold", type=float, default=0.5, help="seconds the command is held")
    parser.add_argument("--moved", type=float, default=0.02,
                        help="[m] a drift at least this is a configuration the plant loses")
    args = parser.parse_args()
    for name, value in (("--substeps", args.substeps), ("--hold", args.hold),
                        ("--moved", args.moved)):
        if not (value > 0 and math.isfinite(value)):
            sys.exit(f"plan_equilibria: {name} must be a finite number > 0 (got {value})")
    packages = packages_of(args.package, "plan_equilibria")
    try:
        scene = quasidyn.load_scene(args.scene, packages=packages)
        plan = quasidyn.load_trajectory(args.plan, scene=scene)
        h = plan.time_step
        plant = quasidyn.Stepper(scene, formulation=args.plant_formulation,
                                 h=h / args.substeps)
        model = quasidyn.Stepper(scene, h=h)
    except (ValueError, RuntimeError, OSError) as error:
        sys.exit(f"plan_equilibria: {error}")
    positions = position_indices(scene)
    plant_steps = max(1, round(args.hold / (h / args.substeps)))
    model_steps = max(1, round(args.hold / h))
    n = plan.u.shape[0]
    edges = step_edges(args.plan, n)
    if not args.quiet:
        print(f"plant {args.plant_formulation} at h/{args.substeps} = {h / args.substeps:g} s, "
              f"model {scene.formulation} at h = {h:g} s; each configuration held "
              f"{plant_steps * h / args.substeps:g} s from rest")
        print("k edge plant_drift[m] model_drift[m]")
    lost, hidden, first = 0, 0, None
    for k in range(n):
        q, u = plan.q[k + 1], plan.u[k]
        ends = [run_from_rest(stepper, q.copy(), [u] * steps, scene.nv)
                for stepper, steps in ((plant, plant_steps), (model, model_steps))]
        drift = [math.inf if end is None else float(np.linalg.norm(end[positions] - q[positions]))
                 for end in ends]
        if drift[0] >= args.moved:
            lost += 1
            if drift[1] < args.moved:
                hidden += 1
                first = k + 1 if first is None else first
        if not args.quiet:
            print(f"{k + 1} {edges[k]} {drift[0]:.6g} {drift[1]:.6g}")
    print(f"held by the plant: {n - lost} of {n} configurations (drift < {args.moved:g} m in "
          f"{plant_steps * h / args.substeps:g} s); held by the model, not by the plant: "
          f"{hidden} (first: {'none' if first is None else f'step {first}'})")


if __name__ == "__main__":
    main()
