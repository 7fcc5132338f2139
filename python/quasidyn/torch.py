"""quasidyn.torch: quasidyn's time step and rollouts as PyTorch autograd functions.

    import torch, quasidyn, quasidyn.torch as qdt
    scene = quasidyn.load_scene("examples/planar_hand/scene.yaml")
    q = torch.tensor(scene.q0).repeat(8, 1)                         # (B, n_q) float64, CPU
    u = torch.tensor(scene.command_at(0.5)).repeat(8, 1).requires_grad_()
    q_next = qdt.step(scene, q, u)                                  # (B, n_q)
    Q = qdt.rollout(scene, q[0], u[0].detach().repeat(20, 1))       # (N + 1, n_q), Q[0] = q0
    Q[-1, 2].backward()                                             # gradients to q0 and U

step(scene, q, u, v=None) is one time step of the scene's formulation for every row of a batch;
rollout(scene, q0, U, v0=None) N steps from q0 with the commands U (row 0 of the result is q0,
as quasidyn.rollout_batch). The formulations with a velocity state (quasidyn.
VELOCITY_FORMULATIONS) take v (v0) and return (q⁺, v⁺) ((Q, V)). The forward pass is always the
formulation's own step, run on the library's C++ threads (quasidyn.rollout_batch); `gradients`
chooses what the backward pass differentiates (GRADIENTS; docs/torch.md says what each one is
the derivative of). Tensors must be float64 on the CPU: they are read through numpy views of
their memory and the results are tensors over the library's arrays, without copies. A failed
step raises StepFailedError, a failed derivative GradientFailedError, naming the batch row, the
step and the library's status and message. Importing quasidyn does not import torch; this
module does, and needs PyTorch (Debian's python3-torch).
"""

import math
import os

try:
    import torch
except ImportError as error:  # pragma: no cover  (CI installs python3-torch)
    raise ImportError(
        "quasidyn.torch needs PyTorch: install Debian's python3-torch (apt install python3-torch) "
        f"or torch from pip ({error})") from error

import numpy as np

import quasidyn

GRADIENTS = ("exact", "log-barrier", "randomized-first-order", "randomized-zeroth-order")
"""Every value of the gradients= argument of step and rollout (docs/torch.md, "Gradients")."""

__all__ = ["GRADIENTS", "GradientFailedError", "StepFailedError", "rollout", "step"]


class StepFailedError(RuntimeError):
    """A step of the forward pass failed: `index` (the batch row), `step` (1-based: 1 for step,
    k for rollout's k-th step), `status` and `detail` (the library's status and message)."""

    def __init__(self, text, index, step, status, detail):
        super().__init__(text)
        self.index, self.step, self.status, self.detail = index, step, status, detail


class GradientFailedError(RuntimeError):
    """A derivative of the backward pass could not be taken at a step that was solved:
    `index`, `step`, `status` and `detail` as StepFailedError's."""

    def __init__(self, text, index, step, status, detail):
        super().__init__(text)
        self.index, self.step, self.status, self.detail = index, step, status, detail


