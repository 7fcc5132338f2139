"""The user's loop: rollouts of your own commands with A and B along them,
trajectories built step by step, saved, loaded and viewed, q slices, scene edits, inverse
kinematics, stacked batch outputs, one spelling of every name, errors that name the Python
argument, and a docstring on every public property and method."""

import inspect
import os

import numpy as np
import pytest

import quasidyn as qd
from conftest import example_path, why_cannot_step


def schedule_commands(scene, steps):
    return np.array([scene.command_at((k + 1) * scene.time_step) for k in range(steps)])


def test_rollout_of_your_own_commands_is_the_schedule_rollout_for_its_commands(gripper):
    U = schedule_commands(gripper, 24)
    own = qd.rollout(gripper, gripper.q0, U)
    schedule = qd.rollout(gripper)
    np.testing.assert_array_equal(own.q, schedule.q)
    np.testing.assert_array_equal(own.u, U)
    assert own.completed and own.steps_done == 24
    # Another start and other commands: the fingers open instead of closing.
    q0 = gripper.q0.copy()
    q0[gripper.q_slice("sphere")][1] += 0.0  # views of slices are plain numpy indexing
    opened = np.tile(gripper.q0[gripper.q_a_slice] + [0.0, -0.02, 0.02], (5, 1))
    run = qd.rollout(gripper, q0, opened)
    assert len(run) == 5
    np.testing.assert_allclose(run.q_a[-1], opened[-1], atol=2e-3)


def test_rollout_records_A_and_B_of_every_step_as_the_linearizer_gives_them(gripper):
    U = schedule_commands(gripper, 12)
    run = qd.rollout(gripper, None, U, gradients="a_and_b")
    assert run.A.shape == (12, 6, 6) and run.B.shape == (12, 6, 3)
    assert run.gradient_status == ["solved"] * 12
    linearizer = qd.Linearizer(gripper)
    for k in range(12):  # step k: from state row k with command row k
        expected = linearizer.linearize(run.q[k], U[k])
        np.testing.assert_array_equal(run.A[k], expected.A)
        np.testing.assert_array_equal(run.B[k], expected.B)
    b_only = qd.rollout(gripper, None, U[:2], gradients="b_only")
    assert b_only.B.shape == (2, 6, 3) and np.isnan(b_only.A).all()
    with pytest.raises(ValueError, match="no gradients"):
        qd.rollout(gripper, None, U[:2]).B


def test_rollout_arguments_are_checked_under_their_python_names(gripper):
    U = schedule_commands(gripper, 3)
    with pytest.raises(
            ValueError, match=r"^rollout: U has 2 columns, expected n_q,a = 3"):
        qd.rollout(gripper, None, U[:, :2])
    U[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"^rollout: U\[1\]\[2\] is not finite"):
        qd.rollout(gripper, None, U)
    with pytest.raises(ValueError, match="^rollout: q0 has size 5"):
        qd.rollout(gripper, gripper.q0[:5])
    with pytest.raises(ValueError, match="not both"):
        qd.rollout(gripper, None, schedule_commands(gripper, 3), steps=3)
    with pytest.raises(ValueError, match="'lcp' has no gradients"):
        qd.rollout(gripper, steps=2, formulation="lcp", gradients="b_only")
    with pytest.raises(ValueError, match="^rollout: rollout.gradients: unknown gradients 'A'"):
        qd.rollout(gripper, steps=2, gradients="A")


