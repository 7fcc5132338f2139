"""scripts/plant_convergence.py, whether a plant is converged in its step (issue 69): the planar
hand's ball started 2 m up by `track --offset`, in free fall over a plan of T = 3 steps of h =
0.1 s, against closed forms. The plant's semi-implicit Euler from rest, n = T/h_p steps, falls
g h_p² n(n + 1)/2 = g T² (1 + 1/n)/2: the run at h/N is g T² |1/n − 1/n_max|/2 from the run at
h/N_max, and both second-order formulations fall alike (no contact is active). Tolerance: the
printed rows' 4 significant digits."""

import re

import pytest

import quasidyn as qd
from conftest import example_path, run_script

G = 9.81  # the planar hand's gravity [m/s²]
H, STEPS = 0.1, 3
T = H * STEPS
COUNTS = (2, 4, 8)


@pytest.fixture(scope="module")
def plan_file(tmp_path_factory):
    """The planar hand held at its start for 3 steps of h (the ball on the ground)."""
    scene = qd.load_scene(example_path("planar_hand"))
    stepper = qd.Stepper(scene, h=H)
    plan = qd.Trajectory(scene, h=H, formulation="qp")
    q, command = scene.q0.copy(), scene.q0[scene.q_a_slice]
    for _ in range(STEPS):
        q = stepper.step(q, command).q_next
        plan.append(q, command)
    path = tmp_path_factory.mktemp("plant_convergence") / "plan.json"
    plan.save(path)
    return path


def run(cli, tmp_path, plan_file, *arguments):
    return run_script("plant_convergence.py", plan_file, example_path("planar_hand"), "--cli",
                      cli, "--out", tmp_path, *arguments)


def rows(text):
    """{(formulation, N): (h_p, off the plan [m], [rad], off the finest [m], [rad], overlap [mm],
    left_plan_at)}."""
    pattern = r"^(\S+) (\d+) (\S+) (\S+) (\S+) (\S+) (\S+) (\S+) (\S+)$"
    return {(m.group(1), int(m.group(2))):
            tuple(float(m.group(i)) for i in range(3, 9)) + (m.group(9),)
            for m in re.finditer(pattern, text, re.M)}


def test_a_free_fall_converges_in_the_plants_step_as_semi_implicit_euler(cli, tmp_path,
                                                                         plan_file):
    if cli is None:
        pytest.skip("needs the quasidyn command line (QUASIDYN_CLI, set by ctest)")
    result = run(cli, tmp_path, plan_file, "--substeps", ",".join(map(str, COUNTS)),
                 "--offset", "0", "2")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stdout  # the ball starts 2 m from everything
    row = rows(result.stdout)
    n_max = STEPS * COUNTS[-1]
    for formulation in ("anitescu-cone", "stewart-trinkle"):
        for count in COUNTS:
            h_p, _, turn, off_finest, finest_turn, _, left = row[(formulation, count)]
            assert left == "1"  # 2 m above the plan's ball from the first step on
            n = STEPS * count
            assert h_p == pytest.approx(H / count, rel=1e-3)
            assert off_finest == pytest.approx(G * T**2 * abs(1 / n - 1 / n_max) / 2, rel=1e-3,
                                               abs=1e-12)
            assert turn == finest_turn == 0.0  # a planar ball that falls does not turn
    # The plan's end has the ball on the ground; the plant's 2 m up, less its fall.
    fall = G * T**2 * (1 + 1 / n_max) / 2
    assert row[("anitescu-cone", COUNTS[-1])][1] == pytest.approx(2.0 - fall, rel=1e-3)
    assert re.search(r"^at h/8: stewart-trinkle ends (\S+) m and 0 rad from anitescu-cone$",
                     result.stdout, re.M), result.stdout
    apart = float(re.search(r"^at h/8: stewart-trinkle ends (\S+) m", result.stdout,
                            re.M).group(1))
    assert apart <= 1e-9 * fall


def test_a_start_in_overlap_is_named_with_the_kick_it_gives(cli, tmp_path, plan_file):
    """The ball 5 mm into the ground: the first step separates it at φ/h_p, said once."""
    if cli is None:
        pytest.skip("needs the quasidyn command line (QUASIDYN_CLI, set by ctest)")
    result = run(cli, tmp_path, plan_file, "--substeps", "2,4", "--offset", "0", "-0.005",
                 "--formulations", "anitescu-cone")
    assert result.returncode == 0, result.stderr
    warnings = re.findall(r"^warning: the plant starts (\S+) mm into contact: its first step "
                          r"separates it at up to (\S+) m/s at h/4 \((\S+) at h/2\)",
                          result.stdout, re.M)
    assert len(warnings) == 1, result.stdout
    overlap_mm, fast, slow = map(float, warnings[0])
    assert overlap_mm >= 5.0
    assert fast == pytest.approx(overlap_mm * 1e-3 / (H / 4), rel=1e-2)
    assert slow == pytest.approx(fast / 2, rel=1e-2)


@pytest.mark.parametrize("arguments, message", [
    (("--substeps", "10"), "needs two or more distinct counts"),
    (("--substeps", "10,ten"), "expected integers"),
    (("--substeps", "0,10"), "needs two or more distinct counts >= 1"),
    (("--offset", "1"), "--offset takes 2 or 3 numbers"),
    (("--formulations", "no-such", "--substeps", "2,4"), "track with no-such at h/2 failed"),
])
def test_bad_options_are_named(cli, tmp_path, plan_file, arguments, message):
    if cli is None:
        pytest.skip("needs the quasidyn command line (QUASIDYN_CLI, set by ctest)")
    result = run(cli, tmp_path, plan_file, *arguments)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
