"""The formulations from the registry (python/src/formulation_bindings.cc): quasidyn.formulations()
with each one's capabilities and parameters, and the parameters= keyword that gives any
formulation parameter to Stepper, rollout, Trajectory and the linearizers."""

import numpy as np
import pytest

import quasidyn
from conftest import example_path

KEYS = {"name", "title", "docs", "state", "command", "planar", "spatial", "robots",
        "external_forces", "joint_limits", "robot_inertia", "differentiable", "no_gradient",
        "exact_linearization", "smoothed_linearization", "parameters"}


@pytest.fixture(scope="module")
def by_name():
    return {f["name"]: f for f in quasidyn.formulations()}


def test_every_registered_formulation_is_listed_with_its_capabilities(by_name):
    listed = quasidyn.formulations()
    names = tuple(f["name"] for f in listed)
    assert names == quasidyn.FORMULATIONS and len(set(names)) == len(names) == 10  # built-in
    for f in listed:
        assert set(f) == KEYS, f["name"]
        assert f["title"] and f["docs"].startswith("docs/"), f["name"]
        assert f["state"] in ("configuration", "configuration and velocity")
        assert f["command"] in ("positions of the robots", "velocities of the robots",
                                "impulses on the objects")
        for flag in ("planar", "spatial", "robots", "external_forces", "joint_limits",
                     "robot_inertia", "differentiable"):
            assert isinstance(f[flag], bool), (f["name"], flag)
        # Differentiable exactly when no reason is given why not; every one names the
        # formulation an exact linearisation differentiates, itself a registered one.
        assert f["differentiable"] == (f["no_gradient"] == ""), f["name"]
        assert f["exact_linearization"] in names, f["name"]
        assert f["smoothed_linearization"] in names + ("",), f["name"]
        for p in f["parameters"]:
            assert set(p) == {"key", "unit", "range", "default", "description", "number"}
            assert all(isinstance(p[k], str) and p[k] for k in p if k != "number"), (f["name"], p)
            # A number parameter is a keyword of its own (Stepper(scene, kappa=...)).
            assert isinstance(p["number"], bool), (f["name"], p)
            if p["number"]:
                assert isinstance(getattr(quasidyn.Stepper, p["key"]), property), p["key"]
    # The velocity-state formulations are those the package's constants name.
    assert quasidyn.VELOCITY_FORMULATIONS == tuple(
        n for n in names if by_name[n]["state"] == "configuration and velocity")


def test_halm_posa_commands_velocities_in_planar_scenes(by_name):
    hp = by_name["halm-posa"]
    assert hp["command"] == "velocities of the robots" and hp["state"] == "configuration"
    assert hp["planar"] and not hp["spatial"] and not hp["external_forces"]
    assert {"c", "tracking_gain"} <= {p["key"] for p in hp["parameters"]}


def test_ecp_drives_3d_objects_by_impulses(by_name):
    ecp = by_name["ecp"]
    assert ecp["state"] == "configuration and velocity"
    assert ecp["command"] == "impulses on the objects"
    assert not ecp["planar"] and ecp["spatial"] and not ecp["robots"]
    assert [p["key"] for p in ecp["parameters"]] == ["e_t", "e_o", "e_r"]


def test_the_second_order_ones_have_a_velocity_state_and_command_robot_positions(by_name):
    for name in quasidyn.SECOND_ORDER_FORMULATIONS:
        f = by_name[name]
        assert f["state"] == "configuration and velocity", name
        assert f["command"] == "positions of the robots" and f["robots"], name
        assert f["differentiable"] and f["exact_linearization"] == name
    assert quasidyn.SECOND_ORDER_FORMULATIONS == ("stewart-trinkle", "anitescu", "anitescu-cone")


def test_the_barriers_and_the_lcp(by_name):
    kappa = [p for p in by_name["log-barrier"]["parameters"] if p["key"] == "kappa"]
    assert len(kappa) == 1 and kappa[0]["unit"] == "1/(N·m)" and kappa[0]["range"] == "[1e-06, 1e+12] 1/(N·m)"
    assert by_name["qp"]["smoothed_linearization"] == "log-barrier"
    assert by_name["log-barrier"]["exact_linearization"] == "qp"
    lcp = by_name["lcp"]
    assert not lcp["differentiable"] and "LCP" in lcp["no_gradient"]
    assert lcp["exact_linearization"] == "qp"  # its solution, where unique, is the QP's


