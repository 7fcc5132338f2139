"""The talk's tasks on the reference simulator's robots: plan, refine, execute on a second-order
plant (issue 69; docs/qsim-files.md, "The talk's tasks on qsim's robots").

Usage: python3 scripts/qsim_task_execution.py QSIM_MODELS [--cli build/release/quasidyn]
       [--tasks NAME ...] [--seeds 20] [--first-seed 0] [--substeps 10] [--replan 3]
       [--plant-formulation anitescu-cone] [--no-ramp] [--time-limit 30] [--html]
       [--regrasp reset|physical] [--plan-args="OPTIONS"] [--no-refine]
       [--track-args="OPTIONS"] [--out build/qsim_tasks]

QSIM_MODELS is the simulator's models/ folder (the package quasistatic_simulator). For each task
(a side file in examples/qsim_planning/side_files/) and seed S:
  1. `quasidyn plan SIDE --seed S` (RRT through contact in the planner's quasi-dynamic model);
  2. `quasidyn optimize SIDE --initial plan.json` (the path refined; its goal the side file's,
     weighed by the planner's metric: docs/control.md, "The cost in the planner's units");
  3. `quasidyn track refined.json --plant-scene SIDE --plant-formulation F --substeps N
     --replan R`: the refined plan executed closed loop (the stabiliser) on a plant that is not
     the planner's model (second-order, the exact friction cone, h/N), replanning from where the
     plant ended (control/replanning.h: at most R more plans, stopped without progress).
A plan not found is still refined and executed (from its best node), as the loop would. Prints one
row per seed (found, plan CPU, reached on the plant, final D, position and angle
error, deepest plant overlap, plans) and a markdown summary per task: reached of N, median final
error, deepest plant overlap, plans, and where the first plan lost the objects (the first
control step at which they lay 5 cm from the plan's: after a regrasp's motion or an
extension). Every command's output is kept in OUT/TASK/.
"""

import argparse
import json
import math
import os
import pathlib
import re
import resource
import shlex
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SIDE_FILES = ROOT / "examples" / "qsim_planning" / "side_files"
TASKS = ("allegro_hand_and_sphere_90z", "allegro_hand_and_sphere_180z",
         "allegro_hand_and_sphere_90x", "iiwa_bimanual_box_90z",
         "iiwa_planar_bimanual_cylinder_90z")
# Success on the plant (the issue): the objects within the goal tolerance, no overlap deeper.
PLANT_OVERLAP_LIMIT = 2e-3  # [m]
# "Lost at": the plant's objects this far from the plan's [m] (only the first of several
# objects' positions count, as the tasks have one).
LOST_DISTANCE = 0.05


