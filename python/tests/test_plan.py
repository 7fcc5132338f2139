"""quasidyn.plan: RRT through contact from Python (docs/planning.md): numpy arrays of the path
and the tree, the path replayed by the Stepper, the same seed giving the same tree, plan files
and errors naming the field."""

import json

import numpy as np
import pytest

import quasidyn
from conftest import example_path


@pytest.fixture(scope="module")
def pushing():
    return quasidyn.load_scene(example_path("planar_pushing_top_down"))


@pytest.fixture(scope="module")
def found(pushing):
    return quasidyn.plan(pushing, seed=9)


def test_plan_returns_the_path_and_the_tree_as_arrays(pushing, found):
    p = found
    assert p.found and p.status == "found" and p.best_distance <= 0.05
    n = len(p.path_edges)
    assert p.path_q.shape == (n + 1, pushing.nq) and p.path_u.shape == (n, pushing.nq_a)
    np.testing.assert_array_equal(p.path_q[0], pushing.q0)
    m = p.tree_q.shape[0]
    assert p.tree_u.shape == (m, pushing.nq_a) and p.tree_parent.shape == (m,)
    assert p.tree_parent[0] == -1 and all(0 <= p.tree_parent[i] < i for i in range(1, m))
    assert p.tree_edges[0] == "root" and set(p.tree_edges[1:]) <= {"extend", "regrasp"}
    assert p.tree_goal_distance.min() == p.best_distance
    assert p.path_nodes[0] == 0 and p.path_nodes[-1] == p.best_node
    np.testing.assert_array_equal(p.path_q[-1], p.tree_q[p.best_node])
    # Every node but the root is an extension or a regrasp (an iteration may add several: the
    # goal descent, docs/planning.md).
    assert p.statistics["extensions"] + p.statistics["regrasps"] == m - 1
    assert p.settings["limits"]["max_nodes"] == 10000
    assert p.replay_deviation <= 1e-9


def test_the_path_replays_through_the_stepper(pushing, found):
    """Extend steps are steps of the planner's stepper (h = 0.1 s), or n substeps of h/n with the
    command ramped from the robots' position (docs/planning.md, 'Plans that stay physical');
    regrasps reset the robots. One path step per edge here (extend_steps = 1)."""
    h = found.settings["time_step"]
    q = found.path_q[0]
    nq_u = pushing.nq_u
    for k, edge in enumerate(found.path_edges):
        if edge == "extend":
            n = int(found.tree_substeps[found.path_nodes[k + 1]])
            stepper = quasidyn.Stepper(pushing, h=h / n)
            held = q[nq_u:].copy()
            for j in range(1, n + 1):
                u = found.path_u[k] if j == n else held + (j / n) * (found.path_u[k] - held)
                result = stepper.step(q, u)
                assert result.ok
                q = result.q_next
        else:
            q = np.concatenate([q[:nq_u], found.path_u[k]])
        # The planner clears the stepper's warm start at each edge; a fresh Stepper per step
        # is not the planner's data history, so compare to the solver's tolerance, not bits.
        np.testing.assert_allclose(q, found.path_q[k + 1], atol=1e-6)


def test_same_seed_same_tree_at_any_thread_count(pushing):
    a = quasidyn.plan(pushing, seed=3, max_nodes=300, p_grasp=0.3, threads=1)
    b = quasidyn.plan(pushing, seed=3, max_nodes=300, p_grasp=0.3, threads=2)
    np.testing.assert_array_equal(a.tree_q, b.tree_q)
    np.testing.assert_array_equal(a.tree_parent, b.tree_parent)
    assert a.tree_edges == b.tree_edges


def test_regrasp_and_grasp_anchors_override_the_block_as_the_scene_file_would(pushing):
    base = dict(seed=3, max_nodes=200, p_grasp=0.3)
    default = quasidyn.plan(pushing, **base)
    assert default.settings["grasp_anchors"] == "fingers"
    assert default.settings["grasp_selection"] == "nearest"
    assert default.settings["extension_batch"] == 1 and "plant_check" not in default.settings
    fingers = quasidyn.plan(pushing, grasp_anchors="fingers", regrasp="reset", **base)
    np.testing.assert_array_equal(default.tree_q, fingers.tree_q)
    # The listed rule places one anchor per robot: a different draw sequence, the list recorded.
    listed = quasidyn.plan(pushing, grasp_anchors=["pusher/tip"], **base)
    assert listed.settings["grasp_anchors"] == ["pusher/tip"]
    assert listed.statistics["regrasps"] > 0
    assert 0 <= default.statistics["descent_extensions"] <= default.statistics["extensions"]
    physical = quasidyn.plan(pushing, regrasp="physical", **base)
    assert physical.settings["regrasp"] == "physical"
    with pytest.raises(ValueError, match=r"planning\.grasp_anchors: 'pusher/slider' has no|"
                       r"planning\.grasp_anchors: robot link 'pusher/slider' has no"):
        quasidyn.plan(pushing, grasp_anchors=["pusher/slider"])
    with pytest.raises(ValueError, match=r"planning\.grasp_anchors: 'nobody/link' is not a robot link"):
        quasidyn.plan(pushing, grasp_anchors="nobody/link")
    with pytest.raises(ValueError, match=r"planning\.grasp_anchors: the list of anchor links is empty"):
        quasidyn.plan(pushing, grasp_anchors=[])
    with pytest.raises(TypeError, match="keyword 'grasp_anchors' cannot take a int"):
        quasidyn.plan(pushing, grasp_anchors=3)
    with pytest.raises(TypeError, match="keyword 'max_nodes' cannot take a str"):
        quasidyn.plan(pushing, max_nodes="many")
    with pytest.raises(ValueError, match=r"planning\.regrasp: unknown regrasp execution"):
        quasidyn.plan(pushing, regrasp="teleport")


