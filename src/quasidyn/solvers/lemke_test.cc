#include "quasidyn/solvers/lemke.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/siconos_lcp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kLemkeEpsilon = std::numeric_limits<double>::epsilon();

// Tolerance for a pivoting method: a few thousand roundings of the data's magnitude.
double PivotTolerance(const LcpProblem& p) {
  return 1e4 * kLemkeEpsilon * (1 + p.M.lpNorm<Eigen::Infinity>() + p.q.lpNorm<Eigen::Infinity>()) *
         static_cast<double>(p.q.size());
}

void ExpectComplementary(const LcpProblem& p, const LcpResult& r) {
  const double tol = PivotTolerance(p);
  EXPECT_LE((r.w - p.M * r.z - p.q).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_GE(r.z.minCoeff(), -tol);
  EXPECT_GE(r.w.minCoeff(), -tol);
  EXPECT_LE(r.w.cwiseProduct(r.z).cwiseAbs().maxCoeff(), tol * (1 + r.z.lpNorm<Eigen::Infinity>()));
}

using testing::SiconosSolution;
using testing::SolveWithSiconos;

// w = Mz + q built around a known complementary pair, so a solution exists.
LcpProblem SolvableLcp(testing::RandomProblems& random, const MatrixXd& M) {
  const int n = static_cast<int>(M.rows());
  VectorXd z = VectorXd::Zero(n), w = VectorXd::Zero(n);
  for (int i = 0; i < n; ++i) {
    if (random.Uniform(0, 1) < 0.5) {
      z[i] = random.Uniform(0.1, 2);
    } else {
      w[i] = random.Uniform(0.1, 2);
    }
  }
  return {M, w - M * z};
}

TEST(LemkeTest, HandComputedTwoByTwo) {
  // M = [[2, 1], [1, 2]], q = (−5, −6): interior solution z = M⁻¹(5, 6) = (4/3, 7/3), w = 0.
  LcpProblem p{MatrixXd(2, 2), VectorXd(2)};
  p.M << 2, 1, 1, 2;
  p.q << -5, -6;
  const LcpResult r = Solve(p);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_NEAR(r.z[0], 4.0 / 3, PivotTolerance(p));
  EXPECT_NEAR(r.z[1], 7.0 / 3, PivotTolerance(p));
  // q >= 0: z = 0 with no pivot.
  p.q << 1, 0;
  const LcpResult trivial = Solve(p);
  EXPECT_EQ(trivial.status, SolverStatus::kSolved);
  EXPECT_EQ(trivial.info.pivots, 0);
  EXPECT_EQ(trivial.z, VectorXd::Zero(2));
}

TEST(LemkeTest, PositiveDefiniteMatchesSiconos) {
  for (int n : {1, 3, 8, 20, 40}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      testing::RandomProblems random(seed * 13 + n);
      // M = PD symmetric part plus a skew part: positive definite, not symmetric.
      const MatrixXd skew = random.Gaussian(n, n);
      const MatrixXd M =
          random.PsdMatrix(n, n) + 0.5 * MatrixXd::Identity(n, n) + skew - skew.transpose();
      const LcpProblem p{M, random.GaussianVector(n)};
      const LcpResult r = Solve(p);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      ExpectComplementary(p, r);
      const SiconosSolution reference = SolveWithSiconos(p);
      ASSERT_EQ(reference.info, 0);
      // M positive definite: the solution is unique, so both pivoting methods must agree.
      EXPECT_LE((r.z - reference.z).lpNorm<Eigen::Infinity>(), 10 * PivotTolerance(p))
          << "n=" << n << " seed=" << seed;
    }
  }
}

