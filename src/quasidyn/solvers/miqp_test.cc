#include "quasidyn/solvers/miqp.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/testing/solver_problems.h"
#include "reference/bonmin_miqp.h"

namespace quasidyn {
namespace {

using Eigen::VectorXd;
using testing::RandomMiqp;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The continuous QP left when every binary is fixed as in `values` (one entry per binary):
// its optimum, by our QP on the problem with the binaries' columns substituted. The
// enumeration is independent of the tree (no bounds, no branching, no heuristics).
struct FixedQp {
  SolverStatus status;
  double objective;
};

FixedQp SolveWithBinariesFixed(const MiqpProblem& problem, const std::vector<int>& values) {
  MiqpProblem fixed = problem;
  fixed.fixed.assign(values.begin(), values.end());
  MiqpSettings settings;
  settings.presolve = false;
  settings.rounding_frequency = 0;
  const MiqpResult r = Solve(fixed, settings);
  if (r.status == MiqpStatus::kInfeasible) return {SolverStatus::kInfeasible, kInfinity};
  EXPECT_EQ(r.info.nodes, 1);  // nothing to branch on
  return {r.has_solution ? SolverStatus::kSolved : SolverStatus::kNumericalFailure, r.objective};
}

// min over all 2^n_b assignments of the fixed QP's optimum (kInfinity when none is feasible).
double BruteForceOptimum(const MiqpProblem& problem) {
  const int nb = static_cast<int>(problem.binaries.size());
  double best = kInfinity;
  for (int mask = 0; mask < (1 << nb); ++mask) {
    std::vector<int> values(nb);
    for (int k = 0; k < nb; ++k) values[k] = (mask >> k) & 1;
    const FixedQp q = SolveWithBinariesFixed(problem, values);
    if (q.status == SolverStatus::kSolved) best = std::min(best, q.objective);
  }
  return best;
}

// The objective tolerance of a comparison: the gap tolerances plus the QP's stopping
// tolerances, relative to the objective's size.
double ObjectiveTolerance(const MiqpSettings& s, double objective) {
  const double scale = std::max(1.0, std::abs(objective));
  return std::max(s.absolute_gap_tolerance, s.relative_gap_tolerance * scale) +
         10 * (s.qp.absolute_tolerance + s.qp.relative_tolerance) * scale;
}

// KKT of the incumbent's QP with the binaries fixed at their values: stationarity in the
// continuous variables, primal feasibility, dual feasibility and complementarity of G x >= h,
// A x = b, from the multipliers the solver returns; each relative to its scale.
double IncumbentKktResidual(const MiqpProblem& problem, const MiqpResult& r) {
  const QpProblem& p = problem.continuous;
  VectorXd Qx, Gx, Gtz, Ax, Aty;
  p.Q.Multiply(r.x, &Qx);
  p.G.Multiply(r.x, &Gx);
  p.G.MultiplyTranspose(r.z, &Gtz);
  VectorXd stationarity = Qx + p.c - Gtz;
  if (p.A.rows() > 0) {
    p.A.Multiply(r.x, &Ax);
    p.A.MultiplyTranspose(r.y, &Aty);
    stationarity -= Aty;
  }
  double dual_scale = std::max({1.0, Qx.lpNorm<Eigen::Infinity>(), p.c.lpNorm<Eigen::Infinity>(),
                                Gtz.lpNorm<Eigen::Infinity>()});
  double worst = 0;
  for (int j = 0; j < r.x.size(); ++j) {
    const bool binary =
        std::find(problem.binaries.begin(), problem.binaries.end(), j) != problem.binaries.end();
    if (!binary) worst = std::max(worst, std::abs(stationarity[j]) / dual_scale);
  }
  const VectorXd slack = Gx - p.h;
  const double primal_scale =
      std::max({1.0, Gx.lpNorm<Eigen::Infinity>(), p.h.lpNorm<Eigen::Infinity>()});
  worst = std::max(worst, std::max(0.0, -slack.minCoeff()) / primal_scale);
  worst = std::max(worst, std::max(0.0, -r.z.minCoeff()) / dual_scale);
  worst = std::max(
      worst, slack.cwiseProduct(r.z).cwiseAbs().maxCoeff() / std::max(1.0, std::abs(r.objective)));
  if (p.A.rows() > 0) worst = std::max(worst, (Ax - p.b).lpNorm<Eigen::Infinity>() / primal_scale);
  for (int j : problem.binaries) EXPECT_TRUE(r.x[j] == 0.0 || r.x[j] == 1.0) << "x[" << j << "]";
  return worst;
}

struct Size {
  int continuous, binaries, rows, equalities;
};
constexpr Size kTinySizes[] = {{3, 3, 2, 0}, {4, 5, 3, 1}, {5, 6, 4, 2}, {6, 8, 5, 2}};

TEST(MiqpTest, MatchesBruteForceEnumerationOnTinyRandomInstances) {
  const MiqpSettings settings;
  int instances = 0;
  for (const Size& size : kTinySizes) {
    for (unsigned seed = 0; seed < 6; ++seed) {
      const MiqpProblem problem = RandomMiqp(seed * 7 + size.binaries, size.continuous,
                                             size.binaries, size.rows, size.equalities);
      const double expected = BruteForceOptimum(problem);
      ASSERT_TRUE(std::isfinite(expected)) << "the generator makes feasible instances";
      const MiqpResult r = Solve(problem, settings);
      ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
      EXPECT_NEAR(r.objective, expected, ObjectiveTolerance(settings, expected))
          << "n_b=" << size.binaries << " seed=" << seed;
      EXPECT_LE(r.best_bound, r.objective);
      EXPECT_LE(r.gap, ObjectiveTolerance(settings, expected));
      EXPECT_LE(IncumbentKktResidual(problem, r),
                10 * (settings.qp.absolute_tolerance + settings.qp.relative_tolerance))
          << "n_b=" << size.binaries << " seed=" << seed;
      ++instances;
    }
  }
  EXPECT_EQ(instances, 24);
}

TEST(MiqpTest, EveryBranchingRuleAndSearchOrderFindsTheSameOptimum) {
  for (unsigned seed = 0; seed < 4; ++seed) {
    const MiqpProblem problem = RandomMiqp(100 + seed, 5, 7, 4, 1);
    const double expected = BruteForceOptimum(problem);
    for (const BranchingRule rule : {BranchingRule::kMostFractional, BranchingRule::kPseudoCost}) {
      for (const bool dive : {false, true}) {
        for (const bool warm : {false, true}) {
          for (const int rounding : {0, 1}) {
            MiqpSettings settings;
            settings.branching = rule;
            settings.dive = dive;
            settings.warm_start = warm;
            settings.rounding_frequency = rounding;
            const MiqpResult r = Solve(problem, settings);
            ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
            EXPECT_NEAR(r.objective, expected, ObjectiveTolerance(settings, expected))
                << "seed " << seed << " rule " << static_cast<int>(rule) << " dive " << dive
                << " warm " << warm << " rounding " << rounding;
          }
        }
      }
    }
  }
}

TEST(MiqpTest, ReliabilityBranchingFindsTheBruteForceOptimum) {
  int strong_solves = 0;
  for (const Size& size : kTinySizes) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const MiqpProblem problem = RandomMiqp(seed * 11 + size.binaries, size.continuous,
                                             size.binaries, size.rows, size.equalities);
      const double expected = BruteForceOptimum(problem);
      for (const int candidates : {1, 4}) {
        for (const int depth : {1, 100}) {
          MiqpSettings settings;
          settings.strong_branching_candidates = candidates;
          settings.strong_branching_reliability = 2;
          settings.strong_branching_depth = depth;
          const MiqpResult r = Solve(problem, settings);
          ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
          EXPECT_NEAR(r.objective, expected, ObjectiveTolerance(settings, expected))
              << "n_b=" << size.binaries << " seed=" << seed << " candidates " << candidates
              << " depth " << depth;
          EXPECT_LE(r.gap, ObjectiveTolerance(settings, expected));
          strong_solves += r.info.strong_branching_solves;
        }
      }
    }
  }
  EXPECT_GT(strong_solves, 0) << "the instances must branch, else the rule is not exercised";
}

