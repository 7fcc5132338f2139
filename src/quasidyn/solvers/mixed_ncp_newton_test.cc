#include "quasidyn/solvers/mixed_ncp_newton.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "quasidyn/solvers/lemke.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/siconos_mcp.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// LCP(M, q) as a mixed NCP without free unknowns: F(z) = M z + q.
class LcpFunction final : public MixedNcpFunction {
 public:
  LcpFunction(MatrixXd M, VectorXd q) : M_(std::move(M)), q_(std::move(q)) {}
  bool Evaluate(const VectorXd& z, VectorXd* F, MatrixXd* J) override {
    *F = q_;
    F->noalias() += M_ * z;
    if (J) *J = M_;
    return true;
  }
  std::vector<NcpKind> kinds() const {
    return std::vector<NcpKind>(q_.size(), NcpKind::kComplementarity);
  }

 private:
  MatrixXd M_;
  VectorXd q_;
};

// Kojima & Shindo (1986), the classic NCP with two solutions: (1, 0, 3, 0), non-degenerate,
// and (√6/2, 0, 0, ½), degenerate (z_3 = F_3 = 0).
class KojimaShindo final : public MixedNcpFunction {
 public:
  bool Evaluate(const VectorXd& x, VectorXd* F, MatrixXd* J) override {
    (*F)[0] = 3 * x[0] * x[0] + 2 * x[0] * x[1] + 2 * x[1] * x[1] + x[2] + 3 * x[3] - 6;
    (*F)[1] = 2 * x[0] * x[0] + x[0] + x[1] * x[1] + 10 * x[2] + 2 * x[3] - 2;
    (*F)[2] = 3 * x[0] * x[0] + x[0] * x[1] + 2 * x[1] * x[1] + 2 * x[2] + 9 * x[3] - 9;
    (*F)[3] = x[0] * x[0] + 3 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 3;
    if (J) {
      *J << 6 * x[0] + 2 * x[1], 2 * x[0] + 4 * x[1], 1, 3,  //
          4 * x[0] + 1, 2 * x[1], 10, 2,                     //
          6 * x[0] + x[1], x[0] + 4 * x[1], 2, 9,            //
          2 * x[0], 6 * x[1], 2, 3;
    }
    return true;
  }
};

// The KKT conditions of min ½xᵀQx + cᵀx s.t. Ax = b, x >= 0, with the unknowns interleaved
// (x_0, y_0, x_1, y_1, …): 0 <= x ⊥ Qx + c − Aᵀy >= 0 and Ax − b = 0 (y free).
class QpKkt final : public MixedNcpFunction {
 public:
  QpKkt(MatrixXd Q, VectorXd c, MatrixXd A, VectorXd b)
      : Q_(std::move(Q)), c_(std::move(c)), A_(std::move(A)), b_(std::move(b)) {}
  int nx() const { return static_cast<int>(c_.size()); }
  int ny() const { return static_cast<int>(b_.size()); }
  // Index of x_i and y_j in z.
  int X(int i) const { return i < ny() ? 2 * i : ny() + i; }
  int Y(int j) const { return 2 * j + 1; }
  std::vector<NcpKind> kinds() const {
    std::vector<NcpKind> k(nx() + ny(), NcpKind::kComplementarity);
    for (int j = 0; j < ny(); ++j) k[Y(j)] = NcpKind::kFree;
    return k;
  }
  void Split(const VectorXd& z, VectorXd* x, VectorXd* y) const {
    x->resize(nx());
    y->resize(ny());
    for (int i = 0; i < nx(); ++i) (*x)[i] = z[X(i)];
    for (int j = 0; j < ny(); ++j) (*y)[j] = z[Y(j)];
  }
  bool Evaluate(const VectorXd& z, VectorXd* F, MatrixXd* J) override {
    for (int i = 0; i < nx(); ++i) {
      double v = c_[i];
      for (int k = 0; k < nx(); ++k) v += Q_(i, k) * z[X(k)];
      for (int j = 0; j < ny(); ++j) v -= A_(j, i) * z[Y(j)];
      (*F)[X(i)] = v;
    }
    for (int j = 0; j < ny(); ++j) {
      double v = -b_[j];
      for (int k = 0; k < nx(); ++k) v += A_(j, k) * z[X(k)];
      (*F)[Y(j)] = v;
    }
    if (J) {
      J->setZero();
      for (int i = 0; i < nx(); ++i) {
        for (int k = 0; k < nx(); ++k) (*J)(X(i), X(k)) = Q_(i, k);
        for (int j = 0; j < ny(); ++j) {
          (*J)(X(i), Y(j)) = -A_(j, i);
          (*J)(Y(j), X(i)) = A_(j, i);
        }
      }
    }
    return true;
  }

