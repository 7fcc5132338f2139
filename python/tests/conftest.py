"""Shared fixtures of the quasidyn pytest suite (run by ctest as python.pytest with
PYTHONPATH=<build>/python, so it tests the module just built)."""

import os
import pathlib

import pytest

import quasidyn

SOURCE_DIR = pathlib.Path(
    os.environ.get("QUASIDYN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
EXAMPLES = ("planar_gripper", "planar_hand", "planar_pushing", "arm_cubes")
PLANAR_EXAMPLES = ("planar_gripper", "planar_hand", "planar_pushing")


def example_path(name):
    return str(SOURCE_DIR / "examples" / name / "scene.yaml")


@pytest.fixture(scope="session")
def gripper():
    return quasidyn.load_scene(example_path("planar_gripper"))


@pytest.fixture(scope="session")
def cli():
    """The `quasidyn` command line of the same build, given by ctest; None when run by hand."""
    path = os.environ.get("QUASIDYN_CLI")
    return path if path and os.path.exists(path) else None
