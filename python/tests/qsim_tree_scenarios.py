"""Revolute-robot scenarios written as reference-simulator (qsim) files, for
test_qsim_tree_transcription.py: SDF text of links, joints and collisions, a model directive and
a system file. Each scenario returns (folder's system file, q0, command(t)), q0 and the
commands as dicts model name → q in Drake's order (a floating body (qw, qx, qy, qz, x, y, z)).

(d) planar_hand: qsim's planar_hand_ball (two 2-link revolute arms of sphere links, a ball on
    y/z/θ ghost joints, no gravity, n_d 2), the fingers closing on the ball.
(e) fingers_ball: two 3-joint revolute fingers (box and sphere links, one finger's link frames
    turned by yaw π and its axes in the joint frame, the other's in the model frame, a joint
    frame offset by <pose>) on a palm box welded at a turned frame, closing on a floating ball
    that rests on the palm under gravity; n_d 4, unactuated_mass_scale 5.
(f) arm_box: a revolute 2-link arm of sphere links pushing a floating box in free space (no
    ground, no gravity: sphere–box contact only), n_d 4.
"""

import math
import pathlib

import numpy as np

PACKAGE = "qd_qsim_tree"


def _friction(mu):
    return (f"<surface><friction><ode><mu>{mu!r}</mu><mu2>{mu!r}</mu2></ode></friction>"
            "</surface>")


def sphere(name, radius, pose="0 0 0 0 0 0", mu=0.8):
    return (f"<collision name=\"{name}\"><pose>{pose}</pose><geometry><sphere><radius>"
            f"{radius!r}</radius></sphere></geometry>{_friction(mu)}</collision>")


def box(name, size, pose="0 0 0 0 0 0", mu=0.8):
    return (f"<collision name=\"{name}\"><pose>{pose}</pose><geometry><box><size>"
            f"{' '.join(repr(s) for s in size)}</size></box></geometry>{_friction(mu)}"
            "</collision>")


def link(name, collisions="", pose="0 0 0 0 0 0", mass=0.1, inertia=1e-4, com="0 0 0"):
    return (f"<link name=\"{name}\"><pose>{pose}</pose><inertial><pose>{com} 0 0 0</pose>"
            f"<mass>{mass!r}</mass><inertia><ixx>{inertia!r}</ixx><iyy>{inertia!r}</iyy>"
            f"<izz>{inertia!r}</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
            f"{collisions}</link>")


def joint(name, kind, parent, child, axis, in_model=False, pose=None, actuated=True):
    expressed = " expressed_in=\"__model__\"" if in_model else ""
    limit = "" if actuated else "<limit><effort>0</effort></limit>"
    pose_text = f"<pose>{pose}</pose>" if pose else ""
    return (f"<joint name=\"{name}\" type=\"{kind}\"><parent>{parent}</parent><child>{child}"
            f"</child>{pose_text}<axis><xyz{expressed}>{' '.join(str(a) for a in axis)}</xyz>"
            f"{limit}</axis></joint>")


def sdf(model, *parts, version="1.7"):
    return (f"<?xml version=\"1.0\"?>\n<sdf version=\"{version}\"><model name=\"{model}\">"
            + "".join(parts) + "</model></sdf>\n")


def write(folder, name, sdfs, directive, robots, objects, params):
    """The files of one system under folder/name (package PACKAGE); returns the system file."""
    root = pathlib.Path(folder) / name
    (root / "q_sys").mkdir(parents=True, exist_ok=True)
    (root / "package.xml").write_text(f"<package><name>{PACKAGE}</name></package>\n")
    for file, text in sdfs.items():
        (root / file).write_text(text)
    (root / "directive.yml").write_text("directives:\n" + directive)
    lines = [f"model_directive: package://{PACKAGE}/directive.yml", "robots:"]
    lines += [f"  - {{name: {r}, Kp: [{', '.join(repr(k) for k in kp)}]}}"
              for r, kp in robots.items()]
    lines += ["objects:"] + [f"  - {{name: {o}, file: package://{PACKAGE}/{f}}}"
                             for o, f in objects.items()]
    lines += ["quasistatic_sim_params:"] + [f"  {k}: {v}" for k, v in params.items()]
    path = root / "q_sys" / "system.yml"
    path.write_text("\n".join(lines) + "\n")
    return path


def add_model(name, file):
    return f"- add_model:\n    name: {name}\n    file: package://{PACKAGE}/{file}\n"


def weld(frame, base, translation, child, rpy_deg=(0, 0, 0)):
    return (f"- add_frame:\n    name: {frame}\n    X_PF:\n      base_frame: {base}\n"
            f"      translation: [{', '.join(repr(t) for t in translation)}]\n"
            f"      rotation: !Rpy {{deg: [{', '.join(repr(a) for a in rpy_deg)}]}}\n"
            f"- add_weld:\n    parent: {frame}\n    child: {child}\n")