def _array(who, name, tensor):
    """The numpy view of a float64 CPU tensor (shares its memory); TypeError or ValueError
    naming the argument otherwise."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{who}: {name} must be a torch.Tensor, got {type(tensor).__name__}")
    if tensor.layout != torch.strided:
        raise TypeError(f"{who}: {name} must be a dense tensor, got layout {tensor.layout}")
    if tensor.dtype != torch.float64:
        raise TypeError(f"{who}: {name} must have dtype torch.float64, got {tensor.dtype} "
                        f"(convert it with {name}.double())")
    if tensor.device.type != "cpu":
        raise ValueError(f"{who}: {name} must be on the CPU, got device {tensor.device} "
                         f"(move it with {name}.cpu())")
    return tensor.detach().numpy()


def _check_shape(who, name, array, batched, tail, tail_text):
    """ValueError unless `array` is (B, *tail) when batched, else tail; NaN/Inf named by index."""
    expected = ("(B, " if batched else "(") + tail_text + (")" if batched or len(tail) > 1
                                                            else ",)")
    if array.shape[int(batched):] != tuple(tail) or array.ndim != len(tail) + int(batched):
        raise ValueError(f"{who}: {name} must have shape {expected}, got {tuple(array.shape)}")
    bad = np.argwhere(~np.isfinite(array))
    if len(bad):
        index = "".join(f"[{i}]" for i in bad[0])
        raise ValueError(f"{who}: {name}{index} is not finite ({array[tuple(bad[0])]})")


class _Setup:
    """The scene, formulation and gradient choice of one call, and the library calls they make."""

    def __init__(self, who, scene, gradients, formulation, h, parameters, threads, gradient_kappa,
                 smoothing, parameter):
        if not isinstance(scene, quasidyn.Scene):
            raise TypeError(f"{who}: scene must be a quasidyn.Scene, got {type(scene).__name__}")
        if gradients not in GRADIENTS:
            raise ValueError(f"{who}: gradients must be one of {', '.join(GRADIENTS)}, "
                             f"got {gradients!r}")
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise ValueError(f"{who}: threads must be an int >= 1 or None, got {threads!r}")
        self.who, self.scene, self.gradients, self.threads = who, scene, gradients, threads
        self.keywords = dict(formulation=formulation, h=h, parameters=parameters, **parameter)
        # The stepper resolves the formulation, checks its parameters and gives the state's shape.
        stepper = quasidyn.Stepper(scene, **self.keywords)
        self.formulation = stepper.formulation
        self.has_velocity = stepper.has_velocity
        q0, v0 = stepper.initial_state()
        self.nq, self.nv = scene.nq, (len(v0) if self.has_velocity else 0)
        self.v0 = v0
        self.nu = len(stepper.scheduled_command(stepper.h, q0, v=v0))
        info = next(f for f in quasidyn.formulations() if f["name"] == self.formulation)
        if gradients == "log-barrier" and not info["smoothed_linearization"]:
            raise ValueError(f"{who}: gradients='log-barrier': {self.formulation} has no "
                             "log-barrier smoothing (its gradients are the exact ones of its own "
                             "program)")
        if gradients.startswith("randomized") and self.has_velocity:
            raise ValueError(f"{who}: gradients={gradients!r}: randomized smoothing perturbs q "
                             f"and u but not v, and {self.formulation} has a velocity state; use "
                             "'exact'")
        if gradient_kappa is not None and gradients != "log-barrier":
            raise ValueError(f"{who}: gradient_kappa is the weight of gradients='log-barrier', "
                             f"not of {gradients!r}")
        if gradient_kappa is not None and not (gradient_kappa > 0
                                               and math.isfinite(gradient_kappa)):
            raise ValueError(f"{who}: gradient_kappa must be > 0 and finite, got {gradient_kappa}")
        given = {k: v for k, v in smoothing.items() if v is not None}
        if given and not gradients.startswith("randomized"):
            raise ValueError(f"{who}: {', '.join(given)} set the randomized gradients, "
                             f"not gradients={gradients!r}")
        self.gradient_kappa, self.smoothing = gradient_kappa, given

    def check_state(self, q, v, batched, q_name, v_name):
        _check_shape(self.who, q_name, q, batched, (self.nq,), f"n_q = {self.nq}")
        if self.has_velocity:
            if v is None:
                raise ValueError(f"{self.who}: {self.formulation} has a velocity state: give "
                                 f"{v_name} (n_v = {self.nv})")
            _check_shape(self.who, v_name, v, batched, (self.nv,), f"n_v = {self.nv}")
        elif v is not None:
            raise ValueError(f"{self.who}: {v_name} is only for the formulations with a velocity "
                             f"state (quasidyn.VELOCITY_FORMULATIONS), not {self.formulation}")

    def rollouts(self, q0s, Us, v0s, mode):
        """rollout_batch with the call's keywords; StepFailedError for the first failed row."""
        batch = quasidyn.rollout_batch(self.scene, q0s, Us, v0s=v0s, threads=self.threads,
                                       gradients=mode, **self.keywords)
        completed = batch.completed
        if not completed.all():
            b = int(np.argmin(completed))
            k = int(batch.steps_done[b]) + 1
            status, detail = batch.status[b], batch.message[b]
            raise StepFailedError(f"{self.who}: batch row {b}: {detail}", b, k, status, detail)
        return batch

    def exact_derivatives(self, batch, need_a):
        """A, B (B, N, n_x, n_x), (B, N, n_x, nu) of the rollouts; GradientFailedError at NaN."""
        A = batch.A if need_a else None
        B = batch.B
        bad = ~np.isfinite(B).all(axis=(2, 3))
        if A is not None:
            bad |= ~np.isfinite(A).all(axis=(2, 3))
        if bad.any():
            b, k = (int(i) for i in np.argwhere(bad)[0])
            s = batch[b].steps[k]
            raise GradientFailedError(
                f"{self.who}: batch row {b}: step {k + 1}: no derivative: "
                f"{s.gradient_status}: {s.gradient_message}", b, k + 1, s.gradient_status,
                s.gradient_message)
        return A, B

    def linearizer(self):
        keywords = dict(self.keywords)
        if self.gradient_kappa is not None:
            keywords["kappa"] = self.gradient_kappa
        threads = self.threads if self.threads is not None else (os.cpu_count() or 1)
        return quasidyn.BatchLinearizer(self.scene, threads=threads, **keywords)

    def smoothed_derivatives(self, Q, U, V, steps, need_a):
        """A, B at the M points (Q[i], U[i], V[i]) by the non-exact gradients; `steps` (M,) the
        step each point is (for errors: (batch row, step))."""
        mode = "a_and_b" if need_a else "b_only"
        linearizer = self.linearizer()
        if self.gradients == "log-barrier":
            result = linearizer.linearize(Q, U, gradients=mode, V=V, method="log-barrier")
            bad = np.flatnonzero(~np.asarray(result.ok))
            if len(bad):
                i = int(bad[0])
                self._gradient_failed(steps[i], result.status[i], result.message[i])
            return (result.A if need_a else None), result.B
        zeroth = self.gradients == "randomized-zeroth-order"
        if zeroth and need_a and not self.smoothing.get("q_std", 0) > 0:
            raise ValueError(f"{self.who}: gradients='randomized-zeroth-order' fits A = ∂x⁺/∂x, "
                             "needed for the gradient to q (and through a rollout of more than "
                             "one step), only from perturbed q: give q_std > 0 [m, rad]")
        smooth = linearizer.smooth_zeroth_order if zeroth else linearizer.smooth_first_order
        nx = self.nq + self.nv
        A = np.empty((len(Q), nx, nx)) if need_a else None
        B = np.empty((len(Q), nx, self.nu))
        for i in range(len(Q)):
            s = smooth(Q[i], U[i], gradients=mode, **self.smoothing)
            if not (np.isfinite(s.B).all() and (not need_a or np.isfinite(s.A).all())):
                self._gradient_failed(steps[i], "no_estimate",
                                      f"{s.samples_failed} of {s.samples_used + s.samples_failed}"
                                      " samples failed")
            B[i] = s.B
            if need_a:
                A[i] = s.A
        return A, B

    def _gradient_failed(self, where, status, detail):
        b, k = where
        raise GradientFailedError(f"{self.who}: batch row {b}: step {k}: no derivative "
                                  f"({self.gradients}): {status}: {detail}", b, k, status, detail)


