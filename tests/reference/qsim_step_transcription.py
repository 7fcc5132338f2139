"""An independent transcription of the reference quasistatic simulator's step (qsim).

Written from the reference simulator's source (pangtao22/quasistatic_simulator, its C++ in
quasistatic_simulator_cpp/qsim/) and from Pang & Tedrake, "A Convex Quasistatic Time-stepping
Scheme for Rigid Multibody Systems with Contact and Friction", ICRA 2021 ("the paper"). It
shares no code with quasidyn (it imports numpy and cvxopt only) and solves the step's program
with cvxopt, then polishes the QP's answer on its active set.

Scope: spheres (on robots whose joints are prismatic, and on free objects, either floating —
position and unit quaternion — or moved by prismatic "ghost link" joints to the world) and
axis-aligned boxes welded to the world (the ground). The systems are described in Python
(`System`); the caller writes the same system as qsim files for the program under test.
Kinematic trees (revolute robots, boxes on any link, box–box) read from qsim's own files:
qsim_files.py and qsim_tree_step.py, which reuse this module's rays and solvers.

Conventions of this module (those of Drake, which qsim uses):
- A model's q: prismatic joints, one number each [m]; a floating object (qw, qx, qy, qz, x, y, z)
  (Drake's order), its v (ωx, ωy, ωz, vx, vy, vz), ω and the velocity in the world frame.
- Units SI; h [s] > 0; stiffness Kp [N/m] > 0; gravity [m/s²].

Each formula names the qsim function it transcribes.
"""

from dataclasses import dataclass, field
import math

import numpy as np


@dataclass
class Robot:
    """A robot sphere on a chain of prismatic joints from the world (qsim's
    sphere_*_actuated SDFs: ghost links, the sphere on the last joint), all link frames at the
    world's orientation. axes: one world direction per joint (unit); kp: N/m per joint."""
    name: str
    axes: list
    kp: list
    radius: float
    mu: float


@dataclass
class Ball:
    """A free sphere: `axes` None for a floating joint, else the world directions of its
    prismatic ghost-link joints (the sphere is the child of the last one); `ghost_masses` the
    masses [kg] of the ghost links (one per joint but the last). inertia: the principal moments
    [kg·m²] of the sphere about its centre, in its body frame."""
    name: str
    radius: float
    mass: float
    inertia: tuple
    mu: float
    axes: list = None
    ghost_masses: list = field(default_factory=list)

    @property
    def floating(self):
        return self.axes is None


@dataclass
class Ground:
    """A box welded to the world, axis-aligned: centre [m], size (full edge lengths) [m]."""
    name: str
    center: tuple
    size: tuple
    mu: float


@dataclass
class System:
    """qsim's QuasistaticSimParameters subset (quasistatic_sim_params.h) and the models."""
    robots: list
    objects: list
    grounds: list
    gravity: tuple
    nd_per_contact: int
    contact_detection_tolerance: float
    h: float
    is_quasi_dynamic: bool = True
    unactuated_mass_scale: float = math.nan


@dataclass
class Contact:
    """One signed-distance pair (Drake's SignedDistancePair): n points from B to A."""
    body_a: str
    body_b: str
    phi: float
    normal: np.ndarray
    p_a: np.ndarray
    p_b: np.ndarray
    mu: float


def combined_friction(mu_a, mu_b):
    """Drake's CalcContactFrictionFromSurfaceProperties, static part (qsim's
    GetFrictionCoefficientForSignedDistancePair): the harmonic mean 2μ_aμ_b/(μ_a + μ_b)."""
    return 2.0 * mu_a * mu_b / (mu_a + mu_b)


