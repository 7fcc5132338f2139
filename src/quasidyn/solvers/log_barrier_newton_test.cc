#include "quasidyn/solvers/log_barrier_newton.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "quasidyn/solvers/contact_like_problems_for_tests.h"
#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/random_problems_for_tests.h"
#include "quasidyn/solvers/socp.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

struct RandomContactLikeProblem {
  QpProblem qp;
  LogBarrierProblem barrier;
};

// Random strictly feasible linear constraints, Q positive definite (minimum eigenvalue >= 1).
RandomContactLikeProblem RandomLinear(unsigned seed, int n, int m) {
  testing::RandomProblems random(seed);
  RandomContactLikeProblem r;
  r.qp.Q = random.PsdMatrix(n, n) + MatrixXd::Identity(n, n);
  r.qp.c = random.GaussianVector(n);
  r.qp.G = random.Gaussian(m, n);
  r.qp.h = r.qp.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.1, 1.0);
  r.barrier.Q = r.qp.Q;
  r.barrier.b = r.qp.c;
  r.barrier.G = r.qp.G;
  r.barrier.h = -r.qp.h;  // G x − h_qp > 0
  return r;
}

TEST(LogBarrierTest, ScalarClosedForm) {
  // min ½x² − (1/κ) log x: x − 1/(κx) = 0 ⇒ x* = 1/sqrt(κ).
  LogBarrierProblem p{MatrixXd::Identity(1, 1),
                      VectorXd::Zero(1),
                      MatrixXd::Ones(1, 1),
                      VectorXd::Zero(1),
                      {},
                      16.0};
  const LogBarrierResult r = Solve(p, {}, VectorXd::Constant(1, 3.0));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_NEAR(r.x[0], 0.25, 1e-12);
  // Hessian 1 + 1/(κx²) = 2 at the solution.
  EXPECT_NEAR(r.SolveWithHessian(VectorXd::Ones(1))[0], 0.5, 1e-12);
}

TEST(LogBarrierTest, ApproachesQpSolutionLikeOneOverKappa) {
  for (unsigned seed = 0; seed < 3; ++seed) {
    RandomContactLikeProblem problem = RandomLinear(seed + 40, 6, 10);
    QpSettings qp_settings;
    qp_settings.absolute_tolerance = qp_settings.relative_tolerance = 1e-12;
    const QpResult qp = Solve(problem.qp, qp_settings);
    ASSERT_EQ(qp.status, SolverStatus::kSolved);
    double previous = 0;
    for (double kappa : {1e3, 1e4, 1e5, 1e6}) {
      problem.barrier.kappa = kappa;
      const LogBarrierResult r = Solve(problem.barrier);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      const double distance = (r.x - qp.x).norm();
      if (previous > 0) {
        // O(1/κ): ten times larger κ shrinks the distance about tenfold (allow 5–20×).
        EXPECT_LT(distance, previous / 5) << "kappa=" << kappa;
        EXPECT_GT(distance, previous / 20) << "kappa=" << kappa;
      }
      previous = distance;
    }
  }
}

TEST(LogBarrierTest, ApproachesSocpSolution) {
  // min ½‖x − (3, 4)‖² with barrier of ‖x‖ <= 1: x(κ) → (0.6, 0.8).
  SecondOrderConeConstraint disk{MatrixXd::Zero(3, 2), VectorXd::Zero(3)};
  disk.A.bottomRows(2) = MatrixXd::Identity(2, 2);
  disk.b[0] = 1.0;
  LogBarrierProblem p{
      MatrixXd::Identity(2, 2), VectorXd(2), MatrixXd(0, 2), VectorXd(0), {disk}, 1.0};
  p.b << -3, -4;
  const VectorXd expected = (VectorXd(2) << 0.6, 0.8).finished();
  double previous = 0;
  for (double kappa : {1e2, 1e3, 1e4, 1e5}) {
    p.kappa = kappa;
    const LogBarrierResult r = Solve(p);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    const double distance = (r.x - expected).norm();
    if (previous > 0) {
      EXPECT_LT(distance, previous / 5);
      EXPECT_GT(distance, previous / 20);
    }
    previous = distance;
  }
}

