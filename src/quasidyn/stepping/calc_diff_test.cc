// CalcDiff of the quasi-dynamic models (stepping/quasi_dynamic_derivatives.cc) against central
// finite differences of the step, closed forms and the exact/smoothed limits.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "quasidyn/testing/cone_step_checks.h"
#include "quasidyn/testing/dynamics_scenes.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

using testing::ExampleState;
using testing::Linearization;
using testing::LoadExample;
using testing::ReferenceStep;
using testing::RelativeError;
using testing::StateAfter;

// FD reference error: the reference solver's accuracy τ = 1e-12 over the FD step
// δ = 6e-6·max(1,|x|) gives ≈ 2e-7 relative, truncation O(δ²) ≈ 4e-11; the exact gradients'
// own data differences are ≈ 1e-10. 1e-5 leaves a margin of 50 over the solver term while an
// omitted term of A (∂J/∂q, ∂M/∂q, the normalisation) changes entries by O(0.01 – 1).
constexpr double kFdTolerance = 1e-5;

struct Case {
  std::string example;
  int steps;  // state after this many scheduled QP steps
  std::string phase;
};

void ExpectExactMatchesFiniteDifferences(const Case& c, double tolerance) {
  SCOPED_TRACE(c.example + " after " + std::to_string(c.steps) + " steps (" + c.phase + ")");
  const Scene scene = *LoadExample(c.example);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  const ExampleState s = StateAfter(scene, settings, c.steps);
  const Linearization exact = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kAAndB,
                                                 LinearizationMethod::kExact);
  ASSERT_TRUE(exact.ok()) << exact.message;
  EXPECT_GT(exact.active_rows, 0);
  ReferenceStep reference(scene, settings);
  const Eigen::MatrixXd B = FiniteDifferenceB(reference.AsFunction(), s.q, s.u);
  const Eigen::MatrixXd A = FiniteDifferenceA(scene, reference.AsFunction(), s.q, s.u);
  EXPECT_LT(RelativeError(exact.B, B), tolerance);
  EXPECT_LT(RelativeError(exact.A, A), tolerance);
  // The B-only mode gives the same B and no A.
  const Linearization b_only = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kBOnly,
                                                  LinearizationMethod::kExact);
  EXPECT_EQ(b_only.A.size(), 0);
  EXPECT_LT(RelativeError(b_only.B, exact.B), 1e-12);
}

TEST(ExactGradients, PlanarGripperSqueezingAndLifting) {
  ExpectExactMatchesFiniteDifferences({"planar_gripper", 6, "fingers squeeze, sticking"},
                                      kFdTolerance);
  ExpectExactMatchesFiniteDifferences({"planar_gripper", 15, "pulling the sphere"}, kFdTolerance);
}

TEST(ExactGradients, PlanarPushingSlidingBox) {
  ExpectExactMatchesFiniteDifferences({"planar_pushing", 25, "pushing"}, kFdTolerance);
  ExpectExactMatchesFiniteDifferences({"planar_pushing", 50, "box sliding on the table"},
                                      kFdTolerance);
}

TEST(ExactGradients, PlanarHand) {
  ExpectExactMatchesFiniteDifferences({"planar_hand", 25, "fingers on the object"}, kFdTolerance);
  // The object turns (ω ≠ 0) in these states: there ∂J/∂q matters. Dropping it (dG = 0 in
  // qp_gradient.cc) was checked to raise the error to 2.9e-3 and 3.7e-3, above kFdTolerance.
  ExpectExactMatchesFiniteDifferences({"planar_hand", 60, "object turning"}, kFdTolerance);
  ExpectExactMatchesFiniteDifferences({"planar_hand", 80, "object turning"}, kFdTolerance);
}

TEST(ExactGradients, ArmCubesApproach) {
  // The arm moves toward the first cube while the cubes rest on the ground and on the stack
  // (3D floating bodies: quaternion columns, E(Q), normalisation). 79 coordinates.
  ExpectExactMatchesFiniteDifferences({"arm_cubes", 87, "approach, cubes resting"}, 1e-4);
}

