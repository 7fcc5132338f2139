"""Closed forms of one quasi-dynamic step of the 1D toy (examples/toy_1d/scene.yaml), exact and
smoothed, with their derivatives; the derivation is in examples/toy_1d/README.md.

The program we solve (docs/formulations.md, quasi_dynamic_cost.h; Pang & Tedrake 2021, eq. (10),
with the objects' block s·M_u of Pang, Suh, Yang & Tedrake, T-RO 2023, eq. (23b)), for
v = (v_u, v_a) [m/s], q⁺ = q + h v:

    minimise ½ s m v_u² + ½ h² K v_a² − h K (u − q_a) v_a
    subject to φ/h + v_u − v_a >= 0          (eq. (10b), frictionless: both pyramid rows alike)

when the gap φ = q_u − q_a [m] is within the contact tolerance ε (the set 𝒜(q, ε) of
Pang & Tedrake 2021, eq. (1d)); without the contact the robot goes to u and the object stays.
The log barrier (T-RO 2023, eq. (34); formulations/log_barrier/) replaces the constraint by
−(n/κ) log(φ/h + v_u − v_a): n = 2 identical pyramid rows of a frictionless planar contact
(BuildPyramidConstraints), or the cone barrier's log t² of a frictionless contact, also 2.

Symbols (SI): h [s] time step, K [N/m] robot stiffness, m [kg] object mass, s [-] object mass
scale, κ [1/(N·m)] barrier weight, σ [m] standard deviation of the command's Gaussian
perturbation, c = u − (q_a + φ) = u − q_u [m] the command's overlap past the contact,
α = h²K / (h²K + s m) [-] the object's share of the overlap, m_eff = s m h²K / (s m + h²K) [kg].

Pure numpy and math; no quasidyn import, so that tests compare the library against it.
"""

import math
from dataclasses import dataclass

import numpy as np

# The scene's geometry: the disk's centre at X_SLIDE + q_u, the tip's at q_a, radii R_OBJECT and
# R_ROBOT [m], so φ = q_u − q_a + GAP_OFFSET with GAP_OFFSET = X_SLIDE − R_OBJECT − R_ROBOT.
X_SLIDE = 0.15
R_OBJECT = 0.1
R_ROBOT = 0.05
GAP_OFFSET = X_SLIDE - R_OBJECT - R_ROBOT
BARRIER_ROWS = 2  # n: the frictionless planar contact's pyramid rows (or the cone's log t²)


@dataclass(frozen=True)
class Toy:
    """The step's parameters: h [s] > 0, K [N/m] > 0, m [kg] > 0, s [-] > 0, ε [m] >= 0."""

    h: float = 0.1
    K: float = 100.0
    m: float = 1.0
    s: float = 1.0
    epsilon: float = 0.1

    @property
    def alpha(self):
        """α = h²K / (h²K + s m) [-]: dq_u⁺/du in contact."""
        return self.h**2 * self.K / (self.h**2 * self.K + self.s * self.m)

    @property
    def m_eff(self):
        """m_eff = (1/(s m) + 1/(h²K))⁻¹ [kg], the series mass of the contact row."""
        return 1.0 / (1.0 / (self.s * self.m) + 1.0 / (self.h**2 * self.K))

    def barrier_width(self, kappa):
        """δ = 2 h sqrt(n / (κ m_eff)) [m]: the barrier's hyperbola q_u⁺ = q_u + (α/2)(c +
        sqrt(c² + δ²)) has the asymptotes of the exact step and is δ·α/2 above the kink."""
        return 2.0 * self.h * math.sqrt(BARRIER_ROWS / (kappa * self.m_eff))


def gap(q):
    """φ(q) [m] of the robot–object pair, q = (q_u, q_a)."""
    return q[0] - q[1] + GAP_OFFSET


def overlap(q, u):
    """c = u − (q_a + φ) [m]: how far the command reaches past the contact."""
    return np.asarray(u, dtype=float) - (q[1] + gap(q))


def exact(toy, q, u):
    """The QP's (and SOCP's) step: (q_u⁺, q_a⁺, dq_u⁺/du, dq_a⁺/du) for commands u [m].
    The slope at c = 0 is the one-sided value of c > 0 (either is a derivative there)."""
    c = overlap(q, u)
    if gap(q) > toy.epsilon:  # the pair is not in 𝒜(q, ε): no constraint in the program
        c = np.full_like(c, -np.inf)
    push = np.where(c > 0, c, 0.0)
    a = toy.alpha
    inside = (c > 0).astype(float)
    u = np.asarray(u, dtype=float)
    return (q[0] + a * push, u - (1 - a) * push, a * inside, 1 - (1 - a) * inside)


def exact_a(toy, q, u):
    """A = ∂q⁺/∂q (2×2, rows q_u⁺, q_a⁺; columns q_u, q_a) of the exact step at one command."""
    a = toy.alpha
    if gap(q) <= toy.epsilon and overlap(q, u) > 0:  # c = u − q_u − GAP_OFFSET: no q_a in it
        return np.array([[1 - a, 0.0], [1 - a, 0.0]])
    return np.array([[1.0, 0.0], [0.0, 0.0]])


def barrier(toy, q, u, kappa):
    """The log-barrier step of weight κ [1/(N·m)]: (q_u⁺, q_a⁺, dq_u⁺/du, dq_a⁺/du).
    Stationarity s m v_u = λ, h²K v_a − hK(u − q_a) = −λ with λ g = n/κ, g = φ/h + v_u − v_a,
    gives λ²/m_eff − λ c/h − n/κ = 0, so with r = sqrt(c² + δ²):
        q_u⁺ = q_u + (α/2)(c + r),   q_a⁺ = u − ((1 − α)/2)(c + r),
        dq_u⁺/du = (α/2)(1 + c/r),   dq_a⁺/du = 1 − ((1 − α)/2)(1 + c/r)."""
    c = overlap(q, u)
    r = np.sqrt(c**2 + toy.barrier_width(kappa) ** 2)
    a = toy.alpha
    u = np.asarray(u, dtype=float)
    return (q[0] + 0.5 * a * (c + r), u - 0.5 * (1 - a) * (c + r),
            0.5 * a * (1 + c / r), 1 - 0.5 * (1 - a) * (1 + c / r))


def _normal_cdf(x):
    return 0.5 * (1.0 + np.vectorize(math.erf)(np.asarray(x, dtype=float) / math.sqrt(2.0)))


def _normal_pdf(x):
    x = np.asarray(x, dtype=float)
    return np.exp(-0.5 * x**2) / math.sqrt(2.0 * math.pi)


def gaussian(toy, q, u, sigma):
    """The exact step averaged over u + σξ, ξ ~ N(0, 1) (randomized smoothing, T-RO 2023; Suh,
    Pang & Tedrake, RA-L 2022): (q_u⁺, q_a⁺, dq_u⁺/du, dq_a⁺/du). For the piecewise-linear
    step, E[max(c + σξ, 0)] = c Φ(c/σ) + σ ϕ(c/σ) and its slope is Φ(c/σ), so the smoothed
    slope is the Φ-weighted average of the two slopes: dq_u⁺/du = α Φ(c/σ)."""
    c = overlap(q, u)
    z = c / sigma
    push = c * _normal_cdf(z) + sigma * _normal_pdf(z)
    share = _normal_cdf(z)
    a = toy.alpha
    u = np.asarray(u, dtype=float)
    return (q[0] + a * push, u - (1 - a) * push, a * share, 1 - (1 - a) * share)
