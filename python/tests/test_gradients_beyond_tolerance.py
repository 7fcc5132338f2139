"""Gradients beyond the contact tolerance ε: with the pusher 8 cm from the box and
the scene's ε = 0.02 m, every row of B for the box is 0 (the step ignores the contact, so
does its derivative); linearising with contact_tolerance = 0.1 m keeps the pair, and the
log-barrier method feels it as a force at a distance (docs/gradients.md)."""

import numpy as np
import pytest

import quasidyn as qd
from conftest import example_path


@pytest.fixture(scope="module")
def pushing():
    return qd.load_scene(example_path("planar_pushing"))


def box_rows_of_b(scene, **options):
    lin = qd.Linearizer(scene, **options).linearize(
        scene.q0, scene.command_at(scene.time_step), gradients="b_only", method="log-barrier")
    return lin.B[scene.q_slice("box"), :]


def test_the_pusher_is_beyond_the_scenes_tolerance(pushing):
    tip_x, box_left = pushing.q0[3] + 0.02, pushing.q0[0] - 0.1  # sphere radius, half width
    assert box_left - tip_x == pytest.approx(0.08)
    assert pushing.contact_tolerance == 0.02


def test_b_sees_an_object_8_cm_away_with_a_larger_tolerance(pushing):
    blind = box_rows_of_b(pushing)
    assert np.all(blind == 0.0), blind
    far = qd.Linearizer(pushing, contact_tolerance=0.1)
    assert far.contact_tolerance == 0.1
    seeing = box_rows_of_b(pushing, contact_tolerance=0.1)
    # Pushing the tip further right (+x, column 0) moves the box right: a positive entry.
    assert seeing[0, 0] > 1e-6, seeing
    # The scene keeps its own tolerance: only the linearisation widens it.
    assert pushing.contact_tolerance == 0.02


def test_a_negative_tolerance_is_refused(pushing):
    with pytest.raises(ValueError, match="contact_tolerance"):
        qd.Linearizer(pushing, contact_tolerance=-1.0)