def _rowwise(g, M):
    """g_i M_i for every row i: (R, m) × (R, m, n) → (R, n), one vector-matrix product per row."""
    return torch.matmul(g.unsqueeze(-2), M).squeeze(-2)


class _Rollout(torch.autograd.Function):
    """x_k = f(x_{k-1}, u_k) for k = 1 … N on batched arrays; backward by the adjoint recursion
    λ_N = ∂L/∂x_N, ∂L/∂u_k = B_kᵀλ_k, λ_{k-1} = ∂L/∂x_{k-1} + A_kᵀλ_k, ∂L/∂x_0 = λ_0."""

    @staticmethod
    def forward(ctx, setup, q0, U, v0):
        need_u = ctx.needs_input_grad[2]
        need_x0 = ctx.needs_input_grad[1] or (v0 is not None and ctx.needs_input_grad[3])
        # ∂L/∂u_k needs λ_k, which passes through A_{k+1} … A_N: A unless one step and no x0.
        need_a = need_x0 or (need_u and U.shape[1] > 1)
        need = need_u or need_x0
        q0s, Us = q0.detach().numpy(), U.detach().numpy()
        v0s = v0.detach().numpy() if v0 is not None else None
        exact = setup.gradients == "exact"
        mode = ("a_and_b" if need_a else "b_only") if (need and exact) else "none"
        batch = setup.rollouts(q0s, Us, v0s, mode)
        Q = torch.from_numpy(batch.q)
        V = torch.from_numpy(batch.v) if setup.has_velocity else None
        ctx.setup = setup
        if need:
            if exact:
                A, B = setup.exact_derivatives(batch, need_a)
            else:
                rows, N = Us.shape[0], Us.shape[1]
                steps = [(b, k + 1) for b in range(rows) for k in range(N)]
                points_q = np.ascontiguousarray(batch.q[:, :N]).reshape(rows * N, setup.nq)
                points_v = (np.ascontiguousarray(batch.v[:, :N]).reshape(rows * N, setup.nv)
                            if setup.has_velocity else None)
                A, B = setup.smoothed_derivatives(points_q, Us.reshape(rows * N, setup.nu),
                                                  points_v, steps, need_a)
                nx = setup.nq + setup.nv
                A = A.reshape(rows, N, nx, nx) if A is not None else None
                B = B.reshape(rows, N, nx, setup.nu)
            ctx.A = torch.from_numpy(A) if A is not None else None
            ctx.B = torch.from_numpy(B)
        return (Q, V) if setup.has_velocity else Q

    @staticmethod
    def backward(ctx, grad_Q, grad_V=None):
        setup, A, B = ctx.setup, ctx.A, ctx.B
        rows, N = B.shape[0], B.shape[1]
        G = grad_Q if not setup.has_velocity else torch.cat((grad_Q, grad_V), dim=2)
        grad_U = torch.empty(rows, N, setup.nu, dtype=torch.float64)
        lam = G[:, N]
        for k in range(N, 0, -1):
            grad_U[:, k - 1] = _rowwise(lam, B[:, k - 1])
            if A is not None:
                lam = G[:, k - 1] + _rowwise(lam, A[:, k - 1])
        if A is None:  # one step, x0 not asked for
            return None, None, grad_U, None
        return (None, lam[:, :setup.nq], grad_U,
                lam[:, setup.nq:] if setup.has_velocity else None)


