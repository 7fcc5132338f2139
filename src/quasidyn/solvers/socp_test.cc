#include "quasidyn/solvers/socp.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/second_order_cone.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
namespace soc = second_order_cone;
using testing::DenseCone;
using testing::DenseConeProgram;
using testing::DenseQp;

// The solver on the sparse form of a dense test problem.
SocpResult SolveDense(const DenseConeProgram& p, const SocpSettings& settings = {}) {
  return Solve(p.ToSocp(), settings);
}

// A solver kept across calls: new values on the pattern it was set up for, else a new Setup.
const SocpResult& SolveWith(SocpSolver& solver, const DenseConeProgram& p,
                            const SocpSettings& settings) {
  const SocpProblem sparse = p.ToSocp();
  if (solver.SamePattern(sparse)) {
    solver.UpdateValues(sparse);
  } else {
    solver.Setup(sparse, settings);
  }
  return solver.Solve();
}

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// A random point strictly inside K of dimension m.
VectorXd InteriorPoint(testing::RandomProblems& random, int m) {
  VectorXd u = random.GaussianVector(m);
  u[0] = (m > 1 ? u.tail(m - 1).norm() : 0.0) + random.Uniform(0.1, 2.0);
  return u;
}

TEST(SecondOrderConeTest, NesterovToddScalingMapsZToSameAsInverseOfS) {
  testing::RandomProblems random(1);
  for (int m : {1, 2, 3, 6}) {
    const VectorXd s = InteriorPoint(random, m), z = InteriorPoint(random, m);
    MatrixXd W(m, m), W_inverse(m, m);
    soc::NesterovToddScaling(s, z, W, W_inverse);
    const double scale = 1 + s.norm() + z.norm();
    EXPECT_LE(((W * z) - (W_inverse * s)).norm(), 1e3 * kEpsilon * scale) << "m=" << m;
    EXPECT_LE((W * W_inverse - MatrixXd::Identity(m, m)).norm(), 1e3 * kEpsilon * scale);
    EXPECT_LE((W - W.transpose()).norm(), 1e3 * kEpsilon * scale);
    EXPECT_GT(soc::InteriorMargin(W * z), 0.0);  // λ is inside K
  }
}

TEST(SecondOrderConeTest, JordanDivideInvertsJordanProduct) {
  testing::RandomProblems random(2);
  for (int m : {1, 4}) {
    const VectorXd lambda = InteriorPoint(random, m), r = random.GaussianVector(m);
    VectorXd u(m), back(m);
    soc::JordanDivide(lambda, r, u);
    soc::JordanProduct(lambda, u, back);
    EXPECT_LE((back - r).norm(), 1e3 * kEpsilon * (1 + r.norm()));
  }
}

TEST(SecondOrderConeTest, MaxStepLandsOnBoundary) {
  testing::RandomProblems random(3);
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd u = InteriorPoint(random, 4), du = random.GaussianVector(4);
    const double alpha = soc::MaxStepToBoundary(u, du);
    if (std::isinf(alpha)) {
      EXPECT_GT(soc::InteriorMargin(u + 1e6 * du), -1e-6);
      continue;
    }
    EXPECT_NEAR(soc::InteriorMargin(u + alpha * du), 0.0, 1e-9 * (1 + u.norm() + du.norm()));
    EXPECT_GT(soc::InteriorMargin(u + 0.99 * alpha * du), 0.0);
  }
}

