// The QP's equality rows A x = b (qp.h, "Equality rows"): KKT residuals on random problems, an
// independent dense KKT solve when only equalities bind, infeasibility certificates, the
// set-up/update contract and no allocation in Solve.

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <limits>
#include <stdexcept>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

struct DenseEqualityQp {
  MatrixXd Q;
  VectorXd c;
  MatrixXd G;
  VectorXd h;
  MatrixXd A;
  VectorXd b;

  QpProblem ToSparse() const {
    QpProblem p;
    p.Q = SparseRowMatrix::FromDense(Q);
    p.c = c;
    p.G = SparseRowMatrix::FromDense(G);
    p.h = h;
    p.A = SparseRowMatrix::FromDense(A);
    p.b = b;
    return p;
  }
};

// Random QP with a strictly feasible point of G x >= h that also satisfies A x = b, and box
// rows |x_j| <= 10 (bounded even when Q is singular).
DenseEqualityQp RandomEqualityQp(testing::RandomProblems& random, int n, int m, int p, int rank) {
  DenseEqualityQp q;
  q.Q = random.PsdMatrix(n, rank);
  q.c = random.GaussianVector(n);
  const VectorXd x_feasible = random.UniformVector(n, -1, 1);
  const MatrixXd g = random.Gaussian(m, n);
  q.G.resize(m + 2 * n, n);
  q.G << g, MatrixXd::Identity(n, n), -MatrixXd::Identity(n, n);
  q.h.resize(m + 2 * n);
  q.h << g * x_feasible - random.UniformVector(m, 0.1, 1.0), VectorXd::Constant(2 * n, -10.0);
  // Sparse equality rows (each couples 3 variables), like dynamics x_{k+1} = A x_k + B u_k.
  q.A = MatrixXd::Zero(p, n);
  std::uniform_int_distribution<int> column(0, n - 1);
  for (int i = 0; i < p; ++i) {
    q.A(i, i % n) = 1.0;
    for (int k = 0; k < 2; ++k) q.A(i, column(random.engine())) += random.Uniform(-1, 1);
  }
  q.b = q.A * x_feasible;
  return q;
}

// KKT of min ½xᵀQx + cᵀx s.t. Gx >= h, Ax = b at (x, z, y), computed here from the dense data,
// each relative to the scale of its terms: the largest relative violation.
double KktResidual(const DenseEqualityQp& q, const QpResult& r) {
  const VectorXd stationarity = q.Q * r.x + q.c - q.G.transpose() * r.z - q.A.transpose() * r.y;
  const double dual_scale =
      std::max({1.0, (q.Q * r.x).lpNorm<Eigen::Infinity>(), q.c.lpNorm<Eigen::Infinity>(),
                (q.G.transpose() * r.z).lpNorm<Eigen::Infinity>(),
                (q.A.transpose() * r.y).lpNorm<Eigen::Infinity>()});
  const VectorXd slack = q.G * r.x - q.h;
  const double primal_scale =
      std::max({1.0, (q.G * r.x).lpNorm<Eigen::Infinity>(), q.h.lpNorm<Eigen::Infinity>(),
                q.b.lpNorm<Eigen::Infinity>()});
  const double equality = (q.A * r.x - q.b).lpNorm<Eigen::Infinity>();
  const double infeasibility = std::max(0.0, -slack.minCoeff());
  const double negative_dual = std::max(0.0, -r.z.minCoeff());
  const double complementarity = slack.cwiseProduct(r.z).cwiseAbs().maxCoeff();
  return std::max({stationarity.lpNorm<Eigen::Infinity>() / dual_scale, equality / primal_scale,
                   infeasibility / primal_scale, negative_dual / dual_scale,
                   complementarity / std::max(1.0, std::abs(r.objective))});
}

double Tolerance(const QpSettings& s, double multiple = 10) {
  return multiple * (s.absolute_tolerance + s.relative_tolerance);
}

