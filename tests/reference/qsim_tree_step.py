"""qsim's step on kinematic trees read from its own files (qsim_files.read_system): forward
kinematics, geometric Jacobians, Drake's signed distances for sphere–sphere, sphere–box and
(a single-witness model of) box–box, and the programs of qsim_step_transcription (the same
Q, τ_h, pyramid, cones and solvers). numpy (and the solvers' cvxopt) only; nothing of quasidyn.

Conventions: q is a dict model name → the model's q in Drake's order (qsim_files); v in the
world frame (floating bodies (ω, v) of the body origin); SI units.
"""

import math

import numpy as np

import qsim_files as files
import qsim_step_transcription as ref

# Box–box: the single witness model (docs/qsim-files.md). Features within this many metres of
# the extreme along the normal count as the supporting feature.
FEATURE_TOLERANCE = 1e-9


class TreeStep:
    """The step of one TreeSystem; forward(q, u, formulation) as qsim_step_transcription.Step."""

    def __init__(self, system, include_box_box=True):
        """include_box_box: False leaves box–box pairs out (to measure what they change)."""
        if not system.h > 0:
            raise ValueError(f"h must be > 0 s (got {system.h})")
        if system.nd_per_contact < 2:
            raise ValueError(f"nd_per_contact must be >= 2 (got {system.nd_per_contact})")
        self.system = system
        self.include_box_box = include_box_box
        self.bodies = system.bodies
        moving = [m for m in system.models.values() if m.kind != "static"]
        self.models = sorted(moving, key=lambda m: m.kind != "object")  # objects, then robots
        self.v_index, start = {}, 0
        for model in self.models:
            self.v_index[model.name] = np.arange(start, start + model.nv)
            start += model.nv
        self.n_v = start
        # Each body's first velocity column (its joint's), -1 without one.
        self.v_column = []
        for body in self.bodies:
            if body.joint in ("revolute", "prismatic", "floating"):
                model = system.models[body.model]
                names = model.joint_names
                key = body.joint_name if body.joint != "floating" else \
                    f"{body.name.split('::', 1)[1]}/floating"
                k = names.index(key)
                offset = sum(6 if n.endswith("/floating") else 1 for n in names[:k])
                self.v_column.append(int(self.v_index[model.name][offset]))
            else:
                self.v_column.append(-1)
        self.weld_root = []
        for i, body in enumerate(self.bodies):
            if body.joint == "world":
                self.weld_root.append(-1)
            elif body.joint == "fixed":
                self.weld_root.append(self.weld_root[body.parent] if body.parent >= 0 else -1)
            else:
                self.weld_root.append(i)

    # --- kinematics ----------------------------------------------------------------------------

    def poses(self, q):
        """X_WB = (R, p) of every body at q."""
        out = []
        for body in self.bodies:
            qm = np.asarray(q.get(body.model, ()), dtype=float)
            if body.joint == "floating":
                k = body.q_index
                out.append((ref.rotation_from_quaternion(qm[k:k + 4]), qm[k + 4:k + 7].copy()))
                continue
            X = (body.R0, body.p0)
            if body.joint == "revolute":
                R = files.axis_angle_matrix(body.axis, qm[body.q_index])
                X = files.compose(X, (R, body.origin - R @ body.origin))
            elif body.joint == "prismatic":
                X = files.compose(X, (np.eye(3), body.axis * qm[body.q_index]))
            parent = files.IDENTITY if body.parent < 0 else out[body.parent]
            out.append(files.compose(parent, X))
        return out

    def jacobians(self, poses, index, p):
        """(J_ω, J_v): the angular velocity of body `index` and the translational velocity of
        the world point p fixed on it, w.r.t. v (Drake's CalcJacobianAngularVelocity and
        CalcJacobianTranslationalVelocity, kV). 3 × n_v each."""
        Jw, Jv = np.zeros((3, self.n_v)), np.zeros((3, self.n_v))
        while index >= 0:
            body, (R, o) = self.bodies[index], poses[index]
            col = self.v_column[index]
            if body.joint == "revolute":
                a = R @ body.axis
                Jw[:, col] = a
                Jv[:, col] = np.cross(a, p - (R @ body.origin + o))
            elif body.joint == "prismatic":
                Jv[:, col] = R @ body.axis
            elif body.joint == "floating":
                Jw[:, col:col + 3] = np.eye(3)
                Jv[:, col:col + 3] = -ref.skew(p - o)
                Jv[:, col + 3:col + 6] = np.eye(3)
                break
            index = body.parent
        return Jw, Jv

    # --- signed distances (Drake's ComputeSignedDistancePairwiseClosestPoints(ε)) ----------

    def filtered(self, i, j):
        """Drake's collision filters: bodies welded together (to the world, or by fixed
        joints) and a body and its parent joined by a (non-floating) joint."""
        a, b = self.bodies[i], self.bodies[j]
        return (self.weld_root[i] == self.weld_root[j] or a.parent == j or b.parent == i)

    def contacts(self, q, poses=None):
        """Every unfiltered shape pair of two bodies with φ <= ε (qsim's CalcCollisionPairs),
        box–box pairs by the single-witness model (box_box) unless include_box_box is False."""
        poses = poses if poses is not None else self.poses(q)
        shapes = []
        for i, body in enumerate(self.bodies):
            R, p = poses[i]
            for shape in body.shapes:
                shapes.append((i, shape, R @ shape.R, R @ shape.p + p))
        found = []
        for k, (i, sa, Ra, pa) in enumerate(shapes):
            for j, sb, Rb, pb in shapes[k + 1:]:
                if i == j or self.filtered(i, j):
                    continue
                if not self.include_box_box and sa.kind == sb.kind == "box":
                    continue
                pair = signed_distance((sa, Ra, pa), (sb, Rb, pb))
                phi, n, p_a, p_b, swapped = pair
                if phi > self.system.contact_detection_tolerance:
                    continue
                ia, ib = (j, i) if swapped else (i, j)
                found.append(ref.Contact(ia, ib, phi, n, p_a, p_b,
                                         ref.combined_friction(sa.mu, sb.mu)))
        return found

    def contact_jacobian(self, contact, poses):
        """qsim's UpdateContactPairInfo: Jc = J_A(p_A) − J_B(p_B). 3 × n_v."""
        return (self.jacobians(poses, contact.body_a, contact.p_a)[1]
                - self.jacobians(poses, contact.body_b, contact.p_b)[1])

    # --- Q and τ_h ------------------------------------------------------------------------------

    def object_mass_and_gravity(self, model, poses):
        """The model's block of Drake's mass matrix, Σ_b J_ωᵀ I_b J_ω + m_b J_vᵀ J_v (at the
        centre of mass), and its gravity forces Σ_b m_b J_vᵀ g."""
        idx = self.v_index[model.name]
        M, tau = np.zeros((len(idx), len(idx))), np.zeros(len(idx))
        for i, body in enumerate(self.bodies):
            if body.model != model.name:
                continue
            R, p = poses[i]
            Jw, Jv = self.jacobians(poses, i, R @ body.com + p)
            Jw, Jv = Jw[:, idx], Jv[:, idx]
            M += Jw.T @ (R @ body.inertia @ R.T) @ Jw + body.mass * Jv.T @ Jv
            tau += body.mass * Jv.T @ self.system.gravity
        return M, tau

    def q_and_tau_h(self, q, u, poses):
        """qsim's CalcQAndTauH (see qsim_step_transcription.Step.q_and_tau_h)."""
        system, h = self.system, self.system.h
        Q, tau_h = np.zeros((self.n_v, self.n_v)), np.zeros(self.n_v)
        robots = [m for m in self.models if m.kind == "robot"]
        min_kp = min(min(r.kp) for r in robots) if robots else math.nan
        for model in self.models:
            idx = self.v_index[model.name]
            if model.kind == "robot":
                kp = np.asarray(model.kp, dtype=float)
                tau_h[idx] = kp * (np.asarray(u[model.name], dtype=float) - q[model.name]) * h
                Q[idx, idx] = kp * h * h
                continue
            M, tau = self.object_mass_and_gravity(model, poses)
            tau_h[idx] = tau * h
            if system.is_quasi_dynamic:
                c_u = system.unactuated_mass_scale
                if not (c_u == 0 or math.isnan(c_u)):  # CalcScaledMassMatrix, per model
                    M = M * (min_kp * h * h / M.diagonal().max() / c_u)
                Q[np.ix_(idx, idx)] = M
        return Q, tau_h

    # --- the programs ---------------------------------------------------------------------------

    def forward(self, q, u, formulation="qp"):
        """One step (qsim's Step, kQpMp or kSocpMp): (q_next, report) as Step.forward."""
        poses = self.poses(q)
        Q, tau_h = self.q_and_tau_h(q, u, poses)
        contacts = self.contacts(q, poses)
        n_d, h = self.system.nd_per_contact, self.system.h
        if formulation == "qp":
            rows, phis = [], []
            for c in contacts:
                Jc = self.contact_jacobian(c, poses)
                for d in ref.tangent_rays(c.normal, n_d).T:
                    rows.append(c.normal @ Jc + c.mu * (d @ Jc))
                    phis.append(c.phi)
            J = np.array(rows).reshape(len(rows), self.n_v)
            v, report = ref.solve_qp(Q, tau_h, J, np.array(phis) / h)
        elif formulation == "socp":
            blocks = []
            for c in contacts:
                Jc = self.contact_jacobian(c, poses)
                R = ref.make_from_one_unit_vector(c.normal)
                blocks.append((np.vstack([c.normal @ Jc / c.mu, R[:, 0] @ Jc, R[:, 1] @ Jc]),
                               np.array([c.phi / c.mu / h, 0.0, 0.0])))
            v, report = ref.solve_socp(Q, tau_h, blocks)
        else:
            raise ValueError(f"formulation must be 'qp' or 'socp' (got {formulation!r})")
        report["contacts"] = contacts
        report["v"] = v
        return self.update_q(q, v), report

    def update_q(self, q, v):
        """qsim's UpdateQdictFromV: q + h v, a floating body's quaternion by the first-order
        update then normalised (qsim_step_transcription.Step.update_q)."""
        h, out = self.system.h, {}
        for model in self.models:
            qm = np.asarray(q[model.name], dtype=float).copy()
            vm = v[self.v_index[model.name]]
            qi = vi = 0
            for name in model.joint_names:
                if name.endswith("/floating"):
                    quat, w = qm[qi:qi + 4], vm[vi:vi + 3]
                    E = 0.5 * np.vstack([-quat[1:], quat[0] * np.eye(3) - ref.skew(quat[1:])])
                    quat = quat + h * (E @ w)
                    qm[qi:qi + 4] = quat / np.linalg.norm(quat)
                    qm[qi + 4:qi + 7] += h * vm[vi + 3:vi + 6]
                    qi, vi = qi + 7, vi + 6
                else:
                    qm[qi] += h * vm[vi]
                    qi, vi = qi + 1, vi + 1
            out[model.name] = qm
        return out