def rotation_from_quaternion(quat):
    """R_WB of the unit quaternion (w, x, y, z) (Drake's Quaternion::toRotationMatrix)."""
    w, x, y, z = np.asarray(quat, dtype=float) / np.linalg.norm(quat)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def skew(r):
    """[r]×, so that skew(r) @ a = r × a (qsim's MakeSkewSymmetricFromVec)."""
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def make_from_one_unit_vector(n):
    """Drake's RotationMatrix::MakeFromOneUnitVector(n, 2): columns (v, w, n) with a the world
    axis of n's smallest |component| (Eigen's minCoeff: the first of equals), v = a × n / |a × n|
    and w = n × v."""
    a = np.zeros(3)
    a[int(np.argmin(np.abs(n)))] = 1.0
    v = np.cross(a, n)
    v /= np.linalg.norm(v)
    w = np.cross(n, v)
    return np.column_stack([v, w, n])


def tangent_rays(normal, n_d):
    """qsim's CalcTangentVectors (contact_jacobian_calculator.cc): for n_d = 2 the rays ±(x̂ × n)
    (not normalised: "makes sure that dC is in the yz plane"); otherwise R (cos 2πj/n_d,
    sin 2πj/n_d, 0), j = 0 … n_d − 1, with R = MakeFromOneUnitVector(n, 2). The paper's d_ij,
    "a balanced set of n_d tangents". Returns 3 × n_d."""
    n = normal / np.linalg.norm(normal)
    if n_d == 2:
        t = np.cross(np.array([1.0, 0.0, 0.0]), n)
        return np.column_stack([t, -t])
    R = make_from_one_unit_vector(n)
    theta = 2.0 * math.pi / n_d * np.arange(n_d)
    return R @ np.vstack([np.cos(theta), np.sin(theta), np.zeros(n_d)])