DenseConeProgram RandomSocp(testing::RandomProblems& random, int n, int cones, int linear,
                            int rank) {
  DenseConeProgram p;
  p.Q = random.PsdMatrix(n, rank);
  p.c = random.GaussianVector(n);
  const VectorXd x_feasible = random.UniformVector(n, -1, 1);
  for (int k = 0; k < cones; ++k) {
    const int m = 1 + k % 4;
    DenseCone cone{random.Gaussian(m, n), VectorXd()};
    cone.b = InteriorPoint(random, m) - cone.A * x_feasible;
    p.cones.push_back(cone);
  }
  // A ball ‖x‖ <= 10 keeps the problem bounded when Q is singular.
  DenseCone ball{MatrixXd::Zero(n + 1, n), VectorXd::Zero(n + 1)};
  ball.A.bottomRows(n) = MatrixXd::Identity(n, n);
  ball.b[0] = 10.0;
  p.cones.push_back(ball);
  p.G = random.Gaussian(linear, n);
  p.h = p.G * x_feasible - random.UniformVector(linear, 0.1, 1.0);
  return p;
}

// KKT residuals computed here from the problem data.
void ExpectKkt(const DenseConeProgram& p, const SocpResult& r, const SocpSettings& s) {
  const double tol = 10 * (s.absolute_tolerance + s.relative_tolerance);
  VectorXd stationarity = p.Q * r.x + p.c;
  if (p.G.rows() > 0) stationarity -= p.G.transpose() * r.linear_duals;
  double scale = 1 + p.c.lpNorm<Eigen::Infinity>() + (p.Q * r.x).lpNorm<Eigen::Infinity>();
  double complementarity = 0;
  ASSERT_EQ(r.cone_offset.size(), p.cones.size());
  for (size_t k = 0; k < p.cones.size(); ++k) {
    const VectorXd u = p.cones[k].A * r.x + p.cones[k].b;
    const VectorXd z = r.ConeDual(static_cast<int>(k));
    stationarity -= p.cones[k].A.transpose() * z;
    scale = std::max(scale, (p.cones[k].A.transpose() * z).lpNorm<Eigen::Infinity>());
    EXPECT_GE(soc::InteriorMargin(u), -tol * (1 + u.norm())) << "primal cone " << k;
    EXPECT_GE(soc::InteriorMargin(z), -tol * (1 + z.norm())) << "dual cone " << k;
    complementarity += std::abs(u.dot(z));
  }
  if (p.G.rows() > 0) {
    const VectorXd slack = p.G * r.x - p.h;
    EXPECT_GE(slack.minCoeff(), -tol * (1 + p.h.lpNorm<Eigen::Infinity>()));
    EXPECT_GE(r.linear_duals.minCoeff(), -tol * scale);
    complementarity += slack.cwiseProduct(r.linear_duals).cwiseAbs().sum();
  }
  EXPECT_LE(stationarity.lpNorm<Eigen::Infinity>(), tol * scale);
  EXPECT_LE(complementarity, tol * std::max(1.0, std::abs(r.objective)));
}

TEST(SocpTest, ProjectionOntoUnitDiskIsClosedForm) {
  // min ½‖x − (3, 4)‖² s.t. ‖x‖ <= 1: x* = (3, 4)/5, dual z* = (|p| − 1)·(1, −x*) = 4(1, −x*).
  DenseConeProgram p{MatrixXd::Identity(2, 2), VectorXd(2), {}, MatrixXd(0, 2), VectorXd(0)};
  p.c << -3, -4;
  DenseCone disk{MatrixXd::Zero(3, 2), VectorXd::Zero(3)};
  disk.A.bottomRows(2) = MatrixXd::Identity(2, 2);
  disk.b[0] = 1.0;
  p.cones.push_back(disk);
  const SocpSettings settings;
  const SocpResult r = SolveDense(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  const double tol = 10 * (settings.absolute_tolerance + settings.relative_tolerance) * 5;
  EXPECT_NEAR(r.x[0], 0.6, tol);
  EXPECT_NEAR(r.x[1], 0.8, tol);
  EXPECT_NEAR(r.ConeDual(0)[0], 4.0, tol);
  EXPECT_NEAR(r.ConeDual(0)[1], -2.4, tol);
  EXPECT_NEAR(r.ConeDual(0)[2], -3.2, tol);
}

TEST(SocpTest, RandomProblemsSatisfyKkt) {
  const SocpSettings settings;
  for (const auto& [n, cones, linear] : {std::tuple{2, 2, 1}, {8, 6, 4}, {20, 15, 10}}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      for (int rank : {n, n / 2}) {
        testing::RandomProblems random(seed * 31 + n + rank);
        const DenseConeProgram p = RandomSocp(random, n, cones, linear, rank);
        const SocpResult r = SolveDense(p, settings);
        ASSERT_EQ(r.status, SolverStatus::kSolved)
            << "n=" << n << " seed=" << seed << " rank=" << rank << ": " << r.message;
        ExpectKkt(p, r, settings);
      }
    }
  }
}