TEST(LemkeTest, PositiveSemidefiniteGramMatrixMatchesSiconos) {
  for (int n : {4, 10, 25}) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      testing::RandomProblems random(seed * 7 + n);
      const MatrixXd A = random.Gaussian(n, n / 2);  // M = A Aᵀ, rank n/2: copositive-plus
      const LcpProblem p = SolvableLcp(random, A * A.transpose());
      const LcpResult r = Solve(p);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      ExpectComplementary(p, r);
      const SiconosSolution reference = SolveWithSiconos(p);
      ASSERT_EQ(reference.info, 0);
      // z need not be unique for singular M, but w = Mz + q is (M symmetric PSD).
      EXPECT_LE((r.w - reference.w).lpNorm<Eigen::Infinity>(), 10 * PivotTolerance(p));
    }
  }
}

TEST(LemkeTest, DegenerateProblemTerminates) {
  // Many ties in q and in M's columns (degenerate ratios): the lexicographic rule must not
  // cycle. M = [[1,1,1],[1,1,1],[1,1,1]] + I, q = (−1, −1, −1).
  LcpProblem p{MatrixXd::Ones(3, 3) + MatrixXd::Identity(3, 3), VectorXd::Constant(3, -1.0)};
  const LcpResult r = Solve(p);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  ExpectComplementary(p, r);
  // Symmetric solution z = 1/4 · 1 (M z = q by symmetry: 4 z_i = 1) is the unique one (M PD).
  EXPECT_LE((r.z - VectorXd::Constant(3, 0.25)).lpNorm<Eigen::Infinity>(), PivotTolerance(p));
  // Degenerate with a zero matrix block: M = 0 (PSD), q with zeros and ties.
  LcpProblem zero{MatrixXd::Zero(4, 4), VectorXd(4)};
  zero.q << 0, 1, 0, 2;
  EXPECT_EQ(Solve(zero).status, SolverStatus::kSolved);
}

TEST(LemkeTest, InfeasibleEndsOnRay) {
  // w = −z − 1 cannot be >= 0 for z >= 0 (here M = −1 is not copositive-plus): ray.
  const LcpProblem scalar{MatrixXd::Constant(1, 1, -1.0), VectorXd::Constant(1, -1.0)};
  const LcpResult r = Solve(scalar);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible);
  EXPECT_NE(r.message.find("ray"), std::string::npos) << r.message;
  // PSD but infeasible: w1 = z2 − 1, w2 = −z1 − 1 (M skew, copositive-plus), w2 < 0 always.
  LcpProblem skew{MatrixXd(2, 2), VectorXd(2)};
  skew.M << 0, 1, -1, 0;
  skew.q << -1, -1;
  EXPECT_EQ(Solve(skew).status, SolverStatus::kInfeasible);
}

TEST(LemkeTest, KktOfQpGivesSameSolutionAsInteriorPoint) {
  // QP min ½xᵀQx + cᵀx, Gx >= h, Q PD: x = Q⁻¹(Gᵀz − c), and the slack w = Gx − h gives
  // LCP(M = G Q⁻¹ Gᵀ, q = −G Q⁻¹ c − h) in the multipliers z.
  for (unsigned seed = 0; seed < 5; ++seed) {
    testing::RandomProblems random(seed + 300);
    const int n = 8, m = 12;
    testing::DenseQp qp;
    qp.Q = random.PsdMatrix(n, n) + MatrixXd::Identity(n, n);
    qp.c = random.GaussianVector(n);
    qp.G = random.Gaussian(m, n);
    qp.h = qp.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.1, 1.0);
    const QpResult interior_point = Solve(qp.ToSparse());
    ASSERT_EQ(interior_point.status, SolverStatus::kSolved);
    const auto Q_ldlt = qp.Q.ldlt();
    const MatrixXd Q_inverse_Gt = Q_ldlt.solve(qp.G.transpose());
    const LcpProblem lcp{qp.G * Q_inverse_Gt, -qp.G * Q_ldlt.solve(qp.c) - qp.h};
    const LcpResult r = Solve(lcp);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    const VectorXd x = Q_ldlt.solve(qp.G.transpose() * r.z - qp.c);
    // The interior point stops at relative 1e-9 residuals; Q's smallest eigenvalue is >= 1.
    EXPECT_LE((x - interior_point.x).lpNorm<Eigen::Infinity>(), 1e-6);
  }
}

