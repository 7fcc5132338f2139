"""scripts/plan_equilibria.py, which of a plan's configurations a plant holds still (issue 69):
a ball at rest on the ground and the same ball 2 m up, against the closed forms of a free fall
held for 0.5 s — the second-order plant's semi-implicit Euler, h_p² g n(n + 1)/2, and the
quasi-dynamic model's n h² g / s (s = 1: no velocity is carried from step to step). Tolerance:
rounding of the printed rows (6 significant digits)."""

import re

import pytest

import quasidyn as qd
from conftest import example_path, run_script

G = 9.81  # the planar hand's gravity [m/s²]


def run(*arguments):
    return run_script("plan_equilibria.py", *arguments)


@pytest.fixture(scope="module")
def plan_file(tmp_path_factory):
    scene = qd.load_scene(example_path("planar_hand"))
    rest = scene.q0.copy()  # the ball on the ground, the fingertips 1 cm from it
    up = rest.copy()
    up[scene.q_slice("ball")][1] += 2.0  # nothing within reach of it for 0.5 s
    plan = qd.Trajectory(scene, h=0.1, formulation="qp")
    command = rest[scene.q_a_slice]
    plan.append(rest, command)
    plan.append(up, command)
    path = tmp_path_factory.mktemp("equilibria") / "plan.json"
    plan.save(path)
    return path


def rows(text):
    return {int(m.group(1)): (float(m.group(2)), float(m.group(3)))
            for m in re.finditer(r"^(\d+) \S+ (\S+) (\S+)$", text, re.M)}


def test_a_ball_at_rest_stays_and_a_ball_in_the_air_falls_as_each_model_steps(plan_file):
    result = run(plan_file, example_path("planar_hand"), "--moved", 0.6)
    assert result.returncode == 0, result.stderr
    drift = rows(result.stdout)
    assert drift[1] == (pytest.approx(0.0, abs=1e-6), pytest.approx(0.0, abs=1e-6))
    h_plant, n_plant, h, n = 0.01, 50, 0.1, 5  # h/10 for 0.5 s; the model's h for 0.5 s
    assert drift[2][0] == pytest.approx(h_plant**2 * G * n_plant * (n_plant + 1) / 2, rel=1e-5)
    assert drift[2][1] == pytest.approx(n * h**2 * G, rel=1e-5)
    # 1.25 m on the plant, 0.49 m on the model: the model holds it at --moved 0.6, the plant not.
    assert ("held by the plant: 1 of 2 configurations" in result.stdout
            and "held by the model, not by the plant: 1 (first: step 2)" in result.stdout)
    # Below both drifts: neither holds it, so it is not counted as the model's blind spot.
    below = run(plan_file, example_path("planar_hand"), "--moved", 0.02, "--quiet")
    assert "held by the model, not by the plant: 0 (first: none)" in below.stdout


@pytest.mark.parametrize("arguments, message", [
    (["--hold", "nan"], "--hold must be a finite number > 0 (got nan)"),
    (["--substeps", "0"], "--substeps must be a finite number > 0 (got 0)"),
    (["--package", "nofolder"], "--package nofolder: expected NAME=DIR"),
])
def test_bad_options_are_named(plan_file, arguments, message):
    result = run(plan_file, example_path("planar_hand"), *arguments)
    assert result.returncode != 0 and message in result.stderr


def test_a_plan_of_another_scene_is_refused(plan_file):
    result = run(plan_file, example_path("planar_gripper"))
    assert result.returncode != 0 and "plan_equilibria:" in result.stderr