TEST(SocpTest, AgreesWithQpWhenConesAreLinear) {
  for (unsigned seed = 0; seed < 5; ++seed) {
    testing::RandomProblems random(seed + 90);
    const int n = 10, m = 15;
    DenseQp qp;
    qp.Q = random.PsdMatrix(n, n) + MatrixXd::Identity(n, n);
    qp.c = random.GaussianVector(n);
    qp.G = random.Gaussian(m, n);
    qp.h = qp.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.1, 1.0);
    const QpResult qp_result = Solve(qp.ToSparse());
    ASSERT_EQ(qp_result.status, SolverStatus::kSolved);
    // Same rows as dimension-1 cones G_i x − h_i ∈ R+, and as linear rows.
    DenseConeProgram as_cones{qp.Q, qp.c, {}, MatrixXd(0, n), VectorXd(0)};
    for (int i = 0; i < m; ++i) {
      as_cones.cones.push_back({qp.G.row(i), VectorXd::Constant(1, -qp.h[i])});
    }
    const DenseConeProgram as_rows{qp.Q, qp.c, {}, qp.G, qp.h};
    for (const DenseConeProgram& p : {as_cones, as_rows}) {
      const SocpResult r = SolveDense(p);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      // Q is positive definite (minimum eigenvalue >= 1), so |x_qp − x_socp| is bounded by
      // the solvers' residuals; both are at 1e-9 relative.
      EXPECT_LE((r.x - qp_result.x).lpNorm<Eigen::Infinity>(), 1e-6);
    }
  }
}

TEST(SocpTest, InfeasibleProblemIsReported) {
  // ‖x‖ <= 1 and x0 >= 2.
  DenseConeProgram p{MatrixXd::Identity(2, 2), VectorXd::Zero(2), {}, MatrixXd(1, 2), VectorXd(1)};
  DenseCone disk{MatrixXd::Zero(3, 2), VectorXd::Zero(3)};
  disk.A.bottomRows(2) = MatrixXd::Identity(2, 2);
  disk.b[0] = 1.0;
  p.cones.push_back(disk);
  p.G << 1, 0;
  p.h << 2;
  const SocpSettings settings;
  const SocpResult r = SolveDense(p, settings);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible) << r.message;
  EXPECT_LT(r.info.iterations, settings.max_iterations);
  EXPECT_NE(r.message.find("most violated"), std::string::npos) << r.message;
}

TEST(SecondOrderConeTest, MaxStepThroughTheApex) {
  // du = −r·u passes through the apex at α = 1/r exactly; the quadratic's double root can
  // come out with a negative discriminant in floating point, which must not read as "never
  // leaves the cone" (that let the SOCP step into −K and produce NaN).
  testing::RandomProblems random(21);
  for (int trial = 0; trial < 200; ++trial) {
    const int m = 2 + trial % 3;
    const VectorXd u = InteriorPoint(random, m);
    const double rate = random.Uniform(0.5, 3.0);
    const double alpha = soc::MaxStepToBoundary(u, -rate * u);
    // Never past the apex (the head bound u0/(r·u0) is exact to rounding); a double root is
    // only determined to O(sqrt(ε)) relative, so it may stop that much short of it.
    EXPECT_LE(alpha, (1 + 4 * kEpsilon) / rate) << "trial " << trial;
    EXPECT_GE(alpha, (1 - 10 * std::sqrt(kEpsilon)) / rate) << "trial " << trial;
  }
  // A half-line (m = 1) and the pure head bound.
  EXPECT_DOUBLE_EQ(soc::MaxStepToBoundary(VectorXd::Constant(1, 2.0), VectorXd::Constant(1, -4.0)),
                   0.5);
}