TEST(LemkeTest, PivotLimitAndBadInput) {
  testing::RandomProblems random(4);
  const MatrixXd M = random.PsdMatrix(10, 10) + MatrixXd::Identity(10, 10);
  const LcpProblem p{M, -VectorXd::Ones(10) - random.UniformVector(10, 0, 1)};
  LemkeSettings settings;
  settings.max_pivots = 2;
  EXPECT_EQ(Solve(p, settings).status, SolverStatus::kMaxIterations);
  EXPECT_THROW(Solve(LcpProblem{MatrixXd::Zero(2, 3), VectorXd::Zero(2)}), std::invalid_argument);
  LemkeSolver sized_for_10;
  sized_for_10.Setup(10);
  EXPECT_THROW(sized_for_10.Solve(LcpProblem{MatrixXd::Identity(3, 3), VectorXd::Zero(3)}),
               std::invalid_argument);
  settings.max_pivots = -1;
  try {
    Solve(p, settings);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_pivots"), std::string::npos) << e.what();
  }
}

// The Stewart–Trinkle LCP of Pang & Tedrake 2021, eq. (6) (built as in
// dynamics/quasistatic_lcp.h) for random contacts: M's upper block J P⁻¹ Jᵀ has rank
// n_v = 12 < 50, and 70 % of the contacts touch (φ = 0), so the problem is degenerate and
// rank deficient like the arm_cubes step. Without the tie tolerance and the retries of
// LemkeSettings, 16 of these 40 end on a false ray (Siconos' lexicographic Lemke solves all of
// them).
LcpProblem RandomContactLcp(unsigned seed) {
  const int nv = 12, nc = 10, nd = 4, nf = nc * nd, n = nc + nf + nc;
  testing::RandomProblems random(seed);
  const VectorXd p_inverse = random.UniformVector(nv, 1e-3, 1.0).cwiseInverse();
  const VectorXd tau = random.GaussianVector(nv);
  MatrixXd J(nc + nf, nv);  // rows: J_n (nc), then J_d (nd per contact)
  VectorXd phi(nc), mu(nc);
  for (int i = 0; i < nc; ++i) {
    J.row(i) = random.GaussianVector(nv).transpose();
    const VectorXd t1 = random.GaussianVector(nv), t2 = random.GaussianVector(nv);
    for (int j = 0; j < nd; ++j) {
      const double angle = 2 * M_PI * j / nd;
      J.row(nc + i * nd + j) = (std::cos(angle) * t1 + std::sin(angle) * t2).transpose();
    }
    phi[i] = random.Uniform(0, 1) < 0.7 ? 0.0 : random.Uniform(0, 0.1);
    mu[i] = random.Uniform(0.2, 1.0);
  }
  const MatrixXd J_P_inverse = J * p_inverse.asDiagonal();
  LcpProblem lcp{MatrixXd::Zero(n, n), VectorXd::Zero(n)};
  lcp.M.topLeftCorner(nc + nf, nc + nf) = J_P_inverse * J.transpose();
  for (int i = 0; i < nc; ++i) {
    for (int j = 0; j < nd; ++j) {
      lcp.M(nc + i * nd + j, nc + nf + i) = 1;   // E
      lcp.M(nc + nf + i, nc + i * nd + j) = -1;  // −Eᵀ
    }
    lcp.M(nc + nf + i, i) = mu[i];
  }
  lcp.q.head(nc + nf) = J_P_inverse * tau;
  lcp.q.head(nc) += phi;
  return lcp;
}

TEST(LemkeTest, RankDeficientDegenerateContactLcps) {
  for (unsigned seed = 0; seed < 40; ++seed) {
    const LcpProblem p = RandomContactLcp(seed);
    const LcpResult r = Solve(p);
    if (r.status == SolverStatus::kSolved) {
      ExpectComplementary(p, r);
    } else {
      // Only allowed where the independent reference does not solve it either.
      EXPECT_NE(SolveWithSiconos(p).info, 0) << "seed " << seed << ": " << r.message;
    }
  }
}

