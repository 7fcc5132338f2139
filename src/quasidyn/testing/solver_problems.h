#pragma once
// Problems for the solver tests, written densely (easy to state and to check against by
// hand) and converted to the solvers' sparse problem data: seeded random generators, the
// dense QP / cone-program forms, and contact-like SOCPs with the sparsity of contact
// Jacobians. Header-only, tests and reference tools only.

#include <Eigen/Core>
#include <random>
#include <vector>

#include "quasidyn/solvers/log_barrier_newton.h"
#include "quasidyn/solvers/miqp.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"
#include "quasidyn/solvers/sparse_row_matrix.h"

namespace quasidyn::testing {

class RandomProblems {
 public:
  explicit RandomProblems(unsigned seed) : engine_(seed) {}

  double Uniform(double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(engine_);
  }
  Eigen::MatrixXd Gaussian(Eigen::Index rows, Eigen::Index cols) {
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::MatrixXd a(rows, cols);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = normal(engine_);
    return a;
  }
  Eigen::VectorXd GaussianVector(Eigen::Index size) { return Gaussian(size, 1); }
  Eigen::VectorXd UniformVector(Eigen::Index size, double low, double high) {
    Eigen::VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) v[i] = Uniform(low, high);
    return v;
  }
  // B Bᵀ with B (n × rank): PSD, singular when rank < n.
  Eigen::MatrixXd PsdMatrix(Eigen::Index n, Eigen::Index rank) {
    const Eigen::MatrixXd b = Gaussian(n, rank);
    return b * b.transpose();
  }
  std::mt19937& engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

// min ½xᵀQx + cᵀx s.t. G x >= h, dense.
struct DenseQp {
  Eigen::MatrixXd Q;
  Eigen::VectorXd c;
  Eigen::MatrixXd G;
  Eigen::VectorXd h;

  QpProblem ToSparse() const {
    return QpProblem{SparseRowMatrix::FromDense(Q), c, SparseRowMatrix::FromDense(G), h, {}, {}};
  }
};

// A contact-like QP: G x >= h (m > n rows, so a degenerate active set is likely) with a
// strictly feasible point, Q = B Bᵀ + I positive definite.
inline DenseQp ContactLikeQp(RandomProblems& random, int n, int m) {
  DenseQp p;
  const Eigen::MatrixXd B = random.Gaussian(n, n);
  p.Q = B * B.transpose() + Eigen::MatrixXd::Identity(n, n);
  p.c = random.GaussianVector(n);
  p.G = random.Gaussian(m, n);
  p.h = p.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.0, 0.5);
  return p;
}

// A_k x + b_k ∈ K_k (row 0 gives t, rows 1.. give z), dense.
struct DenseCone {
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
};

// min ½xᵀQx + cᵀx s.t. A_k x + b_k ∈ K_k and G x >= h, dense. Also the data of a log-barrier
// problem (the same constraints as barriers G x − h > 0 and A_k x + b_k ∈ int K_k).
struct DenseConeProgram {
  Eigen::MatrixXd Q;
  Eigen::VectorXd c;
  std::vector<DenseCone> cones;
  Eigen::MatrixXd G;  // (p × n), p may be 0
  Eigen::VectorXd h;

  int n() const { return static_cast<int>(Q.rows()); }
  // The cone rows stacked cone after cone, as the solvers take them.
  SparseRowMatrix StackedA() const {
    SparseRowMatrix a(n());
    for (const DenseCone& cone : cones) a.AppendRows(SparseRowMatrix::FromDense(cone.A));
    return a;
  }
  Eigen::VectorXd StackedB() const {
    Eigen::Index rows = 0;
    for (const DenseCone& cone : cones) rows += cone.b.size();
    Eigen::VectorXd b(rows);
    rows = 0;
    for (const DenseCone& cone : cones) {
      b.segment(rows, cone.b.size()) = cone.b;
      rows += cone.b.size();
    }
    return b;
  }
  std::vector<int> ConeDims() const {
    std::vector<int> dims;
    for (const DenseCone& cone : cones) dims.push_back(static_cast<int>(cone.A.rows()));
    return dims;
  }
  Eigen::MatrixXd DenseG() const { return G.rows() > 0 ? G : Eigen::MatrixXd(0, n()); }

  SocpProblem ToSocp() const {
    return SocpProblem{SparseRowMatrix::FromDense(Q),
                       c,
                       SparseRowMatrix::FromDense(DenseG()),
                       G.rows() > 0 ? h : Eigen::VectorXd(0),
                       StackedA(),
                       StackedB(),
                       ConeDims()};
  }
  LogBarrierProblem ToLogBarrier(double kappa) const {
    return LogBarrierProblem{SparseRowMatrix::FromDense(Q),
                             c,
                             SparseRowMatrix::FromDense(DenseG()),
                             G.rows() > 0 ? h : Eigen::VectorXd(0),
                             StackedA(),
                             StackedB(),
                             ConeDims(),
                             kappa};
  }
};

