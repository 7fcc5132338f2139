#include "quasidyn/solvers/log_barrier_newton.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "quasidyn/solvers/qp.h"
#include "quasidyn/solvers/socp.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/solver_problems.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using testing::DenseCone;

// A log-barrier problem written densely: minimise ½xᵀQx + cᵀx − (1/κ)[Σ log(G_i x − h_i) +
// Σ log(t_k² − ‖z_k‖²)] with (t_k, z_k) = A_k x + b_k.
struct DenseBarrier {
  MatrixXd Q;
  VectorXd c;
  MatrixXd G;
  VectorXd h;
  std::vector<DenseCone> cones;
  double kappa = 100.0;

  LogBarrierProblem ToSparse() const {
    return testing::DenseConeProgram{Q, c, cones, G, h}.ToLogBarrier(kappa);
  }
};

LogBarrierResult SolveDense(const DenseBarrier& p, const LogBarrierSettings& settings = {},
                            const VectorXd& x_start = VectorXd()) {
  return Solve(p.ToSparse(), settings, x_start);
}

// A solver kept across calls: new values on the pattern it was set up for, else a new Setup.
const LogBarrierResult& SolveWith(LogBarrierSolver& solver, const DenseBarrier& p,
                                  const LogBarrierSettings& settings = {},
                                  const VectorXd& x_start = VectorXd()) {
  const LogBarrierProblem sparse = p.ToSparse();
  if (solver.SamePattern(sparse)) {
    solver.UpdateValues(sparse);
  } else {
    solver.Setup(sparse, settings);
  }
  return solver.Solve(x_start);
}

// H⁻¹ rhs with the Hessian the solver factorised at its last minimiser.
VectorXd HessianSolve(LogBarrierSolver& solver, const VectorXd& rhs) {
  VectorXd out;
  solver.SolveWithHessian(rhs, &out);
  return out;
}

struct RandomContactLikeProblem {
  testing::DenseQp qp;
  DenseBarrier barrier;
};

// Random strictly feasible linear constraints, Q positive definite (minimum eigenvalue >= 1).
RandomContactLikeProblem RandomLinear(unsigned seed, int n, int m) {
  testing::RandomProblems random(seed);
  RandomContactLikeProblem r;
  r.qp.Q = random.PsdMatrix(n, n) + MatrixXd::Identity(n, n);
  r.qp.c = random.GaussianVector(n);
  r.qp.G = random.Gaussian(m, n);
  r.qp.h = r.qp.G * random.UniformVector(n, -1, 1) - random.UniformVector(m, 0.1, 1.0);
  r.barrier.Q = r.qp.Q;
  r.barrier.c = r.qp.c;
  r.barrier.G = r.qp.G;
  r.barrier.h = r.qp.h;  // G x − h > 0
  return r;
}

TEST(LogBarrierTest, ScalarClosedForm) {
  // min ½x² − (1/κ) log x: x − 1/(κx) = 0 ⇒ x* = 1/sqrt(κ).
  DenseBarrier p{MatrixXd::Identity(1, 1),
                 VectorXd::Zero(1),
                 MatrixXd::Ones(1, 1),
                 VectorXd::Zero(1),
                 {},
                 16.0};
  LogBarrierSolver solver;
  const LogBarrierResult r = SolveWith(solver, p, {}, VectorXd::Constant(1, 3.0));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_NEAR(r.x[0], 0.25, 1e-12);
  // Hessian 1 + 1/(κx²) = 2 at the solution.
  EXPECT_NEAR(HessianSolve(solver, VectorXd::Ones(1))[0], 0.5, 1e-12);
}

