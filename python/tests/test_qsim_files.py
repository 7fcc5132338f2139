"""The reference quasistatic simulator's files through quasidyn.load_scene (docs/qsim-files.md):
a system file and its Drake model directives, written here, load like a scene file, take an
initial configuration, and step; their errors name the file and the line."""

import numpy as np
import pytest

import quasidyn
import qsim_push_system

PACKAGE = "qd_py_qsim"
PUSHER = qsim_push_system.PUSHER
SYSTEM = qsim_push_system.SYSTEM.replace("{package}", PACKAGE)


@pytest.fixture
def models(tmp_path, monkeypatch):
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    qsim_push_system.write_push_system(tmp_path, PACKAGE)
    (tmp_path / "q_sys").mkdir()
    return tmp_path


def test_a_system_file_loads_and_steps(models):
    path = models / "q_sys" / "push.yml"
    path.write_text(SYSTEM)
    scene = quasidyn.load_scene(path)
    assert scene.nq == 8  # the ball (x, y, z, qw, qx, qy, qz), then the pusher's slider
    assert scene.time_step == 0.1  # the simulator takes h at run time: 0.1 s here
    q0 = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1])  # the slider 0.1 m from the ball
    scene = scene.with_q0(q0)
    result = quasidyn.Stepper(scene, "qp").step(q0, np.array([0.2]))
    assert result.ok
    # The pusher reaches the ball: the ball moves along +y, by less than the command.
    assert 0.0 < result.q_next[1] < 0.2


def test_errors_name_the_file_and_the_line(models):
    path = models / "q_sys" / "bad.yml"
    path.write_text(SYSTEM.replace("nd_per_contact", "nd_per_contakt"))
    with pytest.raises(quasidyn.SceneError, match=r"bad.yml:8: quasistatic_sim_params.nd_per_contakt"):
        quasidyn.load_scene(path)


def test_a_system_file_loads_in_parity_mode(models):
    """Its conventions are the simulator's (docs/qsim-files.md, "Parity mode"); a scene file's
    are quasidyn's unless its conventions block says otherwise."""
    path = models / "q_sys" / "push.yml"
    path.write_text(SYSTEM)
    assert quasidyn.load_scene(path).conventions == {
        "friction_ray_basis": "qsim", "quaternion_update": "first_order", "joint_limits": "ignored"}
    native = ("name: s\ndimension: 3\ntime_step: 0.1\n"
              "environment: [{name: ground, type: half_space, friction: 0.5}]\n")
    assert quasidyn.load_scene_from_string(native).conventions == {
        "friction_ray_basis": "quasidyn", "quaternion_update": "exponential_map",
        "joint_limits": "enforced"}
    chosen = quasidyn.load_scene_from_string(native + "conventions: {quaternion_update: first_order}\n")
    assert chosen.conventions["quaternion_update"] == "first_order"
    assert chosen.conventions["friction_ray_basis"] == "quasidyn"
    with pytest.raises(quasidyn.SceneError, match=r"conventions.joint_limits"):
        quasidyn.load_scene_from_string(native + "conventions: {joint_limits: maybe}\n")


def test_a_robot_link_with_a_singular_inertia_loads_with_a_warning(models):
    """A robot link of mass 1 with iyy = 0 (the simulator's three_link_arm.sdf rods) loads with a
    warning at the SDF's line, steps in qp and socp (they never use a robot's inertia), and the
    formulations that use the robots' mass matrix refuse it at that line."""
    inertial = ('<link name="slider">\n      <inertial><mass>1</mass><inertia><ixx>0.08</ixx>'
                '<iyy>0</iyy><izz>0.08</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>'
                '</inertial>')
    (models / "pusher.sdf").write_text(PUSHER.replace('<link name="slider">', inertial))
    path = models / "q_sys" / "push.yml"
    path.write_text(SYSTEM)
    scene = quasidyn.load_scene(path)
    at = "pusher.sdf:6: link 'slider' <inertial>: robot link 'pusher/slider' has a singular inertia"
    assert sum(at in warning for warning in scene.warnings) == 1, scene.warnings
    q0 = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1])
    for formulation in ("qp", "socp"):
        assert quasidyn.Stepper(scene, formulation).step(q0, np.array([0.2])).ok, formulation
    for f in quasidyn.formulations():
        if f["robot_inertia"]:
            with pytest.raises(quasidyn.SceneError,
                               match=r"pusher.sdf:6: link 'slider' <inertial>: " + f["name"] +
                               r" uses the robots' mass matrix"):
                quasidyn.Stepper(scene, f["name"])
