"""The sources of halm_posa.py's rows: the commands that print the paper's figures and the
functions that name their values (issue 67; repro/framework.py)."""
import json
import math
import re

from repro.framework import LONG, EXACT, Source, relative, timing

from repro import benchmark_json, csv_table

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


def _disk_scene(run):
    info = json.loads(run.stdout)
    scene = run.scene("examples/disk_pushing/scene.yaml")
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
    scene = run.scene("examples/peg_in_hole/scene.yaml")
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
    scene = run.scene("examples/pinch/scene.yaml")
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
    values = {}
    for run_name, bench in benchmark_json.medians(run.read("halm_posa_bench.json")).items():
        name = run_name.replace("BM_", "").replace("/", "_")
        values[f"{name}_cpu_us"] = benchmark_json.time_in(bench, "cpu_time", "us")
        values[f"{name}_wall_us"] = benchmark_json.time_in(bench, "real_time", "us")
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
