"""The sources of notes.py's rows: the commands that print the paper's figures and the
functions that name their values (issue 67; repro/framework.py)."""
import json
import re

from repro.framework import LONG, EXACT, Source, relative, timing

from repro import csv_table

SCENE = "examples/point_robot_walls/scene.yaml"
HORIZONS = (5, 20)
FORCE_COLUMNS = {wall: (f"{wall}_normal", f"{wall}_friction")
                 for wall in ("right_wall", "left_wall", "floor")}


def _scene(run):
    """quasidyn info --json of the scene, and the walls' and bounds' numbers of its file."""
    info = json.loads(run.stdout)
    scene = run.scene(SCENE)
    values = {
        "formulation": info["formulation"]["type"],
        "friction_rays": info["friction_rays"],
        "nq": info["nq"], "nq_a": info["nq_a"], "nv": info["nv"],
        "h_s": info["time_step"],
        "walls": sum(shape["type"] == "half_space" for shape in info["shapes"]),
        "mu_min": min(shape["friction"] for shape in info["shapes"]),
        "nq_u": info["nq_u"],
        "mu_max": max(shape["friction"] for shape in info["shapes"]),
        "tip_mass_kg": max(body["mass"] for body in info["bodies"]),
        "start_x": info["q0"][0], "start_y": info["q0"][1],
        # The MIQP's sizes per step (control/mpc_miqp.h): the state x = (q, v), and per wall
        # the impulses γ = (c_n, β (n_d of them), λ), each with its w and its binary z.
        "n_x": info["nq"] + info["nv"],
        "n_gamma": sum(shape["type"] == "half_space" for shape in info["shapes"])
        * (2 + info["friction_rays"]),
    }
    mpc = scene["mpc"]
    values["target_x"], values["target_y"] = mpc["target"][0], mpc["target"][1]
    values["x_max"] = mpc["bounds"]["state_upper"][0]
    values["x_min"] = mpc["bounds"]["state_lower"][0]
    values["y_min"] = mpc["bounds"]["state_lower"][1]
    values["Q"] = "diag(" + ", ".join(f"{w:g}" for w in mpc["weights"]["state"]) + ")"
    values["Q_f"] = "diag(" + ", ".join(f"{w:g}" for w in mpc["weights"]["terminal"]) + ")"
    values["R"] = "diag(" + ", ".join(f"{w:g}" for w in mpc["weights"]["force"]) + ")"
    values["Q_is_I"] = all(w == 1 for w in mpc["weights"]["state"])
    values["Q_f_is_I"] = all(w == 1 for w in mpc["weights"]["terminal"])
    values["R_is_10I"] = all(w == 10 for w in mpc["weights"]["force"])
    return values


_HORIZON_LINE = re.compile(
    r"N = (\d+): .*MIQP median ([0-9.e+-]+) ms CPU \(max ([0-9.e+-]+) ms\), nodes median "
    r"([0-9.]+) \(max ([0-9.]+)\)")


def _first_for_good(below):
    """The 1-based index from which every entry of below is True (None: never)."""
    for k in range(len(below)):
        if all(below[k:]):
            return k + 1
    return None


def _friction_coefficient(run):
    """μ of the robot's tip on a wall: the scene's coefficients, combined harmonically as the
    contact model does (`quasidyn info --json`: friction_combination harmonic)."""
    scene = run.scene(SCENE)
    walls = {shape["friction"] for shape in scene["environment"]}
    tips = {shape["friction"] for robot in scene["robots"] for body in robot["bodies"]
            for shape in body.get("shapes", [])}
    if len(walls) != 1 or len(tips) != 1:
        raise ValueError(f"{SCENE}: walls' or tip's friction differ: {walls}, {tips}")
    a, b = walls.pop(), tips.pop()
    return 2 * a * b / (a + b)


