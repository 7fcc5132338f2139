"""quasidyn on a Dask cluster: the batch calls spread over many processes and machines, results
bitwise equal to one process (docs/distributed.md).

    import quasidyn, quasidyn.distributed as qd
    scene = quasidyn.load_scene("examples/planar_hand/scene.yaml")
    runs = qd.rollouts(scene, Q0, Us)                          # a LocalCluster on this machine
    runs = qd.rollouts(scene, Q0, Us, client="tcp://head:8786")  # a running scheduler
    g = qd.smoothed_linearize(scene, q, u, samples=10_000, u_std=0.05)
    table = qd.sweep(scene, {"h": [0.01, 0.05, 0.1]}, formulations=["qp", "socp"])

Every call takes `client`: None (a LocalCluster of one single-threaded worker process per core,
made on first use and kept), a scheduler address, or a distributed.Client. Work goes out in
small self-describing units: the scene as a SceneSource (its file's text, the files it
references, its edits), the formulation's keywords and a chunk of inputs; each worker builds the
scene and its stepper once and keeps them. Random numbers depend on the sample index only, each
unit's results land at their indices, and every reduction runs on the client in index order, so
any chunking, worker count and completion order gives the single-process result bit for bit.
A worker that dies has its units recomputed elsewhere (the scheduler's retries); a unit that
raises reaches the caller as WorkerError naming the unit and its inputs.

Command line: python3 -m quasidyn.distributed sweep SCENE --param h=0.01,0.05 ... (also
`quasidyn sweep`).
"""

from __future__ import annotations

import atexit
import csv
import hashlib
import html
import io
import itertools
import json
import math
import os
import pickle
import signal
import sys
import uuid
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

import numpy as np

from quasidyn import _distributed_tasks as tasks
from quasidyn._distributed_tasks import WorkerError
from quasidyn._scene_source import SceneSource

__all__ = ["SceneSource", "WorkerError", "SweepInterrupted", "Rollouts", "PlanStudy",
           "SweepTable", "client", "rollouts", "smoothed_linearize", "plan_study", "sweep", "compare"]

_default_clients: Dict[Any, Any] = {}


def client(address: Any = None, workers: Optional[int] = None) -> Any:
    """A distributed.Client: `address` None gives a LocalCluster of `workers` (default: the
    cores) single-threaded worker processes on this machine, made once and closed at exit; a
    string connects to that scheduler (tcp://HOST:PORT); a Client is returned as is."""
    import distributed
    if address is not None and not isinstance(address, str):
        return address
    key = (address, workers)
    existing = _default_clients.get(key)
    if existing is not None and existing.status == "running":
        return existing
    if address is None:
        cluster = distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                           threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        made = distributed.Client(cluster)
    else:
        made = distributed.Client(address)
    _default_clients[key] = made
    return made


@atexit.register
def _close_default_clients() -> None:
    for made in _default_clients.values():
        cluster = getattr(made, "cluster", None)
        made.close()
        if cluster is not None:
            cluster.close()
    _default_clients.clear()


def _source(scene: Any) -> SceneSource:
    return SceneSource.of(scene)


