"""Every system file of the reference quasistatic simulator stepped from its example start.

Usage: PYTHONPATH=build/release/python python3 scripts/qsim_systems_table.py QSIM_MODELS
       [--package NAME=DIR ...] [--starts tests/data/qsim/example_starts.yaml] [--steps 20]
       [--h 0.1]

QSIM_MODELS is the simulator's models/ folder (the ROS package quasistatic_simulator, its
q_sys/ files). For every q_sys/*.yml the starts file gives q0 (from the simulator's example
script that uses the file, or chosen where none does) and a command schedule
(tests/data/qsim/example_starts.yaml describes both). Each file is loaded (parity mode: its
conventions block is the simulator's), its contacts at q0 counted (those within the file's
contact tolerance; "overlap" gives the deepest φ < 0 [m]), and it is stepped `--steps` times of
`--h` seconds in qp and in socp. Prints the markdown table of docs/qsim-files.md, "The
simulator's 28 system files": file, q0 source, n_q, contacts at q0, and per formulation the
steps solved or the message of the step where it stopped. A file whose starts entry lists
`packages` beyond quasistatic_simulator (iiwa.yml: iiwa_controller, the simulator's
robotics_utilities/models, and drake_manipulation_models, Drake's manipulation/models) runs when
each is given as --package NAME=DIR; otherwise its row names the missing packages.
"""

import argparse
import os
import re

import numpy as np
import yaml

import quasidyn

FORMULATIONS = ("qp", "socp")


def schedule_of(scene, robot, spec, q0, ramp_time):
    """q̄_robot(t) for the schedule `spec` (example_starts.yaml's `command` entry)."""
    start = q0[scene.q_slice(robot)].copy()
    if "knots" in spec:
        times = np.array([float(t) for t, _ in spec["knots"]])
        values = np.array([np.asarray(v, dtype=float) for _, v in spec["knots"]])
        if values.shape[1] != start.size:
            raise ValueError(f"{robot}: knots of size {values.shape[1]}, the robot has "
                             f"{start.size} coordinates")
        return lambda t: np.array([np.interp(t, times, values[:, i])
                                   for i in range(start.size)])
    if "ramp_by" in spec:
        target = start + float(spec["ramp_by"])
    elif "ramp_to" in spec:
        names = np.array(scene.coordinate_names)[scene.q_slice(robot)]
        by_name = spec["ramp_to"]
        target = np.array([float(by_name.get(n.rsplit("/", 1)[-1], by_name.get("*")))
                           for n in names])
    else:
        raise ValueError(f"{robot}: a schedule needs knots, ramp_by or ramp_to (got {spec})")
    return lambda t: start + min(t / ramp_time, 1.0) * (target - start)


def start_of(scene, entry):
    """q0 and the command u(t) (size n_q,a) of `entry`."""
    q0 = scene.q0.copy()
    for model, values in (entry.get("q0") or {}).items():
        values = np.asarray(values, dtype=float)
        if values.size != q0[scene.q_slice(model)].size:
            raise ValueError(f"q0 of {model}: {values.size} values, the model has "
                             f"{q0[scene.q_slice(model)].size} coordinates")
        q0[scene.q_slice(model)] = values
    schedules = {robot: schedule_of(scene, robot, spec, q0, 2.0)
                 for robot, spec in (entry.get("command") or {}).items()}
    held = q0[scene.q_a_slice].copy()

    def command(t):
        u = held.copy()
        for robot, schedule in schedules.items():
            u[scene.u_slice(robot)] = schedule(t)
        return u

    return q0, command


def run(scene, formulation, q0, command, steps, h):
    stepper = quasidyn.Stepper(scene, formulation, h=h)
    q = q0.copy()
    for k in range(steps):
        result = stepper.step(q, command((k + 1) * h))
        if not result.ok:
            return f"stopped at step {k + 1}: {result.status}: {result.message}"
        q = result.q_next
    return f"{steps} steps solved"


def short_source(source):
    """The table's q0 column: the script's name and lines, or "chosen"."""
    if source.startswith("chosen"):
        return "chosen (" + source.split(": ", 1)[1] + ")"
    origin, rest = source.split(" ", 1)
    files = re.sub(r"\S*/", "", rest)  # the scripts' names, not their folders
    return f"{origin}: {files}"


def contacts_at(scene, q0):
    found = quasidyn.contacts(scene, q0)
    deepest = min((c.phi for c in found), default=0.0)
    text = str(len(found))
    if deepest < 0:
        text += f" (overlap {deepest:.3g} m)"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models")
    parser.add_argument("--starts", default=os.path.join("tests", "data", "qsim",
                                                         "example_starts.yaml"))
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--h", type=float, default=0.1, help="time step [s], > 0")
    parser.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                        help="a package some files need beyond quasistatic_simulator")
    args = parser.parse_args()
    packages = {"quasistatic_simulator": args.models}
    for given in args.package:
        name, sep, folder_of = given.partition("=")
        if not sep or not name or not folder_of:
            parser.error(f"--package {given}: expected NAME=DIR")
        packages[name] = folder_of
    with open(args.starts) as f:
        starts = yaml.safe_load(f)
    folder = os.path.join(args.models, "q_sys")
    files = sorted(name for name in os.listdir(folder) if name.endswith(".yml"))
    missing = [name for name in files if name not in starts]
    if missing:
        raise SystemExit(f"{args.starts} has no entry for {', '.join(missing)}")
    print("| file | q0 | n_q | contacts at q0 | qp | socp |")
    print("|---|---|---|---|---|---|")
    for name in files:
        entry = starts[name]
        lacking = [p for p in entry.get("packages", []) if p not in packages]
        if "none" in entry or lacking:
            why = entry.get("none") or ("needs --package " + ", ".join(f"{p}=DIR" for p in lacking))
            print(f"| {name} | none | – | – | not run: {why} | not run |")
            continue
        try:
            scene = quasidyn.load_scene(os.path.join(folder, name), packages=packages)
        except quasidyn.SceneError as error:
            print(f"| {name} | – | – | – | load error: {error} | load error |")
            continue
        q0, command = start_of(scene, entry)
        cells = [run(scene, formulation, q0, command, args.steps, args.h)
                 for formulation in FORMULATIONS]
        print(f"| {name} | {short_source(entry['source'])} | {scene.nq} | "
              f"{contacts_at(scene, q0)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
