"""Soak test: a long job of rollouts through quasidyn.distributed on a LocalCluster of worker
processes, many batches in a row; the resident memory of every worker process and of the
client (which also hosts the LocalCluster's scheduler) sampled after each batch; exits 1 when
a worker's grows by more than --max-growth percent after the warm-up (the first 10 % of the
batches). docs/development.md, "Soak tests".

Batch b: --rollouts rollouts of the planar hand (qp, --steps steps each, A and B computed),
under the scene's schedule plus a random offset of the commands drawn from seed b, --chunk
rollouts per work unit. Prints the soak table's rows: one per worker, the client's RSS and the
client's C heap in use. The client's RSS is reported, not checked: it holds the scheduler, and
it creeps up by about 2 KiB per batch while its C heap in use and the count of its Python
objects of every type stay flat (docs/development.md, "Soak tests"); its heap in use is
checked.

Dask keeps bounded histories of its own that take far longer than this run to fill: a worker's
last 100,000 task transitions, 10,000 stimuli and 100,000 results sent, an hour of statistical profiles (one per
second), the scheduler's last 100,000 transitions and events. Filling, they grow a worker by
about 5 KiB per task, which is Dask's and stops at the bound; so the run shortens them (the
profiler off, every log bounded at 100 entries, full within the warm-up) and what is left to
grow is what has no bound. The cluster's files go to a temporary folder removed at the end.

    PYTHONPATH=build/release/python python3 tests/soak/distributed_rollouts.py \
        examples/planar_hand/scene.yaml --batches 1000
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import deque
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resident_memory import MemoryTrace, heap_in_use_kib  # noqa: E402

import quasidyn  # noqa: E402
import quasidyn.distributed as qd  # noqa: E402


# The client's row that is checked: its C heap in use (resident_memory.heap_in_use_kib).
CLIENT_HEAP = "client, C heap in use"

# Entries each of Dask's bounded histories keeps during the run (above).
DASK_HISTORY = 100
DASK_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.scheduler.transition-log-length": DASK_HISTORY,
    "distributed.scheduler.events-log-length": DASK_HISTORY,
    "distributed.admin.log-length": DASK_HISTORY,
}


def bound_worker_histories(dask_worker: Any) -> int:
    """Run on each worker (client.run): its state machine's logs and its log of results sent,
    whose lengths Dask fixes at 100,000, 10,000 and 100,000 entries, keep the last DASK_HISTORY
    entries instead."""
    state = dask_worker.state
    state.log = deque(state.log, maxlen=DASK_HISTORY)
    state.stimulus_log = deque(state.stimulus_log, maxlen=DASK_HISTORY)
    dask_worker.transfer_outgoing_log = deque(dask_worker.transfer_outgoing_log,
                                              maxlen=DASK_HISTORY)
    return os.getpid()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scene", help="the planar hand's scene file")
    parser.add_argument("--batches", type=int, default=1000, help="qd.rollouts calls (>= 10)")
    parser.add_argument("--rollouts", type=int, default=8, help="rollouts per batch (>= 1)")
    parser.add_argument("--steps", type=int, default=50, help="steps per rollout (>= 1)")
    parser.add_argument("--chunk", type=int, default=2, help="rollouts per work unit (>= 1)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (>= 1)")
    parser.add_argument("--max-growth", type=float, default=1.0,
                        help="allowed growth of a worker's resident memory after the warm-up "
                             "[%%], >= 0")
    args = parser.parse_args()
    for name, least in (("batches", 10), ("rollouts", 1), ("steps", 1), ("chunk", 1),
                        ("workers", 1)):
        if getattr(args, name) < least:
            parser.error(f"--{name} must be >= {least} (got {getattr(args, name)})")
    if args.max_growth < 0:
        parser.error(f"--max-growth must be >= 0 (got {args.max_growth})")

    import dask
    dask.config.set(DASK_CONFIG)
    with tempfile.TemporaryDirectory(prefix="soak-distributed-") as scratch:
        os.environ["TMPDIR"] = scratch  # the workers' folders and scene copies
        tempfile.tempdir = scratch
        try:
            return soak(args)
        finally:
            qd._close_default_clients()
            tempfile.tempdir = None


def soak(args: argparse.Namespace) -> int:
    scene = quasidyn.load_scene(args.scene)
    client = qd.client(workers=args.workers)
    worker_pids = client.run(bound_worker_histories)  # {address: pid}, all on this machine
    pids = {f"worker {k + 1}": pid for k, pid in enumerate(sorted(worker_pids.values()))}
    pids["client"] = None
    nominal = np.stack([scene.command_at((k + 1) * scene.time_step) for k in range(args.steps)])
    trace = MemoryTrace(args.batches, "batches")
    q_sum = 0.0
    start = time.perf_counter()
    for b in range(args.batches):
        rng = np.random.default_rng(b)
        offsets = rng.normal(0.0, 0.05, size=(args.rollouts, args.steps, nominal.shape[1]))
        runs = qd.rollouts(scene, None, nominal[None] + offsets, client=client,
                           chunk_size=args.chunk, progress=False, gradients="a_and_b")
        if not np.asarray(runs.completed).all():
            print(f"batch {b}: rollouts not completed: {sorted(set(runs.message))}",
                  file=sys.stderr)
            return 1
        q_sum += float(np.asarray(runs.q)[:, -1, 2].sum())
        del runs
        trace.sample(b + 1, pids, measured={CLIENT_HEAP: heap_in_use_kib()})
    seconds = time.perf_counter() - start
    if sorted(client.run(os.getpid).values()) != sorted(worker_pids.values()):
        print("FAIL: a worker process was replaced during the run (its memory was not measured "
              "to the end)", file=sys.stderr)
        return 1
    print(f"{args.batches} batches of {args.rollouts} rollouts x {args.steps} steps with A, B "
          f"on {args.workers} workers in {seconds:.1f} s ({1e3 * seconds / args.batches:.1f} "
          f"ms/batch); sum of the ball's last angles {q_sum:.6f}")
    checked = {name for name in pids if name != "client"} | {CLIENT_HEAP}
    return trace.report(f"distributed rollout batches, {args.rollouts} x {args.steps} steps",
                        args.max_growth, checked=checked)


if __name__ == "__main__":
    sys.exit(main())
