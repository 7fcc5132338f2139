#!/usr/bin/python3
"""The claims of Pang's 2022 talk "Planning and Control for Contact-rich Manipulation" that one
step or a few steps of quasidyn answer, computed and printed as JSON (issue 67; the talk's rows
of docs/reproductions.md, repro/papers/talk.py). Each block names its slide:

  toy             the 1D toy's parameters (examples/toy_1d/scene.yaml): K, m^a, D, h, m^u, s
  wall            "Contact dynamics is non-smooth!": the toy's robot against an immovable object
  second_order    "Second-order Dynamics" vs "Quasi-static Dynamics": the toy robot's response to
                  a step of its command, stewart-trinkle (m^a, D, K) against qp (one step)
  impulse         "Force-acceleration vs. Impulse-Momentum": one impulse-momentum step of the
                  free toy robot against m^a δv + hDv⁺ + hK(q^a + δq^a − u) = 0, and the
                  quasi-static step against the minimiser of ½hK(q^a + δq^a − u)², q^a⁺ = u
  painleve        "impacts can lead to infinite forces (e.g. Painleve's Paradox)": Painlevé's rod
                  (μ = 1.5 > 4/3) sliding either way, 30 impulse-momentum steps each
  null_space      "Quasi-static Dynamics Needs Regularization": the toy with a wall; at s = 0 the
                  object may be anywhere between the robot and the wall; s > 0 picks one
  grasp           "Contact force and q₊ can now be uniquely* determined from u, even for
                  grasping": the gripper's squeeze, the finger's force against its spring
  hydroplaning    "hydroplaning disappears as h → 0": the gripper's socp boundary layer φ while
                  the fingers slide, at h = 0.01, 0.005, 0.0025 s
  gradients       "Differentiability": A, B of the planar hand's socp step by implicit
                  differentiation against central differences
  cone_barrier    "Smoothing, the general case": the cone's log barrier on the 3D hand
                  (examples/hand_ball_3d), solved by Newton's method, its distance to the SOCP
                  and its B against central differences, κ = 10², 10⁴, 10⁶
  metric          "A distance metric that reflects contact dynamic reachability": B^u of the
                  planar hand with its fingers opened 0.02 rad (exact: 0; log barrier: not) and the
                  eigenvalues of B^u B^uᵀ

Not stated in the talk; ours: every command, κ, the wall's position, the rod's size, the
perturbations of the finite differences (1e-6). Deterministic (no random numbers).

Usage: PYTHONPATH=build/release/python /usr/bin/python3 scripts/talk_slides.py [--json OUT.json]
"""
import argparse
import json
import math
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOY = ROOT / "examples" / "toy_1d" / "scene.yaml"
GRIPPER = ROOT / "examples" / "planar_gripper" / "scene.yaml"
PLANAR_HAND = ROOT / "examples" / "planar_hand" / "scene.yaml"
HAND_3D = ROOT / "examples" / "hand_ball_3d" / "scene.yaml"
EPS = 1e-6  # central differences' perturbation [m, rad]


def central_b(stepper, q, u, v=None):
    columns = []
    for j in range(len(u)):
        du = np.zeros(len(u))
        du[j] = EPS
        columns.append((stepper.step(q, u + du).q_next - stepper.step(q, u - du).q_next)
                       / (2 * EPS))
    return np.stack(columns, 1)


def central_a(stepper, q, u):
    columns = []
    for j in range(len(q)):
        dq = np.zeros(len(q))
        dq[j] = EPS
        columns.append((stepper.step(q + dq, u).q_next - stepper.step(q - dq, u).q_next)
                       / (2 * EPS))
    return np.stack(columns, 1)


def require(result, what):
    if not result.ok:
        sys.exit(f"talk_slides.py: {what}: {result.status}: {result.message}")
    return result


def toy_block(qd):
    toy = qd.load_scene(str(TOY))
    mass = qd.mass_matrix(toy, toy.q0)
    return toy, {
        "K_N_per_m": float(toy.actuated_stiffness[0]),
        "D_Ns_per_m": float(toy.actuated_damping[0]),
        "m_a_kg": float(mass[1, 1]),
        "m_u_kg": float(mass[0, 0]),
        "h_s": float(toy.time_step),
        "s": float(toy.formulation_parameters.get("object_mass_scale", 1.0)),
    }


