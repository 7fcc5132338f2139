"""Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR): the rows of docs/reproductions.md (issue 67)."""
import json
import math
import os
import re

from repro.framework import (CHEAP, LONG, EXACT, Fitted, NotReproduced, Paper, Row, Source,
                             Substitute, relative, timing)

from repro import csv_table

PUSHES = ("symmetric", "asymmetric", "semicircular", "wall")
FIT = (10, 18)  # disk_pushing_figures' fit: n = 10 … 18, c = 2^(4 − n) = 2⁻⁶ … 2⁻¹⁴


def _slope(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


_PRECISION_LINE = re.compile(
    r"^(\w+): local slope of log2 e within [0-9.]+ of 1 down to c = 2\^-(\d+)(?:; at c = "
    r"2\^-(\d+)(?: the run fails \((\w+)\)|: local slope ([0-9.e+-]+|nan), e ([0-9.e+-]+|nan)))?; "
    r"(\d+) of (\d+) runs of c = 2\^-(\d+) \.\.\. 2\^-(\d+) fail(?:; least e ([0-9.e+-]+) at c = "
    r"2\^-(\d+))?$", re.M)
_STOP_LINE = re.compile(r"^wall, c = 0: (\d+) of (\d+) steps \(step (\d+) \(t = ([0-9.]+) s\) "
                        r"failed: (\w+)", re.M)


def _disk_pushing(run):
    values = {}
    trajectories = csv_table.read_rows(run.path("disk_pushing_trajectories.csv"))
    final, steps = {}, {}
    for row in trajectories:
        key = (row["scene"], int(row["n"]))
        final[key] = row
        steps[key] = steps.get(key, 0) + 1
    values["h_s"] = trajectories[1]["t"] - trajectories[0]["t"]
    for push in PUSHES:
        values[f"{push}_c0_steps"] = steps[(push, 0)]
        plotted = [n for (scene, n) in steps if scene == push and n > 0]
        values[f"{push}_plotted_runs"] = len(plotted)
        values[f"{push}_plotted_steps_min"] = min(steps[(push, n)] for n in plotted)
        values[f"{push}_plotted_n_max"] = max(plotted)
        for n in (0, 2, 6, 10, 14):
            row = final[(push, n)]
            label = "c0" if n == 0 else f"n{n}"
            values[f"{push}_{label}_c"] = row["c"]
            if n > 0:  # the CSV row's own c, as a power of 2 (c = 2^(4 − n))
                values[f"{push}_{label}_log2c"] = int(round(math.log2(row["c"])))
            values[f"{push}_{label}_t_end"] = row["t"]
            for key in ("x", "y", "theta"):
                values[f"{push}_{label}_{key}"] = row[key]
    stop = _STOP_LINE.search(run.stdout)
    values["wall_c0_stop_step"] = int(stop.group(3))
    values["wall_c0_stop_t"] = float(stop.group(4))
    values["wall_c0_stop_status"] = stop.group(5)
    values["steps_requested"] = int(stop.group(2))
    fit = re.search(r"slope of log2 e on log2 c for c = 2\^-(\d+) \.\.\. 2\^-(\d+):", run.stdout)
    values["fit_from_log2c"], values["fit_to_log2c"] = -int(fit.group(1)), -int(fit.group(2))
    for row in csv_table.read_rows(run.path("disk_convergence_slopes.csv")):
        values[f"{row['scene']}_slope"] = row["slope"]
    convergence = csv_table.read_rows(run.path("disk_convergence.csv"))
    for push in PUSHES:
        points = [r for r in convergence if r["scene"] == push]
        values[f"{push}_convergence_points"] = len(points)
        in_fit = [r for r in points if FIT[0] <= r["n"] <= FIT[1]]
        values[f"{push}_fit_points"] = len(in_fit)
        residuals = []
        slope = values[f"{push}_slope"]
        mx = sum(r["log2_c"] for r in in_fit) / len(in_fit)
        my = sum(r["log2_e"] for r in in_fit) / len(in_fit)
        for r in in_fit:
            residuals.append(abs(r["log2_e"] - (my + slope * (r["log2_c"] - mx))))
        values[f"{push}_fit_max_residual_log2"] = max(residuals)
        values[f"{push}_fit_worst_log2c"] = int(in_fit[residuals.index(max(residuals))]["log2_c"])
        at = {int(r["n"]): r["e"] for r in points}
        values[f"{push}_e_n10"] = at[10]
        values[f"{push}_e_n18"] = at[18]
        values[f"{push}_e_n20"] = at[20]
    for m in _PRECISION_LINE.finditer(run.stdout):
        push = m.group(1)
        values[f"{push}_linear_down_to_log2c"] = -int(m.group(2))
        values[f"{push}_departure_log2c"] = -int(m.group(3)) if m.group(3) else 0
        values[f"{push}_departure"] = (f"the run fails ({m.group(4)})" if m.group(4) else
                                       "the local slope leaves 1" if m.group(3) else "none")
        values[f"{push}_departure_slope"] = float(m.group(5)) if m.group(5) else 0.0
        values[f"{push}_departure_e"] = float(m.group(6)) if m.group(6) else 0.0
        values[f"{push}_precision_failures"] = int(m.group(7))
        values[f"{push}_precision_runs"] = int(m.group(8))
        values[f"{push}_precision_last_log2c"] = -int(m.group(10))
        values[f"{push}_least_e"] = float(m.group(11)) if m.group(11) else 0.0
        values[f"{push}_least_e_log2c"] = -int(m.group(12)) if m.group(12) else 0
    precision = csv_table.read_rows(run.path("disk_precision.csv"))
    for push in PUSHES:
        departure = values.get(f"{push}_departure_log2c", 0)
        rows = [r for r in precision if r["scene"] == push and r["log2_c"] == departure]
        values[f"{push}_departure_status"] = rows[0]["status"] if rows else "none"
    theorems = csv_table.read_rows(run.path("disk_theorems.csv"))
    values["theorem_runs"] = len(theorems)
    m = re.search(r"Theorem 2: largest c\|F_m\| lambda_min\(B\)/\|u\| over the (\d+) finite-c "
                  r"runs .* and their steps: ([0-9.e+-]+) \(bound 1\)", run.stdout)
    values["theorem2_ratio_max"] = float(m.group(2))
    values["theorem2_runs_printed"] = int(m.group(1))
    wall = {int(r["n"]): r for r in theorems if r["scene"] == "wall"}
    fit = [n for n in range(FIT[0], FIT[1] + 1) if n in wall]
    values["wall_c_Fo_slope"] = _slope([math.log2(wall[n]["c"]) for n in fit],
                                       [math.log2(wall[n]["max_c_Fo"]) for n in fit])
    for n in (10, 18):
        values[f"wall_c_Fo_n{n}"] = wall[n]["max_c_Fo"]
        values[f"wall_c_Fm_n{n}"] = wall[n]["max_c_Fm"]
    symmetric = {int(r["n"]): r for r in theorems if r["scene"] == "symmetric"}
    values["symmetric_c_Fm_n18"] = symmetric[18]["max_c_Fm"]
    values["symmetric_c_Fm_n10"] = symmetric[10]["max_c_Fm"]
    m = re.search(r"c = 0 \(B = 0\): largest \|dq_m - h u\| over the runs' steps: ([0-9.e+-]+) m",
                  run.stdout)
    values["c0_tracking_error_m"] = float(m.group(1))
    first = next(r for r in trajectories if r["scene"] == "symmetric" and r["n"] == 0)
    values["symmetric_c0_y_first"] = first["y"]
    return values


def _scene_file(root, path):
    import yaml
    with open(os.path.join(root, path), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _disk_scene(run):
    info = json.loads(run.stdout)
    scene = _scene_file(run.root, "examples/disk_pushing/scene.yaml")
    disk = scene["objects"][0]
    rim = disk["body"]["shapes"][0]
    return {
        "formulation": info["formulation"]["type"],
        "c": info["formulation"]["parameters"]["c"],
        "B": info["formulation"]["parameters"]["B"],
        "nq_a": info["nq_a"],
        "h_s": info["time_step"],
        "rate_hz": 1.0 / info["time_step"],
        "mu": min(shape["friction"] for shape in info["shapes"]),
        "mu_max": max(shape["friction"] for shape in info["shapes"]),
        "radius_m": rim["radius"],
        "limit_surface": "diag(" + ", ".join(f"{a:g}" for a in
                                             disk["limit_surface"]["principal"]) + ")",
        "A_is_I3": disk["limit_surface"]["principal"] == [1, 1, 1],
    }


def _wall_scene(run):
    info = json.loads(run.stdout)
    return {"mu_min": min(shape["friction"] for shape in info["shapes"]),
            "mu_max": max(shape["friction"] for shape in info["shapes"])}


def _peg_scene(run):
    info = json.loads(run.stdout)
    scene = _scene_file(run.root, "examples/peg_in_hole/scene.yaml")
    boxes = {item["name"]: item for item in scene["environment"]}
    left, right = boxes["slot_left"], boxes["slot_right"]
    gap = (right["pose"]["x"] - right["size"][0] / 2) - (left["pose"]["x"] + left["size"][0] / 2)
    peg = scene["objects"][0]["body"]["shapes"][0]["size"]
    return {
        "c": info["formulation"]["parameters"]["c"],
        "B": info["formulation"]["parameters"]["B"],
        "tracking_gain": info["formulation"]["parameters"].get("tracking_gain", 0.0),
        "nq_a": info["nq_a"],
        "h_s": info["time_step"],
        "slot_m": gap,
        "peg_width_m": peg[0],
        "peg_length_m": peg[1],
        "tolerance_percent": 100 * (gap - peg[0]) / peg[0],
    }


def _pinch_scene(run):
    info = json.loads(run.stdout)
    scene = _scene_file(run.root, "examples/pinch/scene.yaml")
    square = scene["objects"][0]["body"]
    tips = {shape["radius"] for robot in scene["robots"] for body in robot["bodies"]
            for shape in body.get("shapes", [])}
    links = {joint["pose"]["x"] for robot in scene["robots"] for joint in robot["joints"]
             if joint["name"] == "elbow"}
    tip_offsets = {shape["pose"]["x"] for robot in scene["robots"] for body in robot["bodies"]
                   for shape in body.get("shapes", [])}
    return {
        "mass_kg": square["mass"],
        "side_m": square["shapes"][0]["size"][0],
        "arms": len(scene["robots"]),
        "links_per_arm": len({joint["name"] for joint in scene["robots"][0]["joints"]}),
        "upper_link_m": links.pop() if len(links) == 1 else float("nan"),
        "fore_link_m": tip_offsets.pop() if len(tip_offsets) == 1 else float("nan"),
        "tip_radius_m": tips.pop() if len(tips) == 1 else float("nan"),
        "c": info["formulation"]["parameters"]["c"],
        "B": ", ".join(f"{b:g}" for b in info["formulation"]["parameters"]["B"]),
    }


_PEG_LINE = re.compile(r"peg_in_hole: (\d+) of (\d+) steps, LCP median ([0-9.e+-]+) us, "
                       r"([0-9.e+-]+) pivots per solve; final peg \(([0-9.e+-]+), ([0-9.e+-]+), "
                       r"([0-9.e+-]+)\)")


def _peg(run):
    m = _PEG_LINE.search(run.stdout)
    rows = csv_table.read_rows(run.path("peg_in_hole.csv"))
    return {
        "steps": int(m.group(1)), "steps_requested": int(m.group(2)),
        "lcp_median_us": float(m.group(3)), "pivots_per_solve": float(m.group(4)),
        "final_x": rows[-1]["peg_x"], "final_y": rows[-1]["peg_y"],
        "final_theta": rows[-1]["peg_theta"],
        "theta_max": max(abs(r["peg_theta"]) for r in rows),
        "h_s": rows[1]["t"] - rows[0]["t"],
    }


def _pinch_peers(run):
    rows = csv_table.read_rows(run.path("pinch_peers.csv"))
    values = {}
    for row in rows:
        name = row["formulation"].replace("-", "_")
        for key in ("t", "x", "y", "theta"):
            values[f"{name}_{key}"] = row[key]  # the last row of each run wins: its final pose
    m = re.search(r"MuJoCo: h = ([0-9.e+-]+) s, contact time constant ([0-9.e+-]+) s, deepest "
                  r"penetration ([0-9.e+-]+) m", run.stdout)
    values["mujoco_h_s"] = float(m.group(1))
    values["mujoco_time_constant_s"] = float(m.group(2))
    values["mujoco_penetration_m"] = float(m.group(3))
    values["dy_mujoco_m"] = values["MuJoCo_y"] - values["halm_posa_y"]
    values["dy_mujoco_percent"] = 100 * values["dy_mujoco_m"] / values["halm_posa_y"]
    values["dtheta_mujoco_percent"] = 100 * (values["MuJoCo_theta"] - values["halm_posa_theta"]) \
        / values["halm_posa_theta"]
    values["dtheta_mujoco_abs_percent"] = abs(values["dtheta_mujoco_percent"])
    return values


def _halm_posa_bench(run):
    with open(run.path("halm_posa_bench.json"), encoding="utf-8") as handle:
        report = json.load(handle)
    values = {}
    for bench in report["benchmarks"]:
        if bench.get("aggregate_name") != "median":
            continue
        name = bench["run_name"].replace("BM_", "").replace("/", "_")
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[bench["time_unit"]]
        values[f"{name}_cpu_us"] = bench["cpu_time"] * scale
        values[f"{name}_wall_us"] = bench["real_time"] * scale
        for counter in ("pivots_per_solve", "warm_share", "lcps"):
            if counter in bench:
                values[f"{name}_{counter}"] = bench[counter]
    pushes = [name for name in values if name.startswith("DiskPushStep_")
              and name.endswith("_pivots_per_solve") and "_c0_" not in name]
    for push in ("symmetric", "asymmetric", "semicircular"):
        values[f"DiskPushStep_{push}_over_c0"] = (values[f"DiskPushStep_{push}_cpu_us"]
                                                  / values[f"DiskPushStep_{push}_c0_cpu_us"])
    values["DiskPushStep_pivots_min"] = min(values[name] for name in pushes)
    values["DiskPushStep_pivots_max"] = max(values[name] for name in pushes)
    shares = [values[name.replace("_pivots_per_solve", "_warm_share")] for name in pushes]
    values["DiskPushStep_warm_share_min"] = min(shares)
    values["DiskPushStep_warm_share_max"] = max(shares)
    values["siconos_over_lemke_cold"] = (values["PegInHoleLcp_siconos_cpu_us"]
                                         / values["PegInHoleLcp_lemke_cold_cpu_us"])
    return values


_DETERMINISTIC = relative(1e-6, 1e-12)
SOURCES = [
    Source(name="disk_pushing", argv=["{build}/disk_pushing_figures", "{out}"],
           extract=_disk_pushing, shown="build/release/disk_pushing_figures out",
           # Deterministic on one build; the precision scan's end (e at 1e-15 m, the c where
           # the local slope first leaves 1, the failures at c <= 2^-19) is rounding itself:
           # another instruction order may move it by a few halvings of c.
           tolerances={"*_least_e": relative(10), "*_least_e_log2c": relative(0, 4),
                       "*_departure_log2c": relative(0, 4), "*_departure": EXACT,
                       "*_departure_slope": relative(0, 1), "*_departure_e": relative(10),
                       "*_departure_status": EXACT,
                       "*_linear_down_to_log2c": relative(0, 4),
                       "*_precision_failures": relative(0, 4), "*_steps*": EXACT,
                       "*_runs": EXACT, "*_c0_steps": EXACT}),
    Source(name="disk_scene",
           argv=["{build}/quasidyn", "info", "--json", "examples/disk_pushing/scene.yaml"],
           extract=_disk_scene, tolerances={"*": EXACT},
           shown="build/release/quasidyn info --json examples/disk_pushing/scene.yaml"),
    Source(name="wall_scene",
           argv=["{build}/quasidyn", "info", "--json", "examples/disk_pushing/wall_push.yaml"],
           extract=_wall_scene, tolerances={"*": EXACT},
           shown="build/release/quasidyn info --json examples/disk_pushing/wall_push.yaml"),
    Source(name="peg_scene",
           argv=["{build}/quasidyn", "info", "--json", "examples/peg_in_hole/scene.yaml"],
           extract=_peg_scene, tolerances={"*": relative(1e-12)},
           shown="build/release/quasidyn info --json examples/peg_in_hole/scene.yaml"),
    Source(name="pinch_scene",
           argv=["{build}/quasidyn", "info", "--json", "examples/pinch/scene.yaml"],
           extract=_pinch_scene, tolerances={"*": EXACT},
           shown="build/release/quasidyn info --json examples/pinch/scene.yaml"),
    Source(name="peg_in_hole", argv=["{build}/peg_in_hole_figure", "{out}"], extract=_peg,
           shown="build/release/peg_in_hole_figure out",
           tolerances={"lcp_median_us": timing(3), "pivots_per_solve": relative(1e-3),
                       "steps*": EXACT}),
    Source(name="pinch_peers", argv=["{build}/pinch_peer_comparison", "{out}"],
           extract=_pinch_peers, shown="build/release/pinch_peer_comparison out",
           # MuJoCo and our formulations are deterministic on one build; MuJoCo's
           # compliant contact integrated over 20000 steps moves in its last digits with
           # another build: 1e-4 relative.
           tolerances={"*": relative(1e-4, 1e-9)}),
    Source(name="halm_posa_bench",
           argv=["{build}/halm_posa_bench", "--benchmark_repetitions=5",
                 "--benchmark_report_aggregates_only=true",
                 "--benchmark_out={out}/halm_posa_bench.json", "--benchmark_out_format=json"],
           extract=_halm_posa_bench, cost=LONG,
           shown="build/release/halm_posa_bench --benchmark_repetitions=5 "
                 "--benchmark_report_aggregates_only=true",
           # Times on the shared machine: a factor 3; the Siconos / Lemke ratio is of two
           # times of one run, a factor 3 too; pivots and warm-start shares are the LCPs'.
           tolerances={"*_us": timing(3), "siconos_over_lemke_cold": timing(3),
                       "*_pivots_*": relative(1e-3), "*_warm_share*": relative(1e-3),
                       "*_lcps": EXACT, "*_over_c0": timing(3)}),
]

DISK = 'build/release/disk_pushing_figures out'
DISK_SCENE = 'build/release/quasidyn info --json examples/disk_pushing/scene.yaml'


def _near(a, b, tolerance):
    return abs(a - b) <= tolerance


ROWS = [
    Row(
        id='HP1',
        claim='Fig. 1: an object pushed by a manipulator on a frictional support (a diagram of the notation)',
        ours='a diagram; its quantities are the `halm-posa` scene keys (A: `limit_surface`, B, c, '
             'μ: `friction`) of the {disk_scene.formulation} formulation',
        commands=[DISK_SCENE],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        kind=NotReproduced("a diagram of the notation, no result")),
    Row(
        id='HP2',
        claim='Fig. 2 left: under perfect velocity control a squeezing command "does not yield any feasible solutions"',
        ours="the disk squeezed against the wall at c = 0: step {disk_pushing.wall_c0_stop_step} "
             "(t = {disk_pushing.wall_c0_stop_t:.3f} s) has no solution (Lemke: "
             "{disk_pushing.wall_c0_stop_status}), the run stops after "
             "{disk_pushing.wall_c0_steps} of {disk_pushing.steps_requested} steps; every "
             "finite-c run (c = 2^(4 − n), n = 2 … {disk_pushing.wall_plotted_n_max} plotted) "
             "solves all {disk_pushing.wall_plotted_steps_min} steps; the test's squeeze at "
             "c = 0 is infeasible, at c = 0.01 solved with the fingers stopped",
        commands=[DISK],
        tests=['HalmPosaLcp.SqueezeHasNoSolutionUnderPerfectVelocityControlOnly'],
        kind=Substitute("the paper's configuration is a square held by four fingers; ours is "
                        "the disk pushed by two fingers into the wall (Fig. 4's jam) and the "
                        "test's two-finger squeeze"),
        holds=lambda v: v["disk_pushing.wall_c0_stop_status"] == "infeasible"
        and v["disk_pushing.wall_plotted_steps_min"] == v["disk_pushing.steps_requested"]),
    Row(
        id='HP3',
        claim='Fig. 2 right: a grazing command "yields ambiguous behavior"; Theorem 1: "For all (c, B, u), if c > 0 and B ≻ 0, SOL(M(cB), w(u)) ≠ ∅"',
        ours="grazing (the test): the disk between two fingers on its sides, both commanded "
             "up along it: at c = 0 the LCP is solved by the stationary disk (Lemke's answer) "
             "and by every squeeze that carries it up with the fingers; at c = 0.01 the squeezes "
             "are not solutions and the disk stays. Theorem 1: every step of the "
             "{disk_pushing.theorem_runs} runs of the four pushes at c = 2^(4 − n), n = 2 … 20 "
             "(c = 4 … 2⁻¹⁶) is solved ({disk_pushing.steps_requested} steps each), and 200 "
             "random configurations, commands and c ∈ [10⁻³, 1] in the test; below c = "
             "2^{disk_pushing.wall_linear_down_to_log2c} Lemke fails on the wall push (HP22: "
             "precision, not existence)",
        commands=[DISK],
        tests=['HalmPosaLcp.GrazingIsAmbiguousUnderPerfectVelocityControlOnly',
               'HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        kind=Substitute("the grazing case is a disk between two fingers (a test), not the "
                        "square of Fig. 2; Theorem 1's existence is checked on the disk pushes' "
                        "and random LCPs, not proved"),
        holds=lambda v: v["disk_pushing.theorem_runs"] == 4 * 19),
    Row(
        id='HP4',
        claim='§6.1: "a flat disk of radius 1 m", friction "1", H(F) = FᵀF (A = I3), B = I4 m s⁻¹ N⁻¹, "t ∈ (0, 10) s at 40 Hz"',
        ours="r = {disk_scene.radius_m:g} m, μ = {disk_scene.mu:g}, A = "
             "{disk_scene.limit_surface}, B = {disk_scene.B:g}·I{disk_scene.nq_a}, h = "
             "{disk_scene.h_s:g} s ({disk_scene.rate_hz:g} Hz), "
             "{disk_pushing.symmetric_c0_steps} steps to t = "
             "{disk_pushing.symmetric_c0_t_end:g} s; the initial poses and commands not stated; "
             "ours: the authors' MATLAB library's (slidingCircle.m)",
        commands=[DISK_SCENE, DISK],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        holds=lambda v: v["disk_scene.radius_m"] == 1 and v["disk_scene.mu"] == 1
        and v["disk_scene.mu_max"] == 1 and v["disk_scene.A_is_I3"] and v["disk_scene.B"] == 1
        and v["disk_scene.nq_a"] == 4 and _near(v["disk_scene.rate_hz"], 40, 1e-9)
        and _near(v["disk_pushing.symmetric_c0_t_end"], 10, 1e-9)),
    Row(
        id='HP5',
        claim='Fig. 3 top: "a symmetric push"',
        ours="at c = 0 the disk goes straight down from y = "
             "{disk_pushing.symmetric_c0_y_first:.3f} m (after the first step) to "
             "{disk_pushing.symmetric_c0_y:.3f} m, x = {disk_pushing.symmetric_c0_x:.1e} m, "
             "θ = {disk_pushing.symmetric_c0_theta:.3f} rad; at c = "
             "2^{disk_pushing.symmetric_n14_log2c} it ends at y = "
             "{disk_pushing.symmetric_n14_y:.3f} m",
        commands=[DISK],
        tests=['HalmPosaExamples.SymmetricPushCarriesTheDiskStraightDown'],
        # Straight: x stays within 1 mm of 0 while y falls by metres.
        holds=lambda v: abs(v["disk_pushing.symmetric_c0_x"]) < 1e-3
        and v["disk_pushing.symmetric_c0_y"] < v["disk_pushing.symmetric_c0_y_first"] - 1),
    Row(
        id='HP6',
        claim='Fig. 3 top: "an asymmetric push"',
        ours="it turns the disk clockwise: θ = {disk_pushing.asymmetric_c0_theta:.3f} rad at "
             "t = {disk_pushing.asymmetric_c0_t_end:g} s, c = 0 "
             "({disk_pushing.asymmetric_n14_theta:.3f} rad at c = "
             "2^{disk_pushing.asymmetric_n14_log2c})",
        commands=[DISK],
        tests=['HalmPosaExamples.AsymmetricPushTurnsTheDisk'],
        holds=lambda v: v["disk_pushing.asymmetric_c0_theta"] < -0.1),
    Row(
        id='HP7',
        claim='Fig. 3 top: "a semicircular push"',
        ours="at c = 0 it ends at ({disk_pushing.semicircular_c0_x:.2f}, "
             "{disk_pushing.semicircular_c0_y:.2f}) m turned by "
             "{disk_pushing.semicircular_c0_theta:.3f} rad (half a turn about the half "
             "circle's centre); at c = 2^{disk_pushing.semicircular_n14_log2c} (the highest gain "
             "plotted) at "
             "({disk_pushing.semicircular_n14_x:.2f}, {disk_pushing.semicircular_n14_y:.2f}) m, "
             "{disk_pushing.semicircular_n14_theta:.3f} rad",
        commands=[DISK],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        holds=lambda v: _near(v["disk_pushing.semicircular_c0_theta"], math.pi, 0.01)
        and math.hypot(v["disk_pushing.semicircular_n14_x"] - v["disk_pushing.semicircular_c0_x"],
                       v["disk_pushing.semicircular_n14_y"] - v["disk_pushing.semicircular_c0_y"])
        < 0.05),
    Row(
        id='HP8',
        claim='§6.1: at low gain on the semicircular command "the fingers tend to slide off of the sides of the object, leaving the object behind its intended goal"',
        ours="c = {disk_pushing.semicircular_n2_c:g}: ends at "
             "({disk_pushing.semicircular_n2_x:.2f}, {disk_pushing.semicircular_n2_y:.2f}) m, "
             "c = {disk_pushing.semicircular_n6_c:g}: ({disk_pushing.semicircular_n6_x:.2f}, "
             "{disk_pushing.semicircular_n6_y:.2f}) m, against "
             "({disk_pushing.semicircular_c0_x:.2f}, {disk_pushing.semicircular_c0_y:.2f}) m at "
             "c = 0",
        commands=[DISK],
        tests=['HalmPosaExamples.SemicircularPushFollowsAtHighGainAndFallsBehindAtLowGain'],
        # Behind: metres short of the c = 0 goal (the half circle's radius is 5 m).
        holds=lambda v: all(math.hypot(v[f"disk_pushing.semicircular_{n}_x"]
                                       - v["disk_pushing.semicircular_c0_x"],
                                       v[f"disk_pushing.semicircular_{n}_y"]
                                       - v["disk_pushing.semicircular_c0_y"]) > 1
                            for n in ("n2", "n6"))),
    Row(
        id='HP9',
        claim='Fig. 3 bottom: "For sufficiently high gains, we see a linear relationship between the log of the feedback scaling term and that of e_i"',
        ours="least-squares slopes of log₂ e on log₂ c over c = 2^{disk_pushing.fit_from_log2c} "
             "… 2^{disk_pushing.fit_to_log2c} "
             "({disk_pushing.symmetric_fit_points} points): {disk_pushing.symmetric_slope:.3f} "
             "(symmetric), {disk_pushing.asymmetric_slope:.3f} (asymmetric), "
             "{disk_pushing.semicircular_slope:.3f} (semicircular), the points within "
             "{disk_pushing.symmetric_fit_max_residual_log2:.3f}, "
             "{disk_pushing.asymmetric_fit_max_residual_log2:.3f}, "
             "{disk_pushing.semicircular_fit_max_residual_log2:.3f} of the line (log₂ units); "
             "e at c = 2⁻¹⁶: {disk_pushing.symmetric_e_n20:.1e}, "
             "{disk_pushing.asymmetric_e_n20:.1e}, {disk_pushing.semicircular_e_n20:.1e}; the "
             "c_i not stated; ours: 2^(4−n), n = 2 … 20 (the authors' library's)",
        commands=[DISK],
        tests=['HalmPosaExamples.FinalPoseConvergesLinearlyInTheFeedbackScale'],
        # Linear with slope 1 (e ∝ c, Theorem 4's first order) to within 0.15.
        holds=lambda v: all(abs(v[f"disk_pushing.{p}_slope"] - 1) <= 0.15
                            for p in ("symmetric", "asymmetric", "semicircular"))),
    Row(
        id='HP10',
        claim='Fig. 4 top: with "a wall located at y_W = 0", "the perfect velocity tracking program (black) terminates at the first time-step at which the squeezing occurs"',
        ours="c = 0: {disk_pushing.wall_c0_steps} of {disk_pushing.steps_requested} steps, step "
             "{disk_pushing.wall_c0_stop_step} (t = {disk_pushing.wall_c0_stop_t:.3f} s) "
             "{disk_pushing.wall_c0_stop_status}, the disk at ({disk_pushing.wall_c0_x:.3f}, "
             "{disk_pushing.wall_c0_y:.3f}) m on the wall; finger–wall friction not stated; "
             "ours: μ = {wall_scene.mu_max:g}",
        commands=[DISK, 'build/release/quasidyn info --json examples/disk_pushing/wall_push.yaml'],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        holds=lambda v: v["disk_pushing.wall_c0_stop_status"] == "infeasible"
        and v["disk_pushing.wall_c0_steps"] < v["disk_pushing.steps_requested"]),
    Row(
        id='HP11',
        claim='§6.1: "the finite gain formulation not only captures the collision, but also still exhibits convergent behavior thereafter"',
        ours="every run at c = 2^(4 − n), n = 2 … 20, solves all "
             "{disk_pushing.wall_plotted_steps_min} steps; the disk rolls along the wall to "
             "({disk_pushing.wall_n10_x:.3f}, {disk_pushing.wall_n10_y:.3f}) m, "
             "{disk_pushing.wall_n10_theta:.2f} rad at c = 2^{disk_pushing.wall_n10_log2c} and "
             "({disk_pushing.wall_n14_x:.3f}, {disk_pushing.wall_n14_y:.3f}) m, "
             "{disk_pushing.wall_n14_theta:.2f} rad at c = 2^{disk_pushing.wall_n14_log2c}. "
             "Convergence (no c = 0 run "
             "reaches 10 s, so e_n = ‖q_o(10 s; c_n) − q_o(10 s; c_(n−1))‖): slope of log₂ e on "
             "log₂ c over c = 2^{disk_pushing.fit_from_log2c} … 2^{disk_pushing.fit_to_log2c} "
             "{disk_pushing.wall_slope:.3f} (points within "
             "{disk_pushing.wall_fit_max_residual_log2:.2f} of the line, the farthest at c = "
             "2^{disk_pushing.wall_fit_worst_log2c}), "
             "e from {disk_pushing.wall_e_n10:.1e} to {disk_pushing.wall_e_n18:.1e} m and "
             "{disk_pushing.wall_e_n20:.1e} m at c = 2⁻¹⁶",
        commands=[DISK],
        tests=['HalmPosaExamples.WallPushStopsUnderPerfectVelocityControlAndRollsOnWithFeedback'],
        kind=Substitute("convergence measured between successive c (a Cauchy sequence), as the "
                        "perfect-velocity run, the paper's reference, stops at the squeeze"),
        # Slope 1 within 0.15, as HP9's pushes; every run complete.
        holds=lambda v: abs(v["disk_pushing.wall_slope"] - 1) <= 0.15
        and v["disk_pushing.wall_plotted_steps_min"] == v["disk_pushing.steps_requested"]
        and v["disk_pushing.wall_convergence_points"] == 18),
    Row(
        id='HP12',
        claim='§6.2: "The slot has a 1% tolerance on the width of the peg", B = I6, "c = 0.01", "time step to 50 ms"',
        ours="slot {peg_scene.slot_m:.2f} m for the {peg_scene.peg_width_m:g} m peg "
             "({peg_scene.tolerance_percent:.2f} %), B = {peg_scene.B:g}·I{peg_scene.nq_a}, "
             "c = {peg_scene.c:g}, h = {peg_scene.h_s:g} s; the peg's length "
             "({peg_scene.peg_length_m:g} m), k_p = {peg_scene.tracking_gain:g} s⁻¹ and the "
             "trajectory not stated; ours",
        commands=['build/release/quasidyn info --json examples/peg_in_hole/scene.yaml'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted'],
        holds=lambda v: _near(v["peg_scene.tolerance_percent"], 1, 1e-9)
        and v["peg_scene.B"] == 1 and v["peg_scene.nq_a"] == 6 and v["peg_scene.c"] == 0.01
        and v["peg_scene.h_s"] == 0.05),
    Row(
        id='HP13',
        claim='Fig. 4 bottom: "grasping", "jamming against the right side of the slot", "twisting into the slot", "final insertion"',
        ours="{peg_in_hole.steps} of {peg_in_hole.steps_requested} steps solved; the peg jams "
             "on the corner, is turned (by up to {peg_in_hole.theta_max:.3f} rad) and inserted "
             "(the phases: the test): final pose ({peg_in_hole.final_x:.3f} m, "
             "{peg_in_hole.final_y:.3f} m, {peg_in_hole.final_theta:.1e} rad)",
        commands=['build/release/peg_in_hole_figure out'],
        tests=['HalmPosaExamples.PegJamsOnTheCornerThenIsReorientedAndInserted', 'figures.halm_posa'],
        kind=Fitted("the plan's final x and θ (examples/peg_in_hole/make_schedule.py) were "
                    "chosen on a 3 × 3 grid among values that insert (docs/formulations.md): "
                    "the insertion is by design, as the paper's hand-designed trajectory's"),
        verdict="holds"),
    Row(
        id='HP14',
        claim='§6.2, speed: "PATH is able to compute solutions in 1.51 ms on average"',
        ours="our Lemke on the run's {halm_posa_bench.PegInHoleLcp_lemke_cold_lcps:.0f} LCPs "
             "from scratch: median {halm_posa_bench.PegInHoleLcp_lemke_cold_cpu_us:.1f} µs CPU "
             "per LCP ({halm_posa_bench.PegInHoleLcp_lemke_cold_wall_us:.1f} µs wall), "
             "{halm_posa_bench.PegInHoleLcp_lemke_cold_pivots_per_solve:.1f} pivots; as the "
             "rollout solves them (warm start): "
             "{halm_posa_bench.PegInHoleLcp_lemke_warm_cpu_us:.1f} µs CPU; Siconos' "
             "lexicographic Lemke on the same LCPs in the same run: "
             "{halm_posa_bench.PegInHoleLcp_siconos_cpu_us:.1f} µs CPU "
             "({halm_posa_bench.siconos_over_lemke_cold:.1f}× ours); PATH: another solver "
             "and machine, not a ratio",
        commands=['build/release/halm_posa_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.SolvedForEveryFeedbackScaleAndCommandLikeSiconos'],
        kind=Substitute("PATH is not available: our Lemke is timed beside Siconos' Lemke"),
        verdict="holds"),
    Row(
        id='HP15',
        claim='§4: "our formulation introduces no additional computational complexity, as our LCP is of equal dimension"; §7: "as computationally efficient as previous methods"',
        ours="M(cB) adds J_m cB J_mᵀ to the perfect-velocity M and keeps its size (the test). "
             "One step of the disk pushes, median CPU time, the scenes' c against c = 0 (B = 0, "
             "the program of Zhou et al. as a time step, §5; same solver, same run): "
             "{halm_posa_bench.DiskPushStep_symmetric_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_symmetric_c0_cpu_us:.2f} µs (symmetric, "
             "{halm_posa_bench.DiskPushStep_symmetric_over_c0:.2f}×), "
             "{halm_posa_bench.DiskPushStep_asymmetric_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_asymmetric_c0_cpu_us:.2f} µs (asymmetric, "
             "{halm_posa_bench.DiskPushStep_asymmetric_over_c0:.2f}×), "
             "{halm_posa_bench.DiskPushStep_semicircular_cpu_us:.2f} against "
             "{halm_posa_bench.DiskPushStep_semicircular_c0_cpu_us:.2f} µs (semicircular, "
             "{halm_posa_bench.DiskPushStep_semicircular_over_c0:.2f}×; pivots per solve "
             "{halm_posa_bench.DiskPushStep_semicircular_pivots_per_solve:.2f} against "
             "{halm_posa_bench.DiskPushStep_semicircular_c0_pivots_per_solve:.2f}); the wall "
             "push {halm_posa_bench.DiskPushStep_wall_cpu_us:.2f} µs (no c = 0 run: it stops at "
             "the squeeze); the warm start solves "
             "{halm_posa_bench.DiskPushStep_warm_share_min:.0%} to "
             "{halm_posa_bench.DiskPushStep_warm_share_max:.0%} of the steps",
        commands=['build/release/halm_posa_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true'],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        # As efficient: each push's step within 1.5× of the c = 0 program's.
        holds=lambda v: all(v[f"halm_posa_bench.DiskPushStep_{p}_over_c0"] <= 1.5
                            for p in ("symmetric", "asymmetric", "semicircular"))),
    Row(
        id='HP16',
        claim='§6.3: "a square object of mass .01 kg and side length 0.4 m in contact with four manipulators, each consisting of two 1 m long links with a circular contact at the end"',
        ours="square {pinch_scene.side_m:g} m, {pinch_scene.mass_kg:g} kg; "
             "{pinch_scene.arms} arms of {pinch_scene.links_per_arm} links "
             "({pinch_scene.upper_link_m:g} m, {pinch_scene.fore_link_m:g} m to the tip's "
             "centre); the tip radius ({pinch_scene.tip_radius_m:g} m), gains (B = "
             "diag({pinch_scene.B}), c = {pinch_scene.c:g}) and commands not stated; ours",
        commands=['build/release/quasidyn info --json examples/pinch/scene.yaml'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes'],
        holds=lambda v: v["pinch_scene.mass_kg"] == 0.01 and v["pinch_scene.side_m"] == 0.4
        and v["pinch_scene.arms"] == 4 and v["pinch_scene.links_per_arm"] == 2
        and v["pinch_scene.upper_link_m"] == 1 and v["pinch_scene.fore_link_m"] == 1),
    Row(
        id='HP17',
        claim='Fig. 5: "The dynamic and quasi-static simulations exhibit qualitatively similar behavior": the object moves "in the +y_W direction and spin[s]"',
        ours="against MuJoCo's compliant contact (velocity actuators kv = 1/(cB), h = "
             "{pinch_peers.mujoco_h_s:g} s, contact time constant "
             "{pinch_peers.mujoco_time_constant_s:g} s): final (x, y, θ) at "
             "{pinch_peers.MuJoCo_t:g} s ({pinch_peers.MuJoCo_x:.3f} m, "
             "{pinch_peers.MuJoCo_y:.3f} m, {pinch_peers.MuJoCo_theta:.2f} rad) against "
             "halm-posa's ({pinch_peers.halm_posa_x:.3f} m, {pinch_peers.halm_posa_y:.3f} m, "
             "{pinch_peers.halm_posa_theta:.2f} rad): +y and counter-clockwise in both, θ "
             "within {pinch_peers.dtheta_mujoco_abs_percent:.1f} %; stewart-trinkle "
             "({pinch_peers.stewart_trinkle_x:.3f}, {pinch_peers.stewart_trinkle_y:.3f}, "
             "{pinch_peers.stewart_trinkle_theta:.2f}), the QP ({pinch_peers.qp_x:.3f}, "
             "{pinch_peers.qp_y:.3f}, {pinch_peers.qp_theta:.2f})",
        commands=['build/release/pinch_peer_comparison out', 'build/release/pinch_figure out'],
        tests=['HalmPosaExamples.PinchMovesAndTurnsTheSquareAsTheQuasiDynamicModelDoes', 'figures.halm_posa'],
        kind=Substitute("MuJoCo's compliant contact stands in for the paper's Drake simulation"),
        # Similar: both move in +y and turn the same way, θ within 10 % (figures.halm_posa).
        holds=lambda v: v["pinch_peers.MuJoCo_y"] > 0 and v["pinch_peers.halm_posa_y"] > 0
        and v["pinch_peers.MuJoCo_theta"] * v["pinch_peers.halm_posa_theta"] > 0
        and abs(v["pinch_peers.dtheta_mujoco_percent"]) < 10),
    Row(
        id='HP18',
        claim='Fig. 5 right: "The object moves slightly more in the y_w direction in the dynamic trajectory than it does under quasi-statics"',
        ours="MuJoCo's y {pinch_peers.MuJoCo_y:.4f} m against halm-posa's "
             "{pinch_peers.halm_posa_y:.4f} m (+{pinch_peers.dy_mujoco_m:.4f} m, "
             "{pinch_peers.dy_mujoco_percent:.0f} %)",
        commands=['build/release/pinch_peer_comparison out'],
        tests=['figures.halm_posa'],
        kind=Substitute("MuJoCo's compliant contact stands in for the paper's Drake simulation"),
        # "Slightly more": more, by less than half of halm-posa's y (figures.halm_posa).
        holds=lambda v: 0 < v["pinch_peers.dy_mujoco_m"] < 0.5 * v["pinch_peers.halm_posa_y"]),
    Row(
        id='HP19',
        claim='§4, Theorem 2: "Let B ≻ 0. There exists r(B) ∈ R such that for all c > 0, for all z ∈ SOL(M(cB), w(u)), c‖F_m‖₂ ≤ r(B)‖u‖₂" (the proof: r(B) = 1/λ_min(B))',
        ours="c‖F_m‖ λ_min(B)/‖u‖, with c F_m = B⁻¹(Δq_m − h u)/h from each step's "
             "displacements, at most {disk_pushing.theorem2_ratio_max!r} over every step of "
             "the {disk_pushing.theorem_runs} runs of the four disk pushes at c = 2^(4 − n), "
             "n = 2 … 20 (bound 1); the bound is attained where the squeeze stops the fingers "
             "(Δq_m = 0); the test checks it on 200 random LCPs by the wall",
        commands=[DISK],
        tests=['figures.halm_posa', 'HalmPosaLcp.Theorem2BoundsTheFingersForceByTheCommandOnRandomLcps'],
        kind=Substitute("the paper proves the bound; ours checks it on every solved step of the "
                        "disk pushes and on random LCPs"),
        # ≤ 1 up to the rounding of positions of ~10 m.
        holds=lambda v: v["disk_pushing.theorem2_ratio_max"] <= 1 + 1e-9),
    Row(
        id='HP20',
        claim='§4, Theorem 3: "For all sequences (z_i) and (c_i) such that c_i → 0 and z_i ∈ SOL(M(c_i B), w(u)), c_i λ_i → F_0" (the admissible internal forces)',
        ours="the wall push (a squeeze): the largest c‖F_o‖ = c‖A⁻¹Δq_o‖/h over its steps "
             "falls from {disk_pushing.wall_c_Fo_n10:.2e} (c = 2^{disk_pushing.fit_from_log2c}) to "
             "{disk_pushing.wall_c_Fo_n18:.2e} (c = 2^{disk_pushing.fit_to_log2c}), slope "
             "{disk_pushing.wall_c_Fo_slope:.3f} on log c, while the largest c‖F_m‖ stays "
             "{disk_pushing.wall_c_Fm_n10:.3f} and {disk_pushing.wall_c_Fm_n18:.3f} N (the same c): "
             "the part "
             "of cλ that does not vanish exerts no net force on the disk, an internal force "
             "(the symmetric push, no squeeze: c‖F_m‖ {disk_pushing.symmetric_c_Fm_n10:.1e} to "
             "{disk_pushing.symmetric_c_Fm_n18:.1e} N); the test: the same along c = 10⁻¹ … 10⁻⁷ "
             "for 20 random squeezing commands",
        commands=[DISK],
        tests=['figures.halm_posa', 'HalmPosaLcp.Theorem3ScaledForcesTendToAnInternalForceInASqueeze'],
        kind=Substitute("the paper proves the limit; ours measures c‖J_oᵀλ‖ → 0 (the proof's "
                        "step to F_0) along the wall push's sequence of c"),
        # c‖F_o‖ vanishes like c (slope within 0.15 of 1) while c‖F_m‖ does not.
        holds=lambda v: abs(v["disk_pushing.wall_c_Fo_slope"] - 1) <= 0.15
        and v["disk_pushing.wall_c_Fm_n18"] >= 0.5 * v["disk_pushing.wall_c_Fm_n10"]),
    Row(
        id='HP21',
        claim='§5: "We additionally note that setting B = 0 gives a time-stepping reformulation of the program in [31]" (Zhou et al., perfect velocity control)',
        ours="c B = 0 (our c = 0 runs): the fingers follow the command exactly, ‖Δq_m − h u‖ at "
             "most {disk_pushing.c0_tracking_error_m:.1e} m over every step of the four pushes, "
             "while the disk is carried (symmetric: y from "
             "{disk_pushing.symmetric_c0_y_first:.3f} m after the first step to "
             "{disk_pushing.symmetric_c0_y:.3f} m); "
             "the LCP's M at c B = 0 is eq. (13)'s (the test builds M from J W Jᵀ, W = "
             "blockdiag(A, cB))",
        commands=[DISK],
        tests=['HalmPosaLcp.MatrixAndVectorAreEquations37And38'],
        kind=Substitute("Zhou et al.'s program itself is not run; ours checks the perfect "
                        "velocity control it assumes"),
        # Exact up to the rounding of positions of ~10 m (1e-15 relative).
        holds=lambda v: v["disk_pushing.c0_tracking_error_m"] <= 1e-12),
    Row(
        id='HP22',
        claim='§7: "Some numerical precision may however be lost for small c due to round-off error or poor conditioning of the associated LCPs. In future work, we will conduct a quantitative analysis of this behavior."',
        ours="e_n continued to c = 2^{disk_pushing.symmetric_precision_last_log2c} "
             "(HP9's and HP11's measures): the local slope log₂(e_(n−1)/e_n) stays within 0.1 "
             "of 1 down to c = 2^{disk_pushing.symmetric_linear_down_to_log2c} (symmetric; at "
             "2^{disk_pushing.symmetric_departure_log2c} {disk_pushing.symmetric_departure}: "
             "{disk_pushing.symmetric_departure_slope:.2f}, e = "
             "{disk_pushing.symmetric_departure_e:.1e} m, "
             "the run {disk_pushing.symmetric_departure_status}), "
             "2^{disk_pushing.asymmetric_linear_down_to_log2c} (asymmetric), "
             "2^{disk_pushing.semicircular_linear_down_to_log2c} (semicircular), e then "
             "reaching its floor of {disk_pushing.symmetric_least_e:.0e}, "
             "{disk_pushing.asymmetric_least_e:.0e}, {disk_pushing.semicircular_least_e:.0e} m "
             "(the rounding of positions of metres) at c = "
             "2^{disk_pushing.symmetric_least_e_log2c}, "
             "2^{disk_pushing.asymmetric_least_e_log2c}, "
             "2^{disk_pushing.semicircular_least_e_log2c}; the wall push (a jam, M(cB) → the "
             "unsolvable M(0)) only down to 2^{disk_pushing.wall_linear_down_to_log2c}: at "
             "2^{disk_pushing.wall_departure_log2c} {disk_pushing.wall_departure}, and "
             "{disk_pushing.wall_precision_failures} of {disk_pushing.wall_precision_runs} runs "
             "from 2⁻¹⁷ to 2^{disk_pushing.wall_precision_last_log2c} fail",
        commands=[DISK],
        tests=['figures.halm_posa'],
        holds=lambda v: all(v[f"disk_pushing.{p}_departure_log2c"] != 0 for p in PUSHES)),
]

PAPER = Paper(key='Halm & Posa 2018', title='Halm & Posa 2018, "A Quasi-static Model and Simulation Approach for Pushing, Grasping, and Jamming" (WAFR)', intro='Scenes: `examples/disk_pushing`, `examples/peg_in_hole`, `examples/pinch`; docs/formulations.md,\n"halm-posa", "Reproducing the paper\'s §6".', rows=ROWS)
