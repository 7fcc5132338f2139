"""Is the plant converged in its step? A plan run by `quasidyn track` on second-order plants at
h/N for several N (issue 69; examples/qsim_planning/README.md, "Is the plant converged?").

Usage: PYTHONPATH=build/release/python /usr/bin/python3 scripts/plant_convergence.py PLAN SCENE
       [--package NAME=DIR ...] [--substeps 10,20,50,100]
       [--formulations anitescu-cone,stewart-trinkle] [--offset DX DY [DZ]] [--closed-loop]
       [--track-args="..."] [--cli build/release/quasidyn] [--out build/plant_convergence]

PLAN is a plan or trajectory file, SCENE the scene it was made on (a scene, a file of the reference
quasistatic simulator or a side file). For each formulation F of --formulations and each N of
--substeps, `quasidyn track PLAN --plant-scene SCENE --plant-formulation F --substeps N
--replan 0` runs the plan open loop (with --closed-loop: the stabiliser's defaults) on the plant
at h_p = h/N, commands ramped, regrasps executed as motions, as the execution tables of
docs/qsim-files.md run it. Per run it prints how far the plant ends the objects from the plan's
end and from the same formulation's run at the largest N (positions [m]: x, y, z of a floating
object, x, y of a planar one; rotation [rad]: a floating object's angle, a planar one's θ; the
largest over the objects), the plant's deepest overlap, and left_plan_at: the first plan step k
after which the objects lie 5 cm or more from the plan's q_k (qsim_task_execution.py's "lost
at"), "-" for none. The plant is converged from N on when the runs at N and finer end close to
each other against their distance from the plan: what they show is then the dynamics, not the
step. The last lines compare the formulations at the largest N (the exact cone's relaxation
against Stewart–Trinkle's complementarity, say).

A plant that starts with its bodies overlapping by φ separates them in its first step at φ/h_p
(the programs' rows φ/h + J_n v⁺ >= 0, docs/formulations.md): a kick growing as h_p shrinks, so
such runs diverge with N. The script says so when track reports a start overlap of 0.1 mm or
more; --offset moves the objects' start (track's --offset) out of it.
"""

import argparse
import json
import pathlib
import shlex
import sys

import numpy as np

try:
    import quasidyn
except ImportError:
    sys.exit("plant_convergence: cannot import quasidyn (run with "
             "PYTHONPATH=build/release/python after scripts/build.sh release)")

# After quasidyn's check, so that a missing module is named by this script.
from plan_equilibria import packages_of  # noqa: E402
from plan_step_errors import distance, object_layout  # noqa: E402
from qsim_task_execution import LOST_DISTANCE, ROOT, number, run  # noqa: E402

START_OVERLAP_WARNING = 1e-4  # [m]