TEST(MiqpTest, NodeLimitCountsStrongBranchingSolves) {
  const MiqpProblem problem = RandomMiqp(7, 8, 10, 6, 2);
  const double expected = BruteForceOptimum(problem);
  MiqpSettings settings;
  settings.strong_branching_candidates = 3;
  settings.strong_branching_reliability = 100;  // strong-branch at every node
  const MiqpResult full = Solve(problem, settings);
  ASSERT_EQ(full.status, MiqpStatus::kOptimal) << full.message;
  ASSERT_GT(full.info.strong_branching_solves, 0);
  const int relaxations = full.info.nodes + full.info.strong_branching_solves;
  ASSERT_GT(relaxations, 4);
  settings.node_limit = 4;
  const MiqpResult r = Solve(problem, settings);
  EXPECT_EQ(r.status, MiqpStatus::kNodeLimit) << r.message;
  // Checked before each node: one node's strong branching may pass the limit, by at most
  // 2 × candidates relaxations.
  EXPECT_LE(r.info.nodes + r.info.strong_branching_solves,
            settings.node_limit + 2 * settings.strong_branching_candidates);
  EXPECT_LE(r.best_bound, expected + ObjectiveTolerance(settings, expected));
  if (r.has_solution) {
    EXPECT_GE(r.objective, expected - ObjectiveTolerance(settings, expected));
    EXPECT_NEAR(r.gap, r.objective - r.best_bound, 1e-12 * std::max(1.0, std::abs(r.objective)));
  }
}