 private:
  MatrixXd Q_;
  VectorXd c_;
  MatrixXd A_;
  VectorXd b_;
};

// x² − 2 = 0 and 0 <= y ⊥ y − x >= 0 … with only the equation: x = √2 (free unknowns only).
class SquareRoot final : public MixedNcpFunction {
 public:
  bool Evaluate(const VectorXd& z, VectorXd* F, MatrixXd* J) override {
    (*F)[0] = z[0] * z[0] - 2.0;
    if (J) (*J)(0, 0) = 2.0 * z[0];
    return true;
  }
};

// The largest violation of the mixed NCP's conditions at z (units of F and z).
double NcpViolation(MixedNcpFunction& f, const std::vector<NcpKind>& kinds, const VectorXd& z) {
  VectorXd F = VectorXd::Zero(z.size());
  MatrixXd J = MatrixXd::Zero(z.size(), z.size());
  f.Evaluate(z, &F, &J);
  double worst = 0.0;
  for (int i = 0; i < z.size(); ++i) {
    if (kinds[i] == NcpKind::kFree) {
      worst = std::max(worst, std::abs(F[i]));
    } else {
      worst = std::max({worst, -z[i], -F[i], std::abs(std::min(z[i], F[i]))});
    }
  }
  return worst;
}

TEST(FischerBurmeister, VanishesExactlyOnComplementaryPairsWithoutCancellation) {
  EXPECT_EQ(FischerBurmeister(0.0, 3.0), 0.0);
  EXPECT_EQ(FischerBurmeister(2.0, 0.0), 0.0);
  EXPECT_LT(FischerBurmeister(-1e-3, 5.0), 0.0);
  EXPECT_GT(FischerBurmeister(1.0, 1.0), 0.0);
  // 2ab/(a + b + r) for a = 1e8, b = 1e-8: 2/(1e8 + …) ≈ 2e-8, lost by a + b − r.
  EXPECT_NEAR(FischerBurmeister(1e8, 1e-8), 1e-8, 1e-20);
}

TEST(MixedNcpSolver, SolvesASmallLcpWithItsKnownSolution) {
  // M z + q = 0 with z = (4/3, 7/3) > 0: both complementarity pairs have w = 0.
  MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  LcpFunction f(M, VectorXd::Map(std::vector<double>{-5, -6}.data(), 2));
  MixedNcpSolver solver;
  solver.Setup(f.kinds());
  const MixedNcpResult& r = solver.Solve(f, VectorXd::Zero(2));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_NEAR(r.z[0], 4.0 / 3.0, 1e-10);
  EXPECT_NEAR(r.z[1], 7.0 / 3.0, 1e-10);
  EXPECT_LE(r.info.residual, solver.settings().tolerance);
  EXPECT_EQ(r.info.iterations, r.info.newton_steps + r.info.min_newton_steps +
                                   r.info.levenberg_marquardt_steps + r.info.gradient_steps);
  EXPECT_NEAR(r.info.merit, 0.5 * r.phi.squaredNorm(), 1e-30);
}

