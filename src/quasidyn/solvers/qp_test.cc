#include "quasidyn/solvers/qp.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::DenseQp;

// The solver on the sparse form of a dense test problem.
QpResult SolveDense(const DenseQp& p, const QpSettings& settings = {},
                    const QpWarmStart& warm_start = {}) {
  return Solve(p.ToSparse(), settings, warm_start);
}

// KKT residuals of min ½xᵀQx + cᵀx s.t. Gx >= h at (x, z), computed here independently of
// the solver's own bookkeeping.
struct Kkt {
  double stationarity;     // ‖Qx + c − Gᵀz‖∞
  double infeasibility;    // max(0, max(h − Gx))
  double negative_dual;    // max(0, max(−z))
  double complementarity;  // max |z_i (Gx − h)_i|
};

Kkt Residuals(const DenseQp& p, const VectorXd& x, const VectorXd& z) {
  Kkt k{};
  k.stationarity = (p.Q * x + p.c - p.G.transpose() * z).lpNorm<Eigen::Infinity>();
  if (p.G.rows() > 0) {
    const VectorXd slack = p.G * x - p.h;
    k.infeasibility = std::max(0.0, -slack.minCoeff());
    k.negative_dual = std::max(0.0, -z.minCoeff());
    k.complementarity = slack.cwiseProduct(z).cwiseAbs().maxCoeff();
  }
  return k;
}

// Expect the KKT conditions to hold to `multiple` times the solver tolerance, relative to the
// problem's scale (same scale definitions as QpSettings).
void ExpectKkt(const DenseQp& p, const QpResult& r, const QpSettings& s, double multiple = 10) {
  const Kkt k = Residuals(p, r.x, r.z);
  const double tol = multiple * (s.absolute_tolerance + s.relative_tolerance);
  const double dual_scale =
      std::max({1.0, (p.Q * r.x).lpNorm<Eigen::Infinity>(), p.c.lpNorm<Eigen::Infinity>(),
                (p.G.transpose() * r.z).lpNorm<Eigen::Infinity>()});
  const double primal_scale = std::max({1.0, (p.G * r.x).lpNorm<Eigen::Infinity>(),
                                        p.h.size() ? p.h.lpNorm<Eigen::Infinity>() : 0.0});
  const double gap_scale = std::max(1.0, std::abs(r.objective));
  EXPECT_LE(k.stationarity, tol * dual_scale);
  EXPECT_LE(k.infeasibility, tol * primal_scale);
  EXPECT_LE(k.negative_dual, tol * dual_scale);
  EXPECT_LE(k.complementarity, tol * gap_scale);
}

// Random QP whose constraints have a strictly feasible point x_feasible, with box rows
// |x_j| <= 10 so that a singular Q still gives a bounded problem.
DenseQp RandomQp(testing::RandomProblems& random, int n, int m, int rank) {
  DenseQp p;
  p.Q = random.PsdMatrix(n, rank);
  p.c = random.GaussianVector(n);
  const VectorXd x_feasible = random.UniformVector(n, -1, 1);
  MatrixXd g_random = random.Gaussian(m, n);
  p.G.resize(m + 2 * n, n);
  p.G << g_random, MatrixXd::Identity(n, n), -MatrixXd::Identity(n, n);
  p.h.resize(m + 2 * n);
  p.h << g_random * x_feasible - random.UniformVector(m, 0.1, 1.0),
      VectorXd::Constant(2 * n, -10.0);
  return p;
}