// A box resting flat on the ground under tilted gravity: 2 corners × 2 pyramid rows = 4 rows
// on 3 velocities, so the KKT matrix is rank deficient when all are active (sticking,
// tan θ = 0.2 < μ = 0.5); sliding for tan θ = 0.84 > μ. Exact A against FD.
TEST(ExactGradients, RankDeficientStickingAndSlidingBox) {
  for (double theta : {0.2, 0.7}) {
    SCOPED_TRACE("gravity tilt " + std::to_string(theta));
    const Scene scene = testing::TiltedGravityBoxScene(theta);
    const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    const Eigen::VectorXd u(0);
    const Linearization l = testing::Linearize(scene, settings, scene.q0, u, GradientMode::kAAndB,
                                               LinearizationMethod::kExact);
    ASSERT_TRUE(l.ok()) << l.message;
    ReferenceStep reference(scene, settings);
    EXPECT_LT(RelativeError(l.A, FiniteDifferenceA(scene, reference.AsFunction(), scene.q0, u)),
              kFdTolerance);
    EXPECT_EQ(l.B.cols(), 0);
    // Sticking: both rays of both corners push (4 rows, rank 3); sliding: one ray per corner.
    EXPECT_EQ(l.active_rows, theta < 0.5 ? 4 : 2);
    // Translation invariance along the ground: ∂x⁺/∂x = 1 whether sticking or sliding.
    EXPECT_NEAR(l.A(0, 0), 1.0, 1e-9);
  }
}

// Closed form: planar_pushing at q0, pusher 0.08 m from the box (not in the contact set), box
// resting on the table. Robot: q_a⁺ = q_a + h v_a with v_a = (u − q_a)/h, so q_a⁺ = u:
// B_a = I, ∂q_a⁺/∂q_a = 0. Box: the table row is active, x is translation invariant
// (∂x⁺/∂x = 1), and a lift δy is undone in the step (φ/h + v_y = 0: ∂y⁺/∂y = 0).
TEST(ExactGradients, FreeRobotAndRestingBoxInClosedForm) {
  const Scene scene = *LoadExample("planar_pushing");
  const testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  const Eigen::VectorXd u = scene.q0.tail(scene.nq_a) + Eigen::VectorXd::Constant(scene.nq_a, 1e-3);
  const Linearization l = testing::Linearize(scene, settings, scene.q0, u, GradientMode::kAAndB,
                                             LinearizationMethod::kExact);
  ASSERT_TRUE(l.ok()) << l.message;
  const int nu = scene.nq_u, na = scene.nq_a;
  EXPECT_LT((l.B.bottomRows(na) - Eigen::MatrixXd::Identity(na, na)).norm(), 1e-9);
  EXPECT_LT(l.B.topRows(nu).norm(), 1e-9);
  EXPECT_LT(l.A.bottomRightCorner(na, na).norm(), 1e-9);
  EXPECT_NEAR(l.A(0, 0), 1.0, 1e-9);
  EXPECT_NEAR(l.A(1, 1), 0.0, 1e-9);
}

TEST(CalcDiff, ModeNoneLeavesTheStepOfTheModel) {
  const Scene scene = *LoadExample("planar_gripper");
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  const ExampleState s = StateAfter(scene, settings, 6);
  const Linearization l = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kNone,
                                             LinearizationMethod::kExact);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l.A.size(), 0);
  EXPECT_EQ(l.B.size(), 0);
  testing::Stepper stepper(scene, settings);
  // Same program and solver settings as the step model's: identical up to round-off.
  EXPECT_LT((l.q_next - stepper.Step(s.q, s.u).next.q).norm(), 1e-12);
  EXPECT_THROW(testing::Linearize(scene, settings, s.q.head(2), s.u, GradientMode::kNone,
                                  LinearizationMethod::kExact),
               std::invalid_argument);
}

// The smoothed gradients are the exact derivatives of the barrier step: against FD of that
// step (solved by damped Newton to a decrement of 1e-14, so its error over δ is ≈ 1e-9).
TEST(LogBarrierGradients, MatchFiniteDifferencesOfTheBarrierStep) {
  for (const auto& [example, steps] : std::vector<std::pair<std::string, int>>{
           {"planar_gripper", 6}, {"planar_pushing", 50}, {"planar_hand", 25}}) {
    SCOPED_TRACE(example);
    const Scene scene = *LoadExample(example);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "qp";
    const ExampleState s = StateAfter(scene, settings, steps);
    settings.type = "log-barrier";
    const Linearization smooth = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kAAndB,
                                                    LinearizationMethod::kLogBarrier);
    ASSERT_TRUE(smooth.ok()) << smooth.message;
    ReferenceStep reference(scene, settings);
    EXPECT_LT(RelativeError(smooth.B, FiniteDifferenceB(reference.AsFunction(), s.q, s.u)),
              kFdTolerance);
    EXPECT_LT(RelativeError(smooth.A, FiniteDifferenceA(scene, reference.AsFunction(), s.q, s.u)),
              kFdTolerance);
  }
}