TEST(LogBarrierTest, HessianGivesDerivativeOfSolutionWithRespectToB) {
  // ∂x*/∂b = −H⁻¹, checked against central finite differences (step 1e-5: truncation O(1e-10),
  // Newton solves to O(λ²) ≈ 1e-14).
  RandomContactLikeProblem problem = RandomLinear(77, 5, 8);
  SecondOrderConeConstraint cone{MatrixXd::Zero(3, 5), VectorXd::Zero(3)};
  cone.A.bottomRows(2) = MatrixXd::Identity(2, 5);
  cone.b[0] = 5.0;
  problem.barrier.cones.push_back(cone);
  problem.barrier.kappa = 50;
  const LogBarrierResult base = Solve(problem.barrier);
  ASSERT_EQ(base.status, SolverStatus::kSolved) << base.message;
  const double step = 1e-5;
  for (int j = 0; j < 5; ++j) {
    LogBarrierProblem plus = problem.barrier, minus = problem.barrier;
    plus.b[j] += step;
    minus.b[j] -= step;
    const VectorXd fd = (Solve(plus, {}, base.x).x - Solve(minus, {}, base.x).x) / (2 * step);
    const VectorXd analytic = -base.SolveWithHessian(VectorXd::Unit(5, j));
    EXPECT_LE((fd - analytic).lpNorm<Eigen::Infinity>(), 1e-6 * (1 + analytic.norm()))
        << "column " << j;
  }
}

TEST(LogBarrierTest, PhaseOneFindsStrictlyFeasibleStart) {
  // The first seed whose rows exclude x = 0 (the solver tries x = 0 as a start candidate), and
  // a clearly infeasible start too.
  unsigned seed = 5;
  while (RandomLinear(seed, 4, 6).barrier.h.minCoeff() > 0) ++seed;
  RandomContactLikeProblem problem = RandomLinear(seed, 4, 6);
  problem.barrier.kappa = 1e3;
  const LogBarrierResult r = Solve(problem.barrier, {}, VectorXd::Constant(4, 100.0));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_TRUE(r.used_phase_one);
  EXPECT_GT((problem.barrier.G * r.x + problem.barrier.h).minCoeff(), 0.0);
}

TEST(LogBarrierTest, InfeasibleBarriersAreReported) {
  // x − 1 > 0 and −x > 0.
  LogBarrierProblem p{
      MatrixXd::Identity(1, 1), VectorXd::Zero(1), MatrixXd(2, 1), VectorXd(2), {}, 10.0};
  p.G << 1, -1;
  p.h << -1, 0;
  const LogBarrierResult r = Solve(p);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible);
  EXPECT_NE(r.message.find("linear barrier row"), std::string::npos) << r.message;
}