def _progress(done: int, total: int, what: str) -> None:
    """A progress bar on a terminal's stderr; nothing when stderr is redirected."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    end = "\n" if done == total else ""
    sys.stderr.write(f"\r{what} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
    sys.stderr.flush()


def _run_units(client_: Any, function: Callable, units: Sequence[tuple], kind: str,
               on_result: Callable[[int, Any], None], in_flight: Optional[int] = None,
               progress: bool = False) -> None:
    """Submits function(*units[i]) for every i (at most `in_flight` at a time) and calls
    on_result(i, value) as each finishes, in any order. The first failure cancels the rest and
    is raised (a WorkerError from the unit)."""
    import distributed
    if in_flight is None:
        in_flight = max(4 * len(client_.scheduler_info().get("workers", {})), 8)
    job = uuid.uuid4().hex[:8]
    pending = iter(enumerate(units))
    running: Dict[str, tuple] = {}  # key -> (index, future)
    queue = distributed.as_completed()

    def submit_next() -> None:
        for i, arguments in pending:
            # A chunk's inputs travel inside its task, not as scattered data: the scheduler can
            # then run the task again elsewhere when its worker dies (scattered data would die
            # with it). Dask's advice to scatter inputs over 1 MB does not apply.
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Large object of size")
                future = client_.submit(function, *arguments, key=f"quasidyn-{kind}-{job}-{i}",
                                        pure=False)
            running[future.key] = (i, future)
            queue.add(future)
            return

    for _ in range(in_flight):
        submit_next()
    done = 0
    try:
        for future in queue:
            i, _ = running.pop(future.key)
            value = future.result()  # re-raises the unit's WorkerError
            future.release()
            on_result(i, value)
            done += 1
            if progress:
                _progress(done, len(units), kind)
            submit_next()
    except BaseException:
        client_.cancel([f for _, f in running.values()])
        raise


def _gather_units(client_: Any, function: Callable, units: Sequence[tuple], kind: str,
                  progress: bool = False) -> List[Any]:
    """Every unit's result, in the units' order (_run_units keeping them all)."""
    results: List[Any] = [None] * len(units)

    def keep(i: int, value: Any) -> None:
        results[i] = value

    _run_units(client_, function, units, kind, keep, progress=progress)
    return results


def _chunks(total: int, chunk_size: int) -> List[range]:
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1 (got {chunk_size})")
    return [range(a, min(a + chunk_size, total)) for a in range(0, total, chunk_size)]


def _default_chunk(total: int, client_: Any) -> int:
    workers = max(len(client_.scheduler_info().get("workers", {})), 1)
    return max(1, math.ceil(total / (4 * workers)))


# ----------------------------------------------------------------------------------------------
# Rollouts


class Rollouts:
    """Stacked results of many rollouts, row i for (q0s[i], Us[i]), as rollout_batch's
    RolloutBatch names them: q (B, N + 1, n_q), v, u (B, N, nu), A, B, completed (B,),
    steps_done (B,), status and message (lists), times (N + 1,); state rows q0 first, step rows
    N (docs/python.md, "Arrays of a trajectory"). With a store, the arrays are
    the data set's (zarr arrays: read by slicing, never all at once)."""

    def __init__(self, arrays: Mapping[str, Any], status: List[str], message: List[str],
                 times: np.ndarray, store: Optional[str] = None, chunks_computed: int = 0):
        self.chunks_computed = chunks_computed  # units this call ran (a resumed store: fewer)
        self.arrays = dict(arrays)
        self.status = status
        self.message = message
        self.times = times
        self.store = store

    def __getattr__(self, name: str) -> Any:
        arrays = self.__dict__.get("arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    def __len__(self) -> int:
        return len(self.status)

    def __repr__(self) -> str:
        completed = int(np.count_nonzero(np.asarray(self.arrays["completed"][:])))
        where = f", store {self.store}" if self.store else ""
        return f"<quasidyn.distributed.Rollouts {len(self)} rollouts, {completed} completed{where}>"


def _stack_into(arrays: Dict[str, Any], rows: range, chunk: Dict[str, Any], total: int) -> None:
    for name in tasks.ARRAYS:
        if name not in chunk:
            continue
        value = np.asarray(chunk[name])
        if name not in arrays:
            arrays[name] = np.empty((total,) + value.shape[1:], dtype=value.dtype)
        arrays[name][rows.start:rows.stop] = value


def _job_fingerprint(*parts: Any) -> str:
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            digest.update(part.dtype.str.encode() + repr(part.shape).encode())
            digest.update(np.ascontiguousarray(part).tobytes())
        else:
            digest.update(pickle.dumps(part, protocol=4))
    return digest.hexdigest()


def rollouts(scene: Any, q0s: Optional[np.ndarray] = None, Us: Optional[np.ndarray] = None, *,
             client: Any = None, chunk_size: Optional[int] = None, store: Any = None,
             v0s: Optional[np.ndarray] = None, progress: bool = True, **keywords: Any) -> Rollouts:
    """quasidyn.rollout_batch(scene, q0s, Us, **keywords) on the cluster: `chunk_size` rows per
    unit (default: four units per worker). keywords: formulation, h, parameters, steps,
    duration, gradients and every formulation parameter by its key (as rollout_batch).

    store: a folder for a zarr data set written chunk by chunk as units finish (for runs larger
    than memory); calling again with the same arguments and store resumes, computing only the
    chunks it lacks. A store holding another job is refused."""
    if "threads" in keywords:
        raise TypeError("rollouts: threads is per worker (1); the workers are the parallelism")
    if q0s is None and Us is None:
        raise ValueError("rollouts: give q0s (B, n_q) and/or Us (B, N, nu)")
    source = _source(scene)
    q0s = None if q0s is None else np.ascontiguousarray(q0s, dtype=float)
    Us = None if Us is None else np.ascontiguousarray(Us, dtype=float)
    v0s = None if v0s is None else np.ascontiguousarray(v0s, dtype=float)
    total = len(q0s) if q0s is not None else len(Us)
    if total == 0:
        raise ValueError("rollouts: no rollouts (q0s and Us have 0 rows)")
    for name, value in (("Us", Us), ("v0s", v0s)):
        if value is not None and len(value) != total:
            raise ValueError(f"rollouts: {name} has {len(value)} rows for {total} rollouts")
    made = client_of(client)
    chunks = _chunks(total, chunk_size or _default_chunk(total, made))
    if store is not None:
        # A store keeps the job's fingerprint and its chunks: a resumed run uses them.
        fingerprint = _job_fingerprint(source.digest, q0s, Us, v0s, sorted(keywords.items()))
        chunks = _store_chunks(os.fspath(store), fingerprint, chunks, chunk_size)

    def unit(i: int) -> tuple:
        part = slice(chunks[i].start, chunks[i].stop)
        return (source, part.start, None if q0s is None else q0s[part],
                None if Us is None else Us[part], None if v0s is None else v0s[part], keywords,
                f"rollouts chunk {i}")

    if store is not None:
        return _rollouts_to_store(made, os.fspath(store), chunks, unit, total, progress)

    arrays: Dict[str, Any] = {}
    status: List[str] = [""] * total
    message: List[str] = [""] * total
    times: List[np.ndarray] = []

    def keep(i: int, chunk: Dict[str, Any]) -> None:
        rows = chunks[i]
        _stack_into(arrays, rows, chunk, total)
        status[rows.start:rows.stop] = chunk["status"]
        message[rows.start:rows.stop] = chunk["message"]
        if not times:
            times.append(chunk["times"])

    _run_units(made, tasks.rollout_chunk, [unit(i) for i in range(len(chunks))], "rollouts",
               keep, progress=progress)
    return Rollouts(arrays, status, message, times[0], chunks_computed=len(chunks))


def _store_chunks(path: str, fingerprint: str, chunks: List[range],
                  chunk_size: Optional[int]) -> List[range]:
    """The chunks of the job in the store at `path`: its own when it holds this job (resumed),
    else `chunks`, recorded with the fingerprint. Another job's store is refused."""
    import zarr
    root = zarr.open_group(path, mode="a")
    if "fingerprint" in root.attrs:
        if root.attrs["fingerprint"] != fingerprint:
            raise ValueError(f"rollouts: the store {path} holds another job (other scene, "
                             "inputs or keywords); give a new folder")
        stored = [range(a, b) for a, b in root.attrs["chunks"]]
        if chunk_size is not None and len(stored[0]) != chunk_size:
            raise ValueError(f"rollouts: the store {path} was started with chunk_size "
                             f"{len(stored[0])}; resume it with that (or none)")
        return stored
    root.zeros("done", shape=(len(chunks),), chunks=(len(chunks),), dtype=bool, overwrite=True)
    root.attrs["chunks"] = [[r.start, r.stop] for r in chunks]
    root.attrs["fingerprint"] = fingerprint  # last: from here on the store holds this job
    return chunks


def _rollouts_to_store(made: Any, path: str, chunks: List[range], unit: Callable[[int], tuple],
                       total: int, progress: bool) -> Rollouts:
    import zarr
    root = zarr.open_group(path, mode="a")
    done = root["done"][:]
    todo = [i for i in range(len(chunks)) if not done[i]]

    def keep(k: int, chunk: Dict[str, Any]) -> None:
        i = todo[k]
        rows = chunks[i]
        for name in tasks.ARRAYS:
            if name not in chunk:
                continue
            value = np.asarray(chunk[name])
            if name not in root:
                root.zeros(name, shape=(total,) + value.shape[1:], dtype=value.dtype,
                           chunks=(len(chunks[0]),) + tuple(max(d, 1) for d in value.shape[1:]))
            root[name][rows.start:rows.stop] = value
        for name in ("status", "message"):
            if name not in root:
                root.zeros(name, shape=(total,), dtype=str, chunks=(len(chunks[0]),))
            root[name][rows.start:rows.stop] = np.array(chunk[name], dtype=object)
        if "times" not in root:
            root.array("times", np.asarray(chunk["times"]))
        root["done"][i] = True  # last: a chunk is done only when all of it is written

    _run_units(made, tasks.rollout_chunk, [unit(i) for i in todo], "rollouts", keep,
               progress=progress)
    runs = open_rollouts(path)
    runs.chunks_computed = len(todo)
    return runs


def open_rollouts(path: Any) -> Rollouts:
    """The Rollouts of a finished store (zarr arrays, read by slicing)."""
    import zarr
    root = zarr.open_group(os.fspath(path), mode="r")
    if "done" not in root or not bool(np.all(root["done"][:])):
        raise ValueError(f"{os.fspath(path)}: the run is not complete; call rollouts again with "
                         "the same arguments and store to finish it")
    arrays = {name: root[name] for name in tasks.ARRAYS if name in root}
    return Rollouts(arrays, list(root["status"][:]), list(root["message"][:]),
                    np.asarray(root["times"][:]), store=os.fspath(path))


# ----------------------------------------------------------------------------------------------
# Randomized smoothing


_LINEARIZER_KEYWORDS = ("formulation", "h", "contact_tolerance", "parameters")


def _parameter_keys() -> set:
    """Every number parameter a registered formulation declares (a keyword of its own of the
    batch calls)."""
    import quasidyn
    return {p["key"] for f in quasidyn.formulations() for p in f["parameters"] if p["number"]}


def _linearization_default(name: str) -> str:
    """The default of the linearization block's setting `name`, as C++ declares it."""
    from quasidyn import _quasidyn
    for spec in _quasidyn._settings()["linearization"]["settings"]:
        if spec["name"] == name:
            return spec["default"]
    raise KeyError(name)


def smoothed_linearize(scene: Any, q: np.ndarray, u: np.ndarray, *,
                       samples: Optional[int] = None, u_std: Optional[float] = None,
                       q_std: Optional[float] = None, seed: Optional[int] = None,
                       estimator: Optional[str] = None, gradients: Optional[str] = None,
                       method: str = "exact", client: Any = None,
                       chunk_size: Optional[int] = None, **keywords: Any) -> Any:
    """BatchLinearizer(scene, **keywords).smooth_first_order (estimator 'first-order') or
    .smooth_zeroth_order ('zeroth-order') with its samples spread over the workers: sample i is
    drawn from (seed, i) wherever it runs, the samples' linearisations come back in sample order
    and the estimate is formed here, bitwise equal to the one-process call. keywords: formulation,
    h, contact_tolerance, parameters and every formulation parameter by its key. samples, u_std,
    q_std, seed, estimator: the linearization block's (None: its defaults, declared once in
    C++; quasidyn._quasidyn._settings()["linearization"])."""
    import quasidyn
    unknown = set(keywords) - set(_LINEARIZER_KEYWORDS) - _parameter_keys()
    if unknown:
        raise TypeError(f"smoothed_linearize: unexpected keyword(s) {sorted(unknown)}")
    source = _source(scene)
    q = np.ascontiguousarray(q, dtype=float)
    u = np.ascontiguousarray(u, dtype=float)
    given = {"estimator": estimator, "samples": samples, "u_std": u_std, "q_std": q_std,
             "seed": seed}
    smoothing = {"gradients": gradients, "method": method,
                 **{k: v for k, v in given.items() if v is not None}}
    # Here first, so that a bad argument raises before any work is sent.
    local_scene = scene if isinstance(scene, quasidyn.Scene) else source.load()
    local = quasidyn.BatchLinearizer(local_scene, **keywords)
    local.smoothing_samples(q, u, 0, 0, **smoothing)
    if samples is None:
        samples = int(_linearization_default("samples"))
    made = client_of(client)
    chunks = _chunks(samples, chunk_size or _default_chunk(samples, made))
    units = [(source, q, u, r.start, len(r), keywords, smoothing, f"smoothing chunk {i}")
             for i, r in enumerate(chunks)]
    parts = _gather_units(made, tasks.smoothing_chunk, units, "smoothing")
    evaluations = quasidyn.BatchLinearization.concatenate(parts)
    estimate = {k: v for k, v in smoothing.items() if k != "samples"}  # len(evaluations)
    return local.smoothing_estimate(q, u, evaluations, **estimate)


# ----------------------------------------------------------------------------------------------
# Planning studies


class PlanStudy:
    """RRT over many seeds: runs (one dict per seed, in seed order: found, status, nodes,
    best_distance, seconds, path_q, path_u, ...) and the planner benchmark's statistics."""

    def __init__(self, runs: List[Dict[str, Any]]):
        self.runs = runs

    @property
    def summary(self) -> Dict[str, float]:
        seconds = [r["seconds"] for r in self.runs]
        nodes = [r["nodes"] for r in self.runs]
        found = [r["found"] for r in self.runs]
        return {"seeds": len(self.runs), "success_rate": float(np.mean(found)) if found else 0.0,
                "median_seconds": float(np.median(seconds)) if seconds else 0.0,
                "max_seconds": float(np.max(seconds)) if seconds else 0.0,
                "median_nodes": float(np.median(nodes)) if nodes else 0.0,
                "max_nodes": int(np.max(nodes)) if nodes else 0}

    def __repr__(self) -> str:
        s = self.summary
        return (f"<quasidyn.distributed.PlanStudy {s['seeds']} seeds, success "
                f"{s['success_rate']:.0%}, median {s['median_seconds']:.3g} s>")


def plan_study(scene: Any, seeds: Sequence[int], goal: Optional[Sequence[float]] = None, *,
               client: Any = None, progress: bool = True, **plan_keywords: Any) -> PlanStudy:
    """quasidyn.plan(scene, goal, seed=s, **plan_keywords) for every seed, one unit per seed.
    With a node limit (max_nodes) and no binding time limit each run equals the one-process
    plan; the wall times are each worker's own."""
    if "seed" in plan_keywords:
        raise TypeError("plan_study: give the seeds as `seeds`")
    source = _source(scene)
    seeds = [int(s) for s in seeds]
    units = [(source, s, goal, plan_keywords, f"plan seed {s}") for s in seeds]
    return PlanStudy(_gather_units(client_of(client), tasks.plan_seed, units, "plans",
                                   progress=progress))


# ----------------------------------------------------------------------------------------------
# Parameter sweeps


class SweepTable:
    """One row per (formulation, parameter values): completed, steps_done, status, message,
    seconds (the worker's wall time) and the final configuration by coordinate name."""

    def __init__(self, rows: List[Dict[str, Any]], parameters: List[str]):
        self.rows = rows
        self.parameters = parameters

    def columns(self) -> List[str]:
        coordinates = self.rows[0]["coordinates"] if self.rows else []
        return (["formulation"] + self.parameters +
                ["completed", "steps_done", "status", "seconds"] +
                [f"final {c}" for c in coordinates] + ["message"])

    def records(self) -> List[Dict[str, Any]]:
        out = []
        for row in self.rows:
            record = {k: row[k] for k in ["formulation"] + self.parameters +
                      ["completed", "steps_done", "status", "seconds", "message"]}
            for name, value in zip(row["coordinates"], row["q_final"]):
                record[f"final {name}"] = value
            out.append(record)
        return out

    def to_csv(self, path: Any = None) -> str:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=self.columns(), lineterminator="\n")
        writer.writeheader()
        for record in self.records():
            writer.writerow({k: (repr(v) if isinstance(v, float) else v)
                             for k, v in record.items()})
        text = buffer.getvalue()
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def to_html(self, path: Any = None, title: str = "quasidyn sweep") -> str:
        columns = self.columns()
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        body = []
        for record in self.records():
            cells = []
            for c in columns:
                v = record[c]
                text = f"{v:.6g}" if isinstance(v, float) else str(v)
                style = ' class="failed"' if c == "completed" and not v else ""
                cells.append(f"<td{style}>{html.escape(text)}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}"
                "</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
                "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
                ".failed{background:#fdd}</style></head><body>"
                f"<h1>{html.escape(title)}</h1><table><tr>{head}</tr>{''.join(body)}</table>"
                "</body></html>\n")
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page

    def __repr__(self) -> str:
        return f"<quasidyn.distributed.SweepTable {len(self.rows)} rows>"


