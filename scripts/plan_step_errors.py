"""Where do a plan's steps part from a plant: the planner's step size or the plant's dynamics?
(issue 69; examples/qsim_planning/README.md, "Where a plan's steps part from the plant")

Usage: PYTHONPATH=build/release/python /usr/bin/python3 scripts/plan_step_errors.py PLAN SCENE
       [--package NAME=DIR ...] [--plant-formulation anitescu-cone] [--substeps 10]
       [--scales 1,0.5,0.25] [--velocity-feedforward] [--quiet]

PLAN is a plan or trajectory file of a quasi-dynamic model (.json or .npz); SCENE the scene it
was made on (a scene, a file of the reference quasistatic simulator or a side file). Each step k
of the plan is run again from rest at the plan's q_k with the command a + α (u_k − a) (a the
robots' configuration in q_k, α each of --scales) three ways:
  - the planner's step: at α = 1 the plan's own q_{k+1} (a plan made with
    `extension_substeps` took it in substeps), at α < 1 the scene's formulation at the plan's h,
    one step;
  - the same model at h/N (N = --substeps), its command ramped a → a + α(u_k − a) over the N
    steps and its objects' mass scale s divided by N (the reference simulator's rule s ∝ h² by
    c_u/N), so that an object's velocity h τ_u / (s M_u) is the same at h/N as at h: a finer
    discretisation of the same quasi-dynamic motion, what the step converges to;
  - the plant: --plant-formulation (second order) at h/N from rest, ramped the same way (with
    --velocity-feedforward, D K⁻¹ (u − a)/h added to each command, as `track` sends it).
Per step it prints how far the finer model moves the objects (positions [m]: x, y, z of a floating
object, x, y of a planar one or one on ghost links; rotation [rad]: a floating object's angle, a
planar one's θ) and how far the planner's step and the plant end from it. The summary, per α,
gives the median errors relative to the finer model's motion, over the steps that move the objects
(1e-4 m, 1e-3 rad or more): the planner's error is the step's discretisation (it shrinks with α
when the plan is not converged in its steps), the plant's is what second-order dynamics add.
Regrasp edges of a plan file (jumps of the robots, no motion to run) are skipped.
"""

import math
import sys

import numpy as np

try:
    import quasidyn
except ImportError:
    sys.exit("plan_step_errors: cannot import quasidyn (run with "
             "PYTHONPATH=build/release/python after scripts/build.sh release)")

# After quasidyn's check, so that a missing module is named by this script.
from plan_equilibria import (packages_of, plan_and_plant_parser, run_from_rest,  # noqa: E402
                             step_edges)

MOVES = (1e-4, 1e-3)  # [m], [rad]: a step moves the objects when the finer model moves them this


def object_layout(scene):
    """[(q indices of the position, kind, first q index)] per object: kind 'floating' (a unit
    quaternion after x, y, z), 'planar' (θ after x, y) or 'joints' (positions only)."""
    layout = []
    for name in scene.object_names:
        block = scene.q_slice(name)
        width = block.stop - block.start
        if width == 7:
            layout.append((list(range(block.start, block.start + 3)), "floating", block.start))
        elif width == 3:
            layout.append((list(range(block.start, block.start + 2)), "planar", block.start))
        else:
            layout.append((list(range(block.start, block.stop)), "joints", block.start))
    return layout


def distance(layout, q0, q1):
    """(position [m], rotation [rad]) between two configurations' objects, the largest over
    the objects."""
    position, rotation = 0.0, 0.0
    for indices, kind, start in layout:
        position = max(position, float(np.linalg.norm(q1[indices] - q0[indices])))
        if kind == "floating":
            dot = abs(float(np.dot(q0[start + 3:start + 7], q1[start + 3:start + 7])))
            rotation = max(rotation, 2.0 * math.acos(min(1.0, dot)))
        elif kind == "planar":
            turn = math.remainder(q1[start + 2] - q0[start + 2], 2 * math.pi)
            rotation = max(rotation, abs(turn))
    return position, rotation


def finer_parameters(scene, n):
    """The formulation parameters that divide the objects' mass scale s by n at h/n."""
    parameters = dict(scene.formulation_parameters)
    if "unactuated_mass_scale" in parameters:
        parameters["unactuated_mass_scale"] = parameters["unactuated_mass_scale"] / n
    else:
        parameters["object_mass_scale"] = parameters.get("object_mass_scale", 1.0) / n
    return parameters


def ramped(stepper, q, a, target, n, nv, lead=0.0):
    """q after n steps commanded a + (j/n)(target − a) + lead, j = 1 … n, from rest; None: one
    failed."""
    return run_from_rest(stepper, q, [a + (j / n) * (target - a) + lead for j in range(1, n + 1)],
                         nv)