TEST(QpTest, HandComputedProjectionOntoHalfPlane) {
  // min ½|x|² s.t. x1 + x2 >= 2: x* = (1, 1), multiplier z* = 1 (Qx* = Gᵀz*).
  DenseQp p{MatrixXd::Identity(2, 2), VectorXd::Zero(2), MatrixXd::Ones(1, 2),
            VectorXd::Constant(1, 2.0)};
  const QpSettings settings;
  const QpResult r = SolveDense(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  const double tol = 10 * (settings.absolute_tolerance + settings.relative_tolerance);
  EXPECT_NEAR(r.x[0], 1.0, tol);
  EXPECT_NEAR(r.x[1], 1.0, tol);
  EXPECT_NEAR(r.z[0], 1.0, tol);
  EXPECT_NEAR(r.objective, 1.0, tol);
}

TEST(QpTest, UnconstrainedReducesToLinearSolve) {
  testing::RandomProblems random(3);
  DenseQp p;
  p.Q = random.PsdMatrix(5, 5) + MatrixXd::Identity(5, 5);
  p.c = random.GaussianVector(5);
  p.G.resize(0, 5);
  p.h.resize(0);
  const QpResult r = SolveDense(p);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  const VectorXd expected = p.Q.ldlt().solve(-p.c);  // independent dense solve
  EXPECT_LE((r.x - expected).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + expected.norm()));
}

TEST(QpTest, RandomProblemsSatisfyKkt) {
  const QpSettings settings;
  for (const auto& [n, m] : {std::pair{2, 3}, {10, 20}, {30, 60}, {60, 40}}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      testing::RandomProblems random(seed * 100 + n);
      const DenseQp p = RandomQp(random, n, m, n);
      const QpResult r = SolveDense(p, settings);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << "n=" << n << " seed=" << seed << r.message;
      ExpectKkt(p, r, settings);
      EXPECT_FALSE(r.info.used_sparse_path);
    }
  }
}