def test_a_trajectory_built_step_by_step_equals_the_rollout(gripper, tmp_path):
    stepper = qd.Stepper(gripper)
    built = qd.Trajectory(gripper)
    q = gripper.q0
    U = schedule_commands(gripper, 24)
    for u in U:
        result = stepper.step(q, u)
        built.append(result.q_next, u, result)
        q = result.q_next
    run = qd.rollout(gripper)
    assert len(built) == 24 and built.completed and built.steps_done == 24
    np.testing.assert_array_equal(built.q, run.q)
    np.testing.assert_array_equal(built.momentum_force, run.momentum_force)
    assert [len(c) for c in built.contacts] == [len(c) for c in run.contacts]
    # Without a result: only q and u (a trajectory of your own making, for the viewer).
    plain = qd.Trajectory(gripper, formulation="socp")
    plain.append(gripper.q0, U[0])
    assert plain.formulation == "socp" and plain.steps[0].contacts == []
    # Saved and loaded: the same numbers; the loaded one finds its scene again.
    path = tmp_path / "built.json"
    built.save(str(path))
    loaded = qd.Trajectory.load(str(path))
    np.testing.assert_array_equal(loaded.q, built.q)
    assert os.path.samefile(loaded.scene_file, example_path("planar_gripper"))
    # view: a self-contained page of the trajectory.
    page = tmp_path / "built.html"
    assert qd.view(loaded, str(page)) == str(page)
    assert b"quasidyn-data" in page.read_bytes()
    with pytest.raises(ValueError, match="^Trajectory.append: u has size 2"):
        built.append(q, U[0][:2])
    with pytest.raises(ValueError, match="no scene in memory"):
        loaded.append(q, U[0])


def test_slices_of_q_by_instance(gripper):
    traj = qd.rollout(gripper, steps=4)
    np.testing.assert_array_equal(traj.q_u, traj.q[:, gripper.q_u_slice])
    np.testing.assert_array_equal(traj.q_a, traj.q[:, gripper.q_a_slice])
    np.testing.assert_array_equal(traj.instance_q("sphere"), traj.q[:, gripper.q_slice("sphere")])
    np.testing.assert_array_equal(traj.q_a, traj.instance_q("gripper"))
    assert gripper.q_u_slice == slice(0, 3) and gripper.q_a_slice == slice(3, 6)
    assert gripper.v_u_slice == slice(0, 3) and gripper.v_a_slice == slice(3, 6)
    assert gripper.u_slice("gripper") == slice(0, 3) and gripper.v_slice("sphere") == slice(0, 3)
    with pytest.raises(ValueError, match="no instance 'ball'"):
        gripper.q_slice("ball")


def test_scene_edits_give_new_checked_scenes(gripper):
    q0 = gripper.q0.copy()
    q0[1] += 0.01  # the sphere 1 cm up: it falls back to the ground
    lifted = gripper.with_q0(q0)
    np.testing.assert_array_equal(lifted.q0, q0)
    assert gripper.q0[1] == 0.1  # the original is unchanged
    # Commands: hold the fingers open, the sphere is never squeezed.
    held = gripper.with_commands("gripper", [0.0], [gripper.q0[3:]])
    run = qd.rollout(held, steps=24)
    np.testing.assert_allclose(run.q_a[-1], gripper.q0[3:], atol=1e-9)
    # Stiffness: the fingers squeeze with K times the commanded penetration (11 mm at the
    # end), so twice the stiffness is twice the finger force.
    def finger_force(scene):
        contacts = qd.rollout(scene, steps=24).contacts[-1]
        return [c.normal_force for c in contacts if c.shape_a == "gripper/left_finger/0"][0]
    assert finger_force(gripper) == pytest.approx(11.0, rel=1e-5)
    assert finger_force(gripper.with_stiffness("gripper", [2000.0])) == pytest.approx(22.0, rel=1e-5)
    shapes = {s["name"]: s["friction"] for s in gripper.with_friction("sphere/disk", 0.0)
              .summary()["shapes"]}
    assert shapes["sphere/disk"] == 0.0
    barrier = gripper.with_formulation("log-barrier", kappa=1e4)
    assert qd.Stepper(barrier).formulation == "log-barrier" and qd.Stepper(barrier).kappa == 1e4
    assert gripper.with_time_step(0.005).time_step == 0.005
    with pytest.raises(ValueError, match="unknown formulation parameter 'objet_mass_scale'"):
        gripper.with_formulation(objet_mass_scale=1.0)
    with pytest.raises(ValueError, match="^Scene.with_commands: times must be strictly"):
        gripper.with_commands("gripper", [0.0, 0.0], [gripper.q0[3:], gripper.q0[3:]])
    with pytest.raises(ValueError, match="^Scene.with_q0: q0 has size 5"):
        gripper.with_q0(q0[:5])


