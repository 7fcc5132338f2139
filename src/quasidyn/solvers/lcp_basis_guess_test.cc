// The warm start of lcp_basis_guess.h: the basis of a known solution gives that solution without
// a pivot; a wrong or singular basis is refused (Lemke's method then decides); no allocation.

#include "quasidyn/solvers/lcp_basis_guess.h"

#include <gtest/gtest.h>

#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

// A positive definite LCP of size n with a known solution: half the z's positive.
LcpProblem KnownLcp(testing::RandomProblems& random, int n, std::vector<char>* basic) {
  const Eigen::MatrixXd G = random.Gaussian(n, n);
  const Eigen::MatrixXd M = G * G.transpose() + Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n), w = Eigen::VectorXd::Zero(n);
  basic->assign(n, 0);
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      z[i] = random.Uniform(0.1, 2);
      (*basic)[i] = 1;
    } else {
      w[i] = random.Uniform(0.1, 2);
    }
  }
  return {M, w - M * z};
}

TEST(LcpBasisGuess, RightBasisGivesLemkesSolutionWithoutPivots) {
  testing::RandomProblems random(7);
  for (int n : {1, 4, 12}) {
    std::vector<char> basic;
    const LcpProblem p = KnownLcp(random, n, &basic);
    const LcpResult lemke = Solve(p);
    ASSERT_EQ(lemke.status, SolverStatus::kSolved);
    LcpBasisGuess guess;
    guess.Setup(n, LemkeSettings().residual_tolerance);
    LcpResult result;
    ASSERT_TRUE(guess.Solve(p, basic, &result)) << "n = " << n;
    EXPECT_EQ(result.status, SolverStatus::kSolved);
    EXPECT_EQ(result.info.pivots, 0);
    // It reports its own wall-clock time, as Lemke does (a warm-started step reported 0 s).
    EXPECT_GT(result.info.solve_time_seconds, 0.0);
    // The solution is unique (M positive definite): both to a few roundings of the data.
    const double tolerance = 1e-12 * (1 + lemke.z.lpNorm<Eigen::Infinity>()) * n;
    EXPECT_TRUE(testing::MatricesNear(result.z, lemke.z, tolerance));
    EXPECT_TRUE(testing::MatricesNear(result.w, p.M * result.z + p.q, 0.0));
  }
}

TEST(LcpBasisGuess, WrongOrSingularBasisIsRefused) {
  testing::RandomProblems random(8);
  std::vector<char> basic;
  const LcpProblem p = KnownLcp(random, 6, &basic);
  LcpBasisGuess guess;
  guess.Setup(6, 1e-10);
  LcpResult result;
  std::vector<char> wrong = basic;
  wrong[0] = 0;  // z_0 > 0 in the solution: with w_0 basic instead, w_0 < 0
  EXPECT_FALSE(guess.Solve(p, wrong, &result));
  EXPECT_EQ(result.status, SolverStatus::kNotRun);
  // A basis whose columns −M e_0 and −M e_1 are parallel is singular.
  LcpProblem singular = p;
  singular.M.col(1) = 2 * singular.M.col(0);
  std::vector<char> both(6, 0);
  both[0] = both[1] = 1;
  EXPECT_FALSE(guess.Solve(singular, both, &result));
  EXPECT_THROW(guess.Solve(p, std::vector<char>(5, 0), &result), std::invalid_argument);
  EXPECT_THROW(guess.Setup(3, 0.0), std::invalid_argument);
}

TEST(LcpBasisGuess, SolveDoesNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "allocation counting is off";
  testing::RandomProblems random(9);
  std::vector<char> basic;
  const LcpProblem p = KnownLcp(random, 10, &basic);
  LcpBasisGuess guess;
  guess.Setup(10, 1e-10);
  LcpResult result;
  ASSERT_TRUE(guess.Solve(p, basic, &result));  // sizes result.z, result.w
  testing::MallocCounter counter;
  ASSERT_TRUE(guess.Solve(p, basic, &result));
  EXPECT_EQ(counter.count(), 0);
}

// Sizes as a contact count moves (20, 8, 20, 8): the buffers keep their largest size, so once
// both sizes have been met neither Setup nor Solve allocates, and each answer is a fresh
// guess's bit for bit.
TEST(LcpBasisGuess, ASetupForASizeMetBeforeOrSmallerAllocatesNothing) {
  testing::RandomProblems random(10);
  std::vector<std::vector<char>> bases(2);
  const LcpProblem problems[2] = {KnownLcp(random, 20, &bases[0]), KnownLcp(random, 8, &bases[1])};
  LcpBasisGuess reused;
  LcpResult results[2];  // one per size, sized by a first Solve
  for (int k = 0; k < 4; ++k) {
    const LcpProblem& p = problems[k % 2];
    const int n = static_cast<int>(p.q.size());
    long allocations = 0;
    {
      testing::MallocCounter counter;
      reused.Setup(n, 1e-10);
      ASSERT_TRUE(reused.Solve(p, bases[k % 2], &results[k % 2])) << "n = " << n;
      allocations = counter.count();
    }
    LcpBasisGuess fresh;
    fresh.Setup(n, 1e-10);
    LcpResult fresh_result;
    ASSERT_TRUE(fresh.Solve(p, bases[k % 2], &fresh_result));
    EXPECT_EQ(results[k % 2].z, fresh_result.z) << "n = " << n;
    EXPECT_EQ(results[k % 2].w, fresh_result.w) << "n = " << n;
    // From the third call on every size has been met (and each result sized by its first
    // Solve, the caller's storage).
    if (k >= 2 && testing::MallocCountingAvailable()) {
      EXPECT_EQ(allocations, 0) << "call " << k << ", n = " << n;
    }
  }
}

}  // namespace
}  // namespace quasidyn
