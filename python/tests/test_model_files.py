"""Joint limits in the step, SDF, MJCF and mesh models, and the loader's warnings through the
Python module (docs/scene-format.md, docs/formulations.md "Joint limits")."""

import numpy as np
import pytest

import quasidyn
from conftest import SOURCE_DIR, example_path

FREE_ARM = """name: free_arm
dimension: 2
gravity: [0, 0, 0]
time_step: 0.01
robots:
  - name: arm
    bodies:
      - {name: slider, mass: 1.0, inertia: {principal: [0.01, 0.01, 0.01]}}
    joints:
      - {name: x, type: prismatic, parent: world, child: slider, axis: [1, 0, 0],
         limits: [-0.1, 0.1]}
    stiffness: 100
    initial: [0.05]
"""


@pytest.mark.parametrize("formulation", ["qp", "socp", "lcp"])
def test_a_command_past_the_limit_holds_at_it(formulation):
    scene = quasidyn.load_scene_from_string(FREE_ARM)
    assert scene.joint_limits == {"arm/x": (-0.1, 0.1)}
    result = quasidyn.Stepper(scene, formulation=formulation).step(scene.q0, [0.3])
    assert result.ok, result.message
    assert result.q_next[0] == pytest.approx(0.1, abs=1e-8)
    # The limit's impulse cancels the impedance's pull: h K (bound - u) = 0.01 * 100 * (-0.2).
    np.testing.assert_allclose(result.joint_limit_impulse, [-0.2], rtol=1e-6)


def test_trajectories_record_the_limit_impulse():
    scene = quasidyn.load_scene_from_string(FREE_ARM)
    trajectory = quasidyn.rollout(scene, U=np.full((3, 1), 0.3), formulation="qp")
    assert trajectory.joint_limit_impulse.shape == (3, 1)
    np.testing.assert_allclose(trajectory.joint_limit_impulse[-1], [-0.2], rtol=1e-6)
    assert trajectory.steps[0].joint_limit_impulse.shape == (1,)


def test_examples_from_sdf_mjcf_and_meshes_step():
    for name in ("sdf_pushing", "mjcf_arm", "mesh_objects"):
        scene = quasidyn.load_scene(example_path(name))
        result = quasidyn.Stepper(scene).step(scene.q0, scene.command_at(scene.time_step))
        assert result.ok, (name, result.message)


def test_mjcf_warnings_name_the_element_and_the_file():
    scene = quasidyn.load_scene(example_path("mjcf_arm"))
    assert any("arm.xml" in w and "<actuator>" in w for w in scene.warnings), scene.warnings
    assert quasidyn.load_scene(example_path("sdf_pushing")).warnings == []


def test_non_convex_mesh_is_a_scene_error_naming_the_file():
    text = f"""name: m
dimension: 3
time_step: 0.01
objects:
  - name: l
    joint: floating
    body:
      mass: 1.0
      inertia: {{principal: [0.001, 0.001, 0.001]}}
      shapes: [{{type: mesh, file: {SOURCE_DIR}/tests/data/models/l_shape.stl, friction: 0.5}}]
    initial: [0, 0, 0.1, 1, 0, 0, 0]
"""
    with pytest.raises(quasidyn.SceneError, match="l_shape.stl is not convex"):
        quasidyn.load_scene_from_string(text)


PACKAGE_URDF = """<robot name="box">
  <link name="body">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
    <collision><geometry><mesh filename="package://acme_parts/cube.obj"/></geometry></collision>
  </link>
</robot>
"""

CUBE_OBJ = "\n".join(
    [f"v {x} {y} {z}" for x in (-0.05, 0.05) for y in (-0.05, 0.05) for z in (-0.05, 0.05)]
    + ["f 1 2 4 3", "f 5 7 8 6", "f 1 5 6 2", "f 3 4 8 7", "f 1 3 7 5", "f 2 6 8 4"]) + "\n"


def test_load_scene_maps_package_names_to_the_folders_given(tmp_path, monkeypatch):
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    parts = tmp_path / "vendor" / "parts"  # not named acme_parts: only the mapping finds it
    parts.mkdir(parents=True)
    (parts / "cube.obj").write_text(CUBE_OBJ)
    (tmp_path / "box.urdf").write_text(PACKAGE_URDF)
    scene_file = tmp_path / "scene.yaml"
    scene_file.write_text("name: s\ndimension: 3\ntime_step: 0.01\nobjects:\n"
                          "  - {name: box, joint: floating, urdf: box.urdf, friction: 0.5,\n"
                          "     initial: [0, 0, 0.05, 1, 0, 0, 0]}\n")
    with pytest.raises(quasidyn.SceneError, match="acme_parts"):
        quasidyn.load_scene(scene_file)
    scene = quasidyn.load_scene(scene_file, packages={"acme_parts": parts})
    assert scene.nq == 7