TEST(LogBarrierTest, ApproachesQpSolutionLikeOneOverKappa) {
  for (unsigned seed = 0; seed < 3; ++seed) {
    RandomContactLikeProblem problem = RandomLinear(seed + 40, 6, 10);
    QpSettings qp_settings;
    qp_settings.absolute_tolerance = qp_settings.relative_tolerance = 1e-12;
    const QpResult qp = Solve(problem.qp.ToSparse(), qp_settings);
    ASSERT_EQ(qp.status, SolverStatus::kSolved);
    double previous = 0;
    for (double kappa : {1e3, 1e4, 1e5, 1e6}) {
      problem.barrier.kappa = kappa;
      const LogBarrierResult r = SolveDense(problem.barrier);
      ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
      const double distance = (r.x - qp.x).norm();
      if (previous > 0) {
        // O(1/κ): ten times larger κ shrinks the distance about tenfold (allow 5–20×).
        EXPECT_LT(distance, previous / 5) << "kappa=" << kappa;
        EXPECT_GT(distance, previous / 20) << "kappa=" << kappa;
      }
      previous = distance;
    }
  }
}

TEST(LogBarrierTest, ApproachesSocpSolution) {
  // min ½‖x − (3, 4)‖² with barrier of ‖x‖ <= 1: x(κ) → (0.6, 0.8).
  DenseCone disk{MatrixXd::Zero(3, 2), VectorXd::Zero(3)};
  disk.A.bottomRows(2) = MatrixXd::Identity(2, 2);
  disk.b[0] = 1.0;
  DenseBarrier p{MatrixXd::Identity(2, 2), VectorXd(2), MatrixXd(0, 2), VectorXd(0), {disk}, 1.0};
  p.c << -3, -4;
  const VectorXd expected = (VectorXd(2) << 0.6, 0.8).finished();
  double previous = 0;
  for (double kappa : {1e2, 1e3, 1e4, 1e5}) {
    p.kappa = kappa;
    const LogBarrierResult r = SolveDense(p);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    const double distance = (r.x - expected).norm();
    if (previous > 0) {
      EXPECT_LT(distance, previous / 5);
      EXPECT_GT(distance, previous / 20);
    }
    previous = distance;
  }
}

TEST(LogBarrierTest, HessianGivesDerivativeOfSolutionWithRespectToC) {
  // ∂x*/∂c = −H⁻¹, checked against central finite differences (step 1e-5: truncation O(1e-10),
  // Newton solves to O(λ²) ≈ 1e-14).
  RandomContactLikeProblem problem = RandomLinear(77, 5, 8);
  DenseCone cone{MatrixXd::Zero(3, 5), VectorXd::Zero(3)};
  cone.A.bottomRows(2) = MatrixXd::Identity(2, 5);
  cone.b[0] = 5.0;
  problem.barrier.cones.push_back(cone);
  problem.barrier.kappa = 50;
  LogBarrierSolver solver;
  const LogBarrierResult base = SolveWith(solver, problem.barrier);
  ASSERT_EQ(base.status, SolverStatus::kSolved) << base.message;
  const double step = 1e-5;
  for (int j = 0; j < 5; ++j) {
    DenseBarrier plus = problem.barrier, minus = problem.barrier;
    plus.c[j] += step;
    minus.c[j] -= step;
    const VectorXd fd =
        (SolveDense(plus, {}, base.x).x - SolveDense(minus, {}, base.x).x) / (2 * step);
    const VectorXd analytic = -HessianSolve(solver, VectorXd::Unit(5, j));
    EXPECT_LE((fd - analytic).lpNorm<Eigen::Infinity>(), 1e-6 * (1 + analytic.norm()))
        << "column " << j;
  }
}

TEST(LogBarrierTest, PhaseOneFindsStrictlyFeasibleStart) {
  // The first seed whose rows exclude x = 0 (the solver tries x = 0 as a start candidate), and
  // a clearly infeasible start too.
  unsigned seed = 5;
  while (RandomLinear(seed, 4, 6).barrier.h.maxCoeff() < 0) ++seed;
  RandomContactLikeProblem problem = RandomLinear(seed, 4, 6);
  problem.barrier.kappa = 1e3;
  const LogBarrierResult r = SolveDense(problem.barrier, {}, VectorXd::Constant(4, 100.0));
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_TRUE(r.info.used_phase_one);
  EXPECT_GT((problem.barrier.G * r.x - problem.barrier.h).minCoeff(), 0.0);
}

