"""The talk's 180° turn of the planar hand, "powering through local minima" (row T9; issue 67):
RRT through contact, then the trajectory optimiser refines the planner's path.

The source runs scripts/planar_hand_half_turn.sh: the planner as configured (seed 0, its
overlapping extensions repaired with substeps) and the planner without substeps
(`--max-substeps 1`, each path step one step of h as the optimiser steps) for seeds 0–7, each
path refined by `quasidyn optimize --initial`. The values are read from the plan and refined
files (docs/plan-format.md): the goal error from the refined trajectory's last q, the deepest
overlap from `refinement.max_penetration` (the optimiser's PenetrationMeter, at every step's end
and along every large motion), the tolerances from the plan's own settings."""
import json
import math
import re
import statistics

from repro.framework import EXACT, LONG, Row, Source

SEEDS = tuple(range(8))


def _wrap(angle):
    return math.remainder(angle, 2.0 * math.pi)


def _run(context, plan_name, refined_name):
    """The figures of one plan and its refinement (lengths in mm, angles in rad)."""
    plan_file = json.loads(context.read(plan_name))
    refined_file = json.loads(context.read(refined_name))
    plan, refinement = plan_file["plan"], refined_file["plan"]["refinement"]
    settings = plan["settings"]
    goal = plan["goal"]
    weights = settings["goal_weights"]
    end = refined_file["steps"][-1]["q"]
    error = [end[0] - goal[0], end[1] - goal[1], _wrap(end[2] - goal[2])]
    # The planner's goal distance D (docs/planning.md) of the refined end.
    distance = math.hypot(weights["position"] * math.hypot(error[0], error[1]),
                          weights["rotation"] * abs(error[2]))
    overlap = refinement["max_penetration"]
    # The candidates the optimiser rejected for overlap: "the rollout passes X mm into a shape".
    table = context.read(refined_name[:-len(".json")] + ".txt")
    too_deep = [float(depth)
                for depth in re.findall(r"the rollout passes ([0-9.eE+-]+) mm into", table)]
    return {
        "found": plan["status"] == "found",
        "nodes": len(plan["tree"]["goal_distance"]),
        "steps": len(plan["path"]["step_edges"]),
        "regrasps": sum(edge == "regrasp" for edge in plan["path"]["step_edges"]),
        "substepped_extensions": plan["statistics"]["substepped_extensions"],
        "planner_distance": plan["best_distance"],
        "planner_overlap_mm": 1e3 * plan["path"]["max_penetration"],
        "guess_overlap_mm": 1e3 * refinement["initial_penetration"],
        "cost_before": refinement["initial_cost"],
        "cost_after": refinement["cost"],
        "iterations": refinement["iterations"],
        "accepted": refinement["accepted"],
        "error_x_mm": 1e3 * error[0],
        "error_y_mm": 1e3 * error[1],
        "error_theta_rad": error[2],
        "distance": distance,
        "overlap_mm": 1e3 * overlap,
        "rejected_too_deep": len(too_deep),
        "rejected_shallowest_mm": min(too_deep) if too_deep else 0.0,
        "rejected_deepest_mm": max(too_deep) if too_deep else 0.0,
        "seed": settings["seed"],
        "position_weight": weights["position"],
        "rotation_weight": weights["rotation"],
        # The ball rests on the ground (y <= 0) at q0: its centre height is its radius.
        "ball_radius_mm": 1e3 * plan_file["q0"][1],
        "goal_tolerance": settings["goal_tolerance"],
        "penetration_tolerance_mm": 1e3 * settings["penetration_tolerance"],
        "reached": distance <= settings["goal_tolerance"]
                   and overlap <= settings["penetration_tolerance"],
    }


def _words(run):
    """The verdicts of a run as the row's words."""
    planner_within = run["planner_distance"] <= run["goal_tolerance"]
    return {
        "verdict": "reached" if run["reached"] else "not reached",
        "refinement_effect": "brings D below the planner's"
        if run["distance"] < run["planner_distance"] else "does not bring D below the planner's",
        "planner_verdict": "the planner's path already ends within the goal tolerance"
        if planner_within else "the planner's path ends outside the goal tolerance",
    }


def _half_turn(context):
    values = {}
    configured = _run(context, "plan.json", "refined.json")
    for key, value in {**configured, **_words(configured)}.items():
        values[f"configured_{key}"] = value
    sweep = [_run(context, f"plan_whole_steps_seed{seed}.json",
                  f"refined_whole_steps_seed{seed}.json") for seed in SEEDS]
    for key, value in {**sweep[0], **_words(sweep[0])}.items():
        values[f"whole_{key}"] = value
    values["sweep_seeds"] = len(sweep)
    values["sweep_first_seed"] = sweep[0]["seed"]
    values["sweep_last_seed"] = sweep[-1]["seed"]
    values["sweep_found"] = sum(run["found"] for run in sweep)
    values["sweep_reached"] = sum(run["reached"] for run in sweep)
    values["sweep_closer"] = sum(run["distance"] < run["planner_distance"] for run in sweep)
    values["sweep_median_planner_distance"] = statistics.median(
        run["planner_distance"] for run in sweep)
    values["sweep_median_distance"] = statistics.median(run["distance"] for run in sweep)
    values["sweep_worst_overlap_mm"] = max(run["overlap_mm"] for run in sweep)
    return values