# A planar_hand seed whose path, planned without the check, passes the ball into the ground
# (docs/planning.md, "Plans that stay physical").
PENETRATING_SEED = 5


def test_plans_stay_within_the_penetration_tolerance():
    hand = quasidyn.load_scene(example_path("planar_hand"))
    checked = quasidyn.plan(hand, seed=PENETRATING_SEED)
    assert checked.found and checked.settings["penetration_tolerance"] == 1e-3
    assert checked.max_penetration <= 1e-3 and checked.replay_deviation <= 1e-9
    assert checked.statistics["substepped_extensions"] == int((checked.tree_substeps > 1).sum()) > 0
    unchecked = quasidyn.plan(hand, seed=PENETRATING_SEED, penetration_tolerance=float("inf"),
                              max_substeps=1)
    assert unchecked.max_penetration > 1e-3 and (unchecked.tree_substeps == 1).all()
    # The example's start overlaps nothing: all of the overlap is the path's.
    assert unchecked.start_penetration == 0.0
    assert unchecked.path_penetration == unchecked.max_penetration
    assert unchecked.trajectory.large_motion_steps > 0
    with pytest.raises(ValueError, match=r"planning\.penetration_tolerance: must be in \[1e-12, 1000\]"):
        quasidyn.plan(hand, penetration_tolerance=0.0)
    with pytest.raises(ValueError, match=r"planning\.max_substeps: must be >= 1"):
        quasidyn.plan(hand, max_substeps=0)


def test_not_found_is_a_result_not_an_error():
    scene = quasidyn.load_scene(example_path("planar_pushing"))
    p = quasidyn.plan(scene, [0.0, 0.05, np.pi / 2], max_nodes=100)
    assert not p.found and p.status == "not_found"
    assert p.tree_q.shape[0] == 100 and p.best_distance > 0.05
    assert "node limit" in p.message


def test_save_json_is_a_trajectory_file_with_the_tree(found, tmp_path):
    path = tmp_path / "plan.json"
    found.save_json(str(path))
    traj = quasidyn.load_trajectory(str(path))
    np.testing.assert_array_equal(traj.q, found.path_q)  # both q0 first
    data = json.loads(path.read_text())
    assert data["plan"]["status"] == "found"
    assert len(data["plan"]["tree"]["q"]) == found.tree_q.shape[0]


def test_bad_input_names_the_field(pushing):
    with pytest.raises(ValueError, match=r"planning\.goal: expected n_q,u = 3"):
        quasidyn.plan(pushing, [0.0, 0.0])
    with pytest.raises(ValueError, match=r"planning\.goal: entry 0 .* outside the bounds"):
        quasidyn.plan(pushing, [5.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"planning\.limits\.max_nodes: must be >= 1"):
        quasidyn.plan(pushing, max_nodes=-1)
    with pytest.raises(ValueError, match=r"planning\.metric\.type: unknown metric"):
        quasidyn.plan(pushing, metric="magic")
    with pytest.raises(ValueError, match="threads must be >= 1"):
        quasidyn.plan(pushing, threads=0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_node'"):
        quasidyn.plan(pushing, max_node=5)
    no_objects = quasidyn.load_scene_from_string("""
name: no_objects
dimension: 2
time_step: 0.1
robots:
  - name: pusher
    bodies: [{name: tip, mass: 0.1, inertia: from_shapes,
              shapes: [{type: sphere, radius: 0.02, friction: 0.4}]}]
    joints: [{name: x, type: prismatic, parent: world, child: tip, axis: [1, 0, 0]}]
    stiffness: 100
    initial: [0.0]
""")
    with pytest.raises(ValueError, match=r"planning\.objects"):
        quasidyn.plan(no_objects)


def test_a_formulation_the_planner_cannot_step_is_refused(pushing):
    # The planner's tree nodes are configurations q: a formulation whose state has a velocity is
    # refused, by its capabilities, before any search. (halm-posa, whose robots are commanded by
    # velocities, is planned since the formulations became plug-ins: docs/planning.md.)
    second_order = pushing.with_formulation("stewart-trinkle")
    with pytest.raises(ValueError, match=r"formulation\.type: .*stewart-trinkle has a state of "
                                         r"configuration and velocity"):
        quasidyn.plan(second_order)