class Step:
    """The step of one System: layout of q and v, kinematics, and qsim's programs."""

    def __init__(self, system):
        if system.h <= 0:
            raise ValueError(f"h must be > 0 s (got {system.h})")
        if system.nd_per_contact < 2:
            raise ValueError(f"nd_per_contact must be >= 2 (got {system.nd_per_contact})")
        self.system = system
        # Velocity layout: objects, then robots (the order does not change the program's answer).
        self.models = list(system.objects) + list(system.robots)
        self.v_index, start = {}, 0
        for model in self.models:
            n = 6 if isinstance(model, Ball) and model.floating else len(model.axes)
            self.v_index[model.name] = np.arange(start, start + n)
            start += n
        self.n_v = start

    # --- kinematics -------------------------------------------------------------------------

    def center(self, model, q):
        """The sphere's centre in the world [m]."""
        qm = q[model.name]
        if isinstance(model, Ball) and model.floating:
            return np.asarray(qm[4:7], dtype=float)
        return sum(qi * np.asarray(a, dtype=float) for qi, a in zip(qm, model.axes))

    def point_jacobian(self, model, q, p):
        """Translational velocity Jacobian of the world point p fixed on the model's sphere,
        w.r.t. v (Drake's CalcJacobianTranslationalVelocity, kV, as qsim's
        CalcContactJaocibanFromPoint calls it): prismatic chain [a_1 … a_n]; floating
        [−[p − c]×, I] for v = (ω, v_c)."""
        J = np.zeros((3, self.n_v))
        idx = self.v_index[model.name]
        if isinstance(model, Ball) and model.floating:
            J[:, idx[:3]] = -skew(p - self.center(model, q))
            J[:, idx[3:]] = np.eye(3)
        else:
            J[:, idx] = np.column_stack([np.asarray(a, dtype=float) for a in model.axes])
        return J

    # --- signed distances (Drake's ComputeSignedDistancePairwiseClosestPoints(ε)) ----------

    def contacts(self, q):
        """Every sphere–sphere (of different models) and sphere–ground pair with φ <= ε
        (qsim's CalcCollisionPairs)."""
        system, found = self.system, []
        spheres = list(system.objects) + list(system.robots)
        for i, a in enumerate(spheres):
            for b in spheres[i + 1:]:
                ca, cb = self.center(a, q), self.center(b, q)
                d = ca - cb
                dist = np.linalg.norm(d)
                n = d / dist
                phi = dist - a.radius - b.radius
                found.append(Contact(a.name, b.name, phi, n, ca - a.radius * n,
                                     cb + b.radius * n, combined_friction(a.mu, b.mu)))
        for a in spheres:
            for g in system.grounds:
                found.append(self.sphere_box(a, g, q))
        eps = system.contact_detection_tolerance
        return [c for c in found if c.phi <= eps]

    def sphere_box(self, sphere, box, q):
        """Sphere (A) against an axis-aligned box (B): the box's closest point to the centre;
        a centre inside the box is pushed out through the nearest face."""
        c = self.center(sphere, q)
        lo = np.asarray(box.center, dtype=float) - 0.5 * np.asarray(box.size, dtype=float)
        hi = lo + np.asarray(box.size, dtype=float)
        p = np.clip(c, lo, hi)
        d = c - p
        dist = np.linalg.norm(d)
        if dist > 0:
            n, depth = d / dist, dist
        else:  # inside: the face of least depth
            gaps = np.concatenate([c - lo, hi - c])
            k = int(np.argmin(gaps))
            n = np.zeros(3)
            n[k % 3] = -1.0 if k < 3 else 1.0
            depth = -gaps[k]
            p = c.copy()
            p[k % 3] = lo[k] if k < 3 else hi[k - 3]
        return Contact(sphere.name, box.name, depth - sphere.radius, n, c - sphere.radius * n,
                       p, combined_friction(sphere.mu, box.mu))

    def contact_jacobian(self, contact, q):
        """qsim's UpdateContactPairInfo: Jc = J_A(p_Ca) − J_B(p_Cb), a body's term only when its
        model is a robot or an object (the ground contributes nothing). 3 × n_v."""
        Jc = np.zeros((3, self.n_v))
        by_name = {m.name: m for m in self.models}
        if contact.body_a in by_name:
            Jc += self.point_jacobian(by_name[contact.body_a], q, contact.p_a)
        if contact.body_b in by_name:
            Jc -= self.point_jacobian(by_name[contact.body_b], q, contact.p_b)
        return Jc

    # --- Q and τ_h (qsim's CalcQAndTauH, CalcScaledMassMatrix, CalcTauExt) -----------------

    def mass_matrix(self, model, q):
        """The object's block of Drake's mass matrix: floating blockdiag(R I_B Rᵀ, m I) (the
        sphere's centre is its body origin); ghost links M_ij = (a_i·a_j) Σ_{k >= max(i,j)} m_k
        (joint k carries body k and everything after it)."""
        if model.floating:
            R = rotation_from_quaternion(q[model.name][:4])
            M = np.zeros((6, 6))
            M[:3, :3] = R @ np.diag(model.inertia) @ R.T
            M[3:, 3:] = model.mass * np.eye(3)
            return M
        masses = list(model.ghost_masses) + [model.mass]
        axes = [np.asarray(a, dtype=float) for a in model.axes]
        n = len(axes)
        return np.array([[axes[i] @ axes[j] * sum(masses[max(i, j):]) for j in range(n)]
                         for i in range(n)])

    def gravity_force(self, model):
        """Drake's CalcGravityGeneralizedForces restricted to an object (qsim's
        CalcGravityForUnactuatedModels); robots get none (CalcTauExt sets theirs to 0)."""
        g = np.asarray(self.system.gravity, dtype=float)
        if model.floating:
            return np.concatenate([np.zeros(3), model.mass * g])
        masses = list(model.ghost_masses) + [model.mass]
        return np.array([np.asarray(a, dtype=float) @ g * sum(masses[i:])
                         for i, a in enumerate(model.axes)])

    def q_and_tau_h(self, q, u):
        """qsim's CalcQAndTauH: objects τ_h = h τ_ext (gravity), Q_uu = M_u scaled (only when
        is_quasi_dynamic); robots τ_h = h Kp (u − q), Q_aa = diag(Kp h²). The paper's eq. (10a)
        (its objective is ½ vᵀQv − τ_hᵀv with Q_uu = 0, the quasistatic case)."""
        system, h = self.system, self.system.h
        Q = np.zeros((self.n_v, self.n_v))
        tau_h = np.zeros(self.n_v)
        min_kp = min(min(r.kp) for r in system.robots) if system.robots else math.nan
        for obj in system.objects:
            idx = self.v_index[obj.name]
            tau_h[idx] = self.gravity_force(obj) * h
            if system.is_quasi_dynamic:
                M = self.mass_matrix(obj, q)
                c_u = system.unactuated_mass_scale
                if not (c_u == 0 or math.isnan(c_u)):  # CalcScaledMassMatrix
                    M = M * (min_kp * h * h / M.diagonal().max() / c_u)
                Q[np.ix_(idx, idx)] = M
        for robot in system.robots:
            idx = self.v_index[robot.name]
            kp = np.asarray(robot.kp, dtype=float)
            tau_h[idx] = kp * (np.asarray(u[robot.name], dtype=float) - q[robot.name]) * h
            Q[idx, idx] = kp * h * h
        return Q, tau_h

    # --- the programs ------------------------------------------------------------------------

    def pyramid(self, q):
        """qsim's CalcPyramidMatrices / CalcJacobianAndPhiQp: per contact, n_d rows
        J_j = nᵀJc + μ d_jᵀJc and φ_constraints = φ (each row). The paper's eq. (10b)."""
        n_d = self.system.nd_per_contact
        rows, phis, contacts = [], [], self.contacts(q)
        for c in contacts:
            Jc = self.contact_jacobian(c, q)
            Jn = c.normal @ Jc
            for d in tangent_rays(c.normal, n_d).T:
                rows.append(Jn + c.mu * (d @ Jc))
                phis.append(c.phi)
        J = np.array(rows).reshape(len(rows), self.n_v)
        return contacts, J, np.array(phis)

    def cones(self, q):
        """qsim's CalcJacobianAndPhiSocp: per contact J_i = [nᵀJc/μ; t1ᵀJc; t2ᵀJc] with
        (t1, t2) the first columns of MakeFromOneUnitVector(n, 2), and ForwardSocp's
        e_i = (φ/(μh), 0, 0): J_i v + e_i in the Lorentz cone."""
        h, blocks, contacts = self.system.h, [], self.contacts(q)
        for c in contacts:
            Jc = self.contact_jacobian(c, q)
            R = make_from_one_unit_vector(c.normal)
            J = np.vstack([c.normal @ Jc / c.mu, R[:, 0] @ Jc, R[:, 1] @ Jc])
            blocks.append((J, np.array([c.phi / c.mu / h, 0.0, 0.0])))
        return contacts, blocks

    def forward(self, q, u, formulation="qp"):
        """One step (qsim's Step with kQpMp or kSocpMp): returns (q_next, report) where report
        has the contacts, v*, and the answer's KKT residuals (stationarity relative to |τ_h|)."""
        Q, tau_h = self.q_and_tau_h(q, u)
        if formulation == "qp":
            contacts, J, phi = self.pyramid(q)
            v, report = solve_qp(Q, tau_h, J, phi / self.system.h)  # ForwardQp: e = φ/h
        elif formulation == "socp":
            contacts, blocks = self.cones(q)
            v, report = solve_socp(Q, tau_h, blocks)
        else:
            raise ValueError(f"formulation must be 'qp' or 'socp' (got {formulation!r})")
        report["contacts"] = contacts
        report["v"] = v
        return self.update_q(q, v), report

    def update_q(self, q, v):
        """qsim's UpdateQdictFromV: q + h v; a floating object's quaternion Q + h E(Q) ω with
        E = CalcNW2Qdot(Q) = ½ [−u; w I − [u]×] (Q = (w, u)), then normalised."""
        h, out = self.system.h, {}
        for model in self.models:
            qm = np.asarray(q[model.name], dtype=float)
            vm = v[self.v_index[model.name]]
            if isinstance(model, Ball) and model.floating:
                E = np.zeros((4, 3))
                E[0] = -qm[1:4]
                E[1:] = -skew(qm[1:4]) + qm[0] * np.eye(3)
                E *= 0.5
                quat = qm[:4] + h * (E @ vm[:3])
                out[model.name] = np.concatenate([quat / np.linalg.norm(quat),
                                                  qm[4:] + h * vm[3:]])
            else:
                out[model.name] = qm + h * vm
        return out


