#include "quasidyn/solvers/log_barrier_newton.h"

#include <gtest/gtest.h>

#include <stdexcept>

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
  RandomContactLikeProblem problem = RandomLinear(5, 4, 6);
  problem.barrier.kappa = 1e3;
  // x = 0 is generally infeasible for these rows; give a clearly infeasible start too.
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

}  // namespace
}  // namespace quasidyn
