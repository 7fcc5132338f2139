#!/usr/bin/env python3
"""Every timed row of issue 38 in one run, against its goal (docs/performance.md).

Runs the benchmarks in bench/ that the rows are judged by and prints one Markdown table: the
row, the figure now, the goal, the figure's ratio to the goal and whether it is met. Times are
CPU-time medians of Google Benchmark's repetitions (they depend less on the machine's load
than wall times; the load average is printed with the table); the ECP row is the ratio of
Siconos' median to ours on the same recorded NCPs; the thread rows are the wall-clock linear
fraction (the median over the calls of each call's own, and the fraction of the summed times)
with the CPU time per item at 2 threads over 1, beside the machine's own control: for batches
made in a loop (the steady state), for a single call with the other worker spinning for it
(SetParkedThreadSpin), and for a single call after a gap as long as its 1-thread call (the
default spin, 4 ms, then a block), with the best fraction such a call of the row's shape can
reach when the other worker starts as late, and its first item runs as much longer, as the
same items' timeline after the same gap shows (batch_bench's BM_BatchTimeline: the floor).

Not run here (minutes each): the MIQP MPC rows (build/release/miqp_bench, docs/mpc.md) and
instruction counts (scripts/instruction_counts.sh).

Usage: scripts/performance_rows.py [BUILD_DIR] [--repetitions N] [--rows step,diff,ecp,pick,threads]
BUILD_DIR defaults to build/release.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROW_GROUPS = ("step", "diff", "ecp", "pick", "threads")
DEFAULT_SPIN_MS = 4  # kDefaultParkedThreadSpin (common/parallel_for.h)


def ordinary_policy():
    """Runs a child under the ordinary scheduling policy when the script itself runs under a
    real-time one (`chrt -f 1`): a spinning thread of thread_wake_bench would otherwise starve
    its CPU's kernel work and the other thread's wake with it."""
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))


def run_benchmark(build, binary, pattern, repetitions, extra=(), preexec=None):
    """Runs one bench binary with a filter; returns its JSON's benchmarks (aggregates kept)."""
    path = os.path.join(build, binary)
    if not os.access(path, os.X_OK):
        sys.exit(f"performance_rows: {path} is missing: build the release preset first")
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [path, f"--benchmark_filter={pattern}", f"--benchmark_out={out.name}",
                   "--benchmark_out_format=json", *extra]
        if repetitions > 1:
            command += [f"--benchmark_repetitions={repetitions}",
                        "--benchmark_report_aggregates_only=true"]
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, preexec_fn=preexec)
        if done.returncode != 0:
            sys.exit(f"performance_rows: {' '.join(command)} failed ({done.returncode}):\n"
                     f"{done.stderr}")
        with open(out.name) as f:
            return json.load(f)["benchmarks"]


def medians(benchmarks):
    """run_name -> the median aggregate's entry (or the single run's when not repeated)."""
    by_name = {}
    for b in benchmarks:
        if b.get("aggregate_name", "median") == "median":
            by_name[b["run_name"]] = b
    return by_name


def micro_seconds(entry):
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[entry["time_unit"]]
    return entry["cpu_time"] * scale


def row(name, now, goal, unit, at_most=True):
    """A table row; at_most: the goal is an upper bound (times), else a lower bound (ratios)."""
    met = now <= goal if at_most else now >= goal
    ratio = now / goal
    return f"| {name} | {now:.3g} {unit} | {'≤' if at_most else '≥'} {goal:g} {unit} | " \
           f"{ratio:.2f} | {'met' if met else 'not met'} |"


def step_rows(build, repetitions):
    found = medians(run_benchmark(
        build, "step_bench", "BM_RolloutStep/(arm_cubes_qp|arm_cubes_socp|planar_hand_qp)$",
        repetitions))
    goals = [("arm + 10 cubes QP step (rollout)", "BM_RolloutStep/arm_cubes_qp", 120),
             ("arm + 10 cubes SOCP step (rollout)", "BM_RolloutStep/arm_cubes_socp", 150),
             ("planar hand QP step (rollout)", "BM_RolloutStep/planar_hand_qp", 4)]
    return [row(name, micro_seconds(found[key]), goal, "µs") for name, key, goal in goals]


