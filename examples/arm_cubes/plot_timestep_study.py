#!/usr/bin/python3
"""Fig. 7 and Fig. 8 of Pang & Tedrake 2021 (§V-B) as one PNG, from timestep_study's CSVs.

Usage: /usr/bin/python3 plot_timestep_study.py timestep_errors.csv timestep_trajectories.csv
                                               timestep_study.png

Inputs (written by examples/arm_cubes/timestep_study --out DIR):
  timestep_errors.csv        h [s], steps, E_position [m·s], E_angle [rad·s], final_x, final_y,
                             final_z [m], final_error [m], wall_seconds, status
  timestep_trajectories.csv  run (reference | study), h [s], t [s], x, y, z [m], angle_deg
Top row, Fig. 7: the total integral error E(h) = ∫‖p_h(t) − p_ref(t)‖dt of eq. (13) against h
(log–log, with a line ∝ h through the largest h for comparison), next to the final distance
of the cube to its target on the stack. Below, Fig. 8: the cube's x, y, z and the angle of its
orientation (axis-angle, relative to the world) over time, for the reference and every h.
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)
import matplotlib.ticker  # noqa: E402

ERROR_COLUMNS = ("h", "E_position", "E_angle", "final_error", "status")
TRAJECTORY_COLUMNS = ("run", "h", "t", "x", "y", "z", "angle_deg")


def read_csv(path, columns):
    """The rows as dicts; raises ValueError naming a missing column or an empty file."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in columns if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
        rows = list(reader)
    if not rows:
        raise ValueError(f"{path}: no data rows")
    return rows


def number(path, row, column):
    try:
        return float(row[column])
    except ValueError:
        raise ValueError(f"{path}: column {column} is not a number: {row[column]!r}")


def read_errors(path):
    rows = read_csv(path, ERROR_COLUMNS)
    table = {c: [number(path, r, c) for r in rows] for c in ERROR_COLUMNS if c != "status"}
    table["status"] = [r["status"] for r in rows]
    return table


def read_trajectories(path):
    """[(label, h, {column: [values]})], the reference first."""
    runs = {}
    for r in read_csv(path, TRAJECTORY_COLUMNS):
        key = (r["run"], number(path, r, "h"))
        run = runs.setdefault(key, {c: [] for c in ("t", "x", "y", "z", "angle_deg")})
        for c in run:
            run[c].append(number(path, r, c))
    if not any(kind == "reference" for kind, _ in runs):
        raise ValueError(f"{path}: no reference run")
    ordered = sorted(runs.items(), key=lambda item: (item[0][0] != "reference", item[0][1]))
    return [(kind, h, run) for (kind, h), run in ordered]


def label_steps(axis, steps):
    """Ticks at the studied h, written as plain numbers, on a log axis."""
    axis.set_xticks(steps)
    axis.set_xticklabels([f"{h:g}" for h in steps])
    axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.set_xlabel("time step h [s]")


def plot(errors, trajectories, output):
    figure = plt.figure(figsize=(12, 11))
    grid = figure.add_gridspec(3, 2, height_ratios=(1.1, 1, 1))

    h = errors["h"]
    solved = [s == "solved" for s in errors["status"]]
    ax = figure.add_subplot(grid[0, 0])
    ax.loglog(h, errors["E_position"], "o-", color="C0", label="quasi-dynamic QP (10), position")
    ax.loglog(h, errors["E_angle"], "s--", color="C1", label="... orientation [rad·s]")
    largest = max(range(len(h)), key=lambda i: h[i])
    slope = errors["E_position"][largest] / h[largest]
    ax.loglog(h, [slope * x for x in h], ":", color="gray", label="∝ h (first order)")
    for i, ok in enumerate(solved):
        if not ok:
            ax.annotate("failed", (h[i], errors["E_position"][i]), color="red")
    label_steps(ax, h)
    ax.set_ylabel("total integral error E, eq. (13) [m·s]")
    ax.set_title("Fig. 7: integral error of the red cube against the reference")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)

    ax = figure.add_subplot(grid[0, 1])
    ax.semilogx(h, [1e3 * e for e in errors["final_error"]], "o-", color="C2")
    ax.axhline(40.0, color="red", linestyle="--", linewidth=0.8,
               label="stack_top's half width (cube tips beyond)")
    label_steps(ax, h)
    ax.set_ylim(bottom=0.0)
    ax.set_ylabel("final distance to the target [mm]")
    ax.set_title("Placement: cube centre vs. (0.55, −0.35, 0.28) m")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8)

    panels = (("x", "x [m]"), ("y", "y [m]"), ("z", "z [m]"), ("angle_deg", "angle [deg]"))
    axes = [figure.add_subplot(grid[1 + i // 2, i % 2]) for i in range(4)]
    for kind, step, run in trajectories:
        reference = kind == "reference"
        label = f"reference, h = {step:g} s" if reference else f"h = {step:g} s"
        style = dict(color="black", linewidth=2.2, alpha=0.5) if reference else dict(
            linewidth=1.0, marker="." if len(run["t"]) < 80 else None, markersize=4)
        for ax, (column, _) in zip(axes, panels):
            ax.plot(run["t"], run[column], label=label, **style)
    for ax, (column, ylabel) in zip(axes, panels):
        ax.set_xlabel("time t [s]")
        ax.set_ylabel(ylabel)
        ax.set_title(f"Fig. 8: cube {'centre ' + column if column != 'angle_deg' else 'angle'}")
        ax.grid(True, linewidth=0.3)
    axes[1].legend(loc="lower left", fontsize=8, ncol=2)  # y: the lower left stays empty
    figure.suptitle("Pang & Tedrake 2021, §V-B: pick and place under the QP (10) at several h")
    figure.tight_layout(rect=(0, 0, 1, 0.98))
    figure.savefig(output, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("errors_csv", help="timestep_errors.csv")
    parser.add_argument("trajectories_csv", help="timestep_trajectories.csv")
    parser.add_argument("png", help="the PNG to write")
    args = parser.parse_args()
    try:
        plot(read_errors(args.errors_csv), read_trajectories(args.trajectories_csv), args.png)
    except (OSError, ValueError) as error:
        print(f"plot_timestep_study: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