// An LCP stored in testdata/NAME: '#' comment lines, n, M row by row, q.
LcpProblem LcpFromTestdata(const std::string& name) {
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) + "/src/quasidyn/solvers/testdata/" + name);
  if (!file) throw std::runtime_error("cannot open testdata/" + name);
  std::string line;
  while (file.peek() == '#') std::getline(file, line);
  int n = 0;
  file >> n;
  LcpProblem p{MatrixXd(n, n), VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) file >> p.M(i, j);
  }
  for (int i = 0; i < n; ++i) file >> p.q[i];
  if (!file) throw std::runtime_error("malformed testdata/" + name);
  return p;
}

// The documented final check (LemkeSettings::residual_tolerance), in units of w.
double Violation(const LcpProblem& p, const VectorXd& z, const VectorXd& w) {
  const double complementarity =
      w.cwiseProduct(z).cwiseAbs().maxCoeff() / std::max(z.lpNorm<Eigen::Infinity>(), 1e-300);
  return std::max({(w - p.M * z - p.q).lpNorm<Eigen::Infinity>(), -w.minCoeff(),
                   -z.minCoeff() * p.M.lpNorm<Eigen::Infinity>(), complementarity});
}
double CheckScale(const LcpProblem& p, const VectorXd& z) {
  return p.q.lpNorm<Eigen::Infinity>() +
         p.M.lpNorm<Eigen::Infinity>() * z.lpNorm<Eigen::Infinity>();
}

// Stewart–Trinkle steps that ended on a false secondary ray (docs/mpc.md; the drawer of
// second_order_model_test.cc), each a feasible LCP that Siconos' lexicographic Lemke solves.
// Drawer: q's tangential rows are rounding (±2e-23) of exact zeros, so z = 0 passes the final
// check; pivoting on it ended on a ray after 1 pivot. Corner: ‖q‖∞ ≈ 5e-9 m/s (the robot at
// rest against two walls), below the tolerances that were absolute under 1: a ray after 1
// pivot, and a rejected pair after 3.
TEST(LemkeTest, StewartTrinkleStepsThatEndedOnAFalseRay) {
  for (const char* name : {"drawer_stewart_trinkle_lcp.txt", "corner_stewart_trinkle_lcp.txt",
                           "corner_stewart_trinkle_lcp_2.txt"}) {
    SCOPED_TRACE(name);
    const LcpProblem p = LcpFromTestdata(name);
    const LemkeSettings settings;
    const LcpResult r = Solve(p, settings);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    ExpectComplementary(p, r);
    const double scale = CheckScale(p, r.z);
    EXPECT_LE(Violation(p, r.z, r.w), settings.residual_tolerance * scale);
    const SiconosSolution reference = SolveWithSiconos(p);
    ASSERT_EQ(reference.info, 0);
    const double reference_violation = Violation(p, reference.z, reference.w);
    std::cout << "[ lcp     ] " << name << ": " << r.info.pivots << " pivots, z " << r.z.transpose()
              << "; violation " << Violation(p, r.z, r.w) << " (scale " << scale << "); Siconos z "
              << reference.z.transpose() << ", violation " << reference_violation << "\n";
    // Both answers solve the LCP to the same relative accuracy: the contact velocities
    // w = Mz + q are what the step uses; M here has a PSD velocity block, so w's velocity rows
    // agree wherever the solution's (λ_n, λ_f) part is unique.
    EXPECT_LE(reference_violation, settings.residual_tolerance * CheckScale(p, reference.z));
  }
}