def _mpc(run):
    rows = csv_table.read_rows(run.path("mpc_runs.csv"))
    mu = _friction_coefficient(run)
    values = {"mu": mu}
    by_horizon = {n: [r for r in rows if r["horizon"] == n] for n in HORIZONS}
    for n, steps in by_horizon.items():
        h = steps[1]["t"] - steps[0]["t"]
        normal = [sum(r[c[0]] for c in FORCE_COLUMNS.values()) for r in steps]
        friction = [sum(abs(r[c[1]]) for c in FORCE_COLUMNS.values()) for r in steps]
        touching = [k for k, f in enumerate(normal) if f > 0]
        first = touching[0]
        walls = sorted({wall for r in steps for wall, c in FORCE_COLUMNS.items() if r[c[0]] > 0})
        peak_friction_step = max(range(len(steps)), key=lambda k: friction[k])
        values[f"n{n}_steps"] = len(steps)
        values[f"n{n}_first_contact_s"] = steps[first]["t"]
        values[f"n{n}_contact_walls"] = ", ".join(walls)
        values[f"n{n}_contact_steps"] = len(touching)
        values[f"n{n}_peak_normal_N"] = max(normal)
        values[f"n{n}_peak_friction_N"] = friction[peak_friction_step]
        values[f"n{n}_normal_at_peak_friction_N"] = normal[peak_friction_step]
        values[f"n{n}_cone_edge_N"] = mu * normal[peak_friction_step]
        values[f"n{n}_friction_state"] = (
            "sticking: below the cone's edge"
            if friction[peak_friction_step] < mu * normal[peak_friction_step] * (1 - 1e-6)
            else "sliding: on the cone's edge")
        values[f"n{n}_normal_impulse_Ns"] = h * sum(normal)
        values[f"n{n}_friction_impulse_Ns"] = h * sum(friction)
        values[f"n{n}_realised_cost"] = sum(r["stage_cost"] for r in steps)
        values[f"n{n}_J_first"] = steps[0]["cost"]
        values[f"n{n}_J_last"] = steps[-1]["cost"]
    five, twenty = by_horizon[5], by_horizon[20]
    ratios = [b["cost"] / a["cost"] for a, b in zip(five, twenty)]
    values["J_ratio_min"] = min(ratios)
    values["J_ratio_min_step"] = 1 + ratios.index(min(ratios))
    values["J_ratio_max"] = max(ratios)
    values["J_ratio_last"] = ratios[-1]
    values["J_below_for_good_step"] = _first_for_good(
        [b["cost"] < a["cost"] for a, b in zip(five, twenty)]) or 0
    values["J_per_step_below_from"] = _first_for_good(
        [b["cost"] / 20 < a["cost"] / 5 for a, b in zip(five, twenty)]) or 0
    values["J_per_term_below_from"] = _first_for_good(
        [b["cost"] / 21 < a["cost"] / 6 for a, b in zip(five, twenty)]) or 0
    values["stage_below_from"] = _first_for_good(
        [b["stage_cost"] < a["stage_cost"] for a, b in zip(five, twenty)]) or 0
    values["h_s"] = five[1]["t"] - five[0]["t"]
    for match in _HORIZON_LINE.finditer(run.stdout):
        n = int(match.group(1))
        values[f"n{n}_miqp_median_ms"] = float(match.group(2))
        values[f"n{n}_miqp_max_ms"] = float(match.group(3))
        values[f"n{n}_nodes_max"] = int(float(match.group(5)))
    return values


def _mpc_closed_loop(run):
    """quasidyn mpc --csv: J* of every step and the run's statuses."""
    rows = csv_table.read_rows(run.path("steps.csv"))
    return {"steps": len(rows), "optimal": sum(r["status"] == "optimal" for r in rows),
            "J": [r["cost"] for r in rows]}


def _mpc_big_m(run):
    loop = _mpc_closed_loop(run)
    return {"steps": loop["steps"], "optimal": loop["optimal"], "J_first": loop["J"][0],
            "J_last": loop["J"][-1], "J_sum": sum(loop["J"])}


_BONMIN_SUMMARY = re.compile(
    r"N = (\d+), (\d+) problems: ours in the loop median ([0-9.]+) ms \(max ([0-9.]+)\); ours "
    r"bare median ([0-9.]+) ms \(max ([0-9.]+)\), nodes median ([0-9.]+) \(max ([0-9.]+)\); "
    r"Bonmin median ([0-9.]+) ms \(max ([0-9.]+)\)(?:, (\d+) not proven optimal within its "
    r"limit)?; ratio of medians Bonmin / ours in the loop ([0-9.]+), Bonmin / ours bare "
    r"([0-9.]+); largest \(ours bare − Bonmin\)/max\(1, \|J\|\) = ([0-9.e+-]+)")
_LOOP_LINE = re.compile(
    r"N = (\d+): closed loop of (\d+) steps, node limit (\d+), controller's MIQP: median "
    r"([0-9.]+) ms, max ([0-9.]+) ms; nodes median ([0-9.]+), max ([0-9.]+);.*realised cost "
    r"([0-9.]+)")