TEST(SocpTest, ConeSlacksReachingTheApexStillSolve) {
  // Planar-gripper SOCP step 12: three 2-dimensional friction cones whose slacks tend to the
  // apex (cone 0) or the boundary at tiny magnitude; a step through the apex of cone 0 must
  // not end in a non-finite iterate.
  DenseConeProgram p;
  p.Q = (VectorXd(6) << 1.019368, 1.019368, 0.0040775, 0.1, 0.1, 0.1).finished().asDiagonal();
  p.c = (VectorXd(6) << 0, 0.1, 0, 0.10000053, -0.10000000034, 0.10000000034).finished();
  const auto cone = [](const std::vector<double>& t_row, const std::vector<double>& z_row,
                       double t_offset) {
    DenseCone c{MatrixXd(2, 6), VectorXd::Zero(2)};
    for (int j = 0; j < 6; ++j) {
      c.A(0, j) = t_row[j];
      c.A(1, j) = z_row[j];
    }
    c.b[0] = t_offset;
    return c;
  };
  p.cones.push_back(cone({0, 1, 0, 0, 0, 0}, {-0.5, 0, -0.05, 0, 0, 0}, 7.48e-11));
  p.cones.push_back(cone({1, 0, 0, 0, -1, 0}, {0, 0.5, -0.05, -0.5, 0, 0}, 3.38e-9));
  p.cones.push_back(cone({-1, 0, 0, 0, 0, 1}, {0, -0.5, -0.05, 0.5, 0, 0}, 3.38e-9));
  const SocpSettings settings;
  const SocpResult r = SolveDense(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  ASSERT_TRUE(r.x.allFinite());
  ExpectKkt(p, r, settings);
}

SocpSettings DensePath() {
  SocpSettings settings;
  settings.sparse_min_variables = std::numeric_limits<int>::max();
  return settings;
}

SocpSettings SparsePath() {
  SocpSettings settings;
  settings.sparse_min_variables = 0;
  settings.sparse_max_density = 1.0;
  return settings;
}

TEST(SocpTest, SparsePathSatisfiesKktOnRandomProblems) {
  // The random problems of RandomProblemsSatisfyKkt (dense data, singular Q included) forced
  // through the sparse path: same KKT residual checks.
  const SocpSettings settings = SparsePath();
  for (const auto& [n, cones, linear] : {std::tuple{8, 6, 4}, {20, 15, 10}}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      for (int rank : {n, n / 2}) {
        testing::RandomProblems random(seed * 31 + n + rank);
        const DenseConeProgram p = RandomSocp(random, n, cones, linear, rank);
        const SocpResult r = SolveDense(p, settings);
        ASSERT_TRUE(r.info.used_sparse_path);
        ASSERT_EQ(r.status, SolverStatus::kSolved)
            << "n=" << n << " seed=" << seed << " rank=" << rank << ": " << r.message;
        ExpectKkt(p, r, settings);
      }
    }
  }
}