// The closing fingers of docs/formulations.md's time-step study reach the red cube (testdata
// header: a sub-LCP of ground-truth step 40627, redundant contacts, M of rank far below n). The
// old ratio test tied every ratio below the absolute 1e-9 (ratios b_i/a_i of 1e-13 on columns
// of 1e6 among them), let z0 leave on such a false tie, and the retries ran to their pivot
// limits: 4143 pivots, then a false ray. Now the tie test asks whether a row's value would stay
// within the tolerance of 0 at the step taken (lemke.h): solved within a few n pivots (81 for
// n = 78 here; the bound 4(n + 1) is ours, an order below one run's limit 50(n + 1)).
TEST(LemkeTest, FingersClosingOnACubeSolveWithoutLongPivotSequences) {
  const LcpProblem p = LcpFromTestdata("finger_grasp_stewart_trinkle_lcp.txt");
  const int n = static_cast<int>(p.q.size());
  const LemkeSettings settings;
  const LcpResult r = Solve(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_LE(r.info.pivots, 4 * (n + 1));
  ExpectComplementary(p, r);
  EXPECT_LE(Violation(p, r.z, r.w), settings.residual_tolerance * CheckScale(p, r.z));
  std::cout << "[ lcp     ] finger grasp: " << r.info.pivots << " pivots, violation "
            << Violation(p, r.z, r.w) << " (scale " << CheckScale(p, r.z) << ")\n";
}

// A basis met twice ends a run at once, naming cycling, instead of going round to the pivot
// limit; the regularised retry on M̂ + δI (lemke.h) then solves the problem asked. The LCP
// (testdata header) is one on which every unregularised run cycles.
TEST(LemkeTest, CyclingEndsTheRunAndTheRegularisedRetrySolves) {
  const LcpProblem p = LcpFromTestdata("finger_grasp_cycling_lcp.txt");
  const int n = static_cast<int>(p.q.size());
  LemkeSettings unregularised;
  unregularised.regularisation = 0.0;
  const LcpResult cycled = Solve(p, unregularised);
  EXPECT_EQ(cycled.status, SolverStatus::kNumericalFailure);
  EXPECT_NE(cycled.message.find("cycling"), std::string::npos) << cycled.message;
  // Four runs (the pivot-tolerance retries), each far below its limit 50(n + 1).
  EXPECT_LE(cycled.info.pivots, 4 * (n + 1));
  const LemkeSettings settings;
  const LcpResult r = Solve(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_LE(r.info.pivots, 6 * (n + 1));
  ExpectComplementary(p, r);
  EXPECT_LE(Violation(p, r.z, r.w), settings.residual_tolerance * CheckScale(p, r.z));
}

// LemkeSettings::regularisation outside [0, 1e-6] (or NaN) is refused, naming the field.
TEST(LemkeTest, RegularisationOutsideItsRangeIsRefused) {
  for (const double bad : {-1e-12, 2e-6, std::numeric_limits<double>::quiet_NaN()}) {
    LemkeSettings settings;
    settings.regularisation = bad;
    try {
      ValidateLemkeSettings(settings);
      FAIL() << "expected std::invalid_argument for " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("regularisation"), std::string::npos) << e.what();
    }
  }
}

// n = 0 (a step without contacts): solved, no pivot (q's normalisation reads min q only when
// there is one).
TEST(LemkeTest, EmptyLcpIsSolvedWithoutPivots) {
  const LcpResult r = Solve(LcpProblem{MatrixXd(0, 0), VectorXd(0)});
  EXPECT_EQ(r.status, SolverStatus::kSolved);
  EXPECT_EQ(r.info.pivots, 0);
  EXPECT_EQ(r.z.size(), 0);
}

// The Stewart–Trinkle LCP (formulations/programs/quasistatic_lcp.h) of a unit point mass in the
// plane resting on the ground (contact 1: normal +z, friction rays ±x, μ = 0.5) with a second
// contact far away (normal −z, rays ±x, gap φ_2), at h = 5e-5 s: q_n1 = −g h (gravity's
// velocity, −4.9e-4 m/s) and q_n2 = g h + φ_2/h. With φ_2/h = 1e6 m/s, ‖q‖∞ is 2e9 |min q|, as
// in the arm_cubes scene under stewart-trinkle at h = 5e-5 s (‖q‖∞ = 9.1e4 against
// min q = −5.0e-5 while the stack rests). Normalised by ‖q‖∞, q_n1 fell within the tie
// tolerance of the friction and Γ rows' exact zeros, the first pivot took the last Γ row and
// the method ended on a secondary ray after 1 pivot, on every retry (the rescaled retries of
// dynamics/contact_lcp_solver.h see the same normalised data). The answer: λ_n1 = g h, the rest 0.
TEST(LemkeTest, RestingContactBesideAFarContactAtASmallStep) {
  const double h = 5e-5, g = 9.81, mu = 0.5;  // [s], [m/s²], [-]
  const double far_gap_rate = 1e6;            // φ_2/h [m/s]
  // z = (λ_n1, λ_n2, λ_f1 (+x, −x), λ_f2 (+x, −x), Γ_1, Γ_2); P = I, v = v_free + Jᵀz.
  MatrixXd J(6, 2);  // rows: n1, n2, f1+, f1−, f2+, f2−
  J << 0, 1, 0, -1, 1, 0, -1, 0, 1, 0, -1, 0;
  const Eigen::Vector2d v_free(0.0, -g * h);
  LcpProblem p{MatrixXd::Zero(8, 8), VectorXd::Zero(8)};
  p.M.topLeftCorner(6, 6) = J * J.transpose();
  p.q.head(6) = J * v_free;
  p.q[1] += far_gap_rate;
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < 2; ++k) {
      p.M(2 + 2 * c + k, 6 + c) = 1.0;   // w_f = Γ e + J_d v
      p.M(6 + c, 2 + 2 * c + k) = -1.0;  // w_Γ = μ λ_n − eᵀ λ_f
    }
    p.M(6 + c, c) = mu;
  }
  const LemkeSettings settings;
  const LcpResult r = Solve(p, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  ExpectComplementary(p, r);
  EXPECT_NEAR(r.z[0], g * h, PivotTolerance(p));
  EXPECT_LE(r.z.tail(7).lpNorm<Eigen::Infinity>(), PivotTolerance(p));
  const SiconosSolution reference = SolveWithSiconos(p);
  ASSERT_EQ(reference.info, 0);
  EXPECT_NEAR(reference.z[0], r.z[0], PivotTolerance(p));
}