# --- solvers ---------------------------------------------------------------------------------

TOLERANCE = 1e-12  # cvxopt's abstol/reltol/feastol; the QP's answer is then polished


def _cvxopt():
    import cvxopt
    from cvxopt import solvers
    solvers.options.update({"show_progress": False, "abstol": TOLERANCE, "reltol": TOLERANCE,
                            "feastol": TOLERANCE, "maxiters": 200})
    return cvxopt, solvers


def solve_qp(Q, tau_h, J, e):
    """qsim's ForwardQp: min ½ vᵀQv − τ_hᵀv s.t. −J v <= e (the paper's eq. 10), by cvxopt's
    interior point, then polished: the rows active at its answer held as equalities and the
    KKT system solved directly (least squares when they are dependent); the polished answer is
    kept when it is primal and dual feasible to 1e-12 relative."""
    cvxopt, solvers = _cvxopt()
    m = J.shape[0]
    P = cvxopt.matrix(Q)
    p = cvxopt.matrix(-tau_h)
    if m:
        sol = solvers.qp(P, p, cvxopt.matrix(-J), cvxopt.matrix(e))
        z = np.array(sol["z"]).ravel()
    else:
        sol = solvers.qp(P, p)
        z = np.zeros(0)
    v = np.array(sol["x"]).ravel()
    status = sol["status"]
    v, z, polished = _polish(Q, tau_h, J, e, v, z)
    report = _qp_residuals(Q, tau_h, J, e, v, z)
    report.update(status=status, polished=polished)
    return v, report


