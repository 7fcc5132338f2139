#!/usr/bin/env python3
"""Compares two sets of trajectory files (docs/trajectory-format.md) step by step.

Usage: compare_trajectories.py DIR_A DIR_B
For every *.json in DIR_A with a namesake in DIR_B: the number of steps done, the final status,
and the largest |q_A - q_B| over all steps and coordinates (and the step where it occurs).
Exit status 1 when a pair differs by more than --tolerance (default 1e-12) or in length/status.
Used to show that a refactoring keeps the examples' trajectories (docs/architecture.md).
"""
import argparse
import glob
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir_a")
    parser.add_argument("dir_b")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    args = parser.parse_args()
    worst_overall = 0.0
    failed = False
    names = sorted(glob.glob(os.path.join(args.dir_a, "*.json")))
    if not names:
        print(f"no trajectory files in {args.dir_a}", file=sys.stderr)
        return 2
    for path_a in names:
        name = os.path.basename(path_a)
        path_b = os.path.join(args.dir_b, name)
        if not os.path.exists(path_b):
            print(f"{name:40s} missing in {args.dir_b}")
            failed = True
            continue
        with open(path_a) as f:
            a = json.load(f)
        with open(path_b) as f:
            b = json.load(f)
        steps = min(len(a["steps"]), len(b["steps"]))
        worst, worst_step = 0.0, 0
        for k in range(steps):
            qa, qb = a["steps"][k]["q"], b["steps"][k]["q"]
            d = max(abs(x - y) for x, y in zip(qa, qb)) if qa else 0.0
            if d > worst:
                worst, worst_step = d, k + 1
        same_shape = len(a["steps"]) == len(b["steps"]) and a["status"] == b["status"]
        ok = same_shape and worst <= args.tolerance
        failed |= not ok
        worst_overall = max(worst_overall, worst)
        print(f"{name:40s} steps {len(a['steps']):5d}/{len(b['steps']):5d} "
              f"status {a['status']}/{b['status']} max|dq| {worst:.3e} (step {worst_step})"
              f"{'' if ok else '  <-- differs'}")
    print(f"largest |dq| over all files: {worst_overall:.3e} (tolerance {args.tolerance:g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