TEST(QpEqualityTest, EqualitiesOnlyMatchTheDenseKktSolve) {
  // min ½xᵀQx + cᵀx s.t. Ax = b with Q positive definite: the KKT system [Q −Aᵀ; A 0] is
  // solved independently by a dense LU.
  testing::RandomProblems random(4);
  const int n = 12, p = 5;
  DenseEqualityQp q;
  q.Q = random.PsdMatrix(n, n) + MatrixXd::Identity(n, n);
  q.c = random.GaussianVector(n);
  q.G.resize(0, n);
  q.h.resize(0);
  q.A = random.Gaussian(p, n);
  q.b = random.GaussianVector(p);
  const QpResult r = Solve(q.ToSparse());
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  MatrixXd kkt = MatrixXd::Zero(n + p, n + p);
  kkt << q.Q, -q.A.transpose(), q.A, MatrixXd::Zero(p, p);
  VectorXd rhs(n + p);
  rhs << -q.c, q.b;
  const VectorXd expected = kkt.fullPivLu().solve(rhs);
  const double scale = 1 + expected.lpNorm<Eigen::Infinity>();
  EXPECT_LE((r.x - expected.head(n)).lpNorm<Eigen::Infinity>(), 1e-8 * scale);
  EXPECT_LE((r.y - expected.tail(p)).lpNorm<Eigen::Infinity>(), 1e-8 * scale);
  EXPECT_TRUE(r.info.used_sparse_path);
}

TEST(QpEqualityTest, RandomProblemsSatisfyKkt) {
  const QpSettings settings;
  for (const auto& [n, m, p, rank] :
       {std::tuple{3, 2, 1, 3}, {10, 12, 4, 10}, {30, 20, 12, 5}, {60, 40, 30, 60}}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      testing::RandomProblems random(seed * 31 + n);
      const DenseEqualityQp q = RandomEqualityQp(random, n, m, p, rank);
      const QpResult r = Solve(q.ToSparse(), settings);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << "n=" << n << " seed=" << seed << r.message;
      EXPECT_LE(KktResidual(q, r), Tolerance(settings)) << "n=" << n << " seed=" << seed;
      EXPECT_FALSE(r.info.polish.attempted);
    }
  }
}

TEST(QpEqualityTest, EqualityRowsAgreeWithEliminatingAVariable) {
  // min ½‖x‖² + cᵀx s.t. x0 + x1 = 1, x >= 0.2 in 3 variables, against the same problem with
  // x1 = 1 − x0 substituted (a QP without equality rows).
  DenseEqualityQp q;
  q.Q = MatrixXd::Identity(3, 3);
  q.c = VectorXd(3);
  q.c << -2.0, 0.5, -1.0;
  q.G = MatrixXd::Identity(3, 3);
  q.h = VectorXd::Constant(3, 0.2);
  q.A = MatrixXd(1, 3);
  q.A << 1, 1, 0;
  q.b = VectorXd::Constant(1, 1.0);
  const QpResult r = Solve(q.ToSparse());
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  // Substituted: variables (x0, x2); ½x0² + ½(1 − x0)² + ½x2² − 2x0 + 0.5(1 − x0) − x2
  //   = x0² − 3.5 x0 + ½x2² − x2 + 1; x0 ∈ [0.2, 0.8] (x1 = 1 − x0 >= 0.2), x2 >= 0.2.
  testing::DenseQp reduced{MatrixXd(2, 2), VectorXd(2), MatrixXd(3, 2), VectorXd(3)};
  reduced.Q << 2, 0, 0, 1;
  reduced.c << -3.5, -1.0;
  reduced.G << 1, 0, -1, 0, 0, 1;
  reduced.h << 0.2, -0.8, 0.2;
  const QpResult e = Solve(reduced.ToSparse());
  ASSERT_EQ(e.status, SolverStatus::kSolved) << e.message;
  EXPECT_NEAR(r.x[0], e.x[0], 1e-7);
  EXPECT_NEAR(r.x[1], 1.0 - e.x[0], 1e-7);
  EXPECT_NEAR(r.x[2], e.x[1], 1e-7);
  EXPECT_NEAR(r.objective, e.objective + 1.0, 1e-7);
}

