"""Scenes: loading, the model summary, the q layout and scene errors."""

import json
import subprocess

import numpy as np
import pytest

import quasidyn
from conftest import EXAMPLES, example_path

# The planar gripper as its scene file describes it (examples/planar_gripper/scene.yaml):
# q = [sphere x, y, θ; hand y, x_left, x_right].
GRIPPER_Q0 = [0.0, 0.1, 0.0, 0.1, -0.116, 0.116]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_loads_with_a_consistent_layout(name):
    scene = quasidyn.load_scene(example_path(name))
    assert scene.name == name
    assert scene.source_file.endswith("scene.yaml")
    assert scene.nq == scene.nq_u + scene.nq_a and scene.nv == scene.nv_u + scene.nv_a
    assert scene.q0.shape == (scene.nq,) and scene.q0.dtype == np.float64
    assert len(scene.coordinate_names) == scene.nq
    assert scene.body_names[0] == "world"
    assert scene.command_at(0.0).shape == (scene.nq_a,)
    assert scene.actuated_stiffness.shape == (scene.nv_a,)
    assert np.all(scene.actuated_stiffness > 0)


def test_gripper_layout_matches_its_scene_file(gripper):
    assert gripper.planar and gripper.dimension == 2
    assert (gripper.nq, gripper.nv, gripper.nq_u, gripper.nv_u, gripper.nq_a, gripper.nv_a) == (
        6, 6, 3, 3, 3, 3)
    np.testing.assert_array_equal(gripper.q0, GRIPPER_Q0)
    np.testing.assert_array_equal(gripper.gravity, [0.0, -9.81, 0.0])
    assert gripper.time_step == 0.01 and gripper.contact_tolerance == 0.02
    assert gripper.formulation == "qp"
    assert gripper.object_names == ["sphere"] and gripper.robot_names == ["gripper"]
    assert gripper.instance_names == ["sphere", "gripper"]
    # Names are scoped by their instance (docs/scene-format.md).
    assert gripper.body_names == [
        "world", "sphere", "gripper/hand", "gripper/left_finger", "gripper/right_finger"]
    assert "sphere/disk" in gripper.shape_names and "world/ground" in gripper.shape_names
    assert gripper.coordinate_names[3:] == ["gripper/y", "gripper/x_left", "gripper/x_right"]
    np.testing.assert_array_equal(gripper.actuated_stiffness, [1000.0] * 3)


def test_arm_cubes_has_ten_floating_cubes_and_a_nine_joint_robot():
    scene = quasidyn.load_scene(example_path("arm_cubes"))
    assert not scene.planar
    # 10 cubes × (3 + 4 quaternion) coordinates, × 6 velocities; 7 arm + 2 finger joints.
    assert (scene.nq_u, scene.nv_u, scene.nq_a, scene.nv) == (70, 60, 9, 69)


def test_command_at_interpolates_the_schedule_linearly(gripper):
    # Knots t = 0: [0.1, -0.116, 0.116], t = 0.08: [0.1, -0.100, 0.100]; halfway at 0.04.
    np.testing.assert_allclose(gripper.command_at(0.04), [0.1, -0.108, 0.108], rtol=0,
                               atol=1e-15)
    np.testing.assert_array_equal(gripper.command_at(-1.0), GRIPPER_Q0[3:])  # before: first
    np.testing.assert_array_equal(gripper.command_at(10.0), [0.068, -0.1, 0.1])  # after: last
    assert gripper.schedule_end == 0.24


def test_q0_is_a_read_only_view(gripper):
    with pytest.raises(ValueError):
        gripper.q0[0] = 1.0
    assert gripper.q0[0] == 0.0


def test_summary_lists_the_contacts_at_q0(gripper):
    summary = gripper.summary()
    assert summary["name"] == "planar_gripper" and summary["dimension"] == 2
    assert summary["nq"] == 6 and summary["q0"] == GRIPPER_Q0
    # The disk (r = 0.1) rests on the ground; each finger's inner face is 0.006 m away.
    phis = sorted(c["phi"] for c in summary["contacts"])
    np.testing.assert_allclose(phis, [0.0, 0.006, 0.006], rtol=0, atol=1e-12)


def test_summary_is_what_the_command_line_prints(gripper, cli):
    if cli is None:
        pytest.skip("QUASIDYN_CLI not set (ctest sets it)")
    out = subprocess.run([cli, "info", example_path("planar_gripper"), "--json"], check=True,
                         capture_output=True, text=True).stdout
    assert gripper.summary() == json.loads(out)


def write_scene(tmp_path, text):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    return str(path)


GOOD_SCENE = """\
name: one_ball
dimension: 2
gravity: [0, -9.81, 0]
time_step: 0.01
environment:
  - {name: ground, type: half_space, friction: 0.5}
objects:
  - name: ball
    joint: planar
    body:
      mass: MASS
      inertia: from_shapes
      shapes:
        - {name: ball_shape, type: sphere, radius: 0.1, friction: 0.5}
    initial: [0.0, 0.1, 0.0]
"""


def test_a_bad_scene_file_raises_scene_error_with_file_and_line(tmp_path):
    path = write_scene(tmp_path, GOOD_SCENE.replace("MASS", "-1"))
    with pytest.raises(quasidyn.SceneError) as error:
        quasidyn.load_scene(path)
    assert isinstance(error.value, ValueError)
    # `mass: -1` is on line 11 of the file.
    assert str(error.value).startswith(path + ":11:"), str(error.value)
    assert "mass" in str(error.value)
    assert error.value.file == path and error.value.line == 11
    assert "mass" in error.value.field


def test_the_same_scene_with_a_valid_mass_loads(tmp_path):
    scene = quasidyn.load_scene(write_scene(tmp_path, GOOD_SCENE.replace("MASS", "2.0")))
    assert scene.nq == 3 and scene.nq_a == 0 and scene.object_names == ["ball"]


def test_a_missing_file_raises_scene_error_naming_it(tmp_path):
    path = str(tmp_path / "nowhere.yaml")
    with pytest.raises(quasidyn.SceneError, match="nowhere.yaml"):
        quasidyn.load_scene(path)


def test_load_scene_from_string_names_the_given_source_in_errors():
    with pytest.raises(quasidyn.SceneError, match=r"^inline\.yaml:11:"):
        quasidyn.load_scene_from_string(GOOD_SCENE.replace("MASS", "0"), "inline.yaml")
