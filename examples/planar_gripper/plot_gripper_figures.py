#!/usr/bin/python3
"""Fig. 5 and Fig. 6 of Pang & Tedrake 2021 (§V-A) as one PNG, from gripper_figures' CSV.

Usage: /usr/bin/python3 plot_gripper_figures.py gripper.csv gripper_figures.png

The CSV (written by examples/planar_gripper/gripper_figures) holds one row per step and
formulation: formulation, t [s], x_l_commanded [m], x_l [m], c_n1 [N], c_f1 [N], phi_1 [m],
c_n3 [N], y_commanded [m], y [m]. The figure has one column per formulation (the quasistatic
LCP of eq. (6) on the left, the QP of eq. (10) on the right) and four rows:
  Fig. 5        commanded and actual left-finger position: horizontal x_l [mm]
  Fig. 5        ... and vertical y (the hand's height, shared by both fingers) [mm]
  Fig. 6        contact forces c_n1, c_f1 (finger–sphere) and c_n3 (sphere–ground) [N]
  Fig. 6        signed distance φ_1 of the finger–sphere contact [mm]
The green dashed lines mark the paper's contact-mode changes (Fig. 5 caption): separation to
rolling at t = 0.03 s, rolling to sliding at 0.13 s, sliding to rolling at 0.23 s.
"""

import argparse
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)

COLUMNS = ("formulation", "t", "x_l_commanded", "x_l", "c_n1", "c_f1", "phi_1", "c_n3",
           "y_commanded", "y")
FORMULATIONS = (("lcp", "(a) quasistatic LCP, eq. (6)"), ("qp", "(b) proposed QP, eq. (10)"))
MODE_CHANGES = (0.03, 0.13, 0.23)  # [s], Fig. 5 caption of the paper


def read_runs(path):
    """{formulation: {column: [values]}} from the CSV; raises ValueError naming what is wrong."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
        runs = {}
        for line, row in enumerate(reader, start=2):
            run = runs.setdefault(row["formulation"], {c: [] for c in COLUMNS[1:]})
            for c in COLUMNS[1:]:
                try:
                    run[c].append(float(row[c]))
                except ValueError:
                    raise ValueError(f"{path}:{line}: column {c} is not a number: {row[c]!r}")
    for name, _ in FORMULATIONS:
        if not runs.get(name, {}).get("t"):
            raise ValueError(f"{path}: no rows for formulation '{name}'")
    return runs


def mark_mode_changes(axis, label):
    for i, t in enumerate(MODE_CHANGES):
        axis.axvline(t, color="green", linestyle="--", linewidth=0.8,
                     label=label if i == 0 else None)


def plot(runs, output):
    figure, axes = plt.subplots(4, 2, figsize=(11, 13), sharex=True, sharey="row")
    for column, (name, title) in enumerate(FORMULATIONS):
        run = runs[name]
        t = run["t"]
        mm = [1e3 * x for x in run["x_l"]]
        mm_commanded = [1e3 * x for x in run["x_l_commanded"]]
        # φ_1 is NaN while the finger is farther than the contact tolerance.
        phi_mm = [1e3 * p if not math.isnan(p) else math.nan for p in run["phi_1"]]

        ax = axes[0][column]
        ax.plot(t, mm_commanded, "k--", label="commanded $\\bar{x}_l$")
        ax.plot(t, mm, "C0-", label="actual $x_l$")
        mark_mode_changes(ax, "contact-mode change (paper)")
        ax.set_title(f"Fig. 5 {title}: left finger, horizontal")
        ax.set_ylabel("left finger $x_l$ [mm]")
        ax.legend(loc="center right", fontsize=8)

        ax = axes[1][column]
        ax.plot(t, [1e3 * y for y in run["y_commanded"]], "k--", label="commanded $\\bar{y}$")
        ax.plot(t, [1e3 * y for y in run["y"]], "C0-", label="actual $y$")
        mark_mode_changes(ax, None)
        ax.set_title(f"Fig. 5 {title}: left finger, vertical")
        ax.set_ylabel("left finger height $y$ [mm]")
        ax.legend(loc="upper right", fontsize=8)

        ax = axes[2][column]
        ax.plot(t, run["c_n1"], "C0-", label="$c_{n_1}$ (normal, finger–sphere)")
        ax.plot(t, run["c_f1"], "C1-", label="$c_{f_1}$ (friction on sphere, vertical)")
        ax.plot(t, run["c_n3"], "C2-", label="$c_{n_3}$ (normal, sphere–ground)")
        mark_mode_changes(ax, None)
        ax.set_title(f"Fig. 6 {title}: contact forces")
        ax.set_ylabel("force [N]")
        ax.legend(loc="center right", bbox_to_anchor=(1.0, 0.42), fontsize=8)

        ax = axes[3][column]
        ax.plot(t, phi_mm, "C3-", label="$\\phi_1$ (finger–sphere)")
        mark_mode_changes(ax, None)
        ax.set_title(f"Fig. 6 {title}: signed distance")
        ax.set_ylabel("signed distance $\\phi_1$ [mm]")
        ax.set_xlabel("time t [s]")
        ax.legend(loc="upper right", fontsize=8)
    for row in axes:
        for ax in row:
            ax.grid(True, linewidth=0.3)
            ax.tick_params(labelleft=True)
    figure.suptitle("Pang & Tedrake 2021, §V-A: planar gripper and sphere, h = "
                    f"{runs['qp']['t'][1] - runs['qp']['t'][0]:.3g} s (Fig. 5 and 6)")
    figure.tight_layout(rect=(0, 0, 1, 0.98))
    figure.savefig(output, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="gripper_figures' CSV")
    parser.add_argument("png", help="the PNG to write")
    args = parser.parse_args()
    try:
        plot(read_runs(args.csv), args.png)
    except (OSError, ValueError) as error:
        print(f"plot_gripper_figures: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