TEST(LogBarrierTest, ContinuationRescuesLargeKappa) {
  RandomContactLikeProblem problem = RandomLinear(9, 6, 10);
  problem.barrier.kappa = 1e8;
  const LogBarrierResult direct = Solve(problem.barrier);  // plenty of iterations
  ASSERT_EQ(direct.status, SolverStatus::kSolved);
  ASSERT_FALSE(direct.used_continuation);
  // Half the Newton steps the direct solve needed: the direct attempt must fail, and the
  // κ-continuation (each stage starting near its minimiser) must still converge.
  LogBarrierSettings settings;
  settings.max_newton_iterations = direct.info.iterations / 2;
  const LogBarrierResult r = Solve(problem.barrier, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_TRUE(r.used_continuation);
  // Both minimise the same strictly convex f; Newton stops at O(λ²) accuracy.
  EXPECT_LE((r.x - direct.x).lpNorm<Eigen::Infinity>(), 1e-9);
}

TEST(LogBarrierTest, BadInputThrows) {
  LogBarrierProblem p{
      MatrixXd::Identity(1, 1), VectorXd::Zero(1), MatrixXd(0, 1), VectorXd(0), {}, -1.0};
  EXPECT_THROW(Solve(p), std::invalid_argument);
}

// A box resting on the ground at four corners with φ ≈ 1e-11 m, the state where the arm
// grasp step failed (regression): pyramid rows (J_n + μ J_d,j) v + φ/h > 0 with φ/h ≈ 1e-9
// m/s at v = 0, so x = 0 is strictly feasible but the barrier terms 1/(κ s²) ≈ 1e16 swamp Q
// and a plain Cholesky of the Hessian fails. Planar-free 3D box: v = (v_x, v_y, v_z, ω_x,
// ω_y, ω_z), corners at (±a, ±a, −a), normal +z, four friction rays ±x, ±y.
LogBarrierProblem BoxOnGroundBarrier() {
  const double a = 0.05, mu = 0.5, phi_over_h = 1e-9;
  LogBarrierProblem p;
  p.Q = VectorXd((VectorXd(6) << 1, 1, 1, 1e-3, 1e-3, 1e-3).finished()).asDiagonal();
  p.b = (VectorXd(6) << 0.0, 0.0, 0.0981, 0.0, 0.0, 0.0).finished();  // gravity · h, pushes down
  p.G.resize(16, 6);
  p.h = VectorXd::Constant(16, phi_over_h);
  int row = 0;
  for (const double x : {-a, a}) {
    for (const double y : {-a, a}) {
      const Eigen::Vector3d r(x, y, -a);
      // Point velocity v + ω × r; row for direction d is [dᵀ, (r × d)ᵀ].
      const auto jacobian_row = [&](const Eigen::Vector3d& d) {
        Eigen::Matrix<double, 1, 6> j;
        j << d.transpose(), r.cross(d).transpose();
        return j;
      };
      const auto normal = jacobian_row(Eigen::Vector3d::UnitZ());
      for (const Eigen::Vector3d& d : {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 0, 0),
                                       Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, -1, 0)}) {
        p.G.row(row++) = normal + mu * jacobian_row(d);
      }
    }
  }
  p.kappa = 100.0;
  return p;
}

// ∇f = Qx + b − (1/κ) Gᵀ (1 / (G x + h)), from the problem data.
VectorXd BarrierGradient(const LogBarrierProblem& p, const VectorXd& x) {
  const VectorXd slack = p.G * x + p.h;
  return p.Q * x + p.b - p.G.transpose() * slack.cwiseInverse() / p.kappa;
}

TEST(LogBarrierTest, NearZeroBarrierArgumentsAtTheStart) {
  const LogBarrierProblem p = BoxOnGroundBarrier();
  // Both ways must reach the same minimiser: from the badly scaled start x = 0 (no re-centring,
  // so the shifted Hessian factorisation is exercised) and from the phase-1 point (default).
  LogBarrierSettings from_zero;
  from_zero.centring_margin = 0;
  const LogBarrierResult direct = Solve(p, from_zero);
  const LogBarrierResult centred = Solve(p);
  ASSERT_EQ(direct.status, SolverStatus::kSolved) << direct.message;
  ASSERT_EQ(centred.status, SolverStatus::kSolved) << centred.message;
  EXPECT_TRUE(centred.used_phase_one);
  for (const LogBarrierResult* r : {&direct, &centred}) {
    EXPECT_GT((p.G * r->x + p.h).minCoeff(), 0);
    // Stationarity relative to the gradient's terms (b, of size 0.1): the stop rule
    // λ²/2 <= 1e-14 bounds ‖∇f‖ by about sqrt(2e-14 · ‖H‖) ≈ 1e-5 in the worst case.
    EXPECT_LE(BarrierGradient(p, r->x).lpNorm<Eigen::Infinity>(), 1e-6 * p.b.norm());
  }
  // Strictly convex f: the minimisers agree; |Δx| <= sqrt(2 λ²/2 / λ_min(Q)) with Q >= 1e-3.
  EXPECT_LE((direct.x - centred.x).lpNorm<Eigen::Infinity>(), std::sqrt(2e-14 / 1e-3));
  // Closed form by symmetry: v = (0, 0, v_z, 0, 0, 0), all 16 arguments s = v_z + φ/h, and
  // the z row of ∇f = 0 reads v_z + b_z − 16/(κ s) = 0, i.e. s² + (b_z − φ/h) s − 16/κ = 0.
  const double b_z = p.b[2], phi_over_h = p.h[0];
  const double s = 0.5 * (-(b_z - phi_over_h) +
                          std::sqrt((b_z - phi_over_h) * (b_z - phi_over_h) + 64.0 / p.kappa));
  VectorXd expected = VectorXd::Zero(6);
  expected[2] = s - phi_over_h;
  EXPECT_LE((centred.x - expected).lpNorm<Eigen::Infinity>(), std::sqrt(2e-14 / 1e-3));
}