def test_inverse_kinematics_from_python():
    arm = qd.load_scene(example_path("arm_cubes"))
    robot = arm.robot_names[0]
    body = [b for b in arm.body_names if b.startswith(robot + "/")][-1]
    start = qd.forward_kinematics(arm, arm.q0)[body][:3, 3]
    target = start + [0.05, -0.03, 0.02]
    result = qd.inverse_kinematics(arm, robot, body, target)
    assert result.converged and result.position_error < 1e-6
    reached = qd.forward_kinematics(arm, result.q)[body][:3, 3]
    np.testing.assert_allclose(reached, target, atol=1e-6)
    np.testing.assert_array_equal(result.q[arm.q_u_slice], arm.q0[arm.q_u_slice])
    with pytest.raises(ValueError, match="^inverse_kinematics: the scene has no body 'hand'"):
        qd.inverse_kinematics(arm, robot, "hand", target)


def test_batch_results_are_stacked_arrays(gripper):
    rng = np.random.default_rng(1)
    Q = np.tile(gripper.q0, (4, 1)) + 1e-3 * rng.standard_normal((4, 6))
    U = schedule_commands(gripper, 4)
    batch = qd.BatchLinearizer(gripper, threads=2).linearize(Q, U)
    assert batch.A.shape == (4, 6, 6) and batch.B.shape == (4, 6, 3)
    assert batch.q_next.shape == (4, 6) and batch.ok.dtype == bool and batch.ok.all()
    single = qd.Linearizer(gripper)
    for i in range(4):
        one = single.linearize(Q[i], U[i])
        np.testing.assert_array_equal(batch.A[i], one.A)
        np.testing.assert_array_equal(batch.q_next[i], one.q_next)
        np.testing.assert_array_equal(batch[i].B, one.B)
    assert len(batch) == 4


def test_one_spelling_of_every_name(gripper):
    # The formulations, methods and gradient modes of the package constants are what every
    # function takes (and what the command line and the scene file say).
    disk = qd.load_scene(example_path("disk_pushing"))  # a plane seen from above
    cube = qd.load_scene(example_path("ecp_cube_sliding"))  # 3D objects without robots
    for formulation in qd.FORMULATIONS:
        scene = next(s for s in (gripper, disk, cube) if not why_cannot_step(s, formulation))
        assert qd.Stepper(scene, formulation=formulation).formulation == formulation
    linearizer = qd.Linearizer(gripper)
    q, u = gripper.q0, gripper.command_at(0.05)
    for method in qd.METHODS:
        for gradients in qd.GRADIENTS:
            assert linearizer.linearize(q, u, gradients=gradients, method=method).ok
    # One default: A and B everywhere they can be computed.
    assert linearizer.linearize(q, u).A.shape == (6, 6)
    smoothed = qd.BatchLinearizer(gripper).smooth_first_order(q, u, samples=4)
    assert smoothed.A.shape == (6, 6)
    zeroth = qd.BatchLinearizer(gripper).smooth_zeroth_order(q, u, samples=8)
    assert zeroth.A.shape == (0, 0) and zeroth.B.shape == (6, 3)  # q_std = 0: B only


