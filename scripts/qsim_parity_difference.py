"""How far quasidyn's default conventions take a reference-simulator system from parity mode.

Usage: PYTHONPATH=build/release/python python3 scripts/qsim_parity_difference.py QSIM_MODELS
       [--quasidyn build/release/quasidyn]

QSIM_MODELS is the reference quasistatic simulator's models/ folder (its q_sys/ files). Each
scenario loads a system file (parity mode: its conventions block is the simulator's), converts
it with `quasidyn convert` and switches the converted file's conventions to quasidyn's
defaults (friction_ray_basis quasidyn, quaternion_update exponential_map, joint_limits
enforced; n_d = 2 becomes 4, the smallest quasidyn pyramid that holds the simulator's two
rays), then steps both 20 times with the q0 and commands of the simulator's example script
and prints max over q of |q_default − q_parity| (m or rad) after the 20 steps and over them,
per formulation (qp, socp), with all three keys at quasidyn's defaults and with each alone.
"""

import argparse
import math
import os
import re
import subprocess
import tempfile

import numpy as np

import quasidyn

STEPS = 20


def two_spheres_xyz(scene):
    # qsim/examples/two_spheres_xyz/run_3d_spheres_pushing.py: h = 0.1, the pusher from behind
    # the ball (angle π/12) to 1 m past it over 0.8 · 2 s, then held.
    theta, r_robot, r_obj, duration = math.pi / 12, 0.1, 0.5, 2.0
    start = np.array([-math.cos(theta) * (r_robot + r_obj), -math.sin(theta) * (r_robot + r_obj),
                      r_obj])
    end = np.array([math.cos(theta), math.sin(theta), r_obj])
    q0 = scene.q0.copy()
    q0[scene.q_slice("sphere_xyz")] = [0.0, 0.0, r_obj]
    q0[scene.q_slice("sphere_xyz_actuated")] = start

    def command(t):
        s = min(t / (0.8 * duration), 1.0)
        return start + s * (end - start)

    return q0, command


def allegro_hand_and_sphere(scene):
    # qsim/examples/allegro_hand/run_allegro_hand.py: the ball at (−0.12, 0.01, 0.07), the hand
    # from 0 (:26; the file's default q0 holds joint_12 at its lower limit 0.263 rad instead)
    # to 1 rad on every joint but Drake's indices 0, 8, 12 (held at 0) over 2 s: joint_0,
    # joint_8 and joint_12, Drake numbering a model's joints depth first in the SDF's order.
    q0 = scene.q0.copy()
    q0[scene.q_slice("sphere")] = [-0.12, 0.01, 0.07, 1, 0, 0, 0]
    hand = scene.q_slice("allegro_hand_right")
    q0[hand] = 0.0
    names = scene.coordinate_names[hand]
    target = np.array([0.0 if re.search(r"joint_(0|8|12)\b", n) else 1.0 for n in names])
    start = q0[hand].copy()

    def command(t):
        return start + min(t / 2.0, 1.0) * (target - start)

    return q0, command


def planar_hand_ball(scene):
    # qsim/examples/planar_hand_ball/run_planar_hand.py: fingers at ∓π/4, the ball at
    # (y, z, θ) = (0, 0.5, 0); the left finger commanded to (−π/4 − 0.4, −π/4 − 0.3).
    q0 = scene.q0.copy()
    q0[scene.q_slice("sphere")] = [0.0, 0.5, 0.0]
    q0[scene.q_slice("arm_left")] = [-math.pi / 4, -math.pi / 4]
    q0[scene.q_slice("arm_right")] = [math.pi / 4, math.pi / 4]
    u = q0[scene.q_a_slice].copy()
    left = scene.u_slice("arm_left")
    u[left] = [-math.pi / 4 - 0.4, -math.pi / 4 - 0.3]
    return q0, lambda t: u


SCENARIOS = {
    "two_spheres_xyz.yml": two_spheres_xyz,
    "allegro_hand_and_sphere.yml": allegro_hand_and_sphere,
    "planar_hand_ball.yml": planar_hand_ball,
}


# Each key's default, and how the converted file spells the simulator's choice and quasidyn's.
DEFAULTS = {
    "friction_ray_basis": ("qsim", "quasidyn"),
    "quaternion_update": ("first_order", "exponential_map"),
    "joint_limits": ("ignored", "enforced"),
}


def converted_text(path, quasidyn_binary, folder):
    converted = os.path.join(folder, os.path.basename(path) + ".yaml")
    subprocess.run([quasidyn_binary, "convert", path, "--out", converted], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(converted) as f:
        return converted, f.read()


def with_defaults(converted, text, keys):
    """The converted scene with quasidyn's choice for each of `keys`."""
    for key in keys:
        parity, default = DEFAULTS[key]
        text = text.replace(f"{key}: {parity}", f"{key}: {default}")
        if key == "friction_ray_basis":
            text = re.sub(r"^friction_rays: 2$", "friction_rays: 4", text, flags=re.M)
    variant = converted + "." + "_".join(keys) + ".yaml"
    with open(variant, "w") as f:
        f.write(text)
    return quasidyn.load_scene(variant)


def run(scene, formulation, q0, command, steps=STEPS):
    stepper = quasidyn.Stepper(scene, formulation)
    q, path = q0.copy(), []
    for k in range(steps):
        result = stepper.step(q, command((k + 1) * stepper.h))
        if not result.ok:
            raise RuntimeError(f"{scene.name} {formulation} step {k + 1}: {result.message}")
        q = result.q_next
        path.append(q)
    return np.array(path)


def difference(scene, formulation, q0, command, reference):
    try:
        delta = np.abs(run(scene, formulation, q0, command, len(reference)) - reference)
        return f"{delta[-1].max():.2g} ({delta.max():.2g})"
    except RuntimeError as error:
        return "failed at " + str(error).split(": ")[0].split(" ", 2)[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models")
    parser.add_argument("--quasidyn", default=os.path.join("build", "release", "quasidyn"))
    args = parser.parse_args()
    variants = [list(DEFAULTS)] + [[key] for key in DEFAULTS]
    print(f"max over q of |q - q_parity| [m or rad] after {STEPS} steps (and over the {STEPS} "
          "steps; over those parity mode solved where it stops) with quasidyn's choice for:")
    print("| file | formulation | all three | " + " | ".join(DEFAULTS) + " |")
    with tempfile.TemporaryDirectory() as folder:
        for name, scenario in SCENARIOS.items():
            path = os.path.join(args.models, "q_sys", name)
            parity = quasidyn.load_scene(path)
            converted, text = converted_text(path, args.quasidyn, folder)
            scenes = [with_defaults(converted, text, keys) for keys in variants]
            q0, command = scenario(parity)
            for formulation in ("qp", "socp"):
                label = f"{name} (n_d {parity.friction_rays})"
                try:
                    reference = run(parity, formulation, q0, command)
                except RuntimeError as error:  # compare over the steps parity mode solved
                    failed = int(re.search(r"step (\d+)", str(error)).group(1))
                    reference = run(parity, formulation, q0, command, failed - 1)
                    label += f", parity mode stops at step {failed}"
                cells = [difference(scene, formulation, q0, command, reference)
                         for scene in scenes]
                print(f"| {label} | {formulation} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
