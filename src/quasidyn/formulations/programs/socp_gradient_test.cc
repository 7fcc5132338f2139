#include "quasidyn/formulations/programs/socp_gradient.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "quasidyn/testing/cone_step_checks.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"

namespace quasidyn {
namespace {

using testing::ConeLinearization;
using testing::ConeReferenceStep;
using testing::ExampleState;
using testing::LinearizeConeStep;
using testing::LoadExample;
using testing::RelativeError;
using testing::StateAfter;

// FD reference error: the reference SOCP's accuracy τ = 1e-12 over the FD step
// δ = 6e-6·max(1,|x|) gives ≈ 2e-7 relative, truncation O(δ²) ≈ 4e-11, and the contraction's
// own data differences ≈ 1e-10: 1e-5 leaves a margin of 50 (as linearize_test.cc).
constexpr double kSocpGradientFdTolerance = 1e-5;

// Projection onto the second-order cone by its spectral decomposition (Boyd & Vandenberghe,
// "Convex Optimization", exercise 8.3(c)), independent of socp_gradient.cc.
Eigen::VectorXd ProjectOntoCone(const Eigen::VectorXd& w) {
  const int m = static_cast<int>(w.size());
  if (m == 1) return Eigen::VectorXd::Constant(1, std::max(w[0], 0.0));
  const double t = w[0], s = w.tail(m - 1).norm();
  if (s <= t) return w;
  if (s <= -t) return Eigen::VectorXd::Zero(m);
  Eigen::VectorXd p(m);
  p[0] = 0.5 * (t + s);
  p.tail(m - 1) = 0.5 * (t + s) / s * w.tail(m - 1);
  return p;
}

TEST(ClassifyCone, ThreeCasesAndProjectionJacobianAgainstFiniteDifferences) {
  struct Point {
    Eigen::Vector3d w;
    ConeCase expected;
  };
  const std::vector<Point> points = {{{1.0, 0.3, -0.4}, ConeCase::kSticking},
                                     {{-1.0, 0.3, 0.4}, ConeCase::kSeparated},
                                     {{0.2, 0.3, -0.4}, ConeCase::kSliding},
                                     {{-0.2, 0.3, 0.4}, ConeCase::kSliding}};
  for (const Point& p : points) {
    Eigen::MatrixXd D;
    EXPECT_EQ(ClassifyCone(p.w, &D), p.expected);
    // Central differences of the projection: truncation O(δ²)·|Π'''| with δ = 1e-6.
    const double delta = 1e-6;
    Eigen::MatrixXd D_fd(3, 3);
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d e = delta * Eigen::Vector3d::Unit(k);
      D_fd.col(k) = (ProjectOntoCone(p.w + e) - ProjectOntoCone(p.w - e)) / (2 * delta);
    }
    EXPECT_LT((D - D_fd).cwiseAbs().maxCoeff(), 1e-8) << p.w.transpose();
  }
  // Half line: the QP rule.
  Eigen::MatrixXd D;
  EXPECT_EQ(ClassifyCone(Eigen::VectorXd::Constant(1, 0.5), &D), ConeCase::kSticking);
  EXPECT_EQ(D(0, 0), 1.0);
  EXPECT_EQ(ClassifyCone(Eigen::VectorXd::Constant(1, 0.0), &D), ConeCase::kSeparated);
  EXPECT_EQ(D(0, 0), 0.0);
}

// Degenerate points: finite, deterministic, and the documented side.
TEST(ClassifyCone, DegeneratePointsPickOneSideWithFiniteJacobians) {
  Eigen::MatrixXd D;
  // σ₁ = 0 (u = 0, y on the boundary: sticking at the cone's edge) → sliding, the limit of
  // the sliding branch: D = ½[1, ŵᵀ; ŵ, 2I − ŵŵᵀ].
  const Eigen::Vector3d edge(0.5, 0.3, 0.4);
  EXPECT_EQ(ClassifyCone(edge, &D), ConeCase::kSliding);
  Eigen::Matrix3d expected;
  expected << 0.5, 0.3, 0.4,  //
      0.3, 1.0 - 0.5 * 0.36, -0.5 * 0.48, 0.4, -0.5 * 0.48, 1.0 - 0.5 * 0.64;
  EXPECT_LT((D - expected).cwiseAbs().maxCoeff(), 1e-15);
  // σ₂ = 0 (y = 0, u on the boundary) and the apex w = 0 → separated, D = 0.
  EXPECT_EQ(ClassifyCone(Eigen::Vector3d(-0.5, 0.3, 0.4), &D), ConeCase::kSeparated);
  EXPECT_TRUE(D.isZero(0.0));
  EXPECT_EQ(ClassifyCone(Eigen::Vector3d::Zero(), &D), ConeCase::kSeparated);
  EXPECT_TRUE(D.isZero(0.0));
}

// D = held heldᵀ + curved diag(λ) curvedᵀ with orthonormal directions, in every case: sticking,
// separated, sliding 3D (m = 3) and in a larger cone (m = 5), half lines; 1 − λ without
// cancellation. Within 16 ε (a few roundings of entries of size <= 1).
TEST(SplitCone, ReconstructsTheProjectionJacobianInEveryCase) {
  const double tolerance = 16 * std::numeric_limits<double>::epsilon();
  std::vector<Eigen::VectorXd> points = {
      Eigen::Vector3d(1.0, 0.3, -0.2),   Eigen::Vector3d(-1.0, 0.3, 0.2),
      Eigen::Vector3d(0.1, 0.5, -0.4),   Eigen::Vector3d(-0.3, 0.0, 0.6),
      Eigen::VectorXd::Constant(1, 0.5), Eigen::VectorXd::Constant(1, -0.5)};
  Eigen::VectorXd large(5);
  large << 0.2, 0.3, -0.5, 0.1, 0.7;
  points.push_back(large);
  ConeDirections split;
  int sliding = 0;
  for (const Eigen::VectorXd& w : points) {
    SCOPED_TRACE(::testing::PrintToString(w.transpose()));
    Eigen::MatrixXd D;
    const ConeCase which = ClassifyCone(w, &D);
    SplitCone(w, &split);
    const int m = static_cast<int>(w.size());
    ASSERT_EQ(split.held.rows(), m);
    ASSERT_EQ(split.curved.rows(), m);
    ASSERT_EQ(split.lambda.size(), split.curved.cols());
    const Eigen::MatrixXd rebuilt =
        split.held * split.held.transpose() +
        split.curved * split.lambda.asDiagonal() * split.curved.transpose();
    EXPECT_LT((rebuilt - D).cwiseAbs().maxCoeff(), tolerance);
    Eigen::MatrixXd all(m, split.held.cols() + split.curved.cols());
    all.leftCols(split.held.cols()) = split.held;  // (no comma initializer: a side may be empty)
    all.rightCols(split.curved.cols()) = split.curved;
    const Eigen::MatrixXd gram = all.transpose() * all;
    if (gram.size() > 0) {  // (maxCoeff of an empty matrix is undefined)
      EXPECT_LT((gram - Eigen::MatrixXd::Identity(gram.rows(), gram.cols())).cwiseAbs().maxCoeff(),
                tolerance);
    }
    for (int c = 0; c < split.lambda.size(); ++c) {
      EXPECT_GT(split.lambda[c], 0.0);
      EXPECT_LT(split.lambda[c], 1.0);
      EXPECT_NEAR(split.gap[c], 1.0 - split.lambda[c], tolerance);
    }
    if (which == ConeCase::kSliding) {
      ++sliding;
      EXPECT_EQ(split.held.cols(), 1);
      EXPECT_EQ(split.curved.cols(), m - 2);
    }
  }
  EXPECT_EQ(sliding, 3);
}

// A sliding cone within 1 − λ <= kNearStickingGap of sticking holds its tangential
// directions (D differs from held heldᵀ by that 1 − λ only); just above, they are curved,
// with 1 − λ exact to rounding of w₀ (no cancellation in 1 − λ).
TEST(SplitCone, NearStickingTangentsAreHeld) {
  ConeDirections split;
  for (const double gap : {1e-9, 1e-7}) {
    SCOPED_TRACE(gap);
    const Eigen::Vector3d w(1.0 - 2.0 * gap, 0.6, 0.8);  // ‖w₁‖ = 1: 1 − λ = gap
    Eigen::MatrixXd D;
    ASSERT_EQ(ClassifyCone(w, &D), ConeCase::kSliding);
    SplitCone(w, &split);
    if (gap <= kNearStickingGap) {
      EXPECT_EQ(split.held.cols(), 2);
      EXPECT_EQ(split.curved.cols(), 0);
      EXPECT_LT((split.held * split.held.transpose() - D).cwiseAbs().maxCoeff(), 2.0 * gap);
    } else {
      EXPECT_EQ(split.held.cols(), 1);
      ASSERT_EQ(split.curved.cols(), 1);
      EXPECT_NEAR(split.gap[0], gap, 1e-16);
    }
  }
}

struct Case {
  std::string example;
  int steps;  // state after this many scheduled SOCP steps
  std::string phase;
};

ConeLinearization ExpectSocpMatchesFiniteDifferences(const Case& c, double tolerance) {
  SCOPED_TRACE(c.example + " after " + std::to_string(c.steps) + " steps (" + c.phase + ")");
  const Scene scene = *LoadExample(c.example);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "socp";
  const ExampleState s = StateAfter(scene, settings, c.steps);
  const ConeLinearization exact = LinearizeConeStep(scene, settings, s.q, s.u);
  ConeReferenceStep reference(scene, settings);
  const Eigen::MatrixXd fd_b = FiniteDifferenceB(reference.AsFunction(), s.q, s.u);
  const Eigen::MatrixXd fd_a = FiniteDifferenceA(scene, reference.AsFunction(), s.q, s.u);
  EXPECT_LT(RelativeError(exact.B, fd_b), reference.FdTolerance(tolerance));
  EXPECT_LT(RelativeError(exact.A, fd_a), reference.FdTolerance(tolerance));
  return exact;
}

int Count(const std::vector<ConeCase>& cases, ConeCase which) {
  return static_cast<int>(std::count(cases.begin(), cases.end(), which));
}

void PrintCases(const ConeLinearization& l) {
  std::cout << "blocks: " << Count(l.cases, ConeCase::kSticking) << " sticking, "
            << Count(l.cases, ConeCase::kSliding) << " sliding, "
            << Count(l.cases, ConeCase::kSeparated) << " separated\n";
}

// Planar scenes: the SOCP's planar contacts are pairs of half lines t ± z >= 0.
// The compact ∂u_b/∂ε (CompactBlockValueDerivative, the SOCP's r₂ rows) is −1 × the dense one
// (BlockValueDerivative) on the listed directions, entry for entry: the same sums in the same
// order, so equal to the last bit, for the 3 × 3 block (its compile-time loop) and the others.
TEST(CompactBlockValueDerivative, EqualsTheDenseDerivativeOnTheListedDirections) {
  const int nc = 3, nr = 3, nv = 9;
  StepDataContraction d;
  d.d_phi = Eigen::MatrixXd::Random(nc, nv);
  d.d_Jc_v = Eigen::MatrixXd::Random(nc * nr, nv);
  const double h = 0.01;
  const std::vector<int> columns = {0, 2, 3, 7};
  const int k = static_cast<int>(columns.size());
  std::vector<ContactConeBlock> blocks(3);
  blocks[0] = {1, nr, Eigen::Vector3d(1.0, 0.4, 0.4).asDiagonal()};  // SOCP cone, μ = 0.4
  blocks[1] = {2, 2 * nr, Eigen::MatrixXd(1, 3)};                    // frictionless half line
  blocks[1].R << 1.0, 0.0, 0.0;
  blocks[2] = {0, 0, Eigen::MatrixXd(2, 2)};  // two planar half lines on a 2-row prefix
  blocks[2].R << 1.0, 0.3, 1.0, -0.3;
  for (const ContactConeBlock& block : blocks) {
    const Eigen::MatrixXd dense = BlockValueDerivative(block, d, h);
    const int mb = static_cast<int>(block.R.rows());
    std::vector<double> compact(static_cast<size_t>(mb) * k, 0.0);
    CompactBlockValueDerivative(block, d, h, columns, -1.0, compact.data());
    for (int i = 0; i < mb; ++i)
      for (int s = 0; s < k; ++s) EXPECT_EQ(compact[i * k + s], -dense(i, columns[s]));
  }
}

TEST(SocpGradients, PlanarGripper) {
  PrintCases(ExpectSocpMatchesFiniteDifferences({"planar_gripper", 6, "fingers squeeze"},
                                                kSocpGradientFdTolerance));
  PrintCases(ExpectSocpMatchesFiniteDifferences({"planar_gripper", 15, "pulling the sphere"},
                                                kSocpGradientFdTolerance));
}

TEST(SocpGradients, PlanarHand) {
  PrintCases(ExpectSocpMatchesFiniteDifferences({"planar_hand", 25, "fingers on the object"},
                                                kSocpGradientFdTolerance));
  PrintCases(ExpectSocpMatchesFiniteDifferences({"planar_hand", 60, "object turning"},
                                                kSocpGradientFdTolerance));
}

// 3D cones. The arm approaches the first cube while the cubes rest on the table and on each
// other: sticking cones (u = 0, rank-deficient: 4 corners × 3 rows on 6 velocities) and
// separated ones; quaternion columns. Tolerance 1e-4 as for the QP on this scene
// (linearize_test.cc): 79 coordinates, larger condition numbers.
TEST(SocpGradients, ArmCubesApproach) {
  const ConeLinearization l =
      ExpectSocpMatchesFiniteDifferences({"arm_cubes", 87, "approach, cubes resting"}, 1e-4);
  PrintCases(l);
  EXPECT_GT(Count(l.cases, ConeCase::kSticking), 0);
}

// 3D sliding: a sphere pushes a cube diagonally across the ground (μ = 0.5). The four
// ground corners slide (both u and y on their cones' boundaries), the sliding branch of D;
// under the push one of them may stick, so at least one sliding cone is required.
TEST(SocpGradients, CubeSlidingDiagonallyIn3d) {
  const Scene scene = testing::DiagonalPushScene(4);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "socp";
  const Eigen::VectorXd u = testing::DiagonalPushCommand(scene);
  const ConeLinearization l = LinearizeConeStep(scene, settings, scene.q0, u);
  PrintCases(l);
  EXPECT_GE(Count(l.cases, ConeCase::kSliding), 1);  // the sliding branch is exercised
  ConeReferenceStep reference(scene, settings);
  const Eigen::MatrixXd fd_b = FiniteDifferenceB(reference.AsFunction(), scene.q0, u);
  const Eigen::MatrixXd fd_a = FiniteDifferenceA(scene, reference.AsFunction(), scene.q0, u);
  std::cout << "reference SOCP tolerance reached: " << reference.loosest_tolerance() << "\n";
  EXPECT_LT(RelativeError(l.B, fd_b), reference.FdTolerance(kSocpGradientFdTolerance));
  EXPECT_LT(RelativeError(l.A, fd_a), reference.FdTolerance(kSocpGradientFdTolerance));
}

// The range-space solve (the default) against the whole KKT system solved by a complete
// orthogonal decomposition, an independent method, at the states of the tests above (every
// case of a cone: sticking with rank-deficient rows, sliding with curvature, separated; planar
// half lines and joint limits): equal within 1e-8 relative, the bound of the range-space's
// near-sticking limit (socp_gradient.h), and of the same rank.
TEST(SocpGradients, RangeSpaceSolveMatchesWholeSystem) {
  std::vector<testing::SceneState> states;
  for (const Case& c : std::vector<Case>{{"planar_gripper", 6, ""},
                                         {"planar_gripper", 15, ""},
                                         {"planar_hand", 25, ""},
                                         {"planar_hand", 60, ""},
                                         {"arm_cubes", 87, ""}}) {
    const Scene scene = *LoadExample(c.example);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "socp";
    const ExampleState s = StateAfter(scene, settings, c.steps);
    states.push_back({c.example + " after " + std::to_string(c.steps), scene, s.q, s.u});
  }
  {
    const Scene scene = testing::DiagonalPushScene(4);
    states.push_back({"diagonal push", scene, scene.q0, testing::DiagonalPushCommand(scene)});
  }
  int sliding = 0;
  for (const testing::SceneState& s : states) {
    SCOPED_TRACE(s.name);
    testing::ProgramSettings settings = testing::SceneProgramSettings(s.scene);
    settings.type = "socp";
    const ConeLinearization range =
        LinearizeConeStep(s.scene, settings, s.q, s.u, SocpKktSolve::kRangeSpace);
    const ConeLinearization whole =
        LinearizeConeStep(s.scene, settings, s.q, s.u, SocpKktSolve::kFullKkt);
    EXPECT_LT(RelativeError(range.B, whole.B), 1e-8);
    EXPECT_LT(RelativeError(range.A, whole.A), 1e-8);
    EXPECT_EQ(range.kkt_rank, whole.kkt_rank);
    EXPECT_EQ(range.active_rows, whole.active_rows);
    sliding += Count(range.cases, ConeCase::kSliding);
  }
  EXPECT_GT(sliding, 0);  // the curvature of a sliding cone is exercised
}

// SocpSensitivity::CostSensitivity (the second-order step's ∂v⁺/∂v, anitescu_cone_program.h):
// a right side [r₁; 0] solved by the factors of the last Compute. With r₁ = ∂τ_h/∂u it is
// Compute's own ∂v/∂u (the same right side: equal to 1e-12 relative, rounding of the same
// factors), and the range-space and whole-system solves agree on other right sides within the
// 1e-8 of the test above; before a Compute, or with r₁ of the wrong height, it throws.
TEST(SocpGradients, CostSensitivityReusesTheFactorsOfCompute) {
  SocpSensitivity fresh;
  Eigen::MatrixXd dv;
  EXPECT_THROW(fresh.CostSensitivity(Eigen::MatrixXd::Zero(3, 1), &dv), std::invalid_argument);
  for (const Case& c : std::vector<Case>{{"planar_hand", 25, ""}, {"arm_cubes", 87, ""}}) {
    SCOPED_TRACE(c.example);
    const Scene scene = *LoadExample(c.example);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "socp";
    const ExampleState s = StateAfter(scene, settings, c.steps);
    const testing::ConeStep step = testing::SolveConeStep(scene, settings, s.q, s.u);
    ASSERT_EQ(step.solution.status, SolverStatus::kSolved);
    const StepProblem problem{scene, step.contacts, step.cost, settings.time_step};
    const std::vector<ContactConeBlock> blocks = SocpConeBlocks(step.contacts);
    const std::vector<Eigen::VectorXd> y =
        SocpBlockMultipliers(step.contacts, blocks, step.solution);
    const Eigen::MatrixXd command = CommandForceJacobian(scene, settings.time_step);
    const Eigen::MatrixXd other = Eigen::MatrixXd::Random(scene.nv, 3);
    Eigen::MatrixXd solved[2];
    const SocpKktSolve solves[2] = {SocpKktSolve::kRangeSpace, SocpKktSolve::kFullKkt};
    for (int k = 0; k < 2; ++k) {
      SocpSensitivity sensitivity;
      VelocityGradient gradient;
      sensitivity.Compute(problem, blocks, y, step.solution.limit_impulse, step.solution.v, nullptr,
                          solves[k], &gradient);
      sensitivity.CostSensitivity(command, &dv);
      EXPECT_LT(RelativeError(dv, gradient.dv_du), 1e-12) << k;
      sensitivity.CostSensitivity(other, &solved[k]);
      EXPECT_THROW(sensitivity.CostSensitivity(Eigen::MatrixXd::Zero(scene.nv + 1, 1), &dv),
                   std::invalid_argument);
    }
    EXPECT_LT(RelativeError(solved[0], solved[1]), 1e-8);
  }
}

}  // namespace
}  // namespace quasidyn