SOURCES = [
    Source(name="half_turn",
           argv=["bash", "{root}/scripts/planar_hand_half_turn.sh", "{build}", "{out}"],
           extract=_half_turn, cost=LONG,
           tolerances={"*nodes": EXACT, "*steps": EXACT, "*regrasps": EXACT, "*accepted": EXACT,
                       "*iterations": EXACT, "*substepped_extensions": EXACT, "sweep_seeds": EXACT,
                       "sweep_found": EXACT, "*seed": EXACT,
                       "*rejected_too_deep": EXACT, "sweep_reached": EXACT, "sweep_closer": EXACT},
           shown="bash scripts/planar_hand_half_turn.sh build/release out"),
]

T9 = Row(
    id='T9',
    claim='"What about 180 degrees? Finding this trajectory requires powering through local minima"',
    ours='RRT through contact without substeps (`--max-substeps 1`: each path step is one step of '
         'h, as the optimiser rolls out), seed {half_turn.whole_seed}: {half_turn.whole_nodes} '
         'nodes, a path of {half_turn.whole_steps} steps with {half_turn.whole_regrasps} regrasps '
         'ending at goal distance D = {half_turn.whole_planner_distance:.4f}; refined by the '
         'optimiser ({half_turn.whole_iterations} iterations, {half_turn.whole_accepted} accepted, '
         'cost {half_turn.whole_cost_before:.4f} → {half_turn.whole_cost_after:.4f}) to an error of '
         '({half_turn.whole_error_x_mm:.1f} mm, {half_turn.whole_error_y_mm:.1f} mm, '
         '{half_turn.whole_error_theta_rad:.4f} rad): D = {half_turn.whole_distance:.4f} '
         '(D = ‖(w_p‖Δp‖, w_r|Δθ|)‖, w_p = {half_turn.whole_position_weight:g} 1/m, '
         'w_r = {half_turn.whole_rotation_weight:g} 1/rad) against the planner\'s own stopping tolerance '
         '{half_turn.whole_goal_tolerance:g}, and a deepest overlap of '
         '{half_turn.whole_overlap_mm:.3f} mm against the penetration tolerance '
         '{half_turn.whole_penetration_tolerance_mm:g} mm (the planner\'s and the optimiser\'s; '
         'the ball\'s radius is {half_turn.whole_ball_radius_mm:g} mm): '
         '{half_turn.whole_verdict} physically. But {half_turn.whole_planner_verdict}, and the '
         'refinement {half_turn.whole_refinement_effect}: '
         '{half_turn.whole_rejected_too_deep} of its candidates were rejected for passing '
         '{half_turn.whole_rejected_shallowest_mm:.1f}–'
         '{half_turn.whole_rejected_deepest_mm:.1f} mm into a shape. Seeds '
         '{half_turn.sweep_first_seed}–{half_turn.sweep_last_seed}: {half_turn.sweep_reached} of '
         '{half_turn.sweep_seeds} reached physically, the refinement closer than the planner in '
         '{half_turn.sweep_closer} of them, median D {half_turn.sweep_median_planner_distance:.4f} → '
         '{half_turn.sweep_median_distance:.4f}, deepest overlap '
         '{half_turn.sweep_worst_overlap_mm:.3f} mm. The planner as configured (seed '
         '{half_turn.configured_seed}; {half_turn.configured_substepped_extensions} extensions '
         'repaired with substeps, which the optimiser\'s steps of h do not take): '
         '{half_turn.configured_nodes} nodes, {half_turn.configured_steps} steps, '
         '{half_turn.configured_regrasps} regrasps, D = {half_turn.configured_planner_distance:.4f} '
         'with {half_turn.configured_planner_overlap_mm:.3f} mm of overlap, but its rollout at h '
         '{half_turn.configured_guess_overlap_mm:.2f} mm deep; refined from cost '
         '{half_turn.configured_cost_before:.2f} to {half_turn.configured_cost_after:.2f}, ending '
         '({half_turn.configured_error_x_mm:.1f} mm, {half_turn.configured_error_y_mm:.1f} mm, '
         '{half_turn.configured_error_theta_rad:.2f} rad) from the goal (D = '
         '{half_turn.configured_distance:.3f}) with {half_turn.configured_overlap_mm:.1f} mm of '
         'overlap: {half_turn.configured_verdict} physically',
    commands=['bash scripts/planar_hand_half_turn.sh build/release out',
              'build/release/quasidyn plan examples/planar_hand/scene.yaml --max-substeps 1 --out out/p.json',
              'build/release/quasidyn optimize examples/planar_hand/scene.yaml --goal 0 0.05 3.141592653589793 --object-weight 0 0 0 --terminal-weight 100 100 10 --rate-weight 0.01 --initial out/p.json --out out/refined.json'],
    tests=['PlanRefinement.PlanarHandHalfTurnFromThePlannersPathReachesTheGoal', 'cli.optimize_track'],
    holds=lambda v: v["half_turn.whole_distance"] <= v["half_turn.whole_goal_tolerance"]
    and v["half_turn.whole_overlap_mm"] <= v["half_turn.whole_penetration_tolerance_mm"])