TEST(MixedNcpSolver, RandomLcpsAgreeWithLemkeAndSiconos) {
  testing::RandomProblems random(19);
  for (int n : {3, 10, 30}) {
    for (int trial = 0; trial < 5; ++trial) {
      const MatrixXd M = random.PsdMatrix(n, n) + 0.1 * MatrixXd::Identity(n, n);
      const VectorXd q = random.GaussianVector(n);
      LcpFunction f(M, q);
      MixedNcpSolver solver;
      solver.Setup(f.kinds());
      const MixedNcpResult& r = solver.Solve(f, VectorXd::Zero(n));
      ASSERT_TRUE(r.status == SolverStatus::kSolved) << r.message;
      EXPECT_LE(NcpViolation(f, f.kinds(), r.z), 1e-9);
      // M ≻ 0: the solution is unique, so Lemke's must be ours.
      const LcpResult lemke = Solve(LcpProblem{M, q});
      ASSERT_TRUE(lemke.status == SolverStatus::kSolved);
      const double scale = 1.0 + lemke.z.lpNorm<Eigen::Infinity>();
      EXPECT_LE((r.z - lemke.z).lpNorm<Eigen::Infinity>(), 1e-8 * scale) << "n = " << n;
      testing::SiconosMcp siconos(f, f.kinds());
      const testing::SiconosMcpSolution s = siconos.Solve(VectorXd::Zero(n), 1e-12, 200);
      EXPECT_EQ(s.info, 0);
      EXPECT_LE((r.z - s.z).lpNorm<Eigen::Infinity>(), 1e-6 * scale) << "n = " << n;
    }
  }
}

TEST(MixedNcpSolver, KojimaShindoFromSeveralStartsEndsOnOneOfItsTwoSolutions) {
  KojimaShindo f;
  const std::vector<NcpKind> kinds(4, NcpKind::kComplementarity);
  VectorXd regular(4), degenerate(4);
  regular << 1, 0, 3, 0;
  degenerate << std::sqrt(6.0) / 2, 0, 0, 0.5;
  MixedNcpSolver solver;
  solver.Setup(kinds);
  testing::SiconosMcp siconos(f, kinds);
  int reached_degenerate = 0;
  for (const VectorXd& z0 :
       {VectorXd::Zero(4).eval(), VectorXd::Ones(4).eval(),
        (VectorXd(4) << 1, 0, 0, 0.5).finished(), (VectorXd(4) << 1.2, 0.1, 0.1, 0.4).finished(),
        (VectorXd(4) << 0.9, 0.0, 2.5, 0.1).finished()}) {
    const MixedNcpResult& r = solver.Solve(f, z0);
    ASSERT_TRUE(Succeeded(r.status)) << r.message;
    const double to_regular = (r.z - regular).norm(), to_degenerate = (r.z - degenerate).norm();
    // Newton converges only linearly to the degenerate solution (its Jacobian is singular
    // there): 1e-5 away when ‖Φ‖ ≈ 1e-10.
    EXPECT_LT(std::min(to_regular, to_degenerate), 1e-5) << z0.transpose();
    reached_degenerate += to_degenerate < to_regular;
    const testing::SiconosMcpSolution s = siconos.Solve(z0, 1e-12, 200);
    if (s.info == 0) {
      const double s_regular = (s.z - regular).norm(), s_degenerate = (s.z - degenerate).norm();
      EXPECT_LT(std::min(s_regular, s_degenerate), 1e-5);
    }
  }
  EXPECT_GE(reached_degenerate, 1);  // the degenerate solution is found from some start
}