// The pivots depend on M and q only through their normalised copies (lemke.h): scaling M and q
// by powers of two gives the same pivots and z scaled exactly, whatever the magnitudes.
TEST(LemkeTest, PowerOfTwoScalingsGiveTheSamePivots) {
  for (unsigned seed = 0; seed < 10; ++seed) {
    const LcpProblem p = RandomContactLcp(seed);
    const LcpResult r = Solve(p);
    for (const int m_exponent : {-20, 0, 12}) {
      for (const int q_exponent : {-40, -10, 0, 20}) {
        const LcpProblem scaled{std::ldexp(1.0, m_exponent) * p.M,
                                std::ldexp(1.0, q_exponent) * p.q};
        const LcpResult s = Solve(scaled);
        EXPECT_EQ(s.status, r.status) << "seed " << seed;
        EXPECT_EQ(s.info.pivots, r.info.pivots) << "seed " << seed;
        // M z + q = w with (2^a M, 2^b q): z' = 2^(b − a) z, bit for bit.
        EXPECT_EQ(s.z, std::ldexp(1.0, q_exponent - m_exponent) * r.z) << "seed " << seed;
      }
    }
  }
}

TEST(LemkeTest, ReportedStatusMatchesTheReturnedPair) {
  // Whatever the status, "solved" must mean the returned pair passes the documented check.
  for (unsigned seed = 0; seed < 40; ++seed) {
    const LcpProblem p = RandomContactLcp(seed);
    const LemkeSettings settings;
    const LcpResult r = Solve(p, settings);
    if (r.status != SolverStatus::kSolved) continue;
    const double scale = p.q.lpNorm<Eigen::Infinity>() +
                         p.M.lpNorm<Eigen::Infinity>() * r.z.lpNorm<Eigen::Infinity>();
    EXPECT_LE((r.w - p.M * r.z - p.q).lpNorm<Eigen::Infinity>(),
              settings.residual_tolerance * scale);
    EXPECT_GE(r.w.minCoeff(), -settings.residual_tolerance * scale);
    EXPECT_GE(r.z.minCoeff(), -settings.residual_tolerance * scale);
  }
}

