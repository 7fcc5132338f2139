#!/usr/bin/python3
"""The 1D toy of Pang's 2022 talk (examples/toy_1d): one quasi-dynamic step q⁺(u) from the scene's
q0 over a sweep of commands u, as quasidyn computes it and as the closed forms of
examples/toy_1d/closed_form.py give it, with the smoothed steps and their gradients dq⁺/du:

  exact           the scene's QP (Pang & Tedrake 2021, eq. (10)), B by implicit differentiation
  log barrier     κ = 10, 100, 1000, 10⁴ [1/(N·m)] (T-RO 2023, eq. (34)); larger κ: closer to exact
  randomized      σ = 0.01, 0.03, 0.1 m on u: the first-order (bundled) mean of the exact B at
                  the samples and the zeroth-order least-squares estimate, ±2 standard errors,
                  against the Gaussian-smoothed closed form α Φ(c/σ)

The talk gives no κ, σ, h or object mass; the values here are ours (examples/toy_1d/README.md).

Usage: PYTHONPATH=build/release/python /usr/bin/python3 examples/toy_1d/plot_toy_1d.py OUT.png
           [--scene examples/toy_1d/scene.yaml] [--csv OUT.csv] [--samples 400] [--svg OUT.svg]
Prints the largest differences between quasidyn and the closed forms (also written to --csv).
Exit 1 with a message when a step fails.
"""

import argparse
import csv
import os
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import closed_form as cf  # noqa: E402  (beside this script)

KAPPAS = (10.0, 100.0, 1000.0, 1e4)  # [1/(N·m)], ours
SIGMAS = (0.01, 0.03, 0.1)  # [m], ours
U_RANGE = (-0.3, 0.3)  # [m] around the kink at u = 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("png", help="the figure (PNG) to write")
    parser.add_argument("--scene", default=str(HERE / "scene.yaml"), help="the toy's scene file")
    parser.add_argument("--svg", help="also write the figure as SVG here")
    parser.add_argument("--csv", help="write the comparison table (one row per curve) here")
    parser.add_argument("--samples", type=int, default=400,
                        help="samples per randomized estimate (>= 2), default 400")
    parser.add_argument("--seed", type=int, default=0, help="the samples' seed, default 0")
    return parser.parse_args(argv)


def toy_of(scene):
    """The closed form's parameters, read from the scene (h, K, m, s, ε)."""
    import quasidyn as qd
    mass = qd.mass_matrix(scene, scene.q0)[0, 0]
    s = scene.formulation_parameters.get("object_mass_scale", 1.0)
    return cf.Toy(h=scene.time_step, K=float(scene.actuated_stiffness[0]), m=float(mass),
                  s=float(s), epsilon=scene.contact_tolerance)


def sweep(scene, us, samples, seed):
    """quasidyn's values and slopes over the commands us: a dict of arrays (N, 2) per curve."""
    import quasidyn as qd
    q0 = np.array(scene.q0)
    Q = np.tile(q0, (len(us), 1))
    U = us.reshape(-1, 1)
    out = {}

    def take(name, result):
        if not np.all(result.ok):
            bad = int(np.argmin(result.ok))
            raise RuntimeError(f"{name}: u = {us[bad]}: {result.message[bad]}")
        out[name] = (np.array(result.q_next), np.array(result.B)[:, :, 0])

    take("exact", qd.BatchLinearizer(scene).linearize(Q, U, gradients="b_only", method="exact"))
    for kappa in KAPPAS:
        take(f"barrier {kappa:g}", qd.BatchLinearizer(scene, kappa=kappa).linearize(
            Q, U, gradients="b_only", method="log-barrier"))
    batch = qd.BatchLinearizer(scene)
    for sigma in SIGMAS:
        for order, call in (("first", batch.smooth_first_order),
                            ("zeroth", batch.smooth_zeroth_order)):
            values, slopes, errors = [], [], []
            for u in us:
                s = call(q0, [u], gradients="b_only", method="exact", samples=samples,
                         u_std=sigma, seed=seed)
                if not s.ok:
                    raise RuntimeError(f"randomized {order} order, σ = {sigma}, u = {u}: "
                                       f"{s.message}")
                values.append(np.array(s.q_next))
                slopes.append(np.array(s.B)[:, 0])
                errors.append(np.array(s.B_standard_error)[:, 0])
            out[f"{order} {sigma:g}"] = (np.array(values), np.array(slopes), np.array(errors))
    return out