def substep_counts(text):
    """The --substeps list: two or more distinct integers >= 1, increasing; exits otherwise."""
    try:
        counts = sorted({int(x) for x in text.split(",")})
    except ValueError:
        sys.exit(f"plant_convergence: --substeps {text}: expected integers such as 10,20,50")
    if len(counts) < 2 or counts[0] < 1:
        sys.exit(f"plant_convergence: --substeps {text}: needs two or more distinct counts >= 1")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("plan", help="a plan or trajectory file (.json or .npz)")
    parser.add_argument("scene", help="the scene the plan was made on")
    parser.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                        help="a package://NAME folder of the model files (repeatable)")
    parser.add_argument("--substeps", default="10,20,50,100", help="N: plant steps per step of h")
    parser.add_argument("--formulations", default="anitescu-cone,stewart-trinkle",
                        help="the plants' second-order formulations, comma-separated")
    parser.add_argument("--offset", type=float, nargs="+", metavar="D",
                        help="the objects' start offset [m] (track's --offset: 2 or 3 numbers)")
    parser.add_argument("--closed-loop", action="store_true",
                        help="the stabiliser closes the loop (default: open loop)")
    parser.add_argument("--track-args", default="", help="more arguments of `quasidyn track`")
    parser.add_argument("--cli", default=str(ROOT / "build" / "release" / "quasidyn"))
    parser.add_argument("--out", default=str(ROOT / "build" / "plant_convergence"),
                        help="a folder for each run's trajectory and output")
    args = parser.parse_args()
    counts = substep_counts(args.substeps)
    formulations = [f for f in args.formulations.split(",") if f]
    if not formulations:
        sys.exit("plant_convergence: --formulations names none")
    if args.offset is not None and len(args.offset) not in (2, 3):
        sys.exit(f"plant_convergence: --offset takes 2 or 3 numbers, got {len(args.offset)}")
    packages = packages_of(args.package, "plant_convergence")
    try:
        scene = quasidyn.load_scene(args.scene, packages=packages)
        plan = quasidyn.load_trajectory(args.plan, scene=scene)
    except (ValueError, RuntimeError, OSError) as error:
        sys.exit(f"plant_convergence: {error}")
    layout = object_layout(scene)
    plan_end = plan.q[-1]
    h = plan.time_step
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = [args.cli, "--log-level", "error", "track", args.plan, "--plant-scene", args.scene,
            "--replan", "0"]
    for name, folder in packages.items():
        base += ["--package", f"{name}={folder}"]
    if args.offset is not None:
        base += ["--offset"] + [repr(x) for x in args.offset]
    if not args.closed_loop:
        base.append("--open-loop")
    base += shlex.split(args.track_args)

    print(f"plan {args.plan}: {plan.u.shape[0]} steps of h = {h:g} s; plants "
          f"{', '.join(formulations)} at h/N, {'closed' if args.closed_loop else 'open'} loop")
    print("formulation N h_p[s] off_plan[m] off_plan[rad] off_finest[m] off_finest[rad] "
          "overlap[mm] left_plan_at")
    finest = {}
    for formulation in formulations:
        ends = {}
        for n in counts:
            log = out / f"{formulation}_{n}"
            status, _, text = run(base + ["--plant-formulation", formulation, "--substeps", str(n),
                                          "--out", f"{log}.json"], f"{log}.txt")
            if status != 0:
                last = text.strip().splitlines()[-1] if text.strip() else "no output"
                sys.exit(f"plant_convergence: track with {formulation} at h/{n} failed: {last}")
            start_overlap = number(r"^start overlap\s+(\S+)", text, 0.0)
            if start_overlap >= START_OVERLAP_WARNING and n == counts[0] and not finest:
                print(f"warning: the plant starts {start_overlap * 1e3:.3g} mm into contact: its "
                      f"first step separates it at up to {start_overlap / (h / counts[-1]):.3g} "
                      f"m/s at h/{counts[-1]} ({start_overlap / (h / n):.3g} at h/{n}), so the "
                      "runs cannot converge in N; --offset starts it apart", flush=True)
            ran = [np.array(step["q"]) for step in
                   json.loads(pathlib.Path(f"{log}.json").read_text())["steps"]]
            ends[n] = ran[-1] if ran else np.array(plan.q[0])
            ends[n, "left"] = next(
                (str(k) for k, q in enumerate(ran[:len(plan.q) - 1], start=1)
                 if distance(layout, plan.q[k], q)[0] > LOST_DISTANCE), "-")
            ends[n, "overlap"] = number(r"^penetration\s+(\S+)", text)
        finest[formulation] = ends[counts[-1]]
        for n in counts:
            off_plan = distance(layout, plan_end, ends[n])
            off_finest = distance(layout, ends[counts[-1]], ends[n])
            print(f"{formulation} {n} {h / n:.4g} {off_plan[0]:.4g} {off_plan[1]:.4g} "
                  f"{off_finest[0]:.4g} {off_finest[1]:.4g} {ends[n, 'overlap'] * 1e3:.3g} "
                  f"{ends[n, 'left']}",
                  flush=True)
    for other in formulations[1:]:
        apart = distance(layout, finest[formulations[0]], finest[other])
        print(f"at h/{counts[-1]}: {other} ends {apart[0]:.4g} m and {apart[1]:.4g} rad from "
              f"{formulations[0]}")


if __name__ == "__main__":
    main()
