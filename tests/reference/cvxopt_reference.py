#!/usr/bin/python3
"""Independent reference for quasidyn's QP and SOCP interior points: solves the problems
written by dump_solver_problems with cvxopt (cvxopt.solvers.qp / coneqp, Vandenberghe's
implementation) and compares the minimisers. Exits 1 on any mismatch, 2 on bad input.

Usage: /usr/bin/python3 cvxopt_reference.py problems.json

Tolerance (derived, not tuned). Every problem has Q ≻ 0 with smallest eigenvalue λ (computed
here with numpy), so f is λ-strongly convex and for a point x within ε of optimal in
objective, ‖x − x*‖₂ <= sqrt(2ε/λ) (Boyd & Vandenberghe, "Convex Optimization", eq. (9.8)).
Each solver's ε is its first-order optimality error at its answer, measured here from the
problem data (not taken from the solver): ε = |gap| + ‖z‖₁·(primal violation) +
‖x‖₁·(stationarity residual), i.e. the duality gap plus what infeasibility and dual
residual can add to it. The bound is the triangle inequality through x*:
‖x_ours − x_cvxopt‖₂ <= sqrt(2ε_ours/λ) + sqrt(2ε_cvxopt/λ), times 2 for the first-order
nature of ε. cvxopt runs with abstol = reltol = feastol = 1e-9, the tolerances quasidyn's
solvers use by default (QpSettings / SocpSettings), and must report 'optimal'.
"""
import json
import math
import sys

import numpy as np
from cvxopt import matrix, solvers

solvers.options["show_progress"] = False
solvers.options["abstol"] = 1e-9
solvers.options["reltol"] = 1e-9
solvers.options["feastol"] = 1e-9
solvers.options["maxiters"] = 200


def cone_margin(u):
    """t − ‖z‖ of u = (t, z); for a 1-dimensional cone, t."""
    return u[0] - (np.linalg.norm(u[1:]) if len(u) > 1 else 0.0)


def optimality_error(Q, c, blocks, x, duals):
    """ε of the module docstring. blocks: list of (A, b) with A x + b in K (dim 1 = R+);
    duals: one z per block, in the dual cone (K is self-dual)."""
    stationarity = Q @ x + c
    gap = 0.0
    violation = 0.0
    dual_violation = 0.0
    z_norm = 0.0
    for (A, b), z in zip(blocks, duals):
        u = A @ x + b
        stationarity -= A.T @ z
        gap += float(u @ z)
        violation = max(violation, -cone_margin(u))
        dual_violation = max(dual_violation, -cone_margin(z))
        z_norm += float(np.abs(z).sum())
    return (abs(gap) + z_norm * max(violation, 0.0) + np.abs(x).sum() *
            np.abs(stationarity).max() + dual_violation), violation


def solve_qp(p):
    Q, c = np.array(p["Q"]), np.array(p["c"])
    G, h = np.array(p["G"]).reshape(-1, len(c)), np.array(p["h"])
    # cvxopt: minimise ½xᵀPx + qᵀx s.t. G' x <= h'  ⇐  G x >= h with G' = −G, h' = −h.
    r = solvers.qp(matrix(Q), matrix(c), matrix(-G), matrix(-h))
    x = np.array(r["x"]).ravel()
    z = np.array(r["z"]).ravel()
    blocks = [(G[i:i + 1], -h[i:i + 1]) for i in range(len(h))]
    ours = optimality_error(Q, c, blocks, np.array(p["x"]), [np.array([zi]) for zi in p["z"]])
    theirs = optimality_error(Q, c, blocks, x, [np.array([zi]) for zi in z])
    return r["status"], x, Q, ours, theirs


def solve_socp(p):
    Q, c = np.array(p["Q"]), np.array(p["c"])
    n = len(c)
    G = np.array(p["G"]).reshape(-1, n)
    h = np.array(p["h"])
    cones = [(np.array(k["A"]).reshape(-1, n), np.array(k["b"])) for k in p["cones"]]
    # cvxopt coneqp: s = h' − G' x in K. Linear rows: G x − h >= 0 → G' = −G, h' = −h.
    # Cone k: A x + b ∈ K → G' = −A, h' = b.
    G_stack = np.vstack([-G] + [-A for A, _ in cones])
    h_stack = np.concatenate([-h] + [b for _, b in cones])
    dims = {"l": len(h), "q": [len(b) for _, b in cones], "s": []}
    r = solvers.coneqp(matrix(Q), matrix(c), matrix(G_stack), matrix(h_stack), dims)
    x = np.array(r["x"]).ravel()
    z = np.array(r["z"]).ravel()
    blocks = [(G[i:i + 1], -h[i:i + 1]) for i in range(len(h))] + cones
    split, offset = [], 0
    for A, _ in blocks:
        split.append(z[offset:offset + A.shape[0]])
        offset += A.shape[0]
    our_duals = [np.array([zi]) for zi in p["linear_duals"]] + \
        [np.array(zk) for zk in p["cone_duals"]]
    ours = optimality_error(Q, c, blocks, np.array(p["x"]), our_duals)
    theirs = optimality_error(Q, c, blocks, x, split)
    return r["status"], x, Q, ours, theirs


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        problems = json.load(f)
    if not problems:
        print("no problems in " + sys.argv[1])
        return 2
    failures = 0
    for index, p in enumerate(problems):
        if p["type"] == "qp":
            status, x_ref, Q, ours, theirs = solve_qp(p)
        elif p["type"] == "socp":
            status, x_ref, Q, ours, theirs = solve_socp(p)
        else:
            print(f"problem {index}: unknown type {p['type']!r}")
            return 2
        x = np.array(p["x"])
        lam = float(np.linalg.eigvalsh(Q).min())
        eps_ours, eps_theirs = max(ours[0], 0.0), max(theirs[0], 0.0)
        bound = 2.0 * (math.sqrt(2 * eps_ours / lam) + math.sqrt(2 * eps_theirs / lam))
        difference = float(np.linalg.norm(x - x_ref))
        our_status = p["info"]["status"]
        ok = (status == "optimal" and our_status == "solved" and difference <= bound)
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} #{index:2d} {p['type']:4s} n={len(x):3d} "
              f"ours={our_status}({p['info']['iterations']} it) cvxopt={status} "
              f"|dx|={difference:.2e} bound={bound:.2e} "
              f"eps_ours={eps_ours:.1e} eps_cvxopt={eps_theirs:.1e} lambda_min={lam:.1e}")
    print(f"{len(problems) - failures}/{len(problems)} problems agree with cvxopt")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