def wall_block(qd, toy):
    """"Contact dynamics is non-smooth!": the robot against a wall, min ½(q^a⁺ − u)² s.t. the
    contact, x₊ = u on one side of the contact and 0 on the other. The wall is the toy's object
    made immovable (object_mass_scale s = 10⁶: α = h²K/(h²K + s m^u) ≈ 1e-6), on the robot's right,
    so x₊ = min(u, 0) (the slide's plot mirrored); one exact step from q0 at u = ±0.1, ±0.01 m."""
    q0 = np.array(toy.q0)
    scale = 1e6
    h, K = toy.time_step, float(toy.actuated_stiffness[0])
    alpha = h * h * K / (h * h * K + scale * qd.mass_matrix(toy, toy.q0)[0, 0])
    linearizer = qd.Linearizer(toy, formulation="qp", object_mass_scale=scale)
    largest = 0.0
    slopes = {}
    for u in (-0.1, -0.01, 0.01, 0.1):
        r = require(linearizer.linearize(q0, [u], gradients="b_only", method="exact"),
                    f"wall: u = {u}")
        # closed form (examples/toy_1d/README.md): q^a⁺ = u − (1 − α) max(u, 0) from q0
        largest = max(largest, abs(r.q_next[1] - (u - (1 - alpha) * max(u, 0.0))))
        slopes[u] = float(np.array(r.B)[1, 0])
    return {"wall_alpha": alpha, "wall_q_a_minus_closed_form_m": largest,
            "wall_slope_free": slopes[-0.1], "wall_slope_contact": slopes[0.1]}


def second_order_block(qd, toy):
    """The robot alone (the command moves away from the object): a step of its command by
    −0.05 m, second order (m^a, D, K) against quasi-static."""
    q0 = np.array(toy.q0)
    u = np.array([q0[1] - 0.05])
    steps = 40
    second = qd.rollout(toy, q0, np.tile(u, (steps, 1)), formulation="stewart-trinkle")
    quasi = qd.rollout(toy, q0, np.tile(u, (steps, 1)), formulation="qp")
    if not (second.completed and quasi.completed):
        sys.exit("talk_slides.py: second_order: a rollout failed")
    after = second.q[1:, 1]  # row k: after step k + 1 (row 0 of q is q0)
    gap = np.abs(after - u[0]) / 0.05
    within = int(np.argmax(gap < 0.01)) + 1 if np.any(gap < 0.01) else -1
    gap_q = np.abs(quasi.q[1:, 1] - u[0]) / 0.05
    return {
        "second_order_steps_to_1pct": within,
        "second_order_overshoot_m": float(max(0.0, np.max(u[0] - after))),
        "quasi_static_steps_to_1pct": int(np.argmax(gap_q < 0.01)) + 1,
        "quasi_static_first_step_error_m": float(abs(quasi.q[1, 1] - u[0])),
    }


def impulse_block(qd, toy, values):
    """One step of the free robot from rest, impulse–momentum (stewart-trinkle: the robots'
    spring and damper at the end of the step) against the closed form; the quasi-static step
    against q^a⁺ = u."""
    q0 = np.array(toy.q0)
    u = np.array([q0[1] - 0.05])
    h, m, D, K = values["h_s"], values["m_a_kg"], values["D_Ns_per_m"], values["K_N_per_m"]
    stepper = qd.Stepper(toy, formulation="stewart-trinkle")
    v0 = np.zeros(toy.nv)
    r = require(stepper.step(q0, u, v=v0), "impulse: stewart-trinkle step")
    v_closed = -h * K * (q0[1] - u[0]) / (m + h * D + h * h * K)
    residual = m * (r.v_next[1] - 0.0) + h * D * r.v_next[1] + h * K * (r.q_next[1] - u[0])
    quasi = require(qd.Stepper(toy, formulation="qp").step(q0, u), "impulse: qp step")
    return {
        "impulse_v_next_m_per_s": float(r.v_next[1]),
        "impulse_v_closed_form_m_per_s": float(v_closed),
        "impulse_balance_residual_Ns": float(abs(residual)),
        "quasi_static_q_a_minus_u_m": float(abs(quasi.q_next[1] - u[0])),
    }


def painleve_block(qd):
    """Painlevé's rod (a 1 m, 1 kg thin box, μ = 1.5 above a uniform rod's critical 4/3) on its
    lower end at 30°, sliding at ±3 m/s; 30 steps of h = 0.01 s of each impulse–momentum
    formulation."""
    angle, length = math.pi / 6, 1.0
    solved = total = 0
    largest_impulse, lowest_phi = 0.0, math.inf
    for formulation in ("stewart-trinkle", "anitescu"):
        for speed in (-3.0, 3.0):
            y = 0.5 * length * math.sin(angle) + 0.005 * math.cos(angle)
            text = (f"name: painleve\ndimension: 2\ntime_step: 0.01\ncontact_tolerance: 0.02\n"
                    f"formulation: {{type: {formulation}}}\n"
                    "environment:\n  - {name: ground, type: half_space, friction: 1.5}\n"
                    "objects:\n  - name: rod\n    joint: planar\n"
                    f"    body: {{mass: 1, inertia: from_shapes, shapes: [{{type: box, size: "
                    f"[{length!r}, 0.01, 0.01], friction: 1.5}}]}}\n"
                    f"    initial: [0.0, {y!r}, {angle!r}]\n"
                    f"    initial_velocity: [{speed!r}, 0, 0]\n")
            scene = qd.load_scene_from_string(text, "painleve")
            stepper = qd.Stepper(scene)
            q, v = stepper.initial_state()
            for _ in range(30):
                total += 1
                r = stepper.step(q, np.zeros(0), v=v)
                if not r.ok:
                    continue
                solved += 1
                for c in r.contacts:
                    largest_impulse = max(largest_impulse, abs(c.normal_impulse))
                    lowest_phi = min(lowest_phi, c.phi_end)
                q, v = r.q_next, r.v_next
    return {"painleve_steps": total, "painleve_steps_solved": solved,
            "painleve_largest_normal_impulse_Ns": largest_impulse,
            "painleve_lowest_phi_m": lowest_phi}