TEST(LogBarrierTest, InfeasibleBarriersAreReported) {
  // x − 1 > 0 and −x > 0.
  DenseBarrier p{
      MatrixXd::Identity(1, 1), VectorXd::Zero(1), MatrixXd(2, 1), VectorXd(2), {}, 10.0};
  p.G << 1, -1;
  p.h << 1, 0;
  const LogBarrierResult r = SolveDense(p);
  EXPECT_EQ(r.status, SolverStatus::kInfeasible);
  EXPECT_NE(r.message.find("linear barrier row"), std::string::npos) << r.message;
}

TEST(LogBarrierTest, ContinuationRescuesLargeKappa) {
  RandomContactLikeProblem problem = RandomLinear(9, 6, 10);
  problem.barrier.kappa = 1e8;
  const LogBarrierResult direct = SolveDense(problem.barrier);  // plenty of iterations
  ASSERT_EQ(direct.status, SolverStatus::kSolved);
  ASSERT_FALSE(direct.info.used_continuation);
  // Half the Newton steps the direct solve needed: the direct attempt must fail, and the
  // κ-continuation (each stage starting near its minimiser) must still converge.
  LogBarrierSettings settings;
  settings.max_newton_iterations = direct.info.newton_iterations / 2;
  const LogBarrierResult r = SolveDense(problem.barrier, settings);
  ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
  EXPECT_TRUE(r.info.used_continuation);
  // Both minimise the same strictly convex f; Newton stops at O(λ²) accuracy.
  EXPECT_LE((r.x - direct.x).lpNorm<Eigen::Infinity>(), 1e-9);
}

TEST(LogBarrierTest, BadInputThrows) {
  DenseBarrier p{
      MatrixXd::Identity(1, 1), VectorXd::Zero(1), MatrixXd(0, 1), VectorXd(0), {}, -1.0};
  EXPECT_THROW(SolveDense(p), std::invalid_argument);
}

// A box resting on the ground at four corners with φ ≈ 1e-11 m, the state where the arm
// grasp step failed (regression): pyramid rows (J_n + μ J_d,j) v + φ/h > 0 with φ/h ≈ 1e-9
// m/s at v = 0, so x = 0 is strictly feasible but the barrier terms 1/(κ s²) ≈ 1e16 swamp Q
// and a plain Cholesky of the Hessian fails. Planar-free 3D box: v = (v_x, v_y, v_z, ω_x,
// ω_y, ω_z), corners at (±a, ±a, −a), normal +z, four friction rays ±x, ±y.
DenseBarrier BoxOnGroundBarrier() {
  const double a = 0.05, mu = 0.5, phi_over_h = 1e-9;
  DenseBarrier p;
  p.Q = VectorXd((VectorXd(6) << 1, 1, 1, 1e-3, 1e-3, 1e-3).finished()).asDiagonal();
  p.c = (VectorXd(6) << 0.0, 0.0, 0.0981, 0.0, 0.0, 0.0).finished();  // gravity · h, pushes down
  p.G.resize(16, 6);
  p.h = VectorXd::Constant(16, -phi_over_h);
  int row = 0;
  for (const double x : {-a, a}) {
    for (const double y : {-a, a}) {
      const Eigen::Vector3d r(x, y, -a);
      // Point velocity v + ω × r; row for direction d is [dᵀ, (r × d)ᵀ].
      const auto jacobian_row = [&](const Eigen::Vector3d& d) {
        Eigen::Matrix<double, 1, 6> j;
        j << d.transpose(), r.cross(d).transpose();
        return j;
      };
      const auto normal = jacobian_row(Eigen::Vector3d::UnitZ());
      for (const Eigen::Vector3d& d : {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 0, 0),
                                       Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, -1, 0)}) {
        p.G.row(row++) = normal + mu * jacobian_row(d);
      }
    }
  }
  p.kappa = 100.0;
  return p;
}