def _setup(who, scene, gradients, formulation, h, parameters, threads, gradient_kappa, samples,
           u_std, q_std, seed, parameter):
    return _Setup(who, scene, gradients, formulation, h, parameters, threads, gradient_kappa,
                  dict(samples=samples, u_std=u_std, q_std=q_std, seed=seed), parameter)


def step(scene, q, u, v=None, *, gradients="exact", formulation=None, h=None, parameters=None,
         threads=None, gradient_kappa=None, samples=None, u_std=None, q_std=None, seed=None,
         **parameter):
    """q⁺ = f(q, u) of one time step for every row, differentiable by torch.autograd.

    q (B, n_q) [m, rad], u (B, nu) (the robots' commanded positions [m, rad]; halm-posa: their
    velocities; ecp: the applied impulses), float64 CPU tensors; or unbatched (n_q,), (nu,),
    giving unbatched results. Returns q⁺ (B, n_q); for a formulation with a velocity state
    (quasidyn.VELOCITY_FORMULATIONS) v (B, n_v) [m/s, rad/s] is required and (q⁺, v⁺) returned.
    formulation, h [s], parameters, **parameter: as quasidyn.Stepper (None: the scene's).
    gradients: what the backward pass differentiates (GRADIENTS; the forward is the same):
    'exact' the step itself (the library's implicit differentiation of the formulation's
    program); 'log-barrier' its log-barrier smoothing of weight gradient_kappa [1/(N·m)] (None:
    the formulation's κ, else the smoothed formulation's default); 'randomized-first-order',
    'randomized-zeroth-order' the randomized-smoothing estimates with samples, u_std, q_std
    [m, rad], seed (None: the library's defaults; every row uses the same seed). threads: the
    library's worker threads (None: every hardware thread). A failed step raises
    StepFailedError, a failed derivative GradientFailedError. docs/torch.md.
    """
    who = "quasidyn.torch.step"
    setup = _setup(who, scene, gradients, formulation, h, parameters, threads, gradient_kappa,
                   samples, u_std, q_std, seed, parameter)
    qa, ua = _array(who, "q", q), _array(who, "u", u)
    va = _array(who, "v", v) if v is not None else None
    batched = qa.ndim == 2
    setup.check_state(qa, va, batched, "q", "v")
    _check_shape(who, "u", ua, batched, (setup.nu,), f"nu = {setup.nu}")
    if batched and (len(ua) != len(qa) or (va is not None and len(va) != len(qa))):
        raise ValueError(f"{who}: one row per batch item in each of q, u" +
                         (" and v" if va is not None else "") + f", got q {len(qa)}, u {len(ua)}"
                         + (f", v {len(va)}" if va is not None else ""))
    if batched and len(qa) == 0:
        raise ValueError(f"{who}: the batch is empty (q has 0 rows)")
    if not batched:
        q, u = q.unsqueeze(0), u.unsqueeze(0)
        v = v.unsqueeze(0) if v is not None else None
    # A step is a rollout of one step: the commands (B, 1, nu), a view of u.
    out = _Rollout.apply(setup, q, u.unsqueeze(1), v)
    out = out if setup.has_velocity else (out,)
    out = tuple(x[:, 1] if batched else x[0, 1] for x in out)
    return out if setup.has_velocity else out[0]


