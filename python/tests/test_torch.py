"""quasidyn.torch: steps and rollouts as torch.autograd functions (docs/torch.md).

Skipped only where PyTorch is absent; CI installs Debian's python3-torch, so there it runs.

gradcheck's tolerance (its defaults, eps = 1e-6, atol = 1e-5, rtol = 1e-3): a central
difference carries the truncation O(eps²) and δ/eps, δ the error of the step's solution. At
these points the worst entry of |central difference − analytical| measured 1.7e-9 for the QP,
SOCP and second-order steps and 6.0e-7 for the log barrier (its Newton iteration stops at a
decrement of 1e-14) (docs/torch.md, "Tests"), so atol leaves a margin of 16 or more. The points
are chosen inside one piece of the piecewise smooth exact step (contacts clearly open or
closed, asserted by the contacts' forces); a wrong gradient fails: 'log-barrier' gradients of
the QP step, which are not its derivative, fail gradcheck at the same points.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import quasidyn  # noqa: E402
import quasidyn.torch as qdt  # noqa: E402
from conftest import SOURCE_DIR, example_path  # noqa: E402


@pytest.fixture(scope="module")
def hand():
    return quasidyn.load_scene(example_path("planar_hand"))


@pytest.fixture(scope="module")
def arm():
    return quasidyn.load_scene(example_path("mjcf_arm"))


def tensor(array, grad=True):
    return torch.tensor(np.asarray(array), dtype=torch.float64, requires_grad=grad)


def grasp(hand, formulation="qp", steps=70):
    """The hand squeezing the ball after `steps` steps of its schedule: (q, v, u) of the next."""
    trajectory = quasidyn.rollout(hand, formulation=formulation, steps=steps + 1)
    assert trajectory.completed, trajectory.message
    # Inside one piece: both fingertips press the ball, which rests on the ground.
    forces = [c.normal_force for c in trajectory.steps[-1].contacts]
    assert len(forces) == 3 and min(forces) > 0.1, forces
    v = trajectory.v[-2] if trajectory.v.shape[1] else None
    return trajectory.q[-2], v, trajectory.u[-1]


def gradcheck(f, inputs):
    return torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-5, rtol=1e-3,
                                    raise_exception=False)


# --- gradcheck: 'exact' is the derivative of the step --------------------------------------------

@pytest.mark.parametrize("formulation", ["qp", "socp", "log-barrier"])
def test_exact_step_gradients_pass_gradcheck_on_the_planar_hand(hand, formulation):
    q, _, u = grasp(hand)
    assert gradcheck(lambda a, b: qdt.step(hand, a, b, formulation=formulation),
                     (tensor(q), tensor(u)))


def test_log_barrier_gradients_are_the_derivative_of_the_log_barrier_step_only(hand):
    q, _, u = grasp(hand)
    inputs = (tensor(q), tensor(u))
    # Of the barrier formulation's own step: its derivative (the same as 'exact' there) ...
    assert gradcheck(lambda a, b: qdt.step(hand, a, b, formulation="log-barrier",
                                           gradients="log-barrier"), inputs)
    # ... but not of the QP step, whose forward they accompany: gradcheck can fail.
    assert not gradcheck(lambda a, b: qdt.step(hand, a, b, gradients="log-barrier"), inputs)


@pytest.mark.parametrize("k", [95, 115])
def test_exact_step_gradients_pass_gradcheck_on_the_arm(arm, k):
    # The forearm pushes the box (a floating body: quaternion coordinates) across the floor.
    trajectory = quasidyn.rollout(arm, steps=k)
    pushes = [c.normal_force for c in trajectory.steps[k - 1].contacts
              if c.shape_a.startswith("arm/")]
    assert max(pushes) > 1, pushes
    inputs = (tensor(trajectory.q[k - 1]), tensor(trajectory.u[k - 1]))  # the k-th step's
    assert gradcheck(lambda a, b: qdt.step(arm, a, b), inputs)


@pytest.mark.parametrize("formulation", ["anitescu", "stewart-trinkle"])
def test_second_order_step_and_rollout_pass_gradcheck(hand, formulation):
    q, v, u = grasp(hand, formulation)
    assert gradcheck(lambda a, b, c: qdt.step(hand, a, b, c, formulation=formulation),
                     (tensor(q), tensor(u), tensor(v)))
    U = np.array([hand.command_at(0.72 + 0.01 * i) for i in range(4)])
    assert gradcheck(lambda a, b, c: qdt.rollout(hand, a, b, c, formulation=formulation),
                     (tensor(q), tensor(U), tensor(v)))


def test_rollout_passes_gradcheck_and_starts_with_q0(hand):
    q, _, _ = grasp(hand)
    U = np.array([hand.command_at(0.72 + 0.01 * i) for i in range(5)])
    assert gradcheck(lambda a, b: qdt.rollout(hand, a, b), (tensor(q), tensor(U)))
    Q = qdt.rollout(hand, tensor(q, False), tensor(U, False))
    expected = quasidyn.rollout(hand, q, U)
    assert Q.shape == (6, hand.nq)
    np.testing.assert_array_equal(Q[0].numpy(), q)
    np.testing.assert_array_equal(Q.numpy(), expected.q)  # one convention: q0 first


# --- randomized smoothing: the library's estimate, exactly ---------------------------------------

@pytest.mark.parametrize("kind, method", [("randomized-first-order", "smooth_first_order"),
                                          ("randomized-zeroth-order", "smooth_zeroth_order")])
def test_randomized_backward_is_the_librarys_estimate(hand, kind, method):
    q, _, u = grasp(hand)
    settings = dict(samples=40, u_std=0.02, q_std=0.01, seed=7)
    # The Jacobian by one backward pass per output with unit vectors: B (and A) entry by entry.
    A, B = torch.autograd.functional.jacobian(
        lambda a, b: qdt.step(hand, a, b, gradients=kind, threads=2, **settings),
        (tensor(q), tensor(u)))
    smoothed = getattr(quasidyn.BatchLinearizer(hand, threads=1), method)(
        q, u, gradients="a_and_b", **settings)
    np.testing.assert_array_equal(A.numpy(), smoothed.A)
    np.testing.assert_array_equal(B.numpy(), smoothed.B)
    # The forward pass is the step itself, not the samples' mean.
    np.testing.assert_array_equal(
        qdt.step(hand, tensor(q, False), tensor(u, False), gradients=kind, **settings).numpy(),
        quasidyn.Stepper(hand).step(q, u).q_next)


def test_log_barrier_backward_is_the_librarys_log_barrier_linearization(hand):
    q, _, u = grasp(hand)
    A, B = torch.autograd.functional.jacobian(
        lambda a, b: qdt.step(hand, a, b, gradients="log-barrier", gradient_kappa=300.0),
        (tensor(q), tensor(u)))
    expected = quasidyn.BatchLinearizer(hand, kappa=300.0).linearize(
        q[None], u[None], method="log-barrier")
    np.testing.assert_array_equal(A.numpy(), expected.A[0])
    np.testing.assert_array_equal(B.numpy(), expected.B[0])


# --- batches: every row bitwise the single call --------------------------------------------------

@pytest.mark.parametrize("gradients", ["exact", "log-barrier", "randomized-first-order"])
def test_batch_gradients_equal_the_single_calls_bitwise(hand, gradients):
    trajectory = quasidyn.rollout(hand, steps=80)
    rows = [10, 40, 60, 78]
    Q, U = trajectory.q[rows], trajectory.u[rows]  # the steps from states `rows`
    weights = np.random.default_rng(0).standard_normal((len(rows), hand.nq))
    extra = dict(samples=10, u_std=0.01) if gradients.startswith("randomized") else {}

    def gradients_of(q, u):
        q, u = tensor(q), tensor(u)
        (qdt.step(hand, q, u, gradients=gradients, threads=2, **extra)
         * torch.from_numpy(weights[: len(q)] if q.ndim == 2 else weights[0])).sum().backward()
        return q.grad.numpy(), u.grad.numpy()

    batch_q, batch_u = gradients_of(Q, U)
    for i, row in enumerate(rows):
        weights_row = weights[i]
        q, u = tensor(Q[i]), tensor(U[i])
        (qdt.step(hand, q, u, gradients=gradients, threads=1, **extra)
         * torch.from_numpy(weights_row)).sum().backward()
        np.testing.assert_array_equal(batch_q[i], q.grad.numpy(), err_msg=f"row {row}")
        np.testing.assert_array_equal(batch_u[i], u.grad.numpy(), err_msg=f"row {row}")


def test_batch_rollout_gradients_equal_the_single_calls_bitwise(hand):
    rng = np.random.default_rng(1)
    B, N = 3, 6
    q0s = np.tile(hand.q0, (B, 1))
    Us = np.tile(hand.command_at(0.5), (B, N, 1)) + 0.01 * rng.standard_normal((B, N, hand.nq_a))
    weights = torch.from_numpy(rng.standard_normal((B, N + 1, hand.nq)))
    q0, U = tensor(q0s), tensor(Us)
    (qdt.rollout(hand, q0, U) * weights).sum().backward()
    for b in range(B):
        q0_b, U_b = tensor(q0s[b]), tensor(Us[b])
        (qdt.rollout(hand, q0_b, U_b, threads=1) * weights[b]).sum().backward()
        np.testing.assert_array_equal(q0.grad[b].numpy(), q0_b.grad.numpy())
        np.testing.assert_array_equal(U.grad[b].numpy(), U_b.grad.numpy())


def test_gradient_to_the_commands_only_matches_the_full_one(hand):
    q, _, _ = grasp(hand)
    U = np.array([hand.command_at(0.72 + 0.01 * i) for i in range(4)])
    U_only, U_both, q_both = tensor(U), tensor(U), tensor(q)
    qdt.rollout(hand, tensor(q, False), U_only)[-1, 2].backward()
    qdt.rollout(hand, q_both, U_both)[-1, 2].backward()
    np.testing.assert_array_equal(U_only.grad.numpy(), U_both.grad.numpy())


# --- failures and bad input ----------------------------------------------------------------------

def test_a_failed_step_raises_naming_the_row_the_step_and_the_status(hand):
    q = torch.from_numpy(np.tile(hand.q0, (3, 1)))
    u = torch.from_numpy(np.tile(hand.command_at(0.5), (3, 1)))
    u[1, 0] = 1e308  # finite, but the step's cost overflows
    with pytest.raises(qdt.StepFailedError, match=r"^quasidyn.torch.step: batch row 1: step 1 "
                       r".*numerical_failure.*overflowed") as failure:
        qdt.step(hand, q, u)
    assert (failure.value.index, failure.value.step) == (1, 1)
    assert failure.value.status == "numerical_failure"
    U = torch.from_numpy(np.tile(hand.command_at(0.5), (2, 5, 1)))
    U[1, 2, 3] = 1e308
    with pytest.raises(qdt.StepFailedError, match=r"batch row 1: step 3 ") as failure:
        qdt.rollout(hand, q[:2], U)
    assert (failure.value.index, failure.value.step) == (1, 3)
    assert isinstance(failure.value, RuntimeError)


def test_bad_inputs_raise_naming_the_argument(hand):
    q, u = torch.from_numpy(hand.q0.copy()), torch.from_numpy(hand.command_at(0.5))
    cases = [
        (TypeError, "q must have dtype torch.float64, got torch.float32", (q.float(), u), {}),
        (TypeError, "u must be a torch.Tensor, got ndarray", (q, u.numpy()), {}),
        (ValueError, "q must be on the CPU, got device meta",
         (torch.empty(hand.nq, dtype=torch.float64, device="meta"), u), {}),
        (ValueError, r"q must have shape \(n_q = 7,\), got \(6,\)", (q[:6], u), {}),
        (ValueError, r"u must have shape \(B, nu = 4\), got \(2, 3\)",
         (q.repeat(2, 1), u[:3].repeat(2, 1)), {}),
        (ValueError, r"one row per batch item in each of q, u, got q 2, u 3",
         (q.repeat(2, 1), u.repeat(3, 1)), {}),
        (ValueError, r"u\[1\] is not finite \(nan\)", (q, u.clone().index_fill_(0, torch.tensor(
            [1]), float("nan"))), {}),
        (ValueError, "v is only for the formulations with a velocity state",
         (q, u, torch.zeros(hand.nv, dtype=torch.float64)), {}),
        (ValueError, "anitescu has a velocity state: give v", (q, u), {"formulation": "anitescu"}),
        (ValueError, "gradients must be one of exact, log-barrier", (q, u), {"gradients": "fd"}),
        (ValueError, "anitescu has no log-barrier smoothing", (q, u),
         {"formulation": "anitescu", "gradients": "log-barrier"}),
        (ValueError, "randomized smoothing perturbs q and u but not v", (q, u),
         {"formulation": "anitescu", "gradients": "randomized-first-order"}),
        (ValueError, "samples set the randomized gradients", (q, u), {"samples": 3}),
        (ValueError, "randomized-zeroth-order' fits A .* give q_std > 0",
         (q.clone().requires_grad_(), u), {"gradients": "randomized-zeroth-order"}),
        (TypeError, "scene must be a quasidyn.Scene", ("hand.yaml", u), {}),
    ]
    for error, message, args, keywords in cases:
        scene = hand if not isinstance(args[0], str) else args[0]
        with pytest.raises(error, match=message):
            qdt.step(scene, *(args if scene is hand else (q,) + args[1:]), **keywords)
    with pytest.raises(ValueError,
                       match=r"quasidyn.torch.rollout: U must have shape \(N, nu = 4\)"):
        qdt.rollout(hand, q, u)


def test_inputs_and_outputs_share_memory_with_numpy(hand):
    q = torch.from_numpy(np.tile(hand.q0, (2, 1)))
    assert np.shares_memory(qdt._array("test", "q", q), q.numpy())
    out = qdt.rollout(hand, q, torch.from_numpy(np.tile(hand.command_at(0.5), (2, 3, 1))))
    assert out.dtype == torch.float64 and out.shape == (2, 4, hand.nq)


def test_importing_quasidyn_does_not_import_torch_and_a_missing_torch_is_named():
    imported = subprocess.run(
        [sys.executable, "-c", "import sys, quasidyn; print('torch' in sys.modules)"],
        capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "False"
    missing = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['torch'] = None; import quasidyn.torch"],
        capture_output=True, text=True)
    assert missing.returncode != 0 and "ImportError" in missing.stderr
    assert "python3-torch" in missing.stderr


# --- the example ---------------------------------------------------------------------------------

def test_the_planar_hand_example_turns_the_ball_30_degrees():
    run = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "planar_hand" /
                                              "torch_turn_ball.py")],
                         capture_output=True, text=True, check=True)
    lines = dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)
    before, after = (float(lines[k]) for k in ("cost before", "cost after"))
    assert after < 0.1 * before, run.stdout
    # The 30° turn within the scene's planning goal tolerance, 0.05 rad (2.86°).
    assert abs(math.radians(float(lines["final angle [deg]"]) - 30.0)) < 0.05, run.stdout
