#!/usr/bin/python3
"""What each tree of the RRT-through-contact ablation covers, as one PNG.

Usage: /usr/bin/python3 scripts/plot_rrt_ablation.py STUDY_DIR OUT.png [--dpi N]

STUDY_DIR holds the tree_<example>_<variant>.csv files of `rrt_study_bench --ablation`
(columns parent, edge, goal_distance, q0 … q_{n_q,u − 1}: each node's parent, edge kind, goal
distance and object coordinates). One row per example, one column per variant (nearest node by
the reachability metric or by the Euclidean distance, with or without contact sampling); each
panel draws every node's object at (x [m], rotation [rad]): θ for planar objects, the yaw
2·atan2(qz, qw) for floating ones, the tree's edges (extensions blue, regrasps orange), the
start (black square) and the goal (green star, read from the example's scene file).
"""

import argparse
import csv
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)

VARIANTS = ("metric+grasp", "euclidean+grasp", "metric", "euclidean")
TITLES = {"metric+grasp": "reachability metric + contact sampling",
          "euclidean+grasp": "Euclidean + contact sampling",
          "metric": "reachability metric, no contact sampling",
          "euclidean": "Euclidean, no contact sampling"}


def read_tree(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{path}: no nodes")
    q_columns = [k for k in rows[0] if k.startswith("q")]
    if len(q_columns) not in (3, 7):
        raise ValueError(f"{path}: expected 3 (planar) or 7 (floating) object coordinates, "
                         f"got {len(q_columns)}")
    nodes = []
    for row in rows:
        q = [float(row[k]) for k in q_columns]
        angle = q[2] if len(q) == 3 else 2.0 * math.atan2(q[6], q[3])
        angle = math.remainder(angle, 2.0 * math.pi)
        nodes.append((int(row["parent"]), row["edge"], q[0], angle))
    return nodes


def goal_of(example):
    """(x, rotation) of the goal in examples/<example>/scene.yaml (its planning block)."""
    text = pathlib.Path("examples", example, "scene.yaml").read_text()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("goal:"):
            numbers = [float(v) for v in stripped[5:].strip(" []").split(",")]
            if len(numbers) == 3:
                return numbers[0], math.remainder(numbers[2], 2 * math.pi)
            return numbers[0], 2.0 * math.atan2(numbers[6], numbers[3])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study_dir")
    parser.add_argument("out")
    parser.add_argument("--dpi", type=int, default=110, help="resolution of the PNG")
    args = parser.parse_args()
    files = sorted(pathlib.Path(args.study_dir).glob("tree_*.csv"))
    examples = []
    for f in files:
        for variant in VARIANTS:
            suffix = "_" + variant + ".csv"
            if f.name.endswith(suffix):
                example = f.name[len("tree_"):-len(suffix)]
                if example not in examples:
                    examples.append(example)
                break
    if not examples:
        sys.exit(f"{args.study_dir}: no tree_<example>_<variant>.csv files "
                 "(run rrt_study_bench --ablation --out DIR first)")
    fig, axes = plt.subplots(len(examples), len(VARIANTS), squeeze=False,
                             figsize=(4.2 * len(VARIANTS), 3.4 * len(examples)))
    for r, example in enumerate(examples):
        goal = goal_of(example)
        for c, variant in enumerate(VARIANTS):
            ax = axes[r][c]
            path = pathlib.Path(args.study_dir, f"tree_{example}_{variant}.csv")
            if not path.exists():
                ax.set_visible(False)
                continue
            nodes = read_tree(path)
            for parent, edge, x, angle in nodes[1:]:
                px, pa = nodes[parent][2], nodes[parent][3]
                if abs(angle - pa) > math.pi:  # wrapped across ±π: not a real jump
                    continue
                ax.plot([px, x], [pa, angle], color="#e4572e" if edge == "regrasp" else "#2e86de",
                        lw=0.4, alpha=0.7)
            ax.plot([n[2] for n in nodes], [n[3] for n in nodes], ".", color="#222", ms=1.2)
            ax.plot(nodes[0][2], nodes[0][3], "s", color="black", ms=6)
            if goal:
                ax.plot(goal[0], goal[1], "*", color="#29b765", ms=14, mec="black")
            ax.set_ylim(-math.pi - 0.2, math.pi + 0.2)
            ax.set_title(f"{example}\n{TITLES[variant]} ({len(nodes)} nodes)", fontsize=8)
            ax.set_xlabel("object x [m]", fontsize=8)
            ax.set_ylabel("rotation [rad]", fontsize=8)
            ax.tick_params(labelsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=args.dpi)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