def diff_rows(build, repetitions):
    found = medians(run_benchmark(
        build, "gradient_cost_bench", "BM_CalcDiff/(arm_cubes|planar_hand)_.*_A_and_B$",
        repetitions))
    rows = []
    for scene, goal in (("arm_cubes", 120), ("planar_hand", 4)):
        for formulation in ("qp", "socp", "log_barrier_cone", "log_barrier"):
            key = f"BM_CalcDiff/{scene}_{formulation}_A_and_B"
            if key in found:
                rows.append(row(f"CalcDiff A+B, {scene}, {formulation}",
                                micro_seconds(found[key]), goal, "µs"))
    return rows


def ecp_rows(build, repetitions):
    found = medians(run_benchmark(build, "ecp_bench", "BM_EcpNcpOurs|BM_EcpNcpSiconos",
                                  repetitions))
    rows = []
    for scene in ("ecp_cube_sliding", "ecp_cylinder_rolling", "ecp_cube_toppling"):
        ours = micro_seconds(found[f"BM_EcpNcpOurs/{scene}"])
        theirs = micro_seconds(found[f"BM_EcpNcpSiconos/{scene}"])
        rows.append(row(f"ECP NCP, Siconos / ours, {scene} ({theirs:.3g} / {ours:.3g} µs)",
                        theirs / ours, 3, "×", at_most=False))
    return rows


def pick_rows(build, repetitions):
    found = medians(run_benchmark(build, "pick_place_bench", "BM_PickAndPlace/(qp|socp)$",
                                  repetitions))
    return [row(f"pick-and-place at h = 0.1 s, {f}, CPU per simulated second",
                found[f"BM_PickAndPlace/{f}"]["ms_per_simulated_second"], 2, "ms")
            for f in ("qp", "socp")]


def handover_floor(items, item_us, start_us, notify_us, first_extra_us=0.0, growth=1.0):
    """The best linear fraction one 2-thread call of `items` equal items of `item_us` (their cost
    alone, on 1 thread) can reach when the other worker starts `start_us` after the call began
    and its first item takes `first_extra_us` longer than alone (its CPU's caches), the caller
    starts `notify_us` after it (its wake system call), and every other item costs × `growth`
    with both CPUs busy (the machine's own, measured by two independent callers): items go to
    whichever worker is free first, and the call ends when both have finished (the caller spins
    for the other's last item). Nothing else is lost."""
    free = [notify_us, start_us]  # when the caller (0) and the other worker (1) are free
    first = True                  # the other worker has not run an item yet
    for _ in range(items):
        w = 0 if free[0] <= free[1] else 1
        if w == 1 and first:
            free[1] += item_us + first_extra_us
            first = False
        else:
            free[w] += item_us * growth
    return items * item_us / (2 * max(free))


