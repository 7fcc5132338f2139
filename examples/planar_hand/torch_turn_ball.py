"""Turn the planar hand's ball by 30° with torch.optim through a 20-step quasidyn rollout.

The open-loop commands U (20 steps of the four finger joints, h = 0.1 s) are the parameters;
the cost is Σ w_i e_i² of the ball's terminal error e = q_u,N − q_u,goal, q_u,goal = q_u,0 +
(0, 0, π/6), w = (10, 10, 1) for (x [m], y [m], θ [rad]), plus 1e-3 Σ ‖u_k − u_{k−1}‖² [rad²].
Adam on U (the best iterate is kept), gradients by quasidyn.torch.rollout (docs/torch.md).
Prints the cost before and after, the final angle and the wall time.

    PYTHONPATH=build/release/python python3 examples/planar_hand/torch_turn_ball.py \
        [--iterations 150] [--gradients exact|log-barrier]
"""

import argparse
import math
import pathlib
import time

import numpy as np
import torch

import quasidyn
import quasidyn.torch as qdt

SCENE = pathlib.Path(__file__).resolve().parent / "scene.yaml"
STEPS, H = 20, 0.1
TURN = math.pi / 6
WEIGHTS = torch.tensor([10.0, 10.0, 1.0], dtype=torch.float64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=150, help="Adam iterations")
    parser.add_argument("--gradients", default="exact", choices=("exact", "log-barrier"))
    args = parser.parse_args()
    iterations = args.iterations

    scene = quasidyn.load_scene(SCENE)
    q0 = torch.from_numpy(scene.q0.copy())
    ball = scene.q_slice("ball")
    goal = q0[ball] + torch.tensor([0.0, 0.0, TURN], dtype=torch.float64)
    # The guess: the fingers close on the ball and hold still (docs/python.md, "Control").
    guess = scene.q0[scene.q_a_slice] + np.array([0.0, 0.2, 0.0, -0.2])
    U = torch.tensor(np.tile(guess, (STEPS, 1)), requires_grad=True)

    def cost(U, gradients=args.gradients):
        Q = qdt.rollout(scene, q0, U, h=H, gradients=gradients)
        error = Q[-1, ball] - goal
        rate = U[1:] - U[:-1]
        return (WEIGHTS * error * error).sum() + 1e-3 * (rate * rate).sum(), Q

    optimizer = torch.optim.Adam([U], lr=0.02)
    start = time.perf_counter()
    with torch.no_grad():
        before = cost(U)[0].item()
    best, best_U = before, U.detach().clone()
    for _ in range(iterations):
        optimizer.zero_grad()
        value, _ = cost(U)
        if value.item() < best:
            best, best_U = value.item(), U.detach().clone()
        value.backward()
        optimizer.step()
    with torch.no_grad():
        after, Q = cost(best_U)
    seconds = time.perf_counter() - start
    print(f"iterations: {iterations} (Adam, lr 0.02, {args.gradients} gradients)")
    print(f"cost before: {before:.6g}")
    print(f"cost after: {after.item():.6g}")
    print(f"final angle [deg]: {math.degrees(Q[-1, ball][2].item() - q0[ball][2].item()):.3f}")
    print(f"final position error [m]: {(Q[-1, ball][:2] - goal[:2]).norm().item():.3g}")
    print(f"wall time [s]: {seconds:.3f}")


if __name__ == "__main__":
    main()