def compare(toy, q0, us, ours):
    """Rows (curve, quantity, largest |ours − closed form|, scale) for the table."""
    rows = []
    away = np.abs(cf.overlap(q0, us)) > 1e-9  # the exact slope is one-sided at the kink
    ref = cf.exact(toy, q0, us)
    q, b = ours["exact"]
    rows.append(("exact", "q+ [m]", np.max(np.abs(q - np.stack(ref[:2], 1))), ""))
    rows.append(("exact", "dq+/du [-]", np.max(np.abs(b[away] - np.stack(ref[2:], 1)[away])), ""))
    for kappa in KAPPAS:
        ref = cf.barrier(toy, q0, us, kappa)
        q, b = ours[f"barrier {kappa:g}"]
        width = f"delta = {toy.barrier_width(kappa):.4g} m"
        rows.append((f"log barrier kappa = {kappa:g}", "q+ [m]",
                     np.max(np.abs(q - np.stack(ref[:2], 1))), width))
        rows.append((f"log barrier kappa = {kappa:g}", "dq+/du [-]",
                     np.max(np.abs(b - np.stack(ref[2:], 1))), width))
    for sigma in SIGMAS:
        ref = cf.gaussian(toy, q0, us, sigma)
        slope = np.stack(ref[2:], 1)
        for order in ("first", "zeroth"):
            _, b, se = ours[f"{order} {sigma:g}"]
            # |z| = |ours − α Φ(c/σ)| / SE where the samples show a spread (SE > 1e-9): where
            # every sample lies on one side of the kink the estimate is that side's slope with
            # SE 0 (first order) or rounding (zeroth order), which says nothing of the tail.
            spread = se > 1e-9
            z = np.abs(b - slope)[spread] / se[spread]
            rows.append((f"randomized {order} order sigma = {sigma:g}", "dq+/du in SE",
                         np.max(z, initial=0.0),
                         f"mean |z| {np.mean(z) if z.size else 0:.2f} over {z.size} of "
                         f"{se.size} (point, coordinate) pairs; the rest saw one side"))
        q, _, _ = ours[f"first {sigma:g}"]
        rows.append((f"randomized mean sigma = {sigma:g}", "q+ [m]",
                     np.max(np.abs(q - np.stack(ref[:2], 1))), "sampling error"))
    return rows