def thread_rows(build, repetitions):
    """Two kinds of call: a batch made alone after a gap as long as its 1-thread call (single
    call; with the default policy the other worker spins 4 ms after a call, so it still spins
    after the gradient batches' gaps and has blocked after the rollouts': the wake and the cold
    CPU, with its hand-over floor), and batches made in a loop (steady state, rows _8_in_a_row: their first call untimed). Each is judged by the
    median over the benchmark's iterations of each iteration's own fraction (its 1-thread and
    its 2-thread calls made one after the other: a burst of the host's other work that takes one
    call does not move it), with the fraction of the summed times beside it. Beside them the
    machine's controls: the same shapes of register-only arithmetic, and two independent callers
    (the CPU per item two busy CPUs cost when nothing is shared). A loop row also makes its
    items as two independent callers in each of its iterations (BM_ThreadScaling's paired
    control): their own fraction in the same minutes, and ours over theirs, the batch's own
    loss with the host's minute taken out. The single calls' floor comes
    from the timeline of the same items after the same idle (BM_BatchTimeline: how late the
    other worker starts, how much longer its first item takes) with the independent callers'
    growth. At least 5 repetitions: on a shared virtual machine a burst of the host's other work
    can take one of them."""
    # Each single call's batch, its items, and its timeline with the other CPU idle for as long
    # as the 1-thread call lasts (BM_BatchTimeline's gaps) and its independent callers' row.
    single = {"gradients_planar_hand_reused": (64, "gradients_planar_hand/threads:2/gap_us:650",
                                               "gradients_planar_hand_reused"),
              "gradients_arm_cubes_reused": (8, "gradients_arm_cubes/threads:2/gap_us:2500",
                                             "gradients_arm_cubes_reused"),
              "rollouts_planar_hand_reused": (64, "rollouts_planar_hand/threads:2/gap_us:15000",
                                              "rollouts_planar_hand_reused"),
              "control_compute": (16, None, None)}
    # Each loop row's batch: its items and its independent callers' row. The other worker spins
    # between calls in a loop, so its floor has no wake: the last item's imbalance and the
    # machine's own cost of two busy CPUs.
    loop = {"gradients_planar_hand_reused_8_in_a_row": (64, "gradients_planar_hand_reused"),
            "gradients_arm_cubes_reused_8_in_a_row": (8, "gradients_arm_cubes_reused"),
            "rollouts_planar_hand_reused_8_in_a_row": (64, "rollouts_planar_hand_reused"),
            "control_compute_short_8_in_a_row": (64, None)}
    # The single calls with the other worker spinning for them (SetParkedThreadSpin), paired
    # in each iteration with the same call after it blocked (BM_SpinningWorker): no wake, so
    # the loop rows' floor.
    spin = {batch: (items, independent)
            for batch, (items, _, independent) in single.items() if independent}
    timelines = [t for _, t, _ in single.values() if t]
    found = medians(run_benchmark(
        build, "batch_bench",
        f"ThreadScaling/({'|'.join([*single, *loop])})$|IndependentCallers/|SpinningWorker/"
        f"|BatchTimeline/({'|'.join(timelines)})$",
        max(repetitions, 5),
        ("--benchmark_min_time=1",)))
    # The wake of a thread parked for 1 ms (the control's floor), thread_wake_bench.cc.
    wake = medians(run_benchmark(build, "thread_wake_bench",
                                 "BM_ThreadWakeLatency/caller_spins/gap_us:1000/", 1,
                                 ("--benchmark_min_time=1",), preexec=ordinary_policy))
    wake = next(iter(wake.values()))
    start_us, notify_us = wake["wake_us_50"], wake["notify_us_50"]

    def judged(entry):
        return (f"median over the calls; {entry['linear_fraction']:.3f} of the summed times",
                entry["linear_fraction_median"])

    rows = []
    for batch, (items, independent) in loop.items():
        entry = found[f"BM_ThreadScaling/{batch}"]
        growth = entry["cpu_us_per_item_2"] / entry["cpu_us_per_item_1"]
        item_us = 1e6 / entry["items_per_second_1"]
        how, fraction = judged(entry)
        machine = found[f"BM_IndependentCallers/{independent}"]["growth"] if independent else 1.0
        floor = handover_floor(items, item_us, 0.0, 0.0, 0.0, machine)
        label = (f"{batch} on 2 threads, calls in a loop (CPU per item × {growth:.3f} of 1 "
                 f"thread; {how}; floor {floor:.3f}: {items} × {item_us:.3g} µs, items × "
                 f"{machine:.3f} with both CPUs busy; the same items made by two independent "
                 f"callers in the same iterations {entry['independent_fraction_median']:.3f}, "
                 f"ours over theirs {entry['over_independent_median']:.3f})")
        if batch.startswith("control"):
            label += ", the machine's control"
        rows.append(row(label, fraction, 0.95, "of linear", at_most=False))
    for batch, (items, timeline, independent) in single.items():
        entry = found[f"BM_ThreadScaling/{batch}"]
        growth = entry["cpu_us_per_item_2"] / entry["cpu_us_per_item_1"]
        item_us = 1e6 / entry["items_per_second_1"]
        how, fraction = judged(entry)
        if timeline:
            line = found[f"BM_BatchTimeline/{timeline}"]
            machine = found[f"BM_IndependentCallers/{independent}"]["growth"]
            begins, extra = line["worker1_start_us"], line["worker1_first_item_extra_us"]
            floor = handover_floor(items, item_us, begins, notify_us, extra, machine)
            why = (f"the other worker starts {begins:.3g} µs late, its first item "
                   f"+{extra:.2g} µs, items × {machine:.3f} with both CPUs busy")
        else:
            floor = handover_floor(items, item_us, start_us, notify_us)
            why = f"wake {start_us:.3g} µs"
        label = (f"{batch} on 2 threads, a single call after a gap as long as its 1-thread call "
                 f"(the default policy: the other worker spins {DEFAULT_SPIN_MS:g} ms after a call, "
                 f"then blocks; CPU per "
                 f"item × {growth:.3f} of 1 thread; {how}; floor {floor:.3f}: {items} × "
                 f"{item_us:.3g} µs, {why}, notify {notify_us:.2g} µs)")
        if batch == "control_compute":
            label += ", the machine's control"
        rows.append(row(label, fraction, 0.95, "of linear", at_most=False))
    for batch, (items, independent) in spin.items():
        entry = found[f"BM_SpinningWorker/{batch}"]
        item_us = 1e6 / entry["items_per_second_1"]
        machine = found[f"BM_IndependentCallers/{independent}"]["growth"]
        floor = handover_floor(items, item_us, 0.0, 0.0, 0.0, machine)
        label = (f"{batch} on 2 threads, a single call with the other worker spinning for it "
                 f"(set_parked_thread_spin 50 ms; median over the calls; "
                 f"{entry['linear_fraction_median_blocking']:.3f} in the same iterations with "
                 f"the worker blocked, set_parked_thread_spin 0; the caller's 1-thread call × "
                 f"{entry['serial_time_with_spin']:.3f} its time alone with the worker spinning "
                 f"beside it; floor {floor:.3f}: {items} × {item_us:.3g} µs, items × "
                 f"{machine:.3f} with both CPUs busy)")
        rows.append(row(label, entry["linear_fraction_median"], 0.95, "of linear",
                        at_most=False))
    independent = [f"{name.split('/')[1]} × {entry['growth']:.3f}"
                   for name, entry in found.items() if name.startswith("BM_IndependentCallers/")]
    rows.append(f"| two independent callers at once (nothing shared), CPU per item over one alone "
                f"| {'; '.join(independent)} | | | the machine's control |")
    return rows


