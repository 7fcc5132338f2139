#pragma once
// Seeded random contact-like SOCPs shared by the solver tests (header-only, tests only): a
// chain of rigid bodies (6 velocities each) with a block-diagonal positive definite cost and
// friction cones u_i = A_i v + b_i ∈ K whose three rows (normal, μ·tangent1, μ·tangent2) touch
// only the columns of one body (ground contact) or of two neighbours, the sparsity of the
// contact Jacobians of quasi_dynamic_socp.h. v = 0 is strictly feasible (b_i = (φ_i/h, 0, 0),
// φ_i/h in [1e-3, 1e-1] m/s), so every problem is solvable.

#include <Eigen/Core>
#include <vector>

#include "quasidyn/solvers/random_problems_for_tests.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn::testing {

inline SocpProblem ContactChainSocp(unsigned seed, int bodies, int contacts_per_body) {
  RandomProblems random(seed);
  const int n = 6 * bodies;
  SocpProblem p;
  p.Q = Eigen::MatrixXd::Zero(n, n);
  for (int b = 0; b < bodies; ++b) {
    p.Q.block(6 * b, 6 * b, 6, 6) = random.PsdMatrix(6, 6);
    p.Q.block(6 * b, 6 * b, 6, 6).diagonal().array() += 0.1;  // M_u-like, positive definite
  }
  p.c = random.GaussianVector(n);
  p.G.resize(0, n);
  p.h.resize(0);
  const double mu = 0.5;
  for (int b = 0; b < bodies; ++b) {
    for (int k = 0; k < contacts_per_body; ++k) {
      SecondOrderConeConstraint cone{Eigen::MatrixXd::Zero(3, n), Eigen::VectorXd::Zero(3)};
      cone.A.block(0, 6 * b, 3, 6) = random.Gaussian(3, 6);
      if (b > 0 && k % 2 == 1) cone.A.block(0, 6 * (b - 1), 3, 6) = -random.Gaussian(3, 6);
      cone.A.bottomRows(2) *= mu;
      cone.b[0] = random.Uniform(1e-3, 1e-1);
      p.cones.push_back(cone);
    }
  }
  return p;
}

}  // namespace quasidyn::testing