TEST(SocpTest, SparseAndDensePathsAgreeOnContactProblems) {
  // Contact-like problems (block-diagonal Q >= 0.1·I, cones touching one or two bodies), with
  // and without a few linear rows. Q is positive definite, so both paths approximate the same
  // unique x*; each stops at 1e-9 relative residuals, so they agree to about 1e-6 (as in
  // AgreesWithQpWhenConesAreLinear).
  SocpSolver sparse_solver, dense_solver;  // reused: the second solve reuses the pattern
  for (unsigned seed = 0; seed < 4; ++seed) {
    DenseConeProgram p = testing::ContactChainSocp(seed + 200, 10, 5);
    if (seed % 2 == 1) {  // plus linear rows touching one body each: x_j >= −1
      p.G = MatrixXd::Zero(3, p.Q.rows());
      for (int i = 0; i < 3; ++i) p.G(i, 6 * i) = 1.0;
      p.h = VectorXd::Constant(3, -1.0);
    }
    for (int pass = 0; pass < 2; ++pass) {
      const SocpResult sparse = SolveWith(sparse_solver, p, SparsePath());
      const SocpResult dense = SolveWith(dense_solver, p, DensePath());
      ASSERT_TRUE(sparse.info.used_sparse_path);
      ASSERT_FALSE(dense.info.used_sparse_path);
      ASSERT_EQ(sparse.status, SolverStatus::kSolved) << sparse.message;
      ASSERT_EQ(dense.status, SolverStatus::kSolved) << dense.message;
      ExpectKkt(p, sparse, SparsePath());
      EXPECT_LE((sparse.x - dense.x).lpNorm<Eigen::Infinity>(), 1e-6) << "seed " << seed;
      for (size_t k = 0; k < p.cones.size(); ++k) {
        EXPECT_LE((sparse.ConeDual(static_cast<int>(k)) - dense.ConeDual(static_cast<int>(k)))
                      .lpNorm<Eigen::Infinity>(),
                  1e-6 * (1 + dense.ConeDual(static_cast<int>(k)).norm()))
            << "seed " << seed << " cone " << k;
      }
    }
  }
}

TEST(SocpTest, DefaultSettingsPickTheSparsePathForLargeSparseProblems) {
  const DenseConeProgram large = testing::ContactChainSocp(7, 10, 5);  // n = 60, sparse
  EXPECT_TRUE(SolveDense(large).info.used_sparse_path);
  const DenseConeProgram small = testing::ContactChainSocp(7, 2, 3);  // n = 12
  EXPECT_FALSE(SolveDense(small).info.used_sparse_path);
}