// The log-barrier pyramid problem of examples/arm_cubes at the grasp state (t = 2 s, QP
// rollout), restricted to the 32 pyramid rows whose arguments are ≈ 1.2e-9 m/s at x = 0
// (testdata/arm_grasp_log_barrier.txt). Plain Cholesky of its Hessian at x = 0 fails.
LogBarrierProblem ArmGraspBarrier() {
  std::ifstream file(QUASIDYN_SOURCE_DIR
                     "/src/quasidyn/solvers/testdata/arm_grasp_log_barrier.txt");
  if (!file) throw std::runtime_error("cannot open testdata/arm_grasp_log_barrier.txt");
  std::string line;
  while (file.peek() == '#') std::getline(file, line);
  int n = 0, m = 0;
  file >> n >> m;
  LogBarrierProblem p;
  p.Q = MatrixXd::Zero(n, n);
  p.b.resize(n);
  p.G = MatrixXd::Zero(m, n);
  p.h.resize(m);
  for (int i = 0; i < n; ++i) file >> p.Q(i, i);
  for (int i = 0; i < n; ++i) file >> p.b[i];
  for (int i = 0; i < m; ++i) file >> p.h[i];
  for (int row, col; file >> row >> col && row >= 0;) file >> p.G(row, col);
  if (!file) throw std::runtime_error("malformed testdata/arm_grasp_log_barrier.txt");
  p.kappa = 100.0;
  return p;
}

// Hessian of f at x, from the problem data: Q + (1/κ) Gᵀ diag(1/s²) G.
MatrixXd BarrierHessian(const LogBarrierProblem& p, const VectorXd& x) {
  const VectorXd inverse_slack = (p.G * x + p.h).cwiseInverse();
  return p.Q + p.G.transpose() * inverse_slack.cwiseAbs2().asDiagonal() * p.G / p.kappa;
}

TEST(LogBarrierTest, ArmGraspStateWithNearZeroArguments) {
  const LogBarrierProblem p = ArmGraspBarrier();
  ASSERT_LT(p.h.maxCoeff(), 2e-9);  // the data is the badly scaled start it claims to be
  LogBarrierSettings from_zero;
  from_zero.centring_margin = 0;
  const LogBarrierSettings defaults;
  const LogBarrierSettings* const both[] = {&from_zero, &defaults};
  for (const LogBarrierSettings* settings : both) {
    const LogBarrierResult r = Solve(p, *settings);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    ASSERT_GT((p.G * r.x + p.h).minCoeff(), 0);
    // Stopping on λ²/2 <= tol bounds ‖∇f‖₂ <= λ · sqrt(λ_max(H)), with λ² = 2·tol.
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(BarrierHessian(p, r.x));
    const double bound =
        std::sqrt(2 * settings->decrement_tolerance * eigen.eigenvalues().maxCoeff());
    EXPECT_LE(BarrierGradient(p, r.x).norm(), bound);
  }
  // Both starts reach the same minimiser (f strictly convex): ‖Δx‖ <= 2λ/sqrt(λ_min(Q)).
  const VectorXd difference = Solve(p, from_zero).x - Solve(p).x;
  EXPECT_LE(difference.norm(), 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff()));
}