class SweepInterrupted(KeyboardInterrupt):
    """The KeyboardInterrupt (Ctrl-C) that stopped a sweep, with the rows finished before it:
    .table, a SweepTable of them (in the grid's order), and .total, the rows of the whole
    sweep. The units still running were cancelled."""

    def __init__(self, table: "SweepTable", total: int):
        super().__init__(f"sweep interrupted after {len(table.rows)} of {total} rows")
        self.table = table
        self.total = total


def sweep(scene: Any, parameters: Mapping[str, Sequence[float]], *,
          formulations: Optional[Sequence[str]] = None, steps: Optional[int] = None,
          duration: Optional[float] = None, client: Any = None,
          progress: bool = True) -> SweepTable:
    """The scene's schedule rolled out for every formulation and every combination of the
    parameter values (a grid), one unit per row. Parameters: h [s] (the time step),
    contact_tolerance [m], friction (every shape's μ) or friction:SHAPE, and any formulation
    parameter by name (formulations() lists them)."""
    import quasidyn
    source = _source(scene)
    names = list(parameters)
    formulations = list(formulations or [source.load().formulation])
    for f in formulations:
        if f not in quasidyn.FORMULATIONS:
            raise ValueError(f"sweep: unknown formulation '{f}' (one of "
                             f"{', '.join(quasidyn.FORMULATIONS)})")
    grid = [dict(zip(names, values))
            for values in itertools.product(*[list(parameters[n]) for n in names])]
    run = {k: v for k, v in (("steps", steps), ("duration", duration)) if v is not None}
    cells = [(f, point) for f in formulations for point in grid]
    units = [(source, f, point, run, f"sweep cell {i}") for i, (f, point) in enumerate(cells)]
    rows: List[Any] = [None] * len(units)

    def keep(i: int, value: Any) -> None:
        rows[i] = value

    try:
        _run_units(client_of(client), tasks.sweep_cell, units, "sweep", keep, progress=progress)
    except KeyboardInterrupt:  # Ctrl-C: the finished rows, for the caller to keep
        finished = [row for row in rows if row is not None]
        raise SweepInterrupted(SweepTable(finished, names), len(units)) from None
    return SweepTable(rows, names)