def median(values):
    return f"{float(np.median(values)):.3g}" if values else "n/a"


def main():
    parser = plan_and_plant_parser(__doc__.split("\n")[0], "the scene the plan was made on")
    parser.add_argument("--scales", default="1", help="α, comma-separated, each in (0, 1]")
    parser.add_argument("--velocity-feedforward", action="store_true",
                        help="the plant's commands as `track --velocity-feedforward` sends them")
    args = parser.parse_args()
    if args.substeps < 2:
        sys.exit(f"plan_step_errors: --substeps must be >= 2 (got {args.substeps})")
    try:
        scales = [float(x) for x in args.scales.split(",")]
    except ValueError:
        sys.exit(f"plan_step_errors: --scales {args.scales}: expected numbers such as 1,0.5")
    if not all(0 < a <= 1 for a in scales):
        sys.exit(f"plan_step_errors: --scales {args.scales}: each must be in (0, 1]")
    packages = packages_of(args.package, "plan_step_errors")
    n = args.substeps
    try:
        scene = quasidyn.load_scene(args.scene, packages=packages)
        plan = quasidyn.load_trajectory(args.plan, scene=scene)
        h = plan.time_step
        planner = quasidyn.Stepper(scene, h=h)
        if planner.has_velocity:
            sys.exit(f"plan_step_errors: {args.scene}: the scene's formulation "
                     f"'{scene.formulation}' has a velocity state; the plan must be of a "
                     "quasi-dynamic model")
        finer = quasidyn.Stepper(scene, h=h / n, parameters=finer_parameters(scene, n))
        plant = quasidyn.Stepper(scene, formulation=args.plant_formulation, h=h / n)
    except (ValueError, RuntimeError, OSError) as error:
        sys.exit(f"plan_step_errors: {error}")
    layout = object_layout(scene)
    # D K⁻¹ / h: the lead per unit of command change of `track --velocity-feedforward`.
    lead = (scene.actuated_damping / scene.actuated_stiffness / h if args.velocity_feedforward
            else np.zeros(scene.nq_a))
    steps = plan.u.shape[0]
    edges = step_edges(args.plan, steps)
    if not args.quiet:
        print(f"planner {scene.formulation} at h = {h:g} s; the same at h/{n} (s/{n}); plant "
              f"{args.plant_formulation} at h/{n}; each step from rest at the plan's q_k")
        print("alpha k edge finer_move[m] finer_turn[rad] planner_off[m] planner_off[rad] "
              "plant_off[m] plant_off[rad]")
    for alpha in scales:
        relative = {"planner": ([], []), "plant": ([], [])}
        moving, skipped, failed = 0, 0, 0
        for k in range(steps):
            if edges[k] == "regrasp":
                skipped += 1
                continue
            q = plan.q[k]
            a = q[scene.q_a_slice]
            target = a + alpha * (plan.u[k] - a)
            if alpha == 1.0:  # the plan's own step (with the planner's substeps, if any)
                planned = plan.q[k + 1]
            else:
                result = planner.step(q, target)
                planned = result.q_next if result.ok else None
            ends = {"planner": planned,
                    "finer": ramped(finer, q.copy(), a, target, n, scene.nv),
                    "plant": ramped(plant, q.copy(), a, target, n, scene.nv, lead * (target - a))}
            if any(end is None for end in ends.values()):
                failed += 1
                continue
            move = distance(layout, q, ends["finer"])
            off = {key: distance(layout, ends["finer"], ends[key]) for key in ("planner", "plant")}
            if not args.quiet:
                print(f"{alpha:g} {k + 1} {edges[k]} {move[0]:.6g} {move[1]:.6g} "
                      f"{off['planner'][0]:.6g} {off['planner'][1]:.6g} "
                      f"{off['plant'][0]:.6g} {off['plant'][1]:.6g}")
            if move[0] < MOVES[0] and move[1] < MOVES[1]:
                continue
            moving += 1
            for key in ("planner", "plant"):
                for i in (0, 1):
                    if move[i] >= MOVES[i]:
                        relative[key][i].append(off[key][i] / move[i])
        print(f"alpha {alpha:g}: {moving} of {steps} steps move the objects ({skipped} regrasps "
              f"skipped, {failed} failed); median relative error against the model at h/{n}: "
              f"the planner's step {median(relative['planner'][0])} (position) "
              f"{median(relative['planner'][1])} (rotation), the plant "
              f"{median(relative['plant'][0])} (position) {median(relative['plant'][1])} "
              "(rotation)", flush=True)


if __name__ == "__main__":
    main()