def rollout(scene, q0, U, v0=None, *, gradients="exact", formulation=None, h=None,
            parameters=None, threads=None, gradient_kappa=None, samples=None, u_std=None,
            q_std=None, seed=None, **parameter):
    """Q = (q_0, q_1, …, q_N), q_k = f(q_{k-1}, U[:, k-1]), for every row, differentiable by
    torch.autograd with respect to q0, U (and v0).

    q0 (B, n_q), U (B, N, nu) float64 CPU tensors, or unbatched (n_q,), (N, nu). Returns Q
    (B, N + 1, n_q) with Q[:, 0] = q0 (quasidyn.rollout_batch's rows); for a formulation with a
    velocity state v0 (B, n_v) is optional (None: the scene's initial velocity) and (Q, V) is
    returned, V (B, N + 1, n_v). Keywords as step's. 'exact' gradients are the derivatives the
    rollout recorded (rollout_batch(..., gradients='a_and_b')); the others are taken at every
    (q_{k-1}, u_k) of the rollout. A failed step raises StepFailedError naming the row and the
    step; the whole batch stops. docs/torch.md.
    """
    who = "quasidyn.torch.rollout"
    setup = _setup(who, scene, gradients, formulation, h, parameters, threads, gradient_kappa,
                   samples, u_std, q_std, seed, parameter)
    qa, Ua = _array(who, "q0", q0), _array(who, "U", U)
    batched = qa.ndim == 2
    if setup.has_velocity and v0 is None:
        v0 = torch.from_numpy(np.tile(setup.v0, (len(qa), 1)) if batched else setup.v0.copy())
    va = _array(who, "v0", v0) if v0 is not None else None
    setup.check_state(qa, va, batched, "q0", "v0")
    if Ua.ndim != 2 + int(batched) or Ua.shape[-1] != setup.nu:
        raise ValueError(f"{who}: U must have shape " + ("(B, N, " if batched else "(N, ") +
                         f"nu = {setup.nu}), got {tuple(Ua.shape)}")
    _check_shape(who, "U", Ua, batched, Ua.shape[int(batched):], "N, nu")
    if batched and (len(Ua) != len(qa) or (va is not None and len(va) != len(qa))):
        raise ValueError(f"{who}: one row per batch item in each of q0, U" +
                         (" and v0" if va is not None else "") +
                         f", got q0 {len(qa)}, U {len(Ua)}" +
                         (f", v0 {len(va)}" if va is not None else ""))
    if batched and len(qa) == 0:
        raise ValueError(f"{who}: the batch is empty (q0 has 0 rows)")
    if not batched:
        q0, U = q0.unsqueeze(0), U.unsqueeze(0)
        v0 = v0.unsqueeze(0) if v0 is not None else None
    out = _Rollout.apply(setup, q0, U, v0)
    if batched:
        return out
    return tuple(x[0] for x in out) if setup.has_velocity else out[0]
