"""examples/hand_ball_3d: a 16-joint hand, palm up, cradles a ball (docs/planning.md, "3D: a
16-joint hand"). The scene loads from its URDF with the joint limits and per-joint stiffness it
declares, the ball rests on the palm with the hand held at its initial command, and no two
shapes overlap."""

import math

import numpy as np
import pytest

import quasidyn
from conftest import example_path

REST_STEPS = 50
# "At rest": the ball may move no more than a tenth of the contact tolerance ε (1 mm at
# ε = 0.01 m), far less than any motion a finger could give it.
REST_FRACTION_OF_EPSILON = 0.1
# The planner's and the optimiser's default penetration tolerance [m] (docs/planning.md).
PENETRATION_TOLERANCE = 1e-3


@pytest.fixture(scope="module")
def hand():
    return quasidyn.load_scene(example_path("hand_ball_3d"))


def test_the_hand_has_sixteen_limited_joints_and_a_floating_ball(hand):
    assert hand.nq_u == 7 and hand.nq_a == 16 and hand.nq == 23
    np.testing.assert_array_equal(hand.q0[:7], [0, 0, 0.06, 1, 0, 0, 0])
    summary = hand.summary()
    limited = [j for j in summary["joints"] if "lower_limit" in j]
    assert len(limited) == 16
    assert all(j["lower_limit"] < j["upper_limit"] and j["stiffness"] > 0 for j in limited)
    assert summary["warnings"] == []


def test_the_ball_rests_on_the_palm_for_fifty_steps(hand):
    epsilon = hand.contact_tolerance
    U = np.tile(hand.q0[hand.nq_u:], (REST_STEPS, 1))
    traj = quasidyn.rollout(hand, hand.q0, U)
    assert traj.q.shape == (REST_STEPS + 1, hand.nq)  # q0, then each step
    ball = traj.q[:, :3] - hand.q0[:3]
    assert np.max(np.linalg.norm(ball, axis=1)) <= REST_FRACTION_OF_EPSILON * epsilon
    # The fingers hold their commanded posture: the hand's joints do not drift either.
    assert np.max(np.abs(traj.q[:, hand.nq_u:] - hand.q0[hand.nq_u:])) <= \
        REST_FRACTION_OF_EPSILON * epsilon
    deepest = max(
        max((-c.phi for c in quasidyn.contacts(hand, q)), default=0.0) for q in traj.q)
    assert deepest <= PENETRATION_TOLERANCE


def test_the_fingertips_start_within_the_contact_tolerance(hand):
    """Every fingertip sphere is in the ball's contact set at q0 (φ in (0, ε]), so the
    linearisations see all four fingers from the first step."""
    tips = {c.shape_a if c.shape_b == "ball/sphere" else c.shape_b: c.phi
            for c in quasidyn.contacts(hand, hand.q0)
            if "ball/sphere" in (c.shape_a, c.shape_b)}
    for finger in ("index", "middle", "ring", "thumb"):
        phi = tips[f"hand/{finger}_distal/1"]
        assert 0 < phi <= hand.contact_tolerance


# The 30° turn about the vertical by trajectory optimisation from rest (docs/planning.md,
# "3D: a 16-joint hand"; the same settings as the README's `quasidyn optimize` command).
TURN = math.pi / 6
HORIZON = 10
H = 0.1
ITERATIONS = 20
# Final error allowed: a tenth of the turn in rotation (3°) and a tenth of the ball's radius in
# position (6 mm); the optimiser's result is 0.6° and 2.5 mm.
ROTATION_FRACTION = 0.1
POSITION_FRACTION_OF_RADIUS = 0.1
BALL_RADIUS = 0.06


def quaternion_angle(a, b):
    """The rotation angle [rad] between unit quaternions a and b (w, x, y, z), sign-free."""
    return 2.0 * math.acos(min(1.0, abs(float(np.dot(a, b)))))


@pytest.fixture(scope="module")
def turned(hand):
    goal = np.concatenate([hand.q0[:3], [math.cos(TURN / 2), 0, 0, math.sin(TURN / 2)]])
    optimizer = quasidyn.TrajectoryOptimizer(
        hand, goal, horizon=HORIZON, iterations=ITERATIONS, h=H,
        object_weight=np.array([100.0] * 3 + [10.0] * 4))
    guess = np.tile(hand.q0[hand.nq_u:], (HORIZON, 1))   # from rest: the hand held still
    return goal, optimizer.optimize(hand.q0, guess)


def test_the_optimiser_turns_the_ball_by_thirty_degrees(hand, turned):
    goal, plan = turned
    final = plan["q"][-1][:hand.nq_u]
    assert quaternion_angle(final[3:], goal[3:]) <= ROTATION_FRACTION * TURN
    assert np.linalg.norm(final[:3] - goal[:3]) <= POSITION_FRACTION_OF_RADIUS * BALL_RADIUS
    # It started from rest, a full turn away.
    assert quaternion_angle(hand.q0[3:7], goal[3:]) == pytest.approx(TURN)


def test_the_turn_stays_physical_and_its_best_cost_never_rises(hand, turned):
    _, plan = turned
    assert plan["max_penetration"] <= PENETRATION_TOLERANCE   # the optimiser's default
    best = [it["best_cost"] for it in plan["iterations"]]
    assert all(b <= a for a, b in zip(best, best[1:]))
    assert plan["best_cost"] < plan["initial_cost"]
    assert plan["u"].shape == (HORIZON, hand.nq_a)


def test_plan_connects_to_the_goal_with_the_optimiser_when_the_scene_asks(hand):
    # The scene's goal_connection (radius 0.5) asks the trajectory optimiser from a node within
    # D <= 0.5; a 25° turn is D = 0.436 from the start, so the first iteration connects
    # (docs/planning.md, "Goal connection"). The path is the planner's replay.
    half = math.radians(25.0) / 2
    goal = [0.0, 0.0, 0.06, math.cos(half), 0.0, 0.0, math.sin(half)]
    plan = quasidyn.plan(hand, goal, seed=1, max_nodes=300)
    st = plan.statistics
    assert plan.found
    assert st["connection_attempts"] >= 1 and st["connections"] >= 1
    assert st["connection_extensions"] >= 1
    assert plan.replay_deviation <= 1e-9
    assert plan.max_penetration <= PENETRATION_TOLERANCE
