"""External generalized forces on objects: the scene key and Stepper.step's per-step argument
(docs/scene-format.md, objects[].external_force; docs/python.md)."""

import numpy as np
import pytest

import quasidyn

FREE_BALL = """name: free
dimension: 3
gravity: [0, 0, 0]
time_step: 0.1
objects:
  - name: ball
    joint: floating
    body: {mass: 2.0, inertia: {principal: [0.01, 0.01, 0.01]},
           shapes: [{type: sphere, radius: 0.1, friction: 0.5}]}
    initial: [0, 0, 1, 1, 0, 0, 0]
"""


def test_free_ball_moves_as_the_closed_form():
    # No contact: s M v = h tau_ext, so the ball moves by h^2 f / (s m) (s = 1 here).
    scene = quasidyn.load_scene_from_string(FREE_BALL + "    external_force: [1, -2, 4, 0, 0, 0]\n")
    np.testing.assert_array_equal(scene.external_force, [1, -2, 4, 0, 0, 0])
    result = quasidyn.Stepper(scene, formulation="qp").step(scene.q0, np.zeros(0))
    assert result.ok, result.message
    np.testing.assert_allclose(result.q_next[:3] - scene.q0[:3],
                               0.1**2 / 2.0 * np.array([1.0, -2.0, 4.0]), rtol=1e-6)


def test_per_step_force_overrides_the_scenes():
    scene = quasidyn.load_scene_from_string(FREE_BALL)
    np.testing.assert_array_equal(scene.external_force, np.zeros(6))
    stepper = quasidyn.Stepper(scene, formulation="socp")
    still = stepper.step(scene.q0, np.zeros(0))
    np.testing.assert_allclose(still.q_next, scene.q0, atol=1e-9)
    pushed = stepper.step(scene.q0, np.zeros(0), external_force=[0, 0, 2.0, 0, 0, 0])
    assert pushed.q_next[2] - scene.q0[2] == pytest.approx(0.1**2 / 2.0 * 2.0, rel=1e-6)
    with pytest.raises(ValueError, match="external force"):
        stepper.step(scene.q0, np.zeros(0), external_force=[1.0, 2.0])
