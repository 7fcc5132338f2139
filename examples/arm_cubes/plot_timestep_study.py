#!/usr/bin/python3
"""Fig. 7 and Fig. 8 of Pang & Tedrake 2021 (§V-B) as one PNG, from timestep_study's CSVs.

Usage: /usr/bin/python3 plot_timestep_study.py timestep_errors.csv timestep_trajectories.csv
                                               timestep_study.png

Inputs (written by examples/arm_cubes/timestep_study --out DIR; columns in its header comment):
  timestep_errors.csv        one row per run: formulation, reference (ground_truth |
                             qp_reference), h [s], E_position [m·s], E_angle [rad·s],
                             departure_t [s], final_error [m], status, what_happened, ...
  timestep_trajectories.csv  run (ground_truth | qp_reference | qp | the second-order
                             formulation), h [s], t [s], x, y, z [m], angle_deg
Top row, Fig. 7: the total integral error E(h) of eq. (13) against the second-order ground
truth, on one log-log plot for the second-order formulation and the QP (10), with the QP's
error against its own fine step and the two models' difference (the QP at its fine step against
the ground truth, a horizontal line); beside it the orientation's error A(h). A run with failed
steps has a red cross, one whose cube left the ground truth by more than 40 mm or 10° a red ring.
Below, Fig. 8: the cube's x, y, z and the angle of its orientation (axis-angle, relative to the
world) over time for the ground truth and each simulator at 0.01, 0.1 and 0.4 s (those run).
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)
import matplotlib.ticker  # noqa: E402

ERROR_COLUMNS = ("formulation", "reference", "h", "E_position", "E_angle", "departure_t",
                 "status")
TRAJECTORY_COLUMNS = ("run", "h", "t", "x", "y", "z", "angle_deg")
NUMBERS = ("h", "E_position", "E_angle", "departure_t")


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
    """[row dict], numbers converted, sorted by h."""
    rows = read_csv(path, ERROR_COLUMNS)
    for r in rows:
        for c in NUMBERS:
            r[c] = number(path, r, c)
    return sorted(rows, key=lambda r: r["h"])


def read_trajectories(path):
    """{(run, h): {column: [values]}}; raises ValueError without a ground-truth run."""
    runs = {}
    for r in read_csv(path, TRAJECTORY_COLUMNS):
        key = (r["run"], number(path, r, "h"))
        run = runs.setdefault(key, {c: [] for c in ("t", "x", "y", "z", "angle_deg")})
        for c in run:
            run[c].append(number(path, r, c))
    if not any(kind == "ground_truth" for kind, _ in runs):
        raise ValueError(f"{path}: no ground_truth run")
    return runs


def curve(errors, formulation, reference):
    return [r for r in errors if r["formulation"] == formulation and r["reference"] == reference]


def mark_failures(ax, rows, column):
    """A red cross on runs with failed steps, a red ring on runs that left the ground truth."""
    for r in rows:
        if r["status"] != "solved":
            ax.plot(r["h"], r[column], "x", color="red", markersize=12, markeredgewidth=2.5)
        elif r["departure_t"] >= 0:
            ax.plot(r["h"], r[column], "o", color="red", markersize=13, fillstyle="none",
                    markeredgewidth=1.5)


def label_steps(axis, steps):
    """Ticks at the studied h, written as plain numbers, on a log axis."""
    axis.set_xticks(steps)
    axis.set_xticklabels([f"{h:g}" for h in steps], rotation=45)
    axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.set_xlabel("time step h [s]")


def plot_errors(ax, errors, column, second_order, ylabel):
    qp = curve(errors, "qp", "ground_truth")
    second = curve(errors, second_order, "ground_truth")
    own = curve(errors, "qp", "qp_reference")
    floor = curve(errors, "qp_reference", "ground_truth")
    ax.loglog([r["h"] for r in second], [r[column] for r in second], "o-", color="C3",
              label=f"second order ({second_order}) vs ground truth")
    ax.loglog([r["h"] for r in qp], [r[column] for r in qp], "s-", color="C0",
              label="quasi-dynamic QP (10) vs ground truth")
    own = [r for r in own if r[column] > 0]  # a log axis
    if own:
        ax.loglog([r["h"] for r in own], [r[column] for r in own], "^--", color="gray",
                  label="QP vs its own fine step")
    if floor:
        ax.axhline(floor[0][column], color="C0", linestyle=":", linewidth=1.0,
                   label=f"QP at h = {floor[0]['h']:g} s vs ground truth (model difference)")
    mark_failures(ax, second + qp, column)
    ax.plot([], [], "x", color="red", markersize=10, label="failed steps")
    ax.plot([], [], "o", color="red", fillstyle="none", label="cube left the ground truth (> 40 mm or > 10°)")
    label_steps(ax, sorted({r["h"] for r in qp + second}))
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=7)


def three_of(steps):
    """The h of Fig. 8: 0.01, 0.1 and 0.4 s where at least two of them were run, else the
    smallest, a middle and the largest."""
    preferred = [h for h in (0.01, 0.1, 0.4) if h in steps]
    if len(preferred) >= 2:
        return preferred
    steps = sorted(steps)
    return steps if len(steps) <= 3 else [steps[0], steps[len(steps) // 2], steps[-1]]


def plot(errors, trajectories, output):
    second_orders = {r["formulation"] for r in errors} - {"qp", "qp_reference"}
    if len(second_orders) != 1:
        raise ValueError(f"expected one second-order formulation, found {sorted(second_orders)}")
    second_order = second_orders.pop()
    figure = plt.figure(figsize=(13, 12))
    grid = figure.add_gridspec(3, 2, height_ratios=(1.2, 1, 1))
    ax = figure.add_subplot(grid[0, 0])
    plot_errors(ax, errors, "E_position", second_order, "total integral error E, eq. (13) [m·s]")
    ax.set_title("Fig. 7: integral error of the red cube's position")
    ax = figure.add_subplot(grid[0, 1])
    plot_errors(ax, errors, "E_angle", second_order, "∫ angle to the ground truth dt [rad·s]")
    ax.set_title("the same for its orientation")

    truth = next(run for (kind, _), run in trajectories.items() if kind == "ground_truth")
    shown = [("ground_truth", h) for kind, h in trajectories if kind == "ground_truth"]
    for kind in ("qp", second_order):
        steps = three_of([h for k, h in trajectories if k == kind])
        shown += [(kind, h) for h in steps]
    panels = (("x", "x [m]"), ("y", "y [m]"), ("z", "z [m]"), ("angle_deg", "angle [deg]"))
    axes = [figure.add_subplot(grid[1 + i // 2, i % 2]) for i in range(4)]
    shade = {}
    for kind, step in shown:
        run = trajectories[(kind, step)]
        if kind == "ground_truth":
            label, style = f"ground truth ({second_order}, h = {step:g} s)", dict(
                color="black", linewidth=2.4, alpha=0.45)
        else:
            shade[kind] = shade.get(kind, 0) + 1
            palette = plt.cm.Blues if kind == "qp" else plt.cm.Reds
            label = f"{'QP (10)' if kind == 'qp' else second_order}, h = {step:g} s"
            style = dict(color=palette(0.35 + 0.2 * shade[kind]), linewidth=1.0,
                         linestyle="-" if kind == "qp" else "--")
        for ax, (column, _) in zip(axes, panels):
            ax.plot(run["t"], run[column], label=label, **style)
    for ax, (column, ylabel) in zip(axes, panels):
        # Keep the ground truth readable when a run leaves it far behind.
        low, high = min(truth[column]), max(truth[column])
        if column == "angle_deg":  # up to 30° shows a tipped cube, not one spun round
            high = min(30.0, max(max(trajectories[key][column]) for key in shown))
            ax.set_ylim(-0.5, high + 1.0)
        else:
            margin = 0.3 * (high - low) + 0.05
            ax.set_ylim(low - margin, high + margin)
        ax.set_xlabel("time t [s]")
        ax.set_ylabel(ylabel)
        ax.set_title(f"Fig. 8: cube {'centre ' + column if column != 'angle_deg' else 'angle'}")
        ax.grid(True, linewidth=0.3)
    axes[1].legend(loc="lower left", fontsize=7, ncol=2)  # y: the lower left stays empty
    figure.suptitle(f"Pang & Tedrake 2021, §V-B: pick and place against a second-order ground "
                    f"truth ({second_order})")
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