TEST(SocpTest, BadInputThrowsNamingTheField) {
  const auto expect_message = [](const SocpProblem& p, const SocpSettings& settings,
                                 const std::string& expected) {
    try {
      Solve(p, settings);
      ADD_FAILURE() << "expected std::invalid_argument with \"" << expected << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  const SocpProblem good = testing::ContactChainSocp(3, 2, 2).ToSocp();
  ASSERT_EQ(Solve(good).status, SolverStatus::kSolved);
  SocpProblem p = good;
  p.cone_dims.back() += 1;
  expect_message(p, {}, "the cone sizes sum to");
  p = good;
  p.cone_dims[0] = 0;
  expect_message(p, {}, "cone_dims[0] = 0");
  p = good;
  p.A = SparseRowMatrix::FromDense(MatrixXd::Zero(good.A.rows(), good.A.cols() + 1));
  expect_message(p, {}, "A is");
  p = good;
  p.b[1] = std::numeric_limits<double>::infinity();
  expect_message(p, {}, "b[1] is not finite");
  SocpSettings settings;
  settings.step_to_boundary = 1.0;
  expect_message(good, settings, "step_to_boundary");
  settings = SocpSettings();
  settings.warm_start_min_margin = 0.0;
  expect_message(good, settings, "warm_start_min_margin");
  SocpSolver solver;
  solver.Setup(good);
  SocpWarmStart start{VectorXd::Zero(good.Q.rows() + 1), VectorXd()};
  EXPECT_THROW(solver.Solve(start), std::invalid_argument);
  start.x = VectorXd::Zero(good.Q.rows());
  start.z = VectorXd::Ones(good.A.rows() + good.G.rows() + 1);
  EXPECT_THROW(solver.Solve(start), std::invalid_argument);
  start.z = VectorXd::Ones(good.A.rows() + good.G.rows());
  start.z[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(solver.Solve(start), std::invalid_argument);
  SocpSolver never_set_up;
  EXPECT_THROW(never_set_up.Solve(), std::invalid_argument);
}

// The same pattern with other values: the cone rows rescaled, new cost and offsets.
DenseConeProgram NewValuesSamePattern(testing::RandomProblems& random, DenseConeProgram p) {
  for (DenseCone& cone : p.cones) {
    for (Eigen::Index i = 0; i < cone.A.size(); ++i) cone.A.data()[i] *= random.Uniform(0.5, 1.5);
    cone.b[0] = random.Uniform(1e-3, 1e-1);
  }
  p.c = random.GaussianVector(p.n());
  return p;
}

SocpSettings SocpForcedPath(bool sparse) { return sparse ? SparsePath() : DensePath(); }

TEST(SocpTest, UpdateValuesGivesTheBitsOfAFreshSetup) {
  for (const bool sparse : {false, true}) {
    testing::RandomProblems random(41);
    const DenseConeProgram a = testing::ContactChainSocp(41, 6, 3);
    const DenseConeProgram b = NewValuesSamePattern(random, a);
    SocpSolver updated, fresh;
    updated.Setup(a.ToSocp(), SocpForcedPath(sparse));
    ASSERT_EQ(updated.Solve().status, SolverStatus::kSolved);
    ASSERT_TRUE(updated.SamePattern(b.ToSocp()));
    updated.UpdateValues(b.ToSocp());
    fresh.Setup(b.ToSocp(), SocpForcedPath(sparse));
    const SocpResult& u = updated.Solve();
    const SocpResult& f = fresh.Solve();
    ASSERT_EQ(u.status, SolverStatus::kSolved) << u.message;
    EXPECT_EQ(u.info.used_sparse_path, sparse);
    EXPECT_EQ(u.info.iterations, f.info.iterations);
    EXPECT_EQ(u.x, f.x) << (sparse ? "sparse" : "dense") << " path";
    EXPECT_EQ(u.cone_duals, f.cone_duals);
  }
  SocpSolver solver;
  solver.Setup(testing::ContactChainSocp(1, 3, 2).ToSocp());
  EXPECT_THROW(solver.UpdateValues(testing::ContactChainSocp(1, 3, 3).ToSocp()),
               std::invalid_argument);
}

TEST(SocpTest, SolveDoesNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  for (const bool sparse : {false, true}) {
    testing::RandomProblems random(42);
    const DenseConeProgram a = testing::ContactChainSocp(42, 8, 4);
    const SocpProblem b = NewValuesSamePattern(random, a).ToSocp();
    SocpSolver solver;
    solver.Setup(a.ToSocp(), SocpForcedPath(sparse));
    ASSERT_EQ(solver.Solve().status, SolverStatus::kSolved);
    solver.UpdateValues(b);
    long allocations = 0;
    {
      testing::MallocCounter counter;
      solver.Solve();
      allocations = counter.count();
    }
    EXPECT_EQ(solver.result().status, SolverStatus::kSolved) << solver.result().message;
    EXPECT_EQ(allocations, 0) << (sparse ? "sparse" : "dense") << " path";
  }
}

// A warm start from the answer of a nearby problem (the next step's: cost and cone rows moved by
// about 1 %, the cones' offsets b_k kept), whose duals sit on the cones' boundaries or at
// exact zeros after the polish: the solver shifts them into the cones' interiors, stops with
// the cold solve's KKT residuals in fewer iterations, and does not allocate. The cost is
// strongly convex with modulus λ_min(Q) (>= 0.1 here), so an answer whose objective is within
// δ of the minimum lies within sqrt(2δ/λ_min) of the minimiser; δ is bounded by the gap test's
// tolerance ε_gap = ε_abs + ε_rel · max(1, |f|), times 10 for the residual terms (as
// ExpectKkt), and the two answers lie within twice that of each other.
// Contacts that come and go along a rollout change the problem's row count from step to step:
// a Setup on a row count the solver met before finds its buffers' storage kept (its pool) and
// allocates nothing, on both paths, Solve included.
TEST(SocpTest, ASetupOnARowCountMetBeforeAllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  for (const bool sparse : {false, true}) {
    const SocpProblem four = testing::ContactChainSocp(42, 8, 4).ToSocp();
    const SocpProblem three = testing::ContactChainSocp(42, 8, 3).ToSocp();
    ASSERT_NE(four.A.rows(), three.A.rows());
    SocpSolver solver;
    for (const SocpProblem* p : {&four, &three, &four}) {  // each row count met once
      solver.Setup(*p, SocpForcedPath(sparse));
      ASSERT_EQ(solver.Solve().status, SolverStatus::kSolved);
    }
    for (const SocpProblem* p : {&three, &four}) {
      long allocations = 0;
      {
        testing::MallocCounter counter;
        solver.Setup(*p, SocpForcedPath(sparse));
        solver.Solve();
        allocations = counter.count();
      }
      EXPECT_EQ(solver.result().status, SolverStatus::kSolved) << solver.result().message;
      EXPECT_EQ(allocations, 0) << (sparse ? "sparse" : "dense") << " path, " << p->A.rows()
                                << " cone rows";
    }
  }
}

TEST(SocpTest, WarmStartFromANearbyAnswerAgreesWithTheColdSolveInFewerIterations) {
  for (const bool sparse : {false, true}) {
    const SocpSettings settings = SocpForcedPath(sparse);
    int warm_iterations = 0, cold_iterations = 0;
    for (unsigned seed = 0; seed < 4; ++seed) {
      testing::RandomProblems random(seed + 60);
      const DenseConeProgram a = testing::ContactChainSocp(seed + 60, 8, 4);
      DenseConeProgram b = a;
      for (DenseCone& cone : b.cones) {
        for (Eigen::Index i = 0; i < cone.A.size(); ++i)
          cone.A.data()[i] *= random.Uniform(0.99, 1.01);
      }
      b.c += 0.01 * a.c.lpNorm<Eigen::Infinity>() * random.GaussianVector(a.n());
      SocpSolver solver;
      solver.Setup(a.ToSocp(), settings);
      const SocpResult first = solver.Solve();
      ASSERT_EQ(first.status, SolverStatus::kSolved) << first.message;
      SocpWarmStart start{first.x, VectorXd(first.linear_duals.size() + first.cone_duals.size())};
      start.z << first.linear_duals, first.cone_duals;
      solver.UpdateValues(b.ToSocp());
      const SocpResult cold = solver.Solve();
      long allocations = 0;
      {
        testing::MallocCounter counter;
        solver.Solve(start);
        allocations = counter.count();
      }
      const SocpResult& warm = solver.result();
      ASSERT_EQ(warm.status, SolverStatus::kSolved) << warm.message;
      ASSERT_EQ(cold.status, SolverStatus::kSolved) << cold.message;
      ExpectKkt(b, warm, settings);
      const double lambda_min = Eigen::SelfAdjointEigenSolver<MatrixXd>(b.Q).eigenvalues()(0);
      const double gap_tolerance =
          10 * (settings.absolute_tolerance +
                settings.relative_tolerance * std::max(1.0, std::abs(cold.objective)));
      EXPECT_LE((warm.x - cold.x).norm(), 2 * std::sqrt(2 * gap_tolerance / lambda_min))
          << "seed " << seed;
      if (testing::MallocCountingAvailable()) {
        EXPECT_EQ(allocations, 0);
      }
      warm_iterations += warm.info.iterations;
      cold_iterations += cold.info.iterations;
    }
    EXPECT_LT(warm_iterations, cold_iterations) << (sparse ? "sparse" : "dense") << " path";
  }
}

}  // namespace
}  // namespace quasidyn
