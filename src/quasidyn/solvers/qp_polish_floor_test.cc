// The polish's refinement stopped at the rounding floor (PolishSettings::rounding_floor,
// active_set_polish.h) gives the answer of the refinement run until its error stops falling
// (rounding_floor = 0), on the three paths of the QP solver (qp.h: small dense, whose
// reduced matrix the polish borrows; larger dense; sparse).
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kMachineEpsilonOfFloor = std::numeric_limits<double>::epsilon();

QpSettings OnPath(int sparse_min_variables, double rounding_floor) {
  QpSettings settings;
  settings.sparse_min_variables = sparse_min_variables;
  settings.sparse_max_density = 1.0;
  settings.polish.rounding_floor = rounding_floor;
  return settings;
}

// Differences of rounding only: 4096 ε of the answer's size (rounding times the normal
// matrix's conditioning; a refinement stopped one correction early moves them by
// the regularised solve's error, δ-sized: 1e-9 here).
TEST(QpPolishFloorTest, StoppingAtTheRoundingFloorGivesTheFullRefinementsAnswer) {
  testing::RandomProblems random(38);
  struct Path {
    int n, m, sparse_min_variables;
  };
  // n = 7, m = 12: the small dense path (the polish borrows the solver's reduced matrix); n =
  // 30: the larger dense path (the polish's own normal matrix); sparse from 0 variables.
  for (const Path path : {Path{7, 12, 1000}, Path{30, 40, 1000}, Path{12, 20, 0}}) {
    int polished = 0;
    for (int trial = 0; trial < 20; ++trial) {
      const QpProblem qp = testing::ContactLikeQp(random, path.n, path.m).ToSparse();
      QpSolver floor, full;
      floor.Setup(qp, OnPath(path.sparse_min_variables, 16.0));
      full.Setup(qp, OnPath(path.sparse_min_variables, 0.0));
      const QpResult& a = floor.Solve();
      const QpResult& b = full.Solve();
      ASSERT_EQ(a.status, SolverStatus::kSolved);
      ASSERT_EQ(b.status, SolverStatus::kSolved);
      EXPECT_EQ(a.info.used_sparse_path, path.sparse_min_variables == 0);
      EXPECT_EQ(a.info.polish.succeeded, b.info.polish.succeeded) << "n = " << path.n;
      polished += a.info.polish.succeeded;
      const double x_scale = std::max(1.0, b.x.lpNorm<Eigen::Infinity>());
      const double z_scale = std::max(1.0, b.z.lpNorm<Eigen::Infinity>());
      EXPECT_LE((a.x - b.x).lpNorm<Eigen::Infinity>(), 4096 * kMachineEpsilonOfFloor * x_scale)
          << "n = " << path.n << ", trial " << trial;
      EXPECT_LE((a.z - b.z).lpNorm<Eigen::Infinity>(), 4096 * kMachineEpsilonOfFloor * z_scale)
          << "n = " << path.n << ", trial " << trial;
      // Inactive rows keep their exact zeros.
      for (Eigen::Index i = 0; i < b.z.size(); ++i)
        if (b.z[i] == 0.0) {
          EXPECT_EQ(a.z[i], 0.0);
        }
    }
    EXPECT_GE(polished, 15) << "n = " << path.n << ": the polish must be exercised";
  }
}

TEST(QpPolishFloorTest, ANegativeRoundingFloorIsRefusedNamingIt) {
  QpSettings settings;
  settings.polish.rounding_floor = -1.0;
  try {
    ValidateQpSettings(settings);
    FAIL() << "a negative rounding_floor was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("polish.rounding_floor"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quasidyn
