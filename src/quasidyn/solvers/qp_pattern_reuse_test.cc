// The sparse QP's pattern kept across Setups whose G differs (qp.h, BuildSparsePattern): when
// the contacts change but the pairs of bodies they couple do not, the reduced matrix's pattern
// and its analysis are kept and only G's rows are indexed again (only Q's entries when the
// groups of rows keep their columns: the same pairs in the same order, with more or fewer
// contacts each); any other change of the body pairs (one more, one fewer) builds and analyses
// the pattern again. Either way the answer must be, bit for bit, that of a solver set up fresh
// on the same problem.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::DenseQp;

constexpr int kBodies = 5;
constexpr int kBodyDofs = 6;

// A QP shaped as the quasi-dynamic step's (Pang & Tedrake 2021, eq. (10)): a cost diagonal
// but for one off-diagonal pair in each of the first `coupled_bodies` bodies (as a body's
// inertia once it is no longer axis-aligned), and per contact four rows (a pyramid's edges) on the
// columns of the two bodies it couples, feasible around a random point. `contacts` lists each
// contact's bodies.
DenseQp ContactsOnBodyPairs(testing::RandomProblems& random,
                            const std::vector<std::pair<int, int>>& contacts, int coupled_bodies) {
  const int n = kBodies * kBodyDofs;
  DenseQp p;
  p.Q = MatrixXd::Zero(n, n);
  p.Q.diagonal() = random.UniformVector(n, 0.5, 2.0);
  for (int body = 0; body < coupled_bodies; ++body) {
    p.Q(kBodyDofs * body, kBodyDofs * body + 1) = 0.1;  // |0.1| < 0.5: still definite
    p.Q(kBodyDofs * body + 1, kBodyDofs * body) = 0.1;
  }
  p.c = random.GaussianVector(n);
  p.G = MatrixXd::Zero(4 * static_cast<Eigen::Index>(contacts.size()), n);
  for (size_t k = 0; k < contacts.size(); ++k) {
    for (int edge = 0; edge < 4; ++edge) {
      const Eigen::Index row = 4 * static_cast<Eigen::Index>(k) + edge;
      p.G.block(row, kBodyDofs * contacts[k].first, 1, kBodyDofs) = random.Gaussian(1, kBodyDofs);
      p.G.block(row, kBodyDofs * contacts[k].second, 1, kBodyDofs) = random.Gaussian(1, kBodyDofs);
    }
  }
  p.h = p.G * random.UniformVector(n, -1, 1) - random.UniformVector(p.G.rows(), 0.1, 1.0);
  return p;
}

QpSettings SparsePathSettings() {
  QpSettings settings;
  settings.sparse_min_variables = 0;
  settings.sparse_max_density = 1.0;
  return settings;
}

TEST(QpPatternReuseTest, ContactsComingAndGoingGiveTheBitsOfAFreshSetup) {
  testing::RandomProblems random(41);
  using Pairs = std::vector<std::pair<int, int>>;
  struct Step {
    Pairs contacts;
    int coupled_bodies;
  };
  const std::vector<Step> steps = {
      {{{0, 1}, {1, 2}, {2, 3}}, 0},  // the first pattern
      // The groups of rows keep their columns (consecutive contacts of a pair form one group):
      {{{0, 1}, {0, 1}, {1, 2}, {2, 3}, {2, 3}}, 0},  // more contacts per pair
      {{{0, 1}, {0, 1}, {1, 2}, {2, 3}, {2, 3}}, 4},  // and Q's pattern grows, inside N's
      {{{0, 1}, {1, 2}, {1, 2}, {2, 3}}, 5},  // Q's entry of body 4 (in no contact) outside N's
      {{{0, 1}, {1, 2}, {2, 3}}, 4},          // that entry gone: N stores one that nothing reaches
      {{{1, 2}, {0, 1}, {0, 1}, {2, 3}, {2, 3}, {1, 2}}, 0},  // the same pairs, more contacts
      {{{2, 3}, {0, 1}, {1, 2}}, 0},                          // the same pairs, reordered
      {{{0, 1}, {2, 3}, {1, 2}}, 4},  // Q's pattern grows, inside N's (bodies 0–3 in contact)
      {{{0, 1}, {1, 2}, {2, 3}}, 5},  // Q's entry of body 4 (in no contact) is outside N's
      {{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, 0},  // one body pair more
      {{{0, 1}, {2, 3}, {3, 4}}, 0},          // one fewer: a sub-pattern of the last
      {{{0, 2}, {1, 2}, {3, 4}}, 0},          // as many pairs, one moved
      {{{0, 1}, {1, 2}, {2, 3}}, 0},          // the first pattern again
  };
  QpSolver reused;
  for (size_t step = 0; step < steps.size(); ++step) {
    const QpProblem problem =
        ContactsOnBodyPairs(random, steps[step].contacts, steps[step].coupled_bodies).ToSparse();
    if (reused.SamePattern(problem)) {
      reused.UpdateValues(problem);
    } else {
      reused.Setup(problem, SparsePathSettings());
    }
    QpSolver fresh;
    fresh.Setup(problem, SparsePathSettings());
    const QpResult& r = reused.Solve();
    const QpResult& f = fresh.Solve();
    ASSERT_EQ(f.status, SolverStatus::kSolved) << "step " << step << ": " << f.message;
    EXPECT_TRUE(r.info.used_sparse_path);
    EXPECT_EQ(r.status, f.status) << "step " << step;
    EXPECT_EQ(r.info.iterations, f.info.iterations) << "step " << step;
    EXPECT_EQ(r.info.polish.succeeded, f.info.polish.succeeded) << "step " << step;
    EXPECT_EQ(r.x, f.x) << "step " << step;
    EXPECT_EQ(r.z, f.z) << "step " << step;
  }
}

}  // namespace
}  // namespace quasidyn