def simulate(system, q0, commands, formulation="qp", include_box_box=True):
    """As qsim_step_transcription.simulate, on a TreeSystem."""
    step = TreeStep(system, include_box_box)
    q, path, reports = {k: np.asarray(v, dtype=float) for k, v in q0.items()}, [], []
    for u in commands:
        q, report = step.forward(q, u, formulation)
        path.append(q)
        reports.append(report)
    return path, reports


# --- signed distances ----------------------------------------------------------------------------


def signed_distance(a, b):
    """(φ, n, p_A, p_B, swapped) of two posed shapes (shape, R_WG, p_WG): n (unit) from B to A,
    p_A − p_B = φ n for spheres and boxes; swapped when the pair is returned as (b, a)."""
    (sa, _, _), (sb, _, _) = a, b
    if sa.kind == "sphere" and sb.kind == "sphere":
        return (*sphere_sphere(a, b), False)
    if sa.kind == "sphere":
        return (*sphere_box(a, b), False)
    if sb.kind == "sphere":
        return (*sphere_box(b, a), True)
    return (*box_box(a, b), False)


def sphere_sphere(a, b):
    (sa, _, ca), (sb, _, cb) = a, b
    d = ca - cb
    dist = np.linalg.norm(d)
    n = d / dist
    return (dist - sa.size[0] - sb.size[0], n, ca - sa.size[0] * n, cb + sb.size[0] * n)