TEST(MixedNcpSolver, QpKktWithFreeMultipliersMatchesSiconos) {
  testing::RandomProblems random(7);
  const int nx = 8, ny = 3;
  const MatrixXd Q = random.PsdMatrix(nx, nx) + 0.01 * MatrixXd::Identity(nx, nx);
  const VectorXd c = random.GaussianVector(nx);
  const MatrixXd A = random.Gaussian(ny, nx);
  const VectorXd x_feasible = random.UniformVector(nx, 0.1, 1.0);
  QpKkt f(Q, c, A, A * x_feasible);
  MixedNcpSolver solver;
  solver.Setup(f.kinds());
  const MixedNcpResult& r = solver.Solve(f, VectorXd::Zero(nx + ny));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_LE(NcpViolation(f, f.kinds(), r.z), 1e-9);
  // Siconos' element of ∂Φ at z = 0 is singular here (its LU fails), so it starts at x = 1.
  VectorXd start = VectorXd::Zero(nx + ny);
  for (int i = 0; i < nx; ++i) start[f.X(i)] = 1.0;
  testing::SiconosMcp siconos(f, f.kinds());
  const testing::SiconosMcpSolution s = siconos.Solve(start, 1e-12, 200);
  ASSERT_EQ(s.info, 0);
  VectorXd x, y, xs, ys;
  f.Split(r.z, &x, &y);
  f.Split(s.z, &xs, &ys);
  EXPECT_LE((x - xs).lpNorm<Eigen::Infinity>(), 1e-7);  // Q ≻ 0: x is unique
}

TEST(MixedNcpSolver, FreeEquationsAloneAreNewtonsMethod) {
  SquareRoot f;
  MixedNcpSolver solver;
  solver.Setup({NcpKind::kFree});
  const MixedNcpResult& r = solver.Solve(f, VectorXd::Ones(1));
  ASSERT_EQ(r.status, SolverStatus::kSolved);
  // |z² − 2| <= tolerance, so |z − √2| <= tolerance / (2√2) to first order.
  EXPECT_NEAR(r.z[0], std::sqrt(2.0), 1.01 * solver.settings().tolerance / (2 * std::sqrt(2.0)));
  EXPECT_LE(r.info.iterations, 6);  // quadratic convergence
  EXPECT_EQ(r.info.newton_steps, r.info.iterations);
}

TEST(MixedNcpSolver, TheChordStepEndsTheIterationsWithTheLastFactor) {
  // x² − 2 from x = 1: residuals 1, 0.25, 6.9e-3, 6.0e-6 after Newton's steps. With the
  // tolerance 3e-6 the third step misses it and 4·(6.0e-6)² <= 3e-6 · 6.9e-3 allows the chord
  // step with the factor 2x₂: it ends the iterations (|Φ| about 2·(6.0e-6)²/6.9e-3 = 1e-8).
  SquareRoot f;
  MixedNcpSettings with;
  with.tolerance = 3e-6;
  with.inaccurate_tolerance = 1e-5;
  MixedNcpSettings without = with;
  without.chord_steps = false;
  MixedNcpSolver a, b;
  a.Setup({NcpKind::kFree}, with);
  b.Setup({NcpKind::kFree}, without);
  const MixedNcpResult chord = a.Solve(f, VectorXd::Ones(1));
  const MixedNcpResult& newton = b.Solve(f, VectorXd::Ones(1));
  ASSERT_EQ(chord.status, SolverStatus::kSolved) << chord.message;
  ASSERT_EQ(newton.status, SolverStatus::kSolved) << newton.message;
  EXPECT_EQ(chord.info.chord_steps, 1);
  EXPECT_EQ(chord.info.newton_steps, 3);
  EXPECT_EQ(newton.info.chord_steps, 0);
  EXPECT_EQ(chord.info.iterations, newton.info.iterations);  // no more iterations than Newton
  EXPECT_LE(std::abs(chord.z[0] * chord.z[0] - 2.0), with.tolerance);
  EXPECT_NE(chord.z[0], newton.z[0]);  // another iterate: the chord's, not Newton's
}

TEST(MixedNcpSolver, DegenerateLcpWithAContinuumOfSolutions) {
  // z_1 + 0 >= 0 ⊥ z_1 and 0 ⊥ z_2: every (0, z_2 >= 0) solves, none strictly complementary.
  MatrixXd M = MatrixXd::Zero(2, 2);
  M(0, 0) = 1.0;
  LcpFunction f(M, VectorXd::Zero(2));
  MixedNcpSolver solver;
  solver.Setup(f.kinds());
  const MixedNcpResult& r = solver.Solve(f, (VectorXd(2) << 0.7, 0.3).finished());
  ASSERT_TRUE(Succeeded(r.status)) << r.message;
  EXPECT_LE(NcpViolation(f, f.kinds(), r.z), 1e-8);
}