TEST(QpTest, SingularCostBoundedByConstraints) {
  const QpSettings settings;
  for (unsigned seed = 0; seed < 5; ++seed) {
    testing::RandomProblems random(seed + 7);
    const DenseQp p = RandomQp(random, 12, 8, 3);  // Q has rank 3 of 12
    const QpResult r = SolveDense(p, settings);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    ExpectKkt(p, r, settings);
  }
  // Pure LP: min −x1 − x2 s.t. x1, x2 >= 0, x1 + 2 x2 <= 4, 3 x1 + x2 <= 6 → vertex (1.6, 1.2).
  DenseQp lp{MatrixXd::Zero(2, 2), VectorXd::Constant(2, -1.0), MatrixXd(4, 2), VectorXd(4)};
  lp.G << 1, 0, 0, 1, -1, -2, -3, -1;
  lp.h << 0, 0, -4, -6;
  const QpResult r = SolveDense(lp, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_NEAR(r.x[0], 1.6, 1e-7);
  EXPECT_NEAR(r.x[1], 1.2, 1e-7);
}

TEST(QpTest, DegenerateActiveSetWithZeroMultipliers) {
  // min ½(x1² + (x2 − 1)²) s.t. x1 >= 0, x2 <= 1, x1 + x2 >= 1 (twice): the unconstrained
  // minimiser (0, 1) lies on all four boundaries, every multiplier is 0 (strict
  // complementarity fails) and two rows are identical.
  DenseQp p{MatrixXd::Identity(2, 2), VectorXd(2), MatrixXd(4, 2), VectorXd(4)};
  p.c << 0, -1;
  p.G << 1, 0, 0, -1, 1, 1, 1, 1;
  p.h << 0, -1, 1, 1;
  const QpSettings settings;
  const QpResult r = SolveDense(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  // Without strict complementarity interior points converge like sqrt(tolerance).
  EXPECT_NEAR(r.x[0], 0.0, 1e-4);
  EXPECT_NEAR(r.x[1], 1.0, 1e-4);
  ExpectKkt(p, r, settings);
}

TEST(QpTest, InfeasibleProblemIsReportedQuickly) {
  testing::RandomProblems random(11);
  DenseQp p = RandomQp(random, 6, 4, 6);
  // Append x0 >= 20 which contradicts the box row x0 <= 10.
  p.G.conservativeResize(p.G.rows() + 1, Eigen::NoChange);
  p.G.row(p.G.rows() - 1) = VectorXd::Unit(6, 0).transpose();
  p.h.conservativeResize(p.h.size() + 1);
  p.h[p.h.size() - 1] = 20.0;
  QpSettings settings;
  const QpResult r = SolveDense(p, settings);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible) << r.message;
  EXPECT_LT(r.info.iterations, settings.max_iterations);
  EXPECT_NE(r.message.find("row"), std::string::npos) << r.message;

  // x >= 1 and −x >= 0 in one variable.
  DenseQp tiny{MatrixXd::Identity(1, 1), VectorXd::Zero(1), MatrixXd(2, 1), VectorXd(2)};
  tiny.G << 1, -1;
  tiny.h << 1, 0;
  const QpResult t = SolveDense(tiny, settings);
  EXPECT_EQ(t.status, SolverStatus::kInfeasible) << t.message;
}

TEST(QpTest, WarmStartReducesIterations) {
  const QpSettings settings;
  int cold_total = 0, warm_total = 0;
  for (unsigned seed = 0; seed < 5; ++seed) {
    testing::RandomProblems random(seed + 50);
    DenseQp p = RandomQp(random, 20, 30, 20);
    const QpResult first = SolveDense(p, settings);
    ASSERT_EQ(first.status, SolverStatus::kSolved);
    // Re-solving from the solution itself takes no step.
    const QpResult again = SolveDense(p, settings, {first.x, first.z, {}});
    EXPECT_EQ(again.status, SolverStatus::kSolved);
    EXPECT_LT(again.info.iterations, first.info.iterations);
    // A slightly perturbed problem (as in consecutive time steps).
    p.c += 1e-3 * random.GaussianVector(20);
    const QpResult cold = SolveDense(p, settings);
    const QpResult warm = SolveDense(p, settings, {first.x, first.z, {}});
    ASSERT_EQ(warm.status, SolverStatus::kSolved) << warm.message;
    ExpectKkt(p, warm, settings);
    cold_total += cold.info.iterations;
    warm_total += warm.info.iterations;
  }
  EXPECT_LT(warm_total, cold_total);
}

// The problem solved with `settings` on the sparse path and again on the dense one, each
// checked to have solved on its path, the sparse solution also against the KKT conditions.
void SolveOnBothPaths(const DenseQp& p, QpSettings settings, QpResult* sparse, QpResult* dense) {
  *sparse = SolveDense(p, settings);
  ASSERT_EQ(sparse->status, SolverStatus::kSolved) << sparse->message;
  EXPECT_TRUE(sparse->info.used_sparse_path);
  ExpectKkt(p, *sparse, settings);
  settings.sparse_min_variables = 1000000;
  *dense = SolveDense(p, settings);
  ASSERT_EQ(dense->status, SolverStatus::kSolved);
  EXPECT_FALSE(dense->info.used_sparse_path);
}

TEST(QpTest, SparsePathMatchesDensePath) {
  // n = 300 variables, each constraint row couples 3 of them (like contact Jacobians).
  testing::RandomProblems random(21);
  const int n = 300, m = 200;
  DenseQp p;
  p.Q = MatrixXd::Zero(n, n);
  p.Q.diagonal() = random.UniformVector(n, 0.5, 2.0);
  p.c = random.GaussianVector(n);
  p.G = MatrixXd::Zero(m, n);
  std::uniform_int_distribution<int> column(0, n - 1);
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < 3; ++k) p.G(i, column(random.engine())) = random.Uniform(-1, 1);
  }
  const VectorXd x_feasible = random.UniformVector(n, -1, 1);
  p.h = p.G * x_feasible - random.UniformVector(m, 0.1, 1.0);
  QpSettings settings;
  QpResult sparse, dense;
  ASSERT_NO_FATAL_FAILURE(SolveOnBothPaths(p, settings, &sparse, &dense));
  // Q is positive definite, so x* is unique; both paths stop within tolerance of it.
  EXPECT_LE((sparse.x - dense.x).lpNorm<Eigen::Infinity>(), 1e-6);
}

