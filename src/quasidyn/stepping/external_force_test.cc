// External generalized forces τ_ext on the objects (Scene::external_force, StepData::
// external_force; dynamics/quasi_dynamic_cost.h): a closed form, the per-step override, the
// errors, and the gradients of a step under τ_ext against finite differences.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/gradients/finite_difference.h"
#include "quasidyn/model/scene_error.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/testing/example_states.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/program_settings.h"
#include "quasidyn/testing/stepper.h"

namespace quasidyn {
namespace {

// A free ball (no contact, no gravity) under a constant wrench at its centre: mass 2 kg,
// inertia 0.01 kg·m² about every axis.
std::string FreeBallScene(const std::string& external_force) {
  return "name: free\ndimension: 3\ngravity: [0, 0, 0]\ntime_step: 0.1\n"
         "objects:\n  - name: ball\n    joint: floating\n"
         "    body: {mass: 2.0, inertia: {principal: [0.01, 0.01, 0.01]},\n"
         "           shapes: [{type: sphere, radius: 0.1, friction: 0.5}]}\n"
         "    initial: [0, 0, 1, 1, 0, 0, 0]\n" +
         external_force;
}

// The quasi-dynamic step with no contact solves s·M v = h τ_ext (quasi_dynamic_cost.h), so
// the ball moves by h v = h² f / (s m) and turns by h ω = h² I⁻¹ m_ext / s, in every convex
// formulation.
TEST(ExternalForce, FreeBallMovesAsTheClosedForm) {
  const Scene scene = LoadSceneFromString(
      FreeBallScene("    external_force: [1.0, -2.0, 4.0, 0.0, 0.0, 0.002]\n"), "free.yaml", ".");
  ASSERT_EQ(scene.external_force.size(), 6);
  for (std::string type : {"qp", "socp", "log-barrier", "log-barrier-cone"}) {
    SCOPED_TRACE(std::string(type));
    testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
    settings.type = type;
    settings.object_mass_scale = 0.5;
    testing::Stepper stepper(scene, settings);
    const StepResult& result = stepper.Step(scene.q0, Eigen::VectorXd(0));
    ASSERT_TRUE(result.ok()) << result.message;
    const double h = 0.1, s = 0.5, m = 2.0, inertia = 0.01;
    const Eigen::Vector3d displacement = result.next.q.head<3>() - scene.q0.head<3>();
    // Tolerance: the solvers' relative accuracy (1e-8) on displacements of O(1e-2) m.
    EXPECT_TRUE(displacement.isApprox(h * h / (s * m) * Eigen::Vector3d(1.0, -2.0, 4.0), 1e-6))
        << displacement.transpose();
    const double angle = 2.0 * std::atan2(result.next.q[6], result.next.q[3]);  // about z
    EXPECT_NEAR(angle, h * h * 0.002 / (s * inertia), 1e-8);
  }
}

TEST(ExternalForce, PerStepForceOverridesTheScenes) {
  const Scene with = LoadSceneFromString(
      FreeBallScene("    external_force: [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]\n"), "free.yaml", ".");
  const Scene without = LoadSceneFromString(FreeBallScene(""), "free.yaml", ".");
  EXPECT_EQ(without.external_force.size(), 0);
  testing::ProgramSettings settings = testing::SceneProgramSettings(with);
  settings.type = "qp";
  testing::Stepper scene_force(with, settings), step_force(without, settings);
  const Eigen::VectorXd q_scene = scene_force.Step(with.q0, Eigen::VectorXd(0)).next.q;
  Eigen::VectorXd tau(6);
  tau << 1.0, 0.0, 0.0, 0.0, 0.0, 0.0;
  step_force.data().external_force = tau;
  const Eigen::VectorXd q_step = step_force.Step(without.q0, Eigen::VectorXd(0)).next.q;
  EXPECT_TRUE(q_step.isApprox(q_scene, 1e-12));
  EXPECT_GT((q_step - without.q0).norm(), 1e-3);  // the force moved it
  step_force.data().external_force = Eigen::VectorXd::Zero(5);
  EXPECT_THROW(step_force.Step(without.q0, Eigen::VectorXd(0)), std::invalid_argument);
}

TEST(ExternalForce, SceneErrorsNameTheField) {
  const auto error_of = [](const std::string& key) {
    try {
      LoadSceneFromString(FreeBallScene(key), "free.yaml", ".");
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };

  EXPECT_NE(error_of("    external_force: [1, 2, 3]\n")
                .find("free.yaml:11: objects[0].external_force: must have 6 numbers"),
            std::string::npos)
      << error_of("    external_force: [1, 2, 3]\n");
  EXPECT_NE(error_of("    external_force: [1, 2, 3, .nan, 0, 0]\n").find("must be finite"),
            std::string::npos);
}

// A step of planar pushing while the pusher slides the box, with an external force and moment
// on the box: A and B of the exact QP gradient against central finite differences
// (tolerance as calc_diff_test.cc's kFdTolerance: the reference solver's accuracy over the
// FD step, with a margin).
TEST(ExternalForce, ExactGradientsMatchFiniteDifferences) {
  Scene scene = *testing::LoadExample("planar_pushing");
  ASSERT_EQ(scene.nv_u, 3);
  scene.external_force = Eigen::Vector3d(-1.0, 0.0, 0.02);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "qp";
  const testing::ExampleState s = testing::StateAfter(scene, settings, 50);
  const testing::Linearization exact = testing::Linearize(
      scene, settings, s.q, s.u, GradientMode::kAAndB, LinearizationMethod::kExact);
  ASSERT_TRUE(exact.ok()) << exact.message;
  testing::ReferenceStep reference(scene, settings);
  const Eigen::MatrixXd B = FiniteDifferenceB(reference.AsFunction(), s.q, s.u);
  const Eigen::MatrixXd A = FiniteDifferenceA(scene, reference.AsFunction(), s.q, s.u);
  EXPECT_LT(testing::RelativeError(exact.B, B), 1e-5);
  EXPECT_LT(testing::RelativeError(exact.A, A), 1e-5);
  // The force changes the step (else this test could not tell it is ignored).
  Scene unforced = scene;
  unforced.external_force.resize(0);
  testing::Stepper with(scene, settings), without(unforced, settings);
  EXPECT_GT((with.Step(s.q, s.u).next.q - without.Step(s.q, s.u).next.q).norm(), 1e-6);
}

TEST(ExternalForce, HalmPosaRejectsExternalForces) {
  Scene scene = *testing::LoadExample("disk_pushing");
  scene.external_force = Eigen::VectorXd::Zero(scene.nv_u);
  testing::ProgramSettings settings = testing::SceneProgramSettings(scene);
  settings.type = "halm-posa";
  EXPECT_THROW(MakeStepModel(std::make_shared<const Scene>(scene), settings),
               std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