def plot(toy, q0, us, ours, png, svg):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fine = np.linspace(*U_RANGE, 601)
    fig, axes = plt.subplots(2, 3, figsize=(16, 9.5), dpi=100, constrained_layout=True)
    kappa_colours = plt.cm.viridis(np.linspace(0.0, 0.85, len(KAPPAS)))
    sigma_colours = plt.cm.plasma(np.linspace(0.0, 0.8, len(SIGMAS)))
    a = toy.alpha
    fig.suptitle("1D toy of Pang's 2022 talk: robot (K = %g N/m) pushes object (m = %g kg), "
                 "h = %g s, s = %g, α = h²K/(h²K + s m) = %.3g; kink at u = %.3g m"
                 % (toy.K, toy.m, toy.h, toy.s, a, round(q0[1] + cf.gap(q0), 12) + 0.0))

    def exact_and_barrier(ax, row, slopes):
        ref = cf.exact(toy, q0, fine)
        ax.plot(fine, ref[row + 2 * slopes], color="black", lw=2.5, label="closed form, exact")
        ax.plot(us, ours["exact"][slopes][:, row], "o", ms=3.5, color="black", mfc="white",
                label="quasidyn qp (exact)")
        for kappa, colour in zip(KAPPAS, kappa_colours):
            ref = cf.barrier(toy, q0, fine, kappa)
            ax.plot(fine, ref[row + 2 * slopes], color=colour, lw=1.5,
                    label=f"closed form, κ = {kappa:g}")
            ax.plot(us[::3], ours[f"barrier {kappa:g}"][slopes][::3, row], "s", ms=3,
                    color=colour)

    def randomized(ax, row, slopes):
        ref = cf.exact(toy, q0, fine)
        ax.plot(fine, ref[row + 2 * slopes], color="black", lw=1, ls=":", label="exact")
        for sigma, colour in zip(SIGMAS, sigma_colours):
            ref = cf.gaussian(toy, q0, fine, sigma)
            ax.plot(fine, ref[row + 2 * slopes], color=colour, lw=1.5,
                    label=f"closed form, σ = {sigma:g} m")
            if not slopes:
                ax.plot(us[::2], ours[f"first {sigma:g}"][0][::2, row], "o", ms=3, color=colour)
                continue
            for order, marker, shift in (("first", "o", -0.002), ("zeroth", "x", 0.002)):
                _, b, se = ours[f"{order} {sigma:g}"]
                ax.errorbar(us[::2] + shift, b[::2, row], yerr=2 * se[::2, row], fmt=marker,
                            ms=3.5, color=colour, elinewidth=0.8, capsize=1.5,
                            label=f"{order} order ±2 SE" if sigma == SIGMAS[-1] else None)

    exact_and_barrier(axes[0, 0], 0, 0)
    axes[0, 0].set_title("object q_u⁺(u): exact and log barrier (squares: quasidyn)")
    exact_and_barrier(axes[1, 0], 0, 1)
    axes[1, 0].set_title("object dq_u⁺/du: exact (slopes 0 and α) and log barrier")
    randomized(axes[0, 1], 0, 0)
    axes[0, 1].set_title("object q_u⁺(u): randomized smoothing (dots: sample means)")
    randomized(axes[1, 1], 0, 1)
    axes[1, 1].set_title("object dq_u⁺/du: first (o) and zeroth (x) order vs α Φ(c/σ)")
    exact_and_barrier(axes[0, 2], 1, 0)
    axes[0, 2].set_title("robot q_a⁺(u): exact and log barrier")
    exact_and_barrier(axes[1, 2], 1, 1)
    axes[1, 2].set_title("robot dq_a⁺/du: slopes 1 and α")
    for ax, where in zip(axes.flat, ("upper left", "upper left", "upper left",
                                     "upper left", "upper left", "lower left")):
        ax.grid(alpha=0.3)
        ax.set_xlabel("command u [m]")
        ax.legend(fontsize=7.5, loc=where)
    for ax in axes[0]:
        ax.set_ylabel("q⁺ [m]")
    for ax in axes[1]:
        ax.set_ylabel("dq⁺/du [-]")
    for target in (png, svg):
        if target:
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            fig.savefig(target)
    plt.close(fig)


def main(argv):
    args = parse_args(argv)
    if args.samples < 2:
        sys.exit("plot_toy_1d.py: --samples must be >= 2 (the zeroth-order fit needs N > 1)")
    import quasidyn as qd
    scene = qd.load_scene(args.scene)
    if (scene.nq_u, scene.nq_a) != (1, 1):
        sys.exit(f"plot_toy_1d.py: {args.scene}: expected one object and one robot coordinate, "
                 f"got n_q,u = {scene.nq_u}, n_q,a = {scene.nq_a}")
    toy = toy_of(scene)
    q0 = np.array(scene.q0)
    us = np.linspace(*U_RANGE, 61)
    try:
        ours = sweep(scene, us, args.samples, args.seed)
    except RuntimeError as error:
        sys.exit(f"plot_toy_1d.py: {error}")
    rows = compare(toy, q0, us, ours)
    print(f"toy_1d: h = {toy.h} s, K = {toy.K} N/m, m = {toy.m} kg, s = {toy.s}, "
          f"alpha = {toy.alpha:.6g}, kink at u = {round(q0[1] + cf.gap(q0), 12) + 0.0:.6g} m, "
          f"{args.samples} samples per randomized estimate")
    print(f"{'curve':<40} {'quantity':<14} {'max |ours - closed form|':>26}  note")
    for curve, quantity, value, note in rows:
        print(f"{curve:<40} {quantity:<14} {value:>26.3e}  {note}")
    if args.csv:
        os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
        with open(args.csv, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["curve", "quantity", "max_abs_difference", "note"])
            writer.writerows(rows)
    plot(toy, q0, us, ours, args.png, args.svg)
    print(f"wrote {args.png}" + (f" and {args.svg}" if args.svg else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