TEST(MixedNcpSolver, UnsolvableProblemsReturnAStatusWithoutHanging) {
  MixedNcpSolver solver;
  // 0 <= z ⊥ −z − 1 >= 0 has no solution; the merit has a stationary point at z = −½.
  LcpFunction negative(MatrixXd::Constant(1, 1, -1.0), VectorXd::Constant(1, -1.0));
  solver.Setup(negative.kinds());
  const MixedNcpResult& r1 = solver.Solve(negative, VectorXd::Constant(1, 2.0));
  EXPECT_FALSE(Succeeded(r1.status));
  EXPECT_EQ(r1.status, SolverStatus::kInfeasible) << r1.message;
  EXPECT_LT(r1.info.iterations, solver.settings().max_iterations);
  EXPECT_NE(r1.message.find("index 0"), std::string::npos) << r1.message;
  // 0 <= z ⊥ −1 >= 0: F is never feasible; the merit decreases towards z → ∞ forever.
  LcpFunction never(MatrixXd::Zero(1, 1), VectorXd::Constant(1, -1.0));
  const MixedNcpResult& r2 = solver.Solve(never, VectorXd::Zero(1));
  EXPECT_FALSE(Succeeded(r2.status)) << r2.message;
  EXPECT_LE(r2.info.iterations, solver.settings().max_iterations);
}

TEST(MixedNcpSolver, NonFiniteStartIsAnErrorAndAnUndefinedStartAFailure) {
  class Undefined final : public MixedNcpFunction {
   public:
    bool Evaluate(const VectorXd&, VectorXd*, MatrixXd*) override { return false; }
  } undefined;
  MixedNcpSolver solver;
  solver.Setup({NcpKind::kFree});
  EXPECT_THROW(solver.Solve(undefined, VectorXd::Constant(1, NAN)), std::invalid_argument);
  EXPECT_THROW(solver.Solve(undefined, VectorXd::Zero(2)), std::invalid_argument);
  EXPECT_EQ(solver.Solve(undefined, VectorXd::Zero(1)).status, SolverStatus::kNumericalFailure);
}

TEST(MixedNcpSolver, NonFiniteJacobianIsANumericalFailure) {
  // F(z) = z − 1 (free) and F(z) = z − 1, z_2 (complementarity, 0 ≤ z ⊥ F ≥ 0), whose Jacobian
  // has a NaN or an infinite entry that the Newton system reads.
  class Broken final : public MixedNcpFunction {
   public:
    explicit Broken(double bad) : bad_(bad) {}
    bool Evaluate(const VectorXd& z, VectorXd* F, MatrixXd* J) override {
      F->setConstant(0.0);
      (*F)[0] = z[0] - 1.0;
      if (F->size() > 1) (*F)[1] = z[1] + z[0];
      if (J != nullptr) {
        J->setIdentity();
        (*J)(J->rows() - 1, 0) = bad_;
      }
      return true;
    }

   private:
    double bad_;
  };
  for (const double bad : {NAN, INFINITY}) {
    Broken f(bad);
    MixedNcpSolver solver;
    solver.Setup({NcpKind::kFree});
    EXPECT_EQ(solver.Solve(f, VectorXd::Zero(1)).status, SolverStatus::kNumericalFailure);
    solver.Setup({NcpKind::kFree, NcpKind::kComplementarity});
    EXPECT_EQ(solver.Solve(f, VectorXd::Constant(2, 0.5)).status, SolverStatus::kNumericalFailure);
  }
}

TEST(MixedNcpSolver, WarmStartFromTheSolutionTakesNoIteration) {
  KojimaShindo f;
  MixedNcpSolver solver;
  solver.Setup(std::vector<NcpKind>(4, NcpKind::kComplementarity));
  const VectorXd z = solver.Solve(f, VectorXd::Ones(4)).z;
  const MixedNcpResult& again = solver.Solve(f, z);
  EXPECT_EQ(again.status, SolverStatus::kSolved);
  EXPECT_EQ(again.info.iterations, 0);
}