def sphere_box(sphere, box):
    """Sphere (A) against a posed box (B), in the box's frame: the box's closest point to the
    centre; a centre inside is pushed out through the face of least depth (the first of equals
    in the order −x, −y, −z, +x, +y, +z)."""
    (ss, _, c_W), (sb, R, p) = sphere, box
    c = R.T @ (c_W - p)
    hi = 0.5 * np.asarray(sb.size, dtype=float)
    lo = -hi
    q = np.clip(c, lo, hi)
    d = c - q
    dist = np.linalg.norm(d)
    if dist > 0:
        n, depth = d / dist, dist
    else:
        gaps = np.concatenate([c - lo, hi - c])
        k = int(np.argmin(gaps))
        n = np.zeros(3)
        n[k % 3] = -1.0 if k < 3 else 1.0
        depth = -gaps[k]
        q = c.copy()
        q[k % 3] = lo[k] if k < 3 else hi[k - 3]
    r = ss.size[0]
    n_W = R @ n
    return depth - r, n_W, c_W - r * n_W, R @ q + p


def _box_vertices(R, p, size):
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return (signs * (0.5 * np.asarray(size, dtype=float))) @ R.T + p


def box_box(a, b):
    """The single-witness model of two boxes (docs/qsim-files.md): φ the largest separation
    over the 15 axes of the separating axis test (exact while they overlap, and for
    face-to-face gaps), n that axis oriented from B to A; the witness on the smaller box (by
    volume): the centroid of its vertices deepest along the normal (a face's centre for a face,
    an edge's midpoint, or a vertex), the other point φ along the normal from it."""
    (sa, Ra, pa), (sb, Rb, pb) = a, b
    ha, hb = 0.5 * np.asarray(sa.size, dtype=float), 0.5 * np.asarray(sb.size, dtype=float)
    axes = [Ra[:, i] for i in range(3)] + [Rb[:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(Ra[:, i], Rb[:, j])
            if np.linalg.norm(c) > 1e-9:
                axes.append(c / np.linalg.norm(c))
    best = None
    for L in axes:
        sep = abs(L @ (pa - pb)) - (ha @ np.abs(Ra.T @ L) + hb @ np.abs(Rb.T @ L))
        if best is None or sep > best[0] + 1e-15:
            best = (sep, L if L @ (pa - pb) >= 0 else -L)
    phi, n = best
    if np.prod(sa.size) <= np.prod(sb.size):  # the witness on A, deepest along −n
        verts = _box_vertices(Ra, pa, sa.size)
        depth = verts @ (-n)
        p_a = verts[depth >= depth.max() - FEATURE_TOLERANCE].mean(axis=0)
        return phi, n, p_a, p_a - phi * n
    verts = _box_vertices(Rb, pb, sb.size)
    depth = verts @ n
    p_b = verts[depth >= depth.max() - FEATURE_TOLERANCE].mean(axis=0)
    return phi, n, p_b + phi * n, p_b
