"""What a Dask worker runs for quasidyn.distributed: one function per kind of work unit, each a
pure function of plain data (a SceneSource, the formulation's keywords, a chunk of inputs and
their indices) returning numpy arrays and plain values. docs/distributed.md.

Each worker process builds a scene, and the stepper or lineariser of each formulation choice,
once and keeps them (bounded caches keyed by the SceneSource's digest and the keywords), so a
job of many chunks pays the load once per worker. A failure inside a unit raises WorkerError
naming the unit and its inputs; the client re-raises it.
"""

from __future__ import annotations

import collections
import time
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from quasidyn._scene_source import SceneSource

# Bounds of the per-process caches (entries): the scenes and the linearisers built from them.
_CACHE_SIZE = 8
_scenes: "collections.OrderedDict[str, Any]" = collections.OrderedDict()
_linearizers: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()


class WorkerError(RuntimeError):
    """A work unit failed on a worker: `unit` names it (e.g. 'rollouts chunk 3'), `inputs`
    describes its inputs (rows, sample indices, parameter values), the message says why."""

    def __init__(self, message: str, unit: str = "", inputs: str = ""):
        super().__init__(message, unit, inputs)
        self.unit = unit
        self.inputs = inputs

    def __str__(self) -> str:
        return self.args[0]


def _cached(cache: "collections.OrderedDict", key: Any, make) -> Any:
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = make()
    cache[key] = value
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return value


def scene_of(source: SceneSource) -> Any:
    """The worker's Scene of `source` (built on first use)."""
    return _cached(_scenes, source.digest, source.load)


def _keywords_key(keywords: Dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in keywords.items()))


def _run(unit: str, inputs: str, work) -> Any:
    """work(), with any exception turned into a WorkerError naming the unit and its inputs."""
    try:
        return work()
    except Exception as error:  # noqa: BLE001  (every failure reaches the caller, named)
        raise WorkerError(f"{unit} ({inputs}) failed: {type(error).__name__}: {error}", unit,
                          inputs) from error


# The per-rollout arrays of a chunk, stacked row by row (RolloutBatch's names; A and B only
# when gradients were asked).
ARRAYS = ("q", "v", "u", "A", "B", "completed", "steps_done")


def rollout_chunk(source: SceneSource, first: int, q0s: Optional[np.ndarray],
                  Us: Optional[np.ndarray], v0s: Optional[np.ndarray], keywords: Dict[str, Any],
                  unit: str) -> Dict[str, Any]:
    """Rows first … first + len − 1 of quasidyn.rollout_batch(scene, q0s, Us, **keywords) on one
    thread, as arrays (q, v, A, B, completed, steps_done, status, message, times)."""
    import quasidyn
    rows = len(q0s) if q0s is not None else len(Us)
    inputs = f"rows {first}..{first + rows - 1}"

    def work():
        batch = quasidyn.rollout_batch(scene_of(source), q0s, Us, threads=1, v0s=v0s, **keywords)
        out = {}
        for name in ARRAYS:
            try:
                out[name] = np.asarray(getattr(batch, name))
            except ValueError:  # A and B without gradients: not computed
                continue
        out["status"] = list(batch.status)
        out["message"] = list(batch.message)
        out["times"] = np.asarray(batch.times)
        return out

    return _run(unit, inputs, work)


def _batch_linearizer(source: SceneSource, keywords: Dict[str, Any]) -> Any:
    import quasidyn
    key = (source.digest, _keywords_key(keywords))
    return _cached(_linearizers, key,
                   lambda: quasidyn.BatchLinearizer(scene_of(source), threads=1, **keywords))


def smoothing_chunk(source: SceneSource, q: np.ndarray, u: np.ndarray, first: int, count: int,
                    keywords: Dict[str, Any], smoothing: Dict[str, Any], unit: str) -> Any:
    """BatchLinearizer.smoothing_samples of samples first … first + count − 1 (a
    BatchLinearization, pickled as its numbers)."""
    inputs = f"samples {first}..{first + count - 1} of seed {smoothing.get('seed', 0)}"
    return _run(unit, inputs, lambda: _batch_linearizer(source, keywords).smoothing_samples(
        q, u, first, count, **smoothing))


def plan_seed(source: SceneSource, seed: int, goal: Optional[Sequence[float]],
              plan_keywords: Dict[str, Any], unit: str) -> Dict[str, Any]:
    """One planning query (quasidyn.plan with this seed) as plain values and its path."""
    import quasidyn

    def work():
        start = time.perf_counter()
        plan = quasidyn.plan(scene_of(source), goal, seed=seed, **plan_keywords)
        seconds = time.perf_counter() - start
        statistics = plan.statistics
        return {"seed": seed, "found": bool(plan.found), "status": plan.status,
                "message": plan.message, "best_distance": float(plan.best_distance),
                "nodes": int(len(plan.tree_parent)), "seconds": seconds,
                "replay_deviation": float(plan.replay_deviation),
                "path_q": np.array(plan.path_q), "path_u": np.array(plan.path_u),
                "statistics": dict(statistics) if isinstance(statistics, dict) else statistics}

    return _run(unit, f"seed {seed}", work)


# The sweep's parameter names that are not formulation parameters: how each is applied.
SCENE_EDITS = {"friction", "contact_tolerance", "h"}


def _swept_scene(source: SceneSource, point: Dict[str, float]) -> Any:
    scene = scene_of(source)
    for name, value in point.items():
        if name == "h":
            scene = scene.with_time_step(value)
        elif name == "contact_tolerance":
            scene = scene.with_contact_tolerance(value)
        elif name == "friction":
            for shape in scene.shape_names:
                scene = scene.with_friction(shape, value)
        elif name.startswith("friction:"):
            scene = scene.with_friction(name[len("friction:"):], value)
    return scene


def sweep_cell(source: SceneSource, formulation: str, point: Dict[str, float],
               run: Dict[str, Any], unit: str) -> Dict[str, Any]:
    """One rollout of the scene's schedule with the formulation and parameter values `point`
    (h, contact_tolerance, friction[:SHAPE] edit the scene; any other name is a formulation
    parameter)."""
    import quasidyn
    inputs = f"formulation {formulation}, " + ", ".join(f"{k} = {v!r}" for k, v in point.items())

    def work():
        scene = _swept_scene(source, point)
        parameters = {k: v for k, v in point.items()
                      if k not in SCENE_EDITS and not k.startswith("friction:")}
        start = time.perf_counter()
        trajectory = quasidyn.rollout(scene, formulation=formulation,
                                      parameters=parameters or None, **run)
        seconds = time.perf_counter() - start
        q = np.asarray(trajectory.q)
        return {"formulation": formulation, **point, "completed": bool(trajectory.completed),
                "steps_done": int(trajectory.steps_done), "status": trajectory.status,
                "message": trajectory.message, "seconds": seconds, "q_final": q[-1].copy(),
                "coordinates": list(scene.coordinate_names)}

    return _run(unit, inputs, work)


def compare_formulation(source: SceneSource, formulation: str, compare_keywords: Dict[str, Any],
                        unit: str) -> Dict[str, Any]:
    """quasidyn.compare for one formulation, as plain values (the trajectories stay here; each
    unit computes the reference run too)."""
    import quasidyn

    def work():
        report = quasidyn.compare(scene_of(source), formulations=[formulation],
                                  **compare_keywords)
        rows = [{k: v for k, v in row.items() if k != "trajectory"} for row in report["rows"]]
        return {"scene": report["scene"], "h": report["h"], "steps": report["steps"],
                "rows": rows, "table": report["table"], "csv": report["csv"]}

    return _run(unit, f"formulation {formulation}", work)