// κ → ∞: the barrier step tends to the QP step (O(1/κ) under strict complementarity) and so
// do its gradients: the distance to the exact B and A must shrink as κ grows by 100×.
TEST(LogBarrierGradients, ApproachTheExactGradientsAsKappaGrows) {
  const Scene scene = *LoadExample("planar_gripper");
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  const ExampleState s = StateAfter(scene, settings, 6);
  const Linearization exact = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kAAndB,
                                                 LinearizationMethod::kExact);
  ASSERT_TRUE(exact.ok());
  double previous_b = 1e300, previous_a = 1e300;
  for (double kappa : {1e2, 1e4, 1e6, 1e8}) {
    settings.kappa = kappa;
    const Linearization smooth = testing::Linearize(scene, settings, s.q, s.u, GradientMode::kAAndB,
                                                    LinearizationMethod::kLogBarrier);
    ASSERT_TRUE(smooth.ok()) << smooth.message;
    const double error_b = RelativeError(smooth.B, exact.B);
    const double error_a = RelativeError(smooth.A, exact.A);
    std::cout << "kappa " << kappa << ": |B − B_exact| " << error_b << ", |A − A_exact| " << error_a
              << "\n";
    EXPECT_LT(error_b, previous_b);
    EXPECT_LT(error_a, previous_a);
    previous_b = error_b;
    previous_a = error_a;
  }
  EXPECT_LT(previous_b, 1e-3);
  EXPECT_LT(previous_a, 1e-3);
}

// Friction-cone formulations through CalcDiff, with the contractions of
// contact_data_derivative.h: against FD of the SOCP (tolerance 1e-12) or of the cone barrier.
void ExpectConeLinearizationMatchesFiniteDifferences(const Scene& scene,
                                                     testing::ProgramSettings settings,
                                                     const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& u,
                                                     LinearizationMethod method, double tolerance) {
  settings.type = method == LinearizationMethod::kExact ? "socp" : "log-barrier-cone";
  const Linearization l = testing::Linearize(scene, settings, q, u, GradientMode::kAAndB, method);
  ASSERT_TRUE(l.ok()) << l.message;
  testing::ConeReferenceStep reference(scene, settings);
  const Eigen::MatrixXd fd_b = FiniteDifferenceB(reference.AsFunction(), q, u);
  const Eigen::MatrixXd fd_a = FiniteDifferenceA(scene, reference.AsFunction(), q, u);
  EXPECT_LT(RelativeError(l.B, fd_b), reference.FdTolerance(tolerance));
  EXPECT_LT(RelativeError(l.A, fd_a), reference.FdTolerance(tolerance));
  const Linearization b_only =
      testing::Linearize(scene, settings, q, u, GradientMode::kBOnly, method);
  EXPECT_EQ(b_only.A.size(), 0);
  EXPECT_LT(RelativeError(b_only.B, l.B), 1e-12);
}

