"""The MPC through contact from Python: ContactMpc on numpy arrays (docs/mpc.md)."""
import numpy as np
import pytest

import quasidyn
from conftest import example_path


@pytest.fixture(scope="module")
def walls():
    return quasidyn.load_scene(example_path("point_robot_walls"))


def test_solve_returns_the_first_force_and_a_setpoint_the_plant_follows(walls):
    mpc = quasidyn.ContactMpc(walls, horizon=5)
    assert mpc.horizon == 5 and mpc.time_step == pytest.approx(0.1)
    q, v = np.array([-1.55, -4.5]), np.array([1.2, -0.6])
    r = mpc.solve(q, v)
    assert r["status"] == "optimal" and r["has_solution"]
    assert r["states"].shape == (6, 4) and r["forces"].shape == (5, 2)  # x_0 first
    np.testing.assert_array_equal(r["states"][0], np.concatenate([q, v]))
    assert r["contacts"] == 3 and r["impulses"].shape == (5, 12)
    np.testing.assert_allclose(r["force"], r["forces"][0])
    # The impedance's force at the predicted next state is the first force.
    x1 = r["states"][1]
    force = mpc.stiffness * (r["command"] - x1[:2]) - mpc.damping * x1[2:]
    np.testing.assert_allclose(force, r["force"], atol=1e-9)
    # The plant (stewart-trinkle) lands on the prediction.
    stepper = quasidyn.Stepper(walls, formulation="stewart-trinkle")
    step = stepper.step(q, r["command"], v=v)
    np.testing.assert_allclose(step.q_next, x1[:2], atol=1e-6)
    np.testing.assert_allclose(step.v_next, x1[2:], atol=1e-6)


def test_closed_loop_reaches_the_wall_below_the_start(walls):
    # N = 5 reaches the right wall (x = -1.45) after about 4 s (docs/reproductions.md, row N7),
    # stays on it and creeps down it toward y = -5.
    out = quasidyn.ContactMpc(walls, horizon=5).run(150)
    assert out["completed"], out["message"]
    assert len(out["cost"]) == 150 and out["force"].shape == (150, 2)
    assert all(s == "optimal" for s in out["status"])
    q = out["trajectory"].final_q
    assert abs(q[0] + 1.45) < 1e-6 and q[1] < -4.6
    # The target's x is out of reach: each of J*'s N + 1 state terms costs at least
    # (3 + 1.45)^2 (Q = I); of what lies above that floor at the start, under a tenth is left.
    floor = 6 * (3 + 1.45) ** 2
    assert min(out["cost"]) >= floor * (1 - 1e-9)
    assert out["cost"][-1] - floor < 0.1 * (out["cost"][0] - floor)


def test_bad_input_raises_value_error(walls):
    with pytest.raises(ValueError, match="horizon"):
        quasidyn.ContactMpc(walls, horizon=0)
    with pytest.raises(ValueError, match="target"):
        quasidyn.ContactMpc(walls, target=np.zeros(3))
    mpc = quasidyn.ContactMpc(walls, horizon=3)
    with pytest.raises(ValueError):
        mpc.solve(np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError):
        mpc.solve(np.zeros(2), np.zeros(5))
    with pytest.raises(ValueError, match="velocity"):
        mpc.run(1, formulation="qp")


def test_infeasible_bounds_report_infeasible(walls):
    lower = np.array([-5.0, -6.0, 1.0, -1.5])  # ẋ >= 1 m/s: out of reach from rest
    r = quasidyn.ContactMpc(walls, horizon=3, state_lower=lower).solve(
        np.array([-2.0, -4.0]), np.zeros(2))
    assert r["status"] == "infeasible" and not r["has_solution"]
    np.testing.assert_allclose(r["force"], 0.0)