def compare(scene: Any, *, formulations: Optional[Sequence[str]] = None, client: Any = None,
            **compare_keywords: Any) -> Dict[str, Any]:
    """quasidyn.compare with one unit per formulation (each computes the reference run too): the
    report's rows (without trajectories), table and csv, in the formulations' order."""
    import quasidyn
    source = _source(scene)
    formulations = list(formulations or quasidyn.FORMULATIONS)
    units = [(source, f, compare_keywords, f"compare {f}") for f in formulations]
    parts = _gather_units(client_of(client), tasks.compare_formulation, units, "compare")
    table_lines = parts[0]["table"].splitlines()
    csv_lines = parts[0]["csv"].splitlines()
    header_table = table_lines[:2]
    table = header_table + [line for p in parts for line in p["table"].splitlines()[2:] if line]
    csv_text = csv_lines[:1] + [line for p in parts for line in p["csv"].splitlines()[1:] if line]
    return {"scene": parts[0]["scene"], "h": parts[0]["h"], "steps": parts[0]["steps"],
            "rows": [row for p in parts for row in p["rows"]], "table": "\n".join(table) + "\n",
            "csv": "\n".join(csv_text) + "\n"}


def client_of(client_: Any) -> Any:
    return client(client_)


# ----------------------------------------------------------------------------------------------
# Command line: python3 -m quasidyn.distributed sweep SCENE --param NAME=V1,V2 ...