TEST(ConeLinearize, ExactSocpAndConeBarrierMatchFiniteDifferences) {
  for (LinearizationMethod method :
       {LinearizationMethod::kExact, LinearizationMethod::kLogBarrier}) {
    SCOPED_TRACE(method == LinearizationMethod::kExact ? "SOCP" : "cone barrier");
    {
      SCOPED_TRACE("planar_hand, object turning");
      const Scene scene = *LoadExample("planar_hand");
      testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
      settings.type = "socp";
      const ExampleState s = StateAfter(scene, settings, 60);
      ExpectConeLinearizationMatchesFiniteDifferences(scene, settings, s.q, s.u, method,
                                                      kFdTolerance);
    }
    {
      SCOPED_TRACE("cube pushed diagonally (3D cones, sliding)");
      const Scene scene = testing::DiagonalPushScene(4);
      ExpectConeLinearizationMatchesFiniteDifferences(scene, testing::SceneProgramSettings(scene),
                                                      scene.q0, testing::DiagonalPushCommand(scene),
                                                      method, kFdTolerance);
    }
    {
      SCOPED_TRACE("arm_cubes approach (3D cones, quaternions)");
      const Scene scene = *LoadExample("arm_cubes");
      testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
      settings.type = "socp";
      const ExampleState s = StateAfter(scene, settings, 87);
      if (method == LinearizationMethod::kExact) {
        ExpectConeLinearizationMatchesFiniteDifferences(scene, settings, s.q, s.u, method, 1e-4);
      } else {
        // The barrier keeps a log term for every contact within ε, so where the face-on-face
        // manifolds of the resting cubes gain or lose points under a perturbation of q as
        // small as the FD step, the barrier step itself jumps and central differences of it
        // in q mean nothing (docs/gradients.md, "Where A does not exist"). Check that this is
        // the reason, then compare B, whose differences leave q and the contact set alone.
        ASSERT_TRUE(testing::ContactSetChangesWithinFdStep(scene, s.q));
        settings.type = "log-barrier-cone";
        const Linearization l =
            testing::Linearize(scene, settings, s.q, s.u, GradientMode::kBOnly, method);
        ASSERT_TRUE(l.ok()) << l.message;
        testing::ConeReferenceStep reference(scene, settings);
        EXPECT_LT(RelativeError(l.B, FiniteDifferenceB(reference.AsFunction(), s.q, s.u)), 1e-4);
      }
    }
  }
}

// The reference simulator's conventions (model/simulator_conventions.h: its ray basis, the
// first-order quaternion update, no joint-limit rows) on the diagonally pushed cube, turned
// (below), which slides and turns further: the exact pyramid QP's and SOCP's A and B against
// central differences of reference steps that integrate as the scene says (StepConfiguration). n_d
// = 2 is the simulator's pair of rays ±x̂ × n; the tolerances are kFdTolerance's (above) and the
// 1e-4 of the 3D cone case above.
Scene ParityPushScene(int rays, SimulatorConventions conventions = QsimConventions()) {
  Scene scene = testing::DiagonalPushScene(4);
  scene.conventions = conventions;
  scene.friction_rays = rays;
  return scene;
}

// The cube turned 0.1 rad about z: the pusher's contact normal is then no world axis. qsim's
// frame takes the axis of n's smallest component, so it jumps where two components are equally
// small (at n = ±x̂, the normal of the cube at q0, the y and z components): the step of an odd
// or n_d = 6 pyramid jumps there, and n_d = 2's rays ±x̂ × n are undefined at ±x̂ (the
// simulator's vanish). Away from those normals the frame and the step are smooth.
Eigen::VectorXd TurnedCube(const Scene& scene) {
  Eigen::VectorXd q = scene.q0;
  q.segment<4>(3) = Eigen::Vector4d(std::cos(0.05), 0, 0, std::sin(0.05));
  return q;
}

// Each convention alone, then all three (the rays' frame with the pyramid's n_d).
std::vector<std::pair<std::string, Scene>> ParityPushScenes() {
  SimulatorConventions rays, quaternions;
  rays.friction_ray_basis = FrictionRayBasis::kQsim;
  quaternions.quaternion_update = QuaternionUpdate::kFirstOrder;
  return {{"quasidyn's conventions", ParityPushScene(4, SimulatorConventions{})},
          {"qsim rays, n_d 4", ParityPushScene(4, rays)},
          {"first-order quaternions", ParityPushScene(4, quaternions)},
          {"qsim, n_d 2", ParityPushScene(2)},
          {"qsim, n_d 4", ParityPushScene(4)},
          {"qsim, n_d 6", ParityPushScene(6)}};
}

TEST(ParityMode, ExactPyramidGradientsMatchFiniteDifferences) {
  for (const auto& [name, scene] : ParityPushScenes()) {
    SCOPED_TRACE(name);
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = "qp";
    const Eigen::VectorXd u = testing::DiagonalPushCommand(scene);
    const Eigen::VectorXd q = TurnedCube(scene);
    const Linearization exact = testing::Linearize(scene, settings, q, u, GradientMode::kAAndB,
                                                   LinearizationMethod::kExact);
    ASSERT_TRUE(exact.ok()) << exact.message;
    // The cube turns: the quaternion update is exercised.
    EXPECT_GT((exact.q_next.segment<4>(3) - q.segment<4>(3)).norm(), 1e-6);
    ReferenceStep reference(scene, settings);
    EXPECT_LT(RelativeError(exact.B, FiniteDifferenceB(reference.AsFunction(), q, u)),
              kFdTolerance);
    EXPECT_LT(RelativeError(exact.A, FiniteDifferenceA(scene, reference.AsFunction(), q, u)),
              kFdTolerance);
  }
}