// ∇f = Qx + c − (1/κ) Gᵀ (1 / (G x − h)), from the problem data.
VectorXd BarrierGradient(const DenseBarrier& p, const VectorXd& x) {
  const VectorXd slack = p.G * x - p.h;
  return p.Q * x + p.c - p.G.transpose() * slack.cwiseInverse() / p.kappa;
}

TEST(LogBarrierTest, NearZeroBarrierArgumentsAtTheStart) {
  const DenseBarrier p = BoxOnGroundBarrier();
  // Both ways must reach the same minimiser: from the badly scaled start x = 0 (no re-centring,
  // so the shifted Hessian factorisation is exercised) and from the phase-1 point (default).
  LogBarrierSettings from_zero;
  from_zero.centring_margin = 0;
  const LogBarrierResult direct = SolveDense(p, from_zero);
  const LogBarrierResult centred = SolveDense(p);
  ASSERT_EQ(direct.status, SolverStatus::kSolved) << direct.message;
  ASSERT_EQ(centred.status, SolverStatus::kSolved) << centred.message;
  EXPECT_TRUE(centred.info.used_phase_one);
  for (const LogBarrierResult* r : {&direct, &centred}) {
    EXPECT_GT((p.G * r->x - p.h).minCoeff(), 0);
    // Stationarity relative to the gradient's terms (b, of size 0.1): the stop rule
    // λ²/2 <= 1e-14 bounds ‖∇f‖ by about sqrt(2e-14 · ‖H‖) ≈ 1e-5 in the worst case.
    EXPECT_LE(BarrierGradient(p, r->x).lpNorm<Eigen::Infinity>(), 1e-6 * p.c.norm());
  }
  // Strictly convex f: the minimisers agree; |Δx| <= sqrt(2 λ²/2 / λ_min(Q)) with Q >= 1e-3.
  EXPECT_LE((direct.x - centred.x).lpNorm<Eigen::Infinity>(), std::sqrt(2e-14 / 1e-3));
  // Closed form by symmetry: v = (0, 0, v_z, 0, 0, 0), all 16 arguments s = v_z + φ/h, and
  // the z row of ∇f = 0 reads v_z + b_z − 16/(κ s) = 0, i.e. s² + (b_z − φ/h) s − 16/κ = 0.
  const double b_z = p.c[2], phi_over_h = -p.h[0];
  const double s = 0.5 * (-(b_z - phi_over_h) +
                          std::sqrt((b_z - phi_over_h) * (b_z - phi_over_h) + 64.0 / p.kappa));
  VectorXd expected = VectorXd::Zero(6);
  expected[2] = s - phi_over_h;
  EXPECT_LE((centred.x - expected).lpNorm<Eigen::Infinity>(), std::sqrt(2e-14 / 1e-3));
}

// The log-barrier pyramid problem of examples/arm_cubes at the grasp state (t = 2 s, QP
// rollout), restricted to the 32 pyramid rows whose arguments are ≈ 1.2e-9 m/s at x = 0
// (testdata/arm_grasp_log_barrier.txt). Plain Cholesky of its Hessian at x = 0 fails.
DenseBarrier ArmGraspBarrier() {
  std::ifstream file(std::string(QUASIDYN_SOURCE_DIR) +
                     "/src/quasidyn/solvers/testdata/arm_grasp_log_barrier.txt");
  if (!file) throw std::runtime_error("cannot open testdata/arm_grasp_log_barrier.txt");
  std::string line;
  while (file.peek() == '#') std::getline(file, line);
  int n = 0, m = 0;
  file >> n >> m;
  DenseBarrier p;
  p.Q = MatrixXd::Zero(n, n);
  p.c.resize(n);
  p.G = MatrixXd::Zero(m, n);
  p.h.resize(m);
  for (int i = 0; i < n; ++i) file >> p.Q(i, i);
  for (int i = 0; i < n; ++i) file >> p.c[i];
  for (int i = 0; i < m; ++i) file >> p.h[i];
  for (int row, col; file >> row >> col && row >= 0;) file >> p.G(row, col);
  if (!file) throw std::runtime_error("malformed testdata/arm_grasp_log_barrier.txt");
  p.h = -p.h;  // the file stores φ/h of the rows G x + φ/h > 0
  p.kappa = 100.0;
  return p;
}