def _qp_residuals(Q, tau_h, J, e, v, z):
    scale = max(np.linalg.norm(tau_h), np.finfo(float).tiny)
    slack = J @ v + e if len(e) else np.zeros(0)
    return {
        "stationarity": np.linalg.norm(Q @ v - tau_h - J.T @ z) / scale,
        "infeasibility": float(max(0.0, -slack.min())) if len(e) else 0.0,
        "complementarity": float(np.abs(slack * z).max()) if len(e) else 0.0,
        "multipliers": z,
    }


def _polish(Q, tau_h, J, e, v, z):
    if not len(e):
        return np.linalg.solve(Q, tau_h), z, True
    slack = J @ v + e
    active = z > slack
    A = J[active]
    n, k = Q.shape[0], A.shape[0]
    K = np.block([[Q, -A.T], [A, np.zeros((k, k))]])
    rhs = np.concatenate([tau_h, -e[active]])
    x = np.linalg.lstsq(K, rhs, rcond=None)[0]
    v2, z2 = x[:n], np.zeros(len(e))
    z2[active] = x[n:]
    if k and z2.min() < 0:
        # Dependent active rows (a sticking contact's n_d >= 4 rays span 3 directions): v is
        # unique, the multipliers are not; take non-negative ones by NNLS on J_Aᵀ z = Qv − τ_h.
        from scipy.optimize import nnls
        z2[active] = nnls(A.T, Q @ v2 - tau_h)[0]
    scale = max(np.linalg.norm(tau_h), np.finfo(float).tiny)
    tol = 1e-12 * max(1.0, np.abs(e).max(), np.abs(J).max() * np.abs(v2).max())
    ok = ((J @ v2 + e).min() >= -tol and z2.min() >= 0
          and np.linalg.norm(Q @ v2 - tau_h - J.T @ z2) <= 1e-12 * scale)
    if ok:
        return v2, z2, True
    return v, z, False