def null_space_block(qd):
    """The toy with a wall: the object a free disk (planar joint: the prismatic slide of the toy
    joins it to the world, and a body joined to the world never touches the world's shapes) and
    the half-plane x >= 0.3 m, 0.05 m beyond it (both gaps within ε = 0.1 m). The command
    u = 0.04 m: the robot's tip (radius 0.05 m) pushes the disk (radius 0.1 m) to x >= q^a⁺ +
    0.15 m, the wall stops it at x <= 0.2 m. At s = 0 the cost ½hK(q^a⁺ − u)² leaves the disk
    anywhere in between; s > 0 picks the least motion."""
    text = TOY.read_text(encoding="utf-8")
    start, end = text.index("objects:"), text.index("robots:")
    text = text[:start] + (
        "environment:\n"
        "  - {name: wall, type: half_space, friction: 0.0, "
        "pose: {x: 0.3, y: 0, theta: 1.5707963267948966}}\n\n"
        "objects:\n  - name: object\n    joint: planar\n"
        "    body: {mass: 1.0, inertia: from_shapes, shapes: [{name: rim, type: sphere, "
        "radius: 0.1, friction: 0.0}]}\n"
        "    initial: [0.15, 0.0, 0.0]\n\n") + text[end:]
    scene = qd.load_scene_from_string(text, "toy_1d_wall", str(TOY.parent))
    q0 = np.array(scene.q0)
    u = np.array([0.04])
    out = {"null_space_wall_side_m": 0.3 - 0.1}  # the disk's centre where it meets the wall
    for label, s in (("s0", 0.0), ("s_small", 1e-6), ("s1", 1.0)):
        r = require(qd.Stepper(scene, formulation="qp", object_mass_scale=s).step(q0, u),
                    f"null_space: s = {s}")
        out[f"null_space_{label}_x_m"] = float(r.q_next[0])
        out[f"null_space_{label}_robot_side_m"] = float(r.q_next[3] + 0.05 + 0.1)
    return out


def hydroplaning_block(qd):
    """The gripper's fingers pulled down along the sphere while squeezing (t = 0.13 … 0.24 s):
    the socp's largest gap φ between a finger and the sphere while the fingers slide
    (t = 0.15 … 0.23 s) at three time steps."""
    gripper = qd.load_scene(str(GRIPPER))
    out = {}
    for label, h in (("h10ms", 0.01), ("h5ms", 0.005), ("h2_5ms", 0.0025)):
        trajectory = qd.rollout(gripper, formulation="socp", h=h)
        if not trajectory.completed:
            sys.exit(f"talk_slides.py: hydroplaning: the rollout at h = {h} failed")
        largest = 0.0
        for t, contacts in zip(trajectory.times[1:], trajectory.contacts, strict=True):  # step ends
            if not 0.15 - 1e-9 <= t <= 0.23 + 1e-9:
                continue
            for c in contacts:
                if "ground" in c.shape_a + c.shape_b or c.normal_force <= 0:
                    continue
                largest = max(largest, c.phi_end)
        out[f"hydroplaning_phi_{label}_m"] = largest
    return out


def grasp_block(qd):
    """The gripper squeezing the sphere (commands to t = 0.08 s: each finger 0.01 m into it):
    the left finger's normal force against its spring K·|x_l − x̄_l|, qp and socp."""
    gripper = qd.load_scene(str(GRIPPER))
    left = gripper.coordinate_names.index("gripper/x_left")
    stiffness = float(gripper.actuated_stiffness[left - gripper.nq_u])
    out = {"grasp_K_N_per_m": stiffness}
    for formulation in ("qp", "socp"):
        trajectory = qd.rollout(gripper, formulation=formulation, duration=0.08)
        if not trajectory.completed:
            sys.exit(f"talk_slides.py: grasp: the {formulation} rollout failed")
        t = trajectory.times[-1]
        commanded = gripper.command_at(t)[left - gripper.nq_u]
        force = [c.normal_force for c in trajectory.contacts[-1]
                 if c.shape_a.startswith("gripper/left_finger")]
        out[f"grasp_{formulation}_t_s"] = float(t)
        out[f"grasp_{formulation}_stretch_m"] = float(trajectory.q[-1, left] - commanded)
        out[f"grasp_{formulation}_normal_force_N"] = float(force[0]) if force else 0.0
    return out