def ramp(start, end, duration):
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    return lambda t: start + min(t / duration, 1.0) * (end - start)


# --- (d) ------------------------------------------------------------------------------------


def _two_link_arm(model, side):
    """qsim's two_link_sphere_arm_{left,right}.sdf: link_0 (a sphere at the base), link_1 and
    link_2 of spheres 0.1 m apart along ∓y, joints about the model's x (SDF 1.6)."""
    s = -1.0 if side == "left" else 1.0
    balls1 = "".join(sphere(f"c{i}", 0.05, f"0 {s * 0.1 * (i + 1)!r} 0 0 0 0") for i in range(3))
    balls2 = "".join(sphere(f"c{i}", 0.05, f"0 {s * 0.1 * (i + 1)!r} 0 0 0 0") for i in range(2))
    return sdf(model,
               link("link_0", sphere("c", 0.05), mass=1.0, inertia=0.0033),
               joint("joint_1", "revolute", "link_0", "link_1", (1, 0, 0), in_model=True),
               link("link_1", balls1, mass=1.0, inertia=0.0033),
               joint("joint_2", "revolute", "link_1", "link_2", (1, 0, 0)),
               link("link_2", balls2, pose=f"0 {s * 0.3!r} 0 0 0 0", mass=1.0, inertia=0.0033),
               version="1.6")


def _ball_yz_theta(radius, mass, inertia, mu):
    ghosts = (link("ghost_y", mass=1e-6, inertia=1e-6) + link("ghost_z", mass=1e-6,
                                                              inertia=1e-6))
    return sdf("ball", ghosts,
               joint("y_slider", "prismatic", "world", "ghost_y", (0, 1, 0), actuated=False),
               joint("z_slider", "prismatic", "ghost_y", "ghost_z", (0, 0, 1), actuated=False),
               joint("rotation", "revolute", "ghost_z", "sphere", (1, 0, 0), actuated=False),
               link("sphere", sphere("c", radius, mu=mu), mass=mass, inertia=inertia))


def planar_hand(folder):
    """(d): the fingers at ∓π/4 (qsim's run_planar_hand.py), the ball lowered to touch both,
    the fingers closed by 0.4 and 0.3 rad over 1 s."""
    sdfs = {"arm_left.sdf": _two_link_arm("arm_left", "left"),
            "arm_right.sdf": _two_link_arm("arm_right", "right"),
            "ball.sdf": _ball_yz_theta(0.25, 1.0, 0.025, 0.8)}
    directive = (add_model("arm_left", "arm_left.sdf") + add_model("arm_right", "arm_right.sdf")
                 + weld("left_offset", "world", (0, -0.1, 0), "arm_left::link_0")
                 + weld("right_offset", "world", (0, 0.1, 0), "arm_right::link_0"))
    params = {"gravity": "[0, 0, 0.0]", "nd_per_contact": 2,
              "contact_detection_tolerance": 10.0, "is_quasi_dynamic": True,
              "unactuated_mass_scale": ".NAN", "h": 0.1}
    path = write(folder, "d_planar_hand", sdfs, directive,
                 {"arm_left": [50.0, 25.0], "arm_right": [50.0, 25.0]}, {"ball": "ball.sdf"},
                 params)
    q0 = {"arm_left": np.array([-math.pi / 4, -math.pi / 4]),
          "arm_right": np.array([math.pi / 4, math.pi / 4]),
          "ball": np.array([0.0, 0.42, 0.0])}
    left = ramp(q0["arm_left"], q0["arm_left"] + [-0.4, -0.3], 1.0)
    right = ramp(q0["arm_right"], q0["arm_right"] + [0.3, 0.2], 1.0)
    return path, q0, lambda t: {"arm_left": left(t), "arm_right": right(t)}


# --- (e) ------------------------------------------------------------------------------------


def _finger(prefix, x, turned):
    """A finger at (x, 0, 0) in the hand's frame: abduction about z, two flexions about −y
    (joint frame) or −y (model frame). turned: its link frames yawed by π, its axes in the
    joint frame (the flexions then turn about +y of the model: toward +x), else in the model
    frame (toward −x)."""
    yaw = f"{math.pi!r}" if turned else "0"
    in_model = not turned
    return [link(f"{prefix}_base", "", pose=f"{x!r} 0 0 0 0 {yaw}", mass=0.01),
            joint(f"{prefix}_abduct", "revolute", "palm", f"{prefix}_base", (0, 0, 1),
                  in_model=in_model),
            link(f"{prefix}_proximal", box("b", (0.02, 0.02, 0.05), "0 0 0.025 0 0 0"),
                 pose=f"{x!r} 0 0.04 0 0 {yaw}", mass=0.05, com="0 0 0.025"),
            joint(f"{prefix}_flex_1", "revolute", f"{prefix}_base", f"{prefix}_proximal",
                  (0, -1, 0), in_model=in_model),
            link(f"{prefix}_distal", box("b", (0.02, 0.02, 0.04), "0 0 0.02 0 0 0")
                 + sphere("tip", 0.012, "0 0 0.045 0 0 0"),
                 pose=f"{x!r} 0 0.09 0 0 {yaw}", mass=0.03, com="0 0 0.02"),
            joint(f"{prefix}_flex_2", "revolute", f"{prefix}_proximal", f"{prefix}_distal",
                  (0, -1, 0), in_model=in_model, pose="0 0 -0.002 0 0 0")]


