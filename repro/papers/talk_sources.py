"""The sources of talk.py's rows: the commands that print the paper's figures and the
functions that name their values (issue 67; repro/framework.py)."""
import csv
import glob
import json
import math
import os
import re
import statistics

from repro.framework import LONG, EXACT, Source, relative, timing
from repro import benchmark_json, csv_table

from repro.papers import talk_half_turn as half_turn

# Differences from a closed form or from central differences are rounding (1e-17 … 1e-9 here):
# a fresh run must stay at that level, not repeat its digits. 1e-9 absolute is far below every
# quantity they are compared with (centimetres, slopes of order 1).
ROUNDING = relative(0.0, 1e-9)


# --- toy_1d: examples/toy_1d/plot_toy_1d.py (the 1D toy, exact and log-barrier steps) ---------

def _toy_1d(run):
    head = re.search(r"h = (\S+) s, K = (\S+) N/m, m = (\S+) kg, s = (\S+), alpha = (\S+), "
                     r"kink at u = (\S+) m", run.stdout)
    if not head:
        raise ValueError("plot_toy_1d.py printed no parameter line")
    h, K, m, s, alpha, kink = (float(x) for x in head.groups())
    rows = csv_table.read_rows(run.path("toy_1d.csv"))

    def largest(curve_prefix, quantity):
        found = [r["max_abs_difference"] for r in rows
                 if r["curve"].startswith(curve_prefix) and r["quantity"] == quantity]
        if not found:
            raise ValueError(f"toy_1d.csv has no {curve_prefix!r} {quantity!r}")
        return max(found)

    widths = {}
    for r in rows:
        match = re.fullmatch(r"log barrier kappa = (\S+)", r["curve"])
        if match and r["quantity"] == "q+ [m]":
            widths[float(match.group(1))] = float(r["note"].split("=")[1].split()[0])
    return {
        "h_s": h, "K_N_per_m": K, "m_u_kg": m, "s": s, "alpha": alpha, "kink_u_m": kink,
        "exact_q_difference_m": largest("exact", "q+ [m]"),
        "exact_slope_difference": largest("exact", "dq+/du [-]"),
        "barrier_q_difference_m": largest("log barrier", "q+ [m]"),
        "barrier_slope_difference": largest("log barrier", "dq+/du [-]"),
        "barrier_kappas": len(widths),
        "barrier_width_smallest_kappa_m": widths[min(widths)],
        "barrier_width_largest_kappa_m": widths[max(widths)],
        "kappa_smallest": min(widths), "kappa_largest": max(widths),
    }


# --- talk_slides: scripts/talk_slides.py (one step or a few of each slide's system) ------------

def _talk_slides(run):
    return json.loads(run.read("talk_slides.json"))


# --- talk_turn: scripts/talk_turn.sh (the 30° plan and its open loops) -------------------------

def _final_q(path):
    with open(path, encoding="utf-8") as handle:
        trajectory = json.load(handle)
    return trajectory["steps"][-1]["q"], trajectory["q0"]


def _talk_turn(run):
    text = run.read("optimize.txt")
    iterations = re.search(r"iterations\s+(\d+) \((\d+) accepted\)", text)
    cost = re.search(r"cost\s+(\S+) -> (\S+)", text)
    error = re.search(r"final object err\s+(\S+)\s+(\S+)\s+(\S+)", text)
    plan_q, plan_q0 = _final_q(run.path("plan.json"))
    values = {
        "iterations": int(iterations.group(1)), "accepted": int(iterations.group(2)),
        "initial_cost": float(cost.group(1)), "best_cost": float(cost.group(2)),
        "goal_error_x_m": float(error.group(1)), "goal_error_y_m": float(error.group(2)),
        "goal_error_theta_rad": float(error.group(3)),
        "plan_turn_rad": plan_q[2] - plan_q0[2],
        "goal_turn_rad": plan_q[2] - plan_q0[2] - float(error.group(3)),
    }
    for run_name in ("open_qp_h2", "open_anitescu_h2", "offset_open", "offset_closed"):
        summary = run.read(f"{run_name}.txt")
        values[f"{run_name}_position_error_m"] = float(
            re.search(r"position error\s+(\S+) m", summary).group(1))
        values[f"{run_name}_angle_error_rad"] = float(
            re.search(r"angle error\s+(\S+) rad", summary).group(1))
        q, q0 = _final_q(run.path(f"{run_name}.json"))
        values[f"{run_name}_turn_rad"] = q[2] - q0[2]
        # the control study's error: position + 0.05 m × angle
        values[f"{run_name}_error_mm"] = 1e3 * (values[f"{run_name}_position_error_m"]
                                                + 0.05 * values[f"{run_name}_angle_error_rad"])
    return values