TEST(LemkeTest, ReusedSolverGivesTheBitsOfAFreshOneWithoutAllocating) {
  // One solver for a sequence of contact LCPs of one size (the time steps of a scene whose
  // contacts do not change): each answer equals a fresh solver's, and Solve does not allocate.
  LemkeSolver reused;
  const int n = static_cast<int>(RandomContactLcp(0).q.size());
  reused.Setup(n);
  for (unsigned seed = 0; seed < 10; ++seed) {
    const LcpProblem p = RandomContactLcp(seed);
    ASSERT_EQ(p.q.size(), n);
    long allocations = 0;
    {
      testing::MallocCounter counter;
      reused.Solve(p);
      allocations = counter.count();
    }
    const LcpResult fresh = Solve(p);
    const LcpResult& r = reused.result();
    EXPECT_EQ(r.status, fresh.status) << "seed " << seed;
    EXPECT_EQ(r.z, fresh.z) << "seed " << seed;
    if (testing::MallocCountingAvailable() && r.status == SolverStatus::kSolved) {
      EXPECT_EQ(allocations, 0) << "seed " << seed;
    }
  }
}

// Sizes as a contact count moves (30, 12, 30, 20, 12): Setup keeps its storage at its largest
// size and its results' vectors for each size met, so a Setup and Solve for a size met before
// allocate nothing, and every answer is a fresh solver's bit for bit.
TEST(LemkeTest, ASetupForASizeMetBeforeAllocatesNothingAndSolvesAsAFreshSolver) {
  testing::RandomProblems random(7);
  const int sizes[] = {30, 12, 30, 20, 12};
  LemkeSolver reused;
  for (int k = 0; k < 5; ++k) {
    const int n = sizes[k];
    const LcpProblem p{random.PsdMatrix(n, n) + MatrixXd::Identity(n, n),
                       -VectorXd::Ones(n) - random.UniformVector(n, 0, 1)};
    long allocations = 0;
    {
      testing::MallocCounter counter;
      reused.Setup(n);
      reused.Solve(p);
      allocations = counter.count();
    }
    const LcpResult fresh = Solve(p);
    ASSERT_EQ(reused.result().status, SolverStatus::kSolved) << "n = " << n;
    EXPECT_EQ(reused.result().z, fresh.z) << "n = " << n;
    EXPECT_EQ(reused.result().w, fresh.w) << "n = " << n;
    const bool met_before = k == 2 || k == 4;
    if (met_before && testing::MallocCountingAvailable()) {
      EXPECT_EQ(allocations, 0) << "call " << k << ", n = " << n;
    }
  }
}

TEST(LemkeTest, FailuresWriteTheirMessagesWithoutAllocating) {
  // A ray (every pivot tolerance fails: three runs, three messages) after a solved problem,
  // then the solved one again: the messages go into room Setup reserved.
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no allocation counting here";
  LemkeSolver solver;
  solver.Setup(2);
  LcpProblem skew{MatrixXd(2, 2), VectorXd(2)};
  skew.M << 0, 1, -1, 0;
  skew.q << -1, -1;
  const LcpProblem easy{MatrixXd::Identity(2, 2), VectorXd::Constant(2, -1.0)};
  solver.Solve(easy);
  const LcpProblem* const problems[] = {&skew, &easy, &skew};
  for (const LcpProblem* problem : problems) {
    long allocations = 0;
    {
      testing::MallocCounter counter;
      solver.Solve(*problem);
      allocations = counter.count();
    }
    EXPECT_EQ(allocations, 0);
  }
  EXPECT_EQ(solver.result().status, SolverStatus::kInfeasible);
  EXPECT_EQ(solver.result().message.rfind("secondary ray: entering variable ", 0), 0u)
      << solver.result().message;
}

}  // namespace
}  // namespace quasidyn