def test_an_unknown_parameter_key_raises_value_error_naming_it(gripper):
    with pytest.raises(ValueError, match=r"^Stepper: unknown formulation parameter 'kapa' "
                                         r"\(did you mean 'kappa'\?"):
        quasidyn.Stepper(gripper, parameters={"kapa": 100.0})
    with pytest.raises(ValueError, match="^rollout: unknown formulation parameter 'objet_mass"):
        quasidyn.rollout(gripper, steps=1, parameters={"objet_mass_scale": 0.5})
    with pytest.raises(ValueError, match="^Linearizer: unknown formulation parameter 'cc'"):
        quasidyn.Linearizer(gripper, parameters={"cc": 1.0})
    with pytest.raises(ValueError, match="^Trajectory: unknown formulation parameter 'x'"):
        quasidyn.Trajectory(gripper, parameters={"x": 1.0})
    # A known key out of its range, and a key given twice.
    with pytest.raises(ValueError, match=r"^BatchLinearizer: kappa must lie within \[1e-06, 1e\+12\] 1/\(N·m\), got -1"):
        quasidyn.BatchLinearizer(gripper, parameters={"kappa": -1.0})
    with pytest.raises(ValueError, match="give kappa= or parameters\\['kappa'\\], not both"):
        quasidyn.Stepper(gripper, kappa=1.0, parameters={"kappa": 2.0})


def test_a_parameter_reaches_the_model(gripper):
    by_dict = quasidyn.Stepper(gripper, formulation="log-barrier", parameters={"kappa": 1234.0})
    assert by_dict.kappa == 1234.0 and by_dict.parameters["kappa"] == 1234.0
    by_keyword = quasidyn.Stepper(gripper, formulation="log-barrier", kappa=1234.0)
    default = quasidyn.Stepper(gripper, formulation="log-barrier")
    q, u = gripper.q0, gripper.command_at(0.1)
    np.testing.assert_array_equal(by_dict.step(q, u).q_next, by_keyword.step(q, u).q_next)
    assert not np.array_equal(by_dict.step(q, u).q_next, default.step(q, u).q_next)
    # The quasi-dynamic formulations' mass scale, recorded by the trajectory.
    traj = quasidyn.rollout(gripper, steps=2, parameters={"object_mass_scale": 0.25})
    assert traj.parameters == {"object_mass_scale": 0.25} and traj.object_mass_scale == 0.25
    assert traj.kappa is None
    # halm-posa's feedback scaling c, on its own scene.
    disk = quasidyn.load_scene(example_path("disk_pushing"))
    assert quasidyn.Stepper(disk, parameters={"c": 0.5}).parameters["c"] == 0.5
    # The linearizer differentiates the model of the parameters given.
    lin = quasidyn.Linearizer(gripper, formulation="log-barrier", parameters={"kappa": 1234.0})
    same = quasidyn.Linearizer(gripper, formulation="log-barrier", kappa=1234.0)
    a = lin.linearize(q, u, method="log-barrier")
    assert a.ok, a.message
    np.testing.assert_array_equal(a.B, same.linearize(q, u, method="log-barrier").B)


def test_compare_runs_every_formulation_that_can_step_the_scene(tmp_path):
    scene = quasidyn.load_scene(example_path("planar_hand"))
    page = tmp_path / "compare.html"
    out = quasidyn.compare(scene, steps=8, reference_refinement=2, html=str(page))
    assert out["scene"] == "planar_hand" and out["steps"] == 8 and out["h"] > 0
    assert [r["formulation"] for r in out["rows"]] == list(quasidyn.FORMULATIONS)
    ran = {r["formulation"]: r for r in out["rows"] if r["ran"]}
    skipped = {r["formulation"]: r for r in out["rows"] if not r["ran"]}
    # The planar hand is a 2D scene with robots and gravity in its plane: ecp (3D only) and
    # halm-posa (a horizontal support plane) cannot step it, and say why.
    assert set(skipped) == {"halm-posa", "ecp"}, set(skipped)
    assert "3D" in skipped["ecp"]["skipped"] and skipped["ecp"]["trajectory"] is None
    for name, r in ran.items():
        assert r["skipped"] == "" and r["failure"] == "", (name, r["failure"])
        assert r["trajectory"].q.shape[0] == 9, name  # q0, then q after each of the 8 steps
        assert r["median_step_seconds"] > 0 and r["max_contacts"] >= 0, name
        assert r["final_position_difference"] >= 0 and r["deepest_penetration"] >= 0, name
    assert out["reference"].formulation == "stewart-trinkle"
    assert out["reference"].time_step == pytest.approx(out["h"] / 2, rel=1e-15)
    assert "planar_hand" in out["table"] and out["csv"].startswith("formulation,")
    assert page.stat().st_size > 0 and '"overlays"' in page.read_text()


def test_compare_against_itself_is_exact_and_bad_options_are_named():
    scene = quasidyn.load_scene(example_path("planar_hand"))
    out = quasidyn.compare(scene, steps=5, reference_refinement=1,
                           formulations=["stewart-trinkle"])
    (row,) = out["rows"]
    assert row["final_position_difference"] == 0.0 and row["final_rotation_difference"] == 0.0
    with pytest.raises(ValueError, match="unknown formulation 'nosuch'"):
        quasidyn.compare(scene, steps=3, formulations=["nosuch"])
    with pytest.raises(ValueError, match="compare: .*refinement"):
        quasidyn.compare(scene, steps=3, reference_refinement=0)
