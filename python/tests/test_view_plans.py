"""quasidyn.view(run, path, plans=..., plan_starts=...): the page of `quasidyn track --html`
from Python (docs/viewer.md, "A plan executed on a plant"): the run animated, each plan drawn
from its start, D to the scene's planning goal over time; plans that do not fit refused by
name."""

import json
import re

import numpy as np
import pytest

import quasidyn
from conftest import example_path


def page_data(path):
    text = open(path, encoding="utf-8").read()
    match = re.search(r'<script id="quasidyn-data" type="application/json">(.*?)</script>',
                      text, re.S)
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def pushing():
    return quasidyn.load_scene(example_path("planar_pushing_top_down"))


@pytest.fixture(scope="module")
def runs(pushing):
    """A plan, the run of its commands, and a second plan made from where the run was at m."""
    found = quasidyn.plan(pushing, seed=9)
    assert found.found
    first = found.trajectory
    h = first.time_step
    run = quasidyn.rollout(pushing, U=found.path_u, h=h)
    m = len(found.path_u) // 2
    second = quasidyn.rollout(pushing, q0=run.q[m], U=found.path_u[m:], h=h)
    return found, first, second, run, m


def test_the_page_holds_the_run_and_each_plan_from_its_start(pushing, runs, tmp_path):
    found, first, second, run, m = runs
    h = first.time_step
    steps = len(run.steps)
    path = quasidyn.view(run, tmp_path / "run.html", plans=[first, second],
                         plan_starts=[0.0, m * h])
    data = page_data(path)
    execution = data["execution"]
    assert len(data["frames"]["t"]) == len(execution["plant"]["t"]) == steps + 1
    plans = execution["plans"]
    assert [p["steps"] for p in plans] == [len(first.steps), len(second.steps)]
    assert [p["steps_run"] for p in plans] == [m, steps - m]
    assert plans[1]["start_time"] == pytest.approx(m * h, rel=1e-6)  # 6 significant digits
    assert plans[1]["t"][0] == pytest.approx(m * h, rel=1e-6)
    # D to the scene's goal: the run's at q_0 and the first plan's the same configuration's; the
    # plan that reached the goal is found.
    distance = execution["plant"]["distance"]
    assert len(distance) == steps + 1
    assert distance[0] == pytest.approx(plans[0]["distance"][0], rel=1e-6)
    assert plans[0]["found"] and plans[0]["distance"][-1] <= execution["goal_tolerance"]
    assert plans[0]["distance"][-1] == pytest.approx(found.best_distance, rel=1e-5, abs=1e-12)
    # The plans as one overlay: plan 0 until m·h, then plan 1 to its end.
    overlay = data["overlays"][0]
    assert len(overlay["t"]) == m + len(second.steps) + 1
    np.testing.assert_allclose(overlay["t"], np.arange(len(overlay["t"])) * h, rtol=1e-6,
                               atol=1e-12)


def test_plans_default_to_one_after_the_other(pushing, runs, tmp_path):
    found, first, second, run, m = runs
    data = page_data(quasidyn.view(run, tmp_path / "one.html", plans=[first]))
    plans = data["execution"]["plans"]
    assert len(plans) == 1 and plans[0]["start_time"] == 0.0
    assert plans[0]["steps_run"] == len(run.steps)


def test_plans_that_do_not_fit_are_refused_by_name(pushing, runs, tmp_path):
    found, first, second, run, m = runs
    other = quasidyn.rollout(quasidyn.load_scene(example_path("planar_hand")), steps=3)
    with pytest.raises(ValueError, match=r"plan 0, q_0: \d+ numbers, the scene '.*' has n_q = "
                                         rf"{pushing.nq}: a plan of another scene"):
        quasidyn.view(run, tmp_path / "bad.html", plans=[other])
    with pytest.raises(ValueError, match="plan_starts: 1 times for 2 plans"):
        quasidyn.view(run, tmp_path / "bad.html", plans=[first, second], plan_starts=[0.0])
    with pytest.raises(ValueError, match="plan 1 starts at t = -1"):
        quasidyn.view(run, tmp_path / "bad.html", plans=[first, second], plan_starts=[0.0, -1.0])
    with pytest.raises(ValueError, match="plan_starts given without plans"):
        quasidyn.view(run, tmp_path / "bad.html", plan_starts=[0.0])
    with pytest.raises(ValueError, match="plans: give at least one plan"):
        quasidyn.view(run, tmp_path / "bad.html", plans=[])
    assert not (tmp_path / "bad.html").exists()