// Hessian of f at x, from the problem data: Q + (1/κ) Gᵀ diag(1/s²) G, s = G x − h.
MatrixXd BarrierHessian(const DenseBarrier& p, const VectorXd& x) {
  const VectorXd inverse_slack = (p.G * x - p.h).cwiseInverse();
  return p.Q + p.G.transpose() * inverse_slack.cwiseAbs2().asDiagonal() * p.G / p.kappa;
}

TEST(LogBarrierTest, ArmGraspStateWithNearZeroArguments) {
  const DenseBarrier p = ArmGraspBarrier();
  ASSERT_LT((-p.h).maxCoeff(), 2e-9);  // the data is the badly scaled start it claims to be
  LogBarrierSettings from_zero;
  from_zero.centring_margin = 0;
  const LogBarrierSettings defaults;
  const LogBarrierSettings* const both[] = {&from_zero, &defaults};
  for (const LogBarrierSettings* settings : both) {
    const LogBarrierResult r = SolveDense(p, *settings);
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    ASSERT_GT((p.G * r.x - p.h).minCoeff(), 0);
    // Stopping on λ²/2 <= tol bounds ‖∇f‖₂ <= λ · sqrt(λ_max(H)), with λ² = 2·tol.
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eigen(BarrierHessian(p, r.x));
    const double bound =
        std::sqrt(2 * settings->decrement_tolerance * eigen.eigenvalues().maxCoeff());
    EXPECT_LE(BarrierGradient(p, r.x).norm(), bound);
  }
  // Both starts reach the same minimiser (f strictly convex): ‖Δx‖ <= 2λ/sqrt(λ_min(Q)).
  const VectorXd difference = SolveDense(p, from_zero).x - SolveDense(p).x;
  EXPECT_LE(difference.norm(), 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff()));
}

TEST(LogBarrierTest, SkippingPhaseOneGivesTheSameMinimiser) {
  // A solver that keeps its previous minimiser, on the arm grasp problem and then on the same
  // problem with b perturbed by 1 % (the next time step): the second solve starts from the
  // previous minimiser without phase 1. The reference always runs phase 1 (centring margin
  // +∞, no previous solution). f is strictly convex (Q ≻ 0) and both stop on λ²/2 <= tol, so
  // ‖Δx‖ <= 2·sqrt(2·tol / λ_min(Q)) (as in ArmGraspStateWithNearZeroArguments).
  const DenseBarrier p = ArmGraspBarrier();
  DenseBarrier next = p;
  next.c *= 1.01;
  LogBarrierSettings always_phase_one;
  always_phase_one.centring_margin = std::numeric_limits<double>::infinity();
  always_phase_one.use_previous_solution = false;
  const double bound = 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff());
  LogBarrierSolver warm;
  const LogBarrierResult first = SolveWith(warm, p);
  ASSERT_EQ(first.status, SolverStatus::kSolved) << first.message;
  EXPECT_TRUE(first.info.used_phase_one);  // x = 0 is 1.2e-9 from the boundary
  const LogBarrierResult second = SolveWith(warm, next);
  ASSERT_EQ(second.status, SolverStatus::kSolved) << second.message;
  EXPECT_TRUE(second.info.used_previous_solution);
  EXPECT_FALSE(second.info.used_phase_one);
  EXPECT_LT(second.info.newton_iterations, first.info.newton_iterations);
  for (const auto& [problem, result] :
       {std::pair{&p, &first}, std::pair{static_cast<const DenseBarrier*>(&next), &second}}) {
    const LogBarrierResult reference = SolveDense(*problem, always_phase_one);
    ASSERT_EQ(reference.status, SolverStatus::kSolved) << reference.message;
    ASSERT_TRUE(reference.info.used_phase_one);
    EXPECT_LE((result->x - reference.x).norm(), bound);
  }
}

