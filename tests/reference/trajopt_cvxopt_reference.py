#!/usr/bin/python3
"""Independent reference for the iterative MPC's QP subproblem (src/quasidyn/control/
trajopt_qp.h): from the raw data dump_trajopt_problems writes (the linearisations A_k, B_k,
the nominal trajectory, the weights and the trust region), builds the QP in (δu, δq) with the
dynamics as EQUALITY constraints, δq_{k+1} = A_k δq_k + B_k δu_k, and solves it with cvxopt
(a formulation independent of ours, which eliminates δq and solves for δu alone on our own
interior point). Regrasp steps (a planner's path) keep their δu_k as a variable here, fixed by
the equality δu_k = 0, with no rate term into them (ours drops the variable). Compares δu.
Exits 1 on a mismatch, 2 on bad input.

Tolerance (derived): the reduced objective f(δu) is λ-strongly convex, λ the smallest
eigenvalue of its Hessian (computed here). ε_cvx = cvxopt's duality gap plus what its equality
residual can add; ε_ours = n·1e-9·max(1, |f|), what our solver's stopping test (gap and
residuals 1e-9 relative) allows. Checks: f(δu_ours) − f(δu_cvx) <= ε_ours + ε_cvx (ours is
optimal), and ‖δu_ours − δu_cvx‖ <= sqrt(2(ε_ours + ε_cvx)/λ) + sqrt(2 ε_cvx/λ) (Boyd &
Vandenberghe, eq. (9.8), through δu*), plus the trust-region violation of ours. cvxopt runs at abstol = reltol = feastol =
1e-9, the tolerance of our QP solver.
"""
import json
import math
import sys

import numpy as np
from cvxopt import matrix, solvers

solvers.options["show_progress"] = False
for key in ("abstol", "reltol", "feastol"):
    solvers.options[key] = 1e-9
solvers.options["maxiters"] = 200


def reduced(p):
    """The objective as a function of δu alone (states substituted): Hessian, gradient at 0."""
    A = [np.array(a) for a in p["A"]]
    B = [np.array(b) for b in p["B"]]
    H, nq, nu, no = len(A), A[0].shape[0], B[0].shape[1], p["object_size"]
    n = H * nu
    # Dense linear map δu -> stacked δq, from the definition (independent of our recursion code).
    S = np.zeros((H * nq, n))
    f = np.zeros(H * nq)
    dq_free = np.array(p["dq0"])
    for k in range(H):
        prev = S[(k - 1) * nq:k * nq] if k else np.zeros((nq, n))
        S[k * nq:(k + 1) * nq] = A[k] @ prev
        S[k * nq:(k + 1) * nq, k * nu:(k + 1) * nu] += B[k]
        dq_free = A[k] @ dq_free
        f[k * nq:(k + 1) * nq] = dq_free
    return A, B, S, f, H, nq, nu, no, n


def regrasp(p, k):
    return bool(p.get("regrasp") and p["regrasp"][k])


def free_columns(p, H, nu):
    """The indices of δu that are variables (not those of regrasp steps)."""
    return [k * nu + i for k in range(H) if not regrasp(p, k) for i in range(nu)]


def cost(p, du):
    A, B, S, f, H, nq, nu, no, n = reduced(p)
    dq = S @ du + f
    J = 0.0
    u_prev = np.array(p["u_before"])
    for k in range(H):
        w = np.array(p["terminal_weight"] if k == H - 1 else p["object_weight"])
        e = np.array(p["q_nominal"][k])[:no] + dq[k * nq:k * nq + no] - np.array(p["goal"])
        J += e @ (w * e)
        u = np.array(p["u_nominal"][k]) + du[k * nu:(k + 1) * nu]
        if not regrasp(p, k):  # a reset, not a motion
            J += p["rate_weight"] * np.sum((u - u_prev) ** 2)
        u_prev = u
    return J


