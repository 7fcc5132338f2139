"""quasidyn.distributed against the thread batch on this machine (docs/distributed.md), not a
timed test: throughput of a rollout data set and of a smoothing-heavy gradient with 1 and 2
local Dask workers and with rollout_batch / BatchLinearizer on 1 and 2 threads, the scheduler's
overhead per task (no-op tasks), and the chunk size below which that overhead dominates.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/distributed_bench.py \
        [--rollouts 10000] [--steps 50] [--samples 4000] [--repetitions 3] [--out FILE.json]

Medians over --repetitions runs; the machine is shared, so ratios matter more than seconds.
"""

import argparse
import json
import os
import pathlib
import statistics
import sys
import time

import numpy as np

import quasidyn
import quasidyn.distributed as qd

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENE = ROOT / "examples" / "planar_hand" / "scene.yaml"


def median_seconds(run, repetitions):
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def inputs(scene, count, steps):
    rng = np.random.default_rng(0)
    q0s = np.tile(scene.q0, (count, 1))
    Us = np.tile(scene.q0[scene.q_a_slice], (count, steps, 1))
    Us += np.cumsum(rng.normal(0.0, 0.005, (count, steps, scene.nq_a)), axis=1)
    return q0s, Us


def noop(x):
    return x


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=10000)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    scene = quasidyn.load_scene(SCENE)
    q0s, Us = inputs(scene, args.rollouts, args.steps)
    q, u = scene.q0, scene.q0[scene.q_a_slice] + 0.01
    smoothing = dict(samples=args.samples, u_std=0.02, seed=0, gradients="a_and_b")
    rows = []

    def record(what, engine, parallel, seconds, units, extra=None):
        row = {"what": what, "engine": engine, "parallel": parallel, "seconds": seconds,
               "per_second": units / seconds}
        row.update(extra or {})
        rows.append(row)
        print(f"{what:10s} {engine:24s} x{parallel}  {seconds:8.3f} s  "
              f"{units / seconds:10.1f}/s", flush=True)

    for threads in (1, 2):
        seconds = median_seconds(
            lambda: quasidyn.rollout_batch(scene, q0s, Us, threads=threads), args.repetitions)
        record("rollouts", "rollout_batch threads", threads, seconds, args.rollouts)
        linearizer = quasidyn.BatchLinearizer(scene, threads=threads)
        seconds = median_seconds(lambda: linearizer.smooth_first_order(q, u, **smoothing),
                                 args.repetitions)
        record("smoothing", "BatchLinearizer threads", threads, seconds, args.samples)

    overhead = {}
    for workers in (1, 2):
        client = qd.client(None, workers=workers)
        client.submit(noop, 0).result()  # the workers are up
        tasks = 2000
        seconds = median_seconds(lambda: client.gather(client.map(noop, range(tasks), pure=False)),
                                 args.repetitions)
        overhead[workers] = seconds / tasks
        print(f"no-op task round trip, {workers} worker(s): {1e3 * seconds / tasks:.3f} ms/task")
        qd.rollouts(scene, q0s[:workers], Us[:workers], client=client, chunk_size=1,
                    progress=False)  # every worker has the scene
        for chunk in (10, 100, 1000):
            seconds = median_seconds(
                lambda: qd.rollouts(scene, q0s, Us, client=client, chunk_size=chunk,
                                    progress=False), args.repetitions)
            record("rollouts", f"dask chunk {chunk}", workers, seconds, args.rollouts,
                   {"chunk": chunk})
        qd.smoothed_linearize(scene, q, u, client=client, samples=workers, u_std=0.02)
        for chunk in (50, 500):
            seconds = median_seconds(
                lambda: qd.smoothed_linearize(scene, q, u, client=client, chunk_size=chunk,
                                              **smoothing), args.repetitions)
            record("smoothing", f"dask chunk {chunk}", workers, seconds, args.samples,
                   {"chunk": chunk})
        qd._close_default_clients()

    serial = next(r for r in rows if r["what"] == "rollouts" and r["parallel"] == 1)
    per_rollout = serial["seconds"] / args.rollouts
    crossover = {w: overhead[w] / per_rollout for w in overhead}
    print(f"one rollout of {args.steps} steps: {1e3 * per_rollout:.3f} ms; the per-task overhead "
          f"equals the work of a chunk of {crossover[1]:.1f} rollouts (1 worker), "
          f"{crossover[2]:.1f} (2 workers)")
    report = {"machine_cores": os.cpu_count(), "rollouts": args.rollouts, "steps": args.steps,
              "samples": args.samples, "rows": rows, "task_overhead_seconds": overhead,
              "rollout_seconds": per_rollout, "overhead_equals_chunk_of": crossover}
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