def fingers_ball(folder):
    """(e): the palm's top face at the hand frame's z = 0, the frame turned by yaw 30°; the
    ball (r 0.06 m) on the palm between the fingers at x = ∓0.075 m; both fingers flex 0.5 rad
    toward it over 1 s, the first also abducts 0.1 rad."""
    hand = sdf("hand", link("palm", box("b", (0.2, 0.1, 0.02), "0 0 -0.01 0 0 0", mu=0.6),
                            mass=0.4, inertia=1e-3),
               *_finger("f1", -0.075, turned=True), *_finger("f2", 0.075, turned=False))
    ball = sdf("ball", link("sphere", sphere("c", 0.06, mu=0.9), mass=0.1, inertia=1.4e-4))
    directive = (add_model("hand", "hand.sdf")
                 + weld("hand_offset", "world", (0.0, 0.0, 0.0), "hand::palm", (0, 0, 30)))
    params = {"gravity": "[0, 0, -10.0]", "nd_per_contact": 4,
              "contact_detection_tolerance": 0.025, "is_quasi_dynamic": True,
              "unactuated_mass_scale": 5.0, "h": 0.1}
    path = write(folder, "e_fingers_ball", {"hand.sdf": hand, "ball.sdf": ball}, directive,
                 {"hand": [10.0] * 6}, {"ball": "ball.sdf"}, params)
    c, s = math.cos(math.pi / 6), math.sin(math.pi / 6)
    q0 = {"hand": np.zeros(6), "ball": np.array([1.0, 0, 0, 0, 0.002 * c, 0.002 * s, 0.06])}
    target = np.array([0.1, 0.5, 0.5, 0.0, 0.5, 0.5])
    hand_cmd = ramp(np.zeros(6), target, 1.0)
    return path, q0, lambda t: {"hand": hand_cmd(t)}


# --- (f) ------------------------------------------------------------------------------------


def arm_box(folder):
    """(f): a 2-link arm in the x-y plane (joints about z, link poses turned), sphere links,
    sweeping a free 0.2 m box (no gravity, no ground) by 0.6 rad at its shoulder."""
    arm = sdf("arm", link("base", mass=1.0),
              joint("shoulder", "revolute", "base", "upper", (0, 0, 1)),
              link("upper", "".join(sphere(f"c{i}", 0.04, f"{0.08 * (i + 1)!r} 0 0 0 0 0")
                                    for i in range(4)), pose="0 0 0 0 0 0.3", mass=1.0,
                   com="0.16 0 0"),
              joint("elbow", "revolute", "upper", "fore", (0, 0, 1)),
              link("fore", "".join(sphere(f"c{i}", 0.04, f"{0.08 * (i + 1)!r} 0 0 0 0 0")
                                   for i in range(3)),
                   pose=f"{0.32 * math.cos(0.3)!r} {0.32 * math.sin(0.3)!r} 0 0 0 0.8",
                   mass=1.0, com="0.12 0 0"))
    box_sdf = sdf("box", link("box", box("b", (0.2, 0.2, 0.2), mu=0.5), mass=1.0,
                              inertia=0.0067))
    directive = add_model("arm", "arm.sdf") + weld("arm_offset", "world", (0, 0, 0),
                                                   "arm::base")
    params = {"gravity": "[0, 0, 0.0]", "nd_per_contact": 4,
              "contact_detection_tolerance": 0.1, "is_quasi_dynamic": True,
              "unactuated_mass_scale": ".NAN", "h": 0.1}
    path = write(folder, "f_arm_box", {"arm.sdf": arm, "box.sdf": box_sdf}, directive,
                 {"arm": [100.0, 100.0]}, {"box": "box.sdf"}, params)
    q0 = {"arm": np.array([0.0, 0.0]), "box": np.array([1.0, 0, 0, 0, 0.32, 0.45, 0.0])}
    arm_cmd = ramp([0.0, 0.0], [0.6, 0.1], 1.5)
    return path, q0, lambda t: {"arm": arm_cmd(t)}


SCENARIOS = {"d_planar_hand": planar_hand, "e_fingers_ball": fingers_ball,
             "f_arm_box": arm_box}