TEST(QpEqualityTest, InfeasibleEqualitiesAreReported) {
  // Two parallel equality rows with different right-hand sides.
  DenseEqualityQp q;
  q.Q = MatrixXd::Identity(2, 2);
  q.c = VectorXd::Zero(2);
  q.G.resize(0, 2);
  q.h.resize(0);
  q.A = MatrixXd::Ones(2, 2);
  q.b = VectorXd(2);
  q.b << 1.0, 2.0;
  const QpSettings settings;
  const QpResult r = Solve(q.ToSparse(), settings);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible) << r.message;
  EXPECT_FALSE(r.message.empty());
  // An equality that contradicts an inequality: x0 = 5, x0 <= 1.
  q.A = MatrixXd(1, 2);
  q.A << 1, 0;
  q.b = VectorXd::Constant(1, 5.0);
  q.G = MatrixXd(1, 2);
  q.G << -1, 0;
  q.h = VectorXd::Constant(1, -1.0);
  const QpResult s = Solve(q.ToSparse(), settings);
  EXPECT_EQ(s.status, SolverStatus::kInfeasible) << s.message;
  EXPECT_LT(s.info.iterations, settings.max_iterations);
}

TEST(QpEqualityTest, UpdateValuesGivesTheBitsOfAFreshSetupAndSolveDoesNotAllocate) {
  testing::RandomProblems random(9);
  const DenseEqualityQp a = RandomEqualityQp(random, 20, 10, 8, 20);
  DenseEqualityQp b = a;
  b.c = random.GaussianVector(20);
  b.b = b.A * random.UniformVector(20, -0.5, 0.5);
  for (Eigen::Index i = 0; i < b.A.size(); ++i) {
    if (b.A.data()[i] != 0.0) b.A.data()[i] *= random.Uniform(0.5, 1.5);
  }
  QpSolver updated, fresh;
  updated.Setup(a.ToSparse());
  ASSERT_EQ(updated.Solve().status, SolverStatus::kSolved);
  ASSERT_TRUE(updated.SamePattern(b.ToSparse()));
  updated.UpdateValues(b.ToSparse());
  fresh.Setup(b.ToSparse());
  const QpResult u = updated.Solve();
  const QpResult& f = fresh.Solve();
  ASSERT_EQ(u.status, SolverStatus::kSolved) << u.message;
  EXPECT_EQ(u.info.iterations, f.info.iterations);
  EXPECT_EQ(u.x, f.x);
  EXPECT_EQ(u.y, f.y);
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  QpWarmStart warm;
  warm.x = u.x;
  warm.z = u.z;
  warm.y = u.y;
  long allocations = 0;
  {
    testing::MallocCounter counter;
    updated.Solve();
    updated.Solve(warm);
    allocations = counter.count();
  }
  EXPECT_EQ(updated.result().status, SolverStatus::kSolved) << updated.result().message;
  EXPECT_EQ(allocations, 0);
}

TEST(QpEqualityTest, WarmStartFromTheSolutionTakesFewerIterations) {
  testing::RandomProblems random(12);
  const DenseEqualityQp q = RandomEqualityQp(random, 30, 20, 10, 30);
  QpSolver solver;
  solver.Setup(q.ToSparse());
  const QpResult cold = solver.Solve();
  ASSERT_EQ(cold.status, SolverStatus::kSolved);
  QpWarmStart warm;
  warm.x = cold.x;
  warm.z = cold.z;
  warm.y = cold.y;
  const QpResult& again = solver.Solve(warm);
  ASSERT_EQ(again.status, SolverStatus::kSolved) << again.message;
  EXPECT_LT(again.info.iterations, cold.info.iterations);
}

TEST(QpEqualityTest, BadEqualityDataThrowsNamingTheField) {
  testing::RandomProblems random(13);
  DenseEqualityQp q = RandomEqualityQp(random, 4, 2, 2, 4);
  QpProblem p = q.ToSparse();
  p.b = VectorXd::Zero(3);
  try {
    Solve(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("b has size"), std::string::npos) << e.what();
  }
  p = q.ToSparse();
  p.A = SparseRowMatrix::FromDense(MatrixXd::Ones(2, 5));
  try {
    Solve(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("A"), std::string::npos) << e.what();
  }
  p = q.ToSparse();
  p.b[0] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(Solve(p), std::invalid_argument);
  p = q.ToSparse();
  QpWarmStart bad;
  bad.y = VectorXd::Zero(7);
  QpSolver solver;
  solver.Setup(p);
  EXPECT_THROW(solver.Solve(bad), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