TEST(QpTest, SparsePathWithContactLikeRowGroupsMatchesDensePath) {
  // Rows in groups that share their columns, as a friction pyramid's 4 edges share the columns
  // of the two bodies in contact (the sparse path assembles a group's rows pair by pair), mixed
  // with single rows of one column (joint limits); n = 60 variables in bodies of 6.
  testing::RandomProblems random(33);
  const int n = 60, bodies = n / 6;
  DenseQp p;
  p.Q = MatrixXd::Zero(n, n);
  p.Q.diagonal() = random.UniformVector(n, 0.5, 2.0);
  p.c = random.GaussianVector(n);
  std::vector<Eigen::RowVectorXd> rows;
  std::uniform_int_distribution<int> body(0, bodies - 1);
  for (int contact = 0; contact < 30; ++contact) {
    const int a = body(random.engine());
    const int b = (a + 1 + body(random.engine()) % (bodies - 1)) % bodies;
    for (int edge = 0; edge < 4; ++edge) {
      Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(n);
      row.segment(6 * a, 6) = random.GaussianVector(6).transpose();
      row.segment(6 * b, 6) = random.GaussianVector(6).transpose();
      rows.push_back(row);
    }
    Eigen::RowVectorXd limit = Eigen::RowVectorXd::Zero(n);
    limit[contact % n] = contact % 2 == 0 ? 1.0 : -1.0;
    rows.push_back(limit);
  }
  p.G.resize(static_cast<Eigen::Index>(rows.size()), n);
  for (size_t i = 0; i < rows.size(); ++i) p.G.row(static_cast<Eigen::Index>(i)) = rows[i];
  const VectorXd x_feasible = random.UniformVector(n, -1, 1);
  p.h = p.G * x_feasible - random.UniformVector(p.G.rows(), 0.1, 1.0);
  QpSettings settings;
  settings.sparse_min_variables = 0;
  settings.sparse_max_density = 1.0;
  QpResult sparse, dense;
  ASSERT_NO_FATAL_FAILURE(SolveOnBothPaths(p, settings, &sparse, &dense));
  ExpectKkt(p, dense, settings);
  // Q's eigenvalues are >= 0.5, so f(x) − f(x*) >= ¼‖x − x*‖²; each solution's suboptimality is
  // within its KKT tolerance (10 tol × gap scale, as ExpectKkt checks), so each x is within
  // sqrt(4 · 10 tol · scale) of x*, and the two within twice that.
  const double suboptimality = 10 * (settings.absolute_tolerance + settings.relative_tolerance) *
                               std::max(1.0, std::abs(dense.objective));
  EXPECT_LE((sparse.x - dense.x).lpNorm<Eigen::Infinity>(), 2 * std::sqrt(4 * suboptimality));
}

TEST(QpTest, WorkspaceReuseGivesSameAnswer) {
  testing::RandomProblems random(5);
  const DenseQp a = RandomQp(random, 8, 10, 8);
  const DenseQp b = RandomQp(random, 8, 10, 8);
  QpSolver solver;
  solver.Setup(a.ToSparse());
  solver.Solve();
  solver.Setup(b.ToSparse());
  const QpResult reused = solver.Solve();
  const QpResult fresh = SolveDense(b);
  EXPECT_EQ(reused.info.iterations, fresh.info.iterations);
  EXPECT_LE((reused.x - fresh.x).lpNorm<Eigen::Infinity>(), 1e-12);
}

// Sparse contact-like QP: n variables, each row couples 3 random columns; feasible by
// construction around a random point.
DenseQp SparseContactLikeQp(testing::RandomProblems& random, int n, int m) {
  DenseQp p;
  p.Q = MatrixXd::Zero(n, n);
  p.Q.diagonal() = random.UniformVector(n, 0.5, 2.0);
  p.c = random.GaussianVector(n);
  p.G = MatrixXd::Zero(m, n);
  std::uniform_int_distribution<int> column(0, n - 1);
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < 3; ++k) p.G(i, column(random.engine())) = random.Uniform(-1, 1);
  }
  p.h = p.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.1, 1.0);
  return p;
}