TEST(MixedNcpSolver, SolveDoesNotAllocate) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "no malloc counting here";
  testing::RandomProblems random(3);
  const int n = 80;
  LcpFunction f(random.PsdMatrix(n, n) + 0.1 * MatrixXd::Identity(n, n), random.GaussianVector(n));
  MixedNcpSolver solver;
  solver.Setup(f.kinds());
  solver.Solve(f, VectorXd::Zero(n));  // warm-up
  const VectorXd z0 = VectorXd::Zero(n);
  testing::MallocCounter counter;
  const MixedNcpResult& r = solver.Solve(f, z0);
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(r.status, SolverStatus::kSolved);
}

TEST(MixedNcpSolver, EliminatingTheLeadingFreeUnknownsGivesTheSameIterates) {
  // A mixed LCP whose first 6 unknowns are free (F_i = 0), the rest complementarity: the
  // Schur complement of the leading block (schur_lu.h) changes only the rounding of each
  // Newton direction, so both solves take the same steps to the same solution.
  testing::RandomProblems random(21);
  const int n = 24, k = 6;
  LcpFunction f(random.PsdMatrix(n, n) + 0.1 * MatrixXd::Identity(n, n), random.GaussianVector(n));
  std::vector<NcpKind> kinds(n, NcpKind::kComplementarity);
  for (int i = 0; i < k; ++i) kinds[i] = NcpKind::kFree;
  MixedNcpSolver plain, eliminated;
  plain.Setup(kinds);
  MixedNcpSettings settings;
  settings.eliminated_leading = k;
  eliminated.Setup(kinds, settings);
  const VectorXd z0 = VectorXd::Zero(n);
  const MixedNcpResult a = plain.Solve(f, z0);
  const MixedNcpResult& b = eliminated.Solve(f, z0);
  ASSERT_EQ(a.status, SolverStatus::kSolved) << a.message;
  ASSERT_EQ(b.status, SolverStatus::kSolved) << b.message;
  EXPECT_EQ(a.info.iterations, b.info.iterations);
  EXPECT_EQ(a.info.newton_steps, b.info.newton_steps);
  // Both within the tolerance of the same (unique: M ≻ 0) solution.
  EXPECT_LE((a.z - b.z).lpNorm<Eigen::Infinity>(), 10.0 * settings.tolerance);
  EXPECT_LE(NcpViolation(f, kinds, b.z), settings.tolerance);
  // The Jacobian at the solution, evaluated there if the last point was evaluated without it.
  ASSERT_TRUE(eliminated.EnsureJacobian(f));
  VectorXd F(n);
  MatrixXd J(n, n);
  f.Evaluate(b.z, &F, &J);
  EXPECT_EQ(eliminated.function_jacobian(), J);
}

// A body pushed along a line against Coulomb friction in the ECP step's form (docs/ecp.md):
// z = (v, p, σ), F = (v − v₀ − p, v + pσ, 1 − p²): momentum (unit mass, impulse scale 1), the
// maximum-dissipation row e²μp_n v + pσ = 0 and the friction disc's margin (μp_n)² − p² >= 0
// ⊥ σ >= 0 with μp_n = 1. For |v₀| > 1 it slides: p = −sign(v₀), v = v₀ + p, σ = |v|.
class PushedAgainstFriction final : public MixedNcpFunction {
 public:
  explicit PushedAgainstFriction(double v0) : v0_(v0) {}
  static std::vector<NcpKind> kinds() {
    return {NcpKind::kFree, NcpKind::kFree, NcpKind::kComplementarity};
  }
  bool Evaluate(const VectorXd& z, VectorXd* F, MatrixXd* J) override {
    const double v = z[0], p = z[1], sigma = z[2];
    *F << v - v0_ - p, v + p * sigma, 1.0 - p * p;
    if (J) *J << 1.0, -1.0, 0.0, 1.0, sigma, p, 0.0, -2.0 * p, 0.0;
    return true;
  }