TEST(MiqpTest, SeededPseudoCostsSpareStrongBranchingAndKeepTheOptimum) {
  const MiqpProblem problem = RandomMiqp(7, 8, 10, 6, 2);
  const double expected = BruteForceOptimum(problem);
  MiqpSettings settings;
  settings.strong_branching_candidates = 4;
  settings.strong_branching_reliability = 1;
  MiqpSolver solver;
  solver.Setup(problem, settings);
  const MiqpResult first = solver.Solve();
  ASSERT_EQ(first.status, MiqpStatus::kOptimal) << first.message;
  ASSERT_GT(first.info.strong_branching_solves, 0) << "the instance must strong-branch";
  // The first tree's pseudo-costs as the seed: the root's candidates were measured, so the
  // second tree strong-branches less, and finds the same optimum.
  const MiqpPseudoCosts measured = solver.pseudo_costs();
  const MiqpResult second = solver.Solve({}, &measured);
  ASSERT_EQ(second.status, MiqpStatus::kOptimal) << second.message;
  EXPECT_NEAR(second.objective, expected, ObjectiveTolerance(settings, expected));
  EXPECT_LT(second.info.strong_branching_solves, first.info.strong_branching_solves);
  // The seed is where the pseudo-costs start: none falls below it.
  for (int d = 0; d < 2; ++d) {
    for (size_t k = 0; k < measured.count[d].size(); ++k) {
      EXPECT_GE(solver.pseudo_costs().count[d][k], measured.count[d][k]);
      EXPECT_GE(solver.pseudo_costs().sum[d][k], measured.sum[d][k]);
    }
  }
  // Every binary reliable: no strong branching at all, the same optimum.
  MiqpPseudoCosts reliable;
  for (int d = 0; d < 2; ++d) {
    reliable.sum[d].assign(problem.binaries.size(), 1.0);
    reliable.count[d].assign(problem.binaries.size(), 1);
  }
  const MiqpResult seeded = solver.Solve({}, &reliable);
  ASSERT_EQ(seeded.status, MiqpStatus::kOptimal) << seeded.message;
  EXPECT_EQ(seeded.info.strong_branching_solves, 0);
  EXPECT_NEAR(seeded.objective, expected, ObjectiveTolerance(settings, expected));
  // A seed that does not fit is refused, naming what is wrong.
  const auto expect_refused = [&](const MiqpPseudoCosts& bad, const std::string& fragment) {
    try {
      solver.Solve({}, &bad);
      FAIL() << "expected std::invalid_argument with " << fragment;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  MiqpPseudoCosts bad = reliable;
  bad.count[1].pop_back();
  expect_refused(bad, "pseudo_costs' up sums and counts must have one entry per binary (10)");
  bad = reliable;
  bad.sum[0][3] = std::numeric_limits<double>::quiet_NaN();
  expect_refused(bad, "pseudo_costs' down entry 3");
  bad = reliable;
  bad.count[1][9] = -1;
  expect_refused(bad, "pseudo_costs' up entry 9");
  bad = reliable;
  bad.sum[1][0] = -1.0;
  expect_refused(bad, "pseudo_costs' up entry 0");
}

TEST(MiqpTest, IntegerInfeasibleProblemIsReportedAsInfeasible) {
  // z1 + z2 = 1 and z1 − z2 = 0: the relaxation is feasible at (½, ½), no integer point is.
  MiqpProblem problem;
  problem.continuous.Q = SparseRowMatrix::FromDense(Eigen::MatrixXd::Identity(3, 3));
  problem.continuous.c = VectorXd::Zero(3);
  problem.continuous.G = SparseRowMatrix(3);
  problem.continuous.h = VectorXd(0);
  Eigen::MatrixXd A(2, 3);
  A << 0, 1, 1, 0, 1, -1;
  problem.continuous.A = SparseRowMatrix::FromDense(A);
  problem.continuous.b = VectorXd(2);
  problem.continuous.b << 1, 0;
  problem.binaries = {1, 2};
  const MiqpResult r = Solve(problem);
  EXPECT_EQ(r.status, MiqpStatus::kInfeasible) << r.message;
  EXPECT_FALSE(r.has_solution);
  EXPECT_FALSE(r.message.empty());
  EXPECT_GE(r.info.nodes, 1);
}

TEST(MiqpTest, BoundsThatCannotBeMetAreInfeasibleWithoutCrashing) {
  // x >= 2 and x <= 1 on the continuous variable, with or without the presolve.
  MiqpProblem problem;
  problem.continuous.Q = SparseRowMatrix::FromDense(Eigen::MatrixXd::Identity(2, 2));
  problem.continuous.c = VectorXd::Zero(2);
  Eigen::MatrixXd G(2, 2);
  G << 1, 0, -1, 0;
  problem.continuous.G = SparseRowMatrix::FromDense(G);
  problem.continuous.h = VectorXd(2);
  problem.continuous.h << 2, -1;
  problem.binaries = {1};
  for (const bool presolve : {true, false}) {
    MiqpSettings settings;
    settings.presolve = presolve;
    const MiqpResult r = Solve(problem, settings);
    EXPECT_EQ(r.status, MiqpStatus::kInfeasible) << r.message;
    EXPECT_EQ(ToString(r.status), "infeasible");
    EXPECT_FALSE(r.has_solution);
  }
}

TEST(MiqpTest, PresolveFixesBinariesImpliedByBounds) {
  // Variables (x, z, y, w), binaries z and w. x >= 1 (a bound row) and x <= 5 z imply z = 1;
  // y <= −1 and y + 5 w >= 0 imply w = 1.
  MiqpProblem problem;
  problem.continuous.Q = SparseRowMatrix::FromDense(Eigen::MatrixXd::Identity(4, 4));
  problem.continuous.c = VectorXd::Zero(4);
  Eigen::MatrixXd G(4, 4);
  G << 1, 0, 0, 0,  // x >= 1
      -1, 5, 0, 0,  // 5 z − x >= 0
      0, 0, -1, 0,  // −y >= 1
      0, 0, 1, 5;   // y + 5 w >= 0
  problem.continuous.G = SparseRowMatrix::FromDense(G);
  problem.continuous.h = VectorXd(4);
  problem.continuous.h << 1, 0, 1, 0;
  problem.binaries = {1, 3};
  const MiqpResult r = Solve(problem);
  ASSERT_EQ(r.status, MiqpStatus::kOptimal) << r.message;
  EXPECT_EQ(r.info.presolve_fixed, 2);
  EXPECT_EQ(r.x[1], 1.0);
  EXPECT_EQ(r.x[3], 1.0);
  EXPECT_EQ(r.info.nodes, 1);
  // ½(1 + 1 + 1 + 1) at x = 1, z = 1, y = −1, w = 1.
  EXPECT_NEAR(r.objective, 2.0, 1e-7);
}

TEST(MiqpTest, NodeLimitReturnsTheBestSolutionWithItsGap) {
  const MiqpProblem problem = RandomMiqp(7, 8, 10, 6, 2);
  const double expected = BruteForceOptimum(problem);
  MiqpSettings settings;
  const MiqpResult full = Solve(problem, settings);
  ASSERT_EQ(full.status, MiqpStatus::kOptimal) << full.message;
  ASSERT_GT(full.info.nodes, 6) << "the instance must need more nodes than the limits below";
  for (const int limit : {3, full.info.nodes - 1}) {
    settings.node_limit = limit;
    const MiqpResult r = Solve(problem, settings);
    EXPECT_EQ(r.status, MiqpStatus::kNodeLimit) << r.message;
    EXPECT_EQ(ToString(r.status), "node_limit");
    EXPECT_EQ(r.info.nodes, limit);
    EXPECT_NE(r.message.find("node limit"), std::string::npos) << r.message;
    EXPECT_LE(r.best_bound, expected + ObjectiveTolerance(settings, expected));
    if (limit > 3) {
      ASSERT_TRUE(r.has_solution) << "one node short of the full run, an incumbent exists";
    }
    if (r.has_solution) {
      EXPECT_GE(r.objective, expected - ObjectiveTolerance(settings, expected));
      EXPECT_NEAR(r.gap, r.objective - r.best_bound, 1e-12 * std::max(1.0, std::abs(r.objective)));
      EXPECT_LE(IncumbentKktResidual(problem, r),
                10 * (settings.qp.absolute_tolerance + settings.qp.relative_tolerance));
    } else {
      EXPECT_EQ(r.gap, kInfinity);
    }
  }
}

TEST(MiqpTest, TimeLimitStopsTheSearchWithAValidBound) {
  const MiqpProblem problem = RandomMiqp(8, 8, 10, 6, 2);
  const double expected = BruteForceOptimum(problem);
  MiqpSettings settings;
  settings.time_limit_seconds = 1e-12;  // expires before the root is solved
  const MiqpResult r = Solve(problem, settings);
  EXPECT_EQ(r.status, MiqpStatus::kTimeLimit) << r.message;
  EXPECT_EQ(ToString(r.status), "time_limit");
  EXPECT_FALSE(r.has_solution);
  EXPECT_EQ(r.info.nodes, 0);
  EXPECT_LE(r.best_bound, expected);
  EXPECT_NE(r.message.find("time limit"), std::string::npos) << r.message;
  // (With a solution, a time limit reports it as the node limit does: the same exit path.)
}

// The binaries of brute force's optimum (one entry per binary).
std::vector<signed char> BruteForceArgmin(const MiqpProblem& problem) {
  const int nb = static_cast<int>(problem.binaries.size());
  double best = kInfinity;
  std::vector<signed char> argmin(nb, 0);
  for (int mask = 0; mask < (1 << nb); ++mask) {
    std::vector<int> values(nb);
    for (int k = 0; k < nb; ++k) values[k] = (mask >> k) & 1;
    const FixedQp q = SolveWithBinariesFixed(problem, values);
    if (q.status == SolverStatus::kSolved && q.objective < best) {
      best = q.objective;
      argmin.assign(values.begin(), values.end());
    }
  }
  return argmin;
}

TEST(MiqpTest, AGuessOfTheOptimumIsTheIncumbentBeforeTheTree) {
  const MiqpProblem problem = RandomMiqp(9, 6, 8, 5, 2);
  const double expected = BruteForceOptimum(problem);
  MiqpSettings settings;
  settings.node_limit = 1;
  settings.rounding_frequency = 0;
  MiqpSolver solver;
  solver.Setup(problem, settings);
  const MiqpResult& r = solver.Solve({BruteForceArgmin(problem)});
  ASSERT_TRUE(r.has_solution) << r.message;
  EXPECT_NEAR(r.objective, expected, ObjectiveTolerance(settings, expected));
  EXPECT_GE(r.info.heuristic_solves, 1);
  // The guess's objective is reported, and is the answer: the tree found nothing better.
  EXPECT_NEAR(r.info.guess_objective, expected, ObjectiveTolerance(settings, expected));
  EXPECT_EQ(solver.Solve().info.guess_objective, kInfinity);  // no guess
  EXPECT_THROW(solver.Solve({std::vector<signed char>(3, 0)}), std::invalid_argument);
  EXPECT_THROW(solver.Solve({std::vector<signed char>(8, 2)}), std::invalid_argument);
}

TEST(MiqpTest, ObjectiveOffsetShiftsObjectiveAndBoundOnly) {
  MiqpProblem problem = RandomMiqp(10, 5, 6, 4, 1);
  const MiqpResult plain = Solve(problem);
  problem.objective_offset = 1234.5;
  const MiqpResult shifted = Solve(problem);
  ASSERT_EQ(plain.status, MiqpStatus::kOptimal);
  ASSERT_EQ(shifted.status, MiqpStatus::kOptimal);
  EXPECT_NEAR(shifted.objective, plain.objective + 1234.5, 1e-9 * 1234.5);
  EXPECT_NEAR(shifted.best_bound, plain.best_bound + 1234.5, 1e-6 * 1234.5);
  EXPECT_LE(shifted.relative_gap, MiqpSettings().relative_gap_tolerance + 1e-12);
}

TEST(MiqpTest, BadInputThrowsNamingTheField) {
  MiqpProblem problem = RandomMiqp(1, 3, 3, 1, 0);
  const auto expect_message = [](const MiqpProblem& p, const MiqpSettings& s,
                                 const std::string& fragment) {
    try {
      Solve(p, s);
      FAIL() << "expected std::invalid_argument with " << fragment;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  MiqpProblem bad = problem;
  bad.binaries = {4, 3};
  expect_message(bad, {}, "binaries must be strictly increasing");
  bad.binaries = {3, 9};
  expect_message(bad, {}, "binaries[1] = 9");
  bad = problem;
  bad.fixed = {0, 1};
  expect_message(bad, {}, "fixed has size 2");
  bad.fixed = {0, 1, 2};
  expect_message(bad, {}, "fixed[2]");
  bad = problem;
  bad.continuous.c.resize(2);
  expect_message(bad, {}, "c has size");
  MiqpSettings settings;
  settings.node_limit = 0;
  expect_message(problem, settings, "node_limit");
  settings = MiqpSettings();
  settings.integrality_tolerance = 0.5;
  expect_message(problem, settings, "integrality_tolerance");
  settings = MiqpSettings();
  settings.time_limit_seconds = -1;
  expect_message(problem, settings, "time_limit_seconds");
  settings = MiqpSettings();
  settings.strong_branching_candidates = -1;
  expect_message(problem, settings, "strong_branching_candidates");
  MiqpSolver never_set_up;
  EXPECT_THROW(never_set_up.Solve(), std::invalid_argument);
}

// An independent solver: Bonmin (outer approximation, tests/reference/bonmin_miqp.h) on the
// same instances must reach the same optimal objective.
TEST(MiqpTest, MatchesBonminOnSmallRandomInstances) {
  const MiqpSettings settings;
  reference::BonminSettings bonmin;
  int compared = 0;
  for (const Size& size : {Size{4, 5, 3, 1}, Size{6, 8, 5, 2}, Size{10, 12, 8, 3}}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const MiqpProblem problem = RandomMiqp(500 + seed * 13 + size.binaries, size.continuous,
                                             size.binaries, size.rows, size.equalities);
      const MiqpResult ours = Solve(problem, settings);
      const reference::BonminResult theirs = reference::SolveWithBonmin(problem, bonmin);
      ASSERT_EQ(ours.status, MiqpStatus::kOptimal) << ours.message;
      ASSERT_TRUE(theirs.optimal) << "Bonmin: " << theirs.status;
      // Ipopt stops at a relative error of 1e-8; both answers lie within their gap
      // tolerances of the optimum.
      const double tolerance = ObjectiveTolerance(settings, theirs.objective) +
                               bonmin.absolute_gap +
                               1e-7 * std::max(1.0, std::abs(theirs.objective));
      EXPECT_NEAR(ours.objective, theirs.objective, tolerance)
          << "n_b=" << size.binaries << " seed=" << seed;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12);
}

TEST(MiqpTest, BonminAgreesOnInfeasibility) {
  MiqpProblem problem;
  problem.continuous.Q = SparseRowMatrix::FromDense(Eigen::MatrixXd::Identity(3, 3));
  problem.continuous.c = VectorXd::Zero(3);
  Eigen::MatrixXd G(2, 3);
  G << 0, 1, 1, 0, -1, -1;  // z1 + z2 >= 0.5 and z1 + z2 <= 0.7: only fractional points
  problem.continuous.G = SparseRowMatrix::FromDense(G);
  problem.continuous.h = VectorXd(2);
  problem.continuous.h << 0.5, -0.7;
  problem.binaries = {1, 2};
  const MiqpResult ours = Solve(problem);
  EXPECT_EQ(ours.status, MiqpStatus::kInfeasible) << ours.message;
  const reference::BonminResult theirs = reference::SolveWithBonmin(problem);
  EXPECT_TRUE(theirs.infeasible) << theirs.status;
}

}  // namespace
}  // namespace quasidyn