// The sparse path multiplies by G and assembles N group by group (rows with the same columns;
// widths up to 16 unrolled, wider ones not; four rows of a group per pass of the assembly, then
// the rest): rows in groups of widths 1, 3, 6, 7, 12, 13, 14, 17 and 20, of 1 to 9 rows, and a
// group's columns out of order of the other groups', give an answer that satisfies the KKT
// conditions computed here with dense products.
TEST(QpTest, SparsePathRowsInGroupsOfEveryWidthSatisfyKkt) {
  testing::RandomProblems random(7);
  const int n = 48;
  struct Group {
    int first_column, width, rows;
  };
  const std::vector<Group> groups = {{0, 6, 4},   {6, 12, 5}, {30, 3, 3}, {40, 7, 4}, {18, 6, 1},
                                     {45, 1, 2},  {6, 6, 3},  {0, 12, 6}, {33, 3, 2}, {24, 12, 4},
                                     {28, 17, 5}, {8, 20, 9}, {2, 14, 7}, {16, 13, 8}};
  int m = 0;
  for (const Group& g : groups) m += g.rows;
  DenseQp p;
  const MatrixXd B = random.Gaussian(n, n);
  p.Q = B * B.transpose() / n + MatrixXd::Identity(n, n);
  p.c = random.GaussianVector(n);
  p.G = MatrixXd::Zero(m, n);
  int row = 0;
  for (const Group& g : groups)
    for (int r = 0; r < g.rows; ++r, ++row)
      p.G.block(row, g.first_column, 1, g.width) = random.Gaussian(1, g.width);
  p.h = p.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.0, 0.5);
  QpSettings settings;
  settings.sparse_min_variables = 0;
  settings.sparse_max_density = 1.0;
  const QpResult r = SolveDense(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_TRUE(r.info.used_sparse_path);
  ExpectKkt(p, r, settings);
}

TEST(QpTest, SparseWorkspaceReuseWithSameAndNewPattern) {
  // The sparse path reuses its symbolic factorisation when G and Q keep their pattern; new
  // values on the old pattern, and then a new pattern, must give what a fresh solver gives.
  testing::RandomProblems random(8);
  const DenseQp first = SparseContactLikeQp(random, 250, 180);
  DenseQp same_pattern = first;
  for (Eigen::Index i = 0; i < same_pattern.G.size(); ++i) {
    double& g = same_pattern.G.data()[i];
    if (g != 0.0) g = random.Uniform(0.2, 1.0) * (random.Uniform(0, 1) < 0.5 ? -1 : 1);
  }
  same_pattern.h =
      same_pattern.G * random.UniformVector(250, -1, 1) - random.UniformVector(180, 0.1, 1.0);
  same_pattern.Q.diagonal() = random.UniformVector(250, 0.5, 2.0);
  const DenseQp new_pattern = SparseContactLikeQp(random, 250, 180);
  QpSolver solver;
  const std::vector<const DenseQp*> sequence = {&first, &same_pattern, &new_pattern, &first};
  for (const DenseQp* p : sequence) {
    const QpProblem sparse = p->ToSparse();
    if (solver.SamePattern(sparse)) {
      solver.UpdateValues(sparse);
    } else {
      solver.Setup(sparse);
    }
    const QpResult reused = solver.Solve();
    const QpResult fresh = SolveDense(*p);
    ASSERT_EQ(reused.status, SolverStatus::kSolved) << reused.message;
    EXPECT_TRUE(reused.info.used_sparse_path);
    ExpectKkt(*p, reused, QpSettings{});
    // Same symbolic ordering and same arithmetic: identical up to the last bits.
    EXPECT_EQ(reused.info.iterations, fresh.info.iterations);
    EXPECT_LE(
        (reused.x - fresh.x).lpNorm<Eigen::Infinity>(),
        1e3 * std::numeric_limits<double>::epsilon() * (1 + fresh.x.lpNorm<Eigen::Infinity>()));
  }
}

TEST(QpTest, BadInputThrowsNamingTheField) {
  DenseQp p{MatrixXd::Identity(2, 2), VectorXd::Zero(3), MatrixXd::Ones(1, 2), VectorXd(1)};
  try {
    SolveDense(p);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("c has size"), std::string::npos) << e.what();
  }
  p.c = VectorXd::Zero(2);
  p.h = VectorXd::Zero(1);
  QpSettings settings;
  settings.max_iterations = 0;
  try {
    SolveDense(p, settings);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_iterations"), std::string::npos) << e.what();
  }
  QpSolver never_set_up;
  EXPECT_THROW(never_set_up.Solve(), std::invalid_argument);
  p.h[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(SolveDense(p), std::invalid_argument);
}

