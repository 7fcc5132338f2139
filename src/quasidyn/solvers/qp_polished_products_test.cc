// After a polish the QP's slacks, objective and the polish's residual come from the products
// the polish's refinement computed last (active_set_polish.h, polished_rows and
// polished_cost_product), not from products of their own: they must be those of the returned
// x and z, on the three paths of the solver (qp.h: small dense, whose reduced matrix the polish
// borrows; larger dense, with the polish's own normal matrix; sparse).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

TEST(QpPolishedProducts, SlacksObjectiveAndResidualAreThoseOfThePolishedAnswer) {
  struct Path {
    int n, m, sparse_min_variables;
  };
  for (const Path path : {Path{7, 8, 1000}, Path{30, 45, 1000}, Path{30, 45, 0}}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      testing::RandomProblems random(900 + seed);
      const testing::DenseQp p = testing::ContactLikeQp(random, path.n, path.m);
      QpSettings settings;
      settings.sparse_min_variables = path.sparse_min_variables;
      settings.sparse_max_density = 1.0;
      const QpResult r = Solve(p.ToSparse(), settings);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      ASSERT_TRUE(r.info.polish.succeeded) << "n = " << path.n << ", seed " << seed;
      // Rounding only: a few ε of the terms each value sums.
      const VectorXd Gx = p.G * r.x;
      const double row_terms =
          (p.G.cwiseAbs() * r.x.cwiseAbs()).maxCoeff() + p.h.lpNorm<Eigen::Infinity>();
      EXPECT_LE((r.s - (Gx - p.h)).lpNorm<Eigen::Infinity>(), 8 * kEpsilon * row_terms);
      const VectorXd Qx = p.Q * r.x;
      const double objective = 0.5 * r.x.dot(Qx) + p.c.dot(r.x);
      const double objective_terms = 0.5 * r.x.cwiseAbs().dot(p.Q.cwiseAbs() * r.x.cwiseAbs()) +
                                     p.c.cwiseAbs().dot(r.x.cwiseAbs());
      EXPECT_LE(std::abs(r.objective - objective), 8 * kEpsilon * path.n * objective_terms);
      // The residual of active_set_polish.h, step 3, at (x, z).
      const VectorXd u = Gx - p.h;
      const double dual = (Qx + p.c - p.G.transpose() * r.z).lpNorm<Eigen::Infinity>();
      const double rows =
          std::max({(-u).maxCoeff(), (-r.z).maxCoeff(), u.cwiseProduct(r.z).cwiseAbs().maxCoeff()});
      const double terms =
          std::max({(p.Q.cwiseAbs() * r.x.cwiseAbs()).maxCoeff(), p.c.lpNorm<Eigen::Infinity>(),
                    (p.G.transpose().cwiseAbs() * r.z.cwiseAbs()).maxCoeff(),
                    row_terms * std::max(1.0, r.z.lpNorm<Eigen::Infinity>())});
      EXPECT_LE(std::abs(r.info.polish.residual_after - std::max(dual, rows)),
                8 * kEpsilon * path.n * terms);
    }
  }
}

}  // namespace
}  // namespace quasidyn