def solve_socp(Q, tau_h, blocks):
    """qsim's ForwardSocp: min ½ vᵀQv − τ_hᵀv s.t. J_i v + e_i in the Lorentz cone
    {(s0, s1, s2): s0 >= |(s1, s2)|}, by cvxopt's coneqp (G = −J_i, h = e_i), then polished by
    Newton's method on the KKT system from cvxopt's answer (_polish_socp)."""
    cvxopt, solvers = _cvxopt()
    P, p = cvxopt.matrix(Q), cvxopt.matrix(-tau_h)
    if not blocks:
        v = np.linalg.solve(Q, tau_h)
        return v, {"status": "optimal", "polished": True, "stationarity": 0.0,
                   "multipliers": np.zeros(0)}
    J = np.vstack([J for J, _ in blocks])
    e = np.concatenate([e for _, e in blocks])
    sol = solvers.coneqp(P, p, cvxopt.matrix(-J), cvxopt.matrix(e),
                         dims={"l": 0, "q": [3] * len(blocks), "s": []})
    v, z = np.array(sol["x"]).ravel(), np.array(sol["z"]).ravel()
    v, z, polished = _polish_socp(Q, tau_h, J, e, v, z)
    scale = max(np.linalg.norm(tau_h), np.finfo(float).tiny)
    report = {"status": sol["status"], "polished": polished,
              "stationarity": np.linalg.norm(Q @ v - tau_h - J.T @ z) / scale,
              "multipliers": z}
    return v, report


def _arrow(x):
    """Arw(x) of a 3-vector of the second-order cone: x ∘ y = Arw(x) y (Jordan product)."""
    A = x[0] * np.eye(3)
    A[0, 1:] = x[1:]
    A[1:, 0] = x[1:]
    return A


def _socp_residual(Q, tau_h, J, e, v, z, s):
    jordan = np.concatenate([[s[i:i + 3] @ z[i:i + 3], *(s[i] * z[i + 1:i + 3] +
                                                         z[i] * s[i + 1:i + 3])]
                             for i in range(0, len(s), 3)])
    return np.concatenate([Q @ v - tau_h - J.T @ z, J @ v + e - s, jordan])


def _in_cones(x, tol):
    return all(x[i] >= np.linalg.norm(x[i + 1:i + 3]) - tol for i in range(0, len(x), 3))


def _polish_socp(Q, tau_h, J, e, v, z, iterations=8):
    """Newton steps on F(v, z, s) = (Qv − τ_h − Jᵀz, Jv + e − s, s ∘ z) = 0 (stationarity,
    the constraint, complementarity in the Jordan algebra of the cones); kept when the residual
    fell and s, z stay in their cones to 1e-12 relative."""
    n, m = len(v), len(z)
    s = J @ v + e
    best = (np.linalg.norm(_socp_residual(Q, tau_h, J, e, v, z, s)), v, z)
    start = best[0]
    for _ in range(iterations):
        F = _socp_residual(Q, tau_h, J, e, v, z, s)
        K = np.zeros((n + 2 * m, n + 2 * m))
        K[:n, :n], K[:n, n:n + m] = Q, -J.T
        K[n:n + m, :n], K[n:n + m, n + m:] = J, -np.eye(m)
        for i in range(0, m, 3):
            K[n + m + i:n + m + i + 3, n + i:n + i + 3] = _arrow(s[i:i + 3])
            K[n + m + i:n + m + i + 3, n + m + i:n + m + i + 3] = _arrow(z[i:i + 3])
        step = np.linalg.lstsq(K, -F, rcond=None)[0]
        v, z, s = v + step[:n], z + step[n:n + m], s + step[n + m:]
        r = np.linalg.norm(_socp_residual(Q, tau_h, J, e, v, z, s))
        tol = 1e-12 * max(1.0, np.abs(z).max(), np.abs(s).max())
        if r < best[0] and _in_cones(z, tol) and _in_cones(J @ v + e, tol):
            best = (r, v.copy(), z.copy())
    return best[1], best[2], best[0] < start


def simulate(system, q0, commands, formulation="qp"):
    """Steps `system` from q0 (dict: model name → q in Drake's order) through `commands` (a list
    of dicts robot name → commanded q); returns the list of q after each step and the reports."""
    step = Step(system)
    q, path, reports = {k: np.asarray(v, dtype=float) for k, v in q0.items()}, [], []
    for u in commands:
        q, report = step.forward(q, u, formulation)
        path.append(q)
        reports.append(report)
    return path, reports