def chosen_groups(parser, rows, known):
    """The groups named by a --rows value (comma-separated), or the parser's error naming the
    unknown ones."""
    groups = rows.split(",")
    unknown = [g for g in groups if g not in known]
    if unknown:
        parser.error(f"--rows: unknown group(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return groups


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default="build/release")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--rows", default=",".join(ROW_GROUPS))
    options = parser.parse_args()
    groups = chosen_groups(parser, options.rows, ROW_GROUPS)
    if options.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    binaries = {"step": ("step_bench",), "diff": ("gradient_cost_bench",),
                "ecp": ("ecp_bench",), "pick": ("pick_place_bench",),
                "threads": ("batch_bench", "thread_wake_bench")}
    for group in groups:
        for binary in binaries[group]:
            path = os.path.join(options.build, binary)
            if not os.access(path, os.X_OK):
                sys.exit(f"performance_rows: {path} is missing: build the release preset first")
    makers = {"step": step_rows, "diff": diff_rows, "ecp": ecp_rows, "pick": pick_rows,
              "threads": thread_rows}
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start; "
          f"CPU-time medians of {options.repetitions}")
    print("| row | now | goal | now / goal | |")
    print("|---|---|---|---|---|")
    for group in groups:
        for line in makers[group](options.build, options.repetitions):
            print(line, flush=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")


if __name__ == "__main__":
    main()
