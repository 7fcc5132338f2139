// The interior point of qp.h on a contact QP whose reduced matrix Q + Gᵀ diag(z/s) G stops
// factorising before the dual residual converges (testdata/allegro_fingers_touching_qp.txt,
// qsim's Allegro hand with two fingers touching): slacks reach rounding (z/s up to 1e19
// against Q's eigenvalues of 2e-4), ‖r_d‖ stalls near 2e-8 and rounding makes a pivot
// negative. The solve stops there as kSolvedInaccurate and the polish (qp_polish.h) solves the
// active set's KKT system: a solved step whose KKT conditions hold to rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/solvers/qp.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kRoundingUnit = std::numeric_limits<double>::epsilon();

void ReadNonzeros(std::ifstream& file, MatrixXd* M) {
  for (int row, col; file >> row >> col && row >= 0;) file >> (*M)(row, col);
  double end = 0.0;
  file >> end;  // the terminator's value
}

QpProblem AllegroFingersTouching() {
  const std::string name = "testdata/allegro_fingers_touching_qp.txt";
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) + "/src/quasidyn/solvers/" + name);
  if (!file) throw std::runtime_error("cannot open " + name);
  std::string line;
  while (file.peek() == '#') std::getline(file, line);
  int n = 0, m = 0;
  file >> n >> m;
  MatrixXd Q = MatrixXd::Zero(n, n), G = MatrixXd::Zero(m, n);
  QpProblem problem;
  problem.c.resize(n);
  problem.h.resize(m);
  ReadNonzeros(file, &Q);
  for (int i = 0; i < n; ++i) file >> problem.c[i];
  for (int i = 0; i < m; ++i) file >> problem.h[i];
  ReadNonzeros(file, &G);
  if (!file) throw std::runtime_error("malformed " + name);
  problem.Q = SparseRowMatrix::FromDense(Q);
  problem.G = SparseRowMatrix::FromDense(G);
  problem.A = SparseRowMatrix::FromDense(MatrixXd::Zero(0, n));
  problem.b.resize(0);
  return problem;
}

TEST(QpFactorisationStallTest, AnIteratePastTheFactorisationIsPolishedToRounding) {
  const QpProblem problem = AllegroFingersTouching();
  const MatrixXd Q = problem.Q.ToDense(), G = problem.G.ToDense();
  // The sparse path (22 variables, 132 rows), as the contact QP takes it (ContactQpSettings,
  // pyramid_qp.h: from 16 variables, density up to 0.5). The dense path, which sums Gᵀ diag(z/s)
  // G by rows, does not stall here.
  QpSettings settings;
  settings.sparse_min_variables = 16;
  settings.sparse_max_density = 0.5;
  QpSettings unpolished = settings;
  unpolished.polish.enabled = false;
  // Without the polish, the interior point stops at the factorisation as inaccurate (before,
  // a numerical failure).
  const QpResult interior = Solve(problem, unpolished);
  EXPECT_TRUE(interior.info.used_sparse_path);
  EXPECT_EQ(interior.status, SolverStatus::kSolvedInaccurate) << interior.message;
  const QpResult result = Solve(problem, settings);
  ASSERT_EQ(result.status, SolverStatus::kSolved) << result.message;
  EXPECT_TRUE(result.info.polish.succeeded);
  // Stationarity relative to its largest term, to rounding summed over the rows.
  const VectorXd Qx = Q * result.x, Gtz = G.transpose() * result.z;
  const double scale = std::max({Qx.lpNorm<Eigen::Infinity>(), problem.c.lpNorm<Eigen::Infinity>(),
                                 Gtz.lpNorm<Eigen::Infinity>()});
  const double rows = static_cast<double>(G.rows());
  EXPECT_LE((Qx + problem.c - Gtz).lpNorm<Eigen::Infinity>(), 16 * kRoundingUnit * rows * scale);
  // Feasibility and complementarity: exact zeros off the active set, rounding on it.
  const VectorXd slack = G * result.x - problem.h;
  const double slack_scale =
      std::max((G * result.x).lpNorm<Eigen::Infinity>(), problem.h.lpNorm<Eigen::Infinity>());
  EXPECT_GE(slack.minCoeff(), -16 * kRoundingUnit * slack_scale);
  EXPECT_GE(result.z.minCoeff(), 0.0);
  EXPECT_LE(slack.cwiseProduct(result.z).cwiseAbs().maxCoeff(),
            16 * kRoundingUnit * slack_scale * result.z.lpNorm<Eigen::Infinity>());
  // The polished answer is no worse than the interior point's stop.
  EXPECT_LT(result.info.polish.residual_after, result.info.polish.residual_before);
}

}  // namespace
}  // namespace quasidyn