def _parse_parameter(text: str) -> tuple:
    """NAME=V1,V2,... as (name, [values]); ValueError naming what is wrong."""
    name, equals, values = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"--param '{text}': expected NAME=V1,V2,...")
    try:
        numbers = [float(v) for v in values.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--param '{text}': the values must be numbers") from None
    if not numbers:
        raise ValueError(f"--param '{text}': no values")
    return name.strip(), numbers


def main(argv: Optional[Sequence[str]] = None) -> int:
    import argparse
    top = argparse.ArgumentParser(prog="quasidyn", description="quasidyn on a Dask cluster")
    commands = top.add_subparsers(dest="command", required=True)
    parser = commands.add_parser(
        "sweep", prog="quasidyn sweep",
        description="Roll out a scene's schedule for every formulation and every combination of "
                    "parameter values on a Dask cluster; writes sweep.csv and sweep.html.")
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2",
                        help="a parameter and its values (h, contact_tolerance, friction, "
                             "friction:SHAPE, or a formulation parameter: quasidyn formulations "
                             "lists them); repeat for a grid")
    parser.add_argument("--formulation", default=None, metavar="F1,F2",
                        help="formulations (default: the scene's)")
    parser.add_argument("--steps", type=int, default=None, help="steps per rollout")
    parser.add_argument("--duration", type=float, default=None, help="seconds per rollout")
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="a running Dask scheduler (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=None,
                        help="local cluster: worker processes (default: the cores)")
    parser.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                        help="a package:// folder, as elsewhere")
    parser.add_argument("--out", default=".", help="folder for sweep.csv and sweep.html")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = top.parse_args(argv)
    # Dask's own log lines (cluster start and stop) only when something is wrong; its worker
    # processes inherit the setting. Read by dask when first imported, below.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error" if args.quiet else "warning")
    try:
        parameters = dict(_parse_parameter(p) for p in args.param)
    except ValueError as error:
        parser.error(str(error))  # exits 2, as every malformed command line
    if any("=" not in p for p in args.package):
        parser.error("--package takes NAME=DIR")
    packages = dict(p.split("=", 1) for p in args.package)
    received = []  # SIGTERM stops the sweep as Ctrl-C does (docs/cli.md)

    def on_term(number: int, frame: Any) -> None:
        received.append(number)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one kills at once
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    interrupted = None
    try:
        source = SceneSource.from_file(args.scene, packages)
        made = client(args.scheduler, args.workers)
        table = sweep(source, parameters,
                      formulations=args.formulation.split(",") if args.formulation else None,
                      steps=args.steps, duration=args.duration, client=made,
                      progress=not args.quiet)
    except SweepInterrupted as stop:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # a second Ctrl-C kills at once
        interrupted, table = stop, stop.table
    except KeyboardInterrupt:  # before the sweep's first unit: loading, or the cluster starting
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        total = (len(args.formulation.split(",")) if args.formulation else 1) * math.prod(
            len(values) for values in parameters.values())
        interrupted = SweepInterrupted(SweepTable([], list(parameters)), total)
        table = interrupted.table
    except (ValueError, FileNotFoundError, WorkerError) as error:
        sys.stderr.write(f"quasidyn sweep: {error}\n")
        return 1
    os.makedirs(args.out, exist_ok=True)
    table.to_csv(os.path.join(args.out, "sweep.csv"))
    table.to_html(os.path.join(args.out, "sweep.html"), title=f"sweep of {args.scene}")
    if interrupted is not None:
        sys.stderr.write(f"\nquasidyn sweep: interrupted after {len(table.rows)} of "
                         f"{interrupted.total} rows: wrote {os.path.join(args.out, 'sweep.csv')} "
                         f"and {os.path.join(args.out, 'sweep.html')} (the finished rows)\n")
        return 128 + (received[0] if received else signal.SIGINT)
    failed = sum(1 for r in table.rows if not r["completed"])
    print(json.dumps({"rows": len(table.rows), "failed": failed,
                      "csv": os.path.join(args.out, "sweep.csv"),
                      "html": os.path.join(args.out, "sweep.html")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