def _miqp_bench(run):
    values = {}
    for m in _LOOP_LINE.finditer(run.stdout):
        n = m.group(1)
        values[f"n{n}_loop_steps"] = int(m.group(2))
        values[f"n{n}_loop_median_ms"] = float(m.group(4))
        values[f"n{n}_loop_max_ms"] = float(m.group(5))
        values[f"n{n}_loop_nodes_max"] = int(m.group(7))
        values[f"n{n}_realised_cost"] = float(m.group(8))
    for m in _BONMIN_SUMMARY.finditer(run.stdout):
        n = m.group(1)
        values[f"n{n}_problems"] = int(m.group(2))
        values[f"n{n}_ours_loop_median_ms"] = float(m.group(3))
        values[f"n{n}_ours_bare_median_ms"] = float(m.group(5))
        values[f"n{n}_ours_bare_max_ms"] = float(m.group(6))
        values[f"n{n}_bonmin_median_ms"] = float(m.group(9))
        values[f"n{n}_bonmin_max_ms"] = float(m.group(10))
        values[f"n{n}_bonmin_unproven"] = int(m.group(11) or 0)
        values[f"n{n}_ratio_loop"] = float(m.group(12))
        values[f"n{n}_ratio_bare"] = float(m.group(13))
        values[f"n{n}_objective_difference"] = float(m.group(14))
    with open(run.path("miqp_bench.json"), encoding="utf-8") as handle:
        report = json.load(handle)
    for bench in report["benchmarks"]:
        name = bench["name"]
        if not name.startswith("N") or "/median_step" not in name:
            continue
        n = name[1:name.index("/")]
        values[f"n{n}_variables"] = int(bench["variables"])
        values[f"n{n}_equalities"] = int(bench["equalities"])
        values[f"n{n}_inequalities"] = int(bench["inequalities"])
    return values


BONMIN_LIMIT_S = 30  # Bonmin's CPU budget per problem: a solve that hits it makes the ratio a bound
MIQP_BENCH = (f"QUASIDYN_BONMIN_TIME_LIMIT={BONMIN_LIMIT_S} build/release/miqp_bench "
              "--benchmark_filter=median_step")

SOURCES = [
    Source(name="point_robot_scene", argv=["{build}/quasidyn", "info", "--json", SCENE],
           extract=_scene,
           shown=f"build/release/quasidyn info --json {SCENE}",
           tolerances={"*": EXACT}),
    Source(name="mpc", argv=["{build}/mpc_figures", "{out}"], extract=_mpc,
           shown="build/release/mpc_figures out/mpc",
           # The closed loops are deterministic on one build; 1e-6 covers another instruction
           # order. The MIQP's CPU times are a shared machine's.
           tolerances={"*_miqp_median_ms": timing(3), "*_miqp_max_ms": timing(10),
                       "*_nodes_max": relative(0.5), "*_friction_state": EXACT}),
    Source(name="mpc_derived_m",
           argv=["{build}/quasidyn", "mpc", SCENE, "--horizon", "5", "--steps", "60", "--quiet",
                 "--csv", "{out}/steps.csv"],
           extract=_mpc_big_m,
           shown=f"build/release/quasidyn mpc {SCENE} --horizon 5 --steps 60 --csv out/steps.csv"),
    Source(name="mpc_single_m",
           argv=["{build}/quasidyn", "mpc", SCENE, "--horizon", "5", "--steps", "60", "--big-m",
                 "1000", "--quiet", "--csv", "{out}/steps.csv"],
           extract=_mpc_big_m,
           shown=f"build/release/quasidyn mpc {SCENE} --horizon 5 --steps 60 --big-m 1000 "
                 "--csv out/steps.csv"),
    Source(name="miqp_bench",
           argv=["env", f"QUASIDYN_BONMIN_TIME_LIMIT={BONMIN_LIMIT_S}", "{build}/miqp_bench",
                 "--benchmark_filter=median_step", "--benchmark_out={out}/miqp_bench.json",
                 "--benchmark_out_format=json"],
           extract=_miqp_bench, cost=LONG, timeout_s=3600,
           shown=MIQP_BENCH,
           # Times of a shared 2-core machine: a factor 3; the ratios are of two times measured
           # alternately in one run, so they share the load, a factor 3 too. Counts and sizes
           # are the problems', equal; the closed loop's cost is deterministic.
           tolerances={"*_ms": timing(3), "*_ratio_*": timing(3), "*_nodes_max": relative(0.5),
                       "*_bonmin_unproven": relative(0, 10), "*_objective_difference":
                       relative(0, 1e-3), "*_variables": EXACT, "*_equalities": EXACT,
                       "*_inequalities": EXACT, "*_steps": EXACT, "*_problems": EXACT}),
]