// The full phase 1 (the SOCP, always; no previous minimiser): the reference of the shifted
// start's tests.
LogBarrierSettings AlwaysPhaseOneSocp() {
  LogBarrierSettings settings;
  settings.centring_margin = std::numeric_limits<double>::infinity();
  settings.use_previous_solution = false;
  return settings;
}

TEST(LogBarrierTest, ShiftedStartSkipsThePhaseOneSocpWithTheSameMinimiser) {
  // The arm grasp problem as recorded (x = 0 strictly feasible, 1.2e-9 from the boundary) and
  // with every contact 1 mm/s deeper (x = 0 infeasible, as at a planner's node that penetrates):
  // the default start (the shifted start) and the full phase 1 reach the same minimiser, to
  // ‖Δx‖ <= 2·sqrt(2·tol / λ_min(Q)) (both stop on λ²/2 <= tol; f strictly convex).
  DenseBarrier deeper = ArmGraspBarrier();
  deeper.h.array() += 1e-3;
  for (const DenseBarrier& p : {ArmGraspBarrier(), deeper}) {
    const LogBarrierResult shifted = SolveDense(p);
    const LogBarrierResult reference = SolveDense(p, AlwaysPhaseOneSocp());
    ASSERT_EQ(shifted.status, SolverStatus::kSolved) << shifted.message;
    ASSERT_EQ(reference.status, SolverStatus::kSolved) << reference.message;
    EXPECT_TRUE(shifted.info.used_shifted_start);
    EXPECT_FALSE(shifted.info.used_phase_one_socp);
    EXPECT_TRUE(reference.info.used_phase_one_socp);
    EXPECT_FALSE(reference.info.used_shifted_start);
    EXPECT_GT((p.G * shifted.x - p.h).minCoeff(), 0);
    const double bound = 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff());
    EXPECT_LE((shifted.x - reference.x).norm(), bound);
  }
}

TEST(LogBarrierTest, ShiftedStartFallsBackToThePhaseOneSocp) {
  // Every contact 1 mm/s deeper than recorded, so x = 0 is infeasible, and an infeasible
  // x_start far outside: the solver falls back from x_start to the shifted start (from the
  // least violated candidate). With a shift of 1000 m/s and one step allowed, σ cannot reach 0
  // (that would need every argument at 1000/θ after one Newton step toward the minimiser), so
  // the SOCP phase 1 runs. All reach the reference's minimiser.
  DenseBarrier p = ArmGraspBarrier();
  p.h.array() += 1e-3;
  const VectorXd far = VectorXd::Constant(p.Q.rows(), -100.0);
  ASSERT_LT((p.G * far - p.h).minCoeff(), -1.0);
  const LogBarrierResult reference = SolveDense(p, AlwaysPhaseOneSocp());
  ASSERT_EQ(reference.status, SolverStatus::kSolved) << reference.message;
  const double bound = 2 * std::sqrt(2e-14 / p.Q.diagonal().minCoeff());
  const LogBarrierResult from_far = SolveDense(p, {}, far);
  ASSERT_EQ(from_far.status, SolverStatus::kSolved) << from_far.message;
  EXPECT_TRUE(from_far.info.used_shifted_start);
  EXPECT_FALSE(from_far.info.used_phase_one_socp);
  EXPECT_LE((from_far.x - reference.x).norm(), bound);
  LogBarrierSettings one_step;
  one_step.shift_margin = 1e3;
  one_step.max_shift_iterations = 1;
  const LogBarrierResult fallback = SolveDense(p, one_step, far);
  ASSERT_EQ(fallback.status, SolverStatus::kSolved) << fallback.message;
  EXPECT_FALSE(fallback.info.used_shifted_start);
  EXPECT_TRUE(fallback.info.used_phase_one_socp);
  EXPECT_LE((fallback.x - reference.x).norm(), bound);
  // Infeasible barriers: the shifted start fails and the SOCP reports them.
  DenseBarrier empty{MatrixXd::Identity(1, 1),
                     VectorXd::Zero(1),
                     MatrixXd(2, 1),
                     Eigen::Vector2d(1.0, 0.0),
                     {},
                     100.0};
  empty.G << 1.0, -1.0;  // x − 1 > 0 and −x > 0
  const LogBarrierResult infeasible = SolveDense(empty);
  EXPECT_EQ(infeasible.status, SolverStatus::kInfeasible);
  EXPECT_TRUE(infeasible.info.used_phase_one_socp);
  EXPECT_FALSE(infeasible.info.used_shifted_start);
}