# --- rrt_study, rrt_ablation: build/release/rrt_study_bench --------------------------------------

STUDY_EXAMPLES = ("planar_hand", "planar_pushing_top_down", "planar_pushing", "box_turning")
ABLATION_VARIANTS = ("metric+grasp", "euclidean+grasp", "metric", "euclidean")
MINUTE = 60.0  # "RRT takes less than a minute" [s]


def _rrt_study(run):
    rows = csv_table.read_rows(run.path("rrt_study/study.csv"))
    values = {}
    for example in STUDY_EXAMPLES:
        mine = [r for r in rows if r["example"] == example]
        if not mine:
            raise ValueError(f"study.csv has no {example}")
        found = [r for r in mine if r["found"] == 1.0]
        values[f"{example}_seeds"] = len(mine)
        values[f"{example}_found"] = len(found)
        values[f"{example}_found_within_minute"] = sum(1 for r in found
                                                       if r["wall_seconds"] < MINUTE)
        values[f"{example}_median_wall_s"] = statistics.median(r["wall_seconds"] for r in mine)
        values[f"{example}_max_wall_s"] = max(r["wall_seconds"] for r in mine)
        values[f"{example}_median_cpu_s"] = statistics.median(r["cpu_seconds"] for r in mine)
        values[f"{example}_median_nodes"] = statistics.median(int(r["nodes"]) for r in mine)
        values[f"{example}_max_nodes"] = max(int(r["nodes"]) for r in mine)
        values[f"{example}_max_penetration_mm"] = 1e3 * max(r["max_penetration"] for r in mine)
    return values


