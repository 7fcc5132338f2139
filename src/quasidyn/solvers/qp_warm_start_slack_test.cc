// The warm start's slacks lifted relative to the primal scale (QpSettings::
// scaled_warm_start_slack, qp.h): where every row binds at h ≈ 0, a floor of
// warm_start_min_value leaves a start whose gap sᵀz is above the gap test's tolerance; the
// scaled floor does not, and the answer is the same to the solver's tolerance.
#include <gtest/gtest.h>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// min ½‖x‖² + cᵀx s.t. x >= h: with c > 0 and h = 0 every row binds (x = 0, z = c), the shape
// of a grasp's contact QP at φ = 0 (impulses c of 1e-2 N·s; 7 velocities as the planar hand's).
testing::DenseQp BindingQp(const VectorXd& c, double h) {
  const int n = static_cast<int>(c.size());
  return {MatrixXd::Identity(n, n), c, MatrixXd::Identity(n, n), VectorXd::Constant(n, h)};
}

QpSettings Scaled(bool scaled) {
  QpSettings settings;
  settings.scaled_warm_start_slack = scaled;
  return settings;
}

TEST(QpWarmStartSlack, AllRowsBindingTheScaledFloorTakesFewerIterationsToTheSameAnswer) {
  testing::RandomProblems random(7);
  const VectorXd before = 1e-2 * random.UniformVector(7, 0.5, 1.5);
  // The next step's impulses, a millionth apart (on the fixed floor the start's gap alone is
  // about 30 times the gap test's tolerance; from 1e-3 apart both floors take the same 2–3
  // iterations on this problem).
  const VectorXd after =
      before.cwiseProduct(VectorXd::Constant(7, 1.0) + 1e-6 * random.UniformVector(7, -1.0, 1.0));
  // The previous step's answer (x = 0, z = before) as the start of the next one.
  const QpWarmStart start{VectorXd::Zero(7), before, {}};
  const QpProblem next = BindingQp(after, 0.0).ToSparse();
  const QpResult fixed = Solve(next, Scaled(false), start);
  const QpResult scaled = Solve(next, Scaled(true), start);
  ASSERT_EQ(fixed.status, SolverStatus::kSolved) << fixed.message;
  ASSERT_EQ(scaled.status, SolverStatus::kSolved) << scaled.message;
  EXPECT_LT(scaled.info.iterations, fixed.info.iterations);
  // The same answer to the solver's tolerance (absolute 1e-9 at this scale); the polish makes
  // both exact here.
  const QpSettings tolerance;
  EXPECT_LE((scaled.x - fixed.x).lpNorm<Eigen::Infinity>(), tolerance.absolute_tolerance);
  EXPECT_LE((scaled.z - after).lpNorm<Eigen::Infinity>(),
            tolerance.absolute_tolerance + tolerance.relative_tolerance * after.maxCoeff());
}

TEST(QpWarmStartSlack, AtAScaleOfOneOrMoreTheFloorIsWarmStartMinValue) {
  // ‖h‖∞ = 2 (units of h): warm_start_min_value · 2 is clamped to warm_start_min_value, so the
  // scaled rule starts where the fixed one does and gives the same bits.
  testing::RandomProblems random(8);
  const VectorXd c = random.UniformVector(5, 0.5, 1.5);
  const QpProblem problem = BindingQp(c, -2.0).ToSparse();
  const QpWarmStart start{VectorXd::Constant(5, -2.0), c, {}};
  const QpResult fixed = Solve(problem, Scaled(false), start);
  const QpResult scaled = Solve(problem, Scaled(true), start);
  ASSERT_EQ(scaled.status, SolverStatus::kSolved) << scaled.message;
  EXPECT_EQ(scaled.info.iterations, fixed.info.iterations);
  EXPECT_EQ(scaled.x, fixed.x);
  EXPECT_EQ(scaled.z, fixed.z);
}

}  // namespace
}  // namespace quasidyn