def gradients_block(qd):
    """The planar hand squeezing the ball (u = q^a0 + (0, 0.2, 0, −0.2) rad), one socp step."""
    hand = qd.load_scene(str(PLANAR_HAND))
    q0 = np.array(hand.q0)
    u = q0[hand.q_a_slice] + np.array([0.0, 0.2, 0.0, -0.2])
    lin = qd.Linearizer(hand, formulation="socp").linearize(q0, u, gradients="a_and_b",
                                                            method="exact")
    require(lin, "gradients: linearize")
    stepper = qd.Stepper(hand, formulation="socp")
    return {
        "gradients_B_max_difference": float(np.max(np.abs(central_b(stepper, q0, u) - lin.B))),
        "gradients_B_max": float(np.max(np.abs(lin.B))),
        "gradients_A_max_difference": float(np.max(np.abs(central_a(stepper, q0, u) - lin.A))),
        "gradients_A_max": float(np.max(np.abs(lin.A))),
    }


def cone_barrier_block(qd):
    """The 3D hand (16 joints, the ball on the palm) at q0 with every joint commanded 0.1 rad
    further, one step: the socp, and the cone's log barrier at three κ."""
    hand = qd.load_scene(str(HAND_3D))
    q0 = np.array(hand.q0)
    u = q0[hand.q_a_slice] + 0.1
    socp = require(qd.Stepper(hand, formulation="socp").step(q0, u), "cone_barrier: socp")
    out = {"cone_barrier_contacts": len(socp.contacts),
           "cone_barrier_socp_iterations": int(socp.iterations)}
    for label, kappa in (("k1e2", 1e2), ("k1e4", 1e4), ("k1e6", 1e6)):
        stepper = qd.Stepper(hand, formulation="log-barrier-cone", kappa=kappa)
        r = require(stepper.step(q0, u), f"cone_barrier: κ = {kappa}")
        lin = require(qd.Linearizer(hand, formulation="socp", kappa=kappa).linearize(
            q0, u, gradients="b_only", method="log-barrier"), f"cone_barrier: B at κ = {kappa}")
        out[f"cone_barrier_{label}_newton_iterations"] = int(r.iterations)
        out[f"cone_barrier_{label}_distance_to_socp"] = float(np.max(np.abs(r.q_next
                                                                            - socp.q_next)))
        out[f"cone_barrier_{label}_B_max_difference"] = float(
            np.max(np.abs(central_b(stepper, q0, u) - lin.B)))
        out[f"cone_barrier_{label}_B_max"] = float(np.max(np.abs(lin.B)))
    return out


def metric_block(qd):
    """The planar hand with both fingers opened 0.02 rad away from the ball (gaps 10 and 17 mm,
    within the contact tolerance, no contact), command
    = that position: B^u (the ball's rows) exact and log barrier (the scene's κ), and the
    eigenvalues of B^u B^uᵀ, which the metric inverts."""
    hand = qd.load_scene(str(PLANAR_HAND))
    q = np.array(hand.q0)
    a = hand.q_a_slice
    q[a] = q[a] + np.array([-0.02, 0.0, 0.02, 0.0])
    u = q[a].copy()
    out = {}
    for method in ("exact", "log-barrier"):
        lin = require(qd.Linearizer(hand).linearize(q, u, gradients="b_only", method=method),
                      f"metric: {method}")
        bu = np.array(lin.B)[hand.q_u_slice, :]
        eigenvalues = np.linalg.eigvalsh(bu @ bu.T)
        key = method.replace("-", "_")
        out[f"metric_{key}_Bu_max"] = float(np.max(np.abs(bu)))
        out[f"metric_{key}_BBt_eig_min"] = float(eigenvalues[0])
        out[f"metric_{key}_BBt_eig_max"] = float(eigenvalues[-1])
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="also write the values to this file")
    args = parser.parse_args(argv)
    import quasidyn as qd
    toy, values = toy_block(qd)
    values.update(wall_block(qd, toy))
    values.update(second_order_block(qd, toy))
    values.update(impulse_block(qd, toy, values))
    values.update(painleve_block(qd))
    values.update(null_space_block(qd))
    values.update(hydroplaning_block(qd))
    values.update(grasp_block(qd))
    values.update(gradients_block(qd))
    values.update(cone_barrier_block(qd))
    values.update(metric_block(qd))
    text = json.dumps(values, indent=1, sort_keys=True)
    print(text)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