 private:
  double v0_;
};

TEST(MixedNcpSolver, ActiveSetSwitchSolvesAStickToSlipStartInFewerSteps) {
  // The start sticks (v = 0, σ = 0, the margin 0.75 > 0), as the previous step's solution
  // would; the push v₀ = 3 makes it slide. The Fischer–Burmeister step holds σ at 0 (its row is
  // ∂φ/∂a e_σᵀ), so its friction row forces v = 0 and p = −3 far outside the disc; the
  // switch frees σ where the linear model's margin turns negative.
  PushedAgainstFriction f(3.0);
  VectorXd z0(3);
  z0 << 0.0, -0.5, 0.0;
  VectorXd solution(3);
  solution << 2.0, -1.0, 2.0;
  MixedNcpSettings with;
  MixedNcpSettings without;
  without.switch_threshold = std::numeric_limits<double>::infinity();  // off
  MixedNcpSolver a, b;
  a.Setup(f.kinds(), with);
  b.Setup(f.kinds(), without);
  const MixedNcpResult switched = a.Solve(f, z0);
  const MixedNcpResult& plain = b.Solve(f, z0);
  ASSERT_EQ(switched.status, SolverStatus::kSolved) << switched.message;
  ASSERT_EQ(plain.status, SolverStatus::kSolved) << plain.message;
  EXPECT_GE(switched.info.switch_steps, 1);
  EXPECT_EQ(plain.info.switch_steps, 0);
  EXPECT_LT(switched.info.function_evaluations, plain.info.function_evaluations);
  EXPECT_LE(switched.info.iterations, plain.info.iterations);
  // The same solution to the tolerance (H is well conditioned there: the rows are O(1)).
  EXPECT_LE((switched.z - solution).lpNorm<Eigen::Infinity>(), 10.0 * with.tolerance);
  EXPECT_LE((plain.z - solution).lpNorm<Eigen::Infinity>(), 10.0 * with.tolerance);
}

TEST(MixedNcpSolver, SettingsOutOfRangeAreRejectedByName) {
  {
    MixedNcpSolver solver;
    MixedNcpSettings s;
    s.eliminated_leading = 2;
    EXPECT_THROW(solver.Setup({NcpKind::kFree}, s), std::invalid_argument);  // > n
    try {
      solver.Setup({NcpKind::kFree, NcpKind::kComplementarity}, s);
      FAIL();
    } catch (const std::invalid_argument& e) {  // a complementarity unknown among them
      EXPECT_NE(std::string(e.what()).find("eliminated_leading"), std::string::npos);
    }
    s.eliminated_leading = -1;
    EXPECT_THROW(solver.Setup({NcpKind::kFree}, s), std::invalid_argument);
  }
  MixedNcpSolver solver;
  MixedNcpSettings s;
  s.tolerance = 0.0;
  EXPECT_THROW(solver.Setup({NcpKind::kFree}, s), std::invalid_argument);
  s = {};
  s.inaccurate_tolerance = 1e-12;
  try {
    solver.Setup({NcpKind::kFree}, s);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("inaccurate_tolerance"), std::string::npos);
  }
  s = {};
  s.backtrack_factor = 1.0;
  EXPECT_THROW(solver.Setup({NcpKind::kFree}, s), std::invalid_argument);
  s = {};
  s.descent_power = 2.0;
  EXPECT_THROW(solver.Setup({NcpKind::kFree}, s), std::invalid_argument);
  for (int which = 0; which < 3; ++which) {
    s = {};
    const char* name = which == 0   ? "switch_threshold"
                       : which == 1 ? "switch_rounds"
                                    : "switch_backtracks";
    if (which == 0) s.switch_threshold = -1e-3;
    if (which == 1) s.switch_rounds = 0;
    if (which == 2) s.switch_backtracks = -1;
    try {
      solver.Setup({NcpKind::kFree}, s);
      FAIL() << name;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace quasidyn
