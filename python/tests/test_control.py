"""The control layer from Python: TrajectoryOptimizer and Stabilizer on numpy arrays."""
import math

import numpy as np
import pytest

import quasidyn
from conftest import example_path


@pytest.fixture(scope="module")
def hand():
    return quasidyn.load_scene(example_path("planar_hand"))


@pytest.fixture(scope="module")
def plan(hand):
    goal = hand.q0[:3] + np.array([0.0, 0.0, math.pi / 6])
    opt = quasidyn.TrajectoryOptimizer(hand, goal, horizon=10, iterations=20,
                                       object_weight=np.array([10.0, 10.0, 1.0]), h=0.1)
    u0 = np.tile(hand.q0[3:] + np.array([0.0, 0.2, 0.0, -0.2]), (10, 1))
    return opt.optimize(hand.q0, u0)


def test_optimizer_turns_the_ball_by_thirty_degrees(plan, hand):
    assert plan["u"].shape == (10, 4) and plan["q"].shape == (11, 7)
    best = [it["best_cost"] for it in plan["iterations"]]
    assert all(b <= a for a, b in zip([plan["initial_cost"]] + best, best))
    assert abs(plan["q"][-1, 2] - hand.q0[2] - math.pi / 6) < math.pi / 60


def test_stabilizer_returns_the_reference_on_it_and_the_closed_form_off_it(plan, hand):
    s = quasidyn.Stabilizer(hand, plan["q"], plan["u"], max_deviation=10.0, h=0.1)
    assert s.steps == 10
    np.testing.assert_allclose(s.command(0, plan["q"][0]), plan["u"][0], atol=1e-7)
    q = plan["q"][4].copy()
    q[0] += 0.002
    np.testing.assert_allclose(s.command(4, q), s.closed_form_command(4, q), atol=1e-6)


def test_bad_input_raises_value_error(hand):
    with pytest.raises(ValueError, match="object_goal"):
        quasidyn.TrajectoryOptimizer(hand, np.zeros(2))
    with pytest.raises(ValueError, match="horizon"):
        quasidyn.TrajectoryOptimizer(hand, np.zeros(3), horizon=0)
    opt = quasidyn.TrajectoryOptimizer(hand, np.zeros(3), horizon=3, h=0.1)
    with pytest.raises(ValueError):
        opt.optimize(hand.q0, np.zeros((2, 4)))


def test_planners_path_with_its_regrasps_as_the_initial_guess(hand):
    """A Plan's commands and regrasp steps (docs/control.md, "Refining a planner's path"): the
    guess's regrasps are kept; the refinement lowers the cost 5-fold and overlaps shapes no deeper
    than the guess's own rollout (its penetration check; without it the half turn ended within
    0.01 rad of π through a plan 26.9 mm inside a shape)."""
    p = quasidyn.plan(hand)
    assert p.found
    regrasps = [e == "regrasp" for e in p.path_edges]
    assert any(regrasps)
    goal = np.array([0.0, 0.05, math.pi])
    opt = quasidyn.TrajectoryOptimizer(
        hand, goal, horizon=len(regrasps), iterations=20, object_weight=np.zeros(3),
        terminal_weight=np.array([100.0, 100.0, 10.0]), rate_weight=0.01,
        h=p.settings["time_step"], regrasp_steps=regrasps)
    refined = opt.optimize(hand.q0, p.path_u)
    for k, regrasp in enumerate(regrasps):
        if regrasp:
            np.testing.assert_array_equal(refined["u"][k], p.path_u[k])
    assert refined["best_cost"] < refined["initial_cost"] / 5
    assert refined["max_penetration"] <= max(1e-3, refined["initial_penetration"])
    assert all(it["penetration"] <= max(1e-3, refined["initial_penetration"])
               for it in refined["iterations"] if it["accepted"])
    with pytest.raises(ValueError, match="regrasp_steps"):
        quasidyn.TrajectoryOptimizer(hand, goal, horizon=3, h=0.1, regrasp_steps=[True])


def test_settings_are_keywords_of_their_blocks(hand, plan):
    """Every setting of the optimizer and stabilizer blocks is a keyword (declared once in C++,
    docs/control.md "Settings"); the library checks the values and names the block's field."""
    goal = np.zeros(3)
    with pytest.raises(TypeError, match=r"TrajectoryOptimizer: keyword 'horizon' cannot take a "
                                        r"str \(it takes an int\)"):
        quasidyn.TrajectoryOptimizer(hand, goal, horizon="10")
    with pytest.raises(TypeError, match="TrajectoryOptimizer: unexpected keyword argument "
                                        "'horizn' \\(did you mean 'horizon'\\?\\)"):
        quasidyn.TrajectoryOptimizer(hand, goal, horizn=10)
    with pytest.raises(ValueError, match=r"optimizer\.horizon: must be >= 1 \(got 0\)"):
        quasidyn.TrajectoryOptimizer(hand, goal, horizon=0)
    with pytest.raises(ValueError, match=r"optimizer\.per_segment: per_segment and "
                                         r"shrinking_horizon exclude each other"):
        quasidyn.TrajectoryOptimizer(hand, goal, per_segment=True, shrinking_horizon=True)
    with pytest.raises(ValueError, match=r"optimizer\.smoothing\.method: unknown smoothing"):
        quasidyn.TrajectoryOptimizer(hand, goal, smoothing="magic")
    with pytest.raises(ValueError, match=r"stabilizer\.kappa: must be > 0"):
        quasidyn.Stabilizer(hand, plan["q"], plan["u"], kappa=0.0, h=0.1)
    with pytest.raises(ValueError, match=r"stabilizer\.object_weight: expected n_q,u = 3 "
                                         r"numbers, got 2"):
        quasidyn.Stabilizer(hand, plan["q"], plan["u"], object_weight=[1.0, 1.0], h=0.1)
    with pytest.raises(TypeError, match="Stabilizer: unexpected keyword argument 'horizon'"):
        quasidyn.Stabilizer(hand, plan["q"], plan["u"], horizon=3)
    blocks = quasidyn._quasidyn._settings()
    names = {s["name"]: s for s in blocks["optimizer"]["settings"]}
    assert names["horizon"]["default"] == "10" and names["smoothing"]["default"] == "log-barrier"
    assert {"goal", "trust_region_max", "kappa_start", "per_segment"} <= set(names)
    assert {s["name"] for s in blocks["stabilizer"]["settings"]} == {
        "object_weight", "command_weight", "max_deviation", "smoothing", "kappa", "samples"}
