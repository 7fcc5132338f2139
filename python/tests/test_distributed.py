"""quasidyn.distributed against real Dask processes: a scheduler and two worker processes on
loopback (dask-scheduler / dask-worker as Debian ships them), each result compared bit for bit
with the one-process batch call; a worker that raises, a worker killed mid-job, a client killed
mid-job and resumed. ctest runs this file as python.distributed (docs/distributed.md)."""

import os
import re
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import quasidyn
import quasidyn.distributed as qd

distributed = pytest.importorskip("distributed")

SOURCE_DIR = pathlib.Path(
    os.environ.get("QUASIDYN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
HAND = str(SOURCE_DIR / "examples" / "planar_hand" / "scene.yaml")
PUSHER = str(SOURCE_DIR / "examples" / "urdf_pusher" / "scene.yaml")
STARTUP_SECONDS = 60  # bound on a process cluster's start


class Cluster:
    """A dask-scheduler and `workers` dask-worker processes (no nanny: a killed worker stays
    dead) on 127.0.0.1, their files under `folder`."""

    def __init__(self, folder: pathlib.Path, workers: int = 2):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        # The workers import the quasidyn this process imports (an absolute PYTHONPATH: they
        # run in `folder`), and write under `folder`.
        python_path = os.pathsep.join(os.path.abspath(p) for p in
                                      os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
        self.env = dict(os.environ, TMPDIR=str(folder), PYTHONPATH=python_path)
        scheduler_file = folder / "scheduler.json"
        self.scheduler = self._start(["dask-scheduler", "--host", "127.0.0.1", "--port", "0",
                                      "--no-dashboard", "--scheduler-file", str(scheduler_file)],
                                     "scheduler")
        deadline = time.monotonic() + STARTUP_SECONDS
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        self.workers = [
            self._start(["dask-worker", "--scheduler-file", str(scheduler_file), "--nthreads",
                         "1", "--no-nanny", "--no-dashboard", "--name", f"w{i}",
                         "--local-directory", str(folder / f"w{i}")], f"w{i}")
            for i in range(workers)]
        self.client = distributed.Client(scheduler_file=str(scheduler_file),
                                         timeout=STARTUP_SECONDS)
        self.client.wait_for_workers(workers, timeout=STARTUP_SECONDS)

    def _start(self, command, name):
        log = open(self.folder / f"{name}.log", "wb")
        return subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                cwd=self.folder, start_new_session=True)

    def worker_addresses(self):
        return sorted(self.client.scheduler_info()["workers"])

    def close(self):
        self.client.close()
        for process in self.workers + [self.scheduler]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.workers + [self.scheduler]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    yield c
    c.close()


@pytest.fixture(scope="module")
def hand():
    return quasidyn.load_scene(HAND)


def hand_inputs(scene, count, steps, seed=1):
    rng = np.random.default_rng(seed)
    q0s = np.tile(scene.q0, (count, 1))
    q0s[:, scene.q_a_slice] += rng.normal(0.0, 0.02, (count, scene.nq_a))
    Us = np.tile(scene.q0[scene.q_a_slice], (count, steps, 1))
    Us += np.cumsum(rng.normal(0.0, 0.01, (count, steps, scene.nq_a)), axis=1)
    return q0s, Us


def assert_rollouts_equal(runs, batch):
    for name in ("q", "v", "u", "A", "B", "completed", "steps_done"):
        try:
            expected = np.asarray(getattr(batch, name))
        except ValueError:  # not computed (A and B without gradients): not sent either
            assert name not in runs.arrays
            continue
        np.testing.assert_array_equal(np.asarray(runs.arrays[name][:]), expected, err_msg=name)
    assert list(runs.status) == list(batch.status)
    assert list(runs.message) == list(batch.message)
    np.testing.assert_array_equal(runs.times, batch.times)


@pytest.mark.parametrize("chunk_size", [1, 4, 11])
def test_rollouts_are_bitwise_the_batch_for_every_chunking(cluster, hand, chunk_size):
    q0s, Us = hand_inputs(hand, 11, 12)
    runs = qd.rollouts(hand, q0s, Us, client=cluster.client, chunk_size=chunk_size,
                       gradients="a_and_b", formulation="socp", progress=False)
    batch = quasidyn.rollout_batch(hand, q0s, Us, threads=1, gradients="a_and_b",
                                   formulation="socp")
    assert np.all(batch.completed)
    assert_rollouts_equal(runs, batch)


def test_rollouts_of_a_urdf_scene_ship_its_files(cluster, tmp_path):
    """The workers rebuild the scene from the text and the shipped model files, edits replayed."""
    scene = quasidyn.load_scene(PUSHER).with_time_step(0.05)
    source = qd.SceneSource.of(scene)
    assert any(name.endswith(".urdf") for name in source.files)
    q0s = np.tile(scene.q0, (4, 1))
    runs = qd.rollouts(scene, q0s, client=cluster.client, chunk_size=1, steps=6, progress=False)
    batch = quasidyn.rollout_batch(scene, q0s, steps=6)
    assert_rollouts_equal(runs, batch)
    other = quasidyn.rollout_batch(quasidyn.load_scene(PUSHER), q0s, steps=6)
    assert not np.array_equal(other.q, batch.q)  # the edit (h = 0.05) mattered


@pytest.mark.parametrize("estimator,method,q_std",
                         [("first-order", "exact", 0.0), ("first-order", "log-barrier", 0.005),
                          ("zeroth-order", "exact", 0.005)])
def test_smoothing_is_bitwise_the_one_process_estimate(cluster, hand, estimator, method, q_std):
    q, u = hand.q0, hand.q0[hand.q_a_slice] + 0.01
    arguments = dict(samples=37, u_std=0.02, q_std=q_std, seed=5, method=method,
                     gradients="a_and_b")
    one = quasidyn.BatchLinearizer(hand)
    expected = (one.smooth_first_order if estimator == "first-order"
                else one.smooth_zeroth_order)(q, u, **arguments)
    assert expected.ok and expected.samples_used == 37
    for chunk_size in (5, 37):
        got = qd.smoothed_linearize(hand, q, u, estimator=estimator, client=cluster.client,
                                    chunk_size=chunk_size, **arguments)
        for name in ("q_next", "A", "B", "A_standard_error", "B_standard_error"):
            np.testing.assert_array_equal(getattr(got, name), getattr(expected, name),
                                          err_msg=f"{name}, chunk {chunk_size}")
        assert (got.samples_used, got.samples_failed) == (37, 0)


def test_smoothing_defaults_and_checks_are_the_linearization_blocks(cluster, hand):
    q, u = hand.q0, hand.q0[hand.q_a_slice] + 0.01
    # No samples/u_std/seed given: the block's defaults (declared once in C++), as the
    # one-process call takes them.
    expected = quasidyn.BatchLinearizer(hand).smooth_first_order(q, u)
    got = qd.smoothed_linearize(hand, q, u, client=cluster.client, chunk_size=50)
    assert got.samples_used == expected.samples_used
    np.testing.assert_array_equal(got.B, expected.B)
    with pytest.raises(ValueError, match=r"linearization\.samples: must be >= 1 \(got 0\)"):
        qd.smoothed_linearize(hand, q, u, samples=0, client=cluster.client)


def test_sweep_rows_are_the_one_process_rollouts(cluster, hand):
    table = qd.sweep(hand, {"h": [0.02, 0.05], "friction": [0.3, 0.8]},
                     formulations=["qp", "socp"], steps=5, client=cluster.client, progress=False)
    assert len(table.rows) == 2 * 2 * 2
    for row in table.rows:
        scene = hand.with_time_step(row["h"])
        for shape in scene.shape_names:
            scene = scene.with_friction(shape, row["friction"])
        expected = quasidyn.rollout(scene, formulation=row["formulation"], steps=5)
        np.testing.assert_array_equal(row["q_final"], expected.q[-1])
        assert row["completed"] == expected.completed
    assert table.to_csv().splitlines()[0].startswith("formulation,h,friction,completed")
    assert "<table>" in table.to_html()


def test_plan_study_runs_are_the_one_process_plans(cluster, hand):
    keywords = dict(max_nodes=40, time_limit=600.0)
    study = qd.plan_study(hand, [0, 1, 2], client=cluster.client, progress=False, **keywords)
    assert [r["seed"] for r in study.runs] == [0, 1, 2]
    for run in study.runs:
        expected = quasidyn.plan(hand, seed=run["seed"], **keywords)
        assert run["found"] == expected.found
        assert run["nodes"] == len(expected.tree_parent)
        assert run["best_distance"] == expected.best_distance
        np.testing.assert_array_equal(run["path_q"], expected.path_q)
    assert set(study.summary) >= {"success_rate", "median_seconds", "max_nodes"}


def test_compare_rows_are_the_one_process_report(cluster, hand):
    got = qd.compare(hand, formulations=["qp", "socp"], steps=4, client=cluster.client)
    expected = quasidyn.compare(hand, formulations=["qp", "socp"], steps=4)
    assert [r["formulation"] for r in got["rows"]] == ["qp", "socp"]
    for a, b in zip(got["rows"], expected["rows"]):
        for key in ("final_position_difference", "final_rotation_difference",
                    "deepest_penetration", "max_contacts"):
            assert a[key] == b[key], key
    assert len(got["csv"].splitlines()) == 3


def test_a_failing_unit_names_its_inputs(cluster, hand):
    q0s, Us = hand_inputs(hand, 6, 3)
    q0s[4, 0] = np.nan
    with pytest.raises(qd.WorkerError, match=r"rollouts chunk 2 \(rows 4\.\.5\).*q0"):
        qd.rollouts(hand, q0s, Us, client=cluster.client, chunk_size=2, progress=False)


def test_a_scene_of_unknown_origin_is_refused():
    """A Scene the wrappers did not see being made (here: the compiled loader itself) cannot be
    rebuilt on a worker: refused, not sent half-described."""
    with pytest.raises(TypeError, match="cannot rebuild it"):
        qd.SceneSource.of(quasidyn._quasidyn.load_scene(HAND))


def test_a_killed_worker_loses_nothing(tmp_path, hand):
    """SIGKILL of one of two workers while its units run: the scheduler recomputes them on the
    other worker; the result is complete and bitwise the batch."""
    own = Cluster(tmp_path / "killed", workers=2)
    try:
        # 40 units of about 10 ms each (A and B at every step): the job outlasts the poll.
        q0s, Us = hand_inputs(hand, 80, 100, seed=3)
        victim = own.workers[0]
        victim_address = None
        for address, info in own.client.scheduler_info()["workers"].items():
            if info.get("name") == "w0":
                victim_address = address
        assert victim_address is not None

        def kill_when_busy():
            deadline = time.monotonic() + STARTUP_SECONDS
            while time.monotonic() < deadline:
                if own.client.processing().get(victim_address):
                    os.killpg(victim.pid, signal.SIGKILL)
                    return
                time.sleep(0.002)

        killer = threading.Thread(target=kill_when_busy)
        killer.start()
        runs = qd.rollouts(hand, q0s, Us, client=own.client, chunk_size=2, progress=False,
                           gradients="a_and_b")
        killer.join()
        assert victim.wait(timeout=30) == -signal.SIGKILL
        batch = quasidyn.rollout_batch(hand, q0s, Us, gradients="a_and_b")
        assert_rollouts_equal(runs, batch)
    finally:
        own.close()


def test_a_store_resumes_after_the_client_dies(cluster, hand, tmp_path):
    """A client process writing a zarr store is killed mid-job; the same call resumes it,
    computing only the chunks it lacks, and the data set is bitwise the batch."""
    zarr = pytest.importorskip("zarr")
    q0s, Us = hand_inputs(hand, 48, 100, seed=4)  # 48 units: the client is killed after 2
    np.save(tmp_path / "q0s.npy", q0s)
    np.save(tmp_path / "Us.npy", Us)
    store = tmp_path / "runs.zarr"
    address = cluster.client.scheduler.address
    # The client kills itself (SIGKILL: no clean-up of any kind) right after its second chunk is
    # stored, whatever the machine's speed: a parent polling the store and killing the client
    # from outside raced with it, and lost when the client stored the rest between two polls.
    script = textwrap.dedent(f"""
        import os, signal
        import numpy as np, quasidyn, quasidyn.distributed as qd
        run_units = qd._run_units

        def run_units_then_die(client_, function, units, kind, on_result, **keywords):
            stored = [0]

            def store_then_die(i, value):
                on_result(i, value)
                stored[0] += 1
                if stored[0] == 2:
                    os.kill(os.getpid(), signal.SIGKILL)

            return run_units(client_, function, units, kind, store_then_die, **keywords)

        qd._run_units = run_units_then_die
        scene = quasidyn.load_scene({HAND!r})
        qd.rollouts(scene, np.load({str(tmp_path / 'q0s.npy')!r}),
                    np.load({str(tmp_path / 'Us.npy')!r}), client={address!r}, chunk_size=1,
                    store={str(store)!r}, progress=False)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    assert child.wait(timeout=120) == -signal.SIGKILL, "the client was not killed mid-job"
    with pytest.raises(ValueError, match="not complete"):
        qd.open_rollouts(store)
    done_before = int(np.count_nonzero(zarr.open_group(str(store), mode="r")["done"][:]))
    assert done_before == 2
    runs = qd.rollouts(hand, q0s, Us, client=cluster.client, chunk_size=1, store=store,
                       progress=False)
    assert runs.chunks_computed == 48 - done_before
    assert_rollouts_equal(runs, quasidyn.rollout_batch(hand, q0s, Us))
    with pytest.raises(ValueError, match="holds another job"):
        qd.rollouts(hand, q0s[:8], Us[:8], client=cluster.client, chunk_size=1, store=store,
                    progress=False)


def test_the_sweep_command_line(cli, tmp_path):
    """`quasidyn sweep` runs the Python module found next to the program: usage, a malformed
    command line (exit 2), and a run on a local cluster writing the CSV and HTML tables."""
    if cli is None:
        pytest.skip("run by ctest, which names the quasidyn program")
    env = dict(os.environ, TMPDIR=str(tmp_path))  # the local cluster's files, the scene's copy
    env.pop("PYTHONPATH", None)  # found next to the program, not through the environment
    usage = subprocess.run([cli, "sweep", "--help"], capture_output=True, text=True, env=env,
                           timeout=60)
    assert usage.returncode == 0 and "--scheduler" in usage.stdout
    bad = subprocess.run([cli, "sweep", HAND, "--param", "h=fast"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "must be numbers" in bad.stderr
    out = tmp_path / "out"
    run = subprocess.run([cli, "sweep", HAND, "--param", "h=0.02,0.05", "--formulation", "qp",
                          "--steps", "3", "--workers", "1", "--out", str(out), "--quiet"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert '"rows": 2' in run.stdout and run.stderr == ""
    lines = (out / "sweep.csv").read_text().splitlines()
    assert len(lines) == 3 and lines[0].startswith("formulation,h,")
    assert "<table>" in (out / "sweep.html").read_text()


def test_an_interrupted_sweep_command_writes_its_finished_rows(cli, tmp_path):
    """SIGTERM during `quasidyn sweep` (docs/cli.md, "Interrupting a command"): exit 143, a message
    naming the rows finished and the files, and the CSV holding exactly those rows. The signal is
    sent when the cluster is up and a few cells are done: after the time a whole 2-cell sweep of
    the same cells took (start included), of a 60-cell sweep that takes far longer."""
    if cli is None:
        pytest.skip("run by ctest, which names the quasidyn program")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    env.pop("PYTHONPATH", None)

    def command(values, out):
        return [cli, "sweep", HAND, "--param", "h=" + ",".join(values), "--formulation", "qp",
                "--steps", "20000", "--workers", "1", "--out", str(out), "--quiet"]

    start = time.perf_counter()
    two = subprocess.run(command(["0.05", "0.051"], tmp_path / "two"), capture_output=True,
                         text=True, env=env, timeout=STARTUP_SECONDS + 60)
    two_seconds = time.perf_counter() - start
    assert two.returncode == 0, two.stderr
    values = [f"{0.05 + 0.0001 * i:.4f}" for i in range(60)]
    out = tmp_path / "out"
    run = subprocess.Popen(command(values, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env)
    time.sleep(two_seconds)
    run.send_signal(signal.SIGTERM)
    stdout, stderr = run.communicate(timeout=STARTUP_SECONDS)
    assert run.returncode == 128 + signal.SIGTERM, (run.returncode, stderr)
    match = re.search(r"interrupted after (\d+) of 60 rows: wrote (\S+) and (\S+)", stderr)
    assert match, stderr
    finished = int(match.group(1))
    print(f"sweep interrupted after {finished} of 60 rows")
    assert finished < 60 and stdout == ""
    lines = (out / "sweep.csv").read_text().splitlines()
    assert len(lines) == 1 + finished and lines[0].startswith("formulation,h,")
    assert match.group(2) == str(out / "sweep.csv")


def test_a_sweep_interrupted_while_its_cluster_starts(tmp_path, monkeypatch, capsys):
    """Ctrl-C or SIGTERM before the first cell (the scene loading, the local cluster starting:
    where the signal lands when the cluster is slow to start) is the same interruption: exit
    128 + signal, the message with 0 rows, and the CSV with its header only (it was an uncaught
    KeyboardInterrupt, exit -2, with dask's traceback of a cluster closed in Status.init)."""
    def starting(address=None, workers=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(qd, "client", starting)
    out = tmp_path / "out"
    code = qd.main(["sweep", HAND, "--param", "h=0.05,0.051,0.052", "--formulation", "qp,socp",
                    "--out", str(out), "--quiet"])
    assert code == 128 + signal.SIGINT
    assert "interrupted after 0 of 6 rows" in capsys.readouterr().err
    lines = (out / "sweep.csv").read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("formulation,h,")
