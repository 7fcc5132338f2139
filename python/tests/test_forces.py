"""Honest forces: the contact impulses, the forces they imply, and what the
objects' momentum term s·M_u·v/h contributes, on the pushing example; the reference
simulator's mass-scale rule (unactuated_mass_scale)."""

import numpy as np
import pytest

import quasidyn as qd
from conftest import example_path


@pytest.fixture(scope="module")
def pushing():
    return qd.load_scene(example_path("planar_pushing"))


def force_on(contact, body):
    """The force the contact puts on `body` [N] (contacts report the force on shape A)."""
    if contact.body_a == body:
        return contact.force
    if contact.body_b == body:
        return -contact.force
    return np.zeros(3)


@pytest.mark.parametrize("h", [0.01, 0.005])
def test_the_contacts_balance_gravity_and_the_momentum_term(pushing, h):
    traj = qd.rollout(pushing.with_time_step(h), duration=0.8)
    assert traj.completed, traj.message
    box = pushing.v_slice("box")
    weight = np.array([0.0, -9.81])  # the 1 kg box's gravity, x-y plane
    pushed = 0
    for step in traj.steps:
        net = sum((force_on(c, "box") for c in step.contacts), np.zeros(3))
        # Stationarity of the step (quasi_dynamic_cost.h): contacts + gravity = s·M_u·v/h.
        np.testing.assert_allclose(net[:2] + weight, step.momentum_force[box][:2], atol=1e-5)
        for c in step.contacts:
            assert c.normal_impulse == pytest.approx(h * c.normal_force, rel=1e-14)
            np.testing.assert_allclose(c.friction_impulse, h * c.friction_force, rtol=1e-14,
                                       atol=1e-300)
        if any(c.shape_a == "pusher/tip/0" for c in step.contacts):
            pushed += 1
    assert pushed > 10
    # While pushing at 0.3 m/s the pusher's force is Coulomb friction (0.4 · 9.81 = 3.9 N)
    # plus the momentum term: 33 N at h = 0.01, 52 N at h = 0.005 (the figures).
    step = traj.steps[int(round(0.6 / h))]
    pusher = [c for c in step.contacts if c.shape_a == "pusher/tip/0"][0]
    friction = 0.4 * 9.81
    assert pusher.normal_force == pytest.approx(friction + step.momentum_force[0], rel=2e-2)
    assert step.momentum_force[0] > 5 * friction


def test_the_reference_simulators_mass_scale_rule(pushing):
    # s = min(h² K_a) / (c · λ_max(M_u)) = 0.01² · 1000 / (c · 1 kg) for the pushing scene.
    for c in (1.0, 10.0):
        scene = pushing.with_formulation(unactuated_mass_scale=c)
        traj = qd.rollout(scene, duration=0.8)
        assert traj.object_mass_scale == pytest.approx(0.1 / c, rel=1e-12)
        # The momentum term scales with s: at c = 10 it is 0.01 of the default's.
        default = qd.rollout(pushing, duration=0.8)
        ratio = traj.momentum_force[60, 0] / default.momentum_force[60, 0]
        assert ratio == pytest.approx(0.1 / c, rel=0.05)
    # c = 0: not scaled (s = 1), as the reference does.
    assert qd.Stepper(pushing.with_formulation(unactuated_mass_scale=0.0)).object_mass_scale == 1
    with pytest.raises(ValueError, match="not both"):
        pushing.with_formulation(object_mass_scale=1.0, unactuated_mass_scale=1.0)


def test_a_misspelt_formulation_key_is_refused_at_load_with_its_line():
    text = open(example_path("planar_pushing")).read().replace(
        "formulation: {type: qp}", "formulation: {type: qp, objet_mass_scale: 0.1}")
    with pytest.raises(qd.SceneError, match=r"^pushing\.yaml:8: .*objet_mass_scale"):
        qd.load_scene_from_string(text, "pushing.yaml")