TEST(LogBarrierTest, SkippingPhaseOneGivesTheSameMinimiser) {
  // A solver that keeps its previous minimiser, on the arm grasp problem and then on the same
  // problem with b perturbed by 1 % (the next time step): the second solve starts from the
  // previous minimiser without phase 1. The reference always runs phase 1 (centring margin
  // +∞, no previous solution). f is strictly convex (Q ≻ 0) and both stop on λ²/2 <= tol, so
  // ‖Δx‖ <= 2·sqrt(2·tol / λ_min(Q)) (as in ArmGraspStateWithNearZeroArguments).
  const LogBarrierProblem p = ArmGraspBarrier();
  LogBarrierProblem next = p;
  next.b *= 1.01;
  LogBarrierSettings always_phase_one;
  always_phase_one.centring_margin = std::numeric_limits<double>::infinity();
  always_phase_one.use_previous_solution = false;
  const double bound = 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff());
  LogBarrierSolver warm;
  const LogBarrierResult first = warm.Solve(p);
  ASSERT_EQ(first.status, SolverStatus::kSolved) << first.message;
  EXPECT_TRUE(first.used_phase_one);  // x = 0 is 1.2e-9 from the boundary
  const LogBarrierResult second = warm.Solve(next);
  ASSERT_EQ(second.status, SolverStatus::kSolved) << second.message;
  EXPECT_TRUE(second.used_previous_solution);
  EXPECT_FALSE(second.used_phase_one);
  EXPECT_LT(second.info.iterations, first.info.iterations);
  for (const auto& [problem, result] :
       {std::pair{&p, &first}, std::pair{static_cast<const LogBarrierProblem*>(&next), &second}}) {
    const LogBarrierResult reference = Solve(*problem, always_phase_one);
    ASSERT_EQ(reference.status, SolverStatus::kSolved) << reference.message;
    ASSERT_TRUE(reference.used_phase_one);
    EXPECT_LE((result->x - reference.x).norm(), bound);
  }
}

// The cone barrier of a contact-like SOCP (testing::ContactChainSocp).
LogBarrierProblem ContactChainConeBarrier(unsigned seed) {
  const SocpProblem socp = testing::ContactChainSocp(seed, 10, 5);
  return LogBarrierProblem{socp.Q,      socp.c,     MatrixXd(0, socp.Q.rows()),
                           VectorXd(0), socp.cones, 100.0};
}

TEST(LogBarrierTest, SparseAndDenseNewtonSystemsAgree) {
  LogBarrierSettings sparse, dense;
  sparse.sparse_min_variables = 0;
  sparse.sparse_max_density = 1.0;
  dense.sparse_min_variables = std::numeric_limits<int>::max();
  const LogBarrierProblem pyramid = ArmGraspBarrier();
  for (unsigned seed = 0; seed < 3; ++seed) {
    const LogBarrierProblem cone = ContactChainConeBarrier(seed + 300);
    for (const LogBarrierProblem* p : {&pyramid, &cone}) {
      const LogBarrierResult a = Solve(*p, sparse), b = Solve(*p, dense);
      ASSERT_EQ(a.status, SolverStatus::kSolved) << a.message;
      ASSERT_EQ(b.status, SolverStatus::kSolved) << b.message;
      EXPECT_TRUE(a.used_sparse_path);
      EXPECT_FALSE(b.used_sparse_path);
      // Same strictly convex f, both stop on λ²/2 <= tol: ‖Δx‖ <= 2·sqrt(2·tol/λ_min(Q)).
      const double q_min = Eigen::SelfAdjointEigenSolver<MatrixXd>(p->Q).eigenvalues().minCoeff();
      EXPECT_LE((a.x - b.x).norm(), 2 * std::sqrt(2e-14 / q_min)) << "seed " << seed;
      // The stored Hessian factorisations agree (the derivative −H⁻¹ used by gradients/).
      const VectorXd rhs = VectorXd::Ones(p->Q.rows());
      const VectorXd ha = a.SolveWithHessian(rhs), hb = b.SolveWithHessian(rhs);
      EXPECT_LE((ha - hb).norm(), 1e-6 * hb.norm()) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace quasidyn