def _tree(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _rrt_ablation(run):
    rows = csv_table.read_rows(run.path("ablation/ablation.csv"))
    values = {}
    for example in STUDY_EXAMPLES:
        for variant in ABLATION_VARIANTS:
            mine = [r for r in rows if r["example"] == example and r["variant"] == variant]
            if not mine:
                raise ValueError(f"ablation.csv has no {example} {variant}")
            key = f"{example}_{variant.replace('+', '_')}"
            values[f"{key}_found"] = sum(1 for r in mine if r["found"] == 1.0)
            values[f"{key}_seeds"] = len(mine)
        values[f"{example}_metric_grasp_median_nodes"] = statistics.median(
            int(r["nodes"]) for r in rows
            if r["example"] == example and r["variant"] == "metric+grasp")
    # The tree of seed 0 of the simplest system, the top-down pusher and box (q = x, y, θ of the
    # box), with the metric and contact sampling and without either.
    for variant in ("metric+grasp", "euclidean"):
        tree = _tree(run.path(f"ablation/tree_planar_pushing_top_down_{variant}.csv"))
        key = f"tree_{variant.replace('+', '_')}"
        thetas = [float(n["q2"]) for n in tree]
        xs = [float(n["q0"]) for n in tree]
        values[f"{key}_nodes"] = len(tree)
        values[f"{key}_regrasps"] = sum(1 for n in tree if n["edge"] == "regrasp")
        values[f"{key}_theta_span_rad"] = max(thetas) - min(thetas)
        values[f"{key}_x_span_m"] = max(xs) - min(xs)
        values[f"{key}_best_goal_distance"] = min(float(n["goal_distance"]) for n in tree)
        values[f"{key}_found"] = int(csv_table.at(rows, example="planar_pushing_top_down",
                                                  variant=variant, seed=0.0)["found"])
    return values


# --- plan_hand_3d, plan_bimanual: build/release/plan_3d_bench ---------------------------------

def _plan_3d(run):
    written = glob.glob(os.path.join(run.out, "*.json"))
    if len(written) != 1:
        raise ValueError(f"plan_3d_bench wrote {len(written)} JSON files, expected one")
    with open(written[0], encoding="utf-8") as handle:
        record = json.load(handle)
    runs = record["runs"]
    found = [r for r in runs if r["found"]]
    return {
        "seeds": len(runs),
        "found": len(found),
        "found_within_minute": sum(1 for r in found if r["wall_seconds"] < MINUTE),
        "found_median_wall_s": statistics.median(r["wall_seconds"] for r in found)
        if found else float("inf"),
        "found_worst_wall_s": max((r["wall_seconds"] for r in found), default=float("inf")),
        "found_median_cpu_s": statistics.median(r["cpu_seconds"] for r in found)
        if found else float("inf"),
        "median_nodes": statistics.median(r["nodes"] for r in runs),
        "found_median_nodes": statistics.median(r["nodes"] for r in found) if found else 0,
        "max_nodes_limit": record["max_nodes"],
        "max_penetration_found_mm": 1e3 * max((r["max_penetration"] for r in found),
                                              default=0.0),
    }


# --- control_study: build/release/control_study_bench --tasks planar_hand ----------------------

def _control_study(run):
    rows = csv_table.read_rows(run.path("control_study/plants_planar_hand.csv"))
    values = {"plants": len(rows)}
    for loop in ("open", "stabilizer", "mpc"):
        errors = [1e3 * r[f"{loop}_error_m"] for r in rows]
        values[f"{loop}_mean_mm"] = statistics.fmean(errors)
        values[f"{loop}_median_mm"] = statistics.median(errors)
    for loop in ("stabilizer", "mpc"):
        values[f"{loop}_better"] = sum(1 for r in rows if r[f"{loop}_error_m"] < r["open_error_m"])
    offsets = [math.hypot(r["offset_x"], r["offset_y"]) for r in rows]
    values["offset_min_mm"] = 1e3 * min(offsets)
    values["offset_max_mm"] = 1e3 * max(offsets)
    values["friction_scale_min"] = min(r["friction_scale"] for r in rows)
    values["friction_scale_max"] = max(r["friction_scale"] for r in rows)
    values["substeps"] = int(max(r["substeps"] for r in rows))
    return values


# --- smoothing_cost: build/release/gradient_cost_bench (Google Benchmark, JSON) ----------------

def _benchmark_medians(run):
    """{benchmark name without _median: (cpu time [µs], counters)} of the medians."""
    return {name: (benchmark_json.time_in(bench, "cpu_time", "us"), bench)
            for name, bench in benchmark_json.medians(run.stdout).items()}


def _smoothing_cost(run):
    medians = _benchmark_medians(run)
    values = {}
    for key, name in (("barrier_step_us", "BM_Calc/planar_hand_log_barrier"),
                      ("barrier_B_us", "BM_CalcDiff/planar_hand_log_barrier_B_only"),
                      ("exact_step_us", "BM_Calc/planar_hand_qp"),
                      ("exact_B_us", "BM_CalcDiff/planar_hand_qp_B_only")):
        values[key] = medians[name][0]
    values["barrier_active_rows"] = int(medians["BM_CalcDiff/planar_hand_log_barrier_B_only"][1]
                                        ["active_rows"])
    values["barrier_total_us"] = values["barrier_step_us"] + values["barrier_B_us"]
    values["sample_total_us"] = values["exact_step_us"] + values["exact_B_us"]
    values["break_even_samples"] = values["barrier_total_us"] / values["sample_total_us"]
    return values


COUNTS = EXACT  # seeds found, nodes, steps: functions of the seed, equal run to run
PLAN_3D_SEEDS = 10  # plan_3d_bench seeds per 3D scene: the hand takes about 3 min, the box 1 min (shared machine)

SOURCES = [
    Source(name="toy_1d",
           argv=["{python}", "{root}/examples/toy_1d/plot_toy_1d.py", "{out}/toy_1d.png",
                 "--csv", "{out}/toy_1d.csv"],
           extract=_toy_1d,
           tolerances={"*_difference*": ROUNDING},
           shown="PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py "
                 "out/toy_1d.png --csv out/toy_1d.csv"),
    Source(name="talk_slides",
           argv=["{python}", "{root}/scripts/talk_slides.py", "--json", "{out}/talk_slides.json"],
           extract=_talk_slides,
           tolerances={"*difference*": ROUNDING, "*residual*": ROUNDING,
                       "*minus_u*": ROUNDING, "*minus_closed_form*": ROUNDING,
                       "*first_step_error*": ROUNDING,
                       "painleve_lowest_phi_m": ROUNDING,
                       # Newton's and the interior point's iteration counts may move by one or
                       # two with the instruction order; the steps and contacts may not.
                       "*iterations": relative(0.0, 2.0),
                       "*_steps*": COUNTS, "*contacts": COUNTS},
           shown="PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py "
                 "--json out/talk_slides.json"),
    Source(name="talk_turn",
           argv=["bash", "{root}/scripts/talk_turn.sh", "{build}", "{out}"],
           extract=_talk_turn,
           tolerances={"iterations": COUNTS, "accepted": COUNTS},
           # quasidyn's summaries print 6 significant digits: one unit of the last is 2e-5 of
           # the smallest leading digit
           default_tolerance=relative(2e-5, 1e-9),
           shown="bash scripts/talk_turn.sh build/release out/talk_turn"),
    Source(name="rrt_study", cost=LONG,
           argv=["{build}/rrt_study_bench", "--seeds", "20", "--out", "{out}/rrt_study",
                 "--quiet"],
           extract=_rrt_study,
           tolerances={"*_s": timing(3),
                       # a seed found near the minute may cross it under load
                       "*_within_minute": relative(0.0, 1.0),
                       "*_penetration_mm": relative(1e-6, 1e-9)},
           default_tolerance=COUNTS,
           shown="build/release/rrt_study_bench --seeds 20 --out out/rrt_study"),
    Source(name="rrt_ablation", cost=LONG,
           argv=["{build}/rrt_study_bench", "--ablation", "--seeds", "20", "--out",
                 "{out}/ablation", "--quiet"],
           extract=_rrt_ablation,
           tolerances={"*_span_*": relative(1e-6, 1e-9), "*_goal_distance": relative(1e-6, 1e-9)},
           default_tolerance=COUNTS,
           shown="build/release/rrt_study_bench --ablation --seeds 20 --out out/rrt_study"),
    Source(name="plan_hand_3d", cost=LONG,
           argv=["{build}/plan_3d_bench", "examples/hand_ball_3d/scene.yaml", "--seeds",
                 str(PLAN_3D_SEEDS), "--max-nodes", "10000", "--time-limit", "1000", "--json",
                 "{out}/hand.json", "--quiet"],
           extract=_plan_3d,
           tolerances={"*_s": timing(3), "found_within_minute": relative(0.0, 1.0),
                       "*_mm": relative(1e-6, 1e-9)},
           default_tolerance=COUNTS, timeout_s=1500.0,
           shown=f"build/release/plan_3d_bench examples/hand_ball_3d/scene.yaml --seeds "
                 f"{PLAN_3D_SEEDS} --max-nodes 10000 --time-limit 1000 --json out/hand.json"),
    Source(name="plan_bimanual", cost=LONG,
           argv=["{build}/plan_3d_bench", "examples/bimanual_box/scene.yaml", "--seeds",
                 str(PLAN_3D_SEEDS), "--max-nodes", "10000", "--time-limit", "1000", "--json",
                 "{out}/bimanual.json", "--quiet"],
           extract=_plan_3d,
           tolerances={"*_s": timing(3), "found_within_minute": relative(0.0, 1.0),
                       "*_mm": relative(1e-6, 1e-9)},
           default_tolerance=COUNTS, timeout_s=1500.0,
           shown=f"build/release/plan_3d_bench examples/bimanual_box/scene.yaml --seeds "
                 f"{PLAN_3D_SEEDS} --max-nodes 10000 --time-limit 1000 --json out/bimanual.json"),
    Source(name="control_study",  # 20 plants × 3 loops of 10 steps: under a second
           argv=["{build}/control_study_bench", "--tasks", "planar_hand", "--out",
                 "{out}/control_study", "--quiet"],
           extract=_control_study,
           tolerances={"*_better": COUNTS, "plants": COUNTS, "substeps": COUNTS},
           default_tolerance=relative(1e-6, 1e-9),
           shown="build/release/control_study_bench --tasks planar_hand --out out/control_study"),
    Source(name="smoothing_cost", cost=LONG,
           argv=["{build}/gradient_cost_bench",
                 "--benchmark_filter=^BM_(Calc|CalcDiff)/planar_hand_(qp|log_barrier)(_B_only)?$",
                 "--benchmark_format=json", "--benchmark_repetitions=5",
                 "--benchmark_report_aggregates_only=true"],
           extract=_smoothing_cost,
           tolerances={"barrier_active_rows": COUNTS},
           default_tolerance=timing(3),
           shown="build/release/gradient_cost_bench "
                 "--benchmark_filter='^BM_(Calc|CalcDiff)/planar_hand_(qp|log_barrier)(_B_only)?$' "
                 "--benchmark_format=json --benchmark_repetitions=5 "
                 "--benchmark_report_aggregates_only=true"),
] + half_turn.SOURCES