def solve_sparse(p):
    """cvxopt on x = (δu, δq): quadratic cost, equality dynamics, box trust region."""
    A, B, S, f, H, nq, nu, no, n = reduced(p)
    N = n + H * nq
    P = np.zeros((N, N))
    c = np.zeros(N)
    rho = p["rate_weight"]
    g = np.array(p["goal"])
    for k in range(H):
        w = np.array(p["terminal_weight"] if k == H - 1 else p["object_weight"])
        rows = slice(n + k * nq, n + k * nq + no)
        P[rows, rows] += 2 * np.diag(w)
        e = np.array(p["q_nominal"][k])[:no] - g
        c[rows] += 2 * w * e
        # ρ‖Δu_k + δu_k − δu_{k−1}‖², none into a regrasp step
        if regrasp(p, k):
            continue
        D = np.zeros((nu, N))
        D[:, k * nu:(k + 1) * nu] = np.eye(nu)
        if k:
            D[:, (k - 1) * nu:k * nu] = -np.eye(nu)
        prev = np.array(p["u_nominal"][k - 1]) if k else np.array(p["u_before"])
        rate = np.array(p["u_nominal"][k]) - prev
        P += 2 * rho * D.T @ D
        c += 2 * rho * D.T @ rate
    # Equalities: δq_{k+1} − A_k δq_k − B_k δu_k = 0 (δq_0 = dq0 is data), and δu_k = 0 at a
    # regrasp step.
    fixed = [k for k in range(H) if regrasp(p, k)]
    Aeq = np.zeros((H * nq + len(fixed) * nu, N))
    beq = np.zeros(H * nq + len(fixed) * nu)
    for i, k in enumerate(fixed):
        Aeq[H * nq + i * nu:H * nq + (i + 1) * nu, k * nu:(k + 1) * nu] = np.eye(nu)
    for k in range(H):
        r = slice(k * nq, (k + 1) * nq)
        Aeq[r, n + k * nq:n + (k + 1) * nq] = np.eye(nq)
        Aeq[r, k * nu:(k + 1) * nu] = -B[k]
        if k:
            Aeq[r, n + (k - 1) * nq:n + k * nq] = -A[k]
        else:
            beq[r] = A[0] @ np.array(p["dq0"])
    Gin = np.vstack([np.hstack([np.eye(n), np.zeros((n, N - n))]),
                     np.hstack([-np.eye(n), np.zeros((n, N - n))])])
    hin = np.full(2 * n, p["trust_region"])
    r = solvers.qp(matrix(P), matrix(c), matrix(Gin), matrix(hin), matrix(Aeq), matrix(beq))
    x = np.array(r["x"]).ravel()
    eq_residual = float(np.abs(Aeq @ x - beq).max())
    return r["status"], x[:n], abs(r["gap"]), eq_residual


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as fh:
        problems = json.load(fh)
    if not problems:
        print("no problems")
        return 2
    failures = 0
    for p in problems:
        A, B, S, f, H, nq, nu, no, n = reduced(p)
        status, du_ref, gap, eq_residual = solve_sparse(p)
        du = np.array(p["du"])
        # Hessian of the reduced objective: exact for a quadratic, from three evaluations per
        # pair would be costly; build it directly: 2 Sᵀ W S + 2ρ DᵀD.
        W = np.zeros(H * nq)
        for k in range(H):
            W[k * nq:k * nq + no] = p["terminal_weight"] if k == H - 1 else p["object_weight"]
        D = np.eye(n) - np.eye(n, k=-nu)
        rows = free_columns(p, H, nu)  # no rate row into a regrasp step
        D = D[rows]
        Hess = 2 * S.T @ (W[:, None] * S) + 2 * p["rate_weight"] * D.T @ D
        Hess = Hess[np.ix_(rows, rows)]  # the variables: regrasp steps' δu are fixed at 0
        lam = float(np.linalg.eigvalsh(Hess).min())
        grad_norm = float(np.abs(Hess @ du_ref[rows]).max() + 1.0)
        eps_ref = gap + eq_residual * grad_norm
        f_ours, f_ref = cost(p, du), cost(p, du_ref)
        # Our solver stops when its gap and residuals are below 1e-9 relative (QpSettings); its
        # objective error is then at most n·1e-9·max(1, |f|) (gap plus residuals times the
        # n-vector). Its excess over cvxopt's must stay within both solvers' errors.
        eps_ours = len(rows) * 1e-9 * max(1.0, abs(f_ours))
        fixed_ok = all(abs(du[k * nu + i]) == 0.0 for k in range(H) if regrasp(p, k)
                       for i in range(nu))
        excess = f_ours - f_ref
        violation = max(float(np.abs(du).max()) - p["trust_region"], 0.0)
        bound = math.sqrt(2 * (eps_ours + eps_ref) / lam) + math.sqrt(2 * eps_ref / lam) + violation
        difference = float(np.linalg.norm(du - du_ref))
        ok = excess <= eps_ours + eps_ref and difference <= bound
        ok = ok and status == "optimal" and p["status"] == "solved" and fixed_ok
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {p['name']:28s} n={n:3d} ours={p['status']} "
              f"cvxopt={status} |du|={difference:.2e} bound={bound:.2e} excess={excess:.1e} "
              f"lambda_min={lam:.1e}")
    print(f"{len(problems) - failures}/{len(problems)} subproblems agree with cvxopt")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