// A chain of rigid bodies (6 velocities each) with a block-diagonal positive definite cost and
// friction cones u_i = A_i v + b_i ∈ K whose three rows (normal, μ·tangent1, μ·tangent2) touch
// only the columns of one body (ground contact) or of two neighbours, the sparsity of the
// contact Jacobians of dynamics/quasi_dynamic_socp.h. v = 0 is strictly feasible
// (b_i = (φ_i/h, 0, 0), φ_i/h in [1e-3, 1e-1] m/s), so every problem is solvable.
inline DenseConeProgram ContactChainSocp(unsigned seed, int bodies, int contacts_per_body) {
  RandomProblems random(seed);
  const int n = 6 * bodies;
  DenseConeProgram p;
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
      DenseCone cone{Eigen::MatrixXd::Zero(3, n), Eigen::VectorXd::Zero(3)};
      cone.A.block(0, 6 * b, 3, 6) = random.Gaussian(3, 6);
      if (b > 0 && k % 2 == 1) cone.A.block(0, 6 * (b - 1), 3, 6) = -random.Gaussian(3, 6);
      cone.A.bottomRows(2) *= mu;
      cone.b[0] = random.Uniform(1e-3, 1e-1);
      p.cones.push_back(cone);
    }
  }
  return p;
}

// A small convex MIQP with n_c continuous variables x and n_b binaries z (variables (x, z)),
// feasible by construction at a random integer point (x0, z0):
//  * cost ½ [x; z]ᵀ Q [x; z] + cᵀ[x; z], Q = B Bᵀ + 0.1 I on x, a PSD coupling with z;
//  * box rows |x_j| <= 5;
//  * big-M switches for the first min(n_c, n_b) binaries: 0 <= x_i <= M z_i (M = 5);
//  * random dense rows G_r [x; z] >= G_r [x0; z0] − U(0.1, 1);
//  * `equalities` random rows A [x; z] = A [x0; z0] on x only (so z0 stays feasible).
inline MiqpProblem RandomMiqp(unsigned seed, int continuous, int binaries, int random_rows,
                              int equalities) {
  RandomProblems random(seed);
  const int n = continuous + binaries;
  Eigen::VectorXd x0(n);
  for (int j = 0; j < continuous; ++j) x0[j] = random.Uniform(-1, 1);
  for (int k = 0; k < binaries; ++k) x0[continuous + k] = random.Uniform(0, 1) < 0.5 ? 0 : 1;
  const double big_m = 5.0;
  const int pairs = std::min(continuous, binaries);
  for (int i = 0; i < pairs; ++i) {
    x0[i] = x0[continuous + i] > 0.5 ? random.Uniform(0.1, 1) : 0.0;  // x_i = 0 unless z_i = 1
  }
  Eigen::MatrixXd B = random.Gaussian(n, n);
  Eigen::MatrixXd Q = 0.3 * B * B.transpose();
  Q.topLeftCorner(continuous, continuous).diagonal().array() += 0.1;
  Eigen::MatrixXd G(0, n);
  std::vector<double> h;
  const auto add_row = [&](const Eigen::RowVectorXd& row, double bound) {
    G.conservativeResize(G.rows() + 1, Eigen::NoChange);
    G.row(G.rows() - 1) = row;
    h.push_back(bound);
  };
  for (int j = 0; j < continuous; ++j) {
    add_row(Eigen::RowVectorXd::Unit(n, j), -5.0);
    add_row(-Eigen::RowVectorXd::Unit(n, j), -5.0);
  }
  for (int i = 0; i < pairs; ++i) {
    add_row(Eigen::RowVectorXd::Unit(n, i), 0.0);  // x_i >= 0
    Eigen::RowVectorXd upper = Eigen::RowVectorXd::Zero(n);
    upper[i] = -1.0;
    upper[continuous + i] = big_m;  // M z_i − x_i >= 0
    add_row(upper, 0.0);
  }
  for (int r = 0; r < random_rows; ++r) {
    const Eigen::RowVectorXd row = random.Gaussian(1, n);
    add_row(row, row.dot(x0) - random.Uniform(0.1, 1.0));
  }
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(equalities, n);
  if (equalities > 0) A.leftCols(continuous) = random.Gaussian(equalities, continuous);
  MiqpProblem problem;
  problem.continuous.Q = SparseRowMatrix::FromDense(Q);
  problem.continuous.c = 2.0 * random.GaussianVector(n);
  problem.continuous.G = SparseRowMatrix::FromDense(G);
  problem.continuous.h = Eigen::Map<Eigen::VectorXd>(h.data(), static_cast<Eigen::Index>(h.size()));
  problem.continuous.A = SparseRowMatrix::FromDense(A);
  problem.continuous.b = A * x0;
  for (int k = 0; k < binaries; ++k) problem.binaries.push_back(continuous + k);
  return problem;
}

}  // namespace quasidyn::testing