@pytest.mark.parametrize("call, who", [
    (lambda s, q: qd.Stepper(s).step(q, s.command_at(0.0)), "Stepper.step"),
    (lambda s, q: qd.contacts(s, q), "contacts"),
    (lambda s, q: qd.forward_kinematics(s, q), "forward_kinematics"),
    (lambda s, q: qd.mass_matrix(s, q), "mass_matrix"),
    (lambda s, q: qd.integrate(s, q, np.zeros(6), 0.1), "integrate"),
    (lambda s, q: qd.Linearizer(s).linearize(q, s.command_at(0.0)), "Linearizer.linearize"),
    (lambda s, q: qd.rollout(s, q, steps=1), "rollout"),
    (lambda s, q: qd.Trajectory(s, q), "Trajectory"),
    (lambda s, q: qd.Trajectory(s).append(q, s.command_at(0.0)), "Trajectory.append"),
    (lambda s, q: s.with_q0(q), "Scene.with_q0"),
    (lambda s, q: qd.BatchLinearizer(s).smooth_first_order(q, s.command_at(0.0)),
     "BatchLinearizer.smooth_first_order"),
])
def test_a_wrong_size_q_names_the_python_function_not_a_cpp_one(gripper, call, who):
    with pytest.raises(ValueError) as error:
        call(gripper, np.zeros(5))
    message = str(error.value)
    assert message.startswith(who + ": "), message
    assert "::" not in message and "Calc" not in message, message


def public_members():
    for name in qd.__all__:
        obj = getattr(qd, name)
        if inspect.isclass(obj):
            if issubclass(obj, Exception):
                continue
            for attr, value in vars(obj).items():
                if attr.startswith("_") and attr not in ("__init__", "__getitem__", "__len__"):
                    continue
                if type(value).__name__ == "wrapper_descriptor":  # no constructor bound
                    continue
                yield f"{name}.{attr}", value
        elif callable(obj):
            yield name, obj


def docstring_body(value):
    doc = (getattr(value, "__doc__", None) or "").strip()
    if isinstance(value, property):
        return doc
    # pybind11 methods start with their signature line: the documentation is what follows.
    return doc.split("\n", 1)[1].strip() if "\n" in doc else ""


def test_every_public_property_and_method_has_a_docstring():
    undocumented = [name for name, value in public_members()
                    if name.split(".")[-1] not in ("__len__",) and not docstring_body(value)]
    assert undocumented == [], f"{len(undocumented)} without a docstring: {undocumented}"


def test_the_compact_format_is_numpy_and_exact(gripper, tmp_path):
    run = qd.rollout(gripper, gradients="a_and_b")
    path = tmp_path / "run.npz"
    run.save(str(path))
    # numpy reads it without quasidyn ...
    arrays = np.load(str(path))
    # the same arrays as the Trajectory: states q0 first (N + 1 rows), steps N rows
    np.testing.assert_array_equal(arrays["q"], run.q)
    np.testing.assert_array_equal(arrays["t"], run.times)
    np.testing.assert_array_equal(arrays["u"], run.u)
    np.testing.assert_array_equal(arrays["B"], run.B)
    assert str(arrays["format"]) == "quasidyn-trajectory"
    counts = arrays["contact_count"]
    assert counts.sum() == len(arrays["contact_normal_force"])
    # ... quasidyn reads it back bit for bit, and reads what np.savez writes from it.
    back = qd.load_trajectory(str(path))
    np.testing.assert_array_equal(back.q, run.q)
    np.testing.assert_array_equal(back.A, run.A)
    np.testing.assert_array_equal(back.momentum_force, run.momentum_force)
    resaved = tmp_path / "resaved.npz"
    np.savez(str(resaved), **{name: arrays[name] for name in arrays.files})
    np.testing.assert_array_equal(qd.load_trajectory(str(resaved)).q, run.q)
    compressed = tmp_path / "compressed.npz"
    np.savez_compressed(str(compressed), **{name: arrays[name] for name in arrays.files})
    np.testing.assert_array_equal(qd.load_trajectory(str(compressed)).q, run.q)
    # every=K keeps every K-th step and the last.
    run.save(str(tmp_path / "every.npz"), every=10)
    thinned = qd.load_trajectory(str(tmp_path / "every.npz"))
    assert [s.k for s in thinned.steps] == [10, 20, 24] and thinned.completed
    np.testing.assert_array_equal(thinned.q, run.q[[0, 10, 20, 24]])  # the start and those kept