def run(command, log):
    """Runs a quasidyn command, its stdout and stderr into `log`; the child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "w") as out:
        try:
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
        except OSError as error:  # no such program (not built?), not executable
            sys.exit(f"{pathlib.Path(sys.argv[0]).stem}: cannot run {command[0]}: "
                     f"{error.strerror} (build it: scripts/build.sh release; or give --cli)")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, cpu, pathlib.Path(log).read_text()


def run_or_exit(command, log):
    """run(), for the scripts that need every command: its output, or exits naming the command
    and what it printed."""
    status, _, text = run(command, log)
    if status != 0:
        sys.exit(f"{pathlib.Path(sys.argv[0]).stem}: {' '.join(map(str, command))} failed:\n"
                 f"{text}")
    return text


def number(pattern, text, default=float("nan")):
    match = re.search(pattern, text, re.M)
    return float(match.group(1)) if match else default


def lost_at(plan_file, executed_file):
    """Where the plant's objects first lay LOST_DISTANCE from the plan's in its first round: 'regrasp'
    (the step after a regrasp's motion), 'extension', or 'kept'; None for a plan file not refined
    (its steps are not in it)."""
    plan = json.loads(pathlib.Path(plan_file).read_text())
    executed = json.loads(pathlib.Path(executed_file).read_text())
    if "plan" not in plan or "steps" not in plan:
        return None
    edges = plan["plan"]["path"]["step_edges"]
    positions = 3 if plan["nq_u"] == 7 else 2  # a free body's x, y, z; a planar object's x, y
    planned = [plan["q0"]] + [step["q"] for step in plan["steps"]]
    ran = [executed["q0"]] + [step["q"] for step in executed["steps"]]
    for t in range(1, min(len(planned), len(ran))):
        if math.dist(planned[t][:positions], ran[t][:positions]) > LOST_DISTANCE:
            return "regrasp" if edges[t - 1].startswith("regrasp") else "extension"
    return "kept"


def one_seed(args, task, seed, folder):
    side = str(SIDE_FILES / f"{task}.yaml")
    base = [args.cli, "--log-level", "error", "--package", f"quasistatic_simulator={args.models}"]
    plan_file = folder / f"plan_{seed}.json"
    refined_file = folder / f"refined_{seed}.json"
    _, plan_cpu, plan_text = run(
        base + ["plan", side, "--seed", str(seed), "--time-limit", str(args.time_limit),
                "--regrasp", args.regrasp, "--out", str(plan_file)]
        + shlex.split(args.plan_args)
        + (["--html", str(folder / f"plan_{seed}.html")] if args.html else []),
        folder / f"plan_{seed}.txt")
    row = {"seed": seed, "found": "result           found" in plan_text, "plan_cpu": plan_cpu}
    if not plan_file.exists():
        # the message itself, not the command line parser's "Run with --help" after it
        lines = [l for l in plan_text.strip().splitlines() if not l.startswith("Run with --help")]
        row["error"] = "no plan: " + (lines[-1] if lines else "?")
        return row
    status = 1
    if not args.no_refine:
        status, refine_cpu, refine_text = run(
            base + ["optimize", side, "--initial", str(plan_file), "--out", str(refined_file)],
            folder / f"refined_{seed}.txt")
        row["refine_cpu"] = refine_cpu
    executed = refined_file if status == 0 and refined_file.exists() else plan_file
    status, track_cpu, track_text = run(
        base + ["track", str(executed), "--plant-scene", side, "--plant-formulation",
                args.plant_formulation, "--substeps", str(args.substeps), "--replan",
                str(args.replan), "--out", str(folder / f"executed_{seed}.json")]
        + (["--no-ramp"] if args.no_ramp else [])
        + shlex.split(args.track_args)
        # the plant's run with each plan it ran over it, and D over time (docs/viewer.md)
        + (["--html", str(folder / f"executed_{seed}.html")] if args.html else []),
        folder / f"executed_{seed}.txt")
    row["track_cpu"] = track_cpu
    rounds = re.findall(r"^(\d+)\s+(yes|no)\s+.*\s(\S+)$", track_text, re.M)
    row["plans"] = len(rounds)
    row["overlap"] = max((float(r[2]) for r in rounds), default=float("nan"))
    row["reached"] = "goal             reached" in track_text
    row["final_D"] = number(r"^goal\s+\S+(?: \S+)? \(D (\S+),", track_text)
    last = track_text.strip().splitlines()
    if rounds:
        cells = [line for line in last if re.match(r"^\d+\s+(yes|no)\s", line)][-1].split()
        row["position"], row["angle"] = float(cells[-3]), float(cells[-2])
    row["success"] = (row["reached"] and row["overlap"] <= PLANT_OVERLAP_LIMIT)
    if rounds and (folder / f"executed_{seed}.json").exists():
        row["lost_at"] = lost_at(executed, folder / f"executed_{seed}.json")
    if status != 0 and not rounds:
        row["error"] = "track: " + (last[-1] if last else "?")
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", help="the simulator's models/ folder")
    parser.add_argument("--cli", default=str(ROOT / "build" / "release" / "quasidyn"))
    parser.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--substeps", type=int, default=10)
    parser.add_argument("--replan", type=int, default=3,
                        help="track --replan N, N >= 1 (track prints each plan's goal distance, "
                             "which the rows read, only when it may replan)")
    parser.add_argument("--plant-formulation", default="anitescu-cone")
    parser.add_argument("--no-ramp", action="store_true",
                        help="track --no-ramp: each command held over the plant's substeps "
                             "(default: ramped, track's default)")
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--regrasp", default="reset", choices=("reset", "physical"),
                        help="plan --regrasp: reset (the side file's) or physical (regrasps the "
                             "plant can execute, docs/planning.md)")
    parser.add_argument("--plan-args", default="",
                        help="more options of `quasidyn plan`, one string, given as "
                             "--plan-args=\"...\" (e.g. --plan-args=\"--plant-check-substeps "
                             "10 --plant-check-tolerance 0.1\")")
    parser.add_argument("--track-args", default="",
                        help="more options of `quasidyn track`, one string, given as "
                             "--track-args=\"...\" (e.g. --track-args=\"--replan-deviation 0.3 "
                             "--replan-stall-limit 20\": a plan given up once the plant is D 0.3 "
                             "from it, docs/control.md)")
    parser.add_argument("--no-refine", action="store_true",
                        help="execute the plan itself, not its refinement")
    parser.add_argument("--html", action="store_true",
                        help="viewer pages: plan_S.html (the plan and its tree) and "
                             "executed_S.html (the plant's run with every plan it ran drawn "
                             "over it, D over time)")
    parser.add_argument("--out", default=str(ROOT / "build" / "qsim_tasks"))
    args = parser.parse_args()
    if not os.path.isdir(args.models):
        sys.exit(f"qsim_task_execution: {args.models}: not a folder")
    if args.replan < 1:
        sys.exit(f"qsim_task_execution: --replan must be >= 1 (got {args.replan}): without "
                 "replanning `quasidyn track` prints no goal distance to read (--replan 1 runs at "
                 "most one more plan, and only when the first ends outside the tolerance)")
    summary = []
    for task in args.tasks:
        folder = pathlib.Path(args.out) / task
        folder.mkdir(parents=True, exist_ok=True)
        print(f"== {task}: plant {args.plant_formulation} at h/{args.substeps}, "
              f"up to {args.replan} replans")
        print("seed found plan_cpu[s] reached final_D position[m] angle[rad] overlap[mm] plans "
              "cpu(plan+refine+track)[s] lost_at")
        rows = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            row = one_seed(args, task, seed, folder)
            rows.append(row)
            if "error" in row:
                print(f"{seed} {row['error']}", flush=True)
                continue
            total = row["plan_cpu"] + row.get("refine_cpu", 0) + row.get("track_cpu", 0)
            print(f"{seed} {'yes' if row['found'] else 'no'} {row['plan_cpu']:.2f} "
                  f"{'yes' if row['reached'] else 'no'} {row['final_D']:.3g} "
                  f"{row.get('position', float('nan')):.3g} {row.get('angle', float('nan')):.3g} "
                  f"{1e3 * row['overlap']:.2f} {row['plans']} {total:.1f} "
                  f"{row.get('lost_at') or '-'}", flush=True)
        done = [r for r in rows if "error" not in r]
        summary.append((task, len(rows), sum(r["found"] for r in rows),
                        sum(r["success"] for r in done),
                        statistics.median([r["final_D"] for r in done]) if done else float("nan"),
                        max((r["overlap"] for r in done), default=float("nan")),
                        statistics.median([r["plans"] for r in done]) if done else float("nan"),
                        " / ".join(str(sum(r.get("lost_at") == where for r in done))
                                   for where in ("regrasp", "extension", "kept"))))
    print("\n| task | plans found | reached on the plant (overlap <= 2 mm) | median final D | "
          "deepest plant overlap [mm] | median plans | lost at a regrasp / an extension / kept |")
    print("|---|---|---|---|---|---|---|")
    for task, n, found, success, final_d, overlap, plans, lost in summary:
        print(f"| {task} | {found}/{n} | {success}/{n} | {final_d:.3g} | {1e3 * overlap:.2f} | "
              f"{plans:g} | {lost} |")


if __name__ == "__main__":
    main()
