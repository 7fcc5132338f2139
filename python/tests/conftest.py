"""Shared fixtures of the quasidyn pytest suite (run by ctest as python.pytest with
PYTHONPATH=<build>/python, so it tests the module just built)."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import quasidyn

SOURCE_DIR = pathlib.Path(
    os.environ.get("QUASIDYN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
EXAMPLES = ("planar_gripper", "planar_hand", "planar_pushing", "arm_cubes")
PLANAR_EXAMPLES = ("planar_gripper", "planar_hand", "planar_pushing")


@pytest.fixture(scope="session", autouse=True)
def _remove_the_temporary_folders(tmp_path_factory):
    """Every tmp_path of the session is removed at its end, passed or failed (pytest keeps the
    last three sessions' folders otherwise; ctest's tmp.left_behind counts what is left)."""
    yield
    shutil.rmtree(tmp_path_factory.getbasetemp(), ignore_errors=True)


def example_path(name):
    return str(SOURCE_DIR / "examples" / name / "scene.yaml")


def run_script(name, *arguments, timeout=120):
    """scripts/NAME run with this interpreter on the module under test (its PYTHONPATH), the
    arguments as strings; the CompletedProcess with its text output."""
    environment = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(quasidyn.__file__)))
    return subprocess.run([sys.executable, str(SOURCE_DIR / "scripts" / name),
                           *map(str, arguments)], capture_output=True, text=True,
                          env=environment, timeout=timeout)


def why_cannot_step(scene, formulation):
    """Why `formulation` cannot step `scene`, or "" when it can: the library's WhyCannotStep
    (formulations/registry.h) from Python, by the formulation's declared capabilities (2D or 3D
    scenes, robots) and then by what its model refuses, never by its name."""
    can = next(f for f in quasidyn.formulations() if f["name"] == formulation)
    if scene.dimension == 2 and not can["planar"]:
        return f"{formulation} steps 3D scenes only"
    if scene.dimension == 3 and not can["spatial"]:
        return f"{formulation} steps planar scenes only"
    if scene.nq_a > 0 and not can["robots"]:
        return f"{formulation} steps scenes without robots"
    try:
        quasidyn.Stepper(scene, formulation=formulation)
    except ValueError as e:
        return str(e)
    return ""


@pytest.fixture(scope="session")
def gripper():
    return quasidyn.load_scene(example_path("planar_gripper"))


@pytest.fixture(scope="session")
def cli():
    """The `quasidyn` command line of the same build, given by ctest; None when run by hand."""
    path = os.environ.get("QUASIDYN_CLI")
    return path if path and os.path.exists(path) else None
