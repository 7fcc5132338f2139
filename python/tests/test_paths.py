"""Paths as Python's own file functions take them: every argument naming a file or a folder takes
a str or any os.PathLike (pathlib.Path); a missing file raises an error that is both quasidyn's
and FileNotFoundError, with errno and filename set (docs/python.md, "Errors")."""

import errno
import inspect
import os
import pathlib
import re

import numpy as np
import pytest

import quasidyn
from conftest import SOURCE_DIR, example_path

# The names the bindings give their file and folder arguments.
PATH_ARGUMENTS = ("path", "html", "base_directory")


def signatures():
    """(qualified name, pybind11 signature line) of every function and method of the module."""
    module = quasidyn._quasidyn
    for name, value in vars(module).items():
        if inspect.isclass(value):
            for member, attr in vars(value).items():
                doc = getattr(getattr(attr, "__func__", attr), "__doc__", None) or ""
                yield f"{name}.{member}", doc.splitlines()[0] if doc else ""
        elif callable(value):
            yield name, (value.__doc__ or "").splitlines()[0]


def parameters(line):
    """The 'name: type = default' parameters of a signature line, split at top-level commas."""
    match = re.match(r"^\w+\((.*)\) -> ", line)
    parts, depth, current = [], 0, ""
    for ch in match.group(1) if match else "":
        depth += ch in "[(" and 1 or ch in "])" and -1 or 0
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts + ([current.strip()] if current.strip() else [])


def path_parameters():
    """{qualified name: {argument: its type}} for every argument named as a path."""
    found = {}
    for name, line in signatures():
        for parameter in parameters(line):
            argument, _, type_ = parameter.partition(" = ")[0].partition(": ")
            if argument in PATH_ARGUMENTS:
                found.setdefault(name, {})[argument] = type_
    return found


def test_every_path_argument_takes_str_and_path_like():
    found = path_parameters()
    # Every binding that takes a file or a folder (a rename would leave this test vacuous).
    assert {"load_scene", "load_scene_from_string", "load_trajectory", "view", "compare",
            "Trajectory.save", "Trajectory.load", "Plan.save_json"} <= set(found), found
    for name, arguments in found.items():
        for argument, type_ in arguments.items():
            assert "os.PathLike" in type_ and "str" in type_, f"{name}({argument}: {type_})"


def test_scenes_load_from_a_pathlib_path(tmp_path):
    path = pathlib.Path(example_path("planar_gripper"))
    scene = quasidyn.load_scene(path)
    assert scene.source_file == str(path)
    text = (SOURCE_DIR / "examples" / "arm_cubes" / "scene.yaml").read_text()
    folder = SOURCE_DIR / "examples" / "arm_cubes"
    from_text = quasidyn.load_scene_from_string(text, "arm.yaml", base_directory=folder)
    assert from_text.nq == quasidyn.load_scene(folder / "scene.yaml").nq


def test_trajectories_save_load_and_view_with_pathlib_paths(gripper, tmp_path):
    run = quasidyn.rollout(gripper, steps=5)
    for name in ("run.json", "run.npz"):
        run.save(tmp_path / name)
        back = quasidyn.load_trajectory(tmp_path / name)
        np.testing.assert_array_equal(back.q, run.q)
        np.testing.assert_array_equal(quasidyn.Trajectory.load(tmp_path / name).q, run.q)
    page = tmp_path / "run.html"
    assert quasidyn.view(run, page) == str(page)  # the path, as a str
    assert page.stat().st_size > 0
    # bytes, and any object with __fspath__, as open() takes them.

    class Custom:
        def __fspath__(self):
            return str(tmp_path / "custom.json")

    run.save(Custom())
    run.save(os.fsencode(tmp_path / "bytes.json"))
    assert (tmp_path / "custom.json").is_file() and (tmp_path / "bytes.json").is_file()


