// QpSolver::UpdateValues refuses non-finite data naming the entry (qp.h), although it checks
// the values in one pass without per-entry branches first (qp.cc, ValidateValues).
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// The message of UpdateValues on `problem`, or "" when it does not throw.
std::string UpdateMessage(QpSolver* solver, const QpProblem& problem) {
  try {
    solver->UpdateValues(problem);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(QpUpdateValuesCheck, EachNonFiniteValueIsRefusedNamingItsEntry) {
  testing::RandomProblems random(5);
  const testing::DenseQp dense{MatrixXd::Identity(6, 6), random.GaussianVector(6),
                               random.Gaussian(9, 6), random.GaussianVector(9)};
  const QpProblem clean = dense.ToSparse();
  QpSolver solver;
  solver.Setup(clean);
  EXPECT_EQ(UpdateMessage(&solver, clean), "");
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    QpProblem p = clean;
    p.Q.value(3) = bad;  // Q's fourth stored entry: (3, 3)
    EXPECT_NE(UpdateMessage(&solver, p).find("Q(3, 3) is not finite"), std::string::npos);
    p = clean;
    p.c[5] = bad;
    EXPECT_NE(UpdateMessage(&solver, p).find("c[5] is not finite"), std::string::npos);
    p = clean;
    p.G.value(p.G.row_start(8) + 2) = bad;
    EXPECT_NE(UpdateMessage(&solver, p).find("G(8, 2) is not finite"), std::string::npos);
    p = clean;
    p.h[0] = bad;
    EXPECT_NE(UpdateMessage(&solver, p).find("h[0] is not finite"), std::string::npos);
  }
  // The solver still solves the clean problem after the refusals.
  solver.UpdateValues(clean);
  EXPECT_EQ(solver.Solve().status, SolverStatus::kSolved);
}

// UpdateValuesIfSamePattern (the step's one check of the pattern, pyramid_qp.cc SetupOrUpdate):
// new values of the same pattern are taken, the same bits as a fresh Setup's; a problem of
// another pattern is refused with nothing changed.
TEST(QpUpdateValuesCheck, UpdateValuesIfSamePatternTakesOnlyValuesOfTheSamePattern) {
  testing::RandomProblems random(7);
  const auto problem_of = [&](int rows) {
    return testing::DenseQp{MatrixXd::Identity(6, 6), random.GaussianVector(6),
                            random.Gaussian(rows, 6),
                            random.GaussianVector(rows) - VectorXd::Ones(rows)}
        .ToSparse();
  };
  const QpProblem first = problem_of(5), second = problem_of(5), other = problem_of(6);
  QpSolver solver;
  solver.Setup(first);
  ASSERT_TRUE(solver.UpdateValuesIfSamePattern(second));
  QpSolver fresh;
  fresh.Setup(second);
  const QpResult expected = fresh.Solve();
  ASSERT_EQ(expected.status, SolverStatus::kSolved) << expected.message;
  const QpResult taken = solver.Solve();
  EXPECT_EQ(taken.x, expected.x);
  EXPECT_EQ(taken.z, expected.z);
  // Another row count: refused, and the solver still holds the second problem.
  EXPECT_FALSE(solver.UpdateValuesIfSamePattern(other));
  const QpResult kept = solver.Solve();
  EXPECT_EQ(kept.x, expected.x);
  EXPECT_EQ(kept.z, expected.z);
  // Same pattern, a non-finite value: refused as by UpdateValues.
  QpProblem bad = second;
  bad.h[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(solver.UpdateValuesIfSamePattern(bad), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