// The SOCP with the simulator's quaternion update and joint-limit rule at q0, against central
// differences.
TEST(ParityMode, ExactSocpGradientsMatchFiniteDifferences) {
  SimulatorConventions conventions = QsimConventions();
  conventions.friction_ray_basis = FrictionRayBasis::kQuasidyn;
  const Scene scene = ParityPushScene(4, conventions);
  ExpectConeLinearizationMatchesFiniteDifferences(scene, testing::SceneProgramSettings(scene),
                                                  scene.q0, testing::DiagonalPushCommand(scene),
                                                  LinearizationMethod::kExact, 1e-4);
}

// The SOCP's cone, hence its step and gradients, does not depend on the tangent frame: with
// qsim's frame (and its derivative, which the contraction of the contact data uses) A and B are
// those of quasidyn's frame. The two solves agree to the SOCP's tolerance 1e-9 (relative,
// solvers/socp.h); 1e-8 leaves a margin of 10, while a wrong frame derivative changes A by
// O(μ λ |dt|) (1e-3 … 1 here). (Central differences of the reference SOCP with qsim's frame
// reach only its looser tolerance 1e-10 on this cube, which leaves them 6e-3 off: the
// comparison is made between the frames instead.)
TEST(ParityMode, SocpGradientsDoNotDependOnTheFrame) {
  SimulatorConventions quasidyn_frame = QsimConventions();
  quasidyn_frame.friction_ray_basis = FrictionRayBasis::kQuasidyn;
  const Scene qsim = ParityPushScene(4), quasidyn = ParityPushScene(4, quasidyn_frame);
  testing::ProgramSettings settings = testing::SceneProgramSettings(qsim);
  settings.type = "socp";
  const Eigen::VectorXd u = testing::DiagonalPushCommand(qsim);
  for (const Eigen::VectorXd& q : {qsim.q0, TurnedCube(qsim)}) {
    const Linearization a =
        testing::Linearize(qsim, settings, q, u, GradientMode::kAAndB, LinearizationMethod::kExact);
    const Linearization b = testing::Linearize(quasidyn, settings, q, u, GradientMode::kAAndB,
                                               LinearizationMethod::kExact);
    ASSERT_TRUE(a.ok() && b.ok()) << a.message << b.message;
    EXPECT_LT(RelativeError(a.A, b.A), 1e-8);
    EXPECT_LT(RelativeError(a.B, b.B), 1e-8);
    EXPECT_GT(a.A.norm(), 0.0);
  }
}

// The table of formulation_table.h: the type picks pyramid or cone, the method exact or
// barrier; q_next is the step model's when method and type agree.
TEST(ConeLinearize, TypeAndMethodPickTheProgram) {
  const Scene scene = testing::DiagonalPushScene(4);
  const Eigen::VectorXd u = testing::DiagonalPushCommand(scene);
  testing::ProgramSettings socp = testing::SceneProgramSettings(scene);
  socp.type = "socp";
  testing::ProgramSettings cone_barrier = socp;
  cone_barrier.type = "log-barrier-cone";
  const Eigen::VectorXd q_socp = testing::Stepper(scene, socp).Step(scene.q0, u).next.q;
  const Eigen::VectorXd q_barrier = testing::Stepper(scene, cone_barrier).Step(scene.q0, u).next.q;
  ASSERT_GT((q_socp - q_barrier).norm(), 1e-6);  // the two programs differ at κ = 100
  for (const testing::ProgramSettings& settings : {socp, cone_barrier}) {
    const Linearization exact = testing::Linearize(
        scene, settings, scene.q0, u, GradientMode::kNone, LinearizationMethod::kExact);
    const Linearization smooth = testing::Linearize(
        scene, settings, scene.q0, u, GradientMode::kNone, LinearizationMethod::kLogBarrier);
    ASSERT_TRUE(exact.ok() && smooth.ok());
    // Same programs and solver settings as the stepper: identical up to round-off.
    EXPECT_LT((exact.q_next - q_socp).norm(), 1e-12);
    EXPECT_LT((smooth.q_next - q_barrier).norm(), 1e-12);
  }
}

}  // namespace
}  // namespace quasidyn
