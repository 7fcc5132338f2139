"""Soak test: many quasidyn.plan calls in one process (the planar hand's planning block with a
small budget per call), the process's resident memory sampled; exits 1 when it grows by more
than --max-growth percent after the warm-up (the first 10 % of the plans). docs/development.md,
"Soak tests".

Plans alternate between the scene's goal (a half turn of the ball: never reached within the
budget, status not_found) and a turn of 0.3 rad (reached by most seeds, so the path, its
trajectory and the tree are read too); seed i for plan i. Prints one row of the soak table.

    PYTHONPATH=build/release/python python3 tests/soak/plan_calls.py \
        examples/planar_hand/scene.yaml --plans 10000
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resident_memory import MemoryTrace  # noqa: E402

import quasidyn  # noqa: E402

NEAR_GOAL = [0.0, 0.05, 0.3]  # the ball turned by 0.3 rad in place [m, m, rad]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scene", help="the planar hand's scene file (its planning block)")
    parser.add_argument("--plans", type=int, default=10_000, help="plan calls (>= 10)")
    parser.add_argument("--max-nodes", type=int, default=20,
                        help="the tree's node budget per plan (>= 2)")
    parser.add_argument("--max-growth", type=float, default=1.0,
                        help="allowed growth of the resident memory after the warm-up [%%], >= 0")
    args = parser.parse_args()
    if args.plans < 10:
        parser.error(f"--plans must be >= 10 (got {args.plans})")
    if args.max_nodes < 2:
        parser.error(f"--max-nodes must be >= 2 (got {args.max_nodes})")
    if args.max_growth < 0:
        parser.error(f"--max-growth must be >= 0 (got {args.max_growth})")

    scene = quasidyn.load_scene(args.scene)
    trace = MemoryTrace(args.plans, "plans")
    sample_every = max(1, args.plans // 100)
    found = 0
    start = time.perf_counter()
    for i in range(args.plans):
        goal = NEAR_GOAL if i % 2 else None
        plan = quasidyn.plan(scene, goal, max_nodes=args.max_nodes, seed=i, time_limit=60.0)
        _ = (plan.tree_q, plan.tree_parent, plan.statistics)
        if plan.found:
            found += 1
            _ = (plan.path_q, plan.path_u, plan.trajectory.q)
        del plan
        done = i + 1
        if done % sample_every == 0 or done == args.plans:
            trace.sample(done, {"self": None})
    seconds = time.perf_counter() - start
    print(f"{args.plans} plans of at most {args.max_nodes} nodes in {seconds:.1f} s "
          f"({1e3 * seconds / args.plans:.2f} ms/plan), {found} found")
    return trace.report("plan calls (planar hand)", args.max_growth)


if __name__ == "__main__":
    sys.exit(main())
