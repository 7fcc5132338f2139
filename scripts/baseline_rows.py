#!/usr/bin/env python3
"""Issue 38's timed rows as ratios to the issue's own baseline, both timed in the same minutes.

The issue's table gives each row's time on main of 2026-11-25 (96b4946) and a goal about half
of it. Its goals are times on the host of that day; this host's speed moves by 1.3-1.6 times
from one day to the next (docs/performance.md). This script times the baseline's build
(scripts/build_baseline.sh) and this one alternately, one run of each per round, and judges
each row by the ratio of the medians, ours over the baseline's, against the goal's ratio to
the issue's figure. It prints beside them the baseline's median over the issue's figure: how
much slower than the issue's host the same code runs now.

The benchmarks are the ones scripts/performance_rows.py judges the rows by, under the same
names in both builds: step_bench's BM_RolloutStep (a step along a 50-step rollout; the
baseline's steps start cold, it had no warm start), gradient_cost_bench's BM_CalcDiff A+B at
the benches' states and pick_place_bench (the whole pick-and-place at h = 0.1 s). Times are
CPU-time medians; each run of a benchmark binary is Google Benchmark's own (0.5 s at least).

Usage: scripts/baseline_rows.py BUILD_DIR BASELINE_BUILD_DIR [--rounds N] [--rows step,diff,pick]
"""

import argparse
import os
import statistics
import sys

from performance_rows import chosen_groups, micro_seconds, medians, run_benchmark

BASELINE = "96b4946"

# Each group: the binary, the filter, and per benchmark the row's name, the issue's figure
# and its goal (both in µs; pick-and-place in ms of CPU per simulated second).
GROUPS = {
    "step": ("step_bench", "BM_RolloutStep/(arm_cubes_qp|arm_cubes_socp|planar_hand_qp)$", [
        ("BM_RolloutStep/arm_cubes_qp", "arm + 10 cubes QP step", 240, 120),
        ("BM_RolloutStep/arm_cubes_socp", "arm + 10 cubes SOCP step", 310, 150),
        ("BM_RolloutStep/planar_hand_qp", "planar hand QP step", 9.2, 4)]),
    "diff": ("gradient_cost_bench", "BM_CalcDiff/(arm_cubes|planar_hand)_.*_A_and_B$", [
        ("BM_CalcDiff/arm_cubes_qp_A_and_B", "CalcDiff A+B, arm, QP", 232, 120),
        ("BM_CalcDiff/arm_cubes_socp_A_and_B", "CalcDiff A+B, arm, SOCP", 300, 120),
        ("BM_CalcDiff/arm_cubes_log_barrier_cone_A_and_B", "CalcDiff A+B, arm, cone barrier",
         345, 120),
        ("BM_CalcDiff/arm_cubes_log_barrier_A_and_B", "CalcDiff A+B, arm, pyramid barrier",
         393, 120),
        ("BM_CalcDiff/planar_hand_qp_A_and_B", "CalcDiff A+B, planar hand, QP", 8.5, 4),
        ("BM_CalcDiff/planar_hand_socp_A_and_B", "CalcDiff A+B, planar hand, SOCP", 9.8, 4),
        ("BM_CalcDiff/planar_hand_log_barrier_A_and_B",
         "CalcDiff A+B, planar hand, pyramid barrier", 7.6, 4)]),
    "pick": ("pick_place_bench", "BM_PickAndPlace/(qp|socp)$", [
        ("BM_PickAndPlace/qp", "pick-and-place at h = 0.1 s, QP, per simulated second", 3.9, 2),
        ("BM_PickAndPlace/socp", "pick-and-place at h = 0.1 s, SOCP, per simulated second",
         3.9, 2)]),
}


def figure(group, entry):
    """The row's figure of one run: µs, or ms per simulated second for pick-and-place."""
    return entry["ms_per_simulated_second"] if group == "pick" else micro_seconds(entry)


def judge(ours, baseline, issue_figure, goal):
    """The row's verdict: (ours / baseline, goal / issue's figure, met)."""
    ratio = ours / baseline
    allowed = goal / issue_figure
    return ratio, allowed, ratio <= allowed


def group_rows(group, build, baseline_build, rounds):
    binary, pattern, rows = GROUPS[group]
    times = {"ours": {}, "baseline": {}}
    for _ in range(rounds):  # alternated: a burst of the host's work takes both or neither
        for side, where in (("ours", build), ("baseline", baseline_build)):
            for name, entry in medians(run_benchmark(where, binary, pattern, 1)).items():
                times[side].setdefault(name, []).append(figure(group, entry))
    unit = "ms" if group == "pick" else "µs"
    lines = []
    for key, name, issue_figure, goal in rows:
        if key not in times["ours"] or key not in times["baseline"]:
            sys.exit(f"baseline_rows: {key} is missing from one of the builds")
        ours = statistics.median(times["ours"][key])
        baseline = statistics.median(times["baseline"][key])
        ratio, allowed, met = judge(ours, baseline, issue_figure, goal)
        lines.append(f"| {name} | {ours:.3g} {unit} | {baseline:.3g} {unit} | {ratio:.3f} | "
                     f"≤ {allowed:.3f} ({goal:g} / {issue_figure:g} {unit}) | "
                     f"{'met' if met else 'not met'} | × {baseline / issue_figure:.2f} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("baseline_build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", default=",".join(GROUPS))
    options = parser.parse_args()
    groups = chosen_groups(parser, options.rows, tuple(GROUPS))
    if options.rounds < 1:
        parser.error("--rounds must be at least 1")
    for group in groups:
        for where in (options.build, options.baseline_build):
            path = os.path.join(where, GROUPS[group][0])
            if not os.access(path, os.X_OK):
                sys.exit(f"baseline_rows: {path} is missing (scripts/build_baseline.sh builds "
                         f"the baseline's)")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start; CPU-time "
          f"medians of {options.rounds} rounds, this build and the baseline ({BASELINE}) "
          f"alternated")
    print("| row | ours | baseline, same rounds | ours / baseline | goal's ratio (goal / issue's "
          "figure) | | baseline / issue's figure |")
    print("|---|---|---|---|---|---|---|")
    for group in groups:
        for line in group_rows(group, options.build, options.baseline_build, options.rounds):
            print(line, flush=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")


if __name__ == "__main__":
    main()
