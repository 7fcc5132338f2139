"""Stepper and StepResult: every formulation, contact forces, and bad arguments."""

import gc

import numpy as np
import pytest

import quasidyn
from conftest import EXAMPLES, example_path, why_cannot_step

SPHERE_MASS = 1.019367991845056  # kg, examples/planar_gripper: weight m·g = 10 N
WEIGHT = SPHERE_MASS * 9.81


@pytest.mark.parametrize("formulation", quasidyn.FORMULATIONS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_formulation_steps_every_example(name, formulation):
    scene = quasidyn.load_scene(example_path(name))
    why = why_cannot_step(scene, formulation)
    if why:
        assert formulation != quasidyn.Stepper(scene).formulation, why  # a scene's own steps it
        pytest.skip(why)  # halm-posa (test_halm_posa.py) and ecp (test_ecp.py) on these examples
    stepper = quasidyn.Stepper(scene, formulation=formulation)
    assert stepper.formulation == formulation and stepper.h == scene.time_step
    assert stepper.has_velocity == (formulation in quasidyn.VELOCITY_FORMULATIONS)
    _, v0 = stepper.initial_state()  # None without a velocity state
    result = stepper.step(scene.q0, scene.command_at(scene.time_step), v=v0)
    assert result.ok, (result.status, result.message)
    assert result.status in ("solved", "solved_inaccurate") and result.message == ""
    assert result.q_next.shape == (scene.nq,) and result.v.shape == (scene.nv,)
    assert np.all(np.isfinite(result.q_next))
    # q⁺ = q ⊕ h·v, by the library's own integrator (the step's definition).
    np.testing.assert_allclose(
        result.q_next, quasidyn.integrate(scene, scene.q0, result.v, stepper.h), rtol=0,
        atol=1e-12)
    assert result.iterations >= 0 and result.solve_time >= 0


def resting_step(gripper, formulation):
    """One step of the sphere resting on the ground, the fingers held where they are."""
    stepper = quasidyn.Stepper(gripper, formulation=formulation)
    return stepper.step(gripper.q0, gripper.q0[3:])


@pytest.mark.parametrize("formulation", ["qp", "socp", "lcp"])
def test_the_ground_carries_the_resting_sphere_weight(gripper, formulation):
    result = resting_step(gripper, formulation)
    assert result.ok
    pair = {"sphere/disk", "world/ground"}
    ground = [c for c in result.contacts if {c.shape_a, c.shape_b} == pair]
    assert len(ground) == 1
    c = ground[0]
    # Static equilibrium: the normal force is the weight m·g = 10 N, no friction, no motion.
    # 1e-6 relative: far above the solvers' tolerances (~1e-8), far below any modelling error.
    assert c.normal_force == pytest.approx(WEIGHT, rel=1e-6)
    np.testing.assert_allclose(c.friction_force, 0.0, atol=1e-6 * WEIGHT)
    # The normal points from shape_b to shape_a; the point is the witness on shape_b.
    up = [0.0, 1.0, 0.0] if c.shape_a == "sphere/disk" else [0.0, -1.0, 0.0]
    np.testing.assert_allclose(c.normal, up, atol=1e-12)
    np.testing.assert_allclose(c.point, [0.0, 0.1, 0.0] if c.shape_b == "sphere/disk" else 0.0,
                               atol=1e-12)
    assert c.phi_start == pytest.approx(0.0, abs=1e-12)
    assert {c.body_a, c.body_b} == {"sphere", "world"}
    # The fingers (0.006 m away, not commanded to move) carry nothing.
    fingers = [x for x in result.contacts if "world/ground" not in (x.shape_a, x.shape_b)]
    assert all(x.normal_force == pytest.approx(0.0, abs=1e-6 * WEIGHT) for x in fingers)
    np.testing.assert_allclose(result.v[:3], 0.0, atol=1e-6)


def test_log_barrier_approaches_the_qp_as_kappa_grows(gripper):
    exact = resting_step(gripper, "qp")
    errors = []
    for kappa in (1e2, 1e4, 1e6):
        stepper = quasidyn.Stepper(gripper, formulation="log-barrier", kappa=kappa)
        assert stepper.kappa == kappa
        smooth = stepper.step(gripper.q0, gripper.q0[3:])
        assert smooth.ok
        errors.append(np.linalg.norm(smooth.q_next - exact.q_next))
    assert errors[0] > errors[1] > errors[2]


def test_results_are_read_only_views_that_outlive_the_result(gripper):
    result = resting_step(gripper, "qp")
    q_next = result.q_next
    with pytest.raises(ValueError):
        q_next[0] = 1.0
    expected = q_next.copy()
    del result
    gc.collect()
    np.testing.assert_array_equal(q_next, expected)


def test_a_stepper_keeps_its_scene_alive():
    stepper = quasidyn.Stepper(quasidyn.load_scene(example_path("planar_gripper")))
    gc.collect()
    scene = stepper.scene
    assert stepper.step(scene.q0, scene.q0[3:]).ok


def test_settings_default_to_the_scene_and_can_be_overridden(gripper):
    default = quasidyn.Stepper(gripper)
    assert default.formulation == "qp" and default.h == 0.01
    assert default.object_mass_scale == 1.0
    custom = quasidyn.Stepper(gripper, formulation="socp", h=0.02, object_mass_scale=0.5)
    assert (custom.formulation, custom.h, custom.object_mass_scale) == ("socp", 0.02, 0.5)


def test_a_wrong_q_size_raises_the_library_message(gripper):
    stepper = quasidyn.Stepper(gripper)
    with pytest.raises(ValueError, match="q has size 5, expected n_q = 6"):
        stepper.step(np.zeros(5), gripper.q0[3:])


def test_nan_in_q_raises_the_library_message(gripper):
    q = gripper.q0.copy()
    q[1] = np.nan
    with pytest.raises(ValueError, match=r"\[1\] is not finite"):
        quasidyn.Stepper(gripper).step(q, gripper.q0[3:])


def test_a_bad_command_raises_the_library_message(gripper):
    stepper = quasidyn.Stepper(gripper)
    with pytest.raises(ValueError, match="u has size 2, expected n_q,a = 3"):
        stepper.step(gripper.q0, [0.1, 0.0])
    with pytest.raises(ValueError, match=r"u\[1\] is not finite \(inf\)"):
        stepper.step(gripper.q0, [0.1, np.inf, 0.0])


def test_bad_settings_raise_the_library_message(gripper):
    with pytest.raises(ValueError, match="^Stepper: unknown formulation 'pq'"):
        quasidyn.Stepper(gripper, formulation="pq")
    with pytest.raises(ValueError, match=r"^Stepper: h must lie within \[1e-06, 10\] s, got -0.01$"):
        quasidyn.Stepper(gripper, h=-0.01)
    with pytest.raises(ValueError, match=r"^Stepper: kappa must be finite \(got nan\)"):
        quasidyn.Stepper(gripper, kappa=float("nan"))
    with pytest.raises(ValueError, match=r"^Stepper: object_mass_scale must be 0 or lie within \[1e-09, 1e\+09\], got -1"):
        quasidyn.Stepper(gripper, object_mass_scale=-1.0)


def test_a_step_that_moves_a_body_past_the_contact_tolerance_warns():
    """planar_hand's ball 5 cm above the ground falls h^2 g = 9.8 cm in one step of h = 0.1 s,
    beyond the contact tolerance (0.02 m): the step is solved and says so (large_motion); at
    h = 0.01 s it falls 0.98 mm and does not (docs/planning.md, 'Plans that stay physical')."""
    hand = quasidyn.load_scene(example_path("planar_hand"))
    q = hand.q0.copy()
    q[1] = 0.10
    for h, warned in ((0.1, True), (0.01, False)):
        result = quasidyn.Stepper(hand, h=h).step(q, q[hand.nq_u:])
        assert result.ok and result.large_motion == warned
        assert result.max_body_motion == pytest.approx(q[1] - result.q_next[1], abs=1e-9)
        assert (result.max_body_motion > hand.contact_tolerance) == warned