QpSettings ForcedPath(bool sparse) {
  QpSettings settings;
  settings.sparse_min_variables = sparse ? 0 : std::numeric_limits<int>::max();
  settings.sparse_max_density = 1.0;
  return settings;
}

// The same pattern with other values: every stored entry of Q and G rescaled, new c and h.
DenseQp NewValuesSamePattern(testing::RandomProblems& random, const DenseQp& p) {
  DenseQp q = p;
  for (Eigen::Index i = 0; i < q.G.size(); ++i) {
    if (q.G.data()[i] != 0.0) q.G.data()[i] *= random.Uniform(0.5, 1.5);
  }
  q.Q.diagonal() *= random.Uniform(1.0, 2.0);
  q.c = random.GaussianVector(p.c.size());
  q.h = q.G * random.UniformVector(p.c.size(), -1, 1) - random.UniformVector(p.h.size(), 0.1, 1.0);
  return q;
}

TEST(QpTest, UpdateValuesGivesTheBitsOfAFreshSetup) {
  // OSQP's contract: Setup once, then only values change; the answer must not depend on
  // whether the solver saw other values before (no state leaks from one solve to the next).
  for (const bool sparse : {false, true}) {
    testing::RandomProblems random(31);
    const DenseQp a = SparseContactLikeQp(random, 60, 40);
    const DenseQp b = NewValuesSamePattern(random, a);
    QpSolver updated, fresh;
    updated.Setup(a.ToSparse(), ForcedPath(sparse));
    ASSERT_EQ(updated.Solve().status, SolverStatus::kSolved);
    ASSERT_TRUE(updated.SamePattern(b.ToSparse()));
    updated.UpdateValues(b.ToSparse());
    fresh.Setup(b.ToSparse(), ForcedPath(sparse));
    const QpResult& u = updated.Solve();
    const QpResult& f = fresh.Solve();
    ASSERT_EQ(u.status, SolverStatus::kSolved) << u.message;
    EXPECT_EQ(u.info.used_sparse_path, sparse);
    EXPECT_EQ(u.info.iterations, f.info.iterations);
    EXPECT_EQ(u.x, f.x) << (sparse ? "sparse" : "dense") << " path";
    EXPECT_EQ(u.z, f.z);
  }
}

TEST(QpTest, UpdateValuesWithAnotherPatternThrows) {
  testing::RandomProblems random(32);
  const DenseQp a = SparseContactLikeQp(random, 30, 20);
  const DenseQp other = SparseContactLikeQp(random, 30, 20);
  QpSolver solver;
  solver.Setup(a.ToSparse());
  EXPECT_FALSE(solver.SamePattern(other.ToSparse()));
  try {
    solver.UpdateValues(other.ToSparse());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("QpSolver::UpdateValues"), std::string::npos) << e.what();
  }
}

TEST(QpTest, SolveDoesNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  for (const bool sparse : {false, true}) {
    testing::RandomProblems random(33);
    const DenseQp a = SparseContactLikeQp(random, 80, 60);
    const QpProblem b = NewValuesSamePattern(random, a).ToSparse();
    QpSolver solver;
    solver.Setup(a.ToSparse(), ForcedPath(sparse));
    const QpResult first = solver.Solve();
    ASSERT_EQ(first.status, SolverStatus::kSolved);
    solver.UpdateValues(b);
    const QpWarmStart warm{first.x, first.z, {}};
    long allocations = 0;
    {
      testing::MallocCounter counter;
      solver.Solve();
      solver.Solve(warm);
      allocations = counter.count();
    }
    EXPECT_EQ(solver.result().status, SolverStatus::kSolved) << solver.result().message;
    EXPECT_EQ(allocations, 0) << (sparse ? "sparse" : "dense") << " path";
  }
}

}  // namespace
}  // namespace quasidyn
