"""scripts/talk_slides.py, the talk's slides answered by a step or a few (issue 67; rows T3, T5–T7,
T13, T17–T19 of docs/reproductions.md): each block's values against what its slide says and the
closed forms that decide it. Tolerances: rounding (1e-9) where a closed form exists, the
solvers' stopping tests elsewhere."""

import importlib.util

import numpy as np
import pytest

import quasidyn as qd
from conftest import SOURCE_DIR

_spec = importlib.util.spec_from_file_location("talk_slides",
                                               SOURCE_DIR / "scripts" / "talk_slides.py")
slides = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(slides)


@pytest.fixture(scope="module")
def toy():
    return slides.toy_block(qd)


def test_regularisation_picks_the_least_motion_from_the_null_space():
    v = slides.null_space_block(qd)
    # s = 0: every point between the robot and the wall is a minimiser; the interior point
    # returns an inner one, which the polish (the active set's KKT system, its primal
    # regularisation δ_x on the semi-definite cost) moves to the least motion, the robot's side.
    assert v["null_space_s0_robot_side_m"] - 1e-9 <= v["null_space_s0_x_m"] \
        <= v["null_space_wall_side_m"] + 1e-9
    # s > 0 small: against the robot, the least motion (the QP's tolerance at s = 1e-6).
    assert abs(v["null_space_s_small_x_m"] - v["null_space_s_small_robot_side_m"]) < 1e-3
    # s = 1: α = 1/2 of the command's overlap, never beyond the wall.
    assert v["null_space_s1_x_m"] == pytest.approx(0.17, abs=1e-9)


def test_the_impulse_momentum_step_is_the_closed_form(toy):
    scene, values = toy
    v = slides.impulse_block(qd, scene, values)
    assert v["impulse_v_next_m_per_s"] == pytest.approx(v["impulse_v_closed_form_m_per_s"],
                                                        rel=1e-9)
    assert v["impulse_balance_residual_Ns"] < 1e-12
    assert v["quasi_static_q_a_minus_u_m"] < 1e-12


def test_the_second_order_robot_needs_steps_the_quasi_static_one_does_not(toy):
    scene, _ = toy
    v = slides.second_order_block(qd, scene)
    assert v["quasi_static_steps_to_1pct"] == 1
    assert v["second_order_steps_to_1pct"] > 1
    assert v["second_order_overshoot_m"] == 0.0  # D = 20 N·s/m is critical for m = 1, K = 100


def test_painleves_rod_solves_every_impulse_momentum_step():
    v = slides.painleve_block(qd)
    assert v["painleve_steps_solved"] == v["painleve_steps"] == 120
    assert v["painleve_lowest_phi_m"] >= -1e-9


def test_hydroplaning_is_h_mu_v():
    v = slides.hydroplaning_block(qd)
    for key, h in (("h10ms", 0.01), ("h5ms", 0.005), ("h2_5ms", 0.0025)):
        assert v[f"hydroplaning_phi_{key}_m"] == pytest.approx(h * 0.5 * 0.2, rel=1e-3)


def test_the_cone_barrier_approaches_the_socp_and_its_b_is_exact():
    v = slides.cone_barrier_block(qd)
    assert v["cone_barrier_k1e2_distance_to_socp"] > v["cone_barrier_k1e4_distance_to_socp"] \
        > v["cone_barrier_k1e6_distance_to_socp"]
    for key in ("k1e2", "k1e4", "k1e6"):
        assert v[f"cone_barrier_{key}_B_max_difference"] < 1e-6 * v[f"cone_barrier_{key}_B_max"]


def test_the_smoothed_b_sees_a_contact_the_exact_one_does_not():
    v = slides.metric_block(qd)
    assert v["metric_exact_Bu_max"] == 0.0
    assert v["metric_log_barrier_Bu_max"] > 0.0


def test_implicit_gradients_equal_central_differences():
    v = slides.gradients_block(qd)
    assert v["gradients_B_max_difference"] < 1e-6 * v["gradients_B_max"]
    assert v["gradients_A_max_difference"] < 1e-6 * v["gradients_A_max"]


def test_the_polish_is_kept_at_every_central_difference_step():
    # The gradients block's steps at q ± EPS e_j and u ± EPS e_j: the polished answer (exact to
    # rounding) and the interior point's (1e-9 off) differ by the interior point's error, so a
    # polish kept on one side only puts that error over 2 EPS into the difference (B 1.6e-3 off
    # when the polish's refinement stopped on an ulp of its primal error).
    hand = qd.load_scene(str(slides.PLANAR_HAND))
    q0 = np.array(hand.q0)
    u = q0[hand.q_a_slice] + np.array([0.0, 0.2, 0.0, -0.2])
    stepper = qd.Stepper(hand, formulation="socp")
    assert stepper.step(q0, u).polished
    for size, perturb in ((len(u), lambda d: (q0, u + d)), (len(q0), lambda d: (q0 + d, u))):
        for j in range(size):
            for sign in (1.0, -1.0):
                d = np.zeros(size)
                d[j] = sign * slides.EPS
                r = stepper.step(*perturb(d))
                assert r.ok and r.polished, (size, j, sign, r.message)


def test_the_grasps_force_is_the_springs():
    v = slides.grasp_block(qd)
    for formulation in ("qp", "socp"):
        assert v[f"grasp_{formulation}_normal_force_N"] == pytest.approx(
            v["grasp_K_N_per_m"] * abs(v[f"grasp_{formulation}_stretch_m"]), rel=1e-9)
        assert v[f"grasp_{formulation}_normal_force_N"] > 0.0


def test_against_an_immovable_object_the_step_is_the_slides_kink(toy):
    scene, _ = toy
    v = slides.wall_block(qd, scene)
    assert v["wall_q_a_minus_closed_form_m"] < 1e-12
    assert v["wall_slope_free"] == pytest.approx(1.0, abs=1e-12)
    assert v["wall_slope_contact"] == pytest.approx(v["wall_alpha"], rel=1e-9)