TEST(LogBarrierTest, ShiftSettingsOutOfRangeNameTheField) {
  const auto expect_message = [](const LogBarrierSettings& settings, const std::string& field) {
    try {
      ValidateLogBarrierSettings(settings);
      ADD_FAILURE() << "expected std::invalid_argument naming " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  for (const double margin : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    LogBarrierSettings s;
    s.shift_margin = margin;
    expect_message(s, "shift_margin");
  }
  for (const double reduction : {0.0, 1.0}) {
    LogBarrierSettings s;
    s.shift_reduction = reduction;
    expect_message(s, "shift_reduction");
  }
  LogBarrierSettings s;
  s.max_shift_iterations = 0;
  expect_message(s, "max_shift_iterations");
}

// The cone barrier of a contact-like SOCP (testing::ContactChainSocp).
DenseBarrier ContactChainConeBarrier(unsigned seed) {
  const testing::DenseConeProgram socp = testing::ContactChainSocp(seed, 10, 5);
  return DenseBarrier{socp.Q, socp.c, MatrixXd(0, socp.n()), VectorXd(0), socp.cones, 100.0};
}

TEST(LogBarrierTest, SparseAndDenseNewtonSystemsAgree) {
  LogBarrierSettings sparse, dense;
  sparse.sparse_min_variables = 0;
  sparse.sparse_max_density = 1.0;
  dense.sparse_min_variables = std::numeric_limits<int>::max();
  const DenseBarrier pyramid = ArmGraspBarrier();
  for (unsigned seed = 0; seed < 3; ++seed) {
    const DenseBarrier cone = ContactChainConeBarrier(seed + 300);
    for (const DenseBarrier* p : {&pyramid, &cone}) {
      LogBarrierSolver sparse_solver, dense_solver;
      const LogBarrierResult a = SolveWith(sparse_solver, *p, sparse);
      const LogBarrierResult b = SolveWith(dense_solver, *p, dense);
      ASSERT_EQ(a.status, SolverStatus::kSolved) << a.message;
      ASSERT_EQ(b.status, SolverStatus::kSolved) << b.message;
      EXPECT_TRUE(a.info.used_sparse_path);
      EXPECT_FALSE(b.info.used_sparse_path);
      // Same strictly convex f, both stop on λ²/2 <= tol: ‖Δx‖ <= 2·sqrt(2·tol/λ_min(Q)).
      const double q_min = Eigen::SelfAdjointEigenSolver<MatrixXd>(p->Q).eigenvalues().minCoeff();
      EXPECT_LE((a.x - b.x).norm(), 2 * std::sqrt(2e-14 / q_min)) << "seed " << seed;
      // The stored Hessian factorisations agree (the derivative −H⁻¹ used by gradients/).
      const VectorXd rhs = VectorXd::Ones(p->Q.rows());
      const VectorXd ha = HessianSolve(sparse_solver, rhs), hb = HessianSolve(dense_solver, rhs);
      EXPECT_LE((ha - hb).norm(), 1e-6 * hb.norm()) << "seed " << seed;
    }
  }
}

TEST(LogBarrierTest, UpdateValuesGivesTheBitsOfAFreshSetup) {
  // No previous minimiser on either side (it is a start candidate, kept across Setup), so
  // both solves start alike and must give the same bits.
  LogBarrierSettings settings;
  settings.use_previous_solution = false;
  const DenseBarrier a = ContactChainConeBarrier(51);
  DenseBarrier b = a;
  b.c *= 1.1;
  for (DenseCone& cone : b.cones) cone.b[0] *= 1.5;
  b.kappa = 300.0;
  LogBarrierSolver updated, fresh;
  updated.Setup(a.ToSparse(), settings);
  ASSERT_EQ(updated.Solve().status, SolverStatus::kSolved);
  ASSERT_TRUE(updated.SamePattern(b.ToSparse()));
  updated.UpdateValues(b.ToSparse());
  fresh.Setup(b.ToSparse(), settings);
  const LogBarrierResult& u = updated.Solve();
  const LogBarrierResult& f = fresh.Solve();
  ASSERT_EQ(u.status, SolverStatus::kSolved) << u.message;
  EXPECT_EQ(u.info.newton_iterations, f.info.newton_iterations);
  EXPECT_EQ(u.x, f.x);
  DenseBarrier other = a;
  other.cones.pop_back();
  EXPECT_FALSE(updated.SamePattern(other.ToSparse()));
  EXPECT_THROW(updated.UpdateValues(other.ToSparse()), std::invalid_argument);
}

TEST(LogBarrierTest, WarmSolveDoesNotAllocate) {
  // Consecutive time steps: new values on the same pattern, started from the previous
  // minimiser (no phase 1), on both Newton-system paths.
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting off (sanitizers)";
  for (const bool sparse : {false, true}) {
    LogBarrierSettings settings;
    settings.sparse_min_variables = sparse ? 0 : std::numeric_limits<int>::max();
    settings.sparse_max_density = 1.0;
    const DenseBarrier a = ContactChainConeBarrier(52);
    DenseBarrier b = a;
    b.c *= 1.01;
    LogBarrierSolver solver;
    solver.Setup(a.ToSparse(), settings);
    ASSERT_EQ(solver.Solve().status, SolverStatus::kSolved);
    solver.UpdateValues(b.ToSparse());
    long allocations = 0;
    {
      testing::MallocCounter counter;
      solver.Solve();
      allocations = counter.count();
    }
    const LogBarrierResult& r = solver.result();
    ASSERT_EQ(r.status, SolverStatus::kSolved) << r.message;
    EXPECT_EQ(r.info.used_sparse_path, sparse);
    EXPECT_TRUE(r.info.used_previous_solution);
    EXPECT_FALSE(r.info.used_phase_one);
    EXPECT_EQ(allocations, 0) << (sparse ? "sparse" : "dense") << " path";
  }
}

TEST(LogBarrierTest, BadSettingsAndProblemsNameTheField) {
  const auto expect_message = [](const DenseBarrier& p, const LogBarrierSettings& settings,
                                 const std::string& expected) {
    try {
      SolveDense(p, settings);
      ADD_FAILURE() << "expected std::invalid_argument with \"" << expected << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  const DenseBarrier good = ContactChainConeBarrier(53);
  LogBarrierSettings settings;
  settings.kappa_growth = 1.0;
  expect_message(good, settings, "kappa_growth");
  DenseBarrier p = good;
  p.kappa = 0.0;
  expect_message(p, {}, "kappa");
  p = good;
  p.c[2] = std::numeric_limits<double>::quiet_NaN();
  expect_message(p, {}, "c[2] is not finite");
}

}  // namespace
}  // namespace quasidyn
