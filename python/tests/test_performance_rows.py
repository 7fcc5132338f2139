"""scripts/performance_rows.py: the floor its thread rows are judged against (handover_floor, a
greedy schedule of equal items on two workers), worked by hand for small calls, and its refusal
of bad arguments before any benchmark runs."""

import importlib.util
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.environ.get("QUASIDYN_SOURCE_DIR", "."), "scripts", "performance_rows.py")


def load_script():
    spec = importlib.util.spec_from_file_location("performance_rows", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rows = load_script()
EPS = 1e-12  # the floors below are ratios of sums of a few exact binary fractions


def test_even_items_without_delays_are_linear():
    assert rows.handover_floor(64, 10.0, 0.0, 0.0) == pytest.approx(1.0, abs=EPS)


def test_an_odd_item_leaves_one_worker_idle_for_an_item():
    # 3 items of 10 µs: the caller runs two (0 → 20), the other one (0 → 10): 30 / (2 · 20).
    assert rows.handover_floor(3, 10.0, 0.0, 0.0) == pytest.approx(0.75, abs=EPS)


def test_a_late_start_delays_the_other_workers_items():
    # 4 items of 10 µs, the other worker from 5 µs: caller 0 → 10 → 20, other 5 → 15 → 25.
    assert rows.handover_floor(4, 10.0, 5.0, 0.0) == pytest.approx(40 / 50, abs=EPS)


def test_the_notify_delays_the_callers_items():
    # The same with the roles swapped: the caller from 5 µs, the other worker at once.
    assert rows.handover_floor(4, 10.0, 0.0, 5.0) == pytest.approx(40 / 50, abs=EPS)


def test_a_late_start_hands_the_caller_more_items():
    # 4 items of 10 µs, the other worker from 25 µs: the caller runs 3 (0 → 30), the other one
    # (25 → 35): 40 / (2 · 35).
    assert rows.handover_floor(4, 10.0, 25.0, 0.0) == pytest.approx(40 / 70, abs=EPS)


def test_the_first_item_extra_counts_once():
    # 4 items of 10 µs, the other worker's first item 6 µs longer: caller 0 → 10 → 20, other
    # 0 → 16 → 26 (its second item at plain cost): 40 / (2 · 26).
    assert rows.handover_floor(4, 10.0, 0.0, 0.0, 6.0) == pytest.approx(40 / 52, abs=EPS)


def test_growth_applies_to_every_item_but_the_other_workers_first():
    # 3 items of 10 µs at × 1.5 with both CPUs busy: the caller's first costs 15 (0 → 15), the
    # other worker's first 10 + its extra (0 → 10), so the other takes the third (10 → 25):
    # 30 / (2 · 25). Were its first item also × 1.5, the caller would take the third (→ 30).
    assert rows.handover_floor(3, 10.0, 0.0, 0.0, 0.0, 1.5) == pytest.approx(30 / 50, abs=EPS)


def test_bad_arguments_are_refused_before_any_benchmark(tmp_path):
    def run(*arguments):
        return subprocess.run([sys.executable, SCRIPT, *arguments], capture_output=True,
                              text=True, timeout=60)

    unknown = run(str(tmp_path), "--rows", "threads,bogus")
    assert unknown.returncode == 2
    assert "unknown group(s) bogus" in unknown.stderr
    zero = run(str(tmp_path), "--repetitions", "0")
    assert zero.returncode == 2
    assert "--repetitions must be at least 1" in zero.stderr
    missing = run(str(tmp_path / "no-build"), "--rows", "threads")
    assert missing.returncode == 1
    assert "no-build/batch_bench is missing" in missing.stderr