def test_plan_and_compare_outputs_take_pathlib_paths(tmp_path):
    scene = quasidyn.load_scene(example_path("planar_pushing"))
    plan = quasidyn.plan(scene, [0.0, 0.05, np.pi / 2], max_nodes=20)
    plan.save_json(tmp_path / "plan.json")
    assert (tmp_path / "plan.json").stat().st_size > 0
    quasidyn.compare(scene, steps=2, reference_refinement=1, formulations=["qp"],
                     html=tmp_path / "compare.html")
    assert (tmp_path / "compare.html").stat().st_size > 0


def test_a_non_path_is_still_a_type_error_and_a_nul_byte_a_value_error(gripper):
    run = quasidyn.rollout(gripper, steps=1)
    with pytest.raises(TypeError):
        quasidyn.load_scene(3)
    with pytest.raises(TypeError):
        run.save(None)
    with pytest.raises(ValueError, match="null"):
        quasidyn.load_scene("scene\0.yaml")


def assert_file_not_found(error, path):
    assert isinstance(error, FileNotFoundError) and isinstance(error, OSError)
    assert error.errno == errno.ENOENT and error.strerror == os.strerror(errno.ENOENT)
    assert error.filename == str(path)
    assert str(path) in str(error) and not str(error).startswith("[Errno")


def test_a_missing_scene_file_is_a_scene_error_and_file_not_found(tmp_path):
    missing = tmp_path / "nowhere.yaml"
    with pytest.raises(FileNotFoundError) as caught:
        quasidyn.load_scene(missing)
    error = caught.value
    assert isinstance(error, quasidyn.SceneFileNotFoundError)
    assert isinstance(error, quasidyn.SceneError) and isinstance(error, ValueError)
    assert_file_not_found(error, missing)
    assert error.file == str(missing) and error.line == 0
    # Catchable as the quasidyn error too.
    with pytest.raises(quasidyn.SceneError, match="nowhere.yaml"):
        quasidyn.load_scene(str(missing))


def test_a_missing_model_file_names_the_scene_line_and_the_missing_path(tmp_path):
    text = ("name: arm\ndimension: 3\ntime_step: 0.01\nrobots:\n  - name: arm\n"
            "    urdf: models/none.urdf\n    friction: 0.5\n    stiffness: 100\n"
            "    initial: [0]\n")
    with pytest.raises(quasidyn.SceneFileNotFoundError) as caught:
        quasidyn.load_scene_from_string(text, "arm.yaml", base_directory=tmp_path)
    error = caught.value
    assert error.file == "arm.yaml" and error.line == 6 and error.field == "robots[0].urdf"
    assert_file_not_found(error, tmp_path / "models" / "none.urdf")


def test_a_folder_is_a_scene_error_but_not_file_not_found(tmp_path):
    with pytest.raises(quasidyn.SceneError) as caught:
        quasidyn.load_scene(tmp_path)
    assert not isinstance(caught.value, FileNotFoundError)


def test_a_missing_trajectory_file_is_file_not_found_and_still_a_runtime_error(tmp_path):
    for name in ("missing.json", "missing.npz"):
        missing = tmp_path / name
        for load in (quasidyn.load_trajectory, quasidyn.Trajectory.load):
            with pytest.raises(FileNotFoundError) as caught:
                load(missing)
            error = caught.value
            assert isinstance(error, quasidyn.TrajectoryFileNotFoundError)
            assert isinstance(error, RuntimeError)  # what it raised before: kept
            assert_file_not_found(error, missing)


def test_the_error_classes_are_public_and_documented():
    for cls in (quasidyn.SceneFileNotFoundError, quasidyn.TrajectoryFileNotFoundError):
        assert cls.__module__ == "quasidyn" and cls.__name__ in quasidyn.__all__
        assert issubclass(cls, FileNotFoundError) and (cls.__doc__ or "").strip()
    assert issubclass(quasidyn.SceneFileNotFoundError, quasidyn.SceneError)
